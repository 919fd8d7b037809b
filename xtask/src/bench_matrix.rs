//! `cargo xtask bench-matrix`: every backend, the facade, the reference
//! methods and the peers, measured in one run per build configuration,
//! tabulated per CPU.
//!
//! ```text
//! cargo xtask bench-matrix                 # the full matrix, into benches/results/<cpu-id>/
//! cargo xtask bench-matrix --quick         # each kind of stage once, tiny samples (CI), into target/
//! cargo xtask bench-matrix --merge DIR...  # one matrix + chart from several CPUs
//! cargo xtask bench-matrix --quick --check # the outputs of the last quick run exist and parse
//! ```
//!
//! Build configurations, each built and run by `cargo bench -p hq-benches`:
//! * `runtime`: default flags: every backend through its token (loops
//!   compiled for the backend's instruction set), the facade, a job under
//!   `with_active_backend`, the reference methods, the peers;
//! * `native`: `-C target-cpu=native`: the same, plus the peers' BMI2
//!   variants (cozy-chess `pext`, chess `*_bmi`);
//! * `shakmaty-hq`: shakmaty built without its `magics` feature (one build
//!   cannot hold both variants) beside PEXT;
//! * `force-<backend>`: the facade forced to `pext` and to
//!   `scalar-rank-table` (with `--full`: each backend this CPU supports;
//!   others are listed as skipped, with the reason), beside PEXT.
//!
//! Timing: by default every cell is timed in rounds (`HQ_BENCH_ROUNDS`, see
//! `benches/runner.rs`): 15 samples of about 2 ms per cell, each round in a
//! fresh random order after a warm-up; the figure is the fastest sample,
//! and each cell records its spread. `--full` uses criterion's sampling
//! instead (the long run, about 40 minutes on 2 cores).
//!
//! Every bench binary is checked before it runs: its single-lookup workload
//! loops must be one lookup at a time (`asm_check`, issue 13).
//!
//! One `CARGO_TARGET_DIR` per `RUSTFLAGS` value
//! (`target/bench-matrix-build/{default,native}`): flipping flags never
//! rebuilds the other configuration, and feature-only variants share a dir.
//! Criterion writes into `target/bench-matrix/<run>/criterion/<config>`
//! (`CRITERION_HOME`); the figures are read back from its `sample.json` files.

mod asm_check;
mod calibration;
mod chart;
mod cpu;
mod perft;
pub(crate) mod report;
mod results;

pub use results::check_outputs;

use hq_bench_format::{BenchMeta, ConfigRun, Figure, REFERENCE_ROW, Results, SCHEMA};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// `cargo xtask bench-matrix`'s options.
#[derive(clap::Args, Default)]
pub struct Args {
    /// Every stage with tiny samples (checks the pipeline, not the speed).
    #[arg(long)]
    quick: bool,
    /// The long run: criterion's sampling instead of rounds, and every
    /// `force-<backend>` build (the default keeps two).
    #[arg(long, conflicts_with = "quick")]
    full: bool,
    /// Rounds per cell (default 15; 2 with --quick).
    #[arg(long)]
    rounds: Option<usize>,
    /// Merge these result directories into one matrix and chart.
    #[arg(long, num_args = 1.., value_name = "DIR")]
    merge: Vec<PathBuf>,
    /// Where to write (default: benches/results/CPU-ID, or
    /// target/bench-matrix/CPU-ID-quick with --quick, or
    /// target/bench-matrix/merged with --merge).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Run only these build configurations (comma-separated names).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Skip the perft stage.
    #[arg(long)]
    no_perft: bool,
    /// Skip the calibration stage (`hq-info --calibrate` in 20 fresh processes).
    #[arg(long)]
    no_calibration: bool,
    /// Show criterion's own output.
    #[arg(long)]
    verbose: bool,
    /// Only check the outputs of a run (the default directory, or DIR).
    #[arg(long, num_args = 0..=1, value_name = "DIR")]
    check: Option<Option<PathBuf>>,
}

