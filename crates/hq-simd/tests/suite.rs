//! Every SIMD backend against the oracle: the full shared suite where the CPU
//! has the backend's instruction set, `SKIPPED` (with what is missing) where not.
//! The suite checks each token's forms for callers of any level too
//! (`batch_in_any_caller`, `setwise_in_any_caller`: `avx512`'s `asm!` fill),
//! from this test's portable code, as the facade's free functions run them.

hq_testkit::full_suite_tests! {
    ssse3_passes_the_full_suite: hq_simd::Ssse3,
    avx2_passes_the_full_suite: hq_simd::Avx2,
    avx512_passes_the_full_suite: hq_simd::Avx512,
    neon_passes_the_full_suite: hq_simd::Neon,
    simd128_passes_the_full_suite: hq_simd::Simd128,
}
