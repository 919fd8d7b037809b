//! Every single-square entry point of every backend this CPU runs against
//! the oracle, for any square and occupancy: rook, bishop, queen, each
//! line, the pair entry points with the reversed occupancy, and the forms
//! for callers of any level (the SIMD tokens' `asm!` kernels). With
//! `HQ_FUZZ_PLANT=1` a deliberately wrong backend joins them (the
//! self-test: the fuzzer must find its one wrong case).

#![no_main]

use arbitrary::Arbitrary;
use hq::Bitboard;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    square: u8,
    occupancy: u64,
}

fuzz_target!(|input: Input| {
    hq_fuzz::on_every_backend(hq_fuzz::Singles {
        sq: hq_fuzz::square(input.square),
        occ: Bitboard(input.occupancy),
    });
});
