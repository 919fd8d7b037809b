//! Calibration's rule (`hq::calibrate`: a cell changes only where a
//! challenger runs in at most half the time of the plan's backend) on
//! figures drawn from every committed run:
//!
//! * started from the run's class's plan, 20 drawn calibrations choose one
//!   plan in at least 19, and each cell of that plan is the class's backend
//!   or one the run ties with it (the rule is the same on a model no run
//!   measured: this is what such a model would get, had its figures been
//!   this run's);
//! * started from a plan with a gross mistake (the research backend
//!   `xop-model` for single lookups), every drawn calibration corrects it;
//! * the bench matrix's own calibration starts (`HQ_CALIBRATE=1 hq-info` in
//!   fresh processes), where a run made them under this rule, agree so too.
//!
//! A draw is what one calibration would see in one process: for every
//! cell, one of the run's processes (the same for every candidate, as a
//! calibration times them all in one process), and 20 of its rounds drawn
//! with replacement (a calibration times 18-24), paired across candidates
//! as a calibration's rounds are.

use hq::unstable::{ClassChoice, Identity, calibration_choice, classify};
use hq::{Backend, Entry, Figure, Plan, Slider};
use hq_bench_format::{ProcessSamples, Results, RowKind};
use hq_core::cpu::Level;
use std::collections::BTreeSet;
use std::path::Path;

/// Draws per run, and how many must choose one plan.
const DRAWS: usize = 20;
const ONE_PLAN_AT_LEAST: usize = 19;
/// Rounds per drawn calibration.
const ROUNDS: usize = 20;

/// The committed runs: every one has per-process samples.
fn committed_runs() -> Vec<Results> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results");
    let runs = hq_bench_format::committed_runs(&dir).unwrap_or_else(|e| panic!("{e}"));
    // A run of another target (wasm32 under Node) fixes its plan at compile
    // time: nothing calibrates there.
    let runs: Vec<Results> = runs.into_iter().filter(Results::is_native).collect();
    assert!(
        !runs.is_empty(),
        "no run is committed under benches/results/"
    );
    for r in &runs {
        assert!(r.has_samples(), "{}: no per-process samples", r.cpu.id);
    }
    runs
}

/// The run's identity, and its class (by the levels it recorded).
fn class_of(r: &Results) -> (Identity, &'static ClassChoice) {
    let identity = Identity {
        vendor: r.cpu.vendor.parse().expect("a vendor"),
        family: r.cpu.family,
        model: r.cpu.model,
        stepping: r.cpu.stepping,
    };
    let has_level = |level: Level| level.features().iter().all(|f| r.cpu.has(f.name()));
    (identity, classify(identity, has_level))
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The columns a calibration's loop for `entry` times, summed per round:
/// its set-wise loop runs the three ranges' calls in one sample.
fn columns(entry: Entry) -> &'static [&'static str] {
    match entry {
        Entry::Single => &["throughput"],
        Entry::Latency => &["latency"],
        Entry::Batch => &["batch"],
        Entry::Setwise => &["setwise-few", "setwise-typical", "setwise-many"],
    }
}

/// One candidate of a cell: its backend, and for set-wise calls the loop of
/// single lookups up to two sliders before it (the `setwise-few` column is
/// then the single backend's row, whose set-wise calls are such a loop).
#[derive(Clone, Copy, PartialEq)]
struct Candidate {
    backend: Backend,
    looped: Option<Backend>,
}

impl Candidate {
    /// The row whose figures are this candidate's in `column`.
    fn row(self, column: &str) -> &'static str {
        match (self.looped, column) {
            (Some(single), "setwise-few") => single.name(),
            _ => self.backend.name(),
        }
    }
}

/// A cell's candidates: every backend row of the run, and the loops over
/// the plan's single lookups that a calibration also times. Of the two
/// names of one bishop kernel, the one the plan gives, as a calibration
/// times it.
fn candidates(r: &Results, plan: &Plan, entry: Entry, slider: Slider) -> Vec<Candidate> {
    let meta = r.meta_of("runtime").expect("a runtime build");
    let twins = [Backend::ScalarRankTable, Backend::ScalarRankDiagonal];
    let named = plan.get(entry, slider);
    let mut rows: Vec<Backend> = meta
        .rows
        .iter()
        .filter(|m| m.kind == RowKind::Backend)
        .filter_map(|m| Backend::from_name(&m.name).ok())
        .collect();
    if slider == Slider::Bishop && twins.iter().all(|t| rows.contains(t)) {
        let timed = if twins.contains(&named) {
            named
        } else {
            twins[0]
        };
        rows.retain(|b| !twins.contains(b) || *b == timed);
    }
    let mut out: Vec<Candidate> = rows
        .iter()
        .map(|&backend| Candidate {
            backend,
            looped: None,
        })
        .collect();
    let single = plan.get(Entry::Single, slider);
    if entry == Entry::Setwise && matches!(single, Backend::Pext | Backend::PextPdep) {
        out.extend(
            rows.iter()
                .filter(|&&b| b != single)
                .map(|&backend| Candidate {
                    backend,
                    looped: Some(single),
                }),
        );
    }
    out
}

