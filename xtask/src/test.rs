//! `cargo xtask test`: every test, as CI runs it, in the named steps of
//! [`STEPS`]. Each step runs in a process of its own (`xtask test --step
//! NAME`), two at a time on two cores, its output in
//! `target/xtask-test/<step>.log`, printed whole when it ends; steps that
//! build into the same directory never run at once. A failed step does not
//! stop the others. At the end, a line per step: its time, the part of it
//! cargo spent compiling, and the CPU time of the step and its children.

use crate::{WORKSPACE_SELECTION, bench_matrix, cargo, cross, emu, release, reliability, skips};
use anyhow::{Context, bail, ensure};
use hq::Backend;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `cargo xtask test`'s options.
#[derive(clap::Args)]
pub struct Args {
    /// Skip the emulated AVX-512 suites.
    #[arg(long)]
    no_emu: bool,
    /// Skip the aarch64 and wasm32 tests.
    #[arg(long)]
    no_cross: bool,
    /// Skip the quick bench-matrix run.
    #[arg(long)]
    no_bench: bool,
    /// Run only the steps whose name contains this text (for example
    /// `--only package` or `--only Miri`), to repeat one failed step.
    #[arg(long, value_name = "STEP")]
    only: Option<String>,
    /// Steps at a time (default: 2, or 1 on a single core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Run the step of exactly this name here, its output on the console
    /// (what each step's process runs).
    #[arg(long, value_name = "NAME", hide = true)]
    step: Option<String>,
}

/// Which steps run: all, but those `--no-*` leaves out.
#[derive(Clone, Copy)]
enum Runs {
    Always,
    Cross,
    Emu,
    Bench,
}

/// A step: its name (what `--only` matches), whether it runs, the build
/// directories it compiles into (steps sharing one never run at once:
/// cargo would only make one wait for the other), the check.
struct Step {
    name: &'static str,
    runs: Runs,
    builds_in: &'static [&'static str],
    check: fn() -> anyhow::Result<()>,
}

/// The steps, longest first where they can overlap: the scheduler starts
/// the first whose build directories are free.
const STEPS: [Step; 17] = [
    Step {
        name: "workspace tests",
        runs: Runs::Always,
        builds_in: &["debug"],
        check: workspace_tests,
    },
    Step {
        name: "cross targets",
        runs: Runs::Cross,
        builds_in: &["cross"],
        check: || cross::run(&cross::Args { only: None }),
    },
    Step {
        name: "emulated CPU without AVX-512",
        runs: Runs::Emu,
        builds_in: &["debug"],
        check: emu::on_cpu_without_avx512,
    },
    Step {
        name: "each forced build",
        runs: Runs::Always,
        builds_in: &["debug"],
        check: each_forced_build,
    },
    Step {
        name: "Miri",
        runs: Runs::Always,
        builds_in: &["miri"],
        check: || reliability::miri(false),
    },
    Step {
        name: "fuzz targets",
        runs: Runs::Always,
        builds_in: &["fuzz"],
        check: || reliability::fuzz(false),
    },
    Step {
        name: "bench-matrix --quick",
        runs: Runs::Bench,
        builds_in: &["debug"],
        check: bench_matrix_quick,
    },
    Step {
        name: "emulated AVX-512 CPU",
        runs: Runs::Emu,
        builds_in: &["emu"],
        check: emulated_avx512_cpu,
    },
    Step {
        name: "ThreadSanitizer",
        runs: Runs::Always,
        builds_in: &["tsan"],
        check: reliability::tsan,
    },
    Step {
        name: "no_std and native facade",
        runs: Runs::Always,
        builds_in: &["debug", "native"],
        check: release::no_std,
    },
    Step {
        name: "forced below and at its level",
        runs: Runs::Always,
        builds_in: &["debug", "native"],
        check: forced_below_and_at_level,
    },
    Step {
        name: "two forced backends",
        runs: Runs::Always,
        builds_in: &["debug"],
        check: two_forced_backends,
    },
    Step {
        name: "forced unsupported backend",
        runs: Runs::Always,
        builds_in: &["debug"],
        check: unsupported_backend,
    },
    Step {
        name: "cargo package",
        runs: Runs::Always,
        builds_in: &["package"],
        check: release::package,
    },
    Step {
        name: "MSRV",
        runs: Runs::Always,
        builds_in: &["msrv"],
        check: release::msrv,
    },
    Step {
        name: "wasm module size",
        runs: Runs::Cross,
        builds_in: &["debug", "bench-matrix-build/wasm-size-wasm32"],
        check: wasm_module_size,
    },
    Step {
        name: "README tables",
        runs: Runs::Always,
        builds_in: &["debug"],
        check: || bench_matrix(&["readme", "--check"]),
    },
];

