//! The single-square kernels as `asm!`, for callers of any level: the
//! tokens' `single_in_any_caller`.
//!
//! A `#[target_feature]` kernel does not inline into code compiled without
//! its features, so a free function of a build that forces `avx512`,
//! `avx2` or `ssse3` (or dispatches to them at run time) paid a call per
//! lookup: 0.44-0.86x of the token's own loop (bench matrix, AMD Zen 4).
//! An `asm!` block needs no target feature, so the same instructions
//! inline anywhere:
//!
//! * [`evex`], the `avx512` kernels (`generic::pair` with GFNI reversal,
//!   `generic::quad` for the queen) in registers 16-31, which EVEX alone
//!   encodes and which leave no dirty upper state (no `vzeroupper`, as in
//!   `evex_fill`);
//! * [`sse`], the `ssse3` kernels (`generic::pair`'s bishop,
//!   `rank_on_diagonal`'s rook and queen) in legacy SSE encoding on xmm0-3;
//! * [`vex`], `avx2`'s: the SSSE3 rook and bishop (its token's are those
//!   kernels VEX-encoded) and its dual-HQ queen (`generic::quad`'s byte
//!   swap) on ymm0-3, ending in `vzeroupper`. The SSE queen instead ran
//!   0.63x the `avx2` token's queen throughput in `force-avx2` (AMD Zen 4).
//!
//! The tables are `const` references, so each crate the block inlines into
//! reads its own copy (see `pair::BISHOP_RECORDS`). Every block reads only
//! its operands and the tables they point to, and writes only its output
//! and the registers it declares clobbered.

use super::rank_on_diagonal::{RANK_SHUFFLES_CONST, RankShuffles};
use crate::generic::pair::{
    BISHOP_RECORDS, Pair, PairRecord, ROOK_ON_DIAGONAL_RECORDS, ROOK_RECORDS, Reversal,
};
use crate::generic::quad;
use core::arch::asm;
use core::arch::x86_64::{__m128i, _mm_load_si128};
use hq_core::{Slider, Square};

/// `pshufb` control: reverse the bytes of each qword.
const SWAP_BYTES: &Pair = &Pair::from_bytes([7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8]);

/// [`SWAP_BYTES`] as a register operand: loaded once where a loop calls.
#[inline(always)]
fn swap_bytes() -> __m128i {
    // SAFETY: SSE2 is part of x86-64; 16 aligned readable bytes.
    unsafe { _mm_load_si128(SWAP_BYTES.0.as_ptr().cast()) }
}

/// The GF(2) matrix whose two affine steps reverse a qword's bits
/// (`lanes::REVERSE_BITS_MATRIX`).
const REVERSE_BITS: u64 = 0x8040_2010_0804_0201;

/// The address of a record as a key: not 0, bit 63 clear (user space).
#[inline(always)]
fn key<T>(record: &'static T) -> u64 {
    record as *const T as u64
}

/// A module's `single`: its `keyed` lookup with the square's own `key`.
macro_rules! single_by_key {
    () => {
        /// `slider`'s attacks from `sq`.
        ///
        /// # Safety
        ///
        /// As [`keyed`], without the key.
        #[inline(always)]
        pub(crate) unsafe fn single(slider: Slider, sq: Square, occupancy: u64) -> u64 {
            // SAFETY: the caller's guarantee, and the square's own key.
            unsafe { keyed(slider, sq, occupancy, key(slider, sq)) }
        }
    };
}

/// The AVX-512 kernels, keyed by the address of the square's record.
pub(crate) mod evex {
    use super::*;

    /// A queen's record: the four line masks, the square's bit and its
    /// 180-degree turn (the lines' reversed singleton), the reversal matrix.
    pub(crate) type Queen = quad::Record<u64>;

    const QUEENS: &[Queen; 64] = &quad::records(Reversal::Bits, REVERSE_BITS);

    /// Bytes of the tables the kernels read: the records of each piece
    /// (the rook's and the bishop's are the `const` copies of the pair
    /// records, not the statics: see `pair::BISHOP_RECORDS`), the byte-swap
    /// control and the rook's bit matrix (the queen's is in its record).
    pub(crate) const TABLE_BYTES: usize = size_of_val(ROOK_RECORDS)
        + size_of_val(BISHOP_RECORDS)
        + size_of_val(QUEENS)
        + size_of_val(SWAP_BYTES)
        + size_of_val(&REVERSE_BITS);