/// The rounds of `row` in `column` (ns per lookup), by process.
fn rounds<'a>(
    r: &'a Results,
    row: &str,
    piece: &str,
    column: &str,
) -> Option<(&'a [ProcessSamples], f64)> {
    let f = r.figure("runtime", row, piece, column)?;
    Some((&f.per_process, f.lookups_per_iter as f64))
}

/// One drawn calibration of one cell: the figures and their rounds.
fn draw_cell(
    r: &Results,
    plan: &Plan,
    entry: Entry,
    slider: Slider,
    rng: &mut Rng,
) -> (Vec<Figure>, Vec<Vec<f64>>) {
    let piece = slider.name();
    let cands = candidates(r, plan, entry, slider);
    // The processes every candidate's columns have, and their round count.
    let mut common: Option<BTreeSet<u32>> = None;
    let mut fewest = usize::MAX;
    for c in &cands {
        for column in columns(entry) {
            let Some((per_process, _)) = rounds(r, c.row(column), piece, column) else {
                continue;
            };
            let ids: BTreeSet<u32> = per_process.iter().map(|p| p.0).collect();
            fewest = per_process
                .iter()
                .map(|p| p.1.len())
                .fold(fewest, usize::min);
            common = Some(match common {
                None => ids,
                Some(c) => c.intersection(&ids).copied().collect(),
            });
        }
    }
    let common: Vec<u32> = common.unwrap_or_default().into_iter().collect();
    assert!(
        !common.is_empty(),
        "{}: {entry:?} {piece}: no process has every row",
        r.cpu.id
    );
    let process = common[rng.below(common.len())];
    let picks: Vec<usize> = (0..ROUNDS).map(|_| rng.below(fewest)).collect();
    let (mut figures, mut samples) = (Vec::new(), Vec::new());
    for c in cands {
        let mut per_round = vec![0.0; ROUNDS];
        let mut complete = true;
        for column in columns(entry) {
            let Some((per_process, lookups)) = rounds(r, c.row(column), piece, column) else {
                complete = false;
                break;
            };
            let p = per_process
                .iter()
                .find(|p| p.0 == process)
                .expect("a common process");
            for (sum, &k) in per_round.iter_mut().zip(&picks) {
                *sum += p.1[k] / lookups;
            }
        }
        if !complete {
            continue;
        }
        let mut sorted = per_round.clone();
        sorted.sort_by(f64::total_cmp);
        figures.push(Figure {
            entry,
            slider,
            backend: c.backend,
            setwise_loop: c.looped.map(|single| (single, 2)),
            ns: sorted[ROUNDS / 2],
            fastest: sorted[0],
        });
        samples.push(per_round);
    }
    (figures, samples)
}

/// One drawn calibration of every cell of `plan`.
fn draw(r: &Results, plan: &Plan, rng: &mut Rng) -> (Vec<Figure>, Vec<Vec<f64>>) {
    let (mut figures, mut samples) = (Vec::new(), Vec::new());
    for entry in Entry::ALL {
        for slider in Slider::ALL {
            let (f, s) = draw_cell(r, plan, entry, slider, rng);
            figures.extend(f);
            samples.extend(s);
        }
    }
    (figures, samples)
}

/// Whether `backend` is within the noise of `class`'s backend for `entry`
/// and `slider`: that backend, or one its committed runs tie with it.
fn within_noise(class: &ClassChoice, entry: Entry, slider: Slider, backend: Backend) -> bool {
    backend == class.plan.get(entry, slider) || class.tied(entry, slider).contains(&backend)
}

/// The cells of `plan` outside the noise of `class`'s, as text.
fn outside_noise(class: &ClassChoice, plan: &Plan) -> Vec<String> {
    let mut out = Vec::new();
    for entry in Entry::ALL {
        for slider in Slider::ALL {
            let b = plan.get(entry, slider);
            if !within_noise(class, entry, slider, b) {
                let own = class.plan.get(entry, slider);
                out.push(format!("{}.{slider}={b} (class: {own})", entry.name()));
            }
        }
    }
    out
}

/// The most common of `plans`, and how many are it.
fn most_common(plans: &[Plan]) -> (Plan, usize) {
    let count = |p: &Plan| plans.iter().filter(|q| *q == p).count();
    let top = plans.iter().max_by_key(|p| count(p)).expect("plans");
    (*top, count(top))
}

