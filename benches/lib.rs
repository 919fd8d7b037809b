//! Inputs, workloads, reference implementations and the criterion driver
//! shared by the benchmarks.
//!
//! Inputs follow the Chess_Movegen method, so figures are comparable with its
//! public table: occupancies `rand64() & rand64()` (about 25 % density) from
//! a fixed-seed xorshift generator, random squares, results xor-folded into a
//! sink that is passed to `black_box`.
//!
//! Everything that is measured implements [`Lookup`]: the backends of `hq`
//! ([`Ours`], compiled for each backend's instruction set), the facade's free
//! functions ([`Facade`]), a loop under `hq::with_active_backend` ([`Job`]),
//! the reference methods ([`mod@reference`]) and, in the bench targets (they are
//! dev-dependencies), the peer crates. [`runner::Bench`] checks each one
//! against the oracle `hq::reference` and times every workload of
//! [`Workload`] with criterion.

pub mod engine;
pub mod reference;
pub mod runner;

use std::sync::atomic::{AtomicU32, Ordering};

use hq::{Bitboard, SliderAttacks, Square, WithBackend};

/// How many (square, occupancy) pairs one benchmark iteration walks through.
pub const INPUTS: usize = 4096;

/// The (square, occupancy) pairs of the arrays loop
/// ([`EngineLoop::Arrays`]): Chess_Movegen's shape, 100,000 pairs in two
/// arrays (900 KB beside the lookup's tables, where [`INPUTS`]' 64 KB stay
/// in L2).
pub const ARRAY_PAIRS: usize = 100_000;

/// Words in the cache-pressure buffer: 64 MiB of `u64`, far beyond any L3
/// share of a core, as a transposition table is.
pub const TT_WORDS: usize = 64 * 1024 * 1024 / 8;

/// A fixed-seed xorshift64 generator (Marsaglia).
#[derive(Clone, Debug)]
pub struct XorShift(pub u64);

impl XorShift {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// One lookup's input.
#[derive(Clone, Copy, Debug)]
pub struct Input {
    /// The slider's square.
    pub square: Square,
    /// The occupancy, about 25 % dense.
    pub occupancy: Bitboard,
    /// A random word of the cache-pressure buffer, read beside this lookup.
    pub tt_index: u32,
}

/// One set-wise call's input: an occupancy and, per [`Crowd`], two slider
/// sets (subsets of it, each with a random count in the crowd's range).
///
/// Each call takes one of the two by a bit of `pick`, a different bit every
/// round ([`next_round`]), so the sequence of slider counts repeats only
/// after 64 rounds of [`INPUTS`] calls. With one fixed set per input the
/// branch predictor learned the 4096 counts of a round for some code shapes
/// and not for others: a per-piece loop ran with 1-2 queens as fast as the
/// mean of its runs with 1 and with 2, and `avx2`'s set-wise entry, the same
/// loop behind a crossover test, at 0.6x it, against 0.95x with every count
/// fixed (criterion, Intel Xeon). That measured the predictor's memory of
/// the bench, not the code: an engine does not replay the same 4096 calls.
#[derive(Clone, Copy, Debug)]
pub struct SetwiseInput {
    /// The occupancy, as [`Input::occupancy`].
    pub occupancy: Bitboard,
    /// Two slider sets per crowd.
    pub sliders: [[Bitboard; 2]; 3],
    /// Which of the two each round takes: bit `round` (0 or 1).
    pub pick: u64,
}

impl SetwiseInput {
    /// The slider set of `crowd` in `round` (taken modulo 64).
    #[inline(always)]
    pub fn sliders(&self, crowd: Crowd, round: u32) -> Bitboard {
        self.sliders[crowd as usize][((self.pick >> (round & 63)) & 1) as usize]
    }
}

/// The lowest `n` squares of `bb`.
fn lowest(bb: u64, n: u32) -> u64 {
    let mut rest = bb;
    for _ in 0..n {
        rest &= rest.wrapping_sub(1);
    }
    bb & !rest
}

/// [`INPUTS`] inputs from the fixed seed.
pub fn inputs() -> Vec<Input> {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    (0..INPUTS)
        .map(|_| {
            let square = Square::from_index_masked(rng.next_u64() as u8);
            // About 25 % dense, and at least 14 squares so that every crowd fits.
            let occupancy = loop {
                let occ = rng.next_u64() & rng.next_u64();
                if occ.count_ones() >= 14 {
                    break occ;
                }
            };
            let tt_index = (rng.next_u64() % TT_WORDS as u64) as u32;
            Input {
                square,
                occupancy: Bitboard(occupancy),
                tt_index,
            }
        })
        .collect()
}

/// [`ARRAY_PAIRS`] pairs from a fixed seed, as Chess_Movegen draws them:
/// squares uniform, occupancies `a & b` of two draws (about 25 % dense).
pub fn arrays() -> Arrays {
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    let (mut squares, mut occupancies) = (Vec::new(), Vec::new());
    for _ in 0..ARRAY_PAIRS {
        squares.push(Square::from_index_masked(rng.next_u64() as u8));
        occupancies.push(Bitboard(rng.next_u64() & rng.next_u64()));
    }
    Arrays {
        squares,
        occupancies,
    }
}

/// The arrays loop's inputs: squares and occupancies in arrays of their own.
pub struct Arrays {
    /// The squares.
    pub squares: Vec<Square>,
    /// The occupancies, one per square.
    pub occupancies: Vec<Bitboard>,
}

/// The set-wise inputs over the occupancies of `inputs`, from a fixed seed.
pub fn setwise_inputs(inputs: &[Input]) -> Vec<SetwiseInput> {
    let mut rng = XorShift(0xD1B5_4A32_D192_ED03);
    inputs
        .iter()
        .map(|input| {
            let occupancy = input.occupancy.0;
            // The sliders are spread over the occupancy: its squares, rotated
            // by a random amount, then the lowest n of them.
            let mut spread = |crowd: Crowd| {
                let (lo, hi) = crowd.range();
                let n = lo + (rng.next_u64() % u64::from(hi - lo + 1)) as u32;
                let shift = rng.next_u64() as u32 & 63;
                Bitboard(lowest(occupancy.rotate_right(shift), n).rotate_left(shift))
            };
            let sliders = Crowd::ALL.map(|crowd| [spread(crowd), spread(crowd)]);
            SetwiseInput {
                occupancy: input.occupancy,
                sliders,
                pick: rng.next_u64(),
            }
        })
        .collect()
}

/// How many sliders a set-wise call unites.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crowd {
    /// 1 or 2 sliders (the queens of a side, a pair of rooks).
    Few,
    /// 4 to 6 (all rook and queen lines of both sides, say).
    Typical,
    /// 10 to 14 (many sliders: a stress case, and where set-wise kernels pay).
    Many,
}

