//! The bench matrix's data, one serde type each, shared by the program that
//! writes it and the ones that read it:
//!
//! * [`BenchMeta`]: what one bench binary run checked and timed (written by
//!   `hq-benches`' runner to `HQ_BENCH_META`, read by `cargo xtask bench-matrix`);
//! * [`Results`]: a whole matrix run, `results.json` (written by `cargo xtask
//!   bench-matrix`, read by its `--merge` and `--check`, by the README
//!   generator, and by `hq`'s test that the choice table agrees with the
//!   committed runs under `benches/results/`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

pub use hq_bench_stats::Interval;

/// The version of the `results.json` layout this crate writes: 3, every
/// cell sampled in several fresh processes, its figure the median over them
/// with an interval ([`Figure::per_process`], [`Figure::interval`]).
pub const SCHEMA: u32 = 3;
/// The layouts this crate reads: 2, runs of the earlier method (one process
/// per build, the figure its fastest round: no samples, no intervals; no
/// committed run since the Zen 5 run of 20ae59d, but users' older runs),
/// and [`SCHEMA`].
pub const SCHEMAS: [u32; 2] = [2, SCHEMA];
/// `results.json`.
pub const RESULTS_JSON: &str = "results.json";
/// The Markdown matrix.
pub const MATRIX_MD: &str = "matrix.md";
/// The bar chart of every row.
pub const CHART_SVG: &str = "chart.svg";
/// The chart of the choices: per piece and column, the class's choice, the
/// best backend and the best peer, each with its interval.
pub const CHOICE_SVG: &str = "choice.svg";
/// The row every ratio divides by: the PEXT backend (the fastest table
/// method where PEXT is fast; a reference where it is not).
pub const REFERENCE_ROW: &str = "pext";

/// The name of a backend's per-piece row ([`RowKind::PerPiece`]): the
/// backend's name and this.
pub const PER_PIECE_SUFFIX: &str = "-per-piece";
/// The suffix of a backend's [`RowKind::Inlined`] row.
pub const INLINED_SUFFIX: &str = "-inlined";

/// The backend of each entry point, by name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChoiceNames {
    /// Single lookups.
    pub single: String,
    /// Batches.
    pub batch: String,
    /// Set-wise calls.
    pub setwise: String,
    /// Set-wise calls with at most this many sliders loop over the single
    /// backend's lookups (0: never; absent in runs before it existed).
    #[serde(default)]
    pub setwise_loop: u32,
}

impl std::fmt::Display for ChoiceNames {
    /// `single / batch / set-wise`, with the set-wise loop if any.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} / {} / {}", self.single, self.batch, self.setwise)?;
        if self.setwise_loop > 0 && self.single != self.setwise {
            write!(f, " ({} up to {} sliders)", self.single, self.setwise_loop)?;
        }
        Ok(())
    }
}

/// What a row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RowKind {
    /// A backend of `hq`, through its token.
    Backend,
    /// The facade's free functions.
    Facade,
    /// A loop under `hq::with_active_backend`.
    Job,
    /// A reference method that is not a backend (Kogge-Stone, kindergarten, ...).
    Reference,
    /// Another crate.
    Peer,
    /// No lookup: the floor of the cache-pressure column.
    Floor,
    /// A backend's set-wise workloads done by a loop over its own single
    /// lookups: what its set-wise entry must not be slower than.
    PerPiece,
    /// A portable backend's token methods inlined into loops compiled at
    /// the build's own level, not its jobs' (x86-64-v3): what the free
    /// functions of a build forcing it are compared with.
    Inlined,
}

impl RowKind {
    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            RowKind::Backend => "backend",
            RowKind::Facade => "facade",
            RowKind::Job => "job",
            RowKind::Reference => "reference",
            RowKind::Peer => "peer",
            RowKind::Floor => "floor",
            RowKind::PerPiece => "per-piece",
            RowKind::Inlined => "inlined",
        }
    }
}

/// A row of a bench run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RowMeta {
    /// Criterion function id.
    pub name: String,
    /// For people.
    pub label: String,
    /// What it is.
    pub kind: RowKind,
}

/// A row that could not run, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skipped {
    /// Row name.
    pub name: String,
    /// Why (the missing CPU features).
    pub why: String,
}

/// What one bench binary run checked and will time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchMeta {
    /// How the facade chooses in this build (`run-time`, `forced`).
    pub mode: String,
    /// The facade's backend per entry point.
    pub choice: ChoiceNames,
    /// The CPU class the facade matched.
    pub class: String,
    /// Inputs per iteration.
    pub inputs: usize,
    /// Oracle cases checked before timing.
    pub checked_cases: u64,
    /// The rows, in order.
    pub rows: Vec<RowMeta>,
    /// Rows this build could not time.
    pub skipped: Vec<Skipped>,
    /// The position-bias check of a run in rounds (absent under criterion).
    #[serde(default)]
    pub position_check: Option<PositionCheck>,
    /// The facade's whole plan in its text form (`hq::Plan`; absent in runs
    /// before it was recorded).
    #[serde(default)]
    pub plan: Option<String>,
    /// The share of the cache-pressure buffer on 2 MiB pages (absent before
    /// schema 3, or where the OS does not say).
    #[serde(default)]
    pub huge_pages: Option<f64>,
    /// The seed of the rounds' orders (`HQ_BENCH_SEED`; absent before
    /// schema 3).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// One cell timed twice more in every round, once before every other entry
/// and once after all of them: if the two agree, where a row falls in a
/// round's order does not bias its figure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionCheck {
    /// `<piece>/<workload>/<row>` of the cell.
    pub cell: String,
    /// Its figure when timed first in every round, ns per iteration.
    pub first_ns: f64,
    /// Its figure when timed last in every round, ns per iteration.
    pub last_ns: f64,
}

impl PositionCheck {
    /// `last / first - 1`: the bias of the position, as a fraction.
    pub fn bias(&self) -> f64 {
        self.last_ns / self.first_ns - 1.0
    }
}

/// Who the CPU is.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Cpu {
    /// A file-name-safe identifier: the brand string slugged, with family,
    /// model and stepping (`intel-r-xeon-r-processor-f6-ma7-s1`).
    pub id: String,
    /// CPUID vendor (`Intel`, `Amd`, ...).
    pub vendor: String,
    /// CPUID brand string.
    pub model_name: String,
    /// Display family.
    pub family: u32,
    /// Display model.
    pub model: u32,
    /// Stepping.
    pub stepping: u32,
    /// Feature name -> detected.
    pub features: BTreeMap<String, bool>,
}

