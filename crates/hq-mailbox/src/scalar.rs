//! Portable transposition, one rank (8 bytes as a little-endian `u64`) at a time.
//!
//! For [`PieceBitboards`] the scalar path transposes only the four code bits
//! (a valid code has nothing in bits 4-7) and decodes them with bitwise ops
//! (about 20): without a `vpshufb` a per-byte one-hot lookup would cost 64
//! table loads and then eight planes instead of four. The inverse checks the
//! boards bitwise, forms the four code planes as ors of boards (the same
//! linear one-hot -> code map the AVX-512 path applies per byte) and spreads
//! them into bytes.

use crate::{
    CODE_OF_BIT, InvalidBitboards, InvalidPlanes, PieceBitboards, Planes, as_bytes,
    from_valid_bytes,
};
use hq_core::Bitboard;
use hq_core::piece::{Color, Piece, PieceKind};

/// The low bit of every byte.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;
/// Moves bit `8i` to bit `56 + i` (exponents `56 + 8i - 7j` are all distinct: no carries).
const GATHER: u64 = 0x0102_0408_1020_4080;
/// Bit `i` of byte `i`.
const DIAGONAL: u64 = 0x8040_2010_0804_0201;

/// The first `N` planes of `bytes`, by mask-and-multiply: plane `k`'s byte
/// for a rank is `((rank >> k) & 0x01..01) * 0x0102040810204080 >> 56`.
#[inline]
fn bytes_to_planes<const N: usize>(bytes: &[u8; 64]) -> [u64; N] {
    let mut planes = [0u64; N];
    for (rank, chunk) in bytes.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(chunk.try_into().expect("chunks of 8"));
        for (k, plane) in planes.iter_mut().enumerate() {
            *plane |= (((word >> k) & LOW_BITS).wrapping_mul(GATHER) >> 56) << (8 * rank);
        }
    }
    planes
}

/// The plane byte `b` spread to one bit (bit 0) per byte: copy `b` to every
/// byte, keep bit `i` in byte `i`, turn each non-zero byte into 0x80 by
/// adding 0x7F (no byte overflows), shift down.
#[inline]
const fn spread(b: u64) -> u64 {
    (((b.wrapping_mul(LOW_BITS) & DIAGONAL) + 0x7F7F_7F7F_7F7F_7F7F) >> 7) & LOW_BITS
}

/// The bytes whose bit `k` is plane `k` (bits `N..8` zero).
#[inline]
fn planes_to_bytes<const N: usize>(planes: &[u64; N]) -> [u8; 64] {
    let mut bytes = [0u8; 64];
    for (rank, chunk) in bytes.chunks_exact_mut(8).enumerate() {
        let word = planes.iter().enumerate().fold(0u64, |w, (k, plane)| {
            w | (spread((plane >> (8 * rank)) & 0xFF) << k)
        });
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    bytes
}

/// The eight planes, by mask-and-multiply.
pub fn to_planes(mailbox: &[Piece; 64]) -> Planes {
    Planes(bytes_to_planes::<8>(as_bytes(mailbox)))
}

/// The mailbox, or the first square whose byte is no piece code.
pub fn to_mailbox(planes: &Planes) -> Result<[Piece; 64], InvalidPlanes> {
    planes.validate()?;
    Ok(from_valid_bytes(planes_to_bytes(&planes.0)))
}

/// The per-kind and per-colour bitboards: the four code planes, decoded
/// bitwise ([`PieceBitboards::from_planes`]).
pub fn to_bitboards(mailbox: &[Piece; 64]) -> PieceBitboards {
    let [p0, p1, p2, p3] = bytes_to_planes::<4>(as_bytes(mailbox));
    PieceBitboards::from_planes(&Planes([p0, p1, p2, p3, 0, 0, 0, 0]))
}

/// The mailbox, or the first square whose one-hot byte is no piece's.
pub fn from_bitboards(boards: &PieceBitboards) -> Result<[Piece; 64], InvalidBitboards> {
    boards.validate()?;
    // Code plane k = the boards whose one-hot bit stands for code bit k (an
    // or, as a valid square is on exactly one kind and one colour board).
    let all = boards.to_array();
    let mut planes = [0u64; 4];
    for (k, plane) in planes.iter_mut().enumerate() {
        for (board, code) in all.iter().zip(CODE_OF_BIT) {
            if (code >> k) & 1 != 0 {
                *plane |= board;
            }
        }
    }
    Ok(from_valid_bytes(planes_to_bytes(&planes)))
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

/// The obvious loop for the bitboards, square by square from each piece's
/// kind and colour (no tables): the reference the others are tested against.
pub fn to_bitboards_reference(mailbox: &[Piece; 64]) -> PieceBitboards {
    let mut boards = PieceBitboards::default();
    for (sq, piece) in mailbox.iter().enumerate() {
        if let (Some(kind), Some(color)) = (piece.kind(), piece.color()) {
            boards.by_kind[kind as usize - 1] |= Bitboard(1 << sq);
            boards.by_color[color as usize] |= Bitboard(1 << sq);
        }
    }
    boards
}

/// The obvious inverse, square by square: count the kind and colour boards
/// holding the square; one of each is a piece, none is empty, anything else
/// is the error for that square.
pub fn from_bitboards_reference(boards: &PieceBitboards) -> Result<[Piece; 64], InvalidBitboards> {
    let mut mailbox = [Piece::NONE; 64];
    for (sq, out) in mailbox.iter_mut().enumerate() {
        let on = |b: &Bitboard| b.0 >> sq & 1 != 0;
        let kinds: Vec<usize> = (0..6).filter(|&i| on(&boards.by_kind[i])).collect();
        let colors: Vec<usize> = (0..2).filter(|&i| on(&boards.by_color[i])).collect();
        *out = match (kinds.as_slice(), colors.as_slice()) {
            ([], []) => Piece::NONE,
            (&[k], &[c]) => Piece::new([Color::White, Color::Black][c], PieceKind::ALL[k]),
            _ => {
                let byte = kinds.iter().map(|&k| 1u8 << k).sum::<u8>()
                    + colors.iter().map(|&c| 1u8 << (6 + c)).sum::<u8>();
                return Err(InvalidBitboards {
                    square: sq as u8,
                    byte,
                });
            }
        };
    }
    Ok(mailbox)
}
