//! `cargo xtask cross-test`: the workspace off x86-64, where engine authors
//! also build (ARM machines, browsers).
//!
//! * **aarch64-unknown-linux-gnu**: clippy where the code differs by
//!   architecture, then the tests of the kernels and the facade
//!   ([`KERNELS`]) under Debian's `qemu-user`. Its CPU has NEON, so the
//!   `neon` backend runs the shared suite, and the facade chooses for it.
//! * **wasm32-wasip1**: the same tests under Node's WASI
//!   (`xtask/wasi-run.mjs`) with `+simd128`, and without it the crates whose
//!   code changes with it (wasm has no run-time detection).
//!   `#[should_panic]` tests show as ignored: wasm32 aborts on panic.
//!
//! Not the crates on top of the facade (the perft board `hq-chess`, the
//! mailbox, `hq-info`, the tooling): their code is the same on every target
//! but for the facade's choice, which the facade's tests check, and their
//! builds (the perft's every-backend copies above all) were most of this
//! step's 742 s on the Intel Xeon 6/0xa7.
//! * **wasm32-unknown-unknown** (browsers): clippy of the libraries, portable
//!   and `+simd128`. Its release code is built by the WASI tests and by
//!   `cargo xtask test`'s wasm module size step (a release build here cost
//!   minutes and showed nothing more).
//!
//! A target the machine lacks something for (rustup target, cross linker,
//! qemu, Node) is SKIPPED with the commands that install it (`.ci/run` does).
//! Builds go to `target/cross`, so that the host's build cache stays intact.

use crate::CARGO;
use anyhow::{Result, ensure};
use std::time::Instant;
use xshell::{Cmd, Shell, cmd};

/// `cargo xtask cross-test`'s options.
#[derive(clap::Args)]
pub struct Args {
    /// Only this target (`aarch64`, `wasm32-wasip1` or `wasm32-unknown-unknown`).
    #[arg(long)]
    pub only: Option<String>,
}

const AARCH64: &str = "aarch64-unknown-linux-gnu";
const WASI: &str = "wasm32-wasip1";
/// The crates whose tests run on the other targets: the levels and the CPU
/// detection (`hq-attacks-core`), every backend's kernels and shared suite,
/// the class table (`hq-plan`) and the facade's choice (`hq-attacks`).
const KERNELS: &str = "-p hq-attacks-core -p hq-scalar -p hq-simd -p hq-pext -p hq-hybrid -p hq-xop -p hq-classic -p hq-magic \
                       -p hq-reverse -p hq-plan -p hq-attacks";
const WASM: &str = "wasm32-unknown-unknown";
/// The crates whose code changes with `+simd128` (wasm has no run-time
/// detection): the levels, the class table, the simd128 backend and the
/// facade's choice.
const SIMD128_CODE: &str = "-p hq-attacks-core -p hq-plan -p hq-simd -p hq-attacks";

/// `CARGO_TARGET_<TRIPLE>_<key>`: cargo's setting `key` for `triple`.
fn target_var(triple: &str, key: &str) -> String {
    let triple = triple.to_uppercase().replace('-', "_");
    format!("CARGO_TARGET_{triple}_{key}")
}

/// `cargo clippy` of `selection` (split at spaces) for `triple`, warnings denied.
fn clippy<'a>(sh: &'a Shell, triple: &str, selection: &str) -> Cmd<'a> {
    let selection = selection.split(' ');
    cmd!(sh, "{CARGO} clippy --target {triple} {selection...}").args(["--", "-D", "warnings"])
}

/// `cargo test` of `selection` (split at spaces) for `triple`, run by `runner`.
fn test<'a>(sh: &'a Shell, triple: &str, selection: &str, runner: &str) -> Cmd<'a> {
    let selection = selection.split(' ');
    cmd!(sh, "{CARGO} test --target {triple} {selection...}")
        .args(["--", "--nocapture"])
        .env(target_var(triple, "RUNNER"), runner)
}

