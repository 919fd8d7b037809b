//! Line and ray masks, computed at compile time.

use crate::Square;

/// One of the four lines through a square that sliders move along.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Line {
    /// Horizontal: a rank (a1-h1 direction). Bit order along it is file order.
    Rank,
    /// Vertical: a file (a1-a8 direction).
    File,
    /// The a1-h8 direction (file and rank grow together).
    Diagonal,
    /// The h1-a8 direction (file falls as rank grows).
    AntiDiagonal,
}

impl Line {
    /// The four lines, rook lines first.
    pub const ALL: [Line; 4] = [Line::Rank, Line::File, Line::Diagonal, Line::AntiDiagonal];

    /// The two directions along this line: `[positive, negative]` (toward h8 first).
    pub const fn directions(self) -> [Direction; 2] {
        match self {
            Line::Rank => [Direction::East, Direction::West],
            Line::File => [Direction::North, Direction::South],
            Line::Diagonal => [Direction::NorthEast, Direction::SouthWest],
            Line::AntiDiagonal => [Direction::NorthWest, Direction::SouthEast],
        }
    }

    /// Lower-case name, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Line::Rank => "rank",
            Line::File => "file",
            Line::Diagonal => "diagonal",
            Line::AntiDiagonal => "anti-diagonal",
        }
    }
}

/// The eight ray directions. The first four step toward higher square
/// indices ("positive rays"), the last four toward lower ones.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Direction {
    /// +1 file (toward h).
    East,
    /// +1 rank (toward rank 8).
    North,
    /// +1 file, +1 rank.
    NorthEast,
    /// -1 file, +1 rank.
    NorthWest,
    /// -1 file.
    West,
    /// -1 rank.
    South,
    /// -1 file, -1 rank.
    SouthWest,
    /// +1 file, -1 rank.
    SouthEast,
}

impl Direction {
    /// All eight, positive rays first.
    pub const ALL: [Direction; 8] = [
        Direction::East,
        Direction::North,
        Direction::NorthEast,
        Direction::NorthWest,
        Direction::West,
        Direction::South,
        Direction::SouthWest,
        Direction::SouthEast,
    ];

    /// `(file step, rank step)`.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::East => (1, 0),
            Direction::North => (0, 1),
            Direction::NorthEast => (1, 1),
            Direction::NorthWest => (-1, 1),
            Direction::West => (-1, 0),
            Direction::South => (0, -1),
            Direction::SouthWest => (-1, -1),
            Direction::SouthEast => (1, -1),
        }
    }

    /// Whether the ray runs toward higher square indices.
    pub const fn is_positive(self) -> bool {
        (self as u8) < 4
    }

    /// The line the ray lies on.
    pub const fn line(self) -> Line {
        match self {
            Direction::East | Direction::West => Line::Rank,
            Direction::North | Direction::South => Line::File,
            Direction::NorthEast | Direction::SouthWest => Line::Diagonal,
            Direction::NorthWest | Direction::SouthEast => Line::AntiDiagonal,
        }
    }
}

/// All squares from `sq` (exclusive) to the board edge in direction `dir`.
const fn compute_ray(sq: u8, dir: Direction) -> u64 {
    let (df, dr) = dir.delta();
    let mut f = (sq & 7) as i8 + df;
    let mut r = (sq >> 3) as i8 + dr;
    let mut mask = 0u64;
    while f >= 0 && f < 8 && r >= 0 && r < 8 {
        mask |= 1u64 << (r * 8 + f);
        f += df;
        r += dr;
    }
    mask
}

/// Ray masks: `RAY_MASKS[dir as usize][sq]`, the squares from `sq` (excluded)
/// to the edge. Used by the classical (Hyatt) method.
pub const RAY_MASKS: [[u64; 64]; 8] = {
    let mut table = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            table[d][sq] = compute_ray(sq as u8, Direction::ALL[d]);
            sq += 1;
        }
        d += 1;
    }
    table
};

/// The four line masks of one square, each excluding the square itself.
///
/// 32-byte aligned so SIMD backends load a whole record with one aligned
/// load. The order is deliberate: the first 16 bytes are the bishop pair
/// `{diagonal, anti_diagonal}`, the last 16 the rook pair `{file, rank}`, so a
/// 128-bit backend loads either pair with one `movdqa` and a 256-bit backend
/// loads all four lines of a queen with one `vmovdqa`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(32))]
pub struct LineMasks {
    /// The a1-h8 direction diagonal through the square.
    pub diagonal: u64,
    /// The h1-a8 direction anti-diagonal through the square.
    pub anti_diagonal: u64,
    /// The file through the square.
    pub file: u64,
    /// The rank through the square.
    pub rank: u64,
}

