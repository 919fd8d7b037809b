//! Every SIMD backend against the oracle: the full shared suite where the CPU
//! has the backend's instruction set, `SKIPPED` (with what is missing) where not.

hq_testkit::full_suite_tests! {
    ssse3_passes_the_full_suite: hq_simd::Ssse3,
    avx2_passes_the_full_suite: hq_simd::Avx2,
    avx512_passes_the_full_suite: hq_simd::Avx512,
    neon_passes_the_full_suite: hq_simd::Neon,
    simd128_passes_the_full_suite: hq_simd::Simd128,
}

/// `Avx512`'s set-wise forms for callers of any level against the oracle,
/// called from this test's own code, which is compiled for the baseline:
/// the `asm!` blocks inline into it, as into a free function's caller.
#[test]
fn avx512_setwise_in_any_caller_passes_the_setwise_suite() {
    let Some(avx512) = hq_testkit::require_or_skip::<hq_simd::Avx512>() else {
        return;
    };
    #[cfg(target_arch = "x86_64")]
    {
        let cases = hq_testkit::check_setwise_functions(
            "avx512 (setwise_in_any_caller)",
            [
                &|s, o| avx512.rook_attacks_setwise_in_any_caller(s, o),
                &|s, o| avx512.bishop_attacks_setwise_in_any_caller(s, o),
                &|s, o| avx512.queen_attacks_setwise_in_any_caller(s, o),
            ],
            10_000,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        println!("avx512 set-wise in any caller: {cases} cases match the oracle");
    }
    let _ = avx512;
}
