//! Switching the backend at run time (its own test binary: it changes the
//! process-wide choice): the free functions follow, and stay exact on every
//! path, including PEXT's keyed path being installed and removed.

// Run-time selection, `HQ_BACKEND` and `set_backend` need `std`.
#![cfg(feature = "std")]

use hq::{Backend, Square, reference};

/// Every square over a spread of occupancies, through the free functions.
fn free_functions_agree_with_the_oracle(label: &str) {
    // Miri interprets: a sample there (it looks for undefined behaviour).
    for occ in hq_testkit::occupancies(0x9E37_79B9_7F4A_7C15, if cfg!(miri) { 2 } else { 512 }) {
        for sq in Square::ALL {
            assert_eq!(
                hq::rook_attacks(sq, occ),
                reference::rook_attacks(sq, occ),
                "{label} rook {sq}"
            );
            assert_eq!(
                hq::bishop_attacks(sq, occ),
                reference::bishop_attacks(sq, occ),
                "{label} bishop {sq}"
            );
            assert_eq!(
                hq::queen_attacks(sq, occ),
                reference::queen_attacks(sq, occ),
                "{label} queen {sq}"
            );
            for line in hq::Line::ALL {
                assert_eq!(
                    hq::line_attacks(line, sq, occ),
                    reference::line_attacks(line, sq, occ),
                    "{label} {line:?} {sq}"
                );
            }
        }
    }
}

#[test]
fn the_free_functions_follow_set_backend_and_stay_exact() {
    let class = hq::selection().plan;
    free_functions_agree_with_the_oracle("class choice");
    let mut switched = 0;
    for b in Backend::all().iter().copied().filter(|b| b.is_available()) {
        hq::set_backend(b).expect("an available backend");
        let selection = hq::selection();
        let single = selection.plan.single.queen;
        // The build's fixed cells stay its own, and the selection says so.
        assert!(
            single == b || selection.to_string().contains("fixed at compile time"),
            "{selection}"
        );
        free_functions_agree_with_the_oracle(b.name());
        switched += 1;
    }
    // Back to the class's plan (PEXT keyed again where it is the choice).
    hq::set_plan(class).expect("the class's plan");
    free_functions_agree_with_the_oracle("back");
    println!("switching: {switched} backends, the free functions exact on each");
    assert!(switched > 0);
}
