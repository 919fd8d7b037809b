//! The criterion driver: every row (backend, facade, reference, peer) is
//! checked against the oracle, then every workload is timed, interleaved by
//! workload so that the figures compared in one table column are measured
//! close together in time.
//!
//! Progress goes to stdout as `hq-bench: ...` lines (what `cargo xtask
//! bench-matrix` shows); with `HQ_BENCH_META=<path>` the run also writes what
//! it measured and what it skipped as JSON, and with `HQ_BENCH_ROUNDS` it
//! times in its own rounds instead of criterion (`HQ_BENCH_OUT`: the samples).

use crate::reference::{Kindergarten, KoggeStone, ObstructionDifference, Rotated, SetwiseHq};
use crate::{
    Crowd, Data, Facade, INPUTS, Inlined, Job, LatencyFacade, LatencyJob, Lookup, Ours, PerPiece,
    Piece, ReadsOnly, Workload, lookups_per_iteration,
};
use criterion::{Criterion, Throughput};
use hq::{Backend, Bitboard, SliderAttacks, Square, WithBackend};
use hq_bench_format::{BenchMeta, ChoiceNames, PositionCheck, TimedCell};
pub use hq_bench_format::{INLINED_SUFFIX, PER_PIECE_SUFFIX, RowKind, RowMeta as Row, Skipped};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The seed of the rounds' orders: `HQ_BENCH_SEED` (the bench matrix gives
/// each process its own, so that no order is every process's), else a fixed one.
fn seed() -> u64 {
    std::env::var("HQ_BENCH_SEED")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0x2545_F491_4F6C_DD1D)
}

/// `HQ_BENCH_ROUNDS=<rounds>,<sample microseconds>`.
#[derive(Clone, Copy)]
struct Rounds {
    rounds: usize,
    sample: Duration,
}

impl Rounds {
    fn parse(spec: &str) -> Option<Rounds> {
        let (rounds, micros) = spec.split_once(',')?;
        Some(Rounds {
            rounds: rounds.trim().parse().ok().filter(|&r| r > 0)?,
            sample: Duration::from_micros(micros.trim().parse().ok()?),
        })
    }
}

type Timed = Box<dyn Fn(&Data) -> u64>;

struct Entry {
    row: usize,
    piece: Piece,
    workload: Workload,
    job: Timed,
    /// The plan the facade's free functions must have installed while the
    /// entry runs (the facade rows: the class's or the calibrated plan).
    plan: Option<hq::Plan>,
}

/// The set of rows to time in one run.
pub struct Bench {
    /// The workloads timed ([`Bench::keep_workloads`]).
    keep: fn(Workload) -> bool,
    data: Data,
    rows: Vec<Row>,
    entries: Vec<Entry>,
    skipped: Vec<Skipped>,
    checked_cases: u64,
}

/// Installs `plan` for the facade's next rows. A facade without `std`
/// has one plan, fixed at compile time: the only one its rows are given.
fn install(plan: hq::Plan) {
    #[cfg(feature = "facade-std")]
    hq::set_plan(plan).expect("a plan hq chose or measured here");
    #[cfg(not(feature = "facade-std"))]
    assert_eq!(
        plan,
        hq::selection().plan,
        "a facade without std runs its own plan only"
    );
}

/// How the facade chooses in this build.
fn mode_name(mode: hq::Mode) -> &'static str {
    match mode {
        hq::Mode::Forced => "forced",
        hq::Mode::Compiled => "compiled",
        _ => "run-time",
    }
}

/// How the facade chose in this build, and what.
fn choice_text() -> String {
    let s = hq::selection();
    format!("{}: {}", mode_name(s.mode), s.plan)
}

impl Bench {
    /// An empty run over the fixed inputs (and a fresh 64 MiB buffer).
    pub fn new() -> Bench {
        Bench {
            keep: |_| true,
            data: Data::new(),
            rows: Vec::new(),
            entries: Vec::new(),
            skipped: Vec::new(),
            checked_cases: 0,
        }
    }

    /// Times only the workloads `keep` accepts (rows added later).
    pub fn keep_workloads(&mut self, keep: fn(Workload) -> bool) {
        self.keep = keep;
    }

