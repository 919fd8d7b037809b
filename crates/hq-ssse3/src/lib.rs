//! SSSE3 Hyperbola Quintessence: two lines per xmm register, reversed by
//! `pshufb` byte swaps (Aleks Peshkov's sequence), behind the [`Ssse3`] token.
//!
//! # How a lookup runs
//!
//! Bishops are Peshkov's sequence: the occupancy in both lanes, `and` with
//! the `{diagonal, anti-diagonal}` masks, `pshufb` byte swap, two `psubq`,
//! byte swap back, `pxor`, `and`, then the two lanes or-ed. Rooks use the
//! same sequence on `{file, rank moved onto the a1-h8 diagonal}`: one
//! `pshufb` puts the rank's byte into every byte of lane 1, the diagonal
//! mask keeps bit `k` of byte `k`, and after HQ one `psadbw` sums the bytes
//! back into the rank's attack byte (see [`kernels`]). Queens do both pairs
//! and or three lanes. Per-square records (masks, singletons, byte-swapped
//! singletons) are 16-byte aligned and derived from `hq_core::LINE_MASKS` at
//! compile time. Batches run the same kernels in a loop compiled with
//! `ssse3`; set-wise calls use `hq_scalar::setwise`.
//!
//! # Choices, measured
//!
//! `cargo bench -p hq-ssse3 --bench variants -- --warm-up-time 1
//! --measurement-time 2` (AMD Zen 3, 2 shared cores, busy: load average 7-9
//! during the run, so only ratios within the run mean anything and gaps
//! under about 20 % are noise). Nanoseconds per lookup, medians; the scalar
//! tokens inline into the benchmark loop, the SSSE3 kernels are calls (as
//! behind runtime dispatch). Throughput: 1024 independent lookups, squares
//! random, occupancies `rand & rand`; latency: each occupancy xors in bit 0
//! of the previous result; batch: 16 squares per call, one occupancy.
//!
//! | ns/lookup | rook thr. | rook lat. | bishop thr. | bishop lat. | queen thr. | queen lat. |
//! |---|---|---|---|---|---|---|
//! | **ssse3** (plain, rank on diagonal) | **4.42** | 15.3 | **4.94** | 13.3 | **6.59** | 15.2 |
//! | pair form ([`kernels::rook_attacks_pair`] ...) | 3.70 | 15.6 | 4.67 | 11.9 | 8.00 | 18.5 |
//! | ranks by nibble-table bit reversal | 6.46 | 18.3 | - | - | 9.72 | 22.0 |
//! | ranks by scalar first-rank table | - | - | - | - | 7.70 | 14.0 |
//! | scalar-rank-table | 5.92 | **8.6** | 5.26 | 8.6 | 8.73 | **9.9** |
//! | scalar-rank-diagonal | 6.60 | 14.1 | 5.39 | **8.0** | 13.3 | 14.6 |
//! | scalar-reverse | 18.2 | 30.0 | 22.1 | 26.1 | 33.6 | 51.8 |
//!
//! | ns/lookup, batches of 16 | rook | bishop | queen |
//! |---|---|---|---|
//! | **ssse3** (plain kernels in an `ssse3` loop) | **4.34** | 2.90 | **4.25** |
//! | pair form in the same loop | 5.24 | **2.77** | 6.13 |
//! | scalar-rank-table (trait loop) | 5.73 | 4.79 | 5.70 |
//! | scalar-rank-diagonal | 9.52 | 4.81 | 8.20 |
//! | scalar-reverse | 21.5 | 17.0 | 19.4 |
//!
//! * **Ranks: moved onto the diagonal**, not bit-reversed by nibble tables
//!   (1.46x faster rook throughput, 1.47x queen) and not the scalar
//!   first-rank table (1.17x faster queen throughput; the table is 8 %
//!   better on queen latency, within noise).
//! * **Plain form, not the pair form**, for the token: the pair form wins
//!   single rook and bishop throughput by 5-15 % but loses queens by 21 %
//!   (throughput) and 22 % (latency) and rook and queen batches by 20-45 %.
//!   It stays as documented functions ([`kernels::queen_attacks_pair`] and
//!   friends), checked exhaustively by the unit tests.
//! * **Against scalar**: SSSE3 is ahead on throughput (1.2-1.3x the best
//!   scalar token) and batches (1.3-1.65x), behind on latency (0.55-0.65x):
//!   the round trip general register -> xmm -> general register and the call
//!   sit on the dependency chain.
//!
//! ```
//! use hq_core::{Bitboard, SliderAttacks, Square};
//! use hq_ssse3::Ssse3;
//!
//! if let Some(hq) = Ssse3::new() {
//!     let attacks = hq.queen_attacks(Square::D4, Bitboard::from(Square::D6));
//!     assert_eq!(attacks.count(), 25);
//! }
//! ```

