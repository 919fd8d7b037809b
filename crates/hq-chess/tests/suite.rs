//! The perft suites (`suites/*.epd`, compiled in) on every backend this
//! machine supports, to depths that keep CI short: deeper for fast backends,
//! shallower for slow (emulated) ones, never below depth 3 for standard.epd.
//! The `perft-suite` binary runs every depth. The perfts per backend are
//! the library's (`perft_on`, `check_cases`): this binary compiles none of
//! its own but the board options' (it took 136 s to build when it did).

use hq::{Backend, SliderAttacks};
use hq_chess::epd::{EpdEntry, Suite, SuiteCase, check_cases};
use hq_chess::{Position, divide, perft_on, perft_parallel};
use std::time::Instant;

/// A backend's perft speed on a small search (nodes per second, best of
/// five short runs: the machine may be busy), to pick how deep it is tested.
fn speed(backend: Backend) -> f64 {
    (0..5)
        .map(|_| {
            let start = Instant::now();
            let nodes = perft_on(Some(backend), &Position::startpos(), 4).expect("supported");
            nodes as f64 / start.elapsed().as_secs_f64().max(1e-9)
        })
        .fold(0.0, f64::max)
}

/// Backends at or above this speed (in the test profile) get the deep tier.
const FAST_NPS: f64 = 60e6;

/// Runs `select(is_fast)` cases on every supported backend and fails with
/// every mismatch found.
fn check_every_backend<'a>(suite_name: &str, select: impl Fn(bool) -> Vec<SuiteCase<'a>>) {
    let mut failures = Vec::new();
    for &backend in Backend::all() {
        if let Err(e) = backend.check_supported() {
            println!("SKIPPED {suite_name} on {}: {e}", backend.name());
            continue;
        }
        let nps = speed(backend);
        let fast = nps >= FAST_NPS;
        let cases = select(fast);
        let deepest = cases.iter().map(|c| c.depth).max().unwrap_or(0);
        let start = Instant::now();
        let outcome = check_cases(&cases, 1, Some(backend)).expect("supported backend");
        let (errors, nodes) = (outcome.mismatches, outcome.nodes);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{suite_name} on {:<22} {} tier ({:.0} Mnps calibration): {} cases up to D{deepest}, {nodes} nodes in {secs:.2} s, {} mismatches",
            backend.name(),
            if fast { "deep" } else { "shallow" },
            nps / 1e6,
            cases.len(),
            errors.len()
        );
        failures.extend(
            errors
                .into_iter()
                .map(|e| format!("{}: {e}", backend.name())),
        );
    }
    assert!(
        failures.is_empty(),
        "{} perft mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The deepest listed depth whose count is at most `budget` (at least `min`).
fn depth_within(entry: &EpdEntry, budget: u64, min: u32) -> u32 {
    entry
        .counts
        .iter()
        .filter(|&&(d, n)| d == min || n <= budget)
        .map(|&(d, _)| d)
        .max()
        .unwrap_or(min)
        .max(min)
}

#[test]
fn standard_suite_on_every_backend() {
    let entries = Suite::Standard.entries();
    assert_eq!(entries.len(), 85, "standard.epd should have 85 positions");
    check_every_backend("standard.epd", |fast| {
        let budget = if fast { 10_000_000 } else { 200_000 };
        entries
            .iter()
            .enumerate()
            .map(|(i, entry)| SuiteCase {
                line: i + 1,
                entry,
                depth: depth_within(entry, budget, 3),
            })
            .collect()
    });
}

#[test]
fn chess960_suite_on_every_backend() {
    let entries = Suite::Chess960.entries();
    assert_eq!(entries.len(), 967, "chess960.epd should have 967 positions");
    check_every_backend("chess960.epd", |fast| {
        let mut cases = Vec::new();
        for (i, entry) in entries.iter().enumerate() {
            let line = i + 1;
            let depth = if line > 960 {
                // The X-FEN castling cases: every listed depth.
                entry.max_depth()
            } else if fast {
                // Depth 3 for all, depth 4 for every fourth position.
                if i % 4 == 0 { 4 } else { 3 }
            } else if i % 16 == 0 {
                3
            } else {
                2
            };
            cases.push(SuiteCase { line, entry, depth });
        }
        cases
    });
}

/// `divide` and the threaded perft go through `Position::play` at the root:
/// their totals must equal the plain perft on every suite position.
#[test]
fn divide_and_threads_agree_with_perft() {
    let token = hq::backends::ScalarRankTable::new().expect("portable backend");
    let (mut checked, mut no_threads) = (0, false);
    for suite in Suite::ALL {
        let (name, entries) = (suite.file_name(), suite.entries());
        for (i, entry) in entries.iter().enumerate() {
            let position = Position::from_fen(&entry.fen).expect("suite FENs are valid");
            let expected = entry.expected(3).expect("every line has D3");
            let divided: u64 = divide(&position, 3, token).iter().map(|&(_, n)| n).sum();
            assert_eq!(divided, expected, "{name} line {}", i + 1);
            match perft_parallel(&position, 3, token, 2) {
                Ok(threaded) => assert_eq!(threaded, expected, "{name} line {}", i + 1),
                // WASI has no threads: the pool's error comes back as a
                // value, and nowhere else may it fail.
                Err(e) if cfg!(target_os = "wasi") => {
                    assert!(!e.to_string().is_empty());
                    no_threads = true;
                }
                Err(e) => panic!("a 2-thread pool builds here: {e}"),
            }
            checked += 1;
        }
    }
    if no_threads {
        println!(
            "divide agrees at D3 on {checked} positions; SKIPPED 2-thread perft: no threads on WASI (the pool's error is returned)"
        );
    } else {
        println!("divide and 2-thread perft agree at D3 on {checked} positions");
    }
}

/// Every board option counts exactly: the standard suite at depth 3 (and 4
/// where it is small) with each option on the backends whose kernels use
/// what it keeps, and on the portable default.
#[test]
fn every_board_option_counts_the_standard_suite_exactly() {
    use hq_chess::perft_with;
    use hq_chess::upkeep::{AttackTable, MackCheck, Recompute, Reversed, Upkeep};

    /// Each option on `B` (a concrete token: `with_backend` would compile
    /// the four options for every backend, where four backends need them).
    fn run_on<B: SliderAttacks>(entries: &[EpdEntry]) {
        fn run<U: Upkeep, B: SliderAttacks>(entries: &[EpdEntry], token: B) {
            let (mut positions, mut nodes) = (0, 0);
            for (i, entry) in entries.iter().enumerate() {
                let position = Position::from_fen(&entry.fen).expect("suite FENs are valid");
                for depth in [3, 4] {
                    let Some(expected) = entry.expected(depth) else {
                        continue;
                    };
                    if depth == 4 && expected > 2_000_000 {
                        continue;
                    }
                    let got = token.run_compiled(
                        #[inline(always)]
                        |t| perft_with::<U, B>(&position, depth, t),
                    );
                    assert_eq!(
                        got,
                        expected,
                        "{} on {}: line {} D{depth} ({})",
                        U::NAME,
                        B::NAME,
                        i + 1,
                        entry.fen
                    );
                    nodes += got;
                }
                positions += 1;
            }
            println!(
                "board option {} on {}: {positions} positions, {nodes} nodes, exact",
                U::NAME,
                B::NAME
            );
        }
        match B::require() {
            Ok(token) => {
                run::<Recompute, B>(entries, token);
                run::<Reversed, B>(entries, token);
                run::<MackCheck, B>(entries, token);
                run::<AttackTable, B>(entries, token);
            }
            Err(e) => println!("SKIPPED board options on {}: {e}", B::NAME),
        }
    }
    let entries = Suite::Standard.entries();
    run_on::<hq::backends::ReverseBitboards>(&entries);
    run_on::<hq::backends::ScalarReverse>(&entries);
    run_on::<hq::backends::Avx512>(&entries);
    run_on::<hq::backends::ScalarRankTable>(&entries);
}

/// A small perft through every way in: the facade's active choice
/// (`with_active_backend`), `with_backend` on every backend this CPU runs,
/// `divide` and `Position::play`, at depths that keep it quick. (Miri runs
/// the `perft` binary instead: this test binary would have it interpret
/// the peers' dev-dependencies' build too.)
#[test]
fn a_small_perft_agrees_through_every_way_in() {
    let cases = [
        (hq_chess::STARTPOS_FEN, 2, 400),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            2,
            2_039,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3, 2_812),
    ];
    let mut runs = 0;
    for (fen, depth, expected) in cases {
        let position = Position::from_fen(fen).expect("valid FEN");
        assert_eq!(perft_on(None, &position, depth), Ok(expected), "{fen}");
        for backend in Backend::supported() {
            let got = perft_on(Some(backend), &position, depth);
            assert_eq!(got, Ok(expected), "{fen} on {backend}");
            runs += 1;
        }
        let token = hq::backends::ScalarRankTable::new().expect("portable backend");
        let divided: u64 = divide(&position, depth, token)
            .iter()
            .map(|&(_, n)| n)
            .sum();
        assert_eq!(divided, expected, "{fen}: divide");
    }
    println!("small perft: 3 positions on the active choice, divide and {runs} backend runs agree");
}

