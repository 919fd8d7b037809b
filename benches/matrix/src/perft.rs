//! Perft nodes per second: `auto` (`hq`'s choice, a job), the free
//! functions, every backend (`hq-chess`, monomorphized per backend) and,
//! with `--full`, the board options and the peers' perft on the same
//! positions, by the `hq-chess` crate's own comparison (start position
//! depth 6 and Kiwipete depth 5; `--quick`: 5 and 4), which checks every
//! count against the known value; then the hash perft of the `hq` rows
//! (the same positions with a 64 MiB transposition table: positions
//! `startpos hash` and `kiwipete hash`).
//!
//! The example is built with the bench binary of the same flags (the
//! `runtime` and `native` builds; [`build_v3`] for the x86-64-v3 one) and
//! runs in several fresh processes per build, each with its own seed for
//! its rounds' orders and its own environment size, interleaved over the
//! builds; with `--full` they take the example's code layouts in turn
//! ([`layouts`]). The `native` and `x86-64-v3` builds run the hash perft alone:
//! their caller code is compiled as engines are built (`native`: the free
//! functions' cells fixed at compile time; `x86-64-v3`, `--full` only: the
//! level engines ship, the free functions dispatching at run time), where
//! the default build compiles the free functions' move generator for the
//! x86-64 baseline and the jobs' at x86-64-v3.

use crate::CARGO;
use crate::build::{self, Clock, Executables, Layouts, build, build_env, significant};
use crate::process::{self, Seeds, Start};
use crate::sampling::{PRUNE, PRUNE_AFTER, Sampling};
use anyhow::{Context, ensure};
use hq_bench_format::{PerftBuild, PerftFigure, ProcessRecord, ProcessSamples};
use hq_bench_stats::{RESOLVED_HALF_WIDTH, bootstrap, seed_of};
use hq_core::cpu::Level;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;
use xshell::{Shell, cmd};

/// The perft example's code layouts in a build (`n` with the layouts'
/// linker, else its one binary): as the bench binaries' ([`build::layouts`]),
/// the example's source touched and the build's command run again.
pub fn layouts(
    config: &str,
    built: &Path,
    n: usize,
    linker: bool,
    seeds: &mut Seeds,
    rebuild: impl Fn(u64) -> anyhow::Result<Executables>,
) -> anyhow::Result<Layouts> {
    if n < 2 || !linker {
        return Ok(vec![(built.to_owned(), None)]);
    }
    let source = crate::workspace_root().join("crates/hq-chess/examples/peers.rs");
    println!("\n[perft] linking {n} layouts of the {config} perft example");
    build::layouts(config, "peers", &source, built, n, seeds, rebuild)
}

/// Builds the perft example for x86-64-v3 (`--full`), if this CPU has the
/// level, in its layouts.
pub fn build_v3(
    sh: &Shell,
    linker: Option<&str>,
    sampling: &Sampling,
    seeds: &mut Seeds,
) -> anyhow::Result<Option<Layouts>> {
    if !Level::X86V3.is_detected() {
        return Ok(None);
    }
    let command = || {
        let mut cmd = cmd!(
            sh,
            "{CARGO} build --profile bench -p hq-chess --example peers --features hq-chess/peers"
        );
        if let Some(linker) = linker {
            cmd = cmd.args(["--config", linker]);
        }
        build_env(cmd, "-C target-cpu=x86-64-v3")
    };
    println!("\n[perft] building x86-64-v3: {}", crate::shown(&command()));
    let exes = build(command(), "the x86-64-v3 perft")?;
    let exe = exes.get("peers").context("no peers example")?;
    let rebuild = |seed| build(build::in_layout(command(), seed), "a perft layout");
    let n = sampling.perft_layouts;
    Ok(Some(layouts(
        "x86-64-v3",
        exe,
        n,
        linker.is_some(),
        seeds,
        rebuild,
    )?))
}

/// One build's perft samples: `(row, position, depth)` -> (nodes, samples
/// in seconds per run).
type Samples = BTreeMap<(String, String, u32), (u64, Vec<ProcessSamples>)>;