impl Args {
    /// The options of `cargo xtask bench-matrix --quick`.
    pub fn quick() -> Args {
        Args {
            quick: true,
            ..Args::default()
        }
    }
}

/// Where a run on `cpu` writes by default: the committed
/// `benches/results/<cpu-id>` for a full run, `target/bench-matrix/<cpu-id>-quick`
/// for a `--quick` one (a pipeline check never overwrites real figures).
fn output_dir_for(root: &Path, cpu: &hq_bench_format::Cpu, quick: bool) -> PathBuf {
    if quick {
        root.join("target/bench-matrix")
            .join(format!("{}-quick", cpu.id))
    } else {
        root.join("benches/results").join(&cpu.id)
    }
}

/// The directory `cargo xtask bench-matrix [--quick]` writes on this CPU.
pub fn output_dir(quick: bool) -> PathBuf {
    output_dir_for(&crate::workspace_root(), &cpu::detect(), quick)
}

/// Where criterion's raw output of a run goes (never committed).
fn criterion_dir(root: &Path, out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map_or_else(|| "run".into(), |n| n.to_owned());
    root.join("target/bench-matrix/criterion").join(name)
}

/// One build configuration.
struct Config {
    name: String,
    description: String,
    /// `target/bench-matrix-build/<target_dir>`: one per RUSTFLAGS value.
    target_dir: &'static str,
    rustflags: String,
    /// After `cargo bench -p hq-benches`.
    cargo_args: Vec<String>,
    /// Remove `HQ_BACKEND` from the environment (forced builds refuse it).
    clear_hq_backend: bool,
    skip_reason: Option<String>,
    /// Built only with `--full`.
    full_only: bool,
}

fn configs(cpu: &hq_bench_format::Cpu) -> Vec<Config> {
    let args = |s: &[&str]| s.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    let mut out = vec![
        Config {
            name: "runtime".into(),
            description: "default flags: backends through their tokens, facade with run-time dispatch, references, peers".into(),
            target_dir: "default",
            rustflags: String::new(),
            cargo_args: args(&["--bench", "attacks"]),
            clear_hq_backend: false,
            skip_reason: None,
            full_only: false,
        },
        Config {
            name: "native".into(),
            description: "-C target-cpu=native: static selection, peers' BMI2 variants".into(),
            target_dir: "native",
            rustflags: "-C target-cpu=native".into(),
            cargo_args: if cpu.has("bmi2") {
                args(&["--bench", "attacks", "--features", "cozy-chess-pext"])
            } else {
                args(&["--bench", "attacks"])
            },
            clear_hq_backend: false,
            skip_reason: None,
            full_only: false,
        },
        Config {
            name: "shakmaty-hq".into(),
            description: "shakmaty without its magics feature (Hyperbola Quintessence), beside PEXT".into(),
            target_dir: "default",
            rustflags: String::new(),
            cargo_args: args(&["--bench", "shakmaty_hq", "--no-default-features"]),
            clear_hq_backend: false,
            skip_reason: None,
            full_only: false,
        },
    ];
    for &backend in hq::Backend::all() {
        let feature = format!("hq/{}", backend.force_feature());
        out.push(Config {
            name: format!("force-{}", backend.name()),
            description: format!(
                "facade forced to {} (feature {feature}), beside PEXT",
                backend.name()
            ),
            target_dir: "default",
            rustflags: String::new(),
            cargo_args: args(&["--bench", "facade", "--features", &feature]),
            clear_hq_backend: true,
            skip_reason: backend.check_supported().err().map(|e| e.to_string()),
            // A forced build times the same token as the runtime build's
            // backend row: two test the forcing mechanism (the fastest
            // table method and the portable default), `--full` runs all.
            full_only: !matches!(backend, hq::Backend::Pext | hq::Backend::ScalarRankTable),
        });
    }
    out
}

