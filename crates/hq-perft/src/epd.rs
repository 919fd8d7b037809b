//! The perft-suite format, `FEN ;D1 n ;D2 n ...`, and where the shared
//! suites live.

use std::path::{Path, PathBuf};

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
/// let e = hq_perft::epd::parse_line("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9").unwrap();
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

/// Finds the shared perft folder (`shared/perft`, a sibling of the
/// repository checkout) from `start` upward, if it exists.
pub fn find_shared_perft_dir(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .map(|dir| dir.join("shared").join("perft"))
        .find(|dir| dir.is_dir())
}

/// Reads the suite `name` (for example `"standard.epd"`) from the shared
/// perft folder found from `start` upward.
///
/// `Ok(None)` when the folder or the file is absent (callers print SKIPPED).
///
/// # Errors
///
/// If the file exists but cannot be read or parsed.
pub fn load_shared_suite(start: &Path, name: &str) -> Result<Option<Vec<EpdEntry>>, String> {
    let Some(dir) = find_shared_perft_dir(start) else {
        return Ok(None);
    };
    let path = dir.join(name);
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_suite(&text)
        .map(Some)
        .map_err(|e| format!("{}: {e}", path.display()))
}
