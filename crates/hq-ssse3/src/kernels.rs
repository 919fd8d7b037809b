//! The SSSE3 kernels, as safe `#[target_feature(enable = "ssse3")]` functions.
//!
//! Calling one from code compiled without `ssse3` is `unsafe`: the caller
//! must know that the CPU has SSSE3 (the [`Ssse3`](crate::Ssse3) token is that
//! proof). Inside other `ssse3` (or `avx2`) code they are safe and inline.
//!
//! Two lines share one xmm, one per 64-bit lane. A byte swap (`pshufb`)
//! reverses files, diagonals and anti-diagonals; ranks get one of three
//! treatments, compared in the crate docs:
//!
//! * **rank on the diagonal** ([`rook_attacks`]): `pshufb` copies the rank's
//!   byte into every byte of the second lane and the mask keeps bit `k` of
//!   byte `k`, which puts the rank on the a1-h8 diagonal (T. Cooijmans'
//!   mapping, done with a shuffle instead of a multiply). There a byte swap
//!   reverses it, so file and rank run through the same byte-swap HQ
//!   sequence. The attacks come back with `psadbw`: each byte holds at most
//!   its own bit `k`, so the byte sum is the rank's attack byte, and one more
//!   `pshufb` puts it on the rank.
//! * **full bit reversal** ([`rook_attacks_reversed`]): byte swap plus a
//!   nibble-table bit reversal inside every byte (two `pshufb`), on {file, rank}.
//! * **scalar first-rank table** ([`queen_attacks_rank_table`]: the SIMD
//!   bishop pair beside `hq_scalar`'s scalar file and rank kernels).
//!
//! The `*_pair` kernels are Aleks Peshkov's refinement: the occupancy is kept
//! as the pair `{occ, bswap(occ)}`, each line costs `and, sub, and`, the lines
//! are xored together, and one byte swap of the upper lane at the end
//! finishes the whole piece.

//!
//! # Safety
//!
//! Every `pub fn` here has one and the same safety rule for callers outside
//! SSSE3 code: the CPU must support SSSE3. It is stated once, here.
#![allow(
    clippy::missing_safety_doc,
    reason = "safe #[target_feature] fns; the one rule (the CPU has SSSE3) is in the module docs"
)]

use core::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_cvtsi64_si128, _mm_cvtsi128_si64, _mm_load_si128, _mm_or_si128,
    _mm_sad_epu8, _mm_set1_epi8, _mm_set1_epi64x, _mm_setzero_si128, _mm_shuffle_epi8,
    _mm_srli_epi16, _mm_sub_epi64, _mm_unpackhi_epi64, _mm_xor_si128,
};
use hq_core::{Bitboard, LINE_MASKS, Square, check_batch_lengths};
use hq_scalar::kernels::{bswap_line_attacks, rank_attacks_by_table};

/// Sixteen bytes, 16-byte aligned, so that one `movdqa` loads them (and no
/// load ever straddles a cache line).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(16))]
pub struct Pair(pub [u64; 2]);

impl Pair {
    const fn splat(x: u64) -> Pair {
        Pair([x, x])
    }

    /// A `pshufb` control (or table) from its sixteen bytes, byte 0 first.
    const fn from_bytes(bytes: [u8; 16]) -> Pair {
        let mut lanes = [0u64; 2];
        let mut i = 0;
        while i < 16 {
            lanes[i / 8] |= (bytes[i] as u64) << (8 * (i % 8));
            i += 1;
        }
        Pair(lanes)
    }

    /// Both lanes byte-swapped.
    const fn swap_bytes(self) -> Pair {
        Pair([self.0[0].swap_bytes(), self.0[1].swap_bytes()])
    }

    #[inline(always)]
    fn load(&self) -> __m128i {
        // SAFETY: `Pair` is 16 bytes and 16-byte aligned; movdqa is SSE2, part of x86_64.
        unsafe { _mm_load_si128(self.0.as_ptr().cast()) }
    }
}

