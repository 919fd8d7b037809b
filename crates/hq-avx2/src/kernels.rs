//! The AVX2 kernels, as safe `#[target_feature(enable = "avx2")]` functions.
//!
//! Calling one from code compiled without `avx2` is `unsafe`: the caller must
//! know that the CPU has AVX2 (the [`Avx2`](crate::Avx2) token is that proof).
//!
//! * **Full bit reversal of 64-bit lanes** ([`reverse_lane_bits`]): `vpshufb`
//!   reverses the bytes of each lane, then two `vpshufb` nibble-table lookups
//!   reverse the bits inside each byte. With it, HQ works on ranks too.
//! * **Layout (a), one queen per ymm** ([`queen_attacks_lanes`]): the
//!   square's [`LINE_MASKS`] record is already `{diagonal, anti-diagonal,
//!   file, rank}` in one aligned 32-byte load; HQ runs on the four lanes at
//!   once and the lanes are or-ed at the end. [`queen_attacks_lanes_pair`]
//!   is the same with Peshkov's pair trick (reverse the occupancy once,
//!   subtract in both orientations, reverse once at the end).
//! * **Layout (b), four squares per ymm** ([`queen_attacks_soa`] and the
//!   rook and bishop versions): structure of arrays for the batch entry
//!   points. Four records are loaded and transposed so that each ymm holds
//!   one line kind for four squares; files and diagonals then need only the
//!   byte swap, ranks only the bit reversal inside bytes.
//! * Rook and bishop single lookups reuse `hq_ssse3`'s 128-bit kernels,
//!   compiled here with AVX2 (three-operand VEX code).

//!
//! # Safety
//!
//! Every `pub fn` here has one and the same safety rule for callers outside
//! AVX2 code: the CPU must support AVX2. It is stated once, here.
#![allow(
    clippy::missing_safety_doc,
    reason = "safe #[target_feature] fns; the one rule (the CPU has AVX2) is in the module docs"
)]

use core::arch::x86_64::{
    __m128i, __m256i, _mm_cvtsi32_si128, _mm_cvtsi64_si128, _mm_cvtsi128_si64, _mm_load_si128,
    _mm_or_si128, _mm_unpackhi_epi64, _mm_xor_si128, _mm256_and_si256, _mm256_broadcastq_epi64,
    _mm256_castsi256_si128, _mm256_cvtepu8_epi64, _mm256_extracti128_si256, _mm256_load_si256,
    _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set_m128i, _mm256_set1_epi8,
    _mm256_set1_epi64x, _mm256_shuffle_epi8, _mm256_sllv_epi64, _mm256_srli_epi16,
    _mm256_storeu_si256, _mm256_sub_epi64, _mm256_unpackhi_epi64, _mm256_unpacklo_epi64,
    _mm256_xor_si256,
};
use hq_core::{Bitboard, LINE_MASKS, LineMasks, SQUARE_BITS, Square, check_batch_lengths};
use hq_ssse3::kernels as ssse3;

/// Thirty-two bytes, 32-byte aligned: one `vmovdqa`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(32))]
pub struct Bytes32(pub [u8; 32]);

impl Bytes32 {
    /// The same sixteen bytes in both 128-bit halves (`vpshufb` works per half).
    const fn twice(half: [u8; 16]) -> Bytes32 {
        let mut bytes = [0u8; 32];
        let mut i = 0;
        while i < 32 {
            bytes[i] = half[i % 16];
            i += 1;
        }
        Bytes32(bytes)
    }

    #[inline(always)]
    fn load(&self) -> __m256i {
        // SAFETY: `Bytes32` is 32 bytes and 32-byte aligned; only called from avx2 code.
        unsafe { _mm256_load_si256(self.0.as_ptr().cast()) }
    }
}

