//! The Markdown matrix and the chart of one run, and of several runs merged.

use crate::chart;
use crate::markdown::{Keys, Line, code, distinct, line, table};
use anyhow::Context as _;
use hq_bench_format::decide::{self, CellDecision, Decision, SetwiseRun};
use hq_bench_format::{
    BenchMeta, CHART_SVG, CHOICE_SVG, Figure, MATRIX_MD, PER_PIECE_SUFFIX, REFERENCE_ROW,
};
use hq_bench_format::{ENGINE_WORKLOADS, Results, RowKind, RowMeta, SPREAD_FLAG, WORKLOADS};
use std::{collections::HashSet, path::Path};

const PIECES: [&str; 3] = ["queen", "rook", "bishop"];
/// A set-wise entry this much slower than its own per-piece loop is flagged
/// (the noise between two runs of one figure on these machines is about 5 %).
const TOLERANCE: f64 = 0.95;

/// `1234 ±1.2 % (1.02×)`: the figure, its interval's half-width, and its
/// ratio to PEXT, with `?` after an unresolved figure's interval; `1234
/// (1.02×) ±` for a run of the earlier method whose samples spread more
/// than [`SPREAD_FLAG`]; `—` when not measured.
pub(crate) fn cell(r: &Results, config: &str, row: &str, piece: &str, workload: &str) -> String {
    let Some(f) = r.figure(config, row, piece, workload) else {
        return "—".to_owned();
    };
    let ratio = f.ratio_to_pext.map(|x| format!(" ({x:.2}×)"));
    let (v, ratio) = (f.mlookups_per_s, ratio.unwrap_or_default());
    match f.interval {
        Some(i) => {
            let unresolved = if f.unresolved.is_some() { "?" } else { "" };
            format!("{v:.0} ±{:.1} %{unresolved}{ratio}", i.half_width() * 100.0)
        }
        None => {
            let noisy = if f.spread > SPREAD_FLAG { " ±" } else { "" };
            format!("{v:.0}{ratio}{noisy}")
        }
    }
}

/// The configurations that ran, and what their bench binaries reported.
pub(crate) fn metas(r: &Results) -> impl Iterator<Item = (&str, &BenchMeta)> {
    let ran = r.configs.iter().filter_map(|c| Some((c, c.meta.as_ref()?)));
    ran.map(|(c, m)| (c.name.as_str(), m))
}

/// Whether `config`/`row` has a figure (of `piece`, if given).
fn measured(r: &Results, config: &str, row: &str, piece: Option<&str>) -> bool {
    let of = |f: &&Figure| piece.is_none_or(|p| f.piece == p);
    let mut figures = r.figures.iter().filter(of);
    figures.any(|f| f.config == config && f.row == row)
}

/// Every measured (configuration, row) in run order, but the per-piece rows
/// (see [`per_piece_loops`]).
fn rows_of(r: &Results) -> Vec<(&str, &RowMeta)> {
    let all = metas(r).flat_map(|(c, m)| m.rows.iter().map(move |row| (c, row)));
    let shown =
        |(c, m): &(&str, &RowMeta)| m.kind != RowKind::PerPiece && measured(r, c, &m.name, None);
    all.filter(shown).collect()
}

/// The table of the `piece` figures of the measured `keys`, a column per
/// (workload, title), each line led by its build (if `build`), row and kind.
pub(crate) fn piece_table(
    r: &Results,
    keys: &Keys,
    piece: &str,
    columns: &[(&str, &str)],
    build: bool,
) -> String {
    let from = usize::from(!build);
    let of = |(c, m): &&(&str, &RowMeta)| measured(r, c, &m.name, Some(piece));
    let body = keys.iter().filter(of).map(|(c, m)| {
        let cells = columns.iter().map(|(w, _)| cell(r, c, &m.name, piece, w));
        line(&[*c, &code(&m.name), m.kind.name()][from..], cells)
    });
    let head = ["build", "row", "kind"][from..]
        .iter()
        .chain(columns.iter().map(|(_, t)| t));
    table(&head.copied().collect::<Vec<_>>().join("|"), body, 3 - from)
}