impl Cpu {
    /// Whether the CPU has `feature`.
    pub fn has(&self, feature: &str) -> bool {
        self.features.get(feature).copied().unwrap_or(false)
    }

    /// One line for people.
    pub fn summary(&self) -> String {
        let present: Vec<&str> = self
            .features
            .iter()
            .filter(|&(_, &on)| on)
            .map(|(f, _)| f.as_str())
            .collect();
        format!(
            "{} ({}, family {:#x} model {:#x} stepping {}) [{}]",
            self.model_name,
            self.vendor,
            self.family,
            self.model,
            self.stepping,
            present.join(" ")
        )
    }
}

/// Everything one `cargo xtask bench-matrix` run measured.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Results {
    /// [`SCHEMA`].
    pub schema: u32,
    /// Whether this was a `--quick` run (tiny samples: a pipeline check, not figures).
    pub quick: bool,
    /// The CPU.
    pub cpu: Cpu,
    /// `rustc --version`.
    pub rustc: String,
    /// `git describe --always --dirty`.
    pub git_commit: String,
    /// UTC start time, RFC 3339.
    pub date: String,
    /// Wall time of the whole run, seconds.
    pub total_seconds: f64,
    /// How each figure is derived from the samples.
    pub statistic: String,
    /// The build configurations, in run order.
    pub configs: Vec<ConfigRun>,
    /// Every figure.
    pub figures: Vec<Figure>,
    /// Perft nodes per second.
    pub perft: Vec<PerftFigure>,
    /// Why perft figures are missing, when they are.
    pub perft_note: Option<String>,
    /// `hq::calibrate` over separate process starts (absent in runs made
    /// before it existed, or with `--no-calibration`).
    #[serde(default)]
    pub calibration: Option<CalibrationStarts>,
    /// Schema 3: the perft example's processes, per build.
    #[serde(default)]
    pub perft_builds: Vec<PerftBuild>,
    /// Schema 3: how long each step took.
    #[serde(default)]
    pub timings: Vec<Timing>,
    /// Schema 3, `--full`: the A/A check of two code layouts.
    #[serde(default)]
    pub aa_check: Option<AaCheck>,
    /// The target the bench binary was built for and the runtime it ran
    /// under, where that is not this CPU natively (`--wasm`: wasm32 under
    /// Node); absent for a CPU's own run. Its `class` names the plan its decisions are checked against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<TargetRun>,
}

/// A run of the bench binary built for another target than the CPU's own
/// and run under a runtime on that CPU (`cargo xtask bench-matrix --wasm`):
/// its figures are the target's, as that runtime compiles it, on that CPU.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TargetRun {
    /// The Rust target triple (`wasm32-wasip1`).
    pub triple: String,
    /// The target features enabled at compile time (`simd128`), or none.
    pub features: Vec<String>,
    /// The runtime and its version (`node v20.19.2`).
    pub runtime: String,
    /// The name of the compile-time plan's class the build is for
    /// (`wasm32`, `wasm32-simd128`): the class its decisions are checked
    /// against.
    pub class: String,
    /// Bytes of a release module of `hq-wasm-size` (one exported function
    /// calling `hq::queen_attacks`) with the build's features, by default
    /// and with `small-tables`: what a page downloads for each plan.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module_bytes: Option<ModuleBytes>,
}

/// A wasm module's size in each table configuration ([`TargetRun`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModuleBytes {
    /// The default build (the fastest plan).
    pub default: u64,
    /// With `hq`'s `small-tables` feature.
    pub small_tables: u64,
    /// The same module on each peer's queen attacks (`shakmaty`,
    /// `cozy-chess`, `chess`), built beside the default one.
    #[serde(default)]
    pub peers: std::collections::BTreeMap<String, u64>,
}

impl TargetRun {
    /// The run's directory name: the class, the runtime's name and major
    /// version, and the CPU's id (`wasm32-simd128-node20-amd-epyc-f19-m11-s1`).
    pub fn run_id(&self, cpu_id: &str) -> String {
        let mut words = self.runtime.split_whitespace();
        let name = words.next().unwrap_or("runtime");
        let major = words
            .next()
            .map(|v| v.trim_start_matches('v'))
            .and_then(|v| v.split('.').next())
            .unwrap_or("");
        format!("{}-{name}{major}-{cpu_id}", self.class)
    }
}

/// The calibration rule a run's [`CalibrationStarts`] were made under: 2,
/// a challenger must run in half the time (`hq::calibrate`); 0 (absent),
/// the earlier rule (5 % faster, kept against what the class's runs
/// measured).
pub const CALIBRATION_RULE: u32 = 2;

/// `hq-info --calibrate` run in fresh processes: how long each calibration
/// took and which plan it chose.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CalibrationStarts {
    /// The rule they were made under ([`CALIBRATION_RULE`]; 0 before it
    /// was recorded).
    #[serde(default)]
    pub rule: u32,
    /// The commit they were made at, where it is not the run's: the stage
    /// taken again (`cargo xtask bench-matrix calibration`) after the run
    /// changed its class's plan, which a calibration starts from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// Each start's calibration time, milliseconds.
    pub milliseconds: Vec<f64>,
    /// Each start's chosen plan (`hq::Plan`'s text form).
    pub plans: Vec<String>,
}

impl CalibrationStarts {
    /// The plan most starts chose, and how many chose it.
    pub fn most_common(&self) -> Option<(&str, usize)> {
        self.plans
            .iter()
            .map(|p| (p.as_str(), self.plans.iter().filter(|q| *q == p).count()))
            .max_by_key(|&(_, n)| n)
    }

    /// The slowest start's calibration time, milliseconds.
    pub fn max_milliseconds(&self) -> f64 {
        self.milliseconds.iter().copied().fold(0.0, f64::max)
    }

    /// The median start's calibration time, milliseconds.
    pub fn median_milliseconds(&self) -> f64 {
        let mut v = self.milliseconds.clone();
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    }

    /// One sentence for people.
    pub fn summary(&self) -> String {
        let (plan, same) = self.most_common().unwrap_or(("-", 0));
        let at = self
            .commit
            .as_ref()
            .map_or(String::new(), |c| format!(", taken again at commit `{c}`"));
        format!(
            "`HQ_CALIBRATE=1` in {} fresh processes (`hq-info`{at}): median {:.2} ms, slowest \
             {:.2} ms; {same} of {} chose the same plan: `{plan}`",
            self.plans.len(),
            self.median_milliseconds(),
            self.max_milliseconds(),
            self.plans.len()
        )
    }
}

