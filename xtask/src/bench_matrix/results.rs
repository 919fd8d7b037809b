//! The data of one matrix run (`results.json`), how it is read back from
//! criterion's output, and the check CI runs on the outputs.

use super::cpu::Cpu;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The version of the `results.json` layout.
pub const SCHEMA: u32 = 1;

/// File names inside a result directory.
pub const RESULTS_JSON: &str = "results.json";
/// The Markdown matrix.
pub const MATRIX_MD: &str = "matrix.md";
/// The bar chart.
pub const CHART_SVG: &str = "chart.svg";

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
    /// How each figure is derived from criterion's samples.
    pub statistic: String,
    /// The build configurations, in run order.
    pub configs: Vec<ConfigRun>,
    /// Every figure.
    pub figures: Vec<Figure>,
    /// Perft nodes per second (empty until the perft stage exists).
    #[serde(default)]
    pub perft: Vec<PerftFigure>,
    /// Why perft figures are missing, when they are.
    #[serde(default)]
    pub perft_note: Option<String>,
}

/// One build configuration and how its run went.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ConfigRun {
    /// Short name: `runtime`, `native`, `shakmaty-hq`, `force-<backend>`.
    pub name: String,
    /// What it measures, for people.
    pub description: String,
    /// `RUSTFLAGS` of the build.
    pub rustflags: String,
    /// The `cargo bench` arguments.
    pub cargo_args: Vec<String>,
    /// Whether it ran (else `skip_reason` says why).
    pub ran: bool,
    /// Why it did not run (a forced backend this CPU lacks).
    pub skip_reason: Option<String>,
    /// How the facade chose its backend in this build (`run-time`, `compile-time`, `forced`).
    pub selection: Option<String>,
    /// The backend behind the facade's free functions.
    pub active_backend: Option<String>,
    /// The rows timed, in order.
    pub rows: Vec<RowMeta>,
    /// Rows this build could not time, and why.
    pub skipped: Vec<Skipped>,
    /// Oracle cases checked before timing.
    pub checked_cases: u64,
    /// Seconds spent building.
    pub build_seconds: f64,
    /// Seconds spent measuring.
    pub run_seconds: f64,
}

/// A row of a configuration.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RowMeta {
    /// Criterion function id.
    pub name: String,
    /// For people.
    pub label: String,
    /// `backend`, `facade`, `reference`, `peer` or `floor`.
    pub kind: String,
}

/// A row that could not run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Skipped {
    /// Row name.
    pub name: String,
    /// Why (the missing CPU features).
    pub why: String,
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
    /// `throughput`, `latency`, `batch`, `setwise` or `cache`.
    pub workload: String,
    /// Lookups per benchmark iteration.
    pub lookups_per_iter: u64,
    /// Samples criterion took.
    pub samples: usize,
    /// The figure's time per iteration (see [`Results::statistic`]), ns.
    pub ns_per_iter: f64,
    /// Criterion's median time per iteration, ns (for comparison).
    pub ns_per_iter_median: f64,
    /// Million lookups per second.
    pub mlookups_per_s: f64,
    /// Nanoseconds per lookup.
    pub ns_per_lookup: f64,
    /// This figure over the PEXT figure of the same configuration, piece and workload.
    pub ratio_to_pext: Option<f64>,
}

/// Perft speed of one row on one position.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PerftFigure {
    /// Configuration name.
    pub config: String,
    /// Row name (backend or peer).
    pub row: String,
    /// Position name (`startpos`, `kiwipete`).
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

impl Results {
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
                "{} has schema {}, this xtask reads {SCHEMA}",
                path.display(),
                results.schema
            ));
        }
        Ok(results)
    }
}

/// One benchmark as criterion left it in `CRITERION_HOME`.
pub struct CriterionBench {
    /// `<piece>/<workload>`.
    pub group_id: String,
    /// The row.
    pub function_id: String,
    /// Elements (lookups) per iteration.
    pub elements: u64,
    /// Per-sample time per iteration, ns.
    pub per_iter: Vec<f64>,
    /// Criterion's median estimate, ns.
    pub median: f64,
}

fn read_json(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{} does not parse: {e}", path.display()))
}

