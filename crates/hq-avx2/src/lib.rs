//! AVX2 Hyperbola Quintessence behind the [`Avx2`] token: full bit reversal
//! of 64-bit lanes with `vpshufb`, one queen per ymm for single lookups and
//! four squares per ymm (structure of arrays) for batches.
//!
//! # How a lookup runs
//!
//! * Rook, bishop and queen single lookups: `hq_ssse3`'s kernels (two lines
//!   per xmm, ranks moved onto the a1-h8 diagonal), compiled here with AVX2
//!   (three-operand VEX code).
//! * Batches: layout (b), four squares per ymm, structure of arrays
//!   ([`kernels::queen_attacks_soa`]): four [`hq_core::LINE_MASKS`] records
//!   loaded and transposed, one ymm per line kind; files and diagonals are
//!   reversed by the `vpshufb` byte swap, ranks by the nibble-table bit
//!   reversal inside bytes.
//! * Set-wise: `hq_scalar::setwise`.
//!
//! Layout (a), one queen per ymm with full 64-bit bit reversal on all four
//! lanes ([`kernels::queen_attacks_lanes`]), and its pair form
//! ([`kernels::queen_attacks_lanes_pair`]) are implemented, tested and
//! measured, but lose to the two-xmm kernel (below).
//!
//! # Choices, measured
//!
//! `cargo bench -p hq-avx2 --bench layouts -- --warm-up-time 1
//! --measurement-time 2` (AMD Zen 3, 2 shared cores, busy: load average 7-9
//! during the run, so only ratios within the run mean anything and gaps
//! under about 20 % are noise: `ssse3` and `avx2 xmm` run nearly the same
//! code). Nanoseconds per lookup, medians; method as in `hq_ssse3`'s docs.
//!
//! | ns/lookup | rook thr. | rook lat. | bishop thr. | bishop lat. | queen thr. | queen lat. |
//! |---|---|---|---|---|---|---|
//! | **avx2** (xmm kernels, VEX) | **3.48** | 9.2 | 4.45 | 7.7 | 5.26 | 14.6 |
//! | xmm pair form | 3.46 | 14.9 | 4.24 | 7.0 | 5.81 | 13.2 |
//! | xmm, ranks by full bit reversal | 4.89 | 9.5 | - | - | - | - |
//! | (a) one queen per ymm | - | - | - | - | 5.24 | 20.6 |
//! | (a) one queen per ymm, pair form | - | - | - | - | 9.36 | 24.9 |
//! | ssse3 | 4.73 | 9.3 | 4.71 | 10.2 | **3.95** | 14.4 |
//! | scalar-rank-table | 3.53 | **5.3** | 4.69 | **6.1** | 5.08 | **9.3** |
//! | scalar-rank-diagonal | 5.72 | 8.8 | **3.99** | 6.9 | 7.84 | 12.5 |
//! | scalar-reverse | 13.8 | 15.9 | 17.2 | 21.6 | 20.2 | 35.3 |
//!
//! | ns/lookup, batches of 16 | rook | bishop | queen |
//! |---|---|---|---|
//! | **avx2** = (b) four squares per ymm | **2.63** | **1.92** | **3.82** |
//! | xmm kernels in an `avx2` loop | 3.49 | 2.98 | 5.58 |
//! | (a) one queen per ymm in an `avx2` loop | - | - | 6.76 |
//! | ssse3 | 3.70 | 2.85 | 5.72 |
//! | scalar-rank-table (trait loop) | 4.67 | 4.77 | 8.16 |
//! | scalar-rank-diagonal | 7.48 | 4.85 | 10.9 |
//! | scalar-reverse | 17.0 | 16.5 | 26.4 |
//!
//! * **Single lookups: the xmm kernels, not layout (a).** One queen per ymm
//!   ties on throughput (5.24 vs 5.26) and loses latency by 1.4x: two full
//!   bit reversals (7 ops each) plus a four-lane reduction cost more than
//!   two byte-swap pairs. Its pair form is worse still (the occupancy and the
//!   result each need a reversal, and both orientations need reducing).
//! * **Batches: layout (b).** 1.33x (rook), 1.55x (bishop), 1.46x (queen)
//!   faster than the xmm kernels in the same loop, and 1.78x, 2.49x, 2.14x
//!   faster than `scalar-rank-table`.
//! * **Against scalar**: on single lookups AVX2 is level on throughput and
//!   behind on latency (0.6-0.8x), for the same reason as SSSE3 (register
//!   file round trip and call on the dependency chain).
//!
//! **Caveat, `-C target-cpu=native`.** The same bench built with
//! `RUSTFLAGS="-C target-cpu=native"` (scalar code then gets AVX2 and BMI,
//! inlines, and LLVM auto-vectorizes the trait's batch loops) puts
//! `scalar-rank-table` level with or ahead of every SIMD single lookup
//! (queen throughput 5.0 vs 5.7 ns, latency 8.1 vs 17 ns) and of the bishop
//! and queen batches (1.3 vs 1.9, 4.1 vs 4.7 ns); only the rook batch stays
//! ahead (2.08 vs 2.69 ns, 1.29x). The SIMD tokens pay off behind runtime
//! dispatch in a portable build, which is the facade's case.
//!
//! ```
//! use hq_core::{Bitboard, SliderAttacks, Square};
//! use hq_avx2::Avx2;
//!
//! if let Some(hq) = Avx2::new() {
//!     let attacks = hq.queen_attacks(Square::D4, Bitboard::from(Square::D6));
//!     assert_eq!(attacks.count(), 25);
//! }
//! ```

