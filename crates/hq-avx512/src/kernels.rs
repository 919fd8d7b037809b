//! The AVX-512 kernels. Every function here enables avx512f, avx512bw,
//! avx512vbmi and gfni, so it may run only where those exist: the
//! [`crate::Avx512`] token is the proof.
//!
//! Two ways to reverse the bits of eight 64-bit lanes, both two instructions:
//!
//! * [`reverse_lanes`]: `vgf2p8affineqb` with the matrix
//!   0x8040201008040201 reverses the bits of every byte, `vpermb` reverses
//!   the bytes of every qword (index `i ^ 7`).
//! * [`reverse_lanes_by_transposes`]: the data *as the matrix*,
//!   `vgf2p8affineqb(C, x)` with `C` = 0x8040201008040201 per qword, gives
//!   `out.byte[j].bit[i] = x.byte[7 - i].bit[j]` (a transposition with a
//!   flip); applied twice, `out.byte[j].bit[i] = x.byte[7 - j].bit[7 - i]`,
//!   which is bit `63 - (8j + i)`: the full reversal. Same length, but it
//!   needs no byte-index vector (one constant register instead of two).
//!   The backend uses it; both are proven equal to `u64::reverse_bits` by
//!   proptest (`tests/kernels.rs`).
//!
//! # Safety
//!
//! Every public function here is a safe `#[target_feature]` function, so it
//! is `unsafe` to call from code without those features: the caller must
//! hold an [`crate::Avx512`] token (or have checked the four features).
#![allow(clippy::missing_safety_doc)] // The one contract, stated above for the whole module.

use core::arch::x86_64::*;
use hq_core::{LINE_MASKS, LineMasks, Square};

/// Bit reversal within every byte, as a GF(2) matrix (also the identity
/// constant of the data-as-matrix transposition).
pub const REVERSE_BITS_MATRIX: i64 = 0x8040_2010_0804_0201u64 as i64;

const fn index_table(xor: u8) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = i as u8 ^ xor;
        i += 1;
    }
    t
}

/// `vpermb` index reversing the bytes of every qword.
const BYTE_REVERSE_INDEX: [u8; 64] = index_table(7);

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn load_index(table: &[u8; 64]) -> __m512i {
    // SAFETY: the table is 64 readable bytes; unaligned load.
    unsafe { _mm512_loadu_si512(table.as_ptr().cast()) }
}

/// Reverses the bits of each 64-bit lane: `vgf2p8affineqb` + `vpermb`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
pub fn reverse_lanes(x: __m512i) -> __m512i {
    let bits = _mm512_gf2p8affine_epi64_epi8::<0>(x, _mm512_set1_epi64(REVERSE_BITS_MATRIX));
    _mm512_permutexvar_epi8(load_index(&BYTE_REVERSE_INDEX), bits)
}

