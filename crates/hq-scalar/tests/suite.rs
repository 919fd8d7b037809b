//! The shared suite, in full, on each scalar token.

use hq_scalar::{ScalarRankDiagonal, ScalarRankTable, ScalarReverse};
use hq_testkit::{Depth, check_or_skip};

#[test]
fn scalar_rank_table_passes_the_full_suite() {
    assert!(check_or_skip::<ScalarRankTable>(Depth::Full).is_some());
}

#[test]
fn scalar_rank_diagonal_passes_the_full_suite() {
    assert!(check_or_skip::<ScalarRankDiagonal>(Depth::Full).is_some());
}

#[test]
fn scalar_reverse_passes_the_full_suite() {
    assert!(check_or_skip::<ScalarReverse>(Depth::Full).is_some());
}
