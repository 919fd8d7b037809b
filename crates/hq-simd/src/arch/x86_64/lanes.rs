//! [`Lanes`] for the x86-64 registers: xmm (SSSE3), ymm (AVX2), and xmm,
//! ymm and zmm with AVX-512 and GFNI.
//!
//! The plain logic of every width comes from one macro; what differs is the
//! reversal (`pshufb` nibble tables, or GFNI's bit matrix), the ternary
//! logic of AVX-512, and how lanes are or-ed together.

use crate::vector::{Lanes, VariableShifts};
use core::arch::x86_64::*;
use hq_core::Square;

/// `pshufb` control: reverse the bytes of each qword, in every 128-bit lane.
static SWAP_BYTES: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = ((i & !15) | ((i & 8) + 7 - (i & 7))) as u8 & 15;
        i += 1;
    }
    t
};
/// `pshufb` table: a nibble bit-reversed, as the high nibble of a byte.
static NIBBLE_REVERSED_HIGH: [u8; 32] = nibble_table(4);
/// `pshufb` table: a nibble bit-reversed, as the low nibble.
static NIBBLE_REVERSED_LOW: [u8; 32] = nibble_table(0);

const fn nibble_table(shift: u32) -> [u8; 32] {
    let mut t = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = ((i as u8 & 15).reverse_bits() >> 4) << shift;
        i += 1;
    }
    t
}

/// The GF(2) matrix that reverses the bits of a byte (`vgf2p8affineqb`).
///
/// Full 64-bit reversal with GFNI alone takes two affine steps with the
/// *data as the matrix*: `gf2p8affine(M, x)` with the constant as the data
/// operand transposes each qword's 8×8 bit matrix and reverses it one way;
/// the second step finishes the reversal (bit `i` of the qword ends at bit
/// `63 - i`). Measured on the Intel Xeon (family 6 model 0xa7, AVX-512 VBMI
/// and GFNI) against one affine step plus `vpermb` (VBMI) for the byte
/// order: no slower in batches (`queen/batch/avx512` 878 and 887 M/s
/// against 866 and 849, alternated runs), faster for single lookups (571
/// against 539-543 M/s queen throughput), so `avx512` does not need VBMI.
const REVERSE_BITS_MATRIX: i64 = 0x8040_2010_0804_0201u64 as i64;

/// The logic every width shares, from its intrinsics.
macro_rules! plain_logic {
    ($raw:ty, $n:literal, set1: $set1:ident, loadu: $loadu:ident, storeu: $storeu:ident,
     and: $and:ident, or: $or:ident, xor: $xor:ident, andnot: $andnot:ident, sub: $sub:ident) => {
        const LANES: usize = $n;
        #[inline(always)]
        unsafe fn splat(x: u64) -> Self {
            // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
            Self(unsafe { $set1(x as i64) })
        }
        #[inline(always)]
        unsafe fn load(src: *const u64) -> Self {
            // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
            Self(unsafe { $loadu(src.cast()) })
        }
        #[inline(always)]
        unsafe fn store(self, dst: *mut u64) {
            // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
            unsafe { $storeu(dst.cast(), self.0) }
        }
        #[inline(always)]
        unsafe fn and(self, other: Self) -> Self {
            // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
            Self(unsafe { $and(self.0, other.0) })
        }
        #[inline(always)]
        unsafe fn or(self, other: Self) -> Self {
            // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
            Self(unsafe { $or(self.0, other.0) })
        }
        #[inline(always)]
        unsafe fn xor(self, other: Self) -> Self {
            // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
            Self(unsafe { $xor(self.0, other.0) })
        }
        #[inline(always)]
        unsafe fn and_not(self, other: Self) -> Self {
            // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
            Self(unsafe { $andnot(other.0, self.0) })
        }
        #[inline(always)]
        unsafe fn sub(self, other: Self) -> Self {
            // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
            Self(unsafe { $sub(self.0, other.0) })
        }
    };
}

