//! The kit tests itself: the oracle passes, and deliberately wrong backends
//! are caught by the part of the suite aimed at their fault.

use super::*;
use hq_core::cpu::Level;

/// A portable test backend: the struct, its name, and the methods given.
/// Its lookups are the oracle's, which walks the rays: no table, unless
/// `tables` says which it reads.
macro_rules! backend {
    ($(#[$doc:meta])* $name:ident, $label:literal; $($methods:tt)*) => {
        backend! { $(#[$doc])* $name, $label, tables 0; $($methods)* }
    };
    ($(#[$doc:meta])* $name:ident, $label:literal, tables $tables:expr; $($methods:tt)*) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        struct $name;
        impl SliderAttacks for $name {
            const NAME: &'static str = $label;
            const LEVEL: Level = Level::Baseline;
            const TABLE_BYTES: usize = $tables;
            unsafe fn new_unchecked() -> Self {
                $name
            }
            $($methods)*
        }
    };
}

backend! { Oracle, "oracle";
    fn line_attacks(self, line: Line, sq: Square, occ: Bitboard) -> Bitboard {
        reference::line_attacks(line, sq, occ)
    }
}

backend! {
    /// Wrong in one single case: a rook on h8 whose rank holds exactly one
    /// blocker, on b8, also "sees" a8 through it. Random occupancies almost never
    /// hit this; the exhaustive part must.
    OffByOneCase, "wrong-in-one-case", tables size_of_val(&LINE_MASKS);
    fn line_attacks(self, line: Line, sq: Square, occ: Bitboard) -> Bitboard {
        let right = reference::line_attacks(line, sq, occ);
        let on_line = occ.0 & LINE_MASKS[sq as usize].get(line);
        if sq == Square::H8 && line == Line::Rank && on_line == Square::B8.bit() {
            right | Bitboard::from(Square::A8)
        } else {
            right
        }
    }
}

backend! {
    /// Lets the occupancy off the line leak into the answer.
    LeaksOffLine, "leaks-off-line";
    fn line_attacks(self, line: Line, sq: Square, occ: Bitboard) -> Bitboard {
        let right = reference::line_attacks(line, sq, occ);
        // Wrong when g1 is occupied, whatever the line: a classic masking bug.
        if sq == Square::D4 && occ.contains(Square::G1) {
            right ^ Bitboard::from(Square::G1)
        } else {
            right
        }
    }
}

backend! {
    /// Right per square, wrong in the batch remainder (the last of 9+ entries).
    BadBatchTail, "bad-batch-tail";
    fn line_attacks(self, line: Line, sq: Square, occ: Bitboard) -> Bitboard {
        reference::line_attacks(line, sq, occ)
    }
    fn queen_attacks_batch(self, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
        for (o, &sq) in out.iter_mut().zip(squares) {
            *o = reference::queen_attacks(sq, occ);
        }
        if squares.len() > 8 {
            out[squares.len() - 1] = Bitboard::EMPTY;
        }
    }
}

backend! {
    /// Set-wise that loses the rooks on the h-file: what an overflow barrier
    /// that wraps into the next rank typically does.
    SetwiseIgnoresSliders, "setwise-ignores-sliders";
    fn line_attacks(self, line: Line, sq: Square, occ: Bitboard) -> Bitboard {
        reference::line_attacks(line, sq, occ)
    }
    fn rook_attacks_setwise(self, rooks: Bitboard, occ: Bitboard) -> Bitboard {
        let not_h_file = Bitboard(!0x8080_8080_8080_8080);
        (rooks & not_h_file)
            .iter()
            .fold(Bitboard::EMPTY, |acc, sq| {
                acc | reference::rook_attacks(sq, occ | rooks)
            })
    }
}

#[derive(Clone, Copy, Debug)]
struct NeverSupported;
impl SliderAttacks for NeverSupported {
    const NAME: &'static str = "never-supported";
    // A level of another architecture, which no CPU running these tests
    // has: wasm SIMD on a native target, NEON on wasm32 (where a
    // `+simd128` build has wasm SIMD).
    #[cfg(not(target_arch = "wasm32"))]
    const LEVEL: Level = Level::Simd128;
    #[cfg(target_arch = "wasm32")]
    const LEVEL: Level = Level::Neon;
    // No lookup ever runs.
    const TABLE_BYTES: usize = 0;
    unsafe fn new_unchecked() -> Self {
        NeverSupported
    }
    fn line_attacks(self, _: Line, _: Square, _: Bitboard) -> Bitboard {
        unreachable!("no token can exist")
    }
}

#[test]
fn the_oracle_passes_the_full_suite() {
    let report = check(Oracle, Depth::Full).expect("the oracle agrees with itself");
    println!("{report}");
    // Exhaustive counts follow from the masks: sum over squares of 2^|line| per line.
    let lines: u64 = Square::ALL
        .iter()
        .flat_map(|&sq| Line::ALL.map(|l| 1u64 << LINE_MASKS[sq as usize].get(l).count_ones()))
        .sum();
    assert_eq!(report.line_cases, lines);
    let pieces: u64 = Square::ALL
        .iter()
        .map(|&sq| {
            let m = LINE_MASKS[sq as usize];
            // The piece and the queen, each by its method and by
            // `single_in_any_caller` (the oracle has no keyed form).
            4 * ((1u64 << (m.rank | m.file).count_ones())
                + (1u64 << (m.diagonal | m.anti_diagonal).count_ones()))
        })
        .sum();
    assert_eq!(report.piece_cases, pieces);
    assert!(report.random_cases >= 20_000);
}

#[test]
fn a_backend_wrong_in_one_case_is_caught_by_the_exhaustive_part() {
    let err = check_lines_exhaustive(OffByOneCase).expect_err("must be caught");
    assert!(err.what.contains("h8"), "{err}");
    assert_eq!(err.got ^ err.expected, Bitboard::from(Square::A8));
    let message = check(OffByOneCase, Depth::Full)
        .expect_err("must be caught")
        .to_string();
    assert!(message.contains("wrong-in-one-case"), "{message}");
}

#[test]
fn a_backend_that_reads_bits_off_the_line_is_caught() {
    assert!(check_lines_exhaustive(LeaksOffLine).is_err());
    assert!(check_random(LeaksOffLine, 2_000).is_err());
}

#[test]
fn a_wrong_batch_tail_is_caught() {
    // Every single-square check passes...
    assert!(check_lines_exhaustive(BadBatchTail).is_ok());
    // ...but the batch check does not.
    let err = check_batches(BadBatchTail, 1).expect_err("must be caught");
    assert!(err.what.contains("queen_attacks_batch"), "{err}");
}

#[test]
fn setwise_without_mutual_blocking_is_caught() {
    let err = check_setwise(SetwiseIgnoresSliders, 100).expect_err("must be caught");
    assert!(err.what.contains("rook_attacks_setwise"), "{err}");
}

#[test]
fn an_unsupported_backend_is_skipped_not_passed() {
    assert_eq!(check_or_skip::<NeverSupported>(Depth::Quick), None);
    assert!(NeverSupported::new().is_none());
}

#[test]
fn subsets_are_enumerated_once_each() {
    let mut seen = Vec::new();
    for_each_subset(0b1011_0000, |s| seen.push(s));
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), 8);
    assert!(seen.iter().all(|s| s & !0b1011_0000 == 0));
    let mut count = 0;
    for_each_subset(0, |_| count += 1);
    assert_eq!(count, 1);
}

#[test]
fn deposit_numbers_the_subsets_in_enumeration_order() {
    for mask in [
        0u64,
        0b1011_0000,
        0x8100_0000_0000_0081,
        LINE_MASKS[27].rank,
    ] {
        let mut j = 0;
        for_each_subset(mask, |subset| {
            assert_eq!(deposit(j, mask), subset, "subset {j} of {mask:#x}");
            j += 1;
        });
        assert_eq!(j, 1 << mask.count_ones());
    }
}

#[test]
fn a_sampled_piece_check_takes_every_stride_th_case() {
    // Per square, rook then bishop subsets are numbered from 1; the sample
    // takes the multiples of the stride.
    let expected = |stride: u64| -> u64 {
        Square::ALL
            .iter()
            .map(|&sq| {
                let m = LINE_MASKS[sq as usize];
                let n = (1u64 << (m.rank | m.file).count_ones())
                    + (1u64 << (m.diagonal | m.anti_diagonal).count_ones());
                4 * (n / stride)
            })
            .sum()
    };
    for stride in [61, 9973] {
        assert_eq!(
            check_pieces_exhaustive(Oracle, stride).expect("the oracle agrees"),
            expected(stride)
        );
    }
    assert!(check_pieces_exhaustive(OffByOneCase, 1).is_err());
}

#[test]
fn the_kernel_lists_every_level_this_cpu_detects() {
    use hq_core::cpu::Level;
    if cfg!(target_arch = "x86_64") && !cfg!(miri) && kernel_flags().is_none() {
        println!(
            "hq-testkit: SKIPPED the kernel's second opinion: /proc/cpuinfo describes another CPU (an emulator's host) or is unreadable"
        );
    }
    for level in [Level::X86V2, Level::X86V3, Level::X86V4] {
        let listed = kernel_lists_level(level);
        println!(
            "hq-testkit: {level}: detected {}, /proc/cpuinfo {listed:?}",
            level.is_detected()
        );
        // The kernel's flags and the detection agree wherever both answer.
        if kernel_flags().is_some() {
            assert_eq!(level.is_detected(), listed.is_some(), "{level}");
        }
    }
}
