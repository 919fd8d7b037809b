//! The facade (free functions and a job), the PEXT reference and the
//! forced backends' tokens only: the small bench `cargo xtask bench-matrix`
//! builds once per `force-<backend>` feature (`cargo bench -p hq-benches
//! --bench facade --features hq/force-<name>`), so that each forced build
//! compiles little and still has its own PEXT and forced-backend figures
//! to be divided by. A forced portable backend gets its inlined row too:
//! its token row runs as a job at x86-64-v3, where the free functions of
//! the build run at its own level.

use hq_benches::runner::Bench;

fn main() {
    let mut bench = Bench::new();
    bench.add_backend(hq::Backend::Pext);
    for &b in hq::Backend::all()
        .iter()
        .filter(|b| b.is_forced() && **b != hq::Backend::Pext)
    {
        bench.add_backend(b);
        bench.add_inlined(b);
    }
    bench.add_facade();
    bench.add_job();
    bench.run();
}
