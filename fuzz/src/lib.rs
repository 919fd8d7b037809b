//! What the fuzz targets share: the checks of every entry point against the
//! oracle (`hq::reference`, ray walking), the backends this CPU runs, the
//! deliberately wrong backend of the self-test, and expected panics.
//!
//! A disagreement panics with `backend NAME disagrees with the oracle on
//! ...`: libFuzzer's panic hook turns it into a crash, and the input into an
//! artifact.

use hq::cpu::Level;
use hq::{Backend, Bitboard, Line, Slider, SliderAttacks, Square, WithBackend, reference};
use std::cell::Cell;
use std::panic::AssertUnwindSafe;
use std::sync::{Once, OnceLock};

/// The environment variable that arms the planted bug ([`Planted`]): the
/// self-test of `cargo xtask test` sets it to 1.
pub const PLANT_VAR: &str = "HQ_FUZZ_PLANT";

/// The backends this CPU runs (all of them are compiled in: the fuzz crate
/// enables `all-backends`).
pub fn backends() -> &'static [Backend] {
    static SUPPORTED: OnceLock<Vec<Backend>> = OnceLock::new();
    SUPPORTED.get_or_init(|| Backend::supported().collect())
}

/// Whether [`Planted`] joins the backends ([`PLANT_VAR`] is 1).
pub fn planted() -> bool {
    static ARMED: OnceLock<bool> = OnceLock::new();
    *ARMED.get_or_init(|| std::env::var(PLANT_VAR).is_ok_and(|v| v == "1"))
}

/// A deliberately wrong backend, for the self-test only (as hq-testkit's
/// `OffByOneCase`): right everywhere except in one case, a rook or queen on
/// h8 whose rank holds exactly one blocker, on b8, which it also "sees"
/// through to a8. One square and one pattern of 7 bits: random occupancies
/// hit it once in 8,192 inputs at best; the fuzzer must find it.
#[derive(Clone, Copy, Debug)]
pub struct Planted(());

impl SliderAttacks for Planted {
    const NAME: &'static str = "planted-bug";
    const LEVEL: Level = Level::Baseline;
    // The oracle walks the rays; the planted case tests a literal mask.
    const TABLE_BYTES: usize = 0;
    unsafe fn new_unchecked() -> Self {
        Planted(())
    }
    fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
        let right = reference::line_attacks(line, sq, occupancy);
        // h8's rank without h8: a8-g8.
        let on_line = occupancy.0 & 0x7F << 56;
        if sq == Square::H8 && line == Line::Rank && on_line == Square::B8.bit() {
            right | Bitboard::from(Square::A8)
        } else {
            right
        }
    }
}

/// Runs `job` on every backend this CPU runs, each compiled for its
/// instruction set (`hq::with_backend`); when armed, on [`Planted`] alone.
///
/// Armed, the real backends are left out: the self-test asks whether the
/// target's check finds a backend that disagrees with the oracle, and
/// each real backend only slowed its executions (with 16 backends the
/// unoptimised self-test reached 3,727 executions in its 10 s on the
/// Intel Xeon 6/0xa7 without finding the bug; alone, it found it after
/// 2,810 executions, 2.1 s). The unarmed runs fuzz the real backends.
pub fn on_every_backend<W: WithBackend<Output = ()> + Copy>(job: W) {
    if planted() {
        // SAFETY: a portable token (level Baseline): every CPU runs it.
        job.run(unsafe { Planted::new_unchecked() });
        return;
    }
    for &backend in backends() {
        if let Err(e) = hq::with_backend(backend, job) {
            panic!("{backend} was detected as supported, then refused: {e}");
        }
    }
}

/// Panics unless `got` is the oracle's `expected`.
#[track_caller]
pub fn agree(backend: &str, what: impl FnOnce() -> String, expected: Bitboard, got: Bitboard) {
    if expected != got {
        panic!(
            "backend {backend} disagrees with the oracle on {}: expected {expected:?}, got {got:?}",
            what()
        );
    }
}

