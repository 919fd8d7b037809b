//! The facade without `std` (`cargo test -p hq-attacks --no-default-features
//! --test no_std`, which `cargo xtask test` runs in a plain and a
//! `-C target-cpu=native` build): the compile-time choice, and every free
//! entry point against the oracle on every square.
//!
//! In the default (`std`) build the same checks run on the run-time choice.

use hq::{Bitboard, Line, Square, reference};

/// Occupancies from a fixed xorshift stream, with sparse and dense ones.
fn occupancies(count: usize) -> impl Iterator<Item = Bitboard> {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    (0..count).map(move |i| {
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        Bitboard(match i % 3 {
            0 => next() & next(),
            1 => next(),
            _ => next() | next(),
        })
    })
}

#[test]
fn free_functions_agree_with_the_oracle() {
    let mut checked = 0u64;
    for occupancy in occupancies(300) {
        for sq in Square::ALL {
            assert_eq!(
                hq::rook_attacks(sq, occupancy),
                reference::rook_attacks(sq, occupancy)
            );
            assert_eq!(
                hq::bishop_attacks(sq, occupancy),
                reference::bishop_attacks(sq, occupancy)
            );
            assert_eq!(
                hq::queen_attacks(sq, occupancy),
                reference::queen_attacks(sq, occupancy)
            );
            for line in Line::ALL {
                assert_eq!(
                    hq::line_attacks(line, sq, occupancy),
                    reference::line_attacks(line, sq, occupancy)
                );
            }
            assert_eq!(
                hq::latency::queen_attacks(sq, occupancy),
                reference::queen_attacks(sq, occupancy)
            );
            assert_eq!(
                hq::latency::rook_attacks(sq, occupancy),
                reference::rook_attacks(sq, occupancy)
            );
            assert_eq!(
                hq::latency::bishop_attacks(sq, occupancy),
                reference::bishop_attacks(sq, occupancy)
            );
            checked += 10;
        }
        let mut out = [Bitboard::EMPTY; 64];
        hq::queen_attacks_batch(&Square::ALL, occupancy, &mut out);
        hq::rook_attacks_batch(&Square::ALL[..10], occupancy, &mut out[..10]);
        for (i, (&sq, &attacks)) in Square::ALL.iter().zip(&out).enumerate() {
            let expected = if i < 10 {
                reference::rook_attacks(sq, occupancy)
            } else {
                reference::queen_attacks(sq, occupancy)
            };
            assert_eq!(attacks, expected, "batch, {sq}");
        }
        // Set-wise: 1, 2, 3 and many sliders, taken from the occupancy.
        let mut sliders = Bitboard::EMPTY;
        for sq in occupancy.into_iter().take(12) {
            sliders |= sq;
            let union = |f: fn(Square, Bitboard) -> Bitboard| {
                sliders
                    .into_iter()
                    .fold(Bitboard::EMPTY, |acc, s| acc | f(s, occupancy))
            };
            assert_eq!(
                hq::rook_attacks_setwise(sliders, occupancy),
                union(reference::rook_attacks)
            );
            assert_eq!(
                hq::bishop_attacks_setwise(sliders, occupancy),
                union(reference::bishop_attacks)
            );
            assert_eq!(
                hq::queen_attacks_setwise(sliders, occupancy),
                union(reference::queen_attacks)
            );
            checked += 3;
        }
        checked += 74;
    }
    let plan = hq::selection().plan;
    println!("{checked} lookups agree with the oracle; plan: {plan}");
}

#[test]
fn jobs_run_on_the_active_choice() {
    let total = hq::with_active_backend(hq::job!(|backend| -> u32 {
        Square::ALL
            .iter()
            .map(|&sq| backend.queen_attacks(sq, Bitboard::EMPTY).count())
            .sum()
    }));
    assert_eq!(total, 1456);
}