    /// Adds `lookup` after checking it against the oracle (panics on any
    /// disagreement: a wrong implementation is never timed).
    pub fn add<L: Lookup>(&mut self, name: &str, label: &str, kind: RowKind, lookup: L) {
        self.add_on_plan(name, label, kind, lookup, None);
    }

    /// [`Bench::add`] for a row of the facade, run with `plan` installed
    /// (checked and timed so: the runner installs it before each sample).
    fn add_on_plan<L: Lookup>(
        &mut self,
        name: &str,
        label: &str,
        kind: RowKind,
        lookup: L,
        plan: Option<hq::Plan>,
    ) {
        if let Some(plan) = plan {
            install(plan);
        }
        self.checked_cases += check_against_oracle(name, lookup, &self.data);
        let row = self.push_row(name, label, kind);
        for piece in Piece::ALL {
            for workload in Workload::ALL.into_iter().chain(Workload::ENGINE) {
                let own = match workload {
                    Workload::Engine(_) => L::HAS_ENGINE,
                    Workload::Batch => L::HAS_BATCH,
                    Workload::Setwise(_) => L::HAS_SETWISE,
                    _ => L::HAS_SINGLE,
                };
                if own && (self.keep)(workload) {
                    self.push(row, piece, workload, lookup, plan);
                }
            }
        }
    }

    fn push_row(&mut self, name: &str, label: &str, kind: RowKind) -> usize {
        assert!(
            self.rows.iter().all(|r| r.name != name),
            "two rows named {name}"
        );
        self.rows.push(Row {
            name: name.to_owned(),
            label: label.to_owned(),
            kind,
        });
        self.rows.len() - 1
    }

    fn push<L: Lookup>(
        &mut self,
        row: usize,
        piece: Piece,
        workload: Workload,
        lookup: L,
        plan: Option<hq::Plan>,
    ) {
        self.entries.push(Entry {
            row,
            piece,
            workload,
            job: Box::new(move |data| crate::run(lookup, workload, piece, data)),
            plan,
        });
    }

    /// Records a row that cannot run here, and why.
    pub fn skip(&mut self, name: &str, why: &str) {
        println!("hq-bench: SKIPPED {name}: {why}");
        self.skipped.push(Skipped {
            name: name.to_owned(),
            why: why.to_owned(),
        });
    }

    /// One backend of `hq` through its token; skipped (with the reason) if
    /// this CPU lacks it.
    pub fn add_backend(&mut self, backend: Backend) {
        self.add_backend_rows(backend, false);
    }

