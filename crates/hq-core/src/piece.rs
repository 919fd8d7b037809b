//! The piece encoding shared by every crate that keeps a mailbox
//! (`[Piece; 64]`), defined once here.
//!
//! A piece is one byte: bits 0-2 the kind (0 = empty, 1 = pawn, 2 = knight,
//! 3 = bishop, 4 = rook, 5 = queen, 6 = king), bit 3 the colour (0 = white,
//! 1 = black); bits 4-7 are always zero. So a mailbox transposes into eight
//! bit-planes of which only the low four can be non-empty: plane k holds the
//! squares whose piece byte has bit k set.

/// White or black.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Color {
    /// White, colour bit 0.
    White = 0,
    /// Black, colour bit 1.
    Black = 1,
}

impl Color {
    /// The other colour.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// The kind of a piece, numbered as in the piece byte (1..=6).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum PieceKind {
    /// 1
    Pawn = 1,
    /// 2
    Knight = 2,
    /// 3
    Bishop = 3,
    /// 4
    Rook = 4,
    /// 5
    Queen = 5,
    /// 6
    King = 6,
}

impl PieceKind {
    /// All six kinds, pawn first.
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ];

    /// FEN letter in upper case (`P`, `N`, `B`, `R`, `Q`, `K`).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::Pawn => 'P',
            PieceKind::Knight => 'N',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            PieceKind::Queen => 'Q',
            PieceKind::King => 'K',
        }
    }
}

/// A mailbox entry: a coloured piece or [`Piece::NONE`]. See the module docs for the bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[repr(transparent)]
pub struct Piece(u8);

impl Piece {
    /// The empty square, byte 0.
    pub const NONE: Piece = Piece(0);

    /// The piece of `kind` and `color`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(((color as u8) << 3) | kind as u8)
    }

    /// The piece for a byte, or `None` if the byte is no valid code.
    #[inline]
    pub const fn from_code(code: u8) -> Option<Piece> {
        let kind = code & 7;
        if code == 0 || (code >> 4 == 0 && kind >= 1 && kind <= 6) {
            Some(Piece(code))
        } else {
            None
        }
    }

    /// The byte.
    #[inline]
    pub const fn code(self) -> u8 {
        self.0
    }

    /// Whether this is [`Piece::NONE`].
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The colour, or `None` for an empty square.
    #[inline]
    pub const fn color(self) -> Option<Color> {
        if self.0 == 0 {
            None
        } else if self.0 & 8 == 0 {
            Some(Color::White)
        } else {
            Some(Color::Black)
        }
    }

    /// The kind, or `None` for an empty square.
    #[inline]
    pub const fn kind(self) -> Option<PieceKind> {
        match self.0 & 7 {
            1 => Some(PieceKind::Pawn),
            2 => Some(PieceKind::Knight),
            3 => Some(PieceKind::Bishop),
            4 => Some(PieceKind::Rook),
            5 => Some(PieceKind::Queen),
            6 => Some(PieceKind::King),
            _ => None,
        }
    }

    /// The FEN letter (upper case for white), or `None` for an empty square.
    pub fn fen_char(self) -> Option<char> {
        let kind = self.kind()?;
        let c = kind.letter();
        Some(if self.color() == Some(Color::Black) {
            c.to_ascii_lowercase()
        } else {
            c
        })
    }

    /// The piece for a FEN letter (`PNBRQK` white, `pnbrqk` black).
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let kind = match c.to_ascii_uppercase() {
            'P' => PieceKind::Pawn,
            'N' => PieceKind::Knight,
            'B' => PieceKind::Bishop,
            'R' => PieceKind::Rook,
            'Q' => PieceKind::Queen,
            'K' => PieceKind::King,
            _ => return None,
        };
        Some(Piece::new(color, kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for color in [Color::White, Color::Black] {
            for kind in PieceKind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!(Piece::from_code(p.code()), Some(p));
                assert_eq!((p.color(), p.kind()), (Some(color), Some(kind)));
                assert_eq!(Piece::from_fen_char(p.fen_char().unwrap()), Some(p));
                assert!(p.code() < 16);
            }
        }
        assert_eq!(Piece::from_code(0), Some(Piece::NONE));
        assert_eq!(Piece::from_code(7), None);
        assert_eq!(Piece::from_code(0x10 | 1), None);
        assert_eq!(Piece::from_fen_char('x'), None);
    }
}
