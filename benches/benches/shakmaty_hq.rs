//! shakmaty's Hyperbola Quintessence build beside the PEXT reference.
//!
//! shakmaty 0.30 chooses magics or HQ with its `magics` feature; one build
//! holds one of them (see `peers/mod.rs`). `cargo xtask bench-matrix` builds
//! this target with `--no-default-features` (which drops `shakmaty/magics`)
//! to time the HQ variant next to its own PEXT figure.

#[allow(dead_code)] // Only the shakmaty part of the peers is used here.
mod peers;

use hq_benches::runner::Bench;

fn main() {
    let mut bench = Bench::new();
    bench.add_backend(hq::Backend::Pext);
    peers::add_shakmaty(&mut bench);
    bench.run();
}
