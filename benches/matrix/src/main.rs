//! `hq-bench-matrix` (run it as `cargo xtask bench-matrix`): every backend,
//! the facade, the reference methods and the peers, timed on this CPU in
//! every build configuration and tabulated (`benches/results/<cpu-id>/`),
//! and `readme`, the README's measured tables from every committed run.

mod adoption;
mod asm_check;
mod build;
mod calibration;
mod chart;
mod compare;
mod cpu;
mod markdown;
mod perft;
mod process;
mod readme;
mod report;
mod results;
mod run;
mod sampling;

use clap::Parser;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Benchmark every backend, the facade and the peers on this CPU.
#[derive(Parser)]
#[command(
    name = "cargo xtask bench-matrix",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: run::Args,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Regenerate the README's measured tables from `benches/results/`
    /// (`cargo xtask readme`).
    Readme(readme::Args),
    /// What a user program costs to build and ship, beside the peers
    /// (`adoption.md`).
    Adoption(adoption::Args),
    /// The calibration stage alone, into this CPU's committed run (after
    /// the run changed its class's plan).
    Calibration(calibration::Args),
    /// The wasm module that calls `queen_attacks`, sized by default, with
    /// `small-tables` and on each peer (`cargo xtask test`'s size check).
    WasmSize(run::WasmSizeArgs),
}

/// Runs the command; an error is printed with its causes (no backtrace).
fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Some(Command::Readme(a)) => readme::run(a),
        Some(Command::Adoption(a)) => adoption::run(a),
        Some(Command::Calibration(a)) => calibration::again(a),
        Some(Command::WasmSize(a)) => run::wasm_size(a),
        None => run::run(&cli.run),
    };
    let Err(e) = result else {
        return ExitCode::SUCCESS;
    };
    eprintln!("bench-matrix: error: {e:#}");
    ExitCode::FAILURE
}

/// The workspace root (this crate is `benches/matrix`).
pub fn workspace_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.ancestors()
        .nth(2)
        .expect("benches/matrix is two levels down")
        .into()
}

/// The cargo that built this tool, for every build it starts.
pub const CARGO: &str = env!("CARGO");

/// `cmd` as a shell line, with [`CARGO`]'s full path shown as `cargo`.
pub fn shown(cmd: &xshell::Cmd) -> String {
    cmd.to_string().replacen(CARGO, "cargo", 1)
}

/// The checkout's commit (`git describe --always`), `-dirty` where a
/// tracked file outside `benches/results/` differs from it (a run's own
/// outputs, rewritten by the run before, change no code it times), or
/// `unknown`.
pub fn git_commit() -> String {
    let read = || -> anyhow::Result<String> {
        let sh = sh()?;
        let commit = xshell::cmd!(sh, "git describe --always")
            .quiet()
            .ignore_stderr()
            .read()?;
        let changed = xshell::cmd!(
            sh,
            "git status --porcelain --untracked-files=no -- . :(exclude)benches/results"
        )
        .quiet()
        .ignore_stderr()
        .read()?;
        Ok(match changed.trim().is_empty() {
            true => commit,
            false => format!("{commit}-dirty"),
        })
    };
    read().unwrap_or("unknown".into())
}

/// A shell whose commands run in the workspace root.
pub fn sh() -> anyhow::Result<xshell::Shell> {
    let sh = xshell::Shell::new()?;
    sh.change_dir(workspace_root());
    Ok(sh)
}
