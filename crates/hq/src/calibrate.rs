//! Calibration: the plan measured on the running CPU, as FFTW's planner
//! measures its plans (and, like its "wisdom", printable and read back:
//! [`Plan`]'s text form, `HQ_CHOICE`).
//!
//! **What it is for: catching a class's plan that is grossly wrong on a CPU
//! model no committed run measured**, say one whose PEXT is microcoded
//! though its identity does not say so, where a table lookup takes 5-20
//! times as long as an HQ kernel. It does not tune within the noise: one
//! process is one sample of code layout and of the host's state, and in the
//! committed runs a pair of backends' paired ratio in one process strays
//! from its median over fresh processes by up to 2.4x (99.9 % of such
//! deviations stay under 1.7x; `docs/architecture.md`, "Calibration"). So
//! a challenger replaces the starting plan's backend only where the whole
//! 95 % interval of their paired ratio (the two timed in the same rounds;
//! the interval of the median by order statistics) says it runs in at most
//! half the time ([`GROSS`]). Challengers that clear the start so but not
//! each other go to the smallest table footprint. Everything else keeps the
//! starting plan's backend, so that fresh processes choose one plan.
//!
//! Every candidate of every cell (the backends this build dispatches and
//! this CPU runs, each timed by the kernel the route runs for it) is timed
//! in rounds in a fresh random order until the 5 ms budget is spent; a
//! cell's figure is its median round.

use crate::dispatch::{Arms, Kernel, dispatch, key_of, keyed, keyed_for};
use crate::kernels::{Batch, FreeFunctions, LATENCY, SINGLE, Setwise, Single};
use core::fmt;
use core::marker::PhantomData;
use hq_core::entries::Entries;
use hq_core::{Bitboard, SliderAttacks, Square, union_of_up_to_two};
use hq_plan::Backend;
use hq_plan::BackendError;
use hq_plan::classes::fixed;
use hq_plan::{Entry, Plan, Slider};
use std::boxed::Box;
use std::time::{Duration, Instant};
use std::vec::Vec;

/// The time a calibration may take in all.
const BUDGET: Duration = Duration::from_millis(5);
/// When the measuring stops at the latest, leaving the rest for choosing.
const DEADLINE: Duration = Duration::from_micros(4300);
/// How many times faster a challenger must be to replace the starting
/// backend: the whole interval of their paired time ratio below `1 / GROSS`.
/// Beyond what one process's layout and host state move a paired ratio in
/// the committed runs (at most 2.4x its median over processes, and 1.7x in
/// 99.9 % of process-pairs; `benches/format/tests/calibration.rs` holds
/// the rule to those runs).
pub(crate) const GROSS: f64 = 2.0;
const MAX_ROUNDS: u32 = 40;
/// A candidate slower than this many times its cell's best over the first
/// [`PRUNE_AFTER`] rounds is timed no further: no noise closes such a gap,
/// and the slowest candidates took most of each round.
const PRUNE_FACTOR: f64 = 2.0;
const PRUNE_AFTER: u32 = 2;
/// A candidate whose warm-up took this many times its cell's fastest
/// warm-up is timed no further: the research backends' batches (up to 100x
/// the best), which made each round take 1.5 ms on the Intel Xeon, leaving
/// a build with every backend (`all-backends`, as `hq-info`) one or two
/// rounds, too few for any interval. Loose, since a warm-up pays cold
/// tables (`pext`'s 841 KiB).
const WARM_UP_PRUNE_FACTOR: f64 = 8.0;
/// Set-wise calls per size range in one sample (with 16, a sample's own
/// cost weighed enough to reverse an order the bench matrix measures).
const SETWISE_PER_RANGE: usize = 64;

/// One candidate of one cell, and what it measured.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Figure {
    /// The entry point.
    pub entry: Entry,
    /// The piece.
    pub slider: Slider,
    /// The backend (for set-wise calls: the set-wise kernel's).
    pub backend: Backend,
    /// Set-wise only: the single backend whose lookups serve calls of up to
    /// this many sliders (`None`: the kernel serves every call).
    pub setwise_loop: Option<(Backend, u32)>,
    /// Nanoseconds per lookup (per call for set-wise), median over rounds.
    pub ns: f64,
    /// The fastest round's nanoseconds per lookup.
    pub fastest: f64,
}

