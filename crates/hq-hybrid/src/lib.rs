//! Slider attacks on both kinds of execution unit at once.
//!
//! `pext`'s lookups keep the integer ports busy (PEXT, loads) and leave the
//! vector units idle; `avx512`'s and `avx2`'s Hyperbola Quintessence keep
//! the vector units busy and leave PEXT's port idle. An out-of-order core
//! runs both kinds side by side, so work split between them and
//! interleaved in one loop is bounded by the sum of the two throughputs,
//! not by the faster one:
//!
//! | entry point | vector units | integer ports |
//! |---|---|---|
//! | batches | registers of squares per step (8 per zmm, 4 per ymm) | more squares by PEXT, in proportion to the two units' rates on the CPU ([`Split`]) |
//! | queen single lookups (the mixed queen) | its rook half | its bishop half (a 41 KiB table, not the rooks' 800) |
//! | rook and bishop single lookups, set-wise calls | the vector backend's | |
//!
//! A rook's or a bishop's single lookup is one unit's work: the vector
//! backend's, as in that backend (where PEXT serves them better, a plan
//! names `pext` for them; `single.queen=hybrid-...` takes the mixed queen
//! alone).
//!
//! Set-wise calls stay the vector backend's: its fill costs the same for
//! one slider as for ten (about two lookups), so PEXT lookups of some
//! sliders beside it only add work. A queen set split by direction (the
//! rook directions by the fill, each queen's bishop half by PEXT) was
//! measured and lost to the fill.
//!
//! The lead needs spare issue slots. `avx512` alone is bound by its
//! vector ports, with issue slots to spare; the PEXT half fills them. When
//! the core's other hardware thread is busy, this thread gets about half
//! the issue width, instructions per lookup decide, and the hybrid (more
//! instructions per lookup than `avx512`) runs at about the vector
//! backend's speed. `benches/examples/core_share.rs` measures the two
//! states apart; `docs/benchmarks.md` has the figures.
//!
//! | token | level | vector half |
//! |---|---|---|
//! | [`HybridAvx512Pext`] (`hybrid-avx512-pext`) | x86-64-v4 + GFNI | [`hq_simd::Avx512`] |
//! | [`HybridAvx2Pext`] (`hybrid-avx2-pext`) | x86-64-v3 | [`hq_simd::Avx2`] |
//!
//! Both levels include BMI2, so either token proves `pext` too. Off x86-64
//! the tokens exist but are never supported, as their halves.
//!
//! ```
//! use hq_core::{Bitboard, SliderAttacks, Square};
//!
//! if let Some(hybrid) = hq_hybrid::HybridAvx2Pext::new() {
//!     let squares = [Square::A1, Square::D4, Square::H8];
//!     let mut out = [Bitboard::EMPTY; 3];
//!     hybrid.queen_attacks_batch(&squares, Bitboard::EMPTY, &mut out);
//!     assert_eq!(out[1].count(), 27);
//! }
//! ```

#![no_std]

use core::sync::atomic::{AtomicU8, Ordering::Relaxed};
use hq_core::cpu::{Identity, Level, Vendor};
use hq_core::{Bitboard, Line, Slider, SliderAttacks, Square, check_batch_lengths};
use hq_pext::Pext;

