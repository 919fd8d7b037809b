//! Set-wise attacks by occluded fill, one direction per lane: the union of
//! the attacks of every slider in a set, in one pass whatever their number.
//!
//! Kogge-Stone's fill (chessprogramming wiki, "Kogge-Stone Algorithm") moves
//! the sliders `fill` through the empty squares `pro` in three doubling
//! steps; here every lane moves in its own direction, by a per-lane
//! **rotation** (one `vprolvq` on AVX-512; two shifts elsewhere), so one
//! zmm fills all eight directions of a queen set and one ymm the four of a
//! rook or bishop set:
//!
//! ```text
//! pro = empty & mask          fill = sliders
//! fill |= pro & rol(fill, r);   pro &= rol(pro, r)
//! fill |= pro & rol(fill, 2r);  pro &= rol(pro, 2r)
//! fill |= pro & rol(fill, 4r)
//! attacks = rol(fill, r) & mask          (then or-ed across the lanes)
//! ```
//!
//! A rotation carries the bits that fall off one edge in at the other; the
//! per-direction `mask` removes the squares such bits land on. The
//! directions and their constants are `hq_scalar::setwise::fill`'s, which
//! runs the same steps one direction at a time. The `avx512` token runs
//! them in `asm!` instead, in registers 16-31 (`arch::x86_64::evex_fill`).

use crate::vector::VariableShifts;
use hq_scalar::setwise::fill::Directions;

/// The direction constants, in memory once: every register loads from here.
static DIRECTIONS: Directions = hq_scalar::setwise::fill::DIRECTIONS;

/// Which directions a piece moves in.
#[derive(Clone, Copy)]
pub(crate) enum Piece {
    Rook,
    Bishop,
    Queen,
}

impl Piece {
    /// The first direction and the number of directions.
    const fn directions(self) -> (usize, usize) {
        match self {
            Piece::Rook => (0, 4),
            Piece::Bishop => (4, 4),
            Piece::Queen => (0, 8),
        }
    }
}

/// The union of the attacks of `sliders` (which count as occupied) over
/// `occupancy`, for `piece`, `V::LANES` directions per register.
#[inline(always)]
pub(crate) unsafe fn attacks<V: VariableShifts>(piece: Piece, sliders: u64, occupancy: u64) -> u64 {
    let (first, count) = piece.directions();
    debug_assert!(count % V::LANES == 0 || V::LANES > count);
    let empty = !(occupancy | sliders);
    let d = &DIRECTIONS;
    let mut union = 0;
    let mut i = first;
    while i < first + count {
        // SAFETY: the caller has V's instruction set; each load reads
        // `V::LANES <= 8` words of an 8-word array from index `i` with
        // `i + V::LANES <= 8` (the directions come in whole registers).
        union |= unsafe {
            let load = |a: &[u64; 8]| V::load(a.as_ptr().add(i));
            let (r1, r2, r4, mask) = (
                load(&d.rotate),
                load(&d.rotate2),
                load(&d.rotate4),
                load(&d.mask),
            );
            let mut fill = V::splat(sliders);
            let mut pro = V::splat(empty).and(mask);
            fill = fill.or_of_and(pro, fill.rotate_left_var(r1));
            pro = pro.and(pro.rotate_left_var(r1));
            fill = fill.or_of_and(pro, fill.rotate_left_var(r2));
            pro = pro.and(pro.rotate_left_var(r2));
            fill = fill.or_of_and(pro, fill.rotate_left_var(r4));
            fill.rotate_left_var(r1).and(mask).or_lanes()
        };
        i += V::LANES;
    }
    union
}
