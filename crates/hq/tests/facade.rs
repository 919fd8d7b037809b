//! The facade: every registered backend through the shared suite, the free
//! functions, generic dispatch, and the error paths of backend selection.

use hq::{Backend, BackendError, Bitboard, SliderAttacks, Square, WithBackend};
use std::process::Command;

struct Suite;
impl WithBackend for Suite {
    type Output = hq_testkit::Report;
    fn run<B: SliderAttacks>(self, backend: B) -> hq_testkit::Report {
        match hq_testkit::check(backend, hq_testkit::Depth::Quick) {
            Ok(report) => report,
            Err(e) => panic!("{e}"),
        }
    }
}

#[test]
fn every_supported_backend_passes_through_generic_dispatch() {
    for &backend in Backend::all() {
        match hq::with_backend(backend, Suite) {
            Ok(report) => {
                assert_eq!(report.backend, backend.name());
                println!("facade: {report}");
            }
            Err(BackendError::Unsupported { missing, .. }) => {
                assert!(!backend.is_supported());
                println!(
                    "facade: SKIPPED backend {backend}: missing {}",
                    missing.join(", ")
                );
            }
            Err(e) => panic!("{e}"),
        }
    }
}

#[test]
fn free_functions_agree_with_the_oracle() {
    let mut rng = hq_testkit::SplitMix64(7);
    for _ in 0..20_000 {
        let occ = Bitboard(rng.next_u64() & rng.next_u64());
        let sq = Square::from_index_masked(rng.next_u64() as u8);
        assert_eq!(
            hq::rook_attacks(sq, occ),
            hq::reference::rook_attacks(sq, occ)
        );
        assert_eq!(
            hq::bishop_attacks(sq, occ),
            hq::reference::bishop_attacks(sq, occ)
        );
        assert_eq!(
            hq::queen_attacks(sq, occ),
            hq::reference::queen_attacks(sq, occ)
        );
        for line in hq::Line::ALL {
            assert_eq!(
                hq::line_attacks(line, sq, occ),
                hq::reference::line_attacks(sq, line, occ)
            );
        }
    }
    let squares = Square::ALL;
    let occ = Bitboard(0x0042_1800_0024_8100);
    let mut out = [Bitboard::EMPTY; 64];
    hq::queen_attacks_batch(&squares, occ, &mut out);
    for (sq, got) in squares.iter().zip(out) {
        assert_eq!(got, hq::reference::queen_attacks(*sq, occ));
    }
    let rooks = Bitboard(0x8100_0000_0000_0081);
    let expected = rooks.iter().fold(Bitboard::EMPTY, |a, s| {
        a | hq::reference::rook_attacks(s, occ | rooks)
    });
    assert_eq!(hq::rook_attacks_setwise(rooks, occ), expected);
    println!(
        "facade: free functions checked with backend {}",
        hq::active_backend()
    );
}

#[test]
#[should_panic(expected = "`squares` has 3 entries but `out` has 2")]
fn a_batch_with_mismatched_lengths_says_so() {
    let mut out = [Bitboard::EMPTY; 2];
    hq::rook_attacks_batch(
        &[Square::A1, Square::B1, Square::C1],
        Bitboard::EMPTY,
        &mut out,
    );
}

#[test]
fn unknown_backend_names_are_rejected_with_the_list_of_valid_ones() {
    let err = Backend::from_name("scalar-turbo").unwrap_err();
    assert_eq!(err, BackendError::UnknownName("scalar-turbo".into()));
    let message = err.to_string();
    for b in Backend::all() {
        assert!(message.contains(b.name()), "{message}");
    }
    for b in Backend::all() {
        assert_eq!(Backend::from_name(b.name()), Ok(*b));
        assert_eq!(b.name().parse::<Backend>(), Ok(*b));
    }
}

