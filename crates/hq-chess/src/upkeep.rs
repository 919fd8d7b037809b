//! What the board keeps up to date beside its pieces, for the move
//! generator: the options the perft rows of the bench matrix compare
//! ("does maintaining pay?").
//!
//! | option | kept per position | what the generator gains |
//! |---|---|---|
//! | [`Recompute`] | nothing | — (every attack set from the token) |
//! | [`Reversed`] | the reversed occupancy (Ryan Mack) | the pair entry points (`*_attacks_pair`): backends that reverse the occupancy take it instead |
//! | [`MackCheck`] | the reversed occupancy and reversed slider sets | also Mack's table-free in-check test for king moves and castling paths |
//! | [`AttackTable`] | every slider's attack set (Hyatt's incremental attack boards) | the attack sets of its own sliders, recomputed only when a changed square lies on them (attack reuse) |
//!
//! The board is copy-make, so a child's state is computed from its parent's
//! state and the squares the move changed ([`Upkeep`]'s `update`), never
//! from scratch; the tests (`tests/upkeep.rs`) check along random games that
//! the kept state always equals a fresh one. With copy-make the state is
//! also copied once per node: 8 bytes for [`Reversed`], 40 for
//! [`MackCheck`], 1 KiB for [`AttackTable`].

#![allow(
    private_interfaces,
    reason = "the option trait is sealed: its methods take the crate-private board, and \
              no code outside the crate can name or call them"
)]

use crate::board::{BISHOP, Board, QUEEN, ROOK};
use hq_core::{Bitboard, SliderAttacks, Square};
use hq_reverse::kernels::{computed_line_masks, positive_attacks};

/// A board option: see the module docs. Sealed: the generator relies on the
/// exact semantics of each option.
pub trait Upkeep: sealed::Upkeep {
    /// The option's name in the bench matrix (`recompute`, `reversed`, ...).
    const NAME: &'static str;
}

pub(crate) mod sealed {
    use super::Enemy;
    use crate::board::Board;
    use hq_core::SliderAttacks;

    /// The state and how the generator uses it.
    pub trait Upkeep: Copy + PartialEq + core::fmt::Debug + Send + Sync + 'static {
        /// The state of `board`, from scratch.
        fn new<B: SliderAttacks>(board: &Board, token: B) -> Self;

        /// The state of `child`, the position after a move from `parent`,
        /// kept up to date from `self` (the parent's state).
        fn update<B: SliderAttacks>(&self, parent: &Board, child: &Board, token: B) -> Self;

        /// The attacks of the side to move's slider `kind` (`BISHOP`,
        /// `ROOK` or `QUEEN`; a pinned queen asks for one of the others) on
        /// `from`, over the board's own occupancy `occ`.
        #[inline(always)]
        fn piece_attacks<B: SliderAttacks>(
            &self,
            token: B,
            kind: usize,
            from: u32,
            occ: u64,
        ) -> u64 {
            super::token_attacks(token, kind, from, occ)
        }

        /// Whether a slider of `enemy` attacks `square` when the board
        /// holds `occupancy` (the board's own occupancy with `lifted`
        /// removed: the king, and the castling rook).
        #[inline(always)]
        fn slider_attacks<B: SliderAttacks>(
            &self,
            token: B,
            square: u32,
            occupancy: u64,
            lifted: u64,
            enemy: Enemy,
        ) -> bool {
            let _ = lifted;
            super::token_slider_attacks(token, square, occupancy, enemy.rooks, enemy.bishops)
        }
    }
}

/// The side that may give check, as the generator's in-check tests see it
/// ([`sealed::Upkeep::slider_attacks`]): its colour and its sliders by the
/// lines they move along.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Enemy {
    /// Its colour (0 white, 1 black).
    pub(crate) side: usize,
    /// Its rooks and queens.
    pub(crate) rooks: u64,
    /// Its bishops and queens.
    pub(crate) bishops: u64,
}

#[inline(always)]
fn square(index: u32) -> Square {
    Square::from_index_masked(index as u8)
}

/// A slider's attacks from the token.
#[inline(always)]
fn token_attacks<B: SliderAttacks>(token: B, kind: usize, from: u32, occ: u64) -> u64 {
    let (sq, occ) = (square(from), Bitboard(occ));
    match kind {
        BISHOP => token.bishop_attacks(sq, occ).0,
        ROOK => token.rook_attacks(sq, occ).0,
        _ => token.queen_attacks(sq, occ).0,
    }
}

