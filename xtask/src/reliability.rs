//! The reliability checks on nightly Rust, each `SKIPPED` with the reason
//! when nightly, a component or `cargo-fuzz` is missing (`.ci/run` installs
//! them): [`miri`], the fuzz targets with a planted-bug self-test ([`fuzz`])
//! and ThreadSanitizer on the facade's concurrent first use ([`tsan`]).
//! `cargo xtask test` runs their short form (`cargo xtask test --only
//! Miri|fuzz|Thread` one alone); `cargo xtask reliability --long` the long
//! one: every Miri run, each fuzz target optimised for minutes.

use anyhow::{Context, bail, ensure};
use hq::Backend;
use rayon::prelude::*;
use std::path::Path;
use std::process::ExitStatus;
use std::time::Instant;
use xshell::{Cmd, Shell, cmd};

/// `cargo xtask reliability`'s options.
#[derive(clap::Args)]
pub struct Args {
    /// The long runs: every Miri run (the short form's and the ones only
    /// it has) and the fuzz targets optimised, [`LONG_FUZZ_SECONDS`] each.
    #[arg(long)]
    pub long: bool,
}

/// `cargo xtask reliability`: Miri, the fuzz targets and ThreadSanitizer,
/// short or long; every one attempted, the failures listed.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let mut failed = Vec::new();
    let checks: [(&str, &dyn Fn() -> anyhow::Result<()>); 3] = [
        ("Miri", &|| miri(args.long)),
        ("fuzz targets", &|| fuzz(args.long)),
        ("ThreadSanitizer", &tsan),
    ];
    for (name, check) in checks {
        println!("\n==> {name}");
        if let Err(e) = check() {
            eprintln!("reliability: {name} FAILED: {e:#}");
            failed.push(name);
        }
    }
    ensure!(failed.is_empty(), "failed: {}", failed.join(", "));
    Ok(())
}

/// Seconds per fuzz target in the test command (a short run: the targets
/// build, run, and find the planted bug), and in the long runs.
const FUZZ_SECONDS: u64 = 10;
const LONG_FUZZ_SECONDS: u64 = 300;

/// Why `cargo +nightly <tool> --version` does not run here, if it does not.
fn missing(sh: &Shell, tool: &str, install: &str) -> Option<String> {
    let ok = cmd!(sh, "cargo +nightly {tool} --version").output().is_ok();
    (!ok).then(|| format!("`cargo +nightly {tool} --version` does not run here ({install})"))
}

/// Runs `cmd` to its end: its status, and its stderr followed by its stdout.
fn capture(cmd: Cmd) -> anyhow::Result<(ExitStatus, String)> {
    let out = cmd.ignore_status().output()?;
    let text = String::from_utf8_lossy(&out.stderr) + String::from_utf8_lossy(&out.stdout);
    Ok((out.status, text.into_owned()))
}

/// A Miri run: what it checks, its `cargo +nightly miri` arguments (quoted
/// as in a shell), and for a perft the node count it must print.
type MiriRun = (&'static str, &'static str, Option<u64>);

/// The Miri runs (the suites sample under `cfg(miri)`) in two lanes that
/// run at once in their own target directories: Miri interprets on one
/// core, so a lane per core halves the step. The short form (the test
/// command) has the tests of the `unsafe` code the facade stands on: the
/// dispatch (atomics, function pointers to the installed plan's entries,
/// from several threads), `hq-core`'s detection and `hq-pext`'s raw
/// pointers into its tables, `hq-magic`'s unchecked reads of its. The long form (`cargo xtask reliability
/// --long`) adds what interprets safe code above them for minutes: every
/// portable backend's suite through `with_backend`, a forced build's route,
/// the mailbox's scalar path and two perfts (the short form was 562 s of
/// the test command with them, on the Intel Xeon 6/0xa7). No perft on threads: rayon's pool goes
/// through crossbeam-epoch, which breaks Stacked Borrows
/// (crossbeam-rs/crossbeam#545); `first_use` runs the facade's threads.
const MIRI_LANES: [(&[MiriRun], &[MiriRun]); 2] = [
    (
        &[(
            "the dispatch: first use from 4 threads, set_backend, mixed per-piece plans through the free functions",
            "test -p hq-attacks --test switching --test first_use --test plan",
            None,
        )],
        &[
            (
                "the portable backends through with_backend; the facade's free functions and jobs",
                "test -p hq-attacks --test dispatch --test facade",
                None,
            ),
            (
                "a forced build (scalar-reverse, classic): the free functions, first use",
                "test -p hq-attacks --features force-scalar-reverse,force-classic --test facade --test first_use -- free_functions selection mismatched first_calls",
                None,
            ),
        ],
    ),
    (
        &[
            (
                "hq-core; hq-pext's tables (software PEXT)",
                "test -p hq-attacks-core -p hq-pext --lib",
                None,
            ),
            (
                "hq-magic's unchecked reads of its table, every subset of every square",
                "test -p hq-magic --lib -- every_subset_finds_its_attack_set",
                None,
            ),
        ],
        &[
            (
                "the mailbox's scalar path",
                "test -p hq-mailbox --test agree",
                None,
            ),
            (
                "hq-chess, the perft binary",
                "run -q -p hq-chess --bin perft -- --fen startpos --depth 2",
                Some(400),
            ),
            (
                "hq-chess, the perft binary",
                "run -q -p hq-chess --bin perft -- --depth 2 --backend scalar-reverse --divide --fen 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'",
                Some(2_039),
            ),
        ],
    ),
];

