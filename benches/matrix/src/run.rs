//! The run: every backend, the facade, the reference methods and the peers,
//! timed per build configuration ([`configs`]) in several fresh processes
//! (each a few rounds over every cell in its own random order), then the
//! perft example's processes and the calibration's starts; tabulated per
//! CPU. See `--help` and `docs/benchmarks.md`.
//!
//! The steps: build (one `cargo build` per distinct set of flags: the
//! perft example and `hq-info` are built with the bench binary of the same
//! flags), check each bench binary's single-lookup loops ([`asm_check`]),
//! run the bench processes (interleaved over the builds), sample the
//! deciding cells further where their intervals are wide, run the perft
//! processes, the calibration starts, and write the results through a
//! temporary directory.

use crate::build::{
    Clock, Layouts, build, build_env, in_layout, layouts, link_in_order, significant,
};
use crate::process::{self, Seeds, Start};
use crate::results::{self, check_outputs};
pub use crate::sampling::Sampling;
use crate::{CARGO, asm_check, calibration, cpu, perft, report};
use anyhow::{Context, bail, ensure};
use hq_bench_format::{
    AaCheck, BenchMeta, ConfigRun, ProcessRecord, ProcessSamples, Results, SCHEMA, TimedCell,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;
use xshell::{Cmd, Shell, cmd};

/// `cargo xtask bench-matrix`'s options.
#[derive(clap::Args, Default)]
pub struct Args {
    /// Every stage with tiny samples (checks the pipeline, not the speed).
    #[arg(long)]
    quick: bool,
    /// The long run: more processes and rounds, every `force-<backend>`
    /// build, the LTO and shakmaty-hq builds, the board-option and peer perft
    /// rows, the x86-64-v3 hash perft, and the A/A check of two code layouts.
    #[arg(long, conflicts_with = "quick")]
    full: bool,
    /// Fresh processes per bench binary (default 6; 10 with --full, 2 with --quick).
    #[arg(long)]
    processes: Option<usize>,
    /// Rounds per process (default 6; 8 with --full, 2 with --quick).
    #[arg(long)]
    rounds: Option<usize>,
    /// Seconds the run may spend sampling deciding cells whose interval is
    /// wider than ±3 % (default 40, and 30 for perft rows; 300 and 150 with
    /// --full; 0 with --quick).
    #[arg(long)]
    resample_seconds: Option<f64>,
    /// The run's seed: every process's order of cells and environment
    /// padding derive from it (default: from the clock; recorded).
    #[arg(long)]
    seed: Option<u64>,
    /// Merge these result directories into one matrix and chart.
    #[arg(long, num_args = 1.., value_name = "DIR")]
    merge: Vec<PathBuf>,
    /// Compare two result directories cell by cell (`A B`: ratios A / B).
    #[arg(long, num_args = 2, value_names = ["A", "B"], conflicts_with = "merge")]
    compare: Vec<PathBuf>,
    /// Where to write (default: benches/results/CPU-ID, or target/bench-matrix/CPU-ID-quick
    /// with --quick, or target/bench-matrix/merged with --merge; with
    /// --compare, a Markdown file, default target/bench-matrix/compare.md).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Run only these build configurations (comma-separated names).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Skip the perft stage.
    #[arg(long)]
    no_perft: bool,
    /// Skip the calibration stage (`hq-info --calibrate` in 20 fresh processes).
    #[arg(long)]
    no_calibration: bool,
    /// Only check the outputs of a run (the default directory, or DIR).
    #[arg(long, num_args = 0..=1, value_name = "DIR")]
    check: Option<Option<PathBuf>>,
    /// The bench binary for wasm32-wasip1 under Node, plain and with
    /// +simd128, instead of this CPU's builds: each a run of its own
    /// (benches/results/CLASS-nodeMAJOR-CPU-ID; with --out, under that
    /// directory), without perft, calibration or adoption cost.
    #[arg(long, conflicts_with_all = ["merge", "compare", "check", "only"])]
    wasm: bool,
}

/// A wasm32 build that `--wasm` times under Node: the class whose plan it
/// compiles in, and the target features it enables.
pub(crate) struct WasmBuild {
    class: &'static str,
    features: &'static [&'static str],
}

/// The wasm32 builds, as a web page or a WASI host gets them: the
/// portable build and the one with the SIMD proposal every current engine
/// runs.
const WASM_BUILDS: [WasmBuild; 2] = [
    WasmBuild {
        class: "wasm32",
        features: &[],
    },
    WasmBuild {
        class: "wasm32-simd128",
        features: &["simd128"],
    },
];

/// The wasm target the bench binary is built for: WASI preview 1, which
/// Node runs (`xtask/wasi-run.mjs`).
const WASM_TRIPLE: &str = "wasm32-wasip1";

impl WasmBuild {
    /// Its `RUSTFLAGS`.
    fn rustflags(&self) -> String {
        let features: Vec<String> = self.features.iter().map(|f| format!("+{f}")).collect();
        match features.is_empty() {
            true => String::new(),
            false => format!("-C target-feature={}", features.join(",")),
        }
    }

    /// Its one configuration: the `attacks` bench for [`WASM_TRIPLE`],
    /// named `runtime` as the build whose rows decide (its facade runs the
    /// class's plan, fixed at compile time).
    fn config(&self, runtime: &str) -> ConfigRun {
        let flags = self.rustflags();
        let shown = if flags.is_empty() { "no flags" } else { &flags };
        ConfigRun {
            name: "runtime".into(),
            description: format!(
                "{WASM_TRIPLE} ({shown}) under {runtime}: backends, the facade on the {} plan \
                 (fixed at compile time), references, peers",
                self.class
            ),
            rustflags: flags,
            cargo_args: ["--bench", "attacks", "--target", WASM_TRIPLE]
                .map(str::to_owned)
                .to_vec(),
            ..ConfigRun::default()
        }
    }
}

