//! x86-64: xmm, ymm and zmm lanes, and the SSSE3 rank-on-diagonal rook kernel.

// SSE registers carry the constants (x86_64-unknown-none has none).
#[cfg(target_feature = "sse2")]
pub(crate) mod asm_lookups;
pub(crate) mod evex_fill;
mod lanes;
pub(crate) mod rank_on_diagonal;

pub(crate) use lanes::{Xmm, XmmGfni, Ymm, YmmGfni, Zmm};

/// Bytes of the tables of the `asm!` kernels for callers of any level
/// (`asm_lookups::sse`, `ssse3`), 0 where they are not compiled
/// (no SSE2: the tokens have no such forms there).
#[cfg(target_feature = "sse2")]
pub(crate) const SSE_LOOKUP_TABLE_BYTES: usize = asm_lookups::sse::TABLE_BYTES;
/// See above.
#[cfg(not(target_feature = "sse2"))]
pub(crate) const SSE_LOOKUP_TABLE_BYTES: usize = 0;

/// [`SSE_LOOKUP_TABLE_BYTES`] of `asm_lookups::vex` (`avx2`).
#[cfg(target_feature = "sse2")]
pub(crate) const VEX_LOOKUP_TABLE_BYTES: usize = asm_lookups::vex::TABLE_BYTES;
/// See above.
#[cfg(not(target_feature = "sse2"))]
pub(crate) const VEX_LOOKUP_TABLE_BYTES: usize = 0;

/// [`SSE_LOOKUP_TABLE_BYTES`] of `asm_lookups::evex` (`avx512`).
#[cfg(target_feature = "sse2")]
pub(crate) const EVEX_LOOKUP_TABLE_BYTES: usize = asm_lookups::evex::TABLE_BYTES;
/// See above.
#[cfg(not(target_feature = "sse2"))]
pub(crate) const EVEX_LOOKUP_TABLE_BYTES: usize = 0;
