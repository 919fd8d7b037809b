//! What each entry point runs on the token [`dispatch`](crate::backends)
//! picks: a single lookup, a line, a batch or a set-wise call.

use crate::dispatch::Kernel;
use core::marker::PhantomData;
use hq_core::cpu::Level;
#[cfg(feature = "std")]
use hq_core::entries::{BatchFn, LineFn, SetwiseFn, SingleFn};
use hq_core::{Bitboard, Line, Slider, SliderAttacks, Square};
use hq_plan::Entry;

/// Code that calls the entry points: the level it is compiled for.
pub(crate) trait Caller {
    /// The level.
    const LEVEL: Level;
}

/// The free functions' callers: compiled for the highest level the whole
/// build enables (`-C target-cpu`).
pub(crate) struct FreeFunctions;

impl Caller for FreeFunctions {
    const LEVEL: Level = {
        let mut i = Level::ALL.len() - 1;
        while i > 0
            && !(Level::ALL[i].is_static() && hq_plan::classes::on_this_target(Level::ALL[i]))
        {
            i -= 1;
        }
        Level::ALL[i]
    };
}

/// A job on `S`'s token: compiled for the level `S`'s jobs run at.
pub(crate) struct JobOn<S>(PhantomData<S>);

impl<S: SliderAttacks> Caller for JobOn<S> {
    const LEVEL: Level = jobs_at(S::LEVEL);
}

/// The level the jobs of a backend of `level` run at, at least (on x86-64
/// portable and v2 backends' jobs run at v3 where the CPU has it).
pub(crate) const fn jobs_at(level: Level) -> Level {
    match level {
        Level::Baseline | Level::X86V2 if cfg!(target_arch = "x86_64") => Level::X86V3,
        other => other,
    }
}

/// Whether code compiled for `caller` has the level the jobs of a backend
/// of level `backend` run at: there a token's batch and set-wise methods
/// inline at full speed, elsewhere its `*_in_any_caller` forms do better.
/// Speed only: every token method is safe to call from any code.
const fn covers(caller: Level, backend: Level) -> bool {
    let needs = jobs_at(backend);
    matches!(needs, Level::Baseline)
        || (hq_plan::classes::on_this_target(caller) && caller as u8 >= needs as u8)
}

/// Whether the free functions run the kernels of a backend of `level` as
/// its token does (inlined, compiled for its level), and not its forms for
/// callers of any level: where the build's target features have the level
/// its jobs run at.
pub(crate) const fn free_functions_have(level: Level) -> bool {
    covers(FreeFunctions::LEVEL, level)
}

/// A single lookup of the entry point `E` (single lookups or latency, an
/// index into [`Entry::ALL`]), from the free functions: the token's
/// method where they have its level, else its form for any caller.
pub(crate) struct Single<const E: usize>(pub Slider, pub Square, pub Bitboard);

impl<const E: usize> Kernel for Single<E> {
    type Output = Bitboard;
    const ENTRY: Entry = Entry::ALL[E];
    #[inline(always)]
    fn slider(&self) -> Slider {
        self.0
    }
    #[inline(always)]
    fn run<B: SliderAttacks>(self, token: B) -> Bitboard {
        match const { covers(FreeFunctions::LEVEL, B::LEVEL) } {
            true => self.0.single(token, self.1, self.2),
            false => token.single_in_any_caller(self.0, self.1, self.2),
        }
    }
    #[cfg(feature = "std")]
    #[inline(always)]
    unsafe fn call(self, entry: *mut ()) -> Bitboard {
        // SAFETY: the caller's guarantee: a `SingleFn` of a backend that runs here.
        unsafe { core::mem::transmute::<*mut (), SingleFn>(entry)(self.1 as usize, self.2) }
    }
}

/// A line lookup of the entry point `E`, on the queen's backend.
pub(crate) struct LineLookup<const E: usize>(pub Line, pub Square, pub Bitboard);

