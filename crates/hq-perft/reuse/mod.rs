//! Attack-set reuse ([`hq_moves::AttackReuse`]) measured on *legal* perft
//! trees, shared by `examples/perft_reuse.rs` and `tests/reuse.rs` (included
//! with `#[path]`; hq-reverse is a dev-dependency here because hq-perft already
//! reaches it through `hq`, so the other direction would be a cycle).
//!
//! The walk is perft's: depth first, children in [`Position::legal_moves`]
//! order, every node observed before its children (leaves included, unless
//! [`Observed::InteriorNodes`]), one [`AttackReuse`] for the whole tree.

use hq_core::piece::PieceKind;
use hq_core::{Bitboard, SliderAttacks, Square};
use hq_moves::{AttackReuse, ReuseStats};
use hq_perft::Position;

/// Whose sliders a node asks attack sets for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Sides {
    /// The side to move's rooks, bishops and queens: exactly what hq-perft's
    /// legal generator asks the backend for at a node (its checks and pins
    /// come from line tables, not from enemy attack sets).
    SideToMove,
    /// Both colours' sliders: engines that also build the opponent's attack
    /// map at every node (king danger, exchange evaluation, mobility) ask for
    /// these; hq-reverse's pseudo-legal stand-in observes both too.
    Both,
}

impl Sides {
    /// For printing.
    pub fn name(self) -> &'static str {
        match self {
            Sides::SideToMove => "side to move",
            Sides::Both => "both sides",
        }
    }
}

/// Which nodes of the tree ask for attack sets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Observed {
    /// Every node, leaves included: a search that generates (or evaluates
    /// with attack sets) at every node. The observed count is
    /// `perft(0) + perft(1) + ... + perft(depth)`.
    EveryNode,
    /// Only the nodes that generate moves (depth left >= 1): a perft with
    /// bulk counting, which never generates at the leaves. Same sequence, so
    /// same rate, as [`Observed::EveryNode`] one ply shallower.
    InteriorNodes,
}

impl Observed {
    /// For printing.
    pub fn name(self) -> &'static str {
        match self {
            Observed::EveryNode => "every node",
            Observed::InteriorNodes => "interior nodes",
        }
    }
}

/// The occupancy of a position and the sliders whose attack sets it asks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct NodeSliders {
    /// All pieces of both colours.
    pub occupancy: Bitboard,
    /// Rooks and queens (of the chosen [`Sides`]).
    pub orthogonal: Bitboard,
    /// Bishops and queens (of the chosen [`Sides`]).
    pub diagonal: Bitboard,
}

/// The bitboards of `position` from its public API (`piece_at`), so the
/// measurement needs nothing private of hq-perft.
pub fn node_sliders(position: &Position, sides: Sides) -> NodeSliders {
    let mover = position.side_to_move();
    let mut found = NodeSliders {
        occupancy: Bitboard(0),
        orthogonal: Bitboard(0),
        diagonal: Bitboard(0),
    };
    for sq in Square::ALL {
        let piece = position.piece_at(sq);
        let (Some(color), Some(kind)) = (piece.color(), piece.kind()) else {
            continue;
        };
        found.occupancy = found.occupancy.with(sq);
        if sides == Sides::SideToMove && color != mover {
            continue;
        }
        if matches!(kind, PieceKind::Rook | PieceKind::Queen) {
            found.orthogonal = found.orthogonal.with(sq);
        }
        if matches!(kind, PieceKind::Bishop | PieceKind::Queen) {
            found.diagonal = found.diagonal.with(sq);
        }
    }
    found
}

/// Calls `visit(node, depth_left)` on every node of the legal tree of
/// `position`, `depth` plies deep, in perft's order: depth first, a node
/// before its children, children in [`Position::legal_moves`] order.
pub fn visit_tree<B: SliderAttacks>(
    position: &Position,
    depth: u32,
    token: B,
    visit: &mut impl FnMut(&Position, u32),
) {
    visit(position, depth);
    if depth == 0 {
        return;
    }
    for &mv in position.legal_moves(token).as_slice() {
        visit_tree(&position.play(mv), depth - 1, token, visit);
    }
}

/// What one walk measured.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TreeReuse {
    /// Nodes visited at each ply from the root (`[0]` is the root): these are
    /// perft(0), perft(1), ... if the walk is right.
    pub nodes_per_ply: Vec<u64>,
    /// Nodes passed to [`AttackReuse::observe`].
    pub observed_nodes: u64,
    /// Lookups and hits over the whole walk.
    pub stats: ReuseStats,
}

/// Walks the legal tree with [`visit_tree`] and one [`AttackReuse`],
/// observing the `sides` sliders of the `observed` nodes in visiting order.
pub fn measure<B: SliderAttacks>(
    position: &Position,
    depth: u32,
    token: B,
    sides: Sides,
    observed: Observed,
) -> TreeReuse {
    let mut reuse = AttackReuse::new();
    let mut nodes_per_ply = vec![0u64; depth as usize + 1];
    let mut observed_nodes = 0u64;
    // Keeps the attack sets alive so the lookups cannot be optimised away.
    let mut sink = Bitboard(0);
    visit_tree(position, depth, token, &mut |node, depth_left| {
        nodes_per_ply[(depth - depth_left) as usize] += 1;
        if depth_left == 0 && observed == Observed::InteriorNodes {
            return;
        }
        let s = node_sliders(node, sides);
        sink ^= reuse.observe(s.occupancy, s.orthogonal, s.diagonal);
        observed_nodes += 1;
    });
    std::hint::black_box(sink);
    TreeReuse {
        nodes_per_ply,
        observed_nodes,
        stats: reuse.stats(),
    }
}
