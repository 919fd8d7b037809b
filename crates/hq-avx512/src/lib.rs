//! AVX-512 VBMI/GFNI Hyperbola Quintessence, behind the [`Avx512`] token
//! (`avx512`; needs `avx512f`, `avx512bw`, `avx512vbmi` and `gfni`).
//!
//! HQ needs a reversal of the line's bits. A full 64-bit bit reversal
//! reverses every line, ranks included, and AVX-512 does eight of them in
//! two instructions (see [`kernels`]): `vgf2p8affineqb` + `vpermb`, or two
//! `vgf2p8affineqb` with the data as the matrix (the one used here).
//!
//! * **Single square** ([`SliderAttacks::queen_attacks`] etc.): one zmm holds
//!   the four lines of the square on the board (lanes 0-3) and on the board
//!   turned by 180 degrees (lanes 4-7), so one subtraction does both halves
//!   of HQ ([`kernels::line_vectors`]).
//! * **Batch and set-wise** (`*_batch`, `*_setwise`): eight squares per zmm,
//!   one square per lane, the line masks computed by variable shifts, the
//!   lines xor-ed together on each board and one reversal per eight squares
//!   ([`kernels::attacks_x8`]).
//! * A "four lines of two queens per zmm" kernel ([`Avx512::queen_attacks_x2`])
//!   is kept for comparison.
//!
//! Instruction counts from the generated assembly (Rust 1.95, release
//! profile), counting every instruction of the non-inlined kernel symbols
//! (`vzeroupper` and `ret` included; the call from the token method adds a
//! `call`), or of the loop body for the batch:
//!
//! ```text
//! cargo rustc --release -p hq-avx512 --lib -- --emit asm -C llvm-args=-x86-asm-syntax=intel
//! # then count the lines of kernels::queen_attacks, kernels::queen_attacks_x2,
//! # and the loop of kernels::queen_attacks_batch in target/release/deps/hq_avx512-*.s
//! ```
//!
//! | path | instructions | per queen |
//! |---|---|---|
//! | single square, `kernels::queen_attacks` (rook 30, bishop 29) | 32 | 32 |
//! | four lines of two queens per zmm, `kernels::queen_attacks_x2` | 51 | 25.5 |
//! | eight squares per zmm, loop of `kernels::queen_attacks_batch` (rook 37, bishop 53) | 71 per 8 | 8.9 |
//!
//! Of the 71, 3 are loop control and 5 are `vpcmpltuq`/`vpcmpltub` range
//! checks LLVM adds because the portable definition of `vpsllvq`/`vpsrlvq`
//! (0 for counts >= 64) is expressed as a select; the kernel relies on that
//! behaviour for the diagonals, so they stay.
//!
//! The batch uses the eight-squares layout because it has the fewest
//! instructions per queen and all of them are simple one-uop vector
//! operations (no gathers, no lane reductions); the single-square entry
//! points cannot fill eight lanes with one square, so they use the
//! board/turned-board layout. **Timing can only be measured on real
//! AVX-512 hardware**: none here; the Bochs emulator used to test it
//! (`cargo xtask emu-test`) is for correctness only.
//!
//! ```
//! use hq_avx512::Avx512;
//! use hq_core::{Bitboard, SliderAttacks, Square};
//!
//! match Avx512::require() {
//!     Ok(hq) => assert_eq!(hq.queen_attacks(Square::D4, Bitboard::from(Square::D6)).count(), 25),
//!     Err(e) => println!("{e}"), // names the missing features
//! }
//! ```

#[cfg(target_arch = "x86_64")]
pub mod kernels;

use hq_core::{Bitboard, Line, SliderAttacks, Square, check_batch_lengths};
use std::fmt;

/// The AVX-512 VBMI/GFNI backend token (`avx512`).
#[derive(Clone, Copy, Debug)]
pub struct Avx512(());

/// The error of [`Avx512::require`]: the CPU lacks features the backend needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingFeatures {
    /// The backend's name.
    pub backend: &'static str,
    /// The required features this CPU lacks, in `REQUIRED_FEATURES` order.
    pub missing: Vec<&'static str>,
}

impl fmt::Display for MissingFeatures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "backend {} cannot run on this CPU: it needs [{}] and this CPU lacks [{}]",
            self.backend,
            Avx512::REQUIRED_FEATURES.join(", "),
            self.missing.join(", ")
        )
    }
}

impl std::error::Error for MissingFeatures {}

/// Whether the running CPU has one of the required features (by name).
fn has_feature(name: &str) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        match name {
            "avx512f" => std::is_x86_feature_detected!("avx512f"),
            "avx512bw" => std::is_x86_feature_detected!("avx512bw"),
            "avx512vbmi" => std::is_x86_feature_detected!("avx512vbmi"),
            "gfni" => std::is_x86_feature_detected!("gfni"),
            _ => false,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = name;
        false
    }
}