    single_by_key!();

    /// The key of `slider` on `sq`: its record's address.
    #[inline(always)]
    pub(crate) fn key(slider: Slider, sq: Square) -> u64 {
        match slider {
            Slider::Rook => super::key(&ROOK_RECORDS[sq as usize]),
            Slider::Bishop => super::key(&BISHOP_RECORDS[sq as usize]),
            Slider::Queen => super::key(&QUEENS[sq as usize]),
        }
    }

    /// HQ on the pair record at `{r}` with `$reverse` (template lines that
    /// reverse xmm16 in place with the constant `{k}`), then the or of
    /// both lanes.
    macro_rules! pair {
        ($occupancy:expr, $record:expr, $constant:expr, $($reverse:literal),*) => {{
            let attacks: u64;
            // SAFETY: see `keyed`.
            unsafe {
                asm!(
                    "vpbroadcastq xmm16, {o}",
                    "vpandq xmm16, xmm16, xmmword ptr [{r}]",
                    "vpsubq xmm17, xmm16, xmmword ptr [{r} + 16]",
                    $($reverse,)*
                    "vpsubq xmm16, xmm16, xmmword ptr [{r} + 32]",
                    $($reverse,)*
                    // (backward ^ forward) & masks
                    "vpternlogq xmm16, xmm17, xmmword ptr [{r}], 0x28",
                    "vpshufd xmm17, xmm16, 0xee",
                    "vporq xmm16, xmm16, xmm17",
                    "vmovq {o}, xmm16",
                    o = inout(reg) $occupancy => attacks,
                    r = in(reg) $record,
                    k = in(xmm_reg) $constant,
                    out("xmm16") _,
                    out("xmm17") _,
                    options(pure, readonly, nostack, preserves_flags),
                );
            }
            attacks
        }};
    }

    /// `slider`'s attacks with the key of its square ([`key`]).
    ///
    /// # Safety
    ///
    /// The CPU must have the `avx512` token's level (AVX-512F/BW/VL, GFNI)
    /// and the OS keep its state; `key` must be [`key`]`(slider, sq)`.
    #[inline(always)]
    pub(crate) unsafe fn keyed(slider: Slider, _: Square, occupancy: u64, key: u64) -> u64 {
        let record = key as *const u8;
        match slider {
            Slider::Rook => {
                // SAFETY: SSE2 is part of x86-64.
                let matrix = unsafe { core::arch::x86_64::_mm_set1_epi64x(REVERSE_BITS as i64) };
                pair!(
                    occupancy,
                    record,
                    matrix,
                    "vgf2p8affineqb xmm16, {k}, xmm16, 0",
                    "vgf2p8affineqb xmm16, {k}, xmm16, 0"
                )
            }
            Slider::Bishop => pair!(occupancy, record, swap_bytes(), "vpshufb xmm16, xmm16, {k}"),
            Slider::Queen => {
                let attacks: u64;
                // SAFETY: the caller's guarantee: the CPU has the
                // instructions; `record` is a `Queen`, 64 readable bytes.
                unsafe {
                    asm!(
                        "vpbroadcastq ymm16, {o}",
                        "vpbroadcastq ymm18, qword ptr [{r} + 48]",
                        "vpandq ymm16, ymm16, ymmword ptr [{r}]",
                        "vpsubq ymm17, ymm16, qword ptr [{r} + 32]{{1to4}}",
                        "vgf2p8affineqb ymm16, ymm18, ymm16, 0",
                        "vgf2p8affineqb ymm16, ymm18, ymm16, 0",
                        "vpsubq ymm16, ymm16, qword ptr [{r} + 40]{{1to4}}",
                        "vgf2p8affineqb ymm16, ymm18, ymm16, 0",
                        "vgf2p8affineqb ymm16, ymm18, ymm16, 0",
                        "vpternlogq ymm16, ymm17, ymmword ptr [{r}], 0x28",
                        "vextracti64x2 xmm17, ymm16, 1",
                        "vporq xmm16, xmm16, xmm17",
                        "vpshufd xmm17, xmm16, 0xee",
                        "vporq xmm16, xmm16, xmm17",
                        "vmovq {o}, xmm16",
                        o = inout(reg) occupancy => attacks,
                        r = in(reg) record,
                        out("zmm16") _,
                        out("zmm17") _,
                        out("zmm18") _,
                        options(pure, readonly, nostack, preserves_flags),
                    );
                }
                attacks
            }
        }
    }
}

