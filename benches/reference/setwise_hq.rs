//! Set-wise HQ with overflow barriers (the seed's set-wise method, kept as
//! a reference row, `ref-setwise-hq`, to be measured against the occluded
//! fill the `hq` tokens use).
//!
//! The HQ form is set-wise HQ with overflow barriers: one subtraction per
//! direction and line kind instead of one per piece.
//!
//! # Ranks: subtraction with an overflow barrier
//!
//! For sliders `s` on a rank, `x ^ (x - 2s)` with `x = occupancy | s` sets
//! the squares from each slider (exclusive) up to its first blocker
//! (inclusive) toward the h-file: the borrow of each slider runs through the
//! empty squares and stops at the first set bit. Two sliders on one rank do
//! not disturb each other, since the borrow of the lower one stops at the
//! upper one at the latest. Only the **rank boundary** is a problem: with no
//! blocker up to the h-file the borrow would run into the next rank. So:
//!
//! ```text
//! x       = occupancy | sliders | H_FILE          barrier: every borrow stops on the h-file
//! east    = x ^ (x - ((sliders & !H_FILE) << 1))  a slider on h has no eastward ray (and its
//!                                                 "2s" would land on the next rank's a-file)
//! ```
//!
//! The barrier changes nothing inside the rank: the h-file square is the end
//! of every eastward ray anyway. West is the same on the board mirrored
//! within each byte (`reverse_bits().swap_bytes()`), with the barrier on the
//! a-file.
//!
//! # The other lines: make them rows
//!
//! The same code works on any layout whose lines are runs of consecutive
//! bits inside a byte, given a barrier at the top of each run:
//!
//! * **files** become ranks under a transposition (flip about a1-h8);
//! * **diagonals** become rows when file f is rotated down by f ranks
//!   (square (f, r) goes to (f, (r - f) mod 8)): the diagonal with
//!   `r - f = c` lands entirely on row `c mod 8`. A row then holds two
//!   diagonals, `c` on files 0..=7-c and `c - 8` on files 8-c..=7, so it
//!   needs two barriers: files 7-c and 7;
//! * **anti-diagonals** likewise with file f rotated *up* by f ranks:
//!   `r + f = c` lands on row `c mod 8`, anti-diagonal c on files 0..=c and
//!   c+8 on files c+1..=7; barriers on files c and 7.
//!
//! Each rotation is three masked 64-bit rotations (the "pseudo-rotation by
//! 45 degrees"), the transposition three delta swaps.

use super::compiled_up_to_v3;
use crate::{Data, Lookup, Piece, Workload};
use hq::{Bitboard, Square};

/// Set-wise HQ with overflow barriers: the set-wise workloads only (a lone
/// slider is a set of one for the oracle check).
#[derive(Clone, Copy, Debug)]
pub struct SetwiseHq;

impl Lookup for SetwiseHq {
    const HAS_SETWISE: bool = true;
    const HAS_SINGLE: bool = false;

    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        Bitboard(rook_attacks(sq.bit(), occ.0))
    }
    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        Bitboard(bishop_attacks(sq.bit(), occ.0))
    }
    #[inline(always)]
    fn setwise(self, piece: Piece, sliders: Bitboard, occ: Bitboard) -> Bitboard {
        Bitboard(match piece {
            Piece::Rook => rook_attacks(sliders.0, occ.0),
            Piece::Bishop => bishop_attacks(sliders.0, occ.0),
            Piece::Queen => queen_attacks(sliders.0, occ.0),
        })
    }
    compiled_up_to_v3!();
}

/// Mirror every byte (file f <-> 7 - f), keeping ranks in place.
#[inline(always)]
const fn mirror_files(x: u64) -> u64 {
    x.reverse_bits().swap_bytes()
}

/// Toward higher bits inside each run: `tops` marks the last bit of every run.
#[inline(always)]
const fn row_attacks_up(sliders: u64, occupancy: u64, tops: u64) -> u64 {
    let x = occupancy | sliders | tops;
    x ^ x.wrapping_sub((sliders & !tops) << 1)
}

