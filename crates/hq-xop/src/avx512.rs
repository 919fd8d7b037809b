//! Four independent VPPERMs per zmm register with AVX-512 VBMI, GFNI and BW:
//! each 128-bit lane `L` of the result is `VPPERM(src1.L, src2.L, selector.L)`.
//!
//! * Byte selection: one `vpermi2b` over the 128-byte table `src1 ++ src2`.
//!   The index for lane `L` is `(s & 0x0F) | (s & 0x10) << 2 | L << 4`: a
//!   `vgf2p8affineqb` moves the bits (bit 4 to bit 6, bits 5-7 cleared), an
//!   `or` adds the lane.
//! * Operation: `vgf2p8affineqb` reverses the bits of every byte (matrix
//!   0x8040201008040201) and spreads bit 7 over the byte (0x8080808080808080);
//!   mask registers from `vptestmb`/`vpmovb2m` on the selector blend the
//!   candidates, and a masked subtraction `-1 - x` inverts.
//!
//! 13 instructions for four VPPERMs with the constants in registers. Tested
//! only under the Bochs emulator (tigerlake model), never on real hardware.

use core::arch::x86_64::*;

hq_core::level_token! {
    /// Proof that this CPU has AVX-512 F, BW, VBMI and GFNI, for [`vpperm_x4`].
    pub struct Avx512Vpperm: X86V4, "vpperm-avx512";
}

impl Avx512Vpperm {
    /// Four VPPERMs at once on zmm values (lane `L` from lanes `L`).
    #[inline]
    pub fn vpperm_x4_m512(self, src1: __m512i, src2: __m512i, selector: __m512i) -> __m512i {
        // SAFETY: the token proves every feature `vpperm_x4` enables is present.
        unsafe { vpperm_x4(src1, src2, selector) }
    }

    /// Four VPPERMs at once on arrays of four 16-byte operands.
    #[inline]
    pub fn vpperm_x4(
        self,
        src1: [[u8; 16]; 4],
        src2: [[u8; 16]; 4],
        selector: [[u8; 16]; 4],
    ) -> [[u8; 16]; 4] {
        // SAFETY: `[[u8; 16]; 4]` and `__m512i` are both 64 plain bytes, lane
        // order = memory order.
        unsafe {
            core::mem::transmute::<__m512i, [[u8; 16]; 4]>(self.vpperm_x4_m512(
                core::mem::transmute::<[[u8; 16]; 4], __m512i>(src1),
                core::mem::transmute::<[[u8; 16]; 4], __m512i>(src2),
                core::mem::transmute::<[[u8; 16]; 4], __m512i>(selector),
            ))
        }
    }
}

/// GF(2) matrix that keeps bits 0-3, moves bit 4 to bit 6 and clears the rest
/// (row `7 - i` of the matrix, byte `7 - i` of the qword, selects the input bits of output bit `i`).
const INDEX_MATRIX: i64 = 0x0102_0408_0000_1000;
/// Bit reversal within each byte.
const REVERSE_MATRIX: i64 = 0x8040_2010_0804_0201u64 as i64;
/// Every output bit = input bit 7.
const SIGN_MATRIX: i64 = 0x8080_8080_8080_8080u64 as i64;
/// `L << 4` in every byte of lane `L`.
const LANE_BASE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = ((i / 16) << 4) as u8;
        i += 1;
    }
    t
};

hq_core::at_level! { X86V4;
    /// Four VPPERMs, one per 128-bit lane.
    ///
    /// # Safety
    ///
    /// The CPU must have every feature of [`Level::X86V4`](hq_core::cpu::Level::X86V4).
    #[inline]
    pub unsafe fn vpperm_x4(src1: __m512i, src2: __m512i, selector: __m512i) -> __m512i {
        // SAFETY: LANE_BASE is 64 readable bytes; unaligned load.
        let lane_base = unsafe { _mm512_loadu_si512(LANE_BASE.as_ptr().cast()) };
        let index = _mm512_or_si512(
            _mm512_gf2p8affine_epi64_epi8::<0>(selector, _mm512_set1_epi64(INDEX_MATRIX)),
            lane_base,
        );
        let byte = _mm512_permutex2var_epi8(src1, index, src2);
        let reversed = _mm512_gf2p8affine_epi64_epi8::<0>(byte, _mm512_set1_epi64(REVERSE_MATRIX));
        let sign = _mm512_gf2p8affine_epi64_epi8::<0>(byte, _mm512_set1_epi64(SIGN_MATRIX));
        let bit5 = _mm512_test_epi8_mask(selector, _mm512_set1_epi8(0x20));
        let bit6 = _mm512_test_epi8_mask(selector, _mm512_set1_epi8(0x40));
        let bit7 = _mm512_movepi8_mask(selector);
        // ops 0-3: the byte or its reversal; ops 4-7: zero or the sign byte.
        let plain = _mm512_mask_blend_epi8(bit6, byte, reversed);
        let constant = _mm512_maskz_mov_epi8(bit6, sign);
        let chosen = _mm512_mask_blend_epi8(bit7, plain, constant);
        // Odd ops invert: -1 - x == !x.
        _mm512_mask_sub_epi8(chosen, bit5, _mm512_set1_epi8(-1), chosen)
    }
}
