//! The shared suite, in full, on the VPPERM HQ tokens.

hq_testkit::full_suite_tests! {
    xop_model_passes_the_full_suite: hq_xop::XopModel,
    // Every x86-64 CPU of the last 15 years has SSSE3; a skip is printed if not.
    xop_ssse3_passes_the_full_suite: hq_xop::XopSsse3,
}
