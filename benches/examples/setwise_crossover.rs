//! Where each backend's set-wise kernel starts to beat its own per-piece
//! loop: the time per call of the set-wise entry point and of a loop of the
//! backend's single lookups, for 1 to 16 sliders, rook, bishop and queen.
//! The crossover constants of `hq_simd` and `hq_scalar` come from this.
//!
//! ```text
//! cargo run --release -p hq-benches --example setwise_crossover [-- --backend NAME]
//! ```
//!
//! Also times the two portable set-wise kernels of `hq_scalar::setwise`
//! (Hyperbola Quintessence with overflow barriers, and the occluded fill),
//! without any per-piece shortcut.

use clap::Parser;
use hq::{Backend, Bitboard, SliderAttacks, WithBackend};
use hq_scalar::setwise;
use std::hint::black_box;
use std::time::Instant;

/// Set-wise kernels against per-piece loops, per backend and slider count.
#[derive(Parser)]
struct Args {
    /// Only this backend (default: every backend this CPU runs).
    #[arg(long)]
    backend: Option<String>,
}

const COUNTS: [u32; 11] = [1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16];

/// `(sliders, occupancy)` pairs with exactly `n` sliders, sliders inside the occupancy.
fn inputs(n: u32) -> Vec<(u64, u64)> {
    let mut s = 0x1234_5678_9ABC_DEF1u64 ^ u64::from(n);
    let mut r = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    (0..4096)
        .map(|_| {
            let occ = r() & r();
            let mut sliders = 0u64;
            while sliders.count_ones() < n {
                sliders |= 1 << (r() % 64);
            }
            (sliders, occ | sliders)
        })
        .collect()
}

/// Nanoseconds per call of `f` over `inputs`, best of 15 runs.
#[inline(always)]
fn time(inputs: &[(u64, u64)], f: impl Fn(u64, u64) -> u64) -> f64 {
    (0..15)
        .map(|_| {
            let start = Instant::now();
            let mut acc = 0;
            for &pair in inputs {
                let (sliders, occ) = black_box(pair);
                acc ^= f(sliders, occ);
            }
            black_box(acc);
            start.elapsed().as_nanos() as f64 / inputs.len() as f64
        })
        .fold(f64::MAX, f64::min)
}

/// One backend's table: entry point and loop, per count and piece.
struct Table<'a>(&'a [(u32, Vec<(u64, u64)>)]);

impl WithBackend for Table<'_> {
    type Output = ();
    #[inline(always)]
    fn run<B: SliderAttacks>(self, t: B) {
        println!(
            "\n{} (ns per call: set-wise entry / per-piece loop)",
            B::NAME
        );
        println!("  n | rook          | bishop        | queen");
        for (n, inputs) in self.0 {
            println!(
                "{n:3} | {} | {} | {}",
                cell::<B, ROOK>(t, inputs),
                cell::<B, BISHOP>(t, inputs),
                cell::<B, QUEEN>(t, inputs)
            );
        }
        println!("  (* marks counts where the loop is faster)");
    }
}

const ROOK: u8 = 0;
const BISHOP: u8 = 1;
const QUEEN: u8 = 2;

/// One cell: the set-wise entry against the loop over the token's single
/// lookups, both calling the methods directly (a piece constant, no function
/// pointer, so that both inline into the timed loop).
#[inline(always)]
fn cell<B: SliderAttacks, const PIECE: u8>(t: B, inputs: &[(u64, u64)]) -> String {
    let entry = time(inputs, |s, o| {
        let (s, o) = (Bitboard(s), Bitboard(o));
        match PIECE {
            ROOK => t.rook_attacks_setwise(s, o),
            BISHOP => t.bishop_attacks_setwise(s, o),
            _ => t.queen_attacks_setwise(s, o),
        }
        .0
    });
    let per_piece = time(inputs, |s, o| {
        let o = Bitboard(o);
        Bitboard(s).iter().fold(0, |a, sq| {
            a | match PIECE {
                ROOK => t.rook_attacks(sq, o),
                BISHOP => t.bishop_attacks(sq, o),
                _ => t.queen_attacks(sq, o),
            }
            .0
        })
    });
    format!(
        "{entry:5.1} / {per_piece:5.1}{}",
        if per_piece < entry { "*" } else { " " }
    )
}

/// The portable kernels, compiled as a portable backend's jobs are.
struct Portable<'a>(&'a [(u32, Vec<(u64, u64)>)]);

impl WithBackend for Portable<'_> {
    type Output = ();
    #[inline(always)]
    fn run<B: SliderAttacks>(self, _: B) {
        println!("\nhq_scalar::setwise kernels (ns per call: HQ with barriers / occluded fill)");
        println!("  n | rook          | bishop        | queen");
        for (n, inputs) in self.0 {
            let cell = |hq: fn(u64, u64) -> u64, dirs: core::ops::Range<usize>| {
                let a = time(inputs, hq);
                let b = time(inputs, |s, o| setwise::fill::attacks(dirs.clone(), s, o));
                format!("{a:5.1} / {b:5.1} ")
            };
            println!(
                "{n:3} | {} | {} | {}",
                cell(setwise::rook_attacks, setwise::fill::ROOK),
                cell(setwise::bishop_attacks, setwise::fill::BISHOP),
                cell(setwise::queen_attacks, setwise::fill::QUEEN)
            );
        }
    }
}

fn main() {
    let args = Args::parse();
    let data: Vec<(u32, Vec<(u64, u64)>)> = COUNTS.iter().map(|&n| (n, inputs(n))).collect();
    let backends: Vec<Backend> = match &args.backend {
        Some(name) => vec![Backend::from_name(name).unwrap_or_else(|e| panic!("{e}"))],
        None => Backend::supported()
            .filter(|b| !matches!(b, Backend::XopModel))
            .collect(),
    };
    for b in backends {
        hq::with_backend(b, Table(&data)).unwrap_or_else(|e| panic!("{e}"));
    }
    if args.backend.is_none() {
        hq::with_backend(Backend::ScalarRankTable, Portable(&data))
            .unwrap_or_else(|e| panic!("{e}"));
    }
}