/// `vpshufb` control: reverse the bytes of each 64-bit lane.
const BSWAP: Bytes32 = Bytes32::twice([7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8]);
/// `vpshufb` table: a nibble, bit-reversed, into the high nibble.
const NIBBLE_REVERSED_HIGH: Bytes32 = Bytes32::twice([
    0x00, 0x80, 0x40, 0xC0, 0x20, 0xA0, 0x60, 0xE0, 0x10, 0x90, 0x50, 0xD0, 0x30, 0xB0, 0x70, 0xF0,
]);
/// `vpshufb` table: a nibble, bit-reversed, into the low nibble.
const NIBBLE_REVERSED_LOW: Bytes32 = Bytes32::twice([
    0x0, 0x8, 0x4, 0xC, 0x2, 0xA, 0x6, 0xE, 0x1, 0x9, 0x5, 0xD, 0x3, 0xB, 0x7, 0xF,
]);

// ---------------------------------------------------------------------------
// Building blocks.

/// The square's four line masks `{diagonal, anti-diagonal, file, rank}`.
#[inline(always)]
fn load_masks(masks: &LineMasks) -> __m256i {
    // SAFETY: `LineMasks` is 32 bytes and 32-byte aligned; only called from avx2 code.
    unsafe { _mm256_load_si256((masks as *const LineMasks).cast()) }
}

/// One 16-byte half of a [`LineMasks`] record: 0 = `{diagonal, anti}`, 1 = `{file, rank}`.
#[inline(always)]
fn load_half(masks: &LineMasks, half: usize) -> __m128i {
    debug_assert!(half < 2);
    // SAFETY: the record is 32 bytes, 32-byte aligned, so both 16-byte halves are in it and aligned.
    unsafe { _mm_load_si128((masks as *const LineMasks).cast::<__m128i>().add(half)) }
}

/// Each 64-bit lane byte-swapped.
#[inline]
#[target_feature(enable = "avx2")]
pub fn swap_lane_bytes(x: __m256i) -> __m256i {
    _mm256_shuffle_epi8(x, BSWAP.load())
}

/// The bits of every byte reversed (nibble tables, two `vpshufb`).
#[inline]
#[target_feature(enable = "avx2")]
pub fn mirror_bytes(x: __m256i) -> __m256i {
    let nibble = _mm256_set1_epi8(0x0F);
    let low = _mm256_and_si256(x, nibble);
    let high = _mm256_and_si256(_mm256_srli_epi16::<4>(x), nibble);
    _mm256_or_si256(
        _mm256_shuffle_epi8(NIBBLE_REVERSED_HIGH.load(), low),
        _mm256_shuffle_epi8(NIBBLE_REVERSED_LOW.load(), high),
    )
}

/// Each 64-bit lane bit-reversed (`u64::reverse_bits` on all four).
#[inline]
#[target_feature(enable = "avx2")]
pub fn reverse_lane_bits(x: __m256i) -> __m256i {
    mirror_bytes(swap_lane_bytes(x))
}

/// The four lanes or-ed together.
#[inline]
#[target_feature(enable = "avx2")]
fn or_lanes(x: __m256i) -> u64 {
    let halves = _mm_or_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256::<1>(x));
    _mm_cvtsi128_si64(_mm_or_si128(halves, _mm_unpackhi_epi64(halves, halves))) as u64
}

// ---------------------------------------------------------------------------
// Layout (a): one queen per ymm.

/// Queen attacks, layout (a): HQ with full bit reversal on the four lines in
/// the four lanes, reduced with `or`.
#[inline]
#[target_feature(enable = "avx2")]
pub fn queen_attacks_lanes(occupancy: u64, sq: Square) -> u64 {
    let masks = load_masks(&LINE_MASKS[sq as usize]);
    let forward = _mm256_and_si256(_mm256_set1_epi64x(occupancy as i64), masks);
    let reverse = reverse_lane_bits(forward);
    let forward = _mm256_sub_epi64(forward, _mm256_set1_epi64x(SQUARE_BITS[sq as usize] as i64));
    let reverse = _mm256_sub_epi64(
        reverse,
        _mm256_set1_epi64x(SQUARE_BITS[sq as usize ^ 63] as i64),
    );
    or_lanes(_mm256_and_si256(
        _mm256_xor_si256(forward, reverse_lane_bits(reverse)),
        masks,
    ))
}

