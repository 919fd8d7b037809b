//! Reverse bitboards (Ryan Mack, the Hyperbola Project, 2000).
//!
//! Attacks toward higher squares come from `x ^ (x - 2)` on the occupancy
//! shifted down to the slider's square; attacks toward lower squares from
//! the same on the **reversed** occupancy (bit x <-> bit 63 - x), whose
//! result is reversed back or scanned with `63 - s` (see [`kernels`]).
//!
//! * [`ReverseBitboards`] (`reverse-bitboards`): the backend token. It is
//!   given only the forward occupancy, so it reverses it once per call, then
//!   pays one more reversal per piece for the result. Portable, no CPU feature.
//!
//! The board that *maintains* the reversed occupancy through make/unmake
//! (the method's point), the table-free slider check on it and attack-set
//! reuse live with the board, in `hq-chess` (`upkeep`).
//!
//! ```
//! use hq_core::{Bitboard, SliderAttacks, Square};
//! use hq_reverse::ReverseBitboards;
//!
//! let token = ReverseBitboards::new().unwrap();
//! let attacks = token.rook_attacks(Square::A1, Bitboard::from(Square::A4));
//! assert_eq!(attacks.count(), 7 + 3);
//! ```

#![no_std]
#[cfg(test)]
extern crate std;

pub mod kernels;

pub use kernels::{reverse, swar_reverse};

use hq_core::{Bitboard, Line, Square};
use kernels::{bishop_attacks_split, join, line_attacks_split, rook_attacks_split};

hq_core::slider_token! {
    /// The reverse-bitboard backend token, `reverse-bitboards`.
    pub struct ReverseBitboards: "reverse-bitboards", portable;
    impl {
        /// The line masks (of the square and of the turned square).
        const TABLE_BYTES: usize = size_of_val(&hq_core::LINE_MASKS);

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
            Bitboard(join(line_attacks_split(
                occupancy.0,
                reverse(occupancy.0),
                line,
                sq,
            )))
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn rook_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
            Bitboard(join(rook_attacks_split(
                occupancy.0,
                reverse(occupancy.0),
                sq,
            )))
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn bishop_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
            Bitboard(join(bishop_attacks_split(
                occupancy.0,
                reverse(occupancy.0),
                sq,
            )))
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn queen_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
            self.queen_attacks_pair(sq, occupancy, Bitboard(reverse(occupancy.0)))
        }

        /// The method's point: with the reversed occupancy kept by the board,
        /// no reversal of the occupancy at all (one of the result).
        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn rook_attacks_pair(self, sq: Square, occupancy: Bitboard, reversed: Bitboard) -> Bitboard {
            hq_core::debug_check_pair(occupancy, reversed);
            Bitboard(join(rook_attacks_split(occupancy.0, reversed.0, sq)))
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn bishop_attacks_pair(self, sq: Square, occupancy: Bitboard, reversed: Bitboard) -> Bitboard {
            hq_core::debug_check_pair(occupancy, reversed);
            Bitboard(join(bishop_attacks_split(occupancy.0, reversed.0, sq)))
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn queen_attacks_pair(self, sq: Square, occupancy: Bitboard, reversed: Bitboard) -> Bitboard {
            hq_core::debug_check_pair(occupancy, reversed);
            let (rf, rr) = rook_attacks_split(occupancy.0, reversed.0, sq);
            let (bf, br) = bishop_attacks_split(occupancy.0, reversed.0, sq);
            Bitboard(rf | bf | reverse(rr | br))
        }

        /// One occupancy reversal for all squares: the reversed sets are per square anyway.
        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn rook_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
            hq_core::check_batch_lengths(squares.len(), out.len());
            let reversed = reverse(occupancy.0);
            for (o, &sq) in out.iter_mut().zip(squares) {
                *o = Bitboard(join(rook_attacks_split(occupancy.0, reversed, sq)));
            }
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn bishop_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
            hq_core::check_batch_lengths(squares.len(), out.len());
            let reversed = reverse(occupancy.0);
            for (o, &sq) in out.iter_mut().zip(squares) {
                *o = Bitboard(join(bishop_attacks_split(occupancy.0, reversed, sq)));
            }
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn queen_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
            hq_core::check_batch_lengths(squares.len(), out.len());
            let reversed = reverse(occupancy.0);
            for (o, &sq) in out.iter_mut().zip(squares) {
                let (rf, rr) = rook_attacks_split(occupancy.0, reversed, sq);
                let (bf, br) = bishop_attacks_split(occupancy.0, reversed, sq);
                *o = Bitboard(rf | bf | reverse(rr | br));
            }
        }

        // The portable occluded fill for every set. It beat the method's own
        // set-wise form (lookups united before one reversal each way) at
        // every count, and even one lookup (1-2 sliders, ns per call: rooks
        // 4.1 against 9.9 branch-free, bishops 3.5 against 9.6, queens 4.6
        // against 9.7 by the own form; setwise_crossover on the Intel Xeon,
        // mixed counts).
        hq_scalar::setwise_methods!(rooks loop_up_to(0), bishops loop_up_to(0), queens loop_up_to(0); any caller);
    }
}
