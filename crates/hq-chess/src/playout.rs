//! Random legal games: what drives the tests of the board options (every
//! kind of board update, over long games) and any other random walk.
//!
//! A uniform choice among the legal moves rarely castles, captures en
//! passant or promotes, so [`choose_move`] picks among those *special*
//! moves with probability 1/2 whenever there are any. That makes every kind
//! of update common without changing what the games are: legal games.

use crate::{Move, MoveKind, Position};
use hq_core::{SliderAttacks, SplitMix64};

/// Whether a move is one of the rare kinds [`choose_move`] favours.
fn is_special(position: &Position, mv: Move) -> bool {
    matches!(
        mv.kind(),
        MoveKind::Castle | MoveKind::EnPassant | MoveKind::Promotion(_)
    ) || position.piece_at(mv.to()) != hq_core::piece::Piece::NONE
}

/// A legal move of `position` picked by the random number `choice` (`None`
/// if there is none: mate or stalemate). With `choice` even and special
/// moves (castling, en passant, promotions, captures) on offer, one of those
/// is taken; otherwise any move, uniformly.
pub fn choose_move<B: SliderAttacks>(position: &Position, choice: u64, token: B) -> Option<Move> {
    let moves = position.legal_moves(token);
    if moves.is_empty() {
        return None;
    }
    let pick = choice >> 1;
    if choice & 1 == 0 {
        let special = |m: &&Move| is_special(position, **m);
        let specials = moves.iter().filter(special).count();
        if specials > 0 {
            return moves
                .iter()
                .filter(special)
                .nth((pick % specials as u64) as usize)
                .copied();
        }
    }
    Some(moves[(pick % moves.len() as u64) as usize])
}

/// A random legal game of up to `plies` moves from `start` (shorter only if
/// it ends), as the list of positions after each move, `start` excluded.
///
/// ```
/// use hq_chess::{Position, playout::random_game};
/// let game = random_game(&Position::startpos(), 7, 100);
/// assert!(game.len() > 10);
/// assert_eq!(game, random_game(&Position::startpos(), 7, 100)); // same seed, same game
/// ```
pub fn random_game(start: &Position, seed: u64, plies: usize) -> Vec<Position> {
    let token = hq_scalar::ScalarRankTable::new().expect("portable backend");
    let mut rng = SplitMix64(seed);
    let mut position = *start;
    let mut game = Vec::with_capacity(plies);
    for _ in 0..plies {
        let Some(mv) = choose_move(&position, rng.next_u64(), token) else {
            break;
        };
        position = position.play(mv);
        game.push(position);
    }
    game
}
