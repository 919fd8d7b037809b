//! The second loop shape, written as engine code is written: a generic
//! helper that takes the lookup as a closure, in this crate (not the
//! facade's), not forced inline, and no barrier on the inputs. The
//! Chess_Movegen harness has this shape; the matrix's own loops
//! ([`crate::Workload`]) make every input opaque and give each row a
//! function of its own. `benches/README.md` says where the two disagree.

use crate::{Crowd, Input, SetwiseInput};
use hq::{Bitboard, Square};

/// Independent lookups over `inputs`, xor-folded.
pub fn lookups<F: Fn(Square, Bitboard) -> Bitboard>(inputs: &[Input], lookup: F) -> u64 {
    let mut sink = 0;
    for input in inputs {
        sink ^= lookup(input.square, input.occupancy).0;
    }
    sink
}

/// Independent lookups over the pairs of two arrays, xor-folded:
/// Chess_Movegen's loop, as a user porting it writes it.
pub fn arrays<F: Fn(Square, Bitboard) -> Bitboard>(arrays: &crate::Arrays, lookup: F) -> u64 {
    let mut sink = 0;
    for (&square, &occupancy) in arrays.squares.iter().zip(&arrays.occupancies) {
        sink ^= lookup(square, occupancy).0;
    }
    sink
}

/// One batch of 64 squares per 64 inputs, over that input's occupancy.
pub fn batches<F: Fn(&[Square], Bitboard, &mut [Bitboard])>(
    squares: &[Square],
    inputs: &[Input],
    batch: F,
) -> u64 {
    // Aligned as the matrix's own batch loop ([`crate::BatchOut`]).
    let mut out = crate::BatchOut::new();
    let out = &mut out.0;
    let mut sink = 0;
    for (squares, input) in squares.chunks_exact(64).zip(inputs.iter().step_by(64)) {
        batch(squares, input.occupancy, out);
        // The results reach the buffer, as a caller's must: `black_box`
        // takes its address. Without it LLVM fused this fold into a
        // token's kernel where it inlined here and dropped the stores: a
        // batch no caller can have (the commit that added it has the
        // figures).
        sink ^= std::hint::black_box(&*out).iter().fold(0, |a, b| a ^ b.0);
    }
    sink
}

/// The square of a set-wise result that moves the next call's occupancy
/// (e4, as the latency workload's chain).
pub const CHAIN: u64 = 1 << 28;

/// One set-wise call per input, with the crowd's slider set of `round`, each
/// call's occupancy moved by the previous call's result (e4 of it flipped
/// in, the sliders' own squares left as they are): an engine makes one such
/// call per node, from the position the last node left, never a run of
/// independent ones. Without the chain, LLVM vectorized inlined portable
/// fills across four consecutive calls, and every portable row read the
/// same speed as the fill alone.
pub fn setwise_calls<F: Fn(Bitboard, Bitboard) -> Bitboard>(
    inputs: &[SetwiseInput],
    crowd: Crowd,
    round: u32,
    setwise: F,
) -> u64 {
    let (mut sink, mut previous) = (0, 0u64);
    for input in inputs {
        let sliders = input.sliders(crowd, round);
        let occupancy = Bitboard(input.occupancy.0 ^ (previous & CHAIN & !sliders.0));
        previous = setwise(sliders, occupancy).0;
        sink ^= previous;
    }
    sink
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Piece;

    /// The engine-shaped set-wise loop chains its calls: its sink is the
    /// oracle's over the chained occupancies, which differs from the sink of
    /// independent calls on these inputs (so a loop without the chain fails).
    #[test]
    fn the_engine_setwise_loop_chains_its_calls() {
        let data = crate::Data::new();
        let oracle = |piece: Piece| {
            move |sliders: Bitboard, occ: Bitboard| {
                let union = sliders
                    .into_iter()
                    .fold(0, |a, sq| a | piece.reference(sq, occ).0);
                Bitboard(union)
            }
        };
        for piece in Piece::ALL {
            for crowd in Crowd::ALL {
                let (mut chained, mut independent, mut previous) = (0, 0, 0u64);
                for input in &data.setwise {
                    let sliders = input.sliders(crowd, 3);
                    let occ = Bitboard(input.occupancy.0 ^ (previous & CHAIN & !sliders.0));
                    previous = oracle(piece)(sliders, occ).0;
                    chained ^= previous;
                    independent ^= oracle(piece)(sliders, input.occupancy).0;
                }
                let got = setwise_calls(&data.setwise, crowd, 3, oracle(piece));
                assert_eq!(got, chained, "{piece:?} {crowd:?}");
                assert_ne!(
                    got, independent,
                    "{piece:?} {crowd:?}: the chain moved nothing"
                );
            }
        }
    }
}
