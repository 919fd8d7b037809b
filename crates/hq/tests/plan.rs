//! Per-piece plans (its own test binary: it changes the process-wide
//! choice): the text form round-trips and rejects bad input clearly; mixed
//! plans, where each piece of each entry point has its own backend, keep
//! every free function exact; a calibration installs a checked plan that
//! keeps them exact too.

// Plans installed at run time, and calibration, need `std`.
#![cfg(feature = "std")]

use hq::{Backend, Bitboard, Line, Pieces, Plan, Slider, SliderAttacks, Square};
use hq_testkit::Depth;
use proptest::prelude::*;

/// A token whose every entry point is the facade's free function, so that
/// the test kit's whole suite runs through the installed plan.
#[derive(Clone, Copy, Debug)]
struct Free;

impl SliderAttacks for Free {
    const NAME: &'static str = "free functions";
    const LEVEL: hq::cpu::Level = hq::cpu::Level::Baseline;
    // The installed plan's backends, one per piece at most.
    const TABLE_BYTES: usize = Backend::dispatched_table_bytes();

    unsafe fn new_unchecked() -> Self {
        Free
    }
    fn line_attacks(self, line: Line, sq: Square, occ: Bitboard) -> Bitboard {
        hq::line_attacks(line, sq, occ)
    }
    fn rook_attacks(self, sq: Square, occ: Bitboard) -> Bitboard {
        hq::rook_attacks(sq, occ)
    }
    fn bishop_attacks(self, sq: Square, occ: Bitboard) -> Bitboard {
        hq::bishop_attacks(sq, occ)
    }
    fn queen_attacks(self, sq: Square, occ: Bitboard) -> Bitboard {
        hq::queen_attacks(sq, occ)
    }
    fn rook_attacks_batch(self, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
        hq::rook_attacks_batch(squares, occ, out)
    }
    fn bishop_attacks_batch(self, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
        hq::bishop_attacks_batch(squares, occ, out)
    }
    fn queen_attacks_batch(self, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
        hq::queen_attacks_batch(squares, occ, out)
    }
    fn rook_attacks_setwise(self, rooks: Bitboard, occ: Bitboard) -> Bitboard {
        hq::rook_attacks_setwise(rooks, occ)
    }
    fn bishop_attacks_setwise(self, bishops: Bitboard, occ: Bitboard) -> Bitboard {
        hq::bishop_attacks_setwise(bishops, occ)
    }
    fn queen_attacks_setwise(self, queens: Bitboard, occ: Bitboard) -> Bitboard {
        hq::queen_attacks_setwise(queens, occ)
    }
}

/// The free functions and the latency functions against the oracle, on
/// whatever plan is installed.
fn installed_plan_is_exact(label: &str) {
    let report =
        hq_testkit::check(Free, Depth::Quick.scaled()).unwrap_or_else(|e| panic!("{label}: {e}"));
    for occ in hq_testkit::occupancies(0x2545_F491_4F6C_DD1D, if cfg!(miri) { 1 } else { 64 }) {
        for sq in Square::ALL {
            assert_eq!(
                (
                    hq::latency::rook_attacks(sq, occ),
                    hq::latency::bishop_attacks(sq, occ),
                    hq::latency::queen_attacks(sq, occ)
                ),
                (
                    hq::reference::rook_attacks(sq, occ),
                    hq::reference::bishop_attacks(sq, occ),
                    hq::reference::queen_attacks(sq, occ)
                ),
                "{label}: latency functions, {sq} over {occ:?}"
            );
        }
    }
    println!(
        "plan: {label}: {} cases agree ({})",
        report.total(),
        hq::selection().plan
    );
}

fn backend() -> impl Strategy<Value = Backend> {
    proptest::sample::select(Backend::all().to_vec())
}

fn pieces() -> impl Strategy<Value = Pieces> {
    (backend(), backend(), backend()).prop_map(|(rook, bishop, queen)| Pieces {
        rook,
        bishop,
        queen,
    })
}