/// Both directions inside each run; `bottoms` marks the first bit of every run.
#[inline(always)]
const fn row_attacks(sliders: u64, occupancy: u64, tops: u64, bottoms: u64) -> u64 {
    let up = row_attacks_up(sliders, occupancy, tops);
    let down = row_attacks_up(
        mirror_files(sliders),
        mirror_files(occupancy),
        mirror_files(bottoms),
    );
    up | mirror_files(down)
}

const A_FILE: u64 = 0x0101_0101_0101_0101;
const H_FILE: u64 = 0x8080_8080_8080_8080;

/// Flip about the a1-h8 diagonal: square (f, r) <-> (r, f). Its own inverse.
#[inline(always)]
pub const fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let mut t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// Files with bit 0, 1, 2 of their index set.
const FILES_WITH_BIT: [u64; 3] = [
    0xAAAA_AAAA_AAAA_AAAA,
    0xCCCC_CCCC_CCCC_CCCC,
    0xF0F0_F0F0_F0F0_F0F0,
];

/// Rotate file f down by f ranks: (f, r) -> (f, (r - f) mod 8). Diagonals become rows.
#[inline(always)]
pub const fn rotate_files_down(mut x: u64) -> u64 {
    x ^= FILES_WITH_BIT[0] & (x ^ x.rotate_right(8));
    x ^= FILES_WITH_BIT[1] & (x ^ x.rotate_right(16));
    x ^= FILES_WITH_BIT[2] & (x ^ x.rotate_right(32));
    x
}

/// Rotate file f up by f ranks: (f, r) -> (f, (r + f) mod 8). Inverse of [`rotate_files_down`].
#[inline(always)]
pub const fn rotate_files_up(mut x: u64) -> u64 {
    x ^= FILES_WITH_BIT[0] & (x ^ x.rotate_left(8));
    x ^= FILES_WITH_BIT[1] & (x ^ x.rotate_left(16));
    x ^= FILES_WITH_BIT[2] & (x ^ x.rotate_left(32));
    x
}

/// Run boundaries of the rotated layouts, as `(tops, bottoms)`.
const fn diagonal_runs(anti: bool) -> (u64, u64) {
    let mut tops = 0u64;
    let mut bottoms = 0u64;
    let mut row = 0;
    while row < 8 {
        let split = if anti { row + 1 } else { 8 - row }; // first file of the second run
        tops |= 1 << (row * 8 + 7);
        bottoms |= 1 << (row * 8);
        if split < 8 {
            tops |= 1 << (row * 8 + split - 1);
            bottoms |= 1 << (row * 8 + split);
        }
        row += 1;
    }
    (tops, bottoms)
}
const DIAGONAL_RUNS: (u64, u64) = diagonal_runs(false);
const ANTI_DIAGONAL_RUNS: (u64, u64) = diagonal_runs(true);

/// The union of rank attacks of every slider in `sliders`.
#[inline]
pub const fn rank_attacks(sliders: u64, occupancy: u64) -> u64 {
    row_attacks(sliders, occupancy, H_FILE, A_FILE)
}

/// The union of file attacks of every slider in `sliders`.
#[inline]
pub const fn file_attacks(sliders: u64, occupancy: u64) -> u64 {
    transpose(row_attacks(
        transpose(sliders),
        transpose(occupancy),
        H_FILE,
        A_FILE,
    ))
}

/// The union of diagonal (a1-h8 direction) attacks of every slider in `sliders`.
#[inline]
pub const fn diagonal_attacks(sliders: u64, occupancy: u64) -> u64 {
    let (tops, bottoms) = DIAGONAL_RUNS;
    rotate_files_up(row_attacks(
        rotate_files_down(sliders),
        rotate_files_down(occupancy),
        tops,
        bottoms,
    ))
}

