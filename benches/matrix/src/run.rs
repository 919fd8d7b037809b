//! The run: every backend, the facade, the reference
//! methods and the peers, timed in one run per build configuration
//! ([`configs`]), tabulated per CPU; see `--help`. Every cell is timed in
//! rounds (`HQ_BENCH_ROUNDS`, see `benches/runner.rs`), each in a fresh
//! random order; the figure is the fastest sample, with the cell's spread
//! (criterion is for `cargo bench` by hand). Every bench binary is checked
//! first: its single-lookup loops must be one lookup at a time (`asm_check`).

use crate::results::{self, check_outputs};
use crate::{CARGO, asm_check, calibration, cpu, perft, report};
use anyhow::{Context, bail, ensure};
use cargo_metadata::Message;
use hq_bench_format::{ConfigRun, Figure, Results, SCHEMA, TimedCell};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;
use xshell::{Cmd, Shell, cmd};

/// `cargo xtask bench-matrix`'s options.
#[derive(clap::Args, Default)]
pub struct Args {
    /// Every stage with tiny samples (checks the pipeline, not the speed).
    #[arg(long)]
    quick: bool,
    /// The long run: 45 rounds of 4 ms samples (not 15 of 2 ms), every `force-<backend>` build.
    #[arg(long, conflicts_with = "quick")]
    full: bool,
    /// Rounds per cell (default 15; 45 with --full, 2 with --quick).
    #[arg(long)]
    rounds: Option<usize>,
    /// Merge these result directories into one matrix and chart.
    #[arg(long, num_args = 1.., value_name = "DIR")]
    merge: Vec<PathBuf>,
    /// Where to write (default: benches/results/CPU-ID, or target/bench-matrix/CPU-ID-quick
    /// with --quick, or target/bench-matrix/merged with --merge).
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
    /// Only check the outputs of a run (the default directory, or DIR).
    #[arg(long, num_args = 0..=1, value_name = "DIR")]
    check: Option<Option<PathBuf>>,
}

impl Args {
    /// Rounds per cell and microseconds per sample. `--full`: the fastest
    /// and the median of 45 samples, each twice as long (an interrupt weighs
    /// half as much): six times the default's timing, some 15 min on 2 cores.
    fn sampling(&self) -> (usize, u64) {
        let (rounds, sample_us) = match (self.quick, self.full) {
            (true, _) => (2, 20),
            (_, true) => (45, 4000),
            _ => (15, 2000),
        };
        (self.rounds.unwrap_or(rounds), sample_us)
    }

    /// Whether configuration `name` runs: `--only`; or: a forced build times
    /// the runtime build's backend row again, so two test the forcing (the
    /// fastest table method and the portable default) unless `--full`;
    /// `--quick`: one of each kind (`native` is `runtime` with other flags).
    fn selects(&self, name: &str) -> bool {
        match name {
            _ if !self.only.is_empty() => self.only.iter().any(|o| o == name),
            "native" | "runtime-lto" | "force-scalar-rank-table" => !self.quick,
            "force-pext" => true,
            _ => self.full || !name.starts_with("force-"),
        }
    }
}

/// Where `cargo xtask bench-matrix [--quick]` writes on this CPU: the
/// committed `benches/results/<cpu-id>`, or for a pipeline check
/// `target/bench-matrix/<cpu-id>-quick` (never over real figures).
pub fn output_dir(quick: bool) -> PathBuf {
    let (root, id) = (crate::workspace_root(), cpu::detect().id);
    match quick {
        true => root.join(format!("target/bench-matrix/{id}-quick")),
        false => root.join(format!("benches/results/{id}")),
    }
}

