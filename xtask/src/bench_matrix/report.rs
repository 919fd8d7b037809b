//! The Markdown matrix and the chart of one run, and of several runs merged.

use super::chart::{self, Panel};
use hq_bench_format::{
    CHART_SVG, MATRIX_MD, PER_PIECE_SUFFIX, REFERENCE_ROW, Results, RowKind, SPREAD_FLAG,
};
use std::fmt::Write as _;
use std::path::Path;

use hq_bench_format::WORKLOADS;

/// A Markdown table's head: the text columns `leading`, then one
/// right-aligned column per title.
pub(crate) fn table_head(
    md: &mut String,
    leading: &[&str],
    titles: impl IntoIterator<Item = impl std::fmt::Display>,
) {
    let _ = write!(md, "|");
    for l in leading {
        let _ = write!(md, " {l} |");
    }
    let mut n = 0;
    for t in titles {
        let _ = write!(md, " {t} |");
        n += 1;
    }
    let _ = writeln!(
        md,
        "\n|{}{}",
        "---|".repeat(leading.len()),
        "---:|".repeat(n)
    );
}

/// `1234 (1.02×)`, or `—` when not measured.
pub(crate) fn cell(
    results: &Results,
    config: &str,
    row: &str,
    piece: &str,
    workload: &str,
) -> String {
    match results.figure(config, row, piece, workload) {
        Some(f) => {
            let noisy = if f.spread > SPREAD_FLAG { " ±" } else { "" };
            match f.ratio_to_pext {
                Some(r) => format!("{:.0} ({r:.2}×){noisy}", f.mlookups_per_s),
                None => format!("{:.0}{noisy}", f.mlookups_per_s),
            }
        }
        None => "—".to_owned(),
    }
}

/// Every (configuration, row, kind, label) with at least one figure, in run
/// order; the per-piece rows have their own section ([`per_piece_section`]).
fn rows_of(results: &Results) -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    for config in &results.configs {
        let Some(meta) = &config.meta else { continue };
        for row in &meta.rows {
            if row.kind != RowKind::PerPiece
                && results
                    .figures
                    .iter()
                    .any(|f| f.config == config.name && f.row == row.name)
            {
                out.push((
                    config.name.clone(),
                    row.name.clone(),
                    row.kind.name().to_owned(),
                    row.label.clone(),
                ));
            }
        }
    }
    out
}

