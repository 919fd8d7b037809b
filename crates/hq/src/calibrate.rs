//! Calibration: the plan measured on the running CPU, as FFTW's planner
//! measures its plans (and, like its "wisdom", printable and read back:
//! [`Plan`]'s text form, `HQ_CHOICE`).
//!
//! The class table ([`crate::choice::CLASSES`]) is measured on one model
//! per class at best; another model of the class, or a CPU no run has seen,
//! may be fastest with other backends, and per piece. A calibration times
//! every candidate of every entry point and piece on this CPU:
//!
//! * candidates: the backends this CPU runs that the free functions
//!   dispatch to (in a forced build: the forced ones), through the very
//!   function pointers the dispatch installs; for set-wise calls also the
//!   loops over single lookups the free functions have; for the latency
//!   functions the backends they serve ([`crate::latency::SERVED`]);
//! * single lookups and latency chains over 128 inputs, batches of 64
//!   squares over 8 occupancies (each timed after an untimed pass),
//!   set-wise calls with 1-2, 4-6 and 10-14 sliders in equal parts (random
//!   counts in a random order, which change from sample to sample);
//! * in rounds: an untimed warm-up round, then rounds each timing every
//!   cell once in a fresh random order (after the third, only the cells
//!   within 3× of the best of their entry point and piece, and the starting
//!   plan's: the others' figures stand), until [`BUDGET`] (5 ms) is spent (but at
//!   least one timed round, even on a slow CPU or an emulator); each cell's
//!   figure is its median round;
//! * a challenger replaces the starting plan's backend only if its median
//!   is at least [`MARGIN`] faster than the starting candidate's median and
//!   than its fastest round, so noise does not flip a close choice.

pub use crate::choice::Entry;
use crate::choice::{Plan, Slider};
use crate::dispatch::{self, Setwise};
use crate::{Backend, BackendError, Bitboard, Square, registry};
use core::fmt;
use std::time::{Duration, Instant};
use std::vec::Vec;

/// The time a calibration may take in all (it stops starting rounds when
/// the next would end past it).
pub const BUDGET: Duration = Duration::from_millis(5);

/// How much faster (as a fraction of the starting plan's median) a
/// challenger must be to replace the starting plan's backend.
pub const MARGIN: f64 = 0.05;

/// The most timed rounds.
const MAX_ROUNDS: u32 = 40;

/// A candidate slower than this many times the best of its entry point and
/// piece over the first [`PRUNE_AFTER`] timed rounds is not timed further
/// (its figure is their median): no noise closes such a gap, and the slowest candidates (the
/// VPPERM model, the classical ray walk) took most of each round, leaving
/// 9-10 rounds in the budget instead of 25.
const PRUNE_FACTOR: f64 = 3.0;

/// The timed rounds before the pruning.
const PRUNE_AFTER: u32 = 3;

/// When the measuring stops at the latest (a cell is not started after
/// it), leaving the rest of [`BUDGET`] for the decisions.
const DEADLINE: Duration = Duration::from_micros(4500);

/// One candidate of one entry point and piece, and what it measured.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Figure {
    /// The entry point.
    pub entry: Entry,
    /// The piece.
    pub slider: Slider,
    /// The backend (for set-wise calls: the set-wise kernel's).
    pub backend: Backend,
    /// Set-wise only: the single backend whose lookups serve calls with up
    /// to this many sliders (`None`: the kernel serves every call).
    pub setwise_loop: Option<(Backend, u32)>,
    /// Nanoseconds per lookup (per call for set-wise), median over rounds.
    pub ns: f64,
    /// The fastest round's nanoseconds per lookup: a challenger must beat
    /// the starting plan's candidate on this too ([`MARGIN`]).
    pub fastest: f64,
}

impl Figure {
    /// The candidate, as `avx512` or `avx512 (pext up to 2 sliders)`.
    pub fn candidate(&self) -> impl fmt::Display + '_ {
        struct Candidate<'a>(&'a Figure);
        impl fmt::Display for Candidate<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0.backend)?;
                if let Some((single, n)) = self.0.setwise_loop {
                    write!(f, " ({single} up to {n} sliders)")?;
                }
                Ok(())
            }
        }
        Candidate(self)
    }
}

