//! `cargo xtask perft-suite`: every position of the perft suites at every
//! listed depth (the CI tests stop shallower), on the chosen backends.
//!
//! ```text
//! cargo xtask perft-suite [--backend NAME|auto|all] [--suite standard|chess960|all]
//!                         [--max-depth N] [--threads N]
//! ```
//!
//! Defaults: hq's choice, both suites, every depth, all cores.
//! standard.epd is about 2.6 billion nodes and chess960.epd about 32 billion.

use hq::{Backend, SliderAttacks, WithBackend};
use hq_chess::epd::{EpdEntry, Suite};
use hq_chess::{Position, perft};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

/// `cargo xtask perft-suite`'s options.
#[derive(clap::Args)]
pub struct Args {
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

/// Runs one suite with one backend over `threads` worker threads.
struct SuiteJob<'a> {
    entries: &'a [EpdEntry],
    max_depth: u32,
    threads: usize,
}

/// What a suite run found.
struct Outcome {
    mismatches: Vec<String>,
    nodes: u64,
    checks: u64,
}

impl WithBackend for SuiteJob<'_> {
    type Output = Outcome;
    fn run<B: SliderAttacks>(self, token: B) -> Outcome {
        let next = AtomicUsize::new(0);
        let nodes = AtomicU64::new(0);
        let checks = AtomicU64::new(0);
        let mismatches = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..self.threads {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(entry) = self.entries.get(i) else {
                            break;
                        };
                        let found =
                            check_entry(entry, i + 1, self.max_depth, token, &nodes, &checks);
                        if !found.is_empty() {
                            mismatches
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .extend(found);
                        }
                    }
                });
            }
        });
        let mut mismatches = mismatches.into_inner().unwrap_or_else(|e| e.into_inner());
        mismatches.sort();
        Outcome {
            mismatches,
            nodes: nodes.into_inner(),
            checks: checks.into_inner(),
        }
    }
}

/// Checks every listed depth of one line up to `max_depth`.
fn check_entry<B: SliderAttacks>(
    entry: &EpdEntry,
    line: usize,
    max_depth: u32,
    token: B,
    nodes: &AtomicU64,
    checks: &AtomicU64,
) -> Vec<String> {
    let position = match Position::from_fen(&entry.fen) {
        Ok(p) => p,
        Err(e) => return vec![format!("line {line}: FEN rejected: {e}")],
    };
    let mut found = Vec::new();
    for &(depth, expected) in entry.counts.iter().filter(|&&(d, _)| d <= max_depth) {
        let got = perft(&position, depth, token);
        nodes.fetch_add(got, Ordering::Relaxed);
        checks.fetch_add(1, Ordering::Relaxed);
        if got != expected {
            found.push(format!(
                "line {line} D{depth}: expected {expected}, got {got} ({})",
                entry.fen
            ));
        }
    }
    found
}

/// Entry point for `cargo xtask perft-suite`.
pub fn run(args: &Args) -> Result<(), String> {
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
            let job = SuiteJob {
                entries: &entries,
                max_depth: args.max_depth,
                threads,
            };
            let start = Instant::now();
            let (label, outcome) = match b {
                None => ("auto".to_owned(), hq::with_active_backend(job)),
                Some(b) => match hq::with_backend(b, job) {
                    Ok(outcome) => (b.name().to_owned(), outcome),
                    Err(e) => {
                        println!("SKIPPED {name} on {b}: {e}");
                        continue;
                    }
                },
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
