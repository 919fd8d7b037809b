//! `cargo xtask readme`: the measured tables of the README (a small speed
//! table per CPU) and of `docs/benchmarks.md` (the matrix and perft),
//! generated from every committed bench-matrix run
//! (`benches/results/<cpu-id>/results.json`), so that each figure names its
//! CPU and comes from a file anyone can check; `--check` (CI) fails if a
//! file is not what they give. The text between `<!-- BEGIN GENERATED:
//! <name> (cargo xtask readme) -->` and `<!-- END GENERATED: <name> -->` is
//! generated; the rest is hand-written.

use crate::report::{code, distinct, line, metas, piece_table, table};
use anyhow::{Context as _, ensure};
use hq_bench_format::{REFERENCE_ROW, Results, RowKind, RowMeta, WORKLOADS};
use std::path::Path;

/// `cargo xtask readme`'s options.
#[derive(clap::Args)]
pub struct Args {
    /// Do not write: fail if the README differs from what the results give.
    #[arg(long)]
    pub check: bool,
}

/// The matrix's columns, "cache pressure" shortened to fit.
const COLUMNS: [(&str, &str); 7] = {
    let mut columns = WORKLOADS;
    columns[6].1 = "cache";
    columns
};

/// The matrix section: per CPU, the queen figures of the runtime and native
/// builds' facade, job, backends, references and peers (the full matrix is in
/// each run's `matrix.md`).
fn matrix(runs: &[Results]) -> String {
    use RowKind::*;
    let mut md = String::new();
    for r in runs {
        let (model, id, summary) = (&r.cpu.model_name, &r.cpu.id, r.cpu.summary());
        let (rustc, date) = (&r.rustc, &r.date);
        md += &format!(
            "#### {model} — `benches/results/{id}/`\n\n{summary}; {rustc}; {date}. Million queen \
             lookups per second (× the `{REFERENCE_ROW}` backend in the same build). Full matrix \
             (rook, bishop, every forced build): [`matrix.md`](../benches/results/{id}/matrix.md), \
             chart: [`chart.svg`](../benches/results/{id}/chart.svg).\n\n"
        );
        for (config, meta) in metas(r).filter(|(c, _)| ["runtime", "native"].contains(c)) {
            let of = |k| meta.rows.iter().filter(move |row: &&RowMeta| row.kind == k);
            let rows = [Facade, Job, Backend, Reference, Peer]
                .into_iter()
                .flat_map(of);
            let keys: Vec<_> = rows.map(|row| (config, row)).collect();
            if keys.is_empty() {
                continue;
            }
            let (choice, table) = (
                &meta.choice,
                piece_table(r, &keys, "queen", &COLUMNS, false),
            );
            md += &format!(
                "Build `{config}` (facade's choice, single / batch / set-wise: {choice}):\n\n{table}\n\n"
            );
        }
    }
    if md.is_empty() {
        md.push_str("No full run is committed yet: run `cargo xtask bench-matrix`.\n");
    }
    md
}

/// The perft section: per CPU, million nodes per second.
fn perft(runs: &[Results]) -> String {
    let mut md = String::new();
    for r in runs.iter().filter(|r| !r.perft.is_empty()) {
        let positions = distinct(r.perft.iter().map(|p| (&p.position, p.depth)));
        // A row per build and row (the native build runs the hash perft).
        let rows = distinct(r.perft.iter().map(|p| (&p.config, &p.row)));
        let body = rows.into_iter().map(|(config, row)| {
            let mnps = positions.iter().map(|&(position, depth)| {
                let mut of_row = r
                    .perft
                    .iter()
                    .filter(|p| (&p.config, &p.row) == (config, row));
                let p = of_row.find(|p| (&p.position, p.depth) == (position, depth));
                p.map_or("—".to_owned(), |p| match p.interval {
                    Some(i) => format!("{:.0} ±{:.1} %", p.mnps, i.half_width() * 100.0),
                    None => format!("{:.0}", p.mnps),
                })
            });
            let label = match config.as_str() {
                "runtime" => code(row),
                _ => format!("{} ({config} build)", code(row)),
            };
            line(&[&label], mnps)
        });
        let head: String = positions
            .iter()
            .map(|(p, d)| format!("|{p} d{d}"))
            .collect();
        let (model, id) = (&r.cpu.model_name, &r.cpu.id);
        let table = table(&format!("row{head}"), body, 1);
        md += &format!("{model} (`{id}`), million nodes per second, one thread:\n\n{table}\n\n");
    }
    if md.is_empty() {
        md.push_str("No perft figures are committed yet.\n");
    }
    md
}