/// Lane `lane`'s runs: the short form's, and with `long` the rest.
fn miri_runs(lane: usize, long: bool) -> Vec<MiriRun> {
    let (short, more) = MIRI_LANES[lane];
    let more = if long { more } else { &[] };
    [short, more].concat()
}

/// Runs Miri lane `lane` in `target/miri-lane-<lane>`, printing its output
/// when it ends (so that the lanes' do not mix): the tests that passed.
fn miri_lane(lane: usize, long: bool) -> anyhow::Result<u64> {
    let sh = crate::sh()?;
    sh.set_var("CARGO_TARGET_DIR", format!("target/miri-lane-{lane}"));
    let (mut passed, mut log) = (0, String::new());
    let mut run = |&(what, args, nodes): &MiriRun| -> anyhow::Result<()> {
        let args = shlex::split(args).context("unquoted Miri arguments")?;
        let cmd = cmd!(sh, "cargo +nightly miri {args...}");
        let heading = format!("==> Miri: {what}\n    {cmd}");
        let started = Instant::now();
        let (status, output) = capture(cmd)?;
        let took = started.elapsed().as_secs_f64();
        log += &format!("\n{heading}\n{output}(this run: {took:.0} s)\n");
        ensure!(status.success(), "{heading} failed ({status})");
        for words in output.lines().map(|l| l.split(' ').collect::<Vec<_>>()) {
            // "test result: ok. 3 passed; 0 failed; ..."
            if let ["test", "result:", "ok.", n, "passed;", ..] = words[..] {
                passed += n.parse::<u64>()?;
            }
        }
        if let Some(n) = nodes {
            let exact = output.lines().any(|l| l == format!("nodes: {n}"));
            ensure!(exact, "{heading}\ndid not count {n} nodes");
        }
        Ok(())
    };
    let result = miri_runs(lane, long).iter().try_for_each(&mut run);
    print!("{log}");
    result.map(|()| passed)
}

/// The Miri runs (all with `long`), with the number of tests that passed.
pub fn miri(long: bool) -> anyhow::Result<()> {
    let sh = crate::sh()?;
    let install = "rustup toolchain install nightly --component miri,rust-src";
    if let Some(why) = missing(&sh, "miri", install) {
        return crate::skips::missing_tool("Miri", &why);
    }
    let start = Instant::now();
    // Miri's standard library first, once, before two lanes would want it.
    cmd!(sh, "cargo +nightly miri setup").run()?;
    let runs: Vec<MiriRun> = (0..MIRI_LANES.len())
        .flat_map(|l| miri_runs(l, long))
        .collect();
    let (n, lanes) = (runs.len(), MIRI_LANES.len());
    println!("\n==> Miri: {n} runs in {lanes} lanes at once (the output follows each lane's end)");
    let lanes = (0..lanes).into_par_iter().map(|lane| miri_lane(lane, long));
    let passed: u64 = lanes.sum::<anyhow::Result<_>>()?;
    let perfts = runs.iter().filter(|run| run.2.is_some()).count();
    let (tests, secs) = (n - perfts, start.elapsed().as_secs_f64());
    println!(
        "\nMiri: {passed} tests passed in {tests} test runs, {perfts} perfts exact, no undefined behaviour, {secs:.0} s"
    );
    if !long {
        println!(
            "Miri: the long runs (a forced build, a second perft): cargo xtask reliability --long"
        );
    }
    ensure!(passed > 0, "Miri ran no test");
    Ok(())
}