/// What a calibration measured and chose.
#[derive(Clone, Debug)]
pub struct Calibration {
    /// The plan chosen: per entry point and piece, the fastest candidate,
    /// or the starting plan's backend where none beat it by [`MARGIN`].
    pub plan: Plan,
    /// The plan it started from (the class's, `HQ_BACKEND`'s or the
    /// forced build's).
    pub base: Plan,
    /// Every candidate's figure.
    pub figures: Vec<Figure>,
    /// Timed rounds (after the warm-up).
    pub rounds: u32,
    /// The calibration's whole time, warm-up and decisions included.
    pub elapsed: Duration,
}

impl Calibration {
    /// The figure of `entry`'s candidate for `slider` that `plan` names
    /// (`None` if it was not measured).
    pub fn figure_of(&self, plan: &Plan, entry: Entry, slider: Slider) -> Option<&Figure> {
        let (backend, setwise_loop) = chosen(plan, entry, slider);
        self.figures.iter().find(|f| {
            (f.entry, f.slider, f.backend, f.setwise_loop) == (entry, slider, backend, setwise_loop)
        })
    }
}

/// A table: each entry point and piece, the calibrated and the starting
/// plan's candidate with their figures, then every candidate's.
impl fmt::Display for Calibration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "calibration: {} rounds in {:.2} ms (budget {} ms)",
            self.rounds,
            self.elapsed.as_secs_f64() * 1e3,
            BUDGET.as_millis()
        )?;
        for entry in Entry::ALL {
            for slider in Slider::ALL {
                let show = |plan: &Plan| match self.figure_of(plan, entry, slider) {
                    Some(fig) => std::format!("{} {:.2} ns", fig.candidate(), fig.ns),
                    None => {
                        let (b, _) = chosen(plan, entry, slider);
                        std::format!("{b} (not measured)")
                    }
                };
                let mut all: Vec<&Figure> = self
                    .figures
                    .iter()
                    .filter(|fig| (fig.entry, fig.slider) == (entry, slider))
                    .collect();
                all.sort_by(|a, b| a.ns.total_cmp(&b.ns));
                let others: Vec<std::string::String> = all
                    .iter()
                    .map(|fig| std::format!("{} {:.2}", fig.candidate(), fig.ns))
                    .collect();
                writeln!(
                    f,
                    "{}.{}: measured {} | start {} | all (ns): {}",
                    entry.name(),
                    slider.name(),
                    show(&self.plan),
                    show(&self.base),
                    others.join(", ")
                )?;
            }
        }
        write!(f, "plan: {}", self.plan)
    }
}

/// `plan`'s candidate for `entry` and `slider`: the backend, and for
/// set-wise calls the loop over single lookups if the free functions have
/// its table.
fn chosen(plan: &Plan, entry: Entry, slider: Slider) -> (Backend, Option<(Backend, u32)>) {
    match entry {
        Entry::Single => (plan.single.get(slider), None),
        Entry::Latency => (plan.latency.get(slider), None),
        Entry::Batch => (plan.batch.get(slider), None),
        Entry::Setwise => {
            let (single, setwise, n) = (
                plan.single.get(slider),
                plan.setwise.get(slider),
                plan.setwise_loop.get(slider),
            );
            let loops = dispatch::piece_loop(single, setwise, n).is_some();
            (setwise, loops.then_some((single, n)))
        }
    }
}

/// Measures every candidate on this CPU (the starting plan's included) and
/// installs the fastest of each entry point and piece: the free functions
/// and the latency functions run it from now on, and [`crate::selection`]
/// says "calibrated". Takes at most about [`BUDGET`].
///
/// `HQ_CALIBRATE=1` does the same at the first call instead. An engine can
/// keep the result (`calibration.plan.to_string()`) and give it back later
/// through `HQ_CHOICE` or [`crate::set_plan`], skipping the measurement.
///
/// ```
/// let calibration = hq::calibrate()?;
/// println!("{calibration}");
/// assert_eq!(hq::selection().plan, calibration.plan);
/// # Ok::<(), hq::BackendError>(())
/// ```
pub fn calibrate() -> Result<Calibration, BackendError> {
    let base = crate::init()?.plan;
    let calibration = measure(base)?;
    dispatch::set_plan(calibration.plan, true)?;
    Ok(calibration)
}

