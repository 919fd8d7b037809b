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
/// With `; fill compiled`, the fill runs as [`fill_in_any_caller`] in the
/// methods too: inlined into the loops of `pext`'s jobs, LLVM left it
/// unvectorized in the engine-shaped loop (4-6 queens: 83 M calls/s
/// against 232 through the call; free_functions example, AMD Zen 4).
///
/// With `; any caller`, for a token whose single lookups inline into code
/// of any level (portable code, `pext`'s `asm!`), also
/// `setwise_in_any_caller`: the same crossovers and lookups, and only the
/// fill inside [`SliderAttacks::run_compiled`](hq_core::SliderAttacks::run_compiled)
/// ([`fill_in_any_caller`]).
#[macro_export]
macro_rules! setwise_methods {
    (rooks $rmode:ident($rmax:literal) $(.$radjust:ident())?,
     bishops $bmode:ident($bmax:literal) $(.$badjust:ident())?,
     queens $qmode:ident($qmax:literal) $(.$qadjust:ident())? $(; fill $fill:ident)?) => {
        $crate::setwise_methods!(@one rook_attacks_setwise, rook_attacks, $rmode($rmax) $(.$radjust())?, ROOK $(, $fill)?);
        $crate::setwise_methods!(@one bishop_attacks_setwise, bishop_attacks, $bmode($bmax) $(.$badjust())?, BISHOP $(, $fill)?);
        $crate::setwise_methods!(@one queen_attacks_setwise, queen_attacks, $qmode($qmax) $(.$qadjust())?, QUEEN $(, $fill)?);
    };
    (rooks $rmode:ident($rmax:literal) $(.$radjust:ident())?,
     bishops $bmode:ident($bmax:literal) $(.$badjust:ident())?,
     queens $qmode:ident($qmax:literal) $(.$qadjust:ident())?; $(fill $fill:ident,)? any caller) => {
        $crate::setwise_methods!(rooks $rmode($rmax) $(.$radjust())?, bishops $bmode($bmax) $(.$badjust())?, queens $qmode($qmax) $(.$qadjust())? $(; fill $fill)?);
        #[inline(always)]
        fn setwise_in_any_caller(
            self,
            slider: $crate::__core::Slider,
            sliders: $crate::__core::Bitboard,
            occupancy: $crate::__core::Bitboard,
        ) -> $crate::__core::Bitboard {
            use $crate::__core::Slider;
            match slider {
                Slider::Rook => $crate::setwise_methods!(@any self, rook_attacks, $rmode($rmax) $(.$radjust())?, ROOK, sliders, occupancy),
                Slider::Bishop => $crate::setwise_methods!(@any self, bishop_attacks, $bmode($bmax) $(.$badjust())?, BISHOP, sliders, occupancy),
                Slider::Queen => $crate::setwise_methods!(@any self, queen_attacks, $qmode($qmax) $(.$qadjust())?, QUEEN, sliders, occupancy),
            }
        }
    };
    (@one $method:ident, $single:ident, $mode:ident($max:literal) $(.$adjust:ident())?, $directions:ident $(, $fill:ident)?) => {
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
                |sliders, occupancy| $crate::setwise_methods!(@fill self, $directions, sliders, occupancy $(, $fill)?),
            ))
        }
    };
    (@fill $token:ident, $directions:ident, $sliders:ident, $occupancy:ident) => {
        $crate::setwise::fill::attacks($crate::setwise::fill::$directions, $sliders, $occupancy)
    };
    (@fill $token:ident, $directions:ident, $sliders:ident, $occupancy:ident, compiled) => {
        $crate::setwise::fill_in_any_caller::<_, { $crate::setwise::fill::$directions.start }, { $crate::setwise::fill::$directions.end }>($token, $sliders, $occupancy)
    };
    // A portable token's lookups in baseline code are not vectorized as in
    // its jobs, where LLVM runs two bishops' at once: the compiled fill for
    // every set (1-2 bishops of `scalar-rank-table` from a forced build's
    // free functions: 181 M calls/s by lookups, 226 by the fill, against
    // 404 in its job; free_functions example, AMD Zen 4).
    (@any $token:ident, $single:ident, $mode:ident($max:literal) $(.$adjust:ident())?, $directions:ident, $sliders:ident, $occupancy:ident) => {
        $crate::__core::Bitboard($crate::setwise::loop_or(
            $sliders.0,
            $occupancy.0,
            const {
                match <Self as $crate::__core::SliderAttacks>::LEVEL {
                    $crate::__core::cpu::Level::Baseline => $crate::setwise::loop_up_to(0),
                    _ => $crate::setwise::$mode($max) $(.$adjust())?,
                }
            },
            #[inline(always)]
            |sq, occ| <Self as $crate::__core::SliderAttacks>::$single($token, sq, $crate::__core::Bitboard(occ)).0,
            #[inline(always)]
            |sliders, occupancy| {
                // The rook's four directions inline into baseline code as
                // fast as the compiled fill runs, and faster in an engine's
                // loop (0.62x by the call: bench matrix, forced portable
                // builds, Intel Xeon 6/0xa7); the diagonals' do not: inlined,
                // a bishop's ran slower per input than the call, and gained
                // only where a loop vectorizes it across calls (the rule and
                // its figures: benches/README.md).
                let rook = const { $crate::setwise::fill::$directions.end == $crate::setwise::fill::ROOK.end };
                match rook && matches!(<Self as $crate::__core::SliderAttacks>::LEVEL, $crate::__core::cpu::Level::Baseline) {
                    true => $crate::setwise::fill::attacks($crate::setwise::fill::ROOK, sliders, occupancy),
                    false => $crate::setwise::fill_in_any_caller::<_, { $crate::setwise::fill::$directions.start }, { $crate::setwise::fill::$directions.end }>($token, sliders, occupancy),
                }
            },
        ))
    };
}

/// The portable fill from code of any level: inside `token`'s
/// [`run_compiled`](hq_core::SliderAttacks::run_compiled) unless the build
/// has its jobs' level everywhere. Compiled for x86-64-v3, LLVM vectorizes
/// it; in baseline code it ran 3.4x slower (4-6 queens of
/// `scalar-rank-table`, free_functions example, AMD Zen 4).
/// (`FIRST..END`: the directions, constants of the closure's type, so that
/// the fill is unrolled and vectorized where it is compiled.)
#[inline(always)]
pub fn fill_in_any_caller<B: hq_core::SliderAttacks, const FIRST: usize, const END: usize>(
    token: B,
    sliders: u64,
    occupancy: u64,
) -> u64 {
    if const { B::LEVEL.jobs_level_is_static() } {
        fill::attacks(FIRST..END, sliders, occupancy)
    } else {
        token.run_compiled(
            #[inline(always)]
            move |_| fill::attacks(FIRST..END, sliders, occupancy),
        )
    }
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
