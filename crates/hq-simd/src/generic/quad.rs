//! A queen's lines of one square in one four-lane register, one HQ for
//! all of them, under one of two reversals:
//!
//! * a full bit reversal reverses every line, so the record is the
//!   square's [`LINE_MASKS`] entry `{diagonal, anti-diagonal, file, rank}`
//!   and a queen is one HQ plus an or across the lanes ([`queen`]): worth
//!   it where the reversal is one or two instructions (AVX-512 GFNI);
//! * a byte swap (one square per rank) reverses the file and both
//!   diagonals but not the rank, whose lane stays zero; the rank comes from
//!   the 512-byte first-rank table (`hq_scalar::kernels::FIRST_RANK`) in
//!   the scalar unit, in parallel ([`queen_by_byte_swap`]). On AVX2 the
//!   byte swap is one `vpshufb` within each 128-bit lane, where a full
//!   reversal takes two nibble-table shuffles and a byte swap: the "dual
//!   Hyperbola Quintessence" Stockfish's AVX2 builds moved to in 2026,
//!   written here from its description.
//!
//! Tables: a 64-byte record a square (4 KiB) per reversal used, and the
//! rank table for the byte swap.

use crate::generic::pair::Reversal;
use crate::vector::Lanes;
use hq_core::{LINE_MASKS, LineMasks, Square};

/// Per square, the lines the reversal reverses (a [`LINE_MASKS`] entry,
/// the rank zero under a byte swap: its lane stays zero through the HQ),
/// then the square's bit and its reversed bit, which the kernel broadcasts
/// from memory (one load each, where computing them took a shift and two
/// moves: 1.2-1.3x the queen's throughput on AMD Zen 4), then `extra`
/// (at byte 48): what the `asm!` forms read beside (`arch::asm_lookups`).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(crate) struct Record<T = ()> {
    pub(crate) masks: LineMasks,
    pub(crate) bit: u64,
    pub(crate) reversed_bit: u64,
    pub(crate) extra: T,
}

/// The records under `reversal`, each with `extra`.
pub(crate) const fn records<T: Copy>(reversal: Reversal, extra: T) -> [Record<T>; 64] {
    let mut table = [Record {
        masks: LINE_MASKS[0],
        bit: 0,
        reversed_bit: 0,
        extra,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut masks = LINE_MASKS[sq];
        if matches!(reversal, Reversal::Bytes) {
            masks.rank = 0;
        }
        table[sq] = Record {
            masks,
            bit: 1 << sq,
            reversed_bit: reversal.apply(1 << sq),
            extra,
        };
        sq += 1;
    }
    table
}

/// The records of [`queen`] (full bit reversal).
pub(crate) static RECORDS: [Record; 64] = records(Reversal::Bits, ());
/// The records of [`queen_by_byte_swap`].
pub(crate) static BYTE_SWAP_RECORDS: [Record; 64] = records(Reversal::Bytes, ());

/// The line attacks of `sq` under `reversal`, lanes in [`LineMasks`]
/// order (the rank lane zero under a byte swap).
#[inline(always)]
unsafe fn lines<V: Lanes>(sq: Square, occupancy: u64, reversal: Reversal) -> V {
    let record = match reversal {
        Reversal::Bits => &RECORDS[sq as usize],
        Reversal::Bytes => &BYTE_SWAP_RECORDS[sq as usize],
    };
    // SAFETY: the caller has V's instruction set; a `LineMasks` record is
    // four readable words.
    unsafe {
        let masks = V::load((&record.masks as *const LineMasks).cast());
        let o = V::splat(occupancy).and(masks);
        let forward = o.sub(V::splat(record.bit));
        let backward =
            reversal.apply_lanes(reversal.apply_lanes(o).sub(V::splat(record.reversed_bit)));
        forward.xor_and(backward, masks)
    }
}

/// The four lines with the reversed occupancy given (`reversed ==
/// occupancy.reverse_bits()`): the backward halves start from it and the
/// turned square's masks, one reversal instead of two.
#[inline(always)]
pub(crate) unsafe fn lines_pair<V: Lanes>(sq: Square, occupancy: u64, reversed: u64) -> V {
    // SAFETY: the caller has V's instruction set; a `LineMasks` record is
    // four readable words.
    unsafe {
        let load = |s: usize| V::load((&LINE_MASKS[s] as *const LineMasks).cast());
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

/// Queen attacks: the four lines under a full bit reversal, or-ed.
#[inline(always)]
pub(crate) unsafe fn queen<V: Lanes>(sq: Square, occupancy: u64) -> u64 {
    // SAFETY: the caller has V's instruction set.
    unsafe { lines::<V>(sq, occupancy, Reversal::Bits).or_lanes() }
}

/// Queen attacks: the file and diagonals under a byte swap, or-ed, and the
/// rank by table.
#[inline(always)]
pub(crate) unsafe fn queen_by_byte_swap<V: Lanes>(sq: Square, occupancy: u64) -> u64 {
    // SAFETY: the caller has V's instruction set.
    let lines = unsafe { lines::<V>(sq, occupancy, Reversal::Bytes).or_lanes() };
    lines | hq_scalar::kernels::rank_attacks_by_table(sq, occupancy)
}
