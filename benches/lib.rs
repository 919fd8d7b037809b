//! Inputs, workloads, reference implementations and the criterion driver
//! shared by the benchmarks.
//!
//! Inputs follow the Chess_Movegen method, so figures are comparable with its
//! public table: occupancies `rand64() & rand64()` (about 25 % density) from
//! a fixed-seed xorshift generator, random squares, results xor-folded into a
//! sink that is passed to `black_box`.
//!
//! Everything that is measured implements [`Lookup`]: the backends of `hq`
//! ([`Ours`]), the facade's free functions ([`Facade`]), the reference points
//! ([`reference::Pext`], [`reference::KoggeStone`]) and, in the bench targets
//! (they are dev-dependencies), the peer crates. [`runner::Bench`] checks each
//! one against the oracle `hq::reference` and times every workload of
//! [`Workload`] with criterion.

pub mod reference;
pub mod runner;

use hq::{Bitboard, SliderAttacks, Square};

/// How many (square, occupancy) pairs one benchmark iteration walks through.
pub const INPUTS: usize = 4096;

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

/// [`INPUTS`] pairs from the fixed seed.
pub fn inputs() -> Vec<Input> {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    (0..INPUTS)
        .map(|_| Input {
            square: Square::from_index_masked(rng.next_u64() as u8),
            occupancy: Bitboard(rng.next_u64() & rng.next_u64()),
            tt_index: (rng.next_u64() % TT_WORDS as u64) as u32,
        })
        .collect()
}

/// The 64 MiB buffer the cache-pressure workload reads, filled with random
/// words so that every page is really backed by memory.
pub struct TtBuffer(Box<[u64; TT_WORDS]>);