/// Reverses the bits of each 64-bit lane: two data-as-matrix `vgf2p8affineqb`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
pub fn reverse_lanes_by_transposes(x: __m512i) -> __m512i {
    let identity = _mm512_set1_epi64(REVERSE_BITS_MATRIX);
    let transposed = _mm512_gf2p8affine_epi64_epi8::<0>(identity, x);
    _mm512_gf2p8affine_epi64_epi8::<0>(identity, transposed)
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn load_record(masks: &LineMasks) -> __m256i {
    // SAFETY: `LineMasks` is 32 bytes, 32-byte aligned.
    unsafe { _mm256_load_si256((masks as *const LineMasks).cast()) }
}

/// The four line attacks of one square, lanes 0-3 in [`LineMasks`] order
/// `{diagonal, anti_diagonal, file, rank}` (lanes 4-7: don't care).
///
/// Lanes 0-3 work on the board, lanes 4-7 on the board turned by 180 degrees
/// (square `63 - sq`, occupancy reversed), so one subtraction does both HQ
/// halves; one reversal brings the turned half back under the other:
///
/// ```text
/// masks = {m(sq) x4 lines, m(63-sq) x4}      bits = {1<<sq x4, 1<<(63-sq) x4}   (vpsllvq)
/// occ2  = {occ x4, rev(occ) x4}              (2 x vgf2p8affineqb + vshufi64x2)
/// t     = (occ2 & masks) - bits
/// back  = rev(t) with lanes 4-7 moved to 0-3 (2 x vgf2p8affineqb + vshufi64x2)
/// attacks = (t ^ back) & masks               (one vpternlogq)
/// ```
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
pub fn line_vectors(sq: Square, occupancy: u64) -> __m512i {
    let s = sq as usize;
    let masks = _mm512_inserti64x4::<1>(
        _mm512_castsi256_si512(load_record(&LINE_MASKS[s])),
        load_record(&LINE_MASKS[s ^ 63]),
    );
    // {sq x4, 63 - sq x4}, then the bits.
    let shifts = _mm512_xor_si512(
        _mm512_set1_epi64(s as i64),
        _mm512_set_epi64(63, 63, 63, 63, 0, 0, 0, 0),
    );
    let bits = _mm512_sllv_epi64(_mm512_set1_epi64(1), shifts);
    let occ = _mm512_set1_epi64(occupancy as i64);
    // 128-bit lanes 0-1 (qwords 0-3) from occ, 2-3 (qwords 4-7) from rev(occ).
    let occ2 = _mm512_shuffle_i64x2::<0b11_10_01_00>(occ, reverse_lanes_by_transposes(occ));
    let t = _mm512_sub_epi64(_mm512_and_si512(occ2, masks), bits);
    let turned = reverse_lanes_by_transposes(t);
    // Qwords 4-7 of `turned` down to 0-3.
    let back = _mm512_shuffle_i64x2::<0b01_00_11_10>(turned, turned);
    // (t ^ back) & masks: A = 0xF0, B = 0xCC, C = 0xAA -> (A ^ B) & C = 0x28.
    _mm512_ternarylogic_epi64::<0x28>(t, back, masks)
}

/// Queen attacks of one square: [`line_vectors`] with its four lanes or-ed.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
pub fn queen_attacks(sq: Square, occupancy: u64) -> u64 {
    let lines = _mm512_castsi512_si256(line_vectors(sq, occupancy));
    let pair = _mm_or_si128(
        _mm256_castsi256_si128(lines),
        _mm256_extracti128_si256::<1>(lines),
    );
    _mm_cvtsi128_si64(pair) as u64 | _mm_extract_epi64::<1>(pair) as u64
}

/// Rook attacks of one square: lanes 2 (file) and 3 (rank) of [`line_vectors`].
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
pub fn rook_attacks(sq: Square, occupancy: u64) -> u64 {
    let pair = _mm512_extracti32x4_epi32::<1>(line_vectors(sq, occupancy));
    _mm_cvtsi128_si64(pair) as u64 | _mm_extract_epi64::<1>(pair) as u64
}

/// Bishop attacks of one square: lanes 0 and 1 of [`line_vectors`].
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
pub fn bishop_attacks(sq: Square, occupancy: u64) -> u64 {
    let pair = _mm512_castsi512_si128(line_vectors(sq, occupancy));
    _mm_cvtsi128_si64(pair) as u64 | _mm_extract_epi64::<1>(pair) as u64
}

/// The attacks along the line in lane `lane` ([`LineMasks`] order) of one square.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
pub fn lane_attacks(lane: usize, sq: Square, occupancy: u64) -> u64 {
    let mut lanes = [0u64; 8];
    // SAFETY: `lanes` is 64 writable bytes; unaligned store.
    unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), line_vectors(sq, occupancy)) };
    lanes[lane & 7]
}

/// Queen attacks of two squares in one zmm, the "four lines of two queens"
/// layout: lanes 0-3 the lines of `a`, lanes 4-7 those of `b`, classic HQ
/// `((o - r) ^ rev(rev(o) - rev(r))) & m` with two full reversals.
/// Kept beside the batch kernel for the instruction-count comparison.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
pub fn queen_attacks_x2(a: Square, b: Square, occupancy: u64) -> [u64; 2] {
    let (a, b) = (a as usize, b as usize);
    let masks = _mm512_inserti64x4::<1>(
        _mm512_castsi256_si512(load_record(&LINE_MASKS[a])),
        load_record(&LINE_MASKS[b]),
    );
    let bits = _mm512_mask_set1_epi64(_mm512_set1_epi64(1 << a), 0xF0, 1 << b);
    let turned_bits = _mm512_mask_set1_epi64(_mm512_set1_epi64(1 << (a ^ 63)), 0xF0, 1 << (b ^ 63));
    let o = _mm512_and_si512(_mm512_set1_epi64(occupancy as i64), masks);
    let back = reverse_lanes_by_transposes(_mm512_sub_epi64(
        reverse_lanes_by_transposes(o),
        turned_bits,
    ));
    let lines = _mm512_ternarylogic_epi64::<0x28>(_mm512_sub_epi64(o, bits), back, masks);
    // Or the four lanes of each half: swap 128-bit pairs, then qwords.
    let x = _mm512_or_si512(lines, _mm512_permutex_epi64::<0x4E>(lines));
    let y = _mm512_or_si512(x, _mm512_shuffle_epi32::<0x4E>(x));
    [
        _mm_cvtsi128_si64(_mm512_castsi512_si128(y)) as u64,
        _mm_cvtsi128_si64(_mm512_extracti32x4_epi32::<2>(y)) as u64,
    ]
}

