//! Every backend of `hq`, the facade, the reference methods (Kogge-Stone,
//! kindergarten, rotated, obstruction difference) and the peer crates, timed by the same loops in one run:
//! throughput, latency, batch, set-wise and cache pressure, for rook, bishop
//! and queen. Each row is checked against `hq::reference` before it is timed.
//!
//! `cargo bench -p hq-benches --bench attacks` (criterion arguments after
//! `--`, e.g. a filter `queen/throughput`). Backends this CPU lacks are listed
//! as skipped, with the missing features. `cargo xtask bench-matrix` runs
//! this in several build configurations and tabulates the results.

mod peers;

use hq_benches::runner::Bench;

fn main() {
    let mut bench = Bench::new();
    bench.add_backends();
    bench.add_facade();
    bench.add_job();
    bench.add_references();
    peers::add_all(&mut bench);
    bench.add_reads_floor();
    bench.run();
}
