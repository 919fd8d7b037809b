//! Kindergarten bitboards (Gerd Isenberg): a line's occupancy gathered into
//! six index bits by one multiply, then a small table. Seed 004 claims HQ
//! "outperforms kindergarten"; this row is what that claim is measured
//! against.
//!
//! ```text
//! rank, diagonal, anti-diagonal:  idx = ((occ & line) * B_FILE) >> 58
//!                                 attacks = line & FILL_UP[file][idx]
//! file:                           idx = ((A_FILE & (occ >> file)) * DIAG_C7_B2) >> 58
//!                                 attacks = A_FILE_ATTACKS[rank][idx] << file
//! ```

use super::{compiled_up_to_v3, line_table};
use crate::{Data, Lookup, Piece, Workload};
use hq::{Bitboard, Line, Square};

const A_FILE: u64 = 0x0101_0101_0101_0101;
const B_FILE: u64 = A_FILE << 1;
/// Gathers the a-file's inner bits (ranks 2..7) into the top six bits.
const DIAG_C7_B2: u64 = 0x0004_0810_2040_8000;

/// `FILL_UP[file][idx]`: the first-rank attacks of `file` for the inner
/// occupancy `idx` (by file), copied to every rank; masked by the line.
static FILL_UP: [[u64; 64]; 8] = {
    let ranks = line_table(Line::Rank, false);
    let mut t = [[0u64; 64]; 8];
    let mut f = 0;
    while f < 8 {
        let mut i = 0;
        while i < 64 {
            t[f][i] = ranks[f][i] * A_FILE;
            i += 1;
        }
        f += 1;
    }
    t
};

/// `A_FILE_ATTACKS[rank][idx]`: the a-file attacks from `rank` for the
/// inner occupancy `idx` (by rank).
static A_FILE_ATTACKS: [[u64; 64]; 8] = {
    let files = line_table(Line::File, true);
    let mut t = [[0u64; 64]; 8];
    let mut r = 0;
    while r < 8 {
        t[r] = files[r * 8];
        r += 1;
    }
    t
};

/// Kindergarten bitboards (`ref-kindergarten`).
#[derive(Clone, Copy, Debug)]
pub struct Kindergarten;

impl Kindergarten {
    #[inline(always)]
    fn fill_up(line: u64, sq: Square, occ: u64) -> u64 {
        let index = ((occ & line).wrapping_mul(B_FILE) >> 58) as usize;
        line & FILL_UP[sq as usize & 7][index]
    }

    #[inline(always)]
    fn file(sq: Square, occ: u64) -> u64 {
        let file = sq as u32 & 7;
        let index = ((A_FILE & (occ >> file)).wrapping_mul(DIAG_C7_B2) >> 58) as usize;
        A_FILE_ATTACKS[sq as usize >> 3][index] << file
    }
}

impl Lookup for Kindergarten {
    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        let line = hq_core::LINE_MASKS[sq as usize].rank;
        Bitboard(Self::fill_up(line, sq, occ.0) | Self::file(sq, occ.0))
    }
    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        let m = &hq_core::LINE_MASKS[sq as usize];
        Bitboard(Self::fill_up(m.diagonal, sq, occ.0) | Self::fill_up(m.anti_diagonal, sq, occ.0))
    }
    compiled_up_to_v3!();
}
