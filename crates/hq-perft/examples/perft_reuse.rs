//! The hit rate of attack-set reuse ([`hq_moves::AttackReuse`]) on real
//! legal perft trees: the start position to depth 5 and Kiwipete to depth 4
//! (`--quick`: 4 and 3), walked depth first in legal-move order.
//!
//! ```text
//! cargo run --release -p hq-perft --example perft_reuse -- [--quick]
//! ```
//!
//! Each tree is measured four ways: the side to move's sliders (what
//! hq-perft's generator asks for) or both sides' (an engine that also builds
//! the opponent's attack map), at every node or only at the nodes that
//! generate moves (perft with bulk counting). Every walk's node counts per
//! ply are checked against [`perft`] before its rate is printed.

#[path = "../reuse/mod.rs"]
mod reuse;

use hq_core::SliderAttacks;
use hq_perft::{Position, perft};
use reuse::{Observed, Sides, measure};
use std::process::ExitCode;
use std::time::Instant;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn main() -> ExitCode {
    let mut quick = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--quick" => quick = true,
            other => {
                eprintln!("unknown argument {other:?}: usage: perft_reuse [--quick]");
                return ExitCode::FAILURE;
            }
        }
    }
    // The backend only changes speed, not the tree or its order.
    let Some(token) = hq_scalar::ScalarReverse::new() else {
        eprintln!("the portable backend reports itself unsupported");
        return ExitCode::FAILURE;
    };
    let trees = [
        ("startpos", Position::startpos(), if quick { 4 } else { 5 }),
        (
            "kiwipete",
            KIWIPETE.parse().expect("Kiwipete is a valid FEN"),
            if quick { 3 } else { 4 },
        ),
    ];
    println!(
        "{:<9} {:>5} {:<12} {:<14} {:>10} {:>10} {:>10} {:>8} {:>7}",
        "position",
        "depth",
        "sliders",
        "observed",
        "nodes",
        "lookups",
        "hits",
        "hit rate",
        "seconds"
    );
    for (name, position, depth) in &trees {
        let expected: Vec<u64> = (0..=*depth).map(|d| perft(position, d, token)).collect();
        for sides in [Sides::SideToMove, Sides::Both] {
            for observed in [Observed::EveryNode, Observed::InteriorNodes] {
                let start = Instant::now();
                let result = measure(position, *depth, token, sides, observed);
                let seconds = start.elapsed().as_secs_f64();
                let exact_nodes: u64 = match observed {
                    Observed::EveryNode => expected.iter().sum(),
                    Observed::InteriorNodes => expected[..*depth as usize].iter().sum(),
                };
                if result.nodes_per_ply != expected || result.observed_nodes != exact_nodes {
                    eprintln!(
                        "{name} depth {depth}: walked {:?} (observed {}), perft says {expected:?} (observe {exact_nodes})",
                        result.nodes_per_ply, result.observed_nodes
                    );
                    return ExitCode::FAILURE;
                }
                println!(
                    "{:<9} {:>5} {:<12} {:<14} {:>10} {:>10} {:>10} {:>7.2}% {:>7.2}",
                    name,
                    depth,
                    sides.name(),
                    observed.name(),
                    result.observed_nodes,
                    result.stats.lookups,
                    result.stats.hits,
                    100.0 * result.stats.hit_rate(),
                    seconds
                );
            }
        }
    }
    ExitCode::SUCCESS
}
