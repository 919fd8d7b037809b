//! The HQ algorithms, written once over [`Lanes`](crate::vector::Lanes).

#[cfg_attr(target_arch = "wasm32", allow(dead_code))] // simd128 has no variable shifts
pub(crate) mod fill;
pub(crate) mod pair;
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) mod quad;
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) mod soa;
