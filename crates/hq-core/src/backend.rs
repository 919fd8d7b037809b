//! The interface every backend implements.

use crate::cpu::{Level, MissingFeatures};
use crate::{Bitboard, Line, Slider, Square};

/// A slider-attack backend, as a zero-sized *token*.
///
/// A token can only be obtained through [`SliderAttacks::new`] or
/// [`SliderAttacks::require`], which check that the running CPU has every
/// feature of the backend's [`LEVEL`](SliderAttacks::LEVEL) (the pattern of
/// `memchr`'s `One::new`), or through the `unsafe`
/// [`SliderAttacks::new_unchecked`] by a caller that checked for itself. So,
/// with a token in hand, every method is safe to call: the token *is* the
/// proof that the instructions exist.
///
/// Required methods are the single-square kernels; the pair, batch and
/// set-wise entry points have plain defaults, which backends override when
/// they do better.
///
/// ```
/// use hq_core::{Bitboard, Line, SliderAttacks, Square, cpu::Level, reference};
///
/// /// A toy backend that asks the oracle (for illustration only).
/// #[derive(Clone, Copy, Debug)]
/// struct Oracle;
/// impl SliderAttacks for Oracle {
///     const NAME: &'static str = "oracle";
///     const LEVEL: Level = Level::Baseline;
///     // The oracle walks the rays: no table.
///     const TABLE_BYTES: usize = 0;
///     unsafe fn new_unchecked() -> Self { Oracle }
///     fn line_attacks(self, line: Line, sq: Square, occ: Bitboard) -> Bitboard {
///         reference::line_attacks(line, sq, occ)
///     }
/// }
///
/// let token = Oracle::new().unwrap();
/// assert_eq!(token.rook_attacks(Square::A1, Bitboard::EMPTY).count(), 14);
/// ```
pub trait SliderAttacks: Copy + Send + Sync + core::fmt::Debug + 'static {
    /// The backend's stable name, as used by `HQ_BACKEND` and the `force-*`
    /// features (for example `"scalar-reverse"`).
    const NAME: &'static str;

    /// The instruction set the backend is compiled for, and jobs run with
    /// the token ([`Self::run_compiled`]). The token exists only where the
    /// CPU has every feature of it (a token combining backends may need more:
    /// see [`Self::is_supported`]).
    const LEVEL: Level;

    /// Bytes of the static tables the single lookups read (rook, bishop and
    /// queen; shared tables such as hq-core's line masks included): what the
    /// backend keeps in the caches between lookups.
    ///
    /// Every form of the single lookups counts (the methods,
    /// [`Self::single_in_any_caller`], [`Self::single_keyed`]): where they
    /// read different copies of a table, each copy counts. So does a small
    /// table loaded as a vector constant (a shuffle control). Stated as a
    /// sum of `size_of_val` over the tables the kernels index, so that it
    /// follows them; 0 for a backend that reads none.
    const TABLE_BYTES: usize;

    /// Whether the running CPU (and OS) support the backend: by default,
    /// every feature of [`Self::LEVEL`].
    #[inline]
    fn is_supported() -> bool {
        Self::LEVEL.is_detected()
    }

    /// The token, if the CPU supports the backend.
    #[inline]
    fn new() -> Option<Self> {
        Self::require().ok()
    }

    /// The token, or the error naming what this CPU lacks: the way to
    /// *force* a backend without risking an illegal instruction.
    #[inline]
    fn require() -> Result<Self, MissingFeatures> {
        if Self::is_supported() {
            // SAFETY: `is_supported` just confirmed every feature of the level.
            Ok(unsafe { Self::new_unchecked() })
        } else {
            Err(MissingFeatures {
                backend: Self::NAME,
                level: Self::LEVEL,
                missing: Self::LEVEL.features().missing(),
            })
        }
    }

    /// The token, without checking the CPU.
    ///
    /// # Safety
    ///
    /// The caller must ensure that the running CPU supports every feature of
    /// [`SliderAttacks::LEVEL`]; otherwise the methods may execute
    /// instructions the CPU does not have.
    unsafe fn new_unchecked() -> Self;

    /// Runs `f` with this token, compiled for the token's instruction set:
    /// `f` is inlined into a `#[target_feature]` function of the level
    /// [`Level::for_jobs`] gives (as [`crate::cpu::run_for`] does, compiling
    /// only the levels the token can run at), so the kernels
    /// `f` calls inline into it instead of staying calls (mark a big
    /// closure `#[inline(always)]`). The way to compile a whole loop, or a
    /// recursion one call per node (perft), for the backend.
    #[inline(always)]
    fn run_compiled<R>(self, f: impl FnOnce(Self) -> R) -> R {
        // SAFETY: the token proves the CPU has `Self::LEVEL`.
        unsafe {
            crate::cpu::run_for_fixed::<Self, R>(
                #[inline(always)]
                move || f(self),
            )
        }
    }

    /// `slider`'s single lookup in the form for a caller *not* compiled for
    /// the token's level (run-time dispatch from portable code): by default
    /// the method, there a call into the token's kernel. A token whose
    /// kernels can inline into any caller overrides it (`avx512`, `avx2`,
    /// `ssse3`: the kernels as `asm!`, which needs no target feature).
    #[inline(always)]
    fn single_in_any_caller(self, slider: Slider, sq: Square, occupancy: Bitboard) -> Bitboard {
        slider.single(self, sq, occupancy)
    }

    /// The word a dispatcher may keep per piece and square in place of the
    /// square for [`Self::single_keyed`]: what that lookup reads first (PEXT's
    /// mask; a SIMD kernel's record address), so that the one load that
    /// finds the backend also fetches it. Never 0, bit 63 clear; 0 where
    /// the token has no keyed form.
    #[inline(always)]
    fn single_key(slider: Slider, sq: Square) -> u64 {
        let _ = (slider, sq);
        0
    }

    /// [`Self::single_in_any_caller`] given the square's
    /// [`Self::single_key`].
    ///
    /// # Safety
    ///
    /// `key` must be `Self::single_key(slider, sq)`, and not 0.
    #[inline(always)]
    unsafe fn single_keyed(
        self,
        slider: Slider,
        sq: Square,
        occupancy: Bitboard,
        key: u64,
    ) -> Bitboard {
        let _ = key;
        self.single_in_any_caller(slider, sq, occupancy)
    }

    /// `slider`'s batch in the form for a caller *not* compiled for the
    /// token's level (run-time dispatch from portable code): by default one
    /// call into the batch entry point of the level
    /// ([`crate::entries::Entries::of`]), its arguments in registers. A
    /// token whose batch inlines into any caller at full speed overrides it
    /// with the method itself (`pext`: its lookups are `asm!`).
    #[inline(always)]
    fn batch_in_any_caller(
        self,
        slider: Slider,
        squares: &[Square],
        occupancy: Bitboard,
        out: &mut [Bitboard],
    ) {
        // Not a closure inside `run_compiled`: its captures reached the
        // callee as a pointer to the caller's stack, loaded per call.
        let batch = crate::entries::Entries::of(self).batch[slider as usize];
        // SAFETY: `Entries::of` compiles for a level the token proves.
        unsafe { batch(squares, occupancy, out) }
    }

    /// `slider`'s set-wise call in the form for a caller not compiled for
    /// the token's level (see [`Self::batch_in_any_caller`]); `avx512`
    /// overrides it with its fill as `asm!`.
    #[inline(always)]
    fn setwise_in_any_caller(
        self,
        slider: Slider,
        sliders: Bitboard,
        occupancy: Bitboard,
    ) -> Bitboard {
        // The level's entry point, as in `batch_in_any_caller`.
        let setwise = crate::entries::Entries::of(self).setwise[slider as usize];
        // SAFETY: `Entries::of` compiles for a level the token proves.
        unsafe { setwise(sliders, occupancy) }
    }

    /// Attacks from `sq` along one `line` (both directions).
    fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard;

    /// Rook attacks from `sq`: rank and file.
    #[inline]
    fn rook_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
        self.line_attacks(Line::Rank, sq, occupancy) | self.line_attacks(Line::File, sq, occupancy)
    }

    /// Bishop attacks from `sq`: both diagonals.
    #[inline]
    fn bishop_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
        self.line_attacks(Line::Diagonal, sq, occupancy)
            | self.line_attacks(Line::AntiDiagonal, sq, occupancy)
    }

    /// Queen attacks from `sq`: all four lines.
    #[inline]
    fn queen_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
        self.rook_attacks(sq, occupancy) | self.bishop_attacks(sq, occupancy)
    }

    /// Rook attacks from `sq`, given the occupancy together with its
    /// reversal `reversed == occupancy.rotate_180()` (Ryan Mack's reversed
    /// board, maintained by the caller). Backends that reverse the occupancy
    /// themselves take it from here instead; the default ignores it.
    #[inline]
    fn rook_attacks_pair(self, sq: Square, occupancy: Bitboard, reversed: Bitboard) -> Bitboard {
        debug_check_pair(occupancy, reversed);
        self.rook_attacks(sq, occupancy)
    }

    /// Bishop attacks from `sq` with the reversed occupancy (see [`Self::rook_attacks_pair`]).
    #[inline]
    fn bishop_attacks_pair(self, sq: Square, occupancy: Bitboard, reversed: Bitboard) -> Bitboard {
        debug_check_pair(occupancy, reversed);
        self.bishop_attacks(sq, occupancy)
    }

    /// Queen attacks from `sq` with the reversed occupancy (see [`Self::rook_attacks_pair`]).
    #[inline]
    fn queen_attacks_pair(self, sq: Square, occupancy: Bitboard, reversed: Bitboard) -> Bitboard {
        self.rook_attacks_pair(sq, occupancy, reversed)
            | self.bishop_attacks_pair(sq, occupancy, reversed)
    }

    /// Rook attacks of many squares over one occupancy: `out[i]` for `squares[i]`.
    /// The default loops are always inlined in optimised builds, so that
    /// they are compiled for their caller's level (a job's: where LLVM
    /// vectorizes them); the portable kernels are too. Unoptimised builds
    /// keep plain `#[inline]`: at -O0 every inlined body keeps its own stack
    /// slots, and a depth-3 perft overflowed wasm32's 1 MiB stack.
    ///
    /// # Panics
    ///
    /// If `squares` and `out` differ in length.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn rook_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
        check_batch_lengths(squares.len(), out.len());
        for (o, &sq) in out.iter_mut().zip(squares) {
            *o = self.rook_attacks(sq, occupancy);
        }
    }

    /// Bishop attacks of many squares over one occupancy. Panics as [`Self::rook_attacks_batch`].
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn bishop_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
        check_batch_lengths(squares.len(), out.len());
        for (o, &sq) in out.iter_mut().zip(squares) {
            *o = self.bishop_attacks(sq, occupancy);
        }
    }

    /// Queen attacks of many squares over one occupancy. Panics as [`Self::rook_attacks_batch`].
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn queen_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
        check_batch_lengths(squares.len(), out.len());
        for (o, &sq) in out.iter_mut().zip(squares) {
            *o = self.queen_attacks(sq, occupancy);
        }
    }

    /// The union of the rook attacks of every square in `rooks` (set-wise).
    ///
    /// The sliders count as occupied whether or not `occupancy` has them, so
    /// one rook stops another: the same answer as the union of
    /// `rook_attacks(sq, occupancy | rooks)`.
    #[inline]
    fn rook_attacks_setwise(self, rooks: Bitboard, occupancy: Bitboard) -> Bitboard {
        union_of_attacks(
            rooks,
            occupancy,
            #[inline(always)]
            |sq, o| self.rook_attacks(sq, o),
        )
    }

    /// The union of the bishop attacks of every square in `bishops` (see [`Self::rook_attacks_setwise`]).
    #[inline]
    fn bishop_attacks_setwise(self, bishops: Bitboard, occupancy: Bitboard) -> Bitboard {
        union_of_attacks(
            bishops,
            occupancy,
            #[inline(always)]
            |sq, o| self.bishop_attacks(sq, o),
        )
    }

    /// The union of the queen attacks of every square in `queens` (see [`Self::rook_attacks_setwise`]).
    #[inline]
    fn queen_attacks_setwise(self, queens: Bitboard, occupancy: Bitboard) -> Bitboard {
        // One loop over queen lookups: the union of a rook loop and a bishop
        // loop walked the set twice (faster with 4 queens: `setwise_crossover`
        // on the Intel Xeon, figures in the commit that made this change).
        union_of_attacks(
            queens,
            occupancy,
            #[inline(always)]
            |sq, o| self.queen_attacks(sq, o),
        )
    }
}

