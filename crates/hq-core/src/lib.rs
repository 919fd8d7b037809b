//! Core of the `hq` slider-attack workspace: squares, bitboards, line masks,
//! the reference oracle and the [`SliderAttacks`] trait every backend implements.
//!
//! # Square mapping
//!
//! Every crate in this workspace uses **little-endian rank-file mapping**:
//! bit 0 is a1, bit 7 is h1, bit 8 is a2, ..., bit 63 is h8.
//! Square index = `8 * rank + file`, both counted from zero.
//!
//! ```text
//!   8 | 56 57 58 59 60 61 62 63
//!   7 | 48 49 50 51 52 53 54 55
//!   6 | 40 41 42 43 44 45 46 47
//!   5 | 32 33 34 35 36 37 38 39
//!   4 | 24 25 26 27 28 29 30 31
//!   3 | 16 17 18 19 20 21 22 23
//!   2 |  8  9 10 11 12 13 14 15
//!   1 |  0  1  2  3  4  5  6  7
//!     +------------------------
//!        a  b  c  d  e  f  g  h
//! ```
//!
//! With this mapping a byte swap ([`u64::swap_bytes`]) mirrors the board
//! vertically, so it reverses the bit order along every file, diagonal and
//! anti-diagonal (each has at most one square per rank) but not along a rank;
//! [`u64::reverse_bits`] turns the board by 180 degrees and reverses every line.
//!
//! The crate is `no_std` (run-time CPU detection needs its default `std`
//! feature). All tables are `const`, computed at compile time by `const fn`.
#![no_std]
#[cfg(feature = "std")]
extern crate std;

pub mod attacks;
mod backend;
mod bitboard;
pub mod cpu;
pub mod entries;
pub mod identity;
pub mod leapers;
mod masks;
pub mod piece;
mod random;
pub mod reference;
mod slider;
mod square;

pub use backend::{
    SliderAttacks, at_most, check_batch_lengths, debug_check_pair, line_attacks_from_piece,
    union_by_loop, union_of_attacks, union_of_up_to_two,
};
pub use bitboard::{Bitboard, Squares};
pub use masks::{
    Direction, LINE_MASKS, Line, LineMasks, RAY_MASKS, SQUARE_BITS, line_mask,
    nibble_reversal_table, ray_mask,
};
pub use random::SplitMix64;
pub use slider::Slider;
pub use square::{ParseSquareError, Square};

/// Whether two byte strings are equal, in `const` contexts.
#[doc(hidden)]
pub const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
