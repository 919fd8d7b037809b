//! The classical ray kernels: ray masks and one bit scan per ray.
//!
//! The attacks along a ray are the ray mask minus what lies behind the
//! nearest blocker, and what lies behind a blocker on the same ray is the
//! blocker's own ray mask in that direction. The nearest blocker on a
//! positive ray (toward higher squares) is the lowest set bit,
//! `trailing_zeros` (Hyatt's `first_one`); on a negative ray the highest,
//! `63 - leading_zeros` (`last_one`).
//!
//! No branch on "is there a blocker": a sentinel bit makes the scan land on
//! h8 (positive rays) or a1 (negative rays) when the ray is empty, and every
//! positive ray from h8 and every negative ray from a1 is empty, so the xor
//! then removes nothing.

use hq_core::{Direction, Line, RAY_MASKS, Square};

/// Attacks from `sq` along `dir` over `occupancy`.
///
/// ```
/// use hq_core::{Direction, Square};
/// let occ = Square::E6.bit();
/// let attacks = hq_classic::ray_attacks(Direction::North, Square::E2, occ);
/// assert_eq!(attacks, Square::E3.bit() | Square::E4.bit() | Square::E5.bit() | Square::E6.bit());
/// ```
#[inline(always)]
pub const fn ray_attacks(dir: Direction, sq: Square, occupancy: u64) -> u64 {
    let ray = RAY_MASKS[dir as usize][sq as usize];
    let blockers = ray & occupancy;
    let nearest = if dir.is_positive() {
        (blockers | 1 << 63).trailing_zeros()
    } else {
        63 - (blockers | 1).leading_zeros()
    };
    ray ^ RAY_MASKS[dir as usize][nearest as usize]
}

/// Attacks from `sq` along both directions of `line`.
#[inline(always)]
pub const fn line_attacks(line: Line, sq: Square, occupancy: u64) -> u64 {
    let [positive, negative] = line.directions();
    ray_attacks(positive, sq, occupancy) | ray_attacks(negative, sq, occupancy)
}

/// Rook attacks: four rays, the rank's two and the file's two.
#[inline(always)]
pub const fn rook_attacks(sq: Square, occupancy: u64) -> u64 {
    line_attacks(Line::Rank, sq, occupancy) | line_attacks(Line::File, sq, occupancy)
}

/// Bishop attacks: four rays, the diagonal's two and the anti-diagonal's two.
#[inline(always)]
pub const fn bishop_attacks(sq: Square, occupancy: u64) -> u64 {
    line_attacks(Line::Diagonal, sq, occupancy) | line_attacks(Line::AntiDiagonal, sq, occupancy)
}

/// The direction from `from` to `to`, if they share a rank, file or diagonal.
#[inline]
pub const fn direction_between(from: Square, to: Square) -> Option<Direction> {
    let df = to.file() as i8 - from.file() as i8;
    let dr = to.rank() as i8 - from.rank() as i8;
    if (df == 0 && dr == 0) || (df != 0 && dr != 0 && df != dr && df != -dr) {
        return None;
    }
    Some(match (df.signum(), dr.signum()) {
        (1, 0) => Direction::East,
        (0, 1) => Direction::North,
        (1, 1) => Direction::NorthEast,
        (-1, 1) => Direction::NorthWest,
        (-1, 0) => Direction::West,
        (0, -1) => Direction::South,
        (-1, -1) => Direction::SouthWest,
        _ => Direction::SouthEast,
    })
}

/// X-ray attacks along `dir`: like [`ray_attacks`], but a blocker in
/// `transparent` does not end the ray; it continues behind it (through any
/// number of such blockers) up to the first blocker not in `transparent`.
///
/// With `transparent` = own bishops and queens, a bishop behind its own
/// queen bears on the squares beyond the queen (a battery).
#[inline]
pub const fn xray_ray_attacks(dir: Direction, sq: Square, occupancy: u64, transparent: u64) -> u64 {
    let mut attacks = 0;
    let mut from = sq;
    loop {
        let ray = ray_attacks(dir, from, occupancy);
        attacks |= ray;
        // The only occupied square of a ray's attacks is its blocker.
        let blocker = ray & occupancy & transparent;
        if blocker == 0 {
            return attacks;
        }
        from = Square::from_index_masked(blocker.trailing_zeros() as u8);
    }
}

