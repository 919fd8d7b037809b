//! Perft nodes per second: `auto` (`hq`'s choice, a job), the free
//! functions, every backend (`hq-chess`, monomorphized per backend) and the
//! peers' perft on the same positions, by the `hq-chess` crate's own
//! comparison (start position depth 6 and Kiwipete depth 5; `--quick`: 5
//! and 4), which checks every count against the known value; then the hash
//! perft of the `hq` rows (the same positions with a 64 MiB transposition
//! table: positions `startpos hash` and `kiwipete hash`). Built in the
//! `runtime` configuration's target dir; then (not `--quick`) the hash
//! perft again in builds whose caller code is compiled at the jobs' level,
//! as engines are built (the `runtime` build compiles the free functions'
//! move generator for the x86-64 baseline, the jobs' at x86-64-v3):
//! `native` (`-C target-cpu=native`: the free functions' cells fixed at
//! compile time) and, on an x86-64 CPU that has the level, `x86-64-v3`
//! (the level engines ship: the free functions still dispatch at run time).

use crate::CARGO;
use crate::run::build_env;
use anyhow::Context;
use hq_bench_format::PerftFigure;
use hq_core::cpu::Level;
use std::time::Instant;
use xshell::{Shell, cmd};

/// Where the perft comparison lives.
const EXAMPLE: &str = "crates/hq-chess/examples/peers.rs";

/// Runs the perft stage: the figures, and a note for the Markdown.
pub fn run(sh: &Shell, quick: bool) -> anyhow::Result<(Vec<PerftFigure>, Option<String>)> {
    if !sh.path_exists(EXAMPLE) {
        let note =
            format!("Perft: SKIPPED, {EXAMPLE} is absent (no hq-chess crate in this checkout).");
        println!("\n[perft] {note}");
        return Ok((Vec::new(), Some(note)));
    }
    // The quick run (a pipeline check) leaves out the board-option rows,
    // most of the example's build time, and the native build.
    let (features, repeat) = match quick {
        true => ("peers", "1"),
        false => ("peers-board-options", "3"),
    };
    let started = Instant::now();
    let (mut figures, mut shown) = (Vec::new(), Vec::new());
    let v3 = cfg!(target_arch = "x86_64") && Level::X86V3.is_detected();
    let builds: &[(&str, &str, &[&str])] = match quick {
        true => &[("runtime", "", &[])],
        false => &[
            ("runtime", "", &[]),
            ("native", "-C target-cpu=native", &["--hash-only"]),
            ("x86-64-v3", "-C target-cpu=x86-64-v3", &["--hash-only"]),
        ],
    };
    for &(config, rustflags, only) in builds {
        if config == "x86-64-v3" && !v3 {
            let note = "SKIPPED the x86-64-v3 hash perft: not an x86-64 CPU with that level";
            println!("\n[perft] {note}");
            shown.push(note.to_owned());
            continue;
        }
        let features = if only.is_empty() { features } else { "peers" };
        let args = ["--features", features, "--", "--csv", "--repeat", repeat];
        // The bench profile, as the matrix's builds in the same target dir
        // (the crates they share are built once).
        let cmd = cmd!(
            sh,
            "{CARGO} run --profile bench -p hq-chess --example peers {args...} {only...}"
        );
        let cmd = match quick {
            // A pipeline check (the counts are still checked): optimising
            // every backend's perft took 224 s of the quick run's 369 (CI,
            // Zen 4).
            true => {
                build_env(cmd.arg("--quick"), rustflags).env("CARGO_PROFILE_BENCH_OPT_LEVEL", "1")
            }
            false => build_env(cmd, rustflags),
        };
        let cmd_shown = crate::shown(&cmd);
        println!("\n[perft] building and running ({config}): {cmd_shown}");
        let stdout = cmd.quiet().read().context("the perft stage failed")?;
        for line in stdout.lines().filter_map(|l| l.strip_prefix("csv,")) {
            let f =
                figure(line, config).with_context(|| format!("unexpected perft line {line:?}"))?;
            let (row, position, depth, mnps) = (&f.row, &f.position, f.depth, f.mnps);
            println!("[perft] {config} {row}: {position} d{depth}: {mnps:.1} M nodes/s");
            figures.push(f);
        }
        shown.push(format!("`{cmd_shown}`"));
    }
    let note = format!(
        "Perft: {} ({:.0} s; best of {repeat} runs per engine, one thread; every count \
         checked against the known value by the example). Engines missing from the table were \
         skipped by it (e.g. Stockfish not installed).",
        shown.join(", then "),
        started.elapsed().as_secs_f64()
    );
    Ok((figures, Some(note)))
}

/// The example's `<position> d<depth>,<engine>,<nodes>,<seconds>,<nps>`,
/// run in the matrix's configuration `config`.
fn figure(line: &str, config: &str) -> Option<PerftFigure> {
    let [workload, engine, nodes, seconds, _] = line.split(',').collect::<Vec<_>>()[..] else {
        return None;
    };
    // `<position> d<depth>`, or `<position> d<depth> hash` (the hash perft,
    // recorded as position `<position> hash`).
    let (workload, hash) = match workload.strip_suffix(" hash") {
        Some(plain) => (plain, " hash"),
        None => (workload, ""),
    };
    let (position, depth) = workload.rsplit_once(" d")?;
    let position = format!("{position}{hash}");
    let (nodes, seconds): (u64, f64) = (nodes.parse().ok()?, seconds.parse().ok()?);
    let row = engine
        .strip_prefix("hq-chess/")
        .or(engine.split_whitespace().next())?;
    Some(PerftFigure {
        config: config.to_owned(),
        row: row.to_owned(),
        position,
        depth: depth.parse().ok()?,
        nodes,
        seconds,
        mnps: nodes as f64 / seconds.max(1e-9) / 1e6,
    })
}

#[cfg(test)]
mod tests {
    use super::figure;

    #[test]
    fn the_example_s_lines_parse_plain_and_hashed() {
        let plain = figure(
            "startpos d6,hq-chess/pext,119060324,0.5,238120648",
            "runtime",
        )
        .expect("parses");
        assert_eq!(
            (plain.position.as_str(), plain.depth, plain.row.as_str()),
            ("startpos", 6, "pext")
        );
        let hashed = figure(
            "kiwipete d5 hash,hq-chess/auto,193690690,0.25,774762760",
            "native",
        )
        .expect("parses");
        assert_eq!(
            (hashed.position.as_str(), hashed.depth, hashed.row.as_str()),
            ("kiwipete hash", 5, "auto")
        );
        assert_eq!(hashed.config, "native");
        assert!((hashed.mnps - 774.76276).abs() < 1e-3);
        assert!(figure("kiwipete,auto", "runtime").is_none());
    }
}
