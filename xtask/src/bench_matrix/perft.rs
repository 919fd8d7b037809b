//! Perft nodes per second: `auto` (`hq`'s choice, what `perft --backend
//! auto` runs), every backend (`hq-chess`, monomorphized per backend) and
//! the peers' perft (cozy-chess with bulk counting, shakmaty's
//! `perft`, Stockfish's `go perft` when installed) on the same positions.
//!
//! The measuring is the `hq-chess` crate's own comparison,
//! `cargo run --profile bench -p hq-chess --example peers --features peers -- --csv` (start position
//! depth 6 and Kiwipete depth 5; `--quick`: depths 5 and 4, built at
//! opt-level 1), which checks
//! every count against the known value and prints
//! `csv,<workload>,<engine>,<nodes>,<seconds>,<nps>` lines read here. It is
//! built with the default flags, in the `runtime` configuration's target dir.

use hq_bench_format::PerftFigure;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// Where the perft comparison lives.
const EXAMPLE: &str = "crates/hq-chess/examples/peers.rs";

/// Runs the perft stage: the figures, and a note for the Markdown.
pub fn run(root: &Path, quick: bool) -> anyhow::Result<(Vec<PerftFigure>, Option<String>)> {
    if !root.join(EXAMPLE).exists() {
        let note = format!(
            "Perft: SKIPPED, {EXAMPLE} is absent (the hq-chess crate is not in this checkout)."
        );
        println!("\n[perft] {note}");
        return Ok((Vec::new(), Some(note)));
    }
    let repeat = if quick { "1" } else { "3" };
    // The bench profile (as the matrix's builds in the same target dir), so
    // that the crates they share are built once.
    let mut args = vec![
        "run",
        "--profile",
        "bench",
        "-p",
        "hq-chess",
        "--example",
        "peers",
        "--features",
        // The quick run (a pipeline check) leaves out the board-option
        // rows, most of the example's build time.
        if quick {
            "peers"
        } else {
            "peers-board-options"
        },
        "--",
        "--csv",
        "--repeat",
        repeat,
    ];
    if quick {
        args.push("--quick");
    }
    println!("\n[perft] building and running: cargo {}", args.join(" "));
    let started = Instant::now();
    let mut command = Command::new(env!("CARGO"));
    if quick {
        // A pipeline check (the counts are still checked): optimising every
        // backend's perft took 224 s of the quick run's 369 (CI, Zen 4).
        command.env("CARGO_PROFILE_BENCH_OPT_LEVEL", "1");
    }
    let mut child = command
        .current_dir(root)
        .args(&args)
        .env(
            "CARGO_TARGET_DIR",
            root.join("target/bench-matrix-build/default"),
        )
        .env("RUSTFLAGS", "")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| anyhow::anyhow!("cannot run cargo: {e}"))?;
    let stdout = child.stdout.take().expect("piped");
    let mut figures = Vec::new();
    let mut table = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| anyhow::anyhow!("reading the perft output: {e}"))?;
        let Some(rest) = line.strip_prefix("csv,") else {
            if line.starts_with('|') {
                table.push(line);
            }
            continue;
        };
        let fields: Vec<&str> = rest.split(',').collect();
        let [workload, engine, nodes, seconds, _nps] = fields[..] else {
            return Err(anyhow::anyhow!("unexpected perft line {line:?}"));
        };
        let (position, depth) = workload
            .rsplit_once(" d")
            .and_then(|(p, d)| Some((p.to_owned(), d.parse::<u32>().ok()?)))
            .ok_or_else(|| anyhow::anyhow!("unexpected perft workload {workload:?}"))?;
        let nodes: u64 = nodes
            .parse()
            .map_err(|_| anyhow::anyhow!("bad node count in {line:?}"))?;
        let seconds: f64 = seconds
            .parse()
            .map_err(|_| anyhow::anyhow!("bad time in {line:?}"))?;
        let row = engine
            .strip_prefix("hq-chess/")
            .map(str::to_owned)
            .unwrap_or_else(|| {
                engine
                    .split_whitespace()
                    .next()
                    .unwrap_or(engine)
                    .to_owned()
            });
        println!(
            "[perft] {row}: {workload}: {:.1} M nodes/s",
            nodes as f64 / seconds / 1e6
        );
        figures.push(PerftFigure {
            config: "runtime".to_owned(),
            row,
            position,
            depth,
            nodes,
            seconds,
            mnps: nodes as f64 / seconds.max(1e-9) / 1e6,
        });
    }
    let status = child
        .wait()
        .map_err(|e| anyhow::anyhow!("waiting for cargo: {e}"))?;
    if !status.success() {
        return Err(anyhow::anyhow!(
            "the perft stage failed ({status}); see the message above"
        ));
    }
    let note = format!(
        "Perft: `cargo {}` ({:.0} s; best of {repeat} runs per engine, one thread; every count \
         checked against the known value by the example). Engines missing from the table were \
         skipped by it (e.g. Stockfish not installed).",
        args.join(" "),
        started.elapsed().as_secs_f64()
    );
    Ok((figures, Some(note)))
}
