//! `cargo xtask emu-test`: the suites on emulated CPUs, which add the CPUs
//! this machine is not, both ways (an AVX-512 host also runs them natively
//! in `cargo test`).
//!
//! * **An AVX-512 CPU** (`tigerlake`: AVX-512 F/BW/VBMI, GFNI) under
//!   `../shared/avx512-emu/run` (Bochs, beside the workspace; root, for its
//!   chroot), which boots static test binaries (`+crt-static`, built into
//!   `target/emu` so normal builds keep their cache): the `avx512` backend's
//!   shared suite, the `avx2` one (its `asm!` queen ends in `vzeroupper`,
//!   beside AVX-512 state) and the test that callers keep their vector
//!   registers across it, the AVX-512 VPPERM tests and vectors and the
//!   mailbox transposition report no SKIPPED, and `hq-info` gives the
//!   `intel-avx512` class's choice. Left out where AVX-512 runs natively
//!   (`--skip-native`).
//! * **A CPU without AVX-512** (`haswell`: AVX2, BMI2) under Debian's
//!   `qemu-x86_64 -cpu Haswell` (`qemu-user`; its QEMU 7.2 has AVX2 but no
//!   AVX-512), which runs the workspace tests' own binaries: the suite and
//!   mailbox tests report SKIPPED, the facade's tests pass on that CPU's
//!   class, and `hq-info` chooses no `avx512`. In user mode there is no boot,
//!   no root and no second build: these runs took 3 Bochs boots and a static
//!   build of their own, 247 CPU s of the test command (Intel Xeon 6/0xa7).
//!
//! Without the harness, root or `qemu-x86_64` the runs that need it say
//! SKIPPED, and why, and the task succeeds.

use crate::CARGO;
use anyhow::{Context, Result, bail, ensure};
use cargo_metadata::{Metadata, MetadataCommand, Target, TargetKind, camino::Utf8PathBuf};
use hq::unstable::CLASSES;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::process::{Command, Stdio};
use std::time::Instant;
use xshell::cmd;

/// `cargo xtask emu-test`'s options.
#[derive(clap::Args)]
pub struct Args {
    /// `Depth::Quick` for the backend suite (its per-line part stays exhaustive).
    #[arg(long)]
    pub quick: bool,
    /// Seconds per emulated run.
    #[arg(long, default_value_t = 900)]
    pub timeout: u32,
    /// Leave out the runs on the emulated AVX-512 CPU where this machine
    /// runs AVX-512 natively: the workspace tests ran that code here.
    #[arg(long)]
    pub skip_native: bool,
}

/// The runs, as `cpu package/target[+feature] [arguments]: what it shows`
/// (target: a test file's stem or a bin; `+feature`: built with that
/// feature of the package, apart from the others; arguments: a test
/// filter, or hq-info's).
const RUNS: [&str; 16] = [
    "tigerlake hq-simd/suite avx512: avx512 backend: the shared suite",
    "tigerlake hq-simd/suite avx2: avx2 backend: the shared suite, its asm forms for any caller among it",
    "tigerlake hq-simd/any_caller_registers: the caller's vector registers kept across avx2's asm queen (vzeroupper)",
    "tigerlake hq-hybrid/suite: hybrid backends: the shared suite of both, PEXT beside AVX-512 and beside AVX2",
    "tigerlake hq-xop/vpperm avx512: AVX-512 VPPERM x4 = model (proptest, all 256 selectors)",
    "tigerlake hq-xop/model_vectors: hand-derived VPPERM vectors: model, SSSE3, AVX-512",
    "tigerlake hq-mailbox/agree: mailbox <-> planes and one-hot bitboards: AVX-512 = scalar",
    "tigerlake hq-info/hq-info --no-check: facade choice on an AVX-512 CPU",
    "tigerlake hq-attacks/facade+force-avx512: the facade's tests in the force-avx512 build",
    "tigerlake hq-attacks/facade+force-hybrid-avx512-pext: the facade's tests in the force-hybrid-avx512-pext build",
    "haswell hq-pext/suite: the PEXT backends against the oracle",
    "haswell hq-simd/suite: no AVX-512: avx2 and ssse3 against the oracle, avx512 skipped",
    "haswell hq-hybrid/suite: no AVX-512: hybrid-avx2-pext against the oracle, hybrid-avx512-pext skipped",
    "haswell hq-mailbox/agree: no AVX-512: transposition falls back to scalar",
    "haswell hq-attacks/facade: no AVX-512: the facade's tests on that CPU's class",
    "haswell hq-info/hq-info --no-check: facade choice without AVX-512 picks other backends",
];

