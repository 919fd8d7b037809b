//! The PEXT backend against the oracle (SKIPPED where the CPU lacks x86-64-v3).

#[test]
fn pext_passes_the_full_suite() {
    hq_testkit::check_or_skip::<hq_pext::Pext>(hq_testkit::Depth::Full);
}
