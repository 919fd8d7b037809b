//! Mailbox <-> bitboards: the 64 piece bytes of a `[Piece; 64]` (encoding in
//! [`hq_core::piece`]) turned into the per-kind and per-colour bitboards an
//! engine keeps, and back.
//!
//! # Which API
//!
//! An engine should use [`to_bitboards`] and [`from_bitboards`]: they give
//! [`PieceBitboards`] straight from the mailbox. The older bit-plane API
//! ([`to_planes`], [`to_mailbox`], [`Planes`], [`PieceBitboards::from_planes`])
//! is the raw transposition of the piece *code*; it stays for code that wants
//! the code bits themselves, but turning its planes into per-kind boards
//! costs a scalar decode that the one-hot form does not need.
//!
//! # The one-hot layout
//!
//! Each square's piece code is first mapped (one `vpshufb`, 16-entry table
//! indexed by the code) to a *one-hot byte*; transposing the 64 one-hot bytes
//! gives eight bitboards, board `i` = the squares whose byte has bit `i` set:
//!
//! ```text
//! one-hot byte    bit:  7      6      5     4      3     2       1       0
//!                     black  white  king  queen  rook  bishop  knight  pawn
//!
//! empty square   = 0x00
//! a piece        = exactly one kind bit (bit kind-1) + exactly one colour bit
//!                  e.g. white knight (code 0x02) -> 0x42, black king (0x0E) -> 0xA0
//!
//! PieceBitboards (64 bytes, repr(C), align 64 = one zmm register)
//!   qword:   0      1        2        3      4       5       6      7
//!          pawns knights  bishops  rooks  queens  kings   white  black
//!          `------------- by_kind[0..6] --------------'   by_color[0..2]
//! ```
//!
//! Every other byte (two kinds, a kind without a colour, a colour without a
//! kind, both colours) is no board: [`from_bitboards`] reports the first such
//! square as [`InvalidBitboards`], as [`to_mailbox`] does for planes.
//!
//! | version | mailbox -> [`PieceBitboards`] | [`PieceBitboards`] -> mailbox |
//! |---|---|---|
//! | [`avx512`] ([`MailboxAvx512`] token: avx512f, avx512bw, avx512vbmi, gfni) | `vpshufb` (one-hot), `vpshufb`, `vgf2p8affineqb` (data as matrix), `vpermb`: 4 instructions | `vpermb`, `vgf2p8affineqb` (data as matrix), `vgf2p8affineqb` (one-hot -> code, linear), `vpshufb` + `vpcmpneqb` (validity): 5 instructions |
//! | [`scalar`] (portable) | the four code planes by mask-and-multiply, then a bitwise decode | validity by bitwise ops, the four code planes as ors of boards, spread by multiply |
//!
//! The bit-plane API:
//!
//! | version | mailbox -> planes | planes -> mailbox |
//! |---|---|---|
//! | [`scalar`] (portable) | per rank and plane: mask, one multiply, shift | per rank and plane: multiply, mask, add, shift |
//! | [`avx512`] | `vpshufb`, `vgf2p8affineqb` (data as matrix), `vpermb`: 3 instructions | `vpermb`, `vgf2p8affineqb`: 2 instructions |
//!
//! The free functions pick the AVX-512 version when the CPU has it. All
//! versions agree with a plain per-square loop on random boards, every
//! single piece on every square and every byte on every square
//! (`tests/agree.rs`); the AVX-512 tests run natively on an AVX-512 CPU and
//! under the Bochs emulator (`cargo xtask emu-test`), and report `SKIPPED`
//! elsewhere.
//!
//! ```
//! use hq_core::piece::{Color, Piece, PieceKind};
//! use hq_mailbox::{from_bitboards, to_bitboards};
//!
//! let mut board = [Piece::NONE; 64];
//! board[4] = Piece::new(Color::White, PieceKind::King);
//! board[60] = Piece::new(Color::Black, PieceKind::King);
//! let bb = to_bitboards(&board);
//! assert_eq!(bb.kind(PieceKind::King).0, (1 << 4) | (1 << 60));
//! assert_eq!(bb.color(Color::Black).0, 1 << 60);
//! assert_eq!(from_bitboards(&bb), Ok(board));
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
        Err(InvalidPlanes {
            square,
            code: byte_at(&self.0, square),
        })
    }
}

/// The byte whose bit `k` is bit `square` of `boards[k]` (one column of the transposition).
const fn byte_at(boards: &[u64; 8], square: u8) -> u8 {
    let mut byte = 0;
    let mut k = 0;
    while k < 8 {
        byte |= (((boards[k] >> square) & 1) as u8) << k;
        k += 1;
    }
    byte
}

