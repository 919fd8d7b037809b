//! Rook, bishop and queen attack sets from the fastest method this CPU
//! has, per entry point: the crate engine authors link.
//!
//! ```
//! use hq::{Bitboard, Square};
//!
//! let occupancy = Bitboard::from(Square::E7) | Bitboard::from(Square::B4);
//! let attacks = hq::rook_attacks(Square::E4, occupancy);
//! assert!(attacks.contains(Square::E7) && !attacks.contains(Square::E8));
//! println!("{attacks}\n{}", hq::selection());
//! ```
//!
//! Squares use little-endian rank-file mapping (a1 = bit 0, h8 = bit 63).
//!
//! # Entry points
//!
//! * single lookups, for search: [`rook_attacks`], [`bishop_attacks`],
//!   [`queen_attacks`], [`line_attacks`];
//! * batches, many squares over one occupancy: [`queen_attacks_batch`] ...;
//! * set-wise, the union over a set of sliders: [`queen_attacks_setwise`] ...;
//! * dependency chains (SEE, x-rays): [`latency`];
//! * leapers and lines, `const fn` over `const` tables: [`knight_attacks`],
//!   [`king_attacks`], [`pawn_attacks`], [`between`], [`line()`], and the
//!   portable [`rook_attacks_const`] ... for `const` contexts;
//! * jobs: [`with_active_backend`] runs your loop monomorphized for the
//!   chosen backend and compiled for its instruction set, so that the
//!   kernels inline into it.
//!
//! # How the backends are chosen
//!
//! Each entry point and piece takes the backend measured fastest for it on
//! this class of CPU (a [`Plan`]; [`selection`] says which and why). Every
//! entry point, and every job, goes through one route: the cell's backend,
//! then one match over the backends this build dispatches, generated from
//! one list. Builds differ only in which arms exist and whether the cell
//! is read at run time:
//!
//! * by default, the first call detects the CPU and installs the plan;
//!   later calls read the cell (one relaxed load) and take the arm. A
//!   kernel that can inline into any caller does (PEXT's lookups are `asm!`,
//!   and so is `avx512`'s set-wise fill); the others are one call into code
//!   compiled for their instruction set;
//! * `force-<name>` Cargo features keep only the forced backends' arms
//!   (each cell the class's backend if forced and it runs here, else the
//!   first forced one that runs); a forced backend this CPU lacks is an
//!   error at the first call, never SIGILL;
//! * a build whose target features decide a cell fixes it at compile time
//!   (one arm, no load), as multiversion's static dispatcher does: every
//!   cell without `std` and on wasm32; the cells every class that can run
//!   the build agrees on where it enables an x86-64 level (`-C
//!   target-cpu=native`: on an AVX-512 CPU most cells, on a Zen 3 the
//!   single lookups, since every CPU with VAES has a fast PEXT); every cell
//!   where one forced backend's level is enabled.
//!
//! `HQ_BACKEND=<name>` makes one backend serve every entry point (an
//! unknown name, or a backend this CPU lacks, is an error, never a silent
//! fallback); `HQ_CHOICE=<plan>` sets cells; `HQ_CALIBRATE=1` measures the
//! plan at the first call ([`calibrate`]). [`init`] makes the choice up
//! front and returns errors as values; [`set_backend`] and [`set_plan`]
//! switch later.
//!
//! # Features
//!
//! * `std` (default): run-time CPU detection and everything above. Without
//!   it the crate is `#![no_std]` and the plan is made at compile time from
//!   the build's target features (`-C target-cpu=...`): build with them, or
//!   it runs portable code (on x86-64, about half the default build's
//!   speed; [`selection`]'s text then says so).
//! * `force-<backend>`: see above. `all-backends`: every backend reachable
//!   by `HQ_BACKEND` and [`set_backend`].
//! * `small-tables`: on wasm32, plans whose backends read at most
//!   [`unstable::SMALL_TABLE_BYTES`] of tables each (the classic and HQ
//!   backends, not the magic bitboards'): a much smaller module, at a lower
//!   single-lookup rate (the README's wasm table). No effect elsewhere.

#![no_std]
#[cfg(feature = "std")]
extern crate std;

#[cfg(all(feature = "std", not(target_arch = "wasm32")))]
mod calibrate;
mod dispatch;
#[cfg(feature = "std")]
mod installed;
mod jobs;
mod kernels;
pub mod latency;
mod route;
mod select;

