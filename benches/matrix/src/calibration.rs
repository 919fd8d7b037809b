//! The calibration stage: `hq-info --calibrate` in fresh processes (the
//! bench profile, in the `runtime` configuration's target dir), each start
//! timing its own calibration and printing the plan it chose: how long
//! `hq::calibrate` takes from a cold start, and how often the choice agrees.

use crate::CARGO;
use crate::run::build_env;
use anyhow::bail;
use hq_bench_format::CalibrationStarts;
use xshell::{Shell, cmd};

/// Builds `hq-info` and runs it in 20 fresh processes (3 with `quick`).
pub fn run(sh: &Shell, quick: bool) -> anyhow::Result<CalibrationStarts> {
    println!("\n[calibration] building and running hq-info --calibrate");
    // The bench profile, as the matrix's builds in this target dir.
    build_env(cmd!(sh, "{CARGO} build -q --profile bench -p hq-info"), "").run()?;
    let hq_info = sh
        .current_dir()
        .join("target/bench-matrix-build/default/release/hq-info");
    let mut starts = CalibrationStarts {
        milliseconds: Vec::new(),
        plans: Vec::new(),
    };
    for _ in 0..if quick { 3 } else { 20 } {
        let stdout = (cmd!(sh, "{hq_info} --calibrate --no-check").quiet())
            .env_remove(hq::BACKEND_VAR)
            .env_remove(hq::PLAN_VAR)
            .env_remove(hq::CALIBRATE_VAR)
            .read()?;
        // "calibrated:     21 rounds in 3.24 ms; ..." and "HQ_CHOICE=<plan>".
        let line = |prefix| stdout.lines().find_map(|l| l.strip_prefix(prefix));
        let ms = line("calibrated:").and_then(|l| l.split(" in ").nth(1)?.split(" ms").next());
        let (Some(Ok(ms)), Some(plan)) = (ms.map(|ms| ms.trim().parse()), line("HQ_CHOICE="))
        else {
            bail!("unexpected hq-info --calibrate output:\n{stdout}");
        };
        starts.milliseconds.push(ms);
        starts.plans.push(plan.to_owned());
    }
    println!("[calibration] {}", starts.summary());
    Ok(starts)
}
