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
use hq::{SliderAttacks, WithBackend};
use hq_chess::cli::{Args, Which};
use hq_chess::{divide, divide_parallel, perft_parallel};
use std::process::ExitCode;
use std::time::Instant;

/// The run, monomorphized for the chosen backend.
struct Run<'a>(&'a Args);

impl WithBackend for Run<'_> {
    type Output = Result<u64, String>;
    fn run<B: SliderAttacks>(self, token: B) -> Result<u64, String> {
        let args = self.0;
        let threads = usize::from(args.threads);
        if !args.divide {
            return perft_parallel(&args.fen, args.depth, token, threads)
                .map_err(|e| e.to_string());
        }
        let counts = if threads > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| e.to_string())?;
            pool.install(|| divide_parallel(&args.fen, args.depth, token))
        } else {
            divide(&args.fen, args.depth, token)
        };
        let chess960 = args.fen.is_chess960();
        for (mv, n) in &counts {
            println!("{}: {n}", mv.uci(chess960));
        }
        println!();
        Ok(counts.iter().map(|&(_, n)| n).sum())
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let backend = match args.backend {
        Which::Named(b) => b.name().to_owned(),
        Which::Auto => match hq::init() {
            Ok(s) => format!("auto ({})", s.choice.single),
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
    let result = match args.backend {
        Which::Named(b) => hq::with_backend(b, Run(&args)).map_err(|e| e.to_string()),
        Which::Auto => Ok(hq::with_active_backend(Run(&args))),
    };
    let nodes = match result.and_then(|r| r) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("perft: {e}");
            return ExitCode::FAILURE;
        }
    };
    let secs = start.elapsed().as_secs_f64();
    println!("nodes: {nodes}");
    println!("time: {secs:.3} s");
    println!("nps: {:.0}", nodes as f64 / secs.max(1e-9));
    ExitCode::SUCCESS
}
