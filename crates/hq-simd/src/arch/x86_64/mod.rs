//! x86-64: xmm, ymm and zmm lanes, and the SSSE3 rank-on-diagonal rook kernel.

// SSE registers carry the constants (x86_64-unknown-none has none).
#[cfg(target_feature = "sse2")]
pub(crate) mod asm_lookups;
pub(crate) mod evex_fill;
mod lanes;
pub(crate) mod rank_on_diagonal;

pub(crate) use lanes::{Xmm, XmmGfni, Ymm, YmmGfni, Zmm};