/// Whether the enemy's sliders attack `square`, by token lookups (skipped
/// when no enemy slider is even on a line through the square).
#[inline(always)]
fn token_slider_attacks<B: SliderAttacks>(
    token: B,
    square_index: u32,
    occupancy: u64,
    enemy_rooks: u64,
    enemy_bishops: u64,
) -> bool {
    use crate::tables::{BISHOP_LINES, ROOK_LINES};
    let (sq, occ) = (square(square_index), Bitboard(occupancy));
    let s = square_index as usize;
    (ROOK_LINES[s] & enemy_rooks != 0 && token.rook_attacks(sq, occ).0 & enemy_rooks != 0)
        || (BISHOP_LINES[s] & enemy_bishops != 0
            && token.bishop_attacks(sq, occ).0 & enemy_bishops != 0)
}

/// `x` with each set bit `s` moved to `63 - s`, for the few bits a move
/// changes: cheaper than a whole reversal (the way the reversed board is
/// kept in make/unmake: by the reversed move bits).
#[inline(always)]
fn reverse_few(mut x: u64) -> u64 {
    let mut out = 0;
    while x != 0 {
        out |= 1u64 << (63 - x.trailing_zeros());
        x &= x - 1;
    }
    out
}

/// Nothing kept: every attack set from the token.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Recompute;

impl Upkeep for Recompute {
    const NAME: &'static str = "recompute";
}

impl sealed::Upkeep for Recompute {
    #[inline(always)]
    fn new<B: SliderAttacks>(_: &Board, _: B) -> Self {
        Recompute
    }
    #[inline(always)]
    fn update<B: SliderAttacks>(&self, _: &Board, _: &Board, _: B) -> Self {
        Recompute
    }
}

/// Ryan Mack's reversed occupancy, kept by xor-ing the reversed bits of the
/// squares each move changes, and fed to the pair entry points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Reversed {
    /// `occupancy.reverse_bits()`.
    occupied: u64,
}

impl Upkeep for Reversed {
    const NAME: &'static str = "reversed";
}

impl sealed::Upkeep for Reversed {
    #[inline(always)]
    fn new<B: SliderAttacks>(board: &Board, _: B) -> Self {
        Reversed {
            occupied: board.occupied().reverse_bits(),
        }
    }
    #[inline(always)]
    fn update<B: SliderAttacks>(&self, parent: &Board, child: &Board, _: B) -> Self {
        Reversed {
            occupied: self.occupied ^ reverse_few(parent.occupied() ^ child.occupied()),
        }
    }
    #[inline(always)]
    fn piece_attacks<B: SliderAttacks>(&self, token: B, kind: usize, from: u32, occ: u64) -> u64 {
        let (sq, occ, rev) = (square(from), Bitboard(occ), Bitboard(self.occupied));
        match kind {
            BISHOP => token.bishop_attacks_pair(sq, occ, rev).0,
            ROOK => token.rook_attacks_pair(sq, occ, rev).0,
            _ => token.queen_attacks_pair(sq, occ, rev).0,
        }
    }
}

/// Mack's reversed occupancy and reversed slider sets, and his table-free
/// in-check test: the positive rays from the square on the occupancy meet
/// the enemy's sliders, the negative rays are positive rays on the reversed
/// occupancy from `63 - square` meeting the enemy's *reversed* sliders; no
/// reversal, no table (line masks by arithmetic). Piece moves use the pair
/// entry points as [`Reversed`] does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MackCheck {
    /// `occupancy.reverse_bits()`.
    occupied: u64,
    /// Per colour: rook-like and bishop-like pieces, reversed.
    sliders: [[u64; 2]; 2],
}

impl Upkeep for MackCheck {
    const NAME: &'static str = "mack-check";
}

/// Per colour: `[rook-like, bishop-like]`.
#[inline(always)]
fn slider_sets(board: &Board) -> [[u64; 2]; 2] {
    let orth = board.kinds[ROOK] | board.kinds[QUEEN];
    let diag = board.kinds[BISHOP] | board.kinds[QUEEN];
    board.colors.map(|c| [orth & c, diag & c])
}

