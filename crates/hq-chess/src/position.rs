//! [`Position`]: a validated position, read from and written as FEN.

use crate::board::{Board, CastlingRules, KING, PAWN, ROOK};
use crate::movegen::{ListSink, generate_any};
use crate::tables::{BACK_RANKS, BETWEEN, BISHOP_LINES, KNIGHT, PAWN_ATTACKS, ROOK_LINES};
use crate::{Move, MoveKind, MoveList};
use core::fmt;
use core::str::FromStr;
use hq_core::SliderAttacks;
use hq_core::Square;
use hq_core::piece::{Color, Piece, PieceKind};

/// The FEN of the initial position.
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A chess position that move generation is well defined for.
///
/// Made by [`Position::from_fen`] (or [`FromStr`]), which rejects anything
/// that would leave move generation ill-defined, but accepts positions that
/// are well-formed yet unreachable in a game (two checking pawns, nine
/// queens, the 218-move position).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) rules: CastlingRules,
    halfmove: u32,
    fullmove: u32,
}

/// Why a FEN string was rejected: one variant per kind of bad input.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// Not 6 fields (4, without the move counters, is accepted too).
    FieldCount(usize),
    /// The placement does not have 8 ranks separated by `/`.
    RankCount(usize),
    /// A rank (1..=8) does not cover exactly 8 files.
    RankLength {
        /// The rank, 1..=8.
        rank: u8,
        /// How many files it covers (counted up to the first excess).
        files: usize,
    },
    /// A character in the placement that is no piece letter or digit 1-8.
    BadPiece {
        /// The rank, 1..=8.
        rank: u8,
        /// The character.
        found: char,
    },
    /// The side to move is not `w` or `b`.
    BadSide(String),
    /// A castling character that is none of `KQkq`, `A`-`H`, `a`-`h` (or `-` alone).
    BadCastlingChar(char),
    /// The same castling right (colour and wing) given twice.
    DuplicateCastling(char),
    /// A castling right whose king is not on its back rank.
    CastlingWithoutKing(char),
    /// A castling right with no rook of that colour where it says.
    CastlingWithoutRook(char),
    /// The en-passant field is not `-` or a square name.
    BadEnPassant(String),
    /// An en-passant square that no double push can have made.
    ImpossibleEnPassant {
        /// The square given.
        square: Square,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The halfmove clock is not a number.
    BadHalfmoveClock(String),
    /// The fullmove number is not a number.
    BadFullmoveNumber(String),
    /// A colour has no king.
    MissingKing(Color),
    /// A colour has more than one king.
    TooManyKings(Color),
    /// A pawn on rank 1 or 8.
    PawnOnBackRank(Square),
    /// More material than one side's 16 men can make: more than 8 pawns,
    /// more than 16 pieces, or more promoted pieces than missing pawns.
    /// (This is what bounds the move count at the 218 of the known maximum.)
    TooMuchMaterial(Color),
    /// The side that is not to move is in check (its king could be taken).
    OpponentInCheck,
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A move that is not legal in the position it was given for
/// ([`Position::parse_uci`], [`Position::try_play`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct IllegalMove {
    /// The move as written (UCI).
    pub uci: String,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a legal move in this position", self.uci)
    }
}

