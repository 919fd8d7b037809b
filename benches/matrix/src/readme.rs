//! `cargo xtask readme`: the measured tables of the README (the free
//! functions against the best peer and backend, a row per CPU) and of
//! `docs/benchmarks.md` (each CPU's findings and hash perft),
//! generated from every committed bench-matrix run
//! (`benches/results/<cpu-id>/results.json`), so that each figure names its
//! CPU and comes from a file anyone can check; `--check` (CI) fails if a
//! file is not what they give. The text between `<!-- BEGIN GENERATED:
//! <name> (cargo xtask readme) -->` and `<!-- END GENERATED: <name> -->` is
//! generated; the rest is hand-written.

use crate::markdown::{distinct, line, table};
use crate::report::metas;
use anyhow::{Context as _, ensure};
use hq_bench_format::{Results, RowKind};
use std::path::Path;

/// `cargo xtask readme`'s options.
#[derive(clap::Args)]
pub struct Args {
    /// Do not write: fail if the README differs from what the results give.
    #[arg(long)]
    pub check: bool,
}

/// A CPU's short name: its model name without trademark signs, family and
/// model (`AMD EPYC 0x19/0x11`).
fn cpu_name(r: &Results) -> String {
    let c = &r.cpu;
    let name = c.model_name.replace("(R)", "").replace("(TM)", "");
    format!("{name} {:#x}/{:#x}", c.family, c.model)
}

