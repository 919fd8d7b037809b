//! `cargo xtask cross-test`: the workspace off x86-64, where engine authors
//! also build (ARM machines, browsers).
//!
//! * **aarch64-unknown-linux-gnu**: clippy over every target (benches
//!   included), then the workspace tests run under Debian's `qemu-user`
//!   (`qemu-aarch64`, linked by `gcc-aarch64-linux-gnu`). The emulated CPU
//!   has NEON, so the `neon` backend runs the shared suite and the perft
//!   suites; `hq-info`'s CLI test reaches its binary through the same
//!   emulator (`HQ_TEST_RUNNER`).
//! * **wasm32-wasip1**: the workspace tests under Node's WASI
//!   (`xtask/wasi-run.mjs`), once portable and once with
//!   `-C target-feature=+simd128` (wasm has no run-time detection: the
//!   `simd128` backend exists only in such builds) for the crates whose
//!   code changes with it (`hq-simd`, `hq`) and for `hq-chess` (only there:
//!   its code is the same in both). `hq-info` is left out (its CLI test
//!   starts processes; WASI has none), as is `xtask`.
//!   `#[should_panic]` tests show as ignored there: wasm32 aborts on panic.
//! * **wasm32-unknown-unknown** (browsers): clippy over every target,
//!   portable and `+simd128`. (Release code for wasm32 is built by the WASI
//!   tests, and for this target by `cargo xtask test`'s wasm module size
//!   step; a release build of the same crates here cost minutes and showed
//!   nothing those do not.)
//!
//! What the machine lacks (a rustup target, the cross linker, qemu, Node)
//! makes that target's step print `SKIPPED <target>: ...` with the command
//! that installs it; `.ci/run` installs them all. Builds go to
//! `target/cross` so the host's build cache stays intact.

use std::path::PathBuf;
use std::process::Command;

/// `cargo xtask cross-test`'s options.
#[derive(clap::Args)]
pub struct Args {
    /// Only this target (`aarch64`, `wasm32-wasip1` or `wasm32-unknown-unknown`).
    #[arg(long)]
    pub only: Option<String>,
}

const AARCH64: &str = "aarch64-unknown-linux-gnu";
const WASI: &str = "wasm32-wasip1";
const WASM: &str = "wasm32-unknown-unknown";
/// The aarch64 emulator, with the cross toolchain's sysroot for the dynamic
/// loader and libc.
const QEMU_AARCH64: &str = "qemu-aarch64 -L /usr/aarch64-linux-gnu";
const SIMD128: &str = "-C target-feature=+simd128";

/// One cargo command for a cross target, with its environment.
#[derive(Clone)]
struct Step {
    args: Vec<String>,
    env: Vec<(String, String)>,
    simd128: bool,
}

impl Step {
    fn new(args: &[&str]) -> Self {
        Self {
            args: args.iter().map(|s| s.to_string()).collect(),
            env: Vec::new(),
            simd128: false,
        }
    }

    /// `cargo clippy` of `selection` for `triple`, warnings denied.
    fn clippy(selection: &[&str], triple: &str) -> Self {
        let mut args = vec!["clippy"];
        args.extend_from_slice(selection);
        args.extend_from_slice(&["--target", triple, "--", "-D", "warnings"]);
        Self::new(&args)
    }

    fn env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// The same command built with `+simd128` for `triple` (into its own
    /// target directory, so the portable build stays cached).
    fn simd128(mut self, triple: &str) -> Self {
        let var = format!(
            "CARGO_TARGET_{}_RUSTFLAGS",
            triple.to_uppercase().replace('-', "_")
        );
        self.env.push((var, SIMD128.into()));
        self.simd128 = true;
        self
    }

    fn run(&self) -> anyhow::Result<()> {
        let target_dir = if self.simd128 {
            "cross-simd128"
        } else {
            "cross"
        };
        let dir = crate::workspace_root().join("target").join(target_dir);
        println!(
            "\n==> {}cargo {}",
            self.env
                .iter()
                .map(|(k, v)| format!("{k}=\"{v}\" "))
                .collect::<String>(),
            self.args.join(" ")
        );
        let status = Command::new(env!("CARGO"))
            .args(&self.args)
            .env("CARGO_TARGET_DIR", &dir)
            // No debug info: it is most of these builds' time and size,
            // and a failing cross test is rerun by hand for the details.
            .env("CARGO_PROFILE_DEV_DEBUG", "0")
            .env("CARGO_PROFILE_TEST_DEBUG", "0")
            // Optimised, but less: these tests check correctness under an
            // emulator or a WASI runtime, and opt-level 1 built the perft
            // suite in 27 % less time here with the same run time (its
            // depth tiers follow the measured speed).
            .env("CARGO_PROFILE_TEST_OPT_LEVEL", "1")
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .current_dir(crate::workspace_root())
            .status()
            .map_err(|e| anyhow::anyhow!("cannot run cargo: {e}"))?;
        if status.success() {
            Ok(())
        } else {
            Err(anyhow::anyhow!(
                "`cargo {}` failed ({status})",
                self.args.join(" ")
            ))
        }
    }
}

