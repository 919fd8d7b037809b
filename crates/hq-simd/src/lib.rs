//! Hyperbola Quintessence on SIMD registers: one algorithm, written once
//! over a lane abstraction, instantiated per instruction set.
//!
//! ```text
//! src/vector.rs        Lanes: a register as 64-bit lanes (and, sub, byte swap, bit reversal, ...)
//! src/generic/         the algorithms, once: line pairs, four lines, many squares per register
//! src/arch/x86_64/     Lanes for xmm / ymm / zmm; the SSSE3 rank-on-diagonal kernel
//! src/arch/aarch64/    Lanes for NEON
//! src/arch/wasm32/     Lanes for simd128
//! src/lib.rs           the backend tokens: which kernel each instruction set uses
//! ```
//!
//! | token | level | single squares | batches |
//! |---|---|---|---|
//! | [`Ssse3`] (`ssse3`) | x86-64-v2 | bishop pair by byte swap; rook: file + rank moved onto the a1-h8 diagonal | single kernels in a loop |
//! | [`Avx2`] (`avx2`) | x86-64-v3 | the SSSE3 rook and bishop, VEX-encoded; queen: file and diagonals per ymm by byte swaps, rank by table ("dual HQ") | four squares per ymm |
//! | [`Avx512`] (`avx512`) | x86-64-v4 + GFNI | pairs with GFNI bit reversal; queen: four lines per ymm | eight squares per zmm |
//! | [`Neon`] (`neon`) | AArch64 | bishop pair by byte swap; rook pair by `rbit` | single kernels in a loop |
//! | [`Simd128`] (`simd128`) | wasm32 with `+simd128` | bishop pair by byte swap; rook pair by bit reversal | single kernels in a loop |
//!
//! The set-wise entry points come from `hq_scalar::setwise` (a loop over
//! single lookups for a few sliders, the set-wise kernels for many): the
//! occluded fill of `generic::fill`, which `avx512` runs in registers 16-31
//! (`arch::x86_64::evex_fill`) so that it needs no `vzeroupper`.
//!
//! Every token exists on every target; off its architecture it is never
//! supported (`new()` is `None`), so code naming it compiles everywhere.
//! Which kernel each token uses, and why, is measured by `cargo xtask
//! bench-matrix` (committed under `benches/results/`).
//!
//! ```
//! use hq_core::{Bitboard, SliderAttacks, Square};
//!
//! match hq_simd::Avx2::require() {
//!     Ok(avx2) => assert_eq!(avx2.queen_attacks(Square::D4, Bitboard::from(Square::D6)).count(), 25),
//!     Err(missing) => println!("{missing}"),
//! }
//! ```

#![no_std]
#[cfg(test)]
extern crate std;

#[macro_use]
mod vector;
mod arch;
mod generic;

use hq_core::cpu::Level;
use hq_core::{Bitboard, Line, SliderAttacks, Square, check_batch_lengths};

