//! Obstruction difference (Michael Hoffmann): per line, the nearest
//! blocker below the square by `lzcnt`, the nearest above by the borrow of
//! one subtraction, no reversal and no table but three masks per line —
//! the strongest table-free single lookup the seeds' claims are measured
//! against.
//!
//! ```text
//! lower = occ & ray_below      upper = occ & ray_above
//! ms1b  = 0x8000_0000_0000_0000 >> lzcnt(lower | 1)
//! attacks = line & (upper ^ (upper - ms1b))
//! ```

use super::compiled_up_to_v3;
use crate::{Data, Lookup, Piece, Workload};
use hq::{Bitboard, Line, Square};
use hq_core::RAY_MASKS;

/// The masks of one line through one square.
#[derive(Clone, Copy)]
struct LineRays {
    below: u64,
    above: u64,
    line: u64,
}

/// `RAYS[sq][line as usize]`.
static RAYS: [[LineRays; 4]; 64] = {
    let zero = LineRays {
        below: 0,
        above: 0,
        line: 0,
    };
    let mut t = [[zero; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut l = 0;
        while l < 4 {
            let [up, down] = Line::ALL[l].directions();
            assert!(up.is_positive() && !down.is_positive());
            let (above, below) = (RAY_MASKS[up as usize][sq], RAY_MASKS[down as usize][sq]);
            t[sq][l] = LineRays {
                below,
                above,
                line: above | below,
            };
            l += 1;
        }
        sq += 1;
    }
    t
};

/// Obstruction difference (`ref-obstruction-difference`).
#[derive(Clone, Copy, Debug)]
pub struct ObstructionDifference;

impl ObstructionDifference {
    #[inline(always)]
    fn line(rays: &LineRays, occ: u64) -> u64 {
        let lower = occ & rays.below;
        let upper = occ & rays.above;
        let ms1b = 0x8000_0000_0000_0000u64 >> (lower | 1).leading_zeros();
        rays.line & (upper ^ upper.wrapping_sub(ms1b))
    }
}

impl Lookup for ObstructionDifference {
    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        let r = &RAYS[sq as usize];
        let (rank, file) = (Line::Rank as usize, Line::File as usize);
        Bitboard(Self::line(&r[rank], occ.0) | Self::line(&r[file], occ.0))
    }
    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        let r = &RAYS[sq as usize];
        let (d, a) = (Line::Diagonal as usize, Line::AntiDiagonal as usize);
        Bitboard(Self::line(&r[d], occ.0) | Self::line(&r[a], occ.0))
    }
    compiled_up_to_v3!();
}