/// `cmd` built with `+simd128` (wasm has no run-time detection), into its own
/// target directory so that the portable build stays cached.
fn simd128<'a>(cmd: Cmd<'a>, triple: &str) -> Cmd<'a> {
    let dir = crate::workspace_root().join("target/cross-simd128");
    let rustflags = target_var(triple, "RUSTFLAGS");
    cmd.env(rustflags, "-C target-feature=+simd128")
        .env("CARGO_TARGET_DIR", dir)
}

/// Whether the toolchain has the standard library for `triple`.
pub fn has_target(triple: &str) -> bool {
    let libdir = crate::sh().and_then(|sh| {
        let out = cmd!(sh, "rustc --print target-libdir --target {triple}").output()?;
        Ok(String::from_utf8(out.stdout)?)
    });
    libdir.is_ok_and(|dir| {
        std::fs::read_dir(dir.trim()).is_ok_and(|entries| {
            let mut names = entries.flatten().map(|e| e.file_name());
            names.any(|n| n.to_string_lossy().starts_with("libcore-"))
        })
    })
}

/// Runs `steps` for `triple` unless the machine lacks its rustup target or one
/// of the programs it `needs` (with their Debian packages): then it is SKIPPED
/// with the commands that install what it lacks.
fn target(sh: &Shell, triple: &str, needs: &[(&str, &str)], steps: Vec<(&str, Cmd)>) -> Result<()> {
    println!("\n=== {triple}");
    let (mut what, mut how) = (Vec::new(), Vec::new());
    if !has_target(triple) {
        what.push(format!("the rustup target {triple}"));
        how.push(format!("rustup target add {triple}"));
    }
    for (program, package) in needs {
        if cmd!(sh, "{program} --version").output().is_err() {
            what.push(format!("`{program}`"));
            how.push(format!("apt-get install {package}"));
        }
    }
    if !what.is_empty() {
        let (what, how) = (what.join(", "), how.join("; "));
        let why = format!("this machine lacks {what}; install with: {how}");
        return crate::skips::missing_tool(triple, &why);
    }
    let mut times = Vec::new();
    for (name, cmd) in steps {
        // `==> ` rather than xshell's `$ ` on stderr: .ci/run shows these lines.
        let shown = crate::shown(&cmd);
        println!("\n==> {name}: {shown}");
        let started = Instant::now();
        cmd.quiet().run()?;
        times.push(format!("{name} {:.0} s", started.elapsed().as_secs_f64()));
    }
    println!("ok: {triple} ({})", times.join(", "));
    Ok(())
}

fn aarch64(sh: &Shell) -> Result<()> {
    // The emulator, with the cross toolchain's sysroot for the loader and libc.
    let qemu = "qemu-aarch64 -L /usr/aarch64-linux-gnu";
    // The facade's tests run a process of their own binary through it.
    let test = test(sh, AARCH64, KERNELS, qemu)
        .env(target_var(AARCH64, "LINKER"), "aarch64-linux-gnu-gcc")
        .env("HQ_TEST_RUNNER", qemu);
    // Clippy where the code differs by architecture (the crates with
    // `cfg(target_arch)` code, and the bench library's rows): the host's
    // clippy has seen the rest.
    let arch = "-p hq-attacks-core -p hq-simd -p hq-attacks --all-targets";
    // The bench matrix's rows on aarch64, quick: the attacks bench (every
    // backend this target runs, the facade, the references and the peers)
    // checks each row against the oracle, then times it in one round of
    // tiny samples (`HQ_BENCH_ROUNDS`): the pipeline and correctness under
    // qemu, not speed (no ARM machine to time on).
    let bench = cmd!(
        sh,
        "{CARGO} test --target {AARCH64} -p hq-benches --bench attacks"
    )
    .env(target_var(AARCH64, "RUNNER"), qemu)
    .env(target_var(AARCH64, "LINKER"), "aarch64-linux-gnu-gcc")
    .env("HQ_BENCH_ROUNDS", "1,20");
    let steps = vec![
        ("clippy", clippy(sh, AARCH64, arch)),
        ("clippy", clippy(sh, AARCH64, "-p hq-benches --lib")),
        ("test", test),
        ("bench rows", bench),
    ];
    let needs = [
        ("aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu"),
        ("qemu-aarch64", "qemu-user"),
    ];
    target(sh, AARCH64, &needs, steps)
}

