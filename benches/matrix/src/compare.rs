//! Two sets of samples of the same cells compared cell by cell: two runs
//! (`cargo xtask bench-matrix --compare A B`), or the A/A check's two code
//! layouts of one run (`--full`).
//!
//! Each cell's ratio (first side over the second) gets an interval from
//! independent hierarchical bootstraps of the two sides, and a p-value of
//! "the ratio is the common shift": a shared machine runs faster or slower
//! for minutes at a time, every cell alike, so the question of two runs of
//! the same code is which cells moved against the rest (the shift, the
//! median ratio, is reported, and so is the count against 1). With some
//! 2,400 cells a plain 5 % test calls about 120 of them different by
//! chance alone, so the report calls a cell different only where
//! Benjamini-Hochberg, holding the false discovery rate at 5 % over every
//! cell, does; it gives the plain test's count and what chance alone would
//! give beside it.

use crate::markdown::table;
use anyhow::ensure;
use hq_bench_format::{Comparison, ConfigRun, Figure, Interval, MIN_PROCESSES_COMPARED, Results};
use hq_bench_stats::{FALSE_DISCOVERY_RATE, benjamini_hochberg, compare, median, seed_of};
use std::path::Path;

/// One cell on both sides: its key and each side's speeds per process and
/// round.
pub struct Pair {
    key: String,
    a: Vec<Vec<f64>>,
    b: Vec<Vec<f64>>,
    /// The two sides' own intervals' half-widths.
    half_widths: [f64; 2],
}

/// A figure's samples as speeds (million lookups per second), per process
/// and round; only the processes `keep` accepts.
fn speeds(f: &Figure, keep: impl Fn(u32) -> bool) -> Vec<Vec<f64>> {
    let per_second = |ns: f64| f.lookups_per_iter as f64 / ns * 1e3;
    f.per_process
        .iter()
        .filter(|s| keep(s.0))
        .map(|s| s.1.iter().map(|&ns| per_second(ns)).collect())
        .collect()
}

/// Compares every pair.
pub fn cells(pairs: Vec<Pair>) -> Comparison {
    let enough = |p: &Pair| p.a.len().min(p.b.len()) >= MIN_PROCESSES_COMPARED;
    let left_out = pairs.iter().filter(|p| !enough(p)).count();
    let compared: Vec<(String, hq_bench_stats::Comparison, [f64; 2])> = pairs
        .into_iter()
        .filter(enough)
        .map(|p| {
            let c = compare(&p.a, &p.b, seed_of(&p.key));
            (p.key, c, p.half_widths)
        })
        .collect();
    // The machine's common shift, and each cell against it.
    let mut ratios: Vec<f64> = compared.iter().map(|(_, c, _)| c.ratio.estimate).collect();
    let shift = match ratios.is_empty() {
        true => 1.0,
        false => median(&mut ratios),
    };
    let unshifted: Vec<f64> = compared.iter().map(|(_, c, _)| c.p).collect();
    let p: Vec<f64> = compared.iter().map(|(_, c, _)| c.p_of(shift)).collect();
    let discoveries = benjamini_hochberg(&p, FALSE_DISCOVERY_RATE);
    let unshifted = benjamini_hochberg(&unshifted, FALSE_DISCOVERY_RATE);
    let mut flagged: Vec<(String, Interval)> = compared
        .iter()
        .zip(&discoveries)
        .filter(|&(_, &d)| d)
        .map(|((key, c, _), _)| (key.clone(), c.ratio))
        .collect();
    let departure = |i: &Interval| (i.estimate / shift).ln().abs();
    flagged.sort_by(|a, b| departure(&b.1).total_cmp(&departure(&a.1)));
    let mut widths: Vec<f64> = compared
        .iter()
        .flat_map(|(_, _, w)| *w)
        .filter(|w| w.is_finite())
        .collect();
    Comparison {
        cells: compared.len(),
        left_out,
        shift,
        different: flagged.len(),
        different_unshifted: unshifted.iter().filter(|&&d| d).count(),
        different_uncorrected: p.iter().filter(|&&p| p < 0.05).count(),
        expected_by_chance: 0.05 * compared.len() as f64,
        median_half_width: median(&mut widths),
        flagged,
    }
}

/// The A/A check: the figures of `run` (whose processes took its layouts
/// in turn) with the processes of layout `pair[0]` against those of
/// `pair[1]`.
pub fn layouts(run: &ConfigRun, figures: &[Figure], pair: [u64; 2]) -> Comparison {
    let layout_of = |id: u32| run.processes.iter().find(|p| p.id == id)?.layout;
    let pairs = figures
        .iter()
        .map(|f| {
            let a = speeds(f, |id| layout_of(id) == Some(pair[0]));
            let b = speeds(f, |id| layout_of(id) == Some(pair[1]));
            let half =
                |s: &[Vec<f64>]| hq_bench_stats::bootstrap(s, seed_of(&f.key())).half_width();
            Pair {
                key: f.key(),
                half_widths: [half(&a), half(&b)],
                a,
                b,
            }
        })
        .collect();
    cells(pairs)
}

