//! [`Position`]: the mailbox and the game state, with make/unmake.

use crate::moves::{castling_rook_squares, en_passant_victim};
use crate::{Move, MoveKind};
use core::fmt;
use hq_core::Square;
use hq_core::piece::{Color, Piece, PieceKind};

/// Which castlings are still allowed: bit 0 white O-O, bit 1 white O-O-O,
/// bit 2 black O-O, bit 3 black O-O-O.
///
/// A right implies its king and rook are on their home squares: rights are
/// only granted by a FEN that has them there, and lost when either moves or
/// the rook is captured.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct CastlingRights(pub u8);

impl CastlingRights {
    /// All four rights.
    pub const ALL: CastlingRights = CastlingRights(15);

    /// The bit of one right.
    #[inline]
    pub const fn bit(color: Color, kingside: bool) -> u8 {
        1 << ((color as u8) * 2 + if kingside { 0 } else { 1 })
    }

    /// Whether `color` may still castle on that side.
    #[inline]
    pub const fn has(self, color: Color, kingside: bool) -> bool {
        self.0 & CastlingRights::bit(color, kingside) != 0
    }
}

/// The rights kept when a piece leaves or arrives on each square: moving the
/// king or a rook, or capturing on a rook's home square, clears rights.
const CASTLING_KEEP: [u8; 64] = {
    let mut keep = [15u8; 64];
    keep[Square::E1 as usize] = 15 & !3;
    keep[Square::H1 as usize] = 15 & !1;
    keep[Square::A1 as usize] = 15 & !2;
    keep[Square::E8 as usize] = 15 & !12;
    keep[Square::H8 as usize] = 15 & !4;
    keep[Square::A8 as usize] = 15 & !8;
    keep
};

/// What [`Position::unmake`] needs that the move does not say.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Undo {
    /// The piece removed by the move ([`Piece::NONE`] if none).
    pub captured: Piece,
    /// The castling rights before the move.
    pub castling: CastlingRights,
    /// The en-passant square before the move.
    pub en_passant: Option<Square>,
}

