//! The shared suite on the AVX-512 token (skipped, with the reason printed,
//! on CPUs without the features), and the forcing path's clear error.
//!
//! `HQ_SUITE_DEPTH=quick` selects `Depth::Quick` (used under the emulator,
//! where the exhaustive per-line part still runs in full).

use hq_avx512::Avx512;
use hq_core::{Bitboard, SliderAttacks, Square};
use hq_testkit::{Depth, check_or_skip};

fn depth() -> Depth {
    match std::env::var("HQ_SUITE_DEPTH").as_deref() {
        Ok("quick") => Depth::Quick,
        _ => Depth::Full,
    }
}

#[test]
fn avx512_passes_the_suite_or_reports_skipped() {
    let report = check_or_skip::<Avx512>(depth());
    // Skipped only when the CPU really lacks a feature; passing needs cases.
    assert_eq!(report.is_none(), Avx512::new().is_none());
    if let Some(r) = report {
        assert!(r.total() > 0);
    }
}

#[test]
fn forcing_avx512_without_the_features_is_a_clear_error_not_sigill() {
    match (Avx512::new(), Avx512::require()) {
        (Some(_), Ok(hq)) => {
            assert!(Avx512::missing_features().is_empty());
            assert_eq!(hq.rook_attacks(Square::A1, Bitboard::EMPTY).count(), 14);
            println!("avx512 present: require() gave the token");
        }
        (None, Err(e)) => {
            assert!(!e.missing.is_empty());
            for f in &e.missing {
                assert!(Avx512::REQUIRED_FEATURES.contains(f));
            }
            let message = e.to_string();
            assert!(
                message.contains("avx512") && message.contains(e.missing[0]),
                "{message}"
            );
            println!("SKIPPED avx512 kernels (forcing gives the error instead): {message}");
        }
        (new, require) => panic!("new() and require() disagree: {new:?} vs {require:?}"),
    }
}
