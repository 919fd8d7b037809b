//! AArch64: NEON lanes (`uint64x2_t`).

use crate::vector::{Lanes, VariableShifts};
use core::arch::aarch64::*;
use hq_core::Square;

/// Two lanes in a NEON register: `rev64` byte swap, `rbit` + `rev64` bit reversal.
#[derive(Clone, Copy)]
pub(crate) struct Neon128(pub uint64x2_t);

impl Lanes for Neon128 {
    lanes_logic!(2, splat: |x| vdupq_n_u64(x), load: vld1q_u64, store: vst1q_u64,
        and: vandq_u64, or: vorrq_u64, xor: veorq_u64, and_not: |a, b| vbicq_u64(a, b),
        sub: vsubq_u64);
    #[inline(always)]
    unsafe fn load_squares(squares: *const Square) -> Self {
        // SAFETY: two readable squares (the `Lanes` contract).
        let words = unsafe { [*squares as u64, *squares.add(1) as u64] };
        // SAFETY: NEON (the `Lanes` contract); two words.
        unsafe { Self::load(words.as_ptr()) }
    }
    // `rev64` and `rbit`: no table.
    const SWAP_BYTES_TABLES: usize = 0;
    const REVERSE_BITS_TABLES: usize = 0;

    #[inline(always)]
    unsafe fn swap_bytes(self) -> Self {
        // SAFETY: NEON (the `Lanes` contract).
        Neon128(unsafe { vreinterpretq_u64_u8(vrev64q_u8(vreinterpretq_u8_u64(self.0))) })
    }
    #[inline(always)]
    unsafe fn reverse_bits(self) -> Self {
        // SAFETY: NEON (the `Lanes` contract): `rev64` the bytes, `rbit` each byte.
        Neon128(unsafe {
            vreinterpretq_u64_u8(vrbitq_u8(vrev64q_u8(vreinterpretq_u8_u64(self.0))))
        })
    }
    #[inline(always)]
    unsafe fn or_lanes(self) -> u64 {
        // SAFETY: NEON (the `Lanes` contract).
        unsafe { vgetq_lane_u64::<0>(self.0) | vgetq_lane_u64::<1>(self.0) }
    }
}

impl VariableShifts for Neon128 {
    #[inline(always)]
    unsafe fn shl_var(self, counts: Self) -> Self {
        // `ushl` shifts left by a positive count, right by a negative one.
        // SAFETY: NEON (the `Lanes` contract).
        Neon128(unsafe { vshlq_u64(self.0, vreinterpretq_s64_u64(counts.0)) })
    }
    #[inline(always)]
    unsafe fn shr_var(self, counts: Self) -> Self {
        // SAFETY: NEON (the `Lanes` contract).
        Neon128(unsafe { vshlq_u64(self.0, vnegq_s64(vreinterpretq_s64_u64(counts.0))) })
    }
}
