//! The installed plan: one word per cell the route reads, and the
//! selection behind it (with `std`; a build without it fixes every cell).
//!
//! * Single lookups: a word per piece and square: the keyed backend's key
//!   where it serves the piece (PEXT's mask: the load that fetches the mask
//!   also decides the path), else [`TAG`] with the backend's index.
//! * Batches, set-wise calls, latency: a 16-bit word per piece: the
//!   backend's index, and for set-wise calls the slider count up to which
//!   single lookups serve instead, in the high byte.
//!
//! Soundness: every word and byte is [`UNDECIDED`] or names a backend
//! [`check_plan`](crate::select::check_plan) accepted (this CPU runs it);
//! a reader sees one or the other, whatever it races with.

use crate::dispatch::{key_of, keyed_for};
use crate::select::{Selection, Source, check_plan, decide, fix};
use core::sync::atomic::{AtomicPtr, AtomicU16, AtomicU64, Ordering::Relaxed};
use hq_core::Square;
use hq_plan::Backend;
use hq_plan::BackendError;
use hq_plan::{Entry, Plan, Slider};
use std::sync::Mutex;

/// The high bit of a single-lookup word that holds an index, not a key.
pub(crate) const TAG: u64 = 1 << 63;

/// The index of no backend: the route's cold path decides and installs.
pub(crate) const UNDECIDED: u8 = 0xFF;

const _: () = assert!(
    Backend::ALL.len() < UNDECIDED as usize,
    "indexes take a byte"
);

static SINGLE: [[AtomicU64; 64]; 3] =
    [const { [const { AtomicU64::new(TAG | UNDECIDED as u64) }; 64] }; 3];

/// Batches, set-wise calls, latency (`Entry as usize - 1`).
static CELLS: [[AtomicU16; 3]; 3] = [const { [const { AtomicU16::new(UNDECIDED as u16) }; 3] }; 3];

/// Each cell's entry point, for the route where it does not inline the
/// cell's backend: `[entry][piece]`, and `[entry][3]` the lines of single
/// lookups and latency. Before the first call, [`decide`]'s.
static ENTRIES: [[AtomicPtr<()>; 4]; 4] = [
    decide::slots::<0>(),
    decide::slots::<1>(),
    decide::slots::<2>(),
    decide::slots::<3>(),
];

/// The entry point of `entry`'s cell in `slot` (`Kernel::slot`).
#[inline(always)]
pub(crate) fn entry(entry: Entry, slot: usize) -> *mut () {
    ENTRIES[entry as usize][slot].load(Relaxed)
}

/// The entry points before the first call: decide and install, then call
/// the cell's installed entry point.
mod decide {
    use super::{ENTRIES, first_call};
    use core::sync::atomic::{AtomicPtr, Ordering::Relaxed};
    use hq_core::entries::{BatchFn, LineFn, SetwiseFn, SingleFn};
    use hq_core::{Bitboard, Line, Square};

    /// The installed entry point of `[E][S]`, as `F`.
    ///
    /// # Safety
    ///
    /// `F` must be the cell's kind of entry point.
    unsafe fn installed<F: Copy, const E: usize, const S: usize>() -> F {
        first_call();
        let entry = ENTRIES[E][S].load(Relaxed);
        // SAFETY: the caller's guarantee; installed entries are functions.
        unsafe { core::mem::transmute_copy::<*mut (), F>(&entry) }
    }

    unsafe fn single<const E: usize, const S: usize>(sq: usize, o: Bitboard) -> Bitboard {
        // SAFETY: single lookups' and latency's cells hold `SingleFn`s.
        unsafe { installed::<SingleFn, E, S>()(sq, o) }
    }
    unsafe fn line<const E: usize>(line: Line, sq: Square, o: Bitboard) -> Bitboard {
        // SAFETY: slot 3 of single lookups and latency holds a `LineFn`.
        unsafe { installed::<LineFn, E, 3>()(line, sq, o) }
    }
    unsafe fn batch<const S: usize>(s: &[Square], o: Bitboard, out: &mut [Bitboard]) {
        // SAFETY: batch cells hold `BatchFn`s.
        unsafe { installed::<BatchFn, 1, S>()(s, o, out) }
    }
    unsafe fn setwise<const S: usize>(set: Bitboard, o: Bitboard) -> Bitboard {
        // SAFETY: set-wise cells hold `SetwiseFn`s.
        unsafe { installed::<SetwiseFn, 2, S>()(set, o) }
    }