impl fmt::Display for Figure {
    /// `avx512 1.23`, or `avx512 (pext up to 2 sliders) 1.23`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.backend)?;
        if let Some((single, n)) = self.setwise_loop {
            write!(f, " ({single} up to {n} sliders)")?;
        }
        write!(f, " {:.2}", self.ns)
    }
}

/// What a calibration measured and chose.
#[derive(Clone, Debug)]
pub struct Calibration {
    /// The plan chosen: per cell the starting plan's backend, unless a
    /// challenger ran in at most half its time (`hq::unstable::CALIBRATION_GROSS`).
    pub plan: Plan,
    /// The plan it started from.
    pub base: Plan,
    /// Every candidate's figure.
    pub figures: Vec<Figure>,
    /// Timed rounds (after the warm-up).
    pub rounds: u32,
    /// The calibration's whole time.
    pub elapsed: Duration,
}

impl Calibration {
    /// The figure of `plan`'s candidate for `entry` and `slider`.
    pub fn figure_of(&self, plan: &Plan, entry: Entry, slider: Slider) -> Option<&Figure> {
        let (backend, setwise_loop) = candidate_of(plan, entry, slider);
        self.figures.iter().find(|f| {
            (f.entry, f.slider, f.backend, f.setwise_loop) == (entry, slider, backend, setwise_loop)
        })
    }
}

/// A line per cell: the calibrated and the starting candidate, then all.
impl fmt::Display for Calibration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.elapsed.as_secs_f64() * 1e3;
        writeln!(
            f,
            "calibration: {} rounds in {ms:.2} ms (budget {} ms)",
            self.rounds,
            BUDGET.as_millis()
        )?;
        for entry in Entry::ALL {
            for slider in Slider::ALL {
                let show = |plan: &Plan| match self.figure_of(plan, entry, slider) {
                    Some(fig) => std::format!("{fig} ns"),
                    None => std::format!("{} (not measured)", plan.get(entry, slider)),
                };
                let mut all: Vec<&Figure> = self
                    .figures
                    .iter()
                    .filter(|g| (g.entry, g.slider) == (entry, slider))
                    .collect();
                all.sort_by(|a, b| a.ns.total_cmp(&b.ns));
                let all: Vec<std::string::String> =
                    all.iter().map(|g| std::format!("{g}")).collect();
                let (measured, start) = (show(&self.plan), show(&self.base));
                let name = entry.name();
                writeln!(
                    f,
                    "{name}.{slider}: measured {measured} | start {start} | all (ns): {}",
                    all.join(", ")
                )?;
            }
        }
        write!(f, "plan: {}", self.plan)
    }
}

/// `plan`'s candidate for a cell: the backend, and for set-wise calls the
/// keyed lookups' loop if the plan has one.
fn candidate_of(plan: &Plan, entry: Entry, slider: Slider) -> (Backend, Option<(Backend, u32)>) {
    let (backend, n) = (plan.get(entry, slider), plan.setwise_loop.get(slider));
    let looped = (entry == Entry::Setwise && n > 0).then(|| (plan.get(Entry::Single, slider), n));
    (backend, looped)
}

/// The inputs every cell runs over.
struct Inputs {
    singles: [(Square, Bitboard); 128],
    batch_squares: [Square; 64],
    batch_occupancies: [Bitboard; 8],
    /// Per size range (1-2, 4-6, 10-14 sliders) [`SETWISE_PER_RANGE`]
    /// calls, the ranges shuffled, each with two slider sets of a random
    /// count (one picked per sample by a bit of `pick`: the sequence of
    /// counts repeats only after 64 samples).
    setwise: [(Bitboard, [Bitboard; 2], u64); 3 * SETWISE_PER_RANGE],
    setwise_round: core::cell::Cell<u32>,
}