#[cfg(all(feature = "std", not(target_arch = "wasm32")))]
pub use calibrate::{Calibration, Figure};
pub use hq_core::attacks::{
    between, bishop_attacks_const, king_attacks, knight_attacks, line, pawn_attacks,
    queen_attacks_const, ray, rook_attacks_const,
};
pub use hq_core::piece::Color;
pub use hq_core::{
    Bitboard, Direction, Line, ParseSquareError, SliderAttacks, Square, Squares, reference,
};
pub use hq_plan::{BACKEND_VAR, BackendError};
pub use hq_plan::{Backend, Entry, Pieces, Plan, Slider, WithBackend};
pub use select::{Mode, Selection, Source};

use kernels::FreeFunctions;

/// What the running CPU can do: the types of [`BackendError::Unsupported`].
pub mod cpu {
    pub use hq_core::cpu::{Feature, FeatureSet, Level, MissingFeatures};
}

/// Every backend's token type, for direct use.
pub mod backends {
    pub use hq_classic::Classic;
    pub use hq_magic::Magic;
    pub use hq_pext::{Pext, PextPdep};
    pub use hq_reverse::ReverseBitboards;
    pub use hq_scalar::{ScalarRankDiagonal, ScalarRankTable, ScalarReverse};
    pub use hq_simd::{Avx2, Avx512, Neon, Simd128, Ssse3};
    pub use hq_xop::{XopModel, XopSsse3};
}

/// The class table behind the choice, for this workspace's tests and
/// tools: **unstable**, outside semver.
#[doc(hidden)]
pub mod unstable {
    pub use hq_core::cpu::Identity;
    pub use hq_plan::classes::{
        CLASSES, ClassChoice, SMALL_TABLE_BYTES, TARGET_CLASSES, Tie, classify, this_cpu,
    };

    /// The `RUSTFLAGS` that enable `level` on x86-64 (what
    /// `hq::selection()` tells a forced build below its backend's level to
    /// use; the bench matrix builds forced backends at their level so).
    pub const fn level_flags(level: crate::cpu::Level) -> &'static str {
        crate::select::level_flags(level)
    }

    /// The selection the first call would make on a CPU of `identity` (with
    /// this CPU's instruction sets) in an optimised build if `optimised`:
    /// for tests of the default calibration. Installs nothing.
    #[cfg(feature = "std")]
    pub fn selection_for(
        identity: Identity,
        optimised: bool,
    ) -> Result<crate::Selection, crate::BackendError> {
        crate::select::decide_for(identity, optimised)
    }

    /// The plan a calibration starting from `base` chooses from `figures`,
    /// whose rounds are `samples` (one list per figure, rounds in the order
    /// they were timed, paired across figures): for tests of the rule on
    /// figures drawn from committed runs.
    #[cfg(all(feature = "std", not(target_arch = "wasm32")))]
    pub fn calibration_choice(
        base: &crate::Plan,
        figures: &[crate::Figure],
        samples: &[std::vec::Vec<f64>],
    ) -> crate::Plan {
        crate::calibrate::choose(base, figures, samples)
    }

    /// The backend the free functions key for `slider`'s single lookups in
    /// this build (its per-square word holds the lookup's own data, and its
    /// kernel is inlined at every call): the bench matrix's rule for single
    /// lookups keeps it where the hash perft cannot separate it from the
    /// best. Any other backend is reached through the route's call.
    #[cfg(feature = "std")]
    pub const fn keyed_for(slider: crate::Slider) -> Option<crate::Backend> {
        crate::dispatch::keyed_for(slider)
    }

    /// How many times faster a challenger must run for a calibration to
    /// take it.
    #[cfg(all(feature = "std", not(target_arch = "wasm32")))]
    pub const CALIBRATION_GROSS: f64 = crate::calibrate::GROSS;
}

pub use select::{CALIBRATE_VAR, PLAN_VAR};

/// Rook attacks from `sq` over `occupancy`.
#[inline]
pub fn rook_attacks(sq: Square, occupancy: Bitboard) -> Bitboard {
    route::single(Slider::Rook, sq, occupancy)
}

/// Bishop attacks from `sq` over `occupancy`.
#[inline]
pub fn bishop_attacks(sq: Square, occupancy: Bitboard) -> Bitboard {
    route::single(Slider::Bishop, sq, occupancy)
}

/// Queen attacks from `sq` over `occupancy`.
#[inline]
pub fn queen_attacks(sq: Square, occupancy: Bitboard) -> Bitboard {
    route::single(Slider::Queen, sq, occupancy)
}