impl Crowd {
    /// All three.
    pub const ALL: [Crowd; 3] = [Crowd::Few, Crowd::Typical, Crowd::Many];

    /// The inclusive range of slider counts.
    pub const fn range(self) -> (u32, u32) {
        match self {
            Crowd::Few => (1, 2),
            Crowd::Typical => (4, 6),
            Crowd::Many => (10, 14),
        }
    }
}

/// The 64 MiB buffer the cache-pressure workload reads, filled with random
/// words so that every page is really backed by memory.
pub struct TtBuffer(Box<[u64; TT_WORDS]>);

impl TtBuffer {
    /// A freshly written buffer, on 2 MiB pages where Linux grants them
    /// ([`hq_chess::huge_page_vec`]): on 4 KiB pages the cache column was
    /// the least steady of two back-to-back runs.
    pub fn new() -> TtBuffer {
        let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
        let mut words: Vec<u64> = hq_chess::huge_page_vec(TT_WORDS);
        words.extend((0..TT_WORDS).map(|_| rng.next_u64()));
        TtBuffer(
            words
                .into_boxed_slice()
                .try_into()
                .expect("the buffer has TT_WORDS words"),
        )
    }

    /// The share of the buffer Linux backs with 2 MiB pages
    /// ([`hq_chess::huge_page_share`]).
    pub fn huge_page_share(&self) -> Option<f64> {
        hq_chess::huge_page_share(&self.0[..])
    }

    /// The word at `index` (wrapped into the buffer: no bounds check in the loop).
    #[inline(always)]
    pub fn read(&self, index: u32) -> u64 {
        self.0[index as usize & (TT_WORDS - 1)]
    }
}

impl Default for TtBuffer {
    fn default() -> Self {
        TtBuffer::new()
    }
}

/// The set-wise workloads' round counter (see [`SetwiseInput`]): a static,
/// not a field of [`Data`], so that `Data` holds no interior mutability.
/// With it inside, `&Data` was not read-only to the optimizer, and a loop
/// with a call anywhere in it (a free function's cold path) reloaded the
/// cache buffer's address on every iteration, where a token's loop had it
/// in a register: the cache column then measured that, not the lookups.
static ROUND: AtomicU32 = AtomicU32::new(0);

/// The next set-wise round.
pub fn next_round() -> u32 {
    ROUND.fetch_add(1, Ordering::Relaxed)
}

/// Everything a workload reads (nothing in it changes).
pub struct Data {
    /// The lookups' inputs.
    pub inputs: Vec<Input>,
    /// The set-wise calls' inputs, one per lookup input.
    pub setwise: Vec<SetwiseInput>,
    /// The inputs' squares in order: the batch workload's square lists (64
    /// per call, different every call, so that nothing about them can be
    /// hoisted out of the loop).
    pub squares: Vec<Square>,
    /// The cache-pressure buffer.
    pub tt: TtBuffer,
    /// The arrays loop's pairs.
    pub arrays: Arrays,
}

impl Data {
    /// The fixed inputs and a fresh buffer.
    pub fn new() -> Data {
        let inputs = inputs();
        Data {
            squares: inputs.iter().map(|i| i.square).collect(),
            setwise: setwise_inputs(&inputs),
            inputs,
            tt: TtBuffer::new(),
            arrays: arrays(),
        }
    }
}

impl Default for Data {
    fn default() -> Self {
        Data::new()
    }
}

/// Which attack set to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Rook.
    Rook,
    /// Bishop.
    Bishop,
    /// Queen.
    Queen,
}

