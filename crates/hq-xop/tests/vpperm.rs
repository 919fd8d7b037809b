//! The fast VPPERMs against the model: proptest over random operands, each
//! case with all 256 selector values (16 selectors of 16 bytes) plus a random selector.

#![cfg(target_arch = "x86_64")]

use hq_xop::avx512::Avx512Vpperm;
use hq_xop::model;
use hq_xop::ssse3::Ssse3Vpperm;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// Selector `j` of the 16 that together hold every byte value once.
fn all_values_selector(j: usize) -> [u8; 16] {
    core::array::from_fn(|i| (16 * j + i) as u8)
}

fn operands() -> impl Strategy<Value = ([u8; 16], [u8; 16], [u8; 16])> {
    (any::<[u8; 16]>(), any::<[u8; 16]>(), any::<[u8; 16]>())
}

const CASES: u32 = 2_000;

/// A runner of [`CASES`] cases that writes no failure files.
fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    })
}

/// The AVX-512 VPPERM token, or `None` once the test's `what` is reported
/// skipped (not passed) with the features this CPU lacks.
fn avx512_or_skip(what: &str) -> Option<Avx512Vpperm> {
    match Avx512Vpperm::require() {
        Ok(v) => Some(v),
        Err(missing) => {
            println!("SKIPPED {what}: {missing}");
            None
        }
    }
}

/// `LANES` VPPERMs at once (`vpperm`, lane `L` from lanes `L`) against the
/// model on random operands. 17 rounds a case: the first 16 give every lane
/// all 256 selector values (with several lanes, a different selector per
/// lane in each round), the last random selectors.
fn equals_the_model<const LANES: usize>(
    name: &str,
    vpperm: impl Fn([[u8; 16]; LANES], [[u8; 16]; LANES], [[u8; 16]; LANES]) -> [[u8; 16]; LANES],
) {
    runner()
        .run(&proptest::array::uniform(operands()), |ls| {
            for round in 0..17 {
                let sel: [[u8; 16]; LANES] = core::array::from_fn(|lane| {
                    if round < 16 {
                        all_values_selector((round + 4 * lane) % 16)
                    } else {
                        ls[lane].2
                    }
                });
                let got = vpperm(ls.map(|l| l.0), ls.map(|l| l.1), sel);
                for lane in 0..LANES {
                    prop_assert_eq!(
                        got[lane],
                        model::vpperm(ls[lane].0, ls[lane].1, sel[lane]),
                        "lane {} selector {:02x?}",
                        lane,
                        sel[lane]
                    );
                }
            }
            Ok(())
        })
        .unwrap();
    println!(
        "{name} = model on {CASES} random cases x {LANES} lanes x (256 selector values + 16 random bytes)"
    );
}

#[test]
fn ssse3_vpperm_equals_the_model() {
    let Some(v) = Ssse3Vpperm::new() else {
        println!("SKIPPED ssse3 VPPERM: this CPU lacks ssse3");
        return;
    };
    equals_the_model("ssse3 VPPERM", |[a], [b], [s]| [v.vpperm(a, b, s)]);
}

#[test]
fn avx512_vpperm_equals_the_model() {
    let Some(v) = avx512_or_skip("avx512 VPPERM") else {
        return;
    };
    equals_the_model("avx512 VPPERM x4", |a, b, s| v.vpperm_x4(a, b, s));
}

#[test]
fn avx512_vpperm_sees_all_256_selector_values_in_every_lane() {
    let Some(v) = avx512_or_skip("avx512 VPPERM selector sweep") else {
        return;
    };
    let a: [[u8; 16]; 4] =
        core::array::from_fn(|l| core::array::from_fn(|i| (37 * (16 * l + i) + 11) as u8));
    let b: [[u8; 16]; 4] =
        core::array::from_fn(|l| core::array::from_fn(|i| (101 * (16 * l + i) + 200) as u8));
    for j in 0..16 {
        let sel = [all_values_selector(j); 4];
        let got = v.vpperm_x4(a, b, sel);
        for lane in 0..4 {
            assert_eq!(
                got[lane],
                model::vpperm(a[lane], b[lane], sel[lane]),
                "lane {lane} selectors {j}"
            );
        }
    }
    println!(
        "avx512 VPPERM x4: all 256 selector values in each of the 4 lanes agree with the model"
    );
}