#[test]
fn drawn_calibrations_choose_one_plan_within_each_runs_noise() {
    for r in &committed_runs() {
        let (identity, class) = class_of(r);
        assert!(
            class.measured(identity),
            "{}: class {} does not name it",
            r.cpu.id,
            class.name
        );
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ u64::from(r.cpu.model));
        let plans: Vec<Plan> = (0..DRAWS)
            .map(|_| {
                let (figures, samples) = draw(r, &class.plan, &mut rng);
                calibration_choice(&class.plan, &figures, &samples)
            })
            .collect();
        let (plan, same) = most_common(&plans);
        let differing: BTreeSet<String> =
            plans.iter().flat_map(|p| outside_noise(class, p)).collect();
        println!(
            "calibration: {} (class {}): {same} of {DRAWS} drawn calibrations chose one plan{}; \
             cells any draw took outside the run's noise: {}",
            r.cpu.id,
            class.name,
            match plan == class.plan {
                true => ", the class's".to_owned(),
                false => format!(" ({plan})"),
            },
            match differing.is_empty() {
                true => "none".to_owned(),
                false => differing.into_iter().collect::<Vec<_>>().join(" | "),
            }
        );
        assert!(
            same >= ONE_PLAN_AT_LEAST,
            "{}: only {same} of {DRAWS} calibrations drawn from the committed run chose one plan",
            r.cpu.id
        );
        let outside = outside_noise(class, &plan);
        assert!(
            outside.is_empty(),
            "{}: the plan drawn calibrations choose leaves the run's noise in {}",
            r.cpu.id,
            outside.join(", ")
        );
    }
}

#[test]
fn drawn_calibrations_correct_a_gross_mistake() {
    for r in &committed_runs() {
        let (_, class) = class_of(r);
        // The research backend, tens of times slower, for single lookups.
        let wrong = class.plan.with_entry(Entry::Single, Backend::XopModel);
        let mut rng = Rng(0x2545_F491_4F6C_DD1D ^ u64::from(r.cpu.model));
        for _ in 0..DRAWS {
            let (figures, samples) = draw(r, &wrong, &mut rng);
            let plan = calibration_choice(&wrong, &figures, &samples);
            for slider in Slider::ALL {
                let b = plan.get(Entry::Single, slider);
                let speed = |b: Backend| {
                    r.figure("runtime", b.name(), slider.name(), "throughput")
                        .map_or(0.0, |f| f.mlookups_per_s)
                };
                let best = candidates(r, &wrong, Entry::Single, slider)
                    .iter()
                    .map(|c| speed(c.backend))
                    .fold(0.0, f64::max);
                assert!(
                    b != Backend::XopModel && speed(b) >= best / hq::unstable::CALIBRATION_GROSS,
                    "{}: a calibration started from xop-model for {slider} single lookups chose \
                     {b} ({:.0} M/s in the run, the best {best:.0})",
                    r.cpu.id,
                    speed(b)
                );
            }
        }
        println!(
            "calibration: {}: {DRAWS} of {DRAWS} drawn calibrations replaced xop-model's single \
             lookups",
            r.cpu.id
        );
    }
}

/// The bench matrix's own calibration starts: `HQ_CALIBRATE=1 hq-info` in
/// fresh processes on the run's CPU, real 5 ms calibrations. Those made
/// under this rule are held as the drawn ones; older ones are reported.
#[test]
fn the_runs_calibration_starts_choose_one_plan_within_its_noise() {
    let mut held = 0;
    for r in &committed_runs() {
        let (_, class) = class_of(r);
        let Some(starts) = &r.calibration else {
            panic!("{}: the run has no calibration starts", r.cpu.id);
        };
        if starts.rule < hq_bench_format::CALIBRATION_RULE {
            println!(
                "calibration starts: {}: NOT HELD, made under an earlier rule (a 5 % margin): {}",
                r.cpu.id,
                starts.summary()
            );
            continue;
        }
        let plans: Vec<Plan> = starts
            .plans
            .iter()
            .map(|p| {
                p.parse()
                    .unwrap_or_else(|e| panic!("{}: {p}: {e}", r.cpu.id))
            })
            .collect();
        let (plan, same) = most_common(&plans);
        println!("calibration starts: {}: {}", r.cpu.id, starts.summary());
        assert!(
            plans.len() >= DRAWS && same * DRAWS >= ONE_PLAN_AT_LEAST * plans.len(),
            "{}: {same} of {} fresh processes chose one plan",
            r.cpu.id,
            plans.len()
        );
        let outside = outside_noise(class, &plan);
        assert!(
            outside.is_empty(),
            "{}: the plan the fresh processes calibrated leaves the run's noise in {}",
            r.cpu.id,
            outside.join(", ")
        );
        held += 1;
    }
    println!("calibration starts: {held} runs held");
}