/// Per run (`cpu package/target [arguments]`, as in [`RUNS`]), the backends
/// whose suite it must report checked against the oracle, and those it
/// must report SKIPPED or refused (the emulated CPU lacks them): a run that
/// skipped a backend it should have checked fails, whatever else it says.
const BACKENDS: [(&str, &[&str], &[&str]); 6] = [
    ("tigerlake hq-simd/suite avx512", &["avx512"], &[]),
    ("tigerlake hq-simd/suite avx2", &["avx2"], &[]),
    (
        "tigerlake hq-hybrid/suite",
        &["hybrid-avx512-pext", "hybrid-avx2-pext"],
        &[],
    ),
    ("haswell hq-pext/suite", &["pext", "pext-pdep"], &[]),
    ("haswell hq-simd/suite", &["avx2", "ssse3"], &["avx512"]),
    (
        "haswell hq-hybrid/suite",
        &["hybrid-avx2-pext"],
        &["hybrid-avx512-pext"],
    ),
];

/// The CPU with AVX-512 (Bochs), where no test may report SKIPPED; on the
/// other one (qemu-user) the AVX-512 suites must.
const AVX512_CPU: &str = "tigerlake";
const NO_AVX512_CPU: &str = "haswell";
/// `qemu-x86_64`'s model of [`NO_AVX512_CPU`].
const QEMU_CPU: &str = "Haswell";
const HQ_INFO: &str = "hq-info/hq-info";

/// `RUNS`' rows on `cpu`.
fn runs_on(cpu: &str) -> Vec<&'static str> {
    let on = |row: &&str| row.split_whitespace().next() == Some(cpu);
    RUNS.iter().copied().filter(on).collect()
}

/// Runs the emulated suites (see the module docs): both CPUs, each
/// attempted.
pub fn run(args: &Args) -> Result<()> {
    let with = on_avx512_cpu(args);
    let without = on_cpu_without_avx512();
    with.and(without)
}

/// A finished run: its CPU, binary, purpose, seconds and output, and what
/// was wrong with it.
type Outcome = (
    &'static str,
    &'static str,
    &'static str,
    f64,
    String,
    Result<()>,
);

/// How a run starts: the command that runs `exe` on `cpu` with `env`.
type Launch<'a> = dyn Fn(&str, &Utf8PathBuf, &[(&str, &str)]) -> Command + Sync + 'a;

