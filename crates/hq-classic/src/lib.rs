//! Robert Hyatt's classical method (1994): ray masks and bit scans, with
//! incremental attack boards.
//!
//! * [`kernels`]: the attacks along a ray are its mask minus the blocker's
//!   own ray in the same direction; the blocker is found with
//!   `trailing_zeros` on positive rays and `leading_zeros` on negative ones.
//!   Plus x-ray attacks through chosen blockers.
//! * [`Classic`] (`classic`): the backend token. Portable, no CPU feature.
//! * [`AttackBoards`]: the attack set of every occupied square and the
//!   attacked-by set of every square, kept up to date through make/unmake
//!   by the post's four steps, and x-ray (battery) attacks read off them.
//!
//! ```
//! use hq_core::{Bitboard, SliderAttacks, Square};
//! use hq_classic::Classic;
//!
//! let token = Classic::new().unwrap();
//! let attacks = token.bishop_attacks(Square::C1, Bitboard::from(Square::E3));
//! assert_eq!(attacks.count(), 2 + 2);
//! ```

pub mod board;
pub mod kernels;

pub use board::{AttackBoards, piece_attacks};
pub use kernels::{ray_attacks, xray_attacks, xray_ray_attacks};

use hq_core::{Bitboard, Line, SliderAttacks, Square};

/// The classical backend token, `classic`.
#[derive(Clone, Copy, Debug)]
pub struct Classic(());

impl Classic {
    /// The token; always available (portable code).
    #[inline]
    pub const fn get() -> Classic {
        Classic(())
    }
}

impl SliderAttacks for Classic {
    const NAME: &'static str = "classic";
    const REQUIRED_FEATURES: &'static [&'static str] = &[];

    #[inline]
    fn is_supported() -> bool {
        true
    }

    #[inline]
    unsafe fn new_unchecked() -> Self {
        Classic(())
    }

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
}
