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

/// The version of the `results.json` layout.
pub const SCHEMA: u32 = 2;
/// `results.json`.
pub const RESULTS_JSON: &str = "results.json";
/// The Markdown matrix.
pub const MATRIX_MD: &str = "matrix.md";
/// The bar chart.
pub const CHART_SVG: &str = "chart.svg";
/// The row every ratio divides by: the PEXT backend (the fastest table
/// method where PEXT is fast; a reference where it is not).
pub const REFERENCE_ROW: &str = "pext";

/// The name of a backend's per-piece row ([`RowKind::PerPiece`]): the
/// backend's name and this.
pub const PER_PIECE_SUFFIX: &str = "-per-piece";

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
}

/// `hq-info --calibrate` run in fresh processes: how long each calibration
/// took and which plan it chose.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CalibrationStarts {
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
        format!(
            "`hq::calibrate` in {} fresh processes (`hq-info --calibrate`): median {:.2} ms, \
             slowest {:.2} ms; {same} of {} chose the same plan: `{plan}`",
            self.plans.len(),
            self.median_milliseconds(),
            self.max_milliseconds(),
            self.plans.len()
        )
    }
}

/// The committed full runs under `results_dir` (`benches/results`), one per
/// CPU directory, in directory order (none if the directory is absent); an
/// error for a run that does not load or is a `--quick` one.
pub fn committed_runs(results_dir: &std::path::Path) -> Result<Vec<Results>, String> {
    let Ok(entries) = std::fs::read_dir(results_dir) else {
        return Ok(Vec::new());
    };
    let mut dirs: Vec<_> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
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
pub const ENGINE_WORKLOADS: [(&str, &str); 5] = [
    ("engine-throughput", "throughput"),
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
    /// median (0.03 = 3 %). `matrix.md` flags cells above [`SPREAD_FLAG`].
    #[serde(default)]
    pub spread: f64,
}

/// The spread above which `matrix.md` flags a cell as noisy.
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
    /// Best wall time, seconds.
    pub seconds: f64,
    /// Million nodes per second.
    pub mnps: f64,
}

impl PerftFigure {
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

    /// Reads `dir/results.json`.
    pub fn load(dir: &Path) -> Result<Results, String> {
        let path = dir.join(RESULTS_JSON);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let results: Results = serde_json::from_str(&text)
            .map_err(|e| format!("{} does not parse: {e}", path.display()))?;
        if results.schema != SCHEMA {
            return Err(format!(
                "{} has schema {}, this reader reads {SCHEMA}",
                path.display(),
                results.schema
            ));
        }
        Ok(results)
    }

    /// Writes `dir/results.json` (pretty-printed, for diffs).
    pub fn save(&self, dir: &Path) -> Result<(), String> {
        let path = dir.join(RESULTS_JSON);
        let text = serde_json::to_string_pretty(self).map_err(|e| format!("serializing: {e}"))?;
        std::fs::write(&path, text + "\n")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}