fn plan() -> impl Strategy<Value = Plan> {
    (
        pieces(),
        pieces(),
        pieces(),
        (0u32..4, 0u32..4, 0u32..4),
        pieces(),
    )
        .prop_map(|(single, batch, setwise, (r, b, q), latency)| Plan {
            single,
            batch,
            setwise,
            setwise_loop: Pieces {
                rook: r,
                bishop: b,
                queen: q,
            },
            latency,
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: if cfg!(miri) { 4 } else { 2000 },
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Any plan, uniform groups or not, prints and reads back as itself.
    #[test]
    fn the_text_form_round_trips(plan in plan()) {
        let text = plan.to_string();
        prop_assert_eq!(text.parse::<Plan>().unwrap(), plan, "{}", text);
        // And item by item over any other plan.
        let mut over = Plan::all(Backend::Classic);
        over.apply(&text).unwrap();
        prop_assert_eq!(over, plan);
    }
}

#[test]
fn bad_text_is_an_error_that_names_the_item() {
    let cases: [(&str, &str); 6] = [
        ("single=turbo", "unknown backend \"turbo\""),
        (
            "sngle=pext",
            "the entries are single, batch, setwise and latency",
        ),
        ("single.king=pext", "the pieces are rook, bishop and queen"),
        ("setwise.loop=two", "setwise.loop takes a slider count"),
        ("single pext", "expected key=value"),
        ("single=classic", "it does not give batch.rook"),
    ];
    for (text, wanted) in cases {
        let err = text.parse::<Plan>().expect_err(text).to_string();
        assert!(err.contains(wanted), "{text:?}: {err}");
        println!("plan: {text:?} is refused: {err}");
    }
}

/// The backends a plan may name here (forced builds: the forced ones).
fn installable() -> Vec<Backend> {
    Backend::all()
        .iter()
        .copied()
        .filter(|b| b.is_available())
        .collect()
}

/// `plan` with the cells the build fixes as the facade fixes them: a cell
/// that differs from two uniform plans just installed is fixed.
fn as_fixed(plan: Plan) -> Plan {
    let before = hq::selection().plan;
    let runs = installable();
    let installed = |b: Backend| {
        hq::set_plan(Plan::all(b)).expect("available");
        hq::selection().plan
    };
    let (first, last) = (runs[0], runs[runs.len() - 1]);
    let (a, z) = (installed(first), installed(last));
    let mut out = plan;
    for entry in hq::Entry::ALL {
        for slider in Slider::ALL {
            if a.get(entry, slider) != first || z.get(entry, slider) != last {
                out.set(entry, slider, a.get(entry, slider));
            }
        }
    }
    hq::set_plan(before).expect("the plan it had");
    out
}

#[test]
fn mixed_plans_keep_every_free_function_exact_and_calibration_too() {
    let runs = installable();
    // Each rotation gives each piece of each group another backend.
    let at = |list: &[Backend], i: usize| list[i % list.len()];
    for i in 0..runs.len() {
        let plan = Plan {
            single: Pieces {
                rook: at(&runs, i),
                bishop: at(&runs, i + 1),
                queen: at(&runs, i + 2),
            },
            batch: Pieces {
                rook: at(&runs, i + 1),
                bishop: at(&runs, i + 2),
                queen: at(&runs, i),
            },
            setwise: Pieces {
                rook: at(&runs, i + 2),
                bishop: at(&runs, i),
                queen: at(&runs, i + 1),
            },
            setwise_loop: Pieces {
                rook: 2,
                bishop: 0,
                queen: 2,
            },
            latency: Pieces {
                rook: at(&runs, i),
                bishop: at(&runs, i + 1),
                queen: at(&runs, i + 2),
            },
        };
        let expected = as_fixed(plan);
        hq::set_plan(plan).expect("a plan of backends that run here");
        // Where the build fixes cells, they stay its own.
        assert_eq!(hq::selection().plan.single, expected.single);
        assert_eq!(hq::selection().plan.batch, expected.batch);
        installed_plan_is_exact(&format!("mixed plan {i}"));
    }
    // A plan naming a backend this build cannot dispatch is refused.
    if let Some(other) = Backend::all().iter().find(|b| !runs.contains(b)) {
        let mut plan = hq::selection().plan;
        plan.batch.set(Slider::Bishop, *other);
        let err = hq::set_plan(plan).expect_err("not installable");
        println!("plan: batch.bishop={other} is refused: {err}");
    }

    if cfg!(miri) {
        // Miri checks the installing of mixed plans above; a calibration is
        // timing loops (the native runs cover it).
        println!("plan: calibration not run under Miri");
        return;
    }
    calibration_installs_a_measured_plan();
}

/// wasm32 fixes every cell at compile time: nothing to calibrate there.
#[cfg(target_arch = "wasm32")]
fn calibration_installs_a_measured_plan() {
    println!("plan: SKIPPED calibration: wasm32 fixes every cell at compile time");
}

#[cfg(not(target_arch = "wasm32"))]
fn calibration_installs_a_measured_plan() {
    let calibration = hq::calibrate().expect("calibration");
    println!("{calibration}");
    assert_eq!(hq::selection().plan, calibration.plan);
    if Backend::all().iter().all(|b| !b.is_forced()) {
        assert_eq!(hq::selection().source, hq::Source::Calibration);
    }
    // Every candidate of every entry point and piece was timed.
    for entry in hq::Entry::ALL {
        for slider in Slider::ALL {
            let n = calibration
                .figures
                .iter()
                .filter(|f| (f.entry, f.slider) == (entry, slider))
                .inspect(|f| assert!(f.ns.is_finite() && f.ns > 0.0, "{f:?}"))
                .count();
            assert!(n > 0, "{entry:?} {slider:?} has no candidate");
            // A start without a figure is kept: a set-wise loop over
            // single lookups the calibration cannot time apart.
            let kept = (
                calibration.plan.get(entry, slider),
                calibration.plan.setwise_loop,
            ) == (
                calibration.base.get(entry, slider),
                calibration.base.setwise_loop,
            );
            assert!(
                kept || calibration
                    .figure_of(&calibration.plan, entry, slider)
                    .is_some(),
                "the chosen {entry:?} {slider:?} was measured, or is the start"
            );
        }
    }
    // A timed round, unless the warm-up alone spent the budget (the
    // unoptimised and the emulated builds).
    let budget_spent = calibration.elapsed >= std::time::Duration::from_millis(4);
    assert!(calibration.rounds > 0 || budget_spent, "{calibration}");
    installed_plan_is_exact("calibrated plan");
    // The printed plan reads back as the installed one.
    let reread: Plan = calibration.plan.to_string().parse().expect("round trip");
    hq::set_plan(reread).expect("the calibrated plan, read back");
    assert_eq!(hq::selection().plan, calibration.plan);
    a_calibration_corrects_a_gross_mistake();
}

/// Started from a plan that runs single lookups on the research backend
/// (`xop-model`, VPPERM modelled in software: tens of times slower), a
/// calibration replaces it for every piece whose cell the build does not
/// fix.
#[cfg(not(target_arch = "wasm32"))]
fn a_calibration_corrects_a_gross_mistake() {
    let research = Backend::XopModel;
    if !research.is_dispatched() {
        println!(
            "plan: SKIPPED the gross-mistake calibration: this build does not dispatch \
             {research} (the workspace tests' build does, through hq-info's all-backends)"
        );
        return;
    }
    let wrong = hq::selection().plan.with_entry(hq::Entry::Single, research);
    // A busy host (a tenant, the parallel step of `cargo xtask test`
    // compiling on both cores) can spend one calibration's 5 ms budget
    // before its second round: more tries (a quarter of a second at most),
    // each from the wrong plan again, before concluding that this build is
    // too slow.
    let mut calibration = None;
    for _ in 0..40 {
        hq::set_plan(wrong).expect("xop-model runs everywhere");
        let tried = hq::calibrate().expect("calibration");
        let enough = tried.rounds >= 2;
        calibration = Some(tried);
        if enough {
            break;
        }
    }
    let calibration = calibration.expect("at least one try");
    if calibration.rounds < 2 {
        // An unoptimised build spends the budget warming up.
        println!(
            "plan: SKIPPED the gross-mistake calibration: it timed {} rounds in its budget, too \
             few for any interval (an unoptimised build?)",
            calibration.rounds
        );
        return;
    }
    for slider in Slider::ALL {
        let (started, chosen) = (
            calibration.base.get(hq::Entry::Single, slider),
            calibration.plan.get(hq::Entry::Single, slider),
        );
        assert!(
            chosen != research,
            "a calibration kept {research} for {slider} single lookups:\n{calibration}"
        );
        println!("plan: calibration from {started} for {slider} single lookups chose {chosen}");
    }
    // What covers the skips of the builds that cannot run it.
    println!("plan: RAN the gross-mistake calibration");
}