/// The bitboards an engine keeps: one per piece kind and one per colour, in
/// the one-hot layout (module docs) so that one zmm register holds them all
/// and the AVX-512 transposition writes them without a scalar decode.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[repr(C, align(64))]
pub struct PieceBitboards {
    /// Pawns, knights, bishops, rooks, queens, kings (both colours), in
    /// [`PieceKind::ALL`] order: one-hot bits 0-5.
    pub by_kind: [Bitboard; 6],
    /// White pieces, black pieces ([`Color`] order): one-hot bits 6 and 7.
    pub by_color: [Bitboard; 2],
}

// The AVX-512 kernels load and store the struct as one aligned zmm.
const _: () = assert!(
    size_of::<PieceBitboards>() == 64 && align_of::<PieceBitboards>() == 64,
    "PieceBitboards must be exactly one aligned zmm"
);

impl PieceBitboards {
    /// From the bit-planes of the code: each kind is an and of the three kind
    /// planes (each possibly inverted); black is plane 3, white the rest of
    /// the occupancy. Assumes valid planes (see [`Planes::validate`]).
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
        }
    }

    /// The eight boards as one-hot bit `i` -> element `i` (pawns .. kings, white, black).
    pub const fn to_array(&self) -> [u64; 8] {
        let [p, n, b, r, q, k] = self.by_kind;
        let [w, bl] = self.by_color;
        [p.0, n.0, b.0, r.0, q.0, k.0, w.0, bl.0]
    }

    /// The boards from [`Self::to_array`]'s order; any bits are accepted
    /// (check them with [`Self::validate`] or [`from_bitboards`]).
    pub const fn from_array(boards: [u64; 8]) -> PieceBitboards {
        let [p, n, b, r, q, k, w, bl] = boards;
        PieceBitboards {
            by_kind: [
                Bitboard(p),
                Bitboard(n),
                Bitboard(b),
                Bitboard(r),
                Bitboard(q),
                Bitboard(k),
            ],
            by_color: [Bitboard(w), Bitboard(bl)],
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

    /// Every occupied square (white or black; equal to the union of the
    /// kinds when the boards are valid).
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.by_color[0].0 | self.by_color[1].0)
    }

    /// The squares whose one-hot byte is no piece's: two kinds, both
    /// colours, or a kind and a colour not both present.
    pub const fn invalid_squares(&self) -> u64 {
        // `two`: squares on at least two kind boards; `any`: on at least one.
        let (mut any, mut two) = (0u64, 0u64);
        let mut i = 0;
        while i < 6 {
            two |= any & self.by_kind[i].0;
            any |= self.by_kind[i].0;
            i += 1;
        }
        let [white, black] = [self.by_color[0].0, self.by_color[1].0];
        two | (white & black) | ((white | black) ^ any)
    }

    /// `Ok` if every square holds nothing or one piece, else the first bad square.
    pub fn validate(&self) -> Result<(), InvalidBitboards> {
        match self.invalid_squares() {
            0 => Ok(()),
            bad => Err(self.error_at(bad.trailing_zeros() as u8)),
        }
    }

    /// The error for `square` (which must be invalid).
    #[cold]
    pub(crate) fn error_at(&self, square: u8) -> InvalidBitboards {
        let byte = byte_at(&self.to_array(), square);
        debug_assert!(from_one_hot(byte).is_none());
        InvalidBitboards { square, byte }
    }
}

/// Why a set of [`PieceBitboards`] is no board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct InvalidBitboards {
    /// The first square (lowest index) with an invalid one-hot byte.
    pub square: u8,
    /// That square's one-hot byte (bit `i` = board `i` of [`PieceBitboards::to_array`]).
    pub byte: u8,
}

impl fmt::Display for InvalidBitboards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (kinds, colors) = (
            (self.byte & 0x3F).count_ones(),
            (self.byte >> 6).count_ones(),
        );
        let why = if kinds > 1 {
            "more than one kind"
        } else if colors > 1 {
            "both colours"
        } else if kinds == 1 {
            "a kind without a colour"
        } else {
            "a colour without a kind"
        };
        write!(
            f,
            "the bitboards give square {} the one-hot byte {:#04x}: {why} \
             (bits 0-5 pawn..king, bit 6 white, bit 7 black; a square holds \
             exactly one kind and one colour, or nothing)",
            self.square, self.byte
        )
    }
}

impl std::error::Error for InvalidBitboards {}

/// The one-hot byte of a piece (module docs): bit `kind - 1`, plus bit 6
/// for white or bit 7 for black; 0 for [`Piece::NONE`].
pub const fn one_hot(piece: Piece) -> u8 {
    match (piece.kind(), piece.color()) {
        (Some(kind), Some(color)) => (1 << (kind as u8 - 1)) | (1 << (6 + color as u8)),
        _ => 0,
    }
}