/// The square of any byte (its low 6 bits): every input names a square.
pub fn square(byte: u8) -> Square {
    Square::from_index_masked(byte)
}

/// The panic message of a batch call whose lengths differ (the documented
/// behaviour: `hq_core::check_batch_lengths`).
pub fn batch_length_message(squares: usize, out: usize) -> String {
    format!(
        "batch attack call: `squares` has {squares} entries but `out` has {out}; they must be equal"
    )
}

thread_local! {
    static EXPECTING_PANIC: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, which must panic, and returns the panic's message. The panic
/// hook keeps quiet for it: libFuzzer's own hook, which aborts (a crash),
/// still handles every other panic.
pub fn expect_panic(f: impl FnOnce()) -> String {
    static QUIET_HOOK: Once = Once::new();
    QUIET_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !EXPECTING_PANIC.get() {
                previous(info);
            }
        }));
    });
    EXPECTING_PANIC.set(true);
    let result = std::panic::catch_unwind(AssertUnwindSafe(f));
    EXPECTING_PANIC.set(false);
    let payload = match result {
        Ok(()) => panic!("expected a panic, and the call returned"),
        Err(payload) => payload,
    };
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

/// Every single-square entry point against the oracle: rook, bishop and
/// queen attacks, each line, and the pair entry points (with the reversed
/// occupancy).
#[derive(Clone, Copy, Debug)]
pub struct Singles {
    /// The slider's square.
    pub sq: Square,
    /// The occupancy.
    pub occ: Bitboard,
}

impl WithBackend for Singles {
    type Output = ();
    fn run<B: SliderAttacks>(self, b: B) {
        let Singles { sq, occ } = self;
        let reversed = occ.rotate_180();
        let what = |f: &'static str| move || format!("{f}({sq}, {occ:?})");
        let (rook, bishop) = (
            reference::rook_attacks(sq, occ),
            reference::bishop_attacks(sq, occ),
        );
        let queen = reference::queen_attacks(sq, occ);
        agree(B::NAME, what("rook_attacks"), rook, b.rook_attacks(sq, occ));
        agree(
            B::NAME,
            what("bishop_attacks"),
            bishop,
            b.bishop_attacks(sq, occ),
        );
        agree(
            B::NAME,
            what("queen_attacks"),
            queen,
            b.queen_attacks(sq, occ),
        );
        for line in Line::ALL {
            agree(
                B::NAME,
                what(line.name()),
                reference::line_attacks(line, sq, occ),
                b.line_attacks(line, sq, occ),
            );
        }
        let pair = |f: &'static str| move || format!("{f}({sq}, {occ:?}, reversed {reversed:?})");
        agree(
            B::NAME,
            pair("rook_attacks_pair"),
            rook,
            b.rook_attacks_pair(sq, occ, reversed),
        );
        agree(
            B::NAME,
            pair("bishop_attacks_pair"),
            bishop,
            b.bishop_attacks_pair(sq, occ, reversed),
        );
        agree(
            B::NAME,
            pair("queen_attacks_pair"),
            queen,
            b.queen_attacks_pair(sq, occ, reversed),
        );
        // The forms for callers of any level (the `asm!` kernels of the
        // SIMD tokens), which the free functions of a build without the
        // backend's level run: unkeyed, and keyed where the token has keys.
        for (slider, expected) in [
            (Slider::Rook, rook),
            (Slider::Bishop, bishop),
            (Slider::Queen, queen),
        ] {
            let any = move |f: &'static str| move || format!("{f}({slider}, {sq}, {occ:?})");
            agree(
                B::NAME,
                any("single_in_any_caller"),
                expected,
                b.single_in_any_caller(slider, sq, occ),
            );
            let key = B::single_key(slider, sq);
            if key != 0 {
                // SAFETY: the square's own key, not 0.
                let keyed = unsafe { b.single_keyed(slider, sq, occ, key) };
                agree(B::NAME, any("single_keyed"), expected, keyed);
            }
        }
    }
}