impl std::error::Error for IllegalMove {}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(
                f,
                "FEN has {n} fields: expected 6 (placement, side, castling, en passant, halfmove clock, fullmove number) or the first 4"
            ),
            FenError::RankCount(n) => write!(
                f,
                "FEN placement has {n} ranks: expected 8 separated by '/'"
            ),
            FenError::RankLength { rank, files } => {
                write!(
                    f,
                    "FEN rank {rank} covers {files} files: expected exactly 8"
                )
            }
            FenError::BadPiece { rank, found } => write!(
                f,
                "FEN rank {rank} has {found:?}: expected a piece letter (PNBRQK white, pnbrqk black) or a digit 1-8"
            ),
            FenError::BadSide(s) => write!(f, "FEN side to move is {s:?}: expected \"w\" or \"b\""),
            FenError::BadCastlingChar(c) => write!(
                f,
                "FEN castling field has {c:?}: expected \"-\" or letters from KQkq (X-FEN) or A-H/a-h (Shredder-FEN)"
            ),
            FenError::DuplicateCastling(c) => {
                write!(
                    f,
                    "FEN castling field gives the right {c:?} twice (same colour and wing)"
                )
            }
            FenError::CastlingWithoutKing(c) => {
                write!(
                    f,
                    "FEN castling right {c:?} needs that colour's king on its back rank"
                )
            }
            FenError::CastlingWithoutRook(c) => {
                write!(
                    f,
                    "FEN castling right {c:?} has no rook of that colour on the back rank on that side of the king"
                )
            }
            FenError::BadEnPassant(s) => write!(
                f,
                "FEN en-passant field is {s:?}: expected \"-\" or a square like \"e3\""
            ),
            FenError::ImpossibleEnPassant { square, reason } => {
                write!(f, "FEN en-passant square {square} is impossible: {reason}")
            }
            FenError::BadHalfmoveClock(s) => {
                write!(f, "FEN halfmove clock is {s:?}: expected a number")
            }
            FenError::BadFullmoveNumber(s) => {
                write!(f, "FEN fullmove number is {s:?}: expected a number")
            }
            FenError::MissingKing(c) => write!(f, "FEN has no {} king", color_name(*c)),
            FenError::TooManyKings(c) => write!(f, "FEN has more than one {} king", color_name(*c)),
            FenError::PawnOnBackRank(sq) => write!(
                f,
                "FEN has a pawn on {sq}: pawns cannot stand on rank 1 or 8"
            ),
            FenError::TooMuchMaterial(c) => write!(
                f,
                "FEN gives {} more material than 16 men can make (at most 8 pawns, 16 pieces, and one promotion per missing pawn)",
                color_name(*c)
            ),
            FenError::OpponentInCheck => {
                write!(
                    f,
                    "FEN has the side not to move in check: its king could be captured"
                )
            }
        }
    }
}

impl std::error::Error for FenError {}

/// The pieces of the side `by` that attack `square` (sliders seen through
/// `BETWEEN`, so no backend is needed).
fn attackers(board: &Board, square: usize, by: usize) -> u64 {
    let theirs = board.colors[by];
    let occ = board.occupied();
    let rooks = (board.kinds[ROOK] | board.kinds[crate::board::QUEEN]) & theirs;
    let bishops = (board.kinds[crate::board::BISHOP] | board.kinds[crate::board::QUEEN]) & theirs;
    let mut found = (KNIGHT[square] & board.kinds[crate::board::KNIGHT] & theirs)
        | (PAWN_ATTACKS[by ^ 1][square] & board.kinds[PAWN] & theirs)
        | (crate::tables::KING[square] & board.kinds[KING] & theirs);
    let mut sliders = (ROOK_LINES[square] & rooks) | (BISHOP_LINES[square] & bishops);
    while sliders != 0 {
        let s = sliders.trailing_zeros() as usize;
        sliders &= sliders - 1;
        if BETWEEN[square][s] & occ == 0 {
            found |= 1 << s;
        }
    }
    found
}

impl Position {
    /// The initial position.
    pub fn startpos() -> Position {
        // The constant is valid: the tests parse it too.
        STARTPOS_FEN.parse().unwrap_or_else(|e| unreachable!("{e}"))
    }