/// The Markdown matrix of one run.
pub fn markdown(results: &Results) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Slider-attack benchmark matrix: {}\n",
        results.cpu.model_name
    );
    let _ = writeln!(
        md,
        "* CPU: {} (id `{}`)",
        results.cpu.summary(),
        results.cpu.id
    );
    let _ = writeln!(
        md,
        "* {}; commit {}; {}",
        results.rustc, results.git_commit, results.date
    );
    let _ = writeln!(
        md,
        "* {} run, {:.0} s in all. Figure: {}.",
        if results.quick {
            "**quick** (tiny samples: checks the pipeline, not the speed)"
        } else {
            "full"
        },
        results.total_seconds,
        results.statistic
    );
    let _ = writeln!(
        md,
        "* Cells: million lookups per second (ratio to the `{REFERENCE_ROW}` backend measured in \
         the same build, for the same piece and workload). ns per lookup = 1000 / cell. \
         Set-wise counts one call (the union over 1-2, 4-6 or 10-14 sliders) as one lookup. \
         A cell marked ± spread more than {:.0} % over its samples (interquartile range over \
         the median).\n",
        SPREAD_FLAG * 100.0
    );
    let _ = writeln!(md, "## Builds\n");
    let _ = writeln!(
        md,
        "| build | RUSTFLAGS | cargo bench arguments | facade | build s | run s |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|");
    for c in &results.configs {
        let facade = match &c.meta {
            Some(m) => format!("{}: {} ({})", m.mode, m.choice, m.class),
            None => "—".to_owned(),
        };
        if c.ran() {
            let _ = writeln!(
                md,
                "| {} | `{}` | `{}` | {} | {:.0} | {:.0} |",
                c.name,
                c.rustflags,
                c.cargo_args.join(" "),
                facade,
                c.build_seconds,
                c.run_seconds
            );
        } else {
            let _ = writeln!(
                md,
                "| {} | — | `{}` | skipped: {} | — | — |",
                c.name,
                c.cargo_args.join(" "),
                c.skip_reason.as_deref().unwrap_or("?")
            );
        }
    }
    let mut skipped: Vec<String> = Vec::new();
    for c in &results.configs {
        let Some(meta) = &c.meta else { continue };
        for s in &meta.skipped {
            let line = format!("`{}` ({}): {}", s.name, c.name, s.why);
            if !skipped.contains(&line) {
                skipped.push(line);
            }
        }
    }
    if !skipped.is_empty() {
        let _ = writeln!(md, "\nSkipped rows: {}.", skipped.join("; "));
    }
    let checks: Vec<String> = results
        .configs
        .iter()
        .filter_map(|c| {
            let p = c.meta.as_ref()?.position_check.as_ref()?;
            Some(format!(
                "{}: `{}` {:.0} ns first, {:.0} ns last ({:+.1} %)",
                c.name,
                p.cell,
                p.first_ns,
                p.last_ns,
                p.bias() * 100.0
            ))
        })
        .collect();
    if !checks.is_empty() {
        let _ = writeln!(
            md,
            "\nPosition check (one cell timed before and after all others in every round, \
             median per iteration): {}.",
            checks.join("; ")
        );
    }
    let noisy = results
        .figures
        .iter()
        .filter(|f| f.spread > SPREAD_FLAG)
        .count();
    let _ = writeln!(
        md,
        "\nCells whose samples spread more than {:.0} %: {noisy} of {}.",
        SPREAD_FLAG * 100.0,
        results.figures.len()
    );
    let rows = rows_of(results);
    for piece in ["queen", "rook", "bishop"] {
        let _ = writeln!(
            md,
            "\n## {piece}: million lookups / s (× PEXT of the same build)\n"
        );
        table_head(
            &mut md,
            &["build", "row", "kind"],
            WORKLOADS.map(|(_, t)| t),
        );
        for (config, row, kind, _) in &rows {
            if !results
                .figures
                .iter()
                .any(|f| &f.config == config && &f.row == row && f.piece == piece)
            {
                continue;
            }
            let _ = write!(md, "| {config} | `{row}` | {kind} |");
            for (w, _) in WORKLOADS {
                let _ = write!(md, " {} |", cell(results, config, row, piece, w));
            }
            let _ = writeln!(md);
        }
    }
    peers_section(&mut md, results, &rows);
    per_piece_section(&mut md, results);
    let _ = writeln!(md, "\n## queen: ns per lookup\n");
    let _ = writeln!(
        md,
        "| build | row | throughput | latency | cache pressure |\n|---|---|---:|---:|---:|"
    );
    for (config, row, _, _) in &rows {
        let ns = |w: &str| {
            results
                .figure(config, row, "queen", w)
                .map_or("—".to_owned(), |f| format!("{:.2}", f.ns_per_lookup))
        };
        let _ = writeln!(
            md,
            "| {config} | `{row}` | {} | {} | {} |",
            ns("throughput"),
            ns("latency"),
            ns("cache")
        );
    }
    let _ = writeln!(md, "\n## Perft (million nodes / s, one thread)\n");
    if results.perft.is_empty() {
        let _ = writeln!(
            md,
            "{}",
            results
                .perft_note
                .as_deref()
                .unwrap_or("No perft figures in this run.")
        );
    } else {
        let _ = writeln!(
            md,
            "| build | row | position | depth | nodes | s | M nodes/s |\n|---|---|---|---:|---:|---:|---:|"
        );
        for p in &results.perft {
            let _ = writeln!(
                md,
                "| {} | `{}` | {} | {} | {} | {:.3} | {:.1} |",
                p.config, p.row, p.position, p.depth, p.nodes, p.seconds, p.mnps
            );
        }
        if let Some(note) = &results.perft_note {
            let _ = writeln!(md, "\n{note}");
        }
    }
    if let Some(calibration) = &results.calibration {
        let _ = writeln!(md, "\n## Calibration\n\n{}.", calibration.summary());
    }
    let _ = writeln!(md, "\n## Rows\n");
    for (config, row, kind, label) in &rows {
        let _ = writeln!(md, "* {config} `{row}` ({kind}): {label}");
    }
    md
}