/// A mailbox position: pieces, side to move, castling rights, en-passant square.
///
/// Invariant: exactly one king per side, and castling rights only with king
/// and rook at home. [`Position::from_fen`] checks it; [`Position::make`]
/// keeps it for moves that pass [`Position::check_move`].
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    board: [Piece; 64],
    side: Color,
    castling: CastlingRights,
    en_passant: Option<Square>,
    kings: [Square; 2],
}

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// The standard start position.
    pub fn start() -> Position {
        Position::from_fen(START_FEN).expect("the start position is valid")
    }

    /// The piece on `sq` ([`Piece::NONE`] if empty).
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board[sq as usize]
    }

    /// The whole mailbox, a1 first.
    #[inline]
    pub fn pieces(&self) -> &[Piece; 64] {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The castling rights.
    #[inline]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// The square a pawn passed over with a double push on the last ply, if any.
    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// Where `color`'s king stands.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.kings[color as usize]
    }

    /// The occupied squares, computed from the mailbox.
    pub fn occupancy(&self) -> u64 {
        self.board
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.is_none())
            .fold(0, |acc, (i, _)| acc | 1 << i)
    }

    /// Checks that `mv` fits this position well enough for `make` to keep
    /// every invariant: the mover is the side to move's piece, the to-square
    /// is empty or holds what the kind says, special moves find their pieces.
    /// It does not check that the piece can reach the to-square; see
    /// [`Position::is_pseudo_legal`] for that.
    pub fn check_move(&self, mv: Move) -> Result<(), MoveError> {
        let err = |reason| {
            Err(MoveError {
                mv,
                reason,
                fen: self.to_fen(),
            })
        };
        let (from, to) = (mv.from(), mv.to());
        let mover = self.piece_at(from);
        if mover.color() != Some(self.side) {
            return err("the from-square holds no piece of the side to move");
        }
        if from == to {
            return err("from- and to-square are the same");
        }
        let target = self.piece_at(to);
        let is_pawn = mover.kind() == Some(PieceKind::Pawn);
        match mv.kind() {
            MoveKind::Quiet
            | MoveKind::DoublePush
            | MoveKind::Promotion(_)
            | MoveKind::EnPassant
                if !target.is_none() =>
            {
                err("the to-square of a non-capturing move is occupied")
            }
            MoveKind::Capture | MoveKind::PromotionCapture(_)
                if target.color() != Some(self.side.opposite()) =>
            {
                err("a capture's to-square holds no enemy piece")
            }
            MoveKind::Capture | MoveKind::PromotionCapture(_)
                if target.kind() == Some(PieceKind::King) =>
            {
                err("kings are never captured")
            }
            MoveKind::DoublePush
            | MoveKind::EnPassant
            | MoveKind::Promotion(_)
            | MoveKind::PromotionCapture(_)
                if !is_pawn =>
            {
                err("only pawns double-push, capture en passant or promote")
            }
            MoveKind::Promotion(_) | MoveKind::PromotionCapture(_)
                if to.rank() != last_rank(self.side) =>
            {
                err("a promotion must reach the last rank")
            }
            MoveKind::Promotion(k) | MoveKind::PromotionCapture(k)
                if matches!(k, PieceKind::Pawn | PieceKind::King) =>
            {
                err("a pawn cannot become a pawn or a king")
            }
            MoveKind::EnPassant
                if self.en_passant != Some(to)
                    || self.piece_at(en_passant_victim(from, to))
                        != Piece::new(self.side.opposite(), PieceKind::Pawn) =>
            {
                err("en passant needs the square just passed by an enemy pawn's double push")
            }
            MoveKind::CastleKingside | MoveKind::CastleQueenside => {
                let kingside = mv.kind() == MoveKind::CastleKingside;
                let home = if self.side == Color::White {
                    Square::E1
                } else {
                    Square::E8
                };
                let king_to =
                    Square::from_index_masked(home as u8 - 4 + if kingside { 6 } else { 2 });
                let (rook_from, _) = castling_rook_squares(king_to);
                let between = squares_between(home, rook_from);
                if from != home || to != king_to || !self.castling.has(self.side, kingside) {
                    err(
                        "castling needs the right, the king's home square and its g- or c-file target",
                    )
                } else if between & self.occupancy() != 0 {
                    err("castling needs the squares between king and rook empty")
                } else {
                    Ok(())
                }
            }
            _ => Ok(()),
        }
    }

    /// Whether `mv` is among [`Position::pseudo_legal_moves`] (slow: generates them all).
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        let mut moves = Vec::new();
        self.pseudo_legal_moves(&mut moves);
        moves.contains(&mv)
    }

    /// Plays `mv` and returns what [`Position::unmake`] needs.
    ///
    /// `mv` must pass [`Position::check_move`] (checked in debug builds; use
    /// [`Position::try_make`] for moves from outside).
    pub fn make(&mut self, mv: Move) -> Undo {
        debug_assert_eq!(self.check_move(mv), Ok(()));
        let (from, to) = (mv.from(), mv.to());
        let mover = self.board[from as usize];
        let mut undo = Undo {
            captured: Piece::NONE,
            castling: self.castling,
            en_passant: self.en_passant,
        };
        if let Some(victim) = mv.captured_square() {
            undo.captured = self.board[victim as usize];
            self.board[victim as usize] = Piece::NONE;
        }
        self.board[from as usize] = Piece::NONE;
        self.board[to as usize] = match mv.promotion() {
            Some(kind) => Piece::new(self.side, kind),
            None => mover,
        };
        if let Some((rook_from, rook_to)) = mv.castling_rook() {
            self.board[rook_to as usize] = self.board[rook_from as usize];
            self.board[rook_from as usize] = Piece::NONE;
        }
        if mover.kind() == Some(PieceKind::King) {
            self.kings[self.side as usize] = to;
        }
        self.castling.0 &= CASTLING_KEEP[from as usize] & CASTLING_KEEP[to as usize];
        self.en_passant = match mv.kind() {
            MoveKind::DoublePush => Some(Square::from_index_masked((from as u8 + to as u8) / 2)),
            _ => None,
        };
        self.side = self.side.opposite();
        undo
    }

    /// [`Position::make`] after [`Position::check_move`].
    pub fn try_make(&mut self, mv: Move) -> Result<Undo, MoveError> {
        self.check_move(mv)?;
        Ok(self.make(mv))
    }

    /// Takes back `mv`, which must be the last move made, with its `undo`.
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        self.side = self.side.opposite();
        self.castling = undo.castling;
        self.en_passant = undo.en_passant;
        let (from, to) = (mv.from(), mv.to());
        let arrived = self.board[to as usize];
        let mover = if mv.promotion().is_some() {
            Piece::new(self.side, PieceKind::Pawn)
        } else {
            arrived
        };
        if let Some((rook_from, rook_to)) = mv.castling_rook() {
            self.board[rook_from as usize] = self.board[rook_to as usize];
            self.board[rook_to as usize] = Piece::NONE;
        }
        self.board[to as usize] = Piece::NONE;
        self.board[from as usize] = mover;
        if let Some(victim) = mv.captured_square() {
            self.board[victim as usize] = undo.captured;
        }
        if mover.kind() == Some(PieceKind::King) {
            self.kings[self.side as usize] = from;
        }
    }

    /// Parses the first four fields of a FEN (the move counters may follow and are ignored).
    ///
    /// Rejects what would break the invariants: not exactly one king per
    /// side, pawns on the first or last rank, castling rights without king
    /// and rook at home, an en-passant square no double push can have made.
    ///
    /// ```
    /// use hq_moves::Position;
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// assert_eq!(Position::from_fen(kiwipete).unwrap().to_fen(), kiwipete);
    /// assert!(Position::from_fen("8/8/8/8/8/8/8/8 w - -").is_err());
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let err = |reason: String| {
            Err(FenError {
                fen: fen.into(),
                reason,
            })
        };
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 4 || fields.len() > 6 {
            return err(format!(
                "expected 4 to 6 space-separated fields, found {}",
                fields.len()
            ));
        }
        let mut board = [Piece::NONE; 64];
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return err(format!(
                "the placement has {} ranks, expected 8",
                ranks.len()
            ));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            for c in rank_text.chars() {
                if let Some(skip) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += skip as u8;
                } else if let Some(piece) = Piece::from_fen_char(c) {
                    if file < 8 {
                        board[(rank * 8 + file) as usize] = piece;
                    }
                    file += 1;
                } else {
                    return err(format!("unexpected character {c:?} in the placement"));
                }
            }
            if file != 8 {
                return err(format!(
                    "rank {} describes {file} squares, expected 8",
                    rank + 1
                ));
            }
        }
        let mut kings = [Square::A1; 2];
        for color in [Color::White, Color::Black] {
            let king = Piece::new(color, PieceKind::King);
            let squares: Vec<Square> = Square::ALL
                .into_iter()
                .filter(|&s| board[s as usize] == king)
                .collect();
            match squares[..] {
                [sq] => kings[color as usize] = sq,
                _ => {
                    return err(format!(
                        "{color:?} has {} kings, expected exactly one",
                        squares.len()
                    ));
                }
            }
        }
        if Square::ALL.iter().any(|s| {
            matches!(s.rank(), 0 | 7) && board[*s as usize].kind() == Some(PieceKind::Pawn)
        }) {
            return err("a pawn stands on the first or last rank".into());
        }
        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return err(format!("side to move {other:?}, expected w or b")),
        };
        let mut castling = CastlingRights(0);
        if fields[2] != "-" {
            for c in fields[2].chars() {
                let (color, kingside) = match c {
                    'K' => (Color::White, true),
                    'Q' => (Color::White, false),
                    'k' => (Color::Black, true),
                    'q' => (Color::Black, false),
                    _ => {
                        return err(format!(
                            "castling field has {c:?}, expected letters of KQkq or -"
                        ));
                    }
                };
                let base = if color == Color::White { 0u8 } else { 56 };
                let rook_sq = Square::from_index_masked(base + if kingside { 7 } else { 0 });
                if board[base as usize + 4] != Piece::new(color, PieceKind::King)
                    || board[rook_sq as usize] != Piece::new(color, PieceKind::Rook)
                {
                    return err(format!(
                        "castling right {c} without king and rook on their home squares"
                    ));
                }
                castling.0 |= CastlingRights::bit(color, kingside);
            }
        }
        let en_passant = match fields[3] {
            "-" => None,
            text => {
                let sq: Square = text.parse().map_err(|e| FenError {
                    fen: fen.into(),
                    reason: format!("{e}"),
                })?;
                // The pawn that passed `sq` stands one rank further from its home.
                let (expected_rank, step): (u8, i8) = if side == Color::White {
                    (5, -1)
                } else {
                    (2, 1)
                };
                let pusher = sq.offset(0, step).map(|s| board[s as usize]);
                if sq.rank() != expected_rank
                    || !board[sq as usize].is_none()
                    || pusher != Some(Piece::new(side.opposite(), PieceKind::Pawn))
                {
                    return err(format!(
                        "en-passant square {sq} does not follow a double push"
                    ));
                }
                Some(sq)
            }
        };
        Ok(Position {
            board,
            side,
            castling,
            en_passant,
            kings,
        })
    }

    /// The FEN of the position, with move counters `0 1`.
    pub fn to_fen(&self) -> String {
        let mut fen = String::new();
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                match self.board[(rank * 8 + file) as usize].fen_char() {
                    Some(c) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        let rights: String = ['K', 'Q', 'k', 'q']
            .iter()
            .enumerate()
            .filter(|(i, _)| self.castling.0 >> i & 1 != 0)
            .map(|(_, c)| c)
            .collect();
        fen.push_str(if rights.is_empty() { "-" } else { &rights });
        match self.en_passant {
            Some(sq) => fen.push_str(&format!(" {sq} 0 1")),
            None => fen.push_str(" - 0 1"),
        }
        fen
    }
}

/// The rank index a pawn of `color` promotes on.
#[inline]
pub(crate) const fn last_rank(color: Color) -> u8 {
    match color {
        Color::White => 7,
        Color::Black => 0,
    }
}

/// The squares strictly between two squares of one rank.
const fn squares_between(a: Square, b: Square) -> u64 {
    let (lo, hi) = if (a as u8) < (b as u8) {
        (a as u8, b as u8)
    } else {
        (b as u8, a as u8)
    };
    ((1u64 << hi) - 1) & !((1u64 << (lo + 1)) - 1)
}

/// A move that does not fit the position it was made in.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveError {
    /// The move.
    pub mv: Move,
    /// Why it does not fit.
    pub reason: &'static str,
    /// The position, as FEN.
    pub fen: String,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} ({:?}) does not fit position {}: {}",
            self.mv,
            self.mv.kind(),
            self.fen,
            self.reason
        )
    }
}

impl std::error::Error for MoveError {}

/// A FEN that could not be parsed or breaks the position's invariants.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FenError {
    /// The text given.
    pub fen: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad FEN {:?}: {}", self.fen, self.reason)
    }
}

impl std::error::Error for FenError {}