/// The Markdown matrix of one run: its blocks, separated by blank lines.
pub fn markdown(r: &Results) -> String {
    let (cpu, rows) = (&r.cpu, rows_of(r));
    let (model, summary, id) = (&cpu.model_name, cpu.summary(), &cpu.id);
    let (rustc, commit, date) = (&r.rustc, &r.git_commit, &r.date);
    let (seconds, statistic) = (r.total_seconds, &r.statistic);
    let quick = "**quick** (tiny samples: checks the pipeline, not the speed)";
    let run = if r.quick { quick } else { "full" };
    let spread = SPREAD_FLAG * 100.0;
    let marks = match r.schema {
        2 => format!(
            "A cell marked ± spread more than {spread:.0} % over its samples (interquartile range \
             over the median): a run of the earlier method, one process per build."
        ),
        _ => "`±` gives half the width of the figure's 95 % interval (the ratio's own interval, \
              paired by process and round, is in `results.json`); `?` marks a deciding figure \
              left unresolved, its interval still wider than ±3 % when the run's time for \
              sampling it further ran out."
            .to_owned(),
    };
    let title = match &r.target {
        None => model.to_string(),
        Some(t) => {
            let features = match t.features.is_empty() {
                true => String::new(),
                false => format!(" +{}", t.features.join(",+")),
            };
            format!(
                "{}{features} under {} on {model} (run `{}`)",
                t.triple,
                t.runtime,
                r.id()
            )
        }
    };
    let mut md = vec![format!(
        "# Slider-attack benchmark matrix: {title}\n\n* CPU: {summary} (id `{id}`)\n* {rustc}; \
         commit {commit}; {date}\n* {run} run, {seconds:.0} s in all. Figure: {statistic}.\n* \
         Cells: million lookups per second (ratio to the `{REFERENCE_ROW}` backend measured in \
         the same build, for the same piece and workload). ns per lookup = 1000 / cell. Set-wise \
         counts one call (the union over 1-2, 4-6 or 10-14 sliders) as one lookup. {marks}"
    )];
    let builds = r.configs.iter().map(|c| {
        let args = code(&c.cargo_args.join(" "));
        let Some(m) = &c.meta else {
            let why = format!("skipped: {}", c.skip_reason.as_deref().unwrap_or("?"));
            return line(&[&c.name, "—", &args, &why, "—", "—"], []);
        };
        let facade = format!("{}: {} ({})", m.mode, m.choice, m.class);
        let seconds = [c.build_seconds, c.run_seconds].map(|s| format!("{s:.0}"));
        line(&[&c.name, &code(&c.rustflags), &args, &facade], seconds)
    });
    let head = "build|RUSTFLAGS|cargo bench arguments|facade|build s|run s";
    md.push(format!("## Builds\n\n{}", table(head, builds, 4)));
    let skipped = metas(r).flat_map(|(c, m)| m.skipped.iter().map(move |s| (c, s)));
    let skipped = skipped.map(|(c, s)| format!("`{}` ({c}): {}", s.name, s.why));
    let checks = metas(r).filter_map(|(c, m)| Some((c, m.position_check.as_ref()?)));
    let checks = checks.map(|(c, p)| {
        let (cell, first, last, bias) = (&p.cell, p.first_ns, p.last_ns, p.bias() * 100.0);
        format!("{c}: `{cell}` {first:.0} ns first, {last:.0} ns last ({bias:+.1} %)")
    });
    let mut note = |what: &str, items: Vec<String>| {
        if !items.is_empty() {
            md.push(format!("{what}: {}.", items.join("; ")));
        }
    };
    let position = "Position check (one cell timed before and after all others in every \
                    round, median per iteration)";
    note("Skipped rows", distinct(skipped));
    note(position, checks.collect());
    let all = r.figures.len();
    match r.schema {
        2 => {
            let noisy = r.figures.iter().filter(|f| f.spread > SPREAD_FLAG).count();
            md.push(format!(
                "Cells whose samples spread more than {spread:.0} %: {noisy} of {all}."
            ));
        }
        _ => md.extend(uncertainty(r)),
    }
    for piece in PIECES {
        let title = format!("## {piece}: million lookups / s (× PEXT of the same build)");
        let table = piece_table(r, &rows, piece, &WORKLOADS, true);
        md.push(format!("{title}\n\n{table}"));
    }
    let engine: Vec<_> = ENGINE_WORKLOADS.iter().map(|(w, _)| *w).collect();
    let in_engine = |(c, m): &&(&str, &RowMeta)| {
        r.figures
            .iter()
            .any(|f| f.config == *c && f.row == m.name && engine.contains(&f.workload.as_str()))
    };
    let engine_rows: Vec<(&str, &RowMeta)> = rows.iter().filter(in_engine).copied().collect();
    if !engine_rows.is_empty() {
        md.push(
            "## The engine-shaped loop

The same lookups, batches and set-wise calls through \
             `hq_benches::engine`: a generic helper in the bench crate that takes the lookup as \
             a closure, not forced inline, with no barrier on the inputs (`benches/README.md` \
             compares the two loop shapes). Million lookups / s (× PEXT of the same build)."
                .to_owned(),
        );
        for piece in PIECES {
            let table = piece_table(r, &engine_rows, piece, &ENGINE_WORKLOADS, true);
            md.push(format!(
                "### {piece}

{table}"
            ));
        }
    }
    md.extend(decisions(r));
    md.extend(facade_against_backends(r));
    md.extend(facade_against_plan(r));
    md.extend(peers(r, &rows));
    md.extend(per_piece_loops(r, &rows));
    md.push("## Perft (million nodes / s, one thread)".to_owned());
    let perft = r.perft.iter().map(|p| {
        let numbers = [p.depth.to_string(), p.nodes.to_string()];
        let interval = p.interval.map_or(String::new(), |i| {
            let unresolved = if p.unresolved.is_some() { "?" } else { "" };
            format!(" ±{:.1} %{unresolved}", i.half_width() * 100.0)
        });
        let times = [
            format!("{:.3}", p.seconds),
            format!("{:.1}{interval}", p.mnps),
        ];
        let cells = numbers.into_iter().chain(times);
        line(&[&p.config, &code(&p.row), &p.position], cells)
    });
    let head = "build|row|position|depth|nodes|s|M nodes/s";
    if !r.perft.is_empty() {
        md.push(table(head, perft, 3));
    } else if r.perft_note.is_none() {
        md.push("No perft figures in this run.".to_owned());
    }
    md.extend(r.perft_note.clone());
    let calibration = r.calibration.as_ref().map(|c| c.summary());
    md.extend(calibration.map(|c| format!("## Calibration\n\n{c}.")));
    md.extend(processes(r));
    let legend = rows.iter().map(|(c, m)| {
        let (row, kind, label) = (&m.name, m.kind.name(), &m.label);
        format!("* {c} `{row}` ({kind}): {label}\n")
    });
    md.push(format!("## Rows\n\n{}", legend.collect::<String>()));
    md.join("\n\n")
}

