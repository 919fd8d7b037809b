//! The PEXT backends against the oracle (SKIPPED where the CPU lacks x86-64-v3).

hq_testkit::full_suite_tests! {
    pext_passes_the_full_suite: hq_pext::Pext,
    pext_pdep_passes_the_full_suite: hq_pext::PextPdep,
}
