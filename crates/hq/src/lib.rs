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
//! Squares use little-endian rank-file mapping (a1 = bit 0, h8 = bit 63);
//! see [`hq_core`].
//!
//! # Entry points
//!
//! * single lookups: [`rook_attacks`], [`bishop_attacks`], [`queen_attacks`], [`line_attacks`];
//! * batches, many squares over one occupancy: [`queen_attacks_batch`] ...;
//! * set-wise, the union over a set of sliders: [`queen_attacks_setwise`] ...;
//! * leapers and lines, `const fn` over `const` tables: [`knight_attacks`],
//!   [`king_attacks`], [`pawn_attacks`], [`between`], [`line()`], and the
//!   portable [`rook_attacks_const`] ... for `const` contexts;
//! * jobs: [`with_active_backend`] runs your loop monomorphized for the
//!   chosen backends and compiled for their instruction set, so the
//!   kernels inline into it — the fastest way to call this crate.
//!
//! # How the backends are chosen
//!
//! Each entry point takes the backend measured fastest for it on this
//! class of CPU ([`choice::CLASSES`]: data, with the measurements behind
//! each row). Where the single lookups are PEXT's, the free functions inline
//! its lookup: one relaxed load fetches the square's PEXT mask, zero unless
//! PEXT is the choice, and a predicted branch tests it (the `pext` is inline
//! assembly, so the caller needs no target feature). Batches whose
//! backend is PEXT run its loop inline the same way, and set-wise calls
//! whose backend is `avx512`'s fill run it as inline assembly in registers
//! 16-31, behind one flag test each. Otherwise the free functions reach
//! the backend through one atomic load and one indirect call per call.
//! [`with_active_backend`] inlines every lookup into a job.
//!
//! A build that enables x86-64-v4 at compile time (`-C target-cpu=native`
//! on an AVX-512 CPU) fixes the single lookups to PEXT, every such class's
//! choice, and inlines them with no test at all ([`STATIC_SINGLES`]); the
//! other entry points are chosen at run time as above.
//!
//! * `HQ_BACKEND=<name>` makes one backend serve every entry point (an
//!   unknown name, or a backend this CPU lacks, is an error, never a silent
//!   fallback).
//! * `force-<name>` Cargo features restrict the choice at compile time to
//!   the forced backends, which then inline into the free functions. They
//!   are additive: with several, each entry point takes the class's choice
//!   if it is forced and runs here, else the first forced backend (in
//!   [`Backend::all`] order) that runs here; the others are ignored, and
//!   [`selection`] says so. A forced build whose forced backends all fail to
//!   run stops at the first call with the reason, never with SIGILL.
//! * [`init`] makes the choice up front and returns errors as values;
//!   [`set_backend`] switches every entry point to one backend.
//!
//! # Features
//!
//! * `std` (default): run-time CPU detection, `HQ_BACKEND`, [`init`],
//!   [`set_backend`] and [`selection`]. Without it the crate is `#![no_std]`
//!   and the choice is made at compile time from the build's target
//!   features (`-C target-cpu=...`), as multiversion's static dispatcher
//!   does: the first vendor-neutral class of [`choice::CLASSES`] whose level
//!   the build enables. The free functions and jobs work the same.
//! * `force-<backend>`: see above. `all-backends`: every backend reachable
//!   by `HQ_BACKEND` and `set_backend`.
//!
//! Latency-bound code (a dependency chain of lookups) may prefer another
//! backend than the throughput-measured choice: the README lists each
//! backend's latency per CPU; take it with [`with_backend`].

#![no_std]
#[cfg(feature = "std")]
extern crate std;

mod active;
mod attacks;
mod backend;
#[cfg(feature = "std")]
pub mod calibrate;
pub mod choice;
#[cfg(feature = "std")]
mod dispatch;
#[cfg(not(feature = "std"))]
mod fixed;
pub mod latency;
mod registry;

pub use attacks::{
    Color, between, bishop_attacks_const, king_attacks, knight_attacks, line, pawn_attacks,
    queen_attacks_const, rook_attacks_const,
};
pub use backend::{BackendError, ENV_VAR};
#[cfg(feature = "std")]
pub use calibrate::{Calibration, calibrate};
pub use choice::{Choice, ClassChoice, Entry, Latency, PieceChoice, Pieces, Plan, Slider};
#[cfg(feature = "std")]
pub use dispatch::{
    CALIBRATE_VAR, Mode, PLAN_VAR, STATIC_SINGLES, Selection, Source, has_setwise_table,
};
pub use hq_core::{
    Bitboard, Direction, LINE_MASKS, Line, LineMasks, ParseSquareError, SliderAttacks, Square,
    Squares, cpu, piece, reference,
};
pub use registry::Backend;

