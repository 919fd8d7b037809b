//! Perft speed of `hq`'s choice (`auto`: what `perft --backend auto` runs),
//! of every supported backend, and of the board options that keep state
//! (`hq-chess/<option>/<backend>`: the reversed occupancy, Mack's in-check
//! test, the incremental attack table; see `hq_chess::upkeep`) against the
//! peers, measured in the same run on the same positions: cozy-chess's move
//! generator with bulk counting, shakmaty's `perft`, and Stockfish's
//! `go perft` over UCI.
//!
//! ```text
//! cargo run --release -p hq-chess --example peers --features peers-board-options -- [--quick] [--repeat N] [--csv] [--seed S] [--prune F] [--no-peers]
//! ```
//!
//! Default workloads: start position depth 6 and Kiwipete depth 5 (`--quick`:
//! depths 5 and 4), then the hash perft of the `hq` rows (`auto`, the free
//! functions, each backend): start position depth 6 and Kiwipete depth 5
//! with a 64 MiB transposition table (`--quick`: 5 and 4), the shape of an
//! engine's search. Each engine's best of `--repeat` runs (default 3) is
//! kept, one thread each; the runs go in rounds over every engine after a
//! warm-up run, so that no engine is favoured by its place in the order. `--csv` adds machine-readable lines
//! `csv,workload,engine,nodes,seconds,nps` for the bench matrix;
//! `--hash-only` runs the hash perft alone (the matrix runs it again in its
//! `-C target-cpu=native` build, where the free functions' perft is
//! compiled as engines build it).
//! Every count is checked against the known perft value; Stockfish is
//! skipped with a message if it is not installed.

#[path = "../peers/mod.rs"]
mod peers;

use clap::Parser;
use hq::{Backend, SliderAttacks, WithBackend};
#[cfg(feature = "peers-board-options")]
use hq_chess::perft_with;
#[cfg(feature = "peers-board-options")]
use hq_chess::upkeep::{AttackTable, MackCheck, Reversed, Upkeep};
use hq_chess::{FreeFunctions, HashTable, Position, perft, perft_hashed};
use std::cell::RefCell;
#[cfg(feature = "peers-board-options")]
use std::marker::PhantomData;
use std::time::Instant;

/// Perft speed of every backend and the peers.
#[derive(Parser)]
struct Args {
    /// Shallower workloads (start position d5, Kiwipete d4).
    #[arg(long)]
    quick: bool,
    /// Runs per engine and workload; the fastest is kept.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..))]
    repeat: u16,
    /// Also print `csv,workload,engine,nodes,seconds,nps` lines.
    #[arg(long)]
    csv: bool,
    /// Only the hash perft of the `hq` rows (the bench matrix runs it again
    /// in its `-C target-cpu=native` build, as engines are built).
    #[arg(long)]
    hash_only: bool,
    /// Leave out the peers (cozy-chess, shakmaty, Stockfish).
    #[arg(long)]
    no_peers: bool,
    /// The seed of each round's order of engines.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// After the first round, time no further an engine more than this
    /// many times slower than the fastest of the workload.
    #[arg(long)]
    prune: Option<f64>,
    /// Only these rows (`auto`, `free-functions`, backend names, ...; the
    /// bench matrix's later processes run the rows its first one found
    /// within reach of the fastest).
    #[arg(long, value_delimiter = ',')]
    rows: Vec<String>,
}

/// A xorshift64 generator for the rounds' orders.
struct Shuffle(u64);

impl Shuffle {
    /// `order` in a fresh random order (Fisher-Yates).
    fn shuffle(&mut self, order: &mut [usize]) {
        for i in (1..order.len()).rev() {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            order.swap(i, (self.0 % (i as u64 + 1)) as usize);
        }
    }
}

/// A position, a depth and the known count; `hashed`: perft with a
/// transposition table of [`TABLE_MIB`] (`hq_chess::perft_hashed`), run by
/// the `hq` rows only (the peers have no such perft).
struct Workload {
    name: &'static str,
    fen: &'static str,
    depth: u32,
    expected: u64,
    hashed: bool,
}

/// The hash perft's table: 64 MiB, far beyond the caches, as an engine's.
const TABLE_MIB: usize = 64;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

