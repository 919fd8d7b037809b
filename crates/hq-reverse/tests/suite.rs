//! The shared suite, in full, on the reverse-bitboard token.

use hq_reverse::ReverseBitboards;
use hq_testkit::{Depth, check_or_skip};

#[test]
fn reverse_bitboards_pass_the_full_suite() {
    assert!(check_or_skip::<ReverseBitboards>(Depth::Full).is_some());
}