/// Runs `rows`, as many at a time as there are cores (each emulator is
/// single-threaded) after the first alone, each with `launch(cpu, exe,
/// env)`, its output printed whole when it ends; then the summary.
fn run_rows(
    rows: &[&'static str],
    executables: &BTreeMap<String, Utf8PathBuf>,
    emulator: &str,
    launch: &Launch,
) -> Result<()> {
    let started = Instant::now();
    let run_one = |row: &'static str| -> Result<Outcome> {
        let (spec, purpose) = row.split_once(": ").expect("RUNS: `spec: purpose`");
        let (cpu, spec) = spec.split_once(' ').expect("RUNS: `cpu package/target`");
        let (binary, args) = spec.split_once(' ').unwrap_or((spec, ""));
        let exe = executables.get(binary).with_context(|| {
            format!("emu-test: cargo built no executable for {binary} (renamed?)")
        })?;
        let test_args = (binary != HQ_INFO).then_some(["--test-threads=1", "--nocapture"]);
        // No committed run measured the emulated models, so hq-info would
        // calibrate at its first call, on an emulator's timings: the class's
        // choice is what these runs check.
        let env: &[(&str, &str)] = match binary == HQ_INFO {
            true => &[("HQ_CALIBRATE", "0")],
            false => &[],
        };
        let mut cmd = launch(cpu, exe, env);
        cmd.args(test_args.iter().flatten())
            .args(args.split_whitespace());
        let t = Instant::now();
        // Its stderr (the harness's progress and boot diagnostics) goes on live.
        let out = cmd
            .stderr(Stdio::inherit())
            .output()
            .with_context(|| format!("emu-test: cannot start {emulator}"))?;
        let seconds = t.elapsed().as_secs_f64();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let shown: String = stdout.lines().map(|l| format!("    | {l}\n")).collect();
        println!("emu-test: [{cpu}] {binary}: {purpose}\n{shown}");
        let spec = format!("{cpu} {binary} {args}");
        let problem = check(cpu, binary, out.status.code(), &stdout)
            .and_then(|()| check_backends(spec.trim(), &stdout));
        Ok((cpu, binary, purpose, seconds, stdout, problem))
    };
    // The first run alone: on a machine's first use the Bochs harness
    // installs its host packages with apt-get, and two runs doing that at
    // once fail on dpkg's lock (7 of 8 runs failed so in a fresh-clone CI run).
    let mut results = vec![run_one(rows[0])?];
    let rest: Result<Vec<_>> = rows[1..].par_iter().map(|r| run_one(r)).collect();
    results.extend(rest?);

    let at_once = rayon::current_num_threads();
    println!("\n==== emu-test summary ({emulator}, {at_once} runs at a time) ====");
    let mut failures = 0;
    for (cpu, binary, purpose, seconds, stdout, problem) in &results {
        let verdict = if problem.is_ok() { "PASS" } else { "FAIL" };
        println!("{verdict} [{cpu}] {binary} ({seconds:.0} s): {purpose}");
        for line in stdout.lines().filter(|l| is_summary_line(l)) {
            println!("    {}", line.trim_start_matches("test "));
        }
        if let Err(problem) = problem {
            println!("    problem: {problem}");
            failures += 1;
        }
    }
    let (runs, elapsed) = (results.len(), started.elapsed());
    println!("emu-test: {runs} runs on {emulator}, {failures} failed, {elapsed:.0?} in all");
    ensure!(failures == 0, "emu-test: {failures} emulated run(s) failed");
    Ok(())
}

/// The runs on the emulated AVX-512 CPU, under the Bochs harness, of
/// static binaries built for them; SKIPPED where AVX-512 runs natively
/// (`--skip-native`) or the harness cannot run.
pub fn on_avx512_cpu(args: &Args) -> Result<()> {
    if args.skip_native && hq::cpu::Level::X86V4.is_detected() {
        println!(
            "emu-test: SKIPPED the {AVX512_CPU} runs: this CPU runs AVX-512 natively, and the \
             workspace tests ran that code on it"
        );
        return Ok(());
    }
    let sh = crate::sh()?;
    let harness = sh.current_dir().with_file_name("shared/avx512-emu/run");
    // The effective user id from `id` rather than a hand read of /proc: the
    // harness is a POSIX shell script, so `id` is there wherever it runs.
    let skip = if !harness.is_file() {
        "is absent (it lives beside the checkout as ../shared/avx512-emu)"
    } else if cmd!(sh, "id -u").read().ok().as_deref() != Some("0") {
        "must run as root (chroot)"
    } else {
        ""
    };
    if !skip.is_empty() {
        let harness = harness.display();
        let what = format!("emu-test: the {AVX512_CPU} runs");
        return crate::skips::missing_tool(&what, &format!("the harness {harness} {skip}"));
    }
    let rows = runs_on(AVX512_CPU);
    let started = Instant::now();
    let executables = build_static(&rows, args.quick)?;
    let (built, elapsed) = (executables.len(), started.elapsed());
    println!("emu-test: built {built} static test binaries in {elapsed:.0?}");
    let timeout = args.timeout.to_string();
    let depth = args.quick.then_some("HQ_SUITE_DEPTH=quick");
    let launch = |cpu: &str, exe: &Utf8PathBuf, env: &[(&str, &str)]| {
        let mut cmd = Command::new(&harness);
        cmd.args(["--cpu", cpu, "--timeout", &timeout]);
        let env = env.iter().map(|(k, v)| format!("{k}={v}"));
        for var in depth.map(str::to_owned).into_iter().chain(env) {
            cmd.args(["--env", &var]);
        }
        cmd.arg(exe);
        cmd
    };
    run_rows(&rows, &executables, "Bochs, ~15 s of boot per run", &launch)
}

