//! AArch64: NEON lanes (`uint64x2_t`).

use crate::vector::{Lanes, VariableShifts};
use core::arch::aarch64::*;
use hq_core::Square;

/// Two lanes in a NEON register: `rev64` byte swap, `rbit` + `rev64` bit reversal.
#[derive(Clone, Copy)]
pub(crate) struct Neon128(pub uint64x2_t);

impl Lanes for Neon128 {
    const LANES: usize = 2;
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        Neon128(unsafe { vdupq_n_u64(x) })
    }
    #[inline(always)]
    unsafe fn load(src: *const u64) -> Self {
        Neon128(unsafe { vld1q_u64(src) })
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u64) {
        unsafe { vst1q_u64(dst, self.0) }
    }
    #[inline(always)]
    unsafe fn load_squares(squares: *const Square) -> Self {
        let words = unsafe { [*squares as u64, *squares.add(1) as u64] };
        unsafe { Self::load(words.as_ptr()) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        Neon128(unsafe { vandq_u64(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        Neon128(unsafe { vorrq_u64(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        Neon128(unsafe { veorq_u64(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn and_not(self, other: Self) -> Self {
        Neon128(unsafe { vbicq_u64(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn sub(self, other: Self) -> Self {
        Neon128(unsafe { vsubq_u64(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn swap_bytes(self) -> Self {
        Neon128(unsafe { vreinterpretq_u64_u8(vrev64q_u8(vreinterpretq_u8_u64(self.0))) })
    }
    #[inline(always)]
    unsafe fn reverse_bits(self) -> Self {
        Neon128(unsafe {
            vreinterpretq_u64_u8(vrbitq_u8(vrev64q_u8(vreinterpretq_u8_u64(self.0))))
        })
    }
    #[inline(always)]
    unsafe fn or_lanes(self) -> u64 {
        unsafe { vgetq_lane_u64::<0>(self.0) | vgetq_lane_u64::<1>(self.0) }
    }
}

impl VariableShifts for Neon128 {
    #[inline(always)]
    unsafe fn shl_var(self, counts: Self) -> Self {
        // `ushl` shifts left by a positive count, right by a negative one.
        Neon128(unsafe { vshlq_u64(self.0, vreinterpretq_s64_u64(counts.0)) })
    }
    #[inline(always)]
    unsafe fn shr_var(self, counts: Self) -> Self {
        Neon128(unsafe { vshlq_u64(self.0, vnegq_s64(vreinterpretq_s64_u64(counts.0))) })
    }
}