/// The size of `hq-wasm-size`'s release module for `wasm32-unknown-unknown`
/// (what a page loads) with `build`'s target features, by default and with
/// `small-tables`, and of the same module on each peer (its examples).
fn wasm_module_bytes(
    sh: &Shell,
    build: &WasmBuild,
    with_peers: bool,
) -> anyhow::Result<hq_bench_format::ModuleBytes> {
    const TRIPLE: &str = "wasm32-unknown-unknown";
    let module_build = |small: bool, args: &[&str]| -> anyhow::Result<std::path::PathBuf> {
        let dir = format!(
            "wasm-size-{}{}",
            build.class,
            if small { "-small" } else { "" }
        );
        let target = crate::workspace_root()
            .join("target/bench-matrix-build")
            .join(dir);
        cmd!(
            sh,
            "{CARGO} build -q -p hq-wasm-size --release --target {TRIPLE} {args...}"
        )
        .env("CARGO_TARGET_DIR", &target)
        .env("RUSTFLAGS", build.rustflags())
        .env("CARGO_PROFILE_RELEASE_DEBUG", "0")
        .env("CARGO_PROFILE_RELEASE_STRIP", "debuginfo")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .run()
        .context("building hq-wasm-size")?;
        Ok(target.join(TRIPLE).join("release"))
    };
    let size = |module: std::path::PathBuf| -> anyhow::Result<u64> {
        Ok(std::fs::metadata(&module)
            .with_context(|| format!("no {}", module.display()))?
            .len())
    };
    let peers = [
        ("shakmaty", "peer_shakmaty"),
        ("cozy-chess", "peer_cozy_chess"),
        ("chess", "peer_chess"),
    ];
    let peers = if with_peers { &peers[..] } else { &[] };
    let mut args = vec!["--lib"];
    for &(_, example) in peers {
        args.extend(["--example", example]);
    }
    let out = module_build(false, &args)?;
    let default = size(out.join("hq_wasm_size.wasm"))?;
    let small_tables = size(
        module_build(true, &["--lib", "--features", "hq/small-tables"])?.join("hq_wasm_size.wasm"),
    )?;
    let mut sizes = std::collections::BTreeMap::new();
    for &(peer, example) in peers {
        sizes.insert(
            peer.to_owned(),
            size(out.join("examples").join(format!("{example}.wasm")))?,
        );
    }
    println!(
        "bench-matrix: wasm module calling queen_attacks: {default} bytes, {small_tables} with \
         small-tables; the peers' {sizes:?}"
    );
    Ok(hq_bench_format::ModuleBytes {
        default,
        small_tables,
        peers: sizes,
    })
}

/// `hq-bench-matrix wasm-size`'s options.
#[derive(clap::Args)]
pub struct WasmSizeArgs {
    /// Fail where the `small-tables` module is larger than this many bytes.
    #[arg(long)]
    limit: Option<u64>,
    /// Leave out the peers' modules.
    #[arg(long)]
    no_peers: bool,
}

/// The module sizes of the portable wasm32 build (what `--wasm` records),
/// the `small-tables` one held to `--limit`: `cargo xtask test`'s wasm
/// module size step.
pub fn wasm_size(args: &WasmSizeArgs) -> anyhow::Result<()> {
    let sizes = wasm_module_bytes(&crate::sh()?, &WASM_BUILDS[0], !args.no_peers)?;
    if let Some(limit) = args.limit {
        ensure!(
            sizes.small_tables <= limit,
            "the small-tables wasm module is {} bytes, over the {limit}-byte limit",
            sizes.small_tables
        );
        println!("ok: the small-tables wasm module is within {limit} bytes");
    }
    Ok(())
}

/// `node --version`, as a run records its runtime (`node v20.19.2`).
fn node_version(sh: &Shell) -> anyhow::Result<String> {
    let version = cmd!(sh, "node --version")
        .quiet()
        .read()
        .context("--wasm runs the bench binary under Node: `node --version` failed")?;
    Ok(format!("node {}", version.trim()))
}

impl Args {
    /// The sampling of the mode, with the options' overrides. The default
    /// spends about as long timing as the earlier 15 rounds in one process
    /// did, spread over 6 processes; `--full` about three times that.
    pub fn sampling(&self) -> Sampling {
        let base = match (self.quick, self.full) {
            (true, _) => Sampling {
                processes: 2,
                rounds: 2,
                sample_us: 20,
                perft_processes: 2,
                perft_rounds: 1,
                resample_seconds: 0.0,
                perft_resample_seconds: 0.0,
                layouts: 1,
                perft_layouts: 1,
            },
            (_, true) => Sampling {
                processes: 10,
                rounds: 8,
                sample_us: 1500,
                perft_processes: 8,
                perft_rounds: 2,
                resample_seconds: 300.0,
                perft_resample_seconds: 150.0,
                // One per process (below).
                layouts: 0,
                perft_layouts: 4,
            },
            _ => Sampling {
                processes: 6,
                rounds: 6,
                sample_us: 1000,
                perft_processes: 6,
                perft_rounds: 1,
                resample_seconds: 40.0,
                perft_resample_seconds: 30.0,
                // One per process (below).
                layouts: 0,
                perft_layouts: 1,
            },
        };
        let processes = self.processes.unwrap_or(base.processes).max(1);
        Sampling {
            processes,
            // One layout per process (`--quick`: one).
            layouts: if self.quick { base.layouts } else { processes },
            rounds: self.rounds.unwrap_or(base.rounds).max(1),
            resample_seconds: self.resample_seconds.unwrap_or(base.resample_seconds),
            perft_resample_seconds: self
                .resample_seconds
                .map_or(base.perft_resample_seconds, |s| s * 0.75),
            ..base
        }
    }

    /// Whether configuration `name` runs: `--only`; else the default run
    /// has the builds its figures need (runtime, native, no-std), `--full` every
    /// one, `--quick` (a pipeline check) the runtime build.
    fn selects(&self, name: &str) -> bool {
        match name {
            _ if !self.only.is_empty() => self.only.iter().any(|o| o == name),
            "runtime" => true,
            "native" | "no-std" => !self.quick,
            _ => self.full,
        }
    }
}