/// Queen attacks, layout (a) in Peshkov's pair form: the occupancy reversed
/// once (in an xmm), each orientation `and, sub, and` on four lanes (a full
/// bit reversal maps the line masks of `sq` onto those of `sq ^ 63`, so no
/// extra table), the two reduced side by side and the reverse one reversed back.
#[inline]
#[target_feature(enable = "avx2")]
pub fn queen_attacks_lanes_pair(occupancy: u64, sq: Square) -> u64 {
    let occupancy = _mm_cvtsi64_si128(occupancy as i64);
    let reversed = ssse3::reverse_lane_bits(occupancy);
    let line = |occupancy: __m128i, sq: usize| {
        let masks = load_masks(&LINE_MASKS[sq]);
        let bits = _mm256_set1_epi64x(SQUARE_BITS[sq] as i64);
        _mm256_and_si256(
            _mm256_sub_epi64(
                _mm256_and_si256(_mm256_broadcastq_epi64(occupancy), masks),
                bits,
            ),
            masks,
        )
    };
    let forward = line(occupancy, sq as usize);
    let reverse = line(reversed, sq as usize ^ 63);
    // {f0|f1, r0|r1, f2|f3, r2|r3}, then the halves: {forward, reverse}.
    let both = _mm256_or_si256(
        _mm256_unpacklo_epi64(forward, reverse),
        _mm256_unpackhi_epi64(forward, reverse),
    );
    let both = _mm_or_si128(
        _mm256_castsi256_si128(both),
        _mm256_extracti128_si256::<1>(both),
    );
    let reversed_back = ssse3::reverse_lane_bits(both);
    _mm_cvtsi128_si64(_mm_xor_si128(
        both,
        _mm_unpackhi_epi64(reversed_back, reversed_back),
    )) as u64
}

/// Rook attacks: `hq_ssse3`'s kernel (file and rank-on-diagonal in one xmm), compiled for AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub fn rook_attacks(occupancy: u64, sq: Square) -> u64 {
    ssse3::rook_attacks(occupancy, sq)
}

/// Rook attacks: {file, rank} with full bit reversal in one xmm, compiled for AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub fn rook_attacks_reversed(occupancy: u64, sq: Square) -> u64 {
    ssse3::rook_attacks_reversed(occupancy, sq)
}

/// Rook attacks in pair form (`hq_ssse3`), compiled for AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub fn rook_attacks_pair(occupancy: u64, sq: Square) -> u64 {
    ssse3::rook_attacks_pair(occupancy, sq)
}

/// Bishop attacks: `hq_ssse3`'s plain kernel, compiled for AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub fn bishop_attacks(occupancy: u64, sq: Square) -> u64 {
    ssse3::bishop_attacks(occupancy, sq)
}

/// Bishop attacks in pair form (`hq_ssse3`), compiled for AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub fn bishop_attacks_pair(occupancy: u64, sq: Square) -> u64 {
    ssse3::bishop_attacks_pair(occupancy, sq)
}

/// Queen attacks: `hq_ssse3`'s two plain xmm pairs, compiled for AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub fn queen_attacks_xmm(occupancy: u64, sq: Square) -> u64 {
    ssse3::queen_attacks(occupancy, sq)
}

/// Queen attacks in `hq_ssse3`'s pair form, compiled for AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub fn queen_attacks_xmm_pair(occupancy: u64, sq: Square) -> u64 {
    ssse3::queen_attacks_pair(occupancy, sq)
}

// ---------------------------------------------------------------------------
// Layout (b): four squares per ymm, structure of arrays.

/// Four squares as four 64-bit lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn square_lanes(squares: &[Square; 4]) -> __m256i {
    let packed = u32::from_le_bytes([
        squares[0] as u8,
        squares[1] as u8,
        squares[2] as u8,
        squares[3] as u8,
    ]);
    _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(packed as i32))
}

