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

/// One set-wise call per input, with the crowd's slider set of `round`.
pub fn setwise_calls<F: Fn(Bitboard, Bitboard) -> Bitboard>(
    inputs: &[SetwiseInput],
    crowd: Crowd,
    round: u32,
    setwise: F,
) -> u64 {
    let mut sink = 0;
    for input in inputs {
        sink ^= setwise(input.sliders(crowd, round), input.occupancy).0;
    }
    sink
}
