//! The AVX2 layouts and variants against `hq_scalar`'s tokens and the SSSE3
//! token, in one criterion run: rook, bishop and queen throughput and
//! latency, and the batch entry points (layout (a) in a loop vs layout (b)).
//!
//! `cargo bench -p hq-avx2 --bench layouts -- --warm-up-time 1 --measurement-time 2`

#[path = "../../hq-ssse3/benches/common/mod.rs"]
mod common;

use common::inputs;
use criterion::{Criterion, criterion_group, criterion_main};
use hq_core::{Bitboard, SliderAttacks};
use hq_scalar::{ScalarRankDiagonal, ScalarRankTable, ScalarReverse};

#[cfg(target_arch = "x86_64")]
fn benches(c: &mut Criterion) {
    use hq_avx2::{Avx2, kernels};
    use hq_ssse3::Ssse3;

    let Some(_) = Avx2::new() else {
        println!("SKIPPED: the AVX2 layouts need avx2, absent on this CPU");
        return;
    };
    let inputs = inputs();
    let scalar_table = ScalarRankTable::new().unwrap();
    let scalar_diagonal = ScalarRankDiagonal::new().unwrap();
    let scalar_reverse = ScalarReverse::new().unwrap();
    let ssse3 = Ssse3::new().unwrap();
    // SAFETY (for each `unsafe` below): `Avx2::new()` above proved avx2 (and so ssse3) is present.
    piece_groups!(
        c,
        &inputs,
        "rook",
        [
            (ScalarRankTable::NAME, |s, o| scalar_table
                .rook_attacks(s, Bitboard(o))
                .0),
            (ScalarRankDiagonal::NAME, |s, o| scalar_diagonal
                .rook_attacks(s, Bitboard(o))
                .0),
            (ScalarReverse::NAME, |s, o| scalar_reverse
                .rook_attacks(s, Bitboard(o))
                .0),
            (Ssse3::NAME, |s, o| ssse3.rook_attacks(s, Bitboard(o)).0),
            // SAFETY: see above.
            ("avx2 xmm (rank on diagonal)", |s, o| unsafe {
                kernels::rook_attacks(o, s)
            }),
            // SAFETY: see above.
            ("avx2 xmm reversed", |s, o| unsafe {
                kernels::rook_attacks_reversed(o, s)
            }),
            // SAFETY: see above.
            ("avx2 xmm pair", |s, o| unsafe {
                kernels::rook_attacks_pair(o, s)
            }),
        ]
    );
    piece_groups!(
        c,
        &inputs,
        "bishop",
        [
            (ScalarRankTable::NAME, |s, o| scalar_table
                .bishop_attacks(s, Bitboard(o))
                .0),
            (ScalarRankDiagonal::NAME, |s, o| scalar_diagonal
                .bishop_attacks(s, Bitboard(o))
                .0),
            (ScalarReverse::NAME, |s, o| scalar_reverse
                .bishop_attacks(s, Bitboard(o))
                .0),
            (Ssse3::NAME, |s, o| ssse3.bishop_attacks(s, Bitboard(o)).0),
            // SAFETY: see above.
            ("avx2 xmm", |s, o| unsafe { kernels::bishop_attacks(o, s) }),
            // SAFETY: see above.
            ("avx2 xmm pair", |s, o| unsafe {
                kernels::bishop_attacks_pair(o, s)
            }),
        ]
    );
    piece_groups!(
        c,
        &inputs,
        "queen",
        [
            (ScalarRankTable::NAME, |s, o| scalar_table
                .queen_attacks(s, Bitboard(o))
                .0),
            (ScalarRankDiagonal::NAME, |s, o| scalar_diagonal
                .queen_attacks(s, Bitboard(o))
                .0),
            (ScalarReverse::NAME, |s, o| scalar_reverse
                .queen_attacks(s, Bitboard(o))
                .0),
            (Ssse3::NAME, |s, o| ssse3.queen_attacks(s, Bitboard(o)).0),
            // SAFETY: see above.
            ("avx2 (a) lanes", |s, o| unsafe {
                kernels::queen_attacks_lanes(o, s)
            }),
            // SAFETY: see above.
            ("avx2 (a) lanes pair", |s, o| unsafe {
                kernels::queen_attacks_lanes_pair(o, s)
            }),
            // SAFETY: see above.
            ("avx2 xmm", |s, o| unsafe {
                kernels::queen_attacks_xmm(o, s)
            }),
            // SAFETY: see above.
            ("avx2 xmm pair", |s, o| unsafe {
                kernels::queen_attacks_xmm_pair(o, s)
            }),
        ]
    );
    macro_rules! scalar_and_ssse3 {
        ($piece:literal, $method:ident, [$($more:tt)*]) => {
            batch_group!(c, &inputs, $piece, [
                (ScalarRankTable::NAME, |s, o, out| scalar_table.$method(s, o, out)),
                (ScalarRankDiagonal::NAME, |s, o, out| scalar_diagonal.$method(s, o, out)),
                (ScalarReverse::NAME, |s, o, out| scalar_reverse.$method(s, o, out)),
                (Ssse3::NAME, |s, o, out| ssse3.$method(s, o, out)),
                $($more)*
            ])
        };
    }
    scalar_and_ssse3!(
        "rook",
        rook_attacks_batch,
        [
            // SAFETY: see above.
            ("avx2 xmm loop", |s, o, out| unsafe {
                kernels::rook_attacks_loop(s, o.0, out)
            }),
            // SAFETY: see above.
            ("avx2 (b) soa", |s, o, out| unsafe {
                kernels::rook_attacks_soa(s, o.0, out)
            }),
        ]
    );
    scalar_and_ssse3!(
        "bishop",
        bishop_attacks_batch,
        [
            // SAFETY: see above.
            ("avx2 xmm loop", |s, o, out| unsafe {
                kernels::bishop_attacks_loop(s, o.0, out)
            }),
            // SAFETY: see above.
            ("avx2 (b) soa", |s, o, out| unsafe {
                kernels::bishop_attacks_soa(s, o.0, out)
            }),
        ]
    );
    scalar_and_ssse3!(
        "queen",
        queen_attacks_batch,
        [
            // SAFETY: see above.
            ("avx2 xmm loop", |s, o, out| unsafe {
                kernels::queen_attacks_xmm_loop(s, o.0, out)
            }),
            // SAFETY: see above.
            ("avx2 (a) lanes loop", |s, o, out| unsafe {
                kernels::queen_attacks_lanes_loop(s, o.0, out)
            }),
            // SAFETY: see above.
            ("avx2 (b) soa", |s, o, out| unsafe {
                kernels::queen_attacks_soa(s, o.0, out)
            }),
        ]
    );
}

#[cfg(not(target_arch = "x86_64"))]
fn benches(_: &mut Criterion) {
    println!("SKIPPED: the AVX2 layouts exist on x86_64 only");
}

criterion_group!(layouts, benches);
criterion_main!(layouts);
