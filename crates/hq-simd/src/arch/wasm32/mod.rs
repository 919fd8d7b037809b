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
    lanes_logic!(2, splat: |x| u64x2_splat(x), load: v128_load, store: v128_store,
        and: v128_and, or: v128_or, xor: v128_xor, and_not: |a, b| v128_andnot(a, b),
        sub: i64x2_sub);
    #[inline(always)]
    unsafe fn load_squares(squares: *const Square) -> Self {
        // SAFETY: two readable squares (the `Lanes` contract).
        Wasm128(unsafe { u64x2(*squares as u64, *squares.add(1) as u64) })
    }
    const SWAP_BYTES_TABLES: usize = crate::vector::loaded_bytes::<Self>(&SWAP_BYTES);

    #[inline(always)]
    unsafe fn swap_bytes(self) -> Self {
        // SAFETY: simd128 (the `Lanes` contract).
        Wasm128(unsafe { i8x16_swizzle(self.0, table(&SWAP_BYTES)) })
    }
    nibble_reverse_bits!(table: table, shuffle: i8x16_swizzle, and: v128_and, or: v128_or,
        low_nibbles: u8x16_splat(0x0F), high_nibbles: |x| u8x16_shr(x, 4));
    #[inline(always)]
    unsafe fn or_lanes(self) -> u64 {
        // SAFETY: simd128 (the `Lanes` contract).
        unsafe { u64x2_extract_lane::<0>(self.0) | u64x2_extract_lane::<1>(self.0) }
    }
}