fn wasi(sh: &Shell) -> Result<()> {
    let runner = sh.current_dir().join("xtask/wasi-run.mjs");
    let runner = format!("node {}", runner.display());
    // The kernels run in the `+simd128` build; the portable build runs the
    // crates whose code changes without it ([`SIMD128_CODE`]): the others'
    // code is the same in both, and a second wasm build of their suites cost
    // minutes of CI.
    let simd = test(sh, WASI, KERNELS, &runner);
    // The bench matrix's wasm rows, quick, as on aarch64 (the `+simd128`
    // build, the one whose backends differ from the host's): every row
    // against the oracle, then one round of tiny samples under Node.
    let bench = cmd!(
        sh,
        "{CARGO} test --target {WASI} -p hq-benches --bench attacks"
    )
    .env(target_var(WASI, "RUNNER"), &runner)
    .env("HQ_BENCH_ROUNDS", "1,20");
    let steps = vec![
        ("test", test(sh, WASI, SIMD128_CODE, &runner)),
        ("test +simd128", simd128(simd, WASI)),
        ("bench rows +simd128", simd128(bench, WASI)),
    ];
    target(sh, WASI, &[("node", "nodejs (Node 20 or later)")], steps)
}

fn wasm(sh: &Shell) -> Result<()> {
    // The libraries a wasm program links: their tests and the tools compile
    // (and run) for wasm32-wasip1. With `+simd128`, the crates whose code
    // changes with it (the others' is the same in both builds).
    let libs = "--workspace --lib --exclude hq-benches --exclude hq-bench-format \
                --exclude hq-bench-stats --exclude xtask";
    let steps = vec![
        ("clippy", clippy(sh, WASM, libs)),
        (
            "clippy +simd128",
            simd128(clippy(sh, WASM, SIMD128_CODE), WASM),
        ),
    ];
    target(sh, WASM, &[], steps)
}

/// The task: every target (or the `--only` one) attempted, the failures listed.
pub fn run(args: &Args) -> Result<()> {
    type Target = (&'static str, fn(&Shell) -> Result<()>);
    let targets: [Target; 3] = [("aarch64", aarch64), (WASI, wasi), (WASM, wasm)];
    let only = match args.only.as_deref() {
        Some(AARCH64) => Some("aarch64"),
        only => only,
    };
    let chosen: Vec<_> = targets
        .iter()
        .filter(|(n, _)| only.is_none_or(|o| o == *n))
        .collect();
    let names = targets.map(|(name, _)| name).join(", ");
    let unknown = only.unwrap_or_default();
    ensure!(
        !chosen.is_empty(),
        "unknown target {unknown:?}: expected one of {names}"
    );

    let sh = crate::sh()?;
    sh.set_var("CARGO_TARGET_DIR", sh.current_dir().join("target/cross"));
    // No debug info: it is most of these builds' time and size, and a
    // failing cross test is rerun by hand for the details.
    sh.set_var("CARGO_PROFILE_DEV_DEBUG", "0");
    sh.set_var("CARGO_PROFILE_TEST_DEBUG", "0");
    // Optimised, but less: these tests check correctness under an emulator
    // or a WASI runtime, and opt-level 1 built the perft suite in 27 % less
    // time with the same run time (its depth tiers follow the measured speed).
    sh.set_var("CARGO_PROFILE_TEST_OPT_LEVEL", "1");
    let mut failed = Vec::new();
    for (name, run) in chosen {
        if let Err(e) = run(&sh) {
            eprintln!("cross-test: {name} FAILED: {e:#}");
            failed.push(*name);
        }
    }
    let failed = failed.join(", ");
    ensure!(failed.is_empty(), "cross targets failed: {failed}");
    Ok(())
}
