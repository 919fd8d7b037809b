//! The shared correctness suite for slider-attack backends.
//!
//! Every backend crate's test is one call:
//!
//! ```
//! # use hq_core::{Bitboard, Line, SliderAttacks, Square, reference};
//! # #[derive(Clone, Copy, Debug)] struct MyBackend;
//! # impl SliderAttacks for MyBackend {
//! #     const NAME: &'static str = "doc-oracle";
//! #     const LEVEL: hq_core::cpu::Level = hq_core::cpu::Level::Baseline;
//! #     const TABLE_BYTES: usize = 0;
//! #     unsafe fn new_unchecked() -> Self { MyBackend }
//! #     fn line_attacks(self, l: Line, s: Square, o: Bitboard) -> Bitboard { reference::line_attacks(l, s, o) }
//! # }
//! let report = hq_testkit::check_or_skip::<MyBackend>(hq_testkit::Depth::Quick);
//! assert!(report.is_some_and(|r| r.total() > 0));
//! ```
//!
//! What it checks, always against [`hq_core::reference`] (the oracle):
//!
//! * **Exhaustive, per line**: for every square and every line, every subset
//!   of the line mask as the occupancy on that line, with random bits off the
//!   line (which must not change the answer) and the slider's own bit set or
//!   not at random.
//! * **Exhaustive, per piece**: rook attacks over every subset of rank ∪ file
//!   (2^14 per square), bishop attacks over every subset of both diagonals;
//!   queen attacks over every subset of the rook lines with random diagonal
//!   bits and every subset of the diagonals with random rook-line bits.
//! * **Batch** entry points on random occupancies and random square lists of
//!   every length from 0 to 70 (so SIMD remainders are hit).
//! * **Set-wise** entry points on random slider sets of every size 0..=16 and
//!   of several densities, and on the board's edges, files and ranks in full.
//! * **proptest** over random squares and occupancies of several densities,
//!   every single-square entry point, the pair entry points (occupancy and
//!   its reversal) included.
//!
//! It prints the backend's name and the number of cases of each kind.

use hq_core::{Bitboard, LINE_MASKS, Line, Slider, SliderAttacks, Square, reference};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::fmt;

/// How much of the suite to run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Depth {
    /// Everything: exhaustive parts in full, 20 000 proptest cases per entry point.
    Full,
    /// Exhaustive per line, sampled per piece, 500 proptest cases: for slow
    /// backends (emulated instruction sets) and doc tests.
    Quick,
    /// A sample of every part (every 127th line case, every 9973rd piece
    /// case, batches up to 8 squares, 8 random set-wise calls, 2 proptest
    /// cases): what Miri interprets in seconds per backend ([`Depth::scaled`]
    /// picks it under `cfg(miri)`). Miri looks for undefined behaviour on
    /// every path; the native runs cover the cases.
    Miri,
}

impl Depth {
    /// `self`, or [`Depth::Miri`] when the tests run under Miri (`cfg(miri)`):
    /// what [`check_or_skip`] runs.
    pub const fn scaled(self) -> Depth {
        if cfg!(miri) { Depth::Miri } else { self }
    }
}

/// How many cases of each kind were checked, all with zero mismatches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The backend's name.
    pub backend: &'static str,
    /// Exhaustive single-line cases.
    pub line_cases: u64,
    /// Exhaustive rook, bishop and queen cases.
    pub piece_cases: u64,
    /// Batch results compared.
    pub batch_cases: u64,
    /// Set-wise calls compared.
    pub setwise_cases: u64,
    /// proptest cases.
    pub random_cases: u64,
}

impl Report {
    /// All cases together.
    pub fn total(&self) -> u64 {
        self.line_cases
            + self.piece_cases
            + self.batch_cases
            + self.setwise_cases
            + self.random_cases
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "hq-testkit: backend {} checked against the oracle: {} exhaustive line cases, \
             {} exhaustive piece cases, {} batch results, {} set-wise calls, {} proptest cases \
             ({} in all), 0 mismatches",
            self.backend,
            self.line_cases,
            self.piece_cases,
            self.batch_cases,
            self.setwise_cases,
            self.random_cases,
            self.total()
        )
    }
}