/// `1 << (sq ^ flip)` in each lane.
#[inline]
#[target_feature(enable = "avx2")]
fn bits(squares: __m256i, flip: i64) -> __m256i {
    let squares = _mm256_xor_si256(squares, _mm256_set1_epi64x(flip));
    _mm256_sllv_epi64(_mm256_set1_epi64x(1), squares)
}

/// Byte-swap HQ on four lanes (files, diagonals, anti-diagonals).
#[inline]
#[target_feature(enable = "avx2")]
fn swap_hq(occupancy: __m256i, masks: __m256i, bits: __m256i, swapped_bits: __m256i) -> __m256i {
    let forward = _mm256_and_si256(occupancy, masks);
    let reverse = swap_lane_bytes(forward);
    let forward = _mm256_sub_epi64(forward, bits);
    let reverse = _mm256_sub_epi64(reverse, swapped_bits);
    _mm256_and_si256(_mm256_xor_si256(forward, swap_lane_bytes(reverse)), masks)
}

/// HQ on four ranks: a rank lies in one byte, so reversing the bits inside
/// bytes reverses it (the square goes to `sq ^ 7`).
#[inline]
#[target_feature(enable = "avx2")]
fn rank_hq(occupancy: __m256i, masks: __m256i, bits: __m256i, mirrored_bits: __m256i) -> __m256i {
    let forward = _mm256_and_si256(occupancy, masks);
    let reverse = mirror_bytes(forward);
    let forward = _mm256_sub_epi64(forward, bits);
    let reverse = _mm256_sub_epi64(reverse, mirrored_bits);
    _mm256_and_si256(_mm256_xor_si256(forward, mirror_bytes(reverse)), masks)
}

/// One 16-byte half of four records as two line vectors for the four squares.
#[inline]
#[target_feature(enable = "avx2")]
fn half_lines(squares: &[Square; 4], half: usize) -> (__m256i, __m256i) {
    let record = |i: usize| load_half(&LINE_MASKS[squares[i] as usize], half);
    let even = _mm256_set_m128i(record(2), record(0)); // {x0, y0, x2, y2}
    let odd = _mm256_set_m128i(record(3), record(1)); // {x1, y1, x3, y3}
    (
        _mm256_unpacklo_epi64(even, odd),
        _mm256_unpackhi_epi64(even, odd),
    )
}

/// Rook attacks of four squares.
#[inline]
#[target_feature(enable = "avx2")]
fn rook4(occupancy: __m256i, squares: &[Square; 4]) -> __m256i {
    let (file, rank) = half_lines(squares, 1);
    let lanes = square_lanes(squares);
    let bit = bits(lanes, 0);
    _mm256_or_si256(
        swap_hq(occupancy, file, bit, bits(lanes, 56)),
        rank_hq(occupancy, rank, bit, bits(lanes, 7)),
    )
}

/// Bishop attacks of four squares.
#[inline]
#[target_feature(enable = "avx2")]
fn bishop4(occupancy: __m256i, squares: &[Square; 4]) -> __m256i {
    let (diagonal, anti_diagonal) = half_lines(squares, 0);
    let lanes = square_lanes(squares);
    let bit = bits(lanes, 0);
    let swapped = bits(lanes, 56);
    _mm256_or_si256(
        swap_hq(occupancy, diagonal, bit, swapped),
        swap_hq(occupancy, anti_diagonal, bit, swapped),
    )
}

