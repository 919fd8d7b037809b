//! Set-wise attacks: the union of the attacks of *every* slider in a set.
//! The tokens use the occluded fill ([`fill`]): about half the time of
//! set-wise HQ with overflow barriers (the seed's method, now the
//! `ref-setwise-hq` reference row in `benches/reference/setwise_hq.rs`)
//! whatever the number of sliders, and faster still inlined into a job at
//! x86-64-v3, where LLVM vectorizes it (measured on the Intel Xeon
//! `intel-r-xeon-r-processor-f6-ma7-s1` with `cargo run --release -p
//! hq-benches --example setwise_crossover`).

use hq_core::at_most;

/// How a set-wise entry point runs below its crossover: the union of the
/// token's own lookups up to `up_to` sliders, with or without
/// [`hq_core::union_of_up_to_two`] (branch-free) for the first two.
/// Chosen per backend and piece with
/// `cargo run --release -p hq-benches --example setwise_crossover`, whose
/// slider counts vary in an order the branch predictor cannot learn.
///
/// With such counts every crossover is a branch that mispredicts on sets
/// on both sides of it, so the tokens cross over at 2 sliders or use the
/// kernel for every set (`loop_up_to(0)`, no test at all): a kernel costs
/// the same for any count, and the lookups for 3-4 sliders rarely beat it
/// (not even `pext`'s, on the Intel Xeon). A
/// crossover at 5 rooks, measured with fixed counts, made `pext`'s entry
/// 0.87x its own loop for 4-6 rooks in the matrix. Only cheap lookups
/// beat the kernel at 1-2 sliders: `pext`'s, the rooks and bishops of
/// `ssse3` and `avx2`, the bishops of the byte-swap scalar tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerPiece {
    /// Lookups up to this many sliders (0: the kernel for every set).
    pub up_to: u32,
    /// Up to two sliders without a loop: a second lookup for a lone slider
    /// instead of a mispredicted loop exit, which pays for cheap lookups.
    pub pair: bool,
}

/// Lookups up to `n` sliders, up to two of them branch-free.
pub const fn pair_up_to(n: u32) -> PerPiece {
    PerPiece {
        up_to: n,
        pair: true,
    }
}

/// Lookups up to `n` sliders, by a plain loop; `loop_up_to(0)`: the kernel
/// for every set, with no test.
pub const fn loop_up_to(n: u32) -> PerPiece {
    PerPiece {
        up_to: n,
        pair: false,
    }
}

impl PerPiece {
    /// `self`, except in builds with AVX-512 throughout (`-C
    /// target-cpu=native` on an AVX-512 CPU:
    /// [`Feature::Avx512f.is_static()`](hq_core::cpu::Feature::is_static)):
    /// there the fill for every set. LLVM compiles the portable fill to zmm
    /// code in such builds (`vprolvq` rotations), which beats two
    /// branch-free bishop lookups of `scalar-rank-table`; in the run-time
    /// build the same token's jobs run at x86-64-v3, where the lookups win
    /// (setwise_crossover, Intel Xeon, 1-2 bishops mixed).
    pub const fn fill_with_avx512(self) -> PerPiece {
        if hq_core::cpu::Feature::Avx512f.is_static() {
            loop_up_to(0)
        } else {
            self
        }
    }
}

/// The union of `single`'s lookups up to `per_piece.up_to` sliders, else
/// `kernel`, a set-wise kernel: the crossover every set-wise entry point
/// makes.
#[inline(always)]
pub fn loop_or(
    sliders: u64,
    occupancy: u64,
    per_piece: PerPiece,
    single: impl Fn(hq_core::Square, u64) -> u64,
    kernel: impl FnOnce(u64, u64) -> u64,
) -> u64 {
    use hq_core::{Bitboard, union_by_loop, union_of_up_to_two};
    if per_piece.up_to == 0 {
        // No test at all: with one for the empty set, sets of 0 and 1
        // sliders mixed (an engine's queens) would mispredict it.
        return kernel(sliders, occupancy);
    }
    let (set, occupied) = (Bitboard(sliders), Bitboard(occupancy));
    // With `up_to` 2 the second test is the first one again, which the
    // compiler folds.
    if per_piece.pair && per_piece.up_to >= 2 && at_most(sliders, 2) {
        union_of_up_to_two(
            set,
            occupied,
            #[inline(always)]
            |sq, o| Bitboard(single(sq, o.0)),
        )
        .0
    } else if at_most(sliders, per_piece.up_to) {
        union_by_loop(
            set,
            occupied,
            #[inline(always)]
            |sq, o| Bitboard(single(sq, o.0)),
        )
        .0
    } else {
        kernel(sliders, occupancy)
    }
}

