//! Compile-time tables for the leapers, pins and checks.
//!
//! Slider attacks come from the backend token; these tables hold only what
//! needs no occupancy: knight, king and pawn attacks, the empty-board rook and
//! bishop lines (to find pin and check candidates without a slider lookup),
//! and the squares strictly between two aligned squares.

use hq_core::{LINE_MASKS, Line, RAY_MASKS};

/// File a, as a bitboard.
pub(crate) const FILE_A: u64 = 0x0101_0101_0101_0101;
/// File h, as a bitboard.
pub(crate) const FILE_H: u64 = FILE_A << 7;
/// Rank 1, as a bitboard.
pub(crate) const RANK_1: u64 = 0xFF;
/// Rank 8, as a bitboard.
pub(crate) const RANK_8: u64 = RANK_1 << 56;
/// Ranks 1 and 8: where no pawn may stand and where pawns promote.
pub(crate) const BACK_RANKS: u64 = RANK_1 | RANK_8;

/// King attacks from each square.
pub(crate) use hq_core::leapers::KING_ATTACKS as KING;
/// Knight attacks from each square.
pub(crate) use hq_core::leapers::KNIGHT_ATTACKS as KNIGHT;
/// `PAWN_ATTACKS[colour][sq]` (0 white, 1 black).
pub(crate) use hq_core::leapers::PAWN_ATTACKS;

/// The union of two lines through each square, on an empty board.
const fn two_lines(lines: [Line; 2]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = LINE_MASKS[sq].get(lines[0]) | LINE_MASKS[sq].get(lines[1]);
        sq += 1;
    }
    table
}

/// Rook lines (rank and file) from each square on an empty board.
pub(crate) const ROOK_LINES: [u64; 64] = two_lines([Line::Rank, Line::File]);

/// Bishop lines (both diagonals) from each square on an empty board.
pub(crate) const BISHOP_LINES: [u64; 64] = two_lines([Line::Diagonal, Line::AntiDiagonal]);

/// `BETWEEN[a][b]`: the squares strictly between `a` and `b` when they share
/// a rank, file or diagonal, else empty. A check from a slider on `b` against
/// a king on `a` is blocked exactly by a piece on `BETWEEN[a][b]`.
pub(crate) static BETWEEN: [[u64; 64]; 64] = {
    let mut table = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut dir = 0;
        while dir < 8 {
            // Directions 0..4 and 4..8 are opposites pairwise (East/West, ...).
            let back = (dir + 4) & 7;
            let mut ray = RAY_MASKS[dir][a];
            while ray != 0 {
                let b = ray.trailing_zeros() as usize;
                table[a][b] = RAY_MASKS[dir][a] & RAY_MASKS[back][b];
                ray &= ray - 1;
            }
            dir += 1;
        }
        a += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leapers_have_the_expected_sizes() {
        assert_eq!(KNIGHT[0].count_ones(), 2);
        assert_eq!(KNIGHT[27].count_ones(), 8);
        assert_eq!(KING[0].count_ones(), 3);
        assert_eq!(KING[27].count_ones(), 8);
        // White pawn on e4 attacks d5 and f5; black pawn on e4 attacks d3 and f3.
        assert_eq!(PAWN_ATTACKS[0][28], (1 << 35) | (1 << 37));
        assert_eq!(PAWN_ATTACKS[1][28], (1 << 19) | (1 << 21));
        assert_eq!(PAWN_ATTACKS[0][7], 1 << 14);
    }

    #[test]
    fn between_is_symmetric_and_strict() {
        // a1..h8: b2..g7.
        assert_eq!(BETWEEN[0][63], 0x0040_2010_0804_0200);
        assert_eq!(BETWEEN[63][0], BETWEEN[0][63]);
        // a1, h1: b1..g1.
        assert_eq!(BETWEEN[0][7], 0x7E);
        // Adjacent and unaligned squares have nothing between.
        assert_eq!(BETWEEN[0][1], 0);
        assert_eq!(BETWEEN[0][17], 0);
        for (a, row) in BETWEEN.iter().enumerate() {
            for (b, &between) in row.iter().enumerate() {
                assert_eq!(between, BETWEEN[b][a]);
                assert_eq!(between & ((1 << a) | (1 << b)), 0);
            }
        }
    }
}