/// Attacks from `sq` along one `line` (both directions).
#[inline]
pub fn line_attacks(line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
    route::line(line, sq, occupancy)
}

/// Rook attacks of every square in `squares` over one occupancy, into `out`.
///
/// The vector backends store whole registers into `out`. Reading them back
/// with vector loads is cheapest from a buffer on a 16-byte boundary (a
/// `#[repr(align(64))]` wrapper, say): 8 bytes past one, such loads cross
/// the stores' cache lines, which costs a fast batch several per cent.
///
/// # Panics
///
/// If `squares` and `out` differ in length.
#[inline]
pub fn rook_attacks_batch(squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
    jobs::batch::<FreeFunctions>(Slider::Rook, squares, occupancy, out)
}

/// Bishop attacks of every square in `squares` (see [`rook_attacks_batch`]).
#[inline]
pub fn bishop_attacks_batch(squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
    jobs::batch::<FreeFunctions>(Slider::Bishop, squares, occupancy, out)
}

/// Queen attacks of every square in `squares` (see [`rook_attacks_batch`]).
#[inline]
pub fn queen_attacks_batch(squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
    jobs::batch::<FreeFunctions>(Slider::Queen, squares, occupancy, out)
}

/// The union of the attacks of every rook in `rooks` (the rooks block each other).
#[inline]
pub fn rook_attacks_setwise(rooks: Bitboard, occupancy: Bitboard) -> Bitboard {
    route::setwise::<FreeFunctions>(Slider::Rook, rooks, occupancy)
}

/// The union of the attacks of every bishop in `bishops`.
#[inline]
pub fn bishop_attacks_setwise(bishops: Bitboard, occupancy: Bitboard) -> Bitboard {
    route::setwise::<FreeFunctions>(Slider::Bishop, bishops, occupancy)
}

/// The union of the attacks of every queen in `queens`.
#[inline]
pub fn queen_attacks_setwise(queens: Bitboard, occupancy: Bitboard) -> Bitboard {
    route::setwise::<FreeFunctions>(Slider::Queen, queens, occupancy)
}

/// Makes the choice now (once) and reports a broken one as an error: an
/// unknown or unsupported `HQ_BACKEND`, or forced backends this CPU lacks.
///
/// Calling it is optional. Without it the first call that reads the plan
/// chooses, and if the choice is broken (say `HQ_BACKEND=turbo`) that call
/// panics with the same message, in whichever thread made it.
///
/// ```no_run
/// fn main() -> Result<(), Box<dyn std::error::Error>> {
///     // "environment variable HQ_BACKEND="turbo" is invalid: unknown backend ..."
///     hq::init()?;
///     Ok(())
/// }
/// ```
#[cfg(feature = "std")]
pub fn init() -> Result<(), BackendError> {
    installed::selection().map(|_| ())
}

/// The plan in force and why: `println!("{}", hq::selection())`, or its
/// fields. Without `std`, the plan compiled in.
///
/// # Panics
///
/// With `std`, as the free functions, when the choice is broken (see [`init`]).
pub fn selection() -> Selection {
    #[cfg(feature = "std")]
    return installed::selection().unwrap_or_else(|e| panic!("hq: {e}"));
    #[cfg(not(feature = "std"))]
    return select::compiled();
}

/// Switches every entry point to `backend`. An error if this CPU lacks it,
/// or if this build does not dispatch it (or forces others).
#[cfg(feature = "std")]
pub fn set_backend(backend: Backend) -> Result<(), BackendError> {
    installed::replace(Plan::all(backend), Source::SetBackend)
}

/// Installs `plan` for every entry point and piece: say one a calibration
/// printed earlier (`calibration.plan.to_string()`, read back with
/// `parse`). An error if this CPU lacks one of its backends, or if this
/// build does not dispatch one.
///
/// ```standalone_crate
/// let plan = hq::selection().plan;
/// hq::set_plan(plan.to_string().parse()?)?;
/// assert_eq!(hq::selection().plan, plan);
/// # Ok::<(), hq::BackendError>(())
/// ```
#[cfg(feature = "std")]
pub fn set_plan(plan: Plan) -> Result<(), BackendError> {
    installed::replace(plan, Source::SetBackend)
}

