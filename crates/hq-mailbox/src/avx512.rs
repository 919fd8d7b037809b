//! The AVX-512 transpositions (the seed's method), behind [`MailboxAvx512`].
//!
//! With `C` = 0x8040201008040201 in every qword (byte `j` = `1 << j`),
//! `vgf2p8affineqb(C, D)` takes the *data* `D` as the matrix:
//! `out.byte[j].bit[i] = D.byte[7 - i].bit[j]`, an 8x8 bit transposition
//! (with a flip) of every qword. Hence `_mm512_gf2p8affine_epi64_epi8(C, x, 0)`
//! passes the data second on purpose.
//!
//! * Mailbox -> [`PieceBitboards`] ([`to_bitboards`]): `vpshufb` with the
//!   16-byte one-hot table (indexed by the piece code, the same table in
//!   every lane) turns each code into its one-hot byte (crate docs), a second
//!   `vpshufb` reverses the bytes of each qword (undoing the flip), the
//!   affine step makes qword `q` = the eight boards' bytes for rank `q`, and
//!   `vpermb` transposes the 8x8 bytes so qword `i` = board `i`: pawns ..
//!   kings, white, black. No scalar decode.
//! * [`PieceBitboards`] -> mailbox ([`to_codes`]): one `vpermb` (byte
//!   transposition and flip together) and the same affine step give each
//!   square's one-hot byte `h`. One-hot -> code is linear over GF(2) (code
//!   bit 0 = pawn ^ bishop ^ queen, bit 1 = knight ^ bishop ^ king, bit 2 =
//!   rook ^ queen ^ king, bit 3 = black), so a second `vgf2p8affineqb`, now
//!   with a constant matrix, gives the code `c`, exact for every valid `h`.
//!   Validity: `h` is valid exactly when the forward table maps `c` back to
//!   `h` (the table's outputs are the valid bytes, and a valid byte's code
//!   maps back to it), so one more `vpshufb` and a `vpcmpneqb` give the mask
//!   of bad squares; the first one is the error, as for planes.
//! * Mailbox <-> [`Planes`] ([`to_planes`], [`to_bytes`]): the same
//!   transposition of the raw code bytes, without the table.

use crate::{
    CODE_OF_BIT, InvalidBitboards, InvalidPlanes, ONE_HOT_OF_CODE, PieceBitboards, Planes,
    as_bytes, code_of_one_hot, from_one_hot, from_valid_bytes,
};
use core::arch::x86_64::*;
use hq_core::piece::Piece;

hq_core::level_token! {
    /// Proof that the CPU has AVX-512 F, BW, VBMI and GFNI, for the transposition.
    pub struct MailboxAvx512: X86V4, "mailbox-avx512";
}

impl MailboxAvx512 {
    /// Mailbox to planes.
    #[inline]
    pub fn to_planes(self, mailbox: &[Piece; 64]) -> Planes {
        // SAFETY: the token proves the features the kernel enables.
        Planes(unsafe { to_planes(as_bytes(mailbox)) })
    }

    /// Planes to mailbox, or the first square whose byte is no piece code.
    #[inline]
    pub fn to_mailbox(self, planes: &Planes) -> Result<[Piece; 64], InvalidPlanes> {
        planes.validate()?;
        // SAFETY: the token proves the features the kernel enables.
        Ok(from_valid_bytes(unsafe { to_bytes(&planes.0) }))
    }

    /// Mailbox to per-kind and per-colour bitboards (one-hot table, then the
    /// transposition): what an engine wants, with no scalar decode.
    #[inline]
    pub fn to_bitboards(self, mailbox: &[Piece; 64]) -> PieceBitboards {
        // SAFETY: the token proves the features the kernel enables.
        unsafe { to_bitboards(mailbox) }
    }

