//! The shared suite, in full, on the VPPERM HQ tokens.

use hq_testkit::{Depth, check_or_skip};
use hq_xop::{XopModel, XopSsse3};

#[test]
fn xop_model_passes_the_full_suite() {
    assert!(check_or_skip::<XopModel>(Depth::Full).is_some());
}

#[test]
fn xop_ssse3_passes_the_full_suite() {
    // Every x86-64 CPU of the last 15 years has SSSE3; a skip is printed if not.
    check_or_skip::<XopSsse3>(Depth::Full);
}
