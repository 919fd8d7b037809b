//! The token [`crate::with_active_backend`] hands to jobs: the chosen single
//! backend, inlined, with batches and set-wise calls routed to it or to the
//! free functions.

use crate::choice::Plan;
use crate::{Backend, WithBackend};
use hq_core::{Bitboard, Line, SliderAttacks, Square};

/// A set-wise call by `single` lookups up to `LOOP` sliders (branch-free
/// for two: [`hq_scalar::setwise::pair_up_to`]), else by `kernel`: the
/// free functions' looping tables and the job token's [`Route::PairThenTable`].
#[inline(always)]
pub(crate) fn looping<const LOOP: u32>(
    sliders: Bitboard,
    occupancy: Bitboard,
    single: impl Fn(Square, Bitboard) -> Bitboard,
    kernel: impl FnOnce(Bitboard, Bitboard) -> Bitboard,
) -> Bitboard {
    Bitboard(hq_scalar::setwise::loop_or(
        sliders.0,
        occupancy.0,
        // The single backends the table loops over have cheap lookups.
        const { hq_scalar::setwise::pair_up_to(LOOP) },
        #[inline(always)]
        |sq, o| single(sq, Bitboard(o)).0,
        #[inline(always)]
        |sliders, o| kernel(Bitboard(sliders), Bitboard(o)).0,
    ))
}

/// The slider count up to which [`Route::PairThenTable`] loops (the only
/// `setwise_loop` of the choice table's rows; a row with another count
/// takes the free function for every set-wise call).
const PAIR_THEN_TABLE: u32 = 2;

/// How a job's token serves batches and set-wise calls (the single lookups
/// are always its own backend's, inlined).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Route {
    /// The single backend's own entry, inlined into the job.
    Inline,
    /// Set-wise only: up to two sliders by the single backend's branch-free
    /// pair, inlined, more through the free function.
    PairThenTable,
    /// Through the free function (one indirect call per batch or set-wise
    /// call, to the entry compiled for its backend's level).
    Table,
}

/// The token [`crate::with_active_backend`] passes to jobs: single lookups
/// (and the pair entry points) from `S`, the chosen single backend, inlined;
/// batches and set-wise calls inlined too where `S` serves them, else one
/// call to the free function, which runs the chosen backend's entry.
///
/// So a job is monomorphized once per backend that can serve single lookups
/// here ([`run_active`]), not once per combination of the three entry
/// points: at most four copies on x86-64. Its level is `S`'s (a job is
/// mostly single lookups; compiling a whole job for AVX-512 only because
/// its batches use it made the board copies of perft zmm moves, and it ran
/// slower: see the README's perft section).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Active<S> {
    single: S,
    batch: Route,
    setwise: Route,
}

impl<S: SliderAttacks> Active<S> {
    /// The token for `plan`, whose queen's single backend is `S` (a job's
    /// single lookups of every piece run on it, inlined; batches and
    /// set-wise calls inline only where `S` serves every piece).
    ///
    /// # Safety
    ///
    /// The CPU must support `S` (the installed plan's backends were checked).
    unsafe fn for_plan(plan: Plan) -> Self {
        let own = |b: Option<Backend>| b.is_some_and(|b| b.name() == S::NAME);
        let choice = plan.choice();
        Active {
            // SAFETY: the caller guarantees the CPU supports `S`.
            single: unsafe { S::new_unchecked() },
            batch: if own(plan.batch.uniform()) {
                Route::Inline
            } else {
                Route::Table
            },
            setwise: if own(plan.setwise.uniform()) {
                Route::Inline
            } else if choice.loops_setwise()
                && choice.setwise_loop == PAIR_THEN_TABLE
                && own(plan.single.uniform())
                && plan.setwise.uniform().is_some()
            {
                Route::PairThenTable
            } else {
                Route::Table
            },
        }
    }
}

/// Methods that hand their arguments to the single backend.
macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)?;)*) => {
        $(
            #[inline(always)]
            fn $method(self, $($arg: $ty),*) $(-> $ret)? {
                self.single.$method($($arg),*)
            }
        )*
    };
}

/// Batch methods: inlined, or the free function.
macro_rules! batch {
    ($($method:ident;)*) => {
        $(
            #[inline(always)]
            fn $method(self, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
                match self.batch {
                    Route::Table => crate::$method(squares, occ, out),
                    _ => self.single.$method(squares, occ, out),
                }
            }
        )*
    };
}

/// Set-wise methods: inlined, the pair then the free function, or the free function.
macro_rules! setwise {
    ($($method:ident => $single:ident;)*) => {
        $(
            #[inline(always)]
            fn $method(self, sliders: Bitboard, occ: Bitboard) -> Bitboard {
                match self.setwise {
                    Route::Inline => self.single.$method(sliders, occ),
                    Route::PairThenTable => {
                        let s = self.single;
                        looping::<PAIR_THEN_TABLE>(
                            sliders,
                            occ,
                            #[inline(always)]
                            |sq, o| s.$single(sq, o),
                            #[inline(always)]
                            |sliders, o| crate::$method(sliders, o),
                        )
                    }
                    Route::Table => crate::$method(sliders, occ),
                }
            }
        )*
    };
}

impl<S: SliderAttacks> SliderAttacks for Active<S> {
    const NAME: &'static str = "auto";
    const LEVEL: hq_core::cpu::Level = S::LEVEL;