    /// [`Bench::add_backend`], and with `per_piece` its per-piece row
    /// ([`PerPiece`]).
    fn add_backend_rows(&mut self, backend: Backend, per_piece: bool) {
        struct Add<'a>(&'a mut Bench, bool);
        impl WithBackend for Add<'_> {
            type Output = ();
            fn run<B: SliderAttacks>(self, token: B) {
                self.0.add(
                    B::NAME,
                    &format!(
                        "hq backend {} (token, loops compiled for {})",
                        B::NAME,
                        hq::cpu::Level::for_jobs(B::LEVEL)
                    ),
                    RowKind::Backend,
                    Ours(token),
                );
                if !self.1 {
                    return;
                }
                self.0.add(
                    &format!("{}{PER_PIECE_SUFFIX}", B::NAME),
                    &format!(
                        "hq backend {}: set-wise by a loop over its single lookups",
                        B::NAME
                    ),
                    RowKind::PerPiece,
                    PerPiece(token),
                );
            }
        }
        if let Err(e) = hq::with_backend(backend, Add(self, per_piece)) {
            self.skip(backend.name(), &e.to_string());
        }
    }

    /// Every backend of `hq` through its token, each with its per-piece row.
    pub fn add_backends(&mut self) {
        for &backend in Backend::all() {
            self.add_backend_rows(backend, true);
        }
    }

    /// `backend`'s [`Inlined`] row, for a portable backend whose jobs run
    /// at another level than the build's (on x86-64, v3); none for the
    /// others, whose token row is compiled at their own level already.
    pub fn add_inlined(&mut self, backend: Backend) {
        struct Add<'a>(&'a mut Bench);
        impl WithBackend for Add<'_> {
            type Output = ();
            fn run<B: SliderAttacks>(self, token: B) {
                let level = hq::cpu::Level::for_jobs(B::LEVEL);
                if B::LEVEL != hq::cpu::Level::Baseline || level == B::LEVEL {
                    return;
                }
                self.0.add(
                    &format!("{}{INLINED_SUFFIX}", B::NAME),
                    &format!(
                        "hq backend {}: its token inlined into loops compiled for this build's level",
                        B::NAME
                    ),
                    RowKind::Inlined,
                    Inlined(token),
                );
            }
        }
        // A backend this CPU lacks has no token: its row is skipped with it.
        let _ = hq::with_backend(backend, Add(self));
    }

    /// The facade's free functions: on the build's choice, and on the plan
    /// a calibration measures here (`hq::calibrate`, then each row's plan is
    /// installed before each of its samples).
    pub fn add_facade(&mut self) {
        let chosen = hq::selection().plan;
        let label = format!("hq free functions ({})", choice_text());
        self.add_on_plan("hq", &label, RowKind::Facade, Facade, Some(chosen));
        let latency = hq::selection().plan.latency;
        let label = format!("hq::latency free functions (rook / bishop / queen: {latency})");
        self.add_on_plan(
            "hq-latency",
            &label,
            RowKind::Facade,
            LatencyFacade,
            Some(chosen),
        );
        #[cfg(target_arch = "wasm32")]
        self.skip(
            "hq-calibrated",
            "a wasm32 build fixes every cell at compile time: nothing to calibrate",
        );
        #[cfg(all(not(target_arch = "wasm32"), not(feature = "facade-std")))]
        self.skip(
            "hq-calibrated",
            "a facade without std fixes every cell at compile time: nothing to calibrate",
        );
        #[cfg(all(not(target_arch = "wasm32"), feature = "facade-std"))]
        match hq::calibrate() {
            Ok(calibration) => {
                let plan = calibration.plan;
                println!(
                    "hq-bench: calibrated in {:.2} ms: {plan}",
                    calibration.elapsed.as_secs_f64() * 1e3
                );
                let label = format!("hq free functions after hq::calibrate() ({plan})");
                self.add_on_plan("hq-calibrated", &label, RowKind::Facade, Facade, Some(plan));
                let label = format!(
                    "hq::latency free functions after hq::calibrate() ({})",
                    plan.latency
                );
                self.add_on_plan(
                    "hq-latency-calibrated",
                    &label,
                    RowKind::Facade,
                    LatencyFacade,
                    Some(plan),
                );
            }
            Err(e) => self.skip("hq-calibrated", &format!("hq::calibrate failed: {e}")),
        }
        install(chosen);
    }

    /// A loop under `hq::with_active_backend`.
    pub fn add_job(&mut self) {
        let label = format!("loop under hq::with_active_backend ({})", choice_text());
        let chosen = Some(hq::selection().plan);
        self.add_on_plan("hq-job", &label, RowKind::Job, Job, chosen);
        let latency = hq::selection().plan.latency;
        let label =
            format!("loop under hq::latency::with_backend (rook / bishop / queen: {latency})");
        self.add_on_plan("hq-latency-job", &label, RowKind::Job, LatencyJob, chosen);
    }

    /// The reference methods ([`crate::reference`]).
    pub fn add_references(&mut self) {
        let kind = RowKind::Reference;
        self.add(
            "ref-kogge-stone",
            "Kogge-Stone occluded fill (no tables)",
            kind,
            KoggeStone,
        );
        self.add(
            "ref-kindergarten",
            "kindergarten bitboards (multiply, 8x64 tables)",
            kind,
            Kindergarten,
        );
        self.add(
            "ref-rotated",
            "rotated bitboards, rotations per call (64x64 tables)",
            kind,
            Rotated,
        );
        self.add(
            "ref-setwise-hq",
            "set-wise HQ with overflow barriers (the seed's set-wise method)",
            kind,
            SetwiseHq,
        );
        self.add(
            "ref-obstruction-difference",
            "obstruction difference (lzcnt, no tables)",
            kind,
            ObstructionDifference,
        );
    }

    /// The buffer reads of the cache-pressure workload alone (queen group).
    pub fn add_reads_floor(&mut self) {
        let row = self.push_row(
            "reads-only",
            "cache-pressure buffer reads alone, no lookup",
            RowKind::Floor,
        );
        self.push(row, Piece::Queen, Workload::Cache, ReadsOnly, None);
    }

    /// Times every entry: in interleaved rounds when `HQ_BENCH_ROUNDS` is set
    /// (what `cargo xtask bench-matrix` does; see `Bench::run_rounds`),
    /// else with criterion, configured from the command line (`cargo bench`).
    pub fn run(mut self) {
        let selection = hq::selection();
        let order = |e: &Entry| {
            let p = Piece::ALL.iter().position(|&p| p == e.piece).unwrap_or(0);
            let mut all = Workload::ALL.into_iter().chain(Workload::ENGINE);
            let w = all.position(|w| w == e.workload).unwrap_or(0);
            (p, w)
        };
        self.entries.sort_by_key(order);
        println!(
            "hq-bench: {} rows checked against hq::reference ({} cases), {} benchmarks to run",
            self.rows.len(),
            self.checked_cases,
            self.entries.len()
        );
        if let Some(spec) = std::env::var_os("HQ_BENCH_ROUNDS") {
            let spec = spec.to_string_lossy().into_owned();
            let rounds = Rounds::parse(&spec).unwrap_or_else(|| {
                eprintln!(
                    "hq-bench: HQ_BENCH_ROUNDS={spec:?} is not <rounds>,<sample microseconds>"
                );
                std::process::exit(2);
            });
            let check = self.run_rounds(rounds);
            self.exit_on_error(self.write_meta(selection, Some(check)));
            return;
        }
        self.exit_on_error(self.write_meta(selection, None));
        let mut criterion = Criterion::default().configure_from_args();
        let total = self.entries.len();
        let data = &self.data;
        for (k, entry) in self.entries.iter().enumerate() {
            let group_name = self.cell_name(entry);
            println!("hq-bench: [{}/{total}] {group_name}", k + 1);
            let (group_name, row) = group_name.rsplit_once('/').expect("piece/workload/row");
            let mut group = criterion.benchmark_group(group_name);
            group.throughput(Throughput::Elements(
                lookups_per_iteration(entry.workload) as u64
            ));
            if let Some(plan) = entry.plan {
                install(plan);
            }
            group.bench_function(row, |b| b.iter(|| (entry.job)(black_box(data))));
            group.finish();
        }
        criterion.final_summary();
    }

    fn exit_on_error(&self, result: std::io::Result<()>) {
        if let Err(e) = result {
            eprintln!("hq-bench: cannot write HQ_BENCH_META or HQ_BENCH_OUT: {e}");
            std::process::exit(1);
        }
    }

    /// `<piece>/<workload>/<row>`.
    fn cell_name(&self, entry: &Entry) -> String {
        format!(
            "{}/{}/{}",
            entry.piece.name(),
            entry.workload.name(),
            self.rows[entry.row].name
        )
    }

    /// Times every entry in `rounds.rounds` rounds, each entry once per
    /// round for about `rounds.sample` (a whole number of iterations), in an
    /// order shuffled anew every round (the columns' order, and the rows'
    /// within each column, which are timed together), so that no row is
    /// favoured by its place, slow phases of the machine spread over every
    /// row, and the rows of a column see the same phase. Before
    /// the first round every entry runs once (tables and the cache buffer
    /// touched) and the first entries run for 300 ms (clock ramp-up). The
    /// orders come from [`seed`].
    /// first entry is also timed before and after every other entry of each
    /// round: the returned [`PositionCheck`]. Writes the samples as JSON to
    /// `HQ_BENCH_OUT`.
    fn run_rounds(&self, rounds: Rounds) -> PositionCheck {
        let data = &self.data;
        let installed = std::cell::Cell::new(None);
        let time = |entry: &Entry, iterations: u64| {
            if let Some(plan) = entry.plan.filter(|&p| Some(p) != installed.get()) {
                install(plan);
                installed.set(Some(plan));
            }
            let started = Instant::now();
            for _ in 0..iterations {
                black_box((entry.job)(black_box(data)));
            }
            started.elapsed().as_nanos() as f64 / iterations as f64
        };
        // Warm-up, then iterations per sample from a first timing of each entry.
        let warm = Instant::now();
        for entry in &self.entries {
            time(entry, 1);
        }
        while warm.elapsed() < Duration::from_millis(300) {
            for entry in self.entries.iter().take(8) {
                time(entry, 1);
            }
        }
        let iterations: Vec<u64> = self
            .entries
            .iter()
            .map(|entry| {
                let ns = time(entry, 2).max(1.0);
                // A cache-pressure sample is a few thousand DRAM reads per
                // iteration: four times the time, or its spread is ~10 %.
                let scale = if entry.workload == Workload::Cache {
                    4.0
                } else {
                    1.0
                };
                ((scale * rounds.sample.as_nanos() as f64 / ns) as u64).max(1)
            })
            .collect();
        let n = self.entries.len();
        let mut samples = vec![Vec::with_capacity(rounds.rounds); n];
        let (mut first, mut last) = (Vec::new(), Vec::new());
        // The entries by column (piece and workload; they come sorted so):
        // a column's rows are timed one after another, so that what slows
        // the machine for some milliseconds slows the rows a paired ratio
        // divides alike.
        let mut columns: Vec<Vec<usize>> = Vec::new();
        for (i, e) in self.entries.iter().enumerate() {
            match columns.last_mut() {
                Some(c)
                    if self.entries[c[0]].piece == e.piece
                        && self.entries[c[0]].workload == e.workload =>
                {
                    c.push(i)
                }
                _ => columns.push(vec![i]),
            }
        }
        let mut order: Vec<usize> = Vec::with_capacity(n);
        let mut rng = crate::XorShift(seed() | 1);
        let mut shuffle = |v: &mut [usize]| {
            // Fisher-Yates.
            for i in (1..v.len()).rev() {
                v.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
            }
        };
        let started = Instant::now();
        for round in 0..rounds.rounds {
            // A fresh order every round: of the columns, and of the rows in
            // each.
            let mut by_column: Vec<usize> = (0..columns.len()).collect();
            shuffle(&mut by_column);
            order.clear();
            for &c in &by_column {
                let start = order.len();
                order.extend(&columns[c]);
                shuffle(&mut order[start..]);
            }
            // The probe timed last in the previous round is not timed first
            // again right after it (that would time it warm from itself).
            if round > 0 {
                let other = order[n / 2];
                time(&self.entries[other], iterations[other]);
            }
            first.push(time(&self.entries[0], iterations[0]));
            for &i in &order {
                samples[i].push(time(&self.entries[i], iterations[i]));
            }
            last.push(time(&self.entries[0], iterations[0]));
            let done = round + 1;
            let per_round = started.elapsed().as_secs_f64() / done as f64;
            println!(
                "hq-bench: round {done}/{}: {:.1} s per round, about {:.0} s left",
                rounds.rounds,
                per_round,
                per_round * (rounds.rounds - done) as f64
            );
        }
        let cells: Vec<TimedCell> = self
            .entries
            .iter()
            .zip(samples)
            .map(|(entry, per_iter)| TimedCell {
                cell: self.cell_name(entry),
                elements: lookups_per_iteration(entry.workload) as u64,
                per_iter,
            })
            .collect();
        if let Some(path) = std::env::var_os("HQ_BENCH_OUT") {
            let text = serde_json::to_string(&cells).expect("plain data");
            self.exit_on_error(std::fs::write(path, text));
        }
        let median = |mut v: Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let check = PositionCheck {
            cell: self.cell_name(&self.entries[0]),
            first_ns: median(first),
            last_ns: median(last),
        };
        println!(
            "hq-bench: position check: {} timed first {:.0} ns, last {:.0} ns per iteration ({:+.1} %)",
            check.cell,
            check.first_ns,
            check.last_ns,
            check.bias() * 100.0
        );
        check
    }

    /// Writes what the run measured to `HQ_BENCH_META`; `selection` is the
    /// build's own choice, read before the rounds (which install each
    /// facade row's plan in turn).
    fn write_meta(
        &self,
        selection: hq::Selection,
        position_check: Option<PositionCheck>,
    ) -> std::io::Result<()> {
        let Some(path) = std::env::var_os("HQ_BENCH_META") else {
            return Ok(());
        };
        let meta = BenchMeta {
            mode: mode_name(selection.mode).to_owned(),
            choice: ChoiceNames {
                single: pieces_name(selection.plan.single),
                batch: pieces_name(selection.plan.batch),
                setwise: pieces_name(selection.plan.setwise),
                setwise_loop: selection.plan.setwise_loop.queen,
            },
            class: selection.class.name.to_owned(),
            inputs: INPUTS,
            checked_cases: self.checked_cases,
            rows: self.rows.clone(),
            skipped: self.skipped.clone(),
            position_check,
            plan: Some(selection.plan.to_string()),
            huge_pages: self.data.tt.huge_page_share(),
            seed: Some(seed()),
        };
        let text = serde_json::to_string(&meta).map_err(std::io::Error::other)?;
        std::fs::write(path, text)
    }
}

