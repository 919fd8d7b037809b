//! [`Bitboard`]: a set of squares as a `u64` (bit i = square i).

use crate::Square;
use core::fmt;
use core::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Index, IndexMut, Not, Shl, Shr,
    Sub, SubAssign,
};

/// A set of squares, one bit per square (a1 = bit 0, h8 = bit 63).
///
/// `Display` draws the board with rank 8 on top:
///
/// ```
/// use hq_core::{Bitboard, Square};
/// let b = Bitboard::from(Square::A1) | Bitboard::from(Square::H8);
/// assert_eq!(b.to_string().lines().next().unwrap(), "8 . . . . . . . X");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The files, a (index 0, [`Square::file`]) to h.
    pub const FILES: [Bitboard; 8] = {
        let mut files = [Bitboard(0); 8];
        let mut f = 0;
        while f < 8 {
            files[f] = Bitboard(0x0101_0101_0101_0101 << f);
            f += 1;
        }
        files
    };
    /// The ranks, 1 (index 0, [`Square::rank`]) to 8.
    pub const RANKS: [Bitboard; 8] = {
        let mut ranks = [Bitboard(0); 8];
        let mut r = 0;
        while r < 8 {
            ranks[r] = Bitboard(0xFF << (8 * r));
            r += 1;
        }
        ranks
    };

    /// Every square moved one step in `dir`; squares that would leave the
    /// board drop out (no wrap from the h-file to the a-file).
    ///
    /// ```
    /// use hq_core::{Bitboard, Direction, Square};
    /// let b = Bitboard::from(Square::H4) | Square::E4;
    /// assert_eq!(b.shift(Direction::East), Bitboard::from(Square::F4));
    /// assert_eq!(b.shift(Direction::North), Bitboard::from(Square::H5) | Square::E5);
    /// ```
    #[inline]
    pub const fn shift(self, dir: crate::Direction) -> Bitboard {
        use crate::Direction::*;
        let (not_a, not_h) = (!Bitboard::FILES[0].0, !Bitboard::FILES[7].0);
        Bitboard(match dir {
            East => (self.0 & not_h) << 1,
            West => (self.0 & not_a) >> 1,
            North => self.0 << 8,
            South => self.0 >> 8,
            NorthEast => (self.0 & not_h) << 9,
            NorthWest => (self.0 & not_a) << 7,
            SouthEast => (self.0 & not_h) >> 7,
            SouthWest => (self.0 & not_a) >> 9,
        })
    }

    /// The raw `u64`.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    /// The number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set with `sq` added.
    #[inline]
    #[must_use]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | sq.bit())
    }

    /// The set with `sq` removed.
    #[inline]
    #[must_use]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !sq.bit())
    }

    /// The lowest square in the set, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_masked(self.0.trailing_zeros() as u8))
        }
    }

    /// Removes and returns the lowest square (a1 first): the move-generation
    /// loop `while let Some(sq) = bb.pop_lsb() { ... }`.
    #[inline]
    pub const fn pop_lsb(&mut self) -> Option<Square> {
        let first = self.first();
        self.0 &= self.0.wrapping_sub(1);
        first
    }

    /// Removes and returns the lowest square, as [`Bitboard::pop_lsb`].
    #[inline]
    pub const fn pop(&mut self) -> Option<Square> {
        self.pop_lsb()
    }

    /// The board mirrored vertically (a byte swap).
    #[inline]
    #[must_use]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// The board turned by 180 degrees (a full bit reversal).
    #[inline]
    #[must_use]
    pub const fn rotate_180(self) -> Bitboard {
        Bitboard(self.0.reverse_bits())
    }

    /// Iterates over the squares in the set, lowest first.
    #[inline]
    pub const fn iter(self) -> Squares {
        Squares(self.0)
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index_masked(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(sq)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}
impl core::iter::FusedIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    #[inline]
    fn into_iter(self) -> Squares {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl From<u64> for Bitboard {
    #[inline]
    fn from(bits: u64) -> Bitboard {
        Bitboard(bits)
    }
}

impl From<Bitboard> for u64 {
    #[inline]
    fn from(b: Bitboard) -> u64 {
        b.0
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard(sq.bit())
    }
}

/// `&`, `|`, `^` and `-` (and-not) with anything that converts into a
/// bitboard: a `Bitboard`, a `Square` or a `u64` (`bb & 0xFFu64`, `bb | Square::E4`).
macro_rules! binary_ops {
    ($($trait:ident $method:ident $assign_trait:ident $assign_method:ident |$a:ident, $b:ident| $op:expr),*) => {$(
        impl<T: Into<Bitboard>> $trait<T> for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: T) -> Bitboard {
                let ($a, $b) = (self.0, rhs.into().0);
                Bitboard($op)
            }
        }
        impl<T: Into<Bitboard>> $assign_trait<T> for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: T) {
                let ($a, $b) = (self.0, rhs.into().0);
                self.0 = $op;
            }
        }
    )*};
}
binary_ops!(
    BitAnd bitand BitAndAssign bitand_assign |a, b| a & b,
    BitOr bitor BitOrAssign bitor_assign |a, b| a | b,
    BitXor bitxor BitXorAssign bitxor_assign |a, b| a ^ b,
    Sub sub SubAssign sub_assign |a, b| a & !b
);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl Shl<u32> for Bitboard {
    type Output = Bitboard;
    /// Shifts toward h8; bits pushed past bit 63 are lost (no wrap-around).
    #[inline]
    fn shl(self, n: u32) -> Bitboard {
        Bitboard(self.0.checked_shl(n).unwrap_or(0))
    }
}