/// The three set-wise methods of [`hq_core::SliderAttacks`], by [`loop_or`]:
/// the token's own single-square method up to the given numbers of rooks,
/// bishops and queens, each a [`PerPiece`] written as its constructor
/// ([`pair_up_to`] or [`loop_up_to`]), optionally followed by
/// [`.fill_with_avx512()`](PerPiece::fill_with_avx512), the occluded fill
/// above. Expand it inside an `impl SliderAttacks for Token` block:
/// `setwise_methods!(rooks loop_up_to(0), bishops pair_up_to(2).fill_with_avx512(), queens loop_up_to(0))`.
///
/// With `; compiled`, for tokens with a level above the baseline, the fill
/// runs inside
/// [`SliderAttacks::run_compiled`](hq_core::SliderAttacks::run_compiled)
/// (compiled for the level) unless the build has the level everywhere. The
/// loop stays in the caller: its lookups inline where the caller is compiled
/// for the level (a job, the facade's tables), as a per-piece loop's do.
/// Not for portable tokens: their jobs' level is detected at run time.
#[macro_export]
macro_rules! setwise_methods {
    (rooks $rmode:ident($rmax:literal) $(.$radjust:ident())?,
     bishops $bmode:ident($bmax:literal) $(.$badjust:ident())?,
     queens $qmode:ident($qmax:literal) $(.$qadjust:ident())? $(; $compiled:ident)?) => {
        $crate::setwise_methods!(@one rook_attacks_setwise, rook_attacks, $rmode($rmax) $(.$radjust())?, ROOK $(, $compiled)?);
        $crate::setwise_methods!(@one bishop_attacks_setwise, bishop_attacks, $bmode($bmax) $(.$badjust())?, BISHOP $(, $compiled)?);
        $crate::setwise_methods!(@one queen_attacks_setwise, queen_attacks, $qmode($qmax) $(.$qadjust())?, QUEEN $(, $compiled)?);
    };
    (@one $method:ident, $single:ident, $mode:ident($max:literal) $(.$adjust:ident())?, $directions:ident $(, $compiled:ident)?) => {
        #[inline(always)]
        fn $method(
            self,
            sliders: $crate::__core::Bitboard,
            occupancy: $crate::__core::Bitboard,
        ) -> $crate::__core::Bitboard {
            $crate::__core::Bitboard($crate::setwise::loop_or(
                sliders.0,
                occupancy.0,
                const { $crate::setwise::$mode($max) $(.$adjust())? },
                #[inline(always)]
                |sq, occ| {
                    <Self as $crate::__core::SliderAttacks>::$single(self, sq, $crate::__core::Bitboard(occ)).0
                },
                #[inline(always)]
                |sliders, occupancy| {
                    $crate::setwise_methods!(@fill self, sliders, occupancy, $directions $(, $compiled)?)
                },
            ))
        }
    };
    (@fill $token:ident, $sliders:ident, $occupancy:ident, $directions:ident) => {
        $crate::setwise::fill::attacks($crate::setwise::fill::$directions, $sliders, $occupancy)
    };
    // Only the fill runs in a trampoline, and only where the build lacks the
    // level; the loop stays in the caller (its lookups inline where the
    // caller has the level, as in a job). A trampoline around the loop too
    // was a call per set-wise call even inside code of the level: LLVM
    // judged it too costly to inline, and `pext`'s entry ran at 0.67x its
    // own per-piece loop with 1-2 rooks (bench matrix, Intel Xeon, commit
    // 71aa01a).
    (@fill $token:ident, $sliders:ident, $occupancy:ident, $directions:ident, compiled) => {
        if const { <Self as $crate::__core::SliderAttacks>::LEVEL.is_static() } {
            $crate::setwise_methods!(@fill $token, $sliders, $occupancy, $directions)
        } else {
            <Self as $crate::__core::SliderAttacks>::run_compiled(
                $token,
                #[inline(always)]
                |_| $crate::setwise_methods!(@fill $token, $sliders, $occupancy, $directions),
            )
        }
    };
}

/// Kogge-Stone's occluded fill, one direction at a time, with rotations:
/// the other set-wise method, and the constants the SIMD fills share
/// (`hq_simd` runs the same steps with one direction per lane).
///
/// ```text
/// pro = empty & mask          fill = sliders
/// fill |= pro & rol(fill, r);  pro &= rol(pro, r)
/// fill |= pro & rol(fill, 2r); pro &= rol(pro, 2r)
/// fill |= pro & rol(fill, 4r)
/// attacks = rol(fill, r) & mask
/// ```
///
/// A rotation carries the bits that fall off one edge in at the other; the
/// direction's `mask` removes the squares such bits land on (the a-file for
/// eastward steps, rank 1 for northward ones, both for north-east, ...), so
/// they never propagate and never count as attacked.
pub mod fill {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_H: u64 = FILE_A << 7;
    const RANK_1: u64 = 0xFF;
    const RANK_8: u64 = RANK_1 << 56;

