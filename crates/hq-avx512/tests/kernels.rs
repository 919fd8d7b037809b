//! The AVX-512 building blocks against plain Rust: both 8-lane bit
//! reversals, the two-queens kernel, and batch remainders. Skipped (printed)
//! without the features.

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;
use hq_avx512::{Avx512, kernels};
use hq_core::{Bitboard, SliderAttacks, Square, reference};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn skip(what: &str) {
    println!(
        "SKIPPED {what}: needs CPU features [avx512f, avx512bw, avx512vbmi, gfni], missing {:?}",
        Avx512::missing_features()
    );
}

#[test]
fn both_reversals_equal_reverse_bits() {
    let Some(_token) = Avx512::new() else {
        return skip("avx512 reversal test");
    };
    let mut runner = TestRunner::new(Config {
        cases: 5_000,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&any::<[u64; 8]>(), |lanes| {
            // SAFETY: the token above proves the features; arrays are 64 bytes.
            let (a, b) = unsafe {
                let x = _mm512_loadu_si512(lanes.as_ptr().cast());
                let mut a = [0u64; 8];
                let mut b = [0u64; 8];
                _mm512_storeu_si512(a.as_mut_ptr().cast(), kernels::reverse_lanes(x));
                _mm512_storeu_si512(
                    b.as_mut_ptr().cast(),
                    kernels::reverse_lanes_by_transposes(x),
                );
                (a, b)
            };
            let want = lanes.map(u64::reverse_bits);
            prop_assert_eq!(a, want);
            prop_assert_eq!(b, want);
            Ok(())
        })
        .unwrap();
    println!("avx512: both 8-lane reversals = u64::reverse_bits on 5000 random vectors");
}

#[test]
fn two_queens_per_zmm_equal_the_oracle() {
    let Some(hq) = Avx512::new() else {
        return skip("avx512 two-queens test");
    };
    let mut runner = TestRunner::new(Config {
        cases: 5_000,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(
            &(0u8..64, 0u8..64, any::<u64>(), any::<u64>()),
            |(a, b, x, y)| {
                let (a, b) = (Square::new(a).unwrap(), Square::new(b).unwrap());
                let occ = Bitboard(x & y);
                let got = hq.queen_attacks_x2(a, b, occ);
                prop_assert_eq!(
                    got,
                    [
                        reference::queen_attacks(a, occ),
                        reference::queen_attacks(b, occ)
                    ]
                );
                Ok(())
            },
        )
        .unwrap();
    println!("avx512: queen_attacks_x2 = oracle on 5000 random pairs");
}