/// Whether `program --version` runs.
fn has_program(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether the toolchain has the standard library for `triple`.
pub fn has_target(triple: &str) -> bool {
    Command::new("rustc")
        .args(["--print", "target-libdir", "--target", triple])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .is_some_and(|dir| {
            std::fs::read_dir(dir).is_ok_and(|mut entries| {
                entries.any(|e| {
                    e.is_ok_and(|e| e.file_name().to_string_lossy().starts_with("libcore-"))
                })
            })
        })
}

/// What is missing for a target, as `(what, how to install it)`.
fn missing(triple: &str, programs: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if !has_target(triple) {
        out.push((
            format!("the rustup target {triple}"),
            format!("rustup target add {triple}"),
        ));
    }
    for (program, install) in programs {
        if !has_program(program) {
            out.push((format!("`{program}`"), install.to_string()));
        }
    }
    out
}

/// Runs `steps` for `triple` unless something is missing, in which case the
/// target is SKIPPED by name with the commands that install what it needs.
fn target(triple: &str, programs: &[(&str, &str)], steps: &[Step]) -> anyhow::Result<()> {
    println!("\n=== {triple}");
    let missing = missing(triple, programs);
    if !missing.is_empty() {
        let what: Vec<_> = missing.iter().map(|(w, _)| w.as_str()).collect();
        let how: Vec<_> = missing.iter().map(|(_, h)| h.as_str()).collect();
        println!(
            "SKIPPED {triple}: this machine lacks {}; install with: {}",
            what.join(", "),
            how.join("; ")
        );
        return Ok(());
    }
    let mut times = Vec::new();
    for step in steps {
        let started = std::time::Instant::now();
        step.run()?;
        times.push(format!(
            "{} {:.0} s",
            step.args[0],
            started.elapsed().as_secs_f64()
        ));
    }
    println!("ok: {triple} ({})", times.join(", "));
    Ok(())
}

fn aarch64() -> anyhow::Result<()> {
    let linker = "CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER";
    let runner = "CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER";
    target(
        AARCH64,
        &[
            (
                "aarch64-linux-gnu-gcc",
                "apt-get install gcc-aarch64-linux-gnu",
            ),
            ("qemu-aarch64", "apt-get install qemu-user"),
        ],
        &[
            // Clippy where the code differs by architecture (the crates
            // with `cfg(target_arch)` code, and the bench library's rows):
            // the host's clippy has seen the rest (the time saved is in
            // the commit that narrowed it).
            Step::clippy(
                &[
                    "-p",
                    "hq-attacks-core",
                    "-p",
                    "hq-simd",
                    "-p",
                    "hq-attacks",
                    "--all-targets",
                ],
                AARCH64,
            ),
            Step::clippy(&["-p", "hq-benches", "--lib"], AARCH64),
            Step::new(&[
                "test",
                "--workspace",
                "--exclude",
                "xtask",
                "--target",
                AARCH64,
                "--",
                "--nocapture",
            ])
            .env(linker, "aarch64-linux-gnu-gcc")
            .env(runner, QEMU_AARCH64)
            .env("HQ_TEST_RUNNER", QEMU_AARCH64),
        ],
    )
}

fn wasi() -> anyhow::Result<()> {
    let runner = format!(
        "node {}",
        crate::workspace_root().join("xtask/wasi-run.mjs").display()
    );
    let runner_var = "CARGO_TARGET_WASM32_WASIP1_RUNNER";
    let test = |packages: &[&str]| {
        let mut args = vec!["test", "--target", WASI];
        args.extend_from_slice(packages);
        args.extend_from_slice(&["--", "--nocapture"]);
        Step::new(&args).env(runner_var, &runner)
    };
    target(
        WASI,
        &[("node", "apt-get install nodejs (Node 20 or later)")],
        &[
            // hq-chess runs in the `+simd128` build only: its code is the
            // same in both, and the portable facade it would pick is
            // tested by hq-attacks here (its wasm build and suite cost
            // about a minute per run).
            test(&[
                "--workspace",
                "--exclude",
                "hq-info",
                "--exclude",
                "xtask",
                "--exclude",
                "hq-chess",
            ]),
            test(&["-p", "hq-simd", "-p", "hq-attacks", "-p", "hq-chess"]).simd128(WASI),
        ],
    )
}

fn wasm() -> anyhow::Result<()> {
    let clippy = Step::clippy(
        &[
            "--workspace",
            // The libraries a wasm program links: their tests and the tools
            // compile (and run) for wasm32-wasip1 above.
            "--lib",
            "--exclude",
            "hq-benches",
            "--exclude",
            "hq-bench-format",
            "--exclude",
            "xtask",
        ],
        WASM,
    );
    let clippy_simd = clippy.clone().simd128(WASM);
    target(WASM, &[], &[clippy, clippy_simd])
}

/// The task.
pub fn run(args: &Args) -> anyhow::Result<()> {
    type Target = (&'static str, fn() -> anyhow::Result<()>);
    let targets: [Target; 3] = [("aarch64", aarch64), (WASI, wasi), (WASM, wasm)];
    let chosen: Vec<&Target> = match &args.only {
        None => targets.iter().collect(),
        Some(name) => {
            let found: Vec<_> = targets
                .iter()
                .filter(|(n, _)| n == name || (*n == "aarch64" && name == AARCH64))
                .collect();
            if found.is_empty() {
                let names: Vec<_> = targets.iter().map(|(n, _)| *n).collect();
                return Err(anyhow::anyhow!(
                    "unknown target {name:?}: expected one of {}",
                    names.join(", ")
                ));
            }
            found
        }
    };
    let mut failed = Vec::new();
    for (name, run) in chosen {
        if let Err(e) = run() {
            eprintln!("cross-test: {name} FAILED: {e}");
            failed.push(*name);
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(anyhow::anyhow!(
            "cross targets failed: {}",
            failed.join(", ")
        ))
    }
}
