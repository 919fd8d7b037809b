//! The batch and set-wise entry points of every backend this CPU runs
//! against the oracle: batches of any length (SIMD remainders included),
//! with an output of any length (a length that differs must give the
//! documented panic, and nothing written out of bounds: the build runs
//! under AddressSanitizer), and any set of sliders over any occupancy.

#![no_main]

use arbitrary::Arbitrary;
use hq::{Bitboard, Square};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    occupancy: u64,
    sliders: u64,
    squares: Vec<u8>,
    /// The output's length: the squares' if `None`.
    out_len: Option<u8>,
}

fuzz_target!(|input: Input| {
    let squares: Vec<Square> = input.squares.iter().map(|&b| hq_fuzz::square(b)).collect();
    let occ = Bitboard(input.occupancy);
    hq_fuzz::on_every_backend(hq_fuzz::Batches {
        squares: &squares,
        occ,
        out_len: input.out_len.map_or(squares.len(), usize::from),
    });
    hq_fuzz::on_every_backend(hq_fuzz::Setwise {
        sliders: Bitboard(input.sliders),
        occ,
    });
});
