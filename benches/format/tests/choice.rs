//! The choice table against the measurements: every committed bench-matrix
//! run (`benches/results/<cpu-id>/results.json`) must belong to a class that
//! names it, and for every entry point and piece the class's backend must
//! be the one the run's figures choose.
//!
//! Every run has per-process samples, and decides with intervals
//! (`hq_bench_format::decide`): a backend replaces another only when the
//! 95 % interval of their paired ratio clears 1; single lookups are decided
//! by the hash perft (an engine's search shape: a transposition table
//! thrashing the caches), then the engine-shaped loop; what ties through
//! every level goes to the smallest table footprint. The class's backend
//! must be that choice, its `ties` the backends tied with it (in a class
//! measured on several models, in any of its runs), and in the hash perft
//! no backend may clear `auto`. The free functions are held to two
//! allowances, each stated with its measurement in `docs/benchmarks.md`
//! ("The data test's allowances"): [`ROUTE_ALLOWANCE`] against their plan's
//! row, and [`FREE_FUNCTIONS_ALLOWANCE`] in the hash perft of the builds
//! whose perft code is compiled for a level ([`FREE_FUNCTIONS_NOT_HELD`]).

use hq::unstable::{CLASSES, ClassChoice, SMALL_TABLE_BYTES, TARGET_CLASSES, classify};
use hq::{Backend, Entry, Slider};
use hq_bench_format::decide::{self, Decision, SetwiseRun};
use hq_bench_format::{Results, RowKind};
use hq_core::cpu::{Feature, Level};
use hq_core::identity::{Identity, Vendor};
use std::path::Path;

/// The committed full runs (none is a failure: the classes' evidence names them).
fn committed_runs() -> Vec<Results> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results");
    let runs = hq_bench_format::committed_runs(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        !runs.is_empty(),
        "no run is committed under benches/results/"
    );
    runs
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
        .unwrap_or_else(|e| panic!("{}: {e}", r.id()));
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

/// The class a run measured: a CPU's own run, the class of its identity
/// and levels; a run of another target ([`hq_bench_format::TargetRun`]),
/// the class its build compiled in, by name (the portable wasm32 class is
/// in [`CLASSES`] in wasm32 builds only: [`TARGET_CLASSES`]).
fn class_of(r: &Results) -> &'static ClassChoice {
    match &r.target {
        None => {
            let (id, has_level) = identity_of(r);
            classify(id, has_level)
        }
        Some(t) => CLASSES
            .iter()
            .chain(TARGET_CLASSES)
            .find(|c| c.name == t.class)
            .unwrap_or_else(|| panic!("{}: no class is named {}", r.id(), t.class)),
    }
}

/// The classes a run also decides beside its own (`hq::unstable::TARGET_CLASSES`
/// naming it in `measured_on`): a `small-tables` variant, or the
/// portable plan of x86-64 builds without `std`. Each among the backends it
/// may run: those of its level or portable, and for a `-small` class those
/// within [`SMALL_TABLE_BYTES`].
fn other_classes_of(r: &Results, own: &ClassChoice) -> Vec<&'static ClassChoice> {
    let id = r.id();
    TARGET_CLASSES
        .iter()
        .filter(|c| c.name != own.name && c.measured_on.contains(&id.as_str()))
        .collect()
}

/// The footprint of `row` as a candidate of `class` (`None`: not one).
fn candidate_footprint(class: &ClassChoice, row: &str) -> Option<usize> {
    let backend = Backend::from_name(row).ok()?;
    let level_ok = backend.level() == Level::Baseline || backend.level() == class.level;
    let small = !class.name.ends_with("-small") || backend.table_bytes() <= SMALL_TABLE_BYTES;
    (level_ok && small).then(|| backend.table_bytes())
}