    /// The directions as square steps, rook's first: north, south, east,
    /// west, then north-east, north-west, south-east, south-west.
    pub const STEPS: [i32; 8] = [8, -8, 1, -1, 9, 7, -7, -9];

    /// Where a rotation by `step` lands the bits it wraps around: the
    /// complement of those squares.
    pub const fn wrap_mask(step: i32) -> u64 {
        let file = match step.rem_euclid(8) {
            1 => FILE_A,
            7 => FILE_H,
            _ => 0,
        };
        let rank = if step > 1 {
            RANK_1
        } else if step < -1 {
            RANK_8
        } else {
            0
        };
        !(file | rank)
    }

    /// Per-direction constants, entry `i` for direction `i` of [`STEPS`],
    /// 64-byte aligned so that SIMD code loads eight at once.
    #[derive(Clone, Copy, Debug)]
    #[repr(C, align(64))]
    pub struct Directions {
        /// The rotation of one step (`step mod 64`).
        pub rotate: [u64; 8],
        /// Two steps.
        pub rotate2: [u64; 8],
        /// Four steps.
        pub rotate4: [u64; 8],
        /// [`wrap_mask`].
        pub mask: [u64; 8],
    }

    /// The constants of the eight directions.
    pub const DIRECTIONS: Directions = {
        let mut d = Directions {
            rotate: [0; 8],
            rotate2: [0; 8],
            rotate4: [0; 8],
            mask: [0; 8],
        };
        let mut i = 0;
        while i < 8 {
            let r = STEPS[i].rem_euclid(64) as u64;
            d.rotate[i] = r;
            d.rotate2[i] = (2 * r) % 64;
            d.rotate4[i] = (4 * r) % 64;
            d.mask[i] = wrap_mask(STEPS[i]);
            i += 1;
        }
        d
    };

    /// The directions of the rook (`0..4`), the bishop (`4..8`) and the queen (`0..8`).
    pub const ROOK: core::ops::Range<usize> = 0..4;
    /// See [`ROOK`].
    pub const BISHOP: core::ops::Range<usize> = 4..8;
    /// See [`ROOK`].
    pub const QUEEN: core::ops::Range<usize> = 0..8;

    /// The union of the attacks of `sliders` (which count as occupied) in
    /// the directions `dirs`.
    #[inline(always)]
    pub const fn attacks(dirs: core::ops::Range<usize>, sliders: u64, occupancy: u64) -> u64 {
        let empty = !(occupancy | sliders);
        let d = &DIRECTIONS;
        let mut union = 0;
        let mut i = dirs.start;
        while i < dirs.end {
            let (r, mask) = (d.rotate[i] as u32, d.mask[i]);
            let mut fill = sliders;
            let mut pro = empty & mask;
            fill |= pro & fill.rotate_left(r);
            pro &= pro.rotate_left(r);
            fill |= pro & fill.rotate_left(2 * r % 64);
            pro &= pro.rotate_left(2 * r % 64);
            fill |= pro & fill.rotate_left(4 * r % 64);
            union |= fill.rotate_left(r) & mask;
            i += 1;
        }
        union
    }
}

#[cfg(test)]
mod fill_tests {
    use super::fill::*;
    use hq_core::{Bitboard, Square, reference};

    #[test]
    fn wrap_masks_hold_exactly_the_real_steps() {
        for (i, &step) in STEPS.iter().enumerate() {
            for sq in 0..64i32 {
                let (f, r) = (sq % 8, sq / 8);
                let target = sq + step;
                let landed = target.rem_euclid(64);
                let real = (0..64).contains(&target)
                    && (landed % 8 - f).abs() <= 1
                    && (landed / 8 - r).abs() <= 1;
                assert_eq!(
                    DIRECTIONS.mask[i] & (1 << landed) != 0,
                    real,
                    "step {step} from {sq}"
                );
            }
        }
    }

    #[test]
    fn one_slider_gives_the_oracle() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for sq in Square::ALL {
            for _ in 0..64 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let occ = Bitboard(x & x.rotate_left(17));
                assert_eq!(
                    attacks(ROOK, sq.bit(), occ.0),
                    reference::rook_attacks(sq, occ).0
                );
                assert_eq!(
                    attacks(BISHOP, sq.bit(), occ.0),
                    reference::bishop_attacks(sq, occ).0
                );
            }
        }
    }
}
