//! `cargo xtask <task>`: the project's tasks, in Rust so they run wherever cargo does.

mod bench_matrix;
mod cross;
mod emu;
mod perft_suite;
mod readme;
mod release;
mod reliability;
mod test;

use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The project's tasks.
#[derive(Parser)]
#[command(name = "cargo xtask", version, about)]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Every test, as CI runs it (see the README).
    Test(test::Args),
    /// Benchmark every backend, the facade and the peers on this CPU.
    BenchMatrix(bench_matrix::Args),
    /// The AVX-512 suites on emulated CPUs (`../shared/avx512-emu`).
    EmuTest(emu::Args),
    /// The tests on aarch64 (qemu-user) and wasm32 (Node's WASI), wasm builds.
    CrossTest(cross::Args),
    /// Every position of the perft suites at every listed depth.
    PerftSuite(perft_suite::Args),
    /// Regenerate the README's measured tables from `benches/results/`.
    Readme(readme::Args),
    /// Miri, the fuzz targets and ThreadSanitizer (nightly), as `test` runs them.
    Reliability(reliability::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.task {
        Task::Test(a) => test::run(a),
        Task::BenchMatrix(a) => bench_matrix::run(a),
        Task::EmuTest(a) => emu::run(a),
        Task::CrossTest(a) => cross::run(a),
        Task::PerftSuite(a) => perft_suite::run(a),
        Task::Readme(a) => readme::run(a),
        Task::Reliability(a) => reliability::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root (xtask lives in it).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace root")
        .to_path_buf()
}

/// A shell whose commands run in the workspace root: `cmd!(sh, "cargo ...")`
/// echoes each command and fails with it named, so tasks need no plumbing.
#[allow(dead_code)] // used by the rewritten tasks
pub fn sh() -> anyhow::Result<xshell::Shell> {
    let sh = xshell::Shell::new()?;
    sh.change_dir(workspace_root());
    Ok(sh)
}
