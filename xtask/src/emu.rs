//! `cargo xtask emu-test`: the AVX-512 suites on emulated CPUs.
//!
//! Builds lean static test binaries (`+crt-static`, `--release`, target
//! `x86_64-unknown-linux-gnu`, into `target/emu` so normal builds keep their
//! cache), finds them in cargo's JSON messages, and boots each under
//! `../shared/avx512-emu/run` (Bochs; the sibling `shared/` of the workspace):
//!
//! * `tigerlake` (AVX-512 F/BW/VBMI, GFNI): the `avx512` backend's shared
//!   suite (`Depth::Full`, about a minute emulated; `--quick` for
//!   `Depth::Quick`, whose per-line part stays exhaustive), the AVX-512
//!   VPPERM tests and vectors, the mailbox transposition. None of them may
//!   report SKIPPED there; `hq-info` must give the `intel-avx512` class's
//!   choice.
//! * `haswell` (no AVX-512): the same backend suite and mailbox tests must
//!   report SKIPPED with the missing features; `hq-info` must choose a
//!   backend other than `avx512`.
//!
//! On a CPU with AVX-512 these run natively too (`cargo test`); the
//! emulated runs add the CPUs this machine is not, both ways.
//!
//! Prints a summary (cases checked per test, wall time per run) and fails if
//! a run fails or an expectation is not met. Without the harness or without
//! root it prints that the emulated suites were SKIPPED, and why, and succeeds.
//!
//! Options: `--quick` (Depth::Quick for the backend suite), `--timeout S`
//! (per run, default 900).

/// `cargo xtask emu-test`'s options.
#[derive(clap::Args)]
pub struct Args {
    /// `Depth::Quick` for the backend suite (its per-line part stays exhaustive).
    #[arg(long)]
    pub quick: bool,
    /// Seconds per emulated run.
    #[arg(long, default_value_t = 900)]
    pub timeout: u32,
}

use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// One emulated run: which test binary, on which CPU, with what arguments,
/// and what its output must show.
struct Run {
    /// `package/target` as cargo names them (target: test file stem or bin name).
    binary: (&'static str, &'static str),
    cpu: &'static str,
    /// Test-name filter and extra harness arguments.
    args: &'static [&'static str],
    /// `true`: output must contain no `SKIPPED`; `false`: must contain one.
    features_present: bool,
    /// What this run shows, for the summary.
    purpose: &'static str,
}

const RUNS: &[Run] = &[
    Run {
        binary: ("hq-simd", "suite"),
        cpu: "tigerlake",
        args: &["avx512"],
        features_present: true,
        purpose: "avx512 backend: the shared suite",
    },
    Run {
        binary: ("hq-xop", "vpperm"),
        cpu: "tigerlake",
        args: &["avx512"],
        features_present: true,
        purpose: "AVX-512 VPPERM x4 = model (proptest, all 256 selectors)",
    },
    Run {
        binary: ("hq-xop", "model_vectors"),
        cpu: "tigerlake",
        args: &[],
        features_present: true,
        purpose: "hand-derived VPPERM vectors: model, SSSE3, AVX-512",
    },
    Run {
        binary: ("hq-mailbox", "agree"),
        cpu: "tigerlake",
        args: &[],
        features_present: true,
        purpose: "mailbox <-> planes and one-hot bitboards: AVX-512 = scalar",
    },
    Run {
        binary: ("hq-info", "hq-info"),
        cpu: "tigerlake",
        args: &["--no-check"],
        features_present: true,
        purpose: "facade choice on an AVX-512 CPU",
    },
    Run {
        binary: ("hq-simd", "suite"),
        cpu: "haswell",
        args: &["avx512"],
        features_present: false,
        purpose: "no AVX-512: the avx512 suite is SKIPPED",
    },
    Run {
        binary: ("hq-mailbox", "agree"),
        cpu: "haswell",
        args: &[],
        features_present: false,
        purpose: "no AVX-512: transposition falls back to scalar",
    },
    Run {
        binary: ("hq-info", "hq-info"),
        cpu: "haswell",
        args: &["--no-check"],
        features_present: false,
        purpose: "facade choice without AVX-512 picks other backends",
    },
];

const PACKAGES: &[&str] = &["hq-simd", "hq-xop", "hq-mailbox", "hq-info"];
const TARGET: &str = "x86_64-unknown-linux-gnu";