/// AVX-512's ternary logic for the three combined operations (VL for xmm/ymm).
macro_rules! ternary_logic {
    ($ternlog:ident) => {
        #[inline(always)]
        unsafe fn xor_and(self, b: Self, c: Self) -> Self {
            // (A ^ B) & C with A = 0xF0, B = 0xCC, C = 0xAA.
            // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
            Self(unsafe { $ternlog::<0x28>(self.0, b.0, c.0) })
        }
        #[inline(always)]
        unsafe fn xor_of_and(self, b: Self, c: Self) -> Self {
            // A ^ (B & C).
            // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
            Self(unsafe { $ternlog::<0x78>(self.0, b.0, c.0) })
        }
        #[inline(always)]
        unsafe fn or_of_and(self, b: Self, c: Self) -> Self {
            // A | (B & C).
            // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
            Self(unsafe { $ternlog::<0xF8>(self.0, b.0, c.0) })
        }
    };
}

/// Two lanes in an xmm with SSSE3: `pshufb` byte swap, nibble-table bit reversal.
#[derive(Clone, Copy)]
pub(crate) struct Xmm(pub __m128i);

/// Two lanes in an xmm with AVX-512VL and GFNI: ternary logic, bit-matrix reversal.
#[derive(Clone, Copy)]
pub(crate) struct XmmGfni(pub __m128i);

/// Four lanes in a ymm with AVX2.
#[derive(Clone, Copy)]
pub(crate) struct Ymm(pub __m256i);

/// Four lanes in a ymm with AVX-512VL and GFNI.
#[derive(Clone, Copy)]
pub(crate) struct YmmGfni(pub __m256i);

/// Eight lanes in a zmm with AVX-512 and GFNI.
#[derive(Clone, Copy)]
pub(crate) struct Zmm(pub __m512i);

#[inline(always)]
unsafe fn table128(t: &[u8]) -> __m128i {
    // SAFETY: at least 16 readable bytes; unaligned load.
    unsafe { _mm_loadu_si128(t.as_ptr().cast()) }
}

#[inline(always)]
unsafe fn table256(t: &[u8]) -> __m256i {
    // SAFETY: at least 32 readable bytes (AVX, implied by the callers' features).
    unsafe { _mm256_loadu_si256(t.as_ptr().cast()) }
}

#[inline(always)]
unsafe fn fold128(x: __m128i) -> u64 {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_cvtsi128_si64(_mm_or_si128(x, _mm_unpackhi_epi64(x, x))) as u64 }
}

#[inline(always)]
unsafe fn fold256(x: __m256i) -> u64 {
    // SAFETY: AVX2 (implied by the callers' features).
    unsafe {
        fold128(_mm_or_si128(
            _mm256_castsi256_si128(x),
            _mm256_extracti128_si256::<1>(x),
        ))
    }
}

impl Lanes for Xmm {
    plain_logic!(__m128i, 2, set1: _mm_set1_epi64x, loadu: _mm_loadu_si128, storeu: _mm_storeu_si128,
        and: _mm_and_si128, or: _mm_or_si128, xor: _mm_xor_si128, andnot: _mm_andnot_si128,
        sub: _mm_sub_epi64);
    #[inline(always)]
    unsafe fn swap_bytes(self) -> Self {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        Xmm(unsafe { _mm_shuffle_epi8(self.0, table128(&SWAP_BYTES)) })
    }
    #[inline(always)]
    unsafe fn reverse_bits(self) -> Self {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        unsafe {
            let x = self.swap_bytes().0;
            let nibble = _mm_set1_epi8(0x0F);
            let low = _mm_and_si128(x, nibble);
            let high = _mm_and_si128(_mm_srli_epi16::<4>(x), nibble);
            Xmm(_mm_or_si128(
                _mm_shuffle_epi8(table128(&NIBBLE_REVERSED_HIGH), low),
                _mm_shuffle_epi8(table128(&NIBBLE_REVERSED_LOW), high),
            ))
        }
    }
    #[inline(always)]
    unsafe fn or_lanes(self) -> u64 {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        unsafe { fold128(self.0) }
    }
}

