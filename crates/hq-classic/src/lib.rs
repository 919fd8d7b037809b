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

pub mod kernels;

pub use kernels::{ray_attacks, xray_attacks, xray_ray_attacks};

use hq_core::{Bitboard, Line, Square};

hq_core::slider_token! {
    /// The classical backend token, `classic`.
    pub struct Classic: "classic", portable;
    impl {
        #[inline]
        fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
            Bitboard(kernels::line_attacks(line, sq, occupancy.0))
        }

        #[inline]
        fn rook_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
            Bitboard(kernels::rook_attacks(sq, occupancy.0))
        }

        #[inline]
        fn bishop_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
            Bitboard(kernels::bishop_attacks(sq, occupancy.0))
        }

        // The classical method has no set-wise form of its own: its lookups
        // up to two sliders (two rook or bishop lookups, branch-free, beat a
        // loop: 5.0 ns against 7.0 for 1-2 rooks; two queen lookups do not,
        // 8.5 against 8.3), the portable occluded fill above (4.9 ns per
        // rook set against 9.8 for a loop over 3-4 rooks, 14.9 per queen set
        // against 16.0; setwise_crossover on the Intel Xeon, mixed counts).
        hq_scalar::setwise_methods!(rooks pair_up_to(2), bishops pair_up_to(2), queens loop_up_to(2));
    }
}