/// Queen attacks of four squares: four whole records, transposed.
#[inline]
#[target_feature(enable = "avx2")]
fn queen4(occupancy: __m256i, squares: &[Square; 4]) -> __m256i {
    let record = |i: usize| load_masks(&LINE_MASKS[squares[i] as usize]);
    let (r0, r1, r2, r3) = (record(0), record(1), record(2), record(3));
    let low01 = _mm256_unpacklo_epi64(r0, r1); // {d0, d1, f0, f1}
    let high01 = _mm256_unpackhi_epi64(r0, r1); // {a0, a1, k0, k1}
    let low23 = _mm256_unpacklo_epi64(r2, r3);
    let high23 = _mm256_unpackhi_epi64(r2, r3);
    let diagonal = _mm256_permute2x128_si256::<0x20>(low01, low23);
    let file = _mm256_permute2x128_si256::<0x31>(low01, low23);
    let anti_diagonal = _mm256_permute2x128_si256::<0x20>(high01, high23);
    let rank = _mm256_permute2x128_si256::<0x31>(high01, high23);
    let lanes = square_lanes(squares);
    let bit = bits(lanes, 0);
    let swapped = bits(lanes, 56);
    let slanted = _mm256_or_si256(
        swap_hq(occupancy, diagonal, bit, swapped),
        swap_hq(occupancy, anti_diagonal, bit, swapped),
    );
    let straight = _mm256_or_si256(
        swap_hq(occupancy, file, bit, swapped),
        rank_hq(occupancy, rank, bit, bits(lanes, 7)),
    );
    _mm256_or_si256(slanted, straight)
}

/// Stores four results.
#[inline]
#[target_feature(enable = "avx2")]
fn store4(out: &mut [Bitboard; 4], attacks: __m256i) {
    // SAFETY: `out` is four `Bitboard`s (`repr(transparent)` u64s), 32 writable bytes; storeu needs no alignment.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), attacks) }
}

macro_rules! soa_batch {
    ($(#[$doc:meta] $name:ident => $four:ident;)*) => {$(
        #[$doc]
        ///
        /// Four squares per ymm; a short tail is padded with a1 and only its
        /// real results are copied out.
        ///
        /// # Panics
        ///
        /// If `squares` and `out` differ in length.
        #[target_feature(enable = "avx2")]
        pub fn $name(squares: &[Square], occupancy: u64, out: &mut [Bitboard]) {
            check_batch_lengths(squares.len(), out.len());
            let occupancy = _mm256_set1_epi64x(occupancy as i64);
            let (square_chunks, square_tail) = squares.as_chunks::<4>();
            let (out_chunks, out_tail) = out.as_chunks_mut::<4>();
            for (four, out) in square_chunks.iter().zip(out_chunks) {
                store4(out, $four(occupancy, four));
            }
            if !square_tail.is_empty() {
                let mut padded = [Square::A1; 4];
                padded[..square_tail.len()].copy_from_slice(square_tail);
                let mut results = [Bitboard::EMPTY; 4];
                store4(&mut results, $four(occupancy, &padded));
                out_tail.copy_from_slice(&results[..square_tail.len()]);
            }
        }
    )*};
}

soa_batch! {
    /// Rook attacks of many squares over one occupancy, layout (b).
    rook_attacks_soa => rook4;
    /// Bishop attacks of many squares over one occupancy, layout (b).
    bishop_attacks_soa => bishop4;
    /// Queen attacks of many squares over one occupancy, layout (b).
    queen_attacks_soa => queen4;
}

macro_rules! loop_batch {
    ($(#[$doc:meta] $name:ident => $kernel:ident;)*) => {$(
        #[$doc]
        ///
        /// # Panics
        ///
        /// If `squares` and `out` differ in length.
        #[target_feature(enable = "avx2")]
        pub fn $name(squares: &[Square], occupancy: u64, out: &mut [Bitboard]) {
            check_batch_lengths(squares.len(), out.len());
            for (o, &sq) in out.iter_mut().zip(squares) {
                *o = Bitboard($kernel(occupancy, sq));
            }
        }
    )*};
}

loop_batch! {
    /// [`rook_attacks`] in a loop compiled for AVX2.
    rook_attacks_loop => rook_attacks;
    /// [`bishop_attacks`] in a loop compiled for AVX2.
    bishop_attacks_loop => bishop_attacks;
    /// [`queen_attacks_lanes`] (layout (a)) in a loop compiled for AVX2.
    queen_attacks_lanes_loop => queen_attacks_lanes;
    /// [`queen_attacks_xmm`] in a loop compiled for AVX2.
    queen_attacks_xmm_loop => queen_attacks_xmm;
}