/// The first disagreement with the oracle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The backend's name.
    pub backend: &'static str,
    /// What was asked, with its inputs.
    pub what: String,
    /// The oracle's answer.
    pub expected: Bitboard,
    /// The backend's answer.
    pub got: Bitboard,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "backend {} disagrees with the oracle on {}:\nexpected {:?}\n{}\ngot {:?}\n{}",
            self.backend, self.what, self.expected, self.expected, self.got, self.got
        )
    }
}

impl std::error::Error for Mismatch {}

/// A failure of the proptest part, or a mismatch found by the exhaustive part.
pub type CheckResult = Result<Report, Box<dyn std::error::Error + Send + Sync>>;

/// The fixed-seed generator of the bits the exhaustive part adds off the line.
pub use hq_core::SplitMix64;

/// `count` fixed-seed occupancies of about a quarter of the board (a
/// xorshift word and'ed with a rotation of itself), for tests that walk
/// every square over a spread of positions.
pub fn occupancies(seed: u64, count: usize) -> impl Iterator<Item = Bitboard> {
    let mut x = seed | 1;
    core::iter::repeat_with(move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        Bitboard(x & x.rotate_left(23))
    })
    .take(count)
}

/// Calls `f` with every subset of `mask` (the carry-rippler enumeration).
pub fn for_each_subset(mask: u64, mut f: impl FnMut(u64)) {
    let mut subset = 0u64;
    loop {
        f(subset);
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            break;
        }
    }
}

fn compare(
    backend: &'static str,
    what: impl FnOnce() -> String,
    expected: Bitboard,
    got: Bitboard,
) -> Result<(), Mismatch> {
    if expected == got {
        Ok(())
    } else {
        Err(Mismatch {
            backend,
            what: what(),
            expected,
            got,
        })
    }
}

/// Exhaustive single-line check. Returns the number of cases.
pub fn check_lines_exhaustive<B: SliderAttacks>(backend: B) -> Result<u64, Mismatch> {
    check_lines(backend, 1)
}

/// The single-line check over every `stride`-th case of the exhaustive one.
fn check_lines<B: SliderAttacks>(backend: B, stride: u64) -> Result<u64, Mismatch> {
    let mut rng = SplitMix64(0x5EED_0001);
    let mut cases = 0;
    let mut index = 0u64;
    for sq in Square::ALL {
        for line in Line::ALL {
            let mask = LINE_MASKS[sq as usize].get(line);
            let mut result = Ok(());
            for_each_subset(mask, |subset| {
                index += 1;
                if result.is_err() || !index.is_multiple_of(stride) {
                    return;
                }
                let noise = rng.next_u64() & !mask & !sq.bit();
                let own = if rng.next_u64() & 1 == 0 { 0 } else { sq.bit() };
                let occ = Bitboard(subset | noise | own);
                cases += 1;
                result = compare(
                    B::NAME,
                    || format!("line_attacks({line:?}, {sq}, {occ:?})"),
                    reference::line_attacks(line, sq, occ),
                    backend.line_attacks(line, sq, occ),
                );
            });
            result?;
        }
    }
    Ok(cases)
}