impl Avx512 {
    /// The required features this CPU lacks (empty when the backend can run).
    pub fn missing_features() -> Vec<&'static str> {
        Self::REQUIRED_FEATURES
            .iter()
            .copied()
            .filter(|f| !has_feature(f))
            .collect()
    }

    /// The token, or an error naming the missing features: the way to *force*
    /// this backend without risking an illegal instruction.
    pub fn require() -> Result<Avx512, MissingFeatures> {
        let missing = Self::missing_features();
        if missing.is_empty() {
            // SAFETY: every required feature was just detected.
            Ok(unsafe { Avx512::new_unchecked() })
        } else {
            Err(MissingFeatures {
                backend: Self::NAME,
                missing,
            })
        }
    }

    /// Queen attacks of two squares with the "four lines of two queens per
    /// zmm" kernel (the alternative layout, kept for comparison and tests).
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub fn queen_attacks_x2(self, a: Square, b: Square, occupancy: Bitboard) -> [Bitboard; 2] {
        // SAFETY: the token proves the features the kernel enables.
        unsafe { kernels::queen_attacks_x2(a, b, occupancy.0) }.map(Bitboard)
    }
}

#[cfg(target_arch = "x86_64")]
fn batch(
    kernel: unsafe fn(&[Square], u64, &mut [u64]),
    squares: &[Square],
    occupancy: Bitboard,
    out: &mut [Bitboard],
) {
    check_batch_lengths(squares.len(), out.len());
    // SAFETY: `Bitboard` is `repr(transparent)` over `u64`, so the slice can be viewed as `[u64]`.
    let out = unsafe { core::slice::from_raw_parts_mut(out.as_mut_ptr().cast::<u64>(), out.len()) };
    // SAFETY: only called from token methods with a kernel of `kernels`: the token proves the features it enables.
    unsafe { kernel(squares, occupancy.0, out) }
}

#[cfg(target_arch = "x86_64")]
impl SliderAttacks for Avx512 {
    const NAME: &'static str = "avx512";
    const REQUIRED_FEATURES: &'static [&'static str] =
        &["avx512f", "avx512bw", "avx512vbmi", "gfni"];

    #[inline]
    fn is_supported() -> bool {
        std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vbmi")
            && std::is_x86_feature_detected!("gfni")
    }

    #[inline]
    unsafe fn new_unchecked() -> Self {
        Avx512(())
    }

    #[inline]
    fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
        let lane = match line {
            Line::Diagonal => 0,
            Line::AntiDiagonal => 1,
            Line::File => 2,
            Line::Rank => 3,
        };
        // SAFETY: the token proves the features the kernel enables.
        Bitboard(unsafe { kernels::lane_attacks(lane, sq, occupancy.0) })
    }

    #[inline]
    fn rook_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
        // SAFETY: the token proves the features the kernel enables.
        Bitboard(unsafe { kernels::rook_attacks(sq, occupancy.0) })
    }

    #[inline]
    fn bishop_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
        // SAFETY: the token proves the features the kernel enables.
        Bitboard(unsafe { kernels::bishop_attacks(sq, occupancy.0) })
    }

    #[inline]
    fn queen_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
        // SAFETY: the token proves the features the kernel enables.
        Bitboard(unsafe { kernels::queen_attacks(sq, occupancy.0) })
    }

    #[inline]
    fn rook_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
        batch(kernels::rook_attacks_batch, squares, occupancy, out);
    }

    #[inline]
    fn bishop_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
        batch(kernels::bishop_attacks_batch, squares, occupancy, out);
    }

    #[inline]
    fn queen_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
        batch(kernels::queen_attacks_batch, squares, occupancy, out);
    }

    #[inline]
    fn rook_attacks_setwise(self, rooks: Bitboard, occupancy: Bitboard) -> Bitboard {
        // SAFETY: the token proves the features the kernel enables.
        Bitboard(unsafe { kernels::rook_attacks_setwise(rooks.0, occupancy.0) })
    }

    #[inline]
    fn bishop_attacks_setwise(self, bishops: Bitboard, occupancy: Bitboard) -> Bitboard {
        // SAFETY: the token proves the features the kernel enables.
        Bitboard(unsafe { kernels::bishop_attacks_setwise(bishops.0, occupancy.0) })
    }

    #[inline]
    fn queen_attacks_setwise(self, queens: Bitboard, occupancy: Bitboard) -> Bitboard {
        // SAFETY: the token proves the features the kernel enables.
        Bitboard(unsafe { kernels::queen_attacks_setwise(queens.0, occupancy.0) })
    }
}
