//! The [`Square`] type: a checked index 0..64 (a1 = 0, h8 = 63).

use core::fmt;
use core::str::FromStr;

macro_rules! squares {
    ($($name:ident = $value:literal),* $(,)?) => {
        /// A square of the board, `8 * rank + file` (a1 = 0, h1 = 7, h8 = 63).
        ///
        /// An enum so that the compiler knows every value is below 64: tables
        /// indexed by `sq as usize` need no bounds check.
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        #[repr(u8)]
        #[allow(missing_docs)]
        pub enum Square {
            $($name = $value),*
        }
    };
}

squares! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// All 64 squares in index order (a1, b1, ..., h8).
    pub const ALL: [Square; 64] = {
        let mut all = [Square::A1; 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square::from_index_masked(i as u8);
            i += 1;
        }
        all
    };

    /// The square with this index, or `None` if `index >= 64`.
    ///
    /// ```
    /// use hq_core::Square;
    /// assert_eq!(Square::new(28), Some(Square::E4));
    /// assert_eq!(Square::new(64), None);
    /// ```
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square::from_index_masked(index))
        } else {
            None
        }
    }

    /// The square `index & 63`: total, for hot code that already knows the range.
    #[inline]
    pub const fn from_index_masked(index: u8) -> Square {
        // SAFETY: `Square` is `repr(u8)` with exactly the discriminants 0..=63,
        // and `index & 63` is in that range.
        unsafe { core::mem::transmute::<u8, Square>(index & 63) }
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1), or `None` if either is >= 8.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square::from_index_masked(rank * 8 + file))
        } else {
            None
        }
    }

    /// The index 0..64 (a1 = 0, h8 = 63), as shakmaty's `to_usize` (named so
    /// that it cannot be mistaken for a constructor, as cozy-chess's
    /// `Square::index(usize)` is one; `usize::from(sq)` is the same).
    #[inline]
    pub const fn to_usize(self) -> usize {
        self as usize
    }

    /// The file, 0 (a) to 7 (h).
    #[inline]
    pub const fn file(self) -> u8 {
        self as u8 & 7
    }

    /// The rank, 0 (rank 1) to 7 (rank 8).
    #[inline]
    pub const fn rank(self) -> u8 {
        self as u8 >> 3
    }

    /// The single-bit bitboard of this square.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << (self as u8)
    }

    /// The square mirrored vertically (rank r <-> 7 - r): what a byte swap does.
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square::from_index_masked(self as u8 ^ 56)
    }

    /// The square turned by 180 degrees (s <-> 63 - s): what a bit reversal does.
    #[inline]
    pub const fn rotate_180(self) -> Square {
        Square::from_index_masked(self as u8 ^ 63)
    }

    /// The neighbour `(df, dr)` away, or `None` off the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Square::from_coords(f as u8, r as u8)
        } else {
            None
        }
    }
}

/// `From<Square>` for the unsigned integer types: the index (a1 = 0, h8 = 63).
macro_rules! square_into {
    ($($int:ty),*) => {$(
        impl From<Square> for $int {
            #[inline]
            fn from(sq: Square) -> $int {
                sq as $int
            }
        }
    )*};
}
square_into!(u8, u16, u32, u64, usize);

/// `TryFrom` every integer type into a square: indices 0..64 (a1 = 0, h8 =
/// 63), anything else an error naming the value as given.
macro_rules! square_try_from {
    ($($int:ty),*) => {$(
        impl TryFrom<$int> for Square {
            type Error = ParseSquareError;
            #[inline]
            #[allow(unused_comparisons, clippy::cast_possible_truncation)]
            fn try_from(index: $int) -> Result<Square, ParseSquareError> {
                if index >= 0 && (index as u128) < 64 {
                    Ok(Square::from_index_masked(index as u8))
                } else {
                    // Exact for every integer type: i128::MIN's magnitude fits in u128.
                    let negative = index < 0;
                    let magnitude = if negative { (index as i128).unsigned_abs() } else { index as u128 };
                    Err(ParseSquareError::IndexOutOfRange { negative, magnitude })
                }
            }
        }
    )*};
}
square_try_from!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize
);

