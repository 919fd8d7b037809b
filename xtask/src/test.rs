//! `cargo xtask test`: every test, as CI runs it.
//!
//! 1. `cargo test --workspace` (kernel tests run optimised: see the test
//!    profile), with output shown so every backend's report and every
//!    SKIPPED line is visible;
//! 2. the facade built with two `force-*` features at once (they are
//!    additive), its tests run again, and `hq-info` explaining the outcome;
//! 3. forcing a backend this CPU lacks stops with a clear error, never SIGILL;
//!    the facade without `std` (plain, native and bare-metal builds) and
//!    with it natively (the static single lookups where x86-64-v4 runs);
//!    `cargo package` of every publishable crate; the MSRV's `cargo check`;
//!    on nightly, Miri, the fuzz targets (30 s each, and the planted-bug
//!    self-test) and ThreadSanitizer (`reliability.rs`);
//! 4. the size of a `wasm32-unknown-unknown` module calling one free
//!    function (at most 100 KiB), then the emulated AVX-512 suites
//!    (`emu-test`);
//! 5. the tests on aarch64 under qemu-user and on wasm32 under Node's WASI,
//!    and the browser target's builds (`cross-test`);
//! 6. `bench-matrix --quick`, with the check that the single-lookup loops of
//!    every bench binary stayed one lookup at a time, and that the three
//!    outputs exist, parse and agree (nothing about speed);
//! 7. the README's measured tables match `benches/results/` (`readme --check`).

use hq::Backend;
use std::process::{Command, Output};

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

/// Runs `cargo` with `args`, streaming its output.
pub fn cargo(args: &[&str]) -> anyhow::Result<()> {
    cargo_env(args, &[])
}

/// Runs `cargo args` with extra environment variables, streaming its output.
pub fn cargo_env(args: &[&str], env: &[(&str, &str)]) -> anyhow::Result<()> {
    let shown: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v:?} ")).collect();
    println!("\n==> {}cargo {}", shown.concat(), args.join(" "));
    let status = Command::new(env!("CARGO"))
        .args(args)
        .envs(env.iter().copied())
        .status()
        .map_err(|e| anyhow::anyhow!("cannot run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(anyhow::anyhow!(
            "`cargo {}` failed ({status})",
            args.join(" ")
        ))
    }
}

/// `hq-info arg` built with `features`, its output captured.
fn hq_info_with(features: &str, arg: &str) -> anyhow::Result<Output> {
    cargo_output(&[
        "run",
        "-q",
        "-p",
        "hq-info",
        "--features",
        features,
        "--",
        arg,
    ])
}

/// Runs `cargo` with `args` and captures its output.
fn cargo_output(args: &[&str]) -> anyhow::Result<Output> {
    println!("\n==> cargo {}", args.join(" "));
    Command::new(env!("CARGO"))
        .args(args)
        .output()
        .map_err(|e| anyhow::anyhow!("cannot run cargo: {e}"))
}

