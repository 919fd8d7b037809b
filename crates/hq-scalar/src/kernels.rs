//! The single-line HQ kernels, as `const fn` on raw `u64`s.
//!
//! Hyperbola Quintessence computes the attacks along one line with
//! `o = occupancy & line_mask` (the line without the slider), `r = 1 << sq`:
//!
//! ```text
//! positive ray:  o ^ (o - 2r)  →  written  (o - r)                    (borrow runs up to the first blocker)
//! negative ray:  the same on the reversed line, reversed back
//! attacks     =  ((o - r) ^ rev(rev(o) - rev(r))) & line_mask
//! ```
//!
//! The bits of `o` above the first blocker are identical in both halves and
//! cancel in the xor; the mask removes what the borrow did outside the line.
//! `rev` must reverse the order of the line's bits: a byte swap does that for
//! files and both diagonals (one square per rank), a full bit reversal for
//! every line.

use hq_core::{LINE_MASKS, Square};

/// HQ with a byte swap: exact for files, diagonals and anti-diagonals, **not** ranks.
///
/// `mask` is the line through `sq` without `sq`. This is the seed's sequence:
/// `forward = occ & mask; reverse = bswap(forward); forward -= r;
/// reverse -= bswap(r); forward ^= bswap(reverse); forward &= mask`.
#[inline(always)]
pub const fn bswap_line_attacks(sq: Square, occupancy: u64, mask: u64) -> u64 {
    let bit = sq.bit();
    let mut forward = occupancy & mask;
    let mut reverse = forward.swap_bytes();
    forward = forward.wrapping_sub(bit);
    reverse = reverse.wrapping_sub(bit.swap_bytes());
    forward ^= reverse.swap_bytes();
    forward & mask
}

/// HQ with a full bit reversal: exact for all four lines, ranks included.
#[inline(always)]
pub const fn reverse_line_attacks(sq: Square, occupancy: u64, mask: u64) -> u64 {
    let bit = sq.bit();
    let forward = occupancy & mask;
    let reverse = forward.reverse_bits();
    let forward = forward.wrapping_sub(bit);
    let reverse = reverse.wrapping_sub(bit.reverse_bits());
    (forward ^ reverse.reverse_bits()) & mask
}

/// Rank attacks on the first rank: `FIRST_RANK[inner * 8 + file]`, where
/// `inner` is the six inner occupancy bits b..g of the rank (the outer two
/// never change the answer) and `file` the slider's file. 512 bytes.
pub const FIRST_RANK: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut inner = 0;
    while inner < 64 {
        let occ = (inner << 1) as u8;
        let mut file = 0;
        while file < 8 {
            let mut attacks = 0u8;
            let mut f = file + 1;
            while f < 8 {
                attacks |= 1 << f;
                if occ & (1 << f) != 0 {
                    break;
                }
                f += 1;
            }
            let mut f = file as i32 - 1;
            while f >= 0 {
                attacks |= 1 << f;
                if occ & (1 << f) != 0 {
                    break;
                }
                f -= 1;
            }
            table[inner * 8 + file] = attacks;
            file += 1;
        }
        inner += 1;
    }
    table
};

/// Rank attacks by the first-rank table: shift the rank down to rank 1,
/// take its inner six bits, look up, shift back.
///
/// `((occ >> (sq & 56)) & 126) * 4 + (sq & 7)` is `inner * 8 + file`.
#[inline(always)]
pub const fn rank_attacks_by_table(sq: Square, occupancy: u64) -> u64 {
    let shift = sq as u32 & 56;
    let index = ((occupancy >> shift) & 126) as usize * 4 + (sq as usize & 7);
    (FIRST_RANK[index] as u64) << shift
}

/// Multiplying a byte by this puts a copy of it on every rank.
const EVERY_RANK: u64 = 0x0101_0101_0101_0101;
/// The a1-h8 diagonal.
const MAIN_DIAGONAL: u64 = 0x8040_2010_0804_0201;

