//! A queen in one four-lane register without a bit reversal: the file and
//! both diagonals are reversed by a byte swap (one square per rank), so
//! the three run the byte-swap HQ side by side; the rank, which a byte swap
//! does not reverse, comes from the 512-byte first-rank table
//! (`hq_scalar::kernels::FIRST_RANK`) in the scalar unit, in parallel.
//! Tables: a 64-byte record a square (4 KiB), and the rank table.
//!
//! The "dual Hyperbola Quintessence" that Stockfish's AVX2 builds moved to
//! in 2026, written here from its description: the byte swap is one
//! `vpshufb` within each 128-bit lane, where a full bit reversal on AVX2
//! takes two nibble-table shuffles and a byte swap.

use crate::vector::Lanes;
use hq_core::{LINE_MASKS, Square};

/// Per square, the lines `{diagonal, anti-diagonal, file, 0}` ([`LINE_MASKS`]
/// with the rank left out: its lane stays zero through the HQ), then the
/// square's bit and its mirror's, which the kernel broadcasts from memory
/// (one load each, where computing them took a shift and two moves).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(crate) struct Record {
    masks: [u64; 4],
    bit: u64,
    mirrored_bit: u64,
}

pub(crate) static RECORDS: [Record; 64] = {
    let mut table = [Record {
        masks: [0; 4],
        bit: 0,
        mirrored_bit: 0,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let m = &LINE_MASKS[sq];
        table[sq] = Record {
            masks: [m.diagonal, m.anti_diagonal, m.file, 0],
            bit: 1 << sq,
            mirrored_bit: 1 << (sq ^ 56),
        };
        sq += 1;
    }
    table
};

/// Queen attacks of `sq`.
#[inline(always)]
pub(crate) unsafe fn queen<V: Lanes>(sq: Square, occupancy: u64) -> u64 {
    let record = &RECORDS[sq as usize];
    // SAFETY: the caller has V's instruction set (a four-lane register);
    // a record's masks are four readable words.
    unsafe {
        let masks = V::load(record.masks.as_ptr());
        let o = V::splat(occupancy).and(masks);
        let forward = o.sub(V::splat(record.bit));
        let backward = o
            .swap_bytes()
            .sub(V::splat(record.mirrored_bit))
            .swap_bytes();
        forward.xor_and(backward, masks).or_lanes()
            | hq_scalar::kernels::rank_attacks_by_table(sq, occupancy)
    }
}
