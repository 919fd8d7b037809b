//! `hq::latency`, its functions and its jobs: exact on every square, on the
//! class's latency choice and after `set_backend` to every dispatched backend (its own test binary: it
//! changes the process-wide choice).

// Run-time selection and `set_backend` need `std`.
#![cfg(feature = "std")]

use hq::{Backend, Line, Square, reference};

/// Every square over a spread of occupancies, through `hq::latency`.
fn latency_functions_agree_with_the_oracle(label: &str) -> u64 {
    let mut checked = 0;
    for occupancy in hq_testkit::occupancies(0x2545_F491_4F6C_DD1D, 64) {
        for sq in Square::ALL {
            let want = (
                reference::rook_attacks(sq, occupancy),
                reference::bishop_attacks(sq, occupancy),
                reference::queen_attacks(sq, occupancy),
            );
            let got = (
                hq::latency::rook_attacks(sq, occupancy),
                hq::latency::bishop_attacks(sq, occupancy),
                hq::latency::queen_attacks(sq, occupancy),
            );
            assert_eq!(got, want, "{label}: {sq} over {occupancy:?}");
            for line in Line::ALL {
                assert_eq!(
                    hq::latency::line_attacks(line, sq, occupancy),
                    reference::line_attacks(line, sq, occupancy),
                    "{label}: {line:?} {sq}"
                );
            }
            checked += 7;
        }
        // A job on each piece's latency backend: every lookup of its token.
        for slider in hq::Slider::ALL {
            let job = hq::job!(occupancy: hq::Bitboard = occupancy; |backend| -> () {
                for sq in Square::ALL {
                    let got = (
                        backend.rook_attacks(sq, occupancy),
                        backend.bishop_attacks(sq, occupancy),
                        backend.queen_attacks(sq, occupancy),
                        Line::ALL.map(|line| backend.line_attacks(line, sq, occupancy)),
                    );
                    let want = (
                        reference::rook_attacks(sq, occupancy),
                        reference::bishop_attacks(sq, occupancy),
                        reference::queen_attacks(sq, occupancy),
                        Line::ALL.map(|line| reference::line_attacks(line, sq, occupancy)),
                    );
                    assert_eq!(got, want, "{sq} over {occupancy:?}");
                }
            });
            hq::latency::with_backend(slider, job);
            checked += 64 * 7;
        }
    }
    checked
}

#[test]
fn latency_functions_are_exact_on_every_choice() {
    let selection = hq::selection();
    if selection.source == hq::Source::Class {
        // Without HQ_BACKEND the class's choice where it may serve (runs
        // here and, in a forced build, is forced), else the single lookups'.
        let class = selection.class.plan.latency;
        let forced = selection.mode == hq::Mode::Forced;
        for slider in hq::Slider::ALL {
            let (got, wanted) = (selection.plan.latency.get(slider), class.get(slider));
            assert!(got.is_supported());
            let may_serve = wanted.is_supported() && (!forced || wanted.is_forced());
            let expected = if may_serve {
                wanted
            } else {
                selection.plan.single.get(slider)
            };
            assert_eq!(got, expected, "latency backend for the class's {wanted}");
        }
    }
    let n = latency_functions_agree_with_the_oracle("class choice");
    println!("latency ({}): {n} lookups agree", selection.plan.latency);
    // A forced build's `set_backend` takes its forced backends only.
    let dispatched: Vec<Backend> = Backend::all()
        .iter()
        .copied()
        .filter(|b| b.is_available())
        .collect();
    for &b in &dispatched {
        hq::set_backend(b).expect("an available backend");
        let after = hq::selection();
        let fixed = after.to_string().contains("fixed at compile time");
        assert!(after.plan.latency == hq::Pieces::all(b) || fixed, "{after}");
        latency_functions_agree_with_the_oracle(b.name());
    }
    println!(
        "latency after set_backend: exact on {} backends",
        dispatched.len()
    );
}
