//! The facade (free functions and a job) and the PEXT reference only: the small bench
//! `cargo xtask bench-matrix` builds once per `force-<backend>` feature
//! (`cargo bench -p hq-benches --bench facade --features hq/force-<name>`),
//! so that each forced build compiles little and still has its own PEXT
//! figure to be divided by.

use hq_benches::runner::Bench;

fn main() {
    let mut bench = Bench::new();
    bench.add_backend(hq::Backend::Pext);
    bench.add_facade();
    bench.add_job();
    bench.run();
}