/// Runs the emulated suites (see the module docs).
pub fn run(args: &Args) -> anyhow::Result<()> {
    let (quick, timeout) = (args.quick, args.timeout);
    let root = crate::workspace_root();
    let harness = root
        .parent()
        .map(|p| p.join("shared/avx512-emu/run"))
        .unwrap_or_default();
    if !harness.is_file() {
        println!(
            "emu-test: SKIPPED the emulated AVX-512 suites: the harness {} is absent \
             (it lives beside the checkout as ../shared/avx512-emu)",
            harness.display()
        );
        return Ok(());
    }
    if !is_root() {
        println!(
            "emu-test: SKIPPED the emulated AVX-512 suites: {} must run as root (chroot)",
            harness.display()
        );
        return Ok(());
    }

    let started = Instant::now();
    let executables = build(&root)?;
    println!(
        "emu-test: built {} test binaries in {:.0?}",
        executables.len(),
        started.elapsed()
    );

    // Each run is a single-threaded emulator: rayon runs as many at a time
    // as there are cores, each run's output printed whole when it ends.
    let run_one = |r: &'static Run| -> anyhow::Result<_> {
        let exe = executables
            .get(&(r.binary.0.to_string(), r.binary.1.to_string()))
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "emu-test: cargo built no executable for {}/{} (renamed?)",
                    r.binary.0,
                    r.binary.1
                )
            })?;
        let is_test = r.binary.1 != "hq-info";
        let mut cmd = Command::new(&harness);
        cmd.args(["--cpu", r.cpu, "--timeout", &timeout.to_string()]);
        if quick {
            cmd.args(["--env", "HQ_SUITE_DEPTH=quick"]);
        }
        cmd.arg(exe);
        if is_test {
            cmd.args(["--test-threads=1", "--nocapture"]);
        }
        cmd.args(r.args);
        let t = Instant::now();
        let (status, lines) = run_harness(cmd)?;
        let seconds = t.elapsed().as_secs_f64();
        println!(
            "emu-test: [{}] {}/{}: {}\n{}",
            r.cpu,
            r.binary.0,
            r.binary.1,
            r.purpose,
            lines
                .iter()
                .map(|l| format!("    | {l}\n"))
                .collect::<String>()
        );
        let problem = check(r, status, &lines);
        Ok((r, seconds, summary_lines(&lines), problem))
    };
    // The first run alone: on a machine's first use the harness installs its
    // host packages with apt-get, and two runs doing that at once fail on
    // dpkg's lock (7 of 8 runs failed so in a fresh-clone CI run).
    let (first, rest) = RUNS.split_first().expect("at least one run");
    let mut results = vec![run_one(first)?];
    results.extend(
        rest.par_iter()
            .map(run_one)
            .collect::<anyhow::Result<Vec<_>>>()?,
    );

    println!(
        "\n==== emu-test summary (Bochs, {} runs at a time; wall time per run includes ~15 s of boot) ====",
        rayon::current_num_threads()
    );
    let mut failures = 0;
    for (r, seconds, summary, problem) in &results {
        let verdict = if problem.is_none() { "PASS" } else { "FAIL" };
        println!(
            "{verdict} [{}] {}/{} ({seconds:.0} s): {}",
            r.cpu, r.binary.0, r.binary.1, r.purpose
        );
        for line in summary {
            println!("    {line}");
        }
        if let Some(p) = problem {
            println!("    problem: {p}");
            failures += 1;
        }
    }
    println!(
        "emu-test: {} runs, {failures} failed, {:.0?} in all",
        results.len(),
        started.elapsed()
    );
    if failures > 0 {
        Err(anyhow::anyhow!(
            "emu-test: {failures} emulated run(s) failed"
        ))
    } else {
        Ok(())
    }
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .map(|l| l.split_whitespace().nth(2) == Some("0"))
        })
        .unwrap_or(false)
}