/// X-ray attacks along all of `directions`, seeing through `transparent`.
#[inline]
pub fn xray_attacks(directions: &[Direction], sq: Square, occupancy: u64, transparent: u64) -> u64 {
    directions.iter().fold(0, |acc, &d| {
        acc | xray_ray_attacks(d, sq, occupancy, transparent)
    })
}

/// The four rook directions.
pub const ROOK_DIRECTIONS: [Direction; 4] = [
    Direction::East,
    Direction::North,
    Direction::West,
    Direction::South,
];
/// The four bishop directions.
pub const BISHOP_DIRECTIONS: [Direction; 4] = [
    Direction::NorthEast,
    Direction::NorthWest,
    Direction::SouthWest,
    Direction::SouthEast,
];

#[cfg(test)]
mod tests {
    use super::*;
    use hq_core::{Bitboard, reference};
    use proptest::prelude::*;

    #[test]
    fn directions_between_match_the_ray_masks() {
        for from in Square::ALL {
            for to in Square::ALL {
                let expected = Direction::ALL
                    .into_iter()
                    .find(|&d| RAY_MASKS[d as usize][from as usize] & to.bit() != 0);
                assert_eq!(direction_between(from, to), expected, "{from} {to}");
            }
        }
    }

    /// The x-ray oracle: the reference ray walk, restarted behind each transparent blocker.
    fn xray_oracle(dir: Direction, sq: Square, occ: u64, transparent: u64) -> u64 {
        let mut attacks = Bitboard::EMPTY;
        let mut from = sq;
        loop {
            let ray = reference::ray_attacks(dir, from, Bitboard(occ));
            attacks |= ray;
            match ray.iter().find(|s| occ & s.bit() != 0) {
                Some(blocker) if transparent & blocker.bit() != 0 => from = blocker,
                _ => return attacks.0,
            }
        }
    }

    proptest! {
        #[test]
        fn rays_match_the_oracle(sq in 0u8..64, occ in any::<u64>(), sparse in any::<u64>()) {
            let sq = Square::new(sq).unwrap();
            for occ in [occ, occ & sparse] {
                for dir in Direction::ALL {
                    prop_assert_eq!(ray_attacks(dir, sq, occ), reference::ray_attacks(dir, sq, Bitboard(occ)).0);
                }
            }
        }

        #[test]
        fn xray_matches_the_oracle(sq in 0u8..64, a in any::<u64>(), b in any::<u64>(), c in any::<u64>()) {
            let sq = Square::new(sq).unwrap();
            let occ = a & b;
            let transparent = occ & c;
            for dir in Direction::ALL {
                prop_assert_eq!(xray_ray_attacks(dir, sq, occ, transparent), xray_oracle(dir, sq, occ, transparent));
            }
        }
    }

    #[test]
    fn a_bishop_behind_its_queen_bears_beyond_the_queen() {
        // White bishop c1, white queen d2, black pawn g5: the bishop x-rays
        // through the queen to e3, f4 and g5 (and stops at the pawn).
        let occ = Square::C1.bit() | Square::D2.bit() | Square::G5.bit();
        let own_diagonal_sliders = Square::C1.bit() | Square::D2.bit();
        let plain = bishop_attacks(Square::C1, occ);
        let xray = xray_attacks(&BISHOP_DIRECTIONS, Square::C1, occ, own_diagonal_sliders);
        assert_eq!(
            plain,
            Square::D2.bit() | Square::B2.bit() | Square::A3.bit()
        );
        assert_eq!(
            xray,
            plain | Square::E3.bit() | Square::F4.bit() | Square::G5.bit()
        );
        // Nothing transparent: x-ray attacks are the plain attacks.
        assert_eq!(xray_attacks(&BISHOP_DIRECTIONS, Square::C1, occ, 0), plain);
    }
}