/// The comparison of two runs' common cells (lookups and perft).
pub fn runs(a: &Results, b: &Results) -> Comparison {
    let mut pairs = Vec::new();
    for fa in &a.figures {
        let Some(fb) = b.figure(&fa.config, &fa.row, &fa.piece, &fa.workload) else {
            continue;
        };
        let width = |f: &Figure| f.interval.map_or(f64::NAN, |i| i.half_width());
        pairs.push(Pair {
            key: fa.key(),
            a: speeds(fa, |_| true),
            b: speeds(fb, |_| true),
            half_widths: [width(fa), width(fb)],
        });
    }
    for pa in &a.perft {
        let Some(pb) = b.perft_figure(&pa.config, &pa.position, &pa.row) else {
            continue;
        };
        let rate = |p: &hq_bench_format::PerftFigure| -> Vec<Vec<f64>> {
            let nodes = p.nodes as f64;
            p.per_process
                .iter()
                .map(|s| s.1.iter().map(|&t| nodes / t / 1e6).collect())
                .collect()
        };
        let width =
            |p: &hq_bench_format::PerftFigure| p.interval.map_or(f64::NAN, |i| i.half_width());
        pairs.push(Pair {
            key: pa.key(),
            a: rate(pa),
            b: rate(pb),
            half_widths: [width(pa), width(pb)],
        });
    }
    cells(pairs)
}

/// The comparison in Markdown.
pub fn markdown(title: &str, c: &Comparison) -> String {
    let share = |n: usize| 100.0 * n as f64 / c.cells.max(1) as f64;
    let mut md = format!(
        "{title}: {} cells with samples of at least {MIN_PROCESSES_COMPARED} processes on both \
         sides{}. The machine's common shift (the median \
         ratio over the cells): {:.3}. **{} cells called different** from it ({:.1} %), the false \
         discovery rate held at 5 % (Benjamini-Hochberg over every cell's p-value); a plain 5 % \
         test per cell would call {} ({:.1} %), where chance alone gives about {:.0} even if \
         nothing differed. Against a ratio of 1 instead of the shift: {} ({:.1} %). The median \
         interval half-width of the cells: ±{:.1} %.",
        c.cells,
        match c.left_out {
            0 => String::new(),
            n => format!(
                " ({n} more left out with fewer on a side: rows pruned after a build's first \
                 process, one sample of layout and moment)"
            ),
        },
        c.shift,
        c.different,
        share(c.different),
        c.different_uncorrected,
        share(c.different_uncorrected),
        c.expected_by_chance,
        c.different_unshifted,
        share(c.different_unshifted),
        c.median_half_width * 100.0
    );
    if !c.flagged.is_empty() {
        let body = c.flagged.iter().take(40).map(|(key, i)| {
            vec![
                format!("`{key}`"),
                format!("{:.3}", i.estimate),
                format!("{:.3}–{:.3}", i.low, i.high),
            ]
        });
        md += &format!(
            "\n\nThe cells called different, the largest differences first (at most 40):\n\n{}",
            table("cell|ratio|95 % interval", body, 1)
        );
    }
    md
}