impl Piece {
    /// All three, queen first (the Chess_Movegen anchor).
    pub const ALL: [Piece; 3] = [Piece::Queen, Piece::Rook, Piece::Bishop];

    /// The facade's name for the piece (its plans and latency choices are per slider).
    pub fn slider(self) -> hq::Slider {
        match self {
            Piece::Rook => hq::Slider::Rook,
            Piece::Bishop => hq::Slider::Bishop,
            Piece::Queen => hq::Slider::Queen,
        }
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Piece::Rook => "rook",
            Piece::Bishop => "bishop",
            Piece::Queen => "queen",
        }
    }

    /// The oracle's attack set.
    pub fn reference(self, sq: Square, occ: Bitboard) -> Bitboard {
        match self {
            Piece::Rook => hq::reference::rook_attacks(sq, occ),
            Piece::Bishop => hq::reference::bishop_attacks(sq, occ),
            Piece::Queen => hq::reference::queen_attacks(sq, occ),
        }
    }
}

/// What a benchmark measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// Independent lookups over the inputs, xor-folded (the Chess_Movegen method).
    Throughput,
    /// A dependency chain: each occupancy depends on the previous result.
    Latency,
    /// The batch entry point: all 64 squares over one occupancy per call.
    Batch,
    /// The set-wise entry point: the union of the attacks of a slider set of
    /// the given crowd, one call per input (counted as one lookup).
    Setwise(Crowd),
    /// Throughput interleaved with one random read of a 64 MiB buffer per
    /// lookup, as transposition-table probes cause in an engine.
    Cache,
    /// The engine-shaped loop of [`engine`]: a generic helper in this crate
    /// taking the lookup as a closure, no barrier on the inputs.
    Engine(EngineLoop),
}

/// What the engine-shaped loop ([`engine`]) calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineLoop {
    /// Single lookups, as [`Workload::Throughput`].
    Throughput,
    /// Batches, as [`Workload::Batch`].
    Batch,
    /// Set-wise calls, as [`Workload::Setwise`].
    Setwise(Crowd),
    /// Single lookups over [`Data::arrays`], Chess_Movegen's loop: larger
    /// inputs, each field in its own array.
    Arrays,
}

impl Workload {
    /// Every workload, in table order.
    pub const ALL: [Workload; 7] = [
        Workload::Throughput,
        Workload::Latency,
        Workload::Batch,
        Workload::Setwise(Crowd::Few),
        Workload::Setwise(Crowd::Typical),
        Workload::Setwise(Crowd::Many),
        Workload::Cache,
    ];

    /// The engine-shaped loops, in table order.
    pub const ENGINE: [Workload; 6] = [
        Workload::Engine(EngineLoop::Throughput),
        Workload::Engine(EngineLoop::Arrays),
        Workload::Engine(EngineLoop::Batch),
        Workload::Engine(EngineLoop::Setwise(Crowd::Few)),
        Workload::Engine(EngineLoop::Setwise(Crowd::Typical)),
        Workload::Engine(EngineLoop::Setwise(Crowd::Many)),
    ];

    /// Lower-case name (the criterion group is `<piece>/<workload>`).
    pub fn name(self) -> &'static str {
        match self {
            Workload::Engine(EngineLoop::Throughput) => "engine-throughput",
            Workload::Engine(EngineLoop::Arrays) => "engine-arrays",
            Workload::Engine(EngineLoop::Batch) => "engine-batch",
            Workload::Engine(EngineLoop::Setwise(Crowd::Few)) => "engine-setwise-few",
            Workload::Engine(EngineLoop::Setwise(Crowd::Typical)) => "engine-setwise-typical",
            Workload::Engine(EngineLoop::Setwise(Crowd::Many)) => "engine-setwise-many",
            Workload::Throughput => "throughput",
            Workload::Latency => "latency",
            Workload::Batch => "batch",
            Workload::Setwise(Crowd::Few) => "setwise-few",
            Workload::Setwise(Crowd::Typical) => "setwise-typical",
            Workload::Setwise(Crowd::Many) => "setwise-many",
            Workload::Cache => "cache",
        }
    }
}

