//! The single lookups' cold path: the word names a backend the route does
//! not inline (or none yet), so the lookup runs out of line.
//!
//! It sits in the caller's loop, and a call there clobbers every register
//! the C ABI lets a callee clobber: the loop then keeps its table bases in
//! the few registers a call preserves, and where it has more live values
//! than those it reloads a base every lookup (in a position-independent
//! executable, from the GOT). Where this module can, the cold path is
//! therefore one `call` in an `asm!` block into a trampoline (`preserving`)
//! that saves and restores every general-purpose register the callee may
//! clobber: the block clobbers only its two outputs, the flags and the
//! vector and x87 registers, none of which a baseline caller's lookup loop
//! holds. Elsewhere (Miri, which runs no `asm!`; other architectures;
//! Windows, whose unwinder wants tables for every frame; builds with
//! AVX-512, whose mask and upper vector registers the block would have to
//! name) it is a plain call.

use super::run;
use crate::dispatch::{Arms, keyed};
use crate::installed::{self, TAG};
use crate::kernels::{SINGLE, Single};
use hq_core::{Bitboard, Square};
use hq_plan::Slider;

/// The lookup out of line: the word again (another thread may have
/// installed a plan since the caller read it), then its backend.
#[cold]
#[inline(never)]
fn lookup(slider: Slider, sq: Square, occupancy: Bitboard) -> Bitboard {
    let word = installed::single_word(slider, sq);
    if word & TAG == 0 {
        // SAFETY: a word without the tag is the keyed backend's key for
        // this piece and square, stored once its CPU check passed.
        if let Some(attacks) = unsafe { keyed(slider, sq, occupancy, word) } {
            return attacks;
        }
    }
    run(
        word as u8,
        Single::<SINGLE>(slider, sq, occupancy),
        Arms::Unkeyed,
    )
}

cfg_if::cfg_if! {
    if #[cfg(all(target_arch = "x86_64", not(miri), not(windows), not(target_feature = "avx512f")))] {
        mod preserving;
        pub(super) use preserving::single;
    } else {
        /// The single lookup of `slider` on the cold path.
        #[inline(always)]
        pub(super) fn single(slider: Slider, sq: Square, occupancy: Bitboard) -> Bitboard {
            lookup(slider, sq, occupancy)
        }
    }
}