/// Measures every candidate here and installs the plan in force with its
/// gross mistakes corrected: a cell changes only where a challenger ran in
/// at most half the time of the plan's backend; the free
/// functions, the latency functions and the jobs run the result from now
/// on, and [`selection`] says "calibrated". Takes at most about 5 ms. It
/// is a safety net for CPU models no committed run measured, not a tuner:
/// within a factor of two, one process's timings are not evidence
/// (`docs/architecture.md`, "Calibration").
///
/// `HQ_CALIBRATE=1` does the same at the first call instead. An engine can
/// keep the result (`calibration.plan.to_string()`) and give it back later
/// through `HQ_CHOICE` or [`set_plan`], skipping the measurement.
///
/// ```standalone_crate
/// let calibration = hq::calibrate()?;
/// println!("{calibration}");
/// assert_eq!(hq::selection().plan, calibration.plan);
/// # Ok::<(), hq::BackendError>(())
/// ```
#[cfg(all(feature = "std", not(target_arch = "wasm32")))]
pub fn calibrate() -> Result<Calibration, BackendError> {
    let calibration = calibrate::measure(selection().plan)?;
    installed::replace(calibration.plan, Source::Calibration)?;
    Ok(calibration)
}

/// Runs `job` with `backend`'s token, compiled for its instruction set, or
/// an error if this CPU lacks it. Any backend, dispatched or not.
pub fn with_backend<W: WithBackend>(backend: Backend, job: W) -> Result<W::Output, BackendError> {
    hq_plan::run_with(backend, job).map_err(BackendError::Unsupported)
}

/// Runs `job` on the single lookups' backend (the queen's), compiled for
/// its instruction set: lookups inline, and so do batches and set-wise
/// calls where their backend's level allows (else one call each).
///
/// The job is monomorphized for the backends some CPU class of the build's
/// target chooses for single lookups, and forced ones; on any other (a
/// research backend named by `HQ_BACKEND`) its lookups go through the free
/// functions. [`with_backend`] reaches every backend.
///
/// # Panics
///
/// As [`selection`].
///
/// ```
/// use hq::{Bitboard, SliderAttacks, Square, WithBackend};
///
/// struct CountQueenMoves(Bitboard);
/// impl WithBackend for CountQueenMoves {
///     type Output = u32;
///     #[inline(always)] // the loop, and the lookups in it, compiled for `B`
///     fn run<B: SliderAttacks>(self, backend: B) -> u32 {
///         Square::ALL.iter().map(|&sq| backend.queen_attacks(sq, self.0).count()).sum()
///     }
/// }
/// assert_eq!(hq::with_active_backend(CountQueenMoves(Bitboard::EMPTY)), 1456);
/// ```
pub fn with_active_backend<W: WithBackend>(job: W) -> W::Output {
    route::route(jobs::Job::<W, { kernels::SINGLE }>(job, Slider::Queen))
}

/// A [`WithBackend`] job from a closure-like body, without the boilerplate
/// (a closure cannot be generic over the backend, so `with_active_backend(|b|
/// ...)` cannot compile: E0282).
///
/// `job!(name: Type = value, ...; |token| -> Output { body })` defines a
/// job struct holding the named values, whose `run` is `#[inline(always)]`
/// (so the body is compiled for the backend's instruction set and its
/// lookups inline) and binds `token` to the backend token and each name to
/// its value. Borrowed values may use the lifetime `'a`. Without values:
/// `job!(|token| -> Output { body })`.
///
/// ```
/// use hq::{Bitboard, SliderAttacks, Square};
///
/// let occupancy = Bitboard::from(Square::D5);
/// let squares = [Square::A1, Square::E4];
/// let mobility = hq::with_active_backend(hq::job!(
///     occupancy: Bitboard = occupancy, squares: &'a [Square] = &squares;
///     |backend| -> u32 {
///         squares.iter().map(|&sq| backend.queen_attacks(sq, occupancy).count()).sum()
///     }
/// ));
/// assert_eq!(mobility, 21 + 24);
/// ```
#[macro_export]
macro_rules! job {
    (|$token:ident| -> $out:ty $body:block) => {
        $crate::job!(; |$token| -> $out $body)
    };
    ($($name:ident: $ty:ty = $value:expr),* $(,)?; |$token:ident| -> $out:ty $body:block) => {{
        struct Job<'a> {
            $($name: $ty,)*
            _borrows: ::core::marker::PhantomData<&'a ()>,
        }
        impl<'a> $crate::WithBackend for Job<'a> {
            type Output = $out;
            #[inline(always)]
            fn run<B: $crate::SliderAttacks>(self, $token: B) -> $out {
                let Job { $($name,)* _borrows: _ } = self;
                $body
            }
        }
        Job {
            $($name: $value,)*
            _borrows: ::core::marker::PhantomData,
        }
    }};
}

/// The crates.io README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