    fn is_supported() -> bool {
        S::is_supported()
    }
    unsafe fn new_unchecked() -> Self {
        Active {
            // SAFETY: the caller guarantees the CPU supports `S`.
            single: unsafe { S::new_unchecked() },
            // The free functions serve any choice (they check their own).
            batch: Route::Table,
            setwise: Route::Table,
        }
    }
    forward!(
        line_attacks(line: Line, sq: Square, occ: Bitboard) -> Bitboard;
        rook_attacks(sq: Square, occ: Bitboard) -> Bitboard;
        bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard;
        queen_attacks(sq: Square, occ: Bitboard) -> Bitboard;
        rook_attacks_pair(sq: Square, occ: Bitboard, reversed: Bitboard) -> Bitboard;
        bishop_attacks_pair(sq: Square, occ: Bitboard, reversed: Bitboard) -> Bitboard;
        queen_attacks_pair(sq: Square, occ: Bitboard, reversed: Bitboard) -> Bitboard;
    );
    batch!(rook_attacks_batch; bishop_attacks_batch; queen_attacks_batch;);
    setwise!(
        rook_attacks_setwise => rook_attacks;
        bishop_attacks_setwise => bishop_attacks;
        queen_attacks_setwise => queen_attacks;
    );
}

/// A token that reaches every entry point through the free functions: what
/// jobs get when the chosen single backend is none that [`run_active`]
/// monomorphizes (a research backend named by `HQ_BACKEND`, say, or the
/// portable choice of a CPU with no SIMD level at all).
#[cfg(feature = "std")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dynamic(());

/// Methods that call the free function of the same name.
#[cfg(feature = "std")]
macro_rules! free {
    ($($method:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)?;)*) => {
        $(
            #[inline(always)]
            fn $method(self, $($arg: $ty),*) $(-> $ret)? {
                crate::$method($($arg),*)
            }
        )*
    };
}

#[cfg(feature = "std")]
impl SliderAttacks for Dynamic {
    const NAME: &'static str = "auto";
    const LEVEL: hq_core::cpu::Level = hq_core::cpu::Level::Baseline;

    unsafe fn new_unchecked() -> Self {
        Dynamic(())
    }
    free!(
        line_attacks(line: Line, sq: Square, occ: Bitboard) -> Bitboard;
        rook_attacks(sq: Square, occ: Bitboard) -> Bitboard;
        bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard;
        queen_attacks(sq: Square, occ: Bitboard) -> Bitboard;
        rook_attacks_batch(squares: &[Square], occ: Bitboard, out: &mut [Bitboard]);
        bishop_attacks_batch(squares: &[Square], occ: Bitboard, out: &mut [Bitboard]);
        queen_attacks_batch(squares: &[Square], occ: Bitboard, out: &mut [Bitboard]);
        rook_attacks_setwise(rooks: Bitboard, occ: Bitboard) -> Bitboard;
        bishop_attacks_setwise(bishops: Bitboard, occ: Bitboard) -> Bitboard;
        queen_attacks_setwise(queens: Bitboard, occ: Bitboard) -> Bitboard;
    );
}

/// Runs `job` for the installed `plan`: with [`Active`] over the chosen
/// (queen's) single backend where that backend is one some CPU class of this target
/// chooses for single lookups, or one this build forces; with [`Dynamic`]
/// otherwise. These are the only instantiations of a job: on x86-64 `pext`,
/// `avx2`, `ssse3` and `Dynamic` (plus forced backends); on AArch64 `neon`
/// and `Dynamic`; on wasm32 `simd128` and `Dynamic`.
#[cfg(feature = "std")]
pub(crate) fn run_active<W: WithBackend>(plan: Plan, job: W) -> W::Output {
    use Backend::*;
    cfg_if::cfg_if! {
        if #[cfg(target_arch = "x86_64")] {
            match plan.single.queen {
                Pext => return run_with_active::<hq_pext::Pext, W>(plan, job),
                Avx2 => return run_with_active::<hq_simd::Avx2, W>(plan, job),
                Ssse3 => return run_with_active::<hq_simd::Ssse3, W>(plan, job),
                _ => {}
            }
        } else if #[cfg(target_arch = "aarch64")] {
            if plan.single.queen == Neon {
                return run_with_active::<hq_simd::Neon, W>(plan, job);
            }
        } else if #[cfg(target_arch = "wasm32")] {
            if plan.single.queen == Simd128 {
                return run_with_active::<hq_simd::Simd128, W>(plan, job);
            }
        }
    }
    match crate::registry::run_forced_active(plan, job) {
        Ok(out) => out,
        Err(job) => run_free(job),
    }
}

/// Runs `job` with [`Dynamic`]: every lookup through the free functions.
#[cfg(feature = "std")]
pub(crate) fn run_free<W: WithBackend>(job: W) -> W::Output {
    Dynamic(()).run_compiled(
        #[inline(always)]
        |t| job.run(t),
    )
}

/// Runs `job` on the compile-time choice (a build without `std` has no
/// other: [`crate::latency::with_backend`]'s fallback).
#[cfg(not(feature = "std"))]
pub(crate) fn run_free<W: WithBackend>(job: W) -> W::Output {
    crate::registry::run_fixed_active(job)
}

/// Runs `job` for the compile-time choice of a build without `std`.
#[cfg(not(feature = "std"))]
pub(crate) fn run_active<W: WithBackend>(_plan: Plan, job: W) -> W::Output {
    crate::registry::run_fixed_active(job)
}

/// Runs `job` with [`Active`] over `S` for `plan`.
#[inline(always)]
pub(crate) fn run_with_active<S: SliderAttacks, W: WithBackend>(plan: Plan, job: W) -> W::Output {
    // SAFETY: the installed choice's backends were checked (`install`), or
    // (without `std`) are enabled at compile time (`crate::fixed`).
    let token = unsafe { Active::<S>::for_plan(plan) };
    token.run_compiled(
        #[inline(always)]
        |t| job.run(t),
    )
}