/// A step's log, under the workspace's target directory.
fn log_of(name: &str) -> PathBuf {
    let file = name.replace(|c: char| !c.is_ascii_alphanumeric(), "-");
    crate::workspace_root().join(format!("target/xtask-test/{file}.log"))
}

/// The line a step's process ends with: the CPU seconds it and its children
/// used (the scheduler reads it from the log).
const CPU_LINE: &str = "xtask test step: CPU seconds ";

/// The CPU seconds of this process and its waited-for descendants (cargo,
/// rustc, the tests): `/proc/self/stat`'s utime, stime, cutime and cstime,
/// in the kernel's 100 ticks per second. `None` off Linux.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // After the command name: state is field 3, utime field 14.
    let ticks: Option<Vec<f64>> = fields.get(11..15)?.iter().map(|f| f.parse().ok()).collect();
    Some(ticks?.iter().sum::<f64>() / 100.0)
}

/// The seconds cargo reported compiling in a log: the sum of its
/// `Finished ... in 1m 05s` lines (a step's commands run one after another,
/// so these are parts of its wall time).
fn compile_seconds(log: &str) -> f64 {
    // "1m 05s", "31.64s".
    let duration = |t: &str| -> f64 {
        t.split_whitespace()
            .map(|part| match part.split_at(part.len().saturating_sub(1)) {
                (n, "m") => 60.0 * n.parse().unwrap_or(0.0),
                (n, "s") => n.parse().unwrap_or(0.0),
                _ => 0.0,
            })
            .sum()
    };
    let finished = log
        .lines()
        .filter(|l| l.trim_start().starts_with("Finished `"));
    finished
        .filter_map(|l| Some(duration(l.rsplit_once(" in ")?.1)))
        .fold(0.0, |sum, s| sum + s)
}

/// A finished step's figures.
struct Outcome {
    name: &'static str,
    passed: bool,
    seconds: f64,
    compile: f64,
    cpu: Option<f64>,
    /// Its `SKIPPED` lines (`crate::skips`).
    skipped: Vec<String>,
    /// The backends it checked against the oracle.
    checked: Vec<String>,
    /// What it says it ran (`RAN` lines).
    ran: Vec<String>,
}

/// The steps' names, in [`STEPS`]' order.
#[cfg(test)]
pub fn step_names() -> impl Iterator<Item = &'static str> {
    STEPS.iter().map(|s| s.name)
}