/// The peer crates in the build where each is fastest (issue 13: a peer is
/// shown at its best, with the build named), and how its native figure
/// compares with its default-build one. A crate's variants (cozy-chess's
/// black magic and PEXT, chess's magic and BMI2) are one crate here: each
/// build shows its fastest variant.
fn peers_section(md: &mut String, results: &Results, rows: &[(String, String, String, String)]) {
    // `cozy-chess-magic` -> `cozy-chess`.
    let crate_of = |row: &str| row.rsplit_once('-').map_or(row, |(c, _)| c).to_owned();
    let mut crates: Vec<String> = rows
        .iter()
        .filter(|(_, _, kind, _)| kind == RowKind::Peer.name())
        .map(|(_, row, _, _)| crate_of(row))
        .collect();
    crates.sort_unstable();
    crates.dedup();
    if crates.is_empty() {
        return;
    }
    let _ = writeln!(
        md,
        "\n## Peers at their best build (queen, million lookups / s)\n\n\
         Each peer crate's fastest variant in each build; `best` names the faster build. \
         `native / runtime` ≥ 0.85 means the native build does not handicap the peer.\n"
    );
    let _ = writeln!(
        md,
        "| peer | workload | runtime | native | native / runtime | best |\n|---|---|---|---|---:|---|"
    );
    for name in &crates {
        for workload in ["throughput", "latency", "cache"] {
            let best_in = |config: Option<&str>| {
                results
                    .figures
                    .iter()
                    .filter(|f| {
                        crate_of(&f.row) == *name
                            && rows.iter().any(|(c, r, k, _)| {
                                c == &f.config && r == &f.row && k == RowKind::Peer.name()
                            })
                            && f.piece == "queen"
                            && f.workload == workload
                            && config.is_none_or(|c| f.config == c)
                    })
                    .max_by(|a, b| a.mlookups_per_s.total_cmp(&b.mlookups_per_s))
            };
            let show = |f: Option<&hq_bench_format::Figure>| {
                f.map_or("—".to_owned(), |f| {
                    format!("{:.0} (`{}`)", f.mlookups_per_s, f.row)
                })
            };
            let (runtime, native) = (best_in(Some("runtime")), best_in(Some("native")));
            let ratio = match (runtime, native) {
                (Some(r), Some(n)) => format!("{:.2}", n.mlookups_per_s / r.mlookups_per_s),
                _ => "—".to_owned(),
            };
            let best = best_in(None).map_or("—".to_owned(), |f| {
                format!("{:.0} (`{}`, {})", f.mlookups_per_s, f.row, f.config)
            });
            let _ = writeln!(
                md,
                "| {name} | {workload} | {} | {} | {ratio} | {best} |",
                show(runtime),
                show(native)
            );
        }
    }
}

/// A set-wise entry this much slower than its own per-piece loop is flagged
/// (the noise between two runs of one figure on these machines is about 5 %).
const PER_PIECE_TOLERANCE: f64 = 0.95;

/// Each backend's set-wise entry against a loop over its own single lookups
/// (the `<backend>-per-piece` rows), per build, piece and slider count.
fn per_piece_section(md: &mut String, results: &Results) {
    let crowds = &WORKLOADS[3..6];
    let mut body = String::new();
    let mut slower = Vec::new();
    for config in &results.configs {
        let Some(meta) = &config.meta else { continue };
        for row in meta.rows.iter().filter(|r| r.kind == RowKind::Backend) {
            let looped = format!("{}{PER_PIECE_SUFFIX}", row.name);
            for piece in ["queen", "rook", "bishop"] {
                let pairs: Vec<_> = crowds
                    .iter()
                    .map(|(w, title)| {
                        let entry = results.figure(&config.name, &row.name, piece, w);
                        let per_piece = results.figure(&config.name, &looped, piece, w);
                        (title, entry.zip(per_piece))
                    })
                    .collect();
                if pairs.iter().all(|(_, p)| p.is_none()) {
                    continue;
                }
                let _ = write!(
                    body,
                    "| {} | `{}` | `{looped}` | {piece} |",
                    config.name, row.name
                );
                for (title, pair) in pairs {
                    match pair {
                        Some((e, l)) => {
                            let ratio = e.mlookups_per_s / l.mlookups_per_s;
                            let flag = if ratio < PER_PIECE_TOLERANCE {
                                slower.push(format!(
                                    "{} `{}` {piece} {title}: {ratio:.2}×",
                                    config.name, row.name
                                ));
                                " **slower**"
                            } else {
                                ""
                            };
                            let _ = write!(
                                body,
                                " {:.0} / {:.0} = {ratio:.2}×{flag} |",
                                e.mlookups_per_s, l.mlookups_per_s
                            );
                        }
                        None => {
                            let _ = write!(body, " — |");
                        }
                    }
                }
                let _ = writeln!(body);
            }
        }
    }
    if body.is_empty() {
        return;
    }
    let _ = writeln!(
        md,
        "\n## Set-wise entry against the backend's own per-piece loop\n\n\
         Million set-wise calls / s: the backend's set-wise entry / a loop over its own single \
         lookups (row `<backend>{PER_PIECE_SUFFIX}`, compiled the same way) = ratio. **slower** \
         marks an entry below {PER_PIECE_TOLERANCE:.2}× its loop.\n"
    );
    table_head(
        md,
        &["build", "backend", "per-piece row", "piece"],
        crowds.iter().map(|(_, t)| t),
    );
    md.push_str(&body);
    let _ = writeln!(
        md,
        "\nEntries slower than their per-piece loop: {}.",
        if slower.is_empty() {
            "none".to_owned()
        } else {
            slower.join("; ")
        }
    );
}