    /// Bitboards to mailbox, or the first square whose one-hot byte is no
    /// piece's (the same error as [`crate::scalar::from_bitboards`]).
    #[inline]
    pub fn from_bitboards(self, boards: &PieceBitboards) -> Result<[Piece; 64], InvalidBitboards> {
        let mut codes = [0u8; 64];
        // SAFETY: the token proves the features the kernel enables.
        let bad = unsafe { to_codes(boards, &mut codes) };
        if bad != 0 {
            return Err(boards.error_at(bad.trailing_zeros() as u8));
        }
        Ok(from_valid_bytes(codes))
    }
}

const IDENTITY: i64 = 0x8040_2010_0804_0201u64 as i64;

/// `vpshufb` index: reverse the bytes of each qword (in-lane, so `i & 15`).
static QWORD_BYTE_REVERSE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (i as u8 & 15) ^ 7;
        i += 1;
    }
    t
};
/// `vpermb` index: byte `8j + q` <- byte `8q + j` (8x8 byte transposition).
static BYTE_TRANSPOSE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut k = 0;
    while k < 64 {
        t[k] = (((k & 7) << 3) | (k >> 3)) as u8;
        k += 1;
    }
    t
};
/// `vpermb` index: byte `8q + m` <- byte `8(7 - m) + q` (transposition and flip).
static BYTE_TRANSPOSE_FLIP: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut k = 0;
    while k < 64 {
        t[k] = (8 * (7 - (k & 7)) + (k >> 3)) as u8;
        k += 1;
    }
    t
};

/// The matrix (for `vgf2p8affineqb`, data first) that maps a one-hot byte
/// to its piece code: output bit `i` is the parity of the input bits `j`
/// with bit `i` of [`CODE_OF_BIT`]`[j]`, and the instruction reads row `i`
/// from byte `7 - i`.
const ONE_HOT_TO_CODE: i64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < 8 {
        let mut row = 0u64;
        let mut j = 0;
        while j < 8 {
            row |= (((CODE_OF_BIT[j] >> i) & 1) as u64) << j;
            j += 1;
        }
        m |= row << (8 * (7 - i));
        i += 1;
    }
    m as i64
};

/// What `vgf2p8affineqb` does to one byte `x` with matrix `m` and no constant.
const fn affine(m: u64, x: u8) -> u8 {
    let (mut out, mut i) = (0u8, 0);
    while i < 8 {
        let row = (m >> (8 * (7 - i))) as u8;
        out |= (((row & x).count_ones() & 1) as u8) << i;
        i += 1;
    }
    out
}

// Every byte: the matrix is the linear map, its output is a table index
// (bits 4-7 zero), and "the table maps the code back to the byte" holds
// exactly for the valid one-hot bytes.
const _: () = {
    let mut h = 0;
    while h < 256 {
        let c = affine(ONE_HOT_TO_CODE as u64, h as u8);
        assert!(c == code_of_one_hot(h as u8) && c < 16);
        assert!((ONE_HOT_OF_CODE[c as usize] == h as u8) == from_one_hot(h as u8).is_some());
        h += 1;
    }
};

