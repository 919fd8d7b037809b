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
        commit: None,
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

/// `cargo xtask bench-matrix calibration`'s options.
#[derive(clap::Args)]
pub struct Args {
    /// The committed run to take the stage into (default:
    /// benches/results/CPU-ID/, this CPU's).
    #[arg(long)]
    run: Option<std::path::PathBuf>,
}

/// The calibration stage alone, into this CPU's committed run: after a run
/// changed its class's plan, which every calibration starts from, its own
/// starts began from the old plan. Records the commit they were taken at;
/// regenerates the run's report.
pub fn again(args: &Args) -> anyhow::Result<()> {
    let root = crate::workspace_root();
    let cpu = crate::cpu::detect();
    let dir = match &args.run {
        Some(dir) => dir.clone(),
        None => root.join("benches/results").join(&cpu.id),
    };
    let mut results = hq_bench_format::Results::load(&dir).map_err(anyhow::Error::msg)?;
    anyhow::ensure!(
        results.cpu.id == cpu.id,
        "{} is a run of {}, not of this CPU ({})",
        dir.display(),
        results.cpu.id,
        cpu.id
    );
    let sh = Shell::new()?;
    sh.change_dir(&root);
    let cargo = crate::CARGO;
    cmd!(sh, "{cargo} build --profile bench -p hq-info").run()?;
    let hq_info = root.join("target/release/hq-info");
    let mut starts = run(&sh, &hq_info, false)?;
    starts.commit = Some(crate::git_commit());
    results.calibration = Some(starts);
    results.save(&dir).map_err(anyhow::Error::msg)?;
    crate::report::write_single(&results, &dir)?;
    println!("[calibration] wrote {}", dir.display());
    Ok(())
}
