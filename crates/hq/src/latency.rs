//! Lookups for dependency chains: each result feeds the next occupancy (a
//! ray walk over discovered blockers, SEE, x-rays), where what counts is
//! the path from occupancy to attacks, not throughput.
//!
//! The free functions of the crate root are chosen for throughput; these
//! take the backend measured fastest in the `latency` column of the bench
//! matrix, per piece and CPU class ([`crate::choice::Latency`]): a portable
//! first-rank-table HQ on the AMD and Intel AVX-512 runs (its lookups are
//! short dependency chains of byte swaps and subtractions), PEXT for the
//! Intel bishops. `HQ_BACKEND`, [`crate::set_backend`] and forced builds
//! make them the single lookups' backend, as every other entry point.
//! [`with_backend`] runs a whole chain as a job on that backend, which
//! saves each link the test of the installed choice.
//!
//! ```
//! use hq::{Bitboard, Square};
//!
//! // A rook walking through the blockers it discovers: a dependency chain.
//! let mut occupancy = Bitboard::from(Square::E7) | Square::E2;
//! let first = hq::latency::rook_attacks(Square::E4, occupancy);
//! occupancy = occupancy - Square::E7;
//! let second = hq::latency::rook_attacks(Square::E4, occupancy);
//! assert!(first.contains(Square::E7) && second.contains(Square::E8));
//! assert_eq!(first, hq::rook_attacks(Square::E4, occupancy | Square::E7));
//! ```

use crate::{Backend, Bitboard, Line, Single, Slider, SliderAttacks, Square, WithBackend};

/// `T`'s token.
///
/// # Safety
///
/// The CPU must run `T`.
#[inline(always)]
unsafe fn token<T: SliderAttacks>() -> T {
    // SAFETY: the caller's guarantee.
    unsafe { T::new_unchecked() }
}

/// A lookup the latency functions run, and the single-lookup free function
/// that serves it when the latency choice names a backend they do not run.
trait Lookup: WithBackend<Output = Bitboard> {
    fn free_function(self) -> Bitboard;
}

impl Lookup for Single {
    #[inline]
    fn free_function(self) -> Bitboard {
        let Single(slider, sq, occupancy) = self;
        match slider {
            Slider::Rook => crate::rook_attacks(sq, occupancy),
            Slider::Bishop => crate::bishop_attacks(sq, occupancy),
            Slider::Queen => crate::queen_attacks(sq, occupancy),
        }
    }
}

impl Lookup for crate::LineJob {
    #[inline]
    fn free_function(self) -> Bitboard {
        let crate::LineJob(line, sq, occupancy) = self;
        crate::line_attacks(line, sq, occupancy)
    }
}

/// Runs `job` on the token of `Backend::ALL[index]`.
///
/// The two backends the class table chooses for latency (the first-rank
/// table HQ, and PEXT) inline into the caller's chain; the others, and the
/// free function for a backend the latency functions do not run, are one
/// call away. The public functions are `#[inline(always)]`: a dependency
/// chain through a call, or through every backend's path inline, measured
/// slower than this (`benches`: the `hq-latency` row against
/// `scalar-rank-table`'s latency column).
///
/// The backend comes as its index into [`Backend::ALL`], compared with the
/// two inlined backends' indexes (constants): mapping the index to a
/// `Backend` first, and checking it, made the dependency chains
/// measurably longer (the commit that made it so has the figures).
#[inline(always)]
fn on<W: Lookup>(index: usize, job: W) -> Bitboard {
    if index == const { Backend::ScalarRankTable.index() } {
        // SAFETY: portable (needs nothing of the CPU).
        return job.run(unsafe { token::<hq_scalar::ScalarRankTable>() });
    }
    #[cfg(target_arch = "x86_64")]
    if index == const { Backend::Pext.index() } {
        // SAFETY: `pext` is installed as a latency choice only after its CPU
        // check (`dispatch::install`; `fixed::LATENCY` only where the build
        // enables BMI2), and the calibration times it (`served`) only as a
        // candidate that passed `is_supported`.
        return job.run(unsafe { token::<hq_pext::Pext>() });
    }
    others(Backend::ALL[index], job)
}

/// [`on`]'s other backends, out of line.
#[inline(never)]
fn others<W: Lookup>(backend: Backend, job: W) -> Bitboard {
    match backend {
        // SAFETY: portable.
        Backend::ScalarRankDiagonal => job.run(unsafe { token::<hq_scalar::ScalarRankDiagonal>() }),
        // SAFETY: portable.
        Backend::Classic => job.run(unsafe { token::<hq_classic::Classic>() }),
        _ => job.free_function(),
    }
}

/// The backends the latency functions run themselves (any other latency
/// choice would take the single lookups' free function).
pub const SERVED: [Backend; 4] = [
    Backend::ScalarRankTable,
    Backend::ScalarRankDiagonal,
    Backend::Classic,
    Backend::Pext,
];