/// Every `new/benchmark.json` under `home`, with its samples and estimates.
pub fn read_criterion(home: &Path) -> Result<Vec<CriterionBench>, String> {
    let mut dirs = Vec::new();
    collect_new_dirs(home, &mut dirs)?;
    dirs.sort();
    let mut out = Vec::new();
    for dir in dirs {
        let bench = read_json(&dir.join("benchmark.json"))?;
        let sample = read_json(&dir.join("sample.json"))?;
        let estimates = read_json(&dir.join("estimates.json"))?;
        let field = |v: &serde_json::Value, name: &str| -> Result<String, String> {
            v[name]
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("{}: no {name}", dir.display()))
        };
        let numbers = |v: &serde_json::Value| -> Vec<f64> {
            v.as_array()
                .map(|a| a.iter().filter_map(|x| x.as_f64()).collect())
                .unwrap_or_default()
        };
        let iters = numbers(&sample["iters"]);
        let times = numbers(&sample["times"]);
        if iters.is_empty() || iters.len() != times.len() {
            return Err(format!(
                "{}: sample.json has no usable samples",
                dir.display()
            ));
        }
        out.push(CriterionBench {
            group_id: field(&bench, "group_id")?,
            function_id: field(&bench, "function_id")?,
            elements: bench["throughput"]["Elements"].as_u64().unwrap_or(1),
            per_iter: times.iter().zip(&iters).map(|(t, i)| t / i).collect(),
            median: estimates["median"]["point_estimate"]
                .as_f64()
                .ok_or_else(|| format!("{}: no median estimate", dir.display()))?,
        });
    }
    Ok(out)
}

fn collect_new_dirs(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "new") && path.join("benchmark.json").exists()
            {
                out.push(path);
            } else {
                collect_new_dirs(&path, out)?;
            }
        }
    }
    Ok(())
}

/// The figure's statistic: the fastest of criterion's samples, each the mean
/// of many iterations. On a shared machine, slow samples are other people's
/// work landing on our core; the fastest sample is the speed of the code
/// (as Chess_Movegen's and our earlier "best of 7").
pub const STATISTIC: &str = "fastest criterion sample (each sample is the mean of many iterations); criterion's median is kept as ns_per_iter_median";

/// The statistic over one benchmark's samples.
pub fn best(per_iter: &[f64]) -> f64 {
    per_iter.iter().copied().fold(f64::INFINITY, f64::min)
}

/// Checks that `dir` holds the three outputs of a run and that they agree:
/// `results.json` parses and has figures with PEXT ratios where PEXT ran,
/// `matrix.md` is a Markdown table naming every row of the results, and
/// `chart.svg` is an SVG document. Nothing about speed. For CI
/// (`cargo xtask test` after `cargo xtask bench-matrix --quick`).
pub fn check_outputs(dir: &Path) -> Result<(), String> {
    let results = Results::load(dir)?;
    if results.figures.is_empty() {
        return Err(format!("{}: results.json has no figures", dir.display()));
    }
    for f in &results.figures {
        if !(f.mlookups_per_s.is_finite() && f.mlookups_per_s > 0.0) {
            return Err(format!(
                "{}: figure {}/{}/{}/{} is not a positive speed",
                dir.display(),
                f.config,
                f.piece,
                f.workload,
                f.row
            ));
        }
    }
    let ran: Vec<&ConfigRun> = results.configs.iter().filter(|c| c.ran).collect();
    if ran.is_empty() {
        return Err(format!("{}: no configuration ran", dir.display()));
    }
    for config in &ran {
        if !results.figures.iter().any(|f| f.config == config.name) {
            return Err(format!(
                "{}: configuration {} ran but has no figures",
                dir.display(),
                config.name
            ));
        }
    }
    if results.cpu.has("bmi2")
        && !results
            .figures
            .iter()
            .any(|f| f.row == "ref-pext" && f.ratio_to_pext == Some(1.0))
    {
        return Err(format!(
            "{}: the CPU has BMI2 but no PEXT figure",
            dir.display()
        ));
    }
    let md_path = dir.join(MATRIX_MD);
    let md = std::fs::read_to_string(&md_path)
        .map_err(|e| format!("cannot read {}: {e}", md_path.display()))?;
    if !md.lines().any(|l| l.starts_with("|---")) {
        return Err(format!("{}: no Markdown table", md_path.display()));
    }
    for f in &results.figures {
        if !md.contains(&format!("`{}`", f.row)) {
            return Err(format!(
                "{}: row {} of results.json is missing",
                md_path.display(),
                f.row
            ));
        }
    }
    let svg_path = dir.join(CHART_SVG);
    let svg = std::fs::read_to_string(&svg_path)
        .map_err(|e| format!("cannot read {}: {e}", svg_path.display()))?;
    if !(svg.contains("<svg") && svg.trim_end().ends_with("</svg>") && svg.contains("<rect")) {
        return Err(format!("{}: not an SVG bar chart", svg_path.display()));
    }
    Ok(())
}
