//! What a step of `cargo xtask test` did not run, and whether another step
//! ran it. A skip is never a pass:
//!
//! * a step whose tool is missing (a rustup target, nightly, qemu, the
//!   emulator) says `SKIPPED` with the command that installs it, through
//!   [`missing_tool`]; under [`REQUIRE_TOOLS`] (`.ci/run` sets it, having
//!   installed them all) it fails instead;
//! * every `SKIPPED` line a step prints (its tests' included) is covered
//!   only where a step that passed ran what it left out: a skipped backend
//!   by a step whose log has that backend's suite against the oracle (a
//!   backend this CPU lacks, on an emulated CPU that has it; an x86-64
//!   backend skipped on aarch64, natively), a `SKIPPED <what>: <why>` by a
//!   step that passed and printed `RAN <what>` (a test prints it where it
//!   ran what it skips elsewhere: [`ran_marks`]), anything else where
//!   [`COVERED_BY`] names a step that passed without skipping it. What the
//!   test command does not claim to run at all is [`NOT_CLAIMED`], each
//!   with why. Otherwise the step counts as incomplete, not passed, and
//!   the summary names what it left out.

use anyhow::bail;

/// The environment variable under which a missing tool fails its step.
pub const REQUIRE_TOOLS: &str = "XTASK_REQUIRE_TOOLS";

/// A tool `what` needs is missing (`why`, with the command that installs
/// it): a `SKIPPED` line, or under [`REQUIRE_TOOLS`] an error.
pub fn missing_tool(what: &str, why: &str) -> anyhow::Result<()> {
    if std::env::var_os(REQUIRE_TOOLS).is_some_and(|v| v == "1") {
        bail!("{what}: {why}; {REQUIRE_TOOLS}=1 makes a missing tool a failure");
    }
    println!("SKIPPED {what}: {why}");
    Ok(())
}

/// Which step runs what a `SKIPPED` line left out: `(text, step, what)`,
/// the line matching when it contains `text` (ASCII case ignored).
pub const COVERED_BY: &[(&str, &str, &str)] = &[
    (
        "avx512",
        "emulated AVX-512 CPU",
        "the AVX-512 backends' suites, on an emulated CPU that has them",
    ),
    (
        "avx-512",
        "emulated AVX-512 CPU",
        "the AVX-512 code, on an emulated CPU that has it",
    ),
    (
        "zmm",
        "emulated AVX-512 CPU",
        "the zmm lanes, on an emulated CPU that has AVX-512",
    ),
    (
        "x86-64-v4",
        "emulated AVX-512 CPU",
        "code at x86-64-v4, on an emulated CPU that has it",
    ),
    (
        "runs avx-512 natively",
        "workspace tests",
        "the AVX-512 code, natively",
    ),
    (
        "backend neon",
        "cross targets",
        "the neon suite, on aarch64 under qemu",
    ),
    (
        "backend simd128",
        "cross targets",
        "the simd128 suite, on wasm32 +simd128 under Node",
    ),
    (
        "no threads on wasi",
        "workspace tests",
        "the threaded perft, natively",
    ),
    (
        "wasi has no threads",
        "workspace tests",
        "the threaded perft, natively",
    ),
    (
        "wasm has no processes",
        "workspace tests",
        "the check that runs a process, natively",
    ),
    (
        "a wasm test reads no files",
        "workspace tests",
        "the check that reads the sources, natively",
    ),
    ("under miri", "workspace tests", "the timed check, natively"),
    (
        "wasm32 fixes every cell",
        "workspace tests",
        "the calibration, natively",
    ),
    (
        "fixes every cell at compile time: nothing to calibrate",
        "workspace tests",
        "the calibrated rows' calibration, natively",
    ),
    (
        "too few for any interval",
        "workspace tests",
        "the gross-mistake calibration, in the tests' optimised build",
    ),
    (
        "names no committed run",
        "workspace tests",
        "the calibration of a measured model, natively where a committed run measured this CPU",
    ),
    (
        "does not dispatch xop-model",
        "workspace tests",
        "the gross-mistake calibration, in the build that dispatches xop-model",
    ),
];

/// `SKIPPED` lines of what the test command does not claim to run:
/// `(text, why)`, the line matching when it contains `text` (ASCII case
/// ignored).
pub const NOT_CLAIMED: &[(&str, &str)] = &[
    (
        "backend never-supported",
        "the test kit's check of its own skip message, on a token no CPU runs",
    ),
    (
        "the adoption cost (a quick or partial run)",
        "measured, not tested: builds of a user program in a full `cargo xtask bench-matrix`",
    ),
    (
        "the board-option rows",
        "bench rows of hq-chess's board options, in a full run; the options' perft counts are \
         hq-chess's tests",
    ),
    (
        "a wasm32 run has no perft yet",
        "the wasm32 runs time the attack loops; perft on wasm32 is not measured yet",
    ),
    (
        "chess-bmi2",
        "the peer crate chess built with BMI2, a row of a full run's native build",
    ),
];

