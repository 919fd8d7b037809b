//! `cargo xtask test`'s reliability steps, on nightly Rust (each says
//! `SKIPPED` with the reason when nightly, a component or `cargo-fuzz` is
//! missing; `.ci/run` installs them):
//!
//! * [`miri`]: `cargo +nightly miri test` on the portable backends (through
//!   `with_backend`), the dispatch (first use from several threads,
//!   `set_backend`, a forced build), hq-pext's tables (on its software PEXT),
//!   the mailbox's scalar path, and small perfts by the `perft` binary; the
//!   suites sample under `cfg(miri)`.
//! * [`fuzz`]: the cargo-fuzz targets of `fuzz/` (AddressSanitizer builds),
//!   each for a bounded time from the committed seeds; the facade target
//!   once per backend this CPU runs (`HQ_BACKEND`) and once on the class's
//!   choice; then the self-test: a planted wrong backend must be found.
//! * [`tsan`]: ThreadSanitizer (`-Zsanitizer=thread`, `-Zbuild-std`) on many
//!   threads making their first calls to the facade at once (a forced
//!   build's first use runs under Miri's data-race detector).
//!
//! `cargo xtask reliability [--only miri|fuzz|tsan] [--fuzz-seconds N]`
//! runs them alone (longer fuzzing, for example).

use hq::Backend;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Seconds per fuzz target in `cargo xtask test`.
pub const FUZZ_SECONDS: u64 = 30;

/// `cargo xtask reliability`'s options.
#[derive(clap::Args)]
pub struct Args {
    /// Only this part.
    #[arg(long, value_enum)]
    only: Option<Part>,
    /// Seconds per fuzz target (the facade target's shared over its runs).
    #[arg(long, default_value_t = FUZZ_SECONDS)]
    fuzz_seconds: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Part {
    Miri,
    Fuzz,
    Tsan,
}

/// The task.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let wanted = |p| args.only.is_none_or(|o| o == p);
    if wanted(Part::Miri) {
        miri()?;
    }
    if wanted(Part::Fuzz) {
        fuzz_for(args.fuzz_seconds)?;
    }
    if wanted(Part::Tsan) {
        tsan()?;
    }
    Ok(())
}

/// `cargo +nightly args`, through rustup's proxy, in the workspace root.
fn nightly(args: &[&str]) -> Command {
    let mut command = Command::new("cargo");
    command
        .arg("+nightly")
        .args(args)
        .current_dir(crate::workspace_root());
    command
}

