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
//! For the set-wise entry points all three use their lookups up to a
//! measured slider count (0 to 2) and the occluded fill above it
//! ([`setwise::loop_or`], by [`setwise_methods!`]). They need no CPU feature, so their tokens always
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

use hq_core::{Bitboard, LINE_MASKS, Line, Square};
use kernels::{
    bswap_line_attacks, rank_attacks_by_diagonal, rank_attacks_by_table, reverse_line_attacks,
};

/// The tokens that differ only in how they reverse a line: the struct, its
/// [`hq_core::SliderAttacks`] impl over the token's `line` method, the set-wise
/// methods with the token's measured loop counts.
macro_rules! line_token {
    ($(#[$doc:meta])* $token:ident, $name:literal, tables $tables:expr, setwise $($setwise:tt)*) => {
        hq_core::slider_token! {
            $(#[$doc])*
            pub struct $token: $name, portable;
            impl {
                const TABLE_BYTES: usize = $tables;

                #[cfg_attr(debug_assertions, inline)]
                #[cfg_attr(not(debug_assertions), inline(always))]
                fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
                    Bitboard(self.line(line, sq, occupancy.0))
                }

                #[cfg_attr(debug_assertions, inline)]
                #[cfg_attr(not(debug_assertions), inline(always))]
                fn rook_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
                    let o = occupancy.0;
                    Bitboard(self.line(Line::Rank, sq, o) | self.line(Line::File, sq, o))
                }

                #[cfg_attr(debug_assertions, inline)]
                #[cfg_attr(not(debug_assertions), inline(always))]
                fn bishop_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
                    let o = occupancy.0;
                    Bitboard(self.line(Line::Diagonal, sq, o) | self.line(Line::AntiDiagonal, sq, o))
                }

                crate::setwise_methods!($($setwise)*; any caller);
            }
        }
    };
}

/// A [`line_token!`] of bswap HQ for files and diagonals and `$rank` for
/// ranks (whose tables beyond the line masks are `$rank_tables`).
macro_rules! bswap_token {
    ($(#[$doc:meta])* $token:ident, $name:literal, ranks by $rank:ident, tables $rank_tables:expr,
     setwise $($setwise:tt)*) => {
        line_token!($(#[$doc])* $token, $name, tables size_of_val(&LINE_MASKS) + $rank_tables,
            setwise $($setwise)*);

        impl $token {
            #[inline(always)]
            const fn line(self, line: Line, sq: Square, occupancy: u64) -> u64 {
                match line {
                    Line::Rank => $rank(sq, occupancy),
                    _ => bswap_line_attacks(sq, occupancy, LINE_MASKS[sq as usize].get(line)),
                }
            }
        }
    };
}

// Set-wise loop counts of the two bswap tokens: from `setwise_crossover`
// on the Intel Xeon (mixed slider counts), the fill for every rook and
// queen set (no crossover test to mispredict on 2-3 rooks), bishops by
// lookups up to 2 except in AVX-512 builds; the figures are in the commit
// that set them.
bswap_token!(
    /// bswap HQ for files and diagonals, the first-rank table for ranks.
    ScalarRankTable, "scalar-rank-table", ranks by rank_attacks_by_table,
    tables size_of_val(&kernels::FIRST_RANK),
    setwise rooks loop_up_to(0),
        bishops pair_up_to(2).fill_with_avx512(),
        queens loop_up_to(0)
);

bswap_token!(
    /// bswap HQ for files and diagonals, ranks mapped onto the main diagonal.
    ScalarRankDiagonal, "scalar-rank-diagonal", ranks by rank_attacks_by_diagonal,
    // The diagonal's mask comes from the line masks too.
    tables 0,
    setwise rooks loop_up_to(0),
        bishops pair_up_to(2).fill_with_avx512(),
        queens loop_up_to(0)
);

impl ScalarReverse {
    /// [`Self::lines`] over a caller's occupancy pair (checked in debug builds).
    #[inline(always)]
    fn pair_lines(sq: Square, occupancy: Bitboard, reversed: Bitboard, lines: &[Line]) -> Bitboard {
        hq_core::debug_check_pair(occupancy, reversed);
        Bitboard(Self::lines(sq, occupancy.0, reversed.0, lines))
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

hq_core::slider_token! {
    /// HQ with `u64::reverse_bits` on all four lines.
    ///
    /// A piece's lines share their reversals: the backward halves of all its
    /// lines are worked on the reversed occupancy, united (the lines are
    /// disjoint) and reversed back once, so a queen costs two reversals (the
    /// occupancy's and the result's), and one with the reversed occupancy given
    /// (the pair entry points).
    pub struct ScalarReverse: "scalar-reverse", portable;
    impl {
        /// The line masks (of the square and of the turned square).
        const TABLE_BYTES: usize = size_of_val(&LINE_MASKS);

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
            let mask = LINE_MASKS[sq as usize].get(line);
            Bitboard(reverse_line_attacks(sq, occupancy.0, mask))
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn rook_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
            self.rook_attacks_pair(sq, occupancy, occupancy.rotate_180())
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn bishop_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
            self.bishop_attacks_pair(sq, occupancy, occupancy.rotate_180())
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn queen_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
            self.queen_attacks_pair(sq, occupancy, occupancy.rotate_180())
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn rook_attacks_pair(self, sq: Square, occupancy: Bitboard, reversed: Bitboard) -> Bitboard {
            Self::pair_lines(sq, occupancy, reversed, &[Line::File, Line::Rank])
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn bishop_attacks_pair(self, sq: Square, occupancy: Bitboard, reversed: Bitboard) -> Bitboard {
            Self::pair_lines(
                sq,
                occupancy,
                reversed,
                &[Line::Diagonal, Line::AntiDiagonal],
            )
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn queen_attacks_pair(self, sq: Square, occupancy: Bitboard, reversed: Bitboard) -> Bitboard {
            Self::pair_lines(sq, occupancy, reversed, &Line::ALL)
        }

        // The fill for every set: it beats even one lookup (1-2 sliders,
        // ns per call: rooks 4.1 against 5.3 branch-free, bishops 3.5
        // against 5.2, queens 4.6 against 6.4; setwise_crossover on the
        // Intel Xeon, mixed counts).
        crate::setwise_methods!(rooks loop_up_to(0), bishops loop_up_to(0), queens loop_up_to(0); any caller);
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