/// Defines a backend token: the struct, its `#[target_feature]` entry
/// points, and its [`SliderAttacks`] impl — on its architecture the kernels,
/// elsewhere a never-supported stand-in (portable HQ) so the name exists.
///
/// `rook`, `bishop`, `queen`: `unsafe fn(Square, u64) -> u64` kernels;
/// `tables`: the bytes of the tables they and the forms for any caller
/// read ([`SliderAttacks::TABLE_BYTES`] on the token's architecture);
/// `elsewhere`: that figure as a number, which the stand-in states on other
/// targets (so that every target reports a backend's real footprint; the
/// token's own target checks it at compile time); `batch soa(Lanes)` runs
/// [`generic::soa`] on that register type, `batch singles` the single
/// kernels in a loop.
macro_rules! simd_backend {
    (
        $(#[$doc:meta])*
        $token:ident in $module:ident: $name:literal, $level:ident, $arch:literal,
        rook $rook:path, bishop $bishop:path, queen $queen:path,
        tables $tables:expr, elsewhere $elsewhere:literal,
        batch $batch:ident $(($lanes:ty))?,
        setwise $setwise:ident($($setwise_args:tt)*)
        below rooks $rmode:ident($rmax:literal), bishops $bmode:ident($bmax:literal),
        queens $qmode:ident($qmax:literal)
        $(, queen pair $queen_pair:path)?
        $(, singles in any caller $($single_any:ident)::+)?
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $token(());

        $(
        impl $token {
            /// One register of the batch: `out[i]` = `slider`'s attacks
            /// from `squares[i]`, for code that interleaves registers with
            /// other work (`hq-hybrid`). Inlines into a caller compiled for
            /// the token's level, the occupancy's setup hoisted out of its loop.
            ///
            /// # Panics
            ///
            /// Unless both slices hold one register of squares.
            #[doc = concat!("Register: `", stringify!($lanes), "`.")]
            #[doc(hidden)]
            #[inline(always)]
            pub fn batch_step(self, slider: hq_core::Slider, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
                #[cfg(target_arch = $arch)]
                // SAFETY: the token proves the level, which includes the features.
                unsafe {
                    use hq_core::Slider;
                    match slider {
                        Slider::Rook => $module::step::<true, false>(squares, occupancy.0, out),
                        Slider::Bishop => $module::step::<false, true>(squares, occupancy.0, out),
                        Slider::Queen => $module::step::<true, true>(squares, occupancy.0, out),
                    }
                }
                #[cfg(not(target_arch = $arch))]
                slider.batch(self, squares, occupancy, out)
            }
        }
        )?

        #[cfg(target_arch = $arch)]
        mod $module {
            #[allow(unused_imports)]
            use crate::{arch::*, generic};
            use hq_core::{Bitboard, Square};

            hq_core::at_level! { $level;
                #[inline]
                pub(crate) fn rook(sq: Square, occupancy: u64) -> u64 {
                    // SAFETY: compiled with the level's features.
                    unsafe { $rook(sq, occupancy) }
                }

                #[inline]
                pub(crate) fn bishop(sq: Square, occupancy: u64) -> u64 {
                    // SAFETY: compiled with the level's features.
                    unsafe { $bishop(sq, occupancy) }
                }

                #[inline]
                pub(crate) fn queen(sq: Square, occupancy: u64) -> u64 {
                    // SAFETY: compiled with the level's features.
                    unsafe { $queen(sq, occupancy) }
                }

                /// Rook lines if `ROOK`, bishop lines if `BISHOP`, for every square.
                #[inline]
                pub(crate) fn batch<const ROOK: bool, const BISHOP: bool>(
                    squares: &[Square],
                    occupancy: u64,
                    out: &mut [Bitboard],
                ) {
                    simd_backend!(@batch $batch $(($lanes))?, squares, occupancy, out, ROOK, BISHOP);
                }
            }

            $(
            hq_core::at_level! { $level;
                /// One register of squares (`generic::soa::step`).
                #[inline]
                pub(crate) fn step<const ROOK: bool, const BISHOP: bool>(
                    squares: &[Square],
                    occupancy: u64,
                    out: &mut [Bitboard],
                ) {
                    // SAFETY: compiled with the register type's features.
                    unsafe { crate::generic::soa::step::<$lanes, ROOK, BISHOP>(squares, occupancy, out) }
                }
            }
            )?

            $(
            hq_core::at_level! { $level;
                /// Queen attacks with the reversed occupancy given.
                #[inline]
                pub(crate) fn queen_pair(sq: Square, occupancy: u64, reversed: u64) -> u64 {
                    // SAFETY: compiled with the level's features.
                    unsafe { $queen_pair(sq, occupancy, reversed) }
                }
            }
            )?

            simd_backend!(@setwise_fn $setwise($($setwise_args)*), $level);
        }

        // The stated figure is the counted one (x86-64 without SSE2 has no
        // `asm!` forms, so fewer tables).
        #[cfg(all(target_arch = $arch, any(not(target_arch = "x86_64"), target_feature = "sse2")))]
        const _: () = assert!(
            $tables == $elsewhere,
            concat!("update `elsewhere` of ", $name, " to its counted tables")
        );

        #[cfg(target_arch = $arch)]
        #[allow(unused_unsafe)] // wasm: safe to call where simd128 is on for the whole build
        impl SliderAttacks for $token {
            simd_backend!(@identity $token, $name, Level::$level, $tables);

            /// The piece kernel through the line, masked to it (the other
            /// line's attacks lie outside the mask).
            #[inline]
            fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
                hq_core::line_attacks_from_piece(self, line, sq, occupancy)
            }

            #[inline]
            fn rook_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
                // SAFETY: the token proves the level, which includes the features.
                Bitboard(unsafe { $module::rook(sq, occupancy.0) })
            }

            #[inline]
            fn bishop_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
                // SAFETY: as above.
                Bitboard(unsafe { $module::bishop(sq, occupancy.0) })
            }

            #[inline]
            fn queen_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
                // SAFETY: as above.
                Bitboard(unsafe { $module::queen(sq, occupancy.0) })
            }

            $(
            /// The reversed occupancy given saves the kernel its reversal.
            #[doc = concat!("Kernel: `", stringify!($queen_pair), "`.")]
            #[inline]
            fn queen_attacks_pair(self, sq: Square, occupancy: Bitboard, reversed: Bitboard) -> Bitboard {
                hq_core::debug_check_pair(occupancy, reversed);
                // SAFETY: the token proves the level, which includes the features.
                Bitboard(unsafe { $module::queen_pair(sq, occupancy.0, reversed.0) })
            }
            )?

            #[inline]
            fn rook_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
                check_batch_lengths(squares.len(), out.len());
                // SAFETY: as above.
                unsafe { $module::batch::<true, false>(squares, occupancy.0, out) }
            }

            #[inline]
            fn bishop_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
                check_batch_lengths(squares.len(), out.len());
                // SAFETY: as above.
                unsafe { $module::batch::<false, true>(squares, occupancy.0, out) }
            }

            #[inline]
            fn queen_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
                check_batch_lengths(squares.len(), out.len());
                // SAFETY: as above.
                unsafe { $module::batch::<true, true>(squares, occupancy.0, out) }
            }

            simd_backend!(@setwise_methods $setwise($($setwise_args)*), $module, $rmode($rmax), $bmode($bmax), $qmode($qmax));

            $(
            #[doc = concat!("The kernels as `asm!` (`", stringify!($($single_any)::+), "`): no call from code of another level.")]
            #[cfg(target_feature = "sse2")]
            #[inline(always)]
            fn single_in_any_caller(self, slider: hq_core::Slider, sq: Square, occupancy: Bitboard) -> Bitboard {
                // SAFETY: the token proves the level, and its OS state.
                Bitboard(unsafe { $($single_any)::+::single(slider, sq, occupancy.0) })
            }

            /// The address of the square's record in the kernels' tables.
            #[cfg(target_feature = "sse2")]
            #[inline(always)]
            fn single_key(slider: hq_core::Slider, sq: Square) -> u64 {
                $($single_any)::+::key(slider, sq)
            }

            #[cfg(target_feature = "sse2")]
            #[inline(always)]
            unsafe fn single_keyed(self, slider: hq_core::Slider, sq: Square, occupancy: Bitboard, key: u64) -> Bitboard {
                // SAFETY: the token proves the level and its OS state; the
                // caller, that `key` is the square's.
                Bitboard(unsafe { $($single_any)::+::keyed(slider, sq, occupancy.0, key) })
            }
            )?

            /// The set-wise methods' crossovers with
            /// [`SliderAttacks::single_in_any_caller`] and the fill's form
            /// for any caller (`avx512`'s `asm!` fill; the portable fill,
            /// which inlines anywhere; else a call to the token's fill).
            #[inline(always)]
            fn setwise_in_any_caller(self, slider: hq_core::Slider, sliders: Bitboard, occupancy: Bitboard) -> Bitboard {
                use hq_core::Slider;
                match slider {
                    Slider::Rook => simd_backend!(@any_caller self, Rook, $rmode($rmax), $setwise($($setwise_args)*), $module, sliders, occupancy),
                    Slider::Bishop => simd_backend!(@any_caller self, Bishop, $bmode($bmax), $setwise($($setwise_args)*), $module, sliders, occupancy),
                    Slider::Queen => simd_backend!(@any_caller self, Queen, $qmode($qmax), $setwise($($setwise_args)*), $module, sliders, occupancy),
                }
            }
        }

        /// Off its architecture the token is never supported (its level is
        /// never detected); the methods are portable HQ so that an `unsafe`
        /// misuse of `new_unchecked` still gets right answers.
        #[cfg(not(target_arch = $arch))]
        impl SliderAttacks for $token {
            // The footprint on its own architecture.
            simd_backend!(@identity $token, $name, Level::$level, $elsewhere);

            #[inline]
            fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
                Bitboard(hq_scalar::line_attacks(line, sq, occupancy.0))
            }
        }
    };
    (@identity $token:ident, $name:literal, $level:expr, $tables:expr) => {
        const NAME: &'static str = $name;
        const LEVEL: Level = $level;
        const TABLE_BYTES: usize = $tables;

        #[inline]
        unsafe fn new_unchecked() -> Self {
            $token(())
        }
    };
    (@batch soa($lanes:ty), $squares:ident, $occupancy:ident, $out:ident, $rook:ident, $bishop:ident) => {
        // SAFETY: compiled with the register type's features.
        unsafe { crate::generic::soa::batch::<$lanes, $rook, $bishop>($squares, $occupancy, $out) }
    };
    // The vector fill: a function of the token's features, called above
    // the crossover.
    (@setwise_fn fill($rt:ty, $bt:ty, $qt:ty), $level:ident) => {
        hq_core::at_level! { $level;
            /// The set-wise kernel for `piece` (the sliders count as occupied),
            /// used above the token's crossover.
            #[inline]
            pub(crate) fn setwise(piece: crate::generic::fill::Piece, sliders: u64, occupancy: u64) -> u64 {
                use crate::generic::fill::{self, Piece};
                // SAFETY: compiled with the register types' features.
                unsafe {
                    match piece {
                        Piece::Rook => fill::attacks::<$rt>(Piece::Rook, sliders, occupancy),
                        Piece::Bishop => fill::attacks::<$bt>(Piece::Bishop, sliders, occupancy),
                        Piece::Queen => fill::attacks::<$qt>(Piece::Queen, sliders, occupancy),
                    }
                }
            }
        }
    };
    // The fill in registers 16-31 (`arch::x86_64::evex_fill`): no
    // `vzeroupper` where the set-wise entry returns to baseline code.
    (@setwise_fn evex_fill(), $level:ident) => {
        hq_core::at_level! { $level;
            /// The set-wise kernel for `piece` (the sliders count as occupied).
            #[inline]
            pub(crate) fn setwise(piece: crate::generic::fill::Piece, sliders: u64, occupancy: u64) -> u64 {
                use crate::arch::evex_fill;
                use crate::generic::fill::Piece;
                // SAFETY: compiled with the level's features, AVX-512F and VL among them.
                unsafe {
                    match piece {
                        Piece::Rook => evex_fill::four::<0>(sliders, occupancy),
                        Piece::Bishop => evex_fill::four::<4>(sliders, occupancy),
                        Piece::Queen => evex_fill::eight(sliders, occupancy),
                    }
                }
            }
        }
    };
    // The portable fill needs no function of its own: it inlines into the
    // caller, compiled as the caller is (a job at x86-64-v3 or above).
    (@setwise_fn scalar(), $level:ident) => {};
    (@kernel evex_fill(), $module:ident, $piece:ident, $sliders:ident, $occupancy:ident) => {
        // SAFETY: the token proves the level, which includes the features.
        unsafe { $module::setwise(generic::fill::Piece::$piece, $sliders, $occupancy) }
    };
    (@kernel fill($($args:tt)*), $module:ident, $piece:ident, $sliders:ident, $occupancy:ident) => {
        // SAFETY: the token proves the level, which includes the features.
        unsafe { $module::setwise(generic::fill::Piece::$piece, $sliders, $occupancy) }
    };
    // In the token's own `#[target_feature]` function, the portable fill was
    // left out of line in the bench's job and ran at the token's SSE4.2:
    // `ssse3`, 4-6 queens, 54 M calls/s against 59 for its own loop (bench
    // matrix, Intel Xeon); inlined into the job at x86-64-v3 the same fill
    // ran 4-6 queens of `scalar-rank-table` at 183.
    (@kernel scalar(), $module:ident, $piece:ident, $sliders:ident, $occupancy:ident) => {{
        use hq_scalar::setwise::fill;
        let directions = match generic::fill::Piece::$piece {
            generic::fill::Piece::Rook => fill::ROOK,
            generic::fill::Piece::Bishop => fill::BISHOP,
            generic::fill::Piece::Queen => fill::QUEEN,
        };
        fill::attacks(directions, $sliders, $occupancy)
    }};
    (@any_caller $token:ident, $piece:ident, $mode:ident($max:literal), $kind:ident($($args:tt)*), $module:ident, $sliders:ident, $occupancy:ident) => {
        Bitboard(hq_scalar::setwise::loop_or(
            $sliders.0,
            $occupancy.0,
            const { hq_scalar::setwise::$mode($max) },
            #[inline(always)]
            |sq, occupancy| $token.single_in_any_caller(hq_core::Slider::$piece, sq, Bitboard(occupancy)).0,
            #[inline(always)]
            |sliders, occupancy| simd_backend!(@kernel_in_any_caller $token, $kind($($args)*), $module, $piece, sliders, occupancy),
        ))
    };
    // The `asm!` fill: no call and no `vzeroupper` from code of another level.
    (@kernel_in_any_caller $token:ident, evex_fill(), $module:ident, $piece:ident, $sliders:ident, $occupancy:ident) => {
        // SAFETY: the token proves the level, and its OS state.
        unsafe { crate::arch::evex_fill::in_any_caller(hq_core::Slider::$piece, $sliders, $occupancy) }
    };
    // The portable fill compiled for the jobs' level (`hq_scalar::setwise::fill_in_any_caller`).
    (@kernel_in_any_caller $token:ident, scalar(), $module:ident, $piece:ident, $sliders:ident, $occupancy:ident) => {{
        use hq_scalar::setwise::{fill::{BISHOP, QUEEN, ROOK}, fill_in_any_caller};
        match generic::fill::Piece::$piece {
            generic::fill::Piece::Rook => fill_in_any_caller::<_, { ROOK.start }, { ROOK.end }>($token, $sliders, $occupancy),
            generic::fill::Piece::Bishop => fill_in_any_caller::<_, { BISHOP.start }, { BISHOP.end }>($token, $sliders, $occupancy),
            generic::fill::Piece::Queen => fill_in_any_caller::<_, { QUEEN.start }, { QUEEN.end }>($token, $sliders, $occupancy),
        }
    }};
    (@kernel_in_any_caller $token:ident, $kind:ident($($args:tt)*), $module:ident, $piece:ident, $sliders:ident, $occupancy:ident) => {
        simd_backend!(@kernel $kind($($args)*), $module, $piece, $sliders, $occupancy)
    };
    (@setwise_methods $kind:ident($($args:tt)*), $module:ident, $rmode:ident($rmax:literal), $bmode:ident($bmax:literal), $qmode:ident($qmax:literal)) => {
        simd_backend!(@setwise_method rook_attacks_setwise, rook_attacks, Rook, $rmode($rmax), $kind($($args)*), $module);
        simd_backend!(@setwise_method bishop_attacks_setwise, bishop_attacks, Bishop, $bmode($bmax), $kind($($args)*), $module);
        simd_backend!(@setwise_method queen_attacks_setwise, queen_attacks, Queen, $qmode($qmax), $kind($($args)*), $module);
    };
    // The token's lookups up to the measured crossover, the set-wise
    // kernel above it. The lookups stay in the caller, where they inline if
    // the caller has the features (a job, the facade's tables), as a
    // per-piece loop's do; only a vector kernel is a function of the
    // features. (With the loop inside that function too, the whole was
    // a call even from code with the features: LLVM judged it too costly
    // to inline, and the entries ran at 0.66-0.86x their own per-piece loop
    // with 1-2 sliders: bench matrix, Intel Xeon, commit 71aa01a.)
    (@setwise_method $method:ident, $single:ident, $piece:ident, $mode:ident($max:literal), $kind:ident($($args:tt)*), $module:ident) => {
        #[inline(always)]
        fn $method(self, sliders: Bitboard, occupancy: Bitboard) -> Bitboard {
            Bitboard(hq_scalar::setwise::loop_or(
                sliders.0,
                occupancy.0,
                const { hq_scalar::setwise::$mode($max) },
                #[inline(always)]
                |sq, occupancy| self.$single(sq, Bitboard(occupancy)).0,
                #[inline(always)]
                |sliders, occupancy| simd_backend!(@kernel $kind($($args)*), $module, $piece, sliders, occupancy),
            ))
        }
    };
    (@batch singles, $squares:ident, $occupancy:ident, $out:ident, $rook:ident, $bishop:ident) => {
        for (o, &sq) in $out.iter_mut().zip($squares) {
            *o = Bitboard(match ($rook, $bishop) {
                (true, false) => rook(sq, $occupancy),
                (false, true) => bishop(sq, $occupancy),
                _ => queen(sq, $occupancy),
            });
        }
    };
}