/// `pshufb` control: reverse the bytes of each lane.
const BSWAP: Pair = Pair::from_bytes([7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8]);
/// `pshufb` control: from `movq occ`, the pair `{occ, bswap(occ)}`.
const PAIR_UP: Pair = Pair::from_bytes([0, 1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4, 3, 2, 1, 0]);
/// `pshufb` control: the upper lane byte-swapped into the lower one, zero above.
const HIGH_SWAPPED_TO_LOW: Pair = Pair::from_bytes([
    15, 14, 13, 12, 11, 10, 9, 8, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
]);
/// `pshufb` table: a nibble, bit-reversed, into the high nibble.
const NIBBLE_REVERSED_HIGH: Pair = Pair::from_bytes([
    0x00, 0x80, 0x40, 0xC0, 0x20, 0xA0, 0x60, 0xE0, 0x10, 0x90, 0x50, 0xD0, 0x30, 0xB0, 0x70, 0xF0,
]);
/// `pshufb` table: a nibble, bit-reversed, into the low nibble.
const NIBBLE_REVERSED_LOW: Pair = Pair::from_bytes([
    0x0, 0x8, 0x4, 0xC, 0x2, 0xA, 0x6, 0xE, 0x1, 0x9, 0x5, 0xD, 0x3, 0xB, 0x7, 0xF,
]);

/// What the plain bishop kernel loads for one square (48 bytes).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
pub struct BishopRecord {
    /// `{diagonal, anti_diagonal}` masks, from [`LINE_MASKS`].
    pub masks: Pair,
    /// `{1 << sq, 1 << sq}`.
    pub bits: Pair,
    /// `{1 << (sq ^ 56), 1 << (sq ^ 56)}`: the singletons byte-swapped.
    pub swapped_bits: Pair,
}

/// What the plain rook kernel loads for one square (48 bytes).
///
/// Lane 0 is the file; lane 1 is the rank moved onto the a1-h8 diagonal,
/// where the slider on file `f` sits on square `9f`.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
pub struct RookRecord {
    /// `{file mask, diagonal mask of square 9f}`.
    pub masks: Pair,
    /// `{1 << sq, 1 << 9f}`.
    pub bits: Pair,
    /// Both singletons byte-swapped.
    pub swapped_bits: Pair,
}

/// What the pair (Peshkov) kernels load for one square (96 bytes).
///
/// Every mask is stored as `{mask, bswap(mask)}` and the singletons as
/// `{bit, bswap(bit)}`, so a line costs `and, sub, and` on the occupancy pair.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
pub struct PairRecord {
    /// The diagonal mask pair.
    pub diagonal: Pair,
    /// The anti-diagonal mask pair.
    pub anti_diagonal: Pair,
    /// The file mask pair.
    pub file: Pair,
    /// `{1 << sq, 1 << (sq ^ 56)}`, shared by the three lines above.
    pub bits: Pair,
    /// The mask pair of the a1-h8 diagonal through `9f` (the rank's image).
    pub rank_on_diagonal: Pair,
    /// `{1 << 9f, 1 << (9f ^ 56)}`.
    pub rank_bits: Pair,
}

/// What the full-bit-reversal rook kernel loads for one square (48 bytes).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
pub struct ReversedRookRecord {
    /// `{file, rank}` masks.
    pub masks: Pair,
    /// `{1 << sq, 1 << sq}`.
    pub bits: Pair,
    /// `{1 << (sq ^ 63), 1 << (sq ^ 63)}`: the singletons bit-reversed.
    pub reversed_bits: Pair,
}

/// The square `9f` on the a1-h8 diagonal that the rank mapping sends file `f` to.
const fn diagonal_square(sq: usize) -> usize {
    (sq & 7) * 9
}

