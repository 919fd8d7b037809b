//! All four lines of one square in a four-lane register: HQ with a full bit
//! reversal, which reverses every line, so no line needs a method of its
//! own. Worth it where the reversal is one or two instructions (AVX-512
//! GFNI on a ymm): the record is one aligned [`LINE_MASKS`] entry
//! `{diagonal, anti-diagonal, file, rank}`, and a queen is one HQ plus an
//! or across the lanes.

use crate::vector::Lanes;
use hq_core::{LINE_MASKS, Square};

/// The four line attacks of `sq`, lanes in [`hq_core::LineMasks`] order.
#[inline(always)]
pub(crate) unsafe fn lines<V: Lanes>(sq: Square, occupancy: u64) -> V {
    // SAFETY: the caller has V's instruction set; a `LineMasks` record is
    // four readable words.
    unsafe {
        let masks = V::load((&LINE_MASKS[sq as usize] as *const hq_core::LineMasks).cast());
        let o = V::splat(occupancy).and(masks);
        let forward = o.sub(V::splat(sq.bit()));
        let backward = o
            .reverse_bits()
            .sub(V::splat(sq.rotate_180().bit()))
            .reverse_bits();
        forward.xor_and(backward, masks)
    }
}

/// [`lines`] with the reversed occupancy given (`reversed ==
/// occupancy.reverse_bits()`): the backward halves start from it and the
/// turned square's masks, one reversal instead of two.
#[inline(always)]
pub(crate) unsafe fn lines_pair<V: Lanes>(sq: Square, occupancy: u64, reversed: u64) -> V {
    // SAFETY: the caller has V's instruction set; a `LineMasks` record is
    // four readable words.
    unsafe {
        let load = |s: usize| V::load((&LINE_MASKS[s] as *const hq_core::LineMasks).cast());
        let (masks, turned_masks) = (load(sq as usize), load(sq as usize ^ 63));
        let forward = V::splat(occupancy).and(masks).sub(V::splat(sq.bit()));
        let backward = V::splat(reversed)
            .and(turned_masks)
            .sub(V::splat(sq.rotate_180().bit()))
            .reverse_bits();
        forward.xor_and(backward, masks)
    }
}

/// Queen attacks from [`lines_pair`].
#[inline(always)]
pub(crate) unsafe fn queen_pair<V: Lanes>(sq: Square, occupancy: u64, reversed: u64) -> u64 {
    // SAFETY: the caller has V's instruction set.
    unsafe { lines_pair::<V>(sq, occupancy, reversed).or_lanes() }
}

/// Queen attacks: the four lines or-ed.
#[inline(always)]
pub(crate) unsafe fn queen<V: Lanes>(sq: Square, occupancy: u64) -> u64 {
    // SAFETY: the caller has V's instruction set.
    unsafe { lines::<V>(sq, occupancy).or_lanes() }
}