impl sealed::Upkeep for MackCheck {
    #[inline(always)]
    fn new<B: SliderAttacks>(board: &Board, _: B) -> Self {
        MackCheck {
            occupied: board.occupied().reverse_bits(),
            sliders: slider_sets(board).map(|c| c.map(u64::reverse_bits)),
        }
    }
    #[inline(always)]
    fn update<B: SliderAttacks>(&self, parent: &Board, child: &Board, _: B) -> Self {
        let (before, after) = (slider_sets(parent), slider_sets(child));
        let mut sliders = self.sliders;
        for c in 0..2 {
            for k in 0..2 {
                sliders[c][k] ^= reverse_few(before[c][k] ^ after[c][k]);
            }
        }
        MackCheck {
            occupied: self.occupied ^ reverse_few(parent.occupied() ^ child.occupied()),
            sliders,
        }
    }
    #[inline(always)]
    fn piece_attacks<B: SliderAttacks>(&self, token: B, kind: usize, from: u32, occ: u64) -> u64 {
        Reversed {
            occupied: self.occupied,
        }
        .piece_attacks(token, kind, from, occ)
    }
    #[inline(always)]
    fn slider_attacks<B: SliderAttacks>(
        &self,
        _: B,
        square_index: u32,
        occupancy: u64,
        lifted: u64,
        enemy: Enemy,
    ) -> bool {
        let (s, r) = (square_index, square_index ^ 63);
        let rocc = self.occupied ^ reverse_few(lifted);
        let [rank, file, diagonal, anti] = computed_line_masks(square(s));
        let [r_rank, r_file, r_diagonal, r_anti] = computed_line_masks(square(r));
        let [r_orth, r_diag] = self.sliders[enemy.side];
        (positive_attacks(occupancy, rank, s) | positive_attacks(occupancy, file, s)) & enemy.rooks
            | (positive_attacks(occupancy, diagonal, s) | positive_attacks(occupancy, anti, s))
                & enemy.bishops
            | (positive_attacks(rocc, r_rank, r) | positive_attacks(rocc, r_file, r)) & r_orth
            | (positive_attacks(rocc, r_diagonal, r) | positive_attacks(rocc, r_anti, r)) & r_diag
            != 0
    }
}

/// Hyatt's incremental attack boards, the attack-from half: the rook-line
/// and bishop-line attack sets of every slider, kept by recomputing only
/// the sliders a move can have changed — the moved, promoted and placed
/// ones, and those whose attack set holds a square whose occupancy changed.
/// The others are reused as they are (attack reuse while a line is
/// unchanged).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct AttackTable {
    /// Rook-line attacks of the rook or queen on each square (0 elsewhere).
    orthogonal: [u64; 64],
    /// Bishop-line attacks of the bishop or queen on each square (0 elsewhere).
    diagonal: [u64; 64],
}

impl Upkeep for AttackTable {
    const NAME: &'static str = "attack-table";
}

impl sealed::Upkeep for AttackTable {
    fn new<B: SliderAttacks>(board: &Board, token: B) -> Self {
        let mut t = AttackTable {
            orthogonal: [0; 64],
            diagonal: [0; 64],
        };
        let occ = Bitboard(board.occupied());
        for sq in Bitboard(board.kinds[ROOK] | board.kinds[QUEEN]).iter() {
            t.orthogonal[sq as usize] = token.rook_attacks(sq, occ).0;
        }
        for sq in Bitboard(board.kinds[BISHOP] | board.kinds[QUEEN]).iter() {
            t.diagonal[sq as usize] = token.bishop_attacks(sq, occ).0;
        }
        t
    }