impl Inputs {
    fn new() -> Inputs {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        // About a quarter of the board, as in a middlegame.
        let mut occupancy = || {
            let x = next();
            (x & x.rotate_left(23), x)
        };
        let mut inputs = Inputs {
            singles: [(Square::A1, Bitboard(0)); 128],
            batch_squares: [Square::A1; 64],
            batch_occupancies: [Bitboard(0); 8],
            setwise: [(Bitboard(0), [Bitboard(0); 2], 0); 3 * SETWISE_PER_RANGE],
            setwise_round: core::cell::Cell::new(0),
        };
        for (sq, occ) in &mut inputs.singles {
            let (o, x) = occupancy();
            (*sq, *occ) = (Square::from_index_masked(x as u8), Bitboard(o));
        }
        for sq in &mut inputs.batch_squares {
            *sq = Square::from_index_masked(occupancy().1 as u8);
        }
        for occ in &mut inputs.batch_occupancies {
            *occ = Bitboard(occupancy().0);
        }
        let mut ranges: [usize; 3 * SETWISE_PER_RANGE] =
            core::array::from_fn(|i| i / SETWISE_PER_RANGE);
        for i in (1..ranges.len()).rev() {
            ranges.swap(i, (occupancy().1 % (i as u64 + 1)) as usize);
        }
        for ((occ, sets, pick), range) in inputs.setwise.iter_mut().zip(ranges) {
            let (o, mut bits) = occupancy();
            let (low, high): (u32, u32) = [(1, 2), (4, 6), (10, 14)][range];
            *occ = Bitboard(o);
            for set in sets.iter_mut() {
                let count = low + (occupancy().1 % u64::from(high - low + 1)) as u32;
                while set.count() < count {
                    *set |= Square::from_index_masked(bits as u8);
                    bits = bits.rotate_left(7) ^ (bits >> 3) ^ 0x5555;
                }
                *occ |= *set;
            }
            *pick = occupancy().1;
        }
        inputs
    }
}

/// A cell's timing loop over the inputs: the number of lookups (calls).
type Loop = Box<dyn Fn(&Inputs, &mut u64) -> usize>;

/// The single lookups of a cell's loop: the keyed backend's from its keys,
/// else the backend's method (what the route runs for each).
#[inline(always)]
fn lookup<B: SliderAttacks>(
    token: B,
    keys: Option<&[u64; 64]>,
    slider: Slider,
    sq: Square,
    occ: Bitboard,
) -> Bitboard {
    match keys {
        // SAFETY: the keyed backend is the cell's (`keys` are its, for
        // this slider), which runs here.
        Some(keys) => unsafe { keyed(slider, sq, occ, keys[sq as usize]) }.unwrap_or_default(),
        None => Single::<SINGLE>(slider, sq, occ).run(token),
    }
}

/// A candidate's timing loop, monomorphized for its backend by [`dispatch`]:
/// the kernel as the route runs it, inlined where the cell's match inlines
/// the backend, else through its entry point (one indirect call).
struct CellLoop {
    entry: Entry,
    slider: Slider,
    /// Whether the cell's match inlines the backend.
    inlined: bool,
    /// The keyed backend's keys: its single lookups, or its lookups before
    /// the set-wise kernel (the loop candidates).
    keys: Option<[u64; 64]>,
}

/// A single-lookup loop (`CHAIN`: each occupancy depends on the previous
/// result, e4 of it flipped in the next; a constant, so that the
/// independent loop carries no dependency: computed at run time, its
/// `& 0` still chained the lookups, and every candidate was timed for
/// latency in both cells).
fn singles<const CHAIN: bool>(f: impl Fn(Square, Bitboard) -> Bitboard + 'static) -> Loop {
    Box::new(move |inputs, sink| {
        let (mut acc, mut previous) = (0, 0u64);
        for &(sq, occ) in core::hint::black_box(&inputs.singles) {
            let occ = match CHAIN {
                true => Bitboard(occ.0 ^ (previous & (1 << 28))),
                false => occ,
            };
            previous = f(sq, occ).0;
            acc ^= previous;
        }
        *sink ^= acc;
        inputs.singles.len()
    })
}

/// A batch loop.
fn batches(f: impl Fn(&[Square], Bitboard, &mut [Bitboard]) + 'static) -> Loop {
    Box::new(move |inputs, sink| {
        let mut out = [Bitboard(0); 64];
        for &occ in core::hint::black_box(&inputs.batch_occupancies) {
            f(&inputs.batch_squares, occ, &mut out);
            *sink ^= out[core::hint::black_box(5)].0;
        }
        inputs.batch_occupancies.len() * 64
    })
}

