//! The hybrid backends against the oracle (each SKIPPED where the CPU lacks its level).

hq_testkit::full_suite_tests! {
    hybrid_avx512_pext_passes_the_full_suite: hq_hybrid::HybridAvx512Pext,
    hybrid_avx2_pext_passes_the_full_suite: hq_hybrid::HybridAvx2Pext,
}

/// Each split's batch loops against the ray walk, whichever split this CPU
/// takes (the suite above runs only that one): every piece, batch lengths
/// 0 to 100 (whole steps and every remainder of each split's steps).
macro_rules! every_split_tests {
    ($($test:ident: $token:ty),+ $(,)?) => {$(
        #[test]
        fn $test() {
            let Some(token) = hq_testkit::require_or_skip::<$token>() else { return };
            let name = <$token as hq_core::SliderAttacks>::NAME;
            for split in hq_hybrid::Split::ALL {
                let checked = hq_testkit::check_batch_kernel(
                    name,
                    |slider| format!("batch_with({split:?}, {slider})"),
                    1,
                    100,
                    |slider, squares, occupancy, out| token.batch_with(split, slider, squares, occupancy, out),
                )
                .unwrap_or_else(|mismatch| panic!("{mismatch}"));
                println!("{name}: {checked} batch lookups of the {split:?} split agree with the ray walk");
            }
        }
    )+};
}

every_split_tests! {
    hybrid_avx512_pext_batches_of_every_split: hq_hybrid::HybridAvx512Pext,
    hybrid_avx2_pext_batches_of_every_split: hq_hybrid::HybridAvx2Pext,
}