/// The build configurations, each built and run by `cargo bench -p hq-benches`.
fn configs(bmi2: bool) -> Vec<ConfigRun> {
    let config = |name: String, description: String, rustflags: &str, args: &str| ConfigRun {
        name,
        description,
        rustflags: rustflags.to_owned(),
        cargo_args: args.split_whitespace().map(str::to_owned).collect(),
        ..ConfigRun::default()
    };
    let cozy = if bmi2 {
        " --features cozy-chess-pext"
    } else {
        ""
    };
    let native = format!("--bench attacks{cozy}");
    let mut out = vec![
        config(
            "runtime".into(),
            "default flags: backends through their tokens, facade with run-time dispatch, references, peers".into(),
            "",
            "--bench attacks",
        ),
        config(
            "native".into(),
            "-C target-cpu=native: static selection, peers' BMI2 variants".into(),
            "-C target-cpu=native",
            &native,
        ),
        // Fat LTO and one codegen unit, as an engine's release build: the
        // engine-shaped loops, their own target dir (no rebuild of the others).
        config(
            "runtime-lto".into(),
            "fat LTO, one codegen unit: the engine-shaped loops as an engine's release build compiles them".into(),
            "",
            "--bench engine --config profile.bench.lto=\"fat\" --config profile.bench.codegen-units=1",
        ),
        // One build cannot hold shakmaty with and without its `magics` feature.
        config(
            "shakmaty-hq".into(),
            "shakmaty without its magics feature (Hyperbola Quintessence), beside PEXT".into(),
            "",
            "--bench shakmaty_hq --no-default-features",
        ),
    ];
    for &backend in hq::Backend::all() {
        let (name, feature) = (backend.name(), format!("hq/{}", backend.force_feature()));
        let description = format!("facade forced to {name} (feature {feature}), beside PEXT");
        let args = format!("--bench facade --features {feature}");
        out.push(ConfigRun {
            skip_reason: backend.check_supported().err().map(|e| e.to_string()),
            ..config(format!("force-{name}"), description, "", &args)
        });
    }
    out
}

/// `cmd`, a cargo build, into `target/bench-matrix-build/<dir>`: one target
/// dir per `RUSTFLAGS` value (`default` without flags, else the flags'
/// `target-cpu`: `native`, `x86-64-v3`), so flipping flags never rebuilds
/// another configuration.
pub(crate) fn build_env<'a>(cmd: Cmd<'a>, rustflags: &str) -> Cmd<'a> {
    let cpu = rustflags
        .split_whitespace()
        .find_map(|flag| flag.strip_prefix("target-cpu="));
    let dir = match (rustflags.is_empty(), cpu) {
        (true, _) => "default",
        (false, Some(cpu)) => cpu,
        (false, None) => "other",
    };
    let target = crate::workspace_root().join("target/bench-matrix-build");
    // v0 symbol names keep the generic parameters, so the assembly check can
    // tell which row a workload function belongs to (no effect on code).
    let rustflags = format!("{rustflags} -C symbol-mangling-version=v0");
    cmd.env("CARGO_TARGET_DIR", target.join(dir))
        .env("RUSTFLAGS", rustflags.trim_start())
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
}

