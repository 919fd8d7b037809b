//! [`AttackBoards`]: the attack set of every occupied square and the
//! attacked-by set of every square, updated incrementally (Hyatt, 1994).
//!
//! # The update, for any set of changed squares
//!
//! A move changes the contents of a few squares `C` (from, to, the rook's
//! squares when castling, the captured pawn's square en passant). With the
//! mailbox and the occupancy already in their new state:
//!
//! 1. **Clear** the attacks of every square of `C` (what the piece that left
//!    or was captured attacked), removing it from the attacked-by sets.
//! 2. **Compute** the attacks of the piece now on each square of `C`.
//! 3. **Extend** the sliders that attack a *vacated* square of `C`: along
//!    the line from the slider through it only, from the vacated square to
//!    the next blocker.
//! 4. **Shorten** the sliders that attack a *newly occupied* square of `C`:
//!    drop what they attacked beyond it on that line. A capture's to-square
//!    was occupied before and after, so nothing happens there.
//!
//! Why it is exact: after 1-2 the pieces on `C` are right. Any other
//! slider's ray is right up to the first square whose occupancy changed.
//! If that square was vacated, the ray had stopped there and step 3 runs it
//! on to the next square occupied *now*; a newly occupied square on the way
//! (before or after) cuts it in step 4, which runs after every extension. A
//! ray that does not reach a changed square is unchanged, and only pieces
//! that attack a square ever hear about it: the attacked-by set of the
//! square is exactly the list of sliders to visit. Pawns, knights and kings
//! attack the same squares whatever the occupancy, so steps 3-4 skip them.
//!
//! Unmake is the same procedure on the same squares after the mailbox is
//! taken back: the update depends only on the old and new contents.

use crate::{Move, MoveError, Position, Undo};
use hq_classic::kernels::{
    BISHOP_DIRECTIONS, ROOK_DIRECTIONS, bishop_attacks, direction_between, ray_attacks,
    rook_attacks,
};
use hq_core::piece::{Color, Piece, PieceKind};
use hq_core::{Bitboard, Direction, RAY_MASKS, Square};

pub use hq_core::leapers::{KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS};

/// The squares `piece` on `sq` attacks over `occupancy` (0 for no piece).
#[inline]
pub const fn piece_attacks(piece: Piece, sq: Square, occupancy: u64) -> u64 {
    let s = sq as usize;
    match piece.kind() {
        Some(PieceKind::Pawn) => PAWN_ATTACKS[(piece.code() >> 3) as usize][s],
        Some(PieceKind::Knight) => KNIGHT_ATTACKS[s],
        Some(PieceKind::Bishop) => bishop_attacks(sq, occupancy),
        Some(PieceKind::Rook) => rook_attacks(sq, occupancy),
        Some(PieceKind::Queen) => rook_attacks(sq, occupancy) | bishop_attacks(sq, occupancy),
        Some(PieceKind::King) => KING_ATTACKS[s],
        None => 0,
    }
}

/// Whether `piece` slides (bishop, rook, queen).
#[inline(always)]
const fn is_slider(piece: Piece) -> bool {
    matches!(
        piece.kind(),
        Some(PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen)
    )
}

/// Whether `piece` slides along the line of `dir`.
#[inline(always)]
const fn slides_along(piece: Piece, dir: Direction) -> bool {
    let diagonal = matches!(
        dir.line(),
        hq_core::Line::Diagonal | hq_core::Line::AntiDiagonal
    );
    match piece.kind() {
        Some(PieceKind::Queen) => true,
        Some(PieceKind::Bishop) => diagonal,
        Some(PieceKind::Rook) => !diagonal,
        _ => false,
    }
}

/// A position with Hyatt's attack boards.
///
/// `attacks_from[s]`: the squares the piece on `s` attacks (0 if `s` is
/// empty). `attacked_by[s]`: the squares whose pieces attack `s`. Both are
/// pure functions of the mailbox ([`AttackBoards::from_position`]);
/// `PartialEq` compares every field.
///
/// ```
/// use hq_core::Square;
/// use hq_moves::{Move, MoveKind, Position};
/// use hq_moves::AttackBoards;
///
/// let mut board = AttackBoards::new(Position::start());
/// let mv = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
/// let undo = board.make(mv);
/// // The f1 bishop now sees a6 through the vacated e2.
/// assert!(board.attacked_by(Square::A6) & Square::F1.bit() != 0);
/// assert_eq!(board, AttackBoards::new(board.position().clone()));
/// board.unmake(mv, undo);
/// assert_eq!(board, AttackBoards::new(Position::start()));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AttackBoards {
    position: Position,
    occupied: u64,
    attacks_from: [u64; 64],
    attacked_by: [u64; 64],
}