/// Exhaustive per-piece check. `stride` > 1 samples every `stride`-th subset
/// (by a fixed pattern) instead of all. Returns the number of cases.
pub fn check_pieces_exhaustive<B: SliderAttacks>(backend: B, stride: u64) -> Result<u64, Mismatch> {
    let mut rng = SplitMix64(0x5EED_0002);
    let mut cases = 0u64;
    // (the piece's lines, its name, the oracle, the backend's method)
    type PieceCheck<B> = (
        u64,
        &'static str,
        fn(Square, Bitboard) -> Bitboard,
        Attacks<B>,
    );
    type Attacks<B> = fn(B, Square, Bitboard) -> Bitboard;
    for sq in Square::ALL {
        let m = LINE_MASKS[sq as usize];
        let pieces: [PieceCheck<B>; 2] = [
            (
                m.rank | m.file,
                "rook",
                reference::rook_attacks,
                B::rook_attacks,
            ),
            (
                m.diagonal | m.anti_diagonal,
                "bishop",
                reference::bishop_attacks,
                B::bishop_attacks,
            ),
        ];
        let mut index = 0u64;
        for ((lines, piece, oracle, attacks), slider) in
            pieces.into_iter().zip([Slider::Rook, Slider::Bishop])
        {
            // The subsets numbered index + 1 ..= index + n in carry-rippler
            // order, every `stride`-th of them: the `j`-th is `deposit(j)`,
            // so a sample does not walk the skipped ones.
            let n = 1u64 << lines.count_ones();
            let first = (stride - (index + 1) % stride) % stride;
            for j in (first..n).step_by(stride as usize) {
                let subset = deposit(j, lines);
                let occ = Bitboard(subset | (rng.next_u64() & !lines & !sq.bit()));
                let queen_occ = Bitboard(subset | (rng.next_u64() & !lines));
                cases += 4;
                compare(
                    B::NAME,
                    || format!("{piece}_attacks({sq}, {occ:?})"),
                    oracle(sq, occ),
                    attacks(backend, sq, occ),
                )?;
                compare(
                    B::NAME,
                    || format!("queen_attacks({sq}, {queen_occ:?})"),
                    reference::queen_attacks(sq, queen_occ),
                    backend.queen_attacks(sq, queen_occ),
                )?;
                compare(
                    B::NAME,
                    || format!("single_in_any_caller({slider}, {sq}, {occ:?})"),
                    oracle(sq, occ),
                    backend.single_in_any_caller(slider, sq, occ),
                )?;
                compare(
                    B::NAME,
                    || format!("single_in_any_caller(queen, {sq}, {queen_occ:?})"),
                    reference::queen_attacks(sq, queen_occ),
                    backend.single_in_any_caller(Slider::Queen, sq, queen_occ),
                )?;
                for (slider, occ) in [(slider, occ), (Slider::Queen, queen_occ)] {
                    let key = B::single_key(slider, sq);
                    if key == 0 {
                        continue;
                    }
                    cases += 1;
                    assert!(
                        key & 1 << 63 == 0,
                        "{}: single_key({slider}, {sq}) has bit 63",
                        B::NAME
                    );
                    compare(
                        B::NAME,
                        || format!("single_keyed({slider}, {sq}, {occ:?})"),
                        crate::oracle(slider)(sq, occ),
                        // SAFETY: the square's own key, not 0.
                        unsafe { backend.single_keyed(slider, sq, occ, key) },
                    )?;
                }
            }
            index += n;
        }
    }
    Ok(cases)
}

/// The low bits of `bits` spread onto the set bits of `mask` (PDEP): the
/// `bits`-th subset of `mask` in [`for_each_subset`]'s order.
fn deposit(mut bits: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    while mask != 0 {
        if bits & 1 != 0 {
            out |= mask & mask.wrapping_neg();
        }
        bits >>= 1;
        mask &= mask - 1;
    }
    out
}

/// Random occupancies of several densities (about 6 %, 25 %, 50 %, 75 %).
fn random_occupancy(rng: &mut SplitMix64) -> Bitboard {
    let a = rng.next_u64();
    let b = rng.next_u64();
    let c = rng.next_u64();
    Bitboard(match rng.next_u64() % 4 {
        0 => a & b & c & rng.next_u64(),
        1 => a & b,
        2 => a,
        _ => a | b,
    })
}