/// Anything whose attack sets can be timed: a backend, a peer crate, a reference.
pub trait Lookup: Copy + 'static {
    /// Whether the batch entry point is the implementation's own (else it is
    /// not benchmarked: a loop over [`Lookup::rook`] says nothing new).
    const HAS_BATCH: bool = false;
    /// Whether the set-wise entry point is the implementation's own.
    const HAS_SETWISE: bool = false;
    /// Whether the single-lookup workloads are timed (throughput, latency,
    /// cache pressure).
    const HAS_SINGLE: bool = true;
    /// Whether the engine-shaped loops are timed (the backends, the facade
    /// and its jobs).
    const HAS_ENGINE: bool = false;

    /// Rook attacks.
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard;
    /// Bishop attacks.
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard;
    /// Queen attacks.
    #[inline(always)]
    fn queen(self, sq: Square, occ: Bitboard) -> Bitboard {
        Bitboard(self.rook(sq, occ).0 | self.bishop(sq, occ).0)
    }

    /// Attacks of every square in `squares` (same length as `out`).
    #[inline(always)]
    fn batch(self, piece: Piece, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
        for (o, &sq) in out.iter_mut().zip(squares) {
            *o = self.attacks(piece, sq, occ);
        }
    }

    /// The union of the attacks of every slider in `sliders`.
    #[inline(always)]
    fn setwise(self, piece: Piece, sliders: Bitboard, occ: Bitboard) -> Bitboard {
        let mut union = Bitboard::EMPTY;
        for sq in sliders {
            union |= self.attacks(piece, sq, occ);
        }
        union
    }

    /// The attack set of `piece`.
    #[inline(always)]
    fn attacks(self, piece: Piece, sq: Square, occ: Bitboard) -> Bitboard {
        match piece {
            Piece::Rook => self.rook(sq, occ),
            Piece::Bishop => self.bishop(sq, occ),
            Piece::Queen => self.queen(sq, occ),
        }
    }

    /// One iteration of a single-lookup workload (throughput, latency,
    /// cache pressure): a function of its own per implementation, so that
    /// `cargo xtask bench-matrix` can find these loops in the binary and check
    /// that they stayed one lookup at a time. Override it (with
    /// [`run_single_inline`]) to compile the loops with target features.
    #[inline(never)]
    fn run_single(self, workload: Workload, piece: Piece, data: &Data) -> u64 {
        run_single_inline(self, workload, piece, data)
    }

    /// One iteration of an engine-shaped loop, compiled where the caller
    /// is (override it to compile the loop with target features).
    #[inline(never)]
    fn run_engine(self, shape: EngineLoop, piece: Piece, data: &Data) -> u64 {
        run_engine_inline(self, shape, piece, data)
    }

    /// One iteration of an entry-point workload (batch, set-wise): these call
    /// the implementation's own batch or set-wise entry point, which may use
    /// vector code over the squares or sliders of one call.
    #[inline(never)]
    fn run_calls(self, workload: Workload, piece: Piece, data: &Data) -> u64 {
        run_calls_inline(self, workload, piece, data)
    }
}

/// How many lookups one iteration of `workload` performs.
pub fn lookups_per_iteration(workload: Workload) -> usize {
    match workload {
        Workload::Batch | Workload::Engine(EngineLoop::Batch) => INPUTS / 64 * 64,
        Workload::Engine(EngineLoop::Arrays) => ARRAY_PAIRS,
        _ => INPUTS,
    }
}

/// Whether `workload` times single lookups (one call per input, as an
/// engine's move generator makes them) rather than an entry point's calls.
pub fn is_single_lookup(workload: Workload) -> bool {
    !matches!(
        workload,
        Workload::Batch | Workload::Setwise(_) | Workload::Engine(_)
    )
}

/// The engine-shaped loops ([`engine`]) over `lookup`, inlined into the
/// caller: one closure per piece, handed to the helper.
#[inline(always)]
pub fn run_engine_inline<L: Lookup>(
    lookup: L,
    shape: EngineLoop,
    piece: Piece,
    data: &Data,
) -> u64 {
    macro_rules! per_piece {
        ($piece:expr) => {
            match shape {
                EngineLoop::Throughput => {
                    engine::lookups(&data.inputs, |s, o| lookup.attacks($piece, s, o))
                }
                EngineLoop::Arrays => {
                    engine::arrays(&data.arrays, |s, o| lookup.attacks($piece, s, o))
                }
                EngineLoop::Batch => engine::batches(&data.squares, &data.inputs, |sq, o, out| {
                    lookup.batch($piece, sq, o, out)
                }),
                EngineLoop::Setwise(crowd) => {
                    let round = next_round();
                    engine::setwise_calls(&data.setwise, crowd, round, |s, o| {
                        lookup.setwise($piece, s, o)
                    })
                }
            }
        };
    }
    match piece {
        Piece::Rook => per_piece!(Piece::Rook),
        Piece::Bishop => per_piece!(Piece::Bishop),
        Piece::Queen => per_piece!(Piece::Queen),
    }
}

/// One iteration of `workload`, through [`Lookup::run_single`] or
/// [`Lookup::run_calls`].
pub fn run<L: Lookup>(lookup: L, workload: Workload, piece: Piece, data: &Data) -> u64 {
    if let Workload::Engine(shape) = workload {
        lookup.run_engine(shape, piece, data)
    } else if is_single_lookup(workload) {
        lookup.run_single(workload, piece, data)
    } else {
        lookup.run_calls(workload, piece, data)
    }
}

/// The single-lookup workload loops, inlined into the caller so that the
/// caller's target features apply to the lookups too.
#[inline(always)]
pub fn run_single_inline<L: Lookup>(
    lookup: L,
    workload: Workload,
    piece: Piece,
    data: &Data,
) -> u64 {
    // One loop per workload and piece, each with its own inlined closure
    // (a closure chosen by a match would be a call in the loop).
    macro_rules! per_piece {
        ($workload_loop:ident) => {
            match piece {
                Piece::Rook => $workload_loop(
                    data,
                    #[inline(always)]
                    |s, o| lookup.rook(s, o),
                ),
                Piece::Bishop => $workload_loop(
                    data,
                    #[inline(always)]
                    |s, o| lookup.bishop(s, o),
                ),
                Piece::Queen => $workload_loop(
                    data,
                    #[inline(always)]
                    |s, o| lookup.queen(s, o),
                ),
            }
        };
    }
    match workload {
        Workload::Throughput => per_piece!(throughput),
        Workload::Latency => per_piece!(latency),
        Workload::Cache => per_piece!(cache),
        Workload::Batch | Workload::Setwise(_) | Workload::Engine(_) => {
            panic!("{workload:?} is not a single-lookup workload")
        }
    }
}

