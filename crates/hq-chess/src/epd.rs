//! The perft-suite format, `FEN ;D1 n ;D2 n ...`, and the published suites
//! this repository carries ([`Suite`]).

/// One line of a perft suite: a FEN and the expected count per depth.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EpdEntry {
    /// The FEN, as written.
    pub fen: String,
    /// `(depth, nodes)`, in the order given.
    pub counts: Vec<(u32, u64)>,
}

impl EpdEntry {
    /// The expected count at `depth`, if the line has one.
    pub fn expected(&self, depth: u32) -> Option<u64> {
        self.counts
            .iter()
            .find(|&&(d, _)| d == depth)
            .map(|&(_, n)| n)
    }

    /// The deepest depth the line gives.
    pub fn max_depth(&self) -> u32 {
        self.counts.iter().map(|&(d, _)| d).max().unwrap_or(0)
    }
}

/// Parses one suite line.
///
/// # Errors
///
/// A message naming the part that is not `;Dk n`.
///
/// ```
/// let e = hq_chess::epd::parse_line("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9").unwrap();
/// assert_eq!(e.expected(2), Some(9));
/// ```
pub fn parse_line(line: &str) -> Result<EpdEntry, String> {
    let mut parts = line.split(';');
    let fen = parts.next().unwrap_or("").trim().to_string();
    let counts = parts
        .map(|part| {
            let part = part.trim();
            let (d, n) = part
                .strip_prefix('D')
                .and_then(|rest| rest.split_once(char::is_whitespace))
                .ok_or_else(|| format!("expected \";Dk n\", found {part:?}"))?;
            let depth = d.parse().map_err(|_| format!("bad depth in {part:?}"))?;
            let nodes = n
                .trim()
                .parse()
                .map_err(|_| format!("bad node count in {part:?}"))?;
            Ok((depth, nodes))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(EpdEntry { fen, counts })
}

/// Parses a whole suite (blank lines skipped); errors name the line number.
///
/// # Errors
///
/// The first line that does not parse.
pub fn parse_suite(text: &str) -> Result<Vec<EpdEntry>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| parse_line(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// The published perft suites, part of this repository (`suites/`; where
/// they come from and how they were checked: `suites/SOURCES.md`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Suite {
    /// `standard.epd`: 85 positions, depths up to 7.
    Standard,
    /// `chess960.epd`: 967 Chess960 positions, depths up to 6.
    Chess960,
}

impl Suite {
    /// Both suites.
    pub const ALL: [Suite; 2] = [Suite::Standard, Suite::Chess960];

    /// The file name.
    pub const fn file_name(self) -> &'static str {
        match self {
            Suite::Standard => "standard.epd",
            Suite::Chess960 => "chess960.epd",
        }
    }

    /// The file's text (compiled in, so tests on emulated CPUs have it too).
    pub const fn text(self) -> &'static str {
        match self {
            Suite::Standard => include_str!("../suites/standard.epd"),
            Suite::Chess960 => include_str!("../suites/chess960.epd"),
        }
    }

    /// The parsed entries.
    ///
    /// # Panics
    ///
    /// If the committed file does not parse (a test checks it does).
    pub fn entries(self) -> Vec<EpdEntry> {
        parse_suite(self.text()).unwrap_or_else(|e| panic!("{}: {e}", self.file_name()))
    }
}

/// What [`check_suite`] found.
#[cfg(feature = "runners")]
#[derive(Clone, Debug, Default)]
pub struct SuiteOutcome {
    /// One line per count that differs (or FEN rejected), sorted.
    pub mismatches: Vec<String>,
    /// Nodes counted in all.
    pub nodes: u64,
    /// Counts compared.
    pub checks: u64,
}

/// One suite line to check: every listed depth of `entry` up to `depth`.
#[cfg(feature = "runners")]
#[derive(Clone, Copy, Debug)]
pub struct SuiteCase<'a> {
    /// The 1-based line, for the report.
    pub line: usize,
    /// The position and its counts.
    pub entry: &'a EpdEntry,
    /// The deepest depth checked.
    pub depth: u32,
}