/// A schema-3 run's uncertainty in a few lines: the intervals' widths, the
/// unresolved deciding cells, the A/A check, and the steps' times.
fn uncertainty(r: &Results) -> Vec<String> {
    let mut widths: Vec<f64> = r
        .figures
        .iter()
        .filter_map(|f| f.interval.map(|i| i.half_width()))
        .collect();
    let all = widths.len();
    let wide = widths.iter().filter(|&&w| w > 0.03).count();
    let median = hq_bench_stats::median(&mut widths) * 100.0;
    let mut md = vec![format!(
        "## Uncertainty\n\nMedian interval half-width ±{median:.1} % over {all} cells; {wide} wider \
         than ±3 %. How to read an interval and a tie: `docs/benchmarks.md`."
    )];
    let unresolved: Vec<String> = r
        .figures
        .iter()
        .filter_map(|f| {
            let why = f.unresolved.as_ref()?;
            Some(format!(
                "`{}/{}/{}/{}` ({why})",
                f.config, f.piece, f.workload, f.row
            ))
        })
        .chain(r.perft.iter().filter_map(|p| {
            let why = p.unresolved.as_ref()?;
            Some(format!(
                "perft `{}` `{}` {} ({why})",
                p.config, p.row, p.position
            ))
        }))
        .collect();
    md.push(match unresolved.is_empty() {
        true => "Unresolved deciding cells: none.".to_owned(),
        false => format!("Unresolved deciding cells: {}.", unresolved.join("; ")),
    });
    if let Some(aa) = &r.aa_check {
        let title = format!(
            "**A/A check**: the runtime build's processes of two of its code layouts (link-order \
             seeds {} and {}; 0 is the build's own order, the others LLD `--shuffle-sections`), \
             each cell of one layout against the other's; the figures are taken over every layout",
            aa.layouts[0], aa.layouts[1]
        );
        md.push(crate::compare::markdown(&title, &aa.comparison));
    }
    if !r.timings.is_empty() {
        let steps = r
            .timings
            .iter()
            .map(|t| format!("{} {:.0} s", t.step, t.seconds));
        md.push(format!(
            "Steps: {} ({:.0} s in all).",
            steps.collect::<Vec<_>>().join(", "),
            r.total_seconds
        ));
    }
    md
}