/// `out[i]` = the attacks from `squares[i]`, in steps of `V + K` squares:
/// the first `V` by `vector`, one register of `LANES` squares per call
/// (the vector backend's `batch_step`, which inlines), the
/// other `K` by `lookup`, so that both kinds of unit have work in the
/// core's window at once. The rest, less than a step, is split in the same
/// proportion, the vector's share rounded down to whole registers: the
/// vector never runs a padded register.
///
/// Each step runs its lookups before its register. A PEXT lookup waits on
/// a chain of loads (square, mask, PEXT, the attack set: in the rooks' 800
/// KiB table often an L1 miss), the register on the vector ports; issued
/// first, the loads are in flight while the vector work runs (measured:
/// the commit message of the change).
///
/// Steps of whole slices matter: a loop over `chunks` (a step's length
/// known only at run time) ran the queen batch at 0.6-0.8x this one, and
/// steps that leave a remainder of 64 squares at 0.7-0.9x (figures in the
/// commit message that made this choice).
#[inline(always)]
fn interleaved<const LANES: usize, const V: usize, const K: usize>(
    squares: &[Square],
    out: &mut [Bitboard],
    vector: impl Fn(&[Square], &mut [Bitboard]),
    lookup: impl Fn(Square) -> Bitboard,
) {
    const { assert!(V.is_multiple_of(LANES) && V > 0 && K > 0) };
    let mut square_steps = squares.chunks_exact(V + K);
    let mut out_steps = out.chunks_exact_mut(V + K);
    for (squares, out) in (&mut square_steps).zip(&mut out_steps) {
        let (by_vector, by_lookup) = squares.split_at(V);
        let (vector_out, lookup_out) = out.split_at_mut(V);
        for (o, &sq) in lookup_out.iter_mut().zip(by_lookup) {
            *o = lookup(sq);
        }
        registers::<LANES>(by_vector, vector_out, &vector);
    }
    let (squares, out) = (square_steps.remainder(), out_steps.into_remainder());
    let split = squares.len() * V / (V + K) / LANES * LANES;
    let (by_vector, by_lookup) = squares.split_at(split);
    let (vector_out, lookup_out) = out.split_at_mut(split);
    for (o, &sq) in lookup_out.iter_mut().zip(by_lookup) {
        *o = lookup(sq);
    }
    registers::<LANES>(by_vector, vector_out, &vector);
}

/// `vector` on each register of `LANES` squares (`squares.len()` is a
/// multiple of it).
#[inline(always)]
fn registers<const LANES: usize>(
    squares: &[Square],
    out: &mut [Bitboard],
    vector: &impl Fn(&[Square], &mut [Bitboard]),
) {
    // Indexes, not `chunks_exact(..).zip(..)`: in a big caller LLVM left
    // that zip's constructor a call per step (a queen batch at 0.6x).
    let mut i = 0;
    while i + LANES <= squares.len() {
        vector(&squares[i..i + LANES], &mut out[i..i + LANES]);
        i += LANES;
    }
}

/// How a batch shares its squares between the two kinds of unit: in
/// proportion to what each does alone on the CPU, so that neither waits
/// for the other. Chosen once per process from the CPU's vendor and
/// family ([`Split::of`]); the steps per piece are each token's.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Split {
    /// Steps measured on Intel Xeon 6/0xa7, where `avx512` and `pext`
    /// batches run at about the same rate: a zmm of eight squares beside
    /// eight PEXT lookups. Every CPU but the next.
    Standard,
    /// AMD family 0x1a and later (Zen 5's four 512-bit pipes): `avx512`
    /// batches run at about twice `pext`'s rate there, so three zmm
    /// registers per eight PEXT lookups (measured on Zen 5; later families
    /// inferred from it, as the facade's `amd-zen5` class).
    WideVector,
}

impl Split {
    /// Every split, for tests that run each.
    pub const ALL: [Split; 2] = [Split::Standard, Split::WideVector];

    /// The split of a CPU.
    pub const fn of(cpu: Identity) -> Split {
        match (cpu.vendor, cpu.family) {
            (Vendor::Amd, 0x1a..) => Split::WideVector,
            _ => Split::Standard,
        }
    }

    /// This CPU's split: CPUID once (it traps to the hypervisor in a VM),
    /// then one load.
    #[inline(always)]
    pub fn detect() -> Split {
        static SPLIT: AtomicU8 = AtomicU8::new(0);
        match SPLIT.load(Relaxed) {
            1 => Split::Standard,
            2 => Split::WideVector,
            _ => {
                let split = Split::of(Identity::detect());
                SPLIT.store(split as u8 + 1, Relaxed);
                split
            }
        }
    }
}

