//! The choice table against the measurements: every committed bench-matrix
//! run (`benches/results/<cpu-id>/results.json`) must belong to a class that
//! names it, and for every entry point and piece the backend that class
//! chooses must reach 0.95x the run's best backend row in the runtime build
//! (the runs are noisy): single lookups, batches, dependency chains, and
//! set-wise calls in each of their three columns. Where a run has the hash
//! perft (an engine's search shape: a transposition table thrashing the
//! caches), it decides the single lookups instead: `hq`'s choice must reach
//! 0.97x the best backend row there, and the single lookups keep 0.90x in
//! the cache-warm throughput column.

use hq::unstable::{CLASSES, ClassChoice, classify};
use hq::{Backend, Entry, Slider};
use hq_bench_format::{Results, RowKind};
use hq_core::cpu::{Feature, Level};
use hq_core::identity::{Identity, Vendor};
use std::path::Path;

/// The committed full runs.
fn committed_runs() -> Vec<Results> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
    hq_bench_format::committed_runs(&dir).unwrap_or_else(|e| panic!("{e}"))
}

/// Features the bench matrix records since commit 0fda659 (the level
/// definitions from `multiversion` target strings).
const LATE_FEATURES: [&str; 7] = [
    "avx512vbmi2",
    "avx512bitalg",
    "avx512ifma",
    "avx512vnni",
    "avx512vpopcntdq",
    "vaes",
    "vpclmulqdq",
];

/// The identity and levels a run recorded.
fn identity_of(r: &Results) -> (Identity, impl Fn(Level) -> bool + '_) {
    let vendor: Vendor = r
        .cpu
        .vendor
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", r.cpu.id));
    let id = Identity {
        vendor,
        family: r.cpu.family,
        model: r.cpu.model,
        stepping: r.cpu.stepping,
    };
    // Runs recorded before x86-64-v4 took in Ice Lake's AVX-512 extensions
    // (`Level::X86V4`) did not probe them: such a record names none of them,
    // and they are not held against it (every CPU with AVX-512 VBMI and GFNI,
    // which the record does check, has them).
    let probed_late = LATE_FEATURES.iter().any(|f| r.cpu.has(f));
    let has_level = move |level: Level| {
        level
            .features()
            .iter()
            .filter(|f| probed_late || !LATE_FEATURES.contains(&f.name()))
            .all(|f: Feature| r.cpu.has(f.name()))
    };
    (id, has_level)
}

/// One cell of a class's plan as the matrix measures it: an entry point
/// and piece, in one column (the set-wise entry in each of its three).
struct Cell {
    what: &'static str,
    piece: &'static str,
    workload: &'static str,
    /// The backend rows whose figures are the cell's: one, or for a
    /// set-wise column the loop over single lookups, the kernel, or both
    /// where the loop's bound falls inside the column's slider counts. The
    /// loop's row is the single backend's own set-wise row: the classes
    /// loop over `pext`, whose set-wise calls are such a loop.
    rows: Vec<Backend>,
}

/// Every cell of `class`'s plan: single lookups (the throughput column),
/// batches, dependency chains (the latency column) and set-wise calls with
/// 1-2, 4-6 and 10-14 sliders, for each piece.
fn cells(class: &ClassChoice) -> Vec<Cell> {
    let plan = class.plan;
    let mut cells = Vec::new();
    for slider in Slider::ALL {
        let piece = slider.name();
        for (entry, what, workload) in [
            (Entry::Single, "single lookups", "throughput"),
            (Entry::Batch, "batches", "batch"),
            (Entry::Latency, "dependency chains", "latency"),
        ] {
            let rows = vec![plan.get(entry, slider)];
            cells.push(Cell {
                what,
                piece,
                workload,
                rows,
            });
        }
        let (single, kernel) = (
            plan.get(Entry::Single, slider),
            plan.get(Entry::Setwise, slider),
        );
        let bound = plan.setwise_loop.get(slider);
        for (workload, (low, high)) in [
            ("setwise-few", (1, 2)),
            ("setwise-typical", (4, 6)),
            ("setwise-many", (10, 14)),
        ] {
            let rows = match (bound >= high, bound >= low) {
                (true, _) => vec![single],
                (false, true) => vec![single, kernel],
                (false, false) => vec![kernel],
            };
            cells.push(Cell {
                what: "set-wise calls",
                piece,
                workload,
                rows,
            });
        }
    }
    cells
}

#[test]
fn every_class_choice_is_runnable_and_sane() {
    for class in CLASSES {
        for b in class.plan.backends() {
            assert!(
                b.level() <= class.level || b.level() == Level::Baseline,
                "{}: {b} needs {} beyond the class's {}",
                class.name,
                b.level(),
                class.level
            );
            if class.fast_pext == Some(false) {
                assert!(
                    ![Backend::Pext, Backend::PextPdep].contains(&b),
                    "{}: PEXT and PDEP are slow on this class, but it chooses {b}",
                    class.name
                );
            }
        }
    }
    assert_eq!(CLASSES.last().map(|c| c.level), Some(Level::Baseline));
}