/// The piece of a one-hot byte, or `None` if the byte is no piece's.
pub const fn from_one_hot(byte: u8) -> Option<Piece> {
    let (kinds, colors) = (byte & 0x3F, byte >> 6);
    if byte == 0 {
        Some(Piece::NONE)
    } else if kinds.count_ones() == 1 && colors.count_ones() == 1 {
        let color = [Color::White, Color::Black][(colors >> 1) as usize];
        Some(Piece::new(
            color,
            PieceKind::ALL[kinds.trailing_zeros() as usize],
        ))
    } else {
        None
    }
}

/// [`one_hot`] of every byte 0..16 taken as a piece code (0 for the bytes
/// that are no code): the `vpshufb` table.
pub(crate) const ONE_HOT_OF_CODE: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut c = 0;
    while c < 16 {
        if let Some(p) = Piece::from_code(c as u8) {
            t[c] = one_hot(p);
        }
        c += 1;
    }
    t
};

/// The part of the piece code that one-hot bit `i` stands for: the white
/// piece's code for the kind bits 0-5, nothing for white (bit 6), and what
/// black adds for bit 7. The code keeps kind and colour in separate bits, so
/// a valid byte's code is the xor of its two bits' entries: one-hot -> code
/// is linear over GF(2) (checked at compile time for every piece below).
pub(crate) const CODE_OF_BIT: [u8; 8] = {
    let white_pawn = Piece::new(Color::White, PieceKind::Pawn).code();
    let mut t = [0u8; 8];
    let mut i = 0;
    while i < 6 {
        t[i] = Piece::new(Color::White, PieceKind::ALL[i]).code();
        i += 1;
    }
    t[7] = Piece::new(Color::Black, PieceKind::Pawn).code() ^ white_pawn;
    t
};

/// The code of a one-hot byte by [`CODE_OF_BIT`] (exact for valid bytes only).
pub(crate) const fn code_of_one_hot(byte: u8) -> u8 {
    let (mut code, mut i) = (0, 0);
    while i < 8 {
        if (byte >> i) & 1 != 0 {
            code ^= CODE_OF_BIT[i];
        }
        i += 1;
    }
    code
}

// The tables agree with the encoding: every byte 0..16 that is a piece code
// maps to a one-hot byte and back, through the table and the linear map.
const _: () = {
    let mut c = 0u8;
    while c < 16 {
        if Piece::from_code(c).is_some() {
            let h = ONE_HOT_OF_CODE[c as usize];
            assert!(code_of_one_hot(h) == c);
            assert!(matches!(from_one_hot(h), Some(q) if q.code() == c));
        }
        c += 1;
    }
};

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

/// `$avx512` with the [`MailboxAvx512`] token bound to `$t` where this CPU
/// has it (a cached feature check), else `$scalar`.
macro_rules! avx512_or_scalar {
    (|$t:ident| $avx512:expr, $scalar:expr) => {{
        #[cfg(target_arch = "x86_64")]
        if let Some($t) = MailboxAvx512::new() {
            return $avx512;
        }
        $scalar
    }};
}

/// Mailbox to per-kind and per-colour bitboards, with AVX-512 if this CPU
/// has it, else [`scalar::to_bitboards`]. What an engine should call.
pub fn to_bitboards(mailbox: &[Piece; 64]) -> PieceBitboards {
    avx512_or_scalar!(|t| t.to_bitboards(mailbox), scalar::to_bitboards(mailbox))
}

/// Per-kind and per-colour bitboards to mailbox, with AVX-512 if this CPU
/// has it, else [`scalar::from_bitboards`]. Errors on boards that are no
/// position's (the first square with two kinds, both colours, or a kind
/// and a colour not both present).
pub fn from_bitboards(boards: &PieceBitboards) -> Result<[Piece; 64], InvalidBitboards> {
    avx512_or_scalar!(|t| t.from_bitboards(boards), scalar::from_bitboards(boards))
}

/// Mailbox to planes, with AVX-512 if this CPU has it, else [`scalar::to_planes`].
pub fn to_planes(mailbox: &[Piece; 64]) -> Planes {
    avx512_or_scalar!(|t| t.to_planes(mailbox), scalar::to_planes(mailbox))
}

/// Planes to mailbox, with AVX-512 if this CPU has it, else [`scalar::to_mailbox`].
/// Errors on planes that are no board.
pub fn to_mailbox(planes: &Planes) -> Result<[Piece; 64], InvalidPlanes> {
    avx512_or_scalar!(|t| t.to_mailbox(planes), scalar::to_mailbox(planes))
}
