//! The facade's free functions against the backend they chose and a job,
//! timed by interleaved rounds (A B C, B C A, ...) and the median: a quick,
//! steady comparison of the call mechanism. Each row's figure is against
//! the first row, the backend the plan chose for that entry point; its
//! `-inlined` row runs the token's methods inlined into loops at this
//! build's level, what a forced portable build's free functions are
//! compared with.
//!
//! ```text
//! cargo run --release -p hq-benches --example free_functions [-- --rounds 41 --workloads batch,setwise-few]
//! ```

use clap::Parser;
use hq::{Backend, SliderAttacks, WithBackend};
use hq_benches::{
    Data, EngineLoop, Facade, Inlined, Job, Lookup, Ours, Piece, Workload, lookups_per_iteration,
    run,
};
use std::hint::black_box;
use std::time::Instant;

/// Free functions against their backend, interleaved.
#[derive(Parser)]
struct Args {
    /// Timed rounds per row (the median is printed).
    #[arg(long, default_value_t = 41)]
    rounds: usize,
    /// The workloads (comma-separated names of the bench matrix's columns).
    #[arg(long, value_delimiter = ',', default_value = "throughput,latency")]
    workloads: Vec<String>,
}

type Timed = Box<dyn Fn(&Data, Workload, Piece) -> u64>;

fn timed<L: Lookup>(lookup: L) -> Timed {
    Box::new(move |data, workload, piece| run(lookup, workload, piece, data))
}

fn main() {
    let args = Args::parse();
    let data = Data::new();
    struct Token;
    impl WithBackend for Token {
        type Output = Timed;
        fn run<B: SliderAttacks>(self, token: B) -> Timed {
            timed(Ours(token))
        }
    }
    /// The token's methods inlined into loops at this build's level: what
    /// a forced portable build's free functions are compared with.
    struct InlinedToken;
    impl WithBackend for InlinedToken {
        type Output = Timed;
        fn run<B: SliderAttacks>(self, token: B) -> Timed {
            timed(Inlined(token))
        }
    }
    let plan = hq::selection().plan;
    println!("{}", hq::selection());
    for name in &args.workloads {
        let workload = Workload::ALL
            .into_iter()
            .chain(Workload::ENGINE)
            .find(|w| w.name() == name)
            .unwrap_or_else(|| panic!("unknown workload {name:?}"));
        for piece in Piece::ALL {
            let slider = piece.slider();
            let chosen: Backend = match workload {
                Workload::Batch | Workload::Engine(EngineLoop::Batch) => plan.batch.get(slider),
                Workload::Setwise(_) | Workload::Engine(EngineLoop::Setwise(_)) => {
                    plan.setwise.get(slider)
                }
                _ => plan.single.get(slider),
            };
            let rows: Vec<(String, Timed)> = vec![
                (
                    chosen.name().to_owned(),
                    hq::with_backend(chosen, Token).expect("the chosen backend runs"),
                ),
                (
                    format!("{}-inlined", chosen.name()),
                    hq::with_backend(chosen, InlinedToken).expect("the chosen backend runs"),
                ),
                ("hq".to_owned(), timed(Facade)),
                ("hq-job".to_owned(), timed(Job)),
            ];
            let mut samples = vec![Vec::new(); rows.len()];
            for round in 0..args.rounds + 1 {
                for k in 0..rows.len() {
                    let i = (k + round) % rows.len();
                    let start = Instant::now();
                    black_box((rows[i].1)(&data, workload, piece));
                    let ns = start.elapsed().as_nanos() as f64;
                    if round > 0 {
                        samples[i].push(ns / lookups_per_iteration(workload) as f64);
                    }
                }
            }
            let medians: Vec<f64> = samples
                .iter_mut()
                .map(|s| {
                    s.sort_by(f64::total_cmp);
                    s[s.len() / 2]
                })
                .collect();
            let base = 1000.0 / medians[0];
            print!("{:10} {:6}", workload.name(), piece.name());
            for ((name, _), m) in rows.iter().zip(&medians) {
                let mps = 1000.0 / m;
                print!("  {name} {mps:6.0} ({:.2}x)", mps / base);
            }
            println!();
        }
    }
}
