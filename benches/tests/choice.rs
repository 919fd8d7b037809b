//! The choice table against the measurements: every committed bench-matrix
//! run (`benches/results/<cpu-id>/results.json`) must belong to a class that
//! names it, and that class's choice must be the fastest backend of the run
//! (within 5 %: the runs are noisy) for each piece of the single lookups and
//! batches, and for the set-wise calls.

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

/// Geometric mean of the runtime build's figures of `row` over `workloads`
/// and the three pieces; `None` if any is missing.
fn score(r: &Results, row: &str, workloads: &[&str]) -> Option<f64> {
    let mut log_sum = 0.0;
    let mut n = 0.0;
    for w in workloads {
        for piece in ["queen", "rook", "bishop"] {
            log_sum += r.figure("runtime", row, piece, w)?.mlookups_per_s.ln();
            n += 1.0;
        }
    }
    Some((log_sum / n).exp())
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
                assert_ne!(
                    b,
                    Backend::Pext,
                    "{}: PEXT is slow on this class",
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
        // Single lookups and batches per piece: the class's plan, with its
        // per-piece exceptions, against each piece's best backend.
        let plan = class.plan;
        for (entry, workload, pieces) in [
            (Entry::Single, "throughput", plan.single),
            (Entry::Batch, "batch", plan.batch),
        ] {
            for slider in Slider::ALL {
                let piece = slider.name();
                let figure = |b: &str| {
                    r.figure("runtime", b, piece, workload)
                        .map(|f| f.mlookups_per_s)
                };
                let (best, best_figure) = backends
                    .iter()
                    .filter_map(|&b| Some((b, figure(b)?)))
                    .max_by(|a, b| a.1.total_cmp(&b.1))
                    .expect("the run has backend figures");
                let chosen = pieces.get(slider);
                let got = figure(chosen.name()).unwrap_or(0.0);
                println!(
                    "choice: {} {}.{piece}: {chosen} {got:.0} M/s, the run's best {best} \
                     {best_figure:.0}",
                    r.cpu.id,
                    entry.name()
                );
                assert!(
                    got >= 0.95 * best_figure,
                    "{}: class {} chooses {chosen} for {}.{piece} ({got:.0} M/s) but {best} \
                     measured {best_figure:.0} in the committed run: name it in the class's \
                     `per_piece`",
                    r.cpu.id,
                    class.name,
                    entry.name()
                );
            }
        }
        // Set-wise calls per entry point (the set-wise loop is per entry
        // point too), over the three slider counts.
        let workloads = ["setwise-few", "setwise-typical", "setwise-many"];
        let (best, best_score) = backends
            .iter()
            .filter_map(|&b| Some((b, score(r, b, &workloads)?)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .expect("the run has backend figures");
        let chosen = class.plan.setwise.queen;
        let got = score(r, chosen.name(), &workloads).unwrap_or(0.0);
        println!(
            "choice: {} set-wise: {chosen} {got:.0} M/s, the run's best {best} {best_score:.0}",
            r.cpu.id
        );
        assert!(
            got >= 0.95 * best_score,
            "{}: class {} chooses {chosen} for set-wise calls ({got:.0} M/s) but {best} \
             measured {best_score:.0} in the committed run",
            r.cpu.id,
            class.name
        );
        // The set-wise loop over the single backend's lookups (1-2 sliders)
        // only where that backend's own set-wise calls with 1-2 sliders,
        // which are such a loop, beat the set-wise kernel there.
        let few = ["setwise-few"];
        let p = class.plan;
        let (single, setwise, n) = (p.single.queen, p.setwise.queen, p.setwise_loop.queen);
        if single != setwise {
            let kernel = score(r, setwise.name(), &few).unwrap_or(0.0);
            let looped = score(r, single.name(), &few).unwrap_or(0.0);
            println!(
                "choice: {} set-wise with 1-2 sliders: {single} {looped:.0} M/s, {setwise} \
                 {kernel:.0}; the class loops up to {n} sliders",
                r.cpu.id
            );
            if n > 0 {
                assert!(
                    looped >= 0.95 * kernel,
                    "{}: class {} loops over {} for 1-2 sliders ({looped:.0} M/s) but {} \
                     measured {kernel:.0}: set its setwise_loop to 0",
                    r.cpu.id,
                    class.name,
                    single,
                    setwise
                );
            } else {
                assert!(
                    kernel >= 0.95 * looped,
                    "{}: class {} never loops over {} ({looped:.0} M/s with 1-2 sliders), \
                     though {} measured {kernel:.0}",
                    r.cpu.id,
                    class.name,
                    single,
                    setwise
                );
            }
        }
    }
}
