//! The rest of an engine's attack sets, as `const fn` over `const` tables:
//! leapers (knight, king, pawn captures), the squares between two aligned
//! squares and the line through them, and portable slider lookups for
//! `const` contexts. None of them depends on the CPU, so they need no
//! dispatch.

use hq_core::leapers::{KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS};
use hq_core::{Bitboard, Square};

pub use hq_core::piece::Color;

/// The squares a knight on `sq` attacks.
///
/// ```
/// use hq::{Square, knight_attacks};
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
/// use hq::{Color, Square, pawn_attacks};
/// assert_eq!(pawn_attacks(Color::White, Square::E4).count(), 2); // d5, f5
/// assert!(pawn_attacks(Color::Black, Square::A7).contains(Square::B6));
/// ```
#[inline]
pub const fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_ATTACKS[color as usize][sq as usize])
}

/// The eight directions as (file step, rank step).
const STEPS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

/// The squares from `sq` along `(df, dr)` up to and including the first
/// square of `occupancy` (or the edge), by walking the ray.
const fn ray(sq: usize, occupancy: u64, (df, dr): (i8, i8)) -> u64 {
    let (mut file, mut rank) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
    let mut attacks = 0;
    while file >= 0 && file < 8 && rank >= 0 && rank < 8 {
        let bit = 1u64 << (rank * 8 + file);
        attacks |= bit;
        if occupancy & bit != 0 {
            break;
        }
        file += df;
        rank += dr;
    }
    attacks
}

/// The union of the rays of `steps` from `sq`.
const fn rays(sq: Square, occupancy: Bitboard, steps: &[(i8, i8)]) -> Bitboard {
    let mut attacks = 0;
    let mut i = 0;
    while i < steps.len() {
        attacks |= ray(sq as usize, occupancy.0, steps[i]);
        i += 1;
    }
    Bitboard(attacks)
}

/// Rook attacks computed by walking the rays: portable and usable in `const`
/// contexts (tables, constants). For speed, use [`crate::rook_attacks`].
///
/// ```
/// use hq::{Bitboard, Square, rook_attacks_const};
/// const FROM_E4: Bitboard = rook_attacks_const(Square::E4, Bitboard::EMPTY);
/// assert_eq!(FROM_E4.count(), 14);
/// ```
pub const fn rook_attacks_const(sq: Square, occupancy: Bitboard) -> Bitboard {
    let (rook, _) = STEPS.split_at(4);
    rays(sq, occupancy, rook)
}

/// Bishop attacks by walking the rays, for `const` contexts (see
/// [`rook_attacks_const`]).
pub const fn bishop_attacks_const(sq: Square, occupancy: Bitboard) -> Bitboard {
    let (_, bishop) = STEPS.split_at(4);
    rays(sq, occupancy, bishop)
}

/// Queen attacks by walking the rays, for `const` contexts (see
/// [`rook_attacks_const`]).
pub const fn queen_attacks_const(sq: Square, occupancy: Bitboard) -> Bitboard {
    rays(sq, occupancy, &STEPS)
}

/// `BETWEEN[a][b]` and `LINE[a][b]`, computed at compile time.
const fn between_and_line() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = STEPS[d];
            let forward = ray(a, 0, (df, dr));
            let whole = forward | ray(a, 0, (-df, -dr)) | (1u64 << a);
            // Every square b on this ray: between is the ray up to b, less b.
            let mut rest = forward;
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                between[a][b] = ray(a, 1u64 << b, (df, dr)) & !(1u64 << b);
                line[a][b] = whole;
                rest &= rest - 1;
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
/// use hq::{Square, between};
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
/// use hq::{Square, line};
/// assert_eq!(line(Square::C3, Square::E5).count(), 8); // the a1-h8 diagonal
/// assert!(line(Square::A1, Square::B3).is_empty());
/// ```
#[inline]
pub const fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a as usize][b as usize])
}
