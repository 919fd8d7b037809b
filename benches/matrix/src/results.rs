//! The bench binaries' samples turned into figures, and the check CI runs
//! on a run's outputs. The data types themselves are `hq_bench_format`'s.

use anyhow::{Context, ensure};
use hq_bench_format::{CHART_SVG, Figure, MATRIX_MD, REFERENCE_ROW, Results, TimedCell};
use std::path::Path;

/// The figure's statistic: the fastest sample, each the mean of many
/// iterations. On a shared machine, slow samples are other people's work
/// landing on our core; the fastest sample is the speed of the code (as
/// Chess_Movegen's "best of" runs).
pub fn statistic_rounds(rounds: usize, sample_us: u64) -> String {
    let ms = sample_us as f64 / 1e3;
    format!(
        "fastest of {rounds} rounds (each round times every cell for about {ms} ms, cache pressure \
         {} ms, in a fresh random order); the median round is kept as ns_per_iter_median, the \
         interquartile range over the median as spread",
        4.0 * ms
    )
}

/// The figures of one configuration from its cells (`HQ_BENCH_OUT`), with
/// their ratios to the PEXT row of the same piece and workload.
pub fn figures(config: &str, cells: &[TimedCell]) -> anyhow::Result<Vec<Figure>> {
    let mut figures = Vec::new();
    for c in cells {
        let parts: Vec<&str> = c.cell.splitn(3, '/').collect();
        let [piece, workload, row] = parts[..] else {
            anyhow::bail!("cell {:?} is not <piece>/<workload>/<row>", c.cell);
        };
        ensure!(!c.per_iter.is_empty(), "cell {} has no samples", c.cell);
        let mut v = c.per_iter.clone();
        v.sort_by(f64::total_cmp);
        // The interquartile range over the median (0 for fewer than 4).
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
        let spread = if v.len() < 4 {
            0.0
        } else {
            (at(0.75) - at(0.25)) / at(0.5)
        };
        let per_lookup = v[0] / c.elements as f64;
        figures.push(Figure {
            config: config.to_owned(),
            row: row.to_owned(),
            piece: piece.to_owned(),
            workload: workload.to_owned(),
            lookups_per_iter: c.elements,
            samples: v.len(),
            ns_per_iter: v[0],
            ns_per_iter_median: v[v.len() / 2],
            mlookups_per_s: 1e3 / per_lookup,
            ns_per_lookup: per_lookup,
            ratio_to_pext: None,
            spread,
        });
    }
    let pext: Vec<Figure> = figures
        .iter()
        .filter(|f| f.row == REFERENCE_ROW)
        .cloned()
        .collect();
    for f in &mut figures {
        let p = pext
            .iter()
            .find(|p| p.piece == f.piece && p.workload == f.workload);
        f.ratio_to_pext = p.map(|p| f.mlookups_per_s / p.mlookups_per_s);
    }
    Ok(figures)
}

/// Checks that `dir` holds the three outputs of a run and that they agree:
/// `results.json` parses and has figures with ratios to the PEXT row where it
/// ran, `matrix.md` is a Markdown table naming every row of the results, and
/// `chart.svg` is an SVG document. Nothing about speed. For CI
/// (`cargo xtask test` after `cargo xtask bench-matrix --quick`).
pub fn check_outputs(dir: &Path) -> anyhow::Result<()> {
    let r = Results::load(dir).map_err(anyhow::Error::msg)?;
    let d = dir.display();
    ensure!(!r.figures.is_empty(), "{d}: results.json has no figures");
    for f in &r.figures {
        let (c, p, w, row) = (&f.config, &f.piece, &f.workload, &f.row);
        let speed = f.mlookups_per_s;
        ensure!(
            speed.is_finite() && speed > 0.0,
            "{d}: figure {c}/{p}/{w}/{row} is not a positive speed"
        );
    }
    ensure!(
        r.configs.iter().any(|c| c.ran()),
        "{d}: no configuration ran"
    );
    for c in r.configs.iter().filter(|c| c.ran()) {
        let name = &c.name;
        ensure!(
            r.figures.iter().any(|f| &f.config == name),
            "{d}: configuration {name} ran but has no figures"
        );
    }
    let pext = r
        .figures
        .iter()
        .any(|f| f.row == REFERENCE_ROW && f.ratio_to_pext == Some(1.0));
    ensure!(
        pext || !r.cpu.has("bmi2"),
        "{d}: the CPU has BMI2 but no PEXT figure"
    );
    let read = |name| {
        let path = dir.join(name);
        std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))
    };
    let md = read(MATRIX_MD)?;
    ensure!(
        md.lines().any(|l| l.starts_with("|---")),
        "{d}/{MATRIX_MD}: no Markdown table"
    );
    for row in r.figures.iter().map(|f| &f.row) {
        ensure!(
            md.contains(&format!("`{row}`")),
            "{d}/{MATRIX_MD}: row {row} of results.json is missing"
        );
    }
    let svg = read(CHART_SVG)?;
    let chart = svg.contains("<svg") && svg.trim_end().ends_with("</svg>") && svg.contains("<rect");
    ensure!(chart, "{d}/{CHART_SVG}: not an SVG bar chart");
    Ok(())
}