/// The SSSE3 kernels (shared by `avx2`), keyed by the address of the
/// square's record.
pub(crate) mod sse {
    use super::*;

    /// A rook's record: the pair of `{file, the rank on the diagonal}` and
    /// its rank's shuffles (`rank_on_diagonal`).
    #[repr(C, align(16))]
    pub(crate) struct Rook {
        pair: PairRecord,
        pub(super) shuffles: RankShuffles,
    }

    /// A queen's record: the bishop pair's, then the rook's.
    #[repr(C, align(16))]
    pub(crate) struct Queen {
        bishop: PairRecord,
        pub(super) rook: Rook,
    }

    const fn rook(sq: usize) -> Rook {
        Rook {
            pair: ROOK_ON_DIAGONAL_RECORDS[sq],
            shuffles: RANK_SHUFFLES_CONST[sq >> 3],
        }
    }

    const ROOKS: &[Rook; 64] = &{
        let mut t = [const { rook(0) }; 64];
        let mut sq = 0;
        while sq < 64 {
            t[sq] = rook(sq);
            sq += 1;
        }
        t
    };

    const QUEENS: &[Queen; 64] = &{
        let mut t = [const {
            Queen {
                bishop: BISHOP_RECORDS[0],
                rook: rook(0),
            }
        }; 64];
        let mut sq = 0;
        while sq < 64 {
            t[sq] = Queen {
                bishop: BISHOP_RECORDS[sq],
                rook: rook(sq),
            };
            sq += 1;
        }
        t
    };

    /// Bytes of the tables the kernels read: the records of each piece
    /// (the bishop's are the `const` copy of the pair records, not the
    /// static: see `pair::BISHOP_RECORDS`) and the byte-swap control.
    pub(crate) const TABLE_BYTES: usize = size_of_val(ROOKS)
        + size_of_val(BISHOP_RECORDS)
        + size_of_val(QUEENS)
        + size_of_val(SWAP_BYTES);

    single_by_key!();

    /// The key of `slider` on `sq`: its record's address.
    #[inline(always)]
    pub(crate) fn key(slider: Slider, sq: Square) -> u64 {
        match slider {
            Slider::Rook => super::key(&ROOKS[sq as usize]),
            Slider::Bishop => super::key(&BISHOP_RECORDS[sq as usize]),
            Slider::Queen => super::key(&QUEENS[sq as usize]),
        }
    }

