//! Portable transposition, one rank (8 bytes as a little-endian `u64`) at a time.

use crate::{InvalidPlanes, Planes, as_bytes, from_valid_bytes};
use hq_core::piece::Piece;

/// The low bit of every byte.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;
/// Moves bit `8i` to bit `56 + i` (exponents `56 + 8i - 7j` are all distinct: no carries).
const GATHER: u64 = 0x0102_0408_1020_4080;
/// Bit `i` of byte `i`.
const DIAGONAL: u64 = 0x8040_2010_0804_0201;

/// The eight planes, by mask-and-multiply: plane `k`'s byte for a rank is
/// `((rank >> k) & 0x01..01) * 0x0102040810204080 >> 56`.
pub fn to_planes(mailbox: &[Piece; 64]) -> Planes {
    let bytes = as_bytes(mailbox);
    let mut planes = [0u64; 8];
    for (rank, chunk) in bytes.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(chunk.try_into().expect("chunks of 8"));
        for (k, plane) in planes.iter_mut().enumerate() {
            *plane |= (((word >> k) & LOW_BITS).wrapping_mul(GATHER) >> 56) << (8 * rank);
        }
    }
    Planes(planes)
}

/// The plane byte `b` spread to one bit (bit 0) per byte: copy `b` to every
/// byte, keep bit `i` in byte `i`, turn each non-zero byte into 0x80 by
/// adding 0x7F (no byte overflows), shift down.
#[inline]
const fn spread(b: u64) -> u64 {
    (((b.wrapping_mul(LOW_BITS) & DIAGONAL) + 0x7F7F_7F7F_7F7F_7F7F) >> 7) & LOW_BITS
}

/// The mailbox, or the first square whose byte is no piece code.
pub fn to_mailbox(planes: &Planes) -> Result<[Piece; 64], InvalidPlanes> {
    planes.validate()?;
    let mut bytes = [0u8; 64];
    for (rank, chunk) in bytes.chunks_exact_mut(8).enumerate() {
        let word = planes.0.iter().enumerate().fold(0u64, |w, (k, plane)| {
            w | (spread((plane >> (8 * rank)) & 0xFF) << k)
        });
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    Ok(from_valid_bytes(bytes))
}

/// The obvious loop, square by square and bit by bit: the reference the others are tested against.
pub fn to_planes_reference(mailbox: &[Piece; 64]) -> Planes {
    let mut planes = [0u64; 8];
    for (sq, piece) in mailbox.iter().enumerate() {
        for (k, plane) in planes.iter_mut().enumerate() {
            *plane |= u64::from((piece.code() >> k) & 1) << sq;
        }
    }
    Planes(planes)
}
