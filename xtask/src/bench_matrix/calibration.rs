//! The calibration stage: `hq-info --calibrate` in fresh processes (the
//! bench profile, in the `runtime` configuration's target dir), each start
//! timing its own calibration and printing the plan it chose: how long
//! `hq::calibrate` takes from a cold start, and how often the choice agrees.

use hq_bench_format::CalibrationStarts;
use std::path::Path;
use std::process::Command;

/// Process starts measured.
pub const STARTS: usize = 20;

/// Builds `hq-info` and runs it [`STARTS`] times (3 with `quick`).
pub fn run(root: &Path, quick: bool) -> anyhow::Result<CalibrationStarts> {
    let target = root.join("target/bench-matrix-build/default");
    println!("\n[calibration] cargo build --profile bench -p hq-info");
    let status = Command::new(env!("CARGO"))
        .current_dir(root)
        // The bench profile, as the matrix's builds in this target dir.
        .args(["build", "-q", "--profile", "bench", "-p", "hq-info"])
        .env("CARGO_TARGET_DIR", &target)
        .env("RUSTFLAGS", "")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .status()
        .map_err(|e| anyhow::anyhow!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(anyhow::anyhow!("building hq-info failed ({status})"));
    }
    let binary = target.join("release/hq-info");
    let mut starts = CalibrationStarts {
        milliseconds: Vec::new(),
        plans: Vec::new(),
    };
    for _ in 0..if quick { 3 } else { STARTS } {
        let out = Command::new(&binary)
            .args(["--calibrate", "--no-check"])
            .env_remove(hq::ENV_VAR)
            .env_remove(hq::PLAN_VAR)
            .env_remove(hq::CALIBRATE_VAR)
            .output()
            .map_err(|e| anyhow::anyhow!("cannot run {}: {e}", binary.display()))?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            return Err(anyhow::anyhow!(
                "hq-info --calibrate failed ({}):\n{stdout}\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        // "calibrated:     21 rounds in 3.24 ms; ..." and "HQ_CHOICE=<plan>".
        let ms = stdout
            .lines()
            .find_map(|l| l.strip_prefix("calibrated:"))
            .and_then(|l| {
                l.split(" in ")
                    .nth(1)?
                    .split(" ms")
                    .next()?
                    .trim()
                    .parse()
                    .ok()
            });
        let plan = stdout.lines().find_map(|l| l.strip_prefix("HQ_CHOICE="));
        let (Some(ms), Some(plan)) = (ms, plan) else {
            return Err(anyhow::anyhow!(
                "unexpected hq-info --calibrate output:\n{stdout}"
            ));
        };
        starts.milliseconds.push(ms);
        starts.plans.push(plan.to_owned());
    }
    println!("[calibration] {}", starts.summary());
    Ok(starts)
}