/// The runs on the CPU without AVX-512, under `qemu-x86_64 -cpu Haswell`,
/// of the workspace tests' own binaries ([`crate::WORKSPACE_SELECTION`]:
/// after them, nothing compiles); SKIPPED without `qemu-x86_64` or off
/// x86-64.
pub fn on_cpu_without_avx512() -> Result<()> {
    let (sh, cpu) = (crate::sh()?, NO_AVX512_CPU);
    if !cfg!(target_arch = "x86_64") {
        println!("emu-test: SKIPPED the {cpu} runs: qemu-x86_64 runs x86-64 binaries here only");
        return Ok(());
    }
    if cmd!(sh, "qemu-x86_64 --version")
        .quiet()
        .ignore_stdout()
        .run()
        .is_err()
    {
        let what = format!("emu-test: the {cpu} runs");
        return crate::skips::missing_tool(
            &what,
            "no qemu-x86_64 here (apt-get install qemu-user)",
        );
    }
    let rows = runs_on(cpu);
    let build = format!(
        "test {} --no-run --message-format=json",
        crate::WORKSPACE_SELECTION
    );
    let metadata = MetadataCommand::new()
        .current_dir(sh.current_dir())
        .no_deps()
        .exec()?;
    let executables = crate::executables(crate::cargo(&sh, &build), &metadata)?;
    let runner = format!("qemu-x86_64 -cpu {QEMU_CPU}");
    let launch = |_: &str, exe: &Utf8PathBuf, env: &[(&str, &str)]| {
        let mut cmd = Command::new("qemu-x86_64");
        // The facade's tests run a process of their own binary: through qemu too.
        cmd.args(["-cpu", QEMU_CPU])
            .arg(exe)
            .envs(env.iter().copied());
        cmd.env("HQ_TEST_RUNNER", &runner);
        cmd
    };
    run_rows(&rows, &executables, &runner, &launch)
}

/// The `cargo test` selection that builds what `runs` run and no more: each
/// run's package and test target; for a program, its package's integration
/// tests, which make cargo build the program (`--bin` would build only its
/// unit tests).
fn selection(runs: &[&str], metadata: &Metadata) -> Result<Vec<String>> {
    let (mut packages, mut tests) = (BTreeSet::new(), BTreeSet::new());
    let is_test = |t: &&Target| t.kind.contains(&TargetKind::Test);
    for row in runs {
        let (spec, _purpose) = row.split_once(": ").context("RUNS: `spec: purpose`")?;
        let spec = spec.split_whitespace().nth(1);
        let spec = spec.context("RUNS: `cpu package/target`")?;
        let spec = spec.split_once('+').map_or(spec, |(spec, _feature)| spec);
        let (name, target) = spec.split_once('/').context("RUNS: `package/target`")?;
        let package = metadata.packages.iter().find(|p| p.name.as_str() == name);
        let package = package.with_context(|| format!("emu-test: no package {name}"))?;
        let named = package.targets.iter().find(|t| t.name == target);
        let named = named.with_context(|| format!("emu-test: {name} has no target {target}"))?;
        packages.insert(name);
        match is_test(&named) {
            true => tests.extend([named.name.as_str()]),
            false => tests.extend(
                package
                    .targets
                    .iter()
                    .filter(is_test)
                    .map(|t| t.name.as_str()),
            ),
        }
    }
    let packages = packages.into_iter().flat_map(|p| ["-p", p]);
    let tests = tests.into_iter().flat_map(|t| ["--test", t]);
    Ok(packages.chain(tests).map(str::to_owned).collect())
}

/// The feature a row's target is built with (`package/target+feature`).
fn feature_of(row: &str) -> Option<&str> {
    let spec = row.split(": ").next()?.split_whitespace().nth(1)?;
    spec.split_once('+').map(|(_, feature)| feature)
}