impl<const E: usize> Kernel for LineLookup<E> {
    type Output = Bitboard;
    const ENTRY: Entry = Entry::ALL[E];
    #[inline(always)]
    fn slider(&self) -> Slider {
        Slider::Queen
    }
    #[inline(always)]
    fn run<B: SliderAttacks>(self, token: B) -> Bitboard {
        token.line_attacks(self.0, self.1, self.2)
    }
    #[cfg(feature = "std")]
    fn slot(&self) -> usize {
        3
    }
    #[cfg(feature = "std")]
    #[inline(always)]
    unsafe fn call(self, entry: *mut ()) -> Bitboard {
        // SAFETY: the caller's guarantee: a `LineFn` of a backend that runs here.
        unsafe { core::mem::transmute::<*mut (), LineFn>(entry)(self.0, self.1, self.2) }
    }
}

/// [`Entry::Single`]'s index, for the kernels' `E`.
pub(crate) const SINGLE: usize = Entry::Single as usize;
/// [`Entry::Latency`]'s index.
pub(crate) const LATENCY: usize = Entry::Latency as usize;

/// A batch from code of `C`: the token's method where the caller has the
/// backend's level, else its form for any caller.
pub(crate) struct Batch<'a, C>(
    pub Slider,
    pub &'a [Square],
    pub Bitboard,
    pub &'a mut [Bitboard],
    pub PhantomData<C>,
);

impl<C: Caller> Kernel for Batch<'_, C> {
    type Output = ();
    const ENTRY: Entry = Entry::Batch;
    #[inline(always)]
    fn slider(&self) -> Slider {
        self.0
    }
    #[inline(always)]
    fn run<B: SliderAttacks>(self, token: B) {
        let Batch(slider, squares, occupancy, out, _) = self;
        match const { covers(C::LEVEL, B::LEVEL) } {
            // The token's entry point of the level its jobs run at (where
            // portable loops vectorize; at baseline: 0.45x), the call
            // `batch_in_any_caller` makes by default: one call, its
            // arguments in registers. Inlined into the caller instead, the
            // kernel ran no faster, or slower; as a closure under
            // `run_compiled`, its captures passed through the caller's
            // stack and two calls, slower (f8bbd0e has the figures).
            true => {
                let batch = hq_core::entries::Entries::of(token).batch[slider as usize];
                // SAFETY: `Entries::of` compiles for a level the token proves.
                unsafe { batch(squares, occupancy, out) }
            }
            false => token.batch_in_any_caller(slider, squares, occupancy, out),
        }
    }
    #[cfg(feature = "std")]
    #[inline(always)]
    unsafe fn call(self, entry: *mut ()) {
        // SAFETY: the caller's guarantee: a `BatchFn` of a backend that runs here.
        unsafe { core::mem::transmute::<*mut (), BatchFn>(entry)(self.1, self.2, self.3) }
    }
}

/// A set-wise call from code of `C`, as [`Batch`].
pub(crate) struct Setwise<C>(pub Slider, pub Bitboard, pub Bitboard, pub PhantomData<C>);

impl<C: Caller> Kernel for Setwise<C> {
    type Output = Bitboard;
    const ENTRY: Entry = Entry::Setwise;
    #[inline(always)]
    fn slider(&self) -> Slider {
        self.0
    }
    #[inline(always)]
    fn run<B: SliderAttacks>(self, token: B) -> Bitboard {
        let Setwise(slider, sliders, occupancy, _) = self;
        match const { covers(C::LEVEL, B::LEVEL) } {
            true => slider.setwise(token, sliders, occupancy),
            false => token.setwise_in_any_caller(slider, sliders, occupancy),
        }
    }
    #[cfg(feature = "std")]
    #[inline(always)]
    unsafe fn call(self, entry: *mut ()) -> Bitboard {
        // SAFETY: the caller's guarantee: a `SetwiseFn` of a backend that runs here.
        unsafe { core::mem::transmute::<*mut (), SetwiseFn>(entry)(self.1, self.2) }
    }
}
