//! Lookups for dependency chains: each result feeds the next occupancy (a
//! ray walk over discovered blockers, SEE, x-rays), where what counts is
//! the path from occupancy to attacks, not throughput.
//!
//! The free functions of the crate root are chosen for throughput; these
//! take the backend measured fastest in the `latency` column of the bench
//! matrix, per piece and CPU class (the plan's `latency` entry: a portable
//! first-rank-table HQ on the AMD and Intel AVX-512 runs, whose lookups are
//! short chains of byte swaps and subtractions, PEXT for the Intel
//! bishops). They go through the same route as every entry point.
//! [`with_backend`] runs a whole chain as a job on that backend, which
//! saves each link the route's load and test.
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

use crate::jobs::Job;
use crate::kernels::{LATENCY, LineLookup, Single};
use crate::route::route;
use hq_core::{Bitboard, Line, Square};
use hq_plan::Slider;
use hq_plan::WithBackend;

/// Rook attacks from `sq` over `occupancy`, for dependency chains.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupancy: Bitboard) -> Bitboard {
    route(Single::<LATENCY>(Slider::Rook, sq, occupancy))
}

/// Bishop attacks from `sq` over `occupancy`, for dependency chains.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupancy: Bitboard) -> Bitboard {
    route(Single::<LATENCY>(Slider::Bishop, sq, occupancy))
}

/// Queen attacks from `sq` over `occupancy`, for dependency chains.
#[inline(always)]
pub fn queen_attacks(sq: Square, occupancy: Bitboard) -> Bitboard {
    route(Single::<LATENCY>(Slider::Queen, sq, occupancy))
}

/// Attacks from `sq` along one `line`, for dependency chains (the queen's
/// backend).
#[inline(always)]
pub fn line_attacks(line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
    route(LineLookup::<LATENCY>(line, sq, occupancy))
}

/// Runs `job` with the token of `slider`'s latency backend, compiled for
/// its instruction set: a whole dependency chain (a static exchange
/// evaluation, an x-ray walk) inlined into one function, with no dispatch
/// per link.
///
/// The token's single and line lookups (every piece's) are the latency
/// backend's, inlined; its batches and set-wise calls go through the free
/// functions' route. On a latency backend no class chooses, every lookup
/// of the token goes through the latency functions above.
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
    route(Job::<W, LATENCY>(job, slider))
}
