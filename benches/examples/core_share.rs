//! Batch (or single-lookup) throughput split by whether this thread had
//! its core to itself.
//!
//! On a core with two hardware threads, a busy sibling thread (another
//! tenant of a cloud host, or an engine's own second search thread) takes
//! about half of the core's issue slots. Paths then rank by instructions
//! per lookup, not by the ports they keep busy: the hybrid batches, which
//! add PEXT lookups beside a full vector register, lose most of their lead.
//! A bench run on a shared host mixes both states in one process, within
//! seconds; this splits them.
//!
//! Each round times every backend's lookups once (64 squares on each of 64
//! occupancies, five times), back to back, between two probes of the
//! issue width (a loop of independent adds, instructions per cycle). A round counts as "core to itself" when both probes reach 0.85
//! of the best rate of the run, as "shared" when both stay under 0.7;
//! rounds in between are left out. Ratios are per round, against the first
//! backend listed, then the median. The best rate is the run's own (its
//! 95th percentile): a run that never had the core to itself calls its
//! least shared rounds so, which the printed rates show.
//!
//! ```text
//! cargo run --release -p hq-benches --example core_share [-- --piece rook --entry single --backend pext --backend avx512]
//! ```
//!
//! x86-64 only (the probe is `asm!`).

use clap::{Parser, ValueEnum};

/// The piece timed.
#[derive(Clone, Copy, ValueEnum)]
enum Piece {
    Queen,
    Rook,
    Bishop,
}

/// The entry point timed.
#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum Entry {
    /// A batch of 64 squares per call.
    Batch,
    /// Independent single lookups (as the matrix's throughput column, on
    /// warmer inputs: the same 64 squares and 64 occupancies every round).
    Single,
}

/// Lookups timed by state of the core.
#[derive(Parser)]
struct Args {
    /// The piece.
    #[arg(long, value_enum, default_value_t = Piece::Queen)]
    piece: Piece,
    /// The entry point.
    #[arg(long, value_enum, default_value_t = Entry::Batch)]
    entry: Entry,
    /// Backends to time, the first the ratios' base (default: of `avx512`,
    /// `pext`, `hybrid-avx512-pext`, `avx2` and `hybrid-avx2-pext`, in this
    /// order, those this CPU runs).
    #[arg(long)]
    backend: Vec<String>,
    /// Seconds to run: a shared host's state changes every few seconds,
    /// and a short run sees one.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
    seconds: u64,
}

#[cfg(target_arch = "x86_64")]
fn main() {
    imp::main(Args::parse());
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    let _ = Args::parse();
    eprintln!("core_share: x86-64 only (its issue-width probe is x86-64 assembly); nothing run");
}

#[cfg(target_arch = "x86_64")]
mod imp {
    use super::{Args, Entry, Piece};
    use hq::{Backend, Bitboard, Slider, SliderAttacks, Square, WithBackend};
    use hq_bench_stats::median;
    use std::hint::black_box;
    use std::time::Instant;

    /// Occupancies per timed batch run, and runs per round.
    const OCCUPANCIES: usize = 64;
    const REPEATS: usize = 5;

    /// Cycles per nanosecond: a chain of dependent 64-bit `imul`s, 3 cycles
    /// each on every x86-64 core this project measures.
    fn ghz() -> f64 {
        let n: u64 = 30_000_000;
        let start = Instant::now();
        // SAFETY: register arithmetic only; `n` is a multiple of 4, so the
        // loop ends.
        unsafe {
            std::arch::asm!(
                "2:", "imul {x}, {x}", "imul {x}, {x}", "imul {x}, {x}", "imul {x}, {x}",
                "sub {n}, 4", "jnz 2b",
                x = inout(reg) 3u64 => _, n = inout(reg) n => _,
                options(nomem, nostack),
            )
        };
        3.0 * n as f64 / start.elapsed().as_nanos() as f64
    }

    /// Instructions per nanosecond of a loop of independent adds (eleven
    /// adds on six registers, the counter's `sub` and the branch).
    fn adds_per_ns() -> f64 {
        let n: u64 = 1_200_000;
        let start = Instant::now();
        // SAFETY: register arithmetic only; `n` is a multiple of 12, so the
        // loop ends.
        unsafe {
            std::arch::asm!(
                "2:",
                "add {a}, 1", "add {b}, 1", "add {c}, 1", "add {d}, 1", "add {e}, 1", "add {f}, 1",
                "add {a}, 1", "add {b}, 1", "add {c}, 1", "add {d}, 1", "add {e}, 1",
                "sub {n}, 12", "jnz 2b",
                a = inout(reg) 0u64 => _, b = inout(reg) 0u64 => _, c = inout(reg) 0u64 => _,
                d = inout(reg) 0u64 => _, e = inout(reg) 0u64 => _, f = inout(reg) 0u64 => _,
                n = inout(reg) n => _,
                options(nomem, nostack),
            )
        };
        n as f64 / start.elapsed().as_nanos() as f64
    }