/// A set-wise loop (with `looped`, up to two sliders by it).
fn setwise_calls(
    looped: Option<Box<dyn Fn(Square, Bitboard) -> Bitboard>>,
    f: impl Fn(Bitboard, Bitboard) -> Bitboard + 'static,
) -> Loop {
    Box::new(move |inputs, sink| {
        let round = inputs.setwise_round.get();
        inputs.setwise_round.set(round.wrapping_add(1));
        let mut acc = 0;
        for &(occ, sets, pick) in core::hint::black_box(&inputs.setwise) {
            let sliders = sets[((pick >> (round & 63)) & 1) as usize];
            acc ^= match &looped {
                Some(single) if sliders.0.count_ones() <= 2 => {
                    union_of_up_to_two(sliders, occ, single)
                }
                _ => f(sliders, occ),
            }
            .0;
        }
        *sink ^= acc;
        inputs.setwise.len()
    })
}

impl Kernel for CellLoop {
    type Output = Loop;
    const ENTRY: Entry = Entry::Single;

    fn slider(&self) -> Slider {
        self.slider
    }

    fn run<B: SliderAttacks>(self, token: B) -> Loop {
        let CellLoop {
            entry,
            slider,
            inlined,
            keys,
        } = self;
        let (s, e) = (slider as usize, Entries::of(token));
        // The entries' calls: `token` proves the level they are compiled for.
        // SAFETY: as said.
        let single = move |sq: Square, o| unsafe { e.single[s](sq as usize, o) };
        // SAFETY: as above.
        let batch = move |sq: &[Square], o, out: &mut [Bitboard]| unsafe { e.batch[s](sq, o, out) };
        // SAFETY: as above.
        let set = move |set, o| unsafe { e.setwise[s](set, o) };
        let keyed = move |sq, o| lookup(token, keys.as_ref(), slider, sq, o);
        match (entry, inlined) {
            (Entry::Single, true) => singles::<false>(keyed),
            (Entry::Single, false) => singles::<false>(single),
            (Entry::Latency, true) => {
                singles::<true>(move |sq, o| Single::<LATENCY>(slider, sq, o).run(token))
            }
            (Entry::Latency, false) => singles::<true>(single),
            (Entry::Batch, true) => batches(move |sq, o, out| {
                Batch::<FreeFunctions>(slider, sq, o, out, PhantomData).run(token)
            }),
            (Entry::Batch, false) => batches(batch),
            (Entry::Setwise, _) => {
                let looped =
                    keys.map(|_| Box::new(keyed) as Box<dyn Fn(Square, Bitboard) -> Bitboard>);
                match inlined {
                    true => setwise_calls(looped, move |set, o| {
                        Setwise::<FreeFunctions>(slider, set, o, PhantomData).run(token)
                    }),
                    false => setwise_calls(looped, set),
                }
            }
        }
    }
}

/// One candidate: its figure, its loop, its samples.
struct Cell {
    figure: Figure,
    run: Loop,
    samples: Vec<f64>,
    /// The warm-up round's time per lookup.
    warm_up: f64,
}

/// The cells to time no further: the starting plan's candidates never;
/// the others where `time` is over `factor` times the best of their
/// entry point and piece (a time of NaN, a candidate the deadline left
/// out, is not).
fn hopeless(cells: &[Cell], base: &Plan, factor: f64, time: impl Fn(&Cell) -> f64) -> Vec<bool> {
    let best = |f: &Figure| {
        let same = cells
            .iter()
            .filter(|c| (c.figure.entry, c.figure.slider) == (f.entry, f.slider));
        same.map(&time).fold(f64::INFINITY, f64::min)
    };
    cells
        .iter()
        .map(|c| {
            let f = &c.figure;
            candidate_of(base, f.entry, f.slider) != (f.backend, f.setwise_loop)
                && time(c) > factor * best(f)
        })
        .collect()
}