/// The candidates of `entry` here.
fn candidates(entry: Entry) -> Vec<Backend> {
    Backend::ALL
        .iter()
        .copied()
        .filter(|b| b.is_supported() && b.is_dispatched())
        .filter(|b| !registry::FORCED || b.is_forced())
        .filter(|&b| entry != Entry::Latency || crate::latency::serves(b))
        .filter(|&b| entry != Entry::Single || dispatch::STATIC_SINGLES.is_none_or(|s| s == b))
        .collect()
}

/// The kernel a cell times: what the free functions run for the candidate.
#[derive(Clone, Copy)]
enum Kernel {
    /// A single lookup through the dispatch table's entry (the free
    /// functions' path off PEXT: one indirect call).
    Single(unsafe fn(Square, Bitboard) -> Bitboard),
    /// The free functions' inlined PEXT lookup.
    #[cfg(target_arch = "x86_64")]
    PextSingle(Slider),
    /// A dependency chain through the latency functions' inlined kernel
    /// (of the backend at this index of `Backend::ALL`).
    Latency(usize, Slider),
    Batch(unsafe fn(&[Square], Bitboard, &mut [Bitboard])),
    /// The batch free functions' inlined `pext` loop (`dispatch::pext_batch`).
    #[cfg(target_arch = "x86_64")]
    PextBatch(Slider),
    Setwise(unsafe fn(Bitboard, Bitboard) -> Bitboard),
    /// The set-wise free functions' inlined `avx512` kernel
    /// (`dispatch::avx512_setwise`; a cell only where `avx512` runs).
    #[cfg(target_arch = "x86_64")]
    Avx512Setwise(Slider),
}

/// One candidate's timing cell.
struct Cell {
    figure: Figure,
    kernel: Kernel,
    /// Nanoseconds per lookup, one per timed round.
    samples: Vec<f64>,
}

/// Set-wise calls per size range in one sample. With 16, a sample's own
/// cost (the clock, the loop's start) weighed enough on a Zen 4 that the
/// loop over 1-2 `pext` lookups beat the `avx512` rook kernel here, the
/// reverse of the bench matrix's order; with 64 the kernel stays (the
/// figures: commit 139edff).
const SETWISE_PER_RANGE: usize = 64;

/// The inputs every cell runs over.
struct Inputs {
    singles: [(Square, Bitboard); 128],
    batch_squares: [Square; 64],
    batch_occupancies: [Bitboard; 8],
    /// [`SETWISE_PER_RANGE`] occupancies per size range (1-2, 4-6, 10-14
    /// sliders), the ranges in a random order, each with two slider sets of
    /// a random count in its range (subsets of it) and the bits that pick
    /// one per round.
    setwise: [SetwiseInput; 3 * SETWISE_PER_RANGE],
    /// How many set-wise samples have run: the bit of `pick` they take.
    setwise_round: core::cell::Cell<u32>,
}

/// One set-wise call's input, as the bench matrix's (`hq_benches::SetwiseInput`).
///
/// Each sample takes one of the two slider sets by a different bit of
/// `pick`, so the sequence of slider counts repeats only after 64 samples.
/// An engine does not replay the same calls; before, each input had one
/// fixed set, in groups of 16 with counts 2, 1, 2, 1, …, a sequence the
/// branch predictor can learn. (On a Zen 4 the calibration chooses a loop of
/// 1-2 `pext` lookups for rooks either way, which the bench matrix measures
/// slower than the `avx512` fill; that disagreement is still open.)
#[derive(Clone, Copy)]
struct SetwiseInput {
    occupancy: Bitboard,
    sliders: [Bitboard; 2],
    pick: u64,
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
        let mut square = || Square::ALL[(next() % 64) as usize];
        let singles = core::array::from_fn(|_| (square(), Bitboard(0)));
        let batch_squares = core::array::from_fn(|_| square());
        let mut inputs = Inputs {
            singles,
            batch_squares,
            batch_occupancies: [Bitboard(0); 8],
            setwise: [SetwiseInput {
                occupancy: Bitboard(0),
                sliders: [Bitboard(0); 2],
                pick: 0,
            }; 3 * SETWISE_PER_RANGE],
            setwise_round: core::cell::Cell::new(0),
        };
        let mut occupancy = move || {
            let x = next();
            // About a quarter of the board, as in a middlegame.
            (Bitboard(x & x.rotate_left(23)), x)
        };
        for (_, occ) in &mut inputs.singles {
            *occ = occupancy().0;
        }
        for occ in &mut inputs.batch_occupancies {
            *occ = occupancy().0;
        }
        // Equal parts of each size range, in a random order.
        let mut ranges: [usize; 3 * SETWISE_PER_RANGE] =
            core::array::from_fn(|i| i / SETWISE_PER_RANGE);
        for i in (1..ranges.len()).rev() {
            ranges.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        for (input, range) in inputs.setwise.iter_mut().zip(ranges) {
            let (o, mut bits) = occupancy();
            let (low, high): (u32, u32) = [(1, 2), (4, 6), (10, 14)][range];
            let mut occ = o.0;
            for sliders in &mut input.sliders {
                let count = low + (next() % u64::from(high - low + 1)) as u32;
                let mut set = 0u64;
                while set.count_ones() < count {
                    set |= 1 << (bits % 64);
                    bits = bits.rotate_left(7) ^ (bits >> 3) ^ 0x5555;
                }
                *sliders = Bitboard(set);
                occ |= set;
            }
            input.occupancy = Bitboard(occ);
            input.pick = next();
        }
        inputs
    }
}

