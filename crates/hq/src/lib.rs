//! Rook, bishop and queen attack sets with the fastest backend this CPU
//! supports: the crate engine authors link.
//!
//! ```
//! use hq::{Bitboard, Square};
//!
//! let occupancy = Bitboard::from(Square::E7) | Bitboard::from(Square::B4);
//! let attacks = hq::rook_attacks(Square::E4, occupancy);
//! assert!(attacks.contains(Square::E7) && !attacks.contains(Square::E8));
//! println!("{attacks}\n(by backend {})", hq::active_backend());
//! ```
//!
//! Squares use little-endian rank-file mapping (a1 = bit 0, h8 = bit 63);
//! see [`hq_core`].
//!
//! # Choosing the backend
//!
//! * By default the first call detects the CPU and picks the fastest
//!   supported backend ([`Backend::all`] lists them in order of preference);
//!   `HQ_BACKEND=<name>` in the environment overrides that choice.
//! * A `force-<name>` Cargo feature fixes the backend at compile time. Two
//!   at once are a compile error. If the CPU lacks the forced backend's
//!   features the first call stops with a message naming them — never SIGILL.
//! * [`init`] makes the choice up front and returns errors (unknown
//!   `HQ_BACKEND`, unsupported CPU) as values instead of panicking at the
//!   first call; [`set_backend`] switches backends at run time.
//! * For the hottest loops, [`with_active_backend`] runs your code
//!   monomorphized for the chosen backend: no indirect call per lookup.
//!
//! The free functions panic only on a broken choice made by the user
//! (`HQ_BACKEND` naming an unknown or unsupported backend, a forced backend
//! the CPU lacks), with the message [`BackendError`] gives; call [`init`]
//! first to handle those as errors.

mod backend;
mod dispatch;
mod registry;

pub use backend::{Backend, BackendError, ENV_VAR, cpu_has_feature};
pub use hq_core::{
    Bitboard, Direction, LINE_MASKS, Line, LineMasks, ParseSquareError, SliderAttacks, Square,
    piece, reference,
};

/// Every backend crate, re-exported for direct use of their tokens.
pub mod backends {
    pub use hq_avx2::Avx2;
    pub use hq_avx512::Avx512;
    pub use hq_classic::Classic;
    pub use hq_reverse::ReverseBitboards;
    pub use hq_scalar::{ScalarRankDiagonal, ScalarRankTable, ScalarReverse};
    pub use hq_ssse3::Ssse3;
    pub use hq_xop::XopModel;
    pub use hq_xop::XopSsse3;
}

/// Rook attacks from `sq` over `occupancy`.
#[inline]
pub fn rook_attacks(sq: Square, occupancy: Bitboard) -> Bitboard {
    dispatch::selected().rook_attacks(sq, occupancy)
}

/// Bishop attacks from `sq` over `occupancy`.
#[inline]
pub fn bishop_attacks(sq: Square, occupancy: Bitboard) -> Bitboard {
    dispatch::selected().bishop_attacks(sq, occupancy)
}

/// Queen attacks from `sq` over `occupancy`.
#[inline]
pub fn queen_attacks(sq: Square, occupancy: Bitboard) -> Bitboard {
    dispatch::selected().queen_attacks(sq, occupancy)
}

/// Attacks from `sq` along one `line`.
#[inline]
pub fn line_attacks(line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
    dispatch::selected().line_attacks(line, sq, occupancy)
}

/// Rook attacks of every square in `squares` over one occupancy, into `out`.
///
/// # Panics
///
/// If `squares` and `out` differ in length.
#[inline]
pub fn rook_attacks_batch(squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
    dispatch::selected().rook_attacks_batch(squares, occupancy, out)
}

/// Bishop attacks of every square in `squares` (see [`rook_attacks_batch`]).
#[inline]
pub fn bishop_attacks_batch(squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
    dispatch::selected().bishop_attacks_batch(squares, occupancy, out)
}

/// Queen attacks of every square in `squares` (see [`rook_attacks_batch`]).
#[inline]
pub fn queen_attacks_batch(squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
    dispatch::selected().queen_attacks_batch(squares, occupancy, out)
}

/// The union of the attacks of every rook in `rooks` (the rooks block each other).
#[inline]
pub fn rook_attacks_setwise(rooks: Bitboard, occupancy: Bitboard) -> Bitboard {
    dispatch::selected().rook_attacks_setwise(rooks, occupancy)
}