    /// Reads and validates a FEN (6 fields, or 4 without the counters).
    ///
    /// The castling field may be classical/X-FEN (`KQkq`: the outermost rook
    /// on that side) or Shredder-FEN (`HAha`: the rook files), so Chess960
    /// positions work.
    ///
    /// # Errors
    ///
    /// A [`FenError`] naming the first problem found.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if fields.len() != 6 && fields.len() != 4 {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut board = Board {
            kinds: [0; 6],
            colors: [0; 2],
            ep: 0,
            side: 0,
            castling: 0,
        };

        // Placement, rank 8 first.
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::RankCount(ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0usize;
            for c in text.chars() {
                if let Some(skip) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += skip as usize;
                } else if let Some(piece) = Piece::from_fen_char(c) {
                    if file < 8 {
                        let bit = 1u64 << (rank as usize * 8 + file);
                        let kind = piece.kind().map_or(0, |k| k as usize - 1);
                        board.kinds[kind] |= bit;
                        board.colors[usize::from(piece.color() == Some(Color::Black))] |= bit;
                    }
                    file += 1;
                } else {
                    return Err(FenError::BadPiece {
                        rank: rank + 1,
                        found: c,
                    });
                }
                if file > 8 {
                    return Err(FenError::RankLength {
                        rank: rank + 1,
                        files: file,
                    });
                }
            }
            if file != 8 {
                return Err(FenError::RankLength {
                    rank: rank + 1,
                    files: file,
                });
            }
        }

        board.side = match fields[1] {
            "w" => 0,
            "b" => 1,
            other => return Err(FenError::BadSide(other.to_string())),
        };

        for (c, color) in [(0, Color::White), (1, Color::Black)] {
            let kings = board.kinds[KING] & board.colors[c];
            match kings.count_ones() {
                0 => return Err(FenError::MissingKing(color)),
                1 => {}
                _ => return Err(FenError::TooManyKings(color)),
            }
        }
        for (c, color) in [(0, Color::White), (1, Color::Black)] {
            let count = |kind: usize| (board.kinds[kind] & board.colors[c]).count_ones();
            let pawns = count(PAWN);
            let promoted = count(crate::board::KNIGHT).saturating_sub(2)
                + count(crate::board::BISHOP).saturating_sub(2)
                + count(ROOK).saturating_sub(2)
                + count(crate::board::QUEEN).saturating_sub(1);
            if pawns > 8 || board.colors[c].count_ones() > 16 || promoted > 8 - pawns {
                return Err(FenError::TooMuchMaterial(color));
            }
        }
        let back_rank_pawns = board.kinds[PAWN] & BACK_RANKS;
        if back_rank_pawns != 0 {
            let sq = Square::from_index_masked(back_rank_pawns.trailing_zeros() as u8);
            return Err(FenError::PawnOnBackRank(sq));
        }

        let rules = parse_castling(fields[2], &mut board)?;
        board.ep = parse_en_passant(fields[3], &board)?;

        let (halfmove, fullmove) = if fields.len() == 6 {
            let half = fields[4]
                .parse()
                .map_err(|_| FenError::BadHalfmoveClock(fields[4].to_string()))?;
            let full = fields[5]
                .parse()
                .map_err(|_| FenError::BadFullmoveNumber(fields[5].to_string()))?;
            (half, full)
        } else {
            (0, 1)
        };

        let them = usize::from(board.side ^ 1);
        let their_king = (board.kinds[KING] & board.colors[them]).trailing_zeros() as usize;
        if attackers(&board, their_king, them ^ 1) != 0 {
            return Err(FenError::OpponentInCheck);
        }
        Ok(Position {
            board,
            rules,
            halfmove,
            fullmove,
        })
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        if self.board.side == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        let us = self.board.side as usize;
        let king = (self.board.kinds[KING] & self.board.colors[us]).trailing_zeros() as usize;
        attackers(&self.board, king, us ^ 1) != 0
    }

    /// Whether castling needs Chess960 notation (a king off the e-file or a
    /// castling rook off the a/h files).
    pub fn is_chess960(&self) -> bool {
        self.rules.chess960
    }

    /// The piece on `sq` ([`Piece::NONE`] if empty).
    pub fn piece_at(&self, sq: Square) -> Piece {
        match self.board.kind_at(sq as u8) {
            None => Piece::NONE,
            Some(kind) => {
                let color = if self.board.colors[0] & sq.bit() != 0 {
                    Color::White
                } else {
                    Color::Black
                };
                Piece::new(color, PieceKind::ALL[kind])
            }
        }
    }

    /// The halfmove clock (plies since the last capture or pawn move).
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The fullmove number.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// All legal moves, with slider attacks from `token`.
    pub fn legal_moves<B: SliderAttacks>(&self, token: B) -> MoveList {
        let mut list = MoveList::new();
        generate_any(
            &self.board,
            &crate::upkeep::Recompute,
            &self.rules,
            token,
            &mut ListSink(&mut list, &self.rules),
        );
        list
    }

    /// The legal move written `uci` here (as [`Move::uci`] writes it; for
    /// castling both `e1g1` and king-takes-rook `e1h1` are accepted), or the
    /// error naming it.
    pub fn parse_uci<B: SliderAttacks>(&self, token: B, uci: &str) -> Result<Move, IllegalMove> {
        let written = |mv: &Move, chess960| mv.uci(chess960).to_string() == uci;
        self.legal_moves(token)
            .iter()
            .copied()
            .find(|mv| written(mv, self.is_chess960()) || written(mv, true))
            .ok_or_else(|| IllegalMove {
                uci: uci.to_string(),
            })
    }

    /// The position after `mv` if it is one of [`Position::legal_moves`],
    /// else the error naming it: the checked form of [`Position::play`].
    pub fn try_play<B: SliderAttacks>(&self, token: B, mv: Move) -> Result<Position, IllegalMove> {
        if self.legal_moves(token).contains(&mv) {
            Ok(self.play(mv))
        } else {
            Err(IllegalMove {
                uci: mv.uci(self.is_chess960()).to_string(),
            })
        }
    }

    /// The position after `mv`, which must be one of [`Position::legal_moves`]
    /// (the unchecked form that move generators and perft use; see
    /// [`Position::try_play`] for moves from outside).
    ///
    /// Any other move gives some position without undefined behaviour, but
    /// not a meaningful one; debug builds panic on it.
    pub fn play(&self, mv: Move) -> Position {
        debug_assert!(
            mv.from() != mv.to() && self.board.occupied() & (1u64 << mv.from() as u8) != 0,
            "play: {} moves no piece of this position",
            mv.uci(self.is_chess960())
        );
        let from = mv.from() as u8;
        let to = mv.to() as u8;
        let moved = self.board.kind_at(from);
        let capture = self.board.occupied() & (1u64 << to) != 0;
        let board = match mv.kind() {
            MoveKind::Castle => {
                let us = self.board.side as usize;
                // The held right of the side to move whose rook stands on `to`.
                let held =
                    |r: usize| self.board.castling & (1 << r) != 0 && self.rules.rook_from[r] == to;
                let r = (2 * us..2 * us + 2).find(|&r| held(r)).unwrap_or(2 * us);
                self.board.make_castle(&self.rules, r)
            }
            MoveKind::EnPassant if (16..48).contains(&to) => self.board.make_en_passant(from, to),
            MoveKind::Promotion(kind) => {
                self.board
                    .make_pawn(&self.rules, from, to, kind as usize - 1)
            }
            _ if moved == Some(PAWN) => self.board.make_pawn(&self.rules, from, to, PAWN),
            _ => self
                .board
                .make_piece(&self.rules, moved.unwrap_or(PAWN), from, to),
        };
        let pawn_or_capture = moved == Some(PAWN) || (capture && mv.kind() != MoveKind::Castle);
        Position {
            board,
            rules: self.rules,
            halfmove: if pawn_or_capture {
                0
            } else {
                self.halfmove.saturating_add(1)
            },
            fullmove: self.fullmove.saturating_add(u32::from(self.board.side)),
        }
    }
}