/// A run's hash perft in a sentence per build: `hq`'s choice (`auto`, a
/// job) and the free functions against the best backend row, per position.
fn hash_perft(r: &Results) -> String {
    let cases = r.hash_perfts();
    let mut md = String::new();
    for config in distinct(cases.iter().map(|&(config, _)| config)) {
        let cells = cases
            .iter()
            .filter(|&&(c, _)| c == config)
            .filter_map(|&(_, position)| {
                let backends = hq::Backend::all().iter().map(|b| b.name());
                let best = r.fastest_perft(config, position, backends)?;
                let ratio = |row: &str| {
                    let p = r.perft_figure(config, position, row)?;
                    // Paired by process and round where the run has samples.
                    Some(match r.perft_ratio(config, Some(position), row, &best.row) {
                        Some(i) => format!("{:.0} ({})", p.mnps, ratio_text(i)),
                        None => format!("{:.0} ({:.2}×)", p.mnps, p.mnps / best.mnps),
                    })
                };
                let ratio = |row: &str| ratio(row).unwrap_or("—".to_owned());
                let (auto, free) = (ratio("auto"), ratio("free-functions"));
                let (depth, best_row, best) = (best.depth, &best.row, best.mnps);
                Some(format!(
                    "{position} d{depth}: `auto` {auto}, free functions {free} of `{best_row}`'s {best:.0}"
                ))
            })
            .collect::<Vec<_>>();
        let build = match config {
            "runtime" => "default build (its perft code compiled for the x86-64 baseline)",
            "x86-64-v3" => {
                "`-C target-cpu=x86-64-v3` build (the free functions dispatch at run time)"
            }
            _ => "`-C target-cpu=native` build",
        };
        md += &format!(
            "Hash perft (64 MiB transposition table), {build}, million nodes per second and \
             ÷ the best backend row: {}.\n\n",
            cells.join("; ")
        );
    }
    md
}

/// The README's table-footprint section: every backend's lookup tables, as
/// the code states them (`Backend::table_bytes`).
fn footprint() -> String {
    let body = hq::Backend::all().iter().map(|b| {
        let bytes = b.table_bytes();
        line(
            &[&code(b.name())],
            [bytes.to_string(), format!("{:.1}", bytes as f64 / 1024.0)],
        )
    });
    format!("{}\n", table("backend|bytes|KiB", body, 1))
}

