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
///
/// A piece's lines share their reversals: the backward halves of all its
/// lines are worked on the reversed occupancy, united (the lines are
/// disjoint) and reversed back once, so a queen costs two reversals (the
/// occupancy's and the result's), and one with the reversed occupancy given
/// (the pair entry points).
#[derive(Clone, Copy, Debug)]
pub struct ScalarReverse(());

impl ScalarReverse {
    #[inline(always)]
    const fn line(self, line: Line, sq: Square, occupancy: u64) -> u64 {
        reverse_line_attacks(sq, occupancy, LINE_MASKS[sq as usize].get(line))
    }

    /// The attacks along `lines`, with `reversed == occupancy.reverse_bits()`:
    /// forward halves on the board, backward halves on the turned board
    /// (square `63 - sq`, whose lines are the turned lines), one reversal.
    #[inline(always)]
    fn lines(sq: Square, occupancy: u64, reversed: u64, lines: &[Line]) -> u64 {
        let (m, rm) = (&LINE_MASKS[sq as usize], &LINE_MASKS[sq as usize ^ 63]);
        let (bit, turned_bit) = (sq.bit(), sq.rotate_180().bit());
        let (mut forward, mut backward) = (0, 0);
        for &line in lines {
            let (mask, turned_mask) = (m.get(line), rm.get(line));
            forward ^= (occupancy & mask).wrapping_sub(bit) & mask;
            backward ^= (reversed & turned_mask).wrapping_sub(turned_bit) & turned_mask;
        }
        forward ^ backward.reverse_bits()
    }
}

impl SliderAttacks for ScalarReverse {
    const NAME: &'static str = "scalar-reverse";
    const LEVEL: Level = Level::Baseline;

    #[inline]
    unsafe fn new_unchecked() -> Self {
        ScalarReverse(())
    }

    #[inline]
    fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
        Bitboard(self.line(line, sq, occupancy.0))
    }

    #[inline]
    fn rook_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
        self.rook_attacks_pair(sq, occupancy, occupancy.rotate_180())
    }

    #[inline]
    fn bishop_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
        self.bishop_attacks_pair(sq, occupancy, occupancy.rotate_180())
    }

    #[inline]
    fn queen_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
        self.queen_attacks_pair(sq, occupancy, occupancy.rotate_180())
    }

    #[inline]
    fn rook_attacks_pair(self, sq: Square, occupancy: Bitboard, reversed: Bitboard) -> Bitboard {
        debug_assert_eq!(
            reversed,
            occupancy.rotate_180(),
            "not the reversed occupancy"
        );
        Bitboard(Self::lines(
            sq,
            occupancy.0,
            reversed.0,
            &[Line::File, Line::Rank],
        ))
    }

    #[inline]
    fn bishop_attacks_pair(self, sq: Square, occupancy: Bitboard, reversed: Bitboard) -> Bitboard {
        debug_assert_eq!(
            reversed,
            occupancy.rotate_180(),
            "not the reversed occupancy"
        );
        Bitboard(Self::lines(
            sq,
            occupancy.0,
            reversed.0,
            &[Line::Diagonal, Line::AntiDiagonal],
        ))
    }

    #[inline]
    fn queen_attacks_pair(self, sq: Square, occupancy: Bitboard, reversed: Bitboard) -> Bitboard {
        debug_assert_eq!(
            reversed,
            occupancy.rotate_180(),
            "not the reversed occupancy"
        );
        Bitboard(Self::lines(sq, occupancy.0, reversed.0, &Line::ALL))
    }

    // The fill beats even one bit-reversal lookup (setwise_crossover).
    crate::setwise_methods!(rooks 0, bishops 0, queens 0);
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