/// Times one sample of `kernel` over `inputs`: nanoseconds per lookup.
///
/// A batch kernel first runs once untimed. The cells before it evict its
/// tables from L1 (PEXT's bishop table alone is 41 KiB), and timing that
/// refill measured `pext`'s bishop batches at 1.6-1.9 ns per lookup against
/// 0.75 in the bench matrix's loops: `avx512` won in 10 of 30 starts on a
/// Zen 4, where the matrix has `pext` 1.29× faster. Single lookups and
/// latency chains stay timed on their first pass: with the warm pass too,
/// `pext`'s bishop chains over the 128 inputs, all in L1, beat the
/// first-rank table in 27 of 30 starts, the reverse of the matrix's order
/// (308 M/s against 338), whose inputs do not fit in L1.
///
/// # Safety
///
/// The kernel's backend must run on this CPU (every candidate passed
/// [`Backend::is_supported`]).
#[inline(never)]
unsafe fn sample(kernel: Kernel, inputs: &Inputs, sink: &mut u64) -> f64 {
    if matches!(kernel, Kernel::Batch(_)) {
        // SAFETY: the caller's guarantee.
        unsafe { run(kernel, inputs, sink) };
    }
    let start = Instant::now();
    // SAFETY: the caller's guarantee.
    let lookups = unsafe { run(kernel, inputs, sink) };
    start.elapsed().as_nanos() as f64 / lookups as f64
}