/// Criterion's arguments for the chosen depth.
fn criterion_args(quick: bool) -> Vec<String> {
    let a: &[&str] = if quick {
        &[
            "--warm-up-time",
            "0.005",
            "--measurement-time",
            "0.01",
            "--sample-size",
            "10",
            "--nresamples",
            "100",
        ]
    } else {
        &[
            "--warm-up-time",
            "0.2",
            "--measurement-time",
            "0.6",
            "--sample-size",
            "20",
            "--nresamples",
            "2000",
        ]
    };
    a.iter()
        .map(|s| s.to_string())
        .chain(["--noplot".to_string()])
        .collect()
}

/// `cargo bench -p hq-benches <args>` in `config`'s environment.
fn cargo_bench(root: &Path, config: &Config, extra: &[String]) -> Command {
    let mut cmd = Command::new(env!("CARGO"));
    cmd.current_dir(root)
        .arg("bench")
        .args(["-p", "hq-benches"])
        .args(&config.cargo_args)
        .args(extra)
        .env(
            "CARGO_TARGET_DIR",
            root.join("target/bench-matrix-build")
                .join(config.target_dir),
        )
        // v0 symbol names keep the generic parameters, so the assembly check
        // can tell which row a workload function belongs to (no effect on code).
        .env(
            "RUSTFLAGS",
            format!("{} -C symbol-mangling-version=v0", config.rustflags).trim_start(),
        )
        .env_remove("CARGO_ENCODED_RUSTFLAGS");
    if config.clear_hq_backend {
        cmd.env_remove(hq::ENV_VAR);
    }
    cmd
}

/// The bench executables in cargo's JSON messages (`--message-format=json`).
fn bench_executables(messages: &[u8]) -> Vec<PathBuf> {
    String::from_utf8_lossy(messages)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| m["reason"] == "compiler-artifact")
        .filter(|m| {
            m["target"]["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|k| k == "bench"))
        })
        .filter_map(|m| m["executable"].as_str().map(PathBuf::from))
        .collect()
}

/// What a bench run left behind.
struct RunOutput {
    meta: BenchMeta,
    benches: Vec<results::CriterionBench>,
    build_seconds: f64,
    run_seconds: f64,
}

