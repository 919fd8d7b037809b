//! `perft`: count the leaves of the legal move tree of a position.
//!
//! ```text
//! perft --fen "FEN"|startpos --depth N [--backend NAME|auto] [--threads N] [--divide]
//! ```
//!
//! Prints the node count, the time and nodes per second (and with
//! `--divide`, each root move with its count first, as `e2e4: 20`).

use hq::{Backend, SliderAttacks, WithBackend};
use hq_perft::{Position, divide, divide_parallel, perft_parallel};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str =
    "usage: perft --fen \"FEN\"|startpos --depth N [--backend NAME|auto] [--threads N] [--divide]";

/// The parsed command line.
struct Args {
    position: Position,
    depth: u32,
    backend: Backend,
    threads: usize,
    divide: bool,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut fen = None;
    let mut depth = None;
    let mut backend = "auto".to_string();
    let mut threads = 1usize;
    let mut divide = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--fen" => fen = Some(value("--fen")?),
            "--depth" => {
                let v = value("--depth")?;
                depth = Some(
                    v.parse::<u32>()
                        .map_err(|_| format!("--depth {v:?} is not a number"))?,
                );
            }
            "--backend" => backend = value("--backend")?,
            "--threads" => {
                let v = value("--threads")?;
                threads = v
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| format!("--threads {v:?} is not a number >= 1"))?;
            }
            "--divide" => divide = true,
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    let fen = fen.ok_or_else(|| format!("--fen is required\n{USAGE}"))?;
    let position = if fen == "startpos" {
        Position::startpos()
    } else {
        Position::from_fen(&fen).map_err(|e| format!("bad --fen: {e}"))?
    };
    let depth = depth.ok_or_else(|| format!("--depth is required\n{USAGE}"))?;
    let backend = if backend == "auto" {
        Backend::detected()
    } else {
        Backend::from_name(&backend).map_err(|e| e.to_string())?
    };
    Ok(Args {
        position,
        depth,
        backend,
        threads,
        divide,
    })
}

/// The run, monomorphized for the chosen backend.
struct Run<'a>(&'a Args);

impl WithBackend for Run<'_> {
    type Output = Result<u64, String>;
    fn run<B: SliderAttacks>(self, token: B) -> Result<u64, String> {
        let args = self.0;
        if !args.divide {
            return perft_parallel(&args.position, args.depth, token, args.threads)
                .map_err(|e| e.to_string());
        }
        let counts = if args.threads > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(args.threads)
                .build()
                .map_err(|e| e.to_string())?;
            pool.install(|| divide_parallel(&args.position, args.depth, token))
        } else {
            divide(&args.position, args.depth, token)
        };
        let chess960 = args.position.is_chess960();
        for (mv, n) in &counts {
            println!("{}: {n}", mv.uci(chess960));
        }
        println!();
        Ok(counts.iter().map(|&(_, n)| n).sum())
    }
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse_args(&argv) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    println!(
        "backend: {}  threads: {}  depth: {}",
        args.backend.name(),
        args.threads,
        args.depth
    );
    println!("fen: {}", args.position);
    let start = Instant::now();
    let nodes = match hq::with_backend(args.backend, Run(&args)) {
        Ok(Ok(n)) => n,
        Ok(Err(e)) => {
            eprintln!("perft: {e}");
            return ExitCode::FAILURE;
        }
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