/// The backend a build configuration forces, from its name:
/// `force-<backend>` (compiled for the x86-64 baseline) or
/// `force-<backend>@<target-cpu>` (the whole build at the backend's level),
/// with that level's target if any.
///
/// ```
/// assert_eq!(hq_bench_format::forced_backend("force-avx2"), Some(("avx2", None)));
/// assert_eq!(
///     hq_bench_format::forced_backend("force-avx2@x86-64-v3"),
///     Some(("avx2", Some("x86-64-v3")))
/// );
/// assert_eq!(hq_bench_format::forced_backend("native"), None);
/// ```
pub fn forced_backend(config: &str) -> Option<(&str, Option<&str>)> {
    let forced = config.strip_prefix("force-")?;
    Some(match forced.split_once('@') {
        Some((backend, target)) => (backend, Some(target)),
        None => (forced, None),
    })
}

/// The committed full runs under `results_dir` (`benches/results`), one per
/// CPU directory with a `results.json`, in directory order (none if the
/// directory is absent; a CPU's directory may hold only the adoption report
/// of `bench-matrix adoption`); an error for a run that does not load or is
/// a `--quick` one.
pub fn committed_runs(results_dir: &std::path::Path) -> Result<Vec<Results>, String> {
    let Ok(entries) = std::fs::read_dir(results_dir) else {
        return Ok(Vec::new());
    };
    let mut dirs: Vec<_> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("results.json").is_file())
        .collect();
    dirs.sort();
    dirs.iter()
        .map(|d| {
            let r = Results::load(d)?;
            if r.quick {
                return Err(format!(
                    "{}: a --quick run is committed; commit full runs only",
                    d.display()
                ));
            }
            Ok(r)
        })
        .collect()
}

/// The matrix's columns: workload name, and its title in tables.
pub const WORKLOADS: [(&str, &str); 7] = [
    ("throughput", "throughput"),
    ("latency", "latency"),
    ("batch", "batch"),
    ("setwise-few", "set-wise 1-2"),
    ("setwise-typical", "set-wise 4-6"),
    ("setwise-many", "set-wise 10-14"),
    ("cache", "cache pressure"),
];

/// The engine-shaped loops' columns (`hq_benches::engine`): workload name,
/// and its title in tables.
pub const ENGINE_WORKLOADS: [(&str, &str); 6] = [
    ("engine-throughput", "throughput"),
    ("engine-arrays", "arrays 100k"),
    ("engine-batch", "batch"),
    ("engine-setwise-few", "set-wise 1-2"),
    ("engine-setwise-typical", "set-wise 4-6"),
    ("engine-setwise-many", "set-wise 10-14"),
];

/// One cell's samples from a run in rounds (`HQ_BENCH_OUT`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TimedCell {
    /// `<piece>/<workload>/<row>`.
    pub cell: String,
    /// Lookups per iteration.
    pub elements: u64,
    /// Time per iteration of each round's sample, ns.
    pub per_iter: Vec<f64>,
}

/// One build configuration and how its run went.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ConfigRun {
    /// Short name: `runtime`, `native`, `shakmaty-hq`, `force-<backend>`.
    pub name: String,
    /// What it measures, for people.
    pub description: String,
    /// `RUSTFLAGS` of the build.
    pub rustflags: String,
    /// The `cargo bench` arguments.
    pub cargo_args: Vec<String>,
    /// Why it did not run (a forced backend this CPU lacks), if it did not.
    pub skip_reason: Option<String>,
    /// What the bench binary reported (absent when skipped).
    pub meta: Option<BenchMeta>,
    /// Seconds spent building.
    pub build_seconds: f64,
    /// Seconds spent measuring.
    pub run_seconds: f64,
    /// The fresh processes its bench binary ran in (schema 3; empty in
    /// earlier runs, which ran it once).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub processes: Vec<ProcessRecord>,
}

/// One fresh process of a bench binary or of the perft example, how it
/// was started and the machine's state while it ran.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProcessRecord {
    /// Its number in its build (samples name it: [`ProcessSamples`]).
    pub id: u32,
    /// The seed of its order of cells or perft rows in each round.
    pub seed: u64,
    /// Bytes of environment padding it was started with (`HQ_BENCH_PAD`),
    /// which moves its initial stack: one process is one sample of memory
    /// layout (Mytkowicz et al., ASPLOS 2009).
    pub env_pad: usize,
    /// The code layout it ran: the link-order seed of its binary (0: the
    /// build's own order; `None`: not recorded).
    #[serde(default)]
    pub layout: Option<u64>,
    /// Rounds it timed.
    pub rounds: usize,
    /// Its wall time, seconds.
    pub seconds: f64,
    /// The share of the machine's CPU time the hypervisor stole while it
    /// ran (`/proc/stat`, every CPU), if the OS reports it.
    #[serde(default)]
    pub steal: Option<f64>,
    /// The clock the OS reported when it started, MHz (`cpufreq`'s
    /// current frequency, else `/proc/cpuinfo`; a virtual machine often
    /// reports the nominal clock only).
    #[serde(default)]
    pub clock_mhz: Option<f64>,
    /// The share of its 64 MiB buffer (the cache-pressure buffer, or the
    /// hash perft's table) that Linux backed with 2 MiB pages.
    #[serde(default)]
    pub huge_pages: Option<f64>,
    /// Its position check: one cell timed before and after all others in
    /// every round (bench binaries only).
    #[serde(default)]
    pub position_check: Option<PositionCheck>,
    /// Why its samples are left out of the figures (taken under heavy
    /// steal, and taken again), if they are.
    #[serde(default)]
    pub excluded: Option<String>,
}

impl ProcessRecord {
    /// `4.2 s, steal 0.1 %, huge pages 96.9 %`, and why it was left out.
    pub fn summary(&self) -> String {
        let percent =
            |share: Option<f64>| share.map_or("unknown".into(), |s| format!("{:.1} %", s * 100.0));
        let left_out = self.excluded.as_deref();
        format!(
            "{:.1} s, steal {}, huge pages {}{}",
            self.seconds,
            percent(self.steal),
            percent(self.huge_pages),
            left_out.map_or(String::new(), |why| format!(", left out: {why}"))
        )
    }
}