/// The decisions the run's figures make (schema 3): per entry point,
/// piece and column, the rule's choice (`hq_bench_format::decide`), and
/// the plan the runtime build's facade ran; per piece, the set-wise
/// kernel judged over the columns it serves (`decide::joint`).
fn decisions(r: &Results) -> Vec<String> {
    if !r.has_samples() {
        return Vec::new();
    }
    let footprint = |row: &str| hq::Backend::from_name(row).ok().map(|b| b.table_bytes());
    let plan: Option<hq::Plan> = metas(r)
        .find(|(c, _)| *c == "runtime")
        .and_then(|(_, m)| m.plan.as_deref()?.parse().ok());
    let keyed = |piece: &str| {
        let slider = hq::Slider::ALL.into_iter().find(|s| s.name() == piece)?;
        Some(hq::unstable::keyed_for(slider)?.name().to_owned())
    };
    let cells = decide::decisions(r, footprint, keyed);
    // What the plan ran in a cell, and how a set-wise column's calls ran
    // (`decide::setwise_run`): a column whose slider counts the loop over
    // single lookups covers ran those lookups.
    let ran = |d: &CellDecision| -> Option<(hq::Entry, String, Option<SetwiseRun>)> {
        let p = plan?;
        let entry = hq::Entry::ALL.into_iter().find(|e| e.name() == d.entry)?;
        let slider = hq::Slider::ALL.into_iter().find(|s| s.name() == d.piece)?;
        let run = decide::setwise_run(d.workload, p.setwise_loop.get(slider))
            .filter(|_| entry == hq::Entry::Setwise);
        let backend = match run {
            Some(SetwiseRun::Lookups) => p.get(hq::Entry::Single, slider),
            _ => p.get(entry, slider),
        };
        Some((entry, backend.name().to_owned(), run))
    };
    let mut body = Vec::new();
    for d in &cells {
        let shown = ran(d).map(|(entry, backend, run)| {
            let text = match run {
                Some(SetwiseRun::Lookups) => format!("`{backend}` (loop)"),
                _ => format!("`{backend}`"),
            };
            // One kernel serves a piece's set-wise columns: there it
            // differs only where the column clears it.
            let differs = match entry {
                hq::Entry::Setwise => !d.decision.tied.contains(&backend),
                _ => backend != d.decision.chosen,
            };
            match differs {
                true => format!("**{text}**"),
                false => text,
            }
        });
        body.push(line(
            &[d.entry, d.piece, d.workload],
            [d.decision.to_string(), shown.unwrap_or("—".into())],
        ));
        if d.workload != "setwise-many" {
            continue;
        }
        // After a piece's last set-wise column: its kernel, over the
        // columns the plan's kernel alone serves, as the data test judges
        // it (all three without a plan).
        let served: Vec<&Decision> = cells
            .iter()
            .filter(|c| c.entry == "setwise" && c.piece == d.piece)
            .filter(|c| ran(c).is_none_or(|(_, _, run)| run == Some(SetwiseRun::Kernel)))
            .map(|c| &c.decision)
            .collect();
        let Some(joint) = decide::joint(&served, footprint) else {
            continue;
        };
        let kernel = plan.and_then(|p| {
            let slider = hq::Slider::ALL.into_iter().find(|s| s.name() == d.piece)?;
            Some(p.get(hq::Entry::Setwise, slider).name())
        });
        let shown = kernel.map(|k| match k == joint.chosen {
            true => format!("`{k}`"),
            false => format!("**`{k}`**"),
        });
        body.push(line(
            &[d.entry, d.piece, "kernel"],
            [joint.to_string(), shown.unwrap_or("—".into())],
        ));
    }
    vec![
        "## Decisions\n\nPer entry point, piece and column: the backend the figures choose. One \
         replaces another only when the interval of their paired ratio clears 1; single lookups \
         are decided by the hash perft (a tie that holds the backend the free functions key keeps \
         it), then the engine-shaped loop; candidates that tie through \
         every level go to the smallest table footprint. One kernel serves a piece's set-wise \
         columns: its row (`kernel`) is the smallest table that no column it serves clears. \
         `plan` is what the runtime build's facade ran (its class's plan; `(loop)`: single \
         lookups serve the column's set-wise calls; **bold** where it differs from the \
         decision, or in a set-wise column where the column clears it)."
            .to_owned(),
        table("entry|piece|column|decision|plan", body.into_iter(), 5),
    ]
}

