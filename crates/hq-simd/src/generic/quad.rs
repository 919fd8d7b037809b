//! All four lines of one square in a four-lane register: HQ with a full bit
//! reversal, which reverses every line, so no line needs a method of its
//! own. Worth it where the reversal is one or two instructions (AVX-512
//! GFNI on a ymm): the record is one aligned [`LINE_MASKS`] entry
//! `{diagonal, anti-diagonal, file, rank}`, and a queen is one HQ plus an
//! or across the lanes.

use crate::vector::Lanes;
use hq_core::{LINE_MASKS, Square};

/// Per square, its [`LINE_MASKS`] entry, then the square's bit and the
/// turned square's, which the kernel broadcasts from memory (one load
/// each, where computing them took a shift and two moves: AMD Zen 4, the
/// same change made `avx2`'s queen 1.2x faster).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(crate) struct Record {
    masks: hq_core::LineMasks,
    bit: u64,
    turned_bit: u64,
}

pub(crate) static RECORDS: [Record; 64] = {
    let mut table = [Record {
        masks: LINE_MASKS[0],
        bit: 0,
        turned_bit: 0,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = Record {
            masks: LINE_MASKS[sq],
            bit: 1 << sq,
            turned_bit: 1 << (sq ^ 63),
        };
        sq += 1;
    }
    table
};

/// The four line attacks of `sq`, lanes in [`hq_core::LineMasks`] order.
#[inline(always)]
pub(crate) unsafe fn lines<V: Lanes>(sq: Square, occupancy: u64) -> V {
    let record = &RECORDS[sq as usize];
    // SAFETY: the caller has V's instruction set; a `LineMasks` record is
    // four readable words.
    unsafe {
        let masks = V::load((&record.masks as *const hq_core::LineMasks).cast());
        let o = V::splat(occupancy).and(masks);
        let forward = o.sub(V::splat(record.bit));
        let backward = o
            .reverse_bits()
            .sub(V::splat(record.turned_bit))
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
