//! The processes' samples turned into figures with intervals, the cells
//! that decide and are still too wide, and the check CI runs on a run's
//! outputs. The data types themselves are `hq_bench_format`'s; the
//! statistics `hq_bench_stats`'.

use crate::sampling::{PRUNE, PRUNE_AFTER, Sampling};
use anyhow::{Context, ensure};
use hq_bench_format::{
    CHART_SVG, CHOICE_SVG, ConfigRun, Figure, MATRIX_MD, ProcessSamples, REFERENCE_ROW, Results,
    RowKind,
};
use hq_bench_stats::{Interval, RESOLVED_HALF_WIDTH, bootstrap, seed_of};
use std::collections::BTreeMap;
use std::path::Path;

/// How each figure is derived from the samples, for `results.json`.
pub fn statistic(s: &Sampling, seed: u64) -> String {
    let ms = s.sample_us as f64 / 1e3;
    let (prune, after) = (PRUNE, PRUNE_AFTER);
    format!(
        "median over {} fresh processes (each with its own order of cells and environment size; \
         run seed {seed}) of each process's median of {} rounds (each round times every cell for \
         about {ms} ms, cache pressure {} ms, in a fresh random order), with a 95 % interval by \
         a hierarchical bootstrap (processes, then rounds); ratios paired by process and round; \
         deciding cells wider than ±3 % sampled further for up to {:.0} s; perft: {} processes of \
         {} rounds per build (rows over {prune}x slower than the fastest timed in the first round \
         only, and, but with --full, in the first {after} processes only), deciding rows sampled \
         further for up to {:.0} s",
        s.processes,
        s.rounds,
        4.0 * ms,
        s.resample_seconds,
        s.perft_processes,
        s.perft_rounds,
        s.perft_resample_seconds,
    )
}

/// `samples` (ns per iteration of `elements` lookups) as million lookups per
/// second, per process and round.
fn speeds(elements: u64, samples: &[ProcessSamples]) -> Vec<Vec<f64>> {
    let per_second = |ns: f64| elements as f64 / ns * 1e3;
    samples
        .iter()
        .map(|s| s.1.iter().map(|&ns| per_second(ns)).collect())
        .collect()
}