/// The oracle's attacks of `slider` from one square.
fn oracle(slider: Slider) -> fn(Square, Bitboard) -> Bitboard {
    match slider {
        Slider::Rook => reference::rook_attacks,
        Slider::Bishop => reference::bishop_attacks,
        Slider::Queen => reference::queen_attacks,
    }
}

/// `slider`'s `*_attacks_pair` (the occupancy and its reversal).
fn pair<B: SliderAttacks>(slider: Slider) -> fn(B, Square, Bitboard, Bitboard) -> Bitboard {
    match slider {
        Slider::Rook => B::rook_attacks_pair,
        Slider::Bishop => B::bishop_attacks_pair,
        Slider::Queen => B::queen_attacks_pair,
    }
}

/// Batch entry points against the oracle, for lists of every length 0..=70.
pub fn check_batches<B: SliderAttacks>(backend: B, rounds: u32) -> Result<u64, Mismatch> {
    check_batches_up_to(backend, rounds, 70)
}

/// Batch entry points against the oracle, for lists of every length 0..=`max_len`.
fn check_batches_up_to<B: SliderAttacks>(
    backend: B,
    rounds: u32,
    max_len: usize,
) -> Result<u64, Mismatch> {
    let mut cases = 0;
    // The method, and its form for callers of any level (from this test's
    // portable code).
    for any_caller in [false, true] {
        cases += check_batch_kernel(
            B::NAME,
            |slider| match any_caller {
                false => format!("{slider}_attacks_batch"),
                true => format!("batch_in_any_caller({slider})"),
            },
            rounds,
            max_len,
            |slider, squares, occ, out| match any_caller {
                false => slider.batch(backend, squares, occ, out),
                true => backend.batch_in_any_caller(slider, squares, occ, out),
            },
        )?;
    }
    Ok(cases)
}

/// What [`check_batch_kernel`] puts in the words past a batch's output.
const BEYOND: Bitboard = Bitboard(0xDEAD_BEEF);

/// A batch kernel, `batch(slider, squares, occupancy, out)`, against the
/// oracle for every piece and for lists of every length 0..=`max_len`,
/// `rounds` times (`name` names the kernel in a mismatch): the loop of
/// [`check_batches`], for a kernel that is not a backend's entry point
/// (a hybrid backend's batch at each of its splits).
pub fn check_batch_kernel(
    backend: &'static str,
    name: impl Fn(Slider) -> String,
    rounds: u32,
    max_len: usize,
    mut batch: impl FnMut(Slider, &[Square], Bitboard, &mut [Bitboard]),
) -> Result<u64, Mismatch> {
    let mut rng = SplitMix64(0x5EED_0003);
    let mut cases = 0;
    for _ in 0..rounds {
        for len in 0..=max_len {
            let occ = random_occupancy(&mut rng);
            let squares: Vec<Square> = (0..len)
                .map(|_| Square::from_index_masked(rng.next_u64() as u8))
                .collect();
            for slider in Slider::ALL {
                // A register's worth of words past the list, which a
                // kernel's last, partial register must leave alone.
                let mut out = vec![BEYOND; len + 8];
                batch(slider, &squares, occ, &mut out[..len]);
                for (i, (&sq, &got)) in squares.iter().zip(&out).enumerate() {
                    cases += 1;
                    compare(
                        backend,
                        || format!("{}(len {len}, index {i}: {sq}, {occ:?})", name(slider)),
                        oracle(slider)(sq, occ),
                        got,
                    )?;
                }
                for (i, &word) in out.iter().enumerate().skip(len) {
                    compare(
                        backend,
                        || format!("{}(len {len}): the word {i}, past the list", name(slider)),
                        BEYOND,
                        word,
                    )?;
                }
            }
        }
    }
    Ok(cases)
}

/// Set-wise entry points against the union of per-piece oracle answers.
pub fn check_setwise<B: SliderAttacks>(backend: B, rounds: u32) -> Result<u64, Mismatch> {
    check_setwise_with(backend, rounds, true)
}