    /// One backend's lookups of every square on every occupancy, `REPEATS`
    /// times, in the backend's job (compiled for its level, the lookups
    /// inlined): a batch per occupancy, or single lookups.
    struct Lookups<'a> {
        entry: Entry,
        slider: Slider,
        squares: &'a [Square],
        occupancies: &'a [Bitboard],
    }

    impl WithBackend for Lookups<'_> {
        /// Nanoseconds per lookup.
        type Output = f64;
        #[inline(always)]
        fn run<B: SliderAttacks>(self, t: B) -> f64 {
            let mut out = hq_benches::BatchOut::new();
            let out = &mut out.0;
            let start = Instant::now();
            let mut sink = 0;
            for _ in 0..REPEATS {
                for &occupancy in self.occupancies {
                    if self.entry == Entry::Single {
                        for &sq in self.squares {
                            sink ^= self.slider.single(t, sq, black_box(occupancy)).0;
                        }
                        continue;
                    }
                    match self.slider {
                        Slider::Rook => t.rook_attacks_batch(self.squares, occupancy, out),
                        Slider::Bishop => t.bishop_attacks_batch(self.squares, occupancy, out),
                        Slider::Queen => t.queen_attacks_batch(self.squares, occupancy, out),
                    }
                    sink ^= black_box(&*out).iter().fold(0, |a, b| a ^ b.0);
                }
            }
            black_box(sink);
            let lookups = REPEATS * self.occupancies.len() * self.squares.len();
            start.elapsed().as_nanos() as f64 / lookups as f64
        }
    }

    pub fn main(args: Args) {
        let slider = match args.piece {
            Piece::Queen => Slider::Queen,
            Piece::Rook => Slider::Rook,
            Piece::Bishop => Slider::Bishop,
        };
        let backends: Vec<Backend> = if args.backend.is_empty() {
            [
                "avx512",
                "pext",
                "hybrid-avx512-pext",
                "avx2",
                "hybrid-avx2-pext",
            ]
            .iter()
            .filter_map(|n| Backend::from_name(n).ok())
            .filter(|b| b.is_supported())
            .collect()
        } else {
            let named = args.backend.iter().map(|n| Backend::from_name(n));
            match named
                .map(|b| b.and_then(|b| Ok(b.check_supported()?)))
                .collect()
            {
                Ok(backends) => backends,
                Err(e) => {
                    eprintln!("core_share: {e}");
                    std::process::exit(2);
                }
            }
        };
        if backends.is_empty() {
            eprintln!(
                "core_share: none of avx512, pext, avx2 and their hybrids runs on this CPU; nothing run"
            );
            return;
        }
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut r = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let squares: Vec<Square> = (0..64)
            .map(|_| Square::from_index_masked(r() as u8))
            .collect();
        let occupancies: Vec<Bitboard> = (0..OCCUPANCIES)
            .map(|_| Bitboard(r() & r() & r() | r() & r()))
            .collect();
        let ghz = ghz();
        let mut times = vec![Vec::new(); backends.len()];
        let mut probes = Vec::new();
        let start = Instant::now();
        while start.elapsed().as_secs() < args.seconds {
            let before = adds_per_ns() / ghz;
            for (b, t) in backends.iter().zip(&mut times) {
                let job = Lookups {
                    entry: args.entry,
                    slider,
                    squares: &squares,
                    occupancies: &occupancies,
                };
                t.push(hq::with_backend(*b, job).unwrap_or_else(|e| panic!("{e}")));
            }
            probes.push((before, adds_per_ns() / ghz));
        }
        let mut all: Vec<f64> = probes.iter().flat_map(|&(a, b)| [a, b]).collect();
        all.sort_by(f64::total_cmp);
        let quantile = |q: usize| all[(all.len() - 1) * q / 100];
        let best = quantile(95);
        let state = |&(a, b): &(f64, f64)| {
            if a.min(b) >= 0.85 * best {
                Some(true)
            } else if a.max(b) <= 0.7 * best {
                Some(false)
            } else {
                None
            }
        };
        let rounds = |own: bool| -> Vec<usize> {
            (0..probes.len())
                .filter(|&i| state(&probes[i]) == Some(own))
                .collect()
        };
        let (alone, shared) = (rounds(true), rounds(false));
        println!(
            "{slider:?} {}, {} rounds at {ghz:.2} GHz: {} with the core to itself, {} shared, {} between (left out)",
            match args.entry {
                Entry::Batch => "batches",
                Entry::Single => "single lookups",
            },
            probes.len(),
            alone.len(),
            shared.len(),
            probes.len() - alone.len() - shared.len(),
        );
        println!(
            "issue rate of the probe, instructions per cycle: 5 % {:.1}, median {:.1}, 95 % {best:.1}",
            quantile(5),
            quantile(50),
        );
        if quantile(5) > 0.7 * best {
            println!(
                "one state only in this run (its slowest probes within 0.7 of the fastest): the columns are not two states"
            );
        }
        println!(
            "{:20} | {:>21} | {:>21}",
            "backend", "core to itself", "shared"
        );
        for (b, t) in backends.iter().zip(&times) {
            let cell = |rs: &[usize]| {
                if rs.is_empty() {
                    return "no rounds".to_string();
                }
                let mut speeds: Vec<f64> = rs.iter().map(|&i| t[i]).collect();
                let mut ratios: Vec<f64> = rs.iter().map(|&i| times[0][i] / t[i]).collect();
                let (speed, ratio) = (1000.0 / median(&mut speeds), median(&mut ratios));
                format!("{speed:6.0} M/s {ratio:5.2}x")
            };
            println!(
                "{:20} | {:>21} | {:>21}",
                b.name(),
                cell(&alone),
                cell(&shared)
            );
        }
    }
}