impl Lanes for XmmGfni {
    plain_logic!(__m128i, 2, set1: _mm_set1_epi64x, loadu: _mm_loadu_si128, storeu: _mm_storeu_si128,
        and: _mm_and_si128, or: _mm_or_si128, xor: _mm_xor_si128, andnot: _mm_andnot_si128,
        sub: _mm_sub_epi64);
    ternary_logic!(_mm_ternarylogic_epi64);
    #[inline(always)]
    unsafe fn swap_bytes(self) -> Self {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        XmmGfni(unsafe { _mm_shuffle_epi8(self.0, table128(&SWAP_BYTES)) })
    }
    #[inline(always)]
    unsafe fn reverse_bits(self) -> Self {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        unsafe {
            // The data as the matrix, twice (see `REVERSE_BITS_MATRIX`).
            let matrix = _mm_set1_epi64x(REVERSE_BITS_MATRIX);
            let transposed = _mm_gf2p8affine_epi64_epi8::<0>(matrix, self.0);
            XmmGfni(_mm_gf2p8affine_epi64_epi8::<0>(matrix, transposed))
        }
    }
    #[inline(always)]
    unsafe fn or_lanes(self) -> u64 {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        unsafe { fold128(self.0) }
    }
}

impl Lanes for Ymm {
    plain_logic!(__m256i, 4, set1: _mm256_set1_epi64x, loadu: _mm256_loadu_si256,
        storeu: _mm256_storeu_si256, and: _mm256_and_si256, or: _mm256_or_si256,
        xor: _mm256_xor_si256, andnot: _mm256_andnot_si256, sub: _mm256_sub_epi64);
    #[inline(always)]
    unsafe fn swap_bytes(self) -> Self {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        Ymm(unsafe { _mm256_shuffle_epi8(self.0, table256(&SWAP_BYTES)) })
    }
    #[inline(always)]
    unsafe fn reverse_bits(self) -> Self {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        unsafe {
            let x = self.swap_bytes().0;
            let nibble = _mm256_set1_epi8(0x0F);
            let low = _mm256_and_si256(x, nibble);
            let high = _mm256_and_si256(_mm256_srli_epi16::<4>(x), nibble);
            Ymm(_mm256_or_si256(
                _mm256_shuffle_epi8(table256(&NIBBLE_REVERSED_HIGH), low),
                _mm256_shuffle_epi8(table256(&NIBBLE_REVERSED_LOW), high),
            ))
        }
    }
    #[inline(always)]
    unsafe fn or_lanes(self) -> u64 {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        unsafe { fold256(self.0) }
    }
}

impl VariableShifts for Ymm {
    #[inline(always)]
    unsafe fn shl_var(self, counts: Self) -> Self {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        Ymm(unsafe { _mm256_sllv_epi64(self.0, counts.0) })
    }
    #[inline(always)]
    unsafe fn shr_var(self, counts: Self) -> Self {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        Ymm(unsafe { _mm256_srlv_epi64(self.0, counts.0) })
    }
}

impl Lanes for YmmGfni {
    plain_logic!(__m256i, 4, set1: _mm256_set1_epi64x, loadu: _mm256_loadu_si256,
        storeu: _mm256_storeu_si256, and: _mm256_and_si256, or: _mm256_or_si256,
        xor: _mm256_xor_si256, andnot: _mm256_andnot_si256, sub: _mm256_sub_epi64);
    ternary_logic!(_mm256_ternarylogic_epi64);
    #[inline(always)]
    unsafe fn swap_bytes(self) -> Self {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        YmmGfni(unsafe { _mm256_shuffle_epi8(self.0, table256(&SWAP_BYTES)) })
    }
    #[inline(always)]
    unsafe fn reverse_bits(self) -> Self {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        unsafe {
            // The data as the matrix, twice (see `REVERSE_BITS_MATRIX`).
            let matrix = _mm256_set1_epi64x(REVERSE_BITS_MATRIX);
            let transposed = _mm256_gf2p8affine_epi64_epi8::<0>(matrix, self.0);
            YmmGfni(_mm256_gf2p8affine_epi64_epi8::<0>(matrix, transposed))
        }
    }
    #[inline(always)]
    unsafe fn or_lanes(self) -> u64 {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        unsafe { fold256(self.0) }
    }
}