#[cfg(feature = "std")]
use registry::FORCED;

/// The entry-point groups that may each have their own backend.
#[derive(Clone, Copy)]
enum Group {
    Single,
    Batch,
    Setwise,
}

/// Every backend's token type, for direct use.
pub mod backends {
    pub use hq_classic::Classic;
    pub use hq_pext::Pext;
    pub use hq_reverse::ReverseBitboards;
    pub use hq_scalar::{ScalarRankDiagonal, ScalarRankTable, ScalarReverse};
    pub use hq_simd::{Avx2, Avx512, Neon, Simd128, Ssse3};
    pub use hq_xop::{XopModel, XopSsse3};
}

/// One single lookup, as a job (what a forced build inlines).
struct Single(Slider, Square, Bitboard);

impl WithBackend for Single {
    type Output = Bitboard;
    #[inline(always)]
    fn run<B: SliderAttacks>(self, t: B) -> Bitboard {
        self.0.single(t, self.1, self.2)
    }
}

struct LineJob(Line, Square, Bitboard);

impl WithBackend for LineJob {
    type Output = Bitboard;
    #[inline(always)]
    fn run<B: SliderAttacks>(self, t: B) -> Bitboard {
        t.line_attacks(self.0, self.1, self.2)
    }
}

struct Batch<'a>(Slider, &'a [Square], Bitboard, &'a mut [Bitboard]);

impl WithBackend for Batch<'_> {
    type Output = ();
    #[inline(always)]
    fn run<B: SliderAttacks>(self, t: B) {
        self.0.batch(t, self.1, self.2, self.3)
    }
}

struct Setwise(Slider, Bitboard, Bitboard);

impl WithBackend for Setwise {
    type Output = Bitboard;
    #[inline(always)]
    fn run<B: SliderAttacks>(self, t: B) -> Bitboard {
        self.0.setwise(t, self.1, self.2)
    }
}