/// Reads the castling field into rights on `board` and the rules.
fn parse_castling(field: &str, board: &mut Board) -> Result<CastlingRules, FenError> {
    let mut rules = CastlingRules::NONE;
    if field == "-" {
        return Ok(rules);
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() { 0 } else { 1 };
        let back_rank = if color == 0 { 0u8 } else { 56 };
        let ours = board.colors[color];
        let king = (board.kinds[KING] & ours).trailing_zeros() as u8;
        let rook_on = |file: u8| board.kinds[ROOK] & ours & (1u64 << (back_rank + file)) != 0;
        let lower = c.to_ascii_lowercase();
        if !matches!(lower, 'a'..='h' | 'k' | 'q') {
            return Err(FenError::BadCastlingChar(c));
        }
        if king & 56 != back_rank {
            return Err(FenError::CastlingWithoutKing(c));
        }
        let king_file = king & 7;
        let rook_file = match lower {
            'k' => (king_file + 1..8).rev().find(|&f| rook_on(f)),
            'q' => (0..king_file).find(|&f| rook_on(f)),
            _ => Some(lower as u8 - b'a').filter(|&f| f != king_file && rook_on(f)),
        }
        .ok_or(FenError::CastlingWithoutRook(c))?;
        let wing = usize::from(rook_file < king_file);
        let r = 2 * color + wing;
        if board.castling & (1 << r) != 0 {
            return Err(FenError::DuplicateCastling(c));
        }
        board.castling |= 1 << r;
        rules.set(r, king, back_rank + rook_file);
    }
    Ok(rules)
}

