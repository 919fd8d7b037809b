//! How much a run samples, and when it stops sampling a row: shared by
//! the run, the perft stage and the statistics.

/// How much the run samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    /// Fresh processes per bench binary.
    pub processes: usize,
    /// Rounds per process.
    pub rounds: usize,
    /// Microseconds per cell and round (four times that under cache pressure).
    pub sample_us: u64,
    /// Fresh processes of the perft example per build.
    pub perft_processes: usize,
    /// Rounds per perft process.
    pub perft_rounds: usize,
    /// Seconds for sampling wide deciding cells further.
    pub resample_seconds: f64,
    /// Seconds for sampling wide deciding perft rows further.
    pub perft_resample_seconds: f64,
    /// Code layouts of each bench binary, its processes taking them in
    /// turn: one per process (relinking is about a second each), so that
    /// each process is a sample of layout as well as of the machine's
    /// state. With three layouts for twelve processes, two layouts that
    /// put the `hq` bishop throughput loop's closing branch across a
    /// 64-byte line made 0.62x `pext` the runtime build's figure (AMD Zen
    /// 5, 65dd0ba: 0.72x and 0.76x in those layouts, 1.02x in the third).
    pub layouts: usize,
    /// Code layouts of each perft example (`--full` only: each is its
    /// dozens of perft copies compiled again, 1-1.5 minutes).
    pub perft_layouts: usize,
}

/// A row slower than this many times the fastest of its workload is timed
/// no further: after a process's first round, and after a build's first
/// [`PRUNE_AFTER`] processes (the later ones run only the rows within reach
/// on every workload). It decides nothing.
pub(crate) const PRUNE: f64 = 1.5;

/// The processes that run every row before [`PRUNE`] drops any, a row being
/// dropped only where each of them found it out of reach: one process's
/// one round can fall in a burst of another tenant's load and drop the
/// row that decides (the commit message of this rule has the run).
pub(crate) const PRUNE_AFTER: usize = 2;