/// Runs `cargo +nightly args` to its end (output to the terminal); an error
/// naming the command if it cannot start or fails.
fn run_nightly(args: &[&str]) -> anyhow::Result<()> {
    let what = format!("cargo +nightly {}", args.join(" "));
    let status = nightly(args)
        .status()
        .map_err(|e| anyhow::anyhow!("cannot run {what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(anyhow::anyhow!("{what} failed ({status})"))
    }
}

/// Why `cargo +nightly args` cannot run here, if it cannot.
fn missing(args: &[&str], install: &str) -> Option<String> {
    let ok = nightly(args).output().is_ok_and(|o| o.status.success());
    (!ok).then(|| {
        format!(
            "`cargo +nightly {}` does not run here ({install})",
            args.join(" ")
        )
    })
}

/// One Miri run: a test run or a small perft by the `perft` binary.
enum MiriRun {
    /// (what, `cargo miri test` arguments).
    Test(&'static str, &'static [&'static str]),
    /// The `perft` binary's arguments, and the node count it must print.
    /// (None on threads: rayon's pool goes through crossbeam-epoch, which
    /// breaks Stacked Borrows, crossbeam-rs/crossbeam#545; the facade's own
    /// threads run under Miri in `tests/first_use.rs`.)
    Perft(&'static [&'static str], u64),
}

/// The Miri runs in two lanes that run at once, each in its own target
/// directory: Miri interprets on one core, so one lane per core halves the
/// step (163 s of one core in one lane on AMD Zen 4). The lanes are about
/// even: the dispatch's runs in one, the rest in the other.
const MIRI_LANES: [&[MiriRun]; 2] = [
    &[
        MiriRun::Test(
            "the portable backends through with_backend; the dispatch: first use from 4 threads, set_backend, mixed per-piece plans, the free functions",
            &[
                "-p",
                "hq-attacks",
                "--test",
                "facade",
                "--test",
                "switching",
                "--test",
                "first_use",
                "--test",
                "plan",
            ],
        ),
        MiriRun::Test(
            "a forced build (scalar-reverse, classic): the free functions, first use",
            &[
                "-p",
                "hq-attacks",
                "--features",
                "force-scalar-reverse,force-classic",
                "--test",
                "facade",
                "--test",
                "first_use",
                "--",
                "free_functions",
                "selection",
                "mismatched",
                "first_calls",
            ],
        ),
    ],
    &[
        MiriRun::Test(
            "hq-core; hq-pext's tables (software PEXT)",
            &["-p", "hq-attacks-core", "-p", "hq-pext", "--lib"],
        ),
        MiriRun::Test(
            "the mailbox's scalar path",
            &["-p", "hq-mailbox", "--test", "agree"],
        ),
        MiriRun::Perft(&["--fen", "startpos", "--depth", "2"], 400),
        MiriRun::Perft(
            &[
                "--fen",
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "--depth",
                "2",
                "--backend",
                "scalar-reverse",
                "--divide",
            ],
            2_039,
        ),
    ],
];

/// What a Miri lane did: tests passed, perfts exact, and its output.
#[derive(Default)]
struct MiriLane {
    passed: u64,
    perfts: usize,
    output: String,
}

impl MiriLane {
    /// Runs `runs` one after another in `target/miri-lane-<lane>`, keeping
    /// the output (printed after the lanes, so that theirs do not mix).
    fn run(lane: usize, runs: &[MiriRun]) -> Result<MiriLane, (MiriLane, String)> {
        let mut out = MiriLane::default();
        let target = crate::workspace_root().join(format!("target/miri-lane-{lane}"));
        for run in runs {
            let (heading, mut command) = match run {
                MiriRun::Test(what, args) => {
                    let mut command = nightly(&["miri", "test"]);
                    command.args(*args);
                    let heading = format!(
                        "==> Miri: {what}\n    cargo +nightly miri test {}",
                        args.join(" ")
                    );
                    (heading, command)
                }
                MiriRun::Perft(args, _) => {
                    let mut command = nightly(&[
                        "miri", "run", "-q", "-p", "hq-chess", "--bin", "perft", "--",
                    ]);
                    command.args(*args);
                    let heading = format!(
                        "==> Miri: hq-chess, the perft binary\n    cargo +nightly miri run -p hq-chess --bin perft -- {}",
                        args.join(" ")
                    );
                    (heading, command)
                }
            };
            out.output += &format!("\n{heading}\n");
            let result = command.env("CARGO_TARGET_DIR", &target).output();
            let output = match result {
                Ok(output) => output,
                Err(e) => return Err((out, format!("cannot run cargo miri: {e}"))),
            };
            let stdout = String::from_utf8_lossy(&output.stdout);
            out.output += &String::from_utf8_lossy(&output.stderr);
            out.output += &stdout;
            if !output.status.success() {
                return Err((out, format!("{heading} failed ({})", output.status)));
            }
            match run {
                // "test result: ok. 3 passed; 0 failed; ..."
                MiriRun::Test(..) => {
                    out.passed += stdout
                        .lines()
                        .filter_map(|line| line.strip_prefix("test result: ok. "))
                        .filter_map(|rest| rest.split(' ').next()?.parse::<u64>().ok())
                        .sum::<u64>();
                }
                MiriRun::Perft(args, nodes) => {
                    if !stdout.lines().any(|line| line == format!("nodes: {nodes}")) {
                        let why = format!("perft {} did not count {nodes} nodes", args.join(" "));
                        return Err((out, why));
                    }
                    out.perfts += 1;
                }
            }
        }
        Ok(out)
    }
}

/// The Miri runs, with the number of tests that passed.
pub fn miri() -> anyhow::Result<()> {
    if let Some(why) = missing(
        &["miri", "--version"],
        "rustup toolchain install nightly --component miri,rust-src",
    ) {
        println!("\nSKIPPED Miri: {why}");
        return Ok(());
    }
    let start = Instant::now();
    // Miri's standard library first, once, before two lanes would want it.
    run_nightly(&["miri", "setup"])?;
    println!(
        "\n==> Miri: {} runs in {} lanes at once (the output follows each lane's end)",
        MIRI_LANES.iter().map(|lane| lane.len()).sum::<usize>(),
        MIRI_LANES.len()
    );
    let lanes: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = MIRI_LANES
            .iter()
            .enumerate()
            .map(|(i, runs)| scope.spawn(move || MiriLane::run(i, runs)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a Miri lane panicked"))
            .collect()
    });
    let (mut passed, mut perfts, mut failed) = (0, 0, Vec::new());
    for lane in lanes {
        let lane = lane.unwrap_or_else(|(lane, why)| {
            failed.push(why);
            lane
        });
        print!("{}", lane.output);
        passed += lane.passed;
        perfts += lane.perfts;
    }
    if !failed.is_empty() {
        return Err(anyhow::anyhow!(failed.join("; ")));
    }
    let tests = MIRI_LANES.iter().flat_map(|lane| lane.iter());
    println!(
        "\nMiri: {passed} tests passed in {} test runs, {perfts} perfts exact, no undefined behaviour, {:.0} s",
        tests.filter(|run| matches!(run, MiriRun::Test(..))).count(),
        start.elapsed().as_secs_f64()
    );
    if passed == 0 {
        return Err(anyhow::anyhow!("Miri ran no test"));
    }
    Ok(())
}

/// The fuzz targets whose one run covers every backend.
const FUZZ_TARGETS: [&str; 3] = ["fen_epd", "entry_points", "batch_setwise"];

/// What one fuzz run did.
struct FuzzRun {
    execs: u64,
    seconds: f64,
    crashed: bool,
    output: String,
}

/// Runs `target` for `seconds` from an empty scratch corpus (where new
/// inputs go) and `seeds` (read only), with `env`.
fn fuzz_run(
    target: &str,
    seconds: u64,
    seeds: Option<&Path>,
    env: &[(&str, &str)],
    extra: &[&str],
) -> anyhow::Result<FuzzRun> {
    let root = crate::workspace_root();
    let scratch = root.join("target/fuzz-corpus").join(target);
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).map_err(|e| anyhow::anyhow!("{}: {e}", scratch.display()))?;
    let time = format!("-max_total_time={seconds}");
    let mut command = nightly(&["fuzz", "run", "--fuzz-dir", "fuzz", target]);
    command.arg(&scratch);
    command.args(seeds);
    command
        .args(["--", &time, "-print_final_stats=1"])
        .args(extra)
        .envs(env.iter().copied());
    let start = Instant::now();
    let out = command
        .output()
        .map_err(|e| anyhow::anyhow!("cannot run cargo fuzz: {e}"))?;
    let output =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    let execs = output
        .lines()
        .find_map(|l| l.strip_prefix("stat::number_of_executed_units:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    Ok(FuzzRun {
        execs,
        seconds: start.elapsed().as_secs_f64(),
        crashed: !out.status.success(),
        output,
    })
}

/// A fuzz run's report line, or its crash as the error.
fn checked(label: String, run: FuzzRun) -> anyhow::Result<String> {
    if run.crashed || run.execs == 0 {
        return Err(anyhow::anyhow!(
            "fuzz target {label} crashed:\n{}",
            tail(&run.output)
        ));
    }
    let line = format!(
        "{label}: {} executions in {:.0} s, 0 crashes",
        run.execs, run.seconds
    );
    println!("{line}");
    Ok(line)
}

/// A run's panic message (if any) and its last lines, for its error.
fn tail(output: &str) -> String {
    let lines: Vec<&str> = output.lines().filter(|l| !l.starts_with('#')).collect();
    let panic = lines.iter().position(|l| l.contains("panicked at"));
    let mut shown: Vec<&str> = panic
        .map_or(&[][..], |i| &lines[i..lines.len().min(i + 5)])
        .to_vec();
    shown.extend(&lines[lines.len().saturating_sub(30)..]);
    shown.join("\n")
}

/// The fuzz targets for [`FUZZ_SECONDS`] each, and the self-test.
pub fn fuzz() -> anyhow::Result<()> {
    fuzz_for(FUZZ_SECONDS)
}

/// Builds the fuzz targets, runs each for `seconds` (the facade target
/// shares them out over its runs, at least 2 s each), then the self-test.
fn fuzz_for(seconds: u64) -> anyhow::Result<()> {
    let install = "rustup toolchain install nightly; cargo install cargo-fuzz";
    if let Some(why) = missing(&["fuzz", "--version"], install) {
        println!("\nSKIPPED fuzz targets: {why}");
        return Ok(());
    }
    let root = crate::workspace_root();
    println!("\n==> cargo +nightly fuzz build --fuzz-dir fuzz (AddressSanitizer)");
    let start = Instant::now();
    run_nightly(&["fuzz", "build", "--fuzz-dir", "fuzz"])?;
    println!(
        "fuzz targets built in {:.0} s",
        start.elapsed().as_secs_f64()
    );
    let seeds = |t: &str| root.join("fuzz/corpus").join(t);
    let backends: Vec<&str> = Backend::supported()
        .map(|b| b.name())
        .chain(["auto"])
        .collect();
    let each = (seconds / backends.len() as u64).max(2);
    // Each libFuzzer run is single-threaded: rayon runs as many at a time
    // as there are cores (the facade's runs, which share a scratch corpus,
    // one after another as one job).
    let facade = || -> anyhow::Result<Vec<String>> {
        backends
            .iter()
            .map(|name| {
                let env = [("HQ_BACKEND", *name)];
                let run = fuzz_run("facade", each, Some(&seeds("facade")), &env, &[])?;
                checked(format!("facade (HQ_BACKEND={name})"), run)
            })
            .collect()
    };
    for target in FUZZ_TARGETS {
        println!("\n==> fuzz target {target}, {seconds} s");
    }
    println!(
        "\n==> fuzz target facade under HQ_BACKEND={}, {each} s each",
        backends.join("|")
    );
    let jobs: Vec<Option<&str>> = FUZZ_TARGETS
        .iter()
        .copied()
        .map(Some)
        .chain([None])
        .collect();
    let report: Vec<String> = jobs
        .par_iter()
        .map(|job| match job {
            Some(target) => {
                let run = fuzz_run(target, seconds, Some(&seeds(target)), &[], &[])?;
                Ok(vec![checked((*target).to_owned(), run)?])
            }
            None => facade(),
        })
        .collect::<anyhow::Result<Vec<Vec<String>>>>()?
        .concat();
    // The self-test: the planted bug, from an empty corpus.
    println!(
        "\n==> self-test: entry_points with a planted wrong backend (HQ_FUZZ_PLANT=1), {seconds} s at most"
    );
    let artifacts = root.join("target/fuzz-selftest/");
    std::fs::create_dir_all(&artifacts)
        .map_err(|e| anyhow::anyhow!("{}: {e}", artifacts.display()))?;
    let prefix = format!("-artifact_prefix={}", artifacts.display());
    let run = fuzz_run(
        "entry_points",
        seconds,
        None,
        &[("HQ_FUZZ_PLANT", "1")],
        &["-seed=1", &prefix],
    )?;
    if !(run.crashed
        && run
            .output
            .contains("backend planted-bug disagrees with the oracle"))
    {
        return Err(anyhow::anyhow!(
            "the planted bug was not found in {seconds} s ({} executions):\n{}",
            run.execs,
            tail(&run.output)
        ));
    }
    let found = run
        .output
        .lines()
        .find(|l| l.contains("planted-bug disagrees"))
        .unwrap_or("")
        .trim();
    println!(
        "ok: the planted bug was found after {} executions, {:.1} s:\n    {found}",
        run.execs, run.seconds
    );
    println!("\nfuzzing:\n    {}", report.join("\n    "));
    Ok(())
}

/// The host's target triple.
fn host() -> Option<String> {
    let out = Command::new("rustc").arg("-vV").output().ok()?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
}

/// ThreadSanitizer on the concurrent first use of the run-time dispatch.
pub fn tsan() -> anyhow::Result<()> {
    let install = "rustup toolchain install nightly --component rust-src";
    let sysroot = Command::new("rustc")
        .args(["+nightly", "--print", "sysroot"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let Some(sysroot) = sysroot else {
        println!("\nSKIPPED ThreadSanitizer: nightly Rust is not installed ({install})");
        return Ok(());
    };
    if !sysroot.join("lib/rustlib/src/rust/library").is_dir() {
        println!("\nSKIPPED ThreadSanitizer: nightly has no rust-src for -Zbuild-std ({install})");
        return Ok(());
    }
    let host = host().unwrap_or_default();
    if !["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"].contains(&host.as_str()) {
        println!("\nSKIPPED ThreadSanitizer: not set up for host {host:?}");
        return Ok(());
    }
    let args = [
        "test",
        "-Zbuild-std",
        "--target",
        &host,
        "-p",
        "hq-attacks",
        "--test",
        "first_use",
        "--",
        "--nocapture",
    ];
    println!(
        "\n==> RUSTFLAGS=-Zsanitizer=thread cargo +nightly {} (target/tsan)",
        args.join(" ")
    );
    let out = nightly(&args)
        .env("RUSTFLAGS", "-Zsanitizer=thread")
        .env("CARGO_TARGET_DIR", "target/tsan")
        .env("TSAN_OPTIONS", "verbosity=1")
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| anyhow::anyhow!("cannot run cargo: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    print!("{}", String::from_utf8_lossy(&out.stdout));
    // verbosity=1: the runtime announces itself, so an uninstrumented build
    // cannot pass for a clean one.
    let ran = stderr.contains("Running under ThreadSanitizer");
    if !out.status.success() || !ran || stderr.contains("WARNING: ThreadSanitizer") {
        return Err(anyhow::anyhow!(
            "ThreadSanitizer run failed ({}; instrumented: {ran}):\n{}",
            out.status,
            tail(&stderr)
        ));
    }
    println!("ok: ThreadSanitizer: the concurrent first use, 0 warnings");
    Ok(())
}