/// Whether the latency functions run `backend` themselves: it is in
/// [`SERVED`] (`pext` only on x86-64).
pub const fn serves(backend: Backend) -> bool {
    if matches!(backend, Backend::Pext) && !cfg!(target_arch = "x86_64") {
        return false;
    }
    let mut i = 0;
    while i < SERVED.len() {
        if SERVED[i] as u8 == backend as u8 {
            return true;
        }
        i += 1;
    }
    false
}

/// `slider`'s attacks by the latency functions' own kernel of `Backend::ALL[index]`
/// (one of [`SERVED`] that runs here), as they inline it: the
/// calibration's latency candidates.
#[cfg(feature = "std")]
#[inline(always)]
pub(crate) fn served(index: usize, slider: Slider, sq: Square, occupancy: Bitboard) -> Bitboard {
    on(index, Single(slider, sq, occupancy))
}

/// The latency backend of `slider`, as an index into [`Backend::ALL`].
#[inline(always)]
fn backend(slider: Slider) -> usize {
    cfg_if::cfg_if! {
        if #[cfg(feature = "std")] {
            crate::dispatch::latency_index(slider)
        } else {
            crate::fixed::LATENCY.get(slider).index()
        }
    }
}

/// Rook attacks from `sq` over `occupancy`, for dependency chains.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupancy: Bitboard) -> Bitboard {
    on(backend(Slider::Rook), Single(Slider::Rook, sq, occupancy))
}

/// Bishop attacks from `sq` over `occupancy`, for dependency chains.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupancy: Bitboard) -> Bitboard {
    on(
        backend(Slider::Bishop),
        Single(Slider::Bishop, sq, occupancy),
    )
}

/// Queen attacks from `sq` over `occupancy`, for dependency chains.
#[inline(always)]
pub fn queen_attacks(sq: Square, occupancy: Bitboard) -> Bitboard {
    on(backend(Slider::Queen), Single(Slider::Queen, sq, occupancy))
}

/// Runs `job` with the token of `slider`'s latency backend, compiled for
/// its instruction set: a whole dependency chain (a static exchange
/// evaluation, an x-ray walk) inlined into one function, with no dispatch
/// per link. The free functions above test the installed choice on every
/// call, in the caller's own loop; a job pays that once.
///
/// The token's single lookups and line lookups (every piece's, not only
/// `slider`'s) are the latency backend's, inlined; its batches and set-wise
/// calls go to the free functions. A latency backend these functions do not
/// run themselves ([`SERVED`]) gives a token whose every lookup is the free
/// function.
///
/// ```
/// use hq::{Bitboard, SliderAttacks, Slider, Square};
///
/// // A rook on a1 x-rays up the file: the squares it reaches as the
/// // blockers in front of it leave, one by one.
/// let walk = hq::job!(|backend| -> Bitboard {
///     let mut occupancy = Bitboard::from(Square::A3) | Square::A5 | Square::A7;
///     let mut reached = Bitboard::EMPTY;
///     loop {
///         let attacks = backend.rook_attacks(Square::A1, occupancy);
///         reached = reached | attacks;
///         let blockers = attacks & occupancy;
///         if blockers.is_empty() {
///             return reached;
///         }
///         occupancy = occupancy & !blockers;
///     }
/// });
/// let reached = hq::latency::with_backend(Slider::Rook, walk);
/// assert_eq!(reached, hq::rook_attacks(Square::A1, Bitboard::EMPTY));
/// ```
pub fn with_backend<W: WithBackend>(slider: Slider, job: W) -> W::Output {
    match Backend::ALL.get(backend(slider)) {
        // SAFETY: portable (needs nothing of the CPU).
        Some(Backend::ScalarRankTable) => unsafe { run::<hq_scalar::ScalarRankTable, W>(job) },
        // SAFETY: portable.
        Some(Backend::ScalarRankDiagonal) => unsafe {
            run::<hq_scalar::ScalarRankDiagonal, W>(job)
        },
        // SAFETY: portable.
        Some(Backend::Classic) => unsafe { run::<hq_classic::Classic, W>(job) },
        // SAFETY: `pext` is a latency choice only after its CPU check, as
        // in `on`.
        #[cfg(target_arch = "x86_64")]
        Some(Backend::Pext) => unsafe { run::<hq_pext::Pext, W>(job) },
        _ => crate::active::run_free(job),
    }
}

/// Runs `job` with `S`'s single lookups and the free functions' batches and
/// set-wise calls, compiled for `S`'s level.
///
/// # Safety
///
/// The CPU must run `S`.
#[inline(always)]
unsafe fn run<S: SliderAttacks, W: WithBackend>(job: W) -> W::Output {
    // SAFETY: the caller's guarantee.
    let token = unsafe { crate::active::Active::<S>::new_unchecked() };
    token.run_compiled(
        #[inline(always)]
        |t| job.run(t),
    )
}

/// Attacks from `sq` along one `line`, for dependency chains (the queen's
/// backend).
#[inline(always)]
pub fn line_attacks(line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
    on(backend(Slider::Queen), crate::LineJob(line, sq, occupancy))
}
