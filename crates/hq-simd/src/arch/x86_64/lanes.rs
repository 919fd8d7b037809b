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
static NIBBLE_REVERSED_HIGH: [u8; 32] = hq_core::nibble_reversal_table(4);
/// `pshufb` table: a nibble bit-reversed, as the low nibble.
static NIBBLE_REVERSED_LOW: [u8; 32] = hq_core::nibble_reversal_table(0);

/// The GF(2) matrix that reverses the bits of a byte (`vgf2p8affineqb`).
///
/// Full 64-bit reversal with GFNI alone takes two affine steps with the
/// *data as the matrix*: `gf2p8affine(M, x)` with the constant as the data
/// operand transposes each qword's 8×8 bit matrix and reverses it one way;
/// the second step finishes the reversal (bit `i` of the qword ends at bit
/// `63 - i`). Measured on the Intel Xeon (family 6 model 0xa7, AVX-512 VBMI
/// and GFNI) against one affine step plus `vpermb` (VBMI) for the byte
/// order, in alternated runs: no slower in batches, faster for single
/// lookups (`queen/batch/avx512` and `queen/throughput/avx512`), so
/// `avx512` does not need VBMI.
const REVERSE_BITS_MATRIX: i64 = 0x8040_2010_0804_0201u64 as i64;

/// `swap_bytes` by one `pshufb` with [`SWAP_BYTES`].
macro_rules! pshufb_swap_bytes {
    ($shuffle:path, $table:path) => {
        const SWAP_BYTES_TABLES: usize = crate::vector::loaded_bytes::<Self>(&SWAP_BYTES);

        #[inline(always)]
        unsafe fn swap_bytes(self) -> Self {
            // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
            Self(unsafe { $shuffle(self.0, $table(&SWAP_BYTES)) })
        }
    };
}

/// `reverse_bits` by two GFNI affine steps (see [`REVERSE_BITS_MATRIX`]).
macro_rules! gfni_reverse_bits {
    ($set1:path, $affine:ident) => {
        /// The matrix, broadcast from memory.
        const REVERSE_BITS_TABLES: usize = size_of_val(&REVERSE_BITS_MATRIX);

        #[inline(always)]
        unsafe fn reverse_bits(self) -> Self {
            // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
            unsafe {
                let matrix = $set1(REVERSE_BITS_MATRIX);
                Self($affine::<0>(matrix, $affine::<0>(matrix, self.0)))
            }
        }
    };
}

/// `or_lanes` through a fold function.
macro_rules! fold_lanes {
    (|$x:ident| $fold:expr) => {
        #[inline(always)]
        unsafe fn or_lanes(self) -> u64 {
            let $x = self.0;
            // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
            unsafe { $fold }
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
            // SAFETY: as above.
            Self(unsafe { $ternlog::<0x78>(self.0, b.0, c.0) })
        }
        #[inline(always)]
        unsafe fn or_of_and(self, b: Self, c: Self) -> Self {
            // A | (B & C).
            // SAFETY: as above.
            Self(unsafe { $ternlog::<0xF8>(self.0, b.0, c.0) })
        }
    };
}