/// Where `cargo xtask bench-matrix [--quick]` writes on this CPU: the
/// committed `benches/results/<cpu-id>`, or for a pipeline check
/// `target/bench-matrix/<cpu-id>-quick` (never over real figures).
pub fn output_dir(quick: bool) -> PathBuf {
    output_dir_of(quick, &cpu::detect().id)
}

/// [`output_dir`] of the run `id`.
fn output_dir_of(quick: bool, id: &str) -> PathBuf {
    let root = crate::workspace_root();
    match quick {
        true => root.join(format!("target/bench-matrix/{id}-quick")),
        false => root.join(format!("benches/results/{id}")),
    }
}

/// The build configurations, each a bench binary of `hq-benches`.
fn configs(bmi2: bool) -> Vec<ConfigRun> {
    let config = |name: String, description: String, rustflags: &str, args: &str| ConfigRun {
        name,
        description,
        rustflags: rustflags.to_owned(),
        cargo_args: args.split_whitespace().map(str::to_owned).collect(),
        ..ConfigRun::default()
    };
    let cozy = if bmi2 {
        " --features hq-benches/cozy-chess-pext"
    } else {
        ""
    };
    let native = format!("--bench attacks{cozy}");
    let mut out = vec![
        config(
            "runtime".into(),
            "default flags: backends through their tokens, facade with run-time dispatch, references, peers".into(),
            "",
            "--bench attacks",
        ),
        config(
            "native".into(),
            "-C target-cpu=native: static selection, peers' BMI2 variants".into(),
            "-C target-cpu=native",
            &native,
        ),
        // Fat LTO and one codegen unit, as an engine's release build: the
        // engine-shaped loops, their own target dir (no rebuild of the others).
        config(
            "runtime-lto".into(),
            "fat LTO, one codegen unit: the engine-shaped loops as an engine's release build compiles them".into(),
            "",
            "--bench engine --config profile.bench.lto=\"fat\" --config profile.bench.codegen-units=1",
        ),
        // One build cannot hold shakmaty with and without its `magics` feature.
        config(
            "shakmaty-hq".into(),
            "shakmaty without its magics feature (Hyperbola Quintessence), beside PEXT".into(),
            "",
            "--bench shakmaty_hq --no-default-features --features facade-std",
        ),
        // The facade a `no_std` engine links on the x86-64 baseline (or any
        // target): no run-time detection, its plan fixed at compile time.
        config(
            "no-std".into(),
            "the facade without std: its plan fixed at compile time for the build's target features, beside the backends and peers".into(),
            "",
            "--bench attacks --no-default-features --features shakmaty-magics",
        ),
    ];
    for &backend in hq::Backend::all() {
        let (name, feature) = (backend.name(), format!("hq/{}", backend.force_feature()));
        let description = format!("facade forced to {name} (feature {feature}), beside PEXT");
        let args = format!("--bench facade --features {feature}");
        let skip_reason = backend.check_supported().err().map(|e| e.to_string());
        out.push(ConfigRun {
            skip_reason: skip_reason.clone(),
            ..config(forced_config_name(name, None), description, "", &args)
        });
        // The build a user makes with a forced SIMD backend: the whole
        // program at its backend's level, where the free functions inline
        // the Rust kernels (`--full`).
        if let Some((target, rustflags)) = forced_at_level(backend) {
            let description = format!(
                "facade forced to {name} (feature {feature}), the whole build at its level ({rustflags})"
            );
            out.push(ConfigRun {
                skip_reason,
                ..config(
                    forced_config_name(name, Some(target)),
                    description,
                    &rustflags,
                    &args,
                )
            });
        }
    }
    out
}

/// The build a user makes with `backend` forced, for the x86-64 backends
/// of a named level: its `-C target-cpu`, and the flags `hq::selection()`
/// gives for the level (for `avx512`, x86-64-v4 with the level's Ice Lake
/// extensions, GFNI among them: without them its kernels would not inline).
fn forced_at_level(backend: hq::Backend) -> Option<(&'static str, String)> {
    use hq::cpu::Level;
    let (target, level) = match backend {
        hq::Backend::Avx2 | hq::Backend::Pext => ("x86-64-v3", Level::X86V3),
        hq::Backend::Avx512 => ("x86-64-v4", Level::X86V4),
        _ => return None,
    };
    Some((target, hq::unstable::level_flags(level).to_owned()))
}

/// A forced build's configuration name: `force-<backend>`, and
/// `force-<backend>@<target-cpu>` for one compiled at that level
/// ([`hq_bench_format::forced_backend`] reads it back).
fn forced_config_name(backend: &str, target: Option<&str>) -> String {
    match target {
        None => format!("force-{backend}"),
        Some(target) => format!("force-{backend}@{target}"),
    }
}

/// What the perft example and the calibration need from a build: the
/// bench build of the same flags makes them too (one compile of the
/// crates they share).
#[derive(Clone, Copy, PartialEq)]
enum Extras {
    /// The bench binary alone.
    None,
    /// With the perft example (and its board options: `--full`).
    Perft { board_options: bool },
    /// With the perft example and `hq-info`.
    PerftAndInfo { board_options: bool },
}

