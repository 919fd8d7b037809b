//! The facade: the free functions and jobs against the oracle, and the
//! rules of the choice, in every build (`cargo xtask test` runs it in each
//! forced build too). Every backend through `with_backend` is
//! `tests/dispatch.rs`'s: one suite per backend, the same in every build.

// Run-time selection, `HQ_BACKEND` and `set_backend` need `std`.
#![cfg(feature = "std")]

use hq::{Backend, BackendError, Bitboard, Entry, Mode, Slider, Square};

mod common;
use common::Suite;

/// A job of one queen lookup, with the reference's answer: what these tests
/// need of `with_backend` (the whole suite per backend is tests/dispatch.rs,
/// and compiled here too it was most of this file's build, in each forced
/// build as well).
fn one_lookup() -> impl hq::WithBackend<Output = (Bitboard, Bitboard)> {
    let occ = Bitboard(0x0024_0081_1000_4200);
    hq::job!(occ: Bitboard = occ; |token| -> (Bitboard, Bitboard) {
        (token.queen_attacks(Square::D4, occ), hq::reference::queen_attacks(Square::D4, occ))
    })
}

#[test]
fn a_job_under_the_active_choice_passes_the_suite() {
    let report = hq::with_active_backend(Suite);
    assert!(report.total() > 0, "{report}");
    println!(
        "facade: with_active_backend ({}): {report}",
        hq::selection().plan.single
    );
}

#[test]
fn free_functions_agree_with_the_oracle() {
    let mut rng = hq_testkit::SplitMix64(7);
    // Miri interprets: a sample there (it looks for undefined behaviour).
    for _ in 0..if cfg!(miri) { 64 } else { 20_000 } {
        let occ = Bitboard(rng.next_u64() & rng.next_u64());
        let sq = Square::from_index_masked(rng.next_u64() as u8);
        assert_eq!(
            hq::rook_attacks(sq, occ),
            hq::reference::rook_attacks(sq, occ)
        );
        assert_eq!(
            hq::bishop_attacks(sq, occ),
            hq::reference::bishop_attacks(sq, occ)
        );
        assert_eq!(
            hq::queen_attacks(sq, occ),
            hq::reference::queen_attacks(sq, occ)
        );
        for line in hq::Line::ALL {
            assert_eq!(
                hq::line_attacks(line, sq, occ),
                hq::reference::line_attacks(line, sq, occ)
            );
        }
        let sliders = Bitboard(rng.next_u64() & rng.next_u64() & rng.next_u64());
        let union = |f: fn(Square, Bitboard) -> Bitboard| {
            sliders
                .iter()
                .fold(Bitboard::EMPTY, |a, s| a | f(s, occ | sliders))
        };
        assert_eq!(
            hq::rook_attacks_setwise(sliders, occ),
            union(hq::reference::rook_attacks)
        );
        assert_eq!(
            hq::bishop_attacks_setwise(sliders, occ),
            union(hq::reference::bishop_attacks)
        );
        assert_eq!(
            hq::queen_attacks_setwise(sliders, occ),
            union(hq::reference::queen_attacks)
        );
    }
    let mut out = [Bitboard::EMPTY; 64];
    for occ in [
        Bitboard::EMPTY,
        Bitboard(!0),
        Bitboard(0x0123_4567_89AB_CDEF),
    ] {
        hq::queen_attacks_batch(&Square::ALL, occ, &mut out);
        for (sq, got) in Square::ALL.into_iter().zip(out) {
            assert_eq!(got, hq::reference::queen_attacks(sq, occ));
        }
    }
}

#[test]
#[should_panic(expected = "`squares` has 3 entries but `out` has 2")]
fn a_batch_with_mismatched_lengths_is_a_clear_panic() {
    let mut out = [Bitboard::EMPTY; 2];
    hq::rook_attacks_batch(
        &[Square::A1, Square::B2, Square::C3],
        Bitboard::EMPTY,
        &mut out,
    );
}

#[test]
fn names_round_trip_and_unknown_names_list_the_valid_ones() {
    for b in Backend::all() {
        assert_eq!(Backend::from_name(b.name()), Ok(*b));
        assert_eq!(b.name().parse::<Backend>(), Ok(*b));
    }
    let text = Backend::from_name("turbo").unwrap_err().to_string();
    assert!(text.contains("unknown backend \"turbo\""), "{text}");
    for b in Backend::all().iter().filter(|b| b.is_available()) {
        assert!(text.contains(b.name()), "{text} (should name {b})");
    }
}

