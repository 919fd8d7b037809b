//! The magic backend against the oracle.

hq_testkit::full_suite_tests! {
    magic_passes_the_full_suite: hq_magic::Magic,
}
