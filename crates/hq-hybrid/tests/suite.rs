//! The hybrid backends against the oracle (each SKIPPED where the CPU lacks its level).

hq_testkit::full_suite_tests! {
    hybrid_avx512_pext_passes_the_full_suite: hq_hybrid::HybridAvx512Pext,
    hybrid_avx2_pext_passes_the_full_suite: hq_hybrid::HybridAvx2Pext,
}

/// Each split's batch loops against the ray walk, whichever split this CPU
/// takes (the suite above runs only that one): every piece, batch lengths
/// 0 to 100 (whole steps and every remainder of each split's steps), random
/// squares over spread occupancies.
macro_rules! every_split_tests {
    ($($test:ident: $token:ty),+ $(,)?) => {$(
        #[test]
        fn $test() {
            use hq_core::{Bitboard, Slider, Square, reference};
            use hq_hybrid::Split;
            let Some(token) = hq_testkit::require_or_skip::<$token>() else { return };
            let mut random = hq_testkit::SplitMix64(0x5eed_0063);
            let mut checked = 0u64;
            for (len, occupancy) in (0..=100).zip(hq_testkit::occupancies(63, 101)) {
                let squares: Vec<Square> = (0..len)
                    .map(|_| Square::ALL[(random.next_u64() % 64) as usize])
                    .collect();
                for split in Split::ALL {
                    for slider in [Slider::Rook, Slider::Bishop, Slider::Queen] {
                        let mut out = vec![Bitboard::EMPTY; len];
                        token.batch_with(split, slider, &squares, occupancy, &mut out);
                        for (&sq, &got) in squares.iter().zip(&out) {
                            let want = match slider {
                                Slider::Rook => reference::rook_attacks(sq, occupancy),
                                Slider::Bishop => reference::bishop_attacks(sq, occupancy),
                                Slider::Queen => reference::queen_attacks(sq, occupancy),
                            };
                            assert_eq!(got, want, "{split:?} {slider:?} batch of {len}: {sq} over {occupancy:?}");
                            checked += 1;
                        }
                    }
                }
            }
            println!("{}: {checked} batch lookups over both splits agree with the ray walk", <$token as hq_core::SliderAttacks>::NAME);
        }
    )+};
}

every_split_tests! {
    hybrid_avx512_pext_batches_of_every_split: hq_hybrid::HybridAvx512Pext,
    hybrid_avx2_pext_batches_of_every_split: hq_hybrid::HybridAvx2Pext,
}
