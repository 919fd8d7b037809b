//! Two lines of one square in a two-lane register: Aleks Peshkov's SSSE3
//! Hyperbola Quintessence, for any 128-bit instruction set.
//!
//! HQ on one line, with `o = occupancy & mask`, `b = 1 << sq` and `rev` a
//! reversal of the line's bit order:
//!
//! ```text
//! attacks = ((o - b) ^ rev(rev(o) - rev(b))) & mask
//! ```
//!
//! Two lines share one register, one per lane, and both halves of the HQ
//! formula run on both at once. A **byte swap** (one shuffle) reverses
//! files, diagonals and anti-diagonals (one square per rank); a **full bit
//! reversal** reverses every line, ranks included (one instruction on
//! AArch64, `rbit`; a byte swap plus two nibble-table shuffles on SSSE3).
//! So the bishop pair `{diagonal, anti-diagonal}` always uses the byte swap,
//! and the rook pair `{file, rank}` uses the full reversal where it is
//! cheap; SSSE3 and AVX2 instead move the rank onto the a1-h8 diagonal
//! (`arch/x86_64/rank_on_diagonal.rs`).
//!
//! The per-square records hold the masks, the singletons and the reversed
//! singletons, 16-byte aligned, derived from [`LINE_MASKS`] at compile time.

use crate::vector::Lanes;
use hq_core::{LINE_MASKS, Square};

/// Two 64-bit lanes, 16-byte aligned: one aligned load, never split across
/// cache lines.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(16))]
pub(crate) struct Pair(pub [u64; 2]);

impl Pair {
    /// Sixteen bytes (a shuffle control or table), byte 0 first.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) const fn from_bytes(bytes: [u8; 16]) -> Pair {
        let mut lanes = [0u64; 2];
        let mut i = 0;
        while i < 16 {
            lanes[i / 8] |= (bytes[i] as u64) << (8 * (i % 8));
            i += 1;
        }
        Pair(lanes)
    }

    /// The pair as a register.
    #[inline(always)]
    pub(crate) unsafe fn get<V: Lanes>(&self) -> V {
        // SAFETY: two readable words; the caller has V's instruction set.
        unsafe { V::load(self.0.as_ptr()) }
    }
}

/// What a pair kernel loads for one square.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
pub(crate) struct PairRecord {
    /// The two line masks (the square excluded).
    pub masks: Pair,
    /// The slider's bit on each line's board.
    pub bits: Pair,
    /// `bits` under the pair's reversal.
    pub reversed_bits: Pair,
}

/// How a pair's lines are reversed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Reversal {
    /// Byte swap: reverses files, diagonals and anti-diagonals.
    Bytes,
    /// Full bit reversal: reverses every line.
    Bits,
}

impl Reversal {
    pub(crate) const fn apply(self, x: u64) -> u64 {
        match self {
            Reversal::Bytes => x.swap_bytes(),
            Reversal::Bits => x.reverse_bits(),
        }
    }

    #[inline(always)]
    pub(crate) unsafe fn apply_lanes<V: Lanes>(self, x: V) -> V {
        // SAFETY: the caller has V's instruction set.
        unsafe {
            match self {
                Reversal::Bytes => x.swap_bytes(),
                Reversal::Bits => x.reverse_bits(),
            }
        }
    }
}

/// The line pairs of the kernels.
#[derive(Clone, Copy)]
enum Lines {
    /// `{diagonal, anti-diagonal}`.
    Bishop,
    /// `{file, rank}`.
    Rook,
    /// `{file, the rank on the a1-h8 diagonal}`.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    RookOnDiagonal,
}