/// `cargo xtask bench-matrix --compare A B`: prints the comparison and
/// writes it to `out`.
pub fn run(a: &Path, b: &Path, out: &Path) -> anyhow::Result<()> {
    let load = |d: &Path| Results::load(d).map_err(anyhow::Error::msg);
    let (ra, rb) = (load(a)?, load(b)?);
    ensure!(
        ra.has_samples() && rb.has_samples(),
        "both runs need per-process samples (schema 3, samples.json): a run of the earlier \
         method has one process per build, nothing to compare by"
    );
    let c = runs(&ra, &rb);
    let title = format!(
        "Run A `{}` ({}, commit {}) against run B `{}` ({}, commit {}), ratios A / B",
        a.display(),
        ra.date,
        ra.git_commit,
        b.display(),
        rb.date,
        rb.git_commit
    );
    let md = markdown(&title, &c) + "\n";
    println!("{md}");
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    hq_bench_format::write_atomically(out, md.as_bytes()).map_err(anyhow::Error::msg)?;
    println!("bench-matrix: wrote {}", out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cell whose two sides are at levels `a` and `b`, each process and
    /// round jittered by up to ±2 % (a seeded xorshift per side).
    fn pair(key: &str, a: f64, b: f64) -> Pair {
        let side = |level: f64, seed: u64| -> Vec<Vec<f64>> {
            let mut x = seed_of(key) ^ seed;
            let mut jitter = move || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % 4001) as f64 / 100_000.0 - 0.02
            };
            (0..6)
                .map(|_| (0..3).map(|_| level * (1.0 + jitter())).collect())
                .collect()
        };
        Pair {
            key: key.to_owned(),
            a: side(a, 1),
            b: side(b, 2),
            half_widths: [0.01, 0.01],
        }
    }

    #[test]
    fn only_real_differences_are_called_different() {
        let mut pairs: Vec<Pair> = (0..50)
            .map(|i| pair(&format!("same{i}"), 100.0, 100.0))
            .collect();
        pairs.push(pair("faster", 130.0, 100.0));
        let c = cells(pairs);
        assert_eq!(c.cells, 51);
        assert_eq!(c.different, 1, "{c:?}");
        assert!((c.shift - 1.0).abs() < 0.02, "{c:?}");
        assert_eq!(c.flagged[0].0, "faster");
        assert!(c.flagged[0].1.above(1.2));
        assert!((c.expected_by_chance - 2.55).abs() < 1e-9);
        let md = markdown("A against B", &c);
        assert!(
            md.contains("**1 cells called different** from it") && md.contains("`faster`"),
            "{md}"
        );
        // The whole machine 6 % slower on side B: no cell moved against
        // the rest, though against 1 they all did.
        let mut pairs: Vec<Pair> = (0..50)
            .map(|i| pair(&format!("same{i}"), 106.0, 100.0))
            .collect();
        pairs.push(pair("faster", 140.0, 100.0));
        let c = cells(pairs);
        assert!((c.shift - 1.06).abs() < 0.02, "{c:?}");
        assert_eq!(
            (c.different, c.flagged[0].0.as_str()),
            (1, "faster"),
            "{c:?}"
        );
        assert!(c.different_unshifted > 40, "{c:?}");
        // A row pruned after its first process: one sample a side, 40 %
        // off, left out (its interval would be a point), not flagged.
        let mut pairs: Vec<Pair> = (0..50)
            .map(|i| pair(&format!("same{i}"), 100.0, 100.0))
            .collect();
        let mut pruned = pair("pruned", 140.0, 100.0);
        pruned.a.truncate(1);
        pruned.a[0].truncate(1);
        pairs.push(pruned);
        let c = cells(pairs);
        assert_eq!((c.cells, c.left_out, c.different), (50, 1, 0), "{c:?}");
        assert!(markdown("A against B", &c).contains("1 more left out"));
    }

    /// The A/A check, small: a run whose processes took two layouts in
    /// turn, where one cell's code lands badly in the second layout. The
    /// check calls that cell different and no other.
    #[test]
    fn the_a_a_check_finds_a_layout_effect_and_nothing_else() {
        use hq_bench_format::{ProcessRecord, ProcessSamples};
        let run = ConfigRun {
            name: "runtime".to_owned(),
            processes: (0..8)
                .map(|id| ProcessRecord {
                    id,
                    layout: Some(if id % 2 == 0 { 0 } else { 7 }),
                    ..ProcessRecord::default()
                })
                .collect(),
            ..ConfigRun::default()
        };
        // The figures as a run makes them from its cells' samples.
        let cell = |row: &str, slow_in_second: f64| {
            let p = pair(row, 100.0, 100.0);
            let per_process = (0..8u32)
                .map(|id| {
                    let side = if id % 2 == 0 { &p.a } else { &p.b };
                    let factor = if id % 2 == 0 { 1.0 } else { slow_in_second };
                    // ns per iteration of 4096 lookups at these speeds (M/s).
                    let ns = side[id as usize / 2]
                        .iter()
                        .map(|speed| 4096.0 / (speed / factor) * 1e3)
                        .collect();
                    ProcessSamples(id, ns)
                })
                .collect();
            (format!("queen/throughput/{row}"), (4096, per_process))
        };
        let mut cells: std::collections::BTreeMap<_, _> =
            (0..30).map(|i| cell(&format!("row{i}"), 1.0)).collect();
        cells.extend([cell("unlucky", 1.4)]);
        let figures = crate::results::figures("runtime", &cells).expect("figures of the samples");
        let c = layouts(&run, &figures, [0, 7]);
        assert_eq!(c.cells, 31);
        assert_eq!(c.different, 1, "{c:?}");
        assert!(c.flagged[0].0.contains("unlucky"), "{c:?}");
    }
}