impl TtBuffer {
    /// A freshly written buffer.
    pub fn new() -> TtBuffer {
        let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
        let words: Vec<u64> = (0..TT_WORDS).map(|_| rng.next_u64()).collect();
        TtBuffer(
            words
                .into_boxed_slice()
                .try_into()
                .expect("the buffer has TT_WORDS words"),
        )
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

/// Everything a workload reads.
pub struct Data {
    /// The lookups' inputs.
    pub inputs: Vec<Input>,
    /// The cache-pressure buffer.
    pub tt: TtBuffer,
}

impl Data {
    /// The fixed inputs and a fresh buffer.
    pub fn new() -> Data {
        Data {
            inputs: inputs(),
            tt: TtBuffer::new(),
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
    /// The set-wise entry point: the union of the attacks of a slider set,
    /// one call per input (counted as one lookup).
    Setwise,
    /// Throughput interleaved with one random read of a 64 MiB buffer per
    /// lookup, as transposition-table probes cause in an engine.
    Cache,
}

impl Workload {
    /// Every workload, in table order.
    pub const ALL: [Workload; 5] = [
        Workload::Throughput,
        Workload::Latency,
        Workload::Batch,
        Workload::Setwise,
        Workload::Cache,
    ];

    /// Lower-case name (the criterion group is `<piece>/<workload>`).
    pub fn name(self) -> &'static str {
        match self {
            Workload::Throughput => "throughput",
            Workload::Latency => "latency",
            Workload::Batch => "batch",
            Workload::Setwise => "setwise",
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
        sliders.iter().fold(Bitboard::EMPTY, |acc, sq| {
            Bitboard(acc.0 | self.attacks(piece, sq, occ).0)
        })
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

    /// One benchmark iteration of `workload` (one non-inlined function per
    /// implementation; override it to compile the loops with target features).
    #[inline(never)]
    fn run(self, workload: Workload, piece: Piece, data: &Data) -> u64 {
        run_inline(self, workload, piece, data)
    }
}

/// How many lookups one iteration of `workload` performs.
pub fn lookups_per_iteration(workload: Workload) -> usize {
    match workload {
        Workload::Batch => INPUTS / 64 * 64,
        _ => INPUTS,
    }
}

/// The workload loops, inlined into the caller so that the caller's target
/// features apply to the lookups too.
#[inline(always)]
pub fn run_inline<L: Lookup>(lookup: L, workload: Workload, piece: Piece, data: &Data) -> u64 {
    match (workload, piece) {
        (Workload::Throughput, Piece::Rook) => throughput(data, |s, o| lookup.rook(s, o)),
        (Workload::Throughput, Piece::Bishop) => throughput(data, |s, o| lookup.bishop(s, o)),
        (Workload::Throughput, Piece::Queen) => throughput(data, |s, o| lookup.queen(s, o)),
        (Workload::Latency, Piece::Rook) => latency(data, |s, o| lookup.rook(s, o)),
        (Workload::Latency, Piece::Bishop) => latency(data, |s, o| lookup.bishop(s, o)),
        (Workload::Latency, Piece::Queen) => latency(data, |s, o| lookup.queen(s, o)),
        (Workload::Cache, Piece::Rook) => cache(data, |s, o| lookup.rook(s, o)),
        (Workload::Cache, Piece::Bishop) => cache(data, |s, o| lookup.bishop(s, o)),
        (Workload::Cache, Piece::Queen) => cache(data, |s, o| lookup.queen(s, o)),
        (Workload::Batch, piece) => batch(data, |sq, o, out| lookup.batch(piece, sq, o, out)),
        (Workload::Setwise, piece) => setwise(data, |s, o| lookup.setwise(piece, s, o)),
    }
}

/// Throughput: independent lookups, xor-folded.
#[inline(always)]
fn throughput(data: &Data, f: impl Fn(Square, Bitboard) -> Bitboard) -> u64 {
    data.inputs
        .iter()
        .fold(0, |acc, i| acc ^ f(i.square, i.occupancy).0)
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
    data.inputs.iter().fold(0, |acc, i| {
        acc ^ f(i.square, i.occupancy).0 ^ data.tt.read(i.tt_index)
    })
}

/// Batch: all 64 squares over one occupancy per call.
#[inline(always)]
fn batch(data: &Data, f: impl Fn(&[Square], Bitboard, &mut [Bitboard])) -> u64 {
    let mut out = [Bitboard::EMPTY; 64];
    let mut sink = 0;
    for i in data.inputs.iter().step_by(64) {
        f(&Square::ALL, i.occupancy, &mut out);
        sink ^= out.iter().fold(0, |a, b| a ^ b.0);
    }
    sink
}

/// The slider set of an input for the set-wise workload: a random subset of
/// the occupancy (about 3 % of the board, two sliders on average).
#[inline(always)]
pub fn setwise_sliders(occupancy: Bitboard) -> Bitboard {
    Bitboard(occupancy.0 & occupancy.0.rotate_left(23) & occupancy.0.rotate_left(41))
}

/// Set-wise: the union of attacks of a slider set per input.
#[inline(always)]
fn setwise(data: &Data, f: impl Fn(Bitboard, Bitboard) -> Bitboard) -> u64 {
    data.inputs.iter().fold(0, |acc, i| {
        acc ^ f(setwise_sliders(i.occupancy), i.occupancy).0
    })
}

/// A backend of `hq`, called through its token (monomorphized: what
/// [`hq::with_backend`] gives engine code).
#[derive(Clone, Copy, Debug)]
pub struct Ours<B>(pub B);

impl<B: SliderAttacks> Lookup for Ours<B> {
    const HAS_BATCH: bool = true;
    const HAS_SETWISE: bool = true;

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
}

/// The facade's free functions (`hq::queen_attacks` ...): run-time dispatch,
/// static selection or a forced backend, as this build chose.
#[derive(Clone, Copy, Debug)]
pub struct Facade;

impl Lookup for Facade {
    const HAS_BATCH: bool = true;
    const HAS_SETWISE: bool = true;

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
