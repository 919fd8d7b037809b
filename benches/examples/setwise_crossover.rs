//! Where each backend's set-wise kernel starts to beat its own lookups: per
//! window of slider counts (1-2 up to 10-14, mixed in an order the branch
//! predictor cannot learn), rook, bishop and queen, the time per call of the
//! set-wise entry point, of a plain loop over the backend's single lookups,
//! of the branch-free pair (`hq_core::union_of_up_to_two`, windows up to
//! 2), and of the portable occluded fill compiled as the backend's jobs
//! are. The `PerPiece` choices (`hq_scalar::setwise::pair_up_to` and
//! `loop_up_to`) of every token come from this.
//!
//! ```text
//! cargo run --release -p hq-benches --example setwise_crossover [-- --backend NAME]
//! ```
//!
//! Also times the two portable set-wise kernels of `hq_scalar::setwise`
//! (Hyperbola Quintessence with overflow barriers, and the occluded fill),
//! without any per-piece shortcut, each called through a function pointer.

use clap::Parser;
use hq::{Backend, Bitboard, SliderAttacks, WithBackend};
use hq_benches::reference::setwise_hq;
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

/// Slider counts, each window mixed in random order: with one fixed count
/// the branch predictor learns every loop exit and crossover test, which an
/// engine's varying sets never let it do. The matrix's crowds are 1-2, 4-6
/// and 10-14.
const WINDOWS: [(u32, u32); 7] = [(1, 2), (2, 3), (3, 4), (4, 6), (5, 7), (6, 8), (10, 14)];

/// Inputs per timed run, and runs (each on inputs of its own, so that no
/// run replays a sequence of counts the predictor has seen).
const CHUNK: usize = 4096;
const RUNS: usize = 64;

/// `RUNS * CHUNK` pairs `(sliders, occupancy)`, each with a slider count
/// drawn from `window`, sliders inside the occupancy.
fn inputs((low, high): (u32, u32)) -> Vec<(u64, u64)> {
    let mut s = 0x1234_5678_9ABC_DEF1u64 ^ u64::from(low * 64 + high);
    let mut r = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    (0..RUNS * CHUNK)
        .map(|_| {
            let n = low + (r() % u64::from(high - low + 1)) as u32;
            let occ = r() & r();
            let mut sliders = 0u64;
            while sliders.count_ones() < n {
                sliders |= 1 << (r() % 64);
            }
            (sliders, occ | sliders)
        })
        .collect()
}

/// Nanoseconds per call of `f`, the best run over `RUNS` chunks of inputs.
///
/// Plain loops, and every `f` an `#[inline(always)]` closure: a closure
/// does not inherit its caller's target features, so one LLVM leaves out of
/// line runs at the baseline instead of the job's level. (The queen fill,
/// the biggest, was left out of line that way: 14.3 ns per call in the
/// default build, where the bench matrix's jobs run it in 4.9.)
#[inline(always)]
fn time(inputs: &[(u64, u64)], f: impl Fn(u64, u64) -> u64) -> f64 {
    let mut best = f64::MAX;
    for chunk in inputs.chunks(CHUNK) {
        let start = Instant::now();
        let mut acc = 0;
        for &pair in chunk {
            let (sliders, occ) = black_box(pair);
            acc ^= f(sliders, occ);
        }
        black_box(acc);
        best = best.min(start.elapsed().as_nanos() as f64 / chunk.len() as f64);
    }
    best
}

/// Per window of slider counts, its inputs.
type Window = ((u32, u32), Vec<(u64, u64)>);
type Data = [Window];

/// A table timed and printed inside a backend's job, so that its cells'
/// code is compiled for the backend's level: a row per window of slider
/// counts, a column per piece, the cells `C`'s.
struct Table<'a, C>(&'a Data, C);

/// What the cells of a [`Table`] time.
trait Cells {
    /// The width of each piece's column.
    const WIDTH: usize;
    /// The table's heading, for backend `B`.
    fn title<B: SliderAttacks>(&self) -> String;
    /// The rook, bishop and queen cells of the window with `inputs`, whose
    /// largest slider count is `high`.
    fn row<B: SliderAttacks>(&self, t: B, inputs: &[(u64, u64)], high: u32) -> [String; 3];
}

impl<C: Cells> WithBackend for Table<'_, C> {
    type Output = ();
    #[inline(always)]
    fn run<B: SliderAttacks>(self, t: B) {
        let Table(data, cells) = self;
        println!("\n{}", cells.title::<B>());
        let width = C::WIDTH;
        println!("sliders | {:width$} | {:width$} | queen", "rook", "bishop");
        for ((low, high), inputs) in data {
            let [rook, bishop, queen] = cells.row(t, inputs, *high);
            println!(
                "{:>7} | {rook} | {bishop} | {queen}",
                format!("{low}-{high}")
            );
        }
    }
}

/// One backend's table: per window and piece, the set-wise entry, a plain
/// loop over the token's lookups, the branch-free pair (windows up to 2),
/// and the portable occluded fill compiled at the token's level.
struct Entries;

