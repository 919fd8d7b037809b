//! The copy-make board, castling rules, moves and the move list.

use core::fmt;
use hq_core::piece::PieceKind;

/// Index of a piece kind in [`Board::kinds`]: `PieceKind as usize - 1`.
pub(crate) const PAWN: usize = 0;
pub(crate) const KNIGHT: usize = 1;
pub(crate) const BISHOP: usize = 2;
pub(crate) const ROOK: usize = 3;
pub(crate) const QUEEN: usize = 4;
pub(crate) const KING: usize = 5;

/// The hot, copied part of a position: 80 bytes, no mailbox.
///
/// Copy-make (a child is a modified copy) needs no unmake and keeps the
/// parent intact for the next sibling, which is what the recursion wants.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Board {
    /// Pieces of both colours by kind (pawn, knight, bishop, rook, queen, king).
    pub(crate) kinds: [u64; 6],
    /// Pieces by colour (white, black).
    pub(crate) colors: [u64; 2],
    /// The en-passant target square as a bit, or 0.
    pub(crate) ep: u64,
    /// 0 white to move, 1 black to move.
    pub(crate) side: u8,
    /// Castling rights, bit `r` for right `r` (see [`CastlingRules`]).
    pub(crate) castling: u8,
}

/// Which castling moves a game has: fixed at the FEN, shared by the whole
/// search, so it stays out of the copied [`Board`].
///
/// Right `r` is `2 * colour + wing` (wing 0 king side, 1 queen side). The
/// squares are general enough for Chess960, where the king and rooks start
/// on any file of the back rank.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct CastlingRules {
    /// Where the king starts.
    pub(crate) king_from: [u8; 4],
    /// Where the castling rook starts.
    pub(crate) rook_from: [u8; 4],
    /// Squares that must be empty apart from the king and that rook.
    pub(crate) empty: [u64; 4],
    /// Squares the king passes through or lands on, which must not be attacked.
    pub(crate) king_path: [u64; 4],
    /// King and rook start squares: moving from or to either ends the right.
    pub(crate) touch: [u64; 4],
    /// Whether some right is not the classical e-file king with an a/h rook.
    pub(crate) chess960: bool,
}

impl CastlingRules {
    /// Rules with no castling at all.
    pub(crate) const NONE: CastlingRules = CastlingRules {
        king_from: [0; 4],
        rook_from: [0; 4],
        empty: [0; 4],
        king_path: [0; 4],
        touch: [0; 4],
        chess960: false,
    };

    /// The king's destination for right `r`: the g or c file.
    #[inline(always)]
    pub(crate) const fn king_to(r: usize) -> u8 {
        let rank = if r < 2 { 0 } else { 56 };
        rank + if r & 1 == 0 { 6 } else { 2 }
    }

    /// The rook's destination for right `r`: the f or d file.
    #[inline(always)]
    pub(crate) const fn rook_to(r: usize) -> u8 {
        let rank = if r < 2 { 0 } else { 56 };
        rank + if r & 1 == 0 { 5 } else { 3 }
    }

    /// Sets up right `r` for a king on `king` and a rook on `rook` (same rank).
    pub(crate) fn set(&mut self, r: usize, king: u8, rook: u8) {
        let span = |a: u8, b: u8| -> u64 {
            let (lo, hi) = (a.min(b), a.max(b));
            (lo..=hi).fold(0u64, |m, s| m | (1u64 << s))
        };
        let king_to = Self::king_to(r);
        let rook_to = Self::rook_to(r);
        let movers = (1u64 << king) | (1u64 << rook);
        self.king_from[r] = king;
        self.rook_from[r] = rook;
        self.empty[r] = (span(king, king_to) | span(rook, rook_to)) & !movers;
        // The start square is covered by "not in check", the rest is tested,
        // and so is the destination even when the king stays put: the rook
        // may have been what shielded it (Chess960).
        self.king_path[r] = (span(king, king_to) & !(1u64 << king)) | 1u64 << king_to;
        self.touch[r] = movers;
        self.chess960 = (0..4).any(|i| {
            self.touch[i] != 0
                && (self.king_from[i] & 7 != 4
                    || self.rook_from[i] & 7 != if i & 1 == 0 { 7 } else { 0 })
        });
    }

    /// The rights left after a move that touches the squares `touched`.
    #[inline(always)]
    pub(crate) fn keep(&self, rights: u8, touched: u64) -> u8 {
        let mut keep = rights;
        let mut r = 0;
        while r < 4 {
            if touched & self.touch[r] != 0 {
                keep &= !(1 << r);
            }
            r += 1;
        }
        keep
    }
}

