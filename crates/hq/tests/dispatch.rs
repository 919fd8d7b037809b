//! Every registered backend through `hq::with_backend`, the shared suite
//! monomorphized per backend. Apart from `tests/facade.rs`, which every
//! forced build runs as well: these instantiations are the same in every
//! build, and were most of each forced build's compile.

// `with_backend`'s errors name the CPU's features with `std`.
#![cfg(feature = "std")]

use hq::{Backend, BackendError};

mod common;
use common::Suite;

#[test]
fn every_supported_backend_passes_through_generic_dispatch() {
    for &backend in Backend::all() {
        match hq::with_backend(backend, Suite) {
            Ok(report) => {
                assert_eq!(report.backend, backend.name());
                println!("facade: {report}");
            }
            Err(BackendError::Unsupported(missing)) => {
                assert!(!backend.is_supported());
                println!("facade: SKIPPED backend {backend}: {missing}");
            }
            Err(e) => panic!("{e}"),
        }
    }
}