/// A build's perft being measured.
struct Measuring {
    config: String,
    /// Its example's layouts, its processes taking them in turn, and their
    /// layout seeds.
    binaries: Layouts,
    processes: Vec<ProcessRecord>,
    samples: Samples,
    /// The rows its later processes run (after the first [`PRUNE_AFTER`]:
    /// those within [`PRUNE`] of the fastest on every workload, and `auto`
    /// and the free functions).
    rows: Option<Vec<String>>,
}

impl Measuring {
    /// The rows within reach on every workload in some process so far: each
    /// row and workload at its best sample.
    fn rows_within_reach(&self) -> Vec<String> {
        let rate = |(nodes, samples): &(u64, Vec<ProcessSamples>)| {
            let best = samples
                .iter()
                .flat_map(|s| &s.1)
                .copied()
                .reduce(f64::min)?;
            Some(*nodes as f64 / best)
        };
        let mut rows: Vec<&String> = self.samples.keys().map(|k| &k.0).collect();
        rows.sort();
        rows.dedup();
        rows.into_iter()
            .filter(|row| {
                matches!(row.as_str(), "auto" | "free-functions")
                    || self.samples.iter().all(|((r, position, _), v)| {
                        let fastest = self
                            .samples
                            .iter()
                            .filter(|((_, p, _), _)| p == position)
                            .filter_map(|(_, w)| rate(w))
                            .fold(0.0, f64::max);
                        r != *row || rate(v).is_some_and(|x| x * PRUNE >= fastest)
                    })
            })
            .cloned()
            .collect()
    }
}

/// The example's arguments in build `config`.
fn arguments(config: &str, rounds: usize, seed: u64, full: bool, quick: bool) -> Vec<String> {
    let mut args: Vec<String> = ["--csv", "--prune", &PRUNE.to_string()]
        .map(String::from)
        .into();
    args.extend(["--repeat".into(), rounds.to_string()]);
    args.extend(["--seed".into(), seed.to_string()]);
    if config != "runtime" {
        args.push("--hash-only".into());
    } else if !full {
        args.push("--no-peers".into());
    }
    if quick {
        args.push("--quick".into());
    }
    args
}

/// Runs one process of `m`'s example and adds its samples (unless it ran
/// under heavy steal).
fn run_process(
    m: &mut Measuring,
    sampling: &Sampling,
    full: bool,
    quick: bool,
    seeds: &mut Seeds,
) -> anyhow::Result<bool> {
    let id = m.processes.len() as u32;
    let seed = seeds.next();
    let mut args = arguments(&m.config, sampling.perft_rounds, seed, full, quick);
    if let Some(rows) = &m.rows {
        args.extend(["--rows".to_owned(), rows.join(",")]);
    }
    let (exe, layout) = m.binaries[id as usize % m.binaries.len()].clone();
    let record = ProcessRecord {
        id,
        seed,
        layout,
        rounds: sampling.perft_rounds,
        ..ProcessRecord::default()
    };
    let (mut lines, mut huge_pages) = (Vec::new(), None);
    let start = Start {
        exe: &exe,
        args,
        dir: &crate::workspace_root(),
        env: Vec::new(),
        record,
        max_pad: 4096,
    };
    let mut record = process::run(start, seeds, |line| {
        if let Some(share) = line.strip_prefix("state,huge_pages,") {
            huge_pages = share.parse().ok();
        } else if let Some(csv) = line.strip_prefix("csv,") {
            lines.push(csv.to_owned());
        }
    })
    .context("the perft stage failed")?;
    record.huge_pages = huge_pages;
    let added = record.excluded.is_none();
    println!("[perft {} {}] {}", m.config, id + 1, record.summary());
    m.processes.push(record);
    if added {
        let mut mine: BTreeMap<(String, String, u32), (u64, Vec<f64>)> = BTreeMap::new();
        for line in &lines {
            let run = parse(line).with_context(|| format!("unexpected perft line {line:?}"))?;
            let entry = mine
                .entry((run.row, run.position, run.depth))
                .or_insert((run.nodes, Vec::new()));
            entry.1.push(significant(run.seconds));
        }
        for (key, (nodes, rounds)) in mine {
            let entry = m.samples.entry(key).or_insert((nodes, Vec::new()));
            entry.1.push(ProcessSamples(id, rounds));
        }
        let measured = m.processes.iter().filter(|p| p.excluded.is_none()).count();
        if m.rows.is_none() && !full && measured >= PRUNE_AFTER {
            let rows = m.rows_within_reach();
            println!(
                "[perft {}] the later processes run the rows within {PRUNE}x of the fastest: {}",
                m.config,
                rows.join(", ")
            );
            m.rows = Some(rows);
        }
    }
    Ok(added)
}

