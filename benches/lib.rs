//! Inputs and workloads shared by the benchmarks.
//!
//! Inputs follow the Chess_Movegen method, so figures are comparable with its
//! public table: occupancies `rand64() & rand64()` (about 25 % density) from
//! a fixed-seed xorshift generator, random squares, results xor-folded into a
//! sink that is passed to `black_box`.

use hq::{Bitboard, SliderAttacks, Square};

/// How many (square, occupancy) pairs one benchmark iteration walks through.
pub const INPUTS: usize = 4096;

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
}

/// [`INPUTS`] pairs from the fixed seed.
pub fn inputs() -> Vec<Input> {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    (0..INPUTS)
        .map(|_| Input {
            square: Square::from_index_masked(rng.next_u64() as u8),
            occupancy: Bitboard(rng.next_u64() & rng.next_u64()),
        })
        .collect()
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
    /// All three.
    pub const ALL: [Piece; 3] = [Piece::Rook, Piece::Bishop, Piece::Queen];

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Piece::Rook => "rook",
            Piece::Bishop => "bishop",
            Piece::Queen => "queen",
        }
    }

    /// The attack set from `backend`.
    #[inline(always)]
    pub fn attacks<B: SliderAttacks>(self, backend: B, sq: Square, occ: Bitboard) -> Bitboard {
        match self {
            Piece::Rook => backend.rook_attacks(sq, occ),
            Piece::Bishop => backend.bishop_attacks(sq, occ),
            Piece::Queen => backend.queen_attacks(sq, occ),
        }
    }
}

/// Throughput: independent lookups, xor-folded.
#[inline(never)]
pub fn throughput<B: SliderAttacks>(backend: B, piece: Piece, inputs: &[Input]) -> u64 {
    match piece {
        Piece::Rook => inputs.iter().fold(0, |acc, i| {
            acc ^ backend.rook_attacks(i.square, i.occupancy).0
        }),
        Piece::Bishop => inputs.iter().fold(0, |acc, i| {
            acc ^ backend.bishop_attacks(i.square, i.occupancy).0
        }),
        Piece::Queen => inputs.iter().fold(0, |acc, i| {
            acc ^ backend.queen_attacks(i.square, i.occupancy).0
        }),
    }
}

/// Latency: each occupancy depends on the previous result, so lookups cannot overlap.
#[inline(never)]
pub fn latency<B: SliderAttacks>(backend: B, piece: Piece, inputs: &[Input]) -> u64 {
    let mut previous = 0u64;
    for i in inputs {
        let occ = Bitboard(i.occupancy.0 ^ (previous & 1));
        previous = piece.attacks(backend, i.square, occ).0;
    }
    previous
}

/// Batch: all 64 squares over one occupancy per call.
#[inline(never)]
pub fn batch<B: SliderAttacks>(
    backend: B,
    piece: Piece,
    inputs: &[Input],
    out: &mut [Bitboard; 64],
) -> u64 {
    let mut sink = 0;
    for i in inputs.iter().step_by(64) {
        match piece {
            Piece::Rook => backend.rook_attacks_batch(&Square::ALL, i.occupancy, out),
            Piece::Bishop => backend.bishop_attacks_batch(&Square::ALL, i.occupancy, out),
            Piece::Queen => backend.queen_attacks_batch(&Square::ALL, i.occupancy, out),
        }
        sink ^= out.iter().fold(0, |a, b| a ^ b.0);
    }
    sink
}

/// Set-wise: the union of attacks of a slider set (a random subset of the occupancy).
#[inline(never)]
pub fn setwise<B: SliderAttacks>(backend: B, piece: Piece, inputs: &[Input]) -> u64 {
    inputs.iter().fold(0, |acc, i| {
        let sliders =
            Bitboard(i.occupancy.0 & i.occupancy.0.rotate_left(23) & i.occupancy.0.rotate_left(41));
        acc ^ match piece {
            Piece::Rook => backend.rook_attacks_setwise(sliders, i.occupancy),
            Piece::Bishop => backend.bishop_attacks_setwise(sliders, i.occupancy),
            Piece::Queen => backend.queen_attacks_setwise(sliders, i.occupancy),
        }
        .0
    })
}