impl Default for Bench {
    fn default() -> Self {
        Bench::new()
    }
}

/// Compares `lookup` with `hq::reference` on every benchmark input, on the
/// empty and the full board from every square, and on its own batch and
/// set-wise entry points; panics loudly on the first disagreement. Returns
/// the number of cases checked.
pub fn check_against_oracle<L: Lookup>(name: &str, lookup: L, data: &Data) -> u64 {
    let mut cases = 0u64;
    let check = |piece: Piece, sq: Square, occ: Bitboard, got: Bitboard, what: &str| {
        let want = piece.reference(sq, occ);
        assert!(
            got == want,
            "{name} disagrees with hq::reference ({what}): {} on {sq} over {:#018x} gave {:#018x}, \
             the oracle says {:#018x}; refusing to time a wrong implementation",
            piece.name(),
            occ.0,
            got.0,
            want.0
        );
        1
    };
    let mut occupancies: Vec<Bitboard> = vec![Bitboard::EMPTY, Bitboard(!0)];
    occupancies.extend(data.inputs.iter().take(64).map(|i| i.occupancy));
    for piece in Piece::ALL {
        for i in &data.inputs {
            let got = lookup.attacks(piece, i.square, i.occupancy);
            cases += check(piece, i.square, i.occupancy, got, "single lookup");
        }
        for &occ in &occupancies {
            for sq in Square::ALL {
                let got = lookup.attacks(piece, sq, occ);
                cases += check(piece, sq, occ, got, "single lookup");
            }
        }
        if L::HAS_BATCH {
            for &occ in &occupancies {
                let mut out = [Bitboard::EMPTY; 64];
                lookup.batch(piece, &Square::ALL, occ, &mut out);
                for (sq, got) in Square::ALL.into_iter().zip(out) {
                    cases += check(piece, sq, occ, got, "batch");
                }
            }
        }
        if L::HAS_SETWISE {
            let calls = data.setwise.iter().flat_map(|i| {
                Crowd::ALL.map(|crowd| i.sliders[crowd as usize].map(|sliders| (i, sliders)))
            });
            for (i, sliders) in calls.flatten() {
                let got = lookup.setwise(piece, sliders, i.occupancy);
                let want = sliders
                    .iter()
                    .fold(0, |a, sq| a | piece.reference(sq, i.occupancy).0);
                assert!(
                    got.0 == want,
                    "{name} disagrees with hq::reference (set-wise {}): sliders {:#018x} over \
                     {:#018x} gave {:#018x}, the oracle says {want:#018x}",
                    piece.name(),
                    sliders.0,
                    i.occupancy.0,
                    got.0
                );
                cases += 1;
            }
        }
    }
    cases
}

/// An entry point's backend for the record: the queen's, then any piece
/// that differs (`avx512 (bishop: pext)`).
fn pieces_name(pieces: hq::Pieces) -> String {
    let mut name = pieces.queen.name().to_owned();
    for (piece, backend) in [("rook", pieces.rook), ("bishop", pieces.bishop)] {
        if backend != pieces.queen {
            name += &format!(" ({piece}: {backend})");
        }
    }
    name
}
