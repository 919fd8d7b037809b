//! Reading the bench binaries' samples back (rounds, or criterion's output), and the check CI runs on a run's outputs.
//! The data types themselves are `hq_bench_format`'s.

use hq_bench_format::{CHART_SVG, ConfigRun, MATRIX_MD, REFERENCE_ROW, Results};
use serde::Deserialize;
use std::path::{Path, PathBuf};

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

/// The part of criterion's `benchmark.json` read here.
#[derive(Deserialize)]
struct BenchmarkJson {
    group_id: String,
    function_id: String,
    throughput: Option<ThroughputJson>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct ThroughputJson {
    elements: Option<u64>,
}

/// Criterion's `sample.json`: iteration counts and total times per sample.
#[derive(Deserialize)]
struct SampleJson {
    iters: Vec<f64>,
    times: Vec<f64>,
}

/// The part of criterion's `estimates.json` read here.
#[derive(Deserialize)]
struct EstimatesJson {
    median: Estimate,
}

#[derive(Deserialize)]
struct Estimate {
    point_estimate: f64,
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> anyhow::Result<T> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{} does not parse: {e}", path.display()))
}

/// Every `new/benchmark.json` under `home`, with its samples and estimates.
pub fn read_criterion(home: &Path) -> anyhow::Result<Vec<CriterionBench>> {
    let mut dirs = Vec::new();
    collect_new_dirs(home, &mut dirs)?;
    dirs.sort();
    let mut out = Vec::new();
    for dir in dirs {
        let bench: BenchmarkJson = read_json(&dir.join("benchmark.json"))?;
        let sample: SampleJson = read_json(&dir.join("sample.json"))?;
        let estimates: EstimatesJson = read_json(&dir.join("estimates.json"))?;
        if sample.iters.is_empty() || sample.iters.len() != sample.times.len() {
            return Err(anyhow::anyhow!(
                "{}: sample.json has no usable samples",
                dir.display()
            ));
        }
        out.push(CriterionBench {
            group_id: bench.group_id,
            function_id: bench.function_id,
            elements: bench.throughput.and_then(|t| t.elements).unwrap_or(1),
            per_iter: sample
                .times
                .iter()
                .zip(&sample.iters)
                .map(|(t, i)| t / i)
                .collect(),
            median: estimates.median.point_estimate,
        });
    }
    Ok(out)
}

fn collect_new_dirs(dir: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", dir.display()))?;
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

/// The figure's statistic: the fastest sample, each the mean of many
/// iterations. On a shared machine, slow samples are other people's work
/// landing on our core; the fastest sample is the speed of the code (as
/// Chess_Movegen's "best of" runs).
pub fn statistic_rounds(rounds: usize) -> String {
    format!(
        "fastest of {rounds} rounds (each round times every cell for about 2 ms, cache pressure 8 ms, in a fresh \
         random order); the median round is kept as ns_per_iter_median, the interquartile \
         range over the median as spread"
    )
}

/// [`statistic_rounds`] for `--full`: criterion's samples.
pub const STATISTIC_CRITERION: &str = "fastest criterion sample (each sample is the mean of many iterations); criterion's median is kept as ns_per_iter_median";

/// The interquartile range of `samples` over their median (0 for fewer than 4).
pub fn spread(samples: &[f64]) -> f64 {
    if samples.len() < 4 {
        return 0.0;
    }
    let mut v = samples.to_vec();
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    (at(0.75) - at(0.25)) / at(0.5)
}

/// The samples a run in rounds wrote (`HQ_BENCH_OUT`).
pub fn read_rounds(path: &Path) -> anyhow::Result<Vec<CriterionBench>> {
    let cells: Vec<hq_bench_format::TimedCell> = read_json(path)?;
    cells
        .into_iter()
        .map(|c| {
            let (group, row) = c.cell.rsplit_once('/').ok_or_else(|| {
                anyhow::anyhow!("{}: cell {:?} has no row", path.display(), c.cell)
            })?;
            if c.per_iter.is_empty() {
                return Err(anyhow::anyhow!(
                    "{}: cell {} has no samples",
                    path.display(),
                    c.cell
                ));
            }
            let mut sorted = c.per_iter.clone();
            sorted.sort_by(f64::total_cmp);
            Ok(CriterionBench {
                group_id: group.to_owned(),
                function_id: row.to_owned(),
                elements: c.elements,
                median: sorted[sorted.len() / 2],
                per_iter: c.per_iter,
            })
        })
        .collect()
}

/// The statistic over one benchmark's samples.
pub fn best(per_iter: &[f64]) -> f64 {
    per_iter.iter().copied().fold(f64::INFINITY, f64::min)
}

/// Checks that `dir` holds the three outputs of a run and that they agree:
/// `results.json` parses and has figures with ratios to the PEXT row where it
/// ran, `matrix.md` is a Markdown table naming every row of the results, and
/// `chart.svg` is an SVG document. Nothing about speed. For CI
/// (`cargo xtask test` after `cargo xtask bench-matrix --quick`).
pub fn check_outputs(dir: &Path) -> anyhow::Result<()> {
    let results = Results::load(dir).map_err(anyhow::Error::msg)?;
    if results.figures.is_empty() {
        return Err(anyhow::anyhow!(
            "{}: results.json has no figures",
            dir.display()
        ));
    }
    for f in &results.figures {
        if !(f.mlookups_per_s.is_finite() && f.mlookups_per_s > 0.0) {
            return Err(anyhow::anyhow!(
                "{}: figure {}/{}/{}/{} is not a positive speed",
                dir.display(),
                f.config,
                f.piece,
                f.workload,
                f.row
            ));
        }
    }
    let ran: Vec<&ConfigRun> = results.configs.iter().filter(|c| c.ran()).collect();
    if ran.is_empty() {
        return Err(anyhow::anyhow!("{}: no configuration ran", dir.display()));
    }
    for config in &ran {
        if !results.figures.iter().any(|f| f.config == config.name) {
            return Err(anyhow::anyhow!(
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
            .any(|f| f.row == REFERENCE_ROW && f.ratio_to_pext == Some(1.0))
    {
        return Err(anyhow::anyhow!(
            "{}: the CPU has BMI2 but no PEXT figure",
            dir.display()
        ));
    }
    let md_path = dir.join(MATRIX_MD);
    let md = std::fs::read_to_string(&md_path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", md_path.display()))?;
    if !md.lines().any(|l| l.starts_with("|---")) {
        return Err(anyhow::anyhow!("{}: no Markdown table", md_path.display()));
    }
    for f in &results.figures {
        if !md.contains(&format!("`{}`", f.row)) {
            return Err(anyhow::anyhow!(
                "{}: row {} of results.json is missing",
                md_path.display(),
                f.row
            ));
        }
    }
    let svg_path = dir.join(CHART_SVG);
    let svg = std::fs::read_to_string(&svg_path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", svg_path.display()))?;
    if !(svg.contains("<svg") && svg.trim_end().ends_with("</svg>") && svg.contains("<rect")) {
        return Err(anyhow::anyhow!(
            "{}: not an SVG bar chart",
            svg_path.display()
        ));
    }
    Ok(())
}
