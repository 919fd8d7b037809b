//! Every SIMD backend against the oracle: the full shared suite where the CPU
//! has the backend's instruction set, `SKIPPED` (with what is missing) where not.

use hq_testkit::{Depth, check_or_skip};

#[test]
fn ssse3_passes_the_full_suite() {
    check_or_skip::<hq_simd::Ssse3>(Depth::Full);
}

#[test]
fn avx2_passes_the_full_suite() {
    check_or_skip::<hq_simd::Avx2>(Depth::Full);
}

#[test]
fn avx512_passes_the_full_suite() {
    check_or_skip::<hq_simd::Avx512>(Depth::Full);
}

#[test]
fn neon_passes_the_full_suite() {
    check_or_skip::<hq_simd::Neon>(Depth::Full);
}

#[test]
fn simd128_passes_the_full_suite() {
    check_or_skip::<hq_simd::Simd128>(Depth::Full);
}