/// The entry-point workload loops (batch, set-wise), inlined into the caller.
#[inline(always)]
pub fn run_calls_inline<L: Lookup>(
    lookup: L,
    workload: Workload,
    piece: Piece,
    data: &Data,
) -> u64 {
    // One loop per piece, the piece a constant in each (as in
    // `run_single_inline`): with `piece` a variable, LLVM kept its match
    // inside the loop when the entry's body was large (a set-wise entry
    // with its fill), and not for a per-piece loop, which biased the
    // comparison of the two by a compare and branch per call.
    macro_rules! per_piece {
        ($piece:expr) => {
            match workload {
                Workload::Batch => batch(
                    data,
                    #[inline(always)]
                    |sq, o, out| lookup.batch($piece, sq, o, out),
                ),
                Workload::Setwise(crowd) => setwise(
                    data,
                    crowd,
                    #[inline(always)]
                    |s, o| lookup.setwise($piece, s, o),
                ),
                _ => panic!("{workload:?} is a single-lookup workload"),
            }
        };
    }
    match piece {
        Piece::Rook => per_piece!(Piece::Rook),
        Piece::Bishop => per_piece!(Piece::Bishop),
        Piece::Queen => per_piece!(Piece::Queen),
    }
}

/// Passes the `u64` locals named through an empty `asm!` (a comment naming
/// their registers) that the optimizer must assume changes them; where
/// `asm!` is not available, through `black_box`. See [`opaque_input`].
macro_rules! opaque {
    ($($var:ident),+) => {
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        // SAFETY: the template is only a comment naming the registers: no
        // instruction runs, no memory is touched, all come back unchanged.
        unsafe {
            core::arch::asm!(
                concat!("/*", $(" {", stringify!($var), "}",)+ " */"),
                $($var = inout(reg) $var,)+
                options(pure, nomem, nostack, preserves_flags)
            );
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        {
            ($($var),+) = std::hint::black_box(($($var),+));
        }
    };
}

/// The input as the lookup sees it: passed through an empty `asm!` that the
/// optimizer must assume changes both values. That costs no instruction, but
/// the compiler can no longer batch lookups across inputs: LLVM's vectorizers
/// cannot widen an inline-assembly statement, so a loop over inputs stays one
/// lookup per iteration (no gathers for table methods, no SIMD-across-inputs
/// for table-free ones), as an engine's move generator calls them. Without
/// it a `-C target-cpu=native` build turned the throughput loops into
/// `vpgather` code (issue 13).
#[inline(always)]
pub fn opaque_input(input: &Input) -> Input {
    let mut occupancy = input.occupancy.0;
    let mut index = input.square as u64;
    let mut tt_index = u64::from(input.tt_index);
    opaque!(occupancy, index, tt_index);
    // The values are the input's own, unchanged (see above): in range.
    Input {
        square: Square::from_index_masked(index as u8),
        occupancy: Bitboard(occupancy),
        tt_index: tt_index as u32,
    }
}

/// A set-wise call's input made opaque as [`opaque_input`] does.
#[inline(always)]
fn opaque_setwise(sliders: Bitboard, occupancy: Bitboard) -> (Bitboard, Bitboard) {
    let (mut sliders, mut occupancy) = (sliders.0, occupancy.0);
    opaque!(sliders, occupancy);
    (Bitboard(sliders), Bitboard(occupancy))
}

/// Throughput: independent lookups, xor-folded.
#[inline(always)]
fn throughput(data: &Data, f: impl Fn(Square, Bitboard) -> Bitboard) -> u64 {
    let mut sink = 0;
    for i in &data.inputs {
        let i = opaque_input(i);
        sink ^= f(i.square, i.occupancy).0;
    }
    sink
}

/// The square of the result that feeds the next occupancy in the latency
/// chain: e4, a central square, so that flipping it really changes the next
/// attack set (a corner such as a1 never does, and a compiler that sees
/// through a table-free method can then drop the chain altogether).
const CHAIN_BIT: u64 = 1 << 28;

/// Latency: each occupancy depends on the previous result, so lookups cannot
/// overlap (one `and` and one `xor` per link, 2 cycles, are part of the figure).
#[inline(always)]
fn latency(data: &Data, f: impl Fn(Square, Bitboard) -> Bitboard) -> u64 {
    let mut previous = 0u64;
    for i in &data.inputs {
        let i = opaque_input(i);
        let occ = Bitboard(i.occupancy.0 ^ (previous & CHAIN_BIT));
        previous = f(i.square, occ).0;
    }
    previous
}

/// Cache pressure: throughput with one independent random read of the 64 MiB
/// buffer per lookup (the index does not depend on the lookup, as a
/// transposition-table probe does not depend on the attack set).
#[inline(always)]
fn cache(data: &Data, f: impl Fn(Square, Bitboard) -> Bitboard) -> u64 {
    let mut sink = 0;
    for i in &data.inputs {
        let i = opaque_input(i);
        sink ^= f(i.square, i.occupancy).0 ^ data.tt.read(i.tt_index);
    }
    sink
}

/// Batch: 64 of the inputs' squares over one occupancy per call (a fresh
/// square list every call: with a constant one, e.g. `Square::ALL`, an
/// inlined kernel had its square-derived masks hoisted out of the loop).
///
/// The 64 results reach the buffer every call, as a caller's buffer must:
/// `black_box` takes its address. Without it, where a token's kernel was
/// inlined into this loop, LLVM fused the fold below into the kernel and
/// deleted the buffer's stores (the `avx512` rook row, fully unrolled):
/// that row then timed a batch no caller can have. The caller's use of
/// the results is [`consume`], the same code for every row.
///
/// The length is 64, but the kernel cannot know it (`opaque!`), as it
/// cannot know the length of a caller's move list. With the constant, LLVM
/// specialized the kernels it inlined here, or called from this loop
/// alone, for 64 squares (no tail, the count unrolled), and not the
/// facade's entry points, which every caller shares: that put the `hq`
/// rook batch row at 0.87x the `avx512` row (AMD Zen 5, `free_functions`
/// example).
///
/// The buffer is a [`BatchOut`], the same for every row.
#[inline(always)]
fn batch(data: &Data, f: impl Fn(&[Square], Bitboard, &mut [Bitboard])) -> u64 {
    let mut out = BatchOut::new();
    let out = &mut out.0;
    let mut sink = 0;
    for (squares, i) in data
        .squares
        .chunks_exact(64)
        .zip(data.inputs.iter().step_by(64))
    {
        let mut len = squares.len() as u64;
        opaque!(len);
        // At most 64 (so no bounds check is left), and 64 in fact.
        let len = (len as usize).min(64);
        f(&squares[..len], i.occupancy, &mut out[..len]);
        sink ^= consume(std::hint::black_box(out));
    }
    sink
}

/// A batch's results, on a 64-byte line of their own: every row's loop
/// reads them at the same offset, whatever its stack frame.
///
/// Where a row's frame put a plain `[Bitboard; 64]` at 8 bytes past a
/// 16-byte boundary, the fold's 16-byte loads of what a vector kernel had
/// just stored crossed its stores' cache lines, and that row ran slower
/// than one whose frame put it on a 16-byte boundary (read one word at a
/// time, every offset ran alike). Before this buffer, that was the gap
/// between the `hq` rook batch row and `avx512`'s, which differed in
/// nothing else (67929f8 has the figures).
#[repr(align(64))]
pub struct BatchOut(pub [Bitboard; 64]);

impl BatchOut {
    /// Empty results.
    pub fn new() -> BatchOut {
        BatchOut([Bitboard::EMPTY; 64])
    }
}

impl Default for BatchOut {
    fn default() -> BatchOut {
        BatchOut::new()
    }
}

/// A batch's results used (xor-folded), out of line so that every row
/// pays the same for it. Inlined, the fold was compiled at each row's
/// level: at x86-64-v3 in a token's job (16 ymm loads), at the baseline in
/// the free functions' loop of the runtime build (32 xmm loads), and that
/// difference was most of the gap between the `hq` and `pext` bishop batch
/// rows, whose kernel is bound by its loads (the commit that moved it out
/// of line has the figures).
#[inline(never)]
fn consume(out: &[Bitboard; 64]) -> u64 {
    out.iter().fold(0, |a, b| a ^ b.0)
}

/// Set-wise: the union of the attacks of a slider set of `crowd` per input.
#[inline(always)]
fn setwise(data: &Data, crowd: Crowd, f: impl Fn(Bitboard, Bitboard) -> Bitboard) -> u64 {
    let round = next_round();
    let mut sink = 0;
    for i in &data.setwise {
        let (sliders, occupancy) = opaque_setwise(i.sliders(crowd, round), i.occupancy);
        sink ^= f(sliders, occupancy).0;
    }
    sink
}

/// The single lookups of a wrapper around a [`SliderAttacks`] token (the
/// token's own, inlined) and its calls' workloads, compiled for the token's
/// instruction set.
macro_rules! token_lookups {
    ($wrapper:ident) => {
        #[inline(never)]
        fn run_calls(self, workload: Workload, piece: Piece, data: &Data) -> u64 {
            self.0.run_compiled(
                #[inline(always)]
                |t| run_calls_inline($wrapper(t), workload, piece, data),
            )
        }
        token_singles!();
    };
}

/// The single lookups of a wrapper around a token: the token's own, inlined.
macro_rules! token_singles {
    () => {
        #[inline(always)]
        fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
            self.0.rook_attacks(sq, occ)
        }
        #[inline(always)]
        fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
            self.0.bishop_attacks(sq, occ)
        }
        #[inline(always)]
        fn queen(self, sq: Square, occ: Bitboard) -> Bitboard {
            self.0.queen_attacks(sq, occ)
        }
    };
}

