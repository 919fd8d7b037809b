//! Robert Hyatt's classical method (1994): ray masks and bit scans.
//!
//! * [`kernels`]: the attacks along a ray are its mask minus the blocker's
//!   own ray in the same direction; the blocker is found with
//!   `trailing_zeros` on positive rays and `leading_zeros` on negative ones.
//!   Plus x-ray attacks through chosen blockers.
//! * [`Classic`] (`classic`): the backend token. Portable, no CPU feature.
//!
//! The incrementally maintained attack boards built on these kernels live
//! with the board, in `hq-chess` (`upkeep::AttackTable`).
//!
//! ```
//! use hq_core::{Bitboard, SliderAttacks, Square};
//! use hq_classic::Classic;
//!
//! let token = Classic::new().unwrap();
//! let attacks = token.bishop_attacks(Square::C1, Bitboard::from(Square::E3));
//! assert_eq!(attacks.count(), 2 + 2);
//! ```

#![no_std]
#[cfg(test)]
extern crate std;

pub mod kernels;

pub use kernels::{ray_attacks, xray_attacks, xray_ray_attacks};

use hq_core::{Bitboard, Line, Square};

hq_core::slider_token! {
    /// The classical backend token, `classic`.
    pub struct Classic: "classic", portable;
    impl {
        /// The ray masks (of the square, and of the nearest blocker).
        const TABLE_BYTES: usize = size_of_val(&hq_core::RAY_MASKS);

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
            Bitboard(kernels::line_attacks(line, sq, occupancy.0))
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn rook_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
            Bitboard(kernels::rook_attacks(sq, occupancy.0))
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn bishop_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
            Bitboard(kernels::bishop_attacks(sq, occupancy.0))
        }

        // The classical method has no set-wise form of its own: the
        // portable occluded fill for every set, which beats even one lookup
        // (1-2 sliders, ns per call: rooks 4.4 against 5.0 branch-free,
        // bishops 3.8 against 4.9, queens 4.6 against 8.3 by a loop;
        // setwise_crossover on the Intel Xeon, mixed counts).
        hq_scalar::setwise_methods!(rooks loop_up_to(0), bishops loop_up_to(0), queens loop_up_to(0); any caller);
    }
}