#[cfg(target_arch = "x86_64")]
pub mod kernels;

use hq_core::{Bitboard, Line, SliderAttacks, Square};

/// The SSSE3 backend (`ssse3`): plain form, rank moved onto the diagonal.
#[derive(Clone, Copy, Debug)]
pub struct Ssse3(());

/// The token boilerplate: feature check, line attacks from the piece
/// kernels, batches and set-wise; `$rook`, `$bishop`, `$queen` and the batch
/// kernels are the names of functions in [`kernels`].
macro_rules! ssse3_token {
    ($token:ident, $name:literal, $rook:ident, $bishop:ident, $queen:ident,
     $rook_batch:ident, $bishop_batch:ident, $queen_batch:ident) => {
        #[cfg(target_arch = "x86_64")]
        impl SliderAttacks for $token {
            const NAME: &'static str = $name;
            const REQUIRED_FEATURES: &'static [&'static str] = &["ssse3"];

            #[inline]
            fn is_supported() -> bool {
                std::is_x86_feature_detected!("ssse3")
            }

            #[inline]
            unsafe fn new_unchecked() -> Self {
                $token(())
            }

            /// One line: the piece kernel through it, masked to the line
            /// (the other line's attacks lie outside that mask).
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
                // SAFETY: the token proves ssse3 is present.
                Bitboard(unsafe { kernels::$rook(occupancy.0, sq) })
            }

            #[inline]
            fn bishop_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
                // SAFETY: the token proves ssse3 is present.
                Bitboard(unsafe { kernels::$bishop(occupancy.0, sq) })
            }

            #[inline]
            fn queen_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
                // SAFETY: the token proves ssse3 is present.
                Bitboard(unsafe { kernels::$queen(occupancy.0, sq) })
            }

            #[inline]
            fn rook_attacks_batch(
                self,
                squares: &[Square],
                occupancy: Bitboard,
                out: &mut [Bitboard],
            ) {
                // SAFETY: the token proves ssse3 is present.
                unsafe { kernels::$rook_batch(squares, occupancy.0, out) }
            }

            #[inline]
            fn bishop_attacks_batch(
                self,
                squares: &[Square],
                occupancy: Bitboard,
                out: &mut [Bitboard],
            ) {
                // SAFETY: the token proves ssse3 is present.
                unsafe { kernels::$bishop_batch(squares, occupancy.0, out) }
            }

            #[inline]
            fn queen_attacks_batch(
                self,
                squares: &[Square],
                occupancy: Bitboard,
                out: &mut [Bitboard],
            ) {
                // SAFETY: the token proves ssse3 is present.
                unsafe { kernels::$queen_batch(squares, occupancy.0, out) }
            }

            hq_scalar::setwise_methods!();
        }

        /// Off x86_64 the token never exists (`is_supported` is false); the
        /// methods fall back to portable HQ so that the crate still compiles
        /// and an `unsafe` misuse of `new_unchecked` still gets right answers.
        #[cfg(not(target_arch = "x86_64"))]
        impl SliderAttacks for $token {
            const NAME: &'static str = $name;
            const REQUIRED_FEATURES: &'static [&'static str] = &["ssse3"];

            #[inline]
            fn is_supported() -> bool {
                false
            }

            #[inline]
            unsafe fn new_unchecked() -> Self {
                $token(())
            }

            #[inline]
            fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
                Bitboard(hq_scalar::line_attacks(occupancy.0, line, sq))
            }
        }
    };
}

ssse3_token!(
    Ssse3,
    "ssse3",
    rook_attacks,
    bishop_attacks,
    queen_attacks,
    rook_attacks_batch,
    bishop_attacks_batch,
    queen_attacks_batch
);