#[test]
fn detection_picks_the_first_supported_backend_in_preference_order() {
    let first = Backend::all()
        .iter()
        .copied()
        .find(|b| b.is_supported())
        .unwrap();
    assert_eq!(Backend::detected(), first);
    for b in Backend::all() {
        assert_eq!(b.is_supported(), b.missing_features().is_empty(), "{b}");
        assert_eq!(b.check_supported().is_ok(), b.is_supported());
    }
}

#[test]
fn an_unsupported_backend_is_refused_with_the_missing_features() {
    let unsupported: Vec<Backend> = Backend::all()
        .iter()
        .copied()
        .filter(|b| !b.is_supported())
        .collect();
    if unsupported.is_empty() {
        println!(
            "facade: every compiled-in backend runs on this CPU; the unsupported path is covered by the hq-info tests on emulated CPUs"
        );
    }
    for b in unsupported {
        let err = hq::with_backend(b, Suite).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains(b.name()) && text.contains("missing"),
            "{text}"
        );
        for f in b.missing_features() {
            assert!(text.contains(f), "{text}");
        }
        assert!(hq::set_backend(b).is_err());
    }
}

fn hq_info(env: Option<&str>, args: &[&str]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hq-info"));
    cmd.args(args);
    match env {
        Some(v) => cmd.env(hq::ENV_VAR, v),
        None => cmd.env_remove(hq::ENV_VAR),
    };
    let out = cmd.output().expect("hq-info runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn hq_backend_overrides_detection_in_run_time_builds() {
    if hq::selection() != hq::Selection::RunTime {
        println!(
            "facade: this build fixes its backend ({:?}); override test not applicable",
            hq::selection()
        );
        return;
    }
    for b in Backend::supported() {
        let (code, stdout, stderr) = hq_info(Some(b.name()), &["--call"]);
        assert_eq!(code, 0, "{stderr}");
        assert!(
            stdout.contains(&format!("active: {}", b.name())),
            "{stdout}"
        );
    }
    let (code, stdout, _) = hq_info(Some("auto"), &[]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains(&format!("active: {}", Backend::detected())),
        "{stdout}"
    );
}

#[test]
fn a_forced_build_refuses_a_different_hq_backend() {
    if hq::selection() == hq::Selection::RunTime {
        println!(
            "facade: run-time dispatch build; the forced-build conflict test applies to force-* builds"
        );
        return;
    }
    let fixed = hq::active_backend();
    for other in Backend::supported().filter(|b| *b != fixed) {
        let (code, _, stderr) = hq_info(Some(other.name()), &[]);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains(&format!("this build fixed backend {fixed}")),
            "{stderr}"
        );
    }
    let (code, stdout, _) = hq_info(Some(fixed.name()), &["--call"]);
    assert_eq!(code, 0);
    assert!(stdout.contains(&format!("active: {fixed}")), "{stdout}");
}

#[test]
fn a_bad_hq_backend_is_a_clear_error_not_a_silent_fallback() {
    let (code, _, stderr) = hq_info(Some("no-such-backend"), &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("unknown backend \"no-such-backend\""),
        "{stderr}"
    );
    assert!(stderr.contains("scalar-reverse"), "{stderr}");
    // Without init(), the first attack call stops with the same message
    // (101: a Rust panic). Builds that fix the backend from compile-time
    // target features make no check on the hot path; there `init()` (which
    // hq-info calls next) reports it (2).
    let first_call_code = if hq::selection() == hq::Selection::CompileTime {
        2
    } else {
        101
    };
    let (code, _, stderr) = hq_info(Some("no-such-backend"), &["--call"]);
    assert_eq!(code, first_call_code, "{stderr}");
    assert!(stderr.contains("unknown backend"), "{stderr}");
    // An unsupported backend names the missing CPU features.
    for b in Backend::all().iter().filter(|b| !b.is_supported()) {
        let (code, _, stderr) = hq_info(Some(b.name()), &["--call"]);
        assert_eq!(code, first_call_code, "{stderr}");
        assert!(stderr.contains("cannot run on this CPU"), "{stderr}");
        for f in b.missing_features() {
            assert!(stderr.contains(f), "{stderr}");
        }
    }
}