/// Runs `kernel` over `inputs` once: the number of lookups (calls for
/// set-wise).
///
/// # Safety
///
/// As [`sample`].
#[inline(always)]
unsafe fn run(kernel: Kernel, inputs: &Inputs, sink: &mut u64) -> usize {
    match kernel {
        Kernel::Single(f) => {
            let mut acc = 0;
            for &(sq, occ) in core::hint::black_box(&inputs.singles) {
                // SAFETY: the caller's guarantee.
                acc ^= unsafe { f(sq, occ) }.0;
            }
            *sink ^= acc;
            inputs.singles.len()
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::PextSingle(slider) => {
            use hq_pext::Pext;
            // SAFETY: the caller's guarantee (the cell's backend is `pext`).
            let pext = unsafe { <Pext as crate::SliderAttacks>::new_unchecked() };
            let mut acc = 0;
            for &(sq, occ) in core::hint::black_box(&inputs.singles) {
                // As `dispatch::pext_*`: the square's masks, then PEXT.
                // SAFETY: each mask is its square's own.
                acc ^= unsafe {
                    match slider {
                        Slider::Rook => pext.rook_attacks_masked(sq, occ, Pext::rook_mask(sq)),
                        Slider::Bishop => {
                            pext.bishop_attacks_masked(sq, occ, Pext::bishop_mask(sq))
                        }
                        Slider::Queen => {
                            pext.rook_attacks_masked(sq, occ, Pext::rook_mask(sq))
                                | crate::SliderAttacks::bishop_attacks(pext, sq, occ)
                        }
                    }
                }
                .0;
            }
            *sink ^= acc;
            inputs.singles.len()
        }
        Kernel::Latency(index, slider) => {
            let mut previous = 0u64;
            for &(sq, occ) in core::hint::black_box(&inputs.singles) {
                // e4 of the previous result flips in the next occupancy.
                let occ = Bitboard(occ.0 ^ (previous & (1 << 28)));
                previous = crate::latency::served(index, slider, sq, occ).0;
            }
            *sink ^= previous;
            inputs.singles.len()
        }
        // SAFETY: the caller's guarantee; the lengths are equal.
        Kernel::Batch(f) => batch(inputs, sink, |s, o, out| unsafe { f(s, o, out) }),
        #[cfg(target_arch = "x86_64")]
        Kernel::PextBatch(slider) => batch(inputs, sink, |s, o, out| {
            // SAFETY: a candidate, so `pext` passed its check.
            unsafe { dispatch::pext_batch(slider, s, o, out) }
        }),
        // SAFETY: the caller's guarantee.
        Kernel::Setwise(f) => setwise(inputs, sink, |s, o| unsafe { f(s, o) }),
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512Setwise(slider) => setwise(inputs, sink, |s, o| {
            // SAFETY: a candidate, so `avx512` passed its check.
            unsafe { dispatch::avx512_setwise(slider, s, o) }
        }),
    }
}

/// Runs batch `kernel` over `inputs` once (see [`run`]).
#[inline(always)]
fn batch(
    inputs: &Inputs,
    sink: &mut u64,
    kernel: impl Fn(&[Square], Bitboard, &mut [Bitboard]),
) -> usize {
    let mut out = [Bitboard(0); 64];
    for &occ in core::hint::black_box(&inputs.batch_occupancies) {
        kernel(&inputs.batch_squares, occ, &mut out);
        *sink ^= out[core::hint::black_box(5)].0;
    }
    inputs.batch_occupancies.len() * inputs.batch_squares.len()
}

/// Runs set-wise `kernel` over `inputs` once (see [`run`]).
#[inline(always)]
fn setwise(
    inputs: &Inputs,
    sink: &mut u64,
    kernel: impl Fn(Bitboard, Bitboard) -> Bitboard,
) -> usize {
    let round = inputs.setwise_round.get();
    inputs.setwise_round.set(round.wrapping_add(1));
    let mut acc = 0;
    for input in core::hint::black_box(&inputs.setwise) {
        let sliders = input.sliders[((input.pick >> (round & 63)) & 1) as usize];
        acc ^= kernel(sliders, input.occupancy).0;
    }
    *sink ^= acc;
    inputs.setwise.len()
}

/// The kernel the free functions inline for `backend`'s `entry` of
/// `slider`, where they inline one instead of calling its table entry:
/// PEXT's single lookups and batches, `avx512`'s set-wise fill (each behind
/// its flag in `dispatch`; a forced build calls its tokens instead, and
/// they inline PEXT's single lookup alike).
fn inlined(entry: Entry, backend: Backend, slider: Slider) -> Option<Kernel> {
    #[cfg(target_arch = "x86_64")]
    match (entry, backend) {
        (Entry::Single, Backend::Pext) => return Some(Kernel::PextSingle(slider)),
        _ if registry::FORCED => {}
        (Entry::Batch, Backend::Pext) => return Some(Kernel::PextBatch(slider)),
        (Entry::Setwise, Backend::Avx512) => return Some(Kernel::Avx512Setwise(slider)),
        _ => {}
    }
    let _ = (entry, backend, slider);
    None
}

/// The cells of every candidate of every entry point and piece.
fn cells() -> Vec<Cell> {
    let tables = |b: Backend| registry::tables(b).expect("candidates are dispatched");
    let mut cells = Vec::new();
    let mut push = |entry, slider, backend, setwise_loop, kernel| {
        // The two first-rank HQ forms differ only on ranks: their bishops
        // are one kernel, and timing both let noise pick the copy.
        if (slider, backend) == (Slider::Bishop, Backend::ScalarRankDiagonal)
            && candidates(entry).contains(&Backend::ScalarRankTable)
        {
            return;
        }
        cells.push(Cell {
            figure: Figure {
                entry,
                slider,
                backend,
                setwise_loop,
                ns: f64::NAN,
                fastest: f64::NAN,
            },
            // Where the free functions inline a kernel, time that.
            kernel: match setwise_loop {
                None => inlined(entry, backend, slider).unwrap_or(kernel),
                Some(_) => kernel,
            },
            samples: Vec::new(),
        })
    };
    for slider in Slider::ALL {
        /// `slider`'s entry of a table.
        fn of<T>(slider: Slider, rook: T, bishop: T, queen: T) -> T {
            match slider {
                Slider::Rook => rook,
                Slider::Bishop => bishop,
                Slider::Queen => queen,
            }
        }
        for b in candidates(Entry::Single) {
            let s = tables(b).0;
            let kernel = Kernel::Single(of(slider, s.rook, s.bishop, s.queen));
            push(Entry::Single, slider, b, None, kernel);
        }
        for b in candidates(Entry::Latency) {
            let index = b.index();
            push(
                Entry::Latency,
                slider,
                b,
                None,
                Kernel::Latency(index, slider),
            );
        }
        for b in candidates(Entry::Batch) {
            let t = tables(b).1;
            let f = of(slider, t.rook, t.bishop, t.queen);
            push(Entry::Batch, slider, b, None, Kernel::Batch(f));
        }
        let setwise = candidates(Entry::Setwise);
        for &w in &setwise {
            let plain: &Setwise = tables(w).2;
            let f = of(slider, plain.rook, plain.bishop, plain.queen);
            push(Entry::Setwise, slider, w, None, Kernel::Setwise(f));
            // The loops the free functions have over another single backend.
            for &single in &setwise {
                let n = 2;
                if let Some(t) = dispatch::piece_loop(single, w, n) {
                    let f = of(slider, t.rook, t.bishop, t.queen);
                    push(
                        Entry::Setwise,
                        slider,
                        w,
                        Some((single, n)),
                        Kernel::Setwise(f),
                    );
                }
            }
        }
    }
    cells
}

/// Measures every candidate and chooses, starting from `base` (nothing is
/// installed).
pub(crate) fn measure(base: Plan) -> Result<Calibration, BackendError> {
    if cfg!(all(target_family = "wasm", target_os = "unknown")) {
        return Err(BackendError::Invalid(
            "calibration needs a clock, and wasm32-unknown-unknown has none \
             (std::time::Instant panics there): give the plan with hq::set_plan"
                .into(),
        ));
    }
    let start = Instant::now();
    let inputs = Inputs::new();
    let mut cells = cells();
    let mut sink = 0u64;
    let mut order: Vec<usize> = (0..cells.len()).collect();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut rounds = 0;
    // The shortest round so far predicts the next (a preempted round does
    // not end the calibration early).
    let mut shortest = Duration::MAX;
    // Round 0 is the warm-up (tables into the caches, branch predictors).
    'rounds: for round in 0..=MAX_ROUNDS {
        let round_start = Instant::now();
        // At least one timed round, even past the budget (a slow CPU, an
        // emulator): a choice from one round beats none.
        if round > 1 && round_start.duration_since(start).saturating_add(shortest) > DEADLINE {
            break;
        }
        for i in (1..order.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            order.swap(i, (state % (i as u64 + 1)) as usize);
        }
        for &i in &order {
            // A preempted round must not overrun the budget: a cell not
            // timed this round keeps its earlier samples.
            if round > 1 && start.elapsed() > DEADLINE {
                break 'rounds;
            }
            let cell = &mut cells[i];
            // SAFETY: every cell's backend passed `is_supported` (`candidates`).
            let ns = unsafe { sample(cell.kernel, &inputs, &mut sink) };
            if round > 0 {
                cell.samples.push(ns);
            }
        }
        if round > 0 {
            rounds += 1;
        }
        if round == PRUNE_AFTER {
            // The hopeless candidates are timed no further: judged on each
            // cell's fastest round so far (an interrupted sample is slow,
            // never fast), and never the starting plan's own.
            let fastest = |c: &Cell| c.samples.iter().copied().fold(f64::INFINITY, f64::min);
            let best = |f: &Figure| {
                cells
                    .iter()
                    .filter(|c| (c.figure.entry, c.figure.slider) == (f.entry, f.slider))
                    .map(fastest)
                    .fold(f64::INFINITY, f64::min)
            };
            let hopeless: Vec<bool> = cells
                .iter()
                .map(|c| {
                    let f = &c.figure;
                    chosen(&base, f.entry, f.slider) != (f.backend, f.setwise_loop)
                        && fastest(c) > PRUNE_FACTOR * best(f)
                })
                .collect();
            order.retain(|&i| !hopeless[i]);
        }
        shortest = shortest.min(round_start.elapsed());
    }
    core::hint::black_box(sink);
    if cells.iter().any(|c| c.samples.is_empty()) {
        return Err(BackendError::Invalid(std::format!(
            "calibration: not one round of timings fitted in {} ms",
            BUDGET.as_millis()
        )));
    }
    let figures: Vec<Figure> = cells
        .into_iter()
        .map(|mut c| {
            c.samples.sort_by(f64::total_cmp);
            c.figure.ns = c.samples[c.samples.len() / 2];
            c.figure.fastest = c.samples[0];
            c.figure
        })
        .collect();
    let plan = choose(&base, &figures);
    Ok(Calibration {
        plan,
        base,
        figures,
        rounds,
        elapsed: start.elapsed(),
    })
}