impl Shr<u32> for Bitboard {
    type Output = Bitboard;
    /// Shifts toward a1; bits pushed past bit 0 are lost.
    #[inline]
    fn shr(self, n: u32) -> Bitboard {
        Bitboard(self.0.checked_shr(n).unwrap_or(0))
    }
}

/// Arrays of 64 indexed by square, as engines keep per-square tables.
///
/// ```
/// use hq_core::Square;
/// let mut seen = [0u32; 64];
/// seen[Square::E4] += 1;
/// assert_eq!(seen[Square::E4], seen[28]);
/// ```
impl<T> Index<Square> for [T; 64] {
    type Output = T;
    #[inline]
    fn index(&self, sq: Square) -> &T {
        &self[sq as usize]
    }
}

impl<T> IndexMut<Square> for [T; 64] {
    #[inline]
    fn index_mut(&mut self, sq: Square) -> &mut T {
        &mut self[sq as usize]
    }
}

impl fmt::Display for Bitboard {
    /// An 8x8 diagram, rank 8 on top, `X` for a member and `.` for the rest,
    /// with rank digits on the left and file letters underneath.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8u8).rev() {
            write!(f, "{}", rank + 1)?;
            for file in 0..8u8 {
                let sq = Square::from_index_masked(rank * 8 + file);
                f.write_str(if self.contains(sq) { " X" } else { " ." })?;
            }
            f.write_str("\n")?;
        }
        f.write_str("  a b c d e f g h")
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

impl fmt::LowerHex for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::LowerHex::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec::Vec;

    #[test]
    fn iteration_visits_each_member_once_in_order() {
        let b = Bitboard(0x8000_0000_0001_0101);
        let squares: Vec<Square> = b.iter().collect();
        assert_eq!(squares, [Square::A1, Square::A2, Square::A3, Square::H8]);
        assert_eq!(b.iter().len(), 4);
        assert_eq!(squares.into_iter().collect::<Bitboard>(), b);
    }

    #[test]
    fn diagram_has_rank_eight_on_top() {
        let b = Bitboard::from(Square::E4) | Bitboard::from(Square::A8);
        let text = std::format!("{b}");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 9);
        assert_eq!(lines[0], "8 X . . . . . . .");
        assert_eq!(lines[4], "4 . . . . X . . .");
        assert_eq!(lines[8], "  a b c d e f g h");
    }

    #[test]
    fn shifts_do_not_wrap() {
        assert_eq!(Bitboard(1 << 63) << 1, Bitboard::EMPTY);
        assert_eq!(Bitboard(1) >> 64, Bitboard::EMPTY);
        assert_eq!(Bitboard(1) << 9, Bitboard::from(Square::B2));
    }
}