/// Plain bishop records, derived from [`LINE_MASKS`] at compile time.
pub const BISHOP: [BishopRecord; 64] = {
    let empty = Pair([0, 0]);
    let mut table = [BishopRecord {
        masks: empty,
        bits: empty,
        swapped_bits: empty,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let m = LINE_MASKS[sq];
        table[sq] = BishopRecord {
            masks: Pair([m.diagonal, m.anti_diagonal]),
            bits: Pair::splat(1 << sq),
            swapped_bits: Pair::splat(1 << (sq ^ 56)),
        };
        sq += 1;
    }
    table
};

/// Plain rook records, derived from [`LINE_MASKS`] at compile time.
pub const ROOK: [RookRecord; 64] = {
    let empty = Pair([0, 0]);
    let mut table = [RookRecord {
        masks: empty,
        bits: empty,
        swapped_bits: empty,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let d = diagonal_square(sq);
        let bits = Pair([1 << sq, 1 << d]);
        table[sq] = RookRecord {
            masks: Pair([LINE_MASKS[sq].file, LINE_MASKS[d].diagonal]),
            bits,
            swapped_bits: bits.swap_bytes(),
        };
        sq += 1;
    }
    table
};

/// Pair-form records, derived from [`LINE_MASKS`] at compile time.
pub const PAIRS: [PairRecord; 64] = {
    let empty = Pair([0, 0]);
    let mut table = [PairRecord {
        diagonal: empty,
        anti_diagonal: empty,
        file: empty,
        bits: empty,
        rank_on_diagonal: empty,
        rank_bits: empty,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        const fn pair(x: u64) -> Pair {
            Pair([x, x.swap_bytes()])
        }
        let m = LINE_MASKS[sq];
        let d = diagonal_square(sq);
        table[sq] = PairRecord {
            diagonal: pair(m.diagonal),
            anti_diagonal: pair(m.anti_diagonal),
            file: pair(m.file),
            bits: pair(1 << sq),
            rank_on_diagonal: pair(LINE_MASKS[d].diagonal),
            rank_bits: pair(1 << d),
        };
        sq += 1;
    }
    table
};

/// Full-bit-reversal rook records, derived from [`LINE_MASKS`] at compile time.
pub const REVERSED_ROOK: [ReversedRookRecord; 64] = {
    let empty = Pair([0, 0]);
    let mut table = [ReversedRookRecord {
        masks: empty,
        bits: empty,
        reversed_bits: empty,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = ReversedRookRecord {
            masks: Pair([LINE_MASKS[sq].file, LINE_MASKS[sq].rank]),
            bits: Pair::splat(1 << sq),
            reversed_bits: Pair::splat(1 << (sq ^ 63)),
        };
        sq += 1;
    }
    table
};

/// Per-rank `pshufb` tables for the rank-on-diagonal mapping.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
pub struct RankShuffles {
    /// Lane 0 keeps the occupancy; every byte of lane 1 is the rank's byte.
    pub gather: Pair,
    /// Every byte is the rank's byte (for the pair form, whose lanes are
    /// `{x, bswap(x)}`: a broadcast is its own byte swap).
    pub broadcast: Pair,
    /// Byte 8 (the `psadbw` sum of lane 1) to byte `rank`, zero elsewhere.
    pub place_from_high: Pair,
    /// Byte 0 (the `psadbw` sum of lane 0) to byte `rank`, zero elsewhere.
    pub place_from_low: Pair,
}

/// [`RankShuffles`] for ranks 1 to 8.
pub const RANK_SHUFFLES: [RankShuffles; 8] = {
    let empty = Pair([0, 0]);
    let mut table = [RankShuffles {
        gather: empty,
        broadcast: empty,
        place_from_high: empty,
        place_from_low: empty,
    }; 8];
    let mut rank = 0;
    while rank < 8 {
        let mut gather = [rank as u8; 16];
        let mut place_from_high = [0x80u8; 16];
        let mut place_from_low = [0x80u8; 16];
        let mut i = 0;
        while i < 8 {
            gather[i] = i as u8;
            i += 1;
        }
        place_from_high[rank] = 8;
        place_from_low[rank] = 0;
        table[rank] = RankShuffles {
            gather: Pair::from_bytes(gather),
            broadcast: Pair::from_bytes([rank as u8; 16]),
            place_from_high: Pair::from_bytes(place_from_high),
            place_from_low: Pair::from_bytes(place_from_low),
        };
        rank += 1;
    }
    table
};

// ---------------------------------------------------------------------------
// Building blocks.

/// Each 64-bit lane byte-swapped.
#[inline]
#[target_feature(enable = "ssse3")]
fn swap_lane_bytes(x: __m128i) -> __m128i {
    _mm_shuffle_epi8(x, BSWAP.load())
}

/// The bits of every byte reversed (nibble tables, two `pshufb`).
#[inline]
#[target_feature(enable = "ssse3")]
pub fn mirror_bytes(x: __m128i) -> __m128i {
    let nibble = _mm_set1_epi8(0x0F);
    let low = _mm_and_si128(x, nibble);
    let high = _mm_and_si128(_mm_srli_epi16::<4>(x), nibble);
    _mm_or_si128(
        _mm_shuffle_epi8(NIBBLE_REVERSED_HIGH.load(), low),
        _mm_shuffle_epi8(NIBBLE_REVERSED_LOW.load(), high),
    )
}

/// Each 64-bit lane bit-reversed: `u64::reverse_bits` on both lanes.
#[inline]
#[target_feature(enable = "ssse3")]
pub fn reverse_lane_bits(x: __m128i) -> __m128i {
    mirror_bytes(swap_lane_bytes(x))
}

/// The lower lane, as a `u64`.
#[inline]
#[target_feature(enable = "ssse3")]
fn low(x: __m128i) -> u64 {
    _mm_cvtsi128_si64(x) as u64
}

/// Both lanes or-ed into the lower one.
#[inline]
#[target_feature(enable = "ssse3")]
fn fold(x: __m128i) -> u64 {
    low(_mm_or_si128(x, _mm_unpackhi_epi64(x, x)))
}

/// Byte-swap HQ on both lanes: `((o - r) ^ bswap(bswap(o) - bswap(r))) & mask`.
#[inline]
#[target_feature(enable = "ssse3")]
fn swap_hq(occupancy: __m128i, masks: __m128i, bits: __m128i, swapped_bits: __m128i) -> __m128i {
    let forward = _mm_and_si128(occupancy, masks);
    let reverse = swap_lane_bytes(forward);
    let forward = _mm_sub_epi64(forward, bits);
    let reverse = _mm_sub_epi64(reverse, swapped_bits);
    _mm_and_si128(_mm_xor_si128(forward, swap_lane_bytes(reverse)), masks)
}

/// `{diagonal attacks, anti-diagonal attacks}`; `occupancy` in both lanes.
#[inline]
#[target_feature(enable = "ssse3")]
pub fn bishop_lanes(occupancy: __m128i, sq: Square) -> __m128i {
    let r = &BISHOP[sq as usize];
    swap_hq(
        occupancy,
        r.masks.load(),
        r.bits.load(),
        r.swapped_bits.load(),
    )
}

/// Lane 0: the rook attacks (file and rank); lane 1: scratch.
/// `occupancy` needs to be in lane 0 only.
#[inline]
#[target_feature(enable = "ssse3")]
pub fn rook_low_lane(occupancy: __m128i, sq: Square) -> __m128i {
    let r = &ROOK[sq as usize];
    let shuffles = &RANK_SHUFFLES[sq as usize >> 3];
    let lines = _mm_shuffle_epi8(occupancy, shuffles.gather.load());
    let attacks = swap_hq(lines, r.masks.load(), r.bits.load(), r.swapped_bits.load());
    // Lane 1 holds the rank's attacks on the diagonal, bit k in byte k only: the byte sum.
    let rank_byte = _mm_sad_epu8(attacks, _mm_setzero_si128());
    _mm_or_si128(
        attacks,
        _mm_shuffle_epi8(rank_byte, shuffles.place_from_high.load()),
    )
}

/// `{file attacks, rank attacks}` by full bit reversal; `occupancy` in both lanes.
#[inline]
#[target_feature(enable = "ssse3")]
pub fn rook_lanes_reversed(occupancy: __m128i, sq: Square) -> __m128i {
    let r = &REVERSED_ROOK[sq as usize];
    let masks = r.masks.load();
    let forward = _mm_and_si128(occupancy, masks);
    let reverse = reverse_lane_bits(forward);
    let forward = _mm_sub_epi64(forward, r.bits.load());
    let reverse = _mm_sub_epi64(reverse, r.reversed_bits.load());
    _mm_and_si128(_mm_xor_si128(forward, reverse_lane_bits(reverse)), masks)
}

// ---------------------------------------------------------------------------
// Plain form (Peshkov's sequence).

/// Bishop attacks: diagonal and anti-diagonal in the two lanes (plain form).
#[inline]
#[target_feature(enable = "ssse3")]
pub fn bishop_attacks(occupancy: u64, sq: Square) -> u64 {
    fold(bishop_lanes(_mm_set1_epi64x(occupancy as i64), sq))
}

/// Rook attacks: file and rank-on-diagonal in the two lanes (plain form).
#[inline]
#[target_feature(enable = "ssse3")]
pub fn rook_attacks(occupancy: u64, sq: Square) -> u64 {
    low(rook_low_lane(_mm_cvtsi64_si128(occupancy as i64), sq))
}

/// Queen attacks: the two plain pairs, or-ed.
#[inline]
#[target_feature(enable = "ssse3")]
pub fn queen_attacks(occupancy: u64, sq: Square) -> u64 {
    let occupancy = _mm_set1_epi64x(occupancy as i64);
    let bishop = bishop_lanes(occupancy, sq);
    let rook = rook_low_lane(occupancy, sq);
    low(_mm_or_si128(
        _mm_or_si128(bishop, rook),
        _mm_unpackhi_epi64(bishop, bishop),
    ))
}

// ---------------------------------------------------------------------------
// The other rank methods, kept for the measurements in the crate docs.

/// Rook attacks with {file, rank} fully bit-reversed by the nibble tables.
#[inline]
#[target_feature(enable = "ssse3")]
pub fn rook_attacks_reversed(occupancy: u64, sq: Square) -> u64 {
    fold(rook_lanes_reversed(_mm_set1_epi64x(occupancy as i64), sq))
}

/// Queen attacks: the bishop pair and the fully bit-reversed {file, rank} pair.
#[inline]
#[target_feature(enable = "ssse3")]
pub fn queen_attacks_reversed(occupancy: u64, sq: Square) -> u64 {
    let occupancy = _mm_set1_epi64x(occupancy as i64);
    fold(_mm_or_si128(
        bishop_lanes(occupancy, sq),
        rook_lanes_reversed(occupancy, sq),
    ))
}

/// Queen attacks: the SIMD bishop pair, with the file (scalar byte-swap HQ)
/// and the rank (scalar first-rank table) from `hq_scalar::kernels`.
#[inline]
#[target_feature(enable = "ssse3")]
pub fn queen_attacks_rank_table(occupancy: u64, sq: Square) -> u64 {
    bishop_attacks(occupancy, sq)
        | bswap_line_attacks(occupancy, LINE_MASKS[sq as usize].file, sq)
        | rank_attacks_by_table(occupancy, sq)
}

// ---------------------------------------------------------------------------
// Pair form (Peshkov's refinement).

/// The occupancy pair `{occ, bswap(occ)}`.
#[inline]
#[target_feature(enable = "ssse3")]
fn pair_up(occupancy: u64) -> __m128i {
    _mm_shuffle_epi8(_mm_cvtsi64_si128(occupancy as i64), PAIR_UP.load())
}

/// One line in pair form: `((pair & masks) - bits) & masks`.
#[inline]
#[target_feature(enable = "ssse3")]
fn pair_line(pair: __m128i, masks: &Pair, bits: __m128i) -> __m128i {
    let masks = masks.load();
    _mm_and_si128(_mm_sub_epi64(_mm_and_si128(pair, masks), bits), masks)
}

/// The pair's answer: lower lane xor the byte-swapped upper lane (lane 1: scratch).
#[inline]
#[target_feature(enable = "ssse3")]
fn unpair(v: __m128i) -> __m128i {
    _mm_xor_si128(v, _mm_shuffle_epi8(v, HIGH_SWAPPED_TO_LOW.load()))
}

/// The rank attacks in lane 0 (zero in lane 1), in pair form on the diagonal.
#[inline]
#[target_feature(enable = "ssse3")]
fn rank_pair(pair: __m128i, r: &PairRecord, sq: Square) -> __m128i {
    let shuffles = &RANK_SHUFFLES[sq as usize >> 3];
    let on_diagonal = _mm_shuffle_epi8(pair, shuffles.broadcast.load());
    let attacks = unpair(pair_line(
        on_diagonal,
        &r.rank_on_diagonal,
        r.rank_bits.load(),
    ));
    let rank_byte = _mm_sad_epu8(attacks, _mm_setzero_si128());
    _mm_shuffle_epi8(rank_byte, shuffles.place_from_low.load())
}

/// Bishop attacks in pair form.
#[inline]
#[target_feature(enable = "ssse3")]
pub fn bishop_attacks_pair(occupancy: u64, sq: Square) -> u64 {
    let pair = pair_up(occupancy);
    let r = &PAIRS[sq as usize];
    let bits = r.bits.load();
    let v = _mm_xor_si128(
        pair_line(pair, &r.diagonal, bits),
        pair_line(pair, &r.anti_diagonal, bits),
    );
    low(unpair(v))
}

/// Rook attacks in pair form (the rank on the diagonal).
#[inline]
#[target_feature(enable = "ssse3")]
pub fn rook_attacks_pair(occupancy: u64, sq: Square) -> u64 {
    let pair = pair_up(occupancy);
    let r = &PAIRS[sq as usize];
    low(_mm_or_si128(
        unpair(pair_line(pair, &r.file, r.bits.load())),
        rank_pair(pair, r, sq),
    ))
}

/// Queen attacks in pair form: three lines xored, one unpairing, plus the rank.
#[inline]
#[target_feature(enable = "ssse3")]
pub fn queen_attacks_pair(occupancy: u64, sq: Square) -> u64 {
    let pair = pair_up(occupancy);
    let r = &PAIRS[sq as usize];
    let bits = r.bits.load();
    let v = _mm_xor_si128(
        _mm_xor_si128(
            pair_line(pair, &r.diagonal, bits),
            pair_line(pair, &r.anti_diagonal, bits),
        ),
        pair_line(pair, &r.file, bits),
    );
    low(_mm_or_si128(unpair(v), rank_pair(pair, r, sq)))
}

// ---------------------------------------------------------------------------
// Batches: the same kernels in a loop compiled with ssse3, so they inline and
// the occupancy's broadcast (or pair) is hoisted out of the loop.

macro_rules! batch {
    ($(#[$doc:meta] $name:ident => $kernel:ident;)*) => {$(
        #[$doc]
        ///
        /// # Panics
        ///
        /// If `squares` and `out` differ in length.
        #[target_feature(enable = "ssse3")]
        pub fn $name(squares: &[Square], occupancy: u64, out: &mut [Bitboard]) {
            check_batch_lengths(squares.len(), out.len());
            for (o, &sq) in out.iter_mut().zip(squares) {
                *o = Bitboard($kernel(occupancy, sq));
            }
        }
    )*};
}

batch! {
    /// [`rook_attacks`] over many squares.
    rook_attacks_batch => rook_attacks;
    /// [`bishop_attacks`] over many squares.
    bishop_attacks_batch => bishop_attacks;
    /// [`queen_attacks`] over many squares.
    queen_attacks_batch => queen_attacks;
    /// [`rook_attacks_pair`] over many squares.
    rook_attacks_pair_batch => rook_attacks_pair;
    /// [`bishop_attacks_pair`] over many squares.
    bishop_attacks_pair_batch => bishop_attacks_pair;
    /// [`queen_attacks_pair`] over many squares.
    queen_attacks_pair_batch => queen_attacks_pair;
}

#[cfg(test)]
mod tests {
    use super::*;
    use hq_core::reference;

    fn ssse3() -> bool {
        let present = std::is_x86_feature_detected!("ssse3");
        if !present {
            println!("SKIPPED: no ssse3 on this CPU");
        }
        present
    }

    #[test]
    fn bit_reversal_matches_reverse_bits() {
        if !ssse3() {
            return;
        }
        let mut x = 0x0123_4567_89AB_CDEFu64;
        for _ in 0..1000 {
            x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17) ^ 0x5555;
            let y = x.rotate_left(29);
            // SAFETY: ssse3 was detected above.
            let v = unsafe {
                reverse_lane_bits(core::arch::x86_64::_mm_set_epi64x(y as i64, x as i64))
            };
            // SAFETY: ssse3 was detected above.
            let lo = unsafe { low(v) };
            // SAFETY: ssse3 was detected above.
            let hi = unsafe { low(_mm_unpackhi_epi64(v, v)) };
            assert_eq!((lo, hi), (x.reverse_bits(), y.reverse_bits()));
        }
    }

    #[test]
    fn every_variant_is_exhaustive_on_its_lines() {
        if !ssse3() {
            return;
        }
        type Kernel = unsafe fn(u64, Square) -> u64;
        let rooks: [(&str, Kernel); 3] = [
            ("plain", rook_attacks),
            ("reversed", rook_attacks_reversed),
            ("pair", rook_attacks_pair),
        ];
        let bishops: [(&str, Kernel); 2] =
            [("plain", bishop_attacks), ("pair", bishop_attacks_pair)];
        let queens: [(&str, Kernel); 4] = [
            ("plain", queen_attacks),
            ("reversed", queen_attacks_reversed),
            ("rank-table", queen_attacks_rank_table),
            ("pair", queen_attacks_pair),
        ];
        let mut noise = hq_testkit::SplitMix64(7);
        for sq in Square::ALL {
            let m = LINE_MASKS[sq as usize];
            for (lines, is_rook) in [
                (m.file | m.rank, true),
                (m.diagonal | m.anti_diagonal, false),
            ] {
                hq_testkit::for_each_subset(lines, |subset| {
                    let occ = subset | (noise.next_u64() & !lines);
                    let b = Bitboard(occ);
                    let pieces: &[(&str, Kernel)] = if is_rook { &rooks } else { &bishops };
                    let expected = if is_rook {
                        reference::rook_attacks(sq, b)
                    } else {
                        reference::bishop_attacks(sq, b)
                    };
                    for &(name, kernel) in pieces.iter() {
                        // SAFETY: ssse3 was detected above.
                        let got = unsafe { kernel(occ, sq) };
                        assert_eq!(got, expected.0, "{name} {sq} {occ:#x}");
                    }
                    let expected = reference::queen_attacks(sq, b).0;
                    for &(name, kernel) in queens.iter() {
                        // SAFETY: ssse3 was detected above.
                        let got = unsafe { kernel(occ, sq) };
                        assert_eq!(got, expected, "queen {name} {sq} {occ:#x}");
                    }
                });
            }
        }
    }
}