impl AttackBoards {
    /// The attack boards of `position`, computed from scratch.
    pub fn new(position: Position) -> AttackBoards {
        let mut board = AttackBoards {
            position,
            occupied: 0,
            attacks_from: [0; 64],
            attacked_by: [0; 64],
        };
        board.recompute();
        board
    }

    /// [`AttackBoards::new`] from a borrowed position.
    pub fn from_position(position: &Position) -> AttackBoards {
        AttackBoards::new(position.clone())
    }

    /// Recomputes every set from the mailbox: the reference for the tests
    /// and the baseline of the benchmark.
    pub fn recompute(&mut self) {
        self.occupied = self.position.occupancy();
        self.attacks_from = [0; 64];
        self.attacked_by = [0; 64];
        for sq in Bitboard(self.occupied) {
            self.set_attacks(sq);
        }
    }

    /// The position (mailbox and game state).
    #[inline]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The occupied squares.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.occupied
    }

    /// The squares the piece on `sq` attacks (0 if empty).
    #[inline]
    pub fn attacks_from(&self, sq: Square) -> u64 {
        self.attacks_from[sq as usize]
    }

    /// The squares whose pieces attack `sq`.
    #[inline]
    pub fn attacked_by(&self, sq: Square) -> u64 {
        self.attacked_by[sq as usize]
    }

    /// The squares of `color`'s pieces that attack `sq`.
    pub fn attackers(&self, sq: Square, color: Color) -> u64 {
        Bitboard(self.attacked_by[sq as usize])
            .iter()
            .filter(|&s| self.position.piece_at(s).color() == Some(color))
            .fold(0, |acc, s| acc | s.bit())
    }

    /// Step 1: forget what the piece on `sq` attacked.
    #[inline(always)]
    fn clear_attacks(&mut self, sq: Square) {
        let bit = sq.bit();
        for target in Bitboard(self.attacks_from[sq as usize]) {
            self.attacked_by[target as usize] &= !bit;
        }
        self.attacks_from[sq as usize] = 0;
    }

    /// Step 2: compute what the piece on `sq` attacks now.
    #[inline(always)]
    fn set_attacks(&mut self, sq: Square) {
        let attacks = piece_attacks(self.position.piece_at(sq), sq, self.occupied);
        self.attacks_from[sq as usize] = attacks;
        for target in Bitboard(attacks) {
            self.attacked_by[target as usize] |= sq.bit();
        }
    }

    /// Step 3: the sliders attacking the vacated `sq` now see past it, along their line only.
    #[inline(always)]
    fn extend_through(&mut self, sq: Square) {
        for slider in Bitboard(self.attacked_by[sq as usize]) {
            if !is_slider(self.position.piece_at(slider)) {
                continue;
            }
            let Some(dir) = direction_between(slider, sq) else {
                continue;
            };
            let extension = ray_attacks(dir, sq, self.occupied);
            self.attacks_from[slider as usize] |= extension;
            for target in Bitboard(extension) {
                self.attacked_by[target as usize] |= slider.bit();
            }
        }
    }

    /// Step 4: the sliders attacking the newly occupied `sq` no longer see past it.
    #[inline(always)]
    fn shorten_at(&mut self, sq: Square) {
        for slider in Bitboard(self.attacked_by[sq as usize]) {
            if !is_slider(self.position.piece_at(slider)) {
                continue;
            }
            let Some(dir) = direction_between(slider, sq) else {
                continue;
            };
            let beyond = self.attacks_from[slider as usize] & RAY_MASKS[dir as usize][sq as usize];
            self.attacks_from[slider as usize] ^= beyond;
            for target in Bitboard(beyond) {
                self.attacked_by[target as usize] &= !slider.bit();
            }
        }
    }

    /// Steps 1-4 for the squares `changed`, whose occupancy was `old_occupied`
    /// (the mailbox already holds the new contents).
    #[inline]
    fn update(&mut self, changed: u64, old_occupied: u64) {
        let new_occupied = (old_occupied & !changed)
            | Bitboard(changed)
                .iter()
                .filter(|&s| !self.position.piece_at(s).is_none())
                .fold(0, |a, s| a | s.bit());
        self.occupied = new_occupied;
        for sq in Bitboard(changed) {
            self.clear_attacks(sq);
        }
        for sq in Bitboard(changed & new_occupied) {
            self.set_attacks(sq);
        }
        for sq in Bitboard(changed & old_occupied & !new_occupied) {
            self.extend_through(sq);
        }
        for sq in Bitboard(changed & new_occupied & !old_occupied) {
            self.shorten_at(sq);
        }
    }

    /// The squares whose contents `mv` changes.
    #[inline(always)]
    fn changed_squares(mv: Move) -> u64 {
        let mut changed = mv.from().bit() | mv.to().bit();
        if let Some(victim) = mv.captured_square() {
            changed |= victim.bit();
        }
        if let Some((rook_from, rook_to)) = mv.castling_rook() {
            changed |= rook_from.bit() | rook_to.bit();
        }
        changed
    }

    /// Plays `mv` and updates the attack boards incrementally. `mv` must fit
    /// the position ([`Position::check_move`], checked in debug builds; see
    /// [`AttackBoards::try_make`]).
    #[inline]
    pub fn make(&mut self, mv: Move) -> Undo {
        let old_occupied = self.occupied;
        let undo = self.position.make(mv);
        self.update(AttackBoards::changed_squares(mv), old_occupied);
        undo
    }

    /// Plays `mv` and recomputes every set from scratch: the baseline the
    /// incremental [`AttackBoards::make`] is benchmarked against.
    pub fn make_and_recompute(&mut self, mv: Move) -> Undo {
        let undo = self.position.make(mv);
        self.recompute();
        undo
    }

    /// Takes back `mv` and recomputes every set from scratch (the baseline of [`AttackBoards::unmake`]).
    pub fn unmake_and_recompute(&mut self, mv: Move, undo: Undo) {
        self.position.unmake(mv, undo);
        self.recompute();
    }

    /// [`AttackBoards::make`] after checking that `mv` fits the position.
    pub fn try_make(&mut self, mv: Move) -> Result<Undo, MoveError> {
        self.position.check_move(mv)?;
        Ok(self.make(mv))
    }

    /// Takes back `mv` (the last move made) with its `undo`, incrementally.
    #[inline]
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        let old_occupied = self.occupied;
        self.position.unmake(mv, undo);
        self.update(AttackBoards::changed_squares(mv), old_occupied);
    }

    /// The squares the slider on `sq` bears on, seeing through its own
    /// pieces that slide along the same line (a bishop behind its queen on a
    /// diagonal bears on the squares beyond the queen; a rook behind a rook
    /// or queen on a file likewise). 0 for an empty square; the plain attack
    /// set for a non-slider.
    ///
    /// Read off the attack boards, no new ray: along each direction the
    /// slider's own set reaches a blocker; if that is a battery partner, its
    /// set beyond it in the same direction is added, and so on.
    pub fn xray_attacks(&self, sq: Square) -> u64 {
        let piece = self.position.piece_at(sq);
        let mut total = self.attacks_from[sq as usize];
        if !is_slider(piece) {
            return total;
        }
        for dir in ROOK_DIRECTIONS.into_iter().chain(BISHOP_DIRECTIONS) {
            if !slides_along(piece, dir) {
                continue;
            }
            let mut from = sq;
            loop {
                let reach =
                    self.attacks_from[from as usize] & RAY_MASKS[dir as usize][from as usize];
                total |= reach;
                let Some(blocker) = Bitboard(reach & self.occupied).first() else {
                    break;
                };
                let partner = self.position.piece_at(blocker);
                if partner.color() != piece.color() || !slides_along(partner, dir) {
                    break;
                }
                from = blocker;
            }
        }
        total
    }
}
