//! The hybrid backends against the oracle (each SKIPPED where the CPU lacks its level).

hq_testkit::full_suite_tests! {
    hybrid_avx512_pext_passes_the_full_suite: hq_hybrid::HybridAvx512Pext,
    hybrid_avx2_pext_passes_the_full_suite: hq_hybrid::HybridAvx2Pext,
}
