//! The shared suite, in full, on the classical token.

use hq_classic::Classic;
use hq_testkit::{Depth, check_or_skip};

#[test]
fn classic_passes_the_full_suite() {
    assert!(check_or_skip::<Classic>(Depth::Full).is_some());
}
