//! The one route from an entry point or a job to a kernel: the cell
//! (entry point and piece) names a backend, and [`dispatch`] runs its
//! kernel: inlined where the cell's match has its arm, else from the same
//! match out of line. Builds differ only in which arms exist and whether
//! the cell is read: a cell the build fixes at compile time ([`fixed`]) is
//! a constant (one arm, no load); the others are read from
//! [`crate::installed`].

#[cfg(feature = "std")]
mod cold;

use crate::dispatch::{Arms, Kernel, dispatch, inlined_backend};
use crate::kernels::{Caller, LineLookup, SINGLE, Setwise, Single};
#[cfg(feature = "std")]
use crate::{dispatch::keyed, installed};
use core::marker::PhantomData;
use hq_core::{Bitboard, Line, Square, at_most, union_by_loop, union_of_up_to_two};
use hq_plan::classes::{fixed, fixed_loop};
use hq_plan::{Entry, Slider};

/// Runs `kernel` on its cell's backend.
#[inline(always)]
pub(crate) fn route<K: Kernel>(kernel: K) -> K::Output {
    let (entry, slider) = (K::ENTRY, kernel.slider());
    if let Some(b) = fixed(entry, slider) {
        // SAFETY: a fixed backend's level is enabled at compile time.
        return unsafe { dispatch(b as u8, kernel, Arms::Inlined) }.unwrap_or_else(K::without_arm);
    }
    #[cfg(feature = "std")]
    return run(installed::index(entry, slider), kernel, Arms::Inlined);
    #[cfg(not(feature = "std"))]
    unreachable!("a build without std fixes every cell")
}

/// Runs `kernel` on the installed backend at `index`: its arm among
/// `arms`, else one call through the cell's entry point (a function of its
/// backend's level, or before the first call the one that decides). Jobs
/// have no entry points: theirs is out of line.
#[cfg(feature = "std")]
#[inline(always)]
fn run<K: Kernel>(index: u8, kernel: K, arms: Arms) -> K::Output {
    // SAFETY: the installed indexes are checked ones (or UNDECIDED: no arm).
    match unsafe { dispatch(index, kernel, arms) } {
        Ok(out) => out,
        Err(kernel) if K::JOB => out_of_line(index, kernel),
        Err(kernel) => {
            let entry = installed::entry(K::ENTRY, kernel.slot());
            // SAFETY: the cell's slot holds this kernel's kind of entry
            // point, of a checked backend (`installed`).
            unsafe { kernel.call(entry) }
        }
    }
}

/// [`run`] for a job whose cell's backend has no arm: before the first
/// call, decide and install first; then the job's arm, or its fallback.
#[cfg(feature = "std")]
#[cold]
#[inline(never)]
fn out_of_line<K: Kernel>(mut index: u8, kernel: K) -> K::Output {
    if index == installed::UNDECIDED {
        installed::first_call();
        index = installed::index(K::ENTRY, kernel.slider());
    }
    // SAFETY: as in `run`.
    unsafe { dispatch(index, kernel, Arms::Inlined) }.unwrap_or_else(K::without_arm)
}

/// A single lookup: the keyed backend's with the word's key, else the
/// word's index (one load either way).
#[inline(always)]
pub(crate) fn single(slider: Slider, sq: Square, occupancy: Bitboard) -> Bitboard {
    let kernel = Single::<SINGLE>(slider, sq, occupancy);
    if fixed(Entry::Single, slider).is_some() {
        return route(kernel);
    }
    #[cfg(feature = "std")]
    {
        let word = installed::single_word(slider, sq);
        if word & installed::TAG == 0 {
            // SAFETY: a word without the tag is the keyed backend's key for
            // this piece and square, stored once its CPU check passed.
            if let Some(attacks) = unsafe { keyed(slider, sq, occupancy, word) } {
                return attacks;
            }
        }
        // A tagged word never names the keyed backend (its words are
        // keys): without its arm, no second copy of it at every call site.
        // SAFETY: the installed indexes are checked ones (or UNDECIDED: no arm).
        match unsafe { dispatch(word as u8, kernel, Arms::Unkeyed) } {
            Ok(attacks) => attacks,
            Err(Single(slider, sq, occupancy)) => cold::single(slider, sq, occupancy),
        }
    }
    #[cfg(not(feature = "std"))]
    unreachable!("a build without std fixes every cell")
}

/// A line lookup, on the queen's single-lookup backend.
#[inline(always)]
pub(crate) fn line(line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
    route(LineLookup::<SINGLE>(line, sq, occupancy))
}

/// A set-wise call from code of `C`: up to the cell's count of sliders by
/// single lookups (two without a loop), else its backend. The count and
/// the backend share the cell's word: one load, and one compare where the
/// word is the inlined backend's without a count.
#[inline(always)]
pub(crate) fn setwise<C: Caller>(
    slider: Slider,
    sliders: Bitboard,
    occupancy: Bitboard,
) -> Bitboard {
    let kernel = Setwise::<C>(slider, sliders, occupancy, PhantomData);
    let cell = match (fixed(Entry::Setwise, slider), fixed_loop(slider)) {
        (Some(b), Some(n)) => b as u16 | (n as u16) << 8,
        #[cfg(feature = "std")]
        _ => installed::cell(Entry::Setwise, slider),
        #[cfg(not(feature = "std"))]
        _ => unreachable!("a build without std fixes every cell"),
    };
    // The inlined backend without a count: one compare.
    if let Some(b) = inlined_backend(Entry::Setwise, slider)
        && cell == b as u16
    {
        #[cfg(feature = "std")]
        return run(b as u8, kernel, Arms::Inlined);
    }
    let (count, index) = (u32::from(cell >> 8), cell as u8);
    if count != 0 && at_most(sliders.0, count) {
        let lookup = |sq, o| single(slider, sq, o);
        return match count >= 2 && at_most(sliders.0, 2) {
            true => union_of_up_to_two(sliders, occupancy, lookup),
            false => union_by_loop(sliders, occupancy, lookup),
        };
    }
    #[cfg(feature = "std")]
    return run(index, kernel, Arms::Inlined);
    #[cfg(not(feature = "std"))]
    // SAFETY: a fixed backend's level is enabled at compile time.
    unsafe { dispatch(index, kernel, Arms::Inlined) }.unwrap_or_else(Kernel::without_arm)
}
