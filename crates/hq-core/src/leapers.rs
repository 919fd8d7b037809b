//! Attack tables of the pieces that do not slide — knight, king, pawn —
//! computed at compile time. They need no occupancy, so every crate that
//! generates moves shares these instead of keeping its own copy.

use crate::Square;

/// The eight knight steps, `(file, rank)`.
pub const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The eight king steps, `(file, rank)`.
pub const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The capture steps of a pawn, by colour (white moves toward rank 8).
pub const PAWN_CAPTURE_STEPS: [[(i8, i8); 2]; 2] = [[(-1, 1), (1, 1)], [(-1, -1), (1, -1)]];

/// The squares reached from each square by one of `steps` (off-board steps dropped).
pub const fn step_attacks(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < steps.len() {
            if let Some(to) = Square::ALL[sq].offset(steps[i].0, steps[i].1) {
                table[sq] |= to.bit();
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// Knight attacks per square.
pub const KNIGHT_ATTACKS: [u64; 64] = step_attacks(&KNIGHT_STEPS);

/// King attacks per square.
pub const KING_ATTACKS: [u64; 64] = step_attacks(&KING_STEPS);

/// `PAWN_ATTACKS[colour][sq]` (0 white, 1 black, as [`crate::piece::Color`]):
/// the squares a pawn of that colour on `sq` attacks. Read backwards,
/// `PAWN_ATTACKS[them][sq]` is where pawns of the other colour stand that attack `sq`.
pub const PAWN_ATTACKS: [[u64; 64]; 2] = [
    step_attacks(&PAWN_CAPTURE_STEPS[0]),
    step_attacks(&PAWN_CAPTURE_STEPS[1]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_the_geometry() {
        // Corner, edge and centre, counted by hand.
        assert_eq!(KNIGHT_ATTACKS[Square::A1 as usize].count_ones(), 2);
        assert_eq!(KNIGHT_ATTACKS[Square::D4 as usize].count_ones(), 8);
        assert_eq!(KING_ATTACKS[Square::H8 as usize].count_ones(), 3);
        assert_eq!(KING_ATTACKS[Square::E4 as usize].count_ones(), 8);
        assert_eq!(
            PAWN_ATTACKS[0][Square::E2 as usize],
            Square::D3.bit() | Square::F3.bit()
        );
        assert_eq!(PAWN_ATTACKS[1][Square::A7 as usize], Square::B6.bit());
        assert_eq!(PAWN_ATTACKS[0][Square::E8 as usize], 0);
        let total: u32 = KNIGHT_ATTACKS.iter().map(|b| b.count_ones()).sum();
        assert_eq!(total, 336);
    }
}
