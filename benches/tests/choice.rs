//! The choice table against the measurements: every committed bench-matrix
//! run (`benches/results/<cpu-id>/results.json`) must belong to a class that
//! names it, and that class's choice must be the fastest backend of the run
//! for each entry point (within 5 %: the runs are noisy).

use hq::choice::{CLASSES, ClassChoice, classify};
use hq::cpu::{Feature, Identity, Level, Vendor};
use hq::{Backend, has_setwise_table};
use hq_bench_format::{Results, RowKind};
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
    let vendor = match r.cpu.vendor.as_str() {
        "Intel" => Vendor::Intel,
        "Amd" => Vendor::Amd,
        "Hygon" => Vendor::Hygon,
        "NotX86" => Vendor::NotX86,
        _ => Vendor::OtherX86,
    };
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
    let mut elsewhere = Vec::new();
    for class in CLASSES {
        let c = class.choice;
        // A class of another architecture never applies to this build, and
        // its set-wise loop table exists only where its backends do.
        if class
            .level
            .arch()
            .is_none_or(|arch| arch == std::env::consts::ARCH)
        {
            assert!(
                has_setwise_table(c),
                "{}: {c:?} has no set-wise table",
                class.name
            );
        } else {
            elsewhere.push(class.name);
        }
        for b in [c.single, c.batch, c.setwise] {
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
    if !elsewhere.is_empty() {
        println!(
            "choice: set-wise tables not checked for {} (classes of another architecture \
             than this build's {})",
            elsewhere.join(", "),
            std::env::consts::ARCH
        );
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
        for (entry, chosen, workloads) in [
            ("single lookups", class.choice.single, &["throughput"][..]),
            ("batches", class.choice.batch, &["batch"][..]),
            (
                "set-wise",
                class.choice.setwise,
                &["setwise-few", "setwise-typical", "setwise-many"][..],
            ),
        ] {
            let (best, best_score) = backends
                .iter()
                .filter_map(|&b| Some((b, score(r, b, workloads)?)))
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .expect("the run has backend figures");
            let got = score(r, chosen.name(), workloads).unwrap_or(0.0);
            println!(
                "choice: {} {entry}: {chosen} {got:.0} M/s, the run's best {best} {best_score:.0}",
                r.cpu.id
            );
            assert!(
                got >= 0.95 * best_score,
                "{}: class {} chooses {chosen} for {entry} ({got:.0} M/s) but {best} measured \
                 {best_score:.0} in the committed run",
                r.cpu.id,
                class.name
            );
        }
    }
}
