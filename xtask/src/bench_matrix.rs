//! `cargo xtask bench-matrix`: every backend, the reference points and the
//! peers, measured in one run per build configuration, tabulated per CPU.
//!
//! ```text
//! cargo xtask bench-matrix                 # the full matrix (about 10-15 min)
//! cargo xtask bench-matrix --quick         # every stage, tiny samples (CI)
//! cargo xtask bench-matrix --merge DIR...  # one matrix + chart from several CPUs
//! cargo xtask bench-matrix --quick --check # the outputs of the last quick run exist and parse
//! ```
//!
//! Options: `--out DIR` (default `target/bench-matrix/<cpu-id>`,
//! `target/bench-matrix/<cpu-id>-quick` with `--quick`, or
//! `target/bench-matrix/merged` with `--merge`), `--only NAME[,NAME]` (run
//! only these build configurations), `--no-perft`, `--verbose` (show
//! criterion's own output).
//!
//! Build configurations, each built and run by `cargo bench -p hq-benches`:
//! * `runtime`: default flags: every backend through its token, the facade
//!   with run-time dispatch, PEXT, Kogge-Stone, the peers;
//! * `native`: `-C target-cpu=native`: the same, statically selected, plus
//!   the peers' BMI2 variants (cozy-chess `pext`, chess `*_bmi`);
//! * `shakmaty-hq`: shakmaty built without its `magics` feature (one build
//!   cannot hold both variants) beside PEXT;
//! * `force-<backend>`: the facade forced to each backend this CPU supports,
//!   beside PEXT (others are listed as skipped, with the missing features).
//!
//! One `CARGO_TARGET_DIR` per `RUSTFLAGS` value
//! (`target/bench-matrix-build/{default,native}`): flipping flags never
//! rebuilds the other configuration, and feature-only variants share a dir.
//! Criterion writes into `<out>/criterion/<config>` (`CRITERION_HOME`); the
//! figures are read back from its `sample.json` files.

mod chart;
mod cpu;
mod perft;
mod report;
mod results;

pub use results::check_outputs;

use results::{ConfigRun, Figure, Results, RowMeta, Skipped};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Parsed command line.
struct Options {
    quick: bool,
    merge: Option<Vec<PathBuf>>,
    out: Option<PathBuf>,
    only: Option<Vec<String>>,
    perft: bool,
    verbose: bool,
    /// `--check [DIR]`: only check the outputs of a run (None inside: the default dir).
    check: Option<Option<PathBuf>>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        quick: false,
        merge: None,
        out: None,
        only: None,
        perft: true,
        verbose: false,
        check: None,
    };
    let mut it = args.iter().peekable();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--quick" => o.quick = true,
            "--verbose" => o.verbose = true,
            "--no-perft" => o.perft = false,
            "--check" => {
                let dir = it
                    .next_if(|next| !next.starts_with("--"))
                    .map(PathBuf::from);
                o.check = Some(dir);
            }
            "--out" => o.out = Some(PathBuf::from(it.next().ok_or("--out needs a directory")?)),
            "--only" => {
                let list = it.next().ok_or("--only needs configuration names")?;
                o.only = Some(list.split(',').map(|s| s.trim().to_owned()).collect());
            }
            "--merge" => {
                let mut dirs = Vec::new();
                while let Some(next) = it.peek() {
                    if next.starts_with("--") {
                        break;
                    }
                    dirs.push(PathBuf::from(it.next().expect("peeked")));
                }
                if dirs.is_empty() {
                    return Err("--merge needs one or more result directories".into());
                }
                o.merge = Some(dirs);
            }
            "-h" | "--help" => {
                return Err(
                    "usage: cargo xtask bench-matrix [--quick] [--out DIR] [--only NAME,...] \
                     [--no-perft] [--verbose] | --merge DIR... [--out DIR] | [--quick] --check [DIR]"
                        .into(),
                );
            }
            other => {
                return Err(format!(
                    "bench-matrix: unknown argument {other:?} (try --help)"
                ));
            }
        }
    }
    Ok(o)
}

