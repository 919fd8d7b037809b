//! Random pseudo-legal games.
//!
//! A uniform choice among the pseudo-legal moves rarely castles or captures
//! en passant (a handful of chances per game), so [`choose_move`] picks among
//! the *special* moves (castling, en passant, promotions) with probability
//! 1/2 whenever there are any. That makes every kind of board update common
//! in tests without changing what the games are: still pseudo-legal games.

use crate::{Move, MoveKind, Position};

/// SplitMix64: a tiny fixed-seed generator, enough to pick moves.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Whether a move is one of the rare kinds [`choose_move`] favours.
fn is_special(mv: Move) -> bool {
    matches!(
        mv.kind(),
        MoveKind::CastleKingside
            | MoveKind::CastleQueenside
            | MoveKind::EnPassant
            | MoveKind::Promotion(_)
            | MoveKind::PromotionCapture(_)
    )
}

/// A pseudo-legal move of `position` picked by the random number `choice`
/// (`None` if there is none). `buffer` is scratch space, to avoid allocating.
///
/// With `choice` even and special moves on offer, one of those is
/// taken; otherwise any move, uniformly.
pub fn choose_move(position: &Position, choice: u64, buffer: &mut Vec<Move>) -> Option<Move> {
    buffer.clear();
    position.pseudo_legal_moves(buffer);
    if buffer.is_empty() {
        return None;
    }
    let pick = choice >> 1;
    if choice & 1 == 0 {
        let specials = buffer.iter().filter(|&&m| is_special(m)).count();
        if specials > 0 {
            return buffer
                .iter()
                .copied()
                .filter(|&m| is_special(m))
                .nth((pick % specials as u64) as usize);
        }
    }
    Some(buffer[(pick % buffer.len() as u64) as usize])
}

/// A random game of up to `plies` moves from `start` (shorter only if a side
/// has no move), as the list of moves.
///
/// ```
/// use hq_moves::{Position, playout::random_game};
/// let game = random_game(&Position::start(), 7, 100);
/// assert_eq!(game.len(), 100);
/// assert_eq!(game, random_game(&Position::start(), 7, 100)); // same seed, same game
/// ```
pub fn random_game(start: &Position, seed: u64, plies: usize) -> Vec<Move> {
    let mut rng = Rng(seed);
    let mut position = start.clone();
    let mut buffer = Vec::new();
    let mut game = Vec::with_capacity(plies);
    for _ in 0..plies {
        let Some(mv) = choose_move(&position, rng.next_u64(), &mut buffer) else {
            break;
        };
        position.make(mv);
        game.push(mv);
    }
    game
}

/// How many moves of each kind a set of games contained: tests use it to
/// show that every kind of board update was exercised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KindCounts {
    /// Quiet moves and double pushes.
    pub quiet: u64,
    /// Double pushes (also counted in `quiet`).
    pub double_push: u64,
    /// Castlings, both sides.
    pub castling: u64,
    /// Plain captures.
    pub capture: u64,
    /// En-passant captures.
    pub en_passant: u64,
    /// Promotions without capture.
    pub promotion: u64,
    /// Promotions with capture.
    pub promotion_capture: u64,
}

impl KindCounts {
    /// Counts `mv`.
    pub fn add(&mut self, mv: Move) {
        match mv.kind() {
            MoveKind::Quiet => self.quiet += 1,
            MoveKind::DoublePush => {
                self.quiet += 1;
                self.double_push += 1;
            }
            MoveKind::CastleKingside | MoveKind::CastleQueenside => self.castling += 1,
            MoveKind::Capture => self.capture += 1,
            MoveKind::EnPassant => self.en_passant += 1,
            MoveKind::Promotion(_) => self.promotion += 1,
            MoveKind::PromotionCapture(_) => self.promotion_capture += 1,
        }
    }

    /// Whether every kind occurred at least `n` times.
    pub fn each_at_least(&self, n: u64) -> bool {
        [
            self.quiet,
            self.double_push,
            self.castling,
            self.capture,
            self.en_passant,
            self.promotion,
            self.promotion_capture,
        ]
        .iter()
        .all(|&c| c >= n)
    }
}
