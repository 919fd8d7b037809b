//! The reverse-bitboard kernels, as `const fn` on raw `u64`s.
//!
//! # Positive rays: `x ^ (x - 2)`
//!
//! Shift the line's occupancy down so the slider's square is bit 0:
//! `x = (occupancy & mask) >> sq` (the mask excludes the slider, so bit 0 is
//! clear). `x - 2` borrows from bit 1 upward and stops at the first set bit,
//! the nearest blocker; `x ^ (x - 2)` is exactly the bits it changed: bit 1
//! up to and including the blocker, or everything from bit 1 up if there is
//! none. Shifted back up and masked with the line, that is the ray toward
//! higher squares (the mask removes what ran past the line's end).
//!
//! # Negative rays: the same on the reversed board
//!
//! Reversal (bit x <-> bit 63 - x, the board turned by 180 degrees) maps
//! every line through `sq` onto the line of the same kind through `63 - sq`,
//! and the negative ray from `sq` onto the positive ray from `63 - sq`. So the
//! negative rays are the positive-ray kernel on the *reversed* occupancy at
//! `63 - sq`, with that square's line mask; the result is a reversed attack
//! set, brought back by one reversal per piece ([`reverse`]) or consumed as is
//! by scanning it and mapping each square `s` to `63 - s`
//! ([`for_each_reversed_square`]).

use hq_core::{LINE_MASKS, Line, Square};

/// Reverses the bit order (bit x <-> bit 63 - x) the seed's way, by SWAR:
/// swap adjacent bits, then pairs, then nibbles, then the bytes.
///
/// ```
/// assert_eq!(hq_reverse::swar_reverse(1), 1 << 63);
/// assert_eq!(hq_reverse::swar_reverse(0x0123_4567_89AB_CDEF), 0x0123_4567_89AB_CDEFu64.reverse_bits());
/// ```
#[inline(always)]
pub const fn swar_reverse(x: u64) -> u64 {
    let x = ((x >> 1) & 0x5555_5555_5555_5555) | ((x & 0x5555_5555_5555_5555) << 1);
    let x = ((x >> 2) & 0x3333_3333_3333_3333) | ((x & 0x3333_3333_3333_3333) << 2);
    let x = ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((x & 0x0F0F_0F0F_0F0F_0F0F) << 4);
    x.swap_bytes()
}

/// The reversal every kernel of this crate uses: [`swar_reverse`].
///
/// On x86-64, `u64::reverse_bits` compiles to the same steps (a byte swap
/// and three masked swaps), and LLVM recognises this SWAR sequence as a bit
/// reversal: with rustc 1.95 `-O` the two functions come out as one. The
/// crate's `reverse` benchmark times both anyway.
#[inline(always)]
pub const fn reverse(x: u64) -> u64 {
    swar_reverse(x)
}

/// Attacks toward higher squares along `mask` (a line through `sq`, without `sq`).
#[inline(always)]
pub const fn positive_attacks(occupancy: u64, mask: u64, sq: u32) -> u64 {
    let x = (occupancy & mask) >> sq;
    ((x ^ x.wrapping_sub(2)) << sq) & mask
}

/// Forward and reversed halves of the attacks along `line` from `sq`:
/// `(positive rays, negative rays in reversed order)`.
#[inline(always)]
pub const fn line_attacks_split(
    occupancy: u64,
    reversed: u64,
    line: Line,
    sq: Square,
) -> (u64, u64) {
    let r = sq as u32 ^ 63;
    (
        positive_attacks(occupancy, LINE_MASKS[sq as usize].get(line), sq as u32),
        positive_attacks(reversed, LINE_MASKS[r as usize].get(line), r),
    )
}

/// Rook attacks as `(forward half, reversed half)`, given both occupancies.
#[inline(always)]
pub const fn rook_attacks_split(occupancy: u64, reversed: u64, sq: Square) -> (u64, u64) {
    let (s, r) = (sq as usize, sq as usize ^ 63);
    (
        positive_attacks(occupancy, LINE_MASKS[s].rank, s as u32)
            | positive_attacks(occupancy, LINE_MASKS[s].file, s as u32),
        positive_attacks(reversed, LINE_MASKS[r].rank, r as u32)
            | positive_attacks(reversed, LINE_MASKS[r].file, r as u32),
    )
}