/// The union of the attacks of every bishop in `bishops`.
#[inline]
pub fn bishop_attacks_setwise(bishops: Bitboard, occupancy: Bitboard) -> Bitboard {
    dispatch::selected().bishop_attacks_setwise(bishops, occupancy)
}

/// The union of the attacks of every queen in `queens`.
#[inline]
pub fn queen_attacks_setwise(queens: Bitboard, occupancy: Bitboard) -> Bitboard {
    dispatch::selected().queen_attacks_setwise(queens, occupancy)
}

/// How the backend is chosen in this build.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Selection {
    /// Fixed by a `force-*` Cargo feature.
    Forced,
    /// Fixed at compile time by the enabled target features.
    CompileTime,
    /// Detected at the first call (or `HQ_BACKEND`).
    RunTime,
}

/// How this build chooses its backend.
pub const fn selection() -> Selection {
    match dispatch::STATIC_BACKEND {
        None => Selection::RunTime,
        Some(_) if FORCED => Selection::Forced,
        Some(_) => Selection::CompileTime,
    }
}

macro_rules! any_forced {
    ($(($variant:ident, $token:path, $feature:literal)),* $(,)?) => { false $(|| cfg!(feature = $feature))* };
}
const FORCED: bool = registry::for_each_backend!(any_forced);

/// Makes the backend choice now and reports a broken one as an error:
/// an unknown or unsupported `HQ_BACKEND`, or a forced backend this CPU lacks.
///
/// Calling it is optional; without it the first attack call chooses (and
/// panics with the same message if the choice is broken).
pub fn init() -> Result<Backend, BackendError> {
    match dispatch::STATIC_BACKEND {
        Some(backend) => dispatch::check_static(backend),
        None => dispatch::runtime::try_install()
            .map(|t| t.backend.expect("installed tables name their backend")),
    }
}

/// The backend behind the free functions (choosing it now if no call has yet).
///
/// # Panics
///
/// As the free functions, when the choice is broken (see [`init`]).
pub fn active_backend() -> Backend {
    match init() {
        Ok(b) => b,
        Err(e) => panic!("hq: {e}"),
    }
}

/// The backend behind the batch entry points: the same as [`active_backend`],
/// except in builds with AVX2 or AVX-512 enabled at compile time, which take
/// single lookups from `scalar-rank-table` and batches from the SIMD backend
/// (the measured best of each; README, "Choosing").
pub fn active_batch_backend() -> Backend {
    dispatch::STATIC_BATCH_BACKEND.unwrap_or_else(active_backend)
}

/// Switches the free functions to `backend` (run-time dispatch builds only).
///
/// An error if the CPU lacks the backend, or if this build fixed its backend
/// at compile time (a `force-*` feature or static target features) and
/// `backend` is another one.
pub fn set_backend(backend: Backend) -> Result<(), BackendError> {
    match dispatch::STATIC_BACKEND {
        Some(fixed) if fixed == backend => dispatch::check_static(fixed).map(drop),
        Some(fixed) => Err(BackendError::Conflict {
            fixed,
            requested: backend,
        }),
        None => dispatch::runtime::set(backend),
    }
}

/// A job generic over the backend token, so that it can be monomorphized
/// for whichever backend is chosen at run time (as `pulp`'s `WithSimd`).
///
/// ```
/// use hq::{Bitboard, SliderAttacks, Square, WithBackend};
///
/// struct CountQueenMoves(Bitboard);
/// impl WithBackend for CountQueenMoves {
///     type Output = u32;
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

/// Runs `job` monomorphized for `backend`, or an error if this CPU lacks it.
pub fn with_backend<W: WithBackend>(backend: Backend, job: W) -> Result<W::Output, BackendError> {
    backend.check_supported()?;
    // SAFETY: `check_supported` just confirmed the CPU runs this backend.
    Ok(unsafe { backend::run_unchecked(backend, job) })
}

/// Runs `job` monomorphized for the backend the free functions use.
///
/// # Panics
///
/// As the free functions, when the choice is broken (see [`init`]).
pub fn with_active_backend<W: WithBackend>(job: W) -> W::Output {
    let backend = active_backend();
    // SAFETY: `active_backend` only returns backends it checked are supported.
    unsafe { backend::run_unchecked(backend, job) }
}