fn run_config(
    root: &Path,
    criterion_dir: &Path,
    config: &Config,
    stage: &str,
    opts: &Args,
) -> anyhow::Result<RunOutput> {
    println!(
        "\n{stage} building {} ({})",
        config.name, config.description
    );
    let started = Instant::now();
    let build = cargo_bench(
        root,
        config,
        &[
            "--no-run".to_string(),
            "--message-format=json-render-diagnostics".to_string(),
        ],
    )
    .stderr(Stdio::inherit())
    .output()
    .map_err(|e| anyhow::anyhow!("cannot run cargo: {e}"))?;
    if !build.status.success() {
        return Err(anyhow::anyhow!(
            "building configuration {} failed ({})",
            config.name,
            build.status
        ));
    }
    let build_seconds = started.elapsed().as_secs_f64();
    for binary in bench_executables(&build.stdout) {
        let report = asm_check::check_binary(&binary)?;
        println!(
            "{stage} single-lookup loops of {} are one lookup at a time: {} functions \
             ({} table lookups), {} instructions, no gathers",
            binary
                .file_name()
                .map_or_else(Default::default, |n| n.to_string_lossy()),
            report.functions,
            report.table_functions,
            report.instructions
        );
    }

    let home = criterion_dir.join(&config.name);
    if home.exists() {
        std::fs::remove_dir_all(&home)
            .map_err(|e| anyhow::anyhow!("cannot clear {}: {e}", home.display()))?;
    }
    std::fs::create_dir_all(&home)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", home.display()))?;
    let meta_path = home.join("hq-bench-meta.json");
    let cells_path = home.join("hq-bench-cells.json");
    println!("{stage} running {}", config.name);
    let started = Instant::now();
    let mut extra = vec!["--".to_string()];
    let mut command = if opts.full {
        extra.extend(criterion_args(false));
        cargo_bench(root, config, &extra)
    } else {
        let (rounds, sample_us) = (rounds_of(opts), if opts.quick { 20 } else { 2000 });
        let mut cmd = cargo_bench(root, config, &extra);
        cmd.env("HQ_BENCH_ROUNDS", format!("{rounds},{sample_us}"))
            .env("HQ_BENCH_OUT", &cells_path);
        cmd
    };
    let mut child = command
        .env("CRITERION_HOME", &home)
        .env("HQ_BENCH_META", &meta_path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| anyhow::anyhow!("cannot run cargo: {e}"))?;
    let stdout = child.stdout.take().expect("piped");
    // Criterion's "Benchmarking ..." status lines go to stderr: keep them
    // out of the progress unless --verbose; pass everything else (cargo,
    // panics from the oracle checks) through.
    let stderr = child.stderr.take().expect("piped");
    let verbose = opts.verbose;
    let stderr_thread = std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if verbose || !(line.starts_with("Benchmarking ") || line.trim().is_empty()) {
                eprintln!("{line}");
            }
        }
    });
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| anyhow::anyhow!("reading the bench output: {e}"))?;
        if let Some(rest) = line.strip_prefix("hq-bench: ") {
            println!("{stage} {rest}");
        } else if opts.verbose {
            println!("{line}");
        } else if let Some(t) = line.trim().strip_prefix("thrpt:") {
            // The middle of criterion's interval, after the progress line.
            let mid: Vec<&str> = t
                .trim()
                .trim_matches(['[', ']'])
                .split_whitespace()
                .collect();
            if mid.len() >= 4 {
                println!("{stage}     {} {} (criterion mean)", mid[2], mid[3]);
            }
        }
    }
    let status = child
        .wait()
        .map_err(|e| anyhow::anyhow!("waiting for cargo: {e}"))?;
    let _ = stderr_thread.join();
    if !status.success() {
        return Err(anyhow::anyhow!(
            "the benchmarks of configuration {} failed ({status}); see the message above",
            config.name
        ));
    }
    let run_seconds = started.elapsed().as_secs_f64();
    let meta_text = std::fs::read_to_string(&meta_path)
        .map_err(|e| anyhow::anyhow!("the bench wrote no {}: {e}", meta_path.display()))?;
    let meta: BenchMeta = serde_json::from_str(&meta_text)
        .map_err(|e| anyhow::anyhow!("{} does not parse: {e}", meta_path.display()))?;
    let benches = if opts.full {
        results::read_criterion(&home)?
    } else {
        results::read_rounds(&cells_path)?
    };
    Ok(RunOutput {
        meta,
        benches,
        build_seconds,
        run_seconds,
    })
}

/// Rounds per cell: `--rounds`, else 15 (2 with `--quick`).
fn rounds_of(opts: &Args) -> usize {
    opts.rounds.unwrap_or(if opts.quick { 2 } else { 15 })
}

