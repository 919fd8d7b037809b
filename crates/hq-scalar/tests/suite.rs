//! The shared suite, in full, on each scalar token.

hq_testkit::full_suite_tests! {
    scalar_rank_table_passes_the_full_suite: hq_scalar::ScalarRankTable,
    scalar_rank_diagonal_passes_the_full_suite: hq_scalar::ScalarRankDiagonal,
    scalar_reverse_passes_the_full_suite: hq_scalar::ScalarReverse,
}