/// One process's samples of one figure: the process's [`ProcessRecord::id`]
/// and its rounds in order (ns per iteration for lookups, seconds per run
/// for perft). Round `r` of two figures of one process ran in the same
/// round: their ratio is paired.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProcessSamples(pub u32, pub Vec<f64>);

/// The perft example's fresh processes in one build.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct PerftBuild {
    /// The build (`runtime`, `native`, `x86-64-v3`).
    pub config: String,
    /// Its processes.
    pub processes: Vec<ProcessRecord>,
}

/// How long a step of the run took.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Timing {
    /// The step (`build runtime`, `run native`, `perft`, ...).
    pub step: String,
    /// Wall time, seconds.
    pub seconds: f64,
}

/// The A/A check (`--full`): the processes of two link orders of the
/// runtime build's bench binary (the same code), each cell of one layout
/// compared with the other's as two runs are ([`Comparison`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AaCheck {
    /// The two link-order seeds (0: the build's own order).
    pub layouts: [u64; 2],
    /// The run comparison of the two layouts' processes.
    pub comparison: Comparison,
}

/// The fewest processes a side of a [`Comparison`] needs for a cell to be
/// compared.
pub const MIN_PROCESSES_COMPARED: usize = 2;

/// Two sets of samples of the same cells compared (two runs, or two
/// layouts of one run), cell by cell.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Comparison {
    /// Cells compared (those with samples of at least
    /// [`MIN_PROCESSES_COMPARED`] processes on both sides).
    pub cells: usize,
    /// Cells on both sides left out for fewer processes than that on a
    /// side (perft rows pruned after a build's first process): one process
    /// is one sample of layout and moment, nothing to test a difference by.
    #[serde(default)]
    pub left_out: usize,
    /// The machine's common shift: the median over cells of the first
    /// side's figure over the second's (1.0: no shift). A shared machine
    /// runs faster or slower for minutes at a time, every cell alike.
    #[serde(default)]
    pub shift: f64,
    /// Cells that moved against the common shift, with the false discovery
    /// rate held at 5 % (Benjamini-Hochberg over every cell's p-value of
    /// "its ratio is the common shift").
    pub different: usize,
    /// Cells called different without allowing for the common shift (the
    /// p-value of "its ratio is 1"), the rate held likewise.
    #[serde(default)]
    pub different_unshifted: usize,
    /// Cells whose own 5 % test (against the common shift) calls them
    /// different, before the correction for multiple comparisons.
    pub different_uncorrected: usize,
    /// How many the uncorrected test calls different by chance alone
    /// where nothing differs: 5 % of the cells.
    pub expected_by_chance: f64,
    /// The median of the cells' ratio interval half-widths.
    pub median_half_width: f64,
    /// The cells called different (against the common shift), the largest
    /// departures first: `(cell, ratio of the first side over the second,
    /// with its interval)`.
    pub flagged: Vec<(String, Interval)>,
}

impl ConfigRun {
    /// Whether the configuration ran.
    pub fn ran(&self) -> bool {
        self.meta.is_some()
    }
}

/// One measured figure.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Figure {
    /// Configuration name.
    pub config: String,
    /// Row name.
    pub row: String,
    /// `queen`, `rook` or `bishop`.
    pub piece: String,
    /// The workload (`throughput`, `latency`, `batch`, `setwise`, `cache`, ...).
    pub workload: String,
    /// Lookups per benchmark iteration.
    pub lookups_per_iter: u64,
    /// Samples taken (criterion's, or one per round).
    pub samples: usize,
    /// The figure's time per iteration (see [`Results::statistic`]), ns.
    pub ns_per_iter: f64,
    /// The median sample's time per iteration, ns (for comparison).
    pub ns_per_iter_median: f64,
    /// Million lookups per second.
    pub mlookups_per_s: f64,
    /// Nanoseconds per lookup.
    pub ns_per_lookup: f64,
    /// This figure over the [`REFERENCE_ROW`] figure of the same configuration, piece and workload.
    pub ratio_to_pext: Option<f64>,
    /// The spread of the samples: their interquartile range over their
    /// median (0.03 = 3 %); in schema 3 the half-width of
    /// [`Figure::interval`]. `matrix.md` flags schema-2 cells above
    /// [`SPREAD_FLAG`].
    #[serde(default)]
    pub spread: f64,
    /// Schema 3: the 95 % interval of `mlookups_per_s` (hierarchical
    /// bootstrap over processes, then rounds).
    #[serde(default)]
    pub interval: Option<Interval>,
    /// Schema 3: the interval of `ratio_to_pext`, paired by process and
    /// round.
    #[serde(default)]
    pub ratio_interval: Option<Interval>,
    /// Why the figure decides nothing alone: a deciding cell whose interval
    /// stayed wider than ±3 % when the run's time cap for sampling it
    /// further was reached.
    #[serde(default)]
    pub unresolved: Option<String>,
    /// Schema 3: ns per iteration of every round of every process.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub per_process: Vec<ProcessSamples>,
}

impl Figure {
    /// Its key: `<config>/<row>/<piece>/<workload>`.
    pub fn key(&self) -> String {
        let (c, r, p, w) = (&self.config, &self.row, &self.piece, &self.workload);
        format!("{c}/{r}/{p}/{w}")
    }
}

/// The spread above which `matrix.md` flags a schema-2 cell as noisy.
pub const SPREAD_FLAG: f64 = 0.05;

/// Perft speed of one row on one position.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PerftFigure {
    /// Configuration name.
    pub config: String,
    /// Row name (`auto`, a backend, a board option, or a peer).
    pub row: String,
    /// Position name (`startpos`, `kiwipete`; `startpos hash`, `kiwipete
    /// hash` for the hash perft).
    pub position: String,
    /// Depth.
    pub depth: u32,
    /// Leaf nodes counted.
    pub nodes: u64,
    /// Best wall time, seconds (schema 3: the wall time at the figure's
    /// speed).
    pub seconds: f64,
    /// Million nodes per second (schema 3: the median over processes of
    /// each process's median run).
    pub mnps: f64,
    /// Schema 3: the 95 % interval of `mnps`.
    #[serde(default)]
    pub interval: Option<Interval>,
    /// As [`Figure::unresolved`].
    #[serde(default)]
    pub unresolved: Option<String>,
    /// Schema 3: seconds per run, every round of every process.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub per_process: Vec<ProcessSamples>,
}

