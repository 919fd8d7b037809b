//! The vocabulary of `hq-attacks`'s choice: what can be chosen and what
//! each CPU class chooses, without the dispatch that acts on it.
//!
//! ```text
//! registry   the one backend list (backend_list!), Backend and its facts, WithBackend
//! plan       entry points, pieces, a plan of a backend per entry point and piece
//! text       a plan's text form (HQ_CHOICE, a calibration's output)
//! classes    the CPU class table, and the cells a build fixes at compile time
//! error      BackendError, and backends by name
//! ```
//!
//! Use it through `hq-attacks` (library `hq`), which re-exports the public
//! types; the items hidden from these docs are the facade's internals,
//! outside semver. Its `std`, `all-backends` and `force-*` features are set
//! by the facade's features of the same names.

#![no_std]
#[cfg(feature = "std")]
extern crate std;

pub mod classes;
mod error;
mod plan;
mod registry;
#[cfg(feature = "std")]
mod text;

pub use error::{BACKEND_VAR, BackendError};
pub use plan::{Entry, Pieces, Plan, Slider};
pub use registry::{Backend, WithBackend};
#[doc(hidden)]
pub use registry::{FORCED, run_with};