/// Output of a command, trimmed, or `unknown`.
fn command_line(program: &str, args: &[&str], dir: &Path) -> String {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// Now, UTC, RFC 3339.
fn utc_now() -> String {
    time::OffsetDateTime::now_utc()
        .replace_nanosecond(0)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_else(|| "unknown".to_owned())
}

/// Turns criterion's benchmarks of one configuration into figures.
fn figures_of(config: &str, benches: &[results::CriterionBench]) -> Vec<Figure> {
    let mut figures: Vec<Figure> = benches
        .iter()
        .filter_map(|b| {
            let (piece, workload) = b.group_id.split_once('/')?;
            let ns = results::best(&b.per_iter);
            let per_lookup = ns / b.elements as f64;
            Some(Figure {
                config: config.to_owned(),
                row: b.function_id.clone(),
                piece: piece.to_owned(),
                workload: workload.to_owned(),
                lookups_per_iter: b.elements,
                samples: b.per_iter.len(),
                ns_per_iter: ns,
                ns_per_iter_median: b.median,
                mlookups_per_s: 1e3 / per_lookup,
                ns_per_lookup: per_lookup,
                ratio_to_pext: None,
                spread: results::spread(&b.per_iter),
            })
        })
        .collect();
    let pext: Vec<(String, String, f64)> = figures
        .iter()
        .filter(|f| f.row == REFERENCE_ROW)
        .map(|f| (f.piece.clone(), f.workload.clone(), f.mlookups_per_s))
        .collect();
    for f in &mut figures {
        f.ratio_to_pext = pext
            .iter()
            .find(|(p, w, _)| *p == f.piece && *w == f.workload)
            .map(|(_, _, v)| f.mlookups_per_s / v);
    }
    figures
}

/// The task.
pub fn run(opts: &Args) -> anyhow::Result<()> {
    let root = crate::workspace_root();
    if let Some(dir) = &opts.check {
        let dir = dir.clone().unwrap_or_else(|| output_dir(opts.quick));
        check_outputs(&dir)?;
        println!(
            "bench-matrix: the outputs in {} exist, parse and agree",
            dir.display()
        );
        return Ok(());
    }
    if !opts.merge.is_empty() {
        let runs = opts
            .merge
            .iter()
            .map(|d| {
                Ok((
                    d.display().to_string(),
                    Results::load(d).map_err(anyhow::Error::msg)?,
                ))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let out = opts
            .out
            .clone()
            .unwrap_or_else(|| root.join("target/bench-matrix/merged"));
        return report::write_merged(&runs, &out);
    }

    let started = Instant::now();
    let date = utc_now();
    let cpu = cpu::detect();
    println!("bench-matrix: CPU {}", cpu.summary());
    println!("bench-matrix: id {}", cpu.id);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    if let Some(l1) = load
        .split_whitespace()
        .next()
        .and_then(|l| l.parse::<f64>().ok())
    {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if l1 > cores as f64 * 0.5 {
            println!(
                "bench-matrix: NOTE load average {l1:.1} on {cores} cores: other work competes; \
                 figures are the fastest samples, ratios come from one run"
            );
        }
    }
    let out = opts
        .out
        .clone()
        .unwrap_or_else(|| output_dir_for(&root, &cpu, opts.quick));
    std::fs::create_dir_all(&out)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", out.display()))?;
    let raw = criterion_dir(&root, &out);

    let all = configs(&cpu);
    let selected: Vec<&Config> = all
        .iter()
        .filter(|c| {
            if opts.only.is_empty() {
                // --quick checks the pipeline: one build of each kind (the
                // native build is the runtime build's code with other flags).
                let quick_skips =
                    opts.quick && matches!(c.name.as_str(), "native" | "force-scalar-rank-table");
                (opts.full || !c.full_only) && !quick_skips
            } else {
                opts.only.contains(&c.name)
            }
        })
        .collect();
    if selected.is_empty() {
        let names: Vec<&str> = all.iter().map(|c| c.name.as_str()).collect();
        return Err(anyhow::anyhow!(
            "--only matches no configuration; names: {}",
            names.join(", ")
        ));
    }
    let runnable = selected.iter().filter(|c| c.skip_reason.is_none()).count();
    // Seconds each stage should take: this CPU's last run in the same mode
    // if there is one, else rough figures for a 2-core machine, warm build.
    let previous = Results::load(&output_dir_for(&root, &cpu, false))
        .ok()
        .filter(|r| r.statistic.starts_with("fastest of") != opts.full && !opts.quick);
    let estimate = |name: &str| -> f64 {
        let last = previous.as_ref().and_then(|r| {
            let c = r.configs.iter().find(|c| c.name == name && c.ran())?;
            Some(c.run_seconds + c.build_seconds.min(30.0))
        });
        last.unwrap_or(match (opts.quick, opts.full, name) {
            (true, _, _) => 5.0,
            (_, true, "runtime" | "native") => 420.0,
            (_, true, _) => 60.0,
            (_, false, "runtime" | "native") => 60.0,
            _ => 15.0,
        })
    };
    let perft_estimate = if opts.no_perft {
        0.0
    } else if opts.quick {
        20.0
    } else {
        90.0
    };
    let mut left: f64 = selected
        .iter()
        .filter(|c| c.skip_reason.is_none())
        .map(|c| estimate(&c.name))
        .sum::<f64>()
        + perft_estimate;
    let mut runs = Vec::new();
    let mut figures = Vec::new();
    let mut k = 0;
    for config in &selected {
        let mut run = ConfigRun {
            name: config.name.clone(),
            description: config.description.clone(),
            rustflags: config.rustflags.clone(),
            cargo_args: config.cargo_args.clone(),
            skip_reason: config.skip_reason.clone(),
            meta: None,
            build_seconds: 0.0,
            run_seconds: 0.0,
        };
        if let Some(why) = &config.skip_reason {
            println!("\nbench-matrix: SKIPPED {}: {why}", config.name);
            runs.push(run);
            continue;
        }
        k += 1;
        let stage = format!("[build {k}/{runnable} {}]", config.name);
        println!(
            "\n{stage} {:.0} s elapsed, about {:.0} s left in all (estimate)",
            started.elapsed().as_secs_f64(),
            left
        );
        left -= estimate(&config.name);
        let output = run_config(&root, &raw, config, &stage, opts)?;
        let config_figures = figures_of(&config.name, &output.benches);
        println!(
            "{stage} done: {} figures, build {:.0} s, run {:.0} s, {:.0} s elapsed in all",
            config_figures.len(),
            output.build_seconds,
            output.run_seconds,
            started.elapsed().as_secs_f64()
        );
        figures.extend(config_figures);
        run.meta = Some(output.meta);
        run.build_seconds = output.build_seconds;
        run.run_seconds = output.run_seconds;
        runs.push(run);
    }

    let (perft, perft_note) = if opts.no_perft {
        (Vec::new(), Some("Perft skipped (--no-perft).".to_owned()))
    } else {
        perft::run(&root, opts.quick)?
    };
    let calibration = if opts.no_calibration {
        None
    } else {
        Some(calibration::run(&root, opts.quick)?)
    };

    let results = Results {
        schema: SCHEMA,
        quick: opts.quick,
        cpu,
        rustc: command_line("rustc", &["--version"], &root),
        git_commit: command_line("git", &["describe", "--always", "--dirty"], &root),
        date,
        total_seconds: started.elapsed().as_secs_f64(),
        statistic: if opts.full {
            results::STATISTIC_CRITERION.to_owned()
        } else {
            results::statistic_rounds(rounds_of(opts))
        },
        configs: runs,
        figures,
        perft,
        perft_note,
        calibration,
    };
    results.save(&out).map_err(anyhow::Error::msg)?;
    report::write_single(&results, &out)?;
    check_outputs(&out)?;
    println!(
        "\nbench-matrix: {} figures in {:.0} s; wrote {}",
        results.figures.len(),
        results.total_seconds,
        out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hq_bench_format::{ChoiceNames, RowKind, RowMeta};

    fn synthetic(quick: bool) -> Results {
        let cpu = cpu::detect();
        let bench = |group: &str, row: &str, ns: f64| results::CriterionBench {
            group_id: group.to_owned(),
            function_id: row.to_owned(),
            elements: 4096,
            per_iter: vec![ns * 1.5, ns, ns * 1.2],
            median: ns * 1.2,
        };
        let benches = [
            bench("queen/throughput", "pext", 8192.0),
            bench("queen/throughput", "scalar-rank-table", 4096.0),
            bench("queen/cache", "pext", 40960.0),
            bench("queen/cache", "scalar-rank-table", 20480.0),
        ];
        let row = |name: &str, kind: RowKind| RowMeta {
            name: name.to_owned(),
            label: format!("{name} label"),
            kind,
        };
        Results {
            schema: SCHEMA,
            quick,
            cpu,
            rustc: "rustc test".into(),
            git_commit: "abc".into(),
            date: utc_now(),
            total_seconds: 1.0,
            statistic: results::statistic_rounds(15),
            configs: vec![ConfigRun {
                name: "runtime".into(),
                description: "test".into(),
                rustflags: String::new(),
                cargo_args: vec!["--bench".into(), "attacks".into()],
                skip_reason: None,
                meta: Some(BenchMeta {
                    mode: "run-time".into(),
                    choice: ChoiceNames {
                        single: "pext".into(),
                        batch: "avx512".into(),
                        setwise: "avx512".into(),
                        setwise_loop: 2,
                    },
                    class: "test".into(),
                    inputs: 4096,
                    checked_cases: 1,
                    rows: vec![
                        row("pext", RowKind::Backend),
                        row("scalar-rank-table", RowKind::Backend),
                    ],
                    skipped: vec![],
                    position_check: None,
                }),
                build_seconds: 0.0,
                run_seconds: 0.0,
            }],
            figures: figures_of("runtime", &benches),
            perft: vec![],
            perft_note: None,
            calibration: None,
        }
    }

    #[test]
    fn figures_use_the_fastest_sample_and_divide_by_pext_of_the_same_workload() {
        let r = synthetic(false);
        let f = r
            .figure("runtime", "scalar-rank-table", "queen", "throughput")
            .unwrap();
        assert_eq!(f.ns_per_lookup, 1.0);
        assert_eq!(f.mlookups_per_s, 1000.0);
        assert_eq!(f.ratio_to_pext, Some(2.0));
        let pext = r.figure("runtime", "pext", "queen", "cache").unwrap();
        assert_eq!(pext.ratio_to_pext, Some(1.0));
        assert_eq!(pext.mlookups_per_s, 100.0);
    }

    #[test]
    fn written_outputs_pass_the_check_and_merge() {
        let dir = std::env::temp_dir().join(format!("hq-bench-matrix-test-{}", std::process::id()));
        let (a, b, merged) = (dir.join("a"), dir.join("b"), dir.join("merged"));
        for (d, quick) in [(&a, false), (&b, true)] {
            std::fs::create_dir_all(d).unwrap();
            let r = synthetic(quick);
            r.save(d).unwrap();
            report::write_single(&r, d).unwrap();
            check_outputs(d).unwrap();
        }
        let runs = vec![
            ("a".to_owned(), Results::load(&a).unwrap()),
            ("b".to_owned(), Results::load(&b).unwrap()),
        ];
        report::write_merged(&runs, &merged).unwrap();
        let md = std::fs::read_to_string(merged.join(hq_bench_format::MATRIX_MD)).unwrap();
        assert!(md.contains("A thr") && md.contains("B thr") && md.contains("(2.00×)"));
        assert!(
            std::fs::read_to_string(merged.join(hq_bench_format::CHART_SVG))
                .unwrap()
                .contains("<rect")
        );
        // A missing chart is caught.
        std::fs::remove_file(a.join(hq_bench_format::CHART_SVG)).unwrap();
        assert!(check_outputs(&a).unwrap_err().to_string().contains("chart.svg"));
        // So is a directory without results.
        assert!(check_outputs(&dir).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn dates_are_rfc3339() {
        let d = utc_now();
        assert_eq!(d.len(), 20, "{d}");
        assert!(
            d.starts_with("20") && d.ends_with('Z') && &d[10..11] == "T",
            "{d}"
        );
    }
}
