//! Chess_Movegen's own timing loop (its `Get_MLU`), ported: 5,000,000
//! occupancies `rand64() & rand64()`, each with 12 squares `rand32() % 64`
//! from its xorshift96 and seeds, then one pass of 60,000,000 independent
//! queen lookups xor-folded into a sink, timed once. What its C++ methods
//! print as "Performance [MQueens/s]", for `hq`'s free function, the job on
//! the single lookups' backend, and each backend this CPU runs through
//! `hq::with_backend`, so that the two programs can be run alternately on
//! one CPU (`docs/benchmarks.md` says how they compare).
//!
//! With `--passes N` the rows take turns N times in the process; it prints
//! each row's median pass and, per row, the median of its paired ratios to
//! the first row's pass of the same turn (what slowed a turn slows both).
//!
//! ```text
//! cargo run --release -p hq-benches --example movegen_loop [-- --rows hq,job,pext --passes 5]
//! ```

use clap::Parser;
use hq::{Backend, Bitboard, SliderAttacks, Square, WithBackend};
use hq_bench_stats::median;
use std::time::Instant;

/// Chess_Movegen's loop on `hq`.
#[derive(Parser)]
struct Args {
    /// The rows (`hq`, `job`, or backend names; default: all of them).
    #[arg(long, value_delimiter = ',')]
    rows: Vec<String>,
    /// Turns the rows take, interleaved (Chess_Movegen times one).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    passes: u32,
}

const POSITIONS: usize = 5_000_000;
const PER_POSITION: usize = 12;

/// Chess_Movegen's `rand32`: Marsaglia's xorshift96, its seeds.
struct Xorshift96(u32, u32, u32);

impl Xorshift96 {
    fn next(&mut self) -> u32 {
        let Xorshift96(mut x, y, z) = *self;
        x ^= x << 16;
        x ^= x >> 5;
        x ^= x << 1;
        *self = Xorshift96(y, z, x ^ y ^ z);
        self.2
    }
    fn next_u64(&mut self) -> u64 {
        (u64::from(self.next()) << 32) | u64::from(self.next())
    }
}

/// The inputs, drawn in Chess_Movegen's order.
struct Inputs {
    occupancies: Vec<u64>,
    squares: Vec<Square>,
}

fn inputs() -> Inputs {
    let mut rng = Xorshift96(123_456_789, 362_436_069, 521_288_629);
    let mut inputs = Inputs {
        occupancies: Vec::with_capacity(POSITIONS),
        squares: Vec::with_capacity(POSITIONS * PER_POSITION),
    };
    for _ in 0..POSITIONS {
        inputs.occupancies.push(rng.next_u64() & rng.next_u64());
        for _ in 0..PER_POSITION {
            let index = (rng.next() % 64) as u8;
            inputs.squares.push(Square::from_index_masked(index));
        }
    }
    inputs
}

/// The loop, as `Get_MLU` writes it, over `queen`.
#[inline(always)]
fn mlu(inputs: &Inputs, queen: impl Fn(Square, Bitboard) -> Bitboard) -> u64 {
    let mut sink = 0;
    for (&occ, squares) in inputs
        .occupancies
        .iter()
        .zip(inputs.squares.chunks_exact(PER_POSITION))
    {
        for &sq in squares {
            sink ^= queen(sq, Bitboard(occ)).0;
        }
    }
    sink
}

/// The loop as a job on a backend's token.
struct Loop<'a>(&'a Inputs);

impl WithBackend for Loop<'_> {
    type Output = u64;
    #[inline(always)]
    fn run<B: SliderAttacks>(self, token: B) -> u64 {
        mlu(self.0, |sq, occ| token.queen_attacks(sq, occ))
    }
}

/// Million queens per second of one timed pass, and the sink.
fn timed(pass: impl FnOnce() -> u64) -> (f64, u64) {
    let start = Instant::now();
    let sink = pass();
    let seconds = start.elapsed().as_secs_f64();
    ((POSITIONS * PER_POSITION) as f64 / seconds / 1e6, sink)
}

fn main() {
    let args = Args::parse();
    let inputs = inputs();
    let mut rows: Vec<String> = vec!["hq".into(), "job".into()];
    rows.extend(
        Backend::all()
            .iter()
            .filter(|b| b.is_dispatched() && b.check_supported().is_ok())
            .map(|b| b.name().to_owned()),
    );
    if !args.rows.is_empty() {
        if let Some(unknown) = args.rows.iter().find(|r| !rows.contains(r)) {
            eprintln!(
                "movegen_loop: no row {unknown:?} here; the rows: {}",
                rows.join(", ")
            );
            std::process::exit(2);
        }
        rows.retain(|r| args.rows.contains(r));
    }
    let reference = mlu(&inputs, hq::reference::queen_attacks);
    let mut rates = vec![Vec::new(); rows.len()];
    for _ in 0..args.passes {
        for (row, rates) in rows.iter().zip(&mut rates) {
            let (rate, sink) = match row.as_str() {
                "hq" => timed(|| mlu(&inputs, hq::queen_attacks)),
                "job" => timed(|| hq::with_active_backend(Loop(&inputs))),
                name => {
                    let backend: Backend = name.parse().expect("a backend's name");
                    timed(|| hq::with_backend(backend, Loop(&inputs)).expect("runs here"))
                }
            };
            assert_eq!(sink, reference, "{row}: its sink differs from the oracle's");
            rates.push(rate);
        }
    }
    let first = rows.first().map_or("", String::as_str);
    println!("{:<24} {:>9}   ÷ {first} (paired)", "row", "MQueens/s");
    for (row, own) in rows.iter().zip(&rates) {
        let mut paired: Vec<f64> = own.iter().zip(&rates[0]).map(|(r, f)| r / f).collect();
        println!(
            "{row:<24} {:>9.1}   {:.3}",
            median(&mut own.clone()),
            median(&mut paired)
        );
    }
}
