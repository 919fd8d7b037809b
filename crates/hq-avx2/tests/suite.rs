//! The shared suite, in full, on the AVX2 token (skipped, and said so, without AVX2).

use hq_avx2::Avx2;
use hq_testkit::{Depth, check_or_skip};

#[test]
fn avx2_passes_the_full_suite_or_is_skipped() {
    let report = check_or_skip::<Avx2>(Depth::Full);
    assert_eq!(report.is_some(), avx2_present());
}

fn avx2_present() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}
