//! What several of the facade's test files share (a module of each, as
//! cargo builds every file under `tests/` as its own crate).

use hq::{SliderAttacks, WithBackend};

/// The shared suite (quick depth), monomorphized per backend.
pub struct Suite;
impl WithBackend for Suite {
    type Output = hq_testkit::Report;
    #[inline(always)]
    fn run<B: SliderAttacks>(self, backend: B) -> hq_testkit::Report {
        match hq_testkit::check(backend, hq_testkit::Depth::Quick.scaled()) {
            Ok(report) => report,
            Err(e) => panic!("{e}"),
        }
    }
}