/// Each entry point and piece: the fastest candidate, unless the starting
/// plan's is within [`MARGIN`] of it. A set-wise loop needs its single
/// backend to be the piece's chosen single lookups (else the fastest
/// candidate without a loop).
fn choose(base: &Plan, figures: &[Figure]) -> Plan {
    let mut plan = *base;
    let pick = |entry: Entry, slider: Slider, allowed: &dyn Fn(&Figure) -> bool| {
        let of = |f: &&Figure| f.entry == entry && f.slider == slider && allowed(f);
        let best = figures
            .iter()
            .filter(of)
            .min_by(|a, b| a.ns.total_cmp(&b.ns))?;
        let (backend, setwise_loop) = chosen(base, entry, slider);
        let kept = figures
            .iter()
            .filter(of)
            .find(|f| (f.backend, f.setwise_loop) == (backend, setwise_loop));
        // The challenger's median must beat both the kept candidate's
        // median and its fastest round: a stretch of noise that slows every
        // round of one candidate (on a Zen 4 VM, `pext`'s bishop batches in
        // whole calibrations, while `avx512`'s barely moved: commit 139edff)
        // widens its spread but rarely its fastest.
        let beaten = |k: &Figure| best.ns < k.fastest * (1.0 - MARGIN);
        match kept {
            Some(k) if !beaten(k) => Some(*k),
            _ => Some(*best),
        }
    };
    for slider in Slider::ALL {
        for (entry, pieces) in [
            (Entry::Single, &mut plan.single),
            (Entry::Latency, &mut plan.latency),
            (Entry::Batch, &mut plan.batch),
        ] {
            if let Some(f) = pick(entry, slider, &|_| true) {
                pieces.set(slider, f.backend);
            }
        }
        let single = plan.single.get(slider);
        let setwise = pick(Entry::Setwise, slider, &|f| {
            f.setwise_loop.is_none_or(|(s, _)| s == single)
        });
        if let Some(f) = setwise {
            plan.setwise.set(slider, f.backend);
            plan.setwise_loop
                .set(slider, f.setwise_loop.map_or(0, |(_, n)| n));
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch figure for rooks (the entry point and piece do not matter).
    fn batch(backend: Backend, ns: f64, fastest: f64) -> Figure {
        Figure {
            entry: Entry::Batch,
            slider: Slider::Rook,
            backend,
            setwise_loop: None,
            ns,
            fastest,
        }
    }

    #[test]
    fn a_challenger_must_beat_the_start_by_the_margin_on_median_and_fastest() {
        let base = Plan::all(Backend::Classic);
        let chosen = |start: Figure, challenger: Figure| {
            choose(&base, &[start, challenger]).batch.get(Slider::Rook)
        };
        let start = |ns, fastest| batch(Backend::Classic, ns, fastest);
        let challenger = batch(Backend::ScalarReverse, 1.0, 0.9);
        // 20 % faster than a steady start: it wins.
        assert_eq!(chosen(start(1.25, 1.2), challenger), Backend::ScalarReverse);
        // Within the margin of the start's median: the start stays.
        assert_eq!(chosen(start(1.04, 1.0), challenger), Backend::Classic);
        // Far ahead of a noisy median, but not of the start's fastest round
        // (a stretch of noise slowed most of its rounds): the start stays.
        assert_eq!(chosen(start(1.5, 1.02), challenger), Backend::Classic);
        // A slower challenger never wins.
        let slower = batch(Backend::ScalarReverse, 2.0, 1.9);
        assert_eq!(chosen(start(1.25, 1.2), slower), Backend::Classic);
    }
}