/// Runs `cmd`, handing its stdout to `on_line` line by line as it comes
/// (xshell only collects output; the progress must show while it runs).
fn stream(cmd: Cmd<'_>, mut on_line: impl FnMut(&str)) -> anyhow::Result<()> {
    let shown = crate::shown(&cmd);
    let mut child = Command::from(cmd).stdout(Stdio::piped()).spawn()?;
    for line in BufReader::new(child.stdout.take().expect("piped")).lines() {
        on_line(&line?);
    }
    let status = child.wait()?;
    ensure!(status.success(), "`{shown}` failed ({status})");
    Ok(())
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> anyhow::Result<T> {
    let context = || format!("the bench wrote no readable {}", path.display());
    serde_json::from_str(&std::fs::read_to_string(path).with_context(context)?)
        .with_context(context)
}

/// Builds `run`'s configuration, checks its bench binaries' code, times it
/// (raw output in `home`) and records how it went in `run`; its figures.
fn run_config(
    sh: &Shell,
    home: &Path,
    run: &mut ConfigRun,
    stage: &str,
    opts: &Args,
) -> anyhow::Result<Vec<Figure>> {
    println!("{stage} building {} ({})", run.name, run.description);
    let (args, rustflags) = (&run.cargo_args, &run.rustflags);
    let forced = run.name.starts_with("force-");
    let lto = args.iter().any(|a| a.contains("lto"));
    let bench = |extra: &[&str]| {
        let mut cmd = build_env(
            cmd!(sh, "{CARGO} bench -p hq-benches {args...} {extra...}"),
            rustflags,
        );
        if lto {
            let dir = crate::workspace_root().join("target/bench-matrix-build/lto");
            cmd = cmd.env("CARGO_TARGET_DIR", dir);
        }
        // Forced builds refuse `HQ_BACKEND`.
        if forced {
            cmd.env_remove(hq::BACKEND_VAR)
        } else {
            cmd
        }
    };
    let started = Instant::now();
    let build = bench(&["--no-run", "--message-format=json-render-diagnostics"]);
    let messages = build
        .read()
        .with_context(|| format!("building {} failed", run.name))?;
    run.build_seconds = started.elapsed().as_secs_f64();
    for message in Message::parse_stream(messages.as_bytes()) {
        if let Message::CompilerArtifact(artifact) = message?
            && let Some(exe) = artifact.executable.filter(|_| artifact.target.is_bench())
        {
            let name = exe.file_name().unwrap_or_default();
            match asm_check::check_binary(exe.as_std_path())? {
                Some(r) => println!(
                    "{stage} single-lookup loops of {name} are one lookup at a time: {} functions \
                     ({} table lookups), {} instructions, no gathers",
                    r.functions, r.table_functions, r.instructions
                ),
                None => {
                    println!("{stage} asm check of {name}: SKIPPED, not x86-64 (iced: x86 only)")
                }
            }
        }
    }

    sh.remove_path(home)?;
    sh.create_dir(home)?;
    let (meta, cells) = (
        home.join("hq-bench-meta.json"),
        home.join("hq-bench-cells.json"),
    );
    println!("{stage} running {}", run.name);
    let started = Instant::now();
    let (rounds, sample_us) = opts.sampling();
    let bench = (bench(&[]).env("HQ_BENCH_ROUNDS", format!("{rounds},{sample_us}")))
        .env("HQ_BENCH_OUT", &cells)
        .env("HQ_BENCH_META", &meta);
    stream(bench, |line| match line.strip_prefix("hq-bench: ") {
        Some(progress) => println!("{stage} {progress}"),
        None => println!("{line}"),
    })
    .with_context(|| {
        format!(
            "the benchmarks of {} failed; see the messages above",
            run.name
        )
    })?;
    run.run_seconds = started.elapsed().as_secs_f64();
    run.meta = Some(read_json(&meta)?);
    let cells: Vec<TimedCell> = read_json(&cells)?;
    results::figures(&run.name, &cells).with_context(|| format!("the cells of {}", run.name))
}

/// Now, UTC, RFC 3339.
fn utc_now() -> String {
    let now = time::OffsetDateTime::now_utc();
    let now = now.replace_nanosecond(0).unwrap_or(now);
    let text = now.format(&time::format_description::well_known::Rfc3339);
    text.unwrap_or_else(|_| "unknown".into())
}

/// The task.
pub fn run(opts: &Args) -> anyhow::Result<()> {
    let (sh, root) = (crate::sh()?, crate::workspace_root());
    if let Some(dir) = &opts.check {
        let dir = dir.clone().unwrap_or_else(|| output_dir(opts.quick));
        check_outputs(&dir)?;
        let dir = dir.display();
        println!("bench-matrix: the outputs in {dir} exist, parse and agree");
        return Ok(());
    }
    if !opts.merge.is_empty() {
        let mut runs = Vec::new();
        for dir in &opts.merge {
            runs.push((
                dir.display().to_string(),
                Results::load(dir).map_err(anyhow::Error::msg)?,
            ));
        }
        let out = opts.out.clone();
        return report::write_merged(
            &runs,
            &out.unwrap_or(root.join("target/bench-matrix/merged")),
        );
    }

    let (started, date, cpu) = (Instant::now(), utc_now(), cpu::detect());
    println!(
        "bench-matrix: CPU {}\nbench-matrix: id {}",
        cpu.summary(),
        cpu.id
    );
    let out = opts.out.clone().unwrap_or_else(|| output_dir(opts.quick));
    sh.create_dir(&out)?;
    // The bench binaries' raw output (never committed).
    let raw = root
        .join("target/bench-matrix/raw")
        .join(out.file_name().unwrap_or_default());
    let (rounds, sample_us) = opts.sampling();
    let statistic = results::statistic_rounds(rounds, sample_us);

    let all = configs(cpu.has("bmi2"));
    let mut runs: Vec<ConfigRun> = all
        .iter()
        .filter(|c| opts.selects(&c.name))
        .cloned()
        .collect();
    if runs.is_empty() {
        let names: Vec<&str> = all.iter().map(|c| c.name.as_str()).collect();
        bail!(
            "--only matches no configuration; names: {}",
            names.join(", ")
        );
    }
    let runnable = runs.iter().filter(|c| c.skip_reason.is_none()).count();
    let (mut figures, mut k) = (Vec::new(), 0);
    for run in &mut runs {
        if let Some(why) = &run.skip_reason {
            println!("\nbench-matrix: SKIPPED {}: {why}", run.name);
            continue;
        }
        k += 1;
        let stage = format!("[build {k}/{runnable} {}]", run.name);
        let elapsed = started.elapsed().as_secs_f64();
        println!("\n{stage} {elapsed:.0} s elapsed");
        let new = run_config(&sh, &raw.join(&run.name), run, &stage, opts)?;
        let (n, build, time) = (new.len(), run.build_seconds, run.run_seconds);
        println!("{stage} done: {n} figures, build {build:.0} s, run {time:.0} s");
        figures.extend(new);
    }

    let (perft, perft_note) = match opts.no_perft {
        true => (Vec::new(), Some("Perft skipped (--no-perft).".to_owned())),
        false => perft::run(&sh, opts.quick)?,
    };
    let calibration = (!opts.no_calibration).then(|| calibration::run(&sh, opts.quick));
    let read = |c: Cmd| c.quiet().ignore_stderr().read().unwrap_or("unknown".into());
    let results = Results {
        schema: SCHEMA,
        quick: opts.quick,
        cpu,
        rustc: read(cmd!(sh, "rustc --version")),
        git_commit: read(cmd!(sh, "git describe --always --dirty")),
        date,
        total_seconds: started.elapsed().as_secs_f64(),
        statistic,
        configs: runs,
        figures,
        perft,
        perft_note,
        calibration: calibration.transpose()?,
    };
    results.save(&out).map_err(anyhow::Error::msg)?;
    report::write_single(&results, &out)?;
    check_outputs(&out)?;
    let (n, s) = (results.figures.len(), results.total_seconds);
    println!(
        "\nbench-matrix: {n} figures in {s:.0} s; wrote {}",
        out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two rows, the second twice as fast as PEXT on queen throughput.
    fn synthetic(quick: bool) -> Results {
        let mut r: Results = serde_json::from_str(&format!(
            r#"{{"schema": {SCHEMA}, "quick": {quick}, "rustc": "rustc", "git_commit": "abc",
            "date": "2025-01-01T00:00:00Z", "total_seconds": 1, "statistic": "min", "configs": [],
            "cpu": {{"id": "test", "vendor": "AMD", "model_name": "test", "family": 25, "model": 1,
                "stepping": 1, "features": {{"bmi2": true}}}}, "figures": [], "perft": [],
            "perft_note": null}}"#
        ))
        .unwrap();
        let meta = r#"{"mode": "run-time", "class": "test", "inputs": 4096, "checked_cases": 1,
            "choice": {"single": "pext", "batch": "avx512", "setwise": "avx512", "setwise_loop": 2},
            "rows": [{"name": "pext", "label": "pext label", "kind": "backend"},
                {"name": "scalar-rank-table", "label": "srt", "kind": "backend"}], "skipped": []}"#;
        r.configs = vec![configs(true).swap_remove(0)];
        r.configs[0].meta = Some(serde_json::from_str(meta).unwrap());
        let cell = |cell: &str, ns: f64| TimedCell {
            cell: cell.into(),
            elements: 4096,
            per_iter: vec![ns * 1.5, ns, ns * 1.25],
        };
        let cells = [
            cell("queen/throughput/pext", 8192.0),
            cell("queen/throughput/scalar-rank-table", 4096.0),
            cell("queen/cache/pext", 40960.0),
        ];
        r.figures = results::figures("runtime", &cells).unwrap();
        r
    }

    #[test]
    fn figures_use_the_fastest_sample_and_divide_by_pext_of_the_same_workload() {
        let r = synthetic(false);
        let f = r
            .figure("runtime", "scalar-rank-table", "queen", "throughput")
            .unwrap();
        assert_eq!((f.ns_per_lookup, f.mlookups_per_s), (1.0, 1000.0));
        assert_eq!((f.ratio_to_pext, f.ns_per_iter_median), (Some(2.0), 5120.0));
        let pext = r.figure("runtime", "pext", "queen", "cache").unwrap();
        assert_eq!(
            (pext.ratio_to_pext, pext.mlookups_per_s),
            (Some(1.0), 100.0)
        );
        for (cell, per_iter) in [("queen/pext", vec![1.0]), ("queen/cache/pext", vec![])] {
            let cell = TimedCell {
                cell: cell.into(),
                elements: 1,
                per_iter,
            };
            assert!(results::figures("runtime", &[cell]).is_err());
        }
    }

    #[test]
    fn the_sampling_and_the_configurations_follow_the_mode() {
        let full = Args {
            full: true,
            ..Args::default()
        };
        let text = results::statistic_rounds(full.sampling().0, full.sampling().1);
        assert!(text.starts_with("fastest of 45 rounds (each round times every cell for about 4 ms, cache pressure 16 ms"), "{text}");
        let count = |a: &Args| configs(true).iter().filter(|c| a.selects(&c.name)).count();
        let quick = Args {
            quick: true,
            ..Args::default()
        };
        assert_eq!((count(&Args::default()), count(&quick)), (6, 3));
        assert_eq!(count(&full), 4 + hq::Backend::all().len());
        assert_eq!(
            count(&Args {
                only: vec!["native".into()],
                ..Args::default()
            }),
            1
        );
    }

    #[test]
    fn written_outputs_pass_the_check_and_merge() {
        let dir = tempfile::tempdir().unwrap();
        let [a, b, merged] = ["a", "b", "merged"].map(|d| dir.path().join(d));
        for (d, quick) in [(&a, false), (&b, true)] {
            std::fs::create_dir_all(d).unwrap();
            let r = synthetic(quick);
            r.save(d).unwrap();
            report::write_single(&r, d).unwrap();
            check_outputs(d).unwrap();
        }
        let runs = [("a", &a), ("b", &b)].map(|(n, d)| (n.to_owned(), Results::load(d).unwrap()));
        report::write_merged(&runs, &merged).unwrap();
        let read = |name| std::fs::read_to_string(merged.join(name)).unwrap();
        let md = read(hq_bench_format::MATRIX_MD);
        assert!(md.contains("A thr") && md.contains("B thr") && md.contains("(2.00×)"));
        assert!(read(hq_bench_format::CHART_SVG).contains("<rect"));
        // A missing chart is caught, and so is a directory without results.
        std::fs::remove_file(a.join(hq_bench_format::CHART_SVG)).unwrap();
        assert!(
            check_outputs(&a)
                .unwrap_err()
                .to_string()
                .contains("chart.svg")
        );
        assert!(check_outputs(dir.path()).is_err());
    }

    #[test]
    fn dates_are_rfc3339() {
        let d = utc_now();
        assert!(
            d.len() == 20 && d.starts_with("20") && d.ends_with('Z') && &d[10..11] == "T",
            "{d}"
        );
    }
}
