//! The AVX-512 set-wise fill ([`crate::generic::fill`]'s steps) in
//! registers 16-31 only, which exist in EVEX encodings alone.
//!
//! A function that leaves the upper halves of ymm0-15 or zmm0-15 dirty must
//! run `vzeroupper` before it returns, or the caller's SSE code pays for the
//! mixed state; registers 16-31 are outside that state (glibc's EVEX string
//! functions use them for the same reason). Compiled from intrinsics, the
//! fill used ymm0-5 and its entry ended in `vzeroupper`; in ymm16-23 it
//! needs none. `asm!` is the only way to name the registers.
//!
//! Two forms of one template:
//! * [`four`] and [`eight`], for code compiled with AVX-512 (the token's
//!   methods): the constants are inputs in fixed registers, where a
//!   caller's loop keeps them across calls;
//! * [`four_in_any_caller`] and [`eight_in_any_caller`] ([`in_any_caller`]), for code of any
//!   level (the facade's set-wise free functions): the constants are
//!   memory operands, and registers 16-31 appear only as clobbers, which
//!   rustc allows without the target feature, so the block inlines into
//!   baseline code: no call per set.

use core::arch::asm;
use core::arch::x86_64::*;
use core::mem::offset_of;
use hq_scalar::setwise::fill::{DIRECTIONS, Directions};

/// The direction constants, as a `const`: each use site loads them from a
/// constant pool of its own crate (a `static` of this crate is reached
/// through the GOT from another, one more dependent load per call).
const D: Directions = DIRECTIONS;

/// The fill's steps over the register width `$v` (`"ymm"` or `"zmm"`),
/// then `$reduce`, which must leave the or of every lane in the low 64 bits
/// of xmm16. The constants (one step's rotation, two steps', four steps'
/// and the wrap mask) are the operands `$r1`, `$r2`, `$r4` and `$mask`:
/// registers the caller fills, or memory the block reads. Each is the last
/// source of its instructions, the one place EVEX takes memory.
macro_rules! fill {
    (
        $v:literal, $reduce:expr, $sliders:expr, $occupancy:expr,
        constants($r1:expr, $r2:expr, $r4:expr, $mask:expr),
        [$($constants:tt)*],
        options($($option:ident),*)
    ) => {{
        let union: u64;
        // SAFETY: AVX-512F and VL instructions, which the caller's
        // contract requires of the CPU; the block reads only its operands
        // (and the constants they may point to) and writes only its
        // outputs and the registers declared clobbered.
        unsafe {
            asm!(
                "or {x}, {s}",
                concat!("vpbroadcastq ", $v, "16, {s}"),
                concat!("vpbroadcastq ", $v, "17, {x}"),
                // pro = empty & mask
                concat!("vpandnq ", $v, "17, ", $v, "17, ", $mask),
                // fill |= pro & rol(fill, r); pro &= rol(pro, r)
                concat!("vprolvq ", $v, "21, ", $v, "16, ", $r1),
                concat!("vpternlogq ", $v, "21, ", $v, "17, ", $v, "16, 0xea"),
                concat!("vprolvq ", $v, "16, ", $v, "17, ", $r1),
                concat!("vpandq ", $v, "16, ", $v, "16, ", $v, "17"),
                // the same by 2r
                concat!("vprolvq ", $v, "17, ", $v, "21, ", $r2),
                concat!("vpternlogq ", $v, "17, ", $v, "16, ", $v, "21, 0xea"),
                concat!("vprolvq ", $v, "23, ", $v, "16, ", $r2),
                concat!("vpandq ", $v, "16, ", $v, "23, ", $v, "16"),
                // fill |= pro & rol(fill, 4r)
                concat!("vprolvq ", $v, "23, ", $v, "17, ", $r4),
                concat!("vpternlogq ", $v, "23, ", $v, "17, ", $v, "16, 0xec"),
                // attacks = rol(fill, r) & mask, or-ed across the lanes
                concat!("vprolvq ", $v, "16, ", $v, "23, ", $r1),
                concat!("vpandq ", $v, "16, ", $v, "16, ", $mask),
                $reduce,
                "vextracti64x2 xmm17, ymm16, 1",
                "vporq xmm16, xmm17, xmm16",
                "vpshufd xmm17, xmm16, 0xee",
                "vporq xmm16, xmm17, xmm16",
                "vmovq {union}, xmm16",
                s = in(reg) $sliders,
                x = inout(reg) $occupancy => _,
                union = lateout(reg) union,
                $($constants)*
                out("zmm16") _,
                out("zmm17") _,
                out("zmm21") _,
                out("zmm23") _,
                options(pure, nostack, $($option),*),
            );
        }
        union
    }};
    // The constants as inputs in their registers (declared as zmm, which
    // takes 256- and 512-bit values, and used at the width `$v`): the
    // caller needs AVX-512F, and its loop keeps them there across calls.
    ($v:literal, $reduce:expr, $sliders:expr, $occupancy:expr, inputs($r1:expr, $r2:expr, $r4:expr, $mask:expr)) => {
        fill!(
            $v, $reduce, $sliders, $occupancy,
            constants(concat!($v, "18"), concat!($v, "19"), concat!($v, "22"), concat!($v, "20")),
            [in("zmm18") $r1, in("zmm19") $r2, in("zmm22") $r4, in("zmm20") $mask,],
            options(nomem)
        )
    };
    // The constants read from memory, lane `$first` on of `DIRECTIONS`:
    // registers 16-31 appear only as clobbers, which need no target feature
    // on the caller, so the block inlines into baseline code.
    ($v:literal, $reduce:expr, $sliders:expr, $occupancy:expr, memory($first:expr)) => {
        fill!(
            $v, $reduce, $sliders, $occupancy,
            constants(
                concat!($v, "word ptr [{d} + {r1}]"),
                concat!($v, "word ptr [{d} + {r2}]"),
                concat!($v, "word ptr [{d} + {r4}]"),
                concat!($v, "word ptr [{d} + {mask}]")
            ),
            [
                d = in(reg) &D,
                r1 = const offset_of!(Directions, rotate) + 8 * $first,
                r2 = const offset_of!(Directions, rotate2) + 8 * $first,
                r4 = const offset_of!(Directions, rotate4) + 8 * $first,
                mask = const offset_of!(Directions, mask) + 8 * $first,
            ],
            options(readonly)
        )
    };
}