hq_core::at_level! { X86V4;
    #[inline]
    fn one_hot_table() -> __m512i {
        // SAFETY: 16 readable bytes; unaligned load.
        let t = unsafe { _mm_loadu_si128(ONE_HOT_OF_CODE.as_ptr().cast()) };
        _mm512_broadcast_i32x4(t)
    }

    #[inline]
    fn load(bytes: &[u8; 64]) -> __m512i {
        // SAFETY: 64 readable bytes; unaligned load.
        unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
    }

    /// Mailbox bytes to planes: `vpshufb`, data-as-matrix `vgf2p8affineqb`, `vpermb`.
    ///
    /// # Safety
    ///
    /// The CPU must have every feature of [`Level::X86V4`](hq_core::cpu::Level::X86V4).
    #[inline(never)]
    pub unsafe fn to_planes(mailbox: &[u8; 64]) -> [u64; 8] {
        let x = _mm512_shuffle_epi8(load(mailbox), load(&QWORD_BYTE_REVERSE));
        let by_rank = _mm512_gf2p8affine_epi64_epi8::<0>(_mm512_set1_epi64(IDENTITY), x);
        let planes = _mm512_permutexvar_epi8(load(&BYTE_TRANSPOSE), by_rank);
        let mut out = [0u64; 8];
        // SAFETY: 64 writable bytes; unaligned store.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), planes) };
        out
    }

    /// Planes to mailbox bytes: `vpermb`, data-as-matrix `vgf2p8affineqb`.
    ///
    /// # Safety
    ///
    /// The CPU must have every feature of [`Level::X86V4`](hq_core::cpu::Level::X86V4).
    #[inline(never)]
    pub unsafe fn to_bytes(planes: &[u64; 8]) -> [u8; 64] {
        // SAFETY: 64 readable bytes; unaligned load.
        let p = unsafe { _mm512_loadu_si512(planes.as_ptr().cast()) };
        let by_rank = _mm512_permutexvar_epi8(load(&BYTE_TRANSPOSE_FLIP), p);
        let bytes = _mm512_gf2p8affine_epi64_epi8::<0>(_mm512_set1_epi64(IDENTITY), by_rank);
        let mut out = [0u8; 64];
        // SAFETY: 64 writable bytes; unaligned store.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), bytes) };
        out
    }

    /// Mailbox to [`PieceBitboards`]: `vpshufb` (code -> one-hot byte),
    /// `vpshufb` (qword byte reversal), data-as-matrix `vgf2p8affineqb`, `vpermb`.
    ///
    /// # Safety
    ///
    /// The CPU must have every feature of [`Level::X86V4`](hq_core::cpu::Level::X86V4).
    #[inline(never)]
    pub unsafe fn to_bitboards(mailbox: &[Piece; 64]) -> PieceBitboards {
        let one_hot = _mm512_shuffle_epi8(one_hot_table(), load(as_bytes(mailbox)));
        let x = _mm512_shuffle_epi8(one_hot, load(&QWORD_BYTE_REVERSE));
        let by_rank = _mm512_gf2p8affine_epi64_epi8::<0>(_mm512_set1_epi64(IDENTITY), x);
        let boards = _mm512_permutexvar_epi8(load(&BYTE_TRANSPOSE), by_rank);
        let mut out = PieceBitboards::default();
        // SAFETY: `PieceBitboards` is 64 bytes, 64-aligned, `repr(C)` over eight
        // `u64`s (asserted in lib.rs), so any bits are valid; aligned store.
        unsafe { _mm512_store_si512((&raw mut out).cast(), boards) };
        out
    }

    /// [`PieceBitboards`] to piece codes (written to `codes`); returns the mask
    /// of the squares whose one-hot byte is no piece's (their codes are then
    /// meaningless):
    /// `vpermb`, data-as-matrix `vgf2p8affineqb`, `vgf2p8affineqb` (one-hot ->
    /// code), `vpshufb` (code -> one-hot again), `vpcmpneqb`.
    ///
    /// # Safety
    ///
    /// The CPU must have every feature of [`Level::X86V4`](hq_core::cpu::Level::X86V4).
    #[inline(never)]
    pub unsafe fn to_codes(boards: &PieceBitboards, codes: &mut [u8; 64]) -> u64 {
        // SAFETY: `PieceBitboards` is 64 bytes and 64-aligned (asserted in lib.rs); aligned load.
        let p = unsafe { _mm512_load_si512((&raw const *boards).cast()) };
        let by_rank = _mm512_permutexvar_epi8(load(&BYTE_TRANSPOSE_FLIP), p);
        let one_hot = _mm512_gf2p8affine_epi64_epi8::<0>(_mm512_set1_epi64(IDENTITY), by_rank);
        let code = _mm512_gf2p8affine_epi64_epi8::<0>(one_hot, _mm512_set1_epi64(ONE_HOT_TO_CODE));
        let again = _mm512_shuffle_epi8(one_hot_table(), code);
        // SAFETY: 64 writable bytes; unaligned store.
        unsafe { _mm512_storeu_si512(codes.as_mut_ptr().cast(), code) };
        _mm512_cmpneq_epi8_mask(again, one_hot)
    }
}
