//! `cargo xtask <task>`: the project's tasks, in Rust so they run wherever cargo does.

mod cross;
mod emu;
mod release;
mod reliability;
mod test;

use anyhow::Context;
use cargo_metadata::Message;
use clap::Parser;
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
    let build = format!(
        "build -q --profile test {} --bin hq-bench-matrix --message-format=json-render-diagnostics",
        test::WORKSPACE_SELECTION
    );
    let messages = test::cargo(&sh, &build).read()?;
    let tool = Message::parse_stream(messages.as_bytes())
        .filter_map(Result::ok)
        .find_map(|m| match m {
            Message::CompilerArtifact(a) if a.target.name == "hq-bench-matrix" => a.executable,
            _ => None,
        })
        .context("the build of hq-bench-matrix made no executable")?;
    Ok(cmd!(sh, "{tool} {args...}").run()?)
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
