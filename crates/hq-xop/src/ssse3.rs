//! VPPERM with SSSE3: two `pshufb` table lookups select the bytes, a nibble
//! table lookup reverses their bits, compares and masks apply the operation.
//! 24 instructions per VPPERM (see [`vpperm`]); runs on every x86-64 CPU
//! since 2006.

use core::arch::x86_64::*;

hq_core::level_token! {
    /// Proof that this CPU has SSSE3, for the [`vpperm`] of this module.
    pub struct Ssse3Vpperm: X86V2, "vpperm-ssse3";
}

impl Ssse3Vpperm {
    /// `VPPERM dst, src1, src2, selector` on xmm values.
    #[inline]
    pub fn vpperm_m128(self, src1: __m128i, src2: __m128i, selector: __m128i) -> __m128i {
        // SAFETY: the token proves SSSE3 is present.
        unsafe { vpperm(src1, src2, selector) }
    }

    /// `VPPERM` on little-endian `u128` values, like [`crate::model::vpperm_u128`].
    #[inline]
    pub fn vpperm_u128(self, src1: u128, src2: u128, selector: u128) -> u128 {
        // SAFETY: the token proves SSSE3 is present; `u128` and `__m128i` are
        // both 16 plain bytes, little-endian on x86-64.
        unsafe {
            core::mem::transmute::<__m128i, u128>(vpperm(
                core::mem::transmute::<u128, __m128i>(src1),
                core::mem::transmute::<u128, __m128i>(src2),
                core::mem::transmute::<u128, __m128i>(selector),
            ))
        }
    }

    /// `VPPERM` on byte arrays, like [`crate::model::vpperm`].
    #[inline]
    pub fn vpperm(self, src1: [u8; 16], src2: [u8; 16], selector: [u8; 16]) -> [u8; 16] {
        self.vpperm_u128(
            u128::from_le_bytes(src1),
            u128::from_le_bytes(src2),
            u128::from_le_bytes(selector),
        )
        .to_le_bytes()
    }
}

/// `reverse4(n) << 4` for each nibble `n`: the reversed low nibble, moved to the top.
const REVERSED_LOW_NIBBLE: [u8; 16] = hq_core::nibble_reversal_table(4);
/// `reverse4(n)` for each nibble `n`: the reversed high nibble, moved to the bottom.
const REVERSED_HIGH_NIBBLE: [u8; 16] = hq_core::nibble_reversal_table(0);

/// Bytes of the tables [`vpperm`] loads: the nibble tables (its selector is
/// the caller's).
pub(crate) const TABLE_BYTES: usize =
    size_of_val(&REVERSED_LOW_NIBBLE) + size_of_val(&REVERSED_HIGH_NIBBLE);

hq_core::at_level! { X86V2;
    /// The SSSE3 VPPERM.
    ///
    /// * Byte selection: `i1 = (s & 0x1F) + 0x70` has bit 7 set exactly when
    ///   selector bit 4 is set (0x80-0x8F) and keeps the index in its low
    ///   nibble, so `pshufb(src1, i1)` is `src1[s & 15]` or zero, and
    ///   `pshufb(src2, i1 ^ 0x80)` is the other half's byte or zero; `or`.
    /// * Operation: bit reversal by two nibble lookups; the sign byte by a
    ///   signed compare; selector bits 6, 7 and 5 pick reversal, the
    ///   constant/sign ops and the inversion, each by an `and`/`xor` blend
    ///   (no `pblendvb` before SSE4.1).
    ///
    /// # Safety
    ///
    /// The CPU must have every feature of [`Level::X86V2`](hq_core::cpu::Level::X86V2).
    #[inline]
    pub unsafe fn vpperm(src1: __m128i, src2: __m128i, selector: __m128i) -> __m128i {
        let zero = _mm_setzero_si128();
        // Byte selection.
        let index1 = _mm_add_epi8(
            _mm_and_si128(selector, _mm_set1_epi8(0x1F)),
            _mm_set1_epi8(0x70),
        );
        let index2 = _mm_xor_si128(index1, _mm_set1_epi8(0x80u8 as i8));
        let byte = _mm_or_si128(
            _mm_shuffle_epi8(src1, index1),
            _mm_shuffle_epi8(src2, index2),
        );
        // The candidates.
        let nibble = _mm_set1_epi8(0x0F);
        // SAFETY: the table is a 16-byte array; unaligned load.
        let low_table = unsafe { _mm_loadu_si128(REVERSED_LOW_NIBBLE.as_ptr().cast()) };
        // SAFETY: the table is a 16-byte array; unaligned load.
        let high_table = unsafe { _mm_loadu_si128(REVERSED_HIGH_NIBBLE.as_ptr().cast()) };
        let reversed = _mm_or_si128(
            _mm_shuffle_epi8(low_table, _mm_and_si128(byte, nibble)),
            _mm_shuffle_epi8(high_table, _mm_and_si128(_mm_srli_epi16::<4>(byte), nibble)),
        );
        let sign = _mm_cmpgt_epi8(zero, byte);
        // Per-byte masks from the operation bits.
        let bit6 = _mm_cmpgt_epi8(zero, _mm_add_epi8(selector, selector));
        let bit7 = _mm_cmpgt_epi8(zero, selector);
        let bit5 = _mm_cmpeq_epi8(
            _mm_and_si128(selector, _mm_set1_epi8(0x20)),
            _mm_set1_epi8(0x20),
        );
        // ops 0-3: byte or reversed; ops 4-7: zero or sign; then invert on bit 5.
        let plain = _mm_xor_si128(byte, _mm_and_si128(_mm_xor_si128(byte, reversed), bit6));
        let constant = _mm_and_si128(sign, bit6);
        let chosen = _mm_xor_si128(plain, _mm_and_si128(_mm_xor_si128(plain, constant), bit7));
        _mm_xor_si128(chosen, bit5)
    }
}