/// `cmd` (a build of a bench binary) building the perft example too. The
/// timed builds leave out hq-chess's default `runners` (its per-backend
/// perft runners, most of its library's build): every selected package
/// loses its defaults, so the bench's come back by name (`bench_defaults`).
/// The quick build's selection ([`QUICK_SELECTION`]) has the example's
/// package and feature already.
fn with_perft(cmd: Cmd<'_>, board_options: bool, bench_defaults: bool, quick: bool) -> Cmd<'_> {
    let cmd = cmd.args(["--example", "peers"]);
    if quick {
        return cmd;
    }
    let features = match board_options {
        true => "hq-chess/peers-board-options",
        false => "hq-chess/peers",
    };
    let cmd = cmd
        .args(["-p", "hq-chess", "--no-default-features"])
        .args(["--features", features]);
    // `--no-default-features` applies to every package named: the bench's
    // defaults again, unless its configuration leaves them out.
    match bench_defaults {
        true => cmd.args(["--features", "hq-benches/default"]),
        false => cmd,
    }
}

/// The quick build's packages and features: those of the workspace tests
/// (`cargo xtask test`'s `WORKSPACE_SELECTION`; an xtask test keeps the two
/// equal). Cargo unifies each crate's features over the packages a command
/// selects, so only the same selection resolves every crate alike and
/// reuses what the workspace tests compiled: the quick run then compiles
/// its bench binary alone, where its own selection (`-p hq-benches -p
/// hq-chess -p hq-info`) compiled most of its crates again.
const QUICK_SELECTION: [&str; 3] = ["--workspace", "--features", "hq-chess/peers"];

/// The `cargo build` of `run`'s bench binary, with `extras`.
fn build_command<'a>(
    sh: &'a Shell,
    run: &ConfigRun,
    extras: Extras,
    quick: bool,
    linker: Option<&str>,
) -> Cmd<'a> {
    let args = &run.cargo_args;
    // A pipeline check: the quick run builds in the test profile (opt-level
    // 1), into the workspace's own target directory, with the workspace's
    // flags and the workspace tests' selection. Its rows are checked against
    // the oracle and its assembly check runs, on code that is not the timed
    // runs': those check their own.
    // A build for another target (`--wasm`) or without the bench's default
    // features (`no-std`) shares nothing with the workspace tests' builds:
    // its own selection, in the test profile when quick.
    let bench_defaults = !args.iter().any(|a| a == "--no-default-features");
    let own_selection = !bench_defaults || args.iter().any(|a| a == "--target");
    let mut cmd = match (quick, own_selection) {
        (true, false) => cmd!(
            sh,
            "{CARGO} build --profile test {QUICK_SELECTION...} {args...}"
        ),
        (true, true) => cmd!(sh, "{CARGO} build --profile test -p hq-benches {args...}"),
        (false, _) => cmd!(sh, "{CARGO} build --profile bench -p hq-benches {args...}"),
    };
    let quick = quick && !own_selection;
    if let Some(linker) = linker {
        cmd = cmd.args(["--config", linker]);
    }
    match extras {
        Extras::None => {}
        Extras::Perft { board_options } => {
            cmd = with_perft(cmd, board_options, bench_defaults, quick);
        }
        Extras::PerftAndInfo { board_options } => {
            cmd = with_perft(cmd, board_options, bench_defaults, quick);
            // Target flags select across every package named.
            let info = ["--bin", "hq-info"];
            cmd = match quick {
                true => cmd.args(info),
                false => cmd.args(["-p", "hq-info"]).args(info),
            };
        }
    }
    if quick {
        return cmd;
    }
    let mut cmd = build_env(cmd, &run.rustflags);
    let dir = crate::workspace_root().join("target/bench-matrix-build");
    if args.iter().any(|a| a.contains("lto")) {
        cmd = cmd.env("CARGO_TARGET_DIR", dir.join("lto"));
    }
    cmd
}

