//! `hq::latency`: exact on every square, on the class's latency choice and
//! after `set_backend` to every dispatched backend (its own test binary: it
//! changes the process-wide choice).

// Run-time selection and `set_backend` need `std`.
#![cfg(feature = "std")]

use hq::{Backend, Bitboard, Line, Square, reference};

/// Every square over a spread of occupancies, through `hq::latency`.
fn latency_functions_agree_with_the_oracle(label: &str) -> u64 {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut checked = 0;
    for _ in 0..64 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let occupancy = Bitboard(x & x.rotate_left(23));
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
    }
    checked
}

#[test]
fn latency_functions_are_exact_on_every_choice() {
    let selection = hq::selection();
    if selection.source == hq::Source::Class {
        // Without HQ_BACKEND the class's choice, each backend runnable here.
        let class = selection.class.latency;
        for (got, wanted) in [
            (selection.latency.rook, class.rook),
            (selection.latency.bishop, class.bishop),
            (selection.latency.queen, class.queen),
        ] {
            assert!(got.is_supported());
            assert!(
                got == wanted || !wanted.is_supported(),
                "{got} for {wanted}"
            );
        }
    }
    let n = latency_functions_agree_with_the_oracle("class choice");
    println!("latency ({}): {n} lookups agree", selection.latency);
    let dispatched: Vec<Backend> = Backend::supported().filter(|b| b.is_dispatched()).collect();
    for &b in &dispatched {
        hq::set_backend(b).expect("a supported, dispatched backend");
        assert_eq!(hq::selection().latency, hq::Latency::all(b));
        latency_functions_agree_with_the_oracle(b.name());
    }
    println!(
        "latency after set_backend: exact on {} backends",
        dispatched.len()
    );
}