/// Builds the static test binaries; returns (package, target name) -> executable.
fn build(root: &Path) -> anyhow::Result<BTreeMap<(String, String), PathBuf>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root)
        .args([
            "test",
            "--release",
            "--no-run",
            "--message-format=json",
            "--target",
            TARGET,
        ])
        .env("RUSTFLAGS", "-C target-feature=+crt-static")
        .env("CARGO_TARGET_DIR", root.join("target/emu"))
        .stderr(Stdio::inherit());
    for p in PACKAGES {
        cmd.args(["-p", p]);
    }
    let out = cmd
        .output()
        .map_err(|e| anyhow::anyhow!("emu-test: cannot run cargo: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let messages: Vec<serde_json::Value> = stdout
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    if !out.status.success() {
        // With --message-format=json the diagnostics are in stdout: show them.
        for msg in &messages {
            if let Some(text) = msg["message"]["rendered"].as_str() {
                eprint!("{text}");
            }
        }
        return Err(anyhow::anyhow!(
            "emu-test: building the static test binaries failed ({})",
            out.status
        ));
    }
    let mut found = BTreeMap::new();
    for msg in messages {
        if msg["reason"] != "compiler-artifact" {
            continue;
        }
        let Some(exe) = msg["executable"].as_str() else {
            continue;
        };
        // A bin target yields two executables of the same name: the program
        // and its unit-test harness. Keep the program (the harness of a bin
        // has `profile.test`), or which one wins would depend on build order.
        let is_bin = msg["target"]["kind"]
            .as_array()
            .is_some_and(|k| k.iter().any(|k| k == "bin"));
        if is_bin && msg["profile"]["test"] == true {
            continue;
        }
        let package = msg["package_id"].as_str().unwrap_or_default();
        let name = msg["target"]["name"].as_str().unwrap_or_default();
        let Some(pkg) = PACKAGES.iter().find(|p| package_name_matches(package, p)) else {
            continue;
        };
        found.insert((pkg.to_string(), name.to_string()), PathBuf::from(exe));
    }
    Ok(found)
}

/// Whether a cargo package id (`path+file:///.../crates/hq-xop#0.1.0` or
/// `hq-xop 0.1.0 (path+...)`) names `package`.
fn package_name_matches(id: &str, package: &str) -> bool {
    id.starts_with(&format!("{package} "))
        || id.contains(&format!("/{package}#"))
        || id.contains(&format!("#{package}@"))
}

/// Runs the harness; returns the exit code and the lines of its output.
fn run_harness(mut cmd: Command) -> anyhow::Result<(Option<i32>, Vec<String>)> {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| anyhow::anyhow!("emu-test: cannot start the harness: {e}"))?;
    let mut lines = Vec::new();
    if let Some(out) = child.stdout.take() {
        lines.extend(BufReader::new(out).lines().map_while(Result::ok));
    }
    let status = child
        .wait()
        .map_err(|e| anyhow::anyhow!("emu-test: harness: {e}"))?;
    Ok((status.code(), lines))
}

/// The lines worth keeping in the summary: case counts, skips, detection, verdicts.
fn summary_lines(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| {
            l.contains("checked against the oracle")
                || l.contains("SKIPPED")
                || l.contains(" = ")
                || l.contains("agree")
                || l.contains("vectors passed")
                || l.starts_with("single lookups:")
                || l.starts_with("batches:")
                || l.starts_with("set-wise:")
                || l.starts_with("active:")
                || l.starts_with("test result:")
                || l.contains("present: require()")
        })
        .map(|l| l.trim_start_matches("test ").to_string())
        .collect()
}

/// `None` if the run met its expectations, else what went wrong.
fn check(r: &Run, status: Option<i32>, lines: &[String]) -> Option<String> {
    match status {
        Some(0) => {}
        Some(124) => return Some("timed out".into()),
        Some(125) => return Some("the harness or the emulated boot failed".into()),
        Some(c) => return Some(format!("exit status {c}")),
        None => return Some("killed by a signal".into()),
    }
    let skipped = lines.iter().any(|l| l.contains("SKIPPED"));
    if r.binary.1 == "hq-info" {
        // The first screen: one line per entry point.
        let value = |name: &str| {
            lines
                .iter()
                .find_map(|l| l.strip_prefix(name))
                .map(|v| v.trim().to_owned())
        };
        let choice = match (
            value("single lookups:"),
            value("batches:"),
            value("set-wise:"),
        ) {
            (Some(single), Some(batch), Some(setwise)) => Some(format!(
                "single lookups: {single}, batches: {batch}, set-wise: {setwise}"
            )),
            _ => None,
        };
        return match (choice, r.features_present) {
            (None, _) => Some(
                "hq-info printed no `single lookups:`, `batches:` and `set-wise:` lines".into(),
            ),
            (Some(c), false) if c.contains("avx512") => {
                Some(format!("chose avx512 on a CPU without AVX-512: {c}"))
            }
            (Some(c), true) if !c.starts_with(&intel_avx512_choice()) => Some(format!(
                "the emulated Tiger Lake should get the intel-avx512 class's choice ({}): {c}",
                intel_avx512_choice()
            )),
            _ => None,
        };
    }
    if !lines.iter().any(|l| l.starts_with("test result: ok")) {
        return Some("no `test result: ok` line".into());
    }
    match (r.features_present, skipped) {
        (true, true) => Some("a test was SKIPPED on a CPU that has the features".into()),
        (false, false) => Some("expected SKIPPED (no AVX-512 here) but nothing was skipped".into()),
        _ => None,
    }
}

/// The lines `hq-info` prints for the class the emulated Tiger Lake (Intel,
/// AVX-512 and GFNI) belongs to, from the choice table itself (its plan,
/// with the per-piece exceptions).
fn intel_avx512_choice() -> String {
    let class = hq::choice::CLASSES
        .iter()
        .find(|c| c.name == "intel-avx512")
        .expect("the choice table has an intel-avx512 class");
    let p = class.plan();
    format!(
        "single lookups: {}, batches: {}, set-wise: {}",
        p.single.compact(),
        p.batch.compact(),
        p.setwise.compact()
    )
}