/// The workspace root (xtask lives in it).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace root")
        .to_path_buf()
}

/// Where a run on `cpu` writes by default: `target/bench-matrix/<cpu-id>`,
/// or `<cpu-id>-quick` for `--quick` runs, so that a pipeline check never
/// overwrites real figures.
fn output_dir_for(root: &Path, cpu: &cpu::Cpu, quick: bool) -> PathBuf {
    let name = if quick {
        format!("{}-quick", cpu.id)
    } else {
        cpu.id.clone()
    };
    root.join("target/bench-matrix").join(name)
}

/// The directory `cargo xtask bench-matrix [--quick]` writes on this CPU
/// (for `cargo xtask test`: run `bench-matrix --quick`, then
/// `check_outputs(&output_dir(true))`).
pub fn output_dir(quick: bool) -> PathBuf {
    output_dir_for(&workspace_root(), &cpu::detect(), quick)
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
}

fn configs(cpu: &cpu::Cpu) -> Vec<Config> {
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
        },
        Config {
            name: "shakmaty-hq".into(),
            description: "shakmaty without its magics feature (Hyperbola Quintessence), beside PEXT".into(),
            target_dir: "default",
            rustflags: String::new(),
            cargo_args: args(&["--bench", "shakmaty_hq", "--no-default-features"]),
            clear_hq_backend: false,
            skip_reason: None,
        },
    ];
    for &backend in hq::Backend::all() {
        let feature = format!("hq/force-{}", backend.name());
        let missing = backend.missing_features();
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
            skip_reason: (!missing.is_empty()).then(|| format!("CPU lacks {}", missing.join(", "))),
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
        .env("RUSTFLAGS", &config.rustflags)
        .env_remove("CARGO_ENCODED_RUSTFLAGS");
    if config.clear_hq_backend {
        cmd.env_remove(hq::ENV_VAR);
    }
    cmd
}

/// What a bench run left behind.
struct RunOutput {
    meta: serde_json::Value,
    benches: Vec<results::CriterionBench>,
    build_seconds: f64,
    run_seconds: f64,
}

