//! Perft: the leaf count of the legal move tree, with bulk counting at the
//! last ply, `divide`, and root splitting over threads.

use crate::board::{BISHOP, Board, CastlingRules, KNIGHT, PAWN, QUEEN, ROOK, bits};
use crate::hash::{NoTable, Table};
use crate::movegen::{CountSink, Sink, generate_any};
use crate::upkeep::{Recompute, Upkeep};
use crate::{HashTable, Move, MoveList, Position};
use hq_core::SliderAttacks;
use rayon::prelude::*;

/// Recurses into every move it receives.
struct RecurseSink<'a, B, U, T> {
    board: &'a Board,
    /// What the board keeps, for this board.
    upkeep: &'a U,
    rules: &'a CastlingRules,
    token: B,
    /// The transposition table, or none.
    table: &'a mut T,
    /// Depth left below the children.
    depth: u32,
    nodes: u64,
}

impl<B: SliderAttacks, U: Upkeep, T: Table> RecurseSink<'_, B, U, T> {
    #[inline(always)]
    fn visit(&mut self, child: &Board) {
        let upkeep = self.upkeep.update(self.board, child, self.token);
        self.nodes += perft_at(
            child, &upkeep, self.rules, self.token, self.depth, self.table,
        );
    }
}

impl<B: SliderAttacks, U: Upkeep, T: Table> Sink for RecurseSink<'_, B, U, T> {
    #[inline(always)]
    fn piece(&mut self, kind: usize, from: u8, targets: u64) {
        for to in bits(targets) {
            let child = self.board.make_piece(self.rules, kind, from, to);
            self.visit(&child);
        }
    }

    #[inline(always)]
    fn pawns(&mut self, targets: u64, shift: i8) {
        for to in bits(targets) {
            let child = self
                .board
                .make_pawn(self.rules, to.wrapping_sub(shift as u8), to, PAWN);
            self.visit(&child);
        }
    }

    #[inline(always)]
    fn promotions(&mut self, targets: u64, shift: i8) {
        for to in bits(targets) {
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
fn count_moves<B: SliderAttacks, U: Upkeep>(
    board: &Board,
    upkeep: &U,
    rules: &CastlingRules,
    token: B,
) -> u64 {
    let mut sink = CountSink(0);
    generate_any(board, upkeep, rules, token, &mut sink);
    sink.0
}

/// Perft of a board, each node compiled for the token's level
/// ([`SliderAttacks::run_compiled`]): one call into a `#[target_feature]`
/// function per node, with the generator, the kernels and the bulk
/// counting inlined into it (popcount bound at the last ply: the portable
/// x86-64 baseline has no POPCNT). Depth 1 is a bulk count, never a make.
/// Interior nodes probe `table` first and store what they count (with
/// [`NoTable`], nothing).
fn perft_at<B: SliderAttacks, U: Upkeep, T: Table>(
    board: &Board,
    upkeep: &U,
    rules: &CastlingRules,
    token: B,
    depth: u32,
    table: &mut T,
) -> u64 {
    token.run_compiled(
        #[inline(always)]
        |token| match depth {
            0 => 1,
            1 => count_moves(board, upkeep, rules, token),
            _ => {
                let key = T::key(board, depth);
                if let Some(nodes) = table.probe(key) {
                    return nodes;
                }
                let mut sink = RecurseSink {
                    board,
                    upkeep,
                    rules,
                    token,
                    table: &mut *table,
                    depth: depth - 1,
                    nodes: 0,
                };
                generate_any(board, upkeep, rules, token, &mut sink);
                let nodes = sink.nodes;
                table.store(key, nodes);
                nodes
            }
        },
    )
}

/// Runs the recursion, the board keeping what `U` keeps.
fn perft_board<B: SliderAttacks, U: Upkeep>(
    board: &Board,
    rules: &CastlingRules,
    token: B,
    depth: u32,
) -> u64 {
    perft_at(
        board,
        &U::new(board, token),
        rules,
        token,
        depth,
        &mut NoTable,
    )
}

/// [`perft`] with a transposition table, as engines search: every interior
/// node (two plies or more above the leaves) probes `table`, and on a miss
/// counts and stores its count. The same counts as [`perft`]; the speed of
/// move generation between random reads of a table far larger than the
/// caches (a "hash perft").
///
/// ```
/// use hq_core::SliderAttacks;
/// use hq_chess::{HashTable, Position, perft_hashed};
/// let token = hq_scalar::ScalarRankTable::new().unwrap();
/// let mut table = HashTable::new(1);
/// assert_eq!(perft_hashed(&Position::startpos(), 4, token, &mut table), 197_281);
/// ```
pub fn perft_hashed<B: SliderAttacks>(
    position: &Position,
    depth: u32,
    token: B,
    table: &mut HashTable,
) -> u64 {
    let board = &position.board;
    let upkeep = Recompute;
    perft_at(board, &upkeep, &position.rules, token, depth, table)
}

/// The number of leaves of the legal move tree of `position`, `depth` plies
/// deep (perft), with slider attacks from `token`.
///
/// Monomorphized per backend: every attack lookup is a direct (usually
/// inlined) call on the token.
///
/// ```
/// use hq_core::SliderAttacks;
/// use hq_chess::{Position, perft};
/// let token = hq_scalar::ScalarRankTable::new().unwrap();
/// assert_eq!(perft(&Position::startpos(), 3, token), 8_902);
/// ```
pub fn perft<B: SliderAttacks>(position: &Position, depth: u32, token: B) -> u64 {
    perft_with::<Recompute, B>(position, depth, token)
}

/// [`perft`] on a backend chosen at run time (`None`: hq's choice for this
/// CPU), compiled here for every backend, so that a caller (a test, a
/// tool) does not compile a perft per backend itself.
///
/// ```
/// use hq_chess::{Position, perft_on};
/// assert_eq!(perft_on(None, &Position::startpos(), 3).unwrap(), 8_902);
/// ```
///
/// # Errors
/// The backend cannot run on this CPU.
#[cfg(feature = "runners")]
pub fn perft_on(
    backend: Option<hq::Backend>,
    position: &Position,
    depth: u32,
) -> Result<u64, hq::BackendError> {
    struct Job<'a>(&'a Position, u32);
    impl hq::WithBackend for Job<'_> {
        type Output = u64;
        fn run<B: SliderAttacks>(self, token: B) -> u64 {
            perft(self.0, self.1, token)
        }
    }
    on_backend(backend, Job(position, depth))
}

