//! Criterion benchmarks of every backend compiled into `hq`, in one run:
//! throughput, latency, batch and set-wise, for rook, bishop and queen.
//!
//! `cargo bench -p hq-benches --bench attacks` (filter with a name, e.g. `queen/throughput`).
//! Backends this CPU lacks are listed as skipped.

use criterion::{BenchmarkId, Criterion, Throughput};
use hq::{Backend, Bitboard, SliderAttacks, WithBackend};
use hq_benches::{INPUTS, Input, Piece, batch, inputs, latency, setwise, throughput};
use std::hint::black_box;

struct Measure<'a> {
    criterion: &'a mut Criterion,
    inputs: &'a [Input],
}

impl WithBackend for Measure<'_> {
    type Output = ();
    fn run<B: SliderAttacks>(self, backend: B) {
        let Measure { criterion, inputs } = self;
        for piece in Piece::ALL {
            let mut group = criterion.benchmark_group(piece.name());
            group.throughput(Throughput::Elements(INPUTS as u64));
            group.bench_function(BenchmarkId::new("throughput", B::NAME), |b| {
                b.iter(|| throughput(backend, piece, black_box(inputs)))
            });
            group.bench_function(BenchmarkId::new("latency", B::NAME), |b| {
                b.iter(|| latency(backend, piece, black_box(inputs)))
            });
            let mut out = [Bitboard::EMPTY; 64];
            group.bench_function(BenchmarkId::new("batch", B::NAME), |b| {
                b.iter(|| batch(backend, piece, black_box(inputs), &mut out))
            });
            group.throughput(Throughput::Elements(INPUTS as u64));
            group.bench_function(BenchmarkId::new("setwise", B::NAME), |b| {
                b.iter(|| setwise(backend, piece, black_box(inputs)))
            });
            group.finish();
        }
    }
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    let inputs = inputs();
    for &backend in Backend::all() {
        if let Err(e) = hq::with_backend(
            backend,
            Measure {
                criterion: &mut criterion,
                inputs: &inputs,
            },
        ) {
            println!("SKIPPED {backend}: {e}");
        }
    }
    criterion.final_summary();
}