fn run_config(
    root: &Path,
    out: &Path,
    config: &Config,
    stage: &str,
    opts: &Options,
) -> Result<RunOutput, String> {
    println!(
        "\n{stage} building {} ({})",
        config.name, config.description
    );
    let started = Instant::now();
    let status = cargo_bench(root, config, &["--no-run".to_string()])
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!(
            "building configuration {} failed ({status})",
            config.name
        ));
    }
    let build_seconds = started.elapsed().as_secs_f64();

    let home = out.join("criterion").join(&config.name);
    if home.exists() {
        std::fs::remove_dir_all(&home)
            .map_err(|e| format!("cannot clear {}: {e}", home.display()))?;
    }
    std::fs::create_dir_all(&home).map_err(|e| format!("cannot create {}: {e}", home.display()))?;
    let meta_path = home.join("hq-bench-meta.json");
    println!("{stage} running {}", config.name);
    let started = Instant::now();
    let mut extra = vec!["--".to_string()];
    extra.extend(criterion_args(opts.quick));
    let mut child = cargo_bench(root, config, &extra)
        .env("CRITERION_HOME", &home)
        .env("HQ_BENCH_META", &meta_path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
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
        let line = line.map_err(|e| format!("reading the bench output: {e}"))?;
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
        .map_err(|e| format!("waiting for cargo: {e}"))?;
    let _ = stderr_thread.join();
    if !status.success() {
        return Err(format!(
            "the benchmarks of configuration {} failed ({status}); see the message above",
            config.name
        ));
    }
    let run_seconds = started.elapsed().as_secs_f64();
    let meta_text = std::fs::read_to_string(&meta_path)
        .map_err(|e| format!("the bench wrote no {}: {e}", meta_path.display()))?;
    let meta = serde_json::from_str(&meta_text)
        .map_err(|e| format!("{} does not parse: {e}", meta_path.display()))?;
    let benches = results::read_criterion(&home)?;
    Ok(RunOutput {
        meta,
        benches,
        build_seconds,
        run_seconds,
    })
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

/// Now, UTC, RFC 3339 (days-from-civil inverse, Howard Hinnant's algorithm).
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

fn meta_rows(meta: &serde_json::Value) -> Vec<RowMeta> {
    meta["rows"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| RowMeta {
                    name: r["name"].as_str().unwrap_or("?").to_owned(),
                    label: r["label"].as_str().unwrap_or("").to_owned(),
                    kind: r["kind"].as_str().unwrap_or("?").to_owned(),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn meta_skipped(meta: &serde_json::Value) -> Vec<Skipped> {
    meta["skipped"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| Skipped {
                    name: r["name"].as_str().unwrap_or("?").to_owned(),
                    why: r["why"].as_str().unwrap_or("").to_owned(),
                })
                .collect()
        })
        .unwrap_or_default()
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
            })
        })
        .collect();
    let pext: Vec<(String, String, f64)> = figures
        .iter()
        .filter(|f| f.row == "ref-pext")
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
pub fn run(args: &[String]) -> Result<(), String> {
    let opts = parse(args)?;
    let root = workspace_root();
    if let Some(dir) = &opts.check {
        let dir = dir.clone().unwrap_or_else(|| output_dir(opts.quick));
        check_outputs(&dir)?;
        println!(
            "bench-matrix: the outputs in {} exist, parse and agree",
            dir.display()
        );
        return Ok(());
    }
    if let Some(dirs) = &opts.merge {
        let runs = dirs
            .iter()
            .map(|d| Ok((d.display().to_string(), Results::load(d)?)))
            .collect::<Result<Vec<_>, String>>()?;
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
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;

    let all = configs(&cpu);
    let selected: Vec<&Config> = all
        .iter()
        .filter(|c| opts.only.as_ref().is_none_or(|only| only.contains(&c.name)))
        .collect();
    if selected.is_empty() {
        let names: Vec<&str> = all.iter().map(|c| c.name.as_str()).collect();
        return Err(format!(
            "--only matches no configuration; names: {}",
            names.join(", ")
        ));
    }
    let runnable = selected.iter().filter(|c| c.skip_reason.is_none()).count();
    let mut runs = Vec::new();
    let mut figures = Vec::new();
    let mut k = 0;
    for config in &selected {
        if let Some(why) = &config.skip_reason {
            println!("\nbench-matrix: SKIPPED {}: {why}", config.name);
            runs.push(ConfigRun {
                name: config.name.clone(),
                description: config.description.clone(),
                rustflags: config.rustflags.clone(),
                cargo_args: config.cargo_args.clone(),
                ran: false,
                skip_reason: Some(why.clone()),
                selection: None,
                active_backend: None,
                rows: Vec::new(),
                skipped: Vec::new(),
                checked_cases: 0,
                build_seconds: 0.0,
                run_seconds: 0.0,
            });
            continue;
        }
        k += 1;
        let stage = format!("[build {k}/{runnable} {}]", config.name);
        let output = run_config(&root, &out, config, &stage, &opts)?;
        let config_figures = figures_of(&config.name, &output.benches);
        println!(
            "{stage} done: {} figures, build {:.0} s, run {:.0} s, {:.0} s elapsed in all",
            config_figures.len(),
            output.build_seconds,
            output.run_seconds,
            started.elapsed().as_secs_f64()
        );
        figures.extend(config_figures);
        runs.push(ConfigRun {
            name: config.name.clone(),
            description: config.description.clone(),
            rustflags: config.rustflags.clone(),
            cargo_args: config.cargo_args.clone(),
            ran: true,
            skip_reason: None,
            selection: output.meta["selection"].as_str().map(str::to_owned),
            active_backend: output.meta["active_backend"].as_str().map(str::to_owned),
            rows: meta_rows(&output.meta),
            skipped: meta_skipped(&output.meta),
            checked_cases: output.meta["checked_cases"].as_u64().unwrap_or(0),
            build_seconds: output.build_seconds,
            run_seconds: output.run_seconds,
        });
    }

    let (perft, perft_note) = if opts.perft {
        perft::run(&root, &out, opts.quick)?
    } else {
        (Vec::new(), Some("Perft skipped (--no-perft).".to_owned()))
    };

    let results = Results {
        schema: results::SCHEMA,
        quick: opts.quick,
        cpu,
        rustc: command_line("rustc", &["--version"], &root),
        git_commit: command_line("git", &["describe", "--always", "--dirty"], &root),
        date,
        total_seconds: started.elapsed().as_secs_f64(),
        statistic: results::STATISTIC.to_owned(),
        configs: runs,
        figures,
        perft,
        perft_note,
    };
    let json = serde_json::to_string_pretty(&results).map_err(|e| format!("serializing: {e}"))?;
    let json_path = out.join(results::RESULTS_JSON);
    std::fs::write(&json_path, json)
        .map_err(|e| format!("cannot write {}: {e}", json_path.display()))?;
    report::write_single(&results, &out)?;
    check_outputs(&out)?;
    println!(
        "\nbench-matrix: {} figures in {:.0} s; wrote {}, {} and {}",
        results.figures.len(),
        results.total_seconds,
        json_path.display(),
        out.join(results::MATRIX_MD).display(),
        out.join(results::CHART_SVG).display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
            bench("queen/throughput", "ref-pext", 8192.0),
            bench("queen/throughput", "scalar-rank-table", 4096.0),
            bench("queen/cache", "ref-pext", 40960.0),
            bench("queen/cache", "scalar-rank-table", 20480.0),
        ];
        let row = |name: &str, kind: &str| RowMeta {
            name: name.to_owned(),
            label: format!("{name} label"),
            kind: kind.to_owned(),
        };
        Results {
            schema: results::SCHEMA,
            quick,
            cpu,
            rustc: "rustc test".into(),
            git_commit: "abc".into(),
            date: utc_now(),
            total_seconds: 1.0,
            statistic: results::STATISTIC.into(),
            configs: vec![ConfigRun {
                name: "runtime".into(),
                description: "test".into(),
                rustflags: String::new(),
                cargo_args: vec!["--bench".into(), "attacks".into()],
                ran: true,
                skip_reason: None,
                selection: Some("run-time".into()),
                active_backend: Some("scalar-rank-table".into()),
                rows: vec![
                    row("ref-pext", "reference"),
                    row("scalar-rank-table", "backend"),
                ],
                skipped: vec![],
                checked_cases: 1,
                build_seconds: 0.0,
                run_seconds: 0.0,
            }],
            figures: figures_of("runtime", &benches),
            perft: vec![],
            perft_note: None,
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
        let pext = r.figure("runtime", "ref-pext", "queen", "cache").unwrap();
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
            std::fs::write(
                d.join(results::RESULTS_JSON),
                serde_json::to_string(&r).unwrap(),
            )
            .unwrap();
            report::write_single(&r, d).unwrap();
            check_outputs(d).unwrap();
        }
        let runs = vec![
            ("a".to_owned(), Results::load(&a).unwrap()),
            ("b".to_owned(), Results::load(&b).unwrap()),
        ];
        report::write_merged(&runs, &merged).unwrap();
        let md = std::fs::read_to_string(merged.join(results::MATRIX_MD)).unwrap();
        assert!(md.contains("A thr") && md.contains("B thr") && md.contains("(2.00×)"));
        assert!(
            std::fs::read_to_string(merged.join(results::CHART_SVG))
                .unwrap()
                .contains("<rect")
        );
        // A missing chart is caught.
        std::fs::remove_file(a.join(results::CHART_SVG)).unwrap();
        assert!(check_outputs(&a).unwrap_err().contains("chart.svg"));
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
