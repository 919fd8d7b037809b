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

#[test]
fn ssse3_vpperm_equals_the_model() {
    let Some(v) = Ssse3Vpperm::new() else {
        println!("SKIPPED ssse3 VPPERM: this CPU lacks ssse3");
        return;
    };
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&operands(), |(a, b, random)| {
            for j in 0..17 {
                let s = if j < 16 {
                    all_values_selector(j)
                } else {
                    random
                };
                prop_assert_eq!(
                    v.vpperm(a, b, s),
                    model::vpperm(a, b, s),
                    "selector {:02x?}",
                    s
                );
            }
            Ok(())
        })
        .unwrap();
    println!(
        "ssse3 VPPERM = model on {CASES} random operand pairs x (256 selector values + 16 random bytes)"
    );
}

#[test]
fn avx512_vpperm_equals_the_model() {
    let v = match Avx512Vpperm::require() {
        Ok(v) => v,
        Err(missing) => {
            println!("SKIPPED avx512 VPPERM (not counted as passed): {missing}");
            return;
        }
    };
    let lanes = (operands(), operands(), operands(), operands());
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&lanes, |(l0, l1, l2, l3)| {
            let ls = [l0, l1, l2, l3];
            // 17 rounds: the first 16 give every lane all 256 selector values
            // (a different selector per lane in each round), the last is random.
            for round in 0..17 {
                let sel: [[u8; 16]; 4] = core::array::from_fn(|lane| {
                    if round < 16 {
                        all_values_selector((round + 4 * lane) % 16)
                    } else {
                        ls[lane].2
                    }
                });
                let got = v.vpperm_x4(ls.map(|l| l.0), ls.map(|l| l.1), sel);
                for lane in 0..4 {
                    prop_assert_eq!(
                        got[lane],
                        model::vpperm(ls[lane].0, ls[lane].1, sel[lane]),
                        "lane {}",
                        lane
                    );
                }
            }
            Ok(())
        })
        .unwrap();
    println!(
        "avx512 VPPERM x4 = model on {CASES} random cases x 4 lanes x (256 selector values + 16 random bytes)"
    );
}

#[test]
fn avx512_vpperm_sees_all_256_selector_values_in_every_lane() {
    let v = match Avx512Vpperm::require() {
        Ok(v) => v,
        Err(missing) => {
            println!("SKIPPED avx512 VPPERM selector sweep (not counted as passed): {missing}");
            return;
        }
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