/// A configuration being measured: its binaries and samples so far.
struct Measuring {
    run: ConfigRun,
    /// The binaries its processes take in turn (its layouts) and their
    /// layout seeds.
    binaries: Layouts,
    /// `<piece>/<workload>/<row>` -> (lookups per iteration, samples).
    cells: BTreeMap<String, (u64, Vec<ProcessSamples>)>,
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> anyhow::Result<T> {
    let context = || format!("the bench wrote no readable {}", path.display());
    serde_json::from_str(&std::fs::read_to_string(path).with_context(context)?)
        .with_context(context)
}

/// Runs one process of `m`'s bench binary; adds its samples unless it ran
/// under heavy steal. Whether they were added.
fn run_process(
    m: &mut Measuring,
    raw: &Path,
    sampling: &Sampling,
    seeds: &mut Seeds,
    stage: &str,
) -> anyhow::Result<bool> {
    let id = m.run.processes.len() as u32;
    let (exe, layout) = m.binaries[id as usize % m.binaries.len()].clone();
    let dir = raw.join(&m.run.name);
    std::fs::create_dir_all(&dir)?;
    let (meta_path, cells_path) = (
        dir.join(format!("meta-{id}.json")),
        dir.join(format!("cells-{id}.json")),
    );
    let seed = seeds.next();
    let path = |p: &Path| p.display().to_string();
    let mut env = vec![
        (
            "HQ_BENCH_ROUNDS".to_owned(),
            format!("{},{}", sampling.rounds, sampling.sample_us),
        ),
        ("HQ_BENCH_SEED".to_owned(), seed.to_string()),
        ("HQ_BENCH_OUT".to_owned(), path(&cells_path)),
        ("HQ_BENCH_META".to_owned(), path(&meta_path)),
    ];
    let record = ProcessRecord {
        id,
        seed,
        layout,
        rounds: sampling.rounds,
        ..ProcessRecord::default()
    };
    // A wasm module runs under Node's WASI, with the output directory
    // opened to it at its own path.
    let (runner, args) = match exe.extension().is_some_and(|e| e == "wasm") {
        true => {
            env.push(("HQ_WASI_DIRS".to_owned(), path(&dir)));
            let wrapper = crate::workspace_root().join("xtask/wasi-run.mjs");
            let quiet = "--no-warnings".to_owned(); // WASI's "experimental" notice
            (
                PathBuf::from("node"),
                vec![quiet, path(&wrapper), path(&exe)],
            )
        }
        false => (exe.clone(), Vec::new()),
    };
    let start = Start {
        exe: &runner,
        args,
        dir: &crate::workspace_root().join("benches"),
        env,
        record,
        max_pad: 4096,
    };
    let mut record = process::run(start, seeds, |line| {
        if let Some(progress) = line.strip_prefix("hq-bench: ")
            && !progress.starts_with("round ")
        {
            println!("{stage} {progress}");
        }
    })
    .with_context(|| format!("a process of {} failed", m.run.name))?;
    let meta: BenchMeta = read_json(&meta_path)?;
    record.huge_pages = meta.huge_pages;
    record.position_check = meta.position_check.clone();
    let added = record.excluded.is_none();
    println!("{stage} process {id}: {}", record.summary());
    m.run.run_seconds += record.seconds;
    m.run.processes.push(record);
    if m.run.meta.is_none() {
        m.run.meta = Some(meta);
    }
    if added {
        let cells: Vec<TimedCell> = read_json(&cells_path)?;
        for c in cells {
            let entry = m.cells.entry(c.cell).or_insert((c.elements, Vec::new()));
            let rounds = c.per_iter.into_iter().map(significant).collect();
            entry.1.push(ProcessSamples(id, rounds));
        }
    }
    Ok(added)
}

/// Now, UTC, RFC 3339.
fn utc_now() -> String {
    let now = time::OffsetDateTime::now_utc();
    let now = now.replace_nanosecond(0).unwrap_or(now);
    let text = now.format(&time::format_description::well_known::Rfc3339);
    text.unwrap_or_else(|_| "unknown".into())
}

/// Writes `results`' outputs (results, samples, Markdown, charts) into a
/// temporary directory beside `out`, checks them, then puts it in `out`'s
/// place: an interrupted run leaves the previous outputs whole.
fn write_outputs(results: &Results, out: &Path) -> anyhow::Result<()> {
    let name = out.file_name().unwrap_or_default().to_string_lossy();
    let parent = out.parent().context("the output directory has no parent")?;
    std::fs::create_dir_all(parent)?;
    let staging = parent.join(format!(".{name}.{}.tmp", std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging)?;
    results.save(&staging).map_err(anyhow::Error::msg)?;
    report::write_single(results, &staging)?;
    check_outputs(&staging)?;
    let old = parent.join(format!(".{name}.{}.old", std::process::id()));
    if out.exists() {
        std::fs::rename(out, &old)?;
    }
    std::fs::rename(&staging, out)?;
    let _ = std::fs::remove_dir_all(&old);
    Ok(())
}

/// The task.
pub fn run(opts: &Args) -> anyhow::Result<()> {
    let (sh, root) = (crate::sh()?, crate::workspace_root());
    if let Some(dir) = &opts.check {
        let dir = dir.clone().unwrap_or_else(|| output_dir(opts.quick));
        check_outputs(&dir)?;
        let dir = dir.display();
        println!("bench-matrix: the outputs in {dir} exist, parse and agree");
        return Ok(());
    }
    if let [a, b] = &opts.compare[..] {
        let out = opts.out.clone();
        let out = out.unwrap_or(root.join("target/bench-matrix/compare.md"));
        return crate::compare::run(a, b, &out);
    }
    if !opts.merge.is_empty() {
        let mut runs = Vec::new();
        for dir in &opts.merge {
            runs.push((
                dir.display().to_string(),
                Results::load(dir).map_err(anyhow::Error::msg)?,
            ));
        }
        let out = opts.out.clone();
        return report::write_merged(
            &runs,
            &out.unwrap_or(root.join("target/bench-matrix/merged")),
        );
    }

    if opts.wasm {
        let runtime = node_version(&sh)?;
        for build in &WASM_BUILDS {
            measure(opts, Some((build, &runtime)))?;
        }
        return Ok(());
    }
    measure(opts, None)
}

/// One run: this CPU's builds, or (`wasm`) one wasm32 build under a
/// runtime (its version given).
fn measure(opts: &Args, wasm: Option<(&WasmBuild, &str)>) -> anyhow::Result<()> {
    let (sh, root) = (crate::sh()?, crate::workspace_root());
    let (started, date, cpu) = (Instant::now(), utc_now(), cpu::detect());
    let target = match wasm {
        None => None,
        Some((build, runtime)) => Some(hq_bench_format::TargetRun {
            triple: WASM_TRIPLE.to_owned(),
            features: build.features.iter().map(|f| f.to_string()).collect(),
            runtime: runtime.to_owned(),
            class: build.class.to_owned(),
            module_bytes: Some(wasm_module_bytes(&sh, build, true)?),
        }),
    };
    let id = target
        .as_ref()
        .map_or(cpu.id.clone(), |t| t.run_id(&cpu.id));
    // The commit the run builds, read before the builds: a file edited
    // while the benches run (a quarter of an hour) is not in them.
    let git_commit = crate::git_commit();
    println!("bench-matrix: CPU {}\nbench-matrix: id {id}", cpu.summary(),);
    let out = match (&opts.out, &target) {
        (Some(out), None) => out.clone(),
        (Some(out), Some(_)) => out.join(&id),
        (None, _) => output_dir_of(opts.quick, &id),
    };
    // The bench binaries' raw output (never committed).
    let raw = root
        .join("target/bench-matrix/raw")
        .join(out.file_name().unwrap_or_default());
    let _ = std::fs::remove_dir_all(&raw);
    let sampling = opts.sampling();
    let seed = opts.seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        now.map_or(1, |d| d.as_nanos() as u64)
    });
    let mut seeds = Seeds::new(seed);
    let statistic = results::statistic(&sampling, seed);
    let mut clock = Clock::default();

    let all = match wasm {
        Some((build, runtime)) => vec![build.config(runtime)],
        None => configs(cpu.has("bmi2")),
    };
    let runs: Vec<ConfigRun> = all
        .iter()
        .filter(|c| opts.selects(&c.name))
        .cloned()
        .collect();
    if runs.is_empty() {
        let names: Vec<&str> = all.iter().map(|c| c.name.as_str()).collect();
        bail!(
            "--only matches no configuration; names: {}",
            names.join(", ")
        );
    }
    // A wasm32 build has no perft comparison yet, and fixes its plan at
    // compile time (nothing to calibrate).
    let perft_wanted = !opts.no_perft && wasm.is_none();
    let calibration_wanted = !opts.no_calibration && wasm.is_none();