simd_backend! {
    /// SSSE3 (`ssse3`): Peshkov's two lines per xmm, reversed by `pshufb`
    /// byte swaps; ranks moved onto the a1-h8 diagonal.
    Ssse3 in ssse3: "ssse3", X86V2, "x86_64",
    rook rank_on_diagonal::rook, bishop generic::pair::bishop::<Xmm>,
    queen rank_on_diagonal::queen,
    // The rook's records and rank shuffles, the bishop's records (the
    // queen's are both), the byte-swap control; the `asm!` forms' records.
    tables size_of_val(&generic::pair::ROOK_ON_DIAGONAL)
        + arch::rank_on_diagonal::TABLE_BYTES
        + size_of_val(&generic::pair::BISHOP)
        + <arch::Xmm as vector::Lanes>::SWAP_BYTES_TABLES
        + arch::SSE_LOOKUP_TABLE_BYTES, elsewhere 22_816,
    batch singles,
    // Rooks and bishops by lookups up to 2 sliders, branch-free; above, and
    // for every queen set, the portable fill, inlined into the caller
    // (setwise_crossover on the Intel Xeon, mixed counts, ns per call: 1-2
    // rooks 3.5 branch-free, 4.1 by the fill; 3-4 rooks 8.1 by a loop, 4.2
    // by the fill; 1-2 queens 5.2 branch-free, 4.6 by the fill).
    setwise scalar()
    below rooks pair_up_to(2), bishops pair_up_to(2), queens loop_up_to(0),
    singles in any caller arch::asm_lookups::sse
}

