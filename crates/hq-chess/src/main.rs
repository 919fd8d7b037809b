//! `perft`: count the leaves of the legal move tree of a position.
//!
//! ```text
//! perft --fen "FEN"|startpos --depth N [--backend NAME|auto] [--threads N] [--divide]
//! ```
//!
//! Prints the node count, the time and nodes per second (and with
//! `--divide`, each root move with its count first, as `e2e4: 20`).
//! `--backend auto` (the default) runs on `hq`'s choice for this CPU
//! ([`hq::with_active_backend`]).

use clap::Parser;
use hq_chess::cli::{Args, Which, count};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args = Args::parse();
    let backend = match args.backend {
        Which::Named(b) => b.name().to_owned(),
        Which::Auto => match hq::init() {
            Ok(()) => format!("auto ({})", hq::selection().plan.single),
            Err(e) => {
                eprintln!("perft: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    println!(
        "backend: {backend}  threads: {}  depth: {}",
        args.threads, args.depth
    );
    println!("fen: {}", args.fen);
    let start = Instant::now();
    let counted = match count(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("perft: {e}");
            return ExitCode::FAILURE;
        }
    };
    if args.divide {
        let chess960 = args.fen.is_chess960();
        for (mv, n) in &counted.divided {
            println!("{}: {n}", mv.uci(chess960));
        }
        println!();
    }
    let nodes = counted.nodes;
    let secs = start.elapsed().as_secs_f64();
    println!("nodes: {nodes}");
    println!("time: {secs:.3} s");
    println!("nps: {:.0}", nodes as f64 / secs.max(1e-9));
    ExitCode::SUCCESS
}