const FULL: [Workload; 4] = [
    Workload {
        name: "startpos d6",
        fen: hq_chess::STARTPOS_FEN,
        depth: 6,
        expected: 119_060_324,
        hashed: false,
    },
    Workload {
        name: "kiwipete d5",
        fen: KIWIPETE,
        depth: 5,
        expected: 193_690_690,
        hashed: false,
    },
    Workload {
        name: "startpos d6 hash",
        fen: hq_chess::STARTPOS_FEN,
        depth: 6,
        expected: 119_060_324,
        hashed: true,
    },
    Workload {
        name: "kiwipete d5 hash",
        fen: KIWIPETE,
        depth: 5,
        expected: 193_690_690,
        hashed: true,
    },
];

const QUICK: [Workload; 4] = [
    Workload {
        name: "startpos d5",
        fen: hq_chess::STARTPOS_FEN,
        depth: 5,
        expected: 4_865_609,
        hashed: false,
    },
    Workload {
        name: "kiwipete d4",
        fen: KIWIPETE,
        depth: 4,
        expected: 4_085_603,
        hashed: false,
    },
    Workload {
        name: "startpos d5 hash",
        fen: hq_chess::STARTPOS_FEN,
        depth: 5,
        expected: 4_865_609,
        hashed: true,
    },
    Workload {
        name: "kiwipete d4 hash",
        fen: KIWIPETE,
        depth: 4,
        expected: 4_085_603,
        hashed: true,
    },
];

/// One timed perft, monomorphized for the backend.
struct TimedPerft<'a>(&'a Position, u32);

impl WithBackend for TimedPerft<'_> {
    type Output = (u64, f64);
    fn run<B: SliderAttacks>(self, token: B) -> (u64, f64) {
        let start = Instant::now();
        let nodes = perft(self.0, self.1, token);
        (nodes, start.elapsed().as_secs_f64())
    }
}

/// One timed hash perft (the table cleared first, untimed), monomorphized
/// for the backend.
struct TimedHashPerft<'a>(&'a Position, u32, &'a RefCell<HashTable>);

impl WithBackend for TimedHashPerft<'_> {
    type Output = (u64, f64);
    fn run<B: SliderAttacks>(self, token: B) -> (u64, f64) {
        let mut table = self.2.borrow_mut();
        table.clear();
        let start = Instant::now();
        let nodes = perft_hashed(self.0, self.1, token, &mut table);
        (nodes, start.elapsed().as_secs_f64())
    }
}

/// A perft job, plain or hashed as `w` says.
fn timed<'a>(
    w: &Workload,
    position: &'a Position,
    table: &'a RefCell<HashTable>,
) -> impl WithBackend<Output = (u64, f64)> + 'a {
    struct Either<'a>(Option<&'a RefCell<HashTable>>, &'a Position, u32);
    impl WithBackend for Either<'_> {
        type Output = (u64, f64);
        #[inline(always)]
        fn run<B: SliderAttacks>(self, token: B) -> (u64, f64) {
            match self.0 {
                Some(table) => TimedHashPerft(self.1, self.2, table).run(token),
                None => TimedPerft(self.1, self.2).run(token),
            }
        }
    }
    Either(w.hashed.then_some(table), position, w.depth)
}

/// One timed perft with the board keeping what `U` keeps.
#[cfg(feature = "peers-board-options")]
struct TimedPerftWith<'a, U>(&'a Position, u32, PhantomData<U>);

#[cfg(feature = "peers-board-options")]
impl<U: Upkeep> WithBackend for TimedPerftWith<'_, U> {
    type Output = (u64, f64);
    fn run<B: SliderAttacks>(self, token: B) -> (u64, f64) {
        let start = Instant::now();
        let nodes = perft_with::<U, B>(self.0, self.1, token);
        (nodes, start.elapsed().as_secs_f64())
    }
}

/// `(row name, timed run)` for every maintained-board row this CPU runs.
type Timed<'a> = Box<dyn Fn(&Position, u32) -> Result<(u64, f64), String> + 'a>;