/// A batch entry point of a backend, and the oracle of its squares.
type BatchKind<B> = (
    &'static str,
    fn(B, &[Square], Bitboard, &mut [Bitboard]),
    fn(Square, Bitboard) -> Bitboard,
);

/// The three batch entry points against the oracle on `squares` (any
/// length), with an output of `out_len` entries: equal lengths must give
/// the oracle's answer in every entry, others the documented panic.
#[derive(Clone, Copy, Debug)]
pub struct Batches<'a> {
    /// The sliders' squares.
    pub squares: &'a [Square],
    /// The occupancy.
    pub occ: Bitboard,
    /// The output's length.
    pub out_len: usize,
}

impl WithBackend for Batches<'_> {
    type Output = ();
    fn run<B: SliderAttacks>(self, b: B) {
        let kinds: [BatchKind<B>; 3] = [
            (
                "rook_attacks_batch",
                B::rook_attacks_batch,
                reference::rook_attacks,
            ),
            (
                "bishop_attacks_batch",
                B::bishop_attacks_batch,
                reference::bishop_attacks,
            ),
            (
                "queen_attacks_batch",
                B::queen_attacks_batch,
                reference::queen_attacks,
            ),
        ];
        for (name, batch, oracle) in kinds {
            check_batch(B::NAME, name, |s, o, out| batch(b, s, o, out), oracle, self);
        }
    }
}

/// One batch entry point (a backend's or a free function) against the oracle.
pub fn check_batch(
    backend: &str,
    name: &str,
    batch: impl Fn(&[Square], Bitboard, &mut [Bitboard]),
    oracle: fn(Square, Bitboard) -> Bitboard,
    input: Batches<'_>,
) {
    let Batches {
        squares,
        occ,
        out_len,
    } = input;
    let mut out = vec![Bitboard(0xDEAD_BEEF); out_len];
    if out_len != squares.len() {
        let message = expect_panic(|| batch(squares, occ, &mut out));
        let expected = batch_length_message(squares.len(), out_len);
        assert_eq!(
            message,
            expected,
            "backend {backend}: {name} with {} squares and {out_len} outputs",
            squares.len()
        );
        return;
    }
    batch(squares, occ, &mut out);
    for (i, (&sq, &got)) in squares.iter().zip(&out).enumerate() {
        agree(
            backend,
            || format!("{name}(len {out_len}, index {i}: {sq}, {occ:?})"),
            oracle(sq, occ),
            got,
        );
    }
}

/// The union of `oracle` over the sliders, which block each other: what
/// every set-wise entry point must return.
pub fn setwise_oracle(
    sliders: Bitboard,
    occ: Bitboard,
    oracle: fn(Square, Bitboard) -> Bitboard,
) -> Bitboard {
    let all = occ | sliders;
    sliders
        .iter()
        .fold(Bitboard::EMPTY, |acc, sq| acc | oracle(sq, all))
}

/// The three set-wise entry points against the oracle.
#[derive(Clone, Copy, Debug)]
pub struct Setwise {
    /// The sliders.
    pub sliders: Bitboard,
    /// The occupancy (the sliders count as occupied whether or not it has them).
    pub occ: Bitboard,
}

impl WithBackend for Setwise {
    type Output = ();
    fn run<B: SliderAttacks>(self, b: B) {
        let Setwise { sliders, occ } = self;
        let what = |f: &'static str| move || format!("{f}(sliders {sliders:?}, {occ:?})");
        agree(
            B::NAME,
            what("rook_attacks_setwise"),
            setwise_oracle(sliders, occ, reference::rook_attacks),
            b.rook_attacks_setwise(sliders, occ),
        );
        agree(
            B::NAME,
            what("bishop_attacks_setwise"),
            setwise_oracle(sliders, occ, reference::bishop_attacks),
            b.bishop_attacks_setwise(sliders, occ),
        );
        agree(
            B::NAME,
            what("queen_attacks_setwise"),
            setwise_oracle(sliders, occ, reference::queen_attacks),
            b.queen_attacks_setwise(sliders, occ),
        );
    }
}
