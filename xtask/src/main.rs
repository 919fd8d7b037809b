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
/// ([`WORKSPACE_SELECTION`]), so that their build has every crate of
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
        WORKSPACE_SELECTION
    );
    let tool = executables(cargo(&sh, &build), &metadata)?
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

/// The workspace tests' packages and features, and so those of every build
/// that is to reuse theirs: cargo unifies each crate's features over the
/// packages a command selects, and only the same selection resolves every
/// crate alike. The emulated CPU without AVX-512 runs their binaries
/// ([`emu::on_cpu_without_avx512`]); the bench-matrix tool is built with it
/// ([`crate::bench_matrix`]), and so is its quick run's bench binary (its
/// `QUICK_SELECTION`). With the bench library and hq-chess's perft
/// comparison (`peers`), which the quick run builds.
pub const WORKSPACE_SELECTION: &str = "--workspace --features hq-chess/peers";

/// `cargo ARGS` with the cargo that runs xtask (ARGS split at spaces).
pub fn cargo<'a>(sh: &'a xshell::Shell, args: &str) -> xshell::Cmd<'a> {
    sh.cmd(CARGO).args(args.split(' '))
}

/// A shell whose commands run in the workspace root: `cmd!(sh, "cargo ...")`
/// echoes each command and fails with it named, so tasks need no plumbing.
pub fn sh() -> anyhow::Result<xshell::Shell> {
    let sh = xshell::Shell::new()?;
    sh.change_dir(workspace_root());
    Ok(sh)
}

/// The tools' modules in layers: no module reaches, through `crate::`
/// paths, one that reaches it back (the root, `main.rs`, holds the shared
/// helpers and is left out).
#[cfg(test)]
mod layers {
    use std::collections::{BTreeMap, BTreeSet};

    /// The modules each module of `dir` names through `crate::` paths
    /// (`crate::name`, and the names of a `use crate::{...}` group).
    fn imports(dir: &std::path::Path) -> BTreeMap<String, BTreeSet<String>> {
        let files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "rs"))
            .collect();
        let stem = |p: &std::path::Path| p.file_stem().unwrap().to_string_lossy().into_owned();
        let modules: BTreeSet<String> = files.iter().map(|p| stem(p)).collect();
        let word = |s: &str| -> String {
            s.chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        };
        let mut graph = BTreeMap::new();
        for file in files.iter().filter(|p| stem(p) != "main") {
            let text = std::fs::read_to_string(file).unwrap();
            let mut named = BTreeSet::new();
            for (at, _) in text.match_indices("crate::") {
                let rest = &text[at + "crate::".len()..];
                let names: Vec<String> = match rest.strip_prefix('{') {
                    Some(group) => group[..group.find('}').unwrap()]
                        .split(',')
                        .map(|n| word(n.trim()))
                        .collect(),
                    None => vec![word(rest)],
                };
                named.extend(names.into_iter().filter(|n| modules.contains(n)));
            }
            named.remove(&stem(file));
            named.remove("main");
            graph.insert(stem(file), named);
        }
        graph
    }

    /// A module of `graph` that reaches itself, with the path, if any.
    fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
        fn walk(
            graph: &BTreeMap<String, BTreeSet<String>>,
            path: &mut Vec<String>,
        ) -> Option<Vec<String>> {
            let last = path.last().unwrap().clone();
            for next in graph.get(&last).into_iter().flatten() {
                if *next == path[0] {
                    let mut found = path.clone();
                    found.push(next.clone());
                    return Some(found);
                }
                if !path.contains(next) {
                    path.push(next.clone());
                    if let Some(found) = walk(graph, path) {
                        return Some(found);
                    }
                    path.pop();
                }
            }
            None
        }
        graph.keys().find_map(|m| walk(graph, &mut vec![m.clone()]))
    }

    #[test]
    fn the_tools_modules_have_no_import_cycle() {
        for dir in ["benches/matrix/src", "xtask/src"] {
            let graph = imports(&super::workspace_root().join(dir));
            assert!(graph.len() > 5, "{dir}: read {} modules", graph.len());
            if let Some(path) = cycle(&graph) {
                panic!("{dir}: an import cycle: {}", path.join(" -> "));
            }
        }
    }

    /// The check finds a cycle where there is one.
    #[test]
    fn a_cycle_is_found() {
        let graph: BTreeMap<String, BTreeSet<String>> = [
            ("a", &["b"][..]),
            ("b", &["c"][..]),
            ("c", &["a"][..]),
            ("d", &[][..]),
        ]
        .into_iter()
        .map(|(m, to)| (m.into(), to.iter().map(|t| t.to_string()).collect()))
        .collect();
        assert_eq!(cycle(&graph).unwrap(), ["a", "b", "c", "a"]);
    }
}