/// Builds the static test binaries of `runs` (into `target/emu`); returns
/// `package/target[+feature]` -> executable. The rows with a feature are
/// built apart, one build per feature (features unify over a build: forced
/// together, every binary would be forced).
fn build_static(runs: &[&str], quick: bool) -> Result<BTreeMap<String, Utf8PathBuf>> {
    let sh = crate::sh()?;
    let root = sh.current_dir();
    let metadata = MetadataCommand::new().current_dir(&root).no_deps().exec()?;
    let features: BTreeSet<Option<&str>> = runs.iter().map(|r| feature_of(r)).collect();
    let mut found = BTreeMap::new();
    for feature in features {
        let group: Vec<&str> = runs
            .iter()
            .copied()
            .filter(|r| feature_of(r) == feature)
            .collect();
        let selection = selection(&group, &metadata)?;
        let package = group[0]
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.split('/').next());
        let with = match (feature, package) {
            (Some(f), Some(p)) => vec!["--features".to_owned(), format!("{p}/{f}")],
            _ => Vec::new(),
        };
        // Optimised where the full suites run emulated (a CPU without
        // AVX-512 here); for the quick runs, opt-level 1 builds faster and
        // runs them as fast (the runs are mostly the emulated boot).
        let opt_level = if quick { "1" } else { "3" };
        let cmd = cmd!(sh, "{CARGO} test --release --no-run --message-format=json --target x86_64-unknown-linux-gnu {selection...} {with...}")
            .env("RUSTFLAGS", "-C target-feature=+crt-static")
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", opt_level)
            .env("CARGO_TARGET_DIR", root.join("target/emu"));
        for (name, exe) in crate::executables(cmd, &metadata)? {
            let key = match feature {
                Some(f) => format!("{name}+{f}"),
                None => name,
            };
            found.insert(key, exe);
        }
    }
    Ok(found)
}

/// The lines worth keeping in the summary: case counts, skips, detection, verdicts.
fn is_summary_line(l: &str) -> bool {
    let within = [
        "checked against the oracle",
        "SKIPPED",
        " = ",
        "agree",
        "vectors passed",
        "present: require()",
    ];
    let starts = ["single lookups:", "batches:", "set-wise:", "active:"];
    within.iter().any(|s| l.contains(s))
        || starts.iter().any(|s| l.starts_with(s))
        || l.starts_with("test result:")
}

/// Whether [`BACKENDS`] lists the backends of a run of `binary` on `cpu`.
fn has_backends(cpu: &str, binary: &str) -> bool {
    let prefix = format!("{cpu} {binary}");
    BACKENDS.iter().any(|(spec, ..)| {
        spec.split_whitespace()
            .take(2)
            .eq(prefix.split_whitespace())
    })
}

/// Whether a run reported each backend of [`BACKENDS`] as its row expects:
/// checked against the oracle, or SKIPPED or refused.
fn check_backends(spec: &str, stdout: &str) -> Result<()> {
    let Some((_, checks, refuses)) = BACKENDS.iter().find(|(s, ..)| *s == spec) else {
        return Ok(());
    };
    for backend in *checks {
        let line = format!("hq-testkit: backend {backend} checked against the oracle");
        ensure!(
            // After the test's name where the harness prints it first.
            stdout.lines().any(|l| l.contains(&line)),
            "{backend} should have been checked against the oracle here, but no `{line}` line \
             was printed"
        );
    }
    for backend in *refuses {
        let skipped = format!("SKIPPED backend {backend}:");
        let refused = format!("refused {backend}");
        ensure!(
            stdout
                .lines()
                .any(|l| l.contains(&skipped) || l.contains(&refused)),
            "{backend} should have been SKIPPED or refused on this CPU, but it was not"
        );
    }
    Ok(())
}

