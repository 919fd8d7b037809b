//! The calibration stage: `hq-info` with `HQ_CALIBRATE=1` in fresh
//! processes (built with the runtime build's bench binary, bench profile),
//! each start calibrating at its first use and printing the time and the
//! plan it chose: how long a calibration takes from a cold start, and how
//! often the choice agrees.

use anyhow::bail;
use hq_bench_format::CalibrationStarts;
use std::path::Path;
use xshell::{Shell, cmd};

/// Runs `hq_info` in 20 fresh processes (3 with `quick`).
pub fn run(sh: &Shell, hq_info: &Path, quick: bool) -> anyhow::Result<CalibrationStarts> {
    println!("\n[calibration] running HQ_CALIBRATE=1 hq-info");
    let mut starts = CalibrationStarts {
        rule: hq_bench_format::CALIBRATION_RULE,
        milliseconds: Vec::new(),
        plans: Vec::new(),
    };
    for _ in 0..if quick { 3 } else { 20 } {
        let stdout = (cmd!(sh, "{hq_info} --no-check").quiet())
            .env_remove(hq::BACKEND_VAR)
            .env_remove(hq::PLAN_VAR)
            .env(hq::CALIBRATE_VAR, "1")
            .read()?;
        // "first use:      4.52 ms, the calibration included" and
        // "plan:           <plan>".
        let line = |prefix| stdout.lines().find_map(|l| l.strip_prefix(prefix));
        let ms = line("first use:").and_then(|l| l.trim().split(" ms").next());
        let (Some(Ok(ms)), Some(plan)) = (ms.map(|ms| ms.trim().parse()), line("plan:")) else {
            bail!("unexpected HQ_CALIBRATE=1 hq-info output:\n{stdout}");
        };
        starts.milliseconds.push(ms);
        starts.plans.push(plan.trim().to_owned());
    }
    println!("[calibration] {}", starts.summary());
    Ok(starts)
}
