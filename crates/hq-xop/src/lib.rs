//! AMD XOP `VPPERM`, emulated exactly, and Hyperbola Quintessence written with it.
//!
//! XOP exists only on AMD Bulldozer-family CPUs (2011-2015) and Rust's `xop`
//! target feature is unstable, so this crate *models* the instruction:
//!
//! * [`model`]: the exact software model, written from AMD's definition
//!   (APM vol. 4), with the table of operations and hand-derived test
//!   vectors (tests in `tests/model_vectors.rs`).
//! * [`ssse3`]: the same function with `pshufb` (runs on any x86-64 CPU with SSSE3).
//! * [`avx512`]: four VPPERMs per zmm with AVX-512 VBMI (`vpermi2b`), GFNI
//!   (`vgf2p8affineqb`) and BW (byte masks).
//! * [`backend`]: HQ on all four lines with VPPERM, as the backend tokens
//!   [`XopModel`] (`xop-model`, portable) and [`XopSsse3`] (`xop-ssse3`).
//!
//! The fast versions are checked against the model by proptest on random
//! operands with all 256 selector values (`tests/vpperm.rs`).
//!
//! **No real XOP CPU has checked any of this.** The Bochs emulator in
//! `../shared/avx512-emu` can emulate XOP CPUs, but its VPPERM takes the
//! operands in the wrong roles (its README shows how), so it is no oracle:
//! the model rests on the manual's definition and the hand-derived vectors.
//! The AVX-512 version was run only under that emulator's Tiger Lake model.
//!
//! ```
//! use hq_core::{Bitboard, SliderAttacks, Square};
//! use hq_xop::XopModel;
//!
//! let hq = XopModel::new().unwrap();
//! assert_eq!(hq.queen_attacks(Square::D4, Bitboard::from(Square::D6)).count(), 25);
//! ```

#![no_std]
#[cfg(test)]
extern crate std;

#[cfg(target_arch = "x86_64")]
pub mod avx512;
pub mod backend;
pub mod model;
#[cfg(target_arch = "x86_64")]
pub mod ssse3;

pub use backend::{XopModel, XopSsse3};
