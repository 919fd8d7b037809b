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