    /// `slider`'s attacks with the key of its square ([`key`]).
    ///
    /// # Safety
    ///
    /// The CPU must have SSSE3; `key` must be [`key`]`(slider, sq)`.
    #[inline(always)]
    pub(crate) unsafe fn keyed(slider: Slider, _: Square, occupancy: u64, key: u64) -> u64 {
        let (record, swap) = (key as *const u8, swap_bytes());
        let attacks: u64;
        // SAFETY: the caller's guarantee: the CPU has SSSE3, and `record`
        // is the piece's record, whose fields the offsets name (16-byte
        // aligned, as legacy SSE memory operands must be).
        unsafe {
            match slider {
                Slider::Bishop => asm!(
                    "movq xmm0, {o}",
                    "punpcklqdq xmm0, xmm0",
                    "pand xmm0, xmmword ptr [{r}]",
                    "movdqa xmm1, xmm0",
                    "psubq xmm1, xmmword ptr [{r} + 16]",
                    "pshufb xmm0, {k}",
                    "psubq xmm0, xmmword ptr [{r} + 32]",
                    "pshufb xmm0, {k}",
                    "pxor xmm0, xmm1",
                    "pand xmm0, xmmword ptr [{r}]",
                    "pshufd xmm1, xmm0, 0xee",
                    "por xmm0, xmm1",
                    "movq {o}, xmm0",
                    o = inout(reg) occupancy => attacks,
                    r = in(reg) record,
                    k = in(xmm_reg) swap,
                    out("xmm0") _,
                    out("xmm1") _,
                    options(pure, readonly, nostack, preserves_flags),
                ),
                Slider::Rook => asm!(
                    "movq xmm0, {o}",
                    // lane 0 keeps the occupancy, lane 1 gets the rank's byte in each byte
                    "pshufb xmm0, xmmword ptr [{r} + 48]",
                    "pand xmm0, xmmword ptr [{r}]",
                    "movdqa xmm1, xmm0",
                    "psubq xmm1, xmmword ptr [{r} + 16]",
                    "pshufb xmm0, {k}",
                    "psubq xmm0, xmmword ptr [{r} + 32]",
                    "pshufb xmm0, {k}",
                    "pxor xmm0, xmm1",
                    "pand xmm0, xmmword ptr [{r}]",
                    // the rank's attack byte (the byte sum of lane 1), placed
                    "pxor xmm1, xmm1",
                    "psadbw xmm1, xmm0",
                    "pshufb xmm1, xmmword ptr [{r} + 64]",
                    "por xmm0, xmm1",
                    "movq {o}, xmm0",
                    o = inout(reg) occupancy => attacks,
                    r = in(reg) record,
                    k = in(xmm_reg) swap,
                    out("xmm0") _,
                    out("xmm1") _,
                    options(pure, readonly, nostack, preserves_flags),
                ),
                Slider::Queen => asm!(
                    "movq xmm0, {o}",
                    "punpcklqdq xmm0, xmm0",
                    "movdqa xmm2, xmm0",
                    // the bishop pair in xmm2
                    "pand xmm2, xmmword ptr [{r}]",
                    "movdqa xmm3, xmm2",
                    "psubq xmm3, xmmword ptr [{r} + 16]",
                    "pshufb xmm2, {k}",
                    "psubq xmm2, xmmword ptr [{r} + 32]",
                    "pshufb xmm2, {k}",
                    "pxor xmm2, xmm3",
                    "pand xmm2, xmmword ptr [{r}]",
                    // the rook's lane in xmm0, as for a rook (its record at 48)
                    "pshufb xmm0, xmmword ptr [{r} + 96]",
                    "pand xmm0, xmmword ptr [{r} + 48]",
                    "movdqa xmm1, xmm0",
                    "psubq xmm1, xmmword ptr [{r} + 64]",
                    "pshufb xmm0, {k}",
                    "psubq xmm0, xmmword ptr [{r} + 80]",
                    "pshufb xmm0, {k}",
                    "pxor xmm0, xmm1",
                    "pand xmm0, xmmword ptr [{r} + 48]",
                    "pxor xmm1, xmm1",
                    "psadbw xmm1, xmm0",
                    "pshufb xmm1, xmmword ptr [{r} + 112]",
                    "por xmm0, xmm1",
                    // or the bishop's two lanes in
                    "por xmm0, xmm2",
                    "pshufd xmm3, xmm2, 0xee",
                    "por xmm0, xmm3",
                    "movq {o}, xmm0",
                    o = inout(reg) occupancy => attacks,
                    r = in(reg) record,
                    k = in(xmm_reg) swap,
                    out("xmm0") _,
                    out("xmm1") _,
                    out("xmm2") _,
                    out("xmm3") _,
                    options(pure, readonly, nostack, preserves_flags),
                ),
            }
        }
        attacks
    }
}

/// `avx2`'s kernels: [`sse`]'s rook and bishop, and the dual-HQ queen.
pub(crate) mod vex {
    use super::*;

    /// A queen's record: the square's line masks with the rank's zero (a
    /// byte swap does not reverse a rank: `generic::quad`), its bit and its
    /// byte-swapped bit, the byte-swap control.
    pub(crate) type Queen = quad::Record<Pair>;

    const QUEENS: &[Queen; 64] = &quad::records(Reversal::Bytes, *SWAP_BYTES);

    /// The first-rank table (`hq_scalar::kernels::FIRST_RANK`), a `const`
    /// reference: each caller's crate reads its own copy.
    const FIRST_RANK: &[u8; 512] = &hq_scalar::kernels::FIRST_RANK;

    /// Bytes of the tables the kernels read: [`sse`]'s, the queens'
    /// records and the first-rank table.
    pub(crate) const TABLE_BYTES: usize =
        sse::TABLE_BYTES + size_of_val(QUEENS) + size_of_val(FIRST_RANK);

    single_by_key!();

    /// The key of `slider` on `sq`: its record's address.
    #[inline(always)]
    pub(crate) fn key(slider: Slider, sq: Square) -> u64 {
        match slider {
            Slider::Queen => super::key(&QUEENS[sq as usize]),
            _ => sse::key(slider, sq),
        }
    }

