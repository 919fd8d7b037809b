//! [`AttackReuse`]: keep computed attack sets, reuse one while no square on
//! it changed occupancy.
//!
//! # Why the test is exact
//!
//! The attack set of a slider on `sq` is, ray by ray, the squares walked
//! from `sq` up to and including the first occupied one. The walk only ever
//! looks at squares that end up *in* the attack set. So if every square of
//! the stored set has the same occupancy now as when it was computed, the
//! walk is the same and so is the set, whatever changed elsewhere. The
//! entry stores the set and its occupied squares (`blockers`), and is reused
//! when `occupancy & attacks == blockers`: one `and`, one compare. Keyed by
//! square and line kind, not by piece: which piece stands on `sq` does not
//! matter to the attack set.
//!
//! # Measuring the hit rate
//!
//! [`AttackReuse::observe`] asks for the attack set of every slider of a
//! position, as a move generator would. Call it on each position of a move
//! sequence, in the order visited, then read [`AttackReuse::stats`]. A perft
//! driver calls it once per node (in its depth-first visiting order) with
//! the node's occupancy, rooks + queens and bishops + queens of both
//! colours; [`reuse_on_random_games`] does it for random games and
//! [`reuse_on_pseudo_legal_tree`] for a perft-like depth-first walk over
//! *pseudo-legal* moves (the stand-in until a legal perft exists).

use crate::Position;
use crate::playout::random_game;
use crate::{ReverseBoard, SliderKind};
use hq_core::piece::Color;
use hq_core::{Bitboard, Square};
use hq_reverse::kernels::{bishop_attacks_split, join, reverse, rook_attacks_split};

/// One stored attack set.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
struct Entry {
    attacks: u64,
    /// `occupancy & attacks` when computed; `u64::MAX` (impossible: it would
    /// need every square attacked) for an empty entry.
    blockers: u64,
}

const EMPTY: Entry = Entry {
    attacks: 0,
    blockers: u64::MAX,
};

/// Lookups and hits so far.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct ReuseStats {
    /// Attack sets asked for.
    pub lookups: u64,
    /// Of those, answered from a stored set.
    pub hits: u64,
}

impl ReuseStats {
    /// `hits / lookups` (0 with no lookups).
    pub fn hit_rate(&self) -> f64 {
        if self.lookups == 0 {
            0.0
        } else {
            self.hits as f64 / self.lookups as f64
        }
    }
}

/// Stored rook-line and bishop-line attack sets of every square, with counters.
#[derive(Clone, Debug)]
pub struct AttackReuse {
    /// `[SliderKind][square]`.
    entries: [[Entry; 64]; 2],
    stats: ReuseStats,
}

impl Default for AttackReuse {
    fn default() -> AttackReuse {
        AttackReuse::new()
    }
}

impl AttackReuse {
    /// Nothing stored yet.
    pub fn new() -> AttackReuse {
        AttackReuse {
            entries: [[EMPTY; 64]; 2],
            stats: ReuseStats::default(),
        }
    }

    /// The counters.
    pub fn stats(&self) -> ReuseStats {
        self.stats
    }

    /// Attacks of `kind` from `sq`: the stored set if still valid, else
    /// computed from `occupancy` and its reversal `reversed` and stored.
    #[inline]
    pub fn attacks(&mut self, kind: SliderKind, sq: Square, occupancy: u64, reversed: u64) -> u64 {
        debug_assert_eq!(reversed, reverse(occupancy));
        let entry = &mut self.entries[kind as usize][sq as usize];
        self.stats.lookups += 1;
        if occupancy & entry.attacks == entry.blockers {
            self.stats.hits += 1;
            return entry.attacks;
        }
        let attacks = join(match kind {
            SliderKind::Diagonal => bishop_attacks_split(occupancy, reversed, sq),
            SliderKind::Orthogonal => rook_attacks_split(occupancy, reversed, sq),
        });
        *entry = Entry {
            attacks,
            blockers: occupancy & attacks,
        };
        attacks
    }

    /// Asks for the attack set of every slider in a position, as a move
    /// generator would: rook lines for `orthogonal` (rooks and queens of both
    /// colours), bishop lines for `diagonal` (bishops and queens). Returns
    /// the union, so the work cannot be optimised away.
    ///
    /// This is the entry point for a perft driver: call it once per node,
    /// in visiting order, then read [`AttackReuse::stats`].
    pub fn observe(
        &mut self,
        occupancy: Bitboard,
        orthogonal: Bitboard,
        diagonal: Bitboard,
    ) -> Bitboard {
        let reversed = reverse(occupancy.0);
        let mut union = 0;
        for sq in orthogonal {
            union |= self.attacks(SliderKind::Orthogonal, sq, occupancy.0, reversed);
        }
        for sq in diagonal {
            union |= self.attacks(SliderKind::Diagonal, sq, occupancy.0, reversed);
        }
        Bitboard(union)
    }

    /// [`AttackReuse::observe`] on a maintained board (both colours' sliders).
    pub fn observe_board(&mut self, board: &ReverseBoard) -> Bitboard {
        let both = |kind| board.sliders(Color::White, kind) | board.sliders(Color::Black, kind);
        self.observe(
            Bitboard(board.occupied()),
            Bitboard(both(SliderKind::Orthogonal)),
            Bitboard(both(SliderKind::Diagonal)),
        )
    }
}

/// The hit rate of attack reuse on `games` random pseudo-legal games of up
/// to `plies` moves from `start` (seeds `seed`, `seed + 1`, ...): one
/// [`AttackReuse`] per game, observing every position including the first.
pub fn reuse_on_random_games(start: &Position, seed: u64, games: u64, plies: usize) -> ReuseStats {
    let mut total = ReuseStats::default();
    for game in 0..games {
        let mut board = ReverseBoard::new(start.clone());
        let mut reuse = AttackReuse::new();
        reuse.observe_board(&board);
        for mv in random_game(start, seed.wrapping_add(game), plies) {
            board.make(mv);
            reuse.observe_board(&board);
        }
        total.lookups += reuse.stats.lookups;
        total.hits += reuse.stats.hits;
    }
    total
}

/// The hit rate of attack reuse on a depth-first walk of every
/// pseudo-legal move sequence of `depth` plies from `start`, observing every
/// node in visiting order with one [`AttackReuse`]: the access pattern of a
/// perft, on pseudo-legal moves (so more nodes than a legal perft).
pub fn reuse_on_pseudo_legal_tree(start: &Position, depth: u32) -> ReuseStats {
    fn walk(board: &mut ReverseBoard, reuse: &mut AttackReuse, depth: u32) {
        reuse.observe_board(board);
        if depth == 0 {
            return;
        }
        let mut moves = Vec::new();
        board.position().pseudo_legal_moves(&mut moves);
        for mv in moves {
            let undo = board.make(mv);
            walk(board, reuse, depth - 1);
            board.unmake(mv, undo);
        }
    }
    let mut board = ReverseBoard::new(start.clone());
    let mut reuse = AttackReuse::new();
    walk(&mut board, &mut reuse, depth);
    reuse.stats
}