    // Every build links through the layouts' linker where layouts are taken
    // (the same linker for every build: none is linked again for it).
    let linker = match sampling.layouts > 1 && wasm.is_none() {
        true => link_in_order(&root.join("target/bench-matrix"))?,
        false => None,
    };
    // Build: one cargo build per configuration, the runtime build also
    // making the perft example and hq-info, the native build the example.
    let (mut measuring, mut skipped) = (Vec::new(), Vec::new());
    let mut perft_exes: Vec<(String, Layouts)> = Vec::new();
    let mut hq_info = None;
    let runnable = runs.iter().filter(|c| c.skip_reason.is_none()).count();
    for (k, mut run) in runs.into_iter().filter(|_| true).enumerate() {
        if let Some(why) = &run.skip_reason {
            println!("\nbench-matrix: SKIPPED {}: {why}", run.name);
            skipped.push(run);
            continue;
        }
        let stage = format!("[build {}/{runnable} {}]", k + 1 - skipped.len(), run.name);
        let board_options = opts.full;
        let extras = match (run.name.as_str(), perft_wanted) {
            _ if wasm.is_some() => Extras::None,
            ("runtime", true) => Extras::PerftAndInfo { board_options },
            ("runtime", false) => Extras::PerftAndInfo {
                board_options: false,
            },
            ("native", true) => Extras::Perft {
                board_options: false,
            },
            _ => Extras::None,
        };
        let cmd = build_command(&sh, &run, extras, opts.quick, linker.as_deref());
        println!(
            "\n{stage} {:.0} s elapsed: {}",
            started.elapsed().as_secs_f64(),
            crate::shown(&cmd)
        );
        let since = Instant::now();
        let exes = build(cmd, &run.name)?;
        run.build_seconds = since.elapsed().as_secs_f64();
        clock.done(&format!("build {}", run.name), since);
        let bench = run
            .cargo_args
            .iter()
            .skip_while(|a| *a != "--bench")
            .nth(1)
            .cloned()
            .context("a configuration names its bench")?;
        let exe = exes
            .get(&bench)
            .with_context(|| format!("the build of {} made no {bench} binary", run.name))?
            .clone();
        let report = match wasm {
            Some(_) => None,
            None => asm_check::check_binary(&exe)?,
        };
        match report {
            Some(r) => println!(
                "{stage} single-lookup loops of {bench} are one lookup at a time: {} functions \
                 ({} table lookups), {} instructions, no gathers",
                r.functions, r.table_functions, r.instructions
            ),
            None => println!("{stage} asm check of {bench}: SKIPPED, not x86-64 (iced: x86 only)"),
        }
        if let Some(peers) = exes.get("peers")
            && perft_wanted
        {
            let rebuild = |seed: u64| {
                let cmd = build_command(&sh, &run, extras, opts.quick, linker.as_deref());
                build(in_layout(cmd, seed), "a perft layout")
            };
            let since = Instant::now();
            let n = sampling.perft_layouts;
            let binaries =
                perft::layouts(&run.name, peers, n, linker.is_some(), &mut seeds, rebuild)?;
            if binaries.len() > 1 {
                clock.done(
                    &format!("link {n} layouts of the {} perft", run.name),
                    since,
                );
            }
            perft_exes.push((run.name.clone(), binaries));
        }
        if let Some(info) = exes.get("hq-info") {
            hq_info = Some(info.clone());
        }
        // Fat LTO links the whole program again: one layout.
        let lto = run.cargo_args.iter().any(|a| a.contains("lto"));
        let binaries = match sampling.layouts {
            n if n > 1 && !lto && linker.is_some() => {
                let since = Instant::now();
                let rebuild = |seed: u64| {
                    let cmd = build_command(&sh, &run, extras, opts.quick, linker.as_deref());
                    build(in_layout(cmd, seed), "a layout")
                };
                let source = root.join(format!("benches/benches/{bench}.rs"));
                let out = layouts(&run.name, &bench, &source, &exe, n, &mut seeds, rebuild)?;
                clock.done(&format!("link {} layouts of {}", n, run.name), since);
                out
            }
            _ => vec![(exe, None)],
        };
        measuring.push(Measuring {
            run,
            binaries,
            cells: BTreeMap::new(),
        });
    }
    if perft_wanted && opts.full && cfg!(target_arch = "x86_64") {
        let since = Instant::now();
        match perft::build_v3(&sh, linker.as_deref(), &sampling, &mut seeds)? {
            Some(binaries) => perft_exes.push(("x86-64-v3".into(), binaries)),
            None => {
                println!("\n[perft] SKIPPED the x86-64-v3 hash perft: this CPU lacks the level")
            }
        }
        clock.done("build x86-64-v3 perft", since);
    }

    // Measure: the processes of every build interleaved, so that a slow
    // phase of the machine spreads over all of them.
    let since = Instant::now();
    for k in 0..sampling.processes {
        for m in &mut measuring {
            let stage = format!("[{} {}/{}]", m.run.name, k + 1, sampling.processes);
            let mut retakes = 0;
            while !run_process(m, &raw, &sampling, &mut seeds, &stage)? && retakes < 2 {
                retakes += 1;
            }
        }
    }
    clock.done("bench processes", since);
    // Deciding cells still wide: more processes of their build, within the cap.
    let since = Instant::now();
    for m in &mut measuring {
        loop {
            let wide = results::wide_deciding_cells(&m.run, &m.cells);
            let spent = since.elapsed().as_secs_f64();
            let per_process = m.run.run_seconds / m.run.processes.len().max(1) as f64;
            if wide.is_empty() || spent + per_process > sampling.resample_seconds {
                if !wide.is_empty() {
                    println!(
                        "[{}] {} deciding cells still wider than ±3 % (time cap {:.0} s): {}",
                        m.run.name,
                        wide.len(),
                        sampling.resample_seconds,
                        wide.iter().take(6).cloned().collect::<Vec<_>>().join(", ")
                    );
                }
                break;
            }
            let n = m.run.processes.len();
            let stage = format!("[{} resample {}]", m.run.name, n + 1);
            println!(
                "{stage} {} deciding cells wider than ±3 %, e.g. {}",
                wide.len(),
                wide[0]
            );
            run_process(m, &raw, &sampling, &mut seeds, &stage)?;
        }
    }
    clock.done("resampling wide deciding cells", since);

