//! [`Lanes`](crate::vector::Lanes) for each instruction set, and the kernels
//! only one architecture has: one module per architecture, the one of the
//! target compiled in.

cfg_if::cfg_if! {
    if #[cfg(target_arch = "x86_64")] {
        mod x86_64;
        pub(crate) use x86_64::*;
    } else if #[cfg(target_arch = "aarch64")] {
        mod aarch64;
        pub(crate) use aarch64::*;
    } else if #[cfg(target_arch = "wasm32")] {
        mod wasm32;
        pub(crate) use wasm32::*;
    }
}