    #[inline(always)]
    fn update<B: SliderAttacks>(&self, parent: &Board, child: &Board, token: B) -> Self {
        let mut t = *self;
        let changed = parent.occupied() ^ child.occupied();
        let occ = Bitboard(child.occupied());
        let kinds = |b: &Board| {
            let [orth, diag] = [
                b.kinds[ROOK] | b.kinds[QUEEN],
                b.kinds[BISHOP] | b.kinds[QUEEN],
            ];
            // A capture keeps the square occupied but may change who is there.
            [
                [orth & b.colors[0], orth & b.colors[1]],
                [diag & b.colors[0], diag & b.colors[1]],
            ]
        };
        let (before, after) = (kinds(parent), kinds(child));
        for (k, (table, compute)) in [
            (&mut t.orthogonal, Line::Orthogonal),
            (&mut t.diagonal, Line::Diagonal),
        ]
        .into_iter()
        .enumerate()
        {
            let old = before[k][0] | before[k][1];
            let new = after[k][0] | after[k][1];
            // Sliders gone from a square, or changed colour there: cleared.
            let replaced = (before[k][0] & after[k][1]) | (before[k][1] & after[k][0]);
            for sq in Bitboard((old & !new) | replaced).iter() {
                table[sq as usize] = 0;
            }
            // New on a square (moved, promoted, captured onto), or seeing a
            // changed square: recomputed. The rest is reused.
            let mut dirty = (new & !old) | replaced;
            for sq in Bitboard(old & new & !replaced).iter() {
                if table[sq as usize] & changed != 0 {
                    dirty |= sq.bit();
                }
            }
            for sq in Bitboard(dirty).iter() {
                table[sq as usize] = compute.attacks(token, sq, occ);
            }
        }
        t
    }

    #[inline(always)]
    fn piece_attacks<B: SliderAttacks>(&self, _: B, kind: usize, from: u32, _: u64) -> u64 {
        let s = from as usize;
        match kind {
            BISHOP => self.diagonal[s],
            ROOK => self.orthogonal[s],
            _ => self.orthogonal[s] | self.diagonal[s],
        }
    }
}

/// The two line kinds of the attack table.
#[derive(Clone, Copy)]
enum Line {
    Orthogonal,
    Diagonal,
}

impl Line {
    #[inline(always)]
    fn attacks<B: SliderAttacks>(self, token: B, sq: Square, occ: Bitboard) -> u64 {
        match self {
            Line::Orthogonal => token.rook_attacks(sq, occ).0,
            Line::Diagonal => token.bishop_attacks(sq, occ).0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::sealed::Upkeep as _;
    use super::*;
    use crate::Position;
    use crate::playout::random_game;

    /// Positions rich in every kind of move: the start, Kiwipete (castling,
    /// en passant, many captures), promotions, and a Chess960 start.
    const STARTS: [&str; 4] = [
        crate::STARTPOS_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ];

    /// Along random games, the kept state always equals a fresh one.
    fn kept_equals_fresh<U: super::sealed::Upkeep>() -> u64 {
        let token = hq_scalar::ScalarRankTable::new().expect("portable backend");
        let mut moves = 0;
        for (i, fen) in STARTS.iter().enumerate() {
            let start = Position::from_fen(fen).expect("valid FEN");
            for seed in 0..12u64 {
                let mut parent = start;
                let mut kept = U::new(&parent.board, token);
                for child in random_game(&start, seed * 31 + i as u64, 300) {
                    kept = kept.update(&parent.board, &child.board, token);
                    assert_eq!(kept, U::new(&child.board, token), "after {child}");
                    parent = child;
                    moves += 1;
                }
            }
        }
        moves
    }

    #[test]
    fn every_option_keeps_its_state_exactly() {
        let n = kept_equals_fresh::<Reversed>();
        kept_equals_fresh::<MackCheck>();
        kept_equals_fresh::<AttackTable>();
        kept_equals_fresh::<Recompute>();
        assert!(n > 5_000, "only {n} moves played");
        println!("upkeep: 4 options kept exactly over {n} moves of random legal games");
    }

    #[test]
    fn mack_check_agrees_with_token_lookups() {
        let token = hq_scalar::ScalarRankTable::new().expect("portable backend");
        let mut checked = 0;
        for fen in STARTS {
            for child in random_game(&Position::from_fen(fen).expect("valid FEN"), 5, 200) {
                let b = &child.board;
                let m = MackCheck::new(b, token);
                let occ = b.occupied();
                for them in 0..2 {
                    let [orth, diag] = slider_sets(b)[them];
                    let enemy = Enemy {
                        side: them,
                        rooks: orth,
                        bishops: diag,
                    };
                    let king = (b.kinds[crate::board::KING] & b.colors[them ^ 1]).trailing_zeros();
                    for square in 0..64u32 {
                        for lifted in [0, 1u64 << king] {
                            let o = occ & !lifted;
                            assert_eq!(
                                m.slider_attacks(token, square, o, lifted, enemy),
                                token_slider_attacks(token, square, o, orth, diag),
                                "{child}: square {square}, lifted {lifted:#x}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        println!("upkeep: Mack's in-check test agrees with token lookups in {checked} cases");
    }
}