impl Cells for Entries {
    const WIDTH: usize = 24;
    fn title<B: SliderAttacks>(&self) -> String {
        format!(
            "{} (ns per call: set-wise entry / plain loop / pair / portable fill; * the entry is not the fastest)",
            B::NAME
        )
    }
    #[inline(always)]
    fn row<B: SliderAttacks>(&self, t: B, inputs: &[(u64, u64)], high: u32) -> [String; 3] {
        [
            cell::<B, ROOK>(t, inputs, high),
            cell::<B, BISHOP>(t, inputs, high),
            cell::<B, QUEEN>(t, inputs, high),
        ]
    }
}

const ROOK: u8 = 0;
const BISHOP: u8 = 1;
const QUEEN: u8 = 2;

/// The token's single lookup for `PIECE`.
#[inline(always)]
fn single<B: SliderAttacks, const PIECE: u8>(t: B, sq: hq::Square, o: Bitboard) -> Bitboard {
    match PIECE {
        ROOK => t.rook_attacks(sq, o),
        BISHOP => t.bishop_attacks(sq, o),
        _ => t.queen_attacks(sq, o),
    }
}

/// One cell, every variant calling the token's methods directly (a piece
/// constant, no function pointer, so that all inline into the timed loop).
#[inline(always)]
fn cell<B: SliderAttacks, const PIECE: u8>(t: B, inputs: &[(u64, u64)], high: u32) -> String {
    let plain_loop = time(
        inputs,
        #[inline(always)]
        |s, o| {
            hq_core::union_by_loop(
                Bitboard(s),
                Bitboard(o),
                #[inline(always)]
                |sq, o| single::<B, PIECE>(t, sq, o),
            )
            .0
        },
    );
    // Not `bool::then`: its closure would be one more place to leave the
    // job's level.
    let pair = if high <= 2 {
        Some(time(
            inputs,
            #[inline(always)]
            |s, o| {
                hq_core::union_of_up_to_two(
                    Bitboard(s),
                    Bitboard(o),
                    #[inline(always)]
                    |sq, o| single::<B, PIECE>(t, sq, o),
                )
                .0
            },
        ))
    } else {
        None
    };
    let entry = time(
        inputs,
        #[inline(always)]
        |s, o| {
            let (s, o) = (Bitboard(s), Bitboard(o));
            match PIECE {
                ROOK => t.rook_attacks_setwise(s, o),
                BISHOP => t.bishop_attacks_setwise(s, o),
                _ => t.queen_attacks_setwise(s, o),
            }
            .0
        },
    );
    let fill = time(
        inputs,
        #[inline(always)]
        |s, o| match PIECE {
            ROOK => setwise::fill::attacks(setwise::fill::ROOK, s, o),
            BISHOP => setwise::fill::attacks(setwise::fill::BISHOP, s, o),
            _ => setwise::fill::attacks(setwise::fill::QUEEN, s, o),
        },
    );
    let best = [Some(plain_loop), pair, Some(fill)]
        .into_iter()
        .flatten()
        .fold(f64::MAX, f64::min);
    format!(
        "{entry:4.1}{} {plain_loop:4.1} {} {fill:4.1}",
        if entry > best * 1.03 { "*" } else { " " },
        pair.map_or("  - ".into(), |p| format!("{p:4.1}")),
    )
}

/// The portable kernels, compiled as a portable backend's jobs are.
struct Kernels;

impl Cells for Kernels {
    const WIDTH: usize = 13;
    fn title<B: SliderAttacks>(&self) -> String {
        "set-wise kernels (ns per call: HQ with barriers, benches/reference / the occluded fill, hq_scalar)"
            .into()
    }
    #[inline(always)]
    fn row<B: SliderAttacks>(&self, _: B, inputs: &[(u64, u64)], _: u32) -> [String; 3] {
        let cell = |hq: fn(u64, u64) -> u64, dirs: core::ops::Range<usize>| {
            let a = time(inputs, hq);
            let b = time(
                inputs,
                #[inline(always)]
                |s, o| setwise::fill::attacks(dirs.clone(), s, o),
            );
            format!("{a:5.1} / {b:5.1} ")
        };
        [
            cell(setwise_hq::rook_attacks, setwise::fill::ROOK),
            cell(setwise_hq::bishop_attacks, setwise::fill::BISHOP),
            cell(setwise_hq::queen_attacks, setwise::fill::QUEEN),
        ]
    }
}

fn main() {
    let args = Args::parse();
    // Bring the core up to speed first: without this the first cell timed
    // came out 30-50 % slow.
    let warm_up = Instant::now();
    let mut x = 1u64;
    while warm_up.elapsed().as_millis() < 300 {
        x = black_box(x.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(7));
    }
    let data: Vec<Window> = WINDOWS.iter().map(|&w| (w, inputs(w))).collect();
    let backends: Vec<Backend> = match &args.backend {
        Some(name) => vec![Backend::from_name(name).unwrap_or_else(|e| panic!("{e}"))],
        None => Backend::supported()
            .filter(|b| !matches!(b, Backend::XopModel))
            .collect(),
    };
    for b in backends {
        hq::with_backend(b, Table(&data, Entries)).unwrap_or_else(|e| panic!("{e}"));
    }
    if args.backend.is_none() {
        hq::with_backend(Backend::ScalarRankTable, Table(&data, Kernels))
            .unwrap_or_else(|e| panic!("{e}"));
    }
}