/// Set-wise entry points on `rounds` random sets, and on the board's edges
/// and lines in full if `fixed`.
fn check_setwise_with<B: SliderAttacks>(
    backend: B,
    rounds: u32,
    fixed: bool,
) -> Result<u64, Mismatch> {
    // The method, and its form for callers of any level (from this test's
    // portable code).
    let method = check_setwise_of(
        B::NAME,
        |name| format!("{name}_attacks_setwise"),
        |slider, sliders, occ| slider.setwise(backend, sliders, occ),
        rounds,
        fixed,
    )?;
    let any_caller = check_setwise_of(
        B::NAME,
        |name| format!("setwise_in_any_caller({name})"),
        |slider, sliders, occ| backend.setwise_in_any_caller(slider, sliders, occ),
        rounds,
        fixed,
    )?;
    Ok(method + any_caller)
}

/// [`check_setwise_with`] over `entry`, `backend`'s set-wise function
/// (named by `form` from the piece's name) of each slider.
fn check_setwise_of(
    backend: &'static str,
    form: fn(&str) -> String,
    entry: impl Fn(Slider, Bitboard, Bitboard) -> Bitboard,
    rounds: u32,
    fixed: bool,
) -> Result<u64, Mismatch> {
    let mut cases = 0;
    // Slider sets: every size 0..=16 at random, then the random shapes of
    // several densities, then the board's edges and lines in full.
    let random_sets = (0..rounds).map(|round| {
        let mut rng2 = SplitMix64(0x5EED_0005 ^ u64::from(round));
        let occ = random_occupancy(&mut rng2);
        let sliders = match round % 6 {
            0 => Bitboard(pick(&mut rng2, !0, round % 17)),
            1 => Bitboard(1u64 << (rng2.next_u64() % 64)),
            2 => Bitboard(rng2.next_u64() & rng2.next_u64() & rng2.next_u64()),
            3 => Bitboard(rng2.next_u64() & occ.0),
            4 => Bitboard(pick(&mut rng2, occ.0, round % 17)),
            _ => Bitboard(rng2.next_u64()),
        };
        (sliders, occ)
    });
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const RANK_1: u64 = 0xFF;
    const EDGES: u64 = FILE_A | FILE_A << 7 | RANK_1 | RANK_1 << 56;
    let mut shapes = vec![
        EDGES,
        !0,
        FILE_A | FILE_A << 7,
        RANK_1 | RANK_1 << 56,
        0x8100_0000_0000_0081,
    ];
    shapes.extend((0..8).map(|i| FILE_A << i));
    shapes.extend((0..8).map(|i| RANK_1 << (8 * i)));
    let shapes = if fixed { shapes } else { Vec::new() };
    let fixed = shapes.into_iter().flat_map(|sliders| {
        [0, !0, 0x0000_FFFF_FFFF_0000, 0x55AA_55AA_55AA_55AA]
            .map(|occ| (Bitboard(sliders), Bitboard(occ)))
    });
    for (sliders, occ) in random_sets.chain(fixed) {
        for slider in Slider::ALL {
            let (name, oracle) = (slider.name(), oracle(slider));
            let all = occ | sliders;
            let expected = sliders
                .iter()
                .fold(Bitboard::EMPTY, |acc, sq| acc | oracle(sq, all));
            cases += 1;
            compare(
                backend,
                || format!("{}(sliders {sliders:?}, occupancy {occ:?})", form(name)),
                expected,
                entry(slider, sliders, occ),
            )?;
        }
    }
    Ok(cases)
}

/// `n` squares of `from` (fewer if it has fewer), chosen at random.
fn pick(rng: &mut SplitMix64, from: u64, n: u32) -> u64 {
    let mut picked = 0u64;
    let mut left = from;
    while picked.count_ones() < n && left != 0 {
        let sq = rng.next_u64() % 64;
        if left & (1 << sq) != 0 {
            picked |= 1 << sq;
            left &= !(1 << sq);
        }
    }
    picked
}

