//! What the running CPU can do — the one place every backend token asks.
//!
//! * [`Feature`]: an instruction-set extension a backend can need.
//! * [`Level`]: the instruction set a backend is compiled for, a fixed
//!   bundle of features (the x86-64 micro-architecture levels, NEON, wasm
//!   `simd128`). A token's [`SliderAttacks::LEVEL`](crate::SliderAttacks::LEVEL)
//!   is its level; the token exists only where the whole level is present.
//! * `at_level!`: compiles items for a level, with `#[multiversion::target]`
//!   and the level's one target string (the backends' hand-written SIMD).
//!   Jobs run inside a `#[target_feature]` function of a level, so that
//!   everything they inline (a user's loop, the kernels it calls) is
//!   compiled for it (the pattern of `pulp`'s `WithSimd`); that machinery
//!   is internal to the workspace (hidden from the docs).
//! * [`MissingFeatures`]: the one error for "this CPU cannot run that".
//! * [`Identity`]: vendor, family and model, for choices that depend on the
//!   micro-architecture rather than on features (PEXT is microcoded on AMD
//!   before Zen 3, for example).
//!
//! Detection is run-time (`std::is_x86_feature_detected!`, which caches)
//! with the `std` feature, and compile-time (`cfg!(target_feature)`) always:
//! a feature enabled at compile time counts as present. Under Miri the
//! standard library's detection reports only the build's features, so only
//! the portable tokens exist there and the facade takes their paths (Miri
//! cannot run SIMD code behind `#[target_feature]`, nor CPUID: see
//! [`Identity::detect`]).

use core::fmt;

macro_rules! features {
    ($($variant:ident = $name:tt, $arch:tt;)*) => {
        /// An instruction-set extension a backend can need.
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        #[non_exhaustive]
        pub enum Feature {
            $(
                #[doc = concat!("`", $name, "` (", $arch, ").")]
                $variant,
            )*
        }

        impl Feature {
            /// Every feature, in declaration order.
            pub const ALL: &'static [Feature] = &[$(Feature::$variant),*];

            /// The name `is_x86_feature_detected!` (or the target's
            /// equivalent) and `#[target_feature]` use.
            pub const fn name(self) -> &'static str {
                match self { $(Feature::$variant => $name),* }
            }

            /// Whether the build enables the feature everywhere (`-C
            /// target-feature`, `-C target-cpu`): code may use it without
            /// a `#[target_feature]` function.
            pub const fn is_static(self) -> bool {
                match self { $(Feature::$variant => cfg!(target_feature = $name)),* }
            }

            /// Whether the running CPU has the feature (or the build
            /// requires it: enabled at compile time).
            pub fn is_detected(self) -> bool {
                match self { $(Feature::$variant => detect!($arch, $name)),* }
            }
        }
    };
}