impl VariableShifts for YmmGfni {
    #[inline(always)]
    unsafe fn shl_var(self, counts: Self) -> Self {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        YmmGfni(unsafe { _mm256_sllv_epi64(self.0, counts.0) })
    }
    #[inline(always)]
    unsafe fn shr_var(self, counts: Self) -> Self {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        YmmGfni(unsafe { _mm256_srlv_epi64(self.0, counts.0) })
    }
    #[inline(always)]
    unsafe fn rotate_left_var(self, counts: Self) -> Self {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        YmmGfni(unsafe { _mm256_rolv_epi64(self.0, counts.0) })
    }
}

impl Lanes for Zmm {
    plain_logic!(__m512i, 8, set1: _mm512_set1_epi64, loadu: _mm512_loadu_si512,
        storeu: _mm512_storeu_si512, and: _mm512_and_si512, or: _mm512_or_si512,
        xor: _mm512_xor_si512, andnot: _mm512_andnot_si512, sub: _mm512_sub_epi64);
    ternary_logic!(_mm512_ternarylogic_epi64);
    #[inline(always)]
    unsafe fn load_squares(squares: *const Square) -> Self {
        // SAFETY: eight readable one-byte squares; unaligned 8-byte load.
        Zmm(unsafe { _mm512_cvtepu8_epi64(_mm_loadl_epi64(squares.cast())) })
    }
    #[inline(always)]
    unsafe fn swap_bytes(self) -> Self {
        // SAFETY: 64 readable bytes.
        Zmm(unsafe { _mm512_shuffle_epi8(self.0, _mm512_loadu_si512(SWAP_BYTES.as_ptr().cast())) })
    }
    #[inline(always)]
    unsafe fn reverse_bits(self) -> Self {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        unsafe {
            // The data as the matrix, twice (see `REVERSE_BITS_MATRIX`).
            let matrix = _mm512_set1_epi64(REVERSE_BITS_MATRIX);
            let transposed = _mm512_gf2p8affine_epi64_epi8::<0>(matrix, self.0);
            Zmm(_mm512_gf2p8affine_epi64_epi8::<0>(matrix, transposed))
        }
    }
    #[inline(always)]
    unsafe fn or_lanes(self) -> u64 {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        unsafe {
            fold256(_mm256_or_si256(
                _mm512_castsi512_si256(self.0),
                _mm512_extracti64x4_epi64::<1>(self.0),
            ))
        }
    }
}

impl VariableShifts for Zmm {
    #[inline(always)]
    unsafe fn shl_var(self, counts: Self) -> Self {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        Zmm(unsafe { _mm512_sllv_epi64(self.0, counts.0) })
    }
    #[inline(always)]
    unsafe fn shr_var(self, counts: Self) -> Self {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        Zmm(unsafe { _mm512_srlv_epi64(self.0, counts.0) })
    }
    #[inline(always)]
    unsafe fn rotate_left_var(self, counts: Self) -> Self {
        // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
        Zmm(unsafe { _mm512_rolv_epi64(self.0, counts.0) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffle_tables() {
        assert_eq!(
            &SWAP_BYTES[..16],
            &[7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8]
        );
        assert_eq!(&SWAP_BYTES[16..32], &SWAP_BYTES[..16]);
        assert_eq!(NIBBLE_REVERSED_LOW[1], 8);
        assert_eq!(NIBBLE_REVERSED_HIGH[1], 0x80);
        assert_eq!(&NIBBLE_REVERSED_LOW[16..], &NIBBLE_REVERSED_LOW[..16]);
    }
}