/// `check_suite` (what the `perft-suite` binary runs) passes the first
/// standard positions on the active choice and on a named backend, and
/// reports a wrong count with its line and depth.
#[test]
fn check_suite_counts_and_reports_mismatches() {
    let mut entries: Vec<EpdEntry> = Suite::Standard.entries().into_iter().take(6).collect();
    let passed = hq_chess::epd::check_suite(&entries, 2, 2, None).expect("the active choice runs");
    assert!(passed.mismatches.is_empty(), "{:?}", passed.mismatches);
    assert_eq!(passed.checks, 12, "two depths of six positions");
    let named = hq_chess::epd::check_suite(&entries, 2, 1, Some(Backend::ScalarRankTable))
        .expect("a portable backend runs");
    assert_eq!(named.nodes, passed.nodes);
    let (depth, right) = entries[3].counts[1];
    entries[3].counts[1].1 = right + 1;
    let planted = hq_chess::epd::check_suite(&entries, 2, 2, None).expect("runs");
    assert_eq!(planted.mismatches.len(), 1, "{:?}", planted.mismatches);
    let expected = format!("line 4 D{depth}: expected {}, got {right}", right + 1);
    assert!(
        planted.mismatches[0].starts_with(&expected),
        "{}",
        planted.mismatches[0]
    );
    println!(
        "check_suite: {} counts, {} nodes; a planted wrong count reported",
        passed.checks, passed.nodes
    );
}