simd_backend! {
    /// AVX2 (`avx2`): the SSSE3 rook and bishop kernels in VEX form; the
    /// queen by `generic::quad`'s byte swap (file and diagonals per ymm,
    /// the rank by table: 1.4x the SSSE3 queen's throughput, 0.81x
    /// `pext`'s, Zen 4);
    /// batches four squares per ymm. Its `asm!` forms for callers of other
    /// levels: the SSE rook and bishop, and the same dual-HQ queen on ymm
    /// registers, ending in `vzeroupper`.
    Avx2 in avx2: "avx2", X86V3, "x86_64",
    rook rank_on_diagonal::rook, bishop generic::pair::bishop::<Xmm>,
    queen generic::quad::queen_by_byte_swap::<Ymm>,
    // The SSSE3 rook's and bishop's tables, the dual queen's records and
    // first-rank table, the byte-swap control (32 bytes for the ymm queen,
    // whose first 16 the xmm kernels read); the `asm!` forms' records.
    tables size_of_val(&generic::pair::ROOK_ON_DIAGONAL)
        + arch::rank_on_diagonal::TABLE_BYTES
        + size_of_val(&generic::pair::BISHOP)
        + size_of_val(&generic::quad::BYTE_SWAP_RECORDS)
        + size_of_val(&hq_scalar::kernels::FIRST_RANK)
        + <arch::Ymm as vector::Lanes>::SWAP_BYTES_TABLES
        + arch::VEX_LOOKUP_TABLE_BYTES, elsewhere 32_048,
    batch soa(Ymm),
    // Lookups up to 2 sliders, branch-free, the four-direction fill above.
    setwise fill(Ymm, Ymm, Ymm)
    below rooks pair_up_to(2), bishops pair_up_to(2), queens pair_up_to(2),
    singles in any caller arch::asm_lookups::vex
}

