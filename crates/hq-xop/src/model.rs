//! The exact software model of XOP `VPPERM dst, src1, src2, selector`.
//!
//! Written from AMD's definition (AMD64 Architecture Programmer's Manual,
//! vol. 4, VPPERM); no real XOP CPU has checked it (see the crate docs).
//! For each destination byte `i`, the selector byte `s = selector[i]`:
//!
//! | bits | meaning |
//! |---|---|
//! | 4:0 | index into the 32-byte table `src1[0..16] ++ src2[0..16]` (0-15 pick `src1`, 16-31 pick `src2`) |
//! | 7:5 | the operation on that source byte `b`, below |
//!
//! | op (bits 7:5) | result | selector bytes |
//! |---|---|---|
//! | 0 | `b` | `0x00..=0x1F` |
//! | 1 | `!b` | `0x20..=0x3F` |
//! | 2 | `b` with its bits reversed (bit 0 <-> bit 7, ...) | `0x40..=0x5F` |
//! | 3 | `!reverse(b)` | `0x60..=0x7F` |
//! | 4 | `0x00` | `0x80..=0x9F` |
//! | 5 | `0xFF` | `0xA0..=0xBF` |
//! | 6 | `0xFF` if bit 7 of `b` is set, else `0x00` | `0xC0..=0xDF` |
//! | 7 | `0x00` if bit 7 of `b` is set, else `0xFF` | `0xE0..=0xFF` |
//!
//! So selector bytes `0x40 | (i ^ 7)` for `i` in `0..16` reverse each of
//! the two 64-bit halves of `src1` (byte order *and* bit order) in one
//! instruction: the trick HQ needs. Bytes are numbered little-endian: byte 0
//! is the least significant byte of the xmm register (of a `u128`).
//!
//! ```
//! use hq_xop::model::{vpperm_u128, qword_reverse_selector};
//! let x = 0x0123_4567_89AB_CDEFu128 | (1u128 << 64);
//! let r = vpperm_u128(x, 0, qword_reverse_selector());
//! assert_eq!(r as u64, 0x0123_4567_89AB_CDEFu64.reverse_bits());
//! assert_eq!((r >> 64) as u64, 1u64.reverse_bits());
//! ```

/// The eight per-byte operations (selector bits 7:5).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Op {
    /// 0: the source byte.
    Copy = 0,
    /// 1: its complement.
    Invert = 1,
    /// 2: its bits reversed.
    Reverse = 2,
    /// 3: the complement of its bit reversal.
    ReverseInvert = 3,
    /// 4: 0x00.
    Zero = 4,
    /// 5: 0xFF.
    Ones = 5,
    /// 6: bit 7 of the source byte copied into all eight bits.
    Sign = 6,
    /// 7: the complement of [`Op::Sign`].
    SignInvert = 7,
}

impl Op {
    /// All eight, in selector order.
    pub const ALL: [Op; 8] = [
        Op::Copy,
        Op::Invert,
        Op::Reverse,
        Op::ReverseInvert,
        Op::Zero,
        Op::Ones,
        Op::Sign,
        Op::SignInvert,
    ];

    /// The operation of a selector byte (its bits 7:5).
    #[inline]
    pub const fn of_selector(selector: u8) -> Op {
        Op::ALL[(selector >> 5) as usize]
    }

    /// Applies the operation to a source byte.
    #[inline]
    pub const fn apply(self, byte: u8) -> u8 {
        let sign = if byte & 0x80 != 0 { 0xFF } else { 0x00 };
        match self {
            Op::Copy => byte,
            Op::Invert => !byte,
            Op::Reverse => byte.reverse_bits(),
            Op::ReverseInvert => !byte.reverse_bits(),
            Op::Zero => 0x00,
            Op::Ones => 0xFF,
            Op::Sign => sign,
            Op::SignInvert => !sign,
        }
    }
}

/// The selector byte that applies `op` to table byte `index` (0-15 `src1`, 16-31 `src2`).
///
/// # Panics
///
/// If `index > 31` (a selector has only five index bits).
#[inline]
pub const fn selector(op: Op, index: u8) -> u8 {
    assert!(index < 32, "a VPPERM table index must be below 32");
    ((op as u8) << 5) | index
}

/// One destination byte: `selector` applied to the table `src1 ++ src2`.
#[inline]
pub const fn vpperm_byte(src1: &[u8; 16], src2: &[u8; 16], selector: u8) -> u8 {
    let index = (selector & 31) as usize;
    let source = if index < 16 {
        src1[index]
    } else {
        src2[index - 16]
    };
    Op::of_selector(selector).apply(source)
}

/// `VPPERM dst, src1, src2, selector` on byte arrays (byte 0 = least significant).
#[inline]
pub const fn vpperm(src1: [u8; 16], src2: [u8; 16], selector: [u8; 16]) -> [u8; 16] {
    let mut dst = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        dst[i] = vpperm_byte(&src1, &src2, selector[i]);
        i += 1;
    }
    dst
}

/// [`vpperm`] on little-endian `u128` values, as the xmm registers hold them.
#[inline]
pub const fn vpperm_u128(src1: u128, src2: u128, selector: u128) -> u128 {
    u128::from_le_bytes(vpperm(
        src1.to_le_bytes(),
        src2.to_le_bytes(),
        selector.to_le_bytes(),
    ))
}

/// The selector whose byte `i` applies `op` to table byte `i ^ flip` (`flip`
/// below 16: every byte reads `src1`). The named selectors below are all of
/// this form, or halves of two of them.
const fn uniform_selector(op: Op, flip: u8) -> u128 {
    let mut bytes = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        bytes[i] = selector(op, i as u8 ^ flip);
        i += 1;
    }
    u128::from_le_bytes(bytes)
}

/// Selector bytes `0x40 | (i ^ 7)`: reverse both 64-bit halves of `src1` in place.
pub const fn qword_reverse_selector() -> u128 {
    uniform_selector(Op::Reverse, 7)
}

/// Selector bytes `0x40 | (15 - i)`: reverse all 128 bits of `src1`, so
/// each half comes back reversed in the other half.
pub const fn full_reverse_selector() -> u128 {
    uniform_selector(Op::Reverse, 15)
}

/// Selector bytes that copy the low half of `src1` and put the bit reversal of
/// the high half above it (`0x40 | (i ^ 7)` only for bytes 8-15): with both
/// halves equal to `x` this makes the pair `{x, reverse(x)}`.
pub const fn pair_selector() -> u128 {
    const LOW_HALF: u128 = u64::MAX as u128;
    (uniform_selector(Op::Copy, 0) & LOW_HALF) | (qword_reverse_selector() & !LOW_HALF)
}