/// `detect!(arch, name)`: compile-time enabled, or detected at run time.
macro_rules! detect {
    ("x86_64", $name:tt) => {{
        #[cfg(target_arch = "x86_64")]
        {
            cfg!(target_feature = $name) || runtime_x86!($name)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }};
    ("aarch64", $name:tt) => {{
        #[cfg(target_arch = "aarch64")]
        {
            cfg!(target_feature = $name) || runtime_aarch64!($name)
        }
        #[cfg(not(target_arch = "aarch64"))]
        {
            false
        }
    }};
    ("wasm32", $name:tt) => {
        cfg!(all(target_arch = "wasm32", target_feature = $name))
    };
}

#[cfg(all(feature = "std", target_arch = "x86_64"))]
macro_rules! runtime_x86 {
    ($name:tt) => {
        std::is_x86_feature_detected!($name)
    };
}
#[cfg(all(not(feature = "std"), target_arch = "x86_64"))]
macro_rules! runtime_x86 {
    ($name:tt) => {
        false
    };
}
#[cfg(all(feature = "std", target_arch = "aarch64"))]
macro_rules! runtime_aarch64 {
    ($name:tt) => {
        std::arch::is_aarch64_feature_detected!($name)
    };
}
#[cfg(all(not(feature = "std"), target_arch = "aarch64"))]
macro_rules! runtime_aarch64 {
    ($name:tt) => {
        false
    };
}

features! {
    Sse3 = "sse3", "x86_64";
    Ssse3 = "ssse3", "x86_64";
    Sse41 = "sse4.1", "x86_64";
    Sse42 = "sse4.2", "x86_64";
    Popcnt = "popcnt", "x86_64";
    Avx = "avx", "x86_64";
    Avx2 = "avx2", "x86_64";
    Bmi1 = "bmi1", "x86_64";
    Bmi2 = "bmi2", "x86_64";
    Lzcnt = "lzcnt", "x86_64";
    Fma = "fma", "x86_64";
    Movbe = "movbe", "x86_64";
    F16c = "f16c", "x86_64";
    Avx512f = "avx512f", "x86_64";
    Avx512bw = "avx512bw", "x86_64";
    Avx512cd = "avx512cd", "x86_64";
    Avx512dq = "avx512dq", "x86_64";
    Avx512vl = "avx512vl", "x86_64";
    Avx512vbmi = "avx512vbmi", "x86_64";
    Avx512vbmi2 = "avx512vbmi2", "x86_64";
    Avx512bitalg = "avx512bitalg", "x86_64";
    Avx512ifma = "avx512ifma", "x86_64";
    Avx512vnni = "avx512vnni", "x86_64";
    Avx512vpopcntdq = "avx512vpopcntdq", "x86_64";
    Gfni = "gfni", "x86_64";
    Vaes = "vaes", "x86_64";
    Vpclmulqdq = "vpclmulqdq", "x86_64";
    Neon = "neon", "aarch64";
    Simd128 = "simd128", "wasm32";
}

impl Feature {
    /// The feature called `name`; panics if none is.
    const fn named(name: &[u8]) -> Feature {
        let mut i = 0;
        while i < Feature::ALL.len() {
            let candidate = Feature::ALL[i].name().as_bytes();
            if candidate.len() == name.len() {
                let mut j = 0;
                while j < name.len() && candidate[j] == name[j] {
                    j += 1;
                }
                if j == name.len() {
                    return Feature::ALL[i];
                }
            }
            i += 1;
        }
        panic!("a level's target string names a feature `Feature` does not list")
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of [`Feature`]s (a bit per feature, no allocation).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FeatureSet(u32);

impl FeatureSet {
    /// The empty set.
    pub const EMPTY: FeatureSet = FeatureSet(0);

    /// The set of `features`.
    pub const fn of(features: &[Feature]) -> FeatureSet {
        let mut bits = 0;
        let mut i = 0;
        while i < features.len() {
            bits |= 1 << features[i] as u32;
            i += 1;
        }
        FeatureSet(bits)
    }

    /// The features of a `multiversion` target string, those after the
    /// architecture: `x86_64+avx2+bmi2` gives AVX2 and BMI2.
    ///
    /// # Panics
    ///
    /// On a feature [`Feature`] does not list (at compile time in a `const`).
    pub const fn of_target(target: &str) -> FeatureSet {
        let bytes = target.as_bytes();
        let mut bits = 0;
        let mut start = 0;
        while start < bytes.len() && bytes[start] != b'+' {
            start += 1;
        }
        while start < bytes.len() {
            start += 1;
            let mut end = start;
            while end < bytes.len() && bytes[end] != b'+' {
                end += 1;
            }
            let name = bytes.split_at(end).0.split_at(start).1;
            bits |= 1 << Feature::named(name) as u32;
            start = end;
        }
        FeatureSet(bits)
    }

    /// The features of either set.
    pub const fn union(self, other: FeatureSet) -> FeatureSet {
        FeatureSet(self.0 | other.0)
    }

    /// Whether `feature` is in the set.
    pub const fn contains(self, feature: Feature) -> bool {
        self.0 & (1 << feature as u32) != 0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The features of the set, in [`Feature::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Feature> {
        Feature::ALL
            .iter()
            .copied()
            .filter(move |&f| self.contains(f))
    }

    /// The features of the set the running CPU lacks.
    pub fn missing(self) -> FeatureSet {
        let mut missing = FeatureSet::EMPTY;
        for f in self.iter().filter(|f| !f.is_detected()) {
            missing.0 |= 1 << f as u32;
        }
        missing
    }
}

impl fmt::Debug for FeatureSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The features, comma-separated (`avx512f, gfni`), or `none`.
impl fmt::Display for FeatureSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        for (i, feature) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(feature.name())?;
        }
        Ok(())
    }
}

/// The instruction set a backend is compiled for: a fixed bundle of
/// features. Backends declare one ([`SliderAttacks::LEVEL`](crate::SliderAttacks::LEVEL));
/// a token exists only where every feature of its level is present, and
/// code compiled for a level may use all of them.
///
/// The x86-64 levels are the psABI micro-architecture levels; `X86V4` adds
/// Ice Lake's AVX-512 extensions to v4 (Ice Lake and later, Zen 4 and
/// later), VBMI's `vpermb` and GFNI among them. Each level is defined once,
/// by its `multiversion` target string (`levels!`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[non_exhaustive]
pub enum Level {
    /// What the target has without any extra feature: portable code.
    Baseline,
    /// x86-64-v2: SSE3, SSSE3, SSE4.1, SSE4.2, POPCNT.
    X86V2,
    /// x86-64-v3: v2 plus AVX, AVX2, BMI1, BMI2, LZCNT, FMA, MOVBE, F16C.
    X86V3,
    /// x86-64-v4 (AVX-512 F/BW/CD/DQ/VL) plus Ice Lake's AVX-512
    /// extensions: VBMI, VBMI2, BITALG, IFMA, VNNI, VPOPCNTDQ, GFNI, VAES,
    /// VPCLMULQDQ (see `levels!` for why all of them).
    X86V4,
    /// AArch64 Advanced SIMD (NEON).
    Neon,
    /// WebAssembly 128-bit SIMD (enabled at compile time only: wasm has no
    /// run-time detection).
    Simd128,
}

/// Each level's one definition: its `multiversion` target string (the
/// architecture, then the features). From it come the level's
/// [`FeatureSet`] (what detection checks), the `#[target_feature]`
/// functions that run jobs at the level, and `at_level!`, which
/// compiles the backends' hand-written SIMD for a level. A new level is a
/// line here and its [`Level`] variant.
///
/// `X86V4` is the psABI's v4 plus the AVX-512 extensions of Ice Lake:
/// `multiversion` enables those with any AVX-512 feature (it does not
/// target Skylake-X's AVX-512), so the level lists them, and detection
/// checks every feature its code is compiled with. Every CPU with AVX-512
/// and GFNI has them all (Ice Lake, Tiger Lake, Sapphire Rapids, Zen 4).
macro_rules! levels {
    ($d:tt $($level:ident = $target:tt;)*) => {
        impl Level {
            /// The level's `multiversion` target string (`x86_64+sse3+...`;
            /// `None` for [`Level::Baseline`]).
            pub const fn target(self) -> Option<&'static str> {
                match self {
                    Level::Baseline => None,
                    $(Level::$level => Some($target),)*
                }
            }

            /// The features of the level.
            pub const fn features(self) -> FeatureSet {
                match self {
                    Level::Baseline => FeatureSet::EMPTY,
                    $(Level::$level => const { FeatureSet::of_target($target) },)*
                }
            }
        }

        /// Compiles items for a [`Level`](crate::cpu::Level): each gets
        /// `#[multiversion::target]` with the level's target string, so it
        /// exists only on the level's architecture and may use every
        /// feature of the level. Call such a function only where the CPU
        /// has the level (a token of the level proves it).
        ///
        /// ```
        /// hq_core::at_level! { X86V3;
        ///     /// Compiled with AVX2, BMI2 and the rest of x86-64-v3.
        ///     pub fn shifted(x: u64) -> u64 {
        ///         x << 1
        ///     }
        /// }
        /// ```
        #[macro_export]
        macro_rules! at_level {
            $(($level; $d($d item:item)*) => {
                $d(#[$d crate::__multiversion::target($target)] $d item)*
            };)*
        }
    };
}

levels! { $
    X86V2 = "x86_64+sse3+ssse3+sse4.1+sse4.2+popcnt";
    X86V3 = "x86_64+sse3+ssse3+sse4.1+sse4.2+popcnt+avx+avx2+bmi1+bmi2+lzcnt+fma+movbe+f16c";
    X86V4 = "x86_64+sse3+ssse3+sse4.1+sse4.2+popcnt+avx+avx2+bmi1+bmi2+lzcnt+fma+movbe+f16c\
             +avx512f+avx512bw+avx512cd+avx512dq+avx512vl+avx512vbmi+avx512vbmi2+avx512bitalg\
             +avx512ifma+avx512vnni+avx512vpopcntdq+gfni+vaes+vpclmulqdq";
    Neon = "aarch64+neon";
    Simd128 = "wasm32+simd128";
}

impl Level {
    /// A short name (`x86-64-v3`, `neon`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Level::Baseline => "baseline",
            Level::X86V2 => "x86-64-v2",
            Level::X86V3 => "x86-64-v3",
            Level::X86V4 => "x86-64-v4+gfni",
            Level::Neon => "neon",
            Level::Simd128 => "simd128",
        }
    }

    /// The architecture the level belongs to (`None` for [`Level::Baseline`]).
    pub const fn arch(self) -> Option<&'static str> {
        match self {
            Level::Baseline => None,
            Level::X86V2 | Level::X86V3 | Level::X86V4 => Some("x86_64"),
            Level::Neon => Some("aarch64"),
            Level::Simd128 => Some("wasm32"),
        }
    }

    /// Whether the build enables every feature of the level everywhere
    /// ([`Feature::is_static`]; always for [`Level::Baseline`]).
    pub const fn is_static(self) -> bool {
        let features = self.features();
        let mut i = 0;
        while i < Feature::ALL.len() {
            if features.contains(Feature::ALL[i]) && !Feature::ALL[i].is_static() {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Whether the running CPU has every feature of the level.
    pub fn is_detected(self) -> bool {
        self.features().missing().is_empty()
    }

    /// The highest x86-64 level this CPU has, capped at `cap` (`Baseline`
    /// on other targets): what code that may use "everything up to `cap`"
    /// is compiled for.
    pub fn detected_up_to(cap: Level) -> Level {
        [Level::X86V4, Level::X86V3, Level::X86V2]
            .into_iter()
            .find(|&l| l <= cap && l.is_detected())
            .unwrap_or(Level::Baseline)
    }

    /// The level jobs for a backend of level `backend` run at
    /// (`run_at`): the backend's own, raised to x86-64-v3 where the CPU
    /// has it, so that the caller's code gets POPCNT, BMI and AVX2 whatever
    /// the backend (but AVX-512 code only with an AVX-512 backend).
    pub fn for_jobs(backend: Level) -> Level {
        match backend {
            Level::Baseline | Level::X86V2 => {
                let up = Level::detected_up_to(Level::X86V3);
                if up > backend { up } else { backend }
            }
            other => other,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Runs `f` compiled for `level`: inside a `#[target_feature]` function
/// enabling every feature of the level, into which `f` is inlined (mark the
/// closure `#[inline(always)]`: LLVM does not inline a big closure on its
/// own, and then nothing in it is compiled for the level).
///
/// # Safety
///
/// The running CPU must have every feature of `level`
/// ([`Level::is_detected`]).
#[doc(hidden)]
#[inline(always)]
pub unsafe fn run_at<R>(level: Level, f: impl FnOnce() -> R) -> R {
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the caller guarantees the level's features.
        Level::X86V2 => unsafe { x86::v2(f) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the caller guarantees the level's features.
        Level::X86V3 => unsafe { x86::v3(f) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the caller guarantees the level's features.
        Level::X86V4 => unsafe { x86::v4(f) },
        // NEON is part of every AArch64 Rust target; simd128 is compile-time.
        _ => f(),
    }
}

/// Code compiled for one level, as a type whose values prove the CPU has the
/// level: what a recursive job (perft) dispatches on once, so that every
/// recursive call stays inside code of that level (the closure passed to
/// [`Compiled::run`] is inlined into a `#[target_feature]` function of it).
/// Values come only from [`compiled_for`].
///
/// # Safety
///
/// `run` must enable exactly the features of `LEVEL`, and a value may exist
/// only where the CPU has them.
#[doc(hidden)]
pub unsafe trait Compiled: Copy + 'static {
    /// The level.
    const LEVEL: Level;
    /// Runs `f` compiled for [`Self::LEVEL`].
    fn run<R>(self, f: impl FnOnce() -> R) -> R;
}

/// The [`Compiled`] levels.
#[doc(hidden)]
pub mod at {
    use super::{Compiled, Level};

    macro_rules! compiled {
        ($($(#[$doc:meta])* $name:ident;)*) => {$(
            $(#[$doc])*
            #[derive(Clone, Copy, Debug)]
            pub struct $name(pub(super) ());
            // SAFETY: `run` enables exactly the level's features (`run_at`),
            // and values are made only by `compiled_for`, after detection.
            unsafe impl Compiled for $name {
                const LEVEL: Level = Level::$name;
                #[inline(always)]
                fn run<R>(self, f: impl FnOnce() -> R) -> R {
                    // SAFETY: the value proves the level's features.
                    unsafe { super::run_at(Level::$name, f) }
                }
            }
        )*};
    }

    compiled! {
        /// Portable code.
        Baseline;
        /// x86-64-v2.
        X86V2;
        /// x86-64-v3.
        X86V3;
        /// x86-64-v4 with GFNI.
        X86V4;
    }

    impl Baseline {
        /// Portable code runs everywhere.
        pub const fn new() -> Baseline {
            Baseline(())
        }
    }

    impl Default for Baseline {
        fn default() -> Baseline {
            Baseline::new()
        }
    }
}

/// A job generic over the level it is compiled for (see [`compiled_for`]).
#[doc(hidden)]
pub trait WithLevel {
    /// What the job returns.
    type Output;
    /// Runs the job; the code it wants compiled for the level goes through
    /// [`Compiled::run`] on `level`.
    fn run<C: Compiled>(self, level: C) -> Self::Output;
}

/// Runs `job` at the level jobs for `token`'s backend run at
/// ([`Level::for_jobs`]): the token proves the backend's level, and
/// `for_jobs` only raises it to levels it detected.
#[doc(hidden)]
pub fn compiled_for<B: crate::SliderAttacks, W: WithLevel>(token: B, job: W) -> W::Output {
    let _proof = token;
    match Level::for_jobs(B::LEVEL) {
        Level::X86V2 => job.run(at::X86V2(())),
        Level::X86V3 => job.run(at::X86V3(())),
        Level::X86V4 => job.run(at::X86V4(())),
        _ => job.run(at::Baseline(())),
    }
}

/// A function pointer to the zero-sized closure `f` of two arguments,
/// compiled for `level`: the function behind the pointer is the
/// `#[target_feature]` function of the level with `f` inlined into it, so a
/// call through the pointer lands directly in code of the level (what the
/// facade's dispatch tables hold).
///
/// Calling the pointer is `unsafe`: the CPU must have every feature of `level`.
///
/// # Panics
///
/// At compile time, if `f` captures anything (it must be zero-sized).
#[doc(hidden)]
pub const fn compiled_fn<A, B, R, F>(level: Level, f: F) -> unsafe fn(A, B) -> R
where
    F: Fn(A, B) -> R + Copy,
{
    const {
        assert!(
            core::mem::size_of::<F>() == 0,
            "the closure must not capture"
        )
    };
    let _ = f;
    match level {
        #[cfg(target_arch = "x86_64")]
        Level::X86V2 => x86::v2_fn::<A, B, R, F>,
        #[cfg(target_arch = "x86_64")]
        Level::X86V3 => x86::v3_fn::<A, B, R, F>,
        #[cfg(target_arch = "x86_64")]
        Level::X86V4 => x86::v4_fn::<A, B, R, F>,
        _ => baseline_fn::<A, B, R, F>,
    }
}

/// The zero-sized closure `F` out of thin air: it has no bytes and no
/// invariant, and `compiled_fn` checked that it is zero-sized.
#[inline(always)]
unsafe fn conjure<F: Copy>() -> F {
    // SAFETY: `F` is a zero-sized closure type (checked by `compiled_fn`):
    // the all-zero value of no bytes is its only value.
    unsafe { core::mem::zeroed() }
}

/// [`compiled_fn`]'s baseline function.
unsafe fn baseline_fn<A, B, R, F: Fn(A, B) -> R + Copy>(a: A, b: B) -> R {
    // SAFETY: see `conjure`.
    (unsafe { conjure::<F>() })(a, b)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::conjure;

    /// A level's two entries: `run` inlines a closure into the level's
    /// code ([`run_at`](super::run_at)), `run_fn` is the zero-sized closure
    /// `F` of two arguments compiled for the level
    /// ([`compiled_fn`](super::compiled_fn)).
    macro_rules! entries {
        ($($level:ident: $run:ident, $run_fn:ident;)*) => {$(
            at_level! { $level;
                pub(super) fn $run<R>(f: impl FnOnce() -> R) -> R {
                    f()
                }

                pub(super) unsafe fn $run_fn<A, B, R, F: Fn(A, B) -> R + Copy>(a: A, b: B) -> R {
                    // SAFETY: see `conjure`.
                    (unsafe { conjure::<F>() })(a, b)
                }
            }
        )*};
    }

    entries! {
        X86V2: v2, v2_fn;
        X86V3: v3, v3_fn;
        X86V4: v4, v4_fn;
    }
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

/// The error of a token the CPU cannot run: which backend, its level, and
/// which of the level's features are missing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MissingFeatures {
    /// The backend's name.
    pub backend: &'static str,
    /// The level it is compiled for.
    pub level: Level,
    /// The features of the level this CPU lacks.
    pub missing: FeatureSet,
}

impl MissingFeatures {
    /// `Ok(())` if the CPU has all of `level`, else the error for `backend`.
    pub fn check(backend: &'static str, level: Level) -> Result<(), MissingFeatures> {
        let missing = level.features().missing();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(MissingFeatures {
                backend,
                level,
                missing,
            })
        }
    }
}

impl fmt::Display for MissingFeatures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "backend {} cannot run on this CPU: it is built for {}",
            self.backend, self.level
        )?;
        // Another architecture's backend: its feature list says nothing here.
        if let Some(arch) = self.level.arch()
            && arch != TARGET_ARCH
        {
            return write!(
                f,
                ", a level of {arch}, and this build is for {TARGET_ARCH} ({arch} backends are absent from it)"
            );
        }
        write!(f, " ({})", self.level.features())?;
        write!(f, "; missing here: {}", self.missing)?;
        if self.level == Level::Simd128 {
            // wasm has no run-time detection: simd128 is a build option.
            write!(
                f,
                " (build with RUSTFLAGS=\"-C target-feature=+simd128\" to enable it)"
            )?;
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for MissingFeatures {}

/// The target architecture this build is for.
pub const TARGET_ARCH: &str = if cfg!(target_arch = "x86_64") {
    "x86_64"
} else if cfg!(target_arch = "aarch64") {
    "aarch64"
} else if cfg!(target_arch = "wasm32") {
    "wasm32"
} else {
    "this architecture"
};

/// The CPU vendor, from CPUID (x86) or the target.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum Vendor {
    /// `GenuineIntel`.
    Intel,
    /// `AuthenticAMD`.
    Amd,
    /// `HygonGenuine` (licensed Zen 1).
    Hygon,
    /// Another x86 vendor string.
    OtherX86,
    /// Not x86 (the vendor is not read).
    NotX86,
}

impl Vendor {
    /// Every vendor, in declaration order.
    pub const ALL: [Vendor; 5] = [
        Vendor::Intel,
        Vendor::Amd,
        Vendor::Hygon,
        Vendor::OtherX86,
        Vendor::NotX86,
    ];

    /// A stable name, as recorded in benchmark results (`Display` writes
    /// it, `FromStr` reads it back).
    pub const fn name(self) -> &'static str {
        match self {
            Vendor::Intel => "Intel",
            Vendor::Amd => "Amd",
            Vendor::Hygon => "Hygon",
            Vendor::OtherX86 => "OtherX86",
            Vendor::NotX86 => "NotX86",
        }
    }
}

impl fmt::Display for Vendor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for Vendor {
    type Err = UnknownVendor;

    /// The vendor of a [`Vendor::name`].
    ///
    /// ```
    /// use hq_core::cpu::Vendor;
    /// assert_eq!("Amd".parse(), Ok(Vendor::Amd));
    /// assert!("AMD".parse::<Vendor>().is_err());
    /// ```
    fn from_str(name: &str) -> Result<Self, UnknownVendor> {
        Vendor::ALL
            .into_iter()
            .find(|v| v.name() == name)
            .ok_or(UnknownVendor)
    }
}

/// A vendor name that no [`Vendor`] has.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct UnknownVendor;

impl fmt::Display for UnknownVendor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown CPU vendor name; the names: ")?;
        for (i, v) in Vendor::ALL.iter().enumerate() {
            write!(f, "{}{v}", if i == 0 { "" } else { ", " })?;
        }
        Ok(())
    }
}

/// Who the CPU is: what choices that depend on the micro-architecture need.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Identity {
    /// The vendor.
    pub vendor: Vendor,
    /// Display family (base plus extended family; 0 off x86).
    pub family: u32,
    /// Display model (base plus extended model; 0 off x86).
    pub model: u32,
    /// Stepping (0 off x86).
    pub stepping: u32,
}

impl Identity {
    /// The running CPU (CPUID on x86-64; [`Vendor::NotX86`] elsewhere).
    /// Under Miri, which cannot execute CPUID, an x86-64 CPU of
    /// [`Vendor::OtherX86`] with family, model and stepping 0 (Miri reports
    /// no feature beyond the build's, so no choice depends on it there).
    pub fn detect() -> Identity {
        #[cfg(all(target_arch = "x86_64", miri))]
        {
            Identity {
                vendor: Vendor::OtherX86,
                family: 0,
                model: 0,
                stepping: 0,
            }
        }
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        {
            let cpuid = raw_cpuid::CpuId::new();
            let vendor = match cpuid.get_vendor_info().as_ref().map(|v| v.as_str()) {
                Some("GenuineIntel") => Vendor::Intel,
                Some("AuthenticAMD") => Vendor::Amd,
                Some("HygonGenuine") => Vendor::Hygon,
                _ => Vendor::OtherX86,
            };
            let (family, model, stepping) = cpuid.get_feature_info().map_or((0, 0, 0), |f| {
                (
                    u32::from(f.family_id()),
                    u32::from(f.model_id()),
                    u32::from(f.stepping_id()),
                )
            });
            Identity {
                vendor,
                family,
                model,
                stepping,
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Identity {
                vendor: Vendor::NotX86,
                family: 0,
                model: 0,
                stepping: 0,
            }
        }
    }

    /// Whether `PEXT`/`PDEP` are fast here (given BMI2): everywhere except
    /// AMD (and Hygon) before family 0x19 (Zen 3), where they are microcoded
    /// at 18 cycles and more, data-dependent (REFERENCES.md: Zen 1/2).
    pub const fn has_fast_pext(self) -> bool {
        !matches!(self.vendor, Vendor::Amd | Vendor::Hygon) || self.family >= 0x19
    }
}

/// The CPU's brand string (x86-64 CPUID leaves 0x8000_0002..4), if any.
#[cfg(feature = "std")]
pub fn brand_string() -> Option<std::string::String> {
    // Miri cannot execute CPUID.
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        raw_cpuid::CpuId::new()
            .get_processor_brand_string()
            .map(|b| b.as_str().trim().into())
            .filter(|b: &std::string::String| !b.is_empty())
    }
    #[cfg(any(not(target_arch = "x86_64"), miri))]
    {
        None
    }
}

/// This CPU's id, as the bench matrix names its results
/// (`benches/results/<cpu-id>/`) and the choice table's `measured_on` lists
/// it: the brand string as a slug, then family, model and stepping (virtual
/// machines often hide the model in the brand: "AMD EPYC"). For example
/// `amd-epyc-f19-m11-s1`.
#[cfg(feature = "std")]
pub fn cpu_id() -> std::string::String {
    let id = Identity::detect();
    let name = match slug(&brand_string().unwrap_or_default()) {
        s if s.is_empty() => slug(&std::format!("{:?}-{TARGET_ARCH}", id.vendor)),
        s => s,
    };
    std::format!("{name}-f{:x}-m{:x}-s{}", id.family, id.model, id.stepping)
}

/// Lower-case letters and digits, other runs turned into one `-`.
#[cfg(feature = "std")]
fn slug(text: &str) -> std::string::String {
    let mut out = std::string::String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.truncate(out.trim_end_matches('-').len());
    out
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_file_names() {
        assert_eq!(
            slug("Intel(R) Xeon(R) Processor"),
            "intel-r-xeon-r-processor"
        );
        assert_eq!(slug("  AMD EPYC 9R45 "), "amd-epyc-9r45");
        assert!(cpu_id().contains("-f") && !cpu_id().contains(' '));
    }

    #[test]
    fn levels_nest_and_detection_is_consistent() {
        for pair in [Level::X86V2, Level::X86V3, Level::X86V4].windows(2) {
            let (lower, upper) = (pair[0].features(), pair[1].features());
            assert!(lower.iter().all(|f| upper.contains(f)));
            if pair[1].is_detected() {
                assert!(pair[0].is_detected(), "{:?} without {:?}", pair[1], pair[0]);
            }
        }
        assert!(Level::Baseline.is_detected());
        assert!(Level::Baseline.features().is_empty());
        let jobs = Level::for_jobs(Level::Baseline);
        assert!(jobs.is_detected() && jobs <= Level::X86V3);
        assert_eq!(Level::for_jobs(Level::X86V4), Level::X86V4);
    }

    #[test]
    fn each_level_has_exactly_the_features_of_its_target_string() {
        for level in [
            Level::X86V2,
            Level::X86V3,
            Level::X86V4,
            Level::Neon,
            Level::Simd128,
        ] {
            let target = level
                .target()
                .expect("a level beyond baseline has a target");
            let mut parts = target.split('+');
            assert_eq!(parts.next(), level.arch(), "{level}: {target}");
            let names: std::vec::Vec<&str> = parts.collect();
            let listed: std::vec::Vec<&str> = level.features().iter().map(Feature::name).collect();
            assert_eq!(names.len(), listed.len(), "{level}: {target}");
            assert!(
                names.iter().all(|n| listed.contains(n)),
                "{level}: {target}"
            );
        }
        // What the AVX-512 kernels use is in the level itself.
        let v4 = Level::X86V4.features();
        assert!(v4.contains(Feature::Avx512vbmi) && v4.contains(Feature::Gfni));
        assert_eq!(Level::Baseline.target(), None);
    }

    #[test]
    fn run_at_runs_the_closure_at_every_detected_level() {
        for level in [Level::Baseline, Level::X86V2, Level::X86V3, Level::X86V4] {
            if level.is_detected() {
                // SAFETY: just detected.
                assert_eq!(unsafe { run_at(level, || 41 + 1) }, 42);
            } else {
                std::println!(
                    "hq-core: SKIPPED run_at at {level}: CPU lacks {}",
                    level.features().missing()
                );
            }
        }
    }

    #[test]
    fn the_error_names_the_missing_features() {
        let e = MissingFeatures {
            backend: "avx512",
            level: Level::X86V4,
            missing: FeatureSet::of(&[Feature::Gfni, Feature::Avx512vbmi]),
        };
        let text = std::format!("{e}");
        if cfg!(target_arch = "x86_64") {
            assert!(
                text.contains("avx512vbmi, gfni")
                    && text.contains("x86-64-v4")
                    && text.contains("missing here: avx512vbmi, gfni"),
                "{text}"
            );
        } else {
            // Off x86-64 the features say nothing: the architecture is named.
            assert!(
                text.contains("a level of x86_64") && text.contains("x86_64 backends are absent"),
                "{text}"
            );
        }
    }

    #[test]
    fn pext_is_slow_only_on_amd_before_zen_3() {
        let id = |vendor, family| Identity {
            vendor,
            family,
            model: 0,
            stepping: 0,
        };
        assert!(!id(Vendor::Amd, 0x17).has_fast_pext());
        assert!(!id(Vendor::Hygon, 0x18).has_fast_pext());
        assert!(id(Vendor::Amd, 0x19).has_fast_pext());
        assert!(id(Vendor::Intel, 6).has_fast_pext());
    }
}