/// Why a square could not be made from a string or an index.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ParseSquareError {
    /// The string was not two characters long.
    WrongLength,
    /// The first character was not a file letter `a`..`h`.
    BadFile(char),
    /// The second character was not a rank digit `1`..`8`.
    BadRank(char),
    /// A numeric index was not in 0..64: the value as given.
    IndexOutOfRange {
        /// Whether the index was below zero.
        negative: bool,
        /// Its absolute value.
        magnitude: u128,
    },
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSquareError::WrongLength => {
                f.write_str("a square is a file letter a-h and a rank digit 1-8, like \"e4\"")
            }
            ParseSquareError::BadFile(c) => write!(f, "bad file {c:?}: expected a letter a-h"),
            ParseSquareError::BadRank(c) => write!(f, "bad rank {c:?}: expected a digit 1-8"),
            ParseSquareError::IndexOutOfRange {
                negative,
                magnitude,
            } => {
                let sign = if *negative { "-" } else { "" };
                write!(
                    f,
                    "square index {sign}{magnitude} is out of range: expected 0..=63 (a1 = 0, h8 = 63)"
                )
            }
        }
    }
}

impl core::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses algebraic names, `"a1"` to `"h8"` (lower-case; upper-case files accepted).
    ///
    /// ```
    /// use hq_core::Square;
    /// assert_eq!("e4".parse::<Square>(), Ok(Square::E4));
    /// assert!("i9".parse::<Square>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        let (Some(file), Some(rank), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(ParseSquareError::WrongLength);
        };
        let f = match file {
            'a'..='h' => file as u8 - b'a',
            'A'..='H' => file as u8 - b'A',
            _ => return Err(ParseSquareError::BadFile(file)),
        };
        let r = match rank {
            '1'..='8' => rank as u8 - b'1',
            _ => return Err(ParseSquareError::BadRank(rank)),
        };
        Ok(Square::from_index_masked(r * 8 + f))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;

    #[test]
    fn mapping_and_names_round_trip() {
        for i in 0..64u8 {
            let sq = Square::new(i).unwrap();
            assert_eq!(sq as u8, i);
            assert_eq!(Square::ALL[i as usize], sq);
            let name = std::format!("{sq}");
            assert_eq!(name.parse::<Square>(), Ok(sq));
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), Some(sq));
        }
        assert_eq!(Square::H1 as u8, 7);
        assert_eq!(Square::H8 as u8, 63);
        assert_eq!(Square::new(64), None);
        assert_eq!(Square::new(255), None);
    }

    #[test]
    fn parse_errors_are_specific() {
        assert_eq!("".parse::<Square>(), Err(ParseSquareError::WrongLength));
        assert_eq!("e44".parse::<Square>(), Err(ParseSquareError::WrongLength));
        assert_eq!("i4".parse::<Square>(), Err(ParseSquareError::BadFile('i')));
        assert_eq!("e9".parse::<Square>(), Err(ParseSquareError::BadRank('9')));
        assert_eq!("e0".parse::<Square>(), Err(ParseSquareError::BadRank('0')));
        let out_of_range = |negative, magnitude| ParseSquareError::IndexOutOfRange {
            negative,
            magnitude,
        };
        assert_eq!(Square::try_from(64u32), Err(out_of_range(false, 64)));
        assert_eq!(Square::try_from(-1i32), Err(out_of_range(true, 1)));
        assert_eq!(
            Square::try_from(i128::MIN),
            Err(out_of_range(true, 1 << 127))
        );
    }

    /// The message names the value given, whatever its type.
    #[test]
    fn an_index_out_of_range_is_named_as_given() {
        let text = |e: ParseSquareError| std::format!("{e}");
        let minus_one = Square::try_from(-1i32).unwrap_err();
        assert!(
            text(minus_one).starts_with("square index -1 is out of range"),
            "{minus_one}"
        );
        let max = Square::try_from(u64::MAX).unwrap_err();
        assert!(
            text(max).starts_with("square index 18446744073709551615 is"),
            "{max}"
        );
        let max = Square::try_from(u128::MAX).unwrap_err();
        assert!(text(max).contains(&std::format!("{}", u128::MAX)), "{max}");
        assert!(
            text(Square::try_from(i64::MIN).unwrap_err()).contains(&std::format!("{}", i64::MIN))
        );
    }
}