/// The README's speed section: per CPU, the free functions of the runtime
/// build in throughput, against the best backend row and the best peer.
fn speed(runs: &[Results]) -> String {
    let mut md = String::new();
    for r in runs {
        let (model, id, date, commit) = (&r.cpu.model_name, &r.cpu.id, &r.date, &r.git_commit);
        let best = |kind: RowKind, piece: &str| {
            let meta = metas(r).find(|(c, _)| *c == "runtime")?.1;
            let rows = meta.rows.iter().filter(|m| m.kind == kind);
            rows.filter_map(|m| {
                Some((
                    m.name.as_str(),
                    r.figure("runtime", &m.name, piece, "throughput")?
                        .mlookups_per_s,
                ))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
        };
        let body = ["queen", "rook", "bishop"].into_iter().filter_map(|piece| {
            let figure = |row: &str| r.figure("runtime", row, piece, "throughput");
            let hq = figure("hq")?;
            let (backend, b) = best(RowKind::Backend, piece)?;
            let (peer, p) = best(RowKind::Peer, piece)?;
            // Paired by process and round where the run has samples.
            let over = |row: &str, speed: f64| match Results::speed_ratio(hq, figure(row)?) {
                Some(i) => Some(ratio_text(i)),
                None => Some(format!("{:.2}×", hq.mlookups_per_s / speed)),
            };
            let value = match hq.interval {
                Some(i) => format!("{:.0} ±{:.1} %", hq.mlookups_per_s, i.half_width() * 100.0),
                None => format!("{:.0}", hq.mlookups_per_s),
            };
            Some(line(
                &[piece],
                [
                    value,
                    format!("{} `{backend}`", over(backend, b)?),
                    format!("{} `{peer}` ({p:.0})", over(peer, p)?),
                ],
            ))
        });
        let table = table("piece|`hq` M/s|÷ best backend|÷ best peer", body, 1);
        let method = match r.has_samples() {
            true => {
                "; medians over fresh processes, `±` and the ratios' ranges their 95 % \
                 intervals, ratios paired by process and round"
            }
            false => "; measured by the earlier method (one process per build, its fastest round)",
        };
        md += &format!(
            "{model} (`{id}`, commit `{commit}`, {date}): the free functions of a default build, million \
             independent lookups per second ([`matrix.md`](benches/results/{id}/matrix.md){method}).\n\n\
             {table}\n\n{}",
            hash_perft(r)
        );
    }
    if md.is_empty() {
        md.push_str("No full run is committed yet: run `cargo xtask bench-matrix`.\n");
    }
    md
}

/// A paired ratio with its interval: `0.99× (0.97–1.01)`.
fn ratio_text(i: hq_bench_format::Interval) -> String {
    format!("{:.2}× ({:.2}–{:.2})", i.estimate, i.low, i.high)
}

/// Replaces the text between the markers of `name`.
fn replace_section(text: &str, name: &str, body: &str) -> anyhow::Result<String> {
    let begin = format!("<!-- BEGIN GENERATED: {name} (cargo xtask readme) -->");
    let end = format!("<!-- END GENERATED: {name} -->");
    let missing = |marker: &str| format!("no `{marker}` marker");
    let (before, rest) = text.split_once(&begin).with_context(|| missing(&begin))?;
    let (_, after) = rest.split_once(&end).with_context(|| missing(&end))?;
    Ok(format!("{before}{begin}\n{body}{end}{after}"))
}

/// `path`'s text with `sections` regenerated; written, or with `--check`
/// compared. Returns whether it was current.
fn regenerate(path: &Path, sections: &[(&str, String)], check: bool) -> anyhow::Result<bool> {
    let old =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut new = old.clone();
    for (name, body) in sections {
        new =
            replace_section(&new, name, body).with_context(|| format!("in {}", path.display()))?;
    }
    if !check && new != old {
        hq_bench_format::write_atomically(path, new.as_bytes()).map_err(anyhow::Error::msg)?;
    }
    Ok(new == old)
}

/// The task.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let root = crate::workspace_root();
    let runs = hq_bench_format::committed_runs(&root.join("benches/results"));
    let runs = runs.map_err(anyhow::Error::msg)?;
    let files = [
        (
            "README.md",
            vec![("speed", speed(&runs)), ("footprint", footprint())],
        ),
        (
            "docs/benchmarks.md",
            vec![("matrix", matrix(&runs)), ("perft", perft(&runs))],
        ),
    ];
    let mut stale = Vec::new();
    for (file, sections) in &files {
        if !regenerate(&root.join(file), sections, args.check)? {
            stale.push(file.to_string());
        }
    }
    // Each run's report (its Decisions follow the decision code) and, when
    // writing, its charts: a run copied in from another CPU gets all of its
    // outputs from this one command.
    for r in &runs {
        if !args.check {
            let dir = root.join("benches/results").join(&r.cpu.id);
            crate::report::write_single(r, &dir)?;
            continue;
        }
        let file = format!(
            "benches/results/{}/{}",
            r.cpu.id,
            hq_bench_format::MATRIX_MD
        );
        let text = crate::report::markdown(r);
        let current = std::fs::read_to_string(root.join(&file)).unwrap_or_default();
        if current != text {
            stale.push(file);
        }
    }
    let n = runs.len();
    if args.check {
        ensure!(
            stale.is_empty(),
            "the generated tables of {} differ from benches/results/: run `cargo xtask readme`",
            stale.join(", ")
        );
        println!("readme: the generated tables match {n} committed run(s)");
    } else {
        println!("readme: regenerated the tables from {n} committed run(s)");
    }
    Ok(())
}
