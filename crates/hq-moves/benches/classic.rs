//! Hyatt's incremental attack boards against recomputation from scratch,
//! and the classical token against the `hq_scalar` tokens.
//!
//! `cargo bench -p hq-classic --bench classic -- --warm-up-time 1 --measurement-time 2`

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use hq_classic::Classic;
use hq_core::{Bitboard, SliderAttacks, Square};
use hq_moves::AttackBoards;
use hq_moves::playout::{Rng, random_game};
use hq_moves::{Move, Position};
use hq_scalar::{ScalarRankTable, ScalarReverse};
use std::hint::black_box;

/// 20 random pseudo-legal games of 200 plies from the start position.
fn games() -> Vec<Vec<Move>> {
    (0..20)
        .map(|seed| random_game(&Position::start(), seed, 200))
        .collect()
}

fn attack_boards(c: &mut Criterion) {
    let games = games();
    let plies: u64 = games.iter().map(|g| g.len() as u64).sum();
    let start = AttackBoards::new(Position::start());
    let mut group = c.benchmark_group("classic-attack-boards");
    group.throughput(Throughput::Elements(plies));
    group.bench_function("incremental-make", |b| {
        b.iter(|| {
            for game in black_box(&games) {
                let mut board = start.clone();
                for &mv in game {
                    board.make(mv);
                }
                black_box(&board);
            }
        })
    });
    group.bench_function("recompute-make", |b| {
        b.iter(|| {
            for game in black_box(&games) {
                let mut board = start.clone();
                for &mv in game {
                    board.make_and_recompute(mv);
                }
                black_box(&board);
            }
        })
    });
    group.bench_function("mailbox-only-make", |b| {
        b.iter(|| {
            for game in black_box(&games) {
                let mut position = Position::start();
                for &mv in game {
                    position.make(mv);
                }
                black_box(&position);
            }
        })
    });
    // A search's pattern: every move made and taken back, then made again.
    group.throughput(Throughput::Elements(3 * plies));
    group.bench_function("incremental-make-unmake-make", |b| {
        b.iter(|| {
            for game in black_box(&games) {
                let mut board = start.clone();
                for &mv in game {
                    let undo = board.make(mv);
                    board.unmake(mv, undo);
                    board.make(mv);
                }
                black_box(&board);
            }
        })
    });
    group.bench_function("recompute-make-unmake-make", |b| {
        b.iter(|| {
            for game in black_box(&games) {
                let mut board = start.clone();
                for &mv in game {
                    let undo = board.make_and_recompute(mv);
                    board.unmake_and_recompute(mv, undo);
                    board.make_and_recompute(mv);
                }
                black_box(&board);
            }
        })
    });
    group.finish();
}

type Group<'a> = criterion::BenchmarkGroup<'a, criterion::measurement::WallTime>;

/// Queen and rook attacks of one token over all inputs, xor-accumulated.
fn tokens<B: SliderAttacks>(group: &mut Group<'_>, inputs: &[(Square, u64)]) {
    let token = B::new().expect("portable backend");
    group.bench_with_input(BenchmarkId::new("queen", B::NAME), inputs, |b, inputs| {
        b.iter(|| {
            inputs.iter().fold(0u64, |acc, &(sq, occ)| {
                acc ^ token.queen_attacks(sq, Bitboard(occ)).0
            })
        })
    });
    group.bench_with_input(BenchmarkId::new("rook", B::NAME), inputs, |b, inputs| {
        b.iter(|| {
            inputs.iter().fold(0u64, |acc, &(sq, occ)| {
                acc ^ token.rook_attacks(sq, Bitboard(occ)).0
            })
        })
    });
}

fn attacks(c: &mut Criterion) {
    let mut rng = Rng(0xBE7C_0001);
    let inputs: Vec<(Square, u64)> = (0..1024)
        .map(|_| {
            (
                Square::from_index_masked(rng.next_u64() as u8),
                rng.next_u64() & rng.next_u64(),
            )
        })
        .collect();
    let mut group = c.benchmark_group("classic-attacks");
    group.throughput(Throughput::Elements(inputs.len() as u64));
    tokens::<Classic>(&mut group, &inputs);
    tokens::<ScalarRankTable>(&mut group, &inputs);
    tokens::<ScalarReverse>(&mut group, &inputs);
    group.finish();
}

criterion_group!(benches, attack_boards, attacks);
criterion_main!(benches);