/// Bishop attacks as `(forward half, reversed half)`, given both occupancies.
#[inline(always)]
pub const fn bishop_attacks_split(occupancy: u64, reversed: u64, sq: Square) -> (u64, u64) {
    let (s, r) = (sq as usize, sq as usize ^ 63);
    (
        positive_attacks(occupancy, LINE_MASKS[s].diagonal, s as u32)
            | positive_attacks(occupancy, LINE_MASKS[s].anti_diagonal, s as u32),
        positive_attacks(reversed, LINE_MASKS[r].diagonal, r as u32)
            | positive_attacks(reversed, LINE_MASKS[r].anti_diagonal, r as u32),
    )
}

/// Joins a split attack set into forward order: one reversal.
#[inline(always)]
pub const fn join((forward, reversed): (u64, u64)) -> u64 {
    forward | reverse(reversed)
}

/// Calls `f` with every square of a reversed set, mapped back with `63 - s`:
/// the seed's way to consume reversed attacks without reversing the set.
#[inline(always)]
pub fn for_each_reversed_square(mut reversed: u64, mut f: impl FnMut(Square)) {
    while reversed != 0 {
        f(Square::from_index_masked(
            63 - reversed.trailing_zeros() as u8,
        ));
        reversed &= reversed - 1;
    }
}

/// `max(x, 0)` as a shift amount.
#[inline(always)]
const fn max0(x: i32) -> u32 {
    if x > 0 { x as u32 } else { 0 }
}

/// The a1-h8 diagonal.
const MAIN_DIAGONAL: u64 = 0x8040_2010_0804_0201;
/// The h1-a8 anti-diagonal.
const MAIN_ANTI_DIAGONAL: u64 = 0x0102_0408_1020_4080;

/// The four line masks of `sq` (without `sq`) by arithmetic, no table:
/// `[rank, file, diagonal, anti-diagonal]`. The diagonals are the main ones
/// shifted by whole ranks; the two `max(0)`s pick the shift direction without a branch.
#[inline(always)]
pub const fn computed_line_masks(sq: Square) -> [u64; 4] {
    let s = sq as i32;
    let (file, rank) = (s & 7, s >> 3);
    let bit = 1u64 << s;
    let d = 8 * (file - rank);
    let a = 8 * (file + rank - 7);
    [
        (0xFFu64 << (s & 56)) ^ bit,
        (0x0101_0101_0101_0101u64 << file) ^ bit,
        ((MAIN_DIAGONAL >> max0(d)) << max0(-d)) ^ bit,
        ((MAIN_ANTI_DIAGONAL << max0(a)) >> max0(-a)) ^ bit,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use hq_core::{Bitboard, reference};
    use proptest::prelude::*;

    #[test]
    fn computed_masks_equal_the_tables() {
        for sq in Square::ALL {
            let tables = Line::ALL.map(|line| LINE_MASKS[sq as usize].get(line));
            assert_eq!(computed_line_masks(sq), tables, "{sq}");
        }
    }

    #[test]
    fn swar_reverse_maps_each_bit_to_its_mirror() {
        for i in 0..64 {
            assert_eq!(swar_reverse(1 << i), 1 << (63 - i));
        }
    }

    #[test]
    fn the_reversed_half_scanned_with_63_minus_s_is_the_negative_rays() {
        let occ = 0x0042_1000_8100_2400u64;
        for sq in Square::ALL {
            let (forward, reversed) = rook_attacks_split(occ, occ.reverse_bits(), sq);
            let mut scanned = 0u64;
            for_each_reversed_square(reversed, |s| scanned |= s.bit());
            assert_eq!(scanned, reverse(reversed));
            assert_eq!(
                forward | scanned,
                reference::rook_attacks(sq, Bitboard(occ)).0
            );
            assert_eq!(forward & scanned, 0, "the halves are disjoint");
            assert!(forward == 0 || forward.trailing_zeros() > sq as u32);
        }
    }

    proptest! {
        #[test]
        fn swar_reverse_is_reverse_bits(x in any::<u64>()) {
            prop_assert_eq!(swar_reverse(x), x.reverse_bits());
        }
    }
}