/// A backend of `hq`, called through its token (monomorphized) inside a
/// function compiled for the backend's instruction set: what
/// [`hq::with_backend`] gives engine code.
#[derive(Clone, Copy, Debug)]
pub struct Ours<B>(pub B);

impl<B: SliderAttacks> Lookup for Ours<B> {
    const HAS_BATCH: bool = true;
    const HAS_SETWISE: bool = true;
    const HAS_ENGINE: bool = true;

    #[inline(never)]
    fn run_engine(self, shape: EngineLoop, piece: Piece, data: &Data) -> u64 {
        self.0.run_compiled(
            #[inline(always)]
            |t| run_engine_inline(Ours(t), shape, piece, data),
        )
    }

    token_lookups!(Ours);
    #[inline(always)]
    fn batch(self, piece: Piece, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
        match piece {
            Piece::Rook => self.0.rook_attacks_batch(squares, occ, out),
            Piece::Bishop => self.0.bishop_attacks_batch(squares, occ, out),
            Piece::Queen => self.0.queen_attacks_batch(squares, occ, out),
        }
    }
    #[inline(always)]
    fn setwise(self, piece: Piece, sliders: Bitboard, occ: Bitboard) -> Bitboard {
        match piece {
            Piece::Rook => self.0.rook_attacks_setwise(sliders, occ),
            Piece::Bishop => self.0.bishop_attacks_setwise(sliders, occ),
            Piece::Queen => self.0.queen_attacks_setwise(sliders, occ),
        }
    }
    #[inline(never)]
    fn run_single(self, workload: Workload, piece: Piece, data: &Data) -> u64 {
        self.0.run_compiled(
            #[inline(always)]
            |t| run_single_inline(Ours(t), workload, piece, data),
        )
    }
}

