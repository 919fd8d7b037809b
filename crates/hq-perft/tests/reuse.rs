//! Attack-set reuse on legal perft trees at depth 3 (the measurement itself,
//! at depths 5 and 4, is `examples/perft_reuse.rs`): the walk observes
//! exactly the perft tree, and every reused attack set is the oracle's.

#[path = "../reuse/mod.rs"]
mod reuse;

use hq_core::{Bitboard, SliderAttacks, Square, reference};
use hq_moves::{AttackReuse, ReuseStats, SliderKind};
use hq_perft::{Position, perft};
use reuse::{Observed, Sides, measure, node_sliders, visit_tree};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const DEPTH: u32 = 3;

fn trees() -> [(&'static str, Position); 2] {
    [
        ("startpos", Position::startpos()),
        (
            "kiwipete",
            KIWIPETE.parse().expect("Kiwipete is a valid FEN"),
        ),
    ]
}

fn token() -> hq_scalar::ScalarReverse {
    hq_scalar::ScalarReverse::new().expect("the portable backend runs everywhere")
}

/// The hit rate is over the exact perft tree: per ply the walk visits
/// perft(ply) nodes, and it observes their sum (without the leaves for
/// interior-only observation).
#[test]
fn observed_nodes_are_the_perft_tree() {
    let token = token();
    for (name, position) in trees() {
        let expected: Vec<u64> = (0..=DEPTH).map(|d| perft(&position, d, token)).collect();
        for sides in [Sides::SideToMove, Sides::Both] {
            for observed in [Observed::EveryNode, Observed::InteriorNodes] {
                let result = measure(&position, DEPTH, token, sides, observed);
                assert_eq!(result.nodes_per_ply, expected, "{name}, {sides:?}");
                let exact: u64 = match observed {
                    Observed::EveryNode => expected.iter().sum(),
                    Observed::InteriorNodes => expected[..DEPTH as usize].iter().sum(),
                };
                assert_eq!(
                    result.observed_nodes, exact,
                    "{name}, {sides:?}, {observed:?}"
                );
                println!(
                    "{name} depth {DEPTH}, {}, {}: {} nodes, {} of {} attack sets reused, hit rate {:.2} %",
                    sides.name(),
                    observed.name(),
                    result.observed_nodes,
                    result.stats.hits,
                    result.stats.lookups,
                    100.0 * result.stats.hit_rate()
                );
                assert!(
                    result.stats.hits > 0 && result.stats.hits < result.stats.lookups,
                    "{name}: {:?}",
                    result.stats
                );
            }
        }
    }
}

/// Replays the measurement lookup by lookup (observe's order: rook lines of
/// each orthogonal slider, then bishop lines of each diagonal one, squares
/// ascending) and compares every set, reused or recomputed, with the ray
/// walking oracle. The replay must count the same lookups and hits as
/// `measure`, so the sets checked are the ones the hit rate counts.
#[test]
fn every_reused_attack_set_is_the_oracles() {
    let token = token();
    for (name, position) in trees() {
        for sides in [Sides::SideToMove, Sides::Both] {
            let mut reuse = AttackReuse::new();
            let mut checked_hits = 0u64;
            visit_tree(&position, DEPTH, token, &mut |node, _| {
                let s = node_sliders(node, sides);
                let occ = s.occupancy.0;
                let reversed = occ.reverse_bits();
                let lookups = s
                    .orthogonal
                    .into_iter()
                    .map(|sq| (SliderKind::Orthogonal, sq))
                    .chain(s.diagonal.into_iter().map(|sq| (SliderKind::Diagonal, sq)));
                for (kind, sq) in lookups {
                    let hits_before = reuse.stats().hits;
                    let got = reuse.attacks(kind, sq, occ, reversed);
                    let reused = reuse.stats().hits > hits_before;
                    checked_hits += u64::from(reused);
                    let oracle = oracle(kind, sq, s.occupancy);
                    assert_eq!(
                        got, oracle,
                        "{name}: {kind:?} from {sq} (reused: {reused}) in {node}"
                    );
                }
            });
            let measured = measure(&position, DEPTH, token, sides, Observed::EveryNode).stats;
            let replayed: ReuseStats = reuse.stats();
            assert_eq!(replayed, measured, "{name}, {sides:?}");
            assert_eq!(checked_hits, measured.hits);
            assert!(checked_hits > 0, "{name}: no reused set was checked");
        }
    }
}

fn oracle(kind: SliderKind, sq: Square, occupancy: Bitboard) -> u64 {
    match kind {
        SliderKind::Orthogonal => reference::rook_attacks(sq, occupancy).0,
        SliderKind::Diagonal => reference::bishop_attacks(sq, occupancy).0,
    }
}
