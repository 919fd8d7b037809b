//! Shared bench harness: pre-generated random inputs (occupancies `rand & rand`,
//! about 25 % full), throughput (independent lookups, xor-folded into a sink),
//! latency (each occupancy depends on the previous result) and batches.
//!
//! Every benchmark does [`LOOKUPS`] lookups per iteration and reports them as
//! criterion elements, so "time" / [`LOOKUPS`] is the cost of one lookup.

#![allow(dead_code)]

use criterion::{BenchmarkGroup, Throughput, measurement::WallTime};
use hq_core::{Bitboard, Square};
use hq_testkit::SplitMix64;

/// Lookups per criterion iteration.
pub const LOOKUPS: usize = 1024;
/// Squares per batch call (about the sliders of one side, plus some).
pub const BATCH: usize = 16;

/// Random squares and `rand & rand` occupancies, fixed seed.
pub struct Inputs {
    pub squares: Vec<Square>,
    pub occupancies: Vec<u64>,
}

pub fn inputs() -> Inputs {
    let mut rng = SplitMix64(0xBE_7C_4A_11);
    let squares = (0..LOOKUPS)
        .map(|_| Square::from_index_masked(rng.next_u64() as u8))
        .collect();
    let occupancies = (0..LOOKUPS)
        .map(|_| rng.next_u64() & rng.next_u64())
        .collect();
    Inputs {
        squares,
        occupancies,
    }
}

/// Independent lookups: results xor-folded into a sink.
pub fn throughput(
    group: &mut BenchmarkGroup<'_, WallTime>,
    inputs: &Inputs,
    name: &str,
    attacks: impl Fn(Square, u64) -> u64,
) {
    group.throughput(Throughput::Elements(LOOKUPS as u64));
    group.bench_function(name, |b| {
        b.iter(|| {
            let mut sink = 0u64;
            for (&sq, &occ) in inputs.squares.iter().zip(&inputs.occupancies) {
                sink ^= attacks(sq, occ);
            }
            sink
        })
    });
}

/// Dependent lookups: each occupancy takes bit 0 of the previous result.
pub fn latency(
    group: &mut BenchmarkGroup<'_, WallTime>,
    inputs: &Inputs,
    name: &str,
    attacks: impl Fn(Square, u64) -> u64,
) {
    group.throughput(Throughput::Elements(LOOKUPS as u64));
    group.bench_function(name, |b| {
        b.iter(|| {
            let mut last = 0u64;
            for (&sq, &occ) in inputs.squares.iter().zip(&inputs.occupancies) {
                last = attacks(sq, occ ^ (last & 1));
            }
            last
        })
    });
}

/// Batch calls: `LOOKUPS / BATCH` calls of `BATCH` squares, one occupancy each.
pub fn batch(
    group: &mut BenchmarkGroup<'_, WallTime>,
    inputs: &Inputs,
    name: &str,
    attacks: impl Fn(&[Square], Bitboard, &mut [Bitboard]),
) {
    group.throughput(Throughput::Elements(LOOKUPS as u64));
    group.bench_function(name, |b| {
        let mut out = [Bitboard::EMPTY; BATCH];
        b.iter(|| {
            let mut sink = 0u64;
            for (squares, &occ) in inputs
                .squares
                .chunks_exact(BATCH)
                .zip(inputs.occupancies.iter().step_by(BATCH))
            {
                attacks(squares, Bitboard(occ), &mut out);
                sink = out.iter().fold(sink, |acc, o| acc ^ o.0);
            }
            sink
        })
    });
}

/// Throughput and latency groups for one piece. Each closure stays its own
/// type (no function pointers), so scalar kernels inline into the loop as they
/// would in a caller, and SIMD kernels are direct calls.
#[macro_export]
macro_rules! piece_groups {
    ($c:expr, $inputs:expr, $piece:literal, [$(($name:expr, $f:expr)),* $(,)?]) => {{
        let mut group = $c.benchmark_group(concat!($piece, "-throughput"));
        $(common::throughput(&mut group, $inputs, $name, $f);)*
        group.finish();
        let mut group = $c.benchmark_group(concat!($piece, "-latency"));
        $(common::latency(&mut group, $inputs, $name, $f);)*
        group.finish();
    }};
}

/// A batch group for one piece, closures kept as their own types.
#[macro_export]
macro_rules! batch_group {
    ($c:expr, $inputs:expr, $piece:literal, [$(($name:expr, $f:expr)),* $(,)?]) => {{
        let mut group = $c.benchmark_group(concat!($piece, "-batch"));
        $(common::batch(&mut group, $inputs, $name, $f);)*
        group.finish();
    }};
}