/// Whether a run met its expectations, given the harness's exit code.
fn check(cpu: &str, binary: &str, status: Option<i32>, stdout: &str) -> Result<()> {
    match status {
        Some(0) => {}
        Some(124) => bail!("timed out"),
        Some(125) => bail!("the harness or the emulated boot failed"),
        // The program's own status, or 128 + N if it died from signal N.
        Some(c) => bail!("exit status {c}"),
        None => bail!("killed by a signal"),
    }
    let avx512 = cpu == AVX512_CPU;
    if binary == HQ_INFO {
        // Its first screen (one line per entry point), and the plan of the
        // class the emulated Tiger Lake (Intel, AVX-512, GFNI) belongs to,
        // from the choice table itself.
        let value = |name| stdout.lines().find_map(|l| l.strip_prefix(name));
        let [Some(s), Some(b), Some(w)] = ["single lookups:", "batches:", "set-wise:"].map(value)
        else {
            bail!("hq-info printed no `single lookups:`, `batches:` and `set-wise:` lines");
        };
        let [s, b, w] = [s, b, w].map(str::trim);
        let class = CLASSES.iter().find(|c| c.name == "intel-avx512");
        let p = class.expect("an intel-avx512 class").plan;
        let [ps, pb, pw] = [p.single, p.batch, p.setwise].map(|x| x.to_string());
        let choice = format!("single lookups: {s}, batches: {b}, set-wise: {w}");
        let expected = format!("single lookups: {ps}, batches: {pb}, set-wise: {pw}");
        return match avx512 {
            true if !choice.starts_with(&expected) => bail!(
                "the emulated Tiger Lake should get the intel-avx512 class's choice ({expected}): {choice}"
            ),
            false if choice.contains("avx512") => {
                bail!("chose avx512 on a CPU without AVX-512: {choice}")
            }
            _ => Ok(()),
        };
    }
    let passed = stdout.lines().any(|l| l.starts_with("test result: ok"));
    // Where AVX-512 is missing, a test of it says it skipped or refused it.
    let refused = stdout
        .lines()
        .any(|l| (l.contains("SKIPPED") && l.contains("avx512")) || l.contains("refused avx512"));
    match (passed, avx512) {
        (false, _) => bail!("no `test result: ok` line"),
        (true, true) if stdout.contains("SKIPPED") => {
            bail!("a test was SKIPPED on a CPU that has the features")
        }
        // A run with its backends listed is held to them instead
        // (`check_backends`).
        (true, false) if !refused && !has_backends(cpu, binary) => {
            bail!("expected avx512 SKIPPED or refused (no AVX-512 here), but it was not")
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row of `BACKENDS` names a run of `RUNS` (a row that named none
    /// would check nothing), and names real backends.
    #[test]
    fn every_backend_expectation_names_a_run() {
        for (spec, checks, refuses) in BACKENDS {
            assert!(
                RUNS.iter().any(|r| r.split(": ").next() == Some(spec)),
                "BACKENDS names {spec:?}, which is no run"
            );
            for b in checks.iter().chain(refuses) {
                assert!(
                    hq::Backend::from_name(b).is_ok(),
                    "{spec}: {b} is no backend"
                );
            }
        }
    }

    /// The check reads the lines the harness prints (a test's name, then
    /// the suite's line) and fails where a backend that must run was
    /// skipped, or one that must not run was checked.
    #[test]
    fn a_run_is_held_to_its_backends() {
        let spec = "haswell hq-hybrid/suite";
        let checked = |b: &str| {
            format!(
                "test {}_passes_the_full_suite ... hq-testkit: backend {b} checked against the \
                 oracle: 7416876 cases, 0 mismatches\n",
                b.replace('-', "_")
            )
        };
        let skipped = |b: &str| {
            format!("test x ... hq-testkit: SKIPPED backend {b}: backend {b} cannot run here\n")
        };
        let good = checked("hybrid-avx2-pext") + &skipped("hybrid-avx512-pext");
        assert!(check_backends(spec, &good).is_ok());
        let promised_skipped = skipped("hybrid-avx2-pext") + &skipped("hybrid-avx512-pext");
        assert!(check_backends(spec, &promised_skipped).is_err());
        let refused_ran = checked("hybrid-avx2-pext") + &checked("hybrid-avx512-pext");
        assert!(check_backends(spec, &refused_ran).is_err());
    }
}
