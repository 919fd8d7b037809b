//! Switching the backend at run time (its own test binary: it changes the
//! process-wide choice): the free functions follow, and stay exact on every
//! path, including the inlined PEXT path being armed and disarmed.

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
    if Backend::forced().next().is_some() {
        println!("switching: SKIPPED: a forced build switches only among its forced backends");
        return;
    }
    let class = hq::active_choice();
    free_functions_agree_with_the_oracle("class choice");
    let mut switched = 0;
    for b in Backend::supported().filter(|b| b.is_dispatched()) {
        hq::set_backend(b).expect("a supported, dispatched backend");
        assert_eq!(hq::active_backend(), hq::STATIC_SINGLES.unwrap_or(b));
        if hq::STATIC_SINGLES.is_some_and(|fixed| fixed != b) {
            // The single lookups stayed the build's, and the selection says so.
            let selection = hq::selection();
            assert!(
                selection
                    .notes
                    .iter()
                    .any(|n| n.contains("fixed by the build")),
                "{selection}"
            );
        }
        free_functions_agree_with_the_oracle(b.name());
        switched += 1;
    }
    // Back to the class's single backend (PEXT armed again where it is the choice).
    hq::set_backend(class.single).expect("the class's backend");
    free_functions_agree_with_the_oracle("back");
    println!(
        "switching: {switched} backends, the free functions exact on each (single lookups: {})",
        match hq::STATIC_SINGLES {
            Some(b) => format!("{b}, fixed by the build's target features"),
            None => "switched too".into(),
        }
    );
    assert!(switched > 0);
}