impl Board {
    /// The squares of both colours.
    #[inline(always)]
    pub(crate) const fn occupied(&self) -> u64 {
        self.colors[0] | self.colors[1]
    }

    /// The kind index on `sq`, if any.
    #[inline]
    pub(crate) fn kind_at(&self, sq: u8) -> Option<usize> {
        let bit = 1u64 << sq;
        self.kinds.iter().position(|&k| k & bit != 0)
    }

    /// A copy with everything of the side not to move removed from `to`, the
    /// side switched and the en-passant square cleared: the common start of
    /// every move.
    #[inline(always)]
    fn after_capture_on(&self, to_bit: u64) -> Board {
        let mut b = *self;
        let them = (self.side ^ 1) as usize;
        b.colors[them] &= !to_bit;
        for k in &mut b.kinds {
            *k &= !to_bit;
        }
        b.ep = 0;
        b.side ^= 1;
        b
    }

    /// The child after a knight, bishop, rook, queen or (non-castling) king
    /// move of kind index `kind`, capturing whatever stands on `to`.
    #[inline(always)]
    pub(crate) fn make_piece(&self, rules: &CastlingRules, kind: usize, from: u8, to: u8) -> Board {
        let (from_bit, to_bit) = (1u64 << from, 1u64 << to);
        let mut b = self.after_capture_on(to_bit);
        b.kinds[kind] ^= from_bit | to_bit;
        b.colors[self.side as usize] ^= from_bit | to_bit;
        if b.castling != 0 {
            b.castling = rules.keep(b.castling, from_bit | to_bit);
        }
        b
    }

    /// The child after a pawn move (push or capture); `promotion` is the kind
    /// index of the new piece or [`PAWN`] for none. A double push sets the
    /// en-passant square only when an enemy pawn could use it.
    #[inline(always)]
    pub(crate) fn make_pawn(
        &self,
        rules: &CastlingRules,
        from: u8,
        to: u8,
        promotion: usize,
    ) -> Board {
        let (from_bit, to_bit) = (1u64 << from, 1u64 << to);
        let mut b = self.after_capture_on(to_bit);
        b.kinds[PAWN] ^= from_bit;
        b.kinds[promotion] |= to_bit;
        b.colors[self.side as usize] ^= from_bit | to_bit;
        if from ^ to == 16 {
            let ep_square = (from + to) / 2;
            let us = self.side as usize;
            let their_pawns = self.kinds[PAWN] & self.colors[us ^ 1];
            if crate::tables::PAWN_ATTACKS[us][ep_square as usize] & their_pawns != 0 {
                b.ep = 1u64 << ep_square;
            }
        }
        if b.castling != 0 {
            b.castling = rules.keep(b.castling, to_bit);
        }
        b
    }

    /// The child after an en-passant capture from `from` to the empty `to`.
    #[inline(always)]
    pub(crate) fn make_en_passant(&self, from: u8, to: u8) -> Board {
        let captured = 1u64 << (if self.side == 0 { to - 8 } else { to + 8 });
        let moved = (1u64 << from) | (1u64 << to);
        let mut b = *self;
        b.kinds[PAWN] ^= moved | captured;
        b.colors[self.side as usize] ^= moved;
        b.colors[(self.side ^ 1) as usize] ^= captured;
        b.ep = 0;
        b.side ^= 1;
        b
    }

    /// The child after castling with right `r`.
    #[inline(always)]
    pub(crate) fn make_castle(&self, rules: &CastlingRules, r: usize) -> Board {
        let king_from = 1u64 << rules.king_from[r];
        let rook_from = 1u64 << rules.rook_from[r];
        let king_to = 1u64 << CastlingRules::king_to(r);
        let rook_to = 1u64 << CastlingRules::rook_to(r);
        let us = self.side as usize;
        let mut b = *self;
        // Remove both, then place both: the squares may overlap in Chess960.
        b.colors[us] = (b.colors[us] & !(king_from | rook_from)) | king_to | rook_to;
        b.kinds[KING] = (b.kinds[KING] & !king_from) | king_to;
        b.kinds[ROOK] = (b.kinds[ROOK] & !rook_from) | rook_to;
        b.castling &= !(3 << (2 * us));
        b.ep = 0;
        b.side ^= 1;
        b
    }
}