/// The cells of every candidate of every cell of the plan starting at `base`.
fn cells(base: &Plan) -> Vec<Cell> {
    let mut cells = Vec::new();
    for entry in Entry::ALL {
        for slider in Slider::ALL {
            let candidates: Vec<Backend> = match fixed(entry, slider) {
                Some(b) => std::vec![b],
                None => Backend::ALL
                    .iter()
                    .copied()
                    .filter(|b| b.is_available())
                    .collect(),
            };
            for &b in &candidates {
                // One kernel under two names is timed once, under the
                // name the starting plan gives it (else the first).
                let twin = twin_timed_instead(base, entry, slider, b, &candidates).is_some();
                let keys = |k: Backend| core::array::from_fn(|i| key_of(k, slider, Square::ALL[i]));
                let inlined = crate::dispatch::inlined_backend(entry, slider) == Some(b);
                let mut push = |keys: Option<[u64; 64]>, setwise_loop| {
                    let kernel = CellLoop {
                        entry,
                        slider,
                        inlined,
                        keys,
                    };
                    // SAFETY: a candidate runs here (`is_available`).
                    if let Ok(run) = unsafe { dispatch(b as u8, kernel, Arms::All) } {
                        let figure = Figure {
                            entry,
                            slider,
                            backend: b,
                            setwise_loop,
                            ns: f64::NAN,
                            fastest: f64::NAN,
                        };
                        cells.push(Cell {
                            figure,
                            run,
                            samples: Vec::new(),
                            warm_up: f64::NAN,
                        });
                    }
                };
                if twin {
                    continue;
                }
                let single_keys =
                    (entry == Entry::Single && keyed_for(slider) == Some(b)).then(|| keys(b));
                push(single_keys, None);
                // The keyed lookups up to two sliders before another kernel,
                // where they are the starting plan's single lookups.
                let single = base.get(Entry::Single, slider);
                if entry == Entry::Setwise
                    && keyed_for(slider) == Some(single)
                    && b != single
                    && candidates.contains(&single)
                {
                    push(Some(keys(single)), Some((single, 2)));
                }
            }
        }
    }
    cells
}

/// Measures every candidate and chooses, starting from `base` (nothing is
/// installed).
pub(crate) fn measure(base: Plan) -> Result<Calibration, BackendError> {
    let start = Instant::now();
    let inputs = Inputs::new();
    let mut cells = cells(&base);
    let (mut sink, mut rounds, mut state) = (0u64, 0, 0x2545_F491_4F6C_DD1Du64);
    let mut order: Vec<usize> = (0..cells.len()).collect();
    // The candidates whose warm-up the deadline never cuts: the starting
    // plan's, or where it has none here (a set-wise loop over the kernel's
    // own lookups), its cell's first: every cell keeps a figure.
    let is_start = |c: &Cell| {
        let f = &c.figure;
        candidate_of(&base, f.entry, f.slider) == (f.backend, f.setwise_loop)
    };
    let warm: Vec<bool> = (0..cells.len())
        .map(|i| {
            let f = &cells[i].figure;
            let same = |c: &Cell| (c.figure.entry, c.figure.slider) == (f.entry, f.slider);
            is_start(&cells[i])
                || (!cells.iter().any(|c| same(c) && is_start(c))
                    && cells.iter().position(same) == Some(i))
        })
        .collect();
    // The shortest round so far predicts the next.
    let mut shortest = Duration::MAX;
    // Round 0 is the warm-up (tables into the caches, branch predictors).
    'rounds: for round in 0..=MAX_ROUNDS {
        let round_start = Instant::now();
        if round > 1 && round_start.duration_since(start).saturating_add(shortest) > DEADLINE {
            break;
        }
        for i in (1..order.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            order.swap(i, (state % (i as u64 + 1)) as usize);
        }
        if round == 0 {
            // The starting plan's candidates warm up first: they are what
            // a calibration cut short keeps.
            order.sort_by_key(|&i| !warm[i]);
        }
        for &i in &order {
            // Every round stops at the deadline (a preempted warm-up took
            // 11 ms on the Intel Xeon), but for the starting plan's
            // warm-up: a candidate not warmed up has no figure.
            if start.elapsed() > DEADLINE && !(round == 0 && warm[i]) {
                break 'rounds;
            }
            let cell = &mut cells[i];
            if cell.figure.entry == Entry::Batch {
                (cell.run)(&inputs, &mut sink);
            }
            let timer = Instant::now();
            let lookups = (cell.run)(&inputs, &mut sink);
            let ns = timer.elapsed().as_nanos() as f64 / lookups as f64;
            match round {
                0 => cell.warm_up = ns,
                _ => cell.samples.push(ns),
            }
        }
        rounds += u32::from(round > 0);
        let hopeless = match round {
            0 => hopeless(&cells, &base, WARM_UP_PRUNE_FACTOR, |c| c.warm_up),
            PRUNE_AFTER => hopeless(&cells, &base, PRUNE_FACTOR, |c| {
                c.samples.iter().copied().fold(f64::INFINITY, f64::min)
            }),
            _ => Vec::new(),
        };
        if !hopeless.is_empty() {
            order.retain(|&i| !hopeless[i]);
        }
        // The warm-up's time, cold tables included, predicts no round.
        if round > 0 {
            shortest = shortest.min(round_start.elapsed());
        }
    }
    core::hint::black_box(sink);
    let (figures, samples): (Vec<Figure>, Vec<Vec<f64>>) = cells
        .into_iter()
        .filter(|c| !c.warm_up.is_nan())
        .map(|mut c| {
            // A candidate pruned after the warm-up has only its time there.
            let mut sorted = match c.samples.is_empty() {
                true => std::vec![c.warm_up],
                false => c.samples.clone(),
            };
            sorted.sort_by(f64::total_cmp);
            c.figure.ns = sorted[sorted.len() / 2];
            c.figure.fastest = sorted[0];
            (c.figure, c.samples)
        })
        .unzip();
    let plan = choose(&base, &figures, &samples);
    Ok(Calibration {
        plan,
        base,
        figures,
        rounds,
        elapsed: start.elapsed(),
    })
}

