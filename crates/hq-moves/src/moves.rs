//! [`Move`]: from, to and kind in 16 bits.

use core::fmt;
use hq_core::Square;
use hq_core::piece::PieceKind;

/// What a move does besides carrying a piece from one square to another.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// To an empty square.
    Quiet,
    /// A pawn two squares from its start rank (opens en passant for one ply).
    DoublePush,
    /// King e1-g1 or e8-g8; the rook goes h1-f1 or h8-f8.
    CastleKingside,
    /// King e1-c1 or e8-c8; the rook goes a1-d1 or a8-d8.
    CastleQueenside,
    /// To a square holding an enemy piece.
    Capture,
    /// A pawn captures the pawn that just double-pushed past it: the captured
    /// pawn is *not* on the to-square but beside the from-square.
    EnPassant,
    /// A pawn reaches the last rank on an empty square and becomes this piece.
    Promotion(PieceKind),
    /// A pawn captures onto the last rank and becomes this piece.
    PromotionCapture(PieceKind),
}

impl MoveKind {
    /// The 4-bit code: 0 quiet, 1 double push, 2 O-O, 3 O-O-O, 4 capture,
    /// 5 en passant, 8-11 promotion to N B R Q, 12-15 the same with capture.
    const fn code(self) -> u16 {
        match self {
            MoveKind::Quiet => 0,
            MoveKind::DoublePush => 1,
            MoveKind::CastleKingside => 2,
            MoveKind::CastleQueenside => 3,
            MoveKind::Capture => 4,
            MoveKind::EnPassant => 5,
            MoveKind::Promotion(k) => 8 + promotion_index(k),
            MoveKind::PromotionCapture(k) => 12 + promotion_index(k),
        }
    }

    const fn from_code(code: u16) -> MoveKind {
        match code & 15 {
            0 => MoveKind::Quiet,
            1 => MoveKind::DoublePush,
            2 => MoveKind::CastleKingside,
            3 => MoveKind::CastleQueenside,
            4 => MoveKind::Capture,
            5 => MoveKind::EnPassant,
            c @ 8..=11 => MoveKind::Promotion(PROMOTIONS[(c - 8) as usize]),
            c @ 12..=15 => MoveKind::PromotionCapture(PROMOTIONS[(c - 12) as usize]),
            // 6 and 7 are never stored: `Move::new` only writes codes from `code`.
            _ => MoveKind::Quiet,
        }
    }
}

/// The pieces a pawn may become, in code order.
pub(crate) const PROMOTIONS: [PieceKind; 4] = [
    PieceKind::Knight,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Queen,
];

/// Index into [`PROMOTIONS`]; pawn and king (not allowed) map to the queen's
/// slot, and [`Move::new`] rejects them before this is reached.
const fn promotion_index(kind: PieceKind) -> u16 {
    match kind {
        PieceKind::Knight => 0,
        PieceKind::Bishop => 1,
        PieceKind::Rook => 2,
        _ => 3,
    }
}

/// A move in 16 bits: bits 0-5 from, 6-11 to, 12-15 the [`MoveKind`] code.
///
/// The captured piece is not stored: [`crate::Position::make`] returns it in
/// the [`crate::Undo`].
///
/// ```
/// use hq_core::Square;
/// use hq_moves::{Move, MoveKind};
/// let mv = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
/// assert_eq!((mv.from(), mv.to(), mv.kind()), (Square::E2, Square::E4, MoveKind::DoublePush));
/// assert_eq!(mv.to_string(), "e2e4");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

