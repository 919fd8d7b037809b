//! The calibration stage: `hq-info --calibrate` in fresh processes (built
//! with the runtime build's bench binary, bench profile), each start timing
//! its own calibration and printing the plan it chose: how long
//! `hq::calibrate` takes from a cold start, and how often the choice agrees.

use anyhow::bail;
use hq_bench_format::CalibrationStarts;
use std::path::Path;
use xshell::{Shell, cmd};

/// Runs `hq_info` in 20 fresh processes (3 with `quick`).
pub fn run(sh: &Shell, hq_info: &Path, quick: bool) -> anyhow::Result<CalibrationStarts> {
    println!("\n[calibration] running hq-info --calibrate");
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
