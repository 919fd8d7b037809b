//! [`ReverseBoard`]: forward and reversed occupancy and slider sets, kept
//! up to date through make/unmake.

use crate::{Move, MoveError, MoveKind, Position, Undo};
use hq_core::Square;
use hq_core::piece::{Color, Piece, PieceKind};
use hq_reverse::kernels::{
    bishop_attacks_split, computed_line_masks, join, positive_attacks, rook_attacks_split,
};

/// The two kinds of slider set the seed keeps per colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum SliderKind {
    /// Bishops and queens: they move along diagonals and anti-diagonals.
    Diagonal = 0,
    /// Rooks and queens: they move along ranks and files.
    Orthogonal = 1,
}

/// A position with its occupancy and its slider sets kept both forward and
/// reversed (bit x <-> bit 63 - x), updated by xor-ing in exactly the squares
/// a move changes.
///
/// Every field is a pure function of the mailbox ([`ReverseBoard::from_position`]
/// recomputes them all); `PartialEq` compares every field, which is how the
/// tests check incremental updates against recomputation.
///
/// ```
/// use hq_core::Square;
/// use hq_moves::{Move, MoveKind, Position};
/// use hq_moves::ReverseBoard;
///
/// let mut board = ReverseBoard::new(Position::start());
/// let mv = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
/// let undo = board.make(mv);
/// assert_eq!(board, ReverseBoard::new(board.position().clone()));
/// board.unmake(mv, undo);
/// assert_eq!(board, ReverseBoard::new(Position::start()));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ReverseBoard {
    position: Position,
    occupied: u64,
    occupied_reversed: u64,
    /// `[colour][SliderKind]`, forward.
    sliders: [[u64; 2]; 2],
    /// `[colour][SliderKind]`, reversed.
    sliders_reversed: [[u64; 2]; 2],
}

/// A square's bit on the forward board and on the reversed one.
#[inline(always)]
const fn bits(sq: Square) -> (u64, u64) {
    (1u64 << sq as u32, 1u64 << (sq as u32 ^ 63))
}

/// Which slider sets a piece belongs to: `[diagonal, orthogonal]`.
#[inline(always)]
const fn slider_kinds(piece: Piece) -> [bool; 2] {
    match piece.kind() {
        Some(PieceKind::Bishop) => [true, false],
        Some(PieceKind::Rook) => [false, true],
        Some(PieceKind::Queen) => [true, true],
        _ => [false, false],
    }
}

impl ReverseBoard {
    /// The board of `position`, every set computed from the mailbox.
    pub fn new(position: Position) -> ReverseBoard {
        ReverseBoard::from_position(&position)
    }

    /// Recomputation from scratch: the reference the incremental updates are checked against.
    pub fn from_position(position: &Position) -> ReverseBoard {
        let mut board = ReverseBoard {
            position: position.clone(),
            occupied: 0,
            occupied_reversed: 0,
            sliders: [[0; 2]; 2],
            sliders_reversed: [[0; 2]; 2],
        };
        for sq in Square::ALL {
            let piece = position.piece_at(sq);
            if !piece.is_none() {
                board.toggle(piece, sq);
            }
        }
        board
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

    /// The occupied squares, reversed.
    #[inline]
    pub fn occupied_reversed(&self) -> u64 {
        self.occupied_reversed
    }

    /// `color`'s sliders of `kind` (queens are in both kinds).
    #[inline]
    pub fn sliders(&self, color: Color, kind: SliderKind) -> u64 {
        self.sliders[color as usize][kind as usize]
    }

    /// `color`'s sliders of `kind`, reversed.
    #[inline]
    pub fn sliders_reversed(&self, color: Color, kind: SliderKind) -> u64 {
        self.sliders_reversed[color as usize][kind as usize]
    }

    /// Adds or removes `piece` on `sq` (xor: the same call undoes it).
    #[inline(always)]
    fn toggle(&mut self, piece: Piece, sq: Square) {
        let (forward, reversed) = bits(sq);
        self.occupied ^= forward;
        self.occupied_reversed ^= reversed;
        self.toggle_sliders(piece, sq);
    }

    /// Adds or removes `piece` on `sq` in the slider sets only.
    #[inline(always)]
    fn toggle_sliders(&mut self, piece: Piece, sq: Square) {
        let [diagonal, orthogonal] = slider_kinds(piece);
        if diagonal || orthogonal {
            let (forward, reversed) = bits(sq);
            let color = (piece.code() >> 3) as usize;
            if diagonal {
                self.sliders[color][0] ^= forward;
                self.sliders_reversed[color][0] ^= reversed;
            }
            if orthogonal {
                self.sliders[color][1] ^= forward;
                self.sliders_reversed[color][1] ^= reversed;
            }
        }
    }

    /// The bitboard side of `mv`, by `mover` (the piece on the from-square
    /// before the move) of `side`, taking `captured`. Every update is an xor,
    /// so applying the same change again takes the move back.
    #[inline(always)]
    fn apply(&mut self, mv: Move, side: Color, mover: Piece, captured: Piece) {
        let (from, to) = (mv.from(), mv.to());
        let arrived = match mv.promotion() {
            Some(kind) => Piece::new(side, kind),
            None => mover,
        };
        match mv.kind() {
            MoveKind::Quiet | MoveKind::DoublePush | MoveKind::Promotion(_) => {
                self.toggle(mover, from);
                self.toggle(arrived, to);
            }
            MoveKind::Capture | MoveKind::PromotionCapture(_) => {
                // The to-square stays occupied: only the slider sets change there.
                let (forward, reversed) = bits(from);
                self.occupied ^= forward;
                self.occupied_reversed ^= reversed;
                self.toggle_sliders(mover, from);
                self.toggle_sliders(captured, to);
                self.toggle_sliders(arrived, to);
            }
            MoveKind::EnPassant => {
                self.toggle(mover, from);
                self.toggle(arrived, to);
                self.toggle(captured, mv.captured_square().unwrap_or(to));
            }
            MoveKind::CastleKingside | MoveKind::CastleQueenside => {
                self.toggle(mover, from);
                self.toggle(arrived, to);
                if let Some((rook_from, rook_to)) = mv.castling_rook() {
                    let rook = Piece::new(side, PieceKind::Rook);
                    self.toggle(rook, rook_from);
                    self.toggle(rook, rook_to);
                }
            }
        }
    }

    /// Plays `mv`, updating only the bits that change. `mv` must fit the
    /// position ([`Position::check_move`], checked in debug builds; see
    /// [`ReverseBoard::try_make`]).
    #[inline]
    pub fn make(&mut self, mv: Move) -> Undo {
        let side = self.position.side_to_move();
        let mover = self.position.piece_at(mv.from());
        let undo = self.position.make(mv);
        self.apply(mv, side, mover, undo.captured);
        undo
    }

    /// [`ReverseBoard::make`] after checking that `mv` fits the position.
    pub fn try_make(&mut self, mv: Move) -> Result<Undo, MoveError> {
        self.position.check_move(mv)?;
        Ok(self.make(mv))
    }

    /// Takes back `mv` (the last move made) with its `undo`.
    #[inline]
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        self.position.unmake(mv, undo);
        let side = self.position.side_to_move();
        let mover = self.position.piece_at(mv.from());
        self.apply(mv, side, mover, undo.captured);
    }

