//! Many squares per register, one square per lane (structure of arrays), all
//! over one occupancy: the batch entry points.
//!
//! Each lane's lines are worked on the board (`occ`) and on the board turned
//! by 180 degrees (`turned = rev(occ)`, where the square is `63 - sq`). On
//! each board only the forward half of HQ is computed, `((o & m) - b) & m`,
//! and the lines are xor-ed into one accumulator per board; one full bit
//! reversal of the turned accumulator at the end brings its half back
//! (reversal is linear over xor, and the lines are disjoint):
//!
//! ```text
//! acc        ^= ((occ    & m)  - b)  & m        for each line m of sq
//! turned_acc ^= ((turned & m') - b') & m'       m' = rev(m), b' = rev(b)
//! attacks     = acc ^ rev(turned_acc)
//! ```
//!
//! The masks are computed or permuted, not loaded (no gathers): rank
//! `0xFF << 8r`, file `FILE_A << f`, diagonal `MAIN >> 8(f - r)` (or `<<`
//! when negative), anti-diagonal `ANTI << 8(f + r - 7)`; variable shifts
//! give 0 for counts of 64 and more, which handles the sign. The turned
//! square's masks use the same counts with the signs swapped. Where a
//! register indexes 8 and 16 words in one instruction each (AVX-512), the
//! masks come from [`MASKS`] instead, by `r`, `f`, `f - r` and
//! `f + r - 7`: a permute per mask. Masks include the square itself: the
//! slider's bit is cleared from the occupancy instead, and its two (always
//! set) bits cancel in the final xor.

