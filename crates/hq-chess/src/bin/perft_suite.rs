//! `perft-suite`: every position of the perft suites at every listed depth
//! (the CI tests stop shallower), on the chosen backends.
//!
//! ```text
//! perft-suite [--backend NAME|auto|all] [--suite standard|chess960|all]
//!             [--max-depth N] [--threads N]
//! ```
//!
//! Defaults: hq's choice, both suites, every depth, all cores.
//! standard.epd is about 2.6 billion nodes and chess960.epd about 32 billion.
//! `cargo run --release -p hq-chess --bin perft-suite` runs it optimised.

use clap::Parser;
use hq::Backend;
use hq_chess::epd::{Suite, check_suite};
use std::process::ExitCode;
use std::time::Instant;

/// Every position of the perft suites at every listed depth.
#[derive(Parser)]
#[command(name = "perft-suite", version)]
struct Args {
    /// A backend name, `auto` (hq's choice for this CPU) or `all`.
    #[arg(long, default_value = "auto")]
    backend: String,
    /// Which suite.
    #[arg(long, value_enum, default_value = "all")]
    suite: Which,
    /// Stop at this depth (default: every listed depth).
    #[arg(long, default_value_t = u32::MAX)]
    max_depth: u32,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
}

/// `--suite`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Which {
    Standard,
    Chess960,
    All,
}

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("perft-suite: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let suites = match args.suite {
        Which::Standard => vec![Suite::Standard],
        Which::Chess960 => vec![Suite::Chess960],
        Which::All => Suite::ALL.to_vec(),
    };
    // `None`: hq's choice (with_active_backend).
    let backends: Vec<Option<Backend>> = match args.backend.as_str() {
        "auto" => vec![None],
        "all" => Backend::all().iter().copied().map(Some).collect(),
        name => vec![Some(Backend::from_name(name).map_err(|e| e.to_string())?)],
    };

    let mut failures = 0usize;
    for suite in suites {
        let (name, entries) = (suite.file_name(), suite.entries());
        for &b in &backends {
            let start = Instant::now();
            let label = b.map_or("auto", Backend::name);
            let outcome = match check_suite(&entries, args.max_depth, threads, b) {
                Ok(outcome) => outcome,
                Err(e) => {
                    println!("SKIPPED {name} on {label}: {e}");
                    continue;
                }
            };
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{name} on {label}: {} positions, {} counts, {} nodes in {secs:.1} s ({:.0} Mnps over {threads} threads), {} mismatches",
                entries.len(),
                outcome.checks,
                outcome.nodes,
                outcome.nodes as f64 / secs.max(1e-9) / 1e6,
                outcome.mismatches.len()
            );
            for m in &outcome.mismatches {
                println!("  MISMATCH {label}: {m}");
            }
            failures += outcome.mismatches.len();
        }
    }
    if failures == 0 {
        Ok(())
    } else {
        Err(format!("{failures} perft mismatches"))
    }
}