/// One cell of a class's plan as the matrix measures it: an entry point
/// and piece, in one column (the set-wise entry in each of its three).
struct Cell {
    entry: Entry,
    slider: Slider,
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
                entry,
                slider,
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
        for (workload, _) in decide::SETWISE_COLUMNS {
            let rows = match decide::setwise_run(workload, bound) {
                Some(SetwiseRun::Lookups) => vec![single],
                Some(SetwiseRun::Both) => vec![single, kernel],
                _ => vec![kernel],
            };
            cells.push(Cell {
                entry: Entry::Setwise,
                slider,
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

/// The runtime build's backend rows of a run.
fn backend_rows(r: &Results) -> Vec<&str> {
    let meta = r.meta_of("runtime");
    let meta = meta.expect("a full run has the runtime build");
    meta.rows
        .iter()
        .filter(|row| row.kind == RowKind::Backend)
        .map(|row| row.name.as_str())
        .collect()
}

/// A backend's table footprint, by name.
fn footprint(row: &str) -> Option<usize> {
    Backend::from_name(row).ok().map(|b| b.table_bytes())
}

/// The backend the free functions key for `piece`'s single lookups in this
/// build (the matrix's report decides with the same).
fn keyed(piece: &str) -> Option<String> {
    let slider = Slider::ALL.into_iter().find(|s| s.name() == piece)?;
    Some(hq::unstable::keyed_for(slider)?.name().to_owned())
}

/// The class's ties for `entry` and `slider`, by name, sorted.
fn class_ties(class: &ClassChoice, entry: Entry, slider: Slider) -> Vec<&'static str> {
    let mut ties: Vec<&str> = class.tied(entry, slider).iter().map(|b| b.name()).collect();
    ties.sort_unstable();
    ties
}

/// What each committed run ties with its class's backend, per class,
/// entry point and piece. A class measured on several models keeps its
/// backend wherever any of its runs could not separate the two, so its
/// `ties` are checked against the union over its runs.
#[derive(Default)]
struct RunTies(Vec<RunTie>);

/// One cell's ties: the class's, and each run's.
struct RunTie {
    class: &'static str,
    entry: Entry,
    slider: Slider,
    listed: Vec<&'static str>,
    runs: Vec<(String, Vec<String>)>,
}

impl RunTies {
    /// The backends `run`'s figures tie with `class`'s for `entry` and
    /// `slider`.
    fn record(
        &mut self,
        class: &ClassChoice,
        entry: Entry,
        slider: Slider,
        run: &str,
        ties: &[&str],
    ) {
        let ties = ties.iter().map(|t| t.to_string()).collect();
        let key = |t: &&mut RunTie| (t.class, t.entry, t.slider) == (class.name, entry, slider);
        match self.0.iter_mut().find(key) {
            Some(cell) => cell.runs.push((run.to_owned(), ties)),
            None => self.0.push(RunTie {
                class: class.name,
                entry,
                slider,
                listed: class_ties(class, entry, slider),
                runs: vec![(run.to_owned(), ties)],
            }),
        }
    }

    /// Every class's ties are the union of its runs' (every cell that
    /// differs is reported).
    fn check(&self) {
        let mut wrong = Vec::new();
        for cell in &self.0 {
            let mut union: Vec<&str> = cell
                .runs
                .iter()
                .flat_map(|(_, t)| t)
                .map(String::as_str)
                .collect();
            union.sort_unstable();
            union.dedup();
            if cell.listed != union {
                let each: Vec<String> = cell
                    .runs
                    .iter()
                    .map(|(run, t)| format!("{run}: {t:?}"))
                    .collect();
                wrong.push(format!(
                    "class {}'s ties for {} {} are {:?}; its runs' figures tie its backend with \
                     {union:?}, the union over its runs ({})",
                    cell.class,
                    cell.entry.name(),
                    cell.slider,
                    cell.listed,
                    each.join("; ")
                ));
            }
        }
        assert!(
            wrong.is_empty(),
            "the classes' ties should be what their runs' figures tie with their backends:\n{}",
            wrong.join("\n")
        );
    }
}

/// The cell of `what` (entry point) and `piece` as the matrix's decisions
/// name it.
fn entry_name(cell: &Cell) -> &'static str {
    cell.entry.name()
}

#[test]
fn the_choice_table_agrees_with_every_committed_run() {
    let runs = committed_runs();
    let mut ties = RunTies::default();
    for r in &runs {
        let class = class_of(r);
        assert!(
            class.measured_on.contains(&r.id().as_str()),
            "benches/results/{} belongs to class {}, whose `measured_on` does not name it",
            r.id(),
            class.name
        );
        assert!(r.has_samples(), "{}: no per-process samples", r.id());
        agrees_with_intervals(r, class, &footprint, true, &mut ties);
        // The other classes this run decides (a `small-tables` variant,
        // the no-std portable plan): among their candidates only, and
        // without the route (the facade's row ran the run's own class).
        for other in other_classes_of(r, class) {
            let footprint = |row: &str| candidate_footprint(other, row);
            agrees_with_intervals(r, other, &footprint, false, &mut ties);
        }
    }
    ties.check();
}

/// The interval rule (schema 3): each cell's backend is the decision; the
/// class's ties are the decision's; the free functions are not cleared
/// below 0.90x the best backend in the throughput column.
fn agrees_with_intervals(
    r: &Results,
    class: &ClassChoice,
    footprint: &dyn Fn(&str) -> Option<usize>,
    route: bool,
    ties: &mut RunTies,
) {
    let decisions = decide::decisions(r, footprint, keyed);
    let decision_of = |cell: &Cell| -> &Decision {
        let found = decisions.iter().find(|d| {
            (d.entry, d.piece, d.workload) == (entry_name(cell), cell.piece, cell.workload)
        });
        &found
            .unwrap_or_else(|| {
                panic!(
                    "{}: no decision for {} {} ({})",
                    r.id(),
                    cell.what,
                    cell.piece,
                    cell.workload
                )
            })
            .decision
    };
    // Set-wise calls: each piece's kernel and the decisions of the columns
    // it serves, judged together below.
    let mut setwise_columns: Vec<(Slider, Vec<&Decision>)> = Vec::new();
    for cell in cells(class) {
        let d = decision_of(&cell);
        let slider = cell.slider;
        let chosen: Vec<&str> = cell.rows.iter().map(|b| b.name()).collect();
        println!(
            "choice: {} {} {} ({}): the figures choose {d}; class {} runs {}",
            r.id(),
            cell.what,
            cell.piece,
            cell.workload,
            class.name,
            chosen.join(" and ")
        );
        match &chosen[..] {
            // One kernel serves a piece's three set-wise columns: it is
            // judged over them together, below.
            [_] if cell.entry == Entry::Setwise => {}
            [one] => assert_eq!(
                *one,
                d.chosen,
                "{}: class {} runs {one} for {} {} (column {}), but the run's figures choose {d}: \
                 change the class's cell, or re-measure the CPU",
                r.id(),
                class.name,
                cell.what,
                cell.piece,
                cell.workload
            ),
            // A set-wise loop bound inside the column: both rows run, and
            // neither may be cleared.
            both => {
                for row in both {
                    assert!(
                        d.tied.iter().any(|t| t == row),
                        "{}: class {} runs {row} for {} {} (column {}), which the run's \
                         figures clear: they choose {d}",
                        r.id(),
                        class.name,
                        cell.what,
                        cell.piece,
                        cell.workload
                    );
                }
            }
        }
        if cell.entry == Entry::Setwise {
            let kernel = class.plan.get(Entry::Setwise, slider).name();
            if chosen == [kernel] {
                match setwise_columns.iter_mut().find(|(s, _)| *s == slider) {
                    Some((_, columns)) => columns.push(d),
                    None => setwise_columns.push((slider, vec![d])),
                }
            }
            continue;
        }
        let others: Vec<String> = d.tied.iter().filter(|t| **t != d.chosen).cloned().collect();
        let mut want: Vec<&str> = others.iter().map(String::as_str).collect();
        want.sort_unstable();
        ties.record(class, cell.entry, slider, &r.id(), &want);
    }
    // A piece's set-wise kernel, over the columns it serves
    // (`decide::joint`): the smallest table no column clears; the others
    // are its ties.
    for (slider, columns) in setwise_columns {
        let kernel = class.plan.get(Entry::Setwise, slider).name();
        let joint = decide::joint(&columns, footprint).unwrap_or_else(|| {
            panic!(
                "{}: class {} runs {kernel} for {slider} set-wise calls, but every backend is \
                 cleared in some column it serves",
                r.id(),
                class.name
            )
        });
        assert_eq!(
            kernel,
            joint.chosen,
            "{}: class {}'s {slider} set-wise kernel should be the run's choice over the \
             columns it serves: {joint}",
            r.id(),
            class.name
        );
        let mut want: Vec<&str> = joint
            .tied
            .iter()
            .map(String::as_str)
            .filter(|t| *t != kernel)
            .collect();
        want.sort_unstable();
        // What it ties with in every column it serves.
        ties.record(class, Entry::Setwise, slider, &r.id(), &want);
    }
    if !route {
        return;
    }
    // The free functions in the throughput column, against the row of the
    // backend their plan runs there (the route's cost; which backend it is,
    // the cells above judge): not clearly below ROUTE_ALLOWANCE. The best
    // backend row is printed beside.
    let backends = backend_rows(r);
    for slider in Slider::ALL {
        let piece = slider.name();
        let figure = |row: &str| r.figure("runtime", row, piece, "throughput");
        let best = backends
            .iter()
            .filter_map(|&b| figure(b))
            .max_by(|a, b| a.mlookups_per_s.total_cmp(&b.mlookups_per_s))
            .expect("backend figures");
        let own = class.plan.get(Entry::Single, slider).name();
        let hq = figure("hq").expect("the free functions' row");
        let plan = figure(own).expect("the plan's backend row");
        let route = Results::speed_ratio(hq, plan).expect("samples");
        let against_best = Results::speed_ratio(hq, best).expect("samples");
        println!(
            "choice: {} free functions {piece} (throughput): {:.2}x their plan's {own} \
             ({:.2}-{:.2}); {:.2}x the best row, {} ({:.2}-{:.2})",
            r.id(),
            route.estimate,
            route.low,
            route.high,
            against_best.estimate,
            best.row,
            against_best.low,
            against_best.high
        );
        assert!(
            route.high >= ROUTE_ALLOWANCE,
            "{}: the free functions' {piece} lookups ran {:.2}x their plan's {own} ({:.2}-{:.2}), \
             clearly below {ROUTE_ALLOWANCE}x in the throughput column",
            r.id(),
            route.estimate,
            route.low,
            route.high
        );
    }
}

/// What the free functions' route (the per-call test of the installed
/// plan, the kernel inlined into the caller's loop) may cost in the
/// throughput column: their paired ratio to their plan's backend row must
/// reach it with its interval's high end. Stated, with the measurement
/// behind it, in `docs/benchmarks.md`, "The data test's allowances".
const ROUTE_ALLOWANCE: f64 = 0.90;

/// The build whose free-functions hash perft the test prints but does not
/// hold to 0.97x, and why.
const FREE_FUNCTIONS_NOT_HELD: (&str, &str) = (
    "runtime",
    "perft compiled for the x86-64 baseline: no POPCNT in its counts",
);

/// The share of the best backend's hash perft the free functions must keep
/// (the earlier method's fixed ratio, now the bound their interval must
/// reach): what the route's check per lookup may cost.
const FREE_FUNCTIONS_ALLOWANCE: f64 = 0.97;

/// The hash perft (`startpos hash`, `kiwipete hash`) of every committed run
/// that has it: in each build that ran it, `auto` (the run's class's plan,
/// in a job) must keep up with the best backend row; so must the free
/// functions where the perft around them is compiled for the jobs' level or
/// the CPU (the `x86-64-v3` and `native` builds), as an engine is built.
/// "Keep up", for `auto` (the choice itself): with samples, the best row
/// does not clear it (the interval of their paired ratio holds 1 or more);
/// in the earlier runs, 0.97x. Where the class's single lookups are the
/// best row's backend, `auto` runs that backend in a job, and is held to
/// the allowance below, as the free functions are. The free functions add the route's check of
/// the installed choice to every lookup, so they are held to the earlier
/// runs' allowance, [`FREE_FUNCTIONS_ALLOWANCE`]: with samples, their
/// interval must reach it. The default build's free functions are printed,
/// not held ([`FREE_FUNCTIONS_NOT_HELD`]).
#[test]
fn the_hash_perft_decides_and_the_choice_leads_it() {
    let runs = committed_runs();
    let mut checked = 0;
    for r in &runs {
        let cases = r.hash_perfts();
        if cases.is_empty() {
            let why = match r.is_native() {
                true => "the run predates the hash perft",
                false => "a wasm32 run has no perft yet",
            };
            println!("hash perft: SKIPPED {}: {why}", r.id());
        }
        // The backend `auto` runs where the class names one for every
        // piece's single lookups.
        let chosen = class_of(r).plan.entry(Entry::Single).uniform();
        for (config, position) in cases {
            let of = |row: &str| r.perft_figure(config, position, row).map(|p| p.mnps);
            let backends = Backend::all().iter().map(|b| b.name());
            let best = r.fastest_perft(config, position, backends);
            let best = best.expect("the hash perft has backend rows");
            let (best, best_mnps) = (&best.row, best.mnps);
            // Where the choice is the best row's backend, `auto` runs that
            // backend itself: it is held, as the free functions are, to the
            // allowance for its route (a paired ratio of a backend to itself
            // measures the route, not the choice).
            let auto_runs_best = chosen.is_some_and(|b| b.name() == best);
            for row in ["auto", "free-functions"] {
                let Some(mnps) = of(row) else { continue };
                let (not_held_config, why) = FREE_FUNCTIONS_NOT_HELD;
                let not_held =
                    (row == "free-functions" && config == not_held_config).then_some(why);
                let paired = r.perft_ratio(config, Some(position), row, best);
                let ratio = paired.map_or(mnps / best_mnps, |i| i.estimate);
                let interval =
                    paired.map_or(String::new(), |i| format!(" [{:.3}-{:.3}]", i.low, i.high));
                println!(
                    "hash perft: {} {config} {position}: {row} {mnps:.0} M nodes/s, best backend \
                     {best} {best_mnps:.0} ({ratio:.3}x{interval}){}",
                    r.id(),
                    not_held.map_or(String::new(), |why| format!(", not held ({why})"))
                );
                if not_held.is_some() {
                    continue;
                }
                checked += 1;
                let bound = match row {
                    "auto" if !auto_runs_best => 1.0,
                    _ => FREE_FUNCTIONS_ALLOWANCE,
                };
                match paired {
                    Some(i) => assert!(
                        !i.below(bound),
                        "{}: in the {config} build's {position} perft, {row} runs below {bound}x \
                         {best}: their paired ratio is {:.3} ({:.3}-{:.3}){}",
                        r.id(),
                        i.estimate,
                        i.low,
                        i.high,
                        match row {
                            "auto" if !auto_runs_best =>
                                ": the class's single lookups should follow the hash perft",
                            "auto" => ": the job's route costs too much",
                            _ => ": the route's check of the installed choice costs too much",
                        }
                    ),
                    None => assert!(
                        ratio >= FREE_FUNCTIONS_ALLOWANCE,
                        "{}: in the {config} build's {position} perft, {row} ran {mnps:.0} M \
                         nodes/s, below 0.97x {best}'s {best_mnps:.0}: the class's single \
                         lookups should follow the hash perft",
                        r.id()
                    ),
                }
            }
        }
    }
    println!("hash perft: {checked} figures held");
}

/// The decision rule on synthetic figures: two backends whose rounds
/// overlap tie, and the smaller table (`avx512`, 20 KiB, against `pext`'s
/// 843 KiB) is chosen; a clear win goes to the winner whatever its table;
/// on single lookups the hash perft decides before the engine loop.
#[test]
fn a_tie_goes_to_the_smaller_table_and_a_clear_win_to_the_winner() {
    use hq_bench_format::{Figure, PerftFigure, ProcessSamples};
    let mut r: Results = serde_json::from_str(
        r#"{"schema": 3, "quick": false, "rustc": "rustc", "git_commit": "abc",
        "date": "2026-01-01T00:00:00Z", "total_seconds": 1, "statistic": "median",
        "cpu": {"id": "synthetic", "vendor": "AMD", "model_name": "test", "family": 25,
            "model": 17, "stepping": 1, "features": {}},
        "configs": [{"name": "runtime", "description": "", "rustflags": "", "cargo_args": [],
            "skip_reason": null, "build_seconds": 0, "run_seconds": 0,
            "meta": {"mode": "run-time", "class": "test", "inputs": 4096, "checked_cases": 1,
                "choice": {"single": "pext", "batch": "pext", "setwise": "pext"},
                "rows": [{"name": "pext", "label": "", "kind": "backend"},
                    {"name": "avx512", "label": "", "kind": "backend"}], "skipped": []}}],
        "figures": [], "perft": [], "perft_note": null}"#,
    )
    .expect("a synthetic run");
    // Six processes of four rounds at `level` ns per iteration, each round
    // moved by the same pattern for every row (what slowed a round slowed
    // every row in it), plus `jitter` of its own (its pattern shifted by
    // `phase`, each row's own).
    let samples = |level: f64, jitter: f64, phase: u32| -> Vec<ProcessSamples> {
        (0..6u32)
            .map(|p| {
                let rounds = (0..4u32)
                    .map(|k| {
                        let shared = 1.0 + 0.03 * f64::from((p * 4 + k) % 5);
                        let own = (p * 7 + k * 3 + phase * 5) % 9;
                        let own = 1.0 + jitter * (f64::from(own) / 4.0 - 1.0);
                        level * shared * own
                    })
                    .collect();
                ProcessSamples(p, rounds)
            })
            .collect()
    };
    let phase = |row: &str| u32::from(row == "avx512");
    let figure = |row: &str, workload: &str, level: f64, jitter: f64| Figure {
        config: "runtime".into(),
        row: row.into(),
        piece: "queen".into(),
        workload: workload.into(),
        lookups_per_iter: 4096,
        samples: 24,
        ns_per_iter: level,
        ns_per_iter_median: level,
        mlookups_per_s: 4096.0 / level * 1e3,
        ns_per_lookup: level / 4096.0,
        ratio_to_pext: None,
        spread: 0.0,
        interval: None,
        ratio_interval: None,
        unresolved: None,
        per_process: samples(level, jitter, phase(row)),
    };
    // Batch: within 1 % of each other with 3 % noise of their own: a tie.
    // Latency: pext 20 % faster: a clear win. Engine loop: avx512 clearly
    // faster.
    r.figures = vec![
        figure("pext", "batch", 5000.0, 0.03),
        figure("avx512", "batch", 5050.0, 0.03),
        figure("pext", "latency", 10000.0, 0.01),
        figure("avx512", "latency", 12000.0, 0.01),
        figure("pext", "engine-throughput", 6000.0, 0.01),
        figure("avx512", "engine-throughput", 5000.0, 0.01),
    ];
    let perft = |row: &str, position: &str, seconds: f64| PerftFigure {
        config: "runtime".into(),
        row: row.into(),
        position: position.into(),
        depth: 6,
        nodes: 100_000_000,
        seconds,
        mnps: 100.0 / seconds,
        interval: None,
        unresolved: None,
        per_process: samples(seconds, 0.005, phase(row)),
    };
    // The hash perft: pext clearly ahead on both positions.
    r.perft = vec![
        perft("pext", "startpos hash", 0.10),
        perft("avx512", "startpos hash", 0.12),
        perft("pext", "kiwipete hash", 0.10),
        perft("avx512", "kiwipete hash", 0.115),
    ];
    let decisions = decide::decisions(&r, footprint, |_| None);
    let of = |entry: &str| {
        &decisions
            .iter()
            .find(|d| d.entry == entry && d.piece == "queen")
            .unwrap_or_else(|| panic!("a decision for {entry}"))
            .decision
    };
    let batch = of("batch");
    println!(
        "synthetic batch: {batch}; latency: {}; single: {}",
        of("latency"),
        of("single")
    );
    assert_eq!(
        (batch.chosen.as_str(), batch.decided_by.as_deref()),
        ("avx512", None),
        "a tie goes to the smaller table: {batch}"
    );
    assert_eq!(batch.tied.len(), 2);
    let latency = of("latency");
    assert_eq!(
        latency.chosen, "pext",
        "a clear win goes to the winner: {latency}"
    );
    assert!(latency.decided_by.is_some());
    // Single lookups: the hash perft decides (pext), before the engine loop
    // (which alone would choose avx512).
    let decided_by =
        |d: &Decision, level: &str| d.decided_by.as_deref().is_some_and(|by| by.contains(level));
    let single = of("single");
    assert_eq!(single.chosen, "pext", "{single}");
    assert!(decided_by(single, "hash perft"), "{single}");
    // Without a hash perft separating them, the engine loop decides.
    for p in &mut r.perft {
        p.per_process = samples(0.10, 0.03, phase(&p.row));
    }
    let single_where = |keyed: Option<&str>| {
        decide::decisions(&r, footprint, |_| keyed.map(str::to_owned))
            .into_iter()
            .find(|d| d.entry == "single" && d.piece == "queen")
            .expect("a decision")
            .decision
    };
    let single = single_where(None);
    assert_eq!(single.chosen, "avx512", "{single}");
    assert!(decided_by(&single, "engine"), "{single}");
    // Unless the free functions key one of the tied backends: they keep it.
    let single = single_where(Some("pext"));
    assert_eq!(single.chosen, "pext", "{single}");
    assert!(decided_by(&single, "key"), "{single}");
    assert!(single.tied.iter().any(|t| t == "avx512"), "{single}");
    // A keyed backend the hash perft does not tie with the best is not kept.
    let single = single_where(Some("magic"));
    assert_eq!(single.chosen, "avx512", "{single}");
}