/// Rank attacks by mapping the rank onto the a1-h8 diagonal (T. Cooijmans' idea),
/// where a byte swap *does* reverse the line, so bswap HQ applies.
///
/// Derivation, with `b` the rank's byte (bit f = file f):
///
/// * **Onto the diagonal.** `b * 0x0101010101010101` copies `b` to every rank
///   (no carries: the copies do not overlap). Masking with the main diagonal
///   keeps, on rank f, only bit f: file f of the rank lands on square
///   `9f` (f, f). The slider on file f lands on `9f` too.
/// * **HQ there** with the main diagonal's mask for square `9f`.
/// * **Back to the rank.** The attack set `a` has bits only at squares
///   `9f`. `a * 0x0101010101010101` adds `a << 8k` for k = 0..7; bit `9f`
///   lands at `9f + 8k`, and these positions are all distinct (equal ones
///   would need 9(f-f') = 8(k'-k), so f = f'), so again no carries. Bit
///   `56 + f` (rank 8, file f) is reached exactly by k = 7 - f, and by no
///   other (f, k) pair, so the top byte of the product is the rank's attack
///   byte: `>> 56`.
///
/// Four cheap operations each way, and no table but the line masks.
#[inline(always)]
pub const fn rank_attacks_by_diagonal(sq: Square, occupancy: u64) -> u64 {
    let shift = sq as u32 & 56;
    let file = sq as u8 & 7;
    let rank_bits = (occupancy >> shift) & 0xFF;
    let on_diagonal = rank_bits.wrapping_mul(EVERY_RANK) & MAIN_DIAGONAL;
    let diagonal_sq = Square::from_index_masked(file * 9);
    let mask = LINE_MASKS[diagonal_sq as usize].diagonal;
    let attacks = bswap_line_attacks(diagonal_sq, on_diagonal, mask);
    (attacks.wrapping_mul(EVERY_RANK) >> 56) << shift
}

#[cfg(test)]
mod tests {
    use super::*;
    use hq_core::{Bitboard, Line, reference};
    use hq_testkit::for_each_subset;

    #[test]
    fn diagonal_mapping_is_a_bijection_of_rank_bytes() {
        // Onto the diagonal and back is the identity for all 256 rank bytes.
        for b in 0..=255u64 {
            let on_diagonal = b.wrapping_mul(EVERY_RANK) & MAIN_DIAGONAL;
            assert_eq!(on_diagonal.count_ones(), b.count_ones());
            for f in 0..8 {
                assert_eq!(on_diagonal >> (9 * f) & 1, b >> f & 1);
            }
            assert_eq!(on_diagonal.wrapping_mul(EVERY_RANK) >> 56, b);
        }
    }

    #[test]
    fn every_rank_method_is_exhaustively_right() {
        for sq in Square::ALL {
            let mask = LINE_MASKS[sq as usize].rank;
            for_each_subset(mask | sq.bit(), |occ| {
                // Noise off the rank must not matter.
                let noisy = occ | (!mask & 0x1234_5678_9ABC_DEF0 & !sq.bit());
                let expected = reference::line_attacks(Line::Rank, sq, Bitboard(occ)).0;
                assert_eq!(
                    rank_attacks_by_table(sq, noisy),
                    expected,
                    "table {sq} {occ:#x}"
                );
                assert_eq!(
                    rank_attacks_by_diagonal(sq, noisy),
                    expected,
                    "diagonal {sq} {occ:#x}"
                );
                assert_eq!(
                    reverse_line_attacks(sq, noisy, mask),
                    expected,
                    "reverse {sq} {occ:#x}"
                );
            });
        }
    }

    #[test]
    fn bswap_is_wrong_on_ranks_which_is_why_they_need_a_method_of_their_own() {
        let sq = Square::D1;
        let occ = Square::B1.bit() | Square::F1.bit();
        let mask = LINE_MASKS[sq as usize].rank;
        assert_ne!(
            bswap_line_attacks(sq, occ, mask),
            reverse_line_attacks(sq, occ, mask)
        );
    }
}