simd_backend! {
    /// AVX-512 with GFNI (`avx512`): full bit reversal in two
    /// `vgf2p8affineqb`, so every line is plain HQ: rook and
    /// bishop pairs per xmm, a queen's four lines per ymm; batches eight
    /// squares per zmm.
    Avx512 in avx512: "avx512", X86V4, "x86_64",
    rook generic::pair::rook::<XmmGfni>, bishop generic::pair::bishop::<XmmGfni>,
    queen generic::quad::queen::<YmmGfni>,
    // The pair records, the quad queen's records, the byte-swap control
    // and the bit matrix (one constant for the xmm rook and the ymm
    // queen); the batches' line masks; the `asm!` forms' records.
    tables size_of_val(&generic::pair::ROOK)
        + size_of_val(&generic::pair::BISHOP)
        + size_of_val(&generic::quad::RECORDS)
        + <arch::XmmGfni as vector::Lanes>::SWAP_BYTES_TABLES
        + <arch::XmmGfni as vector::Lanes>::REVERSE_BITS_TABLES
        + size_of_val(&generic::soa::MASKS)
        + arch::EVEX_LOOKUP_TABLE_BYTES, elsewhere 21_296,
    batch soa(Zmm),
    // The fill for every set: its cost does not depend on the number, it
    // is about that of two branch-free lookups, and a crossover test at 2
    // mispredicts on sets of 2 and 3 sliders mixed (setwise_crossover,
    // Intel Xeon, run-time build).
    setwise evex_fill()
    below rooks loop_up_to(0), bishops loop_up_to(0), queens loop_up_to(0),
    queen pair generic::quad::queen_pair::<YmmGfni>,
    singles in any caller arch::asm_lookups::evex
}