/// Runs fuzz target `target` for `secs` from an emptied scratch corpus
/// (where new inputs go) and, if `seeds`, the committed seeds (read only),
/// with `env` and libFuzzer's further `flags`: its output, executions and
/// seconds, and whether it crashed.
fn fuzz_run(
    target: &str,
    secs: u64,
    seeds: bool,
    env: Option<(&str, &str)>,
    flags: &[&str],
) -> anyhow::Result<(String, u64, f64, bool)> {
    let dev = (secs < LONG_FUZZ_SECONDS).then_some("--dev");
    let sh = crate::sh()?;
    let scratch = format!("target/fuzz-corpus/{target}");
    sh.remove_path(&scratch)?;
    sh.create_dir(&scratch)?;
    let seeds = seeds.then(|| format!("fuzz/corpus/{target}"));
    let time = format!("-max_total_time={secs}");
    let start = Instant::now();
    let cmd = cmd!(
        sh,
        "cargo +nightly fuzz run {dev...} --fuzz-dir fuzz {target} {scratch} {seeds...} -- {time} -print_final_stats=1 {flags...}"
    );
    let (status, output) = capture(cmd.envs(env))?;
    let stat = "stat::number_of_executed_units:";
    let execs = output.lines().find_map(|l| l.strip_prefix(stat));
    let execs = execs.and_then(|n| n.trim().parse().ok()).unwrap_or(0);
    let (secs, crashed) = (start.elapsed().as_secs_f64(), !status.success());
    Ok((output, execs, secs, crashed))
}

/// Runs `target` from its seeds for `secs`, on `HQ_BACKEND=backend` if
/// given: its report line, or a crash (or no execution at all) as the error.
fn fuzz_checked(target: &str, secs: u64, backend: Option<&str>) -> anyhow::Result<String> {
    let env = backend.map(|b| ("HQ_BACKEND", b));
    let (output, execs, secs, crashed) = fuzz_run(target, secs, true, env, &[])?;
    let label = backend.map_or(target.to_owned(), |b| format!("{target} (HQ_BACKEND={b})"));
    let ok = !crashed && execs > 0;
    ensure!(ok, "fuzz target {label} crashed:\n{}", tail(&output));
    let line = format!("{label}: {execs} executions in {secs:.0} s, 0 crashes");
    println!("{line}");
    Ok(line)
}

/// A run's panic message (if any) and its last lines, for its error.
fn tail(output: &str) -> String {
    let lines: Vec<&str> = output.lines().filter(|l| !l.starts_with('#')).collect();
    let panic = lines.iter().position(|l| l.contains("panicked at"));
    let panic = panic.map_or(&[][..], |i| &lines[i..lines.len().min(i + 5)]);
    let last = &lines[lines.len().saturating_sub(30)..];
    [panic, last].concat().join("\n")
}

