//! Rotated bitboards (Hyatt): every line's occupancy made a contiguous byte
//! of some rotated board, then a table indexed by that byte. Seed 002 claims
//! reverse bitboards are "faster and easier" than rotated ones; this row is
//! what that claim is measured against.
//!
//! An engine with rotated bitboards keeps the rotated boards up to date in
//! make/unmake. Here, as the `reverse-bitboards` row reverses its occupancy
//! on every call, the rotations are done on every call (three bit
//! permutations of about a dozen operations each):
//!
//! ```text
//! rank:           its byte of the board, positions by file
//! file:           flip about a1-h8 (files become ranks), positions by rank
//! diagonal:       file f rotated down by f ranks: diagonal r - f = d lies on rank d mod 8
//! anti-diagonal:  file f rotated up by f ranks:   anti-diagonal r + f = a on rank a mod 8
//! ```
//!
//! (The two diagonals that share a rotated rank are told apart by a mask.)

use super::{compiled_up_to_v3, line_table};
use crate::{Data, Lookup, Piece, Workload};
use hq::{Bitboard, Line, Square};

static RANKS: [[u64; 64]; 64] = line_table(Line::Rank, false);
static FILES: [[u64; 64]; 64] = line_table(Line::File, true);
static DIAGONALS: [[u64; 64]; 64] = line_table(Line::Diagonal, false);
static ANTI_DIAGONALS: [[u64; 64]; 64] = line_table(Line::AntiDiagonal, false);

/// Per square: where its diagonal lies in the rotated board (the rank's
/// shift) and which bits of that rank are the diagonal's.
#[derive(Clone, Copy)]
struct Place {
    shift: u32,
    bits: u64,
}

static DIAGONAL_PLACES: [Place; 64] = places(false);
static ANTI_DIAGONAL_PLACES: [Place; 64] = places(true);

const fn places(anti: bool) -> [Place; 64] {
    let mut t = [Place { shift: 0, bits: 0 }; 64];
    let mut sq = 0;
    while sq < 64 {
        let line = if anti {
            Line::AntiDiagonal
        } else {
            Line::Diagonal
        };
        // The whole line (with the square), rotated: one rank.
        let rotated = rotate_files(hq_core::LINE_MASKS[sq].get(line) | 1 << sq, anti);
        let shift = rotated.trailing_zeros() / 8 * 8;
        assert!(
            rotated >> shift <= 0xFF,
            "a rotated diagonal lies on one rank"
        );
        t[sq] = Place {
            shift,
            bits: rotated >> shift,
        };
        sq += 1;
    }
    t
}

/// The board transposed about a1-h8: square (rank r, file f) to (f, r).
#[inline(always)]
const fn flip_a1_h8(mut x: u64) -> u64 {
    let mut t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// Each file `f` rotated down (`anti`: up) by `f` ranks.
#[inline(always)]
const fn rotate_files(mut x: u64, anti: bool) -> u64 {
    // Files with bit k of the file number set: b, d, f, h; c, d, g, h; e..h.
    const FILES_WITH: [u64; 3] = [
        0xAAAA_AAAA_AAAA_AAAA,
        0xCCCC_CCCC_CCCC_CCCC,
        0xF0F0_F0F0_F0F0_F0F0,
    ];
    let mut k = 0;
    while k < 3 {
        let moved = if anti {
            x.rotate_left(8 << k)
        } else {
            x.rotate_right(8 << k)
        };
        x = (x & !FILES_WITH[k]) | (moved & FILES_WITH[k]);
        k += 1;
    }
    x
}

/// The inner six bits of a line's byte.
#[inline(always)]
const fn inner(byte: u64) -> usize {
    ((byte >> 1) & 63) as usize
}

/// Rotated bitboards, the rotations done per call (`ref-rotated`).
#[derive(Clone, Copy, Debug)]
pub struct Rotated;

impl Rotated {
    #[inline(always)]
    fn diagonal(table: &[[u64; 64]; 64], place: Place, sq: Square, rotated: u64) -> u64 {
        table[sq as usize][inner((rotated >> place.shift) & place.bits)]
    }
}

impl Lookup for Rotated {
    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        let (rank, file) = (sq as u32 >> 3, sq as u32 & 7);
        let rank_byte = occ.0 >> (8 * rank);
        let file_byte = flip_a1_h8(occ.0) >> (8 * file);
        Bitboard(RANKS[sq as usize][inner(rank_byte)] | FILES[sq as usize][inner(file_byte)])
    }
    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        let (d, a) = (
            DIAGONAL_PLACES[sq as usize],
            ANTI_DIAGONAL_PLACES[sq as usize],
        );
        Bitboard(
            Self::diagonal(&DIAGONALS, d, sq, rotate_files(occ.0, false))
                | Self::diagonal(&ANTI_DIAGONALS, a, sq, rotate_files(occ.0, true)),
        )
    }
    compiled_up_to_v3!();
}