/// The best row of `kind` in the runtime build for `piece`'s throughput.
fn best_row<'a>(r: &'a Results, kind: RowKind, piece: &str) -> Option<(&'a str, f64)> {
    let meta = metas(r).find(|(c, _)| *c == "runtime")?.1;
    let rows = meta.rows.iter().filter(|m| m.kind == kind);
    rows.filter_map(|m| {
        let figure = r.figure("runtime", &m.name, piece, "throughput")?;
        Some((m.name.as_str(), figure.mlookups_per_s))
    })
    .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// The runtime build's free functions (`hq`) ÷ `row` in `piece`'s
/// throughput: paired by process and round where the run has samples,
/// else the ratio of the two figures.
fn over(r: &Results, piece: &str, row: &str) -> Option<String> {
    let figure = |row: &str| r.figure("runtime", row, piece, "throughput");
    let (hq, other) = (figure("hq")?, figure(row)?);
    Some(match Results::speed_ratio(hq, other) {
        Some(i) => ratio_text(i),
        None => format!("{:.2}×", hq.mlookups_per_s / other.mlookups_per_s),
    })
}

/// The pieces of the speed tables, in their order.
const PIECES: [&str; 3] = ["queen", "rook", "bishop"];

/// The findings section of `docs/benchmarks.md`: per CPU, its run, the
/// facade's choice per build, the free functions against the best backend
/// and the best peer, and the hash perft (every other figure is in the
/// run's `matrix.md`).
fn findings(runs: &[Results], root: &Path) -> String {
    let mut md = String::new();
    for r in runs {
        let (id, summary) = (&r.cpu.id, r.cpu.summary());
        let (rustc, date, commit) = (&r.rustc, &r.date, &r.git_commit);
        let dir = format!("../benches/results/{id}");
        let charts = ["choice.svg", "chart.svg"]
            .into_iter()
            .filter(|svg| root.join("benches/results").join(id).join(svg).exists())
            .map(|svg| format!("[`{svg}`]({dir}/{svg})"))
            .collect::<Vec<_>>()
            .join(", ");
        md += &format!(
            "### {} — `{id}`\n\n{summary}; {rustc}; commit `{commit}`, {date}. Every figure: \
             [`matrix.md`]({dir}/matrix.md); charts: {charts}.\n\n",
            cpu_name(r)
        );
        for (config, meta) in metas(r).filter(|(c, _)| ["runtime", "native"].contains(c)) {
            let class = &meta.class;
            md += &format!(
                "* Build `{config}`: class `{class}`; single / batch / set-wise: {}.\n",
                meta.choice
            );
        }
        let body = PIECES.into_iter().filter_map(|piece| {
            let hq = r.figure("runtime", "hq", piece, "throughput")?;
            let (backend, _) = best_row(r, RowKind::Backend, piece)?;
            let (peer, p) = best_row(r, RowKind::Peer, piece)?;
            let value = match hq.interval {
                Some(i) => format!("{:.0} ±{:.1} %", hq.mlookups_per_s, i.half_width() * 100.0),
                None => format!("{:.0}", hq.mlookups_per_s),
            };
            Some(line(
                &[piece],
                [
                    value,
                    format!("{} `{backend}`", over(r, piece, backend)?),
                    format!("{} `{peer}` ({p:.0})", over(r, piece, peer)?),
                ],
            ))
        });
        let table = table("piece|`hq` M/s|÷ best backend|÷ best peer", body, 1);
        let method = match r.has_samples() {
            true => {
                "medians over fresh processes, `±` and the ratios' ranges their 95 % intervals, \
                 ratios paired by process and round"
            }
            false => "measured by the earlier method (one process per build, its fastest round)",
        };
        md += &format!(
            "\nThe free functions of the default build, million independent lookups per second \
             ({method}):\n\n{table}\n\n{}",
            hash_perft(r)
        );
    }
    if md.is_empty() {
        md.push_str("No full run is committed yet: run `cargo xtask bench-matrix`.\n");
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

/// The table-footprint sentence of `docs/architecture.md`: every backend's lookup tables,
/// as the code states them (`Backend::table_bytes`).
fn footprint() -> String {
    let each = hq::Backend::all().iter().map(|b| {
        let kib = b.table_bytes() as f64 / 1024.0;
        format!("`{}` {kib:.1}", b.name())
    });
    format!("{} (KiB).\n", each.collect::<Vec<_>>().join(", "))
}

/// `cell` of each piece, queen / rook / bishop (`—` where it has none).
fn per_piece(cell: impl Fn(&str) -> Option<String>) -> String {
    let cells: Vec<String> = PIECES
        .into_iter()
        .map(|piece| cell(piece).unwrap_or("—".into()))
        .collect();
    cells.join(" / ")
}

/// `row`'s million lookups per second in the runtime build's throughput.
fn rate(r: &Results, row: &str, piece: &str) -> Option<String> {
    let f = r.figure("runtime", row, piece, "throughput")?;
    Some(format!("{:.0}", f.mlookups_per_s))
}

/// The speed tables' cells, per piece: `hq`'s rate, the fastest peer's
/// (named), and `hq` ÷ that peer.
fn against_peer(r: &Results) -> [String; 3] {
    [
        per_piece(|piece| rate(r, "hq", piece)),
        per_piece(|piece| {
            let (row, m) = best_row(r, RowKind::Peer, piece)?;
            Some(format!("{m:.0} `{}`", row.split('-').next().unwrap_or(row)))
        }),
        per_piece(|piece| over(r, piece, best_row(r, RowKind::Peer, piece)?.0)),
    ]
}

/// The README's speed section: one row per CPU (its name linking the
/// run's `matrix.md`), the default build's free functions and the fastest
/// peer row in million lookups per second (throughput), and `hq` ÷ that
/// peer per piece, paired.
fn speed(runs: &[Results]) -> String {
    let body = runs.iter().map(|r| {
        // The run's commit and class are in its matrix.md.
        let cpu = format!("[{}](benches/results/{}/matrix.md)", cpu_name(r), r.cpu.id);
        line(&[&cpu], against_peer(r))
    });
    let head = "CPU (its run)|`hq` M/s (queen / rook / bishop)|best peer M/s|`hq` ÷ peer";
    format!("{}\n", table(head, body, 1))
}

/// The README's build-flags section: per CPU, the hash perft of Kiwipete
/// (an engine's shape: a search with a 64 MiB transposition table) on the
/// free functions in the default build and with `-C target-cpu=native`,
/// and in a job (`hq::with_active_backend`) in the default build, million
/// nodes per second with their intervals.
fn build_flags(runs: &[Results]) -> String {
    const POSITION: &str = "kiwipete hash";
    let body = runs.iter().filter_map(|r| {
        let show = |config: &str, row: &str| {
            let f = r.perft_figure(config, POSITION, row)?;
            let half = f
                .interval
                .map(|i| format!(" ±{:.0} %", i.half_width() * 100.0));
            Some(format!("{:.0}{}", f.mnps, half.unwrap_or_default()))
        };
        let default = show("runtime", "free-functions")?;
        let cells = [
            default,
            show("native", "free-functions").unwrap_or("—".into()),
            show("runtime", "auto").unwrap_or("—".into()),
        ];
        Some(line(
            &[&format!("{}, `{}`", cpu_name(r), r.git_commit)],
            cells,
        ))
    });
    let head = "CPU, commit|free functions, default build|free functions, `-C target-cpu=native`|job, default build";
    format!("{}\n", table(head, body, 1))
}

/// The README's wasm table: per wasm run (`bench-matrix --wasm`), the
/// free functions' throughput and the fastest peer's, `hq` ÷ that peer
/// (paired), the `small-tables` plan's single-lookup rows, and the module
/// sizes of both plans.
fn wasm(runs: &[Results]) -> String {
    let body = runs.iter().filter_map(|r| {
        let t = r.target.as_ref()?;
        let id = r.id();
        let features = match t.features.is_empty() {
            true => String::new(),
            false => format!(" +{}", t.features.join(",+")),
        };
        let build = format!(
            "[`{}`{features}](benches/results/{id}/matrix.md), {} on {}",
            t.triple,
            t.runtime,
            cpu_name(r)
        );
        let small = format!("{}-small", t.class);
        let small = hq::unstable::TARGET_CLASSES
            .iter()
            .find(|c| c.name == small);
        let [hq, peer, ratio] = against_peer(r);
        let small_rates = per_piece(|piece| {
            let slider = hq::Slider::ALL.into_iter().find(|s| s.name() == piece)?;
            let backend = small?.plan.get(hq::Entry::Single, slider);
            rate(r, backend.name(), piece)
        });
        let sizes = t.module_bytes.as_ref().map_or("—".into(), |b| {
            format!(
                "{:.0} / {:.1}",
                b.default as f64 / 1e3,
                b.small_tables as f64 / 1e3
            )
        });
        let peer_sizes = t
            .module_bytes
            .as_ref()
            .filter(|b| !b.peers.is_empty())
            .map_or("—".into(), |b| {
                let each: Vec<String> = b
                    .peers
                    .iter()
                    .map(|(peer, bytes)| format!("{peer} {:.0}", *bytes as f64 / 1e3))
                    .collect();
                each.join(", ")
            });
        Some(line(
            &[&build],
            [hq, peer, ratio, small_rates, sizes, peer_sizes],
        ))
    });
    let head = "build (its run), runtime, CPU|`hq` M/s (queen / rook / bishop)|best peer M/s|`hq` ÷ peer|`small-tables` M/s|module kB: default / `small-tables`|peers' module kB";
    format!("{}\n", table(head, body, 6))
}

/// Each CPU's adoption report (`bench-matrix adoption`, `adoption.md` beside
/// its run), read back, with the run.
fn adoptions<'a>(
    runs: &'a [Results],
    root: &Path,
) -> anyhow::Result<Vec<(&'a Results, crate::adoption::Adoption)>> {
    let mut out = Vec::new();
    for r in runs {
        let file = root
            .join("benches/results")
            .join(&r.cpu.id)
            .join("adoption.md");
        let Ok(md) = std::fs::read_to_string(&file) else {
            continue;
        };
        let a = crate::adoption::parse(&md).with_context(|| format!("{}", file.display()))?;
        out.push((r, a));
    }
    Ok(out)
}

/// The README's cost table: per CPU with an adoption report, the quick
/// start's release and debug build and stripped binary for `hq` and each
/// peer, `hq` ÷ the slower (larger) peer, and each binary's read-only
/// data (where the tables are).
fn cost(adoptions: &[(&Results, crate::adoption::Adoption)]) -> String {
    let peers = ["hq-attacks", "cozy-chess", "shakmaty"];
    let body = adoptions.iter().map(|(r, a)| {
        let cpu = format!("{}, `{}`", cpu_name(r), a.commit);
        let each = |f: fn(&crate::adoption::Row) -> String| {
            peers
                .iter()
                .map(|p| a.row(p).map_or("—".to_owned(), f))
                .collect::<Vec<_>>()
                .join(" / ")
        };
        let ratio = |(m, l, h): (f64, f64, f64)| format!("{m:.2}× ({l:.2}–{h:.2})");
        line(
            &[&cpu],
            [
                each(|r| format!("{:.1}", r.release_s)),
                ratio(a.release),
                each(|r| format!("{:.1}", r.debug_s)),
                ratio(a.debug),
                each(|r| format!("{:.2}", r.stripped_bytes as f64 / 1e6)),
                format!("{:.2}×", a.size),
                each(|r| {
                    r.rodata_bytes
                        .map_or("—".into(), |b| format!("{:.0}", b as f64 / 1e3))
                }),
            ],
        )
    });
    let head = "CPU, commit|release s: `hq` / cozy-chess / shakmaty|`hq` ÷ slower peer|\
                debug s|÷ slower peer|stripped binary MB|÷ larger peer|.rodata kB";
    format!("{}\n", table(head, body, 1))
}

/// The README's sentence on `multiversion`: what its proc macro adds to the
/// quick start's release build, from each adoption report that timed it.
fn multiversion(adoptions: &[(&Results, crate::adoption::Adoption)]) -> String {
    let measured: Vec<String> = adoptions
        .iter()
        .filter_map(|(r, a)| {
            let (m, l, h) = a.multiversion?;
            let hq = a.row("hq-attacks")?.release_s;
            let with = a.row("hq-attacks+multiversion")?.release_s;
            Some(format!(
                "{m:.2}× ({l:.2}–{h:.2}) the release build's time, {with:.1} s instead of \
                 {hq:.1} ({}, `cargo xtask bench-matrix adoption` at `{}`)",
                cpu_name(r),
                a.commit
            ))
        })
        .collect();
    match measured.is_empty() {
        true => "No adoption report has timed `multiversion` yet: run `cargo xtask bench-matrix \
                 adoption`.\n"
            .to_owned(),
        false => format!(
            "With `multiversion`'s proc macro in the quick-start program, its build took {}.\n",
            measured.join("; ")
        ),
    }
}

/// The README's sentence on how long the bench matrix takes: each
/// committed run (builds included; xtask's own build aside), those of
/// `--full` apart.
fn matrix_time(runs: &[Results]) -> String {
    let full = |r: &Results| r.configs.iter().any(|c| c.name == "runtime-lto");
    let list = |want_full: bool| {
        runs.iter()
            .filter(|r| full(r) == want_full)
            .map(|r| {
                format!(
                    "{} {:.0} s at `{}`",
                    cpu_name(r),
                    r.total_seconds,
                    r.git_commit
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (default, full) = (list(false), list(true));
    let mut out =
        format!("The committed runs took, builds included (xtask's own aside): {default}");
    if !full.is_empty() {
        out += &format!("; with `--full`, {full}");
    }
    out + ".\n"
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

/// The figures a hand-written part of the README may state: settings and
/// limits the code fixes, not measurements.
const STATED: [&str; 4] = ["5 ms", "64 MiB", "10 KiB", "95 %"];

/// Measured-looking figures in `text` outside its generated sections (a
/// ratio `0.9×`, a time, a size, a rate, a share), but [`STATED`]: each
/// must come from a committed run through a generated section.
fn stray_figures(text: &str) -> Vec<String> {
    let mut hand = String::new();
    let mut inside = false;
    for l in text.lines() {
        if l.starts_with("<!-- BEGIN GENERATED:") {
            inside = true;
        } else if l.starts_with("<!-- END GENERATED:") {
            inside = false;
        } else if !inside {
            hand += l;
            hand.push('\n');
        }
    }
    let units = [
        "×", "x ", "x,", "x)", "x.", " times", " s ", " s,", " s)", " s.", " ms", " ns", " µs",
        " MB", " KB", " KiB", " MiB", " bytes", " %", " M/s", " M nodes", " GB",
    ];
    let mut found = Vec::new();
    let chars: Vec<(usize, char)> = hand.char_indices().collect();
    for (i, &(at, c)) in chars.iter().enumerate() {
        let starts = c.is_ascii_digit()
            && (i == 0
                || !(chars[i - 1].1.is_ascii_alphanumeric() || ".,".contains(chars[i - 1].1)));
        if !starts {
            continue;
        }
        let end = chars[i..]
            .iter()
            .find(|(_, c)| !(c.is_ascii_digit() || *c == '.' || *c == ','))
            .map_or(hand.len(), |&(e, _)| e);
        let number = hand[at..end].trim_end_matches(['.', ',']);
        let rest = &hand[at + number.len()..];
        if let Some(unit) = units.iter().find(|u| rest.starts_with(*u)) {
            let figure = format!("{number}{}", unit.trim_end_matches([',', ')', '.', ' ']));
            if !STATED.contains(&figure.as_str()) {
                found.push(figure);
            }
        }
    }
    found
}

/// The README's size limit, generated tables included: 12 KiB.
const README_LIMIT: usize = 12 * 1024;

/// The task.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let root = crate::workspace_root();
    let all = hq_bench_format::committed_runs(&root.join("benches/results"));
    let all = all.map_err(anyhow::Error::msg)?;
    // The CPUs' own runs (a wasm32 run under Node is a target's, not a CPU's).
    let runs: Vec<Results> = all.iter().filter(|r| r.is_native()).cloned().collect();
    let adoptions = adoptions(&runs, &root)?;
    let files = [
        (
            "README.md",
            vec![
                ("multiversion", multiversion(&adoptions)),
                ("speed", speed(&runs)),
                ("build flags", build_flags(&runs)),
                ("wasm", wasm(&all)),
                ("cost", cost(&adoptions)),
                ("matrix time", matrix_time(&runs)),
            ],
        ),
        (
            "docs/benchmarks.md",
            vec![("findings", findings(&runs, &root))],
        ),
        ("docs/architecture.md", vec![("footprint", footprint())]),
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
    for r in &all {
        if !args.check {
            let dir = root.join("benches/results").join(r.id());
            crate::report::write_single(r, &dir)?;
            continue;
        }
        let file = format!("benches/results/{}/{}", r.id(), hq_bench_format::MATRIX_MD);
        let text = crate::report::markdown(r);
        let current = std::fs::read_to_string(root.join(&file)).unwrap_or_default();
        if current != text {
            stale.push(file);
        }
    }
    let readme = std::fs::read_to_string(root.join("README.md"))?;
    ensure!(
        readme.len() <= README_LIMIT,
        "README.md is {} bytes, over its {README_LIMIT}: a front door no heavier than the \
         peers' (move detail to docs/)",
        readme.len()
    );
    let stray = stray_figures(&readme);
    ensure!(
        stray.is_empty(),
        "README.md states figures outside its generated sections: {}; each must come from a \
         committed run through `cargo xtask readme`",
        stray.join(", ")
    );
    let n = all.len();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hand_written_figure_is_found_and_a_generated_one_is_not() {
        let text = "builds in 0.98× the time, 9.3 s, and 1.59 MB; about 5 ms.\n\
                    <!-- BEGIN GENERATED: x (cargo xtask readme) -->\n1.50× 8.1 s\n\
                    <!-- END GENERATED: x -->\nat 400 M/s, 12 % off, 1.27x shakmaty; \
                    family 0x19, x86-64 at 1,609,136 bytes\n";
        assert_eq!(
            stray_figures(text),
            [
                "0.98×",
                "9.3 s",
                "1.59 MB",
                "400 M/s",
                "12 %",
                "1.27x",
                "1,609,136 bytes"
            ]
        );
    }
}