/// Defines a hybrid token over the vector backend `$vector` (`$lanes`
/// squares per register) and `pext`: each piece's batches in steps of `v`
/// squares by the vector and `k` by PEXT ([`interleaved`]), one pair per
/// [`Split`].
macro_rules! hybrid_token {
    (
        $(#[$doc:meta])*
        $token:ident: $name:literal, $level:ident, vector $vector:ident, lanes $lanes:literal,
        standard (vector + pext) rook $rv:literal + $rk:literal, bishop $bv:literal + $bk:literal,
        queen $qv:literal + $qk:literal;
        wide vector (vector + pext) rook $wrv:literal + $wrk:literal, bishop $wbv:literal + $wbk:literal,
        queen $wqv:literal + $wqk:literal
    ) => {
        hq_core::slider_token! {
            $(#[$doc])*
            pub struct $token: $name, Level::$level;
            impl {
                /// The vector backend's tables (its rook and bishop; its
                /// queen's records too, which the mixed queen does not
                /// read: a bound) and `pext`'s bishop tables.
                const TABLE_BYTES: usize =
                    <hq_simd::$vector as SliderAttacks>::TABLE_BYTES + Pext::BISHOP_TABLE_BYTES;

                #[inline]
                fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
                    hq_core::line_attacks_from_piece(self, line, sq, occupancy)
                }

                #[inline]
                fn rook_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
                    self.vector().rook_attacks(sq, occupancy)
                }

                #[inline]
                fn bishop_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
                    self.vector().bishop_attacks(sq, occupancy)
                }

                /// The mixed queen: the rook half on the vector units, the
                /// bishop half by PEXT on the integer ports, at once.
                #[inline]
                fn queen_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
                    self.vector().rook_attacks(sq, occupancy) | self.pext().bishop_attacks(sq, occupancy)
                }

                /// The mixed queen (the reversed occupancy is not needed).
                #[inline]
                fn queen_attacks_pair(self, sq: Square, occupancy: Bitboard, reversed: Bitboard) -> Bitboard {
                    hq_core::debug_check_pair(occupancy, reversed);
                    self.queen_attacks(sq, occupancy)
                }

                /// Both halves' forms for any caller: the vector kernels as
                /// `asm!`, PEXT's `pext` too.
                #[inline(always)]
                fn single_in_any_caller(self, slider: Slider, sq: Square, occupancy: Bitboard) -> Bitboard {
                    let vector = self.vector();
                    match slider {
                        Slider::Queen => {
                            vector.single_in_any_caller(Slider::Rook, sq, occupancy)
                                | self.pext().single_in_any_caller(Slider::Bishop, sq, occupancy)
                        }
                        _ => vector.single_in_any_caller(slider, sq, occupancy),
                    }
                }

                #[inline(always)]
                fn rook_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
                    self.batch_with(Split::detect(), Slider::Rook, squares, occupancy, out)
                }

                #[inline(always)]
                fn bishop_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
                    self.batch_with(Split::detect(), Slider::Bishop, squares, occupancy, out)
                }

                #[inline(always)]
                fn queen_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
                    self.batch_with(Split::detect(), Slider::Queen, squares, occupancy, out)
                }

                /// The vector backend's (`avx512`'s fill as `asm!`).
                #[inline(always)]
                fn setwise_in_any_caller(self, slider: Slider, sliders: Bitboard, occupancy: Bitboard) -> Bitboard {
                    self.vector().setwise_in_any_caller(slider, sliders, occupancy)
                }

                #[inline]
                fn rook_attacks_setwise(self, rooks: Bitboard, occupancy: Bitboard) -> Bitboard {
                    self.vector().rook_attacks_setwise(rooks, occupancy)
                }

                #[inline]
                fn bishop_attacks_setwise(self, bishops: Bitboard, occupancy: Bitboard) -> Bitboard {
                    self.vector().bishop_attacks_setwise(bishops, occupancy)
                }

                /// The vector backend's fill, as for rooks and bishops: a
                /// queen set split by direction (the rooks' by the fill,
                /// each queen's bishop half by a PEXT lookup) ran at 0.72x
                /// the fill with 1-2 queens and 0.21-0.30x with 4-14
                /// (commit message of the change).
                #[inline]
                fn queen_attacks_setwise(self, queens: Bitboard, occupancy: Bitboard) -> Bitboard {
                    self.vector().queen_attacks_setwise(queens, occupancy)
                }
            }
        }

        impl $token {
            /// `slider`'s batch in `split`'s steps of squares by the vector
            /// and by PEXT ([`interleaved`]); `slider` is a constant at each
            /// call. The batch entry points pass [`Split::detect`]; tests pass
            /// each split, to check both loops on any CPU.
            #[doc(hidden)]
            #[inline(always)]
            pub fn batch_with(
                self,
                split: Split,
                slider: Slider,
                squares: &[Square],
                occupancy: Bitboard,
                out: &mut [Bitboard],
            ) {
                match (split, slider) {
                    (Split::Standard, Slider::Rook) => self.batch::<$rv, $rk>(slider, squares, occupancy, out),
                    (Split::Standard, Slider::Bishop) => self.batch::<$bv, $bk>(slider, squares, occupancy, out),
                    (Split::Standard, Slider::Queen) => self.batch::<$qv, $qk>(slider, squares, occupancy, out),
                    (Split::WideVector, Slider::Rook) => self.batch::<$wrv, $wrk>(slider, squares, occupancy, out),
                    (Split::WideVector, Slider::Bishop) => self.batch::<$wbv, $wbk>(slider, squares, occupancy, out),
                    (Split::WideVector, Slider::Queen) => self.batch::<$wqv, $wqk>(slider, squares, occupancy, out),
                }
            }

            /// `slider`'s batch: steps of `V` squares by the vector and `K`
            /// by PEXT ([`interleaved`]).
            #[inline(always)]
            fn batch<const V: usize, const K: usize>(
                self,
                slider: Slider,
                squares: &[Square],
                occupancy: Bitboard,
                out: &mut [Bitboard],
            ) {
                check_batch_lengths(squares.len(), out.len());
                let (vector, pext) = (self.vector(), self.pext());
                interleaved::<$lanes, V, K>(
                    squares,
                    out,
                    #[inline(always)]
                    |sq, out| vector.batch_step(slider, sq, occupancy, out),
                    #[inline(always)]
                    |sq| slider.single(pext, sq, occupancy),
                );
            }

            /// The vector half's token.
            #[inline(always)]
            fn vector(self) -> hq_simd::$vector {
                // SAFETY: this token proves its level, which includes the
                // vector backend's.
                unsafe { <hq_simd::$vector as SliderAttacks>::new_unchecked() }
            }

            /// The PEXT half's token.
            #[inline(always)]
            fn pext(self) -> Pext {
                // SAFETY: this token proves its level, x86-64-v3 or above,
                // which includes `pext`'s.
                unsafe { Pext::new_unchecked() }
            }
        }

        // The halves' levels are within the token's.
        const _: () = assert!(
            (Level::$level as u8) >= (<hq_simd::$vector as SliderAttacks>::LEVEL as u8)
                && (Level::$level as u8) >= (<Pext as SliderAttacks>::LEVEL as u8)
        );
    };
}

hybrid_token! {
    /// AVX-512 + GFNI beside PEXT (`hybrid-avx512-pext`): batches of a zmm
    /// of eight squares by GFNI HQ and the next squares by PEXT per step.
    HybridAvx512Pext: "hybrid-avx512-pext", X86V4, vector Avx512, lanes 8,
    standard (vector + pext) rook 8 + 8, bishop 8 + 8, queen 8 + 8;
    wide vector (vector + pext) rook 24 + 8, bishop 24 + 8, queen 24 + 8
}

hybrid_token! {
    /// AVX2 beside PEXT (`hybrid-avx2-pext`): batches of a ymm of four
    /// squares by AVX2 HQ and the next squares by PEXT per step.
    HybridAvx2Pext: "hybrid-avx2-pext", X86V3, vector Avx2, lanes 4,
    standard (vector + pext) rook 4 + 4, bishop 4 + 8, queen 4 + 8;
    wide vector (vector + pext) rook 4 + 4, bishop 4 + 8, queen 4 + 8
}
