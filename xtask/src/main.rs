//! `cargo xtask <task>`: the project's tasks, in Rust so they run wherever cargo does.

mod cross;
mod emu;
mod release;
mod reliability;
mod skips;
mod test;

use anyhow::Context;
use cargo_metadata::camino::Utf8PathBuf;
use cargo_metadata::{Message, Metadata, MetadataCommand, TargetKind};
use clap::Parser;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use xshell::cmd;

/// The project's tasks.
#[derive(Parser)]
#[command(name = "cargo xtask", version, about)]
enum Task {
    /// Every test, as CI runs it (see the README).
    Test(test::Args),
    /// Benchmark every backend, the facade and the peers on this CPU
    /// (`hq-bench-matrix`, `benches/matrix`; its options after the name).
    BenchMatrix(Forwarded),
    /// The AVX-512 suites on emulated CPUs (`../shared/avx512-emu`).
    EmuTest(emu::Args),
    /// The tests on aarch64 (qemu-user) and wasm32 (Node's WASI), wasm builds.
    CrossTest(cross::Args),
    /// Regenerate the README's measured tables from `benches/results/`
    /// (`hq-bench-matrix readme`; `--check` to compare only).
    Readme(Forwarded),
    /// Miri, the fuzz targets and ThreadSanitizer (`--long`: every Miri run,
    /// minutes of optimised fuzzing per target).
    Reliability(reliability::Args),
}

/// A task run by another program of the workspace: its arguments as given.
#[derive(clap::Args)]
struct Forwarded {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<String>,
}

/// `hq-bench-matrix ARGS`, the bench-matrix tool (`benches/matrix`), in
/// the test profile and with the workspace tests' selection
/// ([`test::WORKSPACE_SELECTION`]), so that their build has every crate of
/// it (its statistics optimised there): `cargo run -p hq-bench-matrix`
/// resolved features for the tool alone and compiled its crates again, and
/// a release build of it was longer still. It times nothing itself: the
/// bench binaries it builds have their own profile.
pub fn bench_matrix<S: AsRef<str>>(args: &[S]) -> anyhow::Result<()> {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let sh = sh()?;
    let metadata = MetadataCommand::new()
        .current_dir(sh.current_dir())
        .no_deps()
        .exec()?;
    let build = format!(
        "build -q --profile test {} --bin hq-bench-matrix --message-format=json",
        test::WORKSPACE_SELECTION
    );
    let tool = executables(test::cargo(&sh, &build), &metadata)?
        .remove("hq-bench-matrix/hq-bench-matrix")
        .context("the build of hq-bench-matrix made no executable")?;
    Ok(cmd!(sh, "{tool} {args...}").run()?)
}

/// Runs `cargo`, a build with `--message-format=json` (`cargo test
/// --no-run` or `cargo build`) of the workspace `metadata` describes, and
/// returns the executables it built: `package/target` -> path.
pub fn executables(
    cargo: xshell::Cmd,
    metadata: &Metadata,
) -> anyhow::Result<BTreeMap<String, Utf8PathBuf>> {
    let shown = shown(&cargo);
    // Whether the build succeeded is the `build-finished` message's, below.
    let stdout = cargo.ignore_status().read()?;
    let (mut found, mut diagnostics, mut success) = (BTreeMap::new(), String::new(), false);
    for message in Message::parse_stream(stdout.as_bytes()) {
        match message? {
            Message::CompilerMessage(m) => diagnostics += &m.message.rendered.unwrap_or_default(),
            Message::CompilerArtifact(a) => {
                // A bin target yields two executables of the same name: the
                // program and its unit-test harness (`profile.test`). Keep the
                // program, or which one wins would depend on build order.
                if a.profile.test && a.target.kind.contains(&TargetKind::Bin) {
                    continue;
                }
                let package = metadata.packages.iter().find(|p| p.id == a.package_id);
                if let (Some(exe), Some(package)) = (a.executable, package) {
                    found.insert(format!("{}/{}", package.name, a.target.name), exe);
                }
            }
            Message::BuildFinished(finished) => success = finished.success,
            _ => {}
        }
    }
    if !success {
        // With --message-format=json the diagnostics are in stdout: show them.
        eprint!("{diagnostics}");
        anyhow::bail!("building the executables failed: {shown}");
    }
    Ok(found)
}

/// Runs the task; an error is printed with its causes (no backtrace).
fn main() -> ExitCode {
    let result = match &Task::parse() {
        Task::Test(a) => test::run(a),
        Task::BenchMatrix(a) => bench_matrix(&a.args),
        Task::EmuTest(a) => emu::run(a),
        Task::CrossTest(a) => cross::run(a),
        Task::Readme(a) => bench_matrix(&[&["readme".to_owned()], &a.args[..]].concat()),
        Task::Reliability(a) => reliability::run(a),
    };
    let Err(e) = result else {
        return ExitCode::SUCCESS;
    };
    eprintln!("xtask: error: {e:#}");
    ExitCode::FAILURE
}

/// The workspace root (xtask lives in it).
pub fn workspace_root() -> PathBuf {
    let xtask = Path::new(env!("CARGO_MANIFEST_DIR"));
    xtask.parent().expect("xtask is in the root").into()
}

/// The cargo that runs xtask, for every build a task starts (`cargo
/// +toolchain` calls go through rustup's proxy instead, on purpose).
pub const CARGO: &str = env!("CARGO");

/// `cmd` as a shell line, with [`CARGO`]'s full path shown as `cargo`.
pub fn shown(cmd: &xshell::Cmd) -> String {
    cmd.to_string().replacen(CARGO, "cargo", 1)
}

/// A shell whose commands run in the workspace root: `cmd!(sh, "cargo ...")`
/// echoes each command and fails with it named, so tasks need no plumbing.
pub fn sh() -> anyhow::Result<xshell::Shell> {
    let sh = xshell::Shell::new()?;
    sh.change_dir(workspace_root());
    Ok(sh)
}
