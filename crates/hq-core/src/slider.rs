//! The three slider pieces, and each one's entry points on a token.

use crate::{Bitboard, SliderAttacks, Square};

/// A piece with slider moves.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Slider {
    /// Rank and file moves.
    Rook,
    /// Diagonal moves.
    Bishop,
    /// Both.
    Queen,
}

impl Slider {
    /// Rook, bishop, queen.
    pub const ALL: [Slider; 3] = [Slider::Rook, Slider::Bishop, Slider::Queen];

    /// `rook`, `bishop` or `queen`.
    pub const fn name(self) -> &'static str {
        match self {
            Slider::Rook => "rook",
            Slider::Bishop => "bishop",
            Slider::Queen => "queen",
        }
    }

    /// `token`'s single lookup of this piece (where `self` is a constant,
    /// the match folds away).
    #[inline(always)]
    pub fn single<B: SliderAttacks>(self, token: B, sq: Square, occupancy: Bitboard) -> Bitboard {
        match self {
            Slider::Rook => token.rook_attacks(sq, occupancy),
            Slider::Bishop => token.bishop_attacks(sq, occupancy),
            Slider::Queen => token.queen_attacks(sq, occupancy),
        }
    }

    /// `token`'s batch of this piece.
    #[inline(always)]
    pub fn batch<B: SliderAttacks>(
        self,
        token: B,
        squares: &[Square],
        occupancy: Bitboard,
        out: &mut [Bitboard],
    ) {
        match self {
            Slider::Rook => token.rook_attacks_batch(squares, occupancy, out),
            Slider::Bishop => token.bishop_attacks_batch(squares, occupancy, out),
            Slider::Queen => token.queen_attacks_batch(squares, occupancy, out),
        }
    }

    /// `token`'s set-wise call of this piece.
    #[inline(always)]
    pub fn setwise<B: SliderAttacks>(
        self,
        token: B,
        sliders: Bitboard,
        occupancy: Bitboard,
    ) -> Bitboard {
        match self {
            Slider::Rook => token.rook_attacks_setwise(sliders, occupancy),
            Slider::Bishop => token.bishop_attacks_setwise(sliders, occupancy),
            Slider::Queen => token.queen_attacks_setwise(sliders, occupancy),
        }
    }
}

impl core::fmt::Display for Slider {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
