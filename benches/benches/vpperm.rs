//! `hq-xop`: the VPPERM model against its SSSE3 version, and the two VPPERM HQ
//! tokens, on this CPU.
//! (The AVX-512 version cannot be timed here: no AVX-512 hardware; the
//! emulator is for correctness only.)

use criterion::{Criterion, criterion_group, criterion_main};
use hq_core::{Bitboard, SliderAttacks, Square};
use hq_xop::{XopModel, model};
use std::hint::black_box;

fn inputs() -> Vec<(u128, u128, u128)> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..1024)
        .map(|_| {
            let w = |n: &mut dyn FnMut() -> u64| u128::from(n()) | (u128::from(n()) << 64);
            (w(&mut next), w(&mut next), w(&mut next))
        })
        .collect()
}

fn vpperm(c: &mut Criterion) {
    let data = inputs();
    let mut g = c.benchmark_group("vpperm-1024");
    g.bench_function("model", |b| {
        b.iter(|| {
            data.iter().fold(0u128, |acc, &(a, s2, s)| {
                acc ^ model::vpperm_u128(a, s2, black_box(s))
            })
        })
    });
    #[cfg(target_arch = "x86_64")] // the SSSE3 VPPERM exists on x86-64 only
    if let Some(v) = hq_xop::ssse3::Ssse3Vpperm::new() {
        g.bench_function("ssse3", |b| {
            b.iter(|| {
                data.iter().fold(0u128, |acc, &(a, s2, s)| {
                    acc ^ v.vpperm_u128(a, s2, black_box(s))
                })
            })
        });
    }
    g.finish();

    let queens: Vec<(Square, Bitboard)> = data
        .iter()
        .map(|&(a, b, _)| {
            (
                Square::from_index_masked(a as u8),
                Bitboard((b as u64) & (a >> 64) as u64),
            )
        })
        .collect();
    let mut g = c.benchmark_group("queen-1024");
    let model = XopModel::new().unwrap();
    g.bench_function("xop-model", |b| {
        b.iter(|| {
            queens.iter().fold(0u64, |acc, &(sq, occ)| {
                acc ^ model.queen_attacks(sq, black_box(occ)).0
            })
        })
    });
    if let Some(t) = hq_xop::XopSsse3::new() {
        g.bench_function("xop-ssse3", |b| {
            b.iter(|| {
                queens.iter().fold(0u64, |acc, &(sq, occ)| {
                    acc ^ t.queen_attacks(sq, black_box(occ)).0
                })
            })
        });
    }
    g.finish();
}

criterion_group!(benches, vpperm);
criterion_main!(benches);