/// Every token's level is known at compile time: what
/// [`run_compiled`](SliderAttacks::run_compiled) compiles its job for.
impl<B: SliderAttacks> crate::cpu::FixedLevel for B {
    const LEVEL: Level = <B as SliderAttacks>::LEVEL;
}

/// The union of `single(sq, occupancy | sliders)` over the squares of
/// `sliders`: the per-piece part of every set-wise entry point, and the
/// whole of the trait's default ones. Up to two sliders
/// [`union_of_up_to_two`], branch-free; more, [`union_by_loop`].
#[inline(always)]
pub fn union_of_attacks(
    sliders: Bitboard,
    occupancy: Bitboard,
    single: impl Fn(Square, Bitboard) -> Bitboard,
) -> Bitboard {
    if at_most(sliders.0, 2) {
        union_of_up_to_two(sliders, occupancy, single)
    } else {
        union_by_loop(sliders, occupancy, single)
    }
}

/// [`union_of_attacks`] for a set of at most two sliders, without a loop:
/// the lowest and the highest slider are looked up unconditionally (one
/// square twice for a lone slider; for none, a1, masked out), so a mix of
/// one and two sliders costs no mispredicted loop exit. On such a mix in an
/// order the branch predictor cannot learn, this form beat `pext`'s loop
/// with 1-2 queens (the `set-wise 1-2` column of the committed runs); the
/// price is a second lookup for a lone slider, which costly lookups do not
/// repay (the set-wise entries choose per backend).
///
/// With three sliders or more the middle ones are left out.
#[inline(always)]
pub fn union_of_up_to_two(
    sliders: Bitboard,
    occupancy: Bitboard,
    single: impl Fn(Square, Bitboard) -> Bitboard,
) -> Bitboard {
    let occupancy = occupancy | sliders;
    let set = sliders.0;
    let lowest = Square::from_index_masked(set.trailing_zeros() as u8);
    let first = single(lowest, occupancy);
    let highest_index = ordered_after(u64::from(63 ^ set.leading_zeros()), first.0);
    let highest = Square::from_index_masked(highest_index as u8);
    let union = first | single(highest, occupancy);
    Bitboard(union.0 & 0u64.wrapping_sub((set != 0) as u64))
}

