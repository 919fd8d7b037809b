//! Pseudo-legal moves on the mailbox, by stepping square to square.
//!
//! Deliberately plain (no bitboards, no attack tables): the boards this
//! crate drives are the code under test, so the moves must not depend on them.

use crate::moves::PROMOTIONS;
use crate::position::last_rank;
use crate::{Move, MoveKind, Position};
use hq_core::Square;
use hq_core::piece::{Color, PieceKind};

use hq_core::leapers::{KING_STEPS, KNIGHT_STEPS};
const ROOK_STEPS: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const BISHOP_STEPS: [(i8, i8); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

impl Position {
    /// Appends every pseudo-legal move of the side to move to `out` (see the
    /// crate docs: own king may be left in check, kings are never captured).
    pub fn pseudo_legal_moves(&self, out: &mut Vec<Move>) {
        let side = self.side_to_move();
        for from in Square::ALL {
            let piece = self.piece_at(from);
            if piece.color() != Some(side) {
                continue;
            }
            match piece.kind() {
                Some(PieceKind::Pawn) => self.pawn_moves(from, out),
                Some(PieceKind::Knight) => self.step_moves(from, &KNIGHT_STEPS, false, out),
                Some(PieceKind::Bishop) => self.step_moves(from, &BISHOP_STEPS, true, out),
                Some(PieceKind::Rook) => self.step_moves(from, &ROOK_STEPS, true, out),
                Some(PieceKind::Queen) => {
                    self.step_moves(from, &ROOK_STEPS, true, out);
                    self.step_moves(from, &BISHOP_STEPS, true, out);
                }
                Some(PieceKind::King) => {
                    self.step_moves(from, &KING_STEPS, false, out);
                    self.castling_moves(from, out);
                }
                None => {}
            }
        }
    }

    /// What moving onto `to` would be: `Some(false)` empty, `Some(true)` a
    /// capturable enemy piece, `None` blocked (own piece or enemy king).
    fn landing(&self, to: Square) -> Option<bool> {
        let target = self.piece_at(to);
        match target.color() {
            None => Some(false),
            Some(c) if c != self.side_to_move() && target.kind() != Some(PieceKind::King) => {
                Some(true)
            }
            _ => None,
        }
    }

    fn step_moves(&self, from: Square, steps: &[(i8, i8)], slides: bool, out: &mut Vec<Move>) {
        for &(df, dr) in steps {
            let mut at = from;
            while let Some(to) = at.offset(df, dr) {
                let occupied = self.piece_at(to).color().is_some();
                match self.landing(to) {
                    Some(false) => out.push(Move::new(from, to, MoveKind::Quiet)),
                    Some(true) => out.push(Move::new(from, to, MoveKind::Capture)),
                    None => {}
                }
                if !slides || occupied {
                    break;
                }
                at = to;
            }
        }
    }

    fn pawn_moves(&self, from: Square, out: &mut Vec<Move>) {
        let side = self.side_to_move();
        let (forward, start_rank) = if side == Color::White {
            (1i8, 1u8)
        } else {
            (-1i8, 6u8)
        };
        let promotes = |to: Square| to.rank() == last_rank(side);
        if let Some(one) = from
            .offset(0, forward)
            .filter(|&s| self.piece_at(s).is_none())
        {
            if promotes(one) {
                out.extend(
                    PROMOTIONS
                        .iter()
                        .map(|&k| Move::new(from, one, MoveKind::Promotion(k))),
                );
            } else {
                out.push(Move::new(from, one, MoveKind::Quiet));
            }
            if from.rank() == start_rank
                && let Some(two) = one
                    .offset(0, forward)
                    .filter(|&s| self.piece_at(s).is_none())
            {
                out.push(Move::new(from, two, MoveKind::DoublePush));
            }
        }
        for df in [-1, 1] {
            let Some(to) = from.offset(df, forward) else {
                continue;
            };
            if self.landing(to) == Some(true) {
                if promotes(to) {
                    out.extend(
                        PROMOTIONS
                            .iter()
                            .map(|&k| Move::new(from, to, MoveKind::PromotionCapture(k))),
                    );
                } else {
                    out.push(Move::new(from, to, MoveKind::Capture));
                }
            } else if self.en_passant() == Some(to) {
                out.push(Move::new(from, to, MoveKind::EnPassant));
            }
        }
    }

    fn castling_moves(&self, from: Square, out: &mut Vec<Move>) {
        let side = self.side_to_move();
        let home = if side == Color::White {
            Square::E1
        } else {
            Square::E8
        };
        if from != home {
            return;
        }
        let empty = |files: &[u8]| {
            files.iter().all(|&f| {
                self.piece_at(Square::from_index_masked(home as u8 - 4 + f))
                    .is_none()
            })
        };
        if self.castling().has(side, true) && empty(&[5, 6]) {
            out.push(Move::new(
                home,
                Square::from_index_masked(home as u8 + 2),
                MoveKind::CastleKingside,
            ));
        }
        if self.castling().has(side, false) && empty(&[1, 2, 3]) {
            out.push(Move::new(
                home,
                Square::from_index_masked(home as u8 - 2),
                MoveKind::CastleQueenside,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Position;

    #[test]
    fn start_position_has_twenty_moves_and_kiwipete_forty_eight() {
        let mut moves = Vec::new();
        Position::start().pseudo_legal_moves(&mut moves);
        assert_eq!(moves.len(), 20);
        // Kiwipete: 48 legal moves, and all of its pseudo-legal moves are legal.
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        moves.clear();
        Position::from_fen(kiwipete)
            .unwrap()
            .pseudo_legal_moves(&mut moves);
        assert_eq!(moves.len(), 48);
    }
}