/// Perft of every entry at every listed depth up to `max_depth`, over
/// `threads` worker threads, with `backend` (`None`: hq's choice for this
/// CPU, `hq::with_active_backend`). The perft is compiled here, in this
/// optimised library, whatever the caller's profile.
///
/// # Errors
/// The backend cannot run on this CPU.
#[cfg(feature = "runners")]
pub fn check_suite(
    entries: &[EpdEntry],
    max_depth: u32,
    threads: usize,
    backend: Option<hq::Backend>,
) -> Result<SuiteOutcome, hq::BackendError> {
    let cases: Vec<SuiteCase<'_>> = entries
        .iter()
        .enumerate()
        .map(|(i, entry)| SuiteCase {
            line: i + 1,
            entry,
            depth: max_depth,
        })
        .collect();
    check_cases(&cases, threads, backend)
}

/// [`check_suite`] with a depth per line.
///
/// # Errors
/// The backend cannot run on this CPU.
#[cfg(feature = "runners")]
pub fn check_cases(
    cases: &[SuiteCase<'_>],
    threads: usize,
    backend: Option<hq::Backend>,
) -> Result<SuiteOutcome, hq::BackendError> {
    crate::perft::on_backend(
        backend,
        SuiteJob {
            cases,
            threads: threads.max(1),
        },
    )
}

/// Runs the cases with one backend over `threads` worker threads.
#[cfg(feature = "runners")]
struct SuiteJob<'a> {
    cases: &'a [SuiteCase<'a>],
    threads: usize,
}

#[cfg(feature = "runners")]
impl hq::WithBackend for SuiteJob<'_> {
    type Output = SuiteOutcome;
    fn run<B: hq::SliderAttacks>(self, token: B) -> SuiteOutcome {
        use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
        let next = AtomicUsize::new(0);
        let nodes = AtomicU64::new(0);
        let checks = AtomicU64::new(0);
        let mismatches = std::sync::Mutex::new(Vec::new());
        let work = || {
            while let Some(case) = self.cases.get(next.fetch_add(1, Ordering::Relaxed)) {
                let (found, counted, compared) = check_case(case, token);
                nodes.fetch_add(counted, Ordering::Relaxed);
                checks.fetch_add(compared, Ordering::Relaxed);
                if !found.is_empty() {
                    mismatches
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .extend(found);
                }
            }
        };
        std::thread::scope(|scope| {
            for _ in 1..self.threads {
                // Where threads cannot start (WASI), the calling thread,
                // which always takes its share, does all the work.
                if std::thread::Builder::new()
                    .spawn_scoped(scope, work)
                    .is_err()
                {
                    break;
                }
            }
            work();
        });
        let mut mismatches = mismatches.into_inner().unwrap_or_else(|e| e.into_inner());
        mismatches.sort();
        SuiteOutcome {
            mismatches,
            nodes: nodes.into_inner(),
            checks: checks.into_inner(),
        }
    }
}

/// Checks every listed depth of one case: the mismatches, the nodes
/// counted and the counts compared.
#[cfg(feature = "runners")]
fn check_case<B: hq::SliderAttacks>(case: &SuiteCase<'_>, token: B) -> (Vec<String>, u64, u64) {
    let (entry, line) = (case.entry, case.line);
    let position = match crate::Position::from_fen(&entry.fen) {
        Ok(p) => p,
        Err(e) => return (vec![format!("line {line}: FEN rejected: {e}")], 0, 0),
    };
    let (mut found, mut nodes, mut checks) = (Vec::new(), 0, 0);
    for &(depth, expected) in entry.counts.iter().filter(|&&(d, _)| d <= case.depth) {
        let got = crate::perft(&position, depth, token);
        nodes += got;
        checks += 1;
        if got != expected {
            found.push(format!(
                "line {line} D{depth}: expected {expected}, got {got} ({})",
                entry.fen
            ));
        }
    }
    (found, nodes, checks)
}