/// The records of `lines` under `reversal`.
const fn records(lines: Lines, reversal: Reversal) -> [PairRecord; 64] {
    let empty = Pair([0, 0]);
    let mut table = [PairRecord {
        masks: empty,
        bits: empty,
        reversed_bits: empty,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let m = LINE_MASKS[sq];
        // Each lane's mask and the square the slider sits on in it.
        let (masks, squares) = match lines {
            Lines::Bishop => ([m.diagonal, m.anti_diagonal], [sq, sq]),
            Lines::Rook => ([m.file, m.rank], [sq, sq]),
            Lines::RookOnDiagonal => {
                let on_diagonal = (sq & 7) * 9;
                (
                    [m.file, LINE_MASKS[on_diagonal].diagonal],
                    [sq, on_diagonal],
                )
            }
        };
        let bits = [1u64 << squares[0], 1u64 << squares[1]];
        table[sq] = PairRecord {
            masks: Pair(masks),
            bits: Pair(bits),
            reversed_bits: Pair([reversal.apply(bits[0]), reversal.apply(bits[1])]),
        };
        sq += 1;
    }
    table
}

/// `{diagonal, anti-diagonal}`, byte-swapped.
pub(crate) static BISHOP: [PairRecord; 64] = *BISHOP_RECORDS;

/// `{file, rank}`, bit-reversed.
pub(crate) static ROOK: [PairRecord; 64] = *ROOK_RECORDS;

/// `{file, the rank moved onto the a1-h8 diagonal}`, byte-swapped: the
/// rank's file `f` lands on square `9f` (see `arch/x86_64/rank_on_diagonal.rs`).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) static ROOK_ON_DIAGONAL: [PairRecord; 64] = *ROOK_ON_DIAGONAL_RECORDS;

// The same tables as `const` references, for the `asm!` kernels that
// inline into other crates: each such crate gets its own copy, reached
// without the GOT load a `static` of this crate costs there.
/// [`BISHOP`].
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const BISHOP_RECORDS: &[PairRecord; 64] = &records(Lines::Bishop, Reversal::Bytes);
/// [`ROOK`].
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const ROOK_RECORDS: &[PairRecord; 64] = &records(Lines::Rook, Reversal::Bits);
/// [`ROOK_ON_DIAGONAL`].
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const ROOK_ON_DIAGONAL_RECORDS: &[PairRecord; 64] =
    &records(Lines::RookOnDiagonal, Reversal::Bytes);

/// HQ on both lanes of `occupancy` with `record`'s masks and `reversal`.
#[inline(always)]
pub(crate) unsafe fn hq<V: Lanes>(occupancy: V, record: &PairRecord, reversal: Reversal) -> V {
    // SAFETY: the caller has V's instruction set.
    unsafe {
        let masks = record.masks.get::<V>();
        let o = occupancy.and(masks);
        let forward = o.sub(record.bits.get());
        let backward =
            reversal.apply_lanes(reversal.apply_lanes(o).sub(record.reversed_bits.get()));
        forward.xor_and(backward, masks)
    }
}

/// `{diagonal attacks, anti-diagonal attacks}` of `sq`.
#[inline(always)]
pub(crate) unsafe fn bishop_lanes<V: Lanes>(sq: Square, occupancy: V) -> V {
    // SAFETY: the caller has V's instruction set.
    unsafe { hq(occupancy, &BISHOP[sq as usize], Reversal::Bytes) }
}

/// `{file attacks, rank attacks}` of `sq`, by full bit reversal.
#[inline(always)]
pub(crate) unsafe fn rook_lanes<V: Lanes>(sq: Square, occupancy: V) -> V {
    // SAFETY: the caller has V's instruction set.
    unsafe { hq(occupancy, &ROOK[sq as usize], Reversal::Bits) }
}

/// The single-square entry points of a two-lane instruction set whose full
/// bit reversal is cheap: bishops by byte swap, rooks by bit reversal.
#[inline(always)]
pub(crate) unsafe fn rook<V: Lanes>(sq: Square, occupancy: u64) -> u64 {
    // SAFETY: the caller has V's instruction set.
    unsafe { rook_lanes(sq, V::splat(occupancy)).or_lanes() }
}

/// See [`rook`].
#[inline(always)]
pub(crate) unsafe fn bishop<V: Lanes>(sq: Square, occupancy: u64) -> u64 {
    // SAFETY: the caller has V's instruction set.
    unsafe { bishop_lanes(sq, V::splat(occupancy)).or_lanes() }
}

/// See [`rook`]: both pairs, or-ed.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))] // x86 has faster queen kernels
#[inline(always)]
pub(crate) unsafe fn queen<V: Lanes>(sq: Square, occupancy: u64) -> u64 {
    // SAFETY: the caller has V's instruction set.
    unsafe {
        let occupancy = V::splat(occupancy);
        rook_lanes(sq, occupancy)
            .or(bishop_lanes(sq, occupancy))
            .or_lanes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_reverse_their_singletons_and_hold_the_lines() {
        for sq in Square::ALL {
            let s = sq as usize;
            let m = LINE_MASKS[s];
            assert_eq!(BISHOP[s].masks.0, [m.diagonal, m.anti_diagonal]);
            assert_eq!(BISHOP[s].reversed_bits.0, [sq.bit().swap_bytes(); 2]);
            assert_eq!(ROOK[s].masks.0, [m.file, m.rank]);
            assert_eq!(ROOK[s].reversed_bits.0, [sq.bit().reverse_bits(); 2]);
            let d = (s & 7) * 9;
            assert_eq!(ROOK_ON_DIAGONAL[s].bits.0, [sq.bit(), 1 << d]);
            assert_eq!(ROOK_ON_DIAGONAL[s].masks.0[1], LINE_MASKS[d].diagonal);
        }
    }
}