/// The backend timed instead of `b` for `entry` and `slider`, where the two
/// run one kernel there (the two first-rank HQ forms differ only on ranks:
/// their bishops are one kernel, and timing both let noise pick between
/// names): the one `base` names, else the first of `candidates`. `None`
/// where `b` is timed itself.
fn twin_timed_instead(
    base: &Plan,
    entry: Entry,
    slider: Slider,
    b: Backend,
    candidates: &[Backend],
) -> Option<Backend> {
    let twins = [Backend::ScalarRankTable, Backend::ScalarRankDiagonal];
    if slider != Slider::Bishop || !twins.contains(&b) {
        return None;
    }
    let present: std::vec::Vec<Backend> = twins
        .into_iter()
        .filter(|t| candidates.contains(t))
        .collect();
    let named = base.get(entry, slider);
    let timed = match present.contains(&named) {
        true => named,
        false => present[0],
    };
    (timed != b).then_some(timed)
}

/// The 95 % interval of the median of `ratios` by order statistics (no
/// assumption on their distribution): `(low, median, high)`. Fewer than
/// six are too few for such an interval: from two to five, their whole
/// range (every round must agree; an unoptimised build's calibration
/// times two or three rounds); `None` for fewer.
fn median_interval(mut ratios: Vec<f64>) -> Option<(f64, f64, f64)> {
    let n = ratios.len();
    ratios.sort_by(f64::total_cmp);
    // The largest k with P(Binomial(n, 1/2) < k) <= 2.5 %: the interval
    // [x(k), x(n + 1 - k)] (1-based) holds the median with 95 % or more.
    let (mut below, mut term, mut k) = (0.0, 0.5f64.powi(n as i32), 0);
    for i in 0..n {
        if below + term > 0.025 {
            break;
        }
        below += term;
        term *= (n - i) as f64 / (i + 1) as f64;
        k = i + 1;
    }
    match k {
        0 if n >= 2 => Some((ratios[0], ratios[n / 2], ratios[n - 1])),
        0 => None,
        _ => Some((ratios[k - 1], ratios[n / 2], ratios[n - k])),
    }
}

/// The ratios of `a`'s rounds over `b`'s, round by round (both timed in
/// every round up to the shorter's last).
fn paired(a: &[f64], b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| x / y).collect()
}

/// Whether `a` clears `b` by `margin`: the whole interval of their paired
/// ratio (time of `a` over time of `b`) below `1 - margin`.
fn clears(a: &[f64], b: &[f64], margin: f64) -> bool {
    median_interval(paired(a, b)).is_some_and(|(_, _, high)| high < 1.0 - margin)
}