/// Writes `matrix.md` and `chart.svg` of one run into `dir`.
pub fn write_single(results: &Results, dir: &Path) -> anyhow::Result<()> {
    let md_path = dir.join(MATRIX_MD);
    std::fs::write(&md_path, markdown(results))
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", md_path.display()))?;
    let rows = rows_of(results);
    let labels: Vec<String> = rows
        .iter()
        .map(|(c, r, _, _)| format!("{r} [{c}]"))
        .collect();
    let kinds: Vec<String> = rows.iter().map(|(_, _, k, _)| k.clone()).collect();
    let panel = |workload: &str, title: &str| Panel {
        title: title.to_owned(),
        bars: rows
            .iter()
            .map(|(c, r, _, _)| {
                results
                    .figure(c, r, "queen", workload)
                    .map(|f| (f.mlookups_per_s, f.ratio_to_pext))
            })
            .collect(),
    };
    let panels = [
        panel("throughput", "queen throughput"),
        panel("latency", "queen latency"),
        panel("cache", "queen + 64 MiB random reads"),
    ];
    let title = format!(
        "Queen attacks, million lookups/s (x PEXT) - {}{}",
        results.cpu.model_name,
        if results.quick { " - QUICK RUN" } else { "" }
    );
    chart::draw(&dir.join(CHART_SVG), &title, &labels, &kinds, &panels)
}

/// Writes one Markdown matrix and one chart for several runs, a column group per CPU.
pub fn write_merged(runs: &[(String, Results)], out: &Path) -> anyhow::Result<()> {
    let mut keys: Vec<(String, String, String)> = Vec::new();
    for (_, r) in runs {
        for (c, row, kind, _) in rows_of(r) {
            if !keys.iter().any(|(kc, kr, _)| kc == &c && kr == &row) {
                keys.push((c, row, kind));
            }
        }
    }
    let tag = |i: usize| char::from(b'A' + (i % 26) as u8).to_string();
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Slider-attack benchmark matrix: {} runs merged\n",
        runs.len()
    );
    for (i, (dir, r)) in runs.iter().enumerate() {
        let _ = writeln!(
            md,
            "* **{}** = `{dir}`: {}; {}; commit {}; {}{}",
            tag(i),
            r.cpu.summary(),
            r.rustc,
            r.git_commit,
            r.date,
            if r.quick { "; **quick** run" } else { "" }
        );
    }
    let _ = writeln!(
        md,
        "\nQueen, million lookups / s (× PEXT of the same run and build). Column group per run.\n"
    );
    let cols = [
        ("throughput", "thr"),
        ("latency", "lat"),
        ("cache", "cache"),
    ];
    table_head(
        &mut md,
        &["build", "row"],
        (0..runs.len()).flat_map(|i| cols.map(|(_, short)| format!("{} {short}", tag(i)))),
    );
    for (config, row, _) in &keys {
        let _ = write!(md, "| {config} | `{row}` |");
        for (_, r) in runs {
            for (w, _) in cols {
                let _ = write!(md, " {} |", cell(r, config, row, "queen", w));
            }
        }
        let _ = writeln!(md);
    }
    std::fs::create_dir_all(out)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", out.display()))?;
    let md_path = out.join(MATRIX_MD);
    std::fs::write(&md_path, md)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", md_path.display()))?;
    // The chart shows queen throughput: rows without it (the reads-only floor) are left out.
    keys.retain(|(c, row, _)| {
        runs.iter()
            .any(|(_, r)| r.figure(c, row, "queen", "throughput").is_some())
    });
    let labels: Vec<String> = keys.iter().map(|(c, r, _)| format!("{r} [{c}]")).collect();
    let kinds: Vec<String> = keys.iter().map(|(_, _, k)| k.clone()).collect();
    let panels: Vec<Panel> = runs
        .iter()
        .enumerate()
        .map(|(i, (_, r))| Panel {
            title: format!(
                "{}: {}{}",
                tag(i),
                r.cpu.model_name,
                if r.quick { " (quick run)" } else { "" }
            ),
            bars: keys
                .iter()
                .map(|(c, row, _)| {
                    r.figure(c, row, "queen", "throughput")
                        .map(|f| (f.mlookups_per_s, f.ratio_to_pext))
                })
                .collect(),
        })
        .collect();
    chart::draw(
        &out.join(CHART_SVG),
        "Queen throughput, million lookups/s (x PEXT), per run",
        &labels,
        &kinds,
        &panels,
    )?;
    println!(
        "merged {} runs into {} and {}",
        runs.len(),
        md_path.display(),
        out.join(CHART_SVG).display()
    );
    Ok(())
}