impl PerftFigure {
    /// Its key: `perft/<config>/<row>/<position>`.
    pub fn key(&self) -> String {
        format!("perft/{}/{}/{}", self.config, self.row, self.position)
    }

    /// Whether it is the hash perft (perft with a transposition table,
    /// position `<name> hash`).
    pub fn is_hashed(&self) -> bool {
        self.position.ends_with(" hash")
    }
}

impl Results {
    /// The perft figure of `row` in build `config` on `position`, if measured.
    pub fn perft_figure(&self, config: &str, position: &str, row: &str) -> Option<&PerftFigure> {
        self.perft
            .iter()
            .find(|p| p.config == config && p.position == position && p.row == row)
    }

    /// The fastest of `rows` in build `config` on `position`.
    pub fn fastest_perft<'a>(
        &self,
        config: &str,
        position: &str,
        rows: impl IntoIterator<Item = &'a str>,
    ) -> Option<&PerftFigure> {
        rows.into_iter()
            .filter_map(|row| self.perft_figure(config, position, row))
            .max_by(|a, b| a.mnps.total_cmp(&b.mnps))
    }

    /// The builds and positions of the run's hash perft, in its order.
    pub fn hash_perfts(&self) -> Vec<(&str, &str)> {
        let mut cases = Vec::new();
        for p in self.perft.iter().filter(|p| p.is_hashed()) {
            let case = (p.config.as_str(), p.position.as_str());
            if !cases.contains(&case) {
                cases.push(case);
            }
        }
        cases
    }

    /// The figure of `config`/`row`/`piece`/`workload`, if measured.
    pub fn figure(&self, config: &str, row: &str, piece: &str, workload: &str) -> Option<&Figure> {
        self.figures.iter().find(|f| {
            f.config == config && f.row == row && f.piece == piece && f.workload == workload
        })
    }

    /// The run's id: its CPU's, or for a run on another target
    /// ([`TargetRun`]) that target's on this CPU.
    pub fn id(&self) -> String {
        match &self.target {
            None => self.cpu.id.clone(),
            Some(t) => t.run_id(&self.cpu.id),
        }
    }

    /// Whether this is a CPU's own run (not one of another target under a
    /// runtime): the runs the x86-64 classes, calibration and the README's
    /// CPU tables read.
    pub fn is_native(&self) -> bool {
        self.target.is_none()
    }

    /// Reads `dir/results.json`, of any schema in [`SCHEMAS`].
    pub fn load(dir: &Path) -> Result<Results, String> {
        let path = dir.join(RESULTS_JSON);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let results: Results = serde_json::from_str(&text)
            .map_err(|e| format!("{} does not parse: {e}", path.display()))?;
        if !SCHEMAS.contains(&results.schema) {
            return Err(format!(
                "{} has schema {}, this reader reads {SCHEMAS:?}",
                path.display(),
                results.schema
            ));
        }
        Ok(results)
    }

    /// Writes `dir/results.json`, pretty-printed for diffs but every array
    /// of numbers on one line (a figure's samples are thousands of them),
    /// through a temporary file renamed into place: an interrupted run
    /// leaves the previous file whole.
    pub fn save(&self, dir: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).map_err(|e| format!("serializing: {e}"))?;
        let text = compact_number_arrays(&text) + "\n";
        write_atomically(&dir.join(RESULTS_JSON), text.as_bytes())
    }

    /// What build `config`'s bench binary reported, if it ran.
    pub fn meta_of(&self, config: &str) -> Option<&BenchMeta> {
        let run = self.configs.iter().find(|c| c.name == config)?;
        run.meta.as_ref()
    }

    /// Whether the run has per-process samples (schema 3): its choices are
    /// made with intervals, an earlier run's with fixed ratios.
    pub fn has_samples(&self) -> bool {
        self.figures.iter().any(|f| !f.per_process.is_empty())
    }

    /// The speed of `a` over the speed of `b` (lookups per second, or set-wise
    /// calls), paired by process and round, with its interval; `None`
    /// unless both have samples.
    pub fn speed_ratio(a: &Figure, b: &Figure) -> Option<Interval> {
        let ratios = hq_bench_stats::rounds(paired_speeds(a, b));
        let seed = hq_bench_stats::seed_of(&format!("{} / {}", a.key(), b.key()));
        (!ratios.is_empty()).then(|| hq_bench_stats::bootstrap(&ratios, seed))
    }

    /// [`Results::speed_ratio`]'s paired ratios, one figure per process:
    /// the median of its rounds. Each process links its own code layout, so
    /// their spread shows whether some layouts run `a` in a slow mode.
    pub fn speed_ratio_by_process(a: &Figure, b: &Figure) -> Vec<f64> {
        let mut rounds = hq_bench_stats::rounds(paired_speeds(a, b));
        rounds
            .iter_mut()
            .map(|r| hq_bench_stats::median(r))
            .collect()
    }

    /// The perft speed of `row_a` over `row_b` in build `config`, paired by
    /// process and round, with its interval: on one position, or with
    /// `position` `None` over both hash-perft positions (the geometric mean
    /// of the two positions' ratios of each process and round). `None`
    /// without samples.
    pub fn perft_ratio(
        &self,
        config: &str,
        position: Option<&str>,
        row_a: &str,
        row_b: &str,
    ) -> Option<Interval> {
        let positions: Vec<&str> = match position {
            Some(p) => vec![p],
            None => self
                .hash_perfts()
                .into_iter()
                .filter(|(c, _)| *c == config)
                .map(|(_, p)| p)
                .collect(),
        };
        let mut per_position = Vec::new();
        for position in &positions {
            let a = self.perft_figure(config, position, row_a)?;
            let b = self.perft_figure(config, position, row_b)?;
            let to_pairs = |p: &PerftFigure| -> Vec<(u32, Vec<f64>)> {
                p.per_process.iter().map(|s| (s.0, s.1.clone())).collect()
            };
            // Same nodes: the speed ratio is b's time over a's.
            per_position.push(hq_bench_stats::paired(
                &to_pairs(a),
                &to_pairs(b),
                |x, y| y / x,
            ));
        }
        let (first, rest) = per_position.split_first()?;
        let combined: Vec<Vec<f64>> = first
            .iter()
            .filter_map(|(id, rounds)| {
                let mut logs: Vec<f64> = rounds.iter().map(|r| r.ln()).collect();
                for other in rest {
                    let (_, theirs) = other.iter().find(|(other, _)| other == id)?;
                    logs.truncate(theirs.len());
                    for (l, r) in logs.iter_mut().zip(theirs) {
                        *l += r.ln();
                    }
                }
                let n = (rest.len() + 1) as f64;
                Some(logs.iter().map(|l| (l / n).exp()).collect())
            })
            .filter(|v: &Vec<f64>| !v.is_empty())
            .collect();
        let seed =
            hq_bench_stats::seed_of(&format!("perft {config} {positions:?} {row_a} / {row_b}"));
        (!combined.is_empty()).then(|| hq_bench_stats::bootstrap(&combined, seed))
    }
}