/// `job` on `backend`, or on hq's choice for this CPU.
#[cfg(all(feature = "runners", not(test)))]
pub(crate) fn on_backend<W: hq::WithBackend>(
    backend: Option<hq::Backend>,
    job: W,
) -> Result<W::Output, hq::BackendError> {
    match backend {
        None => Ok(hq::with_active_backend(job)),
        Some(b) => hq::with_backend(b, job),
    }
}

/// In this library's unit-test build, `job` on `backend` only where it is
/// the portable `scalar-rank-table` (or hq's choice, which the unit tests
/// take as that), else the error: the every-backend copies of the jobs
/// above are most of the library's build time, and would be compiled a
/// second time for a few unit tests (the figures are in the commit that
/// made this split). The integration tests, the binaries and the fuzz
/// targets run the real one.
#[cfg(all(feature = "runners", test))]
pub(crate) fn on_backend<W: hq::WithBackend>(
    backend: Option<hq::Backend>,
    job: W,
) -> Result<W::Output, hq::BackendError> {
    match backend {
        None | Some(hq::Backend::ScalarRankTable) => {
            let token =
                hq_scalar::ScalarRankTable::new().expect("the portable backend runs anywhere");
            Ok(job.run(token))
        }
        Some(b) => Err(hq::BackendError::Invalid(format!(
            "{} is not compiled into hq-chess's unit-test build",
            b.name()
        ))),
    }
}

/// [`perft`] with the board keeping what `U` keeps ([`crate::upkeep`]):
/// the same count, another speed.
///
/// ```
/// use hq_core::SliderAttacks;
/// use hq_chess::upkeep::{AttackTable, Reversed};
/// use hq_chess::{Position, perft_with};
/// let token = hq_reverse::ReverseBitboards::new().unwrap();
/// assert_eq!(perft_with::<Reversed, _>(&Position::startpos(), 3, token), 8_902);
/// assert_eq!(perft_with::<AttackTable, _>(&Position::startpos(), 3, token), 8_902);
/// ```
pub fn perft_with<U: Upkeep, B: SliderAttacks>(position: &Position, depth: u32, token: B) -> u64 {
    perft_board::<B, U>(&position.board, &position.rules, token, depth)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The portable build is not what runs on a CPU with x86-64-v3, so it is
    /// checked here directly.
    #[test]
    fn portable_build_counts_right() {
        let token = hq_scalar::ScalarRankTable::new().expect("portable backend");
        for (fen, depth, expected) in [
            (crate::STARTPOS_FEN, 4, 197_281),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                3,
                97_862,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                4,
                422_333,
            ),
            (
                "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1",
                4,
                285_754,
            ),
        ] {
            let p = Position::from_fen(fen).expect("valid FEN");
            assert_eq!(
                perft_at(&p.board, &Recompute, &p.rules, token, depth, &mut NoTable),
                expected,
                "{fen}"
            );
            let mut table = HashTable::new(1);
            for _ in 0..2 {
                // The second time from a full table: every interior node a hit.
                assert_eq!(
                    perft_hashed(&p, depth, token, &mut table),
                    expected,
                    "hashed {fen}"
                );
            }
        }
    }
}
