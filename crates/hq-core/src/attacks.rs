//! The rest of an engine's attack sets, as `const fn` over `const` tables:
//! leapers (knight, king, pawn captures), the squares between two aligned
//! squares and the line through them, and portable slider lookups for
//! `const` contexts. None of them depends on the CPU, so they need no
//! dispatch.

use crate::leapers::{KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS};
use crate::piece::Color;
use crate::{Bitboard, Direction, Line, Square, reference};

/// The squares a knight on `sq` attacks.
///
/// ```
/// use hq_core::{Square, attacks::knight_attacks};
/// assert_eq!(knight_attacks(Square::A1).count(), 2);
/// ```
#[inline]
pub const fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT_ATTACKS[sq as usize])
}

/// The squares a king on `sq` attacks.
#[inline]
pub const fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING_ATTACKS[sq as usize])
}

/// The squares a pawn of `color` on `sq` attacks (captures toward the
/// opponent: up the board for white, down for black).
///
/// ```
/// use hq_core::{Square, attacks::pawn_attacks, piece::Color};
/// assert_eq!(pawn_attacks(Color::White, Square::E4).count(), 2); // d5, f5
/// assert!(pawn_attacks(Color::Black, Square::A7).contains(Square::B6));
/// ```
#[inline]
pub const fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_ATTACKS[color as usize][sq as usize])
}

/// The squares from `sq` (excluded) to the board's edge in direction `dir`.
///
/// ```
/// use hq_core::{Direction, Square, attacks::ray};
/// assert_eq!(ray(Direction::North, Square::E6).count(), 2); // e7, e8
/// ```
#[inline]
pub const fn ray(dir: Direction, sq: Square) -> Bitboard {
    Bitboard(crate::ray_mask(dir, sq))
}

/// Rook attacks computed by walking the rays (the oracle,
/// [`crate::reference`]): portable and usable in `const` contexts
/// (tables, constants). For speed, use the facade's `rook_attacks`.
///
/// ```
/// use hq_core::{Bitboard, Square, attacks::rook_attacks_const};
/// const FROM_E4: Bitboard = rook_attacks_const(Square::E4, Bitboard::EMPTY);
/// assert_eq!(FROM_E4.count(), 14);
/// ```
pub const fn rook_attacks_const(sq: Square, occupancy: Bitboard) -> Bitboard {
    reference::rook_attacks(sq, occupancy)
}

/// Bishop attacks by walking the rays, for `const` contexts (see
/// [`rook_attacks_const`]).
pub const fn bishop_attacks_const(sq: Square, occupancy: Bitboard) -> Bitboard {
    reference::bishop_attacks(sq, occupancy)
}

/// Queen attacks by walking the rays, for `const` contexts (see
/// [`rook_attacks_const`]).
pub const fn queen_attacks_const(sq: Square, occupancy: Bitboard) -> Bitboard {
    reference::queen_attacks(sq, occupancy)
}

/// `BETWEEN[a][b]` and `LINE[a][b]`, computed at compile time.
const fn between_and_line() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let from = Square::ALL[a];
        let mut d = 0;
        while d < 4 {
            let [forward, backward] = Line::ALL[d].directions();
            let whole = reference::line_attacks(Line::ALL[d], from, Bitboard::EMPTY).0 | 1 << a;
            // Every square b on either ray: between is the ray up to b, less b.
            let mut k = 0;
            while k < 2 {
                let dir = [forward, backward][k];
                let mut rest = reference::ray_attacks(dir, from, Bitboard::EMPTY).0;
                while rest != 0 {
                    let b = rest.trailing_zeros() as usize;
                    let to = Bitboard(1 << b);
                    between[a][b] = reference::ray_attacks(dir, from, to).0 & !to.0;
                    line[a][b] = whole;
                    rest &= rest - 1;
                }
                k += 1;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

const BETWEEN_AND_LINE: ([[u64; 64]; 64], [[u64; 64]; 64]) = between_and_line();
/// 32 KiB: the squares strictly between two aligned squares.
static BETWEEN: [[u64; 64]; 64] = BETWEEN_AND_LINE.0;
/// 32 KiB: the whole line through two aligned squares.
static LINE: [[u64; 64]; 64] = BETWEEN_AND_LINE.1;

/// The squares strictly between `a` and `b` if they share a rank, file or
/// diagonal; empty otherwise (and for `a == b` or neighbours).
///
/// ```
/// use hq_core::{Square, attacks::between};
/// assert_eq!(between(Square::A1, Square::D4).count(), 2); // b2, c3
/// assert!(between(Square::A1, Square::B3).is_empty());
/// ```
#[inline]
pub const fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a as usize][b as usize])
}

/// The whole line (edge to edge, both squares included) through `a` and `b`
/// if they share a rank, file or diagonal; empty otherwise (and for `a == b`).
///
/// ```
/// use hq_core::{Square, attacks::line};
/// assert_eq!(line(Square::C3, Square::E5).count(), 8); // the a1-h8 diagonal
/// assert!(line(Square::A1, Square::B3).is_empty());
/// ```
#[inline]
pub const fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a as usize][b as usize])
}

#[cfg(test)]
mod basics {
    use super::ray;
    use crate::{Bitboard, Direction, Square};

    /// The square one step from `sq` in `dir`, by coordinates.
    fn step(sq: Square, dir: Direction) -> Option<Square> {
        let (df, dr) = dir.delta();
        sq.offset(df, dr)
    }

    #[test]
    fn rays_shifts_files_and_ranks_agree_with_a_step_walk_on_every_square() {
        for sq in Square::ALL {
            for dir in Direction::ALL {
                let mut walked = Bitboard::EMPTY;
                let mut at = step(sq, dir);
                while let Some(s) = at {
                    walked |= s;
                    at = step(s, dir);
                }
                assert_eq!(ray(dir, sq), walked, "ray({dir:?}, {sq})");
                let shifted = step(sq, dir).map_or(Bitboard::EMPTY, Bitboard::from);
                assert_eq!(
                    Bitboard::from(sq).shift(dir),
                    shifted,
                    "{sq} shifted {dir:?}"
                );
            }
            assert!(Bitboard::FILES[sq.file() as usize].contains(sq));
            assert!(Bitboard::RANKS[sq.rank() as usize].contains(sq));
            let mut table = [0usize; 64];
            table[sq] = sq as usize + 1;
            assert_eq!(table[sq as usize], sq as usize + 1);
        }
        // Each file and rank has its 8 squares, and they tile the board.
        let (files, ranks) = (Bitboard::FILES, Bitboard::RANKS);
        assert!(files.iter().chain(&ranks).all(|b| b.count() == 8));
        assert_eq!(
            files.iter().fold(Bitboard::EMPTY, |a, &b| a | b),
            Bitboard::FULL
        );
        assert_eq!(
            ranks.iter().fold(Bitboard::EMPTY, |a, &b| a | b),
            Bitboard::FULL
        );
        // A set shifts as the union of its squares' shifts.
        let set = Bitboard(0x8142_2418_1824_4281);
        for dir in Direction::ALL {
            let each = set
                .iter()
                .fold(Bitboard::EMPTY, |a, sq| a | Bitboard::from(sq).shift(dir));
            assert_eq!(set.shift(dir), each, "{dir:?}");
        }
    }
}
