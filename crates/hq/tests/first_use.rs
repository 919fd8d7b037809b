//! The first use of the free functions, from many threads at once (its own
//! test binary, so that these calls really are the first): every thread
//! waits at a barrier, then makes its first call to a different entry point
//! (single lookups, lines, batches, set-wise), while the choice is being
//! decided and installed; every answer must be the oracle's, and the choice
//! one. `cargo xtask test` runs this under ThreadSanitizer too.

// Run-time selection needs `std`.
#![cfg(feature = "std")]

use hq::{Bitboard, Line, Square, reference};
use std::sync::{Arc, Barrier};

/// Threads racing to the first call (Miri interprets: fewer there).
const THREADS: usize = if cfg!(miri) { 4 } else { 16 };

/// The first call of thread `i`: a different entry point per thread, then
/// all of them, each checked against the oracle.
fn first_calls(i: usize) {
    let sq = Square::from_index_masked((i * 37) as u8);
    let occ = Bitboard(0x0042_1800_2400_8100u64.rotate_left(i as u32));
    let sliders = Bitboard(occ.0 & 0x00FF_00FF_00FF_00FFu64.rotate_left(i as u32 * 3));
    let union = |f: fn(Square, Bitboard) -> Bitboard| {
        sliders
            .iter()
            .fold(Bitboard::EMPTY, |a, s| a | f(s, occ | sliders))
    };
    let calls: [&dyn Fn(); 5] = [
        &|| assert_eq!(hq::rook_attacks(sq, occ), reference::rook_attacks(sq, occ)),
        &|| {
            assert_eq!(
                hq::queen_attacks(sq, occ),
                reference::queen_attacks(sq, occ)
            )
        },
        &|| {
            let line = Line::ALL[i % 4];
            assert_eq!(
                hq::line_attacks(line, sq, occ),
                reference::line_attacks(line, sq, occ)
            );
        },
        &|| {
            let squares = [sq, Square::A1, Square::H8, Square::D4, Square::E5];
            let mut out = [Bitboard::EMPTY; 5];
            hq::bishop_attacks_batch(&squares, occ, &mut out);
            for (s, got) in squares.into_iter().zip(out) {
                assert_eq!(got, reference::bishop_attacks(s, occ));
            }
        },
        &|| {
            assert_eq!(
                hq::queen_attacks_setwise(sliders, occ),
                union(reference::queen_attacks)
            );
        },
    ];
    calls[i % calls.len()]();
    for call in calls {
        call();
    }
}

#[test]
fn many_threads_making_their_first_calls_at_once_agree() {
    if cfg!(target_os = "wasi") {
        println!("first use: SKIPPED: WASI has no threads");
        return;
    }
    let barrier = Arc::new(Barrier::new(THREADS));
    let threads: Vec<_> = (0..THREADS)
        .map(|i| {
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                barrier.wait();
                first_calls(i);
                hq::selection().plan
            })
        })
        .collect();
    let choices: Vec<_> = threads
        .into_iter()
        .map(|t| t.join().expect("no thread panics"))
        .collect();
    assert!(choices.windows(2).all(|w| w[0] == w[1]), "{choices:?}");
    println!(
        "first use: {THREADS} threads made their first calls at once; one choice, {:?}",
        choices[0]
    );
}