/// The figures of one configuration from its cells' samples (`<piece>/
/// <workload>/<row>` -> lookups per iteration and every process's rounds):
/// each the median over processes with its interval, and its ratio to the
/// PEXT row of the same piece and workload, paired by process and round.
pub fn figures(
    config: &str,
    cells: &BTreeMap<String, (u64, Vec<ProcessSamples>)>,
) -> anyhow::Result<Vec<Figure>> {
    let mut figures = Vec::new();
    for (cell, (elements, samples)) in cells {
        let parts: Vec<&str> = cell.splitn(3, '/').collect();
        let [piece, workload, row] = parts[..] else {
            anyhow::bail!("cell {cell:?} is not <piece>/<workload>/<row>");
        };
        let rounds: usize = samples.iter().map(|s| s.1.len()).sum();
        ensure!(rounds > 0, "cell {cell} has no samples");
        let key = format!("{config}/{row}/{piece}/{workload}");
        let interval = bootstrap(&speeds(*elements, samples), seed_of(&key));
        let per_lookup = 1e3 / interval.estimate;
        figures.push(Figure {
            config: config.to_owned(),
            row: row.to_owned(),
            piece: piece.to_owned(),
            workload: workload.to_owned(),
            lookups_per_iter: *elements,
            samples: rounds,
            ns_per_iter: per_lookup * *elements as f64,
            ns_per_iter_median: per_lookup * *elements as f64,
            mlookups_per_s: interval.estimate,
            ns_per_lookup: per_lookup,
            ratio_to_pext: None,
            spread: interval.half_width(),
            interval: Some(interval),
            ratio_interval: None,
            unresolved: None,
            per_process: samples.clone(),
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
        if let Some(p) = p {
            let ratio = Results::speed_ratio(f, p);
            f.ratio_to_pext =
                Some(ratio.map_or(f.mlookups_per_s / p.mlookups_per_s, |r| r.estimate));
            f.ratio_interval = ratio;
        }
    }
    Ok(figures)
}

/// The columns whose figures decide a class's plan (`benches/tests/
/// choice.rs`): the entry points' own and the engine loop's throughput
/// (the single lookups' second evidence).
pub const DECIDING_COLUMNS: [&str; 7] = [
    "throughput",
    "latency",
    "batch",
    "setwise-few",
    "setwise-typical",
    "setwise-many",
    "engine-throughput",
];

/// A backend this far below its column's best decides nothing (no noise
/// closes a gap of 20 %): it is not sampled further.
pub const CONTENDER: f64 = 0.8;

/// The runtime build's deciding cells, as `<piece>/<workload>/<row>`: in
/// each deciding column, the backend rows within [`CONTENDER`] of the
/// best, the free functions (`hq`, and `hq-latency` for chains), and the
/// best peer's throughput (the README's tables divide by it).
fn deciding_cells<'a>(run: &'a ConfigRun, estimate: impl Fn(&str) -> Option<f64>) -> Vec<String> {
    let Some(meta) = run.meta.as_ref().filter(|_| run.name == "runtime") else {
        return Vec::new();
    };
    let rows = |kind: RowKind| {
        meta.rows
            .iter()
            .filter(move |r| r.kind == kind)
            .map(|r| r.name.as_str())
    };
    let mut out = Vec::new();
    for piece in ["queen", "rook", "bishop"] {
        for workload in DECIDING_COLUMNS {
            let key = |row: &str| format!("{piece}/{workload}/{row}");
            let of = |row: &'a str| estimate(&key(row)).map(|e| (row, e));
            let backends: Vec<(&str, f64)> = rows(RowKind::Backend).filter_map(of).collect();
            let best = backends.iter().map(|b| b.1).fold(0.0, f64::max);
            let contenders = backends.iter().filter(|b| b.1 >= CONTENDER * best);
            out.extend(contenders.map(|b| key(b.0)));
            out.extend(
                ["hq", "hq-latency"]
                    .into_iter()
                    .filter_map(of)
                    .map(|r| key(r.0)),
            );
            if workload == "throughput" {
                let peers = rows(RowKind::Peer).filter_map(of);
                let best_peer = peers.max_by(|a, b| a.1.total_cmp(&b.1));
                out.extend(best_peer.map(|p| key(p.0)));
            }
        }
    }
    out
}

/// The interval of one cell's samples.
fn interval_of(config: &str, cell: &str, elements: u64, samples: &[ProcessSamples]) -> Interval {
    let key = match cell.splitn(3, '/').collect::<Vec<_>>()[..] {
        [piece, workload, row] => format!("{config}/{row}/{piece}/{workload}"),
        _ => cell.to_owned(),
    };
    bootstrap(&speeds(elements, samples), seed_of(&key))
}

/// The deciding cells of `run` whose interval is wider than ±3 %.
pub fn wide_deciding_cells(
    run: &ConfigRun,
    cells: &BTreeMap<String, (u64, Vec<ProcessSamples>)>,
) -> Vec<String> {
    let estimate = |cell: &str| {
        let (elements, samples) = cells.get(cell)?;
        Some(hq_bench_stats::estimate(&speeds(*elements, samples)))
    };
    deciding_cells(run, estimate)
        .into_iter()
        .filter(|cell| {
            let (elements, samples) = &cells[cell];
            !interval_of(&run.name, cell, *elements, samples).resolved()
        })
        .collect()
}

/// Marks the deciding figures of `run` still wider than ±3 % unresolved,
/// with the reason.
pub fn mark_unresolved(run: &ConfigRun, figures: &mut [Figure], cap: f64) {
    let key = |f: &Figure| format!("{}/{}/{}", f.piece, f.workload, f.row);
    let estimate = |cell: &str| {
        let f = figures.iter().find(|f| key(f) == cell)?;
        Some(f.mlookups_per_s)
    };
    let deciding = deciding_cells(run, estimate);
    let processes = run
        .processes
        .iter()
        .filter(|p| p.excluded.is_none())
        .count();
    for f in figures.iter_mut().filter(|f| deciding.contains(&key(f))) {
        if let Some(i) = f.interval.filter(|i| i.half_width() > RESOLVED_HALF_WIDTH) {
            f.unresolved = Some(format!(
                "±{:.1} % over {processes} processes when the {cap:.0} s for sampling further \
                 ran out",
                i.half_width() * 100.0
            ));
        }
    }
}

/// Checks that `dir` holds the outputs of a run and that they agree:
/// `results.json` (and for schema 3 its samples) parses and has figures
/// with ratios to the PEXT row where it ran, `matrix.md` is a Markdown table
/// naming every row of the results, and the charts are SVG documents.
/// Nothing about speed. For CI (`cargo xtask test` after `cargo xtask
/// bench-matrix --quick`).
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
        if r.schema >= 3 {
            ensure!(
                !f.per_process.is_empty() && f.interval.is_some(),
                "{d}: figure {c}/{p}/{w}/{row} has no samples or no interval"
            );
        }
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
        pext || !r.cpu.has("bmi2") || !r.is_native(),
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
    let charts: &[&str] = match r.schema {
        2 => &[CHART_SVG],
        _ => &[CHART_SVG, CHOICE_SVG],
    };
    for &chart in charts {
        let svg = read(chart)?;
        let ok =
            svg.contains("<svg") && svg.trim_end().ends_with("</svg>") && svg.contains("<rect");
        ensure!(ok, "{d}/{chart}: not an SVG bar chart");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hq_bench_format::{BenchMeta, ChoiceNames, RowMeta};

    /// The runtime build with two backend rows.
    fn runtime() -> ConfigRun {
        let row = |name: &str| RowMeta {
            name: name.to_owned(),
            label: String::new(),
            kind: RowKind::Backend,
        };
        ConfigRun {
            name: "runtime".to_owned(),
            meta: Some(BenchMeta {
                mode: "run-time".to_owned(),
                choice: ChoiceNames {
                    single: "pext".to_owned(),
                    batch: "pext".to_owned(),
                    setwise: "pext".to_owned(),
                    setwise_loop: 0,
                },
                class: "test".to_owned(),
                inputs: 4096,
                checked_cases: 1,
                rows: vec![row("pext"), row("avx512")],
                skipped: Vec::new(),
                position_check: None,
                plan: None,
                huge_pages: None,
                seed: None,
            }),
            ..ConfigRun::default()
        }
    }

    /// Six processes of four rounds, each process's rounds around its level.
    fn samples(levels: [f64; 6]) -> Vec<ProcessSamples> {
        (0..6)
            .map(|p| {
                let rounds = (0..4)
                    .map(|r| levels[p] * (1.0 + 0.002 * f64::from(r)))
                    .collect();
                ProcessSamples(p as u32, rounds)
            })
            .collect()
    }

    /// A deciding cell whose processes fall in two modes 12 % apart (two
    /// code layouts, say) stays wider than ±3 %: it is sampled further and
    /// then marked unresolved, with the reason; a steady one, and a row no
    /// decision reads (a backend far behind its column's best), are not.
    #[test]
    fn a_wide_deciding_cell_is_sampled_further_then_marked_unresolved() {
        let run = runtime();
        let bimodal = [4000.0, 4480.0, 4000.0, 4480.0, 4000.0, 4480.0];
        let cells: BTreeMap<String, (u64, Vec<ProcessSamples>)> = [
            ("queen/throughput/pext", samples(bimodal)),
            ("queen/throughput/avx512", samples([8000.0; 6])),
            ("queen/batch/pext", samples([4000.0; 6])),
            ("queen/batch/avx512", samples(bimodal.map(|x| x * 3.0))),
        ]
        .into_iter()
        .map(|(c, s)| (c.to_owned(), (4096, s)))
        .collect();
        let wide = wide_deciding_cells(&run, &cells);
        assert_eq!(wide, ["queen/throughput/pext"], "{wide:?}");
        let mut figures = figures("runtime", &cells).unwrap();
        mark_unresolved(&run, &mut figures, 40.0);
        let why = |row: &str, workload: &str| {
            let f = figures
                .iter()
                .find(|f| f.row == row && f.workload == workload);
            f.and_then(|f| f.unresolved.clone())
        };
        let reason = why("pext", "throughput").expect("unresolved");
        assert!(
            reason.starts_with('±') && reason.contains("40 s"),
            "{reason}"
        );
        assert_eq!(why("avx512", "throughput"), None);
        // A third as fast as the column's best: no decision reads it.
        assert_eq!(why("avx512", "batch"), None);
    }
}