/// The reduction of a zmm's eight lanes to a ymm's four, before the
/// common ymm-to-word end of [`fill!`].
macro_rules! zmm_to_ymm {
    () => {
        "vextracti64x4 ymm17, zmm16, 1\nvporq ymm16, ymm17, ymm16"
    };
}

/// The union of the attacks of `sliders` in the four directions from
/// `FIRST` (0: rook, 4: bishop), the sliders counting as occupied.
///
/// # Safety
///
/// The CPU must have AVX-512F and AVX-512VL.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
pub(crate) unsafe fn four<const FIRST: usize>(sliders: u64, occupancy: u64) -> u64 {
    const { assert!(FIRST + 4 <= 8) };
    // SAFETY: 4 words of each 8-word array from FIRST (asserted above);
    // AVX is part of the caller's features.
    let [r1, r2, r4, mask] = [&D.rotate, &D.rotate2, &D.rotate4, &D.mask]
        .map(|a| unsafe { _mm256_loadu_si256(a[FIRST..].as_ptr().cast()) });
    fill!("ymm", "", sliders, occupancy, inputs(r1, r2, r4, mask))
}

/// The union of the attacks of `sliders` in all eight directions (queens).
///
/// # Safety
///
/// The CPU must have AVX-512F and AVX-512VL.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
pub(crate) unsafe fn eight(sliders: u64, occupancy: u64) -> u64 {
    // SAFETY: whole 8-word arrays; AVX-512F is the caller's.
    let [r1, r2, r4, mask] = [&D.rotate, &D.rotate2, &D.rotate4, &D.mask]
        .map(|a| unsafe { _mm512_loadu_si512(a.as_ptr().cast()) });
    fill!(
        "zmm",
        zmm_to_ymm!(),
        sliders,
        occupancy,
        inputs(r1, r2, r4, mask)
    )
}

/// [`four`] for a caller of any level, baseline code included: the block
/// loads its constants itself, and names registers 16-31 only as
/// clobbers, so it inlines where the caller's loop has no AVX-512 (the
/// facade's set-wise free functions under run-time dispatch), with no call
/// and no `vzeroupper`.
///
/// # Safety
///
/// The CPU must have AVX-512F and AVX-512VL, and the OS must keep their
/// state (what the `avx512` token's check proves).
#[inline(always)]
pub(crate) unsafe fn four_in_any_caller<const FIRST: usize>(sliders: u64, occupancy: u64) -> u64 {
    const { assert!(FIRST + 4 <= 8) };
    fill!("ymm", "", sliders, occupancy, memory(FIRST))
}

/// [`eight`] for a caller of any level, as [`four_in_any_caller`].
///
/// # Safety
///
/// As [`four_in_any_caller`].
#[inline(always)]
pub(crate) unsafe fn eight_in_any_caller(sliders: u64, occupancy: u64) -> u64 {
    fill!("zmm", zmm_to_ymm!(), sliders, occupancy, memory(0))
}

/// `slider`'s fill for a caller of any level ([`four_in_any_caller`] or
/// [`eight_in_any_caller`]): the `avx512` token's `setwise_in_any_caller`.
///
/// # Safety
///
/// As [`four_in_any_caller`].
#[inline(always)]
pub(crate) unsafe fn in_any_caller(slider: hq_core::Slider, sliders: u64, occupancy: u64) -> u64 {
    // SAFETY: the caller's guarantee.
    unsafe {
        match slider {
            hq_core::Slider::Rook => four_in_any_caller::<0>(sliders, occupancy),
            hq_core::Slider::Bishop => four_in_any_caller::<4>(sliders, occupancy),
            hq_core::Slider::Queen => eight_in_any_caller(sliders, occupancy),
        }
    }
}
