//! Portable Hyperbola Quintessence (HQ) backends.
//!
//! HQ finds the attacks along one line with a subtraction (the borrow runs
//! from the slider to the first blocker) done twice, once on the line
//! reversed, and xors the two (see [`kernels`]). Which reversal works
//! decides the method for each line:
//!
//! | token | files, diagonals | ranks |
//! |---|---|---|
//! | [`ScalarRankTable`] (`scalar-rank-table`) | byte swap | 512-byte first-rank table |
//! | [`ScalarRankDiagonal`] (`scalar-rank-diagonal`) | byte swap | rank mapped onto the a1-h8 diagonal by a multiply, byte swap there |
//! | [`ScalarReverse`] (`scalar-reverse`) | `reverse_bits` | `reverse_bits` |
//!
//! For the set-wise entry points all three use a per-piece loop up to a
//! measured slider count and the occluded fill above it
//! ([`setwise::union_of`]). They need no CPU feature, so their tokens always
//! exist.
//!
//! ```
//! use hq_core::{Bitboard, SliderAttacks, Square};
//! use hq_scalar::ScalarRankTable;
//!
//! let hq = ScalarRankTable::new().unwrap();
//! let attacks = hq.rook_attacks(Square::A1, Bitboard::from(Square::A4));
//! assert_eq!(attacks.count(), 7 + 3);
//! ```
#![no_std]

pub mod kernels;
pub mod setwise;

#[doc(hidden)]
pub use hq_core as __core; // for `setwise_methods!` in other crates

use hq_core::cpu::Level;
use hq_core::{Bitboard, LINE_MASKS, Line, SliderAttacks, Square};
use kernels::{
    bswap_line_attacks, rank_attacks_by_diagonal, rank_attacks_by_table, reverse_line_attacks,
};

/// The parts every scalar token shares: no feature to check, and the set-wise kernels.
macro_rules! portable_token {
    ($token:ident, $name:literal, loop $rmax:literal, $bmax:literal, $qmax:literal) => {
        impl SliderAttacks for $token {
            const NAME: &'static str = $name;
            const LEVEL: Level = Level::Baseline;

            #[inline]
            unsafe fn new_unchecked() -> Self {
                $token(())
            }

            #[inline]
            fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
                Bitboard(self.line(line, sq, occupancy.0))
            }

            #[inline]
            fn rook_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
                Bitboard(
                    self.line(Line::Rank, sq, occupancy.0) | self.line(Line::File, sq, occupancy.0),
                )
            }

            #[inline]
            fn bishop_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
                Bitboard(
                    self.line(Line::Diagonal, sq, occupancy.0)
                        | self.line(Line::AntiDiagonal, sq, occupancy.0),
                )
            }

            crate::setwise_methods!(rooks $rmax, bishops $bmax, queens $qmax);
        }
    };
}

/// bswap HQ for files and diagonals, the first-rank table for ranks.
#[derive(Clone, Copy, Debug)]
pub struct ScalarRankTable(());
// Per-piece loops up to 3 rooks or bishops and 4 queens (setwise_crossover).
portable_token!(ScalarRankTable, "scalar-rank-table", loop 3, 3, 4);

impl ScalarRankTable {
    #[inline(always)]
    const fn line(self, line: Line, sq: Square, occupancy: u64) -> u64 {
        match line {
            Line::Rank => rank_attacks_by_table(sq, occupancy),
            _ => bswap_line_attacks(sq, occupancy, LINE_MASKS[sq as usize].get(line)),
        }
    }
}

/// bswap HQ for files and diagonals, ranks mapped onto the main diagonal.
#[derive(Clone, Copy, Debug)]
pub struct ScalarRankDiagonal(());
// Per-piece loops up to 2 rooks, 3 bishops, 3 queens (setwise_crossover).
portable_token!(ScalarRankDiagonal, "scalar-rank-diagonal", loop 2, 3, 3);

impl ScalarRankDiagonal {
    #[inline(always)]
    const fn line(self, line: Line, sq: Square, occupancy: u64) -> u64 {
        match line {
            Line::Rank => rank_attacks_by_diagonal(sq, occupancy),
            _ => bswap_line_attacks(sq, occupancy, LINE_MASKS[sq as usize].get(line)),
        }
    }
}

/// HQ with `u64::reverse_bits` on all four lines.
#[derive(Clone, Copy, Debug)]
pub struct ScalarReverse(());
// The fill beats even one bit-reversal lookup (setwise_crossover).
portable_token!(ScalarReverse, "scalar-reverse", loop 0, 0, 0);

impl ScalarReverse {
    #[inline(always)]
    const fn line(self, line: Line, sq: Square, occupancy: u64) -> u64 {
        reverse_line_attacks(sq, occupancy, LINE_MASKS[sq as usize].get(line))
    }
}

/// Attacks along any `line` by full bit-reversal HQ: the general form that
/// needs no per-line special case.
///
/// ```
/// use hq_core::{Line, Square};
/// let attacks = hq_scalar::line_attacks(Line::Rank, Square::A1, 0);
/// assert_eq!(attacks, 0xFE);
/// ```
#[inline]
pub const fn line_attacks(line: Line, sq: Square, occupancy: u64) -> u64 {
    reverse_line_attacks(sq, occupancy, LINE_MASKS[sq as usize].get(line))
}