use crate::vector::VariableShifts;
use hq_core::{Bitboard, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const MAIN_DIAGONAL: u64 = 0x8040_2010_0804_0201;
const ANTI_DIAGONAL: u64 = 0x0102_0408_1020_4080;

/// Each line's mask, for both boards, by a small index of the square:
/// ranks by `r`, files by `f`, diagonals by `f - r`, anti-diagonals by
/// `f + r - 7` (the last two mod 16). Register types that index 8 and 16
/// words in one instruction look the masks up here instead of shifting
/// (AVX-512: eight permutes and four index instructions for the 13 shifts
/// and 11 subtractions, xors and ors of the other branch, per register of
/// queens).
#[repr(C, align(64))]
pub(crate) struct MaskTables {
    rank: [u64; 8],
    turned_rank: [u64; 8],
    file: [u64; 8],
    turned_file: [u64; 8],
    main: [u64; 16],
    turned_main: [u64; 16],
    anti: [u64; 16],
    turned_anti: [u64; 16],
}

/// [`MaskTables`]: the turned board's line through `63 - sq` is the line
/// of rank `7 - r`, file `7 - f`, and the negated diagonal indexes.
///
/// A `const`, not a `static`: inlined into another crate (`hq-hybrid`,
/// the facade), a `static` is an external global that LLVM cannot prove
/// unchanged by the kernel's stores through `out`, so the out-of-line
/// hybrid batch loaded its tables again at every step (ten zmm loads
/// beside the PEXT half's, which is bound by its loads). A `const`'s copy
/// is a constant whose loads leave the loop (measured: the commit
/// message of the change).
pub(crate) const MASKS: MaskTables = {
    /// `line` moved up by index `i` ranks (down if `up` is false), `i`
    /// taken as a signed number mod 16.
    const fn moved(line: u64, i: usize, up: bool) -> u64 {
        let ranks = if i < 8 { i as i32 } else { i as i32 - 16 };
        let ranks = if up { ranks } else { -ranks };
        match ranks {
            0..8 => line << (8 * ranks),
            -7..0 => line >> (-8 * ranks),
            _ => 0, // index 8: no square's
        }
    }
    let mut t = MaskTables {
        rank: [0; 8],
        turned_rank: [0; 8],
        file: [0; 8],
        turned_file: [0; 8],
        main: [0; 16],
        turned_main: [0; 16],
        anti: [0; 16],
        turned_anti: [0; 16],
    };
    let mut i = 0;
    while i < 8 {
        t.rank[i] = 0xFF << (8 * i);
        t.turned_rank[i] = 0xFF << (8 * (7 - i));
        t.file[i] = FILE_A << i;
        t.turned_file[i] = FILE_A << (7 - i);
        i += 1;
    }
    let mut i = 0;
    while i < 16 {
        let negated = (16 - i) % 16;
        // f - r = i: the main diagonal moved down i ranks.
        t.main[i] = moved(MAIN_DIAGONAL, i, false);
        t.turned_main[i] = moved(MAIN_DIAGONAL, negated, false);
        // f + r - 7 = i: the anti-diagonal moved up i ranks.
        t.anti[i] = moved(ANTI_DIAGONAL, i, true);
        t.turned_anti[i] = moved(ANTI_DIAGONAL, negated, true);
        i += 1;
    }
    t
};

/// Attacks of the lanes' squares (rook lines if `ROOK`, bishop lines if
/// `BISHOP`) over `occ`, with `turned = occ.reverse_bits()` in every lane.
#[inline(always)]
pub(crate) unsafe fn attacks<V: VariableShifts, const ROOK: bool, const BISHOP: bool>(
    squares: V,
    occ: V,
    turned: V,
) -> V {
    // SAFETY: the caller has V's instruction set.
    unsafe {
        let one = V::splat(1);
        let turned_squares = squares.xor(V::splat(63));
        let bits = one.shl_var(squares);
        let turned_bits = one.shl_var(turned_squares);
        let occ = occ.and_not(bits);
        let turned = turned.and_not(turned_bits);
        let file = squares.and(V::splat(7));

        let mut acc = V::splat(0);
        let mut turned_acc = V::splat(0);
        let mut line = |[m, turned_m]: [V; 2]| {
            acc = acc.xor_of_and(occ.and(m).sub(bits), m);
            turned_acc = turned_acc.xor_of_and(turned.and(turned_m).sub(turned_bits), turned_m);
        };
        if V::LOOKUPS_IN_ONE {
            let rank = squares.shr_var(V::splat(3));
            if ROOK {
                line([rank.lookup8(&MASKS.rank), rank.lookup8(&MASKS.turned_rank)]);
                line([file.lookup8(&MASKS.file), file.lookup8(&MASKS.turned_file)]);
            }
            if BISHOP {
                // f - r, and f + r - 7 = f - (7 - r).
                let (d, k) = (file.sub(rank), file.sub(rank.xor(V::splat(7))));
                line([d.lookup16(&MASKS.main), d.lookup16(&MASKS.turned_main)]);
                line([k.lookup16(&MASKS.anti), k.lookup16(&MASKS.turned_anti)]);
            }
        } else {
            let rank8 = squares.and(V::splat(56));
            if ROOK {
                let ff = V::splat(0xFF);
                line([ff.shl_var(rank8), ff.shl_var(rank8.xor(V::splat(56)))]);
                let a = V::splat(FILE_A);
                line([a.shl_var(file), a.shl_var(file.xor(V::splat(7)))]);
            }
            if BISHOP {
                let zero = V::splat(0);
                let file8 = file.shl_var(V::splat(3));
                // 8(f - r) and its negation.
                let d = file8.sub(rank8);
                let nd = zero.sub(d);
                let main = V::splat(MAIN_DIAGONAL);
                line([
                    main.shr_var(d).or(main.shl_var(nd)),
                    main.shr_var(nd).or(main.shl_var(d)),
                ]);
                // 8(f + r - 7) and its negation.
                let k = file8.sub(V::splat(56).sub(rank8));
                let nk = zero.sub(k);
                let anti = V::splat(ANTI_DIAGONAL);
                line([
                    anti.shl_var(k).or(anti.shr_var(nk)),
                    anti.shl_var(nk).or(anti.shr_var(k)),
                ]);
            }
        }
        acc.xor(turned_acc.reverse_bits())
    }
}

/// The batch entry point: `out[i]` = attacks from `squares[i]`, `V::LANES`
/// squares per [`attacks`] call. The lengths must be equal (the caller checks).
#[inline(always)]
pub(crate) unsafe fn batch<V: VariableShifts, const ROOK: bool, const BISHOP: bool>(
    squares: &[Square],
    occupancy: u64,
    out: &mut [Bitboard],
) {
    debug_assert_eq!(squares.len(), out.len());
    debug_assert!(V::LANES <= 8);
    // SAFETY: the caller has V's instruction set; every pointer below covers
    // `V::LANES` readable squares or writable words (`Bitboard` is
    // `repr(transparent)` over `u64`).
    unsafe {
        let occ = V::splat(occupancy);
        let turned = V::splat(occupancy.reverse_bits());
        let mut sq_chunks = squares.chunks_exact(V::LANES);
        let mut out_chunks = out.chunks_exact_mut(V::LANES);
        for (sq, out) in (&mut sq_chunks).zip(&mut out_chunks) {
            attacks::<V, ROOK, BISHOP>(V::load_squares(sq.as_ptr()), occ, turned)
                .store(out.as_mut_ptr().cast());
        }
        let rest = sq_chunks.remainder();
        if !rest.is_empty() {
            let n = rest.len();
            attacks::<V, ROOK, BISHOP>(V::load_squares_partial(rest.as_ptr(), n), occ, turned)
                .store_partial(out_chunks.into_remainder().as_mut_ptr().cast(), n);
        }
    }
}

/// One register of squares, the batch's step: `out[i]` = attacks from
/// `squares[i]`, for code that interleaves registers with other work
/// (`hq-hybrid`). Inlined into such a loop, the occupancy's splat and
/// reversal are loop-invariant and leave it.
///
/// # Panics
///
/// Unless both slices hold `V::LANES` entries (a caller's constant-length
/// slices fold the test away).
#[inline(always)]
pub(crate) unsafe fn step<V: VariableShifts, const ROOK: bool, const BISHOP: bool>(
    squares: &[Square],
    occupancy: u64,
    out: &mut [Bitboard],
) {
    assert!(
        squares.len() == V::LANES && out.len() == V::LANES,
        "a batch step takes one register of squares"
    );
    // SAFETY: the caller has V's instruction set; both slices hold
    // `V::LANES` entries (`Bitboard` is `repr(transparent)` over `u64`).
    unsafe {
        let occ = V::splat(occupancy);
        let turned = V::splat(occupancy.reverse_bits());
        attacks::<V, ROOK, BISHOP>(V::load_squares(squares.as_ptr()), occ, turned)
            .store(out.as_mut_ptr().cast());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hq_core::{Line, line_mask};

    #[test]
    fn mask_tables_hold_each_squares_lines() {
        for sq in Square::ALL {
            let (f, r) = (sq.file() as usize, sq.rank() as usize);
            let (d, k) = ((f + 16 - r) % 16, (f + r + 16 - 7) % 16);
            let turned = Square::from_index_masked(63 - sq as u8);
            let on_board = |line| line_mask(line, sq) | sq.bit();
            let on_turned = |line| line_mask(line, turned) | turned.bit();
            let lines = [
                (MASKS.rank[r], MASKS.turned_rank[r], Line::Rank),
                (MASKS.file[f], MASKS.turned_file[f], Line::File),
                (MASKS.main[d], MASKS.turned_main[d], Line::Diagonal),
                (MASKS.anti[k], MASKS.turned_anti[k], Line::AntiDiagonal),
            ];
            for (mask, turned_mask, line) in lines {
                assert_eq!(mask, on_board(line), "{line:?} of {sq}");
                assert_eq!(turned_mask, on_turned(line), "{line:?} of {sq}, turned");
            }
        }
    }
}