/// The union of anti-diagonal (h1-a8 direction) attacks of every slider in `sliders`.
#[inline]
pub const fn anti_diagonal_attacks(sliders: u64, occupancy: u64) -> u64 {
    let (tops, bottoms) = ANTI_DIAGONAL_RUNS;
    rotate_files_down(row_attacks(
        rotate_files_up(sliders),
        rotate_files_up(occupancy),
        tops,
        bottoms,
    ))
}

/// The union of the rook attacks of every slider in `rooks`.
#[inline]
pub const fn rook_attacks(rooks: u64, occupancy: u64) -> u64 {
    rank_attacks(rooks, occupancy) | file_attacks(rooks, occupancy)
}

/// The union of the bishop attacks of every slider in `bishops`.
#[inline]
pub const fn bishop_attacks(bishops: u64, occupancy: u64) -> u64 {
    diagonal_attacks(bishops, occupancy) | anti_diagonal_attacks(bishops, occupancy)
}

/// The union of the queen attacks of every slider in `queens`.
#[inline]
pub const fn queen_attacks(queens: u64, occupancy: u64) -> u64 {
    rook_attacks(queens, occupancy) | bishop_attacks(queens, occupancy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hq::{Bitboard, Line, Square, reference};
    use proptest::prelude::*;

    fn naive_map(x: u64, to: impl Fn(u8, u8) -> (u8, u8)) -> u64 {
        let mut out = 0;
        for sq in Bitboard(x) {
            let (f, r) = to(sq.file(), sq.rank());
            out |= 1u64 << (r * 8 + f);
        }
        out
    }

    fn union(sliders: u64, occ: u64, line: Line) -> u64 {
        Bitboard(sliders).iter().fold(0, |acc, sq| {
            acc | reference::line_attacks(line, sq, Bitboard(occ | sliders)).0
        })
    }

    proptest! {
        #[test]
        fn layout_changes_match_their_definitions(x in any::<u64>()) {
            prop_assert_eq!(transpose(x), naive_map(x, |f, r| (r, f)));
            prop_assert_eq!(rotate_files_down(x), naive_map(x, |f, r| (f, (r + 8 - f) % 8)));
            prop_assert_eq!(rotate_files_up(x), naive_map(x, |f, r| (f, (r + f) % 8)));
            prop_assert_eq!(rotate_files_up(rotate_files_down(x)), x);
            prop_assert_eq!(mirror_files(x), naive_map(x, |f, r| (7 - f, r)));
        }

        #[test]
        fn each_line_kind_equals_the_union_of_single_sliders(
            a in any::<u64>(), b in any::<u64>(), c in any::<u64>(), o in any::<u64>(), dense in any::<bool>()
        ) {
            let sliders = if dense { a & b } else { a & b & c };
            let occ = o & a.rotate_left(17);
            prop_assert_eq!(rank_attacks(sliders, occ), union(sliders, occ, Line::Rank));
            prop_assert_eq!(file_attacks(sliders, occ), union(sliders, occ, Line::File));
            prop_assert_eq!(diagonal_attacks(sliders, occ), union(sliders, occ, Line::Diagonal));
            prop_assert_eq!(anti_diagonal_attacks(sliders, occ), union(sliders, occ, Line::AntiDiagonal));
        }
    }

    #[test]
    fn every_single_slider_on_every_square_with_edge_blockers() {
        // Sliders on the run boundaries are where barriers go wrong.
        for sq in Square::ALL {
            for occ in [
                0u64,
                !0,
                0x8181_8181_8181_8181,
                0xFF00_0000_0000_00FF,
                0x5555_5555_5555_5555,
            ] {
                for line in Line::ALL {
                    let got = match line {
                        Line::Rank => rank_attacks(sq.bit(), occ),
                        Line::File => file_attacks(sq.bit(), occ),
                        Line::Diagonal => diagonal_attacks(sq.bit(), occ),
                        Line::AntiDiagonal => anti_diagonal_attacks(sq.bit(), occ),
                    };
                    assert_eq!(got, union(sq.bit(), occ, line), "{line:?} {sq} {occ:#x}");
                }
            }
        }
    }
}