/// [`union_of_attacks`] as a plain loop over the sliders.
#[inline(always)]
pub fn union_by_loop(
    sliders: Bitboard,
    occupancy: Bitboard,
    single: impl Fn(Square, Bitboard) -> Bitboard,
) -> Bitboard {
    let occupancy = occupancy | sliders;
    let mut union = Bitboard::EMPTY;
    for sq in sliders {
        union |= single(sq, occupancy);
    }
    union
}

/// Whether `set` has at most `n` bits: the crossover test of the set-wise
/// entry points. Up to 2 it clears the lowest bit `n` times (a `blsr`
/// each), unless the whole build has `popcnt`: the free functions' callers
/// are baseline code, where `count_ones` is a dozen instructions (pext's
/// set-wise calls with 1-2 sliders from a force-pext build's free
/// functions: 0.67x of its job's with `count_ones`, 0.93x with the chain,
/// which costs the job 3 %: free_functions example, Zen 4). Above 2,
/// `count_ones`.
#[inline(always)]
pub const fn at_most(set: u64, n: u32) -> bool {
    if n > 2 || (n == 2 && crate::cpu::Feature::Popcnt.is_static()) {
        return set.count_ones() <= n;
    }
    let mut rest = set;
    let mut i = 0;
    while i < n {
        rest &= rest.wrapping_sub(1);
        i += 1;
    }
    rest == 0
}