/// Builds the fuzz targets (AddressSanitizer), runs each from the committed
/// seeds for [`FUZZ_SECONDS`], the facade's once per backend this CPU runs
/// and on the class's choice (sharing the time, at least 2 s each); then the
/// self-test: a planted wrong backend must be found. The short runs build
/// unoptimised (`--dev`: 194 s optimised, most of the step on the Intel
/// Xeon 6/0xa7, for runs that prove the targets build, run and find the
/// planted bug); `long`, optimised for [`LONG_FUZZ_SECONDS`] each.
pub fn fuzz(long: bool) -> anyhow::Result<()> {
    let secs = if long {
        LONG_FUZZ_SECONDS
    } else {
        FUZZ_SECONDS
    };
    let sh = crate::sh()?;
    let install = "rustup toolchain install nightly; cargo install cargo-fuzz";
    if let Some(why) = missing(&sh, "fuzz", install) {
        return crate::skips::missing_tool("fuzz targets", &why);
    }
    let start = Instant::now();
    let dev = (!long).then_some("--dev");
    cmd!(sh, "cargo +nightly fuzz build {dev...} --fuzz-dir fuzz").run()?;
    let built = start.elapsed().as_secs_f64();
    println!("fuzz targets built (AddressSanitizer) in {built:.0} s");
    let targets = ["fen_epd", "entry_points", "batch_setwise"];
    let mut backends: Vec<_> = Backend::supported().map(Backend::name).collect();
    backends.push("auto");
    let each = (secs / backends.len() as u64).max(2);
    let all = backends.join("|");
    println!("\n==> fuzz targets {targets:?}, {secs} s; facade, HQ_BACKEND={all}, {each} s each");
    // Each libFuzzer run is single-threaded: rayon runs as many at a time as
    // there are cores; the facade's runs, which share a scratch corpus, one
    // after another.
    let plain = |t: &&str| fuzz_checked(t, secs, None);
    let facade = |b: &&str| fuzz_checked("facade", each, Some(b));
    let (plain, facade): (anyhow::Result<Vec<_>>, anyhow::Result<Vec<_>>) = rayon::join(
        || targets.par_iter().map(plain).collect(),
        || backends.iter().map(facade).collect(),
    );
    let report = [plain?, facade?].concat();
    println!(
        "\n==> self-test: entry_points with a planted wrong backend (HQ_FUZZ_PLANT=1), {secs} s at most"
    );
    sh.create_dir("target/fuzz-selftest")?;
    let flags = ["-seed=1", "-artifact_prefix=target/fuzz-selftest/"];
    let plant = Some(("HQ_FUZZ_PLANT", "1"));
    let (output, execs, took, crashed) = fuzz_run("entry_points", secs, false, plant, &flags)?;
    let bug = "backend planted-bug disagrees with the oracle";
    let Some(found) = output.lines().find(|l| crashed && l.contains(bug)) else {
        let tail = tail(&output);
        bail!("the planted bug was not found in {secs} s ({execs} executions):\n{tail}");
    };
    let found = found.trim();
    println!("ok: the planted bug was found after {execs} executions, {took:.1} s:\n    {found}");
    println!("\nfuzzing:\n    {}", report.join("\n    "));
    Ok(())
}

/// ThreadSanitizer on many threads making their first calls to the facade
/// at once, a `-Zbuild-std` build for the host.
pub fn tsan() -> anyhow::Result<()> {
    let sh = crate::sh()?;
    let sysroot = cmd!(sh, "rustc +nightly --print sysroot").ignore_stderr();
    let rust_src = sysroot.read().map(|s| s + "/lib/rustlib/src/rust/library");
    if !rust_src.is_ok_and(|dir| Path::new(&dir).is_dir()) {
        let install = "rustup toolchain install nightly --component rust-src";
        let why = format!("no nightly Rust with rust-src ({install})");
        return crate::skips::missing_tool("ThreadSanitizer", &why);
    }
    let rustc = cmd!(sh, "rustc -vV").read().unwrap_or_default();
    let host = rustc.lines().find_map(|l| l.strip_prefix("host: "));
    let host = host.unwrap_or_default();
    if !["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"].contains(&host) {
        println!("\nSKIPPED ThreadSanitizer: not set up for host {host:?}");
        return Ok(());
    }
    sh.set_var("RUSTFLAGS", "-Zsanitizer=thread");
    sh.set_var("CARGO_TARGET_DIR", "target/tsan");
    sh.set_var("TSAN_OPTIONS", "verbosity=1");
    // Unoptimised, the standard library too: a concurrency check, where
    // the optimised build-std took most of the step.
    let cmd = cmd!(
        sh,
        "cargo +nightly test -Zbuild-std --target {host} -p hq-attacks --test first_use --config profile.test.opt-level=0 -- --nocapture"
    );
    println!("\n==> RUSTFLAGS=-Zsanitizer=thread {cmd} (target/tsan)");
    let out = cmd.ignore_status().output()?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    print!("{}", String::from_utf8_lossy(&out.stdout));
    // verbosity=1: the runtime announces itself, so an uninstrumented build
    // cannot pass for a clean one.
    let ran = stderr.contains("Running under ThreadSanitizer");
    let clean = out.status.success() && ran && !stderr.contains("WARNING: ThreadSanitizer");
    let (status, tail) = (out.status, tail(&stderr));
    if !clean {
        bail!("ThreadSanitizer run failed ({status}; instrumented: {ran}):\n{tail}");
    }
    println!("ok: ThreadSanitizer: the concurrent first use, 0 warnings");
    Ok(())
}
