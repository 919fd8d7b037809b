//! Reverse bitboards: the seed's SWAR reversal against `u64::reverse_bits`
//! and against scanning the reversed set with `63 - s`; the token and the
//! maintained board against the `hq_scalar` tokens; attack reuse against
//! recomputation.
//!
//! `cargo bench -p hq-reverse --bench reverse -- --warm-up-time 1 --measurement-time 2`

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use hq_core::{Bitboard, SliderAttacks, Square};
use hq_moves::Position;
use hq_moves::playout::{Rng, random_game};
use hq_moves::{AttackReuse, ReverseBoard, SliderKind};
use hq_reverse::kernels::{bishop_attacks_split, rook_attacks_split};
use hq_reverse::{ReverseBitboards, swar_reverse};
use hq_scalar::{ScalarRankDiagonal, ScalarRankTable, ScalarReverse};
use std::hint::black_box;

const N: usize = 1024;

/// Random squares and occupancies of about 25 % density (the Chess_Movegen method).
fn inputs() -> Vec<(Square, u64)> {
    let mut rng = Rng(0xBE7C_0001);
    (0..N)
        .map(|_| {
            (
                Square::from_index_masked(rng.next_u64() as u8),
                rng.next_u64() & rng.next_u64(),
            )
        })
        .collect()
}

fn reversal(c: &mut Criterion) {
    let mut rng = Rng(0xBE7C_0002);
    let words: Vec<u64> = (0..N).map(|_| rng.next_u64()).collect();
    let mut group = c.benchmark_group("reverse-reversal");
    group.throughput(Throughput::Elements(N as u64));
    group.bench_function("swar", |b| {
        b.iter(|| {
            black_box(&words)
                .iter()
                .fold(0, |acc, &x| acc ^ swar_reverse(x))
        })
    });
    group.bench_function("reverse_bits", |b| {
        b.iter(|| {
            black_box(&words)
                .iter()
                .fold(0, |acc, &x| acc ^ x.reverse_bits())
        })
    });
    group.finish();

    // Consuming queen attacks as target squares, as a move generator does:
    // reverse the reversed half and scan one set, or scan the reversed half
    // and map each square with 63 - s (the seed's alternative).
    let halves: Vec<(u64, u64)> = inputs()
        .into_iter()
        .map(|(sq, occ)| {
            let (rf, rr) = rook_attacks_split(occ, occ.reverse_bits(), sq);
            let (bf, br) = bishop_attacks_split(occ, occ.reverse_bits(), sq);
            (rf | bf, rr | br)
        })
        .collect();
    let scan = |mut set: u64, acc: &mut u64| {
        while set != 0 {
            *acc = acc
                .wrapping_mul(31)
                .wrapping_add(u64::from(set.trailing_zeros()));
            set &= set - 1;
        }
    };
    let mut group = c.benchmark_group("reverse-serialize");
    group.throughput(Throughput::Elements(N as u64));
    group.bench_function("swar-then-scan", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &(f, r) in black_box(&halves) {
                scan(f | swar_reverse(r), &mut acc);
            }
            acc
        })
    });
    group.bench_function("reverse_bits-then-scan", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &(f, r) in black_box(&halves) {
                scan(f | r.reverse_bits(), &mut acc);
            }
            acc
        })
    });
    group.bench_function("scan-63-minus-s", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &(f, mut r) in black_box(&halves) {
                scan(f, &mut acc);
                // Not the same visiting order as the scans above, but the same squares.
                while r != 0 {
                    acc = acc
                        .wrapping_mul(31)
                        .wrapping_add(u64::from(63 - r.trailing_zeros()));
                    r &= r - 1;
                }
            }
            acc
        })
    });
    group.finish();
}

type Group<'a> = criterion::BenchmarkGroup<'a, criterion::measurement::WallTime>;

/// One attack function over all inputs, xor-accumulated. Every variant gets
/// the same `(square, occupancy, reversed occupancy)` records, so all read
/// the same memory; the tokens ignore the third field.
fn run<F: Fn(Square, u64, u64) -> u64>(
    group: &mut Group<'_>,
    piece: &str,
    name: &str,
    inputs: &[(Square, u64, u64)],
    f: F,
) {
    group.bench_with_input(BenchmarkId::new(piece, name), inputs, |b, inputs| {
        b.iter(|| {
            inputs
                .iter()
                .fold(0u64, |acc, &(sq, occ, rocc)| acc ^ f(sq, occ, rocc))
        })
    });
}

fn tokens<B: SliderAttacks>(group: &mut Group<'_>, inputs: &[(Square, u64, u64)]) {
    let token = B::new().expect("portable backend");
    run(group, "queen", B::NAME, inputs, |sq, occ, _| {
        token.queen_attacks(sq, Bitboard(occ)).0
    });
    run(group, "rook", B::NAME, inputs, |sq, occ, _| {
        token.rook_attacks(sq, Bitboard(occ)).0
    });
}