#[cfg(target_arch = "x86_64")]
pub mod kernels;

use hq_core::{Bitboard, Line, SliderAttacks, Square};

/// The AVX2 backend (`avx2`).
#[derive(Clone, Copy, Debug)]
pub struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl SliderAttacks for Avx2 {
    const NAME: &'static str = "avx2";
    const REQUIRED_FEATURES: &'static [&'static str] = &["avx2"];

    #[inline]
    fn is_supported() -> bool {
        std::is_x86_feature_detected!("avx2")
    }

    #[inline]
    unsafe fn new_unchecked() -> Self {
        Avx2(())
    }

    /// One line: the piece kernel through it, masked to the line (the other
    /// line's attacks lie outside that mask).
    #[inline]
    fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
        let piece = match line {
            Line::Rank | Line::File => self.rook_attacks(sq, occupancy),
            Line::Diagonal | Line::AntiDiagonal => self.bishop_attacks(sq, occupancy),
        };
        piece & Bitboard(hq_core::line_mask(line, sq))
    }

    #[inline]
    fn rook_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
        // SAFETY: the token proves avx2 is present.
        Bitboard(unsafe { kernels::rook_attacks(occupancy.0, sq) })
    }

    #[inline]
    fn bishop_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
        // SAFETY: the token proves avx2 is present.
        Bitboard(unsafe { kernels::bishop_attacks(occupancy.0, sq) })
    }

    #[inline]
    fn queen_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
        // SAFETY: the token proves avx2 is present.
        Bitboard(unsafe { kernels::queen_attacks_xmm(occupancy.0, sq) })
    }

    #[inline]
    fn rook_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
        // SAFETY: the token proves avx2 is present.
        unsafe { kernels::rook_attacks_soa(squares, occupancy.0, out) }
    }

    #[inline]
    fn bishop_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
        // SAFETY: the token proves avx2 is present.
        unsafe { kernels::bishop_attacks_soa(squares, occupancy.0, out) }
    }

    #[inline]
    fn queen_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
        // SAFETY: the token proves avx2 is present.
        unsafe { kernels::queen_attacks_soa(squares, occupancy.0, out) }
    }

    hq_scalar::setwise_methods!();
}

/// Off x86_64 the token never exists (`is_supported` is false); the methods
/// fall back to portable HQ so that the crate still compiles and an `unsafe`
/// misuse of `new_unchecked` still gets right answers.
#[cfg(not(target_arch = "x86_64"))]
impl SliderAttacks for Avx2 {
    const NAME: &'static str = "avx2";
    const REQUIRED_FEATURES: &'static [&'static str] = &["avx2"];

    #[inline]
    fn is_supported() -> bool {
        false
    }

    #[inline]
    unsafe fn new_unchecked() -> Self {
        Avx2(())
    }

    #[inline]
    fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
        Bitboard(hq_scalar::line_attacks(occupancy.0, line, sq))
    }
}
