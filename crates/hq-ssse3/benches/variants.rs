//! The SSSE3 variants against `hq_scalar`'s tokens, in one criterion run:
//! rook, bishop and queen throughput and latency, and the batch entry points.
//!
//! `cargo bench -p hq-ssse3 --bench variants -- --warm-up-time 1 --measurement-time 2`

mod common;

use common::{Inputs, inputs};
use criterion::{Criterion, criterion_group, criterion_main};
use hq_core::{Bitboard, SliderAttacks};
use hq_scalar::{ScalarRankDiagonal, ScalarRankTable, ScalarReverse};

#[cfg(target_arch = "x86_64")]
fn benches(c: &mut Criterion) {
    use hq_ssse3::{Ssse3, kernels};

    let Some(_) = Ssse3::new() else {
        println!("SKIPPED: the SSSE3 variants need ssse3, absent on this CPU");
        return;
    };
    let inputs = inputs();
    let scalar_table = ScalarRankTable::new().unwrap();
    let scalar_diagonal = ScalarRankDiagonal::new().unwrap();
    let scalar_reverse = ScalarReverse::new().unwrap();
    // SAFETY (for each `unsafe` below): `Ssse3::new()` above proved ssse3 is present.
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
            // SAFETY: see above.
            ("ssse3 (rank on diagonal)", |s, o| unsafe {
                kernels::rook_attacks(o, s)
            }),
            // SAFETY: see above.
            ("ssse3 reversed (nibble tables)", |s, o| unsafe {
                kernels::rook_attacks_reversed(o, s)
            }),
            // SAFETY: see above.
            ("ssse3 pair", |s, o| unsafe {
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
            // SAFETY: see above.
            ("ssse3", |s, o| unsafe { kernels::bishop_attacks(o, s) }),
            // SAFETY: see above.
            ("ssse3 pair", |s, o| unsafe {
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
            // SAFETY: see above.
            ("ssse3 (rank on diagonal)", |s, o| unsafe {
                kernels::queen_attacks(o, s)
            }),
            // SAFETY: see above.
            ("ssse3 reversed (nibble tables)", |s, o| unsafe {
                kernels::queen_attacks_reversed(o, s)
            }),
            // SAFETY: see above.
            ("ssse3 rank table (scalar file, rank)", |s, o| unsafe {
                kernels::queen_attacks_rank_table(o, s)
            }),
            // SAFETY: see above.
            ("ssse3 pair", |s, o| unsafe {
                kernels::queen_attacks_pair(o, s)
            }),
        ]
    );
    batches(c, &inputs);
}

/// Batch entry points: the scalar tokens (the trait's loops), the SSSE3
/// token (plain kernels) and the pair kernels in the same kind of loop.
#[cfg(target_arch = "x86_64")]
fn batches(c: &mut Criterion, inputs: &Inputs) {
    use hq_ssse3::{Ssse3, kernels};
    let (t, d, r) = (
        ScalarRankTable::new().unwrap(),
        ScalarRankDiagonal::new().unwrap(),
        ScalarReverse::new().unwrap(),
    );
    let ssse3 = Ssse3::new().unwrap();
    // SAFETY (for each `unsafe` below): `Ssse3::new()` above proved ssse3 is present.
    macro_rules! group {
        ($piece:literal, $method:ident, $pair:ident) => {
            batch_group!(
                c,
                inputs,
                $piece,
                [
                    (ScalarRankTable::NAME, |s, o, out| t.$method(s, o, out)),
                    (ScalarRankDiagonal::NAME, |s, o, out| d.$method(s, o, out)),
                    (ScalarReverse::NAME, |s, o, out| r.$method(s, o, out)),
                    (Ssse3::NAME, |s, o, out| ssse3.$method(s, o, out)),
                    // SAFETY: see above.
                    ("ssse3 pair", |s, o, out| unsafe {
                        kernels::$pair(s, o.0, out)
                    }),
                ]
            )
        };
    }
    group!("rook", rook_attacks_batch, rook_attacks_pair_batch);
    group!("bishop", bishop_attacks_batch, bishop_attacks_pair_batch);
    group!("queen", queen_attacks_batch, queen_attacks_pair_batch);
}

#[cfg(not(target_arch = "x86_64"))]
fn benches(_: &mut Criterion) {
    println!("SKIPPED: the SSSE3 variants exist on x86_64 only");
}

criterion_group!(variants, benches);
criterion_main!(variants);