/// [`VariableShifts`] from the AVX2 (and AVX-512 rotate) intrinsics, and
/// any further items of the impl.
macro_rules! variable_shifts {
    ($t:ty, $sllv:path, $srlv:path $(, $rolv:path)? $(; $($items:tt)*)?) => {
        impl VariableShifts for $t {
            #[inline(always)]
            unsafe fn shl_var(self, counts: Self) -> Self {
                // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
                Self(unsafe { $sllv(self.0, counts.0) })
            }
            #[inline(always)]
            unsafe fn shr_var(self, counts: Self) -> Self {
                // SAFETY: as above.
                Self(unsafe { $srlv(self.0, counts.0) })
            }
            $(
            #[inline(always)]
            unsafe fn rotate_left_var(self, counts: Self) -> Self {
                // SAFETY: as above.
                Self(unsafe { $rolv(self.0, counts.0) })
            }
            )?
            $($($items)*)?
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

/// The first bytes of a table as a register constant (`T` is `__m128i`,
/// `__m256i` or `__m512i`): an unaligned load, hoisted out of loops.
#[inline(always)]
fn table<T: Copy>(t: &'static [u8]) -> T {
    assert!(t.len() >= size_of::<T>(), "table shorter than the register");
    // SAFETY: `T` is a plain vector type (any bytes are a value) and the
    // assert above keeps the read inside `t`; no alignment is needed.
    unsafe { t.as_ptr().cast::<T>().read_unaligned() }
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
    lanes_logic!(2, splat: |x| _mm_set1_epi64x(x as i64), load: _mm_loadu_si128,
        store: _mm_storeu_si128, and: _mm_and_si128, or: _mm_or_si128, xor: _mm_xor_si128,
        and_not: |a, b| _mm_andnot_si128(b, a), sub: _mm_sub_epi64);
    pshufb_swap_bytes!(_mm_shuffle_epi8, table);
    nibble_reverse_bits!(table: table, shuffle: _mm_shuffle_epi8, and: _mm_and_si128,
        or: _mm_or_si128, low_nibbles: _mm_set1_epi8(0x0F),
        high_nibbles: |x| _mm_and_si128(_mm_srli_epi16::<4>(x), _mm_set1_epi8(0x0F)));
    fold_lanes!(|x| fold128(x));
}

impl Lanes for XmmGfni {
    lanes_logic!(2, splat: |x| _mm_set1_epi64x(x as i64), load: _mm_loadu_si128,
        store: _mm_storeu_si128, and: _mm_and_si128, or: _mm_or_si128, xor: _mm_xor_si128,
        and_not: |a, b| _mm_andnot_si128(b, a), sub: _mm_sub_epi64);
    ternary_logic!(_mm_ternarylogic_epi64);
    pshufb_swap_bytes!(_mm_shuffle_epi8, table);
    gfni_reverse_bits!(_mm_set1_epi64x, _mm_gf2p8affine_epi64_epi8);
    fold_lanes!(|x| fold128(x));
}

impl Lanes for Ymm {
    lanes_logic!(4, splat: |x| _mm256_set1_epi64x(x as i64), load: _mm256_loadu_si256,
        store: _mm256_storeu_si256, and: _mm256_and_si256, or: _mm256_or_si256,
        xor: _mm256_xor_si256, and_not: |a, b| _mm256_andnot_si256(b, a), sub: _mm256_sub_epi64);
    pshufb_swap_bytes!(_mm256_shuffle_epi8, table);
    nibble_reverse_bits!(table: table, shuffle: _mm256_shuffle_epi8, and: _mm256_and_si256,
        or: _mm256_or_si256, low_nibbles: _mm256_set1_epi8(0x0F),
        high_nibbles: |x| _mm256_and_si256(_mm256_srli_epi16::<4>(x), _mm256_set1_epi8(0x0F)));
    fold_lanes!(|x| fold256(x));
}

variable_shifts!(Ymm, _mm256_sllv_epi64, _mm256_srlv_epi64);

impl Lanes for YmmGfni {
    lanes_logic!(4, splat: |x| _mm256_set1_epi64x(x as i64), load: _mm256_loadu_si256,
        store: _mm256_storeu_si256, and: _mm256_and_si256, or: _mm256_or_si256,
        xor: _mm256_xor_si256, and_not: |a, b| _mm256_andnot_si256(b, a), sub: _mm256_sub_epi64);
    ternary_logic!(_mm256_ternarylogic_epi64);
    pshufb_swap_bytes!(_mm256_shuffle_epi8, table);
    gfni_reverse_bits!(_mm256_set1_epi64x, _mm256_gf2p8affine_epi64_epi8);
    fold_lanes!(|x| fold256(x));
}

variable_shifts!(
    YmmGfni,
    _mm256_sllv_epi64,
    _mm256_srlv_epi64,
    _mm256_rolv_epi64
);

impl Lanes for Zmm {
    lanes_logic!(8, splat: |x| _mm512_set1_epi64(x as i64), load: _mm512_loadu_si512,
        store: _mm512_storeu_si512, and: _mm512_and_si512, or: _mm512_or_si512,
        xor: _mm512_xor_si512, and_not: |a, b| _mm512_andnot_si512(b, a), sub: _mm512_sub_epi64);
    ternary_logic!(_mm512_ternarylogic_epi64);
    #[inline(always)]
    unsafe fn load_squares(squares: *const Square) -> Self {
        // SAFETY: eight readable one-byte squares; unaligned 8-byte load.
        Zmm(unsafe { _mm512_cvtepu8_epi64(_mm_loadl_epi64(squares.cast())) })
    }
    #[inline(always)]
    unsafe fn load_squares_partial(squares: *const Square, n: usize) -> Self {
        // SAFETY: AVX-512BW and VL (the caller's); the mask reads the `n`
        // squares the caller provides and nothing past them.
        Zmm(unsafe { _mm512_cvtepu8_epi64(_mm_maskz_loadu_epi8((1u16 << n) - 1, squares.cast())) })
    }
    #[inline(always)]
    unsafe fn store_partial(self, dst: *mut u64, n: usize) {
        // SAFETY: AVX-512F (the caller's); the mask writes the `n` words
        // the caller provides and nothing past them.
        unsafe { _mm512_mask_storeu_epi64(dst.cast(), (1u8 << n).wrapping_sub(1), self.0) }
    }
    pshufb_swap_bytes!(_mm512_shuffle_epi8, table);
    gfni_reverse_bits!(_mm512_set1_epi64, _mm512_gf2p8affine_epi64_epi8);
    fold_lanes!(|x| _mm512_reduce_or_epi64(x) as u64);
}

variable_shifts!(Zmm, _mm512_sllv_epi64, _mm512_srlv_epi64, _mm512_rolv_epi64;
    const LOOKUPS_IN_ONE: bool = true;
    #[inline(always)]
    unsafe fn lookup8(self, table: &[u64; 8]) -> Self {
        // SAFETY: the caller has AVX-512 (the `Lanes` contract); the
        // table holds 8 readable words, a register's worth.
        unsafe { Zmm(_mm512_permutexvar_epi64(self.0, _mm512_loadu_si512(table.as_ptr().cast()))) }
    }
    #[inline(always)]
    unsafe fn lookup16(self, table: &[u64; 16]) -> Self {
        // SAFETY: the caller has AVX-512 (the `Lanes` contract); the
        // table holds 16 readable words, two registers' worth.
        unsafe {
            let low = _mm512_loadu_si512(table.as_ptr().cast());
            let high = _mm512_loadu_si512(table.as_ptr().add(8).cast());
            Zmm(_mm512_permutex2var_epi64(low, self.0, high))
        }
    }
);

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

    /// `lookup8` and `lookup16` of every index (and of indexes above, taken
    /// mod 8 and 16) in every lane: AVX-512's permutes, and the default
    /// through memory (on `Ymm`) that the other register types have.
    #[test]
    fn lookups_take_each_lanes_index_mod_the_tables_length() {
        let table: [u64; 16] = core::array::from_fn(|i| 0x0101_0101_0101_0101 * (i as u64 + 1));
        let low: [u64; 8] = core::array::from_fn(|i| table[i]);
        fn check<V: VariableShifts>(table: &[u64; 16], low: &[u64; 8]) {
            for first in 0..32u64 {
                let index: [u64; 8] = core::array::from_fn(|lane| first + 5 * lane as u64);
                let (mut by16, mut by8) = ([0u64; 8], [0u64; 8]);
                // SAFETY: the caller checked the CPU for V's instruction set.
                unsafe {
                    let index = V::load(index.as_ptr());
                    index.lookup16(table).store(by16.as_mut_ptr());
                    index.lookup8(low).store(by8.as_mut_ptr());
                }
                for lane in 0..V::LANES {
                    let i = index[lane] as usize;
                    assert_eq!(
                        by16[lane],
                        table[i % 16],
                        "lookup16, lane {lane} of {index:?}"
                    );
                    assert_eq!(by8[lane], low[i % 8], "lookup8, lane {lane} of {index:?}");
                }
            }
        }
        if std::is_x86_feature_detected!("avx512f") {
            check::<Zmm>(&table, &low);
        } else {
            std::eprintln!("lookups: SKIPPED Zmm, this CPU has no AVX-512F");
        }
        if std::is_x86_feature_detected!("avx2") {
            check::<Ymm>(&table, &low);
        } else {
            std::eprintln!("lookups: SKIPPED Ymm, this CPU has no AVX2");
        }
    }
}