/// proptest over random squares and occupancies for every single-square entry point.
pub fn check_random<B: SliderAttacks>(
    backend: B,
    cases: u32,
) -> Result<u64, Box<dyn std::error::Error + Send + Sync>> {
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let occupancy = prop_oneof![
        any::<u64>(),
        (any::<u64>(), any::<u64>()).prop_map(|(a, b)| a & b),
        (any::<u64>(), any::<u64>(), any::<u64>()).prop_map(|(a, b, c)| a & b & c),
        (any::<u64>(), any::<u64>()).prop_map(|(a, b)| a | b),
    ];
    runner
        .run(&(0u8..64, occupancy), |(index, occ)| {
            let sq = Square::new(index).expect("strategy yields 0..64");
            let occ = Bitboard(occ);
            let check = |what: &str, expected: Bitboard, got: Bitboard| {
                compare(B::NAME, || format!("{what}({sq}, {occ:?})"), expected, got)
                    .map_err(|m| TestCaseError::fail(m.to_string()))
            };
            for slider in Slider::ALL {
                check(
                    &format!("{}_attacks", slider.name()),
                    oracle(slider)(sq, occ),
                    slider.single(backend, sq, occ),
                )?;
            }
            for line in Line::ALL {
                check(
                    line.name(),
                    reference::line_attacks(line, sq, occ),
                    backend.line_attacks(line, sq, occ),
                )?;
            }
            let reversed = occ.rotate_180();
            for slider in Slider::ALL {
                check(
                    &format!("{}_attacks_pair", slider.name()),
                    oracle(slider)(sq, occ),
                    pair::<B>(slider)(backend, sq, occ, reversed),
                )?;
            }
            Ok(())
        })
        .map_err(|e| format!("backend {}: proptest failed: {e}", B::NAME))?;
    Ok(u64::from(cases))
}

/// Runs the whole suite on `backend`.
pub fn check<B: SliderAttacks>(backend: B, depth: Depth) -> CheckResult {
    // (line stride, piece stride, batch rounds, longest batch, set-wise
    // rounds, the fixed set-wise shapes, proptest cases)
    let (lines, pieces, rounds, max_len, setwise, fixed, random) = match depth {
        Depth::Full => (1, 1, 40, 70, 10_000, true, 20_000),
        Depth::Quick => (1, 61, 2, 70, 500, true, 500),
        Depth::Miri => (127, 9973, 1, 8, 8, false, 2),
    };
    Ok(Report {
        backend: B::NAME,
        line_cases: check_lines(backend, lines)?,
        piece_cases: check_pieces_exhaustive(backend, pieces)?,
        batch_cases: check_batches_up_to(backend, rounds, max_len)?,
        setwise_cases: check_setwise_with(backend, setwise, fixed)?,
        random_cases: check_random(backend, random)?,
    })
}

/// Runs the suite on `B` if this CPU supports it and prints the report;
/// otherwise prints that `B` was **skipped** and which features are missing,
/// and returns `None`. Panics with the first mismatch. Under Miri the depth
/// is [`Depth::scaled`] down.
pub fn check_or_skip<B: SliderAttacks>(depth: Depth) -> Option<Report> {
    let depth = depth.scaled();
    let backend = require_or_skip::<B>()?;
    match check(backend, depth) {
        Ok(report) => {
            println!("{report}");
            Some(report)
        }
        Err(e) => panic!("{e}"),
    }
}

