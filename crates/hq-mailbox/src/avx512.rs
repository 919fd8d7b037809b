//! The AVX-512 transposition (the seed's method), behind [`MailboxAvx512`].
//!
//! With `C` = 0x8040201008040201 in every qword (byte `j` = `1 << j`),
//! `vgf2p8affineqb(C, D)` takes the *data* `D` as the matrix:
//! `out.byte[j].bit[i] = D.byte[7 - i].bit[j]`, an 8x8 bit transposition
//! (with a flip) of every qword. Hence `_mm512_gf2p8affine_epi64_epi8(C, x, 0)`
//! passes the data second on purpose.
//!
//! * Mailbox -> planes: `vpshufb` reverses the bytes of each qword (undoing
//!   the flip), the affine step makes qword `q` = the eight planes' bytes
//!   for rank `q`, and `vpermb` transposes the 8x8 bytes so qword `k` = plane `k`.
//! * Planes -> mailbox: one `vpermb` (byte transposition and flip together),
//!   then the same affine step.

use crate::{InvalidPlanes, Planes, as_bytes, from_valid_bytes};
use core::arch::x86_64::*;
use hq_core::cpu::{Level, MissingFeatures};
use hq_core::piece::Piece;

/// Proof that the CPU has AVX-512 F, BW, VBMI and GFNI, for the transposition.
#[derive(Clone, Copy, Debug)]
pub struct MailboxAvx512(());

impl MailboxAvx512 {
    /// The instruction set the transposition is compiled for (AVX-512 F, BW,
    /// VBMI and GFNI are in it).
    pub const LEVEL: Level = Level::X86V4;

    /// The token, if the CPU has [`Self::LEVEL`].
    #[inline]
    pub fn new() -> Option<Self> {
        Self::require().ok()
    }

    /// The token, or what this CPU lacks.
    pub fn require() -> Result<Self, MissingFeatures> {
        MissingFeatures::check("mailbox-avx512", Self::LEVEL).map(|()| MailboxAvx512(()))
    }

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

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn load(bytes: &[u8; 64]) -> __m512i {
    // SAFETY: 64 readable bytes; unaligned load.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

/// Mailbox bytes to planes: `vpshufb`, data-as-matrix `vgf2p8affineqb`, `vpermb`.
///
/// # Safety
///
/// The CPU must have AVX-512 F, BW, VBMI and GFNI.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
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
/// The CPU must have AVX-512 F, BW, VBMI and GFNI.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
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