fn attacks(c: &mut Criterion) {
    let inputs: Vec<(Square, u64, u64)> = inputs()
        .into_iter()
        .map(|(s, o)| (s, o, o.reverse_bits()))
        .collect();
    let mut group = c.benchmark_group("reverse-attacks");
    group.throughput(Throughput::Elements(N as u64));
    tokens::<ReverseBitboards>(&mut group, &inputs);
    tokens::<ScalarRankTable>(&mut group, &inputs);
    tokens::<ScalarRankDiagonal>(&mut group, &inputs);
    tokens::<ScalarReverse>(&mut group, &inputs);
    // The maintained board's situation: the reversed occupancy is already there.
    run(
        &mut group,
        "queen",
        "reverse-board-maintained",
        &inputs,
        |sq, occ, rocc| {
            let (rf, rr) = rook_attacks_split(occ, rocc, sq);
            let (bf, br) = bishop_attacks_split(occ, rocc, sq);
            rf | bf | swar_reverse(rr | br)
        },
    );
    run(
        &mut group,
        "rook",
        "reverse-board-maintained",
        &inputs,
        |sq, occ, rocc| {
            let (rf, rr) = rook_attacks_split(occ, rocc, sq);
            rf | swar_reverse(rr)
        },
    );
    group.finish();
}

/// Positions of random games, in playing order.
fn game_boards() -> Vec<ReverseBoard> {
    let start = Position::start();
    let mut boards = Vec::new();
    for seed in 0..20 {
        let mut board = ReverseBoard::new(start.clone());
        boards.push(board.clone());
        for mv in random_game(&start, seed, 200) {
            board.make(mv);
            boards.push(board.clone());
        }
    }
    boards
}

fn reuse_and_check(c: &mut Criterion) {
    let boards = game_boards();
    let positions: Vec<(Bitboard, Bitboard, Bitboard)> = boards
        .iter()
        .map(|b| {
            let both = |k| {
                b.sliders(hq_core::piece::Color::White, k)
                    | b.sliders(hq_core::piece::Color::Black, k)
            };
            (
                Bitboard(b.occupied()),
                Bitboard(both(SliderKind::Orthogonal)),
                Bitboard(both(SliderKind::Diagonal)),
            )
        })
        .collect();
    let mut group = c.benchmark_group("reverse-reuse");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("observe-with-reuse", |b| {
        b.iter(|| {
            let mut reuse = AttackReuse::new();
            positions
                .iter()
                .fold(0u64, |acc, &(occ, o, d)| acc ^ reuse.observe(occ, o, d).0)
        })
    });
    group.bench_function("recompute-every-set", |b| {
        b.iter(|| {
            positions.iter().fold(0u64, |acc, &(occ, o, d)| {
                let rocc = hq_reverse::reverse(occ.0);
                let mut union = 0;
                for sq in o {
                    union |= hq_reverse::kernels::join(rook_attacks_split(occ.0, rocc, sq));
                }
                for sq in d {
                    union |= hq_reverse::kernels::join(bishop_attacks_split(occ.0, rocc, sq));
                }
                acc ^ union
            })
        })
    });
    group.finish();

    let mut group = c.benchmark_group("reverse-slider-check");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("reverse-board-no-tables", |b| {
        b.iter(|| {
            black_box(&boards)
                .iter()
                .filter(|b| b.in_slider_check(b.position().side_to_move()))
                .count()
        })
    });
    group.bench_function("reverse-board-line-mask-table", |b| {
        b.iter(|| {
            black_box(&boards)
                .iter()
                .filter(|b| slider_check_with_table(b))
                .count()
        })
    });
    let table = ScalarRankTable::new().expect("portable");
    group.bench_function("scalar-rank-table-attacks", |b| {
        b.iter(|| {
            black_box(&boards)
                .iter()
                .filter(|b| {
                    let color = b.position().side_to_move();
                    let king = b.position().king_square(color);
                    let occ = Bitboard(b.occupied());
                    let enemy = color.opposite();
                    (table.rook_attacks(king, occ).0 & b.sliders(enemy, SliderKind::Orthogonal))
                        | (table.bishop_attacks(king, occ).0
                            & b.sliders(enemy, SliderKind::Diagonal))
                        != 0
                })
                .count()
        })
    });
    group.finish();
}

/// [`ReverseBoard::in_slider_check`] with the line masks loaded from
/// `LINE_MASKS` instead of computed: prices the seed's "no lookup tables".
fn slider_check_with_table(board: &ReverseBoard) -> bool {
    use hq_core::piece::Color;
    let color: Color = board.position().side_to_move();
    let king = board.position().king_square(color);
    let enemy = color.opposite();
    let (occ, rocc) = (board.occupied(), board.occupied_reversed());
    let (ro, rd) = (
        rook_attacks_split(occ, rocc, king),
        bishop_attacks_split(occ, rocc, king),
    );
    (ro.0 & board.sliders(enemy, SliderKind::Orthogonal))
        | (rd.0 & board.sliders(enemy, SliderKind::Diagonal))
        | (ro.1 & board.sliders_reversed(enemy, SliderKind::Orthogonal))
        | (rd.1 & board.sliders_reversed(enemy, SliderKind::Diagonal))
        != 0
}

criterion_group!(benches, reversal, attacks, reuse_and_check);
criterion_main!(benches);