/// What kind of move a [`Move`] is, beyond its two squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// Any move that is none of the others, captures and double pushes included.
    Normal,
    /// A pawn takes en passant; `to` is the empty square it lands on.
    EnPassant,
    /// Castling; `from` is the king's square and `to` the castling rook's
    /// (king takes own rook, which is unambiguous in Chess960 too).
    Castle,
    /// A pawn promotes to this piece (knight, bishop, rook or queen).
    Promotion(PieceKind),
}

/// A legal move in 16 bits: from (6), to (6), kind (4).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const FLAG_EN_PASSANT: u16 = 1;
const FLAG_CASTLE: u16 = 2;
/// Flags 4..=7: promotion to knight, bishop, rook, queen (kind index + 3).
const FLAG_PROMOTION: u16 = 4;

impl Move {
    #[inline(always)]
    pub(crate) const fn encode(from: u8, to: u8, flag: u16) -> Move {
        Move(from as u16 | (to as u16) << 6 | flag << 12)
    }

    #[inline(always)]
    pub(crate) const fn normal(from: u8, to: u8) -> Move {
        Move::encode(from, to, 0)
    }

    #[inline(always)]
    pub(crate) const fn en_passant(from: u8, to: u8) -> Move {
        Move::encode(from, to, FLAG_EN_PASSANT)
    }

    #[inline(always)]
    pub(crate) const fn castle(king: u8, rook: u8) -> Move {
        Move::encode(king, rook, FLAG_CASTLE)
    }

    /// A promotion to kind index `kind` (knight..queen).
    #[inline(always)]
    pub(crate) const fn promotion(from: u8, to: u8, kind: usize) -> Move {
        Move::encode(from, to, FLAG_PROMOTION + kind as u16 - KNIGHT as u16)
    }

    /// The square the piece leaves (the king's, for castling).
    #[inline]
    pub const fn from(self) -> hq_core::Square {
        hq_core::Square::from_index_masked(self.0 as u8 & 63)
    }

    /// The square it goes to (the castling rook's, for castling).
    #[inline]
    pub const fn to(self) -> hq_core::Square {
        hq_core::Square::from_index_masked((self.0 >> 6) as u8 & 63)
    }

    /// The kind of move.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            FLAG_EN_PASSANT => MoveKind::EnPassant,
            FLAG_CASTLE => MoveKind::Castle,
            4 => MoveKind::Promotion(PieceKind::Knight),
            5 => MoveKind::Promotion(PieceKind::Bishop),
            6 => MoveKind::Promotion(PieceKind::Rook),
            7 => MoveKind::Promotion(PieceKind::Queen),
            _ => MoveKind::Normal,
        }
    }

    /// The move in UCI notation. Castling is written king-to-destination
    /// (`e1g1`) unless `chess960`, where it is king-takes-rook (`e1h1`), as
    /// engines do with `UCI_Chess960`.
    pub fn uci(self, chess960: bool) -> UciMove {
        UciMove { mv: self, chess960 }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({}{} {:?})", self.from(), self.to(), self.kind())
    }
}

/// A [`Move`] shown in UCI notation (see [`Move::uci`]).
#[derive(Clone, Copy, Debug)]
pub struct UciMove {
    mv: Move,
    chess960: bool,
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (from, to) = (self.mv.from(), self.mv.to());
        match self.mv.kind() {
            MoveKind::Castle if !self.chess960 => {
                let file = if to.file() > from.file() { 'g' } else { 'c' };
                write!(f, "{from}{file}{}", from.rank() + 1)
            }
            MoveKind::Promotion(kind) => {
                write!(f, "{from}{to}{}", kind.letter().to_ascii_lowercase())
            }
            _ => write!(f, "{from}{to}"),
        }
    }
}

/// The most legal moves any chess position has is 218; rounded up.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of legal moves, room for [`MAX_MOVES`].
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move(0); MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, mv: Move) {
        // A legal position never has more than 218 moves; a full list would
        // mean a generator bug, and indexing reports that instead of UB.
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// How many moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none (checkmate or stalemate).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// The set bits of `set`, lowest first, as square indices: the move
/// generator's loops (the same code as a `trailing_zeros` / `x & (x - 1)`
/// loop once inlined).
#[inline(always)]
pub(crate) fn bits(mut set: u64) -> impl Iterator<Item = u8> {
    core::iter::from_fn(move || {
        (set != 0).then(|| {
            let square = set.trailing_zeros() as u8;
            set &= set - 1;
            square
        })
    })
}