/// Defines a free entry point: in a forced build the forced backend's job,
/// else the inlined kernel where its backend is installed (`pext`: PEXT
/// single lookups; `inline`: PEXT batches, `avx512`'s set-wise fill), else
/// one indirect call through the installed table; without `std`, the
/// compile-time choice's job ([`fixed`]).
macro_rules! entry_point {
    ($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)?,
     $(check $check:expr,)? $(pext $pext:ident($($pext_arg:expr),*) else $cold:ident,)?
     $(inline $inline:ident($($inline_arg:expr),*),)?
     forced $group:ident($slider:ident) $job:expr, table $table:ident.$field:ident($($call:expr),*)) => {
        $(#[$doc])*
        #[cfg(feature = "std")]
        #[inline]
        pub fn $name($($arg: $ty),*) $(-> $ret)? {
            $($check;)?
            if FORCED {
                return dispatch::forced(Group::$group, Slider::$slider, $job);
            }
            $(
                if let Some(attacks) = dispatch::$pext($($pext_arg),*) {
                    return attacks;
                }
                // Out of line and cold, so that the inlined PEXT lookup is
                // the fall-through path of the caller's loop.
                return dispatch::$cold($($pext_arg),*);
            )?
            $(
                if let Some(attacks) = dispatch::$inline($($inline_arg),*) {
                    return attacks;
                }
            )?
            #[allow(unreachable_code)]
            // SAFETY: the installed table's backend was checked (dispatch::install).
            unsafe { (dispatch::$table().$field)($($call),*) }
        }

        $(#[$doc])*
        #[cfg(not(feature = "std"))]
        #[inline]
        pub fn $name($($arg: $ty),*) $(-> $ret)? {
            $($check;)?
            fixed::run(Group::$group, $job)
        }
    };
}

entry_point!(
    /// Rook attacks from `sq` over `occupancy`.
    rook_attacks(sq: Square, occupancy: Bitboard) -> Bitboard,
    pext pext_rook(sq, occupancy) else cold_rook,
    forced Single(Rook) Single(Slider::Rook, sq, occupancy), table singles.rook(sq, occupancy)
);
entry_point!(
    /// Bishop attacks from `sq` over `occupancy`.
    bishop_attacks(sq: Square, occupancy: Bitboard) -> Bitboard,
    pext pext_bishop(sq, occupancy) else cold_bishop,
    forced Single(Bishop) Single(Slider::Bishop, sq, occupancy), table singles.bishop(sq, occupancy)
);
entry_point!(
    /// Queen attacks from `sq` over `occupancy`.
    queen_attacks(sq: Square, occupancy: Bitboard) -> Bitboard,
    pext pext_queen(sq, occupancy) else cold_queen,
    forced Single(Queen) Single(Slider::Queen, sq, occupancy), table singles.queen(sq, occupancy)
);
entry_point!(
    /// Attacks from `sq` along one `line` (both directions).
    line_attacks(line: Line, sq: Square, occupancy: Bitboard) -> Bitboard,
    pext pext_line(line, sq, occupancy) else cold_line,
    forced Single(Queen) LineJob(line, sq, occupancy), table singles.line(line, (sq, occupancy))
);
entry_point!(
    /// Rook attacks of every square in `squares` over one occupancy, into `out`.
    ///
    /// # Panics
    ///
    /// If `squares` and `out` differ in length.
    rook_attacks_batch(squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]),
    check hq_core::check_batch_lengths(squares.len(), out.len()),
    inline inline_batch(Slider::Rook, squares, occupancy, out),
    forced Batch(Rook) Batch(Slider::Rook, squares, occupancy, out),
    table batches.rook(squares, occupancy, out)
);
entry_point!(
    /// Bishop attacks of every square in `squares` (see [`rook_attacks_batch`]).
    bishop_attacks_batch(squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]),
    check hq_core::check_batch_lengths(squares.len(), out.len()),
    inline inline_batch(Slider::Bishop, squares, occupancy, out),
    forced Batch(Bishop) Batch(Slider::Bishop, squares, occupancy, out),
    table batches.bishop(squares, occupancy, out)
);
entry_point!(
    /// Queen attacks of every square in `squares` (see [`rook_attacks_batch`]).
    queen_attacks_batch(squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]),
    check hq_core::check_batch_lengths(squares.len(), out.len()),
    inline inline_batch(Slider::Queen, squares, occupancy, out),
    forced Batch(Queen) Batch(Slider::Queen, squares, occupancy, out),
    table batches.queen(squares, occupancy, out)
);
entry_point!(
    /// The union of the attacks of every rook in `rooks` (the rooks block each other).
    rook_attacks_setwise(rooks: Bitboard, occupancy: Bitboard) -> Bitboard,
    inline inline_setwise(Slider::Rook, rooks, occupancy),
    forced Setwise(Rook) Setwise(Slider::Rook, rooks, occupancy), table setwise.rook(rooks, occupancy)
);
entry_point!(
    /// The union of the attacks of every bishop in `bishops`.
    bishop_attacks_setwise(bishops: Bitboard, occupancy: Bitboard) -> Bitboard,
    inline inline_setwise(Slider::Bishop, bishops, occupancy),
    forced Setwise(Bishop) Setwise(Slider::Bishop, bishops, occupancy),
    table setwise.bishop(bishops, occupancy)
);
entry_point!(
    /// The union of the attacks of every queen in `queens`.
    queen_attacks_setwise(queens: Bitboard, occupancy: Bitboard) -> Bitboard,
    inline inline_setwise(Slider::Queen, queens, occupancy),
    forced Setwise(Queen) Setwise(Slider::Queen, queens, occupancy),
    table setwise.queen(queens, occupancy)
);

/// Makes the choice now (once) and reports a broken one as an error: an
/// unknown or unsupported `HQ_BACKEND`, or forced backends this CPU lacks.
///
/// Calling it is optional. Without it the first attack call chooses, and
/// if the choice is broken (say `HQ_BACKEND=turbo`) that call panics with
/// the same message, in whichever thread made it: call `init` at start-up
/// to report the error where you can handle it. (Where the build fixes the
/// single lookups at compile time, [`STATIC_SINGLES`], they never read the
/// variable, so only `init` and the other entry points report it.)
///
/// ```no_run
/// fn main() -> Result<(), Box<dyn std::error::Error>> {
///     // "environment variable HQ_BACKEND="turbo" is invalid: unknown backend ..."
///     hq::init()?;
///     Ok(())
/// }
/// ```
#[cfg(feature = "std")]
pub fn init() -> Result<Selection, BackendError> {
    dispatch::selection()
}