/// `B`'s token if this CPU supports it; otherwise prints that `B` was
/// **skipped** and which features are missing, and returns `None`. The test
/// passes, but `cargo xtask test` reads the `SKIPPED` line: its step counts
/// as passed only where another step ran `B` (an emulated or cross CPU). Panics
/// if `/proc/cpuinfo` lists every feature of `B`'s level all the same (a
/// wrong detection would skip a suite the CPU could run).
pub fn require_or_skip<B: SliderAttacks>() -> Option<B> {
    match B::require() {
        Ok(backend) => Some(backend),
        Err(missing) => {
            if let Some(listed) = kernel_lists_level(B::LEVEL) {
                panic!(
                    "hq-testkit: backend {} refused ({missing}), but /proc/cpuinfo lists every \
                     feature of its level ({listed}): the detection is wrong, and its suite \
                     would be skipped on a CPU that has it",
                    B::NAME
                );
            }
            println!("hq-testkit: SKIPPED backend {}: {missing}", B::NAME);
            None
        }
    }
}

/// The full suite on `B` ([`check_or_skip`] at [`Depth::Full`]), as a
/// backend crate's test runs it: a token this CPU lacks is reported
/// skipped, but a portable one (level `Baseline`, which every CPU runs)
/// must not be.
pub fn check_full_suite<B: SliderAttacks>() -> Option<Report> {
    let report = check_or_skip::<B>(Depth::Full);
    assert!(
        report.is_some() || B::LEVEL != hq_core::cpu::Level::Baseline,
        "hq-testkit: portable backend {} was skipped",
        B::NAME
    );
    report
}

/// One `#[test]` per `test_name: Token` pair, each running
/// [`check_full_suite`] on its token: a backend crate's whole
/// `tests/suite.rs`, one named test per token (so that a filter such as
/// `avx512` runs one backend's suite alone).
#[macro_export]
macro_rules! full_suite_tests {
    ($($test:ident: $token:ty),+ $(,)?) => {$(
        #[test]
        fn $test() {
            $crate::check_full_suite::<$token>();
        }
    )+};
}

/// The features of `level` as the Linux kernel names them, if
/// `/proc/cpuinfo` lists all of them: a second opinion on the CPU, apart
/// from the detection a token trusts. `None` where the file does not
/// describe this CPU ([`kernel_flags`]), off x86-64, or when a feature is
/// missing.
fn kernel_lists_level(level: hq_core::cpu::Level) -> Option<String> {
    if level.arch() != Some("x86_64") {
        return None;
    }
    let flags = kernel_flags()?;
    let names: Vec<&str> = level
        .features()
        .iter()
        .map(|f| kernel_flag(f.name()))
        .collect();
    names
        .iter()
        .all(|n| flags.iter().any(|f| f == n))
        .then(|| names.join(" "))
}

/// The flags `/proc/cpuinfo` lists, where it describes the CPU this code
/// runs on: x86-64, not under Miri, and its model name is the brand string
/// CPUID gives here. A user-mode emulator (`qemu-x86_64 -cpu Haswell`, the
/// fallback runs of `cargo xtask emu-test`) gives its model's CPUID but the
/// host's `/proc/cpuinfo`, which then has no say.
fn kernel_flags() -> Option<Vec<String>> {
    if !cfg!(target_arch = "x86_64") || cfg!(miri) {
        return None;
    }
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let field = |name: &str| {
        cpuinfo.lines().find_map(|l| {
            let (key, value) = l.split_once(':')?;
            (key.trim() == name).then(|| value.trim())
        })
    };
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    if words(field("model name")?) != words(&hq_core::identity::brand_string()?) {
        return None;
    }
    Some(
        field("flags")?
            .split_whitespace()
            .map(String::from)
            .collect(),
    )
}

/// The `/proc/cpuinfo` flag of an x86-64 feature named as `#[target_feature]` names it.
fn kernel_flag(name: &str) -> &str {
    match name {
        "sse3" => "pni",
        "sse4.1" => "sse4_1",
        "sse4.2" => "sse4_2",
        "lzcnt" => "abm",
        "avx512vbmi2" => "avx512_vbmi2",
        "avx512bitalg" => "avx512_bitalg",
        "avx512vnni" => "avx512_vnni",
        "avx512vpopcntdq" => "avx512_vpopcntdq",
        other => other,
    }
}

#[cfg(test)]
mod tests;
