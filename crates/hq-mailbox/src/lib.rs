//! Mailbox <-> bitboards: the 64 piece bytes of a `[Piece; 64]` (encoding in
//! [`hq_core::piece`]) transposed into eight bit-planes and back, and the
//! planes turned into the per-kind and per-colour bitboards an engine uses.
//!
//! Plane `k` ([`Planes`]) holds the squares whose piece byte has bit `k`
//! set: planes 0-2 the kind bits, plane 3 the colour, planes 4-7 always
//! empty for valid pieces.
//!
//! | version | mailbox -> planes | planes -> mailbox |
//! |---|---|---|
//! | [`scalar`] (portable) | per rank and plane: mask, one multiply, shift | per rank and plane: multiply, mask, add, shift |
//! | [`avx512`] ([`MailboxAvx512`] token: avx512f, avx512bw, avx512vbmi, gfni) | `vpshufb`, `vgf2p8affineqb` (data as matrix), `vpermb`: 3 instructions | `vpermb`, `vgf2p8affineqb`: 2 instructions |
//!
//! [`to_planes`] and [`to_mailbox`] pick the AVX-512 version when the CPU
//! has it. All versions agree on random boards (proptest, `tests/agree.rs`);
//! the AVX-512 one was run only under the Bochs emulator (Tiger Lake model).
//!
//! ```
//! use hq_core::piece::{Color, Piece, PieceKind};
//! use hq_mailbox::{PieceBitboards, to_mailbox, to_planes};
//!
//! let mut board = [Piece::NONE; 64];
//! board[4] = Piece::new(Color::White, PieceKind::King);
//! board[60] = Piece::new(Color::Black, PieceKind::King);
//! let planes = to_planes(&board);
//! let bb = PieceBitboards::from_planes(&planes);
//! assert_eq!(bb.kind(PieceKind::King).0, (1 << 4) | (1 << 60));
//! assert_eq!(bb.color(Color::Black).0, 1 << 60);
//! assert_eq!(to_mailbox(&planes), Ok(board));
//! ```

#[cfg(target_arch = "x86_64")]
pub mod avx512;
pub mod scalar;

#[cfg(target_arch = "x86_64")]
pub use avx512::MailboxAvx512;
use hq_core::Bitboard;
use hq_core::piece::{Color, Piece, PieceKind};
use std::fmt;

/// The eight bit-planes of a mailbox: `planes.0[k]` bit `sq` = bit `k` of the piece byte on `sq`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[repr(C, align(64))]
pub struct Planes(pub [u64; 8]);

/// Why a set of planes is no board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct InvalidPlanes {
    /// The first square (lowest index) with an invalid byte.
    pub square: u8,
    /// That square's byte, which is no [`Piece`] code.
    pub code: u8,
}

impl fmt::Display for InvalidPlanes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the bit-planes give square {} the byte {:#04x}, which is no piece code \
             (kind bits 0-2 must be 1..=6, or the byte 0; bit 3 the colour; bits 4-7 zero)",
            self.square, self.code
        )
    }
}

impl std::error::Error for InvalidPlanes {}

impl Planes {
    /// The squares whose bytes are no piece code: planes 4-7 set, kind 7,
    /// or the colour bit without a kind.
    pub const fn invalid_squares(&self) -> u64 {
        let p = &self.0;
        let kind_bits = p[0] | p[1] | p[2];
        (p[4] | p[5] | p[6] | p[7]) | (p[0] & p[1] & p[2]) | (p[3] & !kind_bits)
    }

    /// `Ok` if every square's byte is a piece code, else the first bad square.
    pub fn validate(&self) -> Result<(), InvalidPlanes> {
        let bad = self.invalid_squares();
        if bad == 0 {
            return Ok(());
        }
        let square = bad.trailing_zeros() as u8;
        let code = (0..8).fold(0u8, |c, k| c | ((((self.0[k] >> square) & 1) as u8) << k));
        Err(InvalidPlanes { square, code })
    }
}

/// The bitboards an engine keeps: one per piece kind, one per colour, and the occupancy.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct PieceBitboards {
    /// Pawns, knights, bishops, rooks, queens, kings (both colours), in [`PieceKind::ALL`] order.
    pub by_kind: [Bitboard; 6],
    /// White pieces, black pieces.
    pub by_color: [Bitboard; 2],
    /// Every occupied square.
    pub occupied: Bitboard,
}

impl PieceBitboards {
    /// From the planes: each kind is an and of the three kind planes (each
    /// possibly inverted); black is plane 3, white the rest of the occupancy.
    /// Assumes valid planes (see [`Planes::validate`]).
    pub const fn from_planes(planes: &Planes) -> PieceBitboards {
        let [p0, p1, p2, p3, ..] = planes.0;
        let occupied = p0 | p1 | p2;
        PieceBitboards {
            by_kind: [
                Bitboard(p0 & !p1 & !p2), // 1 pawn
                Bitboard(!p0 & p1 & !p2), // 2 knight
                Bitboard(p0 & p1 & !p2),  // 3 bishop
                Bitboard(!p0 & !p1 & p2), // 4 rook
                Bitboard(p0 & !p1 & p2),  // 5 queen
                Bitboard(!p0 & p1 & p2),  // 6 king
            ],
            by_color: [Bitboard(occupied & !p3), Bitboard(p3)],
            occupied: Bitboard(occupied),
        }
    }

    /// The squares of `kind` (both colours).
    pub const fn kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind as usize - 1]
    }

    /// The squares of `color`.
    pub const fn color(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    /// The squares of one piece (kind and colour).
    pub const fn piece(&self, color: Color, kind: PieceKind) -> Bitboard {
        Bitboard(self.kind(kind).0 & self.color(color).0)
    }
}

/// The mailbox's bytes (a `Piece` is `repr(transparent)` over its `u8` code).
#[inline]
pub(crate) fn as_bytes(mailbox: &[Piece; 64]) -> &[u8; 64] {
    // SAFETY: `Piece` is `repr(transparent)` over `u8`, so `[Piece; 64]` and `[u8; 64]` have one layout.
    unsafe { &*(mailbox as *const [Piece; 64]).cast::<[u8; 64]>() }
}

/// A mailbox from bytes already known to be piece codes.
#[inline]
pub(crate) fn from_valid_bytes(bytes: [u8; 64]) -> [Piece; 64] {
    debug_assert!(bytes.iter().all(|&b| Piece::from_code(b).is_some()));
    // SAFETY: `Piece` is `repr(transparent)` over `u8` and every byte was
    // validated as a piece code by the caller, so each is a `Piece` that `from_code` would give.
    unsafe { core::mem::transmute::<[u8; 64], [Piece; 64]>(bytes) }
}

/// Mailbox to planes, with AVX-512 if this CPU has it, else [`scalar::to_planes`].
pub fn to_planes(mailbox: &[Piece; 64]) -> Planes {
    #[cfg(target_arch = "x86_64")]
    if let Some(t) = MailboxAvx512::new() {
        return t.to_planes(mailbox);
    }
    scalar::to_planes(mailbox)
}

/// Planes to mailbox, with AVX-512 if this CPU has it, else [`scalar::to_mailbox`].
/// Errors on planes that are no board.
pub fn to_mailbox(planes: &Planes) -> Result<[Piece; 64], InvalidPlanes> {
    #[cfg(target_arch = "x86_64")]
    if let Some(t) = MailboxAvx512::new() {
        return t.to_mailbox(planes);
    }
    scalar::to_mailbox(planes)
}