    let mut figures = Vec::new();
    let mut configs = Vec::new();
    let mut aa_check = None;
    for m in measuring {
        let mut new = results::figures(&m.run.name, &m.cells)
            .with_context(|| format!("the cells of {}", m.run.name))?;
        results::mark_unresolved(&m.run, &mut new, sampling.resample_seconds);
        if opts.full && m.run.name == "runtime" && m.binaries.len() >= 2 {
            let pair = [m.binaries[0].1, m.binaries[1].1].map(|s| s.unwrap_or(0));
            aa_check = Some(AaCheck {
                layouts: pair,
                comparison: crate::compare::layouts(&m.run, &new, pair),
            });
        }
        figures.extend(new);
        configs.push(m.run);
    }
    configs.extend(skipped);

    let (perft, perft_note, perft_builds) = match perft_wanted {
        false => (
            Vec::new(),
            Some("Perft skipped (--no-perft).".to_owned()),
            Vec::new(),
        ),
        true => perft::run(&perft_exes, &sampling, opts.full, &mut seeds, &mut clock)?,
    };
    let calibration = match (calibration_wanted, &hq_info) {
        (true, Some(exe)) => {
            let since = Instant::now();
            let starts = calibration::run(&sh, exe, opts.quick)?;
            clock.done("calibration", since);
            Some(starts)
        }
        _ => None,
    };
    let read = |c: Cmd| c.quiet().ignore_stderr().read().unwrap_or("unknown".into());
    let mut results = Results {
        schema: SCHEMA,
        quick: opts.quick,
        cpu,
        rustc: read(cmd!(sh, "rustc --version")),
        git_commit,
        date,
        total_seconds: 0.0,
        statistic,
        configs,
        figures,
        perft,
        perft_note,
        calibration,
        perft_builds,
        timings: Vec::new(),
        aa_check,
        target,
    };
    ensure!(
        results.configs.iter().any(|c| c.ran()),
        "no configuration ran"
    );
    let since = Instant::now();
    results.timings = clock.timings.clone();
    results.total_seconds = started.elapsed().as_secs_f64();
    write_outputs(&results, &out)?;
    clock.done("statistics and reports", since);
    // What a user program costs to build, beside the peers: rounds of six
    // builds from empty target directories, so not in the quick run (its unit tests
    // check the programs and the report).
    if !opts.quick && opts.only.is_empty() && wasm.is_none() {
        let since = Instant::now();
        crate::adoption::write(&out, &results.cpu, &results.git_commit)?;
        clock.done("adoption cost (builds of a user program)", since);
    } else {
        println!("bench-matrix: SKIPPED the adoption cost (a quick or partial run)");
    }
    println!("\nbench-matrix: the steps' times:");
    for t in &clock.timings {
        println!("  {:>6.0} s  {}", t.seconds, t.step);
    }
    let (n, s) = (results.figures.len(), started.elapsed().as_secs_f64());
    println!(
        "bench-matrix: {n} figures in {s:.0} s; wrote {}",
        out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hq_bench_format::ProcessSamples;

    /// A run of two processes of three rounds: pext and
    /// scalar-rank-table's queen throughput (the second twice as fast) and
    /// pext's cache column.
    pub(crate) fn synthetic(quick: bool) -> Results {
        let mut r: Results = serde_json::from_str(&format!(
            r#"{{"schema": {SCHEMA}, "quick": {quick}, "rustc": "rustc", "git_commit": "abc",
            "date": "2025-01-01T00:00:00Z", "total_seconds": 1, "statistic": "median", "configs": [],
            "cpu": {{"id": "test", "vendor": "AMD", "model_name": "test", "family": 25, "model": 1,
                "stepping": 1, "features": {{"bmi2": true}}}}, "figures": [], "perft": [],
            "perft_note": null}}"#
        ))
        .unwrap();
        let meta = r#"{"mode": "run-time", "class": "test", "inputs": 4096, "checked_cases": 1,
            "choice": {"single": "pext", "batch": "avx512", "setwise": "avx512", "setwise_loop": 2},
            "rows": [{"name": "pext", "label": "pext label", "kind": "backend"},
                {"name": "scalar-rank-table", "label": "srt", "kind": "backend"}], "skipped": []}"#;
        r.configs = vec![configs(true).swap_remove(0)];
        r.configs[0].meta = Some(serde_json::from_str(meta).unwrap());
        let samples = |ns: f64| {
            (0..2)
                .map(|p| ProcessSamples(p, vec![ns * 1.5, ns, ns * 1.25]))
                .collect::<Vec<_>>()
        };
        let cells: BTreeMap<String, (u64, Vec<ProcessSamples>)> = [
            ("queen/throughput/pext", 8192.0),
            ("queen/throughput/scalar-rank-table", 4096.0),
            ("queen/cache/pext", 40960.0),
        ]
        .into_iter()
        .map(|(c, ns)| (c.to_owned(), (4096, samples(ns))))
        .collect();
        r.figures = results::figures("runtime", &cells).unwrap();
        r
    }

    #[test]
    fn a_wasm_run_is_named_and_built_for_its_class() {
        let [plain, simd] = &WASM_BUILDS;
        assert_eq!(
            (plain.rustflags(), simd.rustflags()),
            (String::new(), "-C target-feature=+simd128".to_owned())
        );
        let config = simd.config("node v20.20.2");
        assert_eq!(config.name, "runtime");
        assert!(
            config
                .cargo_args
                .windows(2)
                .any(|w| w == ["--target", WASM_TRIPLE])
        );
        let target = hq_bench_format::TargetRun {
            triple: WASM_TRIPLE.into(),
            features: vec!["simd128".into()],
            runtime: "node v20.20.2".into(),
            class: simd.class.into(),
            module_bytes: None,
        };
        assert_eq!(
            target.run_id("amd-epyc-f19-m11-s1"),
            "wasm32-simd128-node20-amd-epyc-f19-m11-s1"
        );
        // Each build's class is one the data test finds.
        for build in &WASM_BUILDS {
            let known = hq::unstable::CLASSES
                .iter()
                .chain(hq::unstable::TARGET_CLASSES);
            assert!(
                known.clone().any(|c| c.name == build.class),
                "{}",
                build.class
            );
        }
    }

    #[test]
    fn figures_are_medians_over_processes_divided_by_pext_paired() {
        let r = synthetic(false);
        let f = r
            .figure("runtime", "scalar-rank-table", "queen", "throughput")
            .unwrap();
        // The median round of each process: 1.25 ns per lookup.
        assert!((f.ns_per_lookup - 1.25).abs() < 1e-9, "{f:?}");
        assert!((f.ratio_to_pext.unwrap() - 2.0).abs() < 1e-9, "{f:?}");
        let interval = f.ratio_interval.expect("paired with pext");
        assert!(interval.half_width() < 1e-9, "every round 2x: {interval:?}");
        let pext = r.figure("runtime", "pext", "queen", "cache").unwrap();
        assert_eq!(pext.ratio_to_pext, Some(1.0));
        let empty = BTreeMap::from([("queen/cache/pext".to_owned(), (1, Vec::new()))]);
        assert!(results::figures("runtime", &empty).is_err());
        let bad = BTreeMap::from([(
            "queen/pext".to_owned(),
            (1, vec![ProcessSamples(0, vec![1.0])]),
        )]);
        assert!(results::figures("runtime", &bad).is_err());
    }

    #[test]
    fn the_sampling_and_the_configurations_follow_the_mode() {
        let full = Args {
            full: true,
            ..Args::default()
        };
        let text = results::statistic(&full.sampling(), 1);
        assert!(text.contains("10 fresh processes"), "{text}");
        let count = |a: &Args| configs(true).iter().filter(|c| a.selects(&c.name)).count();
        let quick = Args {
            quick: true,
            ..Args::default()
        };
        assert_eq!((count(&Args::default()), count(&quick)), (3, 1));
        // Every forced build, and the three at their backend's level.
        assert_eq!(count(&full), 5 + hq::Backend::all().len() + 3);
        let at_level: Vec<String> = configs(true)
            .into_iter()
            .filter(|c| c.name.contains('@'))
            .map(|c| format!("{} {}", c.name, c.rustflags))
            .collect();
        assert_eq!(
            at_level,
            [
                "force-pext@x86-64-v3 -C target-cpu=x86-64-v3",
                "force-avx512@x86-64-v4 -C target-cpu=x86-64-v4 -C target-feature=+avx512vbmi,\
                 +avx512vbmi2,+avx512bitalg,+avx512ifma,+avx512vnni,+avx512vpopcntdq,+gfni,+vaes,\
                 +vpclmulqdq",
                "force-avx2@x86-64-v3 -C target-cpu=x86-64-v3",
            ]
        );
        assert_eq!(
            count(&Args {
                only: vec!["native".into()],
                ..Args::default()
            }),
            1
        );
        assert_eq!(Args::default().sampling().processes, 6);
        // The perft examples' relinks (1-1.5 minutes each) only in --full.
        let layouts = |a: &Args| (a.sampling().layouts, a.sampling().perft_layouts);
        assert_eq!(
            [layouts(&Args::default()), layouts(&full), layouts(&quick)],
            [(6, 1), (10, 4), (1, 1)]
        );
        // Each process its own layout, whatever the count.
        let more = Args {
            processes: Some(12),
            ..Args::default()
        };
        assert_eq!(more.sampling().layouts, 12);
    }

    #[test]
    fn written_outputs_pass_the_check_and_merge() {
        let dir = tempfile::tempdir().unwrap();
        let [a, b, merged] = ["a", "b", "merged"].map(|d| dir.path().join(d));
        for (d, quick) in [(&a, false), (&b, true)] {
            let r = synthetic(quick);
            write_outputs(&r, d).unwrap();
            check_outputs(d).unwrap();
            // Written again over itself: the staging directory is gone.
            write_outputs(&r, d).unwrap();
        }
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
        let loaded = Results::load(&a).unwrap();
        assert!(loaded.has_samples());
        let runs = [("a", &a), ("b", &b)].map(|(n, d)| (n.to_owned(), Results::load(d).unwrap()));
        report::write_merged(&runs, &merged).unwrap();
        let read = |name| std::fs::read_to_string(merged.join(name)).unwrap();
        let md = read(hq_bench_format::MATRIX_MD);
        assert!(md.contains("A thr") && md.contains("B thr") && md.contains("(2.00×)"));
        assert!(read(hq_bench_format::CHART_SVG).contains("<rect"));
        // A missing chart is caught, and so is a directory without results.
        std::fs::remove_file(a.join(hq_bench_format::CHART_SVG)).unwrap();
        assert!(
            check_outputs(&a)
                .unwrap_err()
                .to_string()
                .contains("chart.svg")
        );
        assert!(check_outputs(dir.path()).is_err());
    }

    #[test]
    fn dates_are_rfc3339_and_samples_keep_five_digits() {
        let d = utc_now();
        assert!(
            d.len() == 20 && d.starts_with("20") && d.ends_with('Z') && &d[10..11] == "T",
            "{d}"
        );
        assert_eq!(significant(123.456789), 123.46);
        assert_eq!(significant(0.000123456789), 0.00012346);
        assert_eq!(significant(98765432.0), 98765000.0);
    }
}