simd_backend! {
    /// NEON (`neon`): two lines per register; `rbit` + `rev64` reverse both
    /// bitboards at once, so the rook pair `{file, rank}` is plain HQ too.
    Neon in neon: "neon", Neon, "aarch64",
    rook generic::pair::rook::<Neon128>, bishop generic::pair::bishop::<Neon128>,
    queen generic::pair::queen::<Neon128>,
    // The pair records (the bishop's byte swap and the rook's bit reversal
    // are instructions: no table).
    tables size_of_val(&generic::pair::ROOK)
        + size_of_val(&generic::pair::BISHOP)
        + <arch::Neon128 as vector::Lanes>::SWAP_BYTES_TABLES
        + <arch::Neon128 as vector::Lanes>::REVERSE_BITS_TABLES, elsewhere 6_144,
    batch singles,
    // Not timed (no ARM machine): the AVX2 crossover, the same structure.
    setwise fill(Neon128, Neon128, Neon128)
    below rooks pair_up_to(2), bishops pair_up_to(2), queens pair_up_to(2)
}

simd_backend! {
    /// WebAssembly SIMD (`simd128`, enabled at compile time with
    /// `-C target-feature=+simd128`): two lines per `v128`, `i8x16_swizzle`
    /// for the byte swap and the nibble tables.
    Simd128 in simd128: "simd128", Simd128, "wasm32",
    rook generic::pair::rook::<Wasm128>, bishop generic::pair::bishop::<Wasm128>,
    queen generic::pair::queen::<Wasm128>,
    // The pair records; the rook's bit reversal: the byte-swap control (the
    // bishop's) and the nibble tables.
    tables size_of_val(&generic::pair::ROOK)
        + size_of_val(&generic::pair::BISHOP)
        + <arch::Wasm128 as vector::Lanes>::REVERSE_BITS_TABLES, elsewhere 6_192,
    batch singles,
    // Not timed: the SSSE3 token's crossovers (the same line pairs per register).
    setwise scalar()
    below rooks pair_up_to(2), bishops pair_up_to(2), queens loop_up_to(0)
}