#[test]
fn an_unsupported_backend_is_refused_with_what_it_lacks() {
    for b in Backend::all().iter().copied().filter(|b| !b.is_supported()) {
        let err = hq::with_backend(b, one_lookup()).unwrap_err();
        let BackendError::Unsupported(missing) = &err else {
            panic!("{err}");
        };
        let text = err.to_string();
        assert!(
            text.contains(b.name()) && text.contains("cannot run"),
            "{text}"
        );
        // Another architecture's backend names the architectures; one this
        // CPU merely lacks names each missing feature.
        match missing.level.arch() {
            Some(arch) if arch != hq_core::cpu::TARGET_ARCH => {
                assert!(
                    text.contains(&format!("{arch} backends are absent")),
                    "{text}"
                );
            }
            _ => {
                for f in missing.missing.iter() {
                    assert!(text.contains(f.name()), "{text}");
                }
            }
        }
        assert!(hq::set_backend(b).is_err());
        println!("facade: refused {b}: {text}");
    }
}

#[test]
fn the_selection_follows_the_class_or_the_forced_features() {
    let selection = hq::selection();
    println!("facade: {selection}");
    let (plan, class) = (selection.plan, selection.class);
    for b in plan.backends() {
        assert!(b.is_available(), "{b} was chosen but cannot serve here");
    }
    let forced: Vec<Backend> = Backend::all()
        .iter()
        .copied()
        .filter(|b| b.is_forced())
        .collect();
    let cells = || {
        Entry::ALL
            .into_iter()
            .flat_map(|e| Slider::ALL.map(move |s| (e, s)))
    };
    match selection.mode {
        Mode::RunTime | Mode::Compiled => {
            assert!(forced.is_empty());
            let overridden = std::env::var_os(hq::BACKEND_VAR).is_some()
                || std::env::var_os(hq::PLAN_VAR).is_some();
            let calibrated = selection.source == hq::Source::Calibration;
            if !overridden
                && !calibrated
                && !selection.to_string().contains("fixed at compile time")
            {
                assert_eq!(plan, class.plan);
            }
        }
        Mode::Forced => {
            // Only forced backends serve; each cell takes the class's
            // choice when it is forced and runs here.
            for (entry, slider) in cells() {
                let (got, wanted) = (plan.get(entry, slider), class.plan.get(entry, slider));
                assert!(got.is_forced(), "{got} serves but is not forced");
                if wanted.is_forced() && wanted.is_supported() {
                    assert_eq!(got, wanted, "{entry:?} {slider:?}");
                }
            }
            let text = selection.to_string();
            for b in forced {
                let serves = plan.backends().any(|p| p == b);
                assert!(
                    serves || text.contains(b.force_feature()),
                    "{b} forced, unused, unexplained: {text}"
                );
            }
            assert!(text.contains("forced by Cargo features"));
        }
        _ => unreachable!(),
    }
}

/// A forced SIMD or PEXT backend in a build whose target features lack
/// the level its kernels are compiled for runs its forms for callers of
/// any level in the free functions: the selection says so, with what it
/// costs and the flags that remove it; with the level enabled, or for a
/// portable backend (it has no other form), it says nothing of it.
#[test]
fn a_forced_backend_below_its_level_is_explained_with_the_flags() {
    let selection = hq::selection();
    let text = selection.to_string();
    for &b in Backend::all() {
        let note = text
            .lines()
            .find(|l| l.starts_with(&format!("note: {}:", b.force_feature())));
        let level = b.level();
        let below = selection.mode == Mode::Forced
            && b.is_forced()
            && selection.plan.backends().any(|p| p == b)
            && level != hq::cpu::Level::Baseline
            && !level.jobs_level_is_static();
        match (below, note) {
            (false, None) => {}
            (false, Some(note)) => panic!("{b} runs at its level here, yet: {note}"),
            (true, None) => panic!("{b} runs below its level, unexplained: {text}"),
            (true, Some(note)) => {
                println!("facade: {note}");
                let flags = match level {
                    hq::cpu::Level::X86V4 => "-C target-cpu=x86-64-v4 -C target-feature=",
                    _ => "-C target-cpu=x86-64-v3\"",
                };
                assert!(note.contains(flags), "{b}: the flags to use: {note}");
                assert!(note.contains("forms for callers of any level"), "{note}");
                assert!(note.contains("its token"), "{b}: what it costs: {note}");
            }
        }
    }
}

