//! `cargo xtask <task>`: the project's tasks, in Rust so they run wherever cargo does.
//!
//! * `test` — the whole test suite, as CI runs it (see README).
//! * `bench-matrix` — every backend and the peers, measured in one run.
//! * `emu-test` — the AVX-512 / XOP suites on emulated CPUs.
//! * `info` — CPU features, backends, the one selected, and a quick self-check.
//! * `perft-suite` — the full-depth perft suites (outside CI: billions of nodes).

mod bench_matrix;
mod emu;
mod info;
mod perft_suite;
mod test;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <task> [args]

tasks:
  test           run every test as CI does: workspace tests, forced-backend builds,
                 emulated AVX-512/XOP suites (when ../shared/avx512-emu is present),
                 a quick bench-matrix run [--no-emu] [--no-bench]
  bench-matrix   benchmark every backend and the peers on this CPU
  emu-test       only the emulated AVX-512/XOP suites
  info           CPU features, backends, the selected one, and a self-check
  perft-suite    every perft position of ../shared/perft at every listed depth
                 [--backend NAME|auto|all] [--suite standard|chess960|all] [--max-depth N] [--threads N]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(task) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let rest = &args[1..];
    let result = match task.as_str() {
        "test" => test::run(rest),
        "bench-matrix" => bench_matrix::run(rest),
        "emu-test" => emu::run(rest),
        "info" => info::run(rest),
        "perft-suite" => perft_suite::run(rest),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown task {other:?}\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask {task}: error: {e}");
            ExitCode::FAILURE
        }
    }
}