    /// Rook attacks from `sq` with the maintained occupancies: no reversal of
    /// the occupancy, one of the result.
    #[inline]
    pub fn rook_attacks(&self, sq: Square) -> u64 {
        join(rook_attacks_split(
            self.occupied,
            self.occupied_reversed,
            sq,
        ))
    }

    /// Bishop attacks from `sq` (see [`ReverseBoard::rook_attacks`]).
    #[inline]
    pub fn bishop_attacks(&self, sq: Square) -> u64 {
        join(bishop_attacks_split(
            self.occupied,
            self.occupied_reversed,
            sq,
        ))
    }

    /// Queen attacks from `sq`, with a single reversal.
    #[inline]
    pub fn queen_attacks(&self, sq: Square) -> u64 {
        let (rf, rr) = rook_attacks_split(self.occupied, self.occupied_reversed, sq);
        let (bf, br) = bishop_attacks_split(self.occupied, self.occupied_reversed, sq);
        rf | bf | hq_reverse::reverse(rr | br)
    }

    /// Whether an enemy rook, bishop or queen attacks `color`'s king.
    ///
    /// The seed's test, with no lookup table and no reversal: slider attacks
    /// from the king's square (line masks by arithmetic,
    /// [`computed_line_masks`]) in the positive directions on the forward
    /// occupancy, intersected with the enemy's forward slider sets, and in the
    /// negative directions on the reversed occupancy, intersected with the
    /// enemy's *reversed* slider sets; one branch at the end. Knight, pawn and
    /// king checks are outside this scheme (they need no slider attacks).
    #[inline]
    pub fn in_slider_check(&self, color: Color) -> bool {
        let king = self.position.king_square(color);
        let enemy = color.opposite() as usize;
        let (s, r) = (king as u32, king as u32 ^ 63);
        let [rank, file, diagonal, anti] = computed_line_masks(king);
        let reversed_king = Square::from_index_masked(r as u8);
        let [r_rank, r_file, r_diagonal, r_anti] = computed_line_masks(reversed_king);
        let (occ, rocc) = (self.occupied, self.occupied_reversed);
        let orthogonal = positive_attacks(occ, rank, s) | positive_attacks(occ, file, s);
        let diagonals = positive_attacks(occ, diagonal, s) | positive_attacks(occ, anti, s);
        let r_orthogonal = positive_attacks(rocc, r_rank, r) | positive_attacks(rocc, r_file, r);
        let r_diagonals = positive_attacks(rocc, r_diagonal, r) | positive_attacks(rocc, r_anti, r);
        let [[f_diag, f_orth], [r_diag, r_orth]] =
            [self.sliders[enemy], self.sliders_reversed[enemy]];
        (orthogonal & f_orth)
            | (diagonals & f_diag)
            | (r_orthogonal & r_orth)
            | (r_diagonals & r_diag)
            != 0
    }
}