/// Every plan the facade selects is one it accepts again: by `set_plan`,
/// and (in a child process) by `HQ_CHOICE` at the first call.
#[test]
fn the_selected_plan_is_accepted_again() {
    let plan = hq::selection().plan;
    hq::set_plan(plan).expect("the selected plan is accepted by set_plan");
    assert_eq!(hq::selection().plan, plan);
    let text = plan.to_string();
    assert_eq!(text.parse::<hq::Plan>(), Ok(plan));
    if std::env::var_os(CHILD).is_some() || cfg!(target_family = "wasm") || cfg!(miri) {
        return;
    }
    let out = child(
        "the_selected_plan_is_accepted_again",
        &[(hq::PLAN_VAR, &text)],
    );
    assert!(
        out.status.success(),
        "HQ_CHOICE={text}: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn every_backend_has_its_force_feature() {
    // The facade's features set hq-plan's, where the registry reads them.
    let expected: Vec<&str> = Backend::all().iter().map(|b| b.force_feature()).collect();
    let facade: Vec<String> = include_str!("../Cargo.toml")
        .lines()
        .filter(|l| l.starts_with("force-"))
        .map(str::to_owned)
        .collect();
    let forwarded: Vec<String> = expected
        .iter()
        .map(|f| format!("{f} = [\"hq-plan/{f}\"]"))
        .collect();
    assert_eq!(
        facade, forwarded,
        "crates/hq/Cargo.toml [features] and the registry differ"
    );
    let plan: Vec<&str> = include_str!("../../hq-plan/Cargo.toml")
        .lines()
        .filter_map(|l| l.strip_suffix(" = []"))
        .filter(|f| f.starts_with("force-"))
        .collect();
    assert_eq!(
        plan, expected,
        "crates/hq-plan/Cargo.toml [features] and the registry differ"
    );
    for b in Backend::all() {
        assert_eq!(b.force_feature(), format!("force-{}", b.name()));
    }
}

/// Set in the child processes of the tests below.
const CHILD: &str = "HQ_FACADE_TEST_CHILD";

/// This test binary's `test` alone, in a child process with `vars` set;
/// through `HQ_TEST_RUNNER` when set (aarch64 under qemu-user: cargo runs
/// the test through its runner, but not the processes the test starts).
fn child(test: &str, vars: &[(&str, &str)]) -> std::process::Output {
    let exe = std::env::current_exe().expect("the test binary");
    let runner = std::env::var("HQ_TEST_RUNNER").unwrap_or_default();
    let mut words = runner.split_whitespace();
    let mut command = match words.next() {
        Some(program) => {
            let mut cmd = std::process::Command::new(program);
            cmd.args(words).arg(&exe);
            cmd
        }
        None => std::process::Command::new(&exe),
    };
    command
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .envs(vars.iter().copied())
        .output()
        .expect("the test binary runs again")
}

#[test]
fn a_bad_hq_backend_names_the_variable_its_value_and_the_valid_names() {
    if std::env::var_os(CHILD).is_some() {
        // The child, run with HQ_BACKEND=turbo: `init` returns the error,
        // and a free function's first call panics with the same sentence
        // (a set-wise one where the single lookups are fixed at compile
        // time: those never read the variable).
        let err = hq::init().expect_err("HQ_BACKEND=turbo is refused");
        println!("init-debug: {err:?}");
        println!("init-display: {err}");
        // A single lookup's first call on its own: its cold path runs out
        // of line (through a register-preserving trampoline on x86-64),
        // which must hand the panic back to this caller.
        if hq_plan::classes::fixed(Entry::Single, Slider::Queen).is_none() {
            let single =
                std::panic::catch_unwind(|| hq::queen_attacks(Square::E4, Bitboard::EMPTY));
            let panic = single.expect_err("a single lookup panics on a bad HQ_BACKEND");
            let text = panic.downcast_ref::<String>().cloned().unwrap_or_default();
            println!("single-panic: {text}");
        }
        let calls = std::panic::catch_unwind(|| {
            // A free function's first call that reads the plan (a cell the
            // build fixes at compile time never does).
            hq::queen_attacks(Square::E4, Bitboard::EMPTY);
            hq::queen_attacks_setwise(Bitboard::EMPTY, Bitboard::EMPTY);
            hq::queen_attacks_batch(&[], Bitboard::EMPTY, &mut []);
            hq::latency::queen_attacks(Square::E4, Bitboard::EMPTY)
        });
        if every_cell_fixed() {
            // No free function reads the plan (aarch64: its one class
            // fixes every cell), so none reads HQ_BACKEND either.
            calls.expect("no free function reads HQ_BACKEND where every cell is fixed");
            println!("panic: none, every cell fixed at compile time");
            return;
        }
        let panic = calls.expect_err("a free function panics on a bad HQ_BACKEND");
        let text = panic.downcast_ref::<String>().cloned().unwrap_or_default();
        println!("panic: {text}");
        return;
    }
    if Backend::all().iter().any(|b| b.is_forced()) || hq::selection().mode == Mode::Compiled {
        // A forced build reads HQ_BACKEND too, but may refuse it for another
        // reason first (no forced backend runs here).
        return;
    }
    if cfg!(target_family = "wasm") || cfg!(miri) {
        println!(
            "facade: SKIPPED the HQ_BACKEND check: it runs this test in a child process, and {} has none",
            if cfg!(miri) { "Miri" } else { "wasm" }
        );
        return;
    }
    let test = "a_bad_hq_backend_names_the_variable_its_value_and_the_valid_names";
    let out = child(test, &[("HQ_BACKEND", "turbo")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = "environment variable HQ_BACKEND=\"turbo\" is invalid: unknown backend \
                    \"turbo\"; the names this build and CPU take: auto, ";
    let prefixes: &[&str] = match (
        every_cell_fixed(),
        hq_plan::classes::fixed(Entry::Single, Slider::Queen).is_some(),
    ) {
        (true, _) => &["init-debug: ", "init-display: "],
        (false, true) => &["init-debug: ", "init-display: ", "panic: hq: "],
        (false, false) => &[
            "init-debug: ",
            "init-display: ",
            "panic: hq: ",
            "single-panic: hq: ",
        ],
    };
    for prefix in prefixes {
        assert!(
            stdout.contains(&format!("{prefix}{expected}")),
            "{prefix}...\n{stdout}"
        );
    }
    assert!(
        every_cell_fixed() || stdout.contains("call hq::init() at start-up"),
        "{stdout}"
    );
}

/// Whether this build fixes every cell of the plan at compile time, so that
/// no free function reads the installed plan.
fn every_cell_fixed() -> bool {
    Entry::ALL.into_iter().all(|e| {
        Slider::ALL
            .into_iter()
            .all(|s| hq_plan::classes::fixed(e, s).is_some())
    })
}

#[test]
fn a_backend_outside_the_dispatch_is_refused_with_how_to_get_it() {
    let outside: Vec<Backend> = Backend::all()
        .iter()
        .copied()
        .filter(|b| !b.is_dispatched() && b.is_supported())
        .collect();
    if outside.is_empty() {
        println!("facade: every backend this CPU runs is dispatched in this build (all-backends)");
    }
    let forced = Backend::all().iter().any(|b| b.is_forced());
    for b in outside {
        let err = hq::set_backend(b).unwrap_err();
        let text = err.to_string();
        if forced {
            // A forced build runs only its forced backends: the error says how to add one.
            assert_eq!(err, BackendError::NotForced { requested: b });
            assert!(text.contains(b.force_feature()), "{text}");
        } else {
            assert_eq!(err, BackendError::NotDispatched { requested: b });
            assert!(
                text.contains("all-backends") && text.contains("with_backend"),
                "{text}"
            );
        }
        // with_backend still runs it (its suite: tests/dispatch.rs).
        let (got, expected) = hq::with_backend(b, one_lookup()).expect("runs here");
        assert_eq!(got, expected, "{b}");
    }
    // Whatever the features, the backends a class of this target chooses are dispatched.
    if Backend::all().iter().any(|b| b.is_forced()) {
        return;
    }
    for class in hq::unstable::CLASSES {
        if class
            .level
            .arch()
            .is_none_or(|a| a == std::env::consts::ARCH)
        {
            for b in class.plan.backends() {
                assert!(b.is_dispatched(), "{b} of class {}", class.name);
            }
        }
    }
}

/// Where the build enables x86-64-v4, the cells every class of that level
/// agrees on are fixed at compile time: the selection says so, and
/// `set_backend` leaves them as they are.
#[test]
fn cells_fixed_at_compile_time_are_what_every_class_of_their_level_chooses() {
    let v4 = hq::cpu::Level::X86V4;
    let classes: Vec<_> = hq::unstable::CLASSES
        .iter()
        .filter(|c| c.level == v4)
        .collect();
    let forced = Backend::all().iter().any(|b| b.is_forced());
    if !v4.is_static() || forced || !cfg!(target_arch = "x86_64") {
        println!("facade: no cell fixed by x86-64-v4 in this build");
        return;
    }
    let plan = hq::selection().plan;
    let any = Backend::all()
        .iter()
        .copied()
        .find(|&b| b.is_available() && b != plan.single.queen);
    if let Some(other) = any {
        hq::set_backend(other).expect("available");
    }
    let after = hq::selection();
    for entry in Entry::ALL {
        for slider in Slider::ALL {
            let agreed = classes
                .iter()
                .all(|c| c.plan.get(entry, slider) == classes[0].plan.get(entry, slider));
            if agreed
                && (entry != Entry::Setwise
                    || classes
                        .iter()
                        .all(|c| c.plan.setwise_loop == classes[0].plan.setwise_loop))
            {
                assert_eq!(
                    after.plan.get(entry, slider),
                    classes[0].plan.get(entry, slider),
                    "{entry:?} {slider:?}"
                );
            }
        }
    }
    println!("facade: after set_backend: {after}");
    hq::set_plan(plan).expect("the plan it had");
}

/// The names an error lists as valid are exactly those this build and CPU
/// take (`Backend::is_available`): for an unknown name, and for a backend
/// of another architecture.
#[test]
fn error_messages_list_only_the_names_that_work_here() {
    let listed = |text: &str, after: &str| -> Vec<String> {
        let list = text.rsplit_once(after).expect(after).1;
        list.split(", ").map(|n| n.trim().to_owned()).collect()
    };
    let available: Vec<String> = Backend::all()
        .iter()
        .filter(|b| b.is_available())
        .map(|b| b.name().to_owned())
        .collect();
    let unknown = Backend::from_name("turbo").unwrap_err().to_string();
    let mut names = listed(&unknown, "take: ");
    assert_eq!(names.remove(0), "auto", "{unknown}");
    assert_eq!(names, available, "{unknown}");
    let foreign = if cfg!(target_arch = "aarch64") {
        Backend::Avx2
    } else {
        Backend::Neon
    };
    let text = foreign.check_available().unwrap_err().to_string();
    assert!(text.contains("a level of"), "{text}");
    assert_eq!(listed(&text, "run: "), available, "{text}");
}

/// The default calibration, on simulated CPU identities (with this CPU's
/// instruction sets): a model no committed run measured calibrates in an
/// optimised build and says why, never in an unoptimised one; a measured
/// model takes its class's plan.
#[test]
fn unmeasured_models_calibrate_by_default_and_measured_ones_take_the_class() {
    use hq::unstable::{Identity, classify, selection_for};
    if cfg!(miri) {
        println!("default calibration: SKIPPED under Miri (the calibration times loops)");
        return;
    }
    let steered = [hq::CALIBRATE_VAR, hq::BACKEND_VAR, hq::PLAN_VAR]
        .into_iter()
        .find(|v| std::env::var_os(v).is_some());
    if let Some(var) = steered {
        println!("default calibration: SKIPPED: {var} is set, and decides instead");
        return;
    }
    let here = Identity::detect();
    let class_of = |id| classify(id, hq::cpu::Level::is_detected);
    // No committed run has model 0xfff (models are 8 bits).
    let unmeasured = Identity {
        model: 0xfff,
        ..here
    };
    assert!(!class_of(unmeasured).measured(unmeasured));
    let s = selection_for(unmeasured, true).expect("a selection");
    let text = s.to_string();
    println!("default calibration, unmeasured model:\n{text}");
    match s.mode {
        Mode::RunTime => {
            assert_eq!(s.source, hq::Source::Calibration, "{text}");
            assert!(
                text.contains("no committed run measured this model (family"),
                "{text}"
            );
            assert!(text.contains(&format!("{}=0", hq::CALIBRATE_VAR)), "{text}");
        }
        // Forced and compiled builds choose without measuring.
        _ => assert_eq!(s.source, hq::Source::Class, "{text}"),
    }
    let unoptimised = selection_for(unmeasured, false).expect("a selection");
    assert_eq!(unoptimised.source, hq::Source::Class);
    // A measured model: the class's plan (cells the build fixes aside).
    let class = class_of(here);
    let Some(run) = class.measured_on.first() else {
        println!(
            "default calibration, measured model: SKIPPED: this CPU's class {} names no \
             committed run",
            class.name
        );
        return;
    };
    let hex = |key: char| {
        run.split('-')
            .rev()
            .find_map(|p| p.strip_prefix(key))
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .unwrap_or_else(|| panic!("{run}: no -{key}<hex>- part"))
    };
    let measured = Identity {
        family: hex('f'),
        model: hex('m'),
        ..here
    };
    assert!(
        std::ptr::eq(class_of(measured), class),
        "{run} is of class {}",
        class.name
    );
    assert!(class.measured(measured));
    let s = selection_for(measured, true).expect("a selection");
    assert_eq!(s.source, hq::Source::Class, "{s}");
    if !s.to_string().contains("fixed at compile time") && s.mode == Mode::RunTime {
        assert_eq!(s.plan, class.plan, "{s}");
    }
}