/// A backend called through its token from loops compiled at the build's
/// own level (the default methods of [`Lookup`]), not its jobs': what a
/// build forcing a portable backend runs in its free functions, every
/// method inlined.
#[derive(Clone, Copy, Debug)]
pub struct Inlined<B>(pub B);

impl<B: SliderAttacks> Lookup for Inlined<B> {
    const HAS_BATCH: bool = true;
    const HAS_SETWISE: bool = true;
    const HAS_ENGINE: bool = true;

    token_singles!();
    #[inline(always)]
    fn batch(self, piece: Piece, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
        Ours(self.0).batch(piece, squares, occ, out)
    }
    #[inline(always)]
    fn setwise(self, piece: Piece, sliders: Bitboard, occ: Bitboard) -> Bitboard {
        Ours(self.0).setwise(piece, sliders, occ)
    }
}

/// A backend's set-wise workloads done by a loop over its own single
/// lookups, compiled as [`Ours`] is: what the backend's set-wise entry is
/// compared with (it must not be slower at any slider count).
#[derive(Clone, Copy, Debug)]
pub struct PerPiece<B>(pub B);

impl<B: SliderAttacks> Lookup for PerPiece<B> {
    const HAS_SINGLE: bool = false;
    const HAS_SETWISE: bool = true;

    token_lookups!(PerPiece);
}

/// A loop under [`hq::with_active_backend`]: the way an engine should call
/// `hq` (each entry point from the backend chosen for it, every lookup
/// inlined, the loop compiled for the backends' instruction set).
#[derive(Clone, Copy, Debug)]
pub struct Job;

/// One workload iteration, as the job `hq` runs ([`Job`]).
struct SingleLookupLoop<'a>(Workload, Piece, &'a Data);

impl WithBackend for SingleLookupLoop<'_> {
    type Output = u64;
    #[inline(always)]
    fn run<B: SliderAttacks>(self, token: B) -> u64 {
        run_single_inline(Ours(token), self.0, self.1, self.2)
    }
}

/// An entry-point workload iteration as a job.
struct CallsLoop<'a>(Workload, Piece, &'a Data);

impl WithBackend for CallsLoop<'_> {
    type Output = u64;
    #[inline(always)]
    fn run<B: SliderAttacks>(self, token: B) -> u64 {
        run_calls_inline(Ours(token), self.0, self.1, self.2)
    }
}

/// An engine-shaped loop as a job.
struct EngineJob<'a>(EngineLoop, Piece, &'a Data);

impl WithBackend for EngineJob<'_> {
    type Output = u64;
    #[inline(always)]
    fn run<B: SliderAttacks>(self, token: B) -> u64 {
        run_engine_inline(Ours(token), self.0, self.1, self.2)
    }
}

/// One lookup as a job (for the oracle check of [`Job`], not timed).
struct OneLookup(Piece, Square, Bitboard);

impl WithBackend for OneLookup {
    type Output = Bitboard;
    #[inline(always)]
    fn run<B: SliderAttacks>(self, token: B) -> Bitboard {
        Ours(token).attacks(self.0, self.1, self.2)
    }
}

impl Lookup for Job {
    const HAS_BATCH: bool = true;
    const HAS_SETWISE: bool = true;
    const HAS_ENGINE: bool = true;

