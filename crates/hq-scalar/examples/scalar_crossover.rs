//! Where the set-wise kernels start to beat a per-piece loop: prints both
//! costs for 1..16 sliders (`cargo run --release -p hq-scalar --example scalar_crossover`).
//! The thresholds in `hq_scalar::setwise` come from this.
use hq_core::{Bitboard, SliderAttacks};
use hq_scalar::{ScalarRankTable, setwise};
use std::hint::black_box;
use std::time::Instant;
fn main() {
    let t = ScalarRankTable::new().unwrap();
    let mut s = 0x1234567u64;
    let mut r = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    for n in [1u32, 2, 3, 4, 6, 8, 12, 16] {
        let inputs: Vec<(u64, u64)> = (0..4096)
            .map(|_| {
                let occ = r() & r();
                let mut sl = 0u64;
                while sl.count_ones() < n {
                    sl |= 1 << (r() % 64);
                }
                (sl, occ | sl)
            })
            .collect();
        for (name, kind) in [("rook", 0), ("bishop", 1), ("queen", 2)] {
            let mut best = [f64::MAX; 2];
            for _ in 0..20 {
                let st = Instant::now();
                let mut acc = 0;
                for &(sl, occ) in black_box(&inputs) {
                    acc ^= match kind {
                        0 => setwise::rook_attacks(sl, occ),
                        1 => setwise::bishop_attacks(sl, occ),
                        _ => setwise::queen_attacks(sl, occ),
                    };
                }
                black_box(acc);
                best[0] = best[0].min(st.elapsed().as_nanos() as f64 / 4096.0);
                let st = Instant::now();
                let mut acc = 0;
                for &(sl, occ) in black_box(&inputs) {
                    for sq in Bitboard(sl) {
                        acc ^= match kind {
                            0 => t.rook_attacks(sq, Bitboard(occ)),
                            1 => t.bishop_attacks(sq, Bitboard(occ)),
                            _ => t.queen_attacks(sq, Bitboard(occ)),
                        }
                        .0;
                    }
                }
                black_box(acc);
                best[1] = best[1].min(st.elapsed().as_nanos() as f64 / 4096.0);
            }
            println!(
                "n={n:2} {name:6} setwise {:6.1} ns  loop {:6.1} ns",
                best[0], best[1]
            );
        }
    }
}
