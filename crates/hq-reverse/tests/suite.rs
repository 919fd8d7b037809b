//! The shared suite, in full, on the reverse-bitboard token.

hq_testkit::full_suite_tests! {
    reverse_bitboards_pass_the_full_suite: hq_reverse::ReverseBitboards,
}
