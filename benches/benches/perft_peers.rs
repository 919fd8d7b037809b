//! Criterion: `hq-chess`'s perft on every supported backend and on the peers (cozy-chess
//! with bulk counting, shakmaty's `perft`), start position depth 5 and
//! Kiwipete depth 4. Stockfish runs out of process, so it is measured by
//! `hq-chess`'s `examples/peers.rs` instead (the bench matrix's perft stage).

#[path = "../../crates/hq-chess/peers/mod.rs"]
#[allow(dead_code)]
mod peers;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hq::{Backend, SliderAttacks, WithBackend};
use hq_chess::{Position, perft};
use std::hint::black_box;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const WORKLOADS: [(&str, &str, u32, u64); 2] = [
    ("startpos-d5", hq_chess::STARTPOS_FEN, 5, 4_865_609),
    ("kiwipete-d4", KIWIPETE, 4, 4_085_603),
];

/// Benchmarks one backend, monomorphized for it.
struct BenchBackend<'a, 'c> {
    group: &'a mut criterion::BenchmarkGroup<'c, criterion::measurement::WallTime>,
    position: &'a Position,
    depth: u32,
    expected: u64,
}

impl WithBackend for BenchBackend<'_, '_> {
    type Output = ();
    fn run<B: SliderAttacks>(self, token: B) {
        assert_eq!(
            perft(self.position, self.depth, token),
            self.expected,
            "{}",
            B::NAME
        );
        let (position, depth) = (self.position, self.depth);
        self.group
            .bench_function(format!("hq-chess/{}", B::NAME), |b| {
                b.iter(|| perft(black_box(position), black_box(depth), token))
            });
    }
}

fn perft_peers(c: &mut Criterion) {
    for (name, fen, depth, expected) in WORKLOADS {
        let mut group = c.benchmark_group(format!("perft/{name}"));
        group
            .sample_size(10)
            .throughput(Throughput::Elements(expected));
        let position = Position::from_fen(fen).expect("valid FEN");
        for &backend in Backend::all().iter().filter(|b| b.is_supported()) {
            let job = BenchBackend {
                group: &mut group,
                position: &position,
                depth,
                expected,
            };
            hq::with_backend(backend, job).expect("supported backend");
        }
        let cozy = cozy_chess::Board::from_fen(fen, false).expect("valid FEN");
        assert_eq!(peers::cozy_perft(&cozy, depth), expected);
        group.bench_function("cozy-chess", |b| {
            b.iter(|| peers::cozy_perft(black_box(&cozy), depth))
        });
        let shak = peers::shakmaty_position(fen).expect("valid FEN");
        assert_eq!(shakmaty::perft(&shak, depth), expected);
        group.bench_function("shakmaty", |b| {
            b.iter(|| shakmaty::perft(black_box(&shak), depth))
        });
        group.finish();
    }
}

criterion_group!(benches, perft_peers);
criterion_main!(benches);
