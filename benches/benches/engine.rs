//! The engine-shaped loops alone (`hq_benches::engine`): every backend's
//! token, the free functions and a job, for the build `cargo xtask
//! bench-matrix` makes with fat LTO and one codegen unit (`runtime-lto`),
//! as an engine's release build is (`cargo bench -p hq-benches --bench
//! engine`, with `CARGO_PROFILE_BENCH_LTO=fat`).

use hq_benches::Workload;
use hq_benches::runner::Bench;

fn main() {
    let mut bench = Bench::new();
    bench.keep_workloads(|w| matches!(w, Workload::Engine(_) | Workload::Throughput));
    for &b in hq::Backend::all() {
        bench.add_backend(b);
    }
    bench.add_facade();
    bench.add_job();
    bench.run();
}