const FILE_A: i64 = 0x0101_0101_0101_0101;
const MAIN_DIAGONAL: i64 = 0x8040_2010_0804_0201u64 as i64;
const ANTI_DIAGONAL: i64 = 0x0102_0408_1020_4080;

/// Attacks (rook lines if `ROOK`, bishop lines if `BISHOP`) of eight squares at once (structure of arrays: lane `i` is square
/// `squares[i]`), all over one occupancy, in the pair form: each lane's lines
/// are worked on the board (`occ`) and on the board turned by 180 degrees
/// (`turned_occ = rev(occ)`, square `63 - sq`), the line results xor-ed into
/// one accumulator per board, and one reversal at the end brings the turned
/// accumulator back (reversal is linear over xor; the lines are disjoint).
///
/// The masks are computed, not loaded (no gathers): rank `0xFF << 8r`, file
/// `FILE_A << f`, diagonal `MAIN >> 8(f - r)` (or `<<` when negative),
/// anti-diagonal `ANTI << 8(f + r - 7)`; `vpsllvq`/`vpsrlvq` give 0 for
/// counts >= 64, which handles the sign. The turned square's masks use the
/// same counts with the signs swapped. Masks include the square itself;
/// the slider's bit is cleared from the occupancy instead, and its two
/// (always set) bits cancel in the final xor.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
pub fn attacks_x8<const ROOK: bool, const BISHOP: bool>(
    squares: __m512i,
    occ: __m512i,
    turned_occ: __m512i,
) -> __m512i {
    let one = _mm512_set1_epi64(1);
    let turned_squares = _mm512_xor_si512(squares, _mm512_set1_epi64(63));
    let bits = _mm512_sllv_epi64(one, squares);
    let turned_bits = _mm512_sllv_epi64(one, turned_squares);
    let occ = _mm512_andnot_si512(bits, occ);
    let turned_occ = _mm512_andnot_si512(turned_bits, turned_occ);
    let file = _mm512_and_si512(squares, _mm512_set1_epi64(7));
    let rank8 = _mm512_and_si512(squares, _mm512_set1_epi64(56));

    let mut acc = _mm512_setzero_si512();
    let mut turned_acc = _mm512_setzero_si512();
    // acc ^= ((occ & m) - bits) & m, on both boards. A ^ (B & C) = 0x78.
    let mut line = |m: __m512i, turned_m: __m512i| {
        let t = _mm512_sub_epi64(_mm512_and_si512(occ, m), bits);
        acc = _mm512_ternarylogic_epi64::<0x78>(acc, t, m);
        let t = _mm512_sub_epi64(_mm512_and_si512(turned_occ, turned_m), turned_bits);
        turned_acc = _mm512_ternarylogic_epi64::<0x78>(turned_acc, t, turned_m);
    };
    if ROOK {
        let ff = _mm512_set1_epi64(0xFF);
        line(
            _mm512_sllv_epi64(ff, rank8),
            _mm512_sllv_epi64(ff, _mm512_xor_si512(rank8, _mm512_set1_epi64(56))),
        );
        let a = _mm512_set1_epi64(FILE_A);
        line(
            _mm512_sllv_epi64(a, file),
            _mm512_sllv_epi64(a, _mm512_xor_si512(file, _mm512_set1_epi64(7))),
        );
    }
    if BISHOP {
        let file8 = _mm512_slli_epi64::<3>(file);
        // 8(f - r) and its negation.
        let d = _mm512_sub_epi64(file8, rank8);
        let nd = _mm512_sub_epi64(_mm512_setzero_si512(), d);
        let main = _mm512_set1_epi64(MAIN_DIAGONAL);
        line(
            _mm512_or_si512(_mm512_srlv_epi64(main, d), _mm512_sllv_epi64(main, nd)),
            _mm512_or_si512(_mm512_srlv_epi64(main, nd), _mm512_sllv_epi64(main, d)),
        );
        // 8(f + r - 7) and its negation.
        let k = _mm512_sub_epi64(_mm512_add_epi64(file8, rank8), _mm512_set1_epi64(56));
        let nk = _mm512_sub_epi64(_mm512_setzero_si512(), k);
        let anti = _mm512_set1_epi64(ANTI_DIAGONAL);
        line(
            _mm512_or_si512(_mm512_sllv_epi64(anti, k), _mm512_srlv_epi64(anti, nk)),
            _mm512_or_si512(_mm512_sllv_epi64(anti, nk), _mm512_srlv_epi64(anti, k)),
        );
    }
    _mm512_xor_si512(acc, reverse_lanes_by_transposes(turned_acc))
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn load_squares(chunk: &[Square]) -> __m512i {
    let mut bytes = [0u8; 8];
    let n = chunk.len().min(8);
    for (b, &sq) in bytes.iter_mut().zip(&chunk[..n]) {
        *b = sq as u8;
    }
    _mm512_cvtepu8_epi64(_mm_cvtsi64_si128(i64::from_le_bytes(bytes)))
}

/// The batch entry point: `out[i]` = attacks (lines as in [`attacks_x8`]) from `squares[i]`,
/// eight squares per [`attacks_x8`] call. Lengths must be equal (checked by the caller).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
pub fn attacks_batch<const ROOK: bool, const BISHOP: bool>(
    squares: &[Square],
    occupancy: u64,
    out: &mut [u64],
) {
    let occ = _mm512_set1_epi64(occupancy as i64);
    let turned_occ = reverse_lanes_by_transposes(occ);
    let mut sq_chunks = squares.chunks_exact(8);
    let mut out_chunks = out.chunks_exact_mut(8);
    for (sq8, out8) in (&mut sq_chunks).zip(&mut out_chunks) {
        // SAFETY: `sq8` is 8 one-byte squares; unaligned 8-byte load.
        let sqv = _mm512_cvtepu8_epi64(unsafe { _mm_loadl_epi64(sq8.as_ptr().cast()) });
        let a = attacks_x8::<ROOK, BISHOP>(sqv, occ, turned_occ);
        // SAFETY: `out8` is 8 writable u64s; unaligned store.
        unsafe { _mm512_storeu_si512(out8.as_mut_ptr().cast(), a) };
    }
    let rest = sq_chunks.remainder();
    if !rest.is_empty() {
        let a = attacks_x8::<ROOK, BISHOP>(load_squares(rest), occ, turned_occ);
        let out_rest = out_chunks.into_remainder();
        // SAFETY: the mask has one bit per element of `out_rest` (fewer than
        // 8), and masked-off lanes are neither written nor faulted.
        unsafe {
            _mm512_mask_storeu_epi64(out_rest.as_mut_ptr().cast(), (1u8 << out_rest.len()) - 1, a)
        };
    }
}

/// Set-wise attacks: the union over the squares of `sliders` of the attacks
/// over `occupancy | sliders`, eight sliders per [`attacks_x8`] call.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
pub fn attacks_setwise<const ROOK: bool, const BISHOP: bool>(sliders: u64, occupancy: u64) -> u64 {
    if sliders == 0 {
        return 0;
    }
    let occ = _mm512_set1_epi64((occupancy | sliders) as i64);
    let turned_occ = reverse_lanes_by_transposes(occ);
    // Pad to a multiple of 8 with the first slider: a repeat adds nothing to a union.
    let first = sliders.trailing_zeros() as u8;
    let mut bytes = [first; 64];
    let mut n = 0;
    let mut rest = sliders;
    while rest != 0 {
        bytes[n] = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        n += 1;
    }
    let mut union = _mm512_setzero_si512();
    for chunk in bytes[..n.div_ceil(8) * 8].chunks_exact(8) {
        let sqv = _mm512_cvtepu8_epi64(_mm_cvtsi64_si128(i64::from_le_bytes(
            chunk.try_into().unwrap_or([first; 8]),
        )));
        union = _mm512_or_si512(union, attacks_x8::<ROOK, BISHOP>(sqv, occ, turned_occ));
    }
    _mm512_reduce_or_epi64(union) as u64
}

macro_rules! entry_points {
    ($(($batch:ident, $setwise:ident, $rook:literal, $bishop:literal, $what:literal)),*) => {$(
        #[doc = concat!("Batch ", $what, " attacks: [`attacks_batch`] instantiated (a symbol of its own, for the assembly).")]
        #[inline(never)]
        #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
        pub fn $batch(squares: &[Square], occupancy: u64, out: &mut [u64]) {
            attacks_batch::<$rook, $bishop>(squares, occupancy, out)
        }

        #[doc = concat!("Set-wise ", $what, " attacks: [`attacks_setwise`] instantiated.")]
        #[inline(never)]
        #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
        pub fn $setwise(sliders: u64, occupancy: u64) -> u64 {
            attacks_setwise::<$rook, $bishop>(sliders, occupancy)
        }
    )*};
}

entry_points! {
    (rook_attacks_batch, rook_attacks_setwise, true, false, "rook"),
    (bishop_attacks_batch, bishop_attacks_setwise, false, true, "bishop"),
    (queen_attacks_batch, queen_attacks_setwise, true, true, "queen")
}
