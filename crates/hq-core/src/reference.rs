//! The reference oracle: plain ray walking.
//!
//! **This module is the single source of truth** for what an attack set is.
//! It is deliberately naive — step one square at a time from the slider in
//! each direction, include every square reached, stop after the first
//! occupied one — so that it is obviously correct by inspection and shares
//! no masks, tables or tricks with any backend. Every backend in the
//! workspace is tested against it (see the `hq-testkit` crate).
//!
//! The slider's own square is never in its attack set, and whether the
//! slider's own square is set in `occupancy` makes no difference.

use crate::{Bitboard, Direction, Line, Square};

/// The squares attacked from `sq` along `dir`: every square up to and
/// including the first occupied one, or to the edge. A `const fn`, like the
/// rest of the oracle, so that the facade's `between`/`line` tables and
/// `const` lookups walk the rays with it instead of a walker of their own.
/// (The PEXT tables keep theirs: built with this one, through its `Option`s
/// and calls, hq-pext's release build took 10.9 s instead of 4.3 s.)
pub const fn ray_attacks(dir: Direction, sq: Square, occupancy: Bitboard) -> Bitboard {
    let (df, dr) = dir.delta();
    let mut attacks = Bitboard::EMPTY;
    let mut current = sq;
    while let Some(next) = current.offset(df, dr) {
        attacks = attacks.with(next);
        if occupancy.contains(next) {
            break;
        }
        current = next;
    }
    attacks
}

/// The squares attacked from `sq` along both directions of `line`.
pub const fn line_attacks(line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
    let [a, b] = line.directions();
    Bitboard(ray_attacks(a, sq, occupancy).0 | ray_attacks(b, sq, occupancy).0)
}

/// Rook attacks: rank and file.
pub const fn rook_attacks(sq: Square, occupancy: Bitboard) -> Bitboard {
    Bitboard(line_attacks(Line::Rank, sq, occupancy).0 | line_attacks(Line::File, sq, occupancy).0)
}

/// Bishop attacks: both diagonals.
pub const fn bishop_attacks(sq: Square, occupancy: Bitboard) -> Bitboard {
    let diagonal = line_attacks(Line::Diagonal, sq, occupancy);
    Bitboard(diagonal.0 | line_attacks(Line::AntiDiagonal, sq, occupancy).0)
}

/// Queen attacks: rook and bishop together.
pub const fn queen_attacks(sq: Square, occupancy: Bitboard) -> Bitboard {
    Bitboard(rook_attacks(sq, occupancy).0 | bishop_attacks(sq, occupancy).0)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Hand-checked positions, written out square by square so that they do
    // not depend on any mask or table of this crate.
    #[test]
    fn rook_on_d4_with_blockers() {
        let occ: Bitboard = [Square::D6, Square::B4, Square::G4, Square::D1]
            .into_iter()
            .collect();
        let expected: Bitboard = [
            Square::D5,
            Square::D6, // north, stops on the blocker
            Square::D3,
            Square::D2,
            Square::D1, // south, to the blocker on the edge
            Square::C4,
            Square::B4, // west
            Square::E4,
            Square::F4,
            Square::G4, // east
        ]
        .into_iter()
        .collect();
        assert_eq!(rook_attacks(Square::D4, occ), expected);
    }

    #[test]
    fn bishop_in_the_corner_on_an_empty_board_sees_the_long_diagonal() {
        let expected: Bitboard = [
            Square::B2,
            Square::C3,
            Square::D4,
            Square::E5,
            Square::F6,
            Square::G7,
            Square::H8,
        ]
        .into_iter()
        .collect();
        assert_eq!(bishop_attacks(Square::A1, Bitboard::EMPTY), expected);
        assert_eq!(
            bishop_attacks(Square::A1, Bitboard::from(Square::A1)),
            expected
        );
    }

    #[test]
    fn queen_surrounded_attacks_only_its_neighbours() {
        let sq = Square::E4;
        let around: Bitboard = Direction::ALL
            .iter()
            .filter_map(|d| sq.offset(d.delta().0, d.delta().1))
            .collect();
        assert_eq!(around.count(), 8);
        assert_eq!(queen_attacks(sq, Bitboard::FULL), around);
    }
}