/// `value`, which in builds with AVX-512 throughout the compiler must
/// assume depends on `after` (an empty `asm!` that takes both): code using
/// it is ordered after `after`'s computation in the compiler's view only, at
/// no cost in instructions; the CPU still runs both out of order.
///
/// [`union_of_up_to_two`] ties its second lookup to the first this way. Two
/// independent copies of one lookup are what LLVM's SLP vectorizer packs
/// into vector registers, and with AVX-512 in the whole build
/// (`-C target-cpu=native`) it packed two `scalar-rank-table` queen lookups
/// into zmm code full of lane inserts and extracts: 1-2 queens took 49.8 us
/// per 4096 calls against 34.4 for a plain loop; 36.3 with the tie
/// (criterion, Intel Xeon). Other builds go without: there the tie cost
/// 15-20 % (`scalar-reverse`, 1-2 queens: 48.0 us with it, 35.5 without).
#[inline(always)]
fn ordered_after(value: u64, after: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
    {
        let mut value = value;
        // SAFETY: the template is only a comment naming the registers: no
        // instruction runs, no memory is touched, `value` comes back unchanged.
        unsafe {
            core::arch::asm!(
                "/* {value} {after} */",
                value = inout(reg) value,
                after = in(reg) after,
                options(pure, nomem, nostack, preserves_flags)
            );
        }
        value
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx512f")))]
    {
        let _ = after;
        value
    }
}

/// Panics with a clear message unless a batch's input and output lengths agree.
#[inline]
#[track_caller]
pub fn check_batch_lengths(squares: usize, out: usize) {
    if squares != out {
        batch_lengths_differ(squares, out)
    }
}

/// [`check_batch_lengths`]'s panic, out of line: inline, its message's
/// arguments were stored to the stack before the test, on every call (two
/// stores and a stack frame in each batch entry of the facade's tables).
#[cold]
#[inline(never)]
#[track_caller]
fn batch_lengths_differ(squares: usize, out: usize) -> ! {
    panic!(
        "batch attack call: `squares` has {squares} entries but `out` has {out}; they must be equal"
    )
}

/// One line's attacks from the piece kernel through that line, masked to
/// the line (the other line of the piece lies outside the mask): for
/// backends whose kernels work on whole pieces (PEXT tables, SIMD pairs).
#[inline(always)]
pub fn line_attacks_from_piece<B: SliderAttacks>(
    backend: B,
    line: Line,
    sq: Square,
    occupancy: Bitboard,
) -> Bitboard {
    let piece = match line {
        Line::Rank | Line::File => backend.rook_attacks(sq, occupancy),
        Line::Diagonal | Line::AntiDiagonal => backend.bishop_attacks(sq, occupancy),
    };
    piece & Bitboard(crate::line_mask(line, sq))
}

/// In debug builds, panics unless `reversed` is `occupancy` turned by 180
/// degrees (its bits reversed), as the `*_attacks_pair` entry points require;
/// release builds trust the caller (a wrong pair gives wrong attacks, never
/// undefined behaviour).
#[inline(always)]
#[track_caller]
pub fn debug_check_pair(occupancy: Bitboard, reversed: Bitboard) {
    debug_assert_eq!(
        reversed,
        occupancy.rotate_180(),
        "pair attack call: `reversed` is not the reversed occupancy"
    );
}

/// Defines a backend token: the zero-sized struct and its
/// [`SliderAttacks`] impl with `NAME`, `LEVEL` and `new_unchecked`, around
/// the items given (`TABLE_BYTES` and the methods). `portable` tokens
/// (level [`Level::Baseline`]) also get `const fn get()`, since every CPU
/// runs them.
///
/// ```
/// use hq_core::{Bitboard, Line, SliderAttacks, Square};
///
/// hq_core::slider_token! {
///     /// Ray walking, as a token.
///     pub struct Walker: "walker", portable;
///     impl {
///         // The oracle walks the rays: no table.
///         const TABLE_BYTES: usize = 0;
///
///         fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
///             hq_core::reference::line_attacks(line, sq, occupancy)
///         }
///     }
/// }
///
/// assert_eq!(Walker::get().rook_attacks(Square::A1, Bitboard::EMPTY).count(), 14);
/// ```
#[macro_export]
macro_rules! slider_token {
    (
        $(#[$doc:meta])*
        $vis:vis struct $token:ident: $name:literal, portable;
        $(#[$impl_attr:meta])*
        impl { $($items:tt)* }
    ) => {
        $crate::slider_token! {
            $(#[$doc])*
            $vis struct $token: $name, $crate::cpu::Level::Baseline;
            $(#[$impl_attr])*
            impl { $($items)* }
        }

        impl $token {
            /// The token; always available (portable code).
            #[inline]
            pub const fn get() -> $token {
                $token(())
            }
        }
    };
    (
        $(#[$doc:meta])*
        $vis:vis struct $token:ident: $name:literal, $level:expr;
        $(#[$impl_attr:meta])*
        impl { $($items:tt)* }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        $vis struct $token(());

        $(#[$impl_attr])*
        impl $crate::SliderAttacks for $token {
            const NAME: &'static str = $name;
            const LEVEL: $crate::cpu::Level = $level;

            #[inline]
            unsafe fn new_unchecked() -> Self {
                $token(())
            }

            $($items)*
        }
    };
}

/// Defines a token that proves the CPU has a level, for kernels outside
/// the [`SliderAttacks`](crate::SliderAttacks) backends (compiled with
/// `at_level!` for the same level): the struct, `LEVEL`, `new`, `require`
/// (the error names what this CPU lacks) and `new_unchecked`.
///
/// ```
/// hq_core::level_token! {
///     /// Proof of x86-64-v3.
///     pub struct V3Proof: X86V3, "my-kernel";
/// }
/// assert_eq!(V3Proof::new().is_some(), V3Proof::LEVEL.is_detected());
/// ```
#[macro_export]
macro_rules! level_token {
    ($(#[$doc:meta])* $vis:vis struct $name:ident: $level:ident, $label:literal;) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        $vis struct $name(());

        impl $name {
            /// The instruction set the kernels are compiled for.
            pub const LEVEL: $crate::cpu::Level = $crate::cpu::Level::$level;

            /// The token, if the CPU has [`Self::LEVEL`].
            #[inline]
            pub fn new() -> Option<Self> {
                Self::require().ok()
            }

            /// The token, or what this CPU lacks.
            #[inline]
            pub fn require() -> Result<Self, $crate::cpu::MissingFeatures> {
                $crate::cpu::MissingFeatures::check($label, Self::LEVEL).map(|()| $name(()))
            }

            /// The token without a check.
            ///
            /// # Safety
            ///
            /// The CPU must have every feature of [`Self::LEVEL`].
            #[inline]
            pub const unsafe fn new_unchecked() -> Self {
                $name(())
            }
        }
    };
}

#[cfg(test)]
mod at_most_tests {
    use super::at_most;

    #[test]
    fn at_most_agrees_with_count_ones() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        // Miri interprets: a sample there.
        for i in 0..if cfg!(miri) { 200 } else { 20_000u32 } {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Sparse sets too: the crossover counts are small.
            let set = if i % 2 == 0 {
                x
            } else {
                x & (x >> 5) & (x >> 11)
            };
            for n in 0..=8 {
                assert_eq!(at_most(set, n), set.count_ones() <= n, "{set:#x} {n}");
            }
        }
        assert!(at_most(0, 0));
        assert!(!at_most(u64::MAX, 63));
        assert!(at_most(u64::MAX, 64));
    }
}