impl LineMasks {
    /// The mask for `line`.
    #[inline]
    pub const fn get(&self, line: Line) -> u64 {
        match line {
            Line::Rank => self.rank,
            Line::File => self.file,
            Line::Diagonal => self.diagonal,
            Line::AntiDiagonal => self.anti_diagonal,
        }
    }

    /// The record as four lanes, in memory order.
    #[inline]
    pub const fn as_array(&self) -> [u64; 4] {
        [self.diagonal, self.anti_diagonal, self.file, self.rank]
    }
}

/// Per-square line masks (`LINE_MASKS[sq as usize]`), each without the square itself.
pub const LINE_MASKS: [LineMasks; 64] = {
    let mut table = [LineMasks {
        diagonal: 0,
        anti_diagonal: 0,
        file: 0,
        rank: 0,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = LineMasks {
            diagonal: RAY_MASKS[Direction::NorthEast as usize][sq]
                | RAY_MASKS[Direction::SouthWest as usize][sq],
            anti_diagonal: RAY_MASKS[Direction::NorthWest as usize][sq]
                | RAY_MASKS[Direction::SouthEast as usize][sq],
            file: RAY_MASKS[Direction::North as usize][sq]
                | RAY_MASKS[Direction::South as usize][sq],
            rank: RAY_MASKS[Direction::East as usize][sq] | RAY_MASKS[Direction::West as usize][sq],
        };
        sq += 1;
    }
    table
};

/// `SQUARE_BITS[sq] == 1 << sq`: the single-bit masks, as a table for SIMD
/// loads and for code that prefers a load to a shift.
pub const SQUARE_BITS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = 1u64 << sq;
        sq += 1;
    }
    table
};

/// The byte-shuffle tables of bit reversal by nibbles (`pshufb`,
/// `i8x16_swizzle`): byte `i` is nibble `i % 16` with its four bits
/// reversed, shifted left by `shift` (4 to move a low nibble to the top, 0
/// for a high one moved down). `N` above 16 repeats the 16 bytes in every
/// 128-bit lane of a wider register.
///
/// ```
/// let to_top: [u8; 16] = hq_core::nibble_reversal_table(4);
/// assert_eq!((to_top[0b0001], to_top[0b0110]), (0b1000_0000, 0b0110_0000));
/// ```
pub const fn nibble_reversal_table<const N: usize>(shift: u32) -> [u8; N] {
    let mut table = [0u8; N];
    let mut i = 0;
    while i < N {
        table[i] = ((i as u8 & 15).reverse_bits() >> 4) << shift;
        i += 1;
    }
    table
}

/// The mask of `line` through `sq`, without `sq`.
///
/// ```
/// use hq_core::{line_mask, Line, Square};
/// assert_eq!(line_mask(Line::Rank, Square::A1), 0xFE);
/// assert_eq!(line_mask(Line::Diagonal, Square::A1), 0x8040_2010_0804_0200);
/// ```
#[inline]
pub const fn line_mask(line: Line, sq: Square) -> u64 {
    LINE_MASKS[sq as usize].get(line)
}

/// The ray from `sq` (excluded) to the edge in direction `dir`.
#[inline]
pub const fn ray_mask(dir: Direction, sq: Square) -> u64 {
    RAY_MASKS[dir as usize][sq as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_exclude_the_square_and_have_the_right_length() {
        for sq in Square::ALL {
            let m = LINE_MASKS[sq as usize];
            for line in Line::ALL {
                assert_eq!(m.get(line) & sq.bit(), 0);
            }
            assert_eq!(m.rank.count_ones(), 7);
            assert_eq!(m.file.count_ones(), 7);
            let (f, r) = (sq.file() as u32, sq.rank() as u32);
            assert_eq!(m.diagonal.count_ones(), 7 - f.abs_diff(r));
            assert_eq!(m.anti_diagonal.count_ones(), 7 - (f + r).abs_diff(7));
        }
        assert_eq!(core::mem::align_of::<LineMasks>(), 32);
        assert_eq!(core::mem::size_of::<LineMasks>(), 32);
    }

    #[test]
    fn rays_split_each_line_into_two_halves() {
        for sq in Square::ALL {
            for line in Line::ALL {
                let [pos, neg] = line.directions();
                let (p, n) = (ray_mask(pos, sq), ray_mask(neg, sq));
                assert_eq!(p & n, 0);
                assert_eq!(p | n, line_mask(line, sq));
                assert!(p == 0 || p.trailing_zeros() > sq as u32);
                assert!(n == 0 || 63 - n.leading_zeros() < sq as u32);
            }
        }
    }
}
