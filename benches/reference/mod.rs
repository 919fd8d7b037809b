//! Reference methods that are not backends of `hq`, timed by the same loops
//! and checked against the same oracle: what the seeds' claims are measured
//! against, and the classic table-free set-wise method.
//!
//! Each is compiled for the best x86-64 level up to x86-64-v3 this CPU has
//! (POPCNT, BMI, LZCNT; not AVX-512, which would make them other methods),
//! as the `hq` backends are compiled for theirs.

mod kindergarten;
mod kogge_stone;
mod obstruction_difference;
mod rotated;
pub mod setwise_hq;

pub use kindergarten::Kindergarten;
pub use kogge_stone::KoggeStone;
pub use obstruction_difference::ObstructionDifference;
pub use rotated::Rotated;
pub use setwise_hq::SetwiseHq;

/// The single-lookup workloads of a reference row, compiled by
/// `multiversion` for x86-64-v3 and x86-64-v2 and dispatched on this CPU's
/// features (its static dispatcher where the build's target features
/// decide): the best level up to v3, as the `hq` backends are compiled for
/// theirs.
#[multiversion::multiversion(targets(
    "x86_64+avx2+bmi1+bmi2+fma+lzcnt+movbe+popcnt",
    "x86_64+sse4.2+popcnt+ssse3"
))]
pub(crate) fn run_single_up_to_v3<L: crate::Lookup>(
    lookup: L,
    workload: crate::Workload,
    piece: crate::Piece,
    data: &crate::Data,
) -> u64 {
    crate::run_single_inline(lookup, workload, piece, data)
}

/// The batch and set-wise workloads of a reference row, as [`run_single_up_to_v3`].
#[multiversion::multiversion(targets(
    "x86_64+avx2+bmi1+bmi2+fma+lzcnt+movbe+popcnt",
    "x86_64+sse4.2+popcnt+ssse3"
))]
pub(crate) fn run_calls_up_to_v3<L: crate::Lookup>(
    lookup: L,
    workload: crate::Workload,
    piece: crate::Piece,
    data: &crate::Data,
) -> u64 {
    crate::run_calls_inline(lookup, workload, piece, data)
}

/// `run_single` and `run_calls` through [`run_single_up_to_v3`] and
/// [`run_calls_up_to_v3`] (inside a [`crate::Lookup`] impl).
macro_rules! compiled_up_to_v3 {
    () => {
        #[inline(never)]
        fn run_single(self, workload: Workload, piece: Piece, data: &Data) -> u64 {
            super::run_single_up_to_v3(self, workload, piece, data)
        }
        #[inline(never)]
        fn run_calls(self, workload: Workload, piece: Piece, data: &Data) -> u64 {
            super::run_calls_up_to_v3(self, workload, piece, data)
        }
    };
}
use compiled_up_to_v3;

/// For each square and each 6-bit inner occupancy of one of its lines, the
/// attacks along that line: the table the kindergarten and rotated lookups
/// index. Bit `p - 1` of the index is the line's square at position `p`,
/// where a square's position is its rank (`by_rank`, for files) or its file
/// (ranks and diagonals hold one square per file). Positions 0 and 7 are
/// line ends, so the six inner bits decide the attacks.
pub(crate) const fn line_table(line: hq::Line, by_rank: bool) -> [[u64; 64]; 64] {
    let mut table = [[0u64; 64]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mask = line_mask_of(line, sq as u8);
        let mut index = 0;
        while index < 64 {
            // The occupancy: the line's squares whose position bit is set.
            let mut occ = 0u64;
            let mut rest = mask;
            while rest != 0 {
                let s = rest.trailing_zeros() as u8;
                let p = if by_rank { s / 8 } else { s % 8 };
                if p >= 1 && p <= 6 && index & (1 << (p - 1)) != 0 {
                    occ |= 1 << s;
                }
                rest &= rest - 1;
            }
            table[sq][index] = walk(line, sq as u8, occ);
            index += 1;
        }
        sq += 1;
    }
    table
}

/// The line through `sq`, without `sq`.
const fn line_mask_of(line: hq::Line, sq: u8) -> u64 {
    hq_core::LINE_MASKS[sq as usize].get(line)
}

/// Both rays of `line` from `sq` over `occ`, walked square by square.
const fn walk(line: hq::Line, sq: u8, occ: u64) -> u64 {
    let (df, dr) = match line {
        hq::Line::Rank => (1, 0),
        hq::Line::File => (0, 1),
        hq::Line::Diagonal => (1, 1),
        hq::Line::AntiDiagonal => (-1, 1),
    };
    let mut attacks = 0;
    let mut sign = -1;
    while sign <= 1 {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            f += sign * df;
            r += sign * dr;
            if f < 0 || f > 7 || r < 0 || r > 7 {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occ & bit != 0 {
                break;
            }
        }
        sign += 2;
    }
    attacks
}