/// The processes of every build: how many, the steal and huge pages seen,
/// and those left out.
fn processes(r: &Results) -> Vec<String> {
    let lists = r
        .configs
        .iter()
        .map(|c| (format!("bench `{}`", c.name), &c.processes))
        .chain(
            r.perft_builds
                .iter()
                .map(|b| (format!("perft `{}`", b.config), &b.processes)),
        )
        .filter(|(_, p)| !p.is_empty());
    let body: Vec<Line> = lists
        .map(|(name, ps)| {
            let max = |f: &dyn Fn(&hq_bench_format::ProcessRecord) -> Option<f64>| {
                let v: Vec<f64> = ps.iter().filter_map(f).collect();
                match v.is_empty() {
                    true => "unknown".to_owned(),
                    false => {
                        let (lo, hi) = v
                            .iter()
                            .fold((f64::INFINITY, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
                        format!("{:.1}-{:.1} %", lo * 100.0, hi * 100.0)
                    }
                }
            };
            let excluded = ps.iter().filter(|p| p.excluded.is_some()).count();
            let seconds: f64 = ps.iter().map(|p| p.seconds).sum();
            line(
                &[&name],
                [
                    ps.len().to_string(),
                    excluded.to_string(),
                    max(&|p| p.steal),
                    max(&|p| p.huge_pages),
                    format!("{seconds:.0}"),
                ],
            )
        })
        .collect();
    if body.is_empty() {
        return Vec::new();
    }
    vec![
        "## Processes\n\nEvery build's fresh processes (their seeds, environment padding, clock and \
         position checks are in `results.json`): the steal share the OS reported while each ran, and \
         the share of its 64 MiB buffer on 2 MiB pages. A process under heavy steal is left out and \
         taken again."
            .to_owned(),
        table(
            "processes of|processes|left out|steal|huge pages|s",
            body,
            1,
        ),
    ]
}

/// The bar the facade's free functions must clear against a backend row.
const FACADE_BAR: f64 = 0.95;

/// The `hq` row (the free functions; in the latency column `hq-latency`,
/// the latency functions) of each build against its backends:
/// in a forced build against the forced backend's row, elsewhere against
/// the best backend row of the cell, and in the cache column against the
/// row of the backend the plan chose for single lookups. A cell below
/// [`FACADE_BAR`] is marked.
fn facade_against_backends(r: &Results) -> Vec<String> {
    let columns: Vec<(&str, &str)> = WORKLOADS.iter().chain(&ENGINE_WORKLOADS).copied().collect();
    let (mut body, mut below) = (Vec::new(), Vec::new());
    for (c, meta) in metas(r) {
        let plan: Option<hq::Plan> = meta.plan.as_deref().and_then(|p| p.parse().ok());
        let forced = hq_bench_format::forced_backend(c).map(|(b, _)| b);
        let inlined = forced
            .map(|b| format!("{b}{}", hq_bench_format::INLINED_SUFFIX))
            .filter(|i| meta.rows.iter().any(|m| &m.name == i));
        let backends: Vec<&str> = meta
            .rows
            .iter()
            .filter(|m| m.kind == RowKind::Backend)
            .map(|m| m.name.as_str())
            .collect();
        for piece in PIECES {
            let figure = |row: &str, w: &str| r.figure(c, row, piece, w).map(|f| f.mlookups_per_s);
            if figure("hq", "throughput").is_none() {
                continue;
            }
            let cells = columns.iter().map(|(w, title)| {
                // Chains of lookups are the latency functions' column.
                let facade = match (*w, figure("hq-latency", w)) {
                    ("latency", Some(f)) => Some(f),
                    _ => figure("hq", w),
                };
                let Some(hq) = facade else {
                    return "—".to_owned();
                };
                let slider = hq::Slider::ALL.into_iter().find(|s| s.name() == piece);
                let chosen = plan.zip(slider).map(|(p, s)| p.single.get(s).name());
                let reference = match (forced, *w) {
                    // A portable backend's inlined row where it has one
                    // (its token row runs as a job at another level).
                    (Some(b), _) => inlined
                        .as_deref()
                        .and_then(|i| Some((i, figure(i, w)?)))
                        .or_else(|| Some((b, figure(b, w)?))),
                    (None, "cache") => chosen.and_then(|b| Some((b, figure(b, w)?))),
                    (None, _) => backends
                        .iter()
                        .filter_map(|&b| Some((b, figure(b, w)?)))
                        .max_by(|a, b| a.1.total_cmp(&b.1)),
                };
                let Some((row, best)) = reference else {
                    return "—".to_owned();
                };
                // Paired where the run has samples.
                let facade_row = match (*w, figure("hq-latency", w)) {
                    ("latency", Some(_)) => "hq-latency",
                    _ => "hq",
                };
                let paired = r
                    .figure(c, facade_row, piece, w)
                    .zip(r.figure(c, row, piece, w))
                    .and_then(|(a, b)| Results::speed_ratio(a, b));
                let ratio = paired.map_or(hq / best, |i| i.estimate);
                let engine = if w.starts_with("engine") {
                    "engine "
                } else {
                    ""
                };
                if ratio < FACADE_BAR {
                    below.push(format!("{c} {piece} {engine}{title} {ratio:.2} ({row})"));
                }
                let flag = if ratio < FACADE_BAR { "**" } else { "" };
                format!("{flag}{ratio:.2}{flag} `{row}`")
            });
            body.push(line(&[c, piece], cells));
        }
    }
    if body.is_empty() {
        return Vec::new();
    }
    let titles = columns.iter().map(|(w, t)| match w.starts_with("engine") {
        true => format!("engine {t}"),
        false => t.to_string(),
    });
    let head = format!("build|piece|{}", titles.collect::<Vec<_>>().join("|"));
    if below.is_empty() {
        below.push("none".to_owned());
    }
    vec![
        format!(
            "## The free functions against their backends

The `hq` row (in the latency \
             column `hq-latency`, the functions for chains) over: in a \
             `force-<backend>` build, that backend's row (for a portable backend, its `-inlined` row: \
             its token inlined into loops at the build's own level); in the cache column, the row of the \
             backend the plan chose for single lookups; elsewhere the cell's best backend row \
             (named). **Bold** is below {FACADE_BAR:.2}."
        ),
        table(&head, body, 2),
        format!("Below {FACADE_BAR:.2}: {}.", below.join("; ")),
    ]
}

/// The bars of the free functions against the row of the backend their
/// plan runs (issue 83): the paired ratio's estimate, its interval's low
/// end, and the 10th percentile of the per-process ratios (each process is
/// a code layout of its own: no sizeable share of layouts in a slow mode).
const PLAN_BARS: [f64; 3] = [0.97, 0.93, 0.90];

/// The columns where the free functions' single lookups are judged against
/// their plan's backend, and whether the interval and p10 bars apply (the
/// arrays loop, table-bound and far noisier, is held to the ratio alone).
const PLAN_COLUMNS: [(&str, &str, bool); 4] = [
    ("throughput", "throughput", true),
    ("cache", "cache pressure", true),
    ("engine-throughput", "engine throughput", true),
    ("engine-arrays", "engine arrays 100k", false),
];

/// The `hq` row of each build that chooses at run time against the row of
/// the backend its plan runs for the piece's single lookups: the paired
/// ratio with its interval, and the 10th percentile of its per-process
/// ratios. A cell below any of [`PLAN_BARS`] is marked.
fn facade_against_plan(r: &Results) -> Vec<String> {
    let (mut body, mut below) = (Vec::new(), Vec::new());
    for (c, meta) in metas(r) {
        let Some(plan) = meta
            .plan
            .as_deref()
            .and_then(|p| p.parse::<hq::Plan>().ok())
        else {
            continue;
        };
        // Builds that choose at run time (a `force-` build or one without
        // `std` fixes its backends, whose rows run as jobs at other levels).
        if meta.mode != "run-time" || hq_bench_format::forced_backend(c).is_some() {
            continue;
        }
        for piece in PIECES {
            let Some(slider) = hq::Slider::ALL.into_iter().find(|s| s.name() == piece) else {
                continue;
            };
            let chosen = plan.single.get(slider).name();
            let pair = |w: &str| {
                r.figure(c, "hq", piece, w)
                    .zip(r.figure(c, chosen, piece, w))
            };
            if PLAN_COLUMNS.iter().all(|(w, ..)| pair(w).is_none()) {
                continue;
            }
            let cells = PLAN_COLUMNS.iter().map(|(w, title, spread)| {
                let Some((hq, planned)) = pair(w) else {
                    return "—".to_owned();
                };
                let Some(i) = Results::speed_ratio(hq, planned) else {
                    return "—".to_owned();
                };
                let p10 =
                    hq_bench_stats::percentile(&Results::speed_ratio_by_process(hq, planned), 0.1);
                let text = format!(
                    "{:.3} ({:.3}–{:.3}), p10 {p10:.3}",
                    i.estimate, i.low, i.high
                );
                let [estimate, low, tenth] = PLAN_BARS;
                if i.estimate < estimate || (*spread && (i.low < low || p10 < tenth)) {
                    below.push(format!("{c} {piece} {title} {text}"));
                    return format!("**{text}**");
                }
                text
            });
            body.push(line(&[c, piece, &code(chosen)], cells));
        }
    }
    if body.is_empty() {
        return Vec::new();
    }
    let titles: Vec<_> = PLAN_COLUMNS.iter().map(|(_, t, _)| *t).collect();
    let head = format!("build|piece|plan's single lookups|{}", titles.join("|"));
    if below.is_empty() {
        below.push("none".to_owned());
    }
    let [estimate, low, tenth] = PLAN_BARS;
    vec![
        format!(
            "## The free functions against their plan's backend

The `hq` row over the row of the \
             backend the build's plan runs for the piece's single lookups (which backend that is \
             is the choice's business; this table is the call's cost): the paired ratio, its 95 % \
             interval, and the 10th percentile (`p10`) of the per-process ratios, each process's \
             median round (each process links a code layout of its own). **Bold** misses a bar: \
             the ratio below {estimate:.2}, or (but in the arrays column, table-bound and far \
             noisier) the interval's low end below {low:.2} or p10 below {tenth:.2}."
        ),
        table(&head, body, 3),
        format!("Below a bar: {}.", below.join("; ")),
    ]
}

/// The peer crates in the build where each is fastest (issue 13: a peer is
/// shown at its best, with the build named), and its native figure over its
/// default-build one. A crate's variants (cozy-chess's black magic and PEXT,
/// chess's magic and BMI2) are one crate here: each build shows its fastest.
fn peers(r: &Results, rows: &Keys) -> Vec<String> {
    // `cozy-chess-magic` -> `cozy-chess`.
    fn crate_of(row: &str) -> &str {
        row.rsplit_once('-').map_or(row, |(c, _)| c)
    }
    let peers = || rows.iter().filter(|(_, m)| m.kind == RowKind::Peer);
    let mut crates: Vec<&str> = peers().map(|(_, m)| crate_of(&m.name)).collect();
    crates.sort_unstable();
    crates.dedup();
    let mut body = Vec::new();
    for name in &crates {
        for w in ["throughput", "latency", "cache"] {
            let mine = peers().filter(|(_, m)| crate_of(&m.name) == *name);
            let queen = |(c, m): &(&str, &RowMeta)| r.figure(c, &m.name, "queen", w);
            // The fastest first.
            let mut figures: Vec<_> = mine.filter_map(queen).collect();
            figures.sort_by(|a, b| b.mlookups_per_s.total_cmp(&a.mlookups_per_s));
            let best =
                |build: Option<&str>| figures.iter().find(|f| build.is_none_or(|b| f.config == b));
            let [runtime, native, any] = [Some("runtime"), Some("native"), None].map(best);
            let show = |f: Option<&&Figure>, build: &str| {
                let show = |f: &&Figure| format!("{:.0} (`{}`{build})", f.mlookups_per_s, f.row);
                f.map_or("—".to_owned(), show)
            };
            let ratio = runtime
                .zip(native)
                .map(|(a, b)| b.mlookups_per_s / a.mlookups_per_s);
            let ratio = ratio.map_or("—".to_owned(), |x| format!("{x:.2}"));
            let build = any.map(|f| format!(", {}", f.config)).unwrap_or_default();
            let [runtime, native] = [runtime, native].map(|f| show(f, ""));
            let cells = [runtime, native, ratio, show(any, &build)];
            body.push(line(&[name, w], cells));
        }
    }
    if body.is_empty() {
        return Vec::new();
    }
    let head = "peer|workload|runtime|native|native / runtime|best";
    vec![
        "## Peers at their best build (queen, million lookups / s)\n\nEach peer crate's fastest \
         variant in each build; `best` names the faster build. `native / runtime` ≥ 0.85 means \
         the native build does not handicap the peer."
            .to_owned(),
        table(head, body, 2),
    ]
}

/// Each backend's set-wise entry against a loop over its own single lookups
/// (the `<backend>-per-piece` rows), per build, piece and slider count.
fn per_piece_loops(r: &Results, rows: &Keys) -> Vec<String> {
    let crowds = &WORKLOADS[3..6];
    let (mut body, mut slower) = (Vec::new(), Vec::new());
    let backends = rows.iter().filter(|(_, m)| m.kind == RowKind::Backend);
    for ((c, m), piece) in backends.flat_map(|k| PIECES.map(|piece| (k, piece))) {
        let looped = format!("{}{PER_PIECE_SUFFIX}", m.name);
        let figure = |row: &str, w| r.figure(c, row, piece, w);
        let pair = |w| figure(&m.name, w).zip(figure(&looped, w));
        if crowds.iter().all(|(w, _)| pair(w).is_none()) {
            continue;
        }
        let cells = crowds.iter().map(|(w, title)| {
            let Some((entry, per_piece)) = pair(w) else {
                return "—".to_owned();
            };
            let (e, l) = (entry.mlookups_per_s, per_piece.mlookups_per_s);
            if e / l < TOLERANCE {
                slower.push(format!("{c} `{}` {piece} {title}: {:.2}×", m.name, e / l));
            }
            let flag = if e / l < TOLERANCE { " **slower**" } else { "" };
            format!("{e:.0} / {l:.0} = {:.2}×{flag}", e / l)
        });
        body.push(line(&[c, &code(&m.name), &code(&looped), piece], cells));
    }
    if body.is_empty() {
        return Vec::new();
    }
    if slower.is_empty() {
        slower.push("none".to_owned());
    }
    let titles: Vec<_> = crowds.iter().map(|(_, t)| *t).collect();
    let head = format!("build|backend|per-piece row|piece|{}", titles.join("|"));
    vec![
        format!(
            "## Set-wise entry against the backend's own per-piece loop\n\nMillion set-wise \
             calls / s: the backend's set-wise entry / a loop over its own single lookups (row \
             `<backend>{PER_PIECE_SUFFIX}`, compiled the same way) = ratio. **slower** marks an \
             entry below {TOLERANCE:.2}× its loop."
        ),
        table(&head, body, 4),
        format!(
            "Entries slower than their per-piece loop: {}.",
            slower.join("; ")
        ),
    ]
}

/// Writes `text` to `path`.
pub(crate) fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    hq_bench_format::write_atomically(path, text.as_bytes()).map_err(anyhow::Error::msg)
}

