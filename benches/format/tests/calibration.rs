//! Calibration's rule on figures drawn from the committed runs: a
//! calibration on a measured model keeps its class's plan whatever the
//! draw (the run decided every cell over fresh processes), and on any model
//! takes a challenger that clearly wins where the run did not decide
//! against it.
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

/// Draws per run, and how many must keep the class's plan.
const DRAWS: u32 = 20;
const KEPT_AT_LEAST: u32 = 19;
/// Rounds per drawn calibration.
const ROUNDS: usize = 20;

/// The committed runs with per-process samples (the current method).
fn runs_with_samples() -> Vec<Results> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results");
    let runs = hq_bench_format::committed_runs(&dir).unwrap_or_else(|e| panic!("{e}"));
    runs.into_iter().filter(Results::has_samples).collect()
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
/// the plan's single lookups that a calibration also times.
fn candidates(r: &Results, plan: &Plan, entry: Entry, slider: Slider) -> Vec<Candidate> {
    let meta = r.meta_of("runtime").expect("a runtime build");
    let rows: Vec<Backend> = meta
        .rows
        .iter()
        .filter(|m| m.kind == RowKind::Backend)
        .filter_map(|m| Backend::from_name(&m.name).ok())
        .collect();
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

/// `identity` as another model of its family, one no run measured.
fn unmeasured(identity: Identity) -> Identity {
    Identity {
        model: identity.model ^ 0x80,
        ..identity
    }
}

#[test]
fn on_a_measured_model_drawn_calibrations_keep_the_class_plan() {
    let runs = runs_with_samples();
    assert!(!runs.is_empty(), "no committed run has per-process samples");
    for r in &runs {
        let (identity, class) = class_of(r);
        assert!(
            class.measured(identity),
            "{}: class {} does not name it",
            r.cpu.id,
            class.name
        );
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ u64::from(r.cpu.model));
        let (mut kept, mut on_another) = (0, 0);
        let mut differing = BTreeSet::new();
        for _ in 0..DRAWS {
            let (figures, samples) = draw(r, &class.plan, &mut rng);
            let plan = calibration_choice(&class.plan, class, identity, &figures, &samples);
            kept += u32::from(plan == class.plan);
            // The same draw on a model the run did not measure: printed, not
            // held (nothing committed measured such a model).
            let other =
                calibration_choice(&class.plan, class, unmeasured(identity), &figures, &samples);
            on_another += u32::from(other == class.plan);
            for entry in Entry::ALL {
                for slider in Slider::ALL {
                    if other.get(entry, slider) != class.plan.get(entry, slider) {
                        differing.insert(format!(
                            "{}.{slider}={}",
                            entry.name(),
                            other.get(entry, slider)
                        ));
                    }
                }
            }
        }
        println!(
            "calibration: {} (class {}): {kept} of {DRAWS} drawn calibrations keep the class's \
             plan on the measured model, {on_another} of {DRAWS} on another model of the class \
             (where only the ties and the hash perft's single lookups hold){}",
            r.cpu.id,
            class.name,
            match differing.is_empty() {
                true => String::new(),
                false => format!(
                    "; the cells they changed: {}",
                    differing.into_iter().collect::<Vec<_>>().join(" | ")
                ),
            }
        );
        assert!(
            kept >= KEPT_AT_LEAST,
            "{}: only {kept} of {DRAWS} calibrations drawn from the committed run keep class {}'s \
             plan on the model it measured",
            r.cpu.id,
            class.name
        );
    }
}

/// In a drawn calibration, `challenger`'s rounds in `(entry, slider)` made
/// those of the class's backend times `factor`: a clear win when below 1.
fn with_winner(
    figures: &mut [Figure],
    samples: &mut [Vec<f64>],
    class: &ClassChoice,
    entry: Entry,
    slider: Slider,
    challenger: Backend,
    factor: f64,
) {
    let find = |figures: &[Figure], b: Backend| {
        figures
            .iter()
            .position(|f| {
                (f.entry, f.slider, f.backend, f.setwise_loop) == (entry, slider, b, None)
            })
            .unwrap_or_else(|| panic!("{entry:?} {slider}: no figure of {b}"))
    };
    let own = find(figures, class.plan.get(entry, slider));
    let won = find(figures, challenger);
    samples[won] = samples[own].iter().map(|x| x * factor).collect();
    figures[won].ns = figures[own].ns * factor;
    figures[won].fastest = figures[own].fastest * factor;
}

#[test]
fn a_clear_winner_is_taken_where_the_committed_run_did_not_decide_against_it() {
    let runs = runs_with_samples();
    for r in &runs {
        let (identity, class) = class_of(r);
        let mut rng = Rng(0x2545_F491_4F6C_DD1D ^ u64::from(r.cpu.model));
        let (entry, slider) = (Entry::Latency, Slider::Queen);
        let own = class.plan.get(entry, slider);
        // A challenger the class does not tie with its backend here.
        let challenger = candidates(r, &class.plan, entry, slider)
            .into_iter()
            .map(|c| c.backend)
            .find(|&b| b != own && !class.tied(entry, slider).contains(&b))
            .expect("a challenger");
        let (mut figures, mut samples) = draw(r, &class.plan, &mut rng);
        with_winner(
            &mut figures,
            &mut samples,
            class,
            entry,
            slider,
            challenger,
            0.75,
        );
        let choice = |class: &ClassChoice, identity| {
            calibration_choice(&class.plan, class, identity, &figures, &samples).get(entry, slider)
        };
        // Another model of the class: nothing committed decided it.
        assert_eq!(
            choice(class, unmeasured(identity)),
            challenger,
            "{}: a challenger 25 % faster in every round should be taken on an unmeasured model",
            r.cpu.id
        );
        // The measured model, had its run not measured the challenger (a
        // backend added since): taken.
        let newer = ClassChoice {
            measured_backends: &[],
            ..*class
        };
        assert_eq!(choice(&newer, identity), challenger, "{}", r.cpu.id);
        // The measured model, whose run measured it: the run's figures keep
        // the class's backend.
        assert_eq!(choice(class, identity), own, "{}", r.cpu.id);
        // A win inside the margin is not taken anywhere.
        let (mut figures, mut samples) = draw(r, &class.plan, &mut rng);
        with_winner(
            &mut figures,
            &mut samples,
            class,
            entry,
            slider,
            challenger,
            0.97,
        );
        let plan = calibration_choice(
            &class.plan,
            &newer,
            unmeasured(identity),
            &figures,
            &samples,
        );
        assert_eq!(
            plan.get(entry, slider),
            own,
            "{}: a 3 % win is inside the margin",
            r.cpu.id
        );
        println!(
            "calibration: {}: a clear {challenger} win over {own} in queen chains is taken but on \
             the model whose run measured both",
            r.cpu.id
        );
    }
}
