//! The shared suite, in full, on the SSSE3 token (skipped, and said so, without SSSE3).

use hq_ssse3::Ssse3;
use hq_testkit::{Depth, check_or_skip};

#[test]
fn ssse3_passes_the_full_suite_or_is_skipped() {
    let report = check_or_skip::<Ssse3>(Depth::Full);
    assert_eq!(report.is_some(), ssse3_present());
}

fn ssse3_present() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::is_x86_feature_detected!("ssse3");
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}
