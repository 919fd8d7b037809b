//! The one list of backends. Adding a backend is one line here (plus its
//! `force-*` feature in Cargo.toml and its row in [`crate::force`]).
//!
//! The order is the order of preference: the first supported backend wins
//! run-time detection. It is set by measurement (README, "Choosing").

/// Calls `$m!` with `(Variant, token type, force feature)` for every backend.
macro_rules! for_each_backend {
    ($m:ident) => {
        $m! {
            (Avx512, hq_avx512::Avx512, "force-avx512"),
            (Avx2, hq_avx2::Avx2, "force-avx2"),
            (Ssse3, hq_ssse3::Ssse3, "force-ssse3"),
            (ScalarRankTable, hq_scalar::ScalarRankTable, "force-scalar-rank-table"),
            (ScalarRankDiagonal, hq_scalar::ScalarRankDiagonal, "force-scalar-rank-diagonal"),
            (ScalarReverse, hq_scalar::ScalarReverse, "force-scalar-reverse"),
            (ReverseBitboards, hq_reverse::ReverseBitboards, "force-reverse-bitboards"),
            (Classic, hq_classic::Classic, "force-classic"),
            (XopSsse3, hq_xop::XopSsse3, "force-xop-ssse3"),
            (XopModel, hq_xop::XopModel, "force-xop-model"),
        }
    };
}
pub(crate) use for_each_backend;