/// Two supported backends forced at once: the build compiles, the facade's
/// tests pass in it, and `hq-info` explains which serves what.
fn two_forced_backends() -> anyhow::Result<()> {
    let runs: Vec<Backend> = Backend::supported().collect();
    let (a, b) = match runs.as_slice() {
        [a, .., b] => (*a, *b),
        _ => return Err(anyhow::anyhow!("fewer than two backends run here")),
    };
    let features = format!("{},{}", a.force_feature(), b.force_feature());
    cargo(&[
        "test",
        "-p",
        "hq-attacks",
        "--features",
        &features,
        "--",
        "--nocapture",
    ])?;
    let hq_features = format!("hq/{},hq/{}", a.force_feature(), b.force_feature());
    let out = hq_info_with(&hq_features, "--no-check")?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() || !stdout.contains("forced by Cargo features") {
        return Err(anyhow::anyhow!(
            "hq-info with --features {hq_features} should explain the forced choice; got {:?}:\n{stdout}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    println!("ok: --features {hq_features} builds and hq-info says:");
    for line in stdout
        .lines()
        .skip_while(|l| !l.starts_with("single lookups:"))
        .take_while(|l| !l.starts_with("CPU class:"))
    {
        println!("    {line}");
    }
    Ok(())
}

/// Forcing a backend this CPU lacks stops with a clear error at the first
/// call: exit status 101 (a panic's) with the message, never a signal.
fn forcing_an_unsupported_backend_is_a_clear_error() -> anyhow::Result<()> {
    let Some(b) = Backend::all().iter().copied().find(|b| !b.is_supported()) else {
        println!("\nSKIPPED forced-unsupported check: this CPU runs every backend compiled in");
        return Ok(());
    };
    let feature = format!("hq/{}", b.force_feature());
    let out = hq_info_with(&feature, "--call")?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let missing = b.check_supported().expect_err("unsupported").to_string();
    let clear = stderr.contains("cannot run on this CPU") && stderr.contains(b.name());
    if out.status.code() != Some(101) || !clear {
        return Err(anyhow::anyhow!(
            "forcing {b} here should stop with a clear error ({missing}); got {:?}:\n{stderr}",
            out.status
        ));
    }
    println!(
        "ok: forcing {b} here stops with: {}",
        stderr
            .lines()
            .find(|l| l.contains("hq:"))
            .unwrap_or("")
            .trim()
    );
    Ok(())
}

/// The largest WebAssembly module that calls one free function may be.
const WASM_MODULE_LIMIT: u64 = 100 * 1024;

/// A `wasm32-unknown-unknown` release module exporting one function that
/// calls `hq::queen_attacks` stays within [`WASM_MODULE_LIMIT`]: the PEXT
/// table and the research backends are not linked where they cannot run or
/// are not chosen.
fn wasm_module_size() -> anyhow::Result<()> {
    let target = "wasm32-unknown-unknown";
    if !crate::cross::has_target(target) {
        println!("\nSKIPPED wasm module size: rustup target {target} is not installed");
        return Ok(());
    }
    let target_dir = crate::workspace_root().join("target/wasm-size");
    println!("\n==> cargo build -p hq-wasm-size --release --target {target} (no debug info)");
    let status = Command::new(env!("CARGO"))
        .args([
            "build",
            "-q",
            "-p",
            "hq-wasm-size",
            "--release",
            "--target",
            target,
        ])
        .env("CARGO_TARGET_DIR", &target_dir)
        .env("CARGO_PROFILE_RELEASE_DEBUG", "0")
        .env("CARGO_PROFILE_RELEASE_STRIP", "debuginfo")
        .status()
        .map_err(|e| anyhow::anyhow!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(anyhow::anyhow!("the wasm module did not build ({status})"));
    }
    let module = target_dir.join(format!("{target}/release/hq_wasm_size.wasm"));
    let size = std::fs::metadata(&module)
        .map_err(|e| anyhow::anyhow!("{}: {e}", module.display()))?
        .len();
    println!("wasm module calling hq::queen_attacks: {size} bytes (limit {WASM_MODULE_LIMIT})");
    if size > WASM_MODULE_LIMIT {
        return Err(anyhow::anyhow!(
            "{} is {size} bytes, over the {WASM_MODULE_LIMIT}-byte limit",
            module.display()
        ));
    }
    Ok(())
}

/// The task.
pub fn run(args: &Args) -> anyhow::Result<()> {
    type Step = (&'static str, Box<dyn Fn() -> anyhow::Result<()>>);
    let mut steps: Vec<Step> = vec![
        (
            "workspace tests",
            Box::new(|| cargo(&["test", "--workspace", "--", "--nocapture"])),
        ),
        ("two forced backends", Box::new(two_forced_backends)),
        (
            "forced unsupported backend",
            Box::new(forcing_an_unsupported_backend_is_a_clear_error),
        ),
        ("no_std and native facade", Box::new(crate::release::no_std)),
        ("cargo package", Box::new(crate::release::package)),
        ("MSRV", Box::new(crate::release::msrv)),
        ("Miri", Box::new(crate::reliability::miri)),
        ("fuzz targets", Box::new(crate::reliability::fuzz)),
        ("ThreadSanitizer", Box::new(crate::reliability::tsan)),
    ];
    if !args.no_cross {
        steps.push(("wasm module size", Box::new(wasm_module_size)));
    }
    if !args.no_emu {
        steps.push((
            "emulated suites",
            Box::new(|| {
                // Where AVX-512 runs natively the workspace tests have just
                // run the full suite on it: the emulated CPUs then add the
                // other CPUs (and Bochs's own AVX-512) at the quick depth,
                // whose per-line part stays exhaustive.
                crate::emu::run(&crate::emu::Args {
                    quick: hq::cpu::Level::X86V4.is_detected(),
                    timeout: 900,
                })
            }),
        ));
    }
    if !args.no_cross {
        steps.push((
            "cross targets",
            Box::new(|| crate::cross::run(&crate::cross::Args { only: None })),
        ));
    }
    if !args.no_bench {
        steps.push((
            "bench-matrix --quick",
            Box::new(|| {
                crate::bench_matrix::run(&crate::bench_matrix::Args::quick())?;
                crate::bench_matrix::check_outputs(&crate::bench_matrix::output_dir(true))
            }),
        ));
    }
    steps.push((
        "README tables",
        Box::new(|| crate::readme::run(&crate::readme::Args { check: true })),
    ));
    if let Some(only) = &args.only {
        let all: Vec<&str> = steps.iter().map(|(name, _)| *name).collect();
        steps.retain(|(name, _)| name.to_lowercase().contains(&only.to_lowercase()));
        if steps.is_empty() {
            return Err(anyhow::anyhow!(
                "--only {only:?} names no step; the steps: {}",
                all.join(", ")
            ));
        }
    }
    let (mut passed, mut failed, mut times) = (0, Vec::new(), Vec::new());
    let started = std::time::Instant::now();
    for (name, step) in &steps {
        let step_started = std::time::Instant::now();
        match step() {
            Ok(()) => passed += 1,
            Err(e) => {
                eprintln!("xtask test: step '{name}' FAILED: {e}");
                failed.push(*name);
            }
        }
        times.push(format!(
            "{name} {:.0} s",
            step_started.elapsed().as_secs_f64()
        ));
    }
    println!(
        "\nxtask test: {:.0} s in all: {}",
        started.elapsed().as_secs_f64(),
        times.join(", ")
    );
    println!("xtask test: {passed} passed, {} failed", failed.len());
    if failed.is_empty() {
        Ok(())
    } else {
        Err(anyhow::anyhow!("failed steps: {}", failed.join(", ")))
    }
}