/// Writes `matrix.md` and `chart.svg` of one run into `dir`.
pub fn write_single(r: &Results, dir: &Path) -> anyhow::Result<()> {
    write(&dir.join(MATRIX_MD), &markdown(r))?;
    let panels = [
        ("throughput", "queen throughput"),
        ("latency", "queen latency"),
        ("cache", "queen + 64 MiB random reads"),
    ];
    let (model, quick) = (&r.cpu.model_name, if r.quick { " - QUICK RUN" } else { "" });
    let title = format!("Queen attacks, million lookups/s (x PEXT) - {model}{quick}");
    let panels = panels.map(|(w, title)| (title.to_owned(), r, w));
    chart::draw(&dir.join(CHART_SVG), &title, &rows_of(r), &panels)?;
    if r.schema >= 3 {
        let title = format!(
            "The class's choice, the best backend and the best peer, runtime build - {model}{quick}"
        );
        chart::draw_choices(&dir.join(CHOICE_SVG), &title, r)?;
    }
    Ok(())
}

/// Writes one Markdown matrix and one chart for several runs, a column group
/// per run (A, B, ...).
pub fn write_merged(runs: &[(String, Results)], out: &Path) -> anyhow::Result<()> {
    let mut keys: Vec<_> = runs.iter().flat_map(|(_, r)| rows_of(r)).collect();
    let mut seen = HashSet::new();
    keys.retain(|(c, m)| seen.insert((*c, &m.name)));
    let tag = |i: usize| char::from(b'A' + (i % 26) as u8);
    let list = runs.iter().enumerate().map(|(i, (dir, r))| {
        let (tag, quick) = (tag(i), if r.quick { "; **quick** run" } else { "" });
        let (cpu, rustc, commit, date) = (r.cpu.summary(), &r.rustc, &r.git_commit, &r.date);
        format!("* **{tag}** = `{dir}`: {cpu}; {rustc}; commit {commit}; {date}{quick}\n")
    });
    let cols = [
        ("throughput", "thr"),
        ("latency", "lat"),
        ("cache", "cache"),
    ];
    let groups =
        (0..runs.len()).flat_map(|i| cols.map(|(_, short)| format!("|{} {short}", tag(i))));
    let body = keys.iter().map(|(c, m)| {
        let cells = runs
            .iter()
            .flat_map(|(_, r)| cols.map(|(w, _)| cell(r, c, &m.name, "queen", w)));
        line(&[c, &code(&m.name)], cells)
    });
    let table = table(&format!("build|row{}", groups.collect::<String>()), body, 2);
    let (n, list) = (runs.len(), list.collect::<String>());
    let md = format!(
        "# Slider-attack benchmark matrix: {n} runs merged\n\n{list}\nQueen, million lookups / s \
         (× PEXT of the same run and build). Column group per run.\n\n{table}\n"
    );
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let (md_path, svg_path) = (out.join(MATRIX_MD), out.join(CHART_SVG));
    write(&md_path, &md)?;
    // The chart shows queen throughput: rows without it (the reads-only floor) are left out.
    let throughput = |c: &str, row: &str| {
        let mut figures = runs
            .iter()
            .map(|(_, r)| r.figure(c, row, "queen", "throughput"));
        figures.any(|f| f.is_some())
    };
    keys.retain(|(c, m)| throughput(c, &m.name));
    let panels = runs.iter().enumerate().map(|(i, (_, r))| {
        let quick = if r.quick { " (quick run)" } else { "" };
        let title = format!("{}: {}{quick}", tag(i), r.cpu.model_name);
        (title, r, "throughput")
    });
    let title = "Queen throughput, million lookups/s (x PEXT), per run";
    chart::draw(&svg_path, title, &keys, &panels.collect::<Vec<_>>())?;
    let (md_path, svg_path) = (md_path.display(), svg_path.display());
    println!("merged {n} runs into {md_path} and {svg_path}");
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn tables_are_markdown_with_the_figures_right_aligned() {
        let table = super::table("row|figure", [vec!["`a`".into(), "1".into()]], 1);
        assert_eq!(
            table,
            "| row | figure |\n|-----|-------:|\n| `a` |      1 |"
        );
    }

    /// The plan table marks a cell whose ratio and interval are fine but
    /// four processes in thirty (code layouts) run the free functions in a
    /// slow mode, and leaves a cell alone whose every process is level.
    #[test]
    fn the_plan_table_marks_a_slow_layout_and_spares_a_level_cell() {
        use hq_bench_format::{ProcessSamples, Results};
        let plan = hq::Plan::all(hq::Backend::Pext).to_string();
        let mut r: Results = serde_json::from_str(&format!(
            r#"{{"schema": 3, "quick": false, "rustc": "rustc", "git_commit": "abc",
            "date": "2026-01-01T00:00:00Z", "total_seconds": 1, "statistic": "median",
            "cpu": {{"id": "synthetic", "vendor": "AMD", "model_name": "test", "family": 25,
                "model": 17, "stepping": 1, "features": {{}}}},
            "configs": [{{"name": "runtime", "description": "", "rustflags": "",
                "cargo_args": [], "skip_reason": null, "build_seconds": 0, "run_seconds": 0,
                "meta": {{"mode": "run-time", "class": "test", "inputs": 4096,
                    "checked_cases": 1, "plan": "{plan}",
                    "choice": {{"single": "pext", "batch": "pext", "setwise": "pext"}},
                    "rows": [{{"name": "pext", "label": "", "kind": "backend"}},
                        {{"name": "hq", "label": "", "kind": "facade"}}], "skipped": []}}}}],
            "figures": [], "perft": [], "perft_note": null}}"#
        ))
        .expect("a synthetic run");
        // Thirty processes of four rounds; `slow` ns per iteration more in
        // the first four (each round of a process shares its moves). The
        // figures as a run makes them from its cells' samples.
        let samples = |slow: f64| {
            let per_process = (0..30u32)
                .map(|p| {
                    let level = 1000.0 + if p < 4 { slow } else { 0.0 };
                    let rounds = (0..4u32)
                        .map(|k| level * (1.0 + 0.01 * f64::from(k)))
                        .collect();
                    ProcessSamples(p, rounds)
                })
                .collect();
            (4096, per_process)
        };
        let cells = [
            ("queen/throughput/pext", 0.0),
            ("queen/throughput/hq", 0.0),
            ("queen/cache/pext", 0.0),
            ("queen/cache/hq", 400.0),
        ]
        .map(|(cell, slow)| (cell.to_owned(), samples(slow)))
        .into();
        r.figures = crate::results::figures("runtime", &cells).expect("figures of the samples");
        let md = super::facade_against_plan(&r).join("\n");
        println!("{md}");
        let row = md
            .lines()
            .find(|l| l.starts_with("| runtime | queen"))
            .expect("a queen row");
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(cells[3], "`pext`", "{row}");
        assert!(
            cells[4].starts_with("1.000 (1.000–1.000), p10 1.000"),
            "{row}"
        );
        // The median and its interval hold 1; the tenth percentile does not.
        assert!(
            cells[5].starts_with("**1.000 (1.000–1.000), p10 0.71"),
            "{row}"
        );
        assert!(
            md.contains("Below a bar: runtime queen cache pressure"),
            "{md}"
        );
    }
}