impl Move {
    /// The move. Promotions to a pawn or a king are stored as queen promotions;
    /// use [`Move::try_new`] to have them rejected.
    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from as u16 | (to as u16) << 6 | kind.code() << 12)
    }

    /// The move, or `None` for a promotion to a pawn or a king.
    pub const fn try_new(from: Square, to: Square, kind: MoveKind) -> Option<Move> {
        match kind {
            MoveKind::Promotion(PieceKind::Pawn | PieceKind::King)
            | MoveKind::PromotionCapture(PieceKind::Pawn | PieceKind::King) => None,
            _ => Some(Move::new(from, to, kind)),
        }
    }

    /// The square the moving piece leaves.
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index_masked(self.0 as u8)
    }

    /// The square the moving piece arrives on.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index_masked((self.0 >> 6) as u8)
    }

    /// The kind.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        MoveKind::from_code(self.0 >> 12)
    }

    /// The raw 16 bits.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Whether an enemy piece is removed (captures, en passant, promotion captures).
    #[inline]
    pub const fn is_capture(self) -> bool {
        matches!(
            self.kind(),
            MoveKind::Capture | MoveKind::EnPassant | MoveKind::PromotionCapture(_)
        )
    }

    /// The square of the captured piece: the to-square, except for en
    /// passant (the square beside the from-square), `None` if nothing is captured.
    #[inline]
    pub const fn captured_square(self) -> Option<Square> {
        match self.kind() {
            MoveKind::Capture | MoveKind::PromotionCapture(_) => Some(self.to()),
            MoveKind::EnPassant => Some(en_passant_victim(self.from(), self.to())),
            _ => None,
        }
    }

    /// The piece a pawn becomes, for promotions.
    #[inline]
    pub const fn promotion(self) -> Option<PieceKind> {
        match self.kind() {
            MoveKind::Promotion(k) | MoveKind::PromotionCapture(k) => Some(k),
            _ => None,
        }
    }

    /// The rook's `(from, to)` for castling moves, derived from the king's to-square.
    #[inline]
    pub const fn castling_rook(self) -> Option<(Square, Square)> {
        match self.kind() {
            MoveKind::CastleKingside | MoveKind::CastleQueenside => {
                Some(castling_rook_squares(self.to()))
            }
            _ => None,
        }
    }
}

/// The pawn taken en passant: on the to-square's file and the from-square's rank.
#[inline]
pub(crate) const fn en_passant_victim(from: Square, to: Square) -> Square {
    Square::from_index_masked((from as u8 & 56) | (to as u8 & 7))
}

/// The rook's squares for a castling king landing on `king_to` (g1, c1, g8 or c8).
#[inline]
pub(crate) const fn castling_rook_squares(king_to: Square) -> (Square, Square) {
    let base = king_to as u8 & 56;
    if king_to as u8 & 7 == 6 {
        (
            Square::from_index_masked(base + 7),
            Square::from_index_masked(base + 5),
        )
    } else {
        (
            Square::from_index_masked(base),
            Square::from_index_masked(base + 3),
        )
    }
}

impl fmt::Display for Move {
    /// UCI notation: `e2e4`, `e7e8q`, castling as the king's move (`e1g1`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(k) = self.promotion() {
            write!(f, "{}", k.letter().to_ascii_lowercase())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self}, {:?})", self.kind())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_round_trips_through_sixteen_bits() {
        let mut kinds = vec![
            MoveKind::Quiet,
            MoveKind::DoublePush,
            MoveKind::CastleKingside,
            MoveKind::CastleQueenside,
            MoveKind::Capture,
            MoveKind::EnPassant,
        ];
        for k in PROMOTIONS {
            kinds.push(MoveKind::Promotion(k));
            kinds.push(MoveKind::PromotionCapture(k));
        }
        for from in Square::ALL {
            for to in [Square::A1, Square::H8, Square::E4] {
                for &kind in &kinds {
                    let mv = Move::new(from, to, kind);
                    assert_eq!((mv.from(), mv.to(), mv.kind()), (from, to, kind));
                }
            }
        }
        assert_eq!(
            Move::try_new(Square::E7, Square::E8, MoveKind::Promotion(PieceKind::King)),
            None
        );
    }

    #[test]
    fn special_squares() {
        let ep = Move::new(Square::E5, Square::D6, MoveKind::EnPassant);
        assert_eq!(ep.captured_square(), Some(Square::D5));
        let oo = Move::new(Square::E8, Square::G8, MoveKind::CastleKingside);
        assert_eq!(oo.castling_rook(), Some((Square::H8, Square::F8)));
        let ooo = Move::new(Square::E1, Square::C1, MoveKind::CastleQueenside);
        assert_eq!(ooo.castling_rook(), Some((Square::A1, Square::D1)));
        let promo = Move::new(
            Square::B7,
            Square::A8,
            MoveKind::PromotionCapture(PieceKind::Knight),
        );
        assert_eq!(promo.to_string(), "b7a8n");
        assert_eq!(promo.captured_square(), Some(Square::A8));
    }
}