/// Reads the en-passant field: the square a pawn just skipped, or 0.
fn parse_en_passant(field: &str, board: &Board) -> Result<u64, FenError> {
    if field == "-" {
        return Ok(0);
    }
    let square: Square = field
        .parse()
        .map_err(|_| FenError::BadEnPassant(field.to_string()))?;
    let impossible = |reason| Err(FenError::ImpossibleEnPassant { square, reason });
    let white_to_move = board.side == 0;
    if square.rank() != if white_to_move { 5 } else { 2 } {
        return impossible(if white_to_move {
            "with white to move it must be on rank 6"
        } else {
            "with black to move it must be on rank 3"
        });
    }
    // On rank 6 (or 3) both neighbours on the file exist.
    let (pushed, origin) = if white_to_move {
        (square as u8 - 8, square as u8 + 8)
    } else {
        (square as u8 + 8, square as u8 - 8)
    };
    let occ = board.occupied();
    if occ & ((1u64 << square as u8) | (1u64 << origin)) != 0 {
        return impossible("the square and the one the pawn came from must be empty");
    }
    let them = usize::from(board.side ^ 1);
    if board.kinds[PAWN] & board.colors[them] & (1u64 << pushed) == 0 {
        return impossible("no pawn of the side that just moved stands in front of it");
    }
    Ok(1u64 << square as u8)
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(fen: &str) -> Result<Position, FenError> {
        Position::from_fen(fen)
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl fmt::Display for Position {
    /// The FEN (Shredder-FEN castling letters for Chess960 positions).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                let sq = Square::from_index_masked(rank * 8 + file);
                match self.piece_at(sq).fen_char() {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{c}")?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        f.write_str(if self.board.side == 0 { " w " } else { " b " })?;
        if self.board.castling == 0 {
            f.write_str("-")?;
        }
        // Shredder letters when a right still held is not the classical one,
        // so that the text depends only on the position itself.
        let classical = |r: usize| {
            self.rules.king_from[r] & 7 == 4
                && self.rules.rook_from[r] & 7 == if r & 1 == 0 { 7 } else { 0 }
        };
        let shredder = (0..4).any(|r| self.board.castling & (1 << r) != 0 && !classical(r));
        for r in 0..4 {
            if self.board.castling & (1 << r) != 0 {
                let letter = if shredder {
                    (b'a' + (self.rules.rook_from[r] & 7)) as char
                } else if r & 1 == 0 {
                    'k'
                } else {
                    'q'
                };
                write!(
                    f,
                    "{}",
                    if r < 2 {
                        letter.to_ascii_uppercase()
                    } else {
                        letter
                    }
                )?;
            }
        }
        match self.board.ep {
            0 => f.write_str(" -")?,
            ep => write!(
                f,
                " {}",
                Square::from_index_masked(ep.trailing_zeros() as u8)
            )?,
        }
        write!(f, " {} {}", self.halfmove, self.fullmove)
    }
}
