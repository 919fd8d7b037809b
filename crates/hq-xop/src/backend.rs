//! Hyperbola Quintessence written with VPPERM, as backend tokens.
//!
//! The pair form (Aleks Peshkov's refinement of HQ): each line is worked in
//! one 128-bit value `{forward, reversed}`, the low half on the board as it
//! is and the high half on the board turned by 180 degrees:
//!
//! ```text
//! occ_pair = VPPERM({occ, occ}, _, pair_selector)          = {occ, rev(occ)}   (bytes 8-15: 0x40 | (i ^ 7))
//! v        = XOR over the lines of ((occ_pair & {m, m'}) - {1 << sq, 1 << (63 - sq)}) & {m, m'}
//! w        = VPPERM(v, _, full_reverse_selector)          = {rev(v.hi), rev(v.lo)}  (two bitboards reversed at once)
//! attacks  = (v ^ w).lo
//! ```
//!
//! where `m` is the line mask of `sq` and `m' = rev(m)` the same line's mask
//! for square `63 - sq`. Bit reversal is linear over xor and the lines'
//! attacks are disjoint, so one VPPERM reverses the xor of all the lines:
//! two VPPERMs per call, whether one line, a rook, a bishop or a queen.
//!
//! No CPU made today has XOP, so the VPPERMs are emulated:
//! [`XopModel`] calls the exact software model (portable, any CPU) and
//! [`XopSsse3`] the SSSE3 `pshufb` version (any x86-64 CPU with SSSE3). Both
//! pass the shared suite; neither was checked on a real XOP CPU.

use crate::model;
use hq_core::cpu::Level;
use hq_core::{Bitboard, LINE_MASKS, Line, Square};

/// `{m(sq), m(63 - sq)}` for one line of one square.
type MaskPair = [u64; 2];

/// Per square, per line in [`Line::ALL`] order: the line's mask pair.
#[repr(C, align(16))]
#[derive(Clone, Copy)]
struct SquarePairs {
    lines: [MaskPair; 4],
    bits: [u64; 2],
}

