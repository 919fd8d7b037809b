//! `avx2`'s queen for callers of any level ends in `vzeroupper`, which
//! clears the upper halves of ymm0-15: the block declares them clobbered,
//! so a caller compiled with AVX2 keeps its vector values. This test holds
//! such values across every call and checks them after (without the
//! declaration, their upper lanes come back zero).

#[cfg(target_arch = "x86_64")]
#[test]
fn the_avx2_queen_for_any_caller_keeps_the_callers_vector_registers() {
    use hq_core::{Bitboard, Slider, SliderAttacks, Square, reference};
    use std::arch::x86_64::*;

    let Some(avx2) = hq_simd::Avx2::new() else {
        println!("SKIPPED: this CPU lacks the avx2 token's level");
        return;
    };

    /// Lanes that grow by each result, in 8 ymm values held across the
    /// calls; returns them and the xor of the results.
    #[target_feature(enable = "avx2")]
    fn held_across(avx2: hq_simd::Avx2, occupancies: &[u64]) -> ([[u64; 4]; 8], u64) {
        let mut held: [__m256i; 8] =
            core::array::from_fn(|i| _mm256_set_epi64x(4 * i as i64 + 3, 2, 1, i as i64));
        let mut sink = 0;
        for (sq, &occ) in Square::ALL.into_iter().zip(occupancies.iter().cycle()) {
            let attacks = avx2
                .single_in_any_caller(Slider::Queen, sq, Bitboard(occ))
                .0;
            sink ^= attacks;
            let step = _mm256_set1_epi64x((attacks & 0xFF) as i64 | 1);
            for h in &mut held {
                *h = _mm256_add_epi64(*h, step);
            }
        }
        // SAFETY: `__m256i` and `[u64; 4]` are 32 plain bytes.
        (held.map(|h| unsafe { core::mem::transmute(h) }), sink)
    }

    let occupancies: Vec<u64> = (0..64u64)
        .map(|i| {
            std::hint::black_box(i.wrapping_mul(0x9E37_79B9_7F4A_7C15) & 0x00FF_5A5A_3C3C_FF00)
        })
        .collect();
    // SAFETY: `Avx2::new` checked the CPU for the level the function enables.
    let (held, sink) = unsafe { held_across(avx2, &occupancies) };

    let mut expected_sink = 0;
    let mut growth = 0u64;
    for (sq, &occ) in Square::ALL.into_iter().zip(occupancies.iter().cycle()) {
        let attacks = reference::queen_attacks(sq, Bitboard(occ)).0;
        expected_sink ^= attacks;
        growth = growth.wrapping_add((attacks & 0xFF) | 1);
    }
    assert_eq!(sink, expected_sink, "the queen's results");
    for (i, lanes) in held.iter().enumerate() {
        let start = [i as u64, 1, 2, 4 * i as u64 + 3];
        let expected = start.map(|s| s.wrapping_add(growth));
        assert_eq!(*lanes, expected, "ymm value {i} held across the calls");
    }
}