/// `json` (pretty-printed) with every array of numbers (or of arrays of
/// numbers) on one line; arrays with a string or an object keep their
/// layout.
fn compact_number_arrays(json: &str) -> String {
    let bytes = json.as_bytes();
    // Each `[`'s matching `]`, and whether a string or an object lies between.
    let (mut stack, mut closing) = (Vec::new(), vec![None; bytes.len()]);
    let (mut in_string, mut escaped) = (false, false);
    for (i, &b) in bytes.iter().enumerate() {
        match (in_string, b) {
            (true, _) if escaped => escaped = false,
            (true, b'\\') => escaped = true,
            (true, b'"') => in_string = false,
            (true, _) => {}
            (false, b'[') => stack.push((i, false)),
            (false, b'{' | b'"') => {
                in_string = b == b'"';
                if let Some(top) = stack.last_mut() {
                    top.1 = true;
                }
            }
            (false, b']') => {
                if let Some((open, has_object)) = stack.pop() {
                    if has_object && let Some(top) = stack.last_mut() {
                        top.1 = true;
                    }
                    closing[open] = Some((i, has_object));
                }
            }
            _ => {}
        }
    }
    let mut out = String::with_capacity(json.len());
    let mut i = 0;
    while i < bytes.len() {
        if let Some((end, false)) = closing[i] {
            // Numbers only: drop the layout.
            let inner: String = json[i..=end]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join("");
            out.push_str(&inner.replace(',', ", "));
            i = end + 1;
            continue;
        }
        let next = json[i..].chars().next().expect("in bounds");
        out.push(next);
        i += next.len_utf8();
    }
    out
}

/// A figure's samples as `(process, rounds)` pairs.
fn samples(f: &Figure) -> Vec<(u32, Vec<f64>)> {
    f.per_process.iter().map(|s| (s.0, s.1.clone())).collect()
}

/// The speed of `a` over the speed of `b` in every round both have, per
/// process (the samples are ns per iteration of their lookups).
fn paired_speeds(a: &Figure, b: &Figure) -> Vec<(u32, Vec<f64>)> {
    hq_bench_stats::paired(&samples(a), &samples(b), |x, y| {
        (a.lookups_per_iter as f64 / x) / (b.lookups_per_iter as f64 / y)
    })
}

/// Writes `bytes` to `path` through a temporary file beside it, renamed
/// into place (a rename within a directory is atomic on POSIX): a reader,
/// or an interrupted run, never sees half a file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let temporary = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&temporary, bytes)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&temporary);
            format!("cannot write {}: {e}", path.display())
        })
}

pub mod decide {
    //! The matrix's choice between backends, made outside the noise: one
    //! backend replaces another only when the interval of their paired
    //! ratio clears 1, level of evidence by level (`hq_bench_stats::choose`);
    //! candidates that tie through every level go to the smallest table
    //! footprint, which competes least with an engine's transposition
    //! table and network. For runs with samples (schema 3); the data test
    //! keeps the fixed ratios for the earlier runs.

    use super::{Interval, Results};
    use std::cell::RefCell;
    use std::collections::HashMap;

    /// A backend row that may be chosen, and its table footprint in bytes.
    #[derive(Clone, Debug)]
    pub struct Candidate {
        /// The row (a backend's name).
        pub row: String,
        /// What its single lookups read from tables.
        pub footprint: usize,
    }

