//! `cargo xtask readme`: the README's measured tables, generated from every
//! committed bench-matrix run (`benches/results/<cpu-id>/results.json`), so
//! that each figure in the README names its CPU and comes from a file anyone
//! can check. `--check` fails if the README is not what the results give
//! (CI runs it).
//!
//! The generated text sits between `<!-- BEGIN GENERATED: <name> -->` and
//! `<!-- END GENERATED: <name> -->` markers; everything else is hand-written.

use crate::bench_matrix::report::{cell, table_head};
use hq_bench_format::{REFERENCE_ROW, Results, RowKind};
use std::fmt::Write as _;
use std::path::Path;

/// `cargo xtask readme`'s options.
#[derive(clap::Args)]
pub struct Args {
    /// Do not write: fail if the README differs from what the results give.
    #[arg(long)]
    pub check: bool,
}

/// The committed full runs, by cpu id.
pub fn committed_runs(root: &Path) -> anyhow::Result<Vec<Results>> {
    hq_bench_format::committed_runs(&root.join("benches/results")).map_err(anyhow::Error::msg)
}

/// The matrix's columns, "cache pressure" shortened to fit.
const COLUMNS: [(&str, &str); 7] = {
    let mut columns = hq_bench_format::WORKLOADS;
    columns[6].1 = "cache";
    columns
};

/// The rows shown per build: the facade, the job, every backend, the
/// references and the peers (the full matrix, with rook and bishop, is in
/// each run's `matrix.md`).
fn rows(r: &Results, config: &str) -> Vec<(String, RowKind)> {
    let Some(meta) = r
        .configs
        .iter()
        .find(|c| c.name == config)
        .and_then(|c| c.meta.as_ref())
    else {
        return Vec::new();
    };
    let order = |k: RowKind| match k {
        RowKind::Facade => 0,
        RowKind::Job => 1,
        RowKind::Backend => 2,
        RowKind::Reference => 3,
        RowKind::Peer => 4,
        RowKind::Floor | RowKind::PerPiece => 5,
    };
    let mut rows: Vec<(String, RowKind)> = meta
        .rows
        .iter()
        .filter(|row| !matches!(row.kind, RowKind::Floor | RowKind::PerPiece))
        .map(|row| (row.name.clone(), row.kind))
        .collect();
    rows.sort_by_key(|(_, k)| order(*k));
    rows
}

/// The matrix section: per CPU, queen figures of the runtime and native builds.
fn matrix(runs: &[Results]) -> String {
    let mut md = String::new();
    if runs.is_empty() {
        let _ = writeln!(
            md,
            "No full run is committed yet: run `cargo xtask bench-matrix`."
        );
        return md;
    }
    for r in runs {
        let _ = writeln!(
            md,
            "#### {} — `benches/results/{}/`\n\n{}; {}; {}. Million queen lookups per second \
             (× the `{REFERENCE_ROW}` backend in the same build). Full matrix (rook, bishop, every \
             forced build): [`matrix.md`](benches/results/{}/matrix.md), chart: \
             [`chart.svg`](benches/results/{}/chart.svg).\n",
            r.cpu.model_name,
            r.cpu.id,
            r.cpu.summary(),
            r.rustc,
            r.date,
            r.cpu.id,
            r.cpu.id
        );
        for config in ["runtime", "native"] {
            let rows = rows(r, config);
            if rows.is_empty() {
                continue;
            }
            let choice = r
                .configs
                .iter()
                .find(|c| c.name == config)
                .and_then(|c| c.meta.as_ref())
                .map(|m| m.choice.to_string())
                .unwrap_or_default();
            let _ = writeln!(
                md,
                "Build `{config}` (facade's choice, single / batch / set-wise: {choice}):\n"
            );
            table_head(&mut md, &["row", "kind"], COLUMNS.map(|(_, t)| t));
            for (row, kind) in rows {
                let _ = write!(md, "| `{row}` | {} |", kind.name());
                for (w, _) in COLUMNS {
                    let _ = write!(md, " {} |", cell(r, config, &row, "queen", w));
                }
                let _ = writeln!(md);
            }
            let _ = writeln!(md);
        }
    }
    md
}

/// The perft section: per CPU, million nodes per second.
fn perft(runs: &[Results]) -> String {
    let mut md = String::new();
    for r in runs.iter().filter(|r| !r.perft.is_empty()) {
        let mut positions: Vec<(String, u32)> = Vec::new();
        for p in &r.perft {
            if !positions.contains(&(p.position.clone(), p.depth)) {
                positions.push((p.position.clone(), p.depth));
            }
        }
        let mut rows: Vec<&str> = Vec::new();
        for p in &r.perft {
            if !rows.contains(&p.row.as_str()) {
                rows.push(&p.row);
            }
        }
        let _ = writeln!(
            md,
            "{} (`{}`), million nodes per second, one thread:\n",
            r.cpu.model_name, r.cpu.id
        );
        table_head(
            &mut md,
            &["row"],
            positions
                .iter()
                .map(|(pos, depth)| format!("{pos} d{depth}")),
        );
        for row in rows {
            let _ = write!(md, "| `{row}` |");
            for (pos, depth) in &positions {
                let v = r
                    .perft
                    .iter()
                    .find(|p| p.row == row && &p.position == pos && p.depth == *depth)
                    .map_or("—".to_owned(), |p| format!("{:.0}", p.mnps));
                let _ = write!(md, " {v} |");
            }
            let _ = writeln!(md);
        }
        let _ = writeln!(md);
    }
    if md.is_empty() {
        md.push_str("No perft figures are committed yet.\n");
    }
    md
}

/// Replaces the text between the markers of `name`.
fn replace_section(text: &str, name: &str, body: &str) -> anyhow::Result<String> {
    let begin = format!("<!-- BEGIN GENERATED: {name} (cargo xtask readme) -->");
    let end = format!("<!-- END GENERATED: {name} -->");
    let start = text
        .find(&begin)
        .ok_or_else(|| anyhow::anyhow!("README.md has no `{begin}` marker"))?;
    let stop = text[start..]
        .find(&end)
        .map(|i| start + i)
        .ok_or_else(|| anyhow::anyhow!("README.md has no `{end}` marker"))?;
    Ok(format!(
        "{}{begin}\n{body}{}",
        &text[..start],
        &text[stop..]
    ))
}

/// The task.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let root = crate::workspace_root();
    let runs = committed_runs(&root)?;
    let path = root.join("README.md");
    let old =
        std::fs::read_to_string(&path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let mut new = replace_section(&old, "matrix", &matrix(&runs))?;
    new = replace_section(&new, "perft", &perft(&runs))?;
    if args.check {
        if new != old {
            return Err(anyhow::anyhow!(
                "README.md's generated tables differ from benches/results/: run `cargo xtask readme`"
            ));
        }
        println!(
            "readme: the generated tables match {} committed run(s)",
            runs.len()
        );
        return Ok(());
    }
    std::fs::write(&path, new).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    println!(
        "readme: regenerated the tables from {} committed run(s)",
        runs.len()
    );
    Ok(())
}
