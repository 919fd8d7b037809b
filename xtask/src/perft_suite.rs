//! `cargo xtask perft-suite`: every position of the shared perft suites at
//! every listed depth (the CI tests stop shallower), on the chosen backends.
//!
//! ```text
//! cargo xtask perft-suite [--backend NAME|auto|all] [--suite standard|chess960|all]
//!                         [--max-depth N] [--threads N]
//! ```
//!
//! Defaults: the detected backend, both suites, every depth, all cores.
//! standard.epd is about 2.6 billion nodes and chess960.epd about 32 billion.

use hq::{Backend, SliderAttacks, WithBackend};
use hq_perft::epd::{EpdEntry, load_shared_suite};
use hq_perft::{Position, perft};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

const USAGE: &str = "usage: cargo xtask perft-suite [--backend NAME|auto|all] [--suite standard|chess960|all] [--max-depth N] [--threads N]";

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
pub fn run(args: &[String]) -> Result<(), String> {
    let mut backend = "auto".to_string();
    let mut suites = vec!["standard.epd", "chess960.epd"];
    let mut max_depth = u32::MAX;
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--backend" => backend = value()?,
            "--suite" => {
                suites = match value()?.as_str() {
                    "standard" => vec!["standard.epd"],
                    "chess960" => vec!["chess960.epd"],
                    "all" => vec!["standard.epd", "chess960.epd"],
                    other => return Err(format!("unknown suite {other:?}\n{USAGE}")),
                }
            }
            "--max-depth" => {
                let v = value()?;
                max_depth = v
                    .parse()
                    .map_err(|_| format!("--max-depth {v:?} is not a number"))?;
            }
            "--threads" => {
                let v = value()?;
                threads = v
                    .parse()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| format!("--threads {v:?} is not a number >= 1"))?;
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    let backends: Vec<Backend> = match backend.as_str() {
        "auto" => vec![Backend::detected()],
        "all" => Backend::all().to_vec(),
        name => vec![Backend::from_name(name).map_err(|e| e.to_string())?],
    };

    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut failures = 0usize;
    for name in suites {
        let entries = load_shared_suite(here, name)?.ok_or_else(|| {
            format!(
                "shared/perft/{name} not found above {} (it is a sibling of the checkout)",
                here.display()
            )
        })?;
        for &b in &backends {
            if !b.is_supported() {
                println!(
                    "SKIPPED {name} on {}: CPU lacks {:?}",
                    b.name(),
                    b.missing_features()
                );
                continue;
            }
            let start = Instant::now();
            let job = SuiteJob {
                entries: &entries,
                max_depth,
                threads,
            };
            let outcome = hq::with_backend(b, job).map_err(|e| e.to_string())?;
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{name} on {}: {} positions, {} counts, {} nodes in {secs:.1} s ({:.0} Mnps over {threads} threads), {} mismatches",
                b.name(),
                entries.len(),
                outcome.checks,
                outcome.nodes,
                outcome.nodes as f64 / secs.max(1e-9) / 1e6,
                outcome.mismatches.len()
            );
            for m in &outcome.mismatches {
                println!("  MISMATCH {}: {m}", b.name());
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