/// Each cell's choice: the starting plan's candidate, unless challengers
/// clear it by [`GROSS`] (the whole interval of their paired time ratio
/// below `1 / GROSS`); of those, the ones no other clears, the smallest
/// table footprint first (then the fastest median). A cell whose start has
/// no figure keeps it. A set-wise loop only over the chosen single lookups.
/// `samples[i]` are `figures[i]`'s rounds, in order.
pub(crate) fn choose(base: &Plan, figures: &[Figure], samples: &[Vec<f64>]) -> Plan {
    let mut plan = *base;
    let pick = |entry: Entry, slider: Slider, allowed: &dyn Fn(&Figure) -> bool| {
        let of: Vec<usize> = (0..figures.len())
            .filter(|&i| {
                let f = &figures[i];
                f.entry == entry && f.slider == slider && allowed(f)
            })
            .collect();
        let start = candidate_of(base, entry, slider);
        let kept = of
            .iter()
            .copied()
            .find(|&i| (figures[i].backend, figures[i].setwise_loop) == start)?;
        let challengers: Vec<usize> = of
            .iter()
            .copied()
            .filter(|&i| i != kept)
            .filter(|&i| clears(&samples[i], &samples[kept], 1.0 - 1.0 / GROSS))
            .collect();
        let undominated = challengers.iter().copied().filter(|&j| {
            !challengers
                .iter()
                .any(|&i| i != j && clears(&samples[i], &samples[j], 0.0))
        });
        let key = |&i: &usize| (figures[i].backend.table_bytes(), figures[i].ns);
        let best = undominated.min_by(|a, b| {
            key(a)
                .partial_cmp(&key(b))
                .unwrap_or(core::cmp::Ordering::Equal)
        });
        best.map(|i| figures[i])
    };
    for slider in Slider::ALL {
        for entry in [Entry::Single, Entry::Latency, Entry::Batch] {
            if let Some(f) = pick(entry, slider, &|_| true) {
                plan.set(entry, slider, f.backend);
            }
        }
        let single = plan.get(Entry::Single, slider);
        if let Some(f) = pick(Entry::Setwise, slider, &|f| {
            f.setwise_loop.is_none_or(|(s, _)| s == single)
        }) {
            plan.set(Entry::Setwise, slider, f.backend);
            plan.setwise_loop
                .set(slider, f.setwise_loop.map_or(0, |(_, n)| n));
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch figure for rooks.
    fn batch(backend: Backend, ns: f64, fastest: f64) -> Figure {
        let (entry, slider, setwise_loop) = (Entry::Batch, Slider::Rook, None);
        Figure {
            entry,
            slider,
            backend,
            setwise_loop,
            ns,
            fastest,
        }
    }

    /// Rounds around `level`: 20 of them, spread ±`spread` (a sawtooth).
    fn rounds(level: f64, spread: f64) -> Vec<f64> {
        (0..20)
            .map(|i| level * (1.0 + spread * ((i * 7 % 20) as f64 / 10.0 - 1.0)))
            .collect()
    }

    #[test]
    fn hopeless_candidates_are_timed_no_further_but_the_start_always_is() {
        let cell = |backend, warm_up| Cell {
            figure: batch(backend, f64::NAN, f64::NAN),
            run: Box::new(|_: &Inputs, _: &mut u64| 0),
            samples: Vec::new(),
            warm_up,
        };
        let base = Plan::all(Backend::XopModel);
        let cells = [
            cell(Backend::XopModel, 100.0),
            cell(Backend::Classic, 2.0),
            cell(Backend::ScalarReverse, 15.0),
            cell(Backend::ScalarRankTable, 17.0),
            cell(Backend::ReverseBitboards, f64::NAN),
        ];
        let out = hopeless(&cells, &base, WARM_UP_PRUNE_FACTOR, |c| c.warm_up);
        // 8x the best (2.0): 17 is out, 15 stays, the start stays at 50x,
        // and a candidate the deadline left out is not judged.
        assert_eq!(out, [false, false, false, true, false]);
    }

    #[test]
    fn the_order_statistics_interval_holds_the_median() {
        let (low, median, high) = median_interval((1..=20).map(f64::from).collect()).unwrap();
        // n = 20: the 6th and 15th values.
        assert_eq!((low, median, high), (6.0, 11.0, 15.0));
        // Two to five rounds: their whole range.
        let few = median_interval(std::vec![3.0, 1.0, 2.0, 5.0, 4.0]).unwrap();
        assert_eq!(few, (1.0, 3.0, 5.0));
        assert!(median_interval(std::vec![1.0]).is_none());
    }

    #[test]
    fn only_a_challenger_in_half_the_time_replaces_the_start() {
        let base = Plan::all(Backend::Classic);
        let chosen = |start: Vec<f64>, challengers: &[(Backend, Vec<f64>)]| {
            let mut figures = std::vec![batch(Backend::Classic, 1.0, 1.0)];
            let mut samples = std::vec![start];
            for (b, s) in challengers {
                figures.push(batch(*b, 1.0, 1.0));
                samples.push(s.clone());
            }
            choose(&base, &figures, &samples).get(Entry::Batch, Slider::Rook)
        };
        let start = rounds(1.0, 0.02);
        let gross = (Backend::ScalarReverse, rounds(0.4, 0.02));
        assert_eq!(
            chosen(start.clone(), core::slice::from_ref(&gross)),
            Backend::ScalarReverse
        );
        // 30 % faster in every round: inside what one process's layout
        // moves a ratio, the start stays.
        let clear = (Backend::ScalarReverse, rounds(0.7, 0.02));
        assert_eq!(chosen(start.clone(), &[clear]), Backend::Classic);
        // Half the time at the median, but not over the whole interval.
        let borderline = (Backend::ScalarReverse, rounds(0.5, 0.1));
        assert_eq!(chosen(start.clone(), &[borderline]), Backend::Classic);
        // Two challengers that clear the start but not each other: the
        // smaller table footprint.
        let other = (Backend::ScalarRankTable, rounds(0.41, 0.02));
        let (a, b) = (Backend::ScalarReverse, Backend::ScalarRankTable);
        let smaller = if a.table_bytes() <= b.table_bytes() {
            a
        } else {
            b
        };
        assert_eq!(chosen(start.clone(), &[gross.clone(), other]), smaller);
        // One clears the other: the clear winner, whatever its table.
        let fastest = (Backend::ScalarRankTable, rounds(0.3, 0.02));
        assert_eq!(
            chosen(start.clone(), &[gross, fastest]),
            Backend::ScalarRankTable
        );
        // A start without a figure (the deadline cut it) is kept.
        let figures = [batch(Backend::ScalarReverse, 0.1, 0.1)];
        let kept = choose(&base, &figures, &[rounds(0.1, 0.02)]);
        assert_eq!(kept.get(Entry::Batch, Slider::Rook), Backend::Classic);
    }

    /// The two first-rank HQ forms run one bishop kernel: a calibration
    /// times it once, under the starting plan's name, and so keeps that
    /// name; their rooks and queens differ and are both timed.
    #[test]
    fn one_kernel_under_two_names_is_timed_under_the_starts_name() {
        let (table, diagonal) = (Backend::ScalarRankTable, Backend::ScalarRankDiagonal);
        let both = [Backend::Classic, table, diagonal];
        let base = Plan::all(Backend::Classic).with(Entry::Latency, Slider::Bishop, diagonal);
        let instead = |entry, slider, b| twin_timed_instead(&base, entry, slider, b, &both);
        assert_eq!(
            instead(Entry::Latency, Slider::Bishop, table),
            Some(diagonal)
        );
        assert_eq!(instead(Entry::Latency, Slider::Bishop, diagonal), None);
        // Where the start names neither, the first of the candidates.
        assert_eq!(instead(Entry::Batch, Slider::Bishop, diagonal), Some(table));
        assert_eq!(instead(Entry::Batch, Slider::Bishop, table), None);
        for slider in [Slider::Rook, Slider::Queen] {
            assert_eq!(instead(Entry::Latency, slider, table), None);
            assert_eq!(instead(Entry::Latency, slider, diagonal), None);
        }
        assert_eq!(
            twin_timed_instead(&base, Entry::Latency, Slider::Bishop, table, &[table]),
            None
        );
    }
}