/// Without `std` the plan is the first vendor-neutral class whose level
/// the build enables (and that does not rule out a fast PEXT), and each of
/// its backends is enabled at compile time.
#[cfg(not(feature = "std"))]
#[test]
fn the_plan_is_made_from_the_target_features() {
    let class = hq::unstable::CLASSES
        .iter()
        .find(|c| c.vendors.is_empty() && c.fast_pext != Some(false) && c.level.is_static())
        .expect("the baseline class matches every build");
    let selection = hq::selection();
    let plan = selection.plan;
    assert_eq!(selection.class.name, class.name);
    for backend in plan.backends() {
        assert!(
            backend.level().is_static(),
            "{backend} is not enabled at compile time"
        );
    }
    let cells = hq::Entry::ALL
        .into_iter()
        .flat_map(|e| hq::Slider::ALL.map(move |s| (e, s)));
    if hq::Backend::all().iter().any(|b| b.is_forced()) {
        // Forced: each cell is forced, the class's if that one is.
        for (entry, slider) in cells {
            let (got, wanted) = (plan.get(entry, slider), class.plan.get(entry, slider));
            assert!(got.is_forced() && (got == wanted || !wanted.is_forced()));
        }
        println!("compile-time class {}, forced: {plan}", class.name);
        return;
    }
    for (entry, slider) in cells {
        assert_eq!(
            plan.get(entry, slider),
            class.plan.get(entry, slider),
            "class {}",
            class.name
        );
    }
    // A plain x86-64 build (SSE2 only) has no SIMD level: the measured
    // portable plan of x86-64 builds without `std` (magic single lookups).
    if cfg!(all(target_arch = "x86_64", not(target_feature = "ssse3"))) {
        let portable = hq::unstable::TARGET_CLASSES
            .iter()
            .find(|c| c.name == "x86-64-no-std")
            .expect("the x86-64 no-std class");
        assert_eq!(selection.class.name, portable.name);
        assert_eq!(plan, portable.plan);
        assert_eq!(
            plan.get(hq::Entry::Single, hq::Slider::Queen),
            hq::Backend::Magic
        );
    }
    println!("compile-time class {}: {plan}", class.name);
}

/// With `std`, the same checks cover the run-time plan; this names it.
#[cfg(feature = "std")]
#[test]
fn the_plan_is_made_at_run_time() {
    let plan = hq::selection().plan;
    assert!(plan.backends().all(|b| b.is_supported()), "{plan}");
}

/// A backend whose instruction set the build does not enable: without
/// `std` nothing is detected at run time, and the error says so (not that
/// the CPU lacks the features, which it may well have).
#[test]
fn a_backend_the_build_does_not_enable_names_the_real_cause() {
    struct Count;
    impl hq::WithBackend for Count {
        type Output = u32;
        fn run<B: hq::SliderAttacks>(self, b: B) -> u32 {
            b.queen_attacks(Square::D4, Bitboard::EMPTY).count()
        }
    }
    let pext = hq::Backend::Pext;
    match hq::with_backend(pext, Count) {
        Ok(n) => {
            assert_eq!(n, 27);
            println!("no_std: {pext} runs here (enabled at compile time or detected)");
        }
        Err(e) => {
            let text = e.to_string();
            let no_detection = !cfg!(feature = "std") || !cfg!(target_arch = "x86_64");
            let cause = match no_detection {
                true if cfg!(target_arch = "x86_64") => "no run-time CPU detection",
                _ => "cannot run",
            };
            assert!(text.contains(cause), "{text}");
            if no_detection && cfg!(target_arch = "x86_64") {
                assert!(!text.contains("on this CPU"), "{text}");
            }
        }
    }
}

/// A compile-time choice for x86-64 with nothing above the baseline
/// enabled says, in the selection's text, that it runs portable code.
#[test]
fn a_portable_x86_64_build_says_so() {
    let selection = hq::selection();
    let text = format!("{selection}");
    let portable = selection.mode == hq::Mode::Compiled
        && cfg!(target_arch = "x86_64")
        && !hq::cpu::Level::X86V2.is_static();
    assert_eq!(text.contains("it runs portable code"), portable, "{text}");
    println!("no_std: {text}");
}
