//! The shared suite, in full, on the classical token.

hq_testkit::full_suite_tests! {
    classic_passes_the_full_suite: hq_classic::Classic,
}
