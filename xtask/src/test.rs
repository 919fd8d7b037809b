//! `cargo xtask test`: every test, as CI runs it, in the named steps of
//! [`run`]. A failed step does not stop the others.

use crate::{bench_matrix, cross, emu, release, reliability};
use anyhow::{bail, ensure};
use hq::Backend;
use std::time::Instant;
use xshell::{Cmd, Shell};

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
}

/// `cargo ARGS` with the cargo that runs xtask (ARGS split at spaces).
pub fn cargo<'a>(sh: &'a Shell, args: &str) -> Cmd<'a> {
    sh.cmd(crate::CARGO).args(args.split(' '))
}

/// A step: its name (what `--only` matches), whether it runs, the check.
type Step = (&'static str, bool, fn() -> anyhow::Result<()>);

/// The task: the steps not skipped and matching `--only`, each announced by
/// `==> name`, then the time per step and the failures.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let (cross, emu, bench) = (!args.no_cross, !args.no_emu, !args.no_bench);
    let steps: [Step; 16] = [
        ("workspace tests", true, workspace_tests),
        ("each forced build", true, each_forced_build),
        ("two forced backends", true, two_forced_backends),
        (
            "forced below and at its level",
            true,
            forced_below_and_at_level,
        ),
        ("forced unsupported backend", true, unsupported_backend),
        ("no_std and native facade", true, release::no_std),
        ("cargo package", true, release::package),
        ("MSRV", true, release::msrv),
        ("Miri", true, reliability::miri),
        ("fuzz targets", true, reliability::fuzz),
        ("ThreadSanitizer", true, reliability::tsan),
        ("wasm module size", cross, wasm_module_size),
        ("emulated suites", emu, emulated_suites),
        ("cross targets", cross, || {
            cross::run(&cross::Args { only: None })
        }),
        ("bench-matrix --quick", bench, bench_matrix_quick),
        ("README tables", true, || {
            bench_matrix(&["readme", "--check"])
        }),
    ];
    let mut steps: Vec<_> = steps.iter().filter(|step| step.1).collect();
    let names: Vec<&str> = steps.iter().map(|step| step.0).collect();
    let only = args.only.as_deref().unwrap_or("").to_lowercase();
    steps.retain(|step| step.0.to_lowercase().contains(&only));
    let names = names.join(", ");
    if steps.is_empty() {
        bail!("--only {only:?} names no step; the steps: {names}");
    }
    let (started, mut failed, mut times) = (Instant::now(), vec![], vec![]);
    for (name, _, step) in &steps {
        println!("\n==> {name}");
        let step_started = Instant::now();
        if let Err(e) = step() {
            eprintln!("xtask test: step '{name}' FAILED: {e:#}");
            failed.push(*name);
        }
        let seconds = step_started.elapsed().as_secs_f64();
        times.push(format!("{name} {seconds:.0} s"));
    }
    let (seconds, passed) = (started.elapsed().as_secs_f64(), steps.len() - failed.len());
    println!("\nxtask test: {seconds:.0} s in all: {}", times.join(", "));
    println!("xtask test: {passed} passed, {} failed", failed.len());
    ensure!(failed.is_empty(), "failed steps: {}", failed.join(", "));
    Ok(())
}

/// The workspace's tests, output shown: every backend's report and every
/// SKIPPED line. Not the bench library's: its rows are checked against the
/// oracle by every bench run (the quick one below), and its test build, the
/// bench loops of every row, was a fifth of this step's build.
fn workspace_tests() -> anyhow::Result<()> {
    let test = "test --workspace --exclude hq-benches -- --nocapture";
    Ok(cargo(&crate::sh()?, test).run()?)
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
            "test -q -p hq-attacks --features {} --test facade --config profile.test.opt-level=0",
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
/// in both builds (`force-avx2`, then `-C target-cpu=x86-64-v3` in its own
/// target directory, so that the other steps' builds stay).
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
        "test -q -p hq-attacks --features {feature} --test facade --config profile.test.opt-level=0 \
         -- a_forced_backend_below_its_level --nocapture"
    );
    let info = format!("run -q -p hq-info --features hq/{feature} -- --no-check");
    let at_level = crate::workspace_root().join("target/xtask-x86-64-v3");
    for (flags, expected) in [("", true), ("-C target-cpu=x86-64-v3", false)] {
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
/// calls `hq::queen_attacks` (with `std`) stays within 10 KiB: the PEXT table and the
/// research backends are not linked where they cannot run or are not chosen.
fn wasm_module_size() -> anyhow::Result<()> {
    // With std: wasm32 chooses at compile time all the same (no run-time
    // detection), so neither the environment nor the dispatch is linked.
    let (target, limit) = ("wasm32-unknown-unknown", 10 * 1024);
    if !cross::has_target(target) {
        println!("SKIPPED wasm module size: rustup target {target} is not installed");
        return Ok(());
    }
    let sh = crate::sh()?;
    sh.set_var("CARGO_TARGET_DIR", "target/wasm-size");
    sh.set_var("CARGO_PROFILE_RELEASE_DEBUG", "0");
    sh.set_var("CARGO_PROFILE_RELEASE_STRIP", "debuginfo");
    let build = format!("build -q -p hq-wasm-size --release --target {target}");
    cargo(&sh, &build).run()?;
    let module = format!("target/wasm-size/{target}/release/hq_wasm_size.wasm");
    let size = sh.read_binary_file(&module)?.len();
    println!("wasm module calling hq::queen_attacks: {size} bytes (limit {limit})");
    ensure!(size <= limit, "{module} is over the {limit}-byte limit");
    Ok(())
}

/// Where AVX-512 runs natively the workspace tests ran the full suite on it:
/// the emulated CPUs then add the CPUs without it (the fallbacks), at the
/// quick depth, whose per-line part stays exhaustive.
fn emulated_suites() -> anyhow::Result<()> {
    let native = hq::cpu::Level::X86V4.is_detected();
    emu::run(&emu::Args {
        quick: native,
        timeout: 900,
        skip_native: native,
    })
}

/// Nothing about speed: the single lookups stayed one at a time, and the
/// three outputs exist, parse and agree; and the tool's own tests.
fn bench_matrix_quick() -> anyhow::Result<()> {
    cargo(&crate::sh()?, "test -q -p hq-bench-matrix").run()?;
    bench_matrix(&["--quick"])?;
    bench_matrix(&["--quick", "--check"])
}