/// The choice in force and why, for people (`println!("{}", hq::selection())`).
///
/// # Panics
///
/// As the free functions, when the choice is broken (see [`init`]).
#[cfg(feature = "std")]
pub fn selection() -> Selection {
    init().unwrap_or_else(|e| panic!("hq: {e}"))
}

/// The backend of each entry point (choosing now if no call has yet; the
/// compile-time choice without `std`).
///
/// # Panics
///
/// With `std`, as `selection` (never without).
pub fn active_choice() -> Choice {
    active_plan().choice()
}

/// The backend of each entry point and piece (choosing now if no call has
/// yet; the compile-time choice without `std`).
///
/// # Panics
///
/// With `std`, as `selection` (never without).
pub fn active_plan() -> Plan {
    #[cfg(feature = "std")]
    return selection().plan;
    #[cfg(not(feature = "std"))]
    return fixed::PLAN;
}

/// The backend behind the single-lookup free functions.
///
/// # Panics
///
/// As [`active_choice`].
pub fn active_backend() -> Backend {
    active_choice().single
}

/// Switches every entry point to `backend`. An error if this CPU lacks it,
/// or if this build forces other backends.
#[cfg(feature = "std")]
pub fn set_backend(backend: Backend) -> Result<(), BackendError> {
    dispatch::set(backend)
}

/// Installs `plan` for every entry point and piece: say one a calibration
/// printed earlier (`calibration.plan.to_string()`, read back with
/// `parse`). An error if this CPU lacks one of its backends, if one is not
/// in the run-time dispatch, or if this build forces others.
///
/// ```
/// let plan = hq::active_plan();
/// hq::set_plan(plan.to_string().parse()?)?;
/// assert_eq!(hq::active_plan(), plan);
/// # Ok::<(), hq::BackendError>(())
/// ```
#[cfg(feature = "std")]
pub fn set_plan(plan: Plan) -> Result<(), BackendError> {
    dispatch::set_plan(plan, false)
}

/// A job generic over the backend token, so that it can be monomorphized
/// for whichever backend is chosen at run time (as `pulp`'s `WithSimd`).
///
/// [`with_backend`] and [`with_active_backend`] run the job inside a
/// function compiled for the backend's instruction set; mark `run`
/// `#[inline(always)]` so that it, and the kernels it calls, are compiled
/// there too.
///
/// ```
/// use hq::{Bitboard, SliderAttacks, Square, WithBackend};
///
/// struct CountQueenMoves(Bitboard);
/// impl WithBackend for CountQueenMoves {
///     type Output = u32;
///     #[inline(always)]
///     fn run<B: SliderAttacks>(self, backend: B) -> u32 {
///         // The whole loop is compiled for `B`: lookups inline, no dispatch.
///         Square::ALL.iter().map(|&sq| backend.queen_attacks(sq, self.0).count()).sum()
///     }
/// }
///
/// assert_eq!(hq::with_active_backend(CountQueenMoves(Bitboard::EMPTY)), 1456);
/// ```
pub trait WithBackend {
    /// What the job returns.
    type Output;
    /// Runs the job with a token of the chosen backend.
    fn run<B: SliderAttacks>(self, backend: B) -> Self::Output;
}

/// Runs `job` with `backend`'s token, compiled for its instruction set, or
/// an error if this CPU lacks it.
pub fn with_backend<W: WithBackend>(backend: Backend, job: W) -> Result<W::Output, BackendError> {
    registry::run_with(backend, job).map_err(BackendError::Unsupported)
}

/// Runs `job` with the token of the active choice, compiled for its single
/// backend's instruction set: single lookups inline, and so do batches and
/// set-wise calls where the same backend serves them (else each is one call
/// to the free function).
///
/// The job is monomorphized only for the backends some CPU class of the
/// build's target chooses for single lookups, plus forced ones: on x86-64
/// `pext`, `avx2`, `ssse3` and a token that calls the free functions (used
/// when `HQ_BACKEND` or [`set_backend`] picked another backend); on AArch64
/// and wasm32 two. [`with_backend`] reaches every backend.
///
/// # Panics
///
/// As [`selection`].
pub fn with_active_backend<W: WithBackend>(job: W) -> W::Output {
    active::run_active(active_plan(), job)
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
///
/// let empty_board = hq::with_active_backend(hq::job!(|backend| -> u32 {
///     backend.rook_attacks(Square::A1, Bitboard::EMPTY).count()
/// }));
/// assert_eq!(empty_board, 14);
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