    #[inline(never)]
    fn run_engine(self, shape: EngineLoop, piece: Piece, data: &Data) -> u64 {
        hq::with_active_backend(EngineJob(shape, piece, data))
    }

    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        hq::with_active_backend(OneLookup(Piece::Rook, sq, occ))
    }
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        hq::with_active_backend(OneLookup(Piece::Bishop, sq, occ))
    }
    fn queen(self, sq: Square, occ: Bitboard) -> Bitboard {
        hq::with_active_backend(OneLookup(Piece::Queen, sq, occ))
    }
    fn batch(self, piece: Piece, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
        struct BatchJob<'a>(Piece, &'a [Square], Bitboard, &'a mut [Bitboard]);
        impl WithBackend for BatchJob<'_> {
            type Output = ();
            fn run<B: SliderAttacks>(self, token: B) {
                Ours(token).batch(self.0, self.1, self.2, self.3)
            }
        }
        hq::with_active_backend(BatchJob(piece, squares, occ, out))
    }
    fn setwise(self, piece: Piece, sliders: Bitboard, occ: Bitboard) -> Bitboard {
        struct SetwiseJob(Piece, Bitboard, Bitboard);
        impl WithBackend for SetwiseJob {
            type Output = Bitboard;
            fn run<B: SliderAttacks>(self, token: B) -> Bitboard {
                Ours(token).setwise(self.0, self.1, self.2)
            }
        }
        hq::with_active_backend(SetwiseJob(piece, sliders, occ))
    }
    #[inline(never)]
    fn run_single(self, workload: Workload, piece: Piece, data: &Data) -> u64 {
        hq::with_active_backend(SingleLookupLoop(workload, piece, data))
    }
    #[inline(never)]
    fn run_calls(self, workload: Workload, piece: Piece, data: &Data) -> u64 {
        hq::with_active_backend(CallsLoop(workload, piece, data))
    }
}

/// The facade's free functions (`hq::queen_attacks` ...): run-time dispatch,
/// static selection or a forced backend, as this build chose.
#[derive(Clone, Copy, Debug)]
pub struct Facade;

impl Lookup for Facade {
    const HAS_BATCH: bool = true;
    const HAS_SETWISE: bool = true;
    const HAS_ENGINE: bool = true;

    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        hq::rook_attacks(sq, occ)
    }
    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        hq::bishop_attacks(sq, occ)
    }
    #[inline(always)]
    fn queen(self, sq: Square, occ: Bitboard) -> Bitboard {
        hq::queen_attacks(sq, occ)
    }
    #[inline(always)]
    fn batch(self, piece: Piece, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
        match piece {
            Piece::Rook => hq::rook_attacks_batch(squares, occ, out),
            Piece::Bishop => hq::bishop_attacks_batch(squares, occ, out),
            Piece::Queen => hq::queen_attacks_batch(squares, occ, out),
        }
    }
    #[inline(always)]
    fn setwise(self, piece: Piece, sliders: Bitboard, occ: Bitboard) -> Bitboard {
        match piece {
            Piece::Rook => hq::rook_attacks_setwise(sliders, occ),
            Piece::Bishop => hq::bishop_attacks_setwise(sliders, occ),
            Piece::Queen => hq::queen_attacks_setwise(sliders, occ),
        }
    }
}

/// The facade's latency functions (`hq::latency::queen_attacks` ...): the
/// backend measured for dependency chains, per piece.
#[derive(Clone, Copy, Debug)]
pub struct LatencyFacade;

impl Lookup for LatencyFacade {
    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        hq::latency::rook_attacks(sq, occ)
    }
    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        hq::latency::bishop_attacks(sq, occ)
    }
    #[inline(always)]
    fn queen(self, sq: Square, occ: Bitboard) -> Bitboard {
        hq::latency::queen_attacks(sq, occ)
    }
}

/// A loop under [`hq::latency::with_backend`]: the piece's latency backend
/// for the whole loop, every lookup inlined, no dispatch per lookup.
#[derive(Clone, Copy, Debug)]
pub struct LatencyJob;

impl Lookup for LatencyJob {
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        hq::latency::with_backend(hq::Slider::Rook, OneLookup(Piece::Rook, sq, occ))
    }
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        hq::latency::with_backend(hq::Slider::Bishop, OneLookup(Piece::Bishop, sq, occ))
    }
    fn queen(self, sq: Square, occ: Bitboard) -> Bitboard {
        hq::latency::with_backend(hq::Slider::Queen, OneLookup(Piece::Queen, sq, occ))
    }
    #[inline(never)]
    fn run_single(self, workload: Workload, piece: Piece, data: &Data) -> u64 {
        let job = SingleLookupLoop(workload, piece, data);
        hq::latency::with_backend(piece.slider(), job)
    }
}

/// No lookup at all: only the cache-pressure workload's buffer reads, the
/// floor under every figure of that column.
#[derive(Clone, Copy, Debug)]
pub struct ReadsOnly;

impl Lookup for ReadsOnly {
    #[inline(always)]
    fn rook(self, _: Square, _: Bitboard) -> Bitboard {
        Bitboard::EMPTY
    }
    #[inline(always)]
    fn bishop(self, _: Square, _: Bitboard) -> Bitboard {
        Bitboard::EMPTY
    }
}