#[cfg(test)]
mod tests {
    use super::*;
    use hq_core::reference;

    fn avx2() -> bool {
        let present = std::is_x86_feature_detected!("avx2");
        if !present {
            println!("SKIPPED: no avx2 on this CPU");
        }
        present
    }

    #[test]
    fn bit_reversal_matches_reverse_bits() {
        if !avx2() {
            return;
        }
        let mut rng = hq_testkit::SplitMix64(3);
        for _ in 0..1000 {
            let x = [
                rng.next_u64(),
                rng.next_u64(),
                rng.next_u64(),
                rng.next_u64(),
            ];
            let mut out = [Bitboard::EMPTY; 4];
            // SAFETY: avx2 was detected above; `x` is 32 readable bytes and loadu needs no alignment.
            unsafe {
                let v = core::arch::x86_64::_mm256_loadu_si256(x.as_ptr().cast());
                store4(&mut out, reverse_lane_bits(v));
            }
            assert_eq!(out.map(|b| b.0), x.map(u64::reverse_bits));
        }
    }

    #[test]
    fn every_single_square_variant_is_exhaustive() {
        if !avx2() {
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
            ("lanes", queen_attacks_lanes),
            ("lanes-pair", queen_attacks_lanes_pair),
            ("xmm", queen_attacks_xmm),
            ("xmm-pair", queen_attacks_xmm_pair),
        ];
        let mut noise = hq_testkit::SplitMix64(11);
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
                        // SAFETY: avx2 was detected above.
                        let got = unsafe { kernel(occ, sq) };
                        assert_eq!(got, expected.0, "{name} {sq} {occ:#x}");
                    }
                    let expected = reference::queen_attacks(sq, b).0;
                    for &(name, kernel) in queens.iter() {
                        // SAFETY: avx2 was detected above.
                        let got = unsafe { kernel(occ, sq) };
                        assert_eq!(got, expected, "queen {name} {sq} {occ:#x}");
                    }
                });
            }
        }
    }

    #[test]
    fn every_batch_variant_matches_the_oracle_at_every_length() {
        if !avx2() {
            return;
        }
        type Batch = unsafe fn(&[Square], u64, &mut [Bitboard]);
        type Single = fn(Square, Bitboard) -> Bitboard;
        let kinds: [(&str, Batch, Single); 7] = [
            ("rook soa", rook_attacks_soa, reference::rook_attacks),
            ("bishop soa", bishop_attacks_soa, reference::bishop_attacks),
            ("queen soa", queen_attacks_soa, reference::queen_attacks),
            ("rook loop", rook_attacks_loop, reference::rook_attacks),
            (
                "bishop loop",
                bishop_attacks_loop,
                reference::bishop_attacks,
            ),
            (
                "queen lanes loop",
                queen_attacks_lanes_loop,
                reference::queen_attacks,
            ),
            (
                "queen xmm loop",
                queen_attacks_xmm_loop,
                reference::queen_attacks,
            ),
        ];
        let mut rng = hq_testkit::SplitMix64(13);
        for round in 0..200 {
            let len = round % 67;
            let occ = rng.next_u64() & rng.next_u64();
            let squares: Vec<Square> = (0..len)
                .map(|_| Square::from_index_masked(rng.next_u64() as u8))
                .collect();
            for (name, batch, single) in kinds {
                let mut out = vec![Bitboard(0xDEAD); len];
                // SAFETY: avx2 was detected above.
                unsafe { batch(&squares, occ, &mut out) };
                for (&sq, got) in squares.iter().zip(&out) {
                    assert_eq!(
                        *got,
                        single(sq, Bitboard(occ)),
                        "{name} {sq} {occ:#x} len {len}"
                    );
                }
            }
        }
    }
}