#[test]
fn the_choice_table_agrees_with_every_committed_run() {
    let runs = committed_runs();
    if runs.is_empty() {
        println!("choice: SKIPPED: no run is committed under benches/results/");
    }
    for r in &runs {
        let (id, has_level) = identity_of(r);
        let class: &ClassChoice = classify(id, has_level);
        assert!(
            class.measured_on.contains(&r.cpu.id.as_str()),
            "benches/results/{} belongs to class {}, whose `measured_on` does not name it",
            r.cpu.id,
            class.name
        );
        let meta = r
            .configs
            .iter()
            .find(|c| c.name == "runtime")
            .and_then(|c| c.meta.as_ref())
            .expect("a full run has the runtime build");
        let backends: Vec<&str> = meta
            .rows
            .iter()
            .filter(|row| row.kind == RowKind::Backend)
            .map(|row| row.name.as_str())
            .collect();
        let hashed = r.perft.iter().any(|p| p.is_hashed());
        let facade = meta.rows.iter().find(|row| row.kind == RowKind::Facade);
        let facade = facade.map(|row| row.name.as_str());
        for cell in cells(class) {
            // Where the hash perft decides the single lookups, the
            // throughput column keeps a looser bound (its cache-warm loop is
            // not an engine's).
            let bound = match hashed && cell.what == "single lookups" {
                true => 0.90,
                false => 0.95,
            };
            let figure = |b: &str| {
                r.figure("runtime", b, cell.piece, cell.workload)
                    .map(|f| f.mlookups_per_s)
            };
            let (best, best_figure) = backends
                .iter()
                .filter_map(|&b| Some((b, figure(b)?)))
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .expect("the run has backend figures");
            // The slower of the rows the cell may run (a set-wise loop
            // bound inside the column's slider counts runs both).
            let got = cell
                .rows
                .iter()
                .map(|b| figure(b.name()).unwrap_or(0.0))
                .fold(f64::INFINITY, f64::min);
            let chosen = cell
                .rows
                .iter()
                .map(|b| b.name())
                .collect::<Vec<_>>()
                .join(" and ");
            // The free functions take the single lookups' cell: they keep
            // the same bound in the throughput column.
            if let (Some(facade), "single lookups") = (facade.filter(|_| hashed), cell.what) {
                let free = figure(facade).unwrap_or(0.0);
                println!(
                    "choice: {} free functions {} (throughput): {free:.0} M/s ({:.2}x {best})",
                    r.cpu.id,
                    cell.piece,
                    free / best_figure
                );
                assert!(
                    free >= bound * best_figure,
                    "{}: the free functions' {} lookups ran {free:.0} M/s, below {bound}x \
                     {best}'s {best_figure:.0} in the throughput column",
                    r.cpu.id,
                    cell.piece
                );
            }
            println!(
                "choice: {} {} {} ({}): {chosen} {got:.0} M/s, the run's best {best} \
                 {best_figure:.0} ({:.2}x)",
                r.cpu.id,
                cell.what,
                cell.piece,
                cell.workload,
                got / best_figure
            );
            assert!(
                got >= bound * best_figure,
                "{}: class {} runs {chosen} for {} {} ({got:.0} M/s in column {}) but {best} \
                 measured {best_figure:.0} in the committed run (below {bound}x): change the \
                 class's cell, or re-measure the CPU",
                r.cpu.id,
                class.name,
                cell.what,
                cell.piece,
                cell.workload,
            );
        }
    }
}

/// The build whose free-functions hash perft the test prints but does not
/// hold to 0.97x, and why.
const FREE_FUNCTIONS_NOT_HELD: (&str, &str) = (
    "runtime",
    "perft compiled for the x86-64 baseline: no POPCNT in its counts",
);

/// The hash perft (`startpos hash`, `kiwipete hash`) of every committed run
/// that has it: in each build that ran it, `auto` (the run's class's plan,
/// in a job) must reach 0.97x the best backend row; so must the free
/// functions where the perft around them is compiled for the jobs' level or
/// the CPU (the `x86-64-v3` and `native` builds), as an engine is built.
/// The default build's are printed, not held ([`FREE_FUNCTIONS_NOT_HELD`]).
#[test]
fn the_hash_perft_decides_and_the_choice_leads_it() {
    let runs = committed_runs();
    let mut checked = 0;
    for r in &runs {
        let cases = r.hash_perfts();
        if cases.is_empty() {
            println!(
                "hash perft: SKIPPED {}: the run predates the hash perft",
                r.cpu.id
            );
        }
        for (config, position) in cases {
            let of = |row: &str| r.perft_figure(config, position, row).map(|p| p.mnps);
            let backends = Backend::all().iter().map(|b| b.name());
            let best = r.fastest_perft(config, position, backends);
            let best = best.expect("the hash perft has backend rows");
            let (best, best_mnps) = (&best.row, best.mnps);
            for row in ["auto", "free-functions"] {
                let Some(mnps) = of(row) else { continue };
                let (not_held_config, why) = FREE_FUNCTIONS_NOT_HELD;
                let not_held =
                    (row == "free-functions" && config == not_held_config).then_some(why);
                let held = not_held.is_none();
                let ratio = mnps / best_mnps;
                println!(
                    "hash perft: {} {config} {position}: {row} {mnps:.0} M nodes/s, best backend \
                     {best} {best_mnps:.0} ({ratio:.2}x){}",
                    r.cpu.id,
                    not_held.map_or(String::new(), |why| format!(", not held ({why})"))
                );
                if held {
                    checked += 1;
                    assert!(
                        ratio >= 0.97,
                        "{}: in the {config} build's {position} perft, {row} ran {mnps:.0} M \
                         nodes/s, below 0.97x {best}'s {best_mnps:.0}: the class's single \
                         lookups should follow the hash perft",
                        r.cpu.id
                    );
                }
            }
        }
    }
    println!("hash perft: {checked} figures held to 0.97x");
}