/// The task: `--step` runs one step here; otherwise the steps not skipped
/// and matching `--only` run, up to `--jobs` at a time, each announced by
/// `==> name` when it ends, with its output.
pub fn run(args: &Args) -> anyhow::Result<()> {
    if let Some(name) = &args.step {
        let step = STEPS.iter().find(|s| s.name == name.as_str());
        let step = step.with_context(|| format!("no step is named {name:?}"))?;
        let result = (step.check)();
        if let Some(cpu) = cpu_seconds() {
            println!("{CPU_LINE}{cpu:.1}");
        }
        return result;
    }
    let runs = |r: Runs| match r {
        Runs::Always => true,
        Runs::Cross => !args.no_cross,
        Runs::Emu => !args.no_emu,
        Runs::Bench => !args.no_bench,
    };
    let mut steps: Vec<&Step> = STEPS.iter().filter(|s| runs(s.runs)).collect();
    let names: Vec<&str> = steps.iter().map(|s| s.name).collect();
    let only = args.only.as_deref().unwrap_or("").to_lowercase();
    steps.retain(|s| s.name.to_lowercase().contains(&only));
    if steps.is_empty() {
        bail!(
            "--only {only:?} names no step; the steps: {}",
            names.join(", ")
        );
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = args.jobs.unwrap_or(cores.min(2)).max(1);
    let exe = std::env::current_exe()?;
    std::fs::create_dir_all(log_of("x").parent().expect("a directory"))?;
    println!(
        "xtask test: {} steps, {jobs} at a time, each in its own process (logs in target/xtask-test/)",
        steps.len()
    );
    let started = Instant::now();
    let mut running: Vec<(&Step, Child, Instant)> = Vec::new();
    let mut outcomes: Vec<Outcome> = Vec::new();
    while !steps.is_empty() || !running.is_empty() {
        // Start what can start: the first steps whose directories are free.
        while running.len() < jobs {
            let busy = |s: &Step| {
                running
                    .iter()
                    .any(|(r, ..)| r.builds_in.iter().any(|d| s.builds_in.contains(d)))
            };
            let Some(i) = steps.iter().position(|s| !busy(s)) else {
                break;
            };
            let step = steps.remove(i);
            let log = std::fs::File::create(log_of(step.name))?;
            let child = Command::new(&exe)
                .args(["test", "--step", step.name])
                .stdin(Stdio::null())
                .stdout(log.try_clone()?)
                .stderr(log)
                .spawn()
                .with_context(|| format!("cannot start step {}", step.name))?;
            println!(
                "xtask test: started {} ({:.0} s)",
                step.name,
                started.elapsed().as_secs_f64()
            );
            running.push((step, child, Instant::now()));
        }
        std::thread::sleep(Duration::from_millis(200));
        let mut i = 0;
        while i < running.len() {
            let Some(status) = running[i].1.try_wait()? else {
                i += 1;
                continue;
            };
            let (step, _, since) = running.remove(i);
            outcomes.push(report(
                step,
                status.success(),
                since.elapsed().as_secs_f64(),
            )?);
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let ran: Vec<skips::Ran> = outcomes
        .iter()
        .map(|o| skips::Ran {
            name: o.name,
            passed: o.passed,
            skipped: o.skipped.clone(),
            checked: o.checked.clone(),
            ran: o.ran.clone(),
        })
        .collect();
    let uncovered = skips::uncovered(&ran);
    let incomplete =
        |name: &str| o_passed(&outcomes, name) && uncovered.iter().any(|(n, _)| *n == name);
    let failed: Vec<&str> = outcomes
        .iter()
        .filter(|o| !o.passed)
        .map(|o| o.name)
        .collect();
    let cpu: f64 = outcomes.iter().filter_map(|o| o.cpu).sum();
    println!(
        "\nxtask test: {seconds:.0} s in all, {cpu:.0} CPU seconds; per step (wall s, of it compiling, CPU s):"
    );
    for o in &outcomes {
        let cpu = o.cpu.map_or("?".to_owned(), |c| format!("{c:.0}"));
        let verdict = match (o.passed, incomplete(o.name)) {
            (false, _) => "  FAILED",
            (true, true) => "  INCOMPLETE",
            (true, false) => "",
        };
        println!(
            "xtask test:   {:<32} {:>5.0} {:>5.0} {:>6}{verdict}",
            o.name, o.seconds, o.compile, cpu,
        );
    }
    // What each step skipped, and what ran it instead.
    for o in outcomes.iter().filter(|o| !o.skipped.is_empty()) {
        for line in &o.skipped {
            let by = skips::covered_by(&ran, line, o.name);
            let by = by.map_or("NOT RUN by any step".to_owned(), |by| {
                format!("run by {by}")
            });
            println!("xtask test: {}: {line} -- {by}", o.name);
        }
    }
    let incomplete: Vec<&str> = outcomes
        .iter()
        .map(|o| o.name)
        .filter(|n| incomplete(n))
        .collect();
    println!(
        "xtask test: {} passed, {} failed, {} incomplete (skipped what no other step ran: not \
         passed)",
        outcomes.len() - failed.len() - incomplete.len(),
        failed.len(),
        incomplete.len()
    );
    ensure!(failed.is_empty(), "failed steps: {}", failed.join(", "));
    let required = std::env::var_os(skips::REQUIRE_TOOLS).is_some_and(|v| v == "1");
    ensure!(
        !required || incomplete.is_empty(),
        "incomplete steps under {}=1: {}",
        skips::REQUIRE_TOOLS,
        incomplete.join(", ")
    );
    Ok(())
}

/// Whether the step `name` passed.
fn o_passed(outcomes: &[Outcome], name: &str) -> bool {
    outcomes.iter().any(|o| o.name == name && o.passed)
}

/// Prints a finished step's log, then its outcome line; its figures.
fn report(step: &'static Step, passed: bool, seconds: f64) -> anyhow::Result<Outcome> {
    let path = log_of(step.name);
    let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let log = String::from_utf8_lossy(&bytes);
    let cpu = log
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix(CPU_LINE)?.trim().parse().ok());
    let compile = compile_seconds(&log);
    println!("\n==> {}", step.name);
    print!("{log}");
    if !log.ends_with('\n') {
        println!();
    }
    let verdict = match passed {
        // Whether a skip leaves the step incomplete, the summary says
        // (another step may have run what it skipped).
        true if log.contains("SKIPPED") => "finished with skips".to_owned(),
        true => "passed".to_owned(),
        false => format!("xtask test: step '{}' FAILED", step.name),
    };
    println!(
        "==> {}: {verdict} in {seconds:.0} s ({compile:.0} s of it compiling; log {})",
        step.name,
        show(&path)
    );
    if !passed {
        eprintln!(
            "xtask test: step '{}' FAILED (log: {})",
            step.name,
            show(&path)
        );
    }
    Ok(Outcome {
        name: step.name,
        passed,
        seconds,
        compile,
        cpu,
        skipped: skips::skipped_lines(&log),
        checked: skips::checked_backends(&log),
        ran: skips::ran_marks(&log),
    })
}

/// `path` relative to the workspace root where it is inside it.
fn show(path: &Path) -> String {
    let root = crate::workspace_root();
    path.strip_prefix(&root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The workspace's tests, output shown: every backend's report and every
/// SKIPPED line.
fn workspace_tests() -> anyhow::Result<()> {
    let test = format!("test {WORKSPACE_SELECTION} -- --nocapture");
    Ok(cargo(&crate::sh()?, &test).run()?)
}

/// The facade's tests in the build of each backend this CPU runs forced
/// alone: among them, that the plan it selects is accepted again.
/// Unoptimised: they test which backend runs and what is said, not speed,
/// and run in a second, where optimising twelve builds cost minutes of CI.
fn each_forced_build() -> anyhow::Result<()> {
    let sh = crate::sh()?;
    for b in Backend::all() {
        if let Err(missing) = b.check_supported() {
            println!("SKIPPED the force-{b} build's tests: {missing}");
            continue;
        }
        let test = format!(
            "test -p hq-attacks --features {} --test facade --config profile.test.opt-level=0",
            b.force_feature()
        );
        cargo(&sh, &test).run()?;
        println!("ok: the facade's tests pass with {}", b.force_feature());
    }
    Ok(())
}

/// Two supported backends forced at once (the `force-*` features are
/// additive): the tests of the choice pass, and `hq-info` explains it.
fn two_forced_backends() -> anyhow::Result<()> {
    let supported: Vec<Backend> = Backend::supported().collect();
    let [a, .., b] = supported[..] else {
        bail!("fewer than two backends run here")
    };
    let (sh, a, b) = (crate::sh()?, a.force_feature(), b.force_feature());
    // The tests of the choice, unoptimised as in each forced build (the
    // kernels' exhaustive suites run in the workspace tests).
    let tests = "--test facade --test switching --test plan --test first_use";
    let test = format!(
        "test -p hq-attacks --features {a},{b} {tests} --config profile.test.opt-level=0 -- --nocapture"
    );
    cargo(&sh, &test).run()?;
    let features = format!("hq/{a},hq/{b}");
    let info = format!("run -q -p hq-info --features {features} -- --no-check");
    let info = cargo(&sh, &info).read()?;
    ensure!(
        info.contains("forced by Cargo features"),
        "hq-info with --features {features} should explain the forced choice; it says:\n{info}"
    );
    println!("ok: --features {features} builds and hq-info says:");
    let choice = info
        .lines()
        .skip_while(|l| !l.starts_with("single lookups"));
    for line in choice.take_while(|l| !l.starts_with("CPU class")) {
        println!("    {line}");
    }
    Ok(())
}

/// A forced SIMD backend in a build without its level's target features
/// runs its forms for callers of any level: `hq::selection()` and
/// `hq-info` say so (with the cost and the flags), and say nothing in the
/// same build at its level. The facade's test of the note, and `hq-info`,
/// in both builds: `force-avx2`, then at its level, `-C target-cpu=native`
/// in the native facade's directory ([`release::NATIVE_DIR`]; a CPU that
/// runs AVX2 has x86-64-v3), where a directory of its own for
/// `-C target-cpu=x86-64-v3` compiled every crate once more for this step.
fn forced_below_and_at_level() -> anyhow::Result<()> {
    let b = Backend::Avx2;
    if let Err(missing) = b.check_supported() {
        println!("SKIPPED the note of a forced backend below its level: {missing}");
        return Ok(());
    }
    let sh = crate::sh()?;
    let feature = b.force_feature();
    let note = format!("note: {feature}:");
    let test = format!(
        "test -p hq-attacks --features {feature} --test facade --config profile.test.opt-level=0 \
         -- a_forced_backend_below_its_level --nocapture"
    );
    let info = format!("run -q -p hq-info --features hq/{feature} -- --no-check");
    let at_level = crate::workspace_root().join(release::NATIVE_DIR);
    for (flags, expected) in [("", true), (release::NATIVE_FLAGS, false)] {
        let with_flags = |args: &str| match flags.is_empty() {
            true => cargo(&sh, args),
            false => cargo(&sh, args)
                .env("RUSTFLAGS", flags)
                .env("CARGO_TARGET_DIR", &at_level),
        };
        with_flags(&test).run()?;
        let text = with_flags(&info).read()?;
        let said = text.lines().find(|l| l.contains(&note));
        match (expected, said) {
            (true, Some(line)) => println!("ok: hq-info --features hq/{feature}: {}", line.trim()),
            (false, None) => println!("ok: hq-info --features hq/{feature} with {flags}: no note"),
            (true, None) => bail!("hq-info with {feature} should note its level; it says:\n{text}"),
            (false, Some(line)) => {
                bail!("hq-info with {feature} and {flags} should say nothing of its level: {line}")
            }
        }
    }
    Ok(())
}

/// Forcing a backend this CPU lacks stops with a clear error at the first
/// call: exit status 101 (a panic's) with the message, never a signal.
fn unsupported_backend() -> anyhow::Result<()> {
    let Some(b) = Backend::all().iter().copied().find(|b| !b.is_supported()) else {
        println!("SKIPPED forced-unsupported check: this CPU runs every backend compiled in");
        return Ok(());
    };
    let (sh, feature) = (crate::sh()?, b.force_feature());
    let call = format!("run -q -p hq-info --features hq/{feature} -- --call");
    let out = cargo(&sh, &call).ignore_status().output()?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let clear = stderr.contains("cannot run") && stderr.contains(b.name());
    let missing = b.check_supported().expect_err("unsupported");
    ensure!(
        out.status.code() == Some(101) && clear,
        "forcing {b} here should stop with a clear error ({missing}); got {}:\n{stderr}",
        out.status
    );
    let message = stderr.lines().find(|l| l.contains("hq:")).unwrap_or("");
    println!("ok: forcing {b} here stops with: {}", message.trim());
    Ok(())
}

/// A `wasm32-unknown-unknown` release module exporting one function that
/// calls `hq::queen_attacks` (with `std`): with `small-tables` it stays
/// within 10 KiB (no magic or PEXT table, no research backend linked);
/// the default build, the magic bitboards' plan, is reported beside it.
/// The bench matrix's own sizing (`hq-bench-matrix wasm-size`, what
/// `--wasm` records), without the peers' modules.
fn wasm_module_size() -> anyhow::Result<()> {
    let target = "wasm32-unknown-unknown";
    if !cross::has_target(target) {
        let why = format!("rustup target {target} is not installed (rustup target add {target})");
        return crate::skips::missing_tool("wasm module size", &why);
    }
    bench_matrix(&["wasm-size", "--limit", "10240", "--no-peers"])
}

/// The emulated AVX-512 CPU's full suites, optimised; left out where
/// AVX-512 runs natively (the workspace tests ran that code here).
fn emulated_avx512_cpu() -> anyhow::Result<()> {
    emu::on_avx512_cpu(&emu::Args {
        quick: false,
        timeout: 900,
        skip_native: true,
    })
}

/// Nothing about speed: every row runs and agrees with the oracle at
/// opt-level 3, the single lookups stayed one at a time, and the three
/// outputs exist, parse and agree (the tool's own tests ran with the
/// workspace's).
fn bench_matrix_quick() -> anyhow::Result<()> {
    bench_matrix(&["--quick"])?;
    bench_matrix(&["--quick", "--check"])
}

#[cfg(test)]
mod tests {
    /// Every step `skips::COVERED_BY` names is one of [`super::STEPS`].
    #[test]
    fn every_covering_step_is_a_step() {
        for (_, by, _) in crate::skips::COVERED_BY {
            assert!(
                super::step_names().any(|n| n == *by),
                "COVERED_BY names {by:?}, which is no step"
            );
        }
    }

    /// The quick bench matrix selects the packages and features of the
    /// workspace tests, or it compiles most of the workspace again.
    #[test]
    fn the_quick_bench_matrix_selects_as_the_workspace_tests() {
        let run = include_str!("../../benches/matrix/src/run.rs");
        let selection: Vec<&str> = super::WORKSPACE_SELECTION.split_whitespace().collect();
        let line = format!(
            "const QUICK_SELECTION: [&str; {}] = {selection:?};",
            selection.len()
        );
        assert!(
            run.contains(&line),
            "benches/matrix/src/run.rs should have `{line}`"
        );
    }
}