    /// The slots of entry point `E` (an index into `Entry::ALL`).
    pub(super) const fn slots<const E: usize>() -> [AtomicPtr<()>; 4] {
        match E {
            1 => [
                AtomicPtr::new(batch::<0> as BatchFn as *mut ()),
                AtomicPtr::new(batch::<1> as BatchFn as *mut ()),
                AtomicPtr::new(batch::<2> as BatchFn as *mut ()),
                AtomicPtr::new(core::ptr::null_mut()),
            ],
            2 => [
                AtomicPtr::new(setwise::<0> as SetwiseFn as *mut ()),
                AtomicPtr::new(setwise::<1> as SetwiseFn as *mut ()),
                AtomicPtr::new(setwise::<2> as SetwiseFn as *mut ()),
                AtomicPtr::new(core::ptr::null_mut()),
            ],
            _ => [
                AtomicPtr::new(single::<E, 0> as SingleFn as *mut ()),
                AtomicPtr::new(single::<E, 1> as SingleFn as *mut ()),
                AtomicPtr::new(single::<E, 2> as SingleFn as *mut ()),
                AtomicPtr::new(line::<E> as LineFn as *mut ()),
            ],
        }
    }
}

/// The selection, once decided (cold paths only).
static SELECTION: Mutex<Option<Selection>> = Mutex::new(None);

/// The single-lookup word of `slider` on `sq`.
#[inline(always)]
pub(crate) fn single_word(slider: Slider, sq: Square) -> u64 {
    SINGLE[slider as usize][sq as usize].load(Relaxed)
}

/// The word of a cell other than single lookups.
#[inline(always)]
pub(crate) fn cell(entry: Entry, slider: Slider) -> u16 {
    CELLS[entry as usize - 1][slider as usize].load(Relaxed)
}

/// The backend index of a cell (a job's dispatch reads it once).
#[inline(always)]
pub(crate) fn index(entry: Entry, slider: Slider) -> u8 {
    match entry {
        Entry::Single => match single_word(slider, Square::A1) {
            w if w & TAG == 0 => keyed_for(slider).map_or(UNDECIDED, |b| b as u8),
            w => w as u8,
        },
        _ => cell(entry, slider) as u8,
    }
}

/// Points every cell at `plan`, whose backends were all checked.
fn install(plan: &Plan) {
    for entry in Entry::ALL {
        for slider in Slider::ALL {
            let entries = plan
                .get(entry, slider)
                .entries()
                .expect("a checked backend: dispatched, and this CPU runs it");
            let s = slider as usize;
            let f = match entry {
                Entry::Single | Entry::Latency => entries.single[s] as *mut (),
                Entry::Batch => entries.batch[s] as *mut (),
                Entry::Setwise => entries.setwise[s] as *mut (),
            };
            ENTRIES[entry as usize][s].store(f, Relaxed);
            if slider == Slider::Queen && matches!(entry, Entry::Single | Entry::Latency) {
                ENTRIES[entry as usize][3].store(entries.line as *mut (), Relaxed);
            }
        }
    }
    for slider in Slider::ALL {
        let single = plan.get(Entry::Single, slider);
        for sq in Square::ALL {
            let word = match keyed_for(slider) {
                Some(b) if b == single => key_of(single, slider, sq),
                _ => 0,
            };
            // A key is never 0 and has bit 63 clear; a token without keys
            // here (off its architecture) gives 0: its index instead.
            let word = match word != 0 && word & TAG == 0 {
                true => word,
                false => TAG | single as u64,
            };
            SINGLE[slider as usize][sq as usize].store(word, Relaxed);
        }
        for entry in [Entry::Batch, Entry::Setwise, Entry::Latency] {
            let looped = match entry {
                Entry::Setwise => plan.setwise_loop.get(slider) as u16,
                _ => 0,
            };
            CELLS[entry as usize - 1][slider as usize]
                .store(plan.get(entry, slider) as u16 | looped << 8, Relaxed);
        }
    }
}

/// The selection, deciding and installing it on first use.
pub(crate) fn selection() -> Result<Selection, BackendError> {
    let mut slot = SELECTION.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = *slot {
        return Ok(s);
    }
    let s = decide()?;
    install(&s.plan);
    *slot = Some(s);
    Ok(s)
}

/// Installs `plan` (checked here), recording `source`.
pub(crate) fn replace(plan: Plan, source: Source) -> Result<(), BackendError> {
    check_plan(&plan)?;
    let mut slot = SELECTION.lock().unwrap_or_else(|e| e.into_inner());
    let mut s = match *slot {
        Some(s) => s,
        None => decide()?,
    };
    (s.plan, s.source, s.overridden, s.unmeasured) = (plan, source, false, None);
    fix(&mut s);
    install(&s.plan);
    *slot = Some(s);
    Ok(())
}

/// The first call: decide and install, or stop with the error (the free
/// functions cannot return one; [`crate::init`] can).
#[cold]
#[inline(never)]
pub(crate) fn first_call() {
    if let Err(e) = selection() {
        panic!("hq: {e} (call hq::init() at start-up to get this as an error instead)");
    }
}
