//! Every SIMD backend against the oracle: the full shared suite where the CPU
//! has the backend's instruction set, `SKIPPED` (with what is missing) where not.

hq_testkit::full_suite_tests! {
    ssse3_passes_the_full_suite: hq_simd::Ssse3,
    avx2_passes_the_full_suite: hq_simd::Avx2,
    avx512_passes_the_full_suite: hq_simd::Avx512,
    neon_passes_the_full_suite: hq_simd::Neon,
    simd128_passes_the_full_suite: hq_simd::Simd128,
}
