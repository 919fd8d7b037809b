//! wasm32: `simd128` lanes (`v128`).
#![allow(unused_unsafe)] // the intrinsics are safe where simd128 is enabled for the whole build

use crate::vector::Lanes;
use core::arch::wasm32::*;
use hq_core::Square;

/// Two lanes in a `v128`: `i8x16_swizzle` byte swap and nibble tables.
#[derive(Clone, Copy)]
pub(crate) struct Wasm128(pub v128);

/// Byte swap of both lanes, as a swizzle control.
static SWAP_BYTES: [u8; 16] = [7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8];
/// A nibble bit-reversed, as the high and the low nibble of a byte.
static NIBBLE_REVERSED_HIGH: [u8; 16] = [
    0x00, 0x80, 0x40, 0xC0, 0x20, 0xA0, 0x60, 0xE0, 0x10, 0x90, 0x50, 0xD0, 0x30, 0xB0, 0x70, 0xF0,
];
static NIBBLE_REVERSED_LOW: [u8; 16] = [
    0x0, 0x8, 0x4, 0xC, 0x2, 0xA, 0x6, 0xE, 0x1, 0x9, 0x5, 0xD, 0x3, 0xB, 0x7, 0xF,
];

#[inline(always)]
unsafe fn table(t: &[u8; 16]) -> v128 {
    // SAFETY: 16 readable bytes; wasm loads need no alignment.
    unsafe { v128_load(t.as_ptr().cast()) }
}

impl Lanes for Wasm128 {
    const LANES: usize = 2;
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        Wasm128(unsafe { u64x2_splat(x) })
    }
    #[inline(always)]
    unsafe fn load(src: *const u64) -> Self {
        Wasm128(unsafe { v128_load(src.cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u64) {
        unsafe { v128_store(dst.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn load_squares(squares: *const Square) -> Self {
        Wasm128(unsafe { u64x2(*squares as u64, *squares.add(1) as u64) })
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        Wasm128(unsafe { v128_and(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        Wasm128(unsafe { v128_or(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        Wasm128(unsafe { v128_xor(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn and_not(self, other: Self) -> Self {
        Wasm128(unsafe { v128_andnot(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn sub(self, other: Self) -> Self {
        Wasm128(unsafe { i64x2_sub(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn swap_bytes(self) -> Self {
        Wasm128(unsafe { i8x16_swizzle(self.0, table(&SWAP_BYTES)) })
    }
    #[inline(always)]
    unsafe fn reverse_bits(self) -> Self {
        unsafe {
            let x = self.swap_bytes().0;
            let low = v128_and(x, u8x16_splat(0x0F));
            let high = u8x16_shr(x, 4);
            Wasm128(v128_or(
                i8x16_swizzle(table(&NIBBLE_REVERSED_HIGH), low),
                i8x16_swizzle(table(&NIBBLE_REVERSED_LOW), high),
            ))
        }
    }
    #[inline(always)]
    unsafe fn or_lanes(self) -> u64 {
        unsafe { u64x2_extract_lane::<0>(self.0) | u64x2_extract_lane::<1>(self.0) }
    }
}