    /// A level of evidence.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub enum Evidence<'a> {
        /// A column of the matrix: the build, piece and workload.
        Column {
            /// The build.
            config: &'a str,
            /// The piece.
            piece: &'a str,
            /// The workload (column).
            workload: &'a str,
        },
        /// The hash perft of a build, over both positions (the geometric
        /// mean of the positions' paired ratios).
        HashPerft {
            /// The build.
            config: &'a str,
        },
    }

    impl std::fmt::Display for Evidence<'_> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            match self {
                Evidence::Column {
                    config,
                    piece,
                    workload,
                } => write!(f, "the {config} build's {piece} {workload} column"),
                Evidence::HashPerft { config } => write!(f, "the {config} build's hash perft"),
            }
        }
    }

    /// What the rule chose, and why.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Decision {
        /// The chosen row.
        pub chosen: String,
        /// The rows no other cleared through every level (the chosen one
        /// among them); one alone when a level decided.
        pub tied: Vec<String>,
        /// The level that left one row, or `None`: a tie, and the smallest
        /// footprint chose.
        pub decided_by: Option<String>,
    }

    impl std::fmt::Display for Decision {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            let tied = || {
                self.tied
                    .iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            match &self.decided_by {
                Some(kept) if kept.starts_with("a tie") => {
                    write!(f, "`{}`, {kept} ({})", self.chosen, tied())
                }
                Some(level) => write!(f, "`{}`, clear on {level}", self.chosen),
                None => write!(
                    f,
                    "`{}`, the smallest table of a tie ({})",
                    self.chosen,
                    self.tied
                        .iter()
                        .map(|t| format!("`{t}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
        }
    }

    /// The paired speed ratio `a / b` on `evidence`, with its interval.
    pub fn ratio(r: &Results, evidence: Evidence, a: &str, b: &str) -> Option<Interval> {
        match evidence {
            Evidence::Column {
                config,
                piece,
                workload,
            } => {
                let fa = r.figure(config, a, piece, workload)?;
                let fb = r.figure(config, b, piece, workload)?;
                Results::speed_ratio(fa, fb)
            }
            Evidence::HashPerft { config } => r.perft_ratio(config, None, a, b),
        }
    }

    /// Chooses among `candidates` by `levels` of evidence in order (the
    /// candidates without a figure on the first level are left out); `None`
    /// if none has one.
    pub fn decide(r: &Results, candidates: &[Candidate], levels: &[Evidence]) -> Option<Decision> {
        let first = *levels.first()?;
        let present: Vec<&Candidate> = candidates
            .iter()
            .filter(|c| {
                candidates
                    .iter()
                    .any(|o| ratio(r, first, &c.row, &o.row).is_some())
            })
            .collect();
        if present.is_empty() {
            return None;
        }
        // Each pair's interval once per level: `clears(j, i)` is the
        // interval of `i / j` seen from the other side.
        let cache: RefCell<HashMap<(usize, usize, usize), Option<Interval>>> = RefCell::default();
        let interval = |level: usize, i: usize, j: usize| {
            *cache
                .borrow_mut()
                .entry((level, i, j))
                .or_insert_with(|| ratio(r, levels[level], &present[i].row, &present[j].row))
        };
        let interval = &interval;
        // One closure type for every level: `i` clears `j` when their
        // ratio's interval lies above 1.
        let per_level: Vec<_> = (0..levels.len())
            .map(|level| {
                move |i: usize, j: usize| -> Option<bool> {
                    match i < j {
                        true => interval(level, i, j).map(|x| x.above(1.0)),
                        false => interval(level, j, i).map(|x| x.below(1.0)),
                    }
                }
            })
            .collect();
        let refs: Vec<hq_bench_stats::Evidence> = per_level
            .iter()
            .map(|c| c as hq_bench_stats::Evidence)
            .collect();
        let choice = hq_bench_stats::choose(present.len(), &refs, |i| present[i].footprint);
        Some(Decision {
            chosen: present[choice.chosen].row.clone(),
            tied: choice
                .tied
                .iter()
                .map(|&i| present[i].row.clone())
                .collect(),
            decided_by: choice.decided_by.map(|l| levels[l].to_string()),
        })
    }

    /// The set-wise columns and the slider counts of their inputs, inclusive
    /// (the bench's `Crowd`s).
    pub const SETWISE_COLUMNS: [(&str, (u32, u32)); 3] = [
        ("setwise-few", (1, 2)),
        ("setwise-typical", (4, 6)),
        ("setwise-many", (10, 14)),
    ];

    /// What runs a set-wise column's calls under a plan whose loop over
    /// single lookups goes up to some number of sliders.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum SetwiseRun {
        /// The single lookups, for every count of the column.
        Lookups,
        /// The lookups below the bound, the kernel above: the bound falls
        /// inside the column.
        Both,
        /// The set-wise kernel: the only column it is judged on (`joint`).
        Kernel,
    }

    /// What runs `workload` (one of [`SETWISE_COLUMNS`]) under a loop bound
    /// of `bound` sliders; `None` for another column.
    pub fn setwise_run(workload: &str, bound: u32) -> Option<SetwiseRun> {
        let (_, (low, high)) = SETWISE_COLUMNS.iter().find(|(w, _)| *w == workload)?;
        Some(match (bound >= *high, bound >= *low) {
            (true, _) => SetwiseRun::Lookups,
            (false, true) => SetwiseRun::Both,
            (false, false) => SetwiseRun::Kernel,
        })
    }

    /// One kernel that serves several columns (a piece's set-wise kernel
    /// serves up to three): of the rows no column clears, the smallest
    /// table; the rest are its ties. `None` if every row is cleared in
    /// some column. Column by column the tie-break could name two kernels
    /// (Zen 3's rooks: `ssse3` of a tie with `avx2` for 1-2 sliders,
    /// `avx2` clearly beyond).
    pub fn joint(
        columns: &[&Decision],
        footprint: impl Fn(&str) -> Option<usize>,
    ) -> Option<Decision> {
        let (first, rest) = columns.split_first()?;
        // Each column's `tied` holds its choice: the rows it does not clear.
        let uncleared: Vec<String> = first
            .tied
            .iter()
            .filter(|row| rest.iter().all(|d| d.tied.contains(row)))
            .cloned()
            .collect();
        let chosen = uncleared
            .iter()
            .min_by_key(|row| footprint(row).unwrap_or(usize::MAX))?
            .clone();
        let decided_by = match uncleared.len() {
            1 => Some(format!("its {} columns together", columns.len())),
            _ => None,
        };
        Some(Decision {
            chosen,
            tied: uncleared,
            decided_by,
        })
    }

    /// The matrix's decided cells: an entry point (`single`, `batch`,
    /// `latency`, `setwise`), a piece, and the column the matrix shows it
    /// in (set-wise calls: each of their three columns).
    pub const ENTRIES: [(&str, &str); 6] = [
        ("single", "throughput"),
        ("latency", "latency"),
        ("batch", "batch"),
        ("setwise", "setwise-few"),
        ("setwise", "setwise-typical"),
        ("setwise", "setwise-many"),
    ];

    /// The evidence that decides `entry`'s cell for `piece` in column
    /// `workload`, in order. Single lookups: the runtime build's hash perft
    /// (the search shape engines run: lookups between probes of a table that
    /// misses every cache), then the engine-shaped loop's throughput, then
    /// the tie-break; where the run has no hash perft, the throughput
    /// column. The others: their own column of the runtime build.
    pub fn levels<'a>(
        r: &Results,
        entry: &str,
        piece: &'a str,
        workload: &'a str,
    ) -> Vec<Evidence<'a>> {
        let column = |workload| Evidence::Column {
            config: "runtime",
            piece,
            workload,
        };
        let hashed = r.hash_perfts().iter().any(|(c, _)| *c == "runtime");
        match (entry, hashed) {
            ("single", true) => vec![
                Evidence::HashPerft { config: "runtime" },
                column("engine-throughput"),
            ],
            _ => vec![column(workload)],
        }
    }

    /// A decided cell.
    #[derive(Clone, Debug)]
    pub struct CellDecision {
        /// The entry point.
        pub entry: &'static str,
        /// The piece.
        pub piece: &'static str,
        /// The column.
        pub workload: &'static str,
        /// What the rule chose.
        pub decision: Decision,
    }

    /// Every cell's decision in a run with samples, among the runtime
    /// build's backend rows (`footprint` gives each one's table bytes;
    /// rows it does not know are left out). `keyed` names, per piece, the
    /// backend the free functions key for single lookups, if any: a tie
    /// of the hash perft that holds it keeps it.
    pub fn decisions(
        r: &Results,
        footprint: impl Fn(&str) -> Option<usize>,
        keyed: impl Fn(&str) -> Option<String>,
    ) -> Vec<CellDecision> {
        let Some(meta) = r.meta_of("runtime") else {
            return Vec::new();
        };
        let candidates: Vec<Candidate> = meta
            .rows
            .iter()
            .filter(|m| m.kind == super::RowKind::Backend)
            .filter_map(|m| {
                Some(Candidate {
                    row: m.name.clone(),
                    footprint: footprint(&m.name)?,
                })
            })
            .collect();
        let mut out = Vec::new();
        for piece in ["queen", "rook", "bishop"] {
            for (entry, workload) in ENTRIES {
                let levels = levels(r, entry, piece, workload);
                let decision = match (entry, keyed(piece)) {
                    ("single", Some(keyed)) => keep_keyed(r, &candidates, &levels, &keyed),
                    _ => decide(r, &candidates, &levels),
                };
                if let Some(decision) = decision {
                    out.push(CellDecision {
                        entry,
                        piece,
                        workload,
                        decision,
                    });
                }
            }
        }
        keep_single_lookups_together(&mut out);
        out
    }

    /// The single lookups' decision where the free functions key `keyed`:
    /// if the first level (the hash perft) ties it with the best, it is
    /// kept, and the tie is the first level's; else every level decides.
    /// The later level, the engine-shaped loop, times each backend
    /// inlined at its own level, which the free functions of a default
    /// build do for the keyed backend only: another one is a call away
    /// (on Zen 4, `avx512` queens ran Chess_Movegen's loop through the
    /// free functions at 0.7x a `pext` plan, where the loop's `avx512` row
    /// led `pext`'s: `benches/runs/README.md`).
    fn keep_keyed(
        r: &Results,
        candidates: &[Candidate],
        levels: &[Evidence],
        keyed: &str,
    ) -> Option<Decision> {
        if levels.len() > 1
            && let Some(first) = decide(r, candidates, &levels[..1])
            && first.decided_by.is_none()
            && first.tied.iter().any(|t| t == keyed)
        {
            return Some(Decision {
                chosen: keyed.to_owned(),
                tied: first.tied,
                decided_by: Some(format!(
                    "a tie on the {}, kept on the backend the free functions key",
                    levels[0]
                )),
            });
        }
        decide(r, candidates, levels)
    }

    /// Single lookups tied for a piece keep the backend the other pieces'
    /// single lookups were decided for, where it is among the tie. The hash
    /// perft that decides them runs every piece on one backend per row, so
    /// it cannot tell the pieces apart, and a plan that mixes backends there
    /// is one it never ran; the other backend's table is read anyway, so
    /// the tie-break's smaller table saves nothing. (On Zen 3 the queen's
    /// tie went to `avx2`, and that plan's perft then ran 0.90x `pext`'s.)
    fn keep_single_lookups_together(out: &mut [CellDecision]) {
        let decided: Vec<String> = out
            .iter()
            .filter(|c| c.entry == "single" && c.decision.decided_by.is_some())
            .map(|c| c.decision.chosen.clone())
            .collect();
        for cell in out.iter_mut().filter(|c| c.entry == "single") {
            let d = &mut cell.decision;
            if d.decided_by.is_some() {
                continue;
            }
            if let Some(kept) = d.tied.iter().find(|t| decided.contains(t)) {
                d.chosen = kept.clone();
                d.decided_by = Some(
                    "a tie, kept with the other pieces' single lookups (one table)".to_owned(),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::compact_number_arrays;
    use super::decide::{Decision, SetwiseRun, joint, setwise_run};

    fn column(chosen: &str, tied: &[&str]) -> Decision {
        Decision {
            chosen: chosen.to_owned(),
            tied: tied.iter().map(|t| t.to_string()).collect(),
            decided_by: None,
        }
    }

    #[test]
    fn a_loop_bound_splits_the_set_wise_columns() {
        use SetwiseRun::*;
        let runs = |bound| {
            ["setwise-few", "setwise-typical", "setwise-many"].map(|w| setwise_run(w, bound))
        };
        assert_eq!(runs(0), [Some(Kernel); 3]);
        // intel-avx512's bishops: lookups for 1-2, the fill beyond.
        assert_eq!(runs(2), [Some(Lookups), Some(Kernel), Some(Kernel)]);
        assert_eq!(runs(1), [Some(Both), Some(Kernel), Some(Kernel)]);
        assert_eq!(runs(5), [Some(Lookups), Some(Both), Some(Kernel)]);
        assert_eq!(runs(14), [Some(Lookups); 3]);
        assert_eq!(setwise_run("batch", 2), None);
    }

    #[test]
    fn a_kernel_over_several_columns_is_the_smallest_table_none_clears() {
        // Bytes: ssse3 the smallest, then avx2, then pext.
        let footprint = |row: &str| ["ssse3", "avx2", "pext"].iter().position(|r| *r == row);
        // Zen 3's rooks: the first column's tie-break names ssse3, the
        // others clear avx2 alone.
        let few = column("ssse3", &["avx2", "ssse3"]);
        let (typical, many) = (column("avx2", &["avx2"]), column("avx2", &["avx2"]));
        let d = joint(&[&few, &typical, &many], footprint).unwrap();
        assert_eq!((d.chosen.as_str(), d.tied.len()), ("avx2", 1));
        assert!(d.decided_by.is_some());
        // A tie in every column: the smallest table, the rest its ties.
        let wide = column("ssse3", &["pext", "avx2", "ssse3"]);
        let d = joint(&[&wide, &few], footprint).unwrap();
        assert_eq!(
            (d.chosen.as_str(), d.tied),
            ("ssse3", vec!["avx2".into(), "ssse3".into()])
        );
        assert_eq!(d.decided_by, None);
        // Every row cleared somewhere: no kernel.
        let other = column("pext", &["pext"]);
        assert_eq!(joint(&[&few, &other], footprint), None);
        assert_eq!(joint(&[], footprint), None);
    }

    #[test]
    fn arrays_of_numbers_go_on_one_line_and_the_rest_keeps_its_layout() {
        let value = serde_json::json!({
            "samples": [[0, [1.5, 2.0]], [1, [3.0]]],
            "args": ["--bench", "a b [c]"],
            "objects": [{"x": [1, 2]}],
        });
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        let compact = compact_number_arrays(&pretty);
        assert!(
            compact.contains(r#""samples": [[0, [1.5, 2.0]], [1, [3.0]]]"#),
            "{compact}"
        );
        assert!(compact.contains(r#""x": [1, 2]"#), "{compact}");
        assert!(compact.contains("\"--bench\",\n"), "{compact}");
        let back: serde_json::Value = serde_json::from_str(&compact).unwrap();
        assert_eq!(back, value);
    }
}