/// Runs the perft stage on the examples `exes` (`(build, path)`): the
/// figures, a note for the Markdown, and the processes per build.
pub fn run(
    exes: &[(String, Layouts)],
    sampling: &Sampling,
    full: bool,
    seeds: &mut Seeds,
    clock: &mut Clock,
) -> anyhow::Result<(Vec<PerftFigure>, Option<String>, Vec<PerftBuild>)> {
    if exes.is_empty() {
        let note = "Perft: SKIPPED, no build made the perft example.".to_owned();
        println!("\n[perft] {note}");
        return Ok((Vec::new(), Some(note), Vec::new()));
    }
    let quick = sampling.sample_us < 100;
    let since = Instant::now();
    let mut measuring: Vec<Measuring> = exes
        .iter()
        .map(|(config, binaries)| Measuring {
            config: config.clone(),
            binaries: binaries.clone(),
            processes: Vec::new(),
            samples: Samples::new(),
            rows: None,
        })
        .collect();
    println!();
    for _ in 0..sampling.perft_processes {
        for m in &mut measuring {
            let mut retakes = 0;
            while !run_process(m, sampling, full, quick, seeds)? && retakes < 2 {
                retakes += 1;
            }
        }
    }
    clock.done("perft processes", since);
    // The builds take turns, one process each, so that the time is shared
    // between them and they sample the same hours of the host. Build by
    // build, the first could spend it all and leave the next too few
    // processes for the data test's check of its hash perft (figures in
    // the commit message of the change).
    let since = Instant::now();
    loop {
        let mut sampled = false;
        for m in &mut measuring {
            let wide = wide_deciding_rows(&m.samples, &m.config);
            let per_process = m.processes.iter().map(|p| p.seconds).sum::<f64>()
                / m.processes.len().max(1) as f64;
            let spent = since.elapsed().as_secs_f64();
            if wide.is_empty() || spent + per_process > sampling.perft_resample_seconds {
                continue;
            }
            println!(
                "[perft {}] {} deciding rows wider than ±3 %, e.g. {}: one more process",
                m.config,
                wide.len(),
                wide[0]
            );
            run_process(m, sampling, full, quick, seeds)?;
            sampled = true;
        }
        if !sampled {
            break;
        }
    }
    clock.done("resampling wide perft rows", since);
    let (mut figures, mut builds) = (Vec::new(), Vec::new());
    for m in measuring {
        let wide = wide_deciding_rows(&m.samples, &m.config);
        let processes = m.processes.iter().filter(|p| p.excluded.is_none()).count();
        for ((row, position, depth), (nodes, samples)) in m.samples {
            ensure!(!samples.is_empty(), "perft {row} {position}: no samples");
            let mut f = figure(&m.config, &row, &position, depth, nodes, samples);
            let name = format!("{row} {position}");
            if let Some(i) = f.interval.filter(|_| wide.contains(&name)) {
                f.unresolved = Some(format!(
                    "±{:.1} % over {processes} processes when the {:.0} s for sampling further ran \
                     out",
                    i.half_width() * 100.0,
                    sampling.perft_resample_seconds
                ));
            }
            println!(
                "[perft] {} {row}: {position} d{depth}: {:.1} M nodes/s (±{:.1} %)",
                m.config,
                f.mnps,
                f.interval.map_or(0.0, |i| i.half_width() * 100.0)
            );
            figures.push(f);
        }
        builds.push(PerftBuild {
            config: m.config,
            processes: m.processes,
        });
    }
    // Plain perft first, in the example's order of positions.
    figures.sort_by_key(|f| (f.config != "runtime", f.position.ends_with(" hash")));
    let note = format!(
        "Perft: the `peers` example of `hq-chess` in {} fresh processes per build ({}){}, {} \
         rounds each in a fresh random order, rows over {PRUNE}x slower than the fastest timed no \
         further after the first round and after the first {PRUNE_AFTER} processes; every count \
         checked against the known value by the example.{}",
        sampling.perft_processes,
        exes.iter()
            .map(|(c, _)| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(", "),
        match exes.iter().map(|(_, b)| b.len()).max().unwrap_or(1) {
            1 => String::new(),
            n => format!(" taking {n} code layouts of each example in turn"),
        },
        sampling.perft_rounds,
        match full {
            true =>
                " Engines missing from the table were skipped by it (e.g. Stockfish not installed).",
            false => " The default run leaves the board options and the peers to `--full`.",
        }
    );
    Ok((figures, Some(note), builds))
}

/// A perft figure from its samples (seconds per run of `nodes` nodes).
fn figure(
    config: &str,
    row: &str,
    position: &str,
    depth: u32,
    nodes: u64,
    samples: Vec<ProcessSamples>,
) -> PerftFigure {
    let key = format!("perft/{config}/{row}/{position}");
    let interval = bootstrap(&mnps(nodes, &samples), seed_of(&key));
    PerftFigure {
        config: config.to_owned(),
        row: row.to_owned(),
        position: position.to_owned(),
        depth,
        nodes,
        seconds: nodes as f64 / interval.estimate / 1e6,
        mnps: interval.estimate,
        interval: Some(interval),
        unresolved: None,
        per_process: samples,
    }
}

/// Seconds per run as million nodes per second.
fn mnps(nodes: u64, samples: &[ProcessSamples]) -> Vec<Vec<f64>> {
    let rate = |s: f64| nodes as f64 / s.max(1e-9) / 1e6;
    samples
        .iter()
        .map(|s| s.1.iter().map(|&x| rate(x)).collect())
        .collect()
}

/// The rows that decide, `<row> <position>`, whose intervals are wider
/// than ±3 %: on the hash perft `auto`, the free functions and the backend
/// rows within 0.8x of the best; on the plain perft `auto`, the free
/// functions and the best row.
fn wide_deciding_rows(samples: &Samples, config: &str) -> Vec<String> {
    let mut positions: Vec<&String> = samples.keys().map(|k| &k.1).collect();
    positions.sort();
    positions.dedup();
    let mut wide = Vec::new();
    for position in positions {
        let rows: Vec<(&str, f64, bool)> = samples
            .iter()
            .filter(|((_, p, _), _)| p == position)
            .map(|((row, _, _), (nodes, s))| {
                let key = format!("perft/{config}/{row}/{position}");
                let i = bootstrap(&mnps(*nodes, s), seed_of(&key));
                (
                    row.as_str(),
                    i.estimate,
                    i.half_width() > RESOLVED_HALF_WIDTH,
                )
            })
            .collect();
        let backends = |r: &&(&str, f64, bool)| hq::Backend::from_name(r.0).is_ok();
        let best = rows
            .iter()
            .filter(backends)
            .map(|r| r.1)
            .fold(0.0, f64::max);
        let hashed = position.ends_with(" hash");
        for &(row, estimate, is_wide) in &rows {
            let deciding = matches!(row, "auto" | "free-functions")
                || (hq::Backend::from_name(row).is_ok()
                    && match hashed {
                        true => estimate >= crate::results::CONTENDER * best,
                        false => estimate >= best,
                    });
            if deciding && is_wide {
                wide.push(format!("{row} {position}"));
            }
        }
    }
    wide
}

/// One run of the example's `<position> d<depth>[ hash],<engine>,<nodes>,
/// <seconds>,<nps>[,<round>]`.
#[derive(Debug, PartialEq)]
struct Run {
    row: String,
    position: String,
    depth: u32,
    nodes: u64,
    seconds: f64,
}

fn parse(line: &str) -> Option<Run> {
    let fields: Vec<&str> = line.split(',').collect();
    let [workload, engine, nodes, seconds, _, ..] = fields[..] else {
        return None;
    };
    // `<position> d<depth>`, or `<position> d<depth> hash` (the hash perft,
    // recorded as position `<position> hash`).
    let (workload, hash) = match workload.strip_suffix(" hash") {
        Some(plain) => (plain, " hash"),
        None => (workload, ""),
    };
    let (position, depth) = workload.rsplit_once(" d")?;
    let row = engine
        .strip_prefix("hq-chess/")
        .or(engine.split_whitespace().next())?;
    Some(Run {
        row: row.to_owned(),
        position: format!("{position}{hash}"),
        depth: depth.parse().ok()?,
        nodes: nodes.parse().ok()?,
        seconds: seconds.parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_s_lines_parse_plain_and_hashed() {
        let plain = parse("startpos d6,hq-chess/pext,119060324,0.5,238120648,2").expect("parses");
        assert_eq!(
            (plain.position.as_str(), plain.depth, plain.row.as_str()),
            ("startpos", 6, "pext")
        );
        let hashed = parse("kiwipete d5 hash,hq-chess/auto,193690690,0.25,774762760,0").unwrap();
        assert_eq!(
            (hashed.position.as_str(), hashed.depth, hashed.row.as_str()),
            ("kiwipete hash", 5, "auto")
        );
        assert_eq!(hashed.seconds, 0.25);
        // The earlier form, without the round.
        assert!(parse("startpos d6,cozy-chess 0.3,119060324,0.5,238120648").is_some());
        assert!(parse("kiwipete,auto").is_none());
    }

    #[test]
    fn a_figure_is_the_median_over_processes_with_its_interval() {
        let samples = (0..4)
            .map(|p| ProcessSamples(p, vec![0.5, 0.5 + 0.01 * f64::from(p)]))
            .collect();
        let f = figure("runtime", "pext", "startpos hash", 6, 100_000_000, samples);
        let i = f.interval.unwrap();
        assert!((150.0..=200.0).contains(&f.mnps) && i.low <= f.mnps && f.mnps <= i.high);
        assert!((f.seconds * f.mnps * 1e6 - 1e8).abs() < 1.0);
    }

    #[test]
    fn a_row_is_dropped_only_where_every_early_process_found_it_out_of_reach() {
        // Seconds per process for one workload: `pext`'s first sample fell
        // in a burst (2x `auto`'s), its second did not; `classic` trailed
        // in both.
        let seconds = [
            ("auto", [1.0, 1.0]),
            ("pext", [2.0, 1.0]),
            ("classic", [1.6, 1.7]),
        ];
        let mut m = Measuring {
            config: "runtime".to_owned(),
            binaries: Vec::new(),
            processes: Vec::new(),
            samples: Samples::new(),
            rows: None,
        };
        for (row, per_process) in seconds {
            let key = (row.to_owned(), "startpos hash".to_owned(), 6);
            let samples = per_process.iter().enumerate();
            let samples = samples
                .map(|(p, &s)| ProcessSamples(p as u32, vec![s]))
                .collect();
            m.samples.insert(key, (119_060_324, samples));
        }
        assert_eq!(m.rows_within_reach(), ["auto", "pext"]);
    }

    #[test]
    fn the_default_run_leaves_the_peers_out_and_the_other_builds_hash_only() {
        let a = arguments("runtime", 2, 9, false, false);
        assert!(a.contains(&"--no-peers".to_owned()) && a.contains(&"9".to_owned()));
        assert!(!arguments("runtime", 2, 9, true, false).contains(&"--no-peers".to_owned()));
        assert!(arguments("native", 2, 9, false, false).contains(&"--hash-only".to_owned()));
    }
}