const PAIRS: [SquarePairs; 64] = {
    let mut table = [SquarePairs {
        lines: [[0; 2]; 4],
        bits: [0; 2],
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut l = 0;
        while l < 4 {
            let line = Line::ALL[l];
            table[sq].lines[l] = [LINE_MASKS[sq].get(line), LINE_MASKS[63 - sq].get(line)];
            l += 1;
        }
        table[sq].bits = [1u64 << sq, 1u64 << (63 - sq)];
        sq += 1;
    }
    table
};

const RANK: usize = 0;
const FILE: usize = 1;
const DIAGONAL: usize = 2;
const ANTI_DIAGONAL: usize = 3;

const fn line_index(line: Line) -> usize {
    match line {
        Line::Rank => RANK,
        Line::File => FILE,
        Line::Diagonal => DIAGONAL,
        Line::AntiDiagonal => ANTI_DIAGONAL,
    }
}

const PAIR_SELECTOR: u128 = model::pair_selector();
const FULL_REVERSE_SELECTOR: u128 = model::full_reverse_selector();

/// The pair-form HQ over the lines `lines` with any VPPERM implementation.
#[inline(always)]
fn pair_hq(
    vpperm: impl Fn(u128, u128, u128) -> u128,
    lines: &[usize],
    sq: Square,
    occupancy: u64,
) -> u64 {
    let pairs = &PAIRS[sq as usize];
    let occ = u128::from(occupancy) * ((1u128 << 64) | 1);
    let occ_pair = vpperm(occ, 0, PAIR_SELECTOR);
    let (occ_lo, occ_hi) = (occ_pair as u64, (occ_pair >> 64) as u64);
    let (mut lo, mut hi) = (0u64, 0u64);
    for &l in lines {
        let [m, m_rev] = pairs.lines[l];
        lo ^= ((occ_lo & m).wrapping_sub(pairs.bits[0])) & m;
        hi ^= ((occ_hi & m_rev).wrapping_sub(pairs.bits[1])) & m_rev;
    }
    let v = u128::from(lo) | (u128::from(hi) << 64);
    let w = vpperm(v, 0, FULL_REVERSE_SELECTOR);
    (v ^ w) as u64
}

/// The line index lists for each entry point.
const ROOK: [usize; 2] = [RANK, FILE];
const BISHOP: [usize; 2] = [DIAGONAL, ANTI_DIAGONAL];
const QUEEN: [usize; 4] = [RANK, FILE, DIAGONAL, ANTI_DIAGONAL];

/// A VPPERM HQ token: every method is `$attacks` over its line set
/// (`$lines` is an array of line indices), which reads tables of `$tables`
/// bytes; the set-wise methods by `hq_scalar::setwise_methods!` with the
/// given crossovers.
macro_rules! vpperm_token {
    ($(#[$doc:meta])* $token:ident: $name:literal, $level:expr,
     |$lines:ident, $sq:ident, $occ:ident| $attacks:expr; tables $tables:expr; setwise $($setwise:tt)*) => {
        hq_core::slider_token! {
            $(#[$doc])*
            pub struct $token: $name, $level;
            impl {
                const TABLE_BYTES: usize = $tables;

                #[inline]
                fn line_attacks(self, line: Line, $sq: Square, occupancy: Bitboard) -> Bitboard {
                    let ($lines, $occ) = ([line_index(line)], occupancy.0);
                    Bitboard($attacks)
                }

                #[inline]
                fn rook_attacks(self, $sq: Square, occupancy: Bitboard) -> Bitboard {
                    let ($lines, $occ) = (ROOK, occupancy.0);
                    Bitboard($attacks)
                }

                #[inline]
                fn bishop_attacks(self, $sq: Square, occupancy: Bitboard) -> Bitboard {
                    let ($lines, $occ) = (BISHOP, occupancy.0);
                    Bitboard($attacks)
                }

                #[inline]
                fn queen_attacks(self, $sq: Square, occupancy: Bitboard) -> Bitboard {
                    let ($lines, $occ) = (QUEEN, occupancy.0);
                    Bitboard($attacks)
                }

                hq_scalar::setwise_methods!($($setwise)*);
            }
        }
    };
}

vpperm_token!(
    /// HQ with VPPERM, the VPPERMs computed by the exact software model
    /// ([`model::vpperm_u128`]): portable, needs no CPU feature (`xop-model`).
    XopModel: "xop-model", Level::Baseline,
    |lines, sq, occupancy| pair_hq(model::vpperm_u128, &lines, sq, occupancy);
    // The mask pairs, and the model's table of operations, indexed by each
    // selector byte (the selectors themselves are immediates).
    tables size_of_val(&PAIRS) + size_of_val(&model::Op::ALL);
    // Always the portable occluded fill: one model lookup costs more than
    // twenty fills for a queen (the `xop-model` rows of the committed runs).
    // From baseline callers as every portable token's (`any caller`).
    setwise rooks loop_up_to(0), bishops loop_up_to(0), queens loop_up_to(0); any caller
);

vpperm_token!(
    /// HQ with VPPERM, the VPPERMs computed by the SSSE3 version
    /// (`ssse3::vpperm`): needs x86-64-v2 (`xop-ssse3`). Off x86-64 the token
    /// is never supported; its methods there are the model's, so that the name
    /// exists everywhere.
    XopSsse3: "xop-ssse3", Level::X86V2,
    // SAFETY: the token proves its level, which has SSSE3.
    |lines, sq, occupancy| unsafe { ssse3_attacks(lines, sq, occupancy) };
    // The mask pairs and the VPPERMs' tables.
    tables size_of_val(&PAIRS) + SSSE3_VPPERM_TABLE_BYTES;
    // The portable occluded fill for every set: it beats even one lookup
    // (1-2 sliders, ns per call: rooks 4.1 against 6.6 branch-free,
    // bishops 3.8 against 6.2, queens 4.6 against 10.5 by a loop;
    // setwise_crossover on the Intel Xeon, mixed counts).
    setwise rooks loop_up_to(0), bishops loop_up_to(0), queens loop_up_to(0)
);

/// Bytes of the tables the VPPERMs of [`ssse3_attacks`] read: the two
/// selectors and the SSSE3 version's nibble tables, all vector constants.
/// Stated as a number so that other targets (where the token never runs)
/// report the x86-64 figure too; x86-64 checks it against the tables.
const SSSE3_VPPERM_TABLE_BYTES: usize = 64;
#[cfg(target_arch = "x86_64")]
const _: () = assert!(
    SSSE3_VPPERM_TABLE_BYTES
        == size_of_val(&PAIR_SELECTOR)
            + size_of_val(&FULL_REVERSE_SELECTOR)
            + crate::ssse3::TABLE_BYTES
);

/// The pair HQ with the SSSE3 VPPERM on x86-64 (the model elsewhere, where
/// no token can call it).
///
/// # Safety
///
/// The CPU must have every feature of [`Level::X86V2`](hq_core::cpu::Level::X86V2).
#[inline(always)]
unsafe fn ssse3_attacks<const N: usize>(lines: [usize; N], sq: Square, occupancy: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: this function's contract.
    return unsafe { ssse3_kernels::attacks(lines, sq, occupancy) };
    #[cfg(not(target_arch = "x86_64"))]
    pair_hq(model::vpperm_u128, &lines, sq, occupancy)
}

#[cfg(target_arch = "x86_64")]
mod ssse3_kernels {
    use super::*;
    use crate::ssse3::Ssse3Vpperm;

    hq_core::at_level! { X86V2;
        /// The pair HQ with the SSSE3 VPPERM inlined.
        ///
        /// # Safety
        ///
        /// The CPU must have every feature of [`Level::X86V2`](hq_core::cpu::Level::X86V2).
        pub(super) unsafe fn attacks<const N: usize>(
            lines: [usize; N],
            sq: Square,
            occupancy: u64,
        ) -> u64 {
            // SAFETY: this function's contract is that the CPU has x86-64-v2.
            let vpperm = unsafe { Ssse3Vpperm::new_unchecked() };
            pair_hq(|a, b, s| vpperm.vpperm_u128(a, b, s), &lines, sq, occupancy)
        }
    }
}