/// The maintained-board rows: each option on the pair-capable backends
/// (their kernels take the kept reversed occupancy) and the fastest others.
/// Each token type is named here rather than reached through
/// `hq::with_backend`, which would compile the perft once per backend of the
/// registry for every option (39 copies instead of 21: the heaviest part of
/// this example's build).
///
/// They build only with the `peers-board-options` feature (the full bench
/// matrix turns it on; the quick one, a pipeline check, leaves their build
/// time out).
#[cfg(not(feature = "peers-board-options"))]
fn maintained_rows() -> Vec<(String, Timed<'static>)> {
    eprintln!("SKIPPED the board-option rows: built with the peers-board-options feature");
    Vec::new()
}

#[cfg(feature = "peers-board-options")]
fn maintained_rows() -> Vec<(String, Timed<'static>)> {
    fn row<U: Upkeep, B: SliderAttacks>() -> Option<(String, Timed<'static>)> {
        let token = B::require().ok()?;
        Some((
            format!("hq-chess/{}/{}", U::NAME, B::NAME),
            Box::new(move |p: &Position, depth| {
                Ok(token.run_compiled(
                    #[inline(always)]
                    |t| TimedPerftWith::<U>(p, depth, PhantomData).run(t),
                ))
            }),
        ))
    }
    fn rows_of<B: SliderAttacks>(rows: &mut Vec<(String, Timed<'static>)>) {
        rows.extend(row::<Reversed, B>());
        rows.extend(row::<MackCheck, B>());
        rows.extend(row::<AttackTable, B>());
    }
    use hq::backends::*;
    let mut rows = Vec::new();
    rows_of::<Pext>(&mut rows);
    rows_of::<Avx512>(&mut rows);
    rows_of::<Avx2>(&mut rows);
    rows_of::<ScalarRankTable>(&mut rows);
    rows_of::<ScalarReverse>(&mut rows);
    rows_of::<ReverseBitboards>(&mut rows);
    rows_of::<Classic>(&mut rows);
    rows
}

fn main() {
    let args = Args::parse();
    let (csv, repeat) = (args.csv, usize::from(args.repeat));
    let workloads = if args.quick { &QUICK } else { &FULL };
    let workloads: Vec<&Workload> = workloads
        .iter()
        .filter(|w| w.hashed || !args.hash_only)
        .collect();

    let mut engines: Vec<String> = vec![
        "hq-chess/auto".to_owned(),
        format!("hq-chess/{}", FreeFunctions::NAME),
    ];
    engines.extend(Backend::supported().map(|b| format!("hq-chess/{}", b.name())));
    let maintained = match args.hash_only {
        true => Vec::new(),
        false => maintained_rows(),
    };
    engines.extend(maintained.iter().map(|(name, _)| name.clone()));
    let peers = !args.hash_only && !args.no_peers;
    if peers {
        engines.extend(
            ["cozy-chess 0.3", "shakmaty 0.30.1", "stockfish (go perft)"].map(String::from),
        );
    }

    let mut stockfish = match peers {
        false => None,
        true => peers::Stockfish::start()
            .map_err(|e| eprintln!("SKIPPED stockfish: {e}"))
            .ok(),
    };
    // rows[engine][workload] = Mnps or a note.
    let mut rows: Vec<Vec<String>> = vec![Vec::new(); engines.len()];
    let mut failed = false;
    let table = RefCell::new(HashTable::new(TABLE_MIB));
    let table = &table;
    let mut shuffle = Shuffle(args.seed | 1);
    let mut huge_pages_reported = false;
    for &w in &workloads {
        let position = Position::from_fen(w.fen).expect("workload FENs are valid");
        let position = &position;
        // Every engine's run, in the table's order.
        type Run<'a> = Box<dyn FnMut() -> Result<(u64, f64), String> + 'a>;
        let mut runs: Vec<Run> = vec![
            Box::new(|| Ok(hq::with_active_backend(timed(w, position, table)))),
            // The free functions, from this program's own code (no job).
            Box::new(|| Ok(timed(w, position, table).run(FreeFunctions::get()))),
        ];
        for b in Backend::supported() {
            runs.push(Box::new(move || {
                hq::with_backend(b, timed(w, position, table)).map_err(|e| e.to_string())
            }));
        }
        let plain_only = || Err("plain perft only (no hash perft)".to_string());
        for (_, run) in &maintained {
            match w.hashed {
                false => runs.push(Box::new(move || run(position, w.depth))),
                true => runs.push(Box::new(plain_only)),
            }
        }
        if w.hashed || !peers {
            let missing = engines.len() - runs.len();
            runs.extend((0..missing).map(|_| -> Run { Box::new(plain_only) }));
        } else {
            runs.push(Box::new(|| peers::time_cozy(w.fen, w.depth)));
            runs.push(Box::new(|| peers::time_shakmaty(w.fen, w.depth)));
            let sf = &mut stockfish;
            runs.push(Box::new(move || match sf.as_mut() {
                Some(sf) => sf.perft(w.fen, w.depth, false),
                None => Err("not installed".to_string()),
            }));
        }
        // A warm-up run (clock ramp-up, tables touched), then `repeat`
        // rounds over every engine, each in a fresh random order, so that
        // no engine is favoured by its place in the order; each keeps its
        // fastest run for the table, and `--csv` prints every run.
        let selected = |i: usize| {
            let row = engines[i].strip_prefix("hq-chess/").unwrap_or(&engines[i]);
            let row = row.split_whitespace().next().unwrap_or(row);
            args.rows.is_empty() || args.rows.iter().any(|r| r == row)
        };
        let mut order: Vec<usize> = (0..runs.len()).filter(|&i| selected(i)).collect();
        let warm_up = order
            .iter()
            .copied()
            .find(|&i| i == 1)
            .or(order.first().copied());
        if let Some(i) = warm_up {
            let _ = runs[i]();
        }
        if w.hashed && csv && !huge_pages_reported {
            // The table is touched now: its pages are what they will be.
            let share = table.borrow().huge_page_share();
            println!(
                "state,huge_pages,{}",
                share.map_or("unknown".into(), |s| s.to_string())
            );
            huge_pages_reported = true;
        }
        let mut results: Vec<Option<Result<(u64, f64), String>>> = (0..runs.len())
            .map(|i| (!selected(i)).then(|| Err("not among --rows".to_string())))
            .collect();
        for round in 0..repeat {
            shuffle.shuffle(&mut order);
            for &i in &order {
                if matches!(results[i], Some(Err(_))) {
                    continue;
                }
                let outcome = runs[i]();
                if let (true, Ok((nodes, secs))) = (csv, &outcome) {
                    let nps = *nodes as f64 / secs.max(1e-9);
                    println!(
                        "csv,{},{},{nodes},{secs:.6},{nps:.0},{round}",
                        w.name, engines[i]
                    );
                }
                results[i] = Some(match (results[i].take(), outcome) {
                    (_, Err(e)) => Err(e),
                    (Some(Ok(best)), Ok(now)) if best.1 <= now.1 => Ok(best),
                    (_, Ok(now)) => Ok(now),
                });
            }
            // Engines too slow to decide anything are timed no further.
            if let (0, Some(factor)) = (round, args.prune) {
                let time = |r: &Option<Result<(u64, f64), String>>| match r {
                    Some(Ok((nodes, secs))) => Some(secs / *nodes as f64),
                    _ => None,
                };
                let fastest = results
                    .iter()
                    .filter_map(time)
                    .fold(f64::INFINITY, f64::min);
                order.retain(|&i| time(&results[i]).is_none_or(|t| t <= factor * fastest));
            }
        }
        let results: Vec<Result<(u64, f64), String>> = results
            .into_iter()
            .map(|r| r.unwrap_or_else(|| Err("not run".to_string())))
            .collect();
        for (i, result) in results.into_iter().enumerate() {
            let cell = match result {
                Ok((nodes, secs)) => {
                    let nps = nodes as f64 / secs.max(1e-9);
                    if nodes == w.expected {
                        format!("{:.1}", nps / 1e6)
                    } else {
                        failed = true;
                        format!("WRONG {nodes} (expected {})", w.expected)
                    }
                }
                Err(e) => format!("skipped: {e}"),
            };
            rows[i].push(cell);
        }
    }

    println!("\nPerft speed, million nodes per second (best of {repeat}, one thread):\n");
    let header: Vec<&str> = workloads.iter().map(|w| w.name).collect();
    println!("| engine | {} |", header.join(" | "));
    println!("|---|{}", "---:|".repeat(header.len()));
    for (engine, cells) in engines.iter().zip(&rows) {
        println!("| {engine} | {} |", cells.join(" | "));
    }
    if failed {
        eprintln!("some node counts were wrong");
        std::process::exit(1);
    }
}