/// The backend a `SKIPPED` line says cannot run (`backend NAME cannot
/// run`), if it names one.
fn skipped_backend(line: &str) -> Option<&str> {
    line.match_indices("backend ").find_map(|(at, word)| {
        let (name, rest) = line[at + word.len()..].split_once(' ')?;
        rest.starts_with("cannot run").then_some(name)
    })
}

/// The backends a step's log reports checked against the oracle
/// (`hq-testkit: backend NAME checked against the oracle`).
pub fn checked_backends(log: &str) -> Vec<String> {
    const CHECKED: &str = "hq-testkit: backend ";
    let mut names: Vec<String> = log
        .lines()
        .filter_map(|l| {
            let (_, rest) = l.split_once(CHECKED)?;
            let (name, rest) = rest.split_once(' ')?;
            rest.starts_with("checked against the oracle")
                .then(|| name.to_owned())
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// What a step's log says it ran: the `<what>` of each `RAN <what>` line
/// (after any prefix such as `hq-core: `), which covers a `SKIPPED
/// <what>: <why>` elsewhere.
pub fn ran_marks(log: &str) -> Vec<String> {
    let mut marks: Vec<String> = log
        .lines()
        .filter_map(|l| {
            let at = l.find("RAN ")?;
            // A mark starts its line or follows a `name: ` prefix.
            let before = l[..at].trim_end();
            (before.is_empty() || before.ends_with(':') || before.ends_with('|'))
                .then(|| l[at + 4..].trim().to_owned())
        })
        .filter(|m| !m.is_empty())
        .collect();
    marks.sort();
    marks.dedup();
    marks
}

/// The `<what>` of a `SKIPPED <what>: <why>` line (`None` without one).
fn skipped_what(line: &str) -> Option<&str> {
    let rest = &line[line.find("SKIPPED ")? + "SKIPPED ".len()..];
    let (what, _) = rest.split_once(": ")?;
    Some(what.trim()).filter(|w| !w.is_empty())
}

/// The `SKIPPED` lines of a step's log, trimmed (each distinct line once).
pub fn skipped_lines(log: &str) -> Vec<String> {
    let mut lines: Vec<String> = log
        .lines()
        .filter_map(|l| {
            let at = l.find("SKIPPED")?;
            // The skip itself, without the emulator's `    | ` frame.
            Some(l[at..].trim().to_owned())
        })
        .collect();
    lines.sort();
    lines.dedup();
    lines
}

/// The rows of [`COVERED_BY`] that `line` matches.
fn covering(
    line: &str,
) -> impl Iterator<Item = &'static (&'static str, &'static str, &'static str)> {
    let line = line.to_ascii_lowercase();
    COVERED_BY
        .iter()
        .filter(move |(text, ..)| line.contains(text))
}

/// A finished step, as the summary judges skips.
pub struct Ran<'a> {
    /// The step's name.
    pub name: &'a str,
    /// Whether it exited successfully.
    pub passed: bool,
    /// Its `SKIPPED` lines.
    pub skipped: Vec<String>,
    /// The backends it checked against the oracle ([`checked_backends`]).
    pub checked: Vec<String>,
    /// What it says it ran ([`ran_marks`]).
    pub ran: Vec<String>,
}

/// Whether step `by` covers what a row of [`COVERED_BY`] names: it passed,
/// and skipped none of the things the rows name it for.
fn covers(steps: &[Ran<'_>], by: &str) -> bool {
    steps.iter().any(|s| {
        s.name == by
            && s.passed
            && !s
                .skipped
                .iter()
                .any(|l| covering(l).any(|(_, step, _)| *step == by))
    })
}

/// What covers `line`, skipped by step `own`, for the summary (`None`:
/// nothing).
pub fn covered_by(steps: &[Ran<'_>], line: &str, own: &str) -> Option<String> {
    let lower = line.to_ascii_lowercase();
    if let Some((_, why)) = NOT_CLAIMED.iter().find(|(text, _)| lower.contains(text)) {
        return Some(format!("nothing: not claimed by the test command ({why})"));
    }
    // Another configuration of the same step may have run the backend
    // (wasm32 with and without `+simd128`).
    if let Some(backend) = skipped_backend(line)
        && let Some(by) = steps
            .iter()
            .find(|s| s.passed && s.checked.iter().any(|c| c == backend))
    {
        return Some(format!("backend {backend}'s suite (step '{}')", by.name));
    }
    if let Some(what) = skipped_what(line)
        && let Some(by) = steps
            .iter()
            .find(|s| s.passed && s.ran.iter().any(|r| r == what))
    {
        return Some(format!("{what} (step '{}')", by.name));
    }
    covering(line)
        .find(|(_, by, _)| *by != own && covers(steps, by))
        .map(|(_, by, what)| format!("{what} (step '{by}')"))
}

/// Per step, the `SKIPPED` lines no other step covers.
pub fn uncovered<'a>(steps: &'a [Ran<'a>]) -> Vec<(&'a str, Vec<&'a str>)> {
    steps
        .iter()
        .map(|s| {
            let left: Vec<&str> = s
                .skipped
                .iter()
                .map(String::as_str)
                .filter(|l| covered_by(steps, l, s.name).is_none())
                .collect();
            (s.name, left)
        })
        .filter(|(_, left)| !left.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ran<'a>(name: &'a str, passed: bool, skipped: &[&str]) -> Ran<'a> {
        Ran {
            name,
            passed,
            skipped: skipped.iter().map(|s| s.to_string()).collect(),
            checked: Vec::new(),
            ran: Vec::new(),
        }
    }

    #[test]
    fn a_skipped_backend_is_covered_only_where_a_step_checked_it() {
        let skip = "SKIPPED backend avx2: backend avx2 cannot run here: it is built for \
                    x86-64-v3, and this build is for aarch64";
        let log = "test avx2_passes ... hq-testkit: backend avx2 checked against the oracle: \
                   7416876 cases, 0 mismatches\nhq-testkit: backend ssse3 checked against the \
                   oracle: 1 case";
        assert_eq!(checked_backends(log), ["avx2", "ssse3"]);
        let native = |passed| Ran {
            checked: checked_backends(log),
            ..ran("workspace tests", passed, &[])
        };
        let steps = [ran("cross targets", true, &[skip]), native(true)];
        assert!(uncovered(&steps).is_empty());
        let steps = [ran("cross targets", true, &[skip]), native(false)];
        assert_eq!(uncovered(&steps)[0].1, [skip]);
        let other = skip.replace("avx2", "pext");
        let steps = [ran("cross targets", true, &[&other]), native(true)];
        assert_eq!(uncovered(&steps)[0].1, [other.as_str()]);
    }

    #[test]
    fn a_skip_is_covered_where_a_step_that_passed_ran_it() {
        let skip = "SKIPPED run_for at neon: neon";
        let log = "test each_level_is_one_line ... hq-core: RAN run_for at neon\nRAN \nnot RAN x";
        assert_eq!(ran_marks(log), ["run_for at neon"]);
        let cross = |passed| Ran {
            ran: ran_marks(log),
            ..ran("cross targets", passed, &[])
        };
        let steps = [ran("workspace tests", true, &[skip]), cross(true)];
        assert!(uncovered(&steps).is_empty());
        let steps = [ran("workspace tests", true, &[skip]), cross(false)];
        assert_eq!(uncovered(&steps)[0].1, [skip]);
        let other = "SKIPPED run_for at simd128: simd128";
        let steps = [ran("workspace tests", true, &[other]), cross(true)];
        assert_eq!(uncovered(&steps)[0].1, [other]);
    }

    #[test]
    fn a_skip_is_covered_only_by_a_step_that_passed_without_it() {
        let avx512 = "SKIPPED backend avx512: missing avx512f";
        let steps = [
            ran("workspace tests", true, &[avx512]),
            ran("emulated AVX-512 CPU", true, &[]),
        ];
        assert!(uncovered(&steps).is_empty());
        // The emulated step failed, or skipped AVX-512 itself: uncovered.
        for emulated in [
            ran("emulated AVX-512 CPU", false, &[]),
            ran(
                "emulated AVX-512 CPU",
                true,
                &["SKIPPED the tigerlake runs: the harness avx-512 is absent"],
            ),
        ] {
            let steps = [ran("workspace tests", true, &[avx512]), emulated];
            let left = uncovered(&steps);
            assert_eq!(left[0].0, "workspace tests");
            assert_eq!(left[0].1, [avx512]);
        }
        // A skip nothing covers (a missing tool).
        let steps = [ran("Miri", true, &["SKIPPED Miri: no nightly"])];
        assert_eq!(uncovered(&steps)[0].1, ["SKIPPED Miri: no nightly"]);
        // A step does not cover itself.
        let steps = [ran("emulated AVX-512 CPU", true, &["SKIPPED zmm"])];
        assert_eq!(uncovered(&steps).len(), 1);
    }

    #[test]
    fn skipped_lines_drop_the_emulators_frame_and_repeats() {
        let log = "ok\n    | hq-testkit: SKIPPED backend avx512: x\nSKIPPED backend avx512: x\n";
        assert_eq!(skipped_lines(log), ["SKIPPED backend avx512: x"]);
    }
}
