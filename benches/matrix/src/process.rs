//! One fresh process of a bench binary or of the perft example: started
//! with its own seed and environment size, the machine's state read around
//! it. One process is one sample of memory layout and of the machine's
//! mood (Curtsinger and Berger, Stabilizer; Mytkowicz et al.): the run
//! takes several.

use anyhow::{Context, ensure};
use hq_bench_format::ProcessRecord;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// A process's steal share above which its samples are left out and the
/// process taken again: a hypervisor that takes a tenth of the machine
/// takes it in bursts, and a burst lands on some cells and not others.
pub const HEAVY_STEAL: f64 = 0.10;

/// A seeded xorshift64 for the run's seeds, pads and orders.
pub struct Seeds(u64);

impl Seeds {
    /// The generator of a run started at `seed`.
    pub fn new(seed: u64) -> Seeds {
        Seeds(seed | 1)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// The CPU time counters of `/proc/stat`'s `cpu` line: (steal, total), in
/// clock ticks, or `None` where there is none.
fn cpu_ticks() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let line = stat.lines().find(|l| l.starts_with("cpu "))?;
    let ticks: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .filter_map(|t| t.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal (guest counted in user).
    let steal = *ticks.get(7)?;
    Some((steal, ticks.iter().take(8).sum()))
}

/// The clock the OS reports, MHz: cpufreq's current frequency of CPU 0,
/// else the mean of `/proc/cpuinfo`'s `cpu MHz` lines.
fn clock_mhz() -> Option<f64> {
    let cpufreq = "/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq";
    if let Ok(khz) = std::fs::read_to_string(cpufreq)
        && let Ok(khz) = khz.trim().parse::<f64>()
    {
        return Some(khz / 1e3);
    }
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let mhz: Vec<f64> = info
        .lines()
        .filter(|l| l.starts_with("cpu MHz"))
        .filter_map(|l| l.split(':').nth(1)?.trim().parse().ok())
        .collect();
    (!mhz.is_empty()).then(|| mhz.iter().sum::<f64>() / mhz.len() as f64)
}

/// How a process is started.
pub struct Start<'a> {
    /// The executable.
    pub exe: &'a Path,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory.
    pub dir: &'a Path,
    /// Variables to set.
    pub env: Vec<(String, String)>,
    /// Its record so far: id, seed, layout (the rest is filled in).
    pub record: ProcessRecord,
    /// The largest environment padding, bytes.
    pub max_pad: usize,
}

/// Runs one process: `HQ_BENCH_PAD` of a random length (its initial stack
/// moves by as much), the `hq` steering variables removed, stdout handed
/// line by line to `on_line`; the machine's steal share and clock read
/// around it. Its record, with the time, steal and clock filled in.
pub fn run(
    start: Start,
    seeds: &mut Seeds,
    mut on_line: impl FnMut(&str),
) -> anyhow::Result<ProcessRecord> {
    let Start {
        exe,
        args,
        dir,
        env,
        mut record,
        max_pad,
    } = start;
    record.env_pad = (seeds.next() % (max_pad as u64 + 1)) as usize;
    let mut cmd = Command::new(exe);
    cmd.args(&args)
        .current_dir(dir)
        .env("HQ_BENCH_PAD", "x".repeat(record.env_pad))
        .env_remove(hq::BACKEND_VAR)
        .env_remove(hq::PLAN_VAR)
        .env_remove(hq::CALIBRATE_VAR)
        .stdout(Stdio::piped());
    for (k, v) in &env {
        cmd.env(k, v);
    }
    let shown = format!("{} {}", exe.display(), args.join(" "));
    let (before, started) = (cpu_ticks(), Instant::now());
    record.clock_mhz = clock_mhz();
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot start {shown}"))?;
    for line in BufReader::new(child.stdout.take().expect("piped")).lines() {
        on_line(&line?);
    }
    let status = child.wait()?;
    ensure!(status.success(), "`{shown}` failed ({status})");
    record.seconds = started.elapsed().as_secs_f64();
    record.steal = before.zip(cpu_ticks()).and_then(|((s0, t0), (s1, t1))| {
        (t1 > t0).then(|| (s1.saturating_sub(s0)) as f64 / (t1 - t0) as f64)
    });
    if let Some(steal) = record.steal.filter(|&s| s > HEAVY_STEAL) {
        record.excluded = Some(format!(
            "{:.0} % of the CPU time stolen while it ran (over {:.0} %): taken again",
            steal * 100.0,
            HEAVY_STEAL * 100.0
        ));
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_state_reads_where_linux_reports_it() {
        if !Path::new("/proc/stat").exists() {
            println!("SKIPPED machine state: no /proc/stat here");
            return;
        }
        let (steal, total) = cpu_ticks().expect("/proc/stat has a cpu line");
        assert!(total > 0 && steal <= total);
        assert!(clock_mhz().is_none_or(|mhz| mhz > 100.0));
    }

    #[test]
    fn seeds_differ_and_repeat_from_the_same_start() {
        let (mut a, mut b) = (Seeds::new(7), Seeds::new(7));
        let xs: Vec<u64> = (0..4).map(|_| a.next()).collect();
        assert_eq!(xs, (0..4).map(|_| b.next()).collect::<Vec<_>>());
        assert!(xs.windows(2).all(|w| w[0] != w[1]));
    }
}