    /// `slider`'s attacks from `sq` with the key of its square ([`key`]).
    ///
    /// # Safety
    ///
    /// The CPU must have the `avx2` token's level (x86-64-v3) and the OS
    /// keep its state; `key` must be [`key`]`(slider, sq)`.
    #[inline(always)]
    pub(crate) unsafe fn keyed(slider: Slider, sq: Square, occupancy: u64, key: u64) -> u64 {
        if !matches!(slider, Slider::Queen) {
            // SAFETY: the caller's guarantee; x86-64-v3 includes SSSE3.
            return unsafe { sse::keyed(slider, sq, occupancy, key) };
        }
        let record = key as *const u8;
        let attacks: u64;
        // SAFETY: the caller's guarantee: the CPU has AVX2 and BMI2 and the
        // OS keeps the ymm state; `record` is a `Queen`, 64 readable bytes,
        // 32-byte aligned where a full-width operand reads it; the rank's
        // index is at most 126 * 4 + 7, inside the 512-byte table.
        // `vzeroupper` clears bits 128 and up of registers 0-15, which are
        // all declared clobbered (as zmm, their widest form): a caller
        // compiled with AVX or AVX-512 keeps no value in them across the
        // block, and one compiled without AVX has none there to keep.
        unsafe {
            asm!(
                // the rank by table, with BMI2's shifts (a shift by `cl`
                // is three micro-ops where the caller lacks BMI2)
                "shrx {i}, {o}, {shift}",
                "and {i}, 126",
                "lea {i}, [{file} + 4 * {i}]",
                "movzx {i:e}, byte ptr [{table} + {i}]",
                "shlx {i}, {i}, {shift}",
                "vmovq xmm0, {o}",
                "vpbroadcastq ymm0, xmm0",
                "vpand ymm0, ymm0, ymmword ptr [{r}]",
                // forward: o - bit
                "vpbroadcastq ymm1, qword ptr [{r} + 32]",
                "vpsubq ymm1, ymm0, ymm1",
                // backward: swap(swap(o) - swapped bit)
                "vbroadcasti128 ymm2, xmmword ptr [{r} + 48]",
                "vpshufb ymm0, ymm0, ymm2",
                "vpbroadcastq ymm3, qword ptr [{r} + 40]",
                "vpsubq ymm0, ymm0, ymm3",
                "vpshufb ymm0, ymm0, ymm2",
                "vpxor ymm0, ymm0, ymm1",
                "vpand ymm0, ymm0, ymmword ptr [{r}]",
                // the or of the four lanes
                "vextracti128 xmm1, ymm0, 1",
                "vpor xmm0, xmm0, xmm1",
                "vpshufd xmm1, xmm0, 0xee",
                "vpor xmm0, xmm0, xmm1",
                "vmovq {o}, xmm0",
                "vzeroupper",
                "or {o}, {i}",
                o = inout(reg) occupancy => attacks,
                r = in(reg) record,
                i = out(reg) _,
                shift = in(reg) sq as u64 & 56,
                file = in(reg) sq as u64 & 7,
                table = in(reg) FIRST_RANK.as_ptr(),
                out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _,
                out("zmm4") _, out("zmm5") _, out("zmm6") _, out("zmm7") _,
                out("zmm8") _, out("zmm9") _, out("zmm10") _, out("zmm11") _,
                out("zmm12") _, out("zmm13") _, out("zmm14") _, out("zmm15") _,
                options(pure, readonly, nostack),
            );
        }
        attacks
    }
}

/// The record layouts the templates' offsets name.
const _: () = {
    use core::mem::{offset_of, size_of};
    assert!(size_of::<PairRecord>() == 48 && offset_of!(PairRecord, bits) == 16);
    assert!(offset_of!(PairRecord, reversed_bits) == 32);
    assert!(size_of::<RankShuffles>() == 32);
    assert!(offset_of!(quad::Record<u64>, bit) == 32 && offset_of!(quad::Record<u64>, extra) == 48);
    assert!(offset_of!(sse::Rook, shuffles) == 48 && offset_of!(sse::Queen, rook) == 48);
    assert!(offset_of!(quad::Record<Pair>, extra) == 48 && size_of::<quad::Record<Pair>>() == 64);
};
