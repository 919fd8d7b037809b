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
use hq::{Backend, SliderAttacks, WithBackend};
use hq_chess::{Position, divide, divide_parallel, perft_parallel};
use std::process::ExitCode;
use std::time::Instant;

/// Count the leaves of the legal move tree of a position.
#[derive(Parser)]
#[command(version, about)]
struct Args {
    /// The position: a FEN (X-FEN and Shredder-FEN castling accepted) or `startpos`.
    #[arg(long, value_parser = parse_position)]
    fen: Position,
    /// Plies to search.
    #[arg(long)]
    depth: u32,
    /// A backend name, or `auto` for hq's choice on this CPU.
    #[arg(long, default_value = "auto", value_parser = parse_backend)]
    backend: Which,
    /// Threads (root moves shared out).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    threads: u16,
    /// Print each root move with its count.
    #[arg(long)]
    divide: bool,
}

fn parse_position(text: &str) -> Result<Position, String> {
    if text == "startpos" {
        Ok(Position::startpos())
    } else {
        Position::from_fen(text).map_err(|e| e.to_string())
    }
}

/// `--backend`: hq's choice, or one backend.
#[derive(Clone, Copy)]
enum Which {
    Auto,
    Named(Backend),
}

fn parse_backend(text: &str) -> Result<Which, String> {
    if text.eq_ignore_ascii_case("auto") {
        Ok(Which::Auto)
    } else {
        Backend::from_name(text)
            .map(Which::Named)
            .map_err(|e| e.to_string())
    }
}

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
