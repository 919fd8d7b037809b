//! Perft: the leaf count of the legal move tree, with bulk counting at the
//! last ply, `divide`, and root splitting over threads.

use crate::board::{BISHOP, Board, CastlingRules, KNIGHT, PAWN, QUEEN, ROOK};
use crate::movegen::{CountSink, Sink, generate_any};
use crate::{Move, MoveList, Position};
use hq_core::SliderAttacks;
use rayon::prelude::*;

/// Recurses into every move it receives.
struct RecurseSink<'a, B> {
    board: &'a Board,
    rules: &'a CastlingRules,
    token: B,
    /// Depth left below the children.
    depth: u32,
    nodes: u64,
}

impl<B: SliderAttacks> RecurseSink<'_, B> {
    #[inline(always)]
    fn visit(&mut self, child: &Board) {
        self.nodes += perft_board(child, self.rules, self.token, self.depth);
    }
}

impl<B: SliderAttacks> Sink for RecurseSink<'_, B> {
    #[inline(always)]
    fn piece(&mut self, kind: usize, from: u8, mut targets: u64) {
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            let child = self.board.make_piece(self.rules, kind, from, to);
            self.visit(&child);
        }
    }

    #[inline(always)]
    fn pawns(&mut self, mut targets: u64, shift: i8) {
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            let child = self
                .board
                .make_pawn(self.rules, to.wrapping_sub(shift as u8), to, PAWN);
            self.visit(&child);
        }
    }

    #[inline(always)]
    fn promotions(&mut self, mut targets: u64, shift: i8) {
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            let from = to.wrapping_sub(shift as u8);
            for kind in [QUEEN, ROOK, BISHOP, KNIGHT] {
                let child = self.board.make_pawn(self.rules, from, to, kind);
                self.visit(&child);
            }
        }
    }

    #[inline(always)]
    fn en_passant(&mut self, from: u8, to: u8) {
        let child = self.board.make_en_passant(from, to);
        self.visit(&child);
    }

    #[inline(always)]
    fn castle(&mut self, r: usize) {
        let child = self.board.make_castle(self.rules, r);
        self.visit(&child);
    }
}

/// The number of legal moves: the generator with a counting sink.
#[inline(always)]
fn count_moves<B: SliderAttacks>(board: &Board, rules: &CastlingRules, token: B) -> u64 {
    let mut sink = CountSink(0);
    generate_any(board, rules, token, &mut sink);
    sink.0
}

/// Perft of a board; depth 1 is a bulk count, never a make.
fn perft_board<B: SliderAttacks>(
    board: &Board,
    rules: &CastlingRules,
    token: B,
    depth: u32,
) -> u64 {
    match depth {
        0 => 1,
        1 => count_moves(board, rules, token),
        _ => {
            let mut sink = RecurseSink {
                board,
                rules,
                token,
                depth: depth - 1,
                nodes: 0,
            };
            generate_any(board, rules, token, &mut sink);
            sink.nodes
        }
    }
}

/// The number of leaves of the legal move tree of `position`, `depth` plies
/// deep (perft), with slider attacks from `token`.
///
/// Monomorphized per backend: every attack lookup is a direct (usually
/// inlined) call on the token.
///
/// ```
/// use hq_core::SliderAttacks;
/// use hq_perft::{Position, perft};
/// let token = hq_scalar::ScalarRankTable::new().unwrap();
/// assert_eq!(perft(&Position::startpos(), 3, token), 8_902);
/// ```
pub fn perft<B: SliderAttacks>(position: &Position, depth: u32, token: B) -> u64 {
    perft_board(&position.board, &position.rules, token, depth)
}

/// Each legal move of `position` with the perft of the position after it
/// (`depth - 1` plies), in generation order: what engines print for
/// `go perft`, to find where two move generators disagree.
///
/// `depth` 0 has no moves to divide and gives an empty list.
pub fn divide<B: SliderAttacks>(position: &Position, depth: u32, token: B) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = position.legal_moves(token);
    moves
        .iter()
        .map(|&mv| (mv, perft(&position.play(mv), depth - 1, token)))
        .collect()
}

/// [`divide`] with the root moves shared out over rayon's current thread pool.
pub fn divide_parallel<B: SliderAttacks>(
    position: &Position,
    depth: u32,
    token: B,
) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves: MoveList = position.legal_moves(token);
    moves
        .as_slice()
        .par_iter()
        .map(|&mv| (mv, perft(&position.play(mv), depth - 1, token)))
        .collect()
}

/// [`perft`] with the root moves shared out over `threads` threads (a rayon
/// pool made for the call; 1 means the plain single-threaded [`perft`]).
///
/// # Errors
///
/// If the thread pool cannot be built.
pub fn perft_parallel<B: SliderAttacks>(
    position: &Position,
    depth: u32,
    token: B,
    threads: usize,
) -> Result<u64, rayon::ThreadPoolBuildError> {
    if threads <= 1 || depth <= 1 {
        return Ok(perft(position, depth, token));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    Ok(pool.install(|| {
        divide_parallel(position, depth, token)
            .iter()
            .map(|&(_, n)| n)
            .sum()
    }))
}
