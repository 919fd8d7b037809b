//! `cargo xtask test`: every test, as CI runs it.
//!
//! 1. `cargo test --workspace` (kernel tests run optimised: see the test profile),
//!    with output shown so every backend's report and every SKIPPED line is visible;
//! 2. the facade built with a `force-*` feature, its tests run again;
//! 3. two `force-*` features at once must fail to compile, with a clear message;
//! 4. for every backend this CPU lacks: forcing it gives a clear error, not SIGILL;
//! 5. the emulated AVX-512 / XOP suites (`emu-test`);
//! 6. `bench-matrix --quick`, and a check that its three outputs exist, parse
//!    and agree (nothing about speed: it keeps the benchmark pipeline from rotting).

use hq::Backend;
use std::process::{Command, Output};

/// Runs `cargo` with `args`, streaming its output.
pub fn cargo(args: &[&str]) -> Result<(), String> {
    println!("\n==> cargo {}", args.join(" "));
    let status = Command::new(env!("CARGO"))
        .args(args)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`cargo {}` failed ({status})", args.join(" ")))
    }
}

/// Runs `cargo` with `args` and captures its output.
fn cargo_output(args: &[&str]) -> Result<Output, String> {
    println!("\n==> cargo {}", args.join(" "));
    Command::new(env!("CARGO"))
        .args(args)
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))
}

fn forced_backend_tests() -> Result<(), String> {
    let forced = Backend::all()
        .iter()
        .find(|b| b.is_supported())
        .expect("a portable backend exists");
    let feature = format!("force-{}", forced.name());
    cargo(&[
        "test",
        "-p",
        "hq",
        "--features",
        &feature,
        "--",
        "--nocapture",
    ])
}

fn two_forced_backends_do_not_compile() -> Result<(), String> {
    let [a, b, ..] = Backend::all() else {
        return Ok(());
    };
    let features = format!("force-{},force-{}", a.name(), b.name());
    let out = cargo_output(&["check", "-p", "hq", "--features", &features])?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.success() {
        return Err(format!(
            "`--features {features}` compiled, but the force-* features must be exclusive"
        ));
    }
    if !stderr.contains("mutually exclusive") {
        return Err(format!(
            "`--features {features}` failed without the expected message:\n{stderr}"
        ));
    }
    println!(
        "ok: --features {features} is refused: \"...force-* features are mutually exclusive...\""
    );
    Ok(())
}

fn forcing_an_unsupported_backend_is_a_clear_error() -> Result<(), String> {
    let unsupported: Vec<Backend> = Backend::all()
        .iter()
        .copied()
        .filter(|b| !b.is_supported())
        .collect();
    if unsupported.is_empty() {
        println!("\nSKIPPED forced-unsupported check: this CPU supports every backend compiled in");
    }
    for b in unsupported {
        let feature = format!("force-{}", b.name());
        let out = cargo_output(&[
            "run",
            "-q",
            "-p",
            "hq",
            "--bin",
            "hq-info",
            "--features",
            &feature,
            "--",
            "--call",
        ])?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        let clear = stderr.contains("cannot run on this CPU")
            && b.missing_features().iter().all(|f| stderr.contains(f));
        // 101 is Rust's panic exit status: a message, not a signal.
        if out.status.code() != Some(101) || !clear {
            return Err(format!(
                "forcing {b} here should stop with a clear error; got {:?}:\n{stderr}",
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
    }
    Ok(())
}

/// The task.
pub fn run(args: &[String]) -> Result<(), String> {
    let skip_emulation = args.iter().any(|a| a == "--no-emu");
    if let Some(unknown) = args
        .iter()
        .find(|a| !matches!(a.as_str(), "--no-emu" | "--no-bench"))
    {
        return Err(format!(
            "unknown argument {unknown:?} (known: --no-emu, --no-bench)"
        ));
    }
    type Step = (&'static str, Box<dyn Fn() -> Result<(), String>>);
    let mut steps: Vec<Step> = vec![
        (
            "workspace tests",
            Box::new(|| cargo(&["test", "--workspace", "--", "--nocapture"])),
        ),
        ("forced-backend build", Box::new(forced_backend_tests)),
        (
            "exclusive force features",
            Box::new(two_forced_backends_do_not_compile),
        ),
        (
            "forced unsupported backend",
            Box::new(forcing_an_unsupported_backend_is_a_clear_error),
        ),
    ];
    if !skip_emulation {
        steps.push(("emulated suites", Box::new(|| crate::emu::run(&[]))));
    }
    if !args.iter().any(|a| a == "--no-bench") {
        steps.push((
            "bench-matrix --quick",
            Box::new(|| {
                crate::bench_matrix::run(&["--quick".to_string()])?;
                crate::bench_matrix::run(&["--quick".to_string(), "--check".to_string()])
            }),
        ));
    }
    let (mut passed, mut failed) = (0, Vec::new());
    for (name, step) in &steps {
        match step() {
            Ok(()) => passed += 1,
            Err(e) => {
                eprintln!("xtask test: step '{name}' FAILED: {e}");
                failed.push(*name);
            }
        }
    }
    println!("\nxtask test: {passed} passed, {} failed", failed.len());
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("failed steps: {}", failed.join(", ")))
    }
}
