//! What the running CPU can do — the one place every backend token asks.
//!
//! * [`Feature`]: an instruction-set extension a backend can need.
//! * [`Level`]: the instruction set a backend is compiled for, a fixed
//!   bundle of features (the x86-64 micro-architecture levels, NEON, wasm
//!   `simd128`), each defined once by its list of `#[target_feature]`
//!   names (`each_level!`). A token's [`SliderAttacks::LEVEL`](crate::SliderAttacks::LEVEL)
//!   is its level; the token exists only where the whole level is present.
//! * [`run_for`]: runs a closure compiled for the level jobs of a backend
//!   run at (the pattern of `pulp`'s `WithSimd`).
//! * `at_level!`: compiles the backends' hand-written SIMD for a level
//!   (`#[target_feature(enable = ...)]` with the level's features).
//! * [`MissingFeatures`]: the one error for "this CPU cannot run that".
//!
//! Detection is run-time (`std::is_x86_feature_detected!`, which caches)
//! with the `std` feature, and compile-time (`cfg!(target_feature)`) always:
//! a feature enabled at compile time counts as present. Under Miri the
//! standard library's detection reports only the build's features, so only
//! the portable tokens exist there.

use core::fmt;

/// `Feature` and its methods, from the features of each architecture:
/// variant and name.
macro_rules! features {
    ($($arch:tt: $($variant:ident = $name:tt),*;)*) => {
        /// An instruction-set extension a backend can need.
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        #[non_exhaustive]
        pub enum Feature {
            $($(#[doc = concat!("`", $name, "` (", $arch, ").")] $variant,)*)*
        }

        impl Feature {
            /// Every feature, in declaration order.
            pub const ALL: &'static [Feature] = &[$($(Feature::$variant),*),*];

            /// The name `is_x86_feature_detected!` (or the target's
            /// equivalent) and `#[target_feature]` use.
            pub const fn name(self) -> &'static str {
                match self { $($(Feature::$variant => $name),*),* }
            }

            /// Whether the build enables the feature everywhere (`-C
            /// target-feature`, `-C target-cpu`).
            pub const fn is_static(self) -> bool {
                match self { $($(Feature::$variant => cfg!(target_feature = $name)),*),* }
            }

            /// Whether the running CPU has the feature (or the build
            /// requires it: enabled at compile time).
            pub fn is_detected(self) -> bool {
                match self { $($(Feature::$variant => self.is_static() || detect!($arch, $name)),*),* }
            }
        }
    };
}

/// `detect!(arch, name)`: detected at run time (`false` without `std`, or
/// off the feature's architecture).
macro_rules! detect {
    ("x86_64", $name:tt) => {{
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        let detected = std::is_x86_feature_detected!($name);
        #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
        let detected = false;
        detected
    }};
    ("aarch64", $name:tt) => {{
        #[cfg(all(feature = "std", target_arch = "aarch64"))]
        let detected = std::arch::is_aarch64_feature_detected!($name);
        #[cfg(not(all(feature = "std", target_arch = "aarch64")))]
        let detected = false;
        detected
    }};
    // wasm has no run-time detection: only the build's features count.
    ("wasm32", $name:tt) => {
        false
    };
}

features! {
    "x86_64": Sse3 = "sse3", Ssse3 = "ssse3", Sse41 = "sse4.1", Sse42 = "sse4.2",
        Popcnt = "popcnt", Avx = "avx", Avx2 = "avx2", Bmi1 = "bmi1", Bmi2 = "bmi2",
        Lzcnt = "lzcnt", Fma = "fma", Movbe = "movbe", F16c = "f16c", Avx512f = "avx512f",
        Avx512bw = "avx512bw", Avx512cd = "avx512cd", Avx512dq = "avx512dq",
        Avx512vl = "avx512vl", Avx512vbmi = "avx512vbmi", Avx512vbmi2 = "avx512vbmi2",
        Avx512bitalg = "avx512bitalg", Avx512ifma = "avx512ifma", Avx512vnni = "avx512vnni",
        Avx512vpopcntdq = "avx512vpopcntdq", Gfni = "gfni", Vaes = "vaes",
        Vpclmulqdq = "vpclmulqdq";
    "aarch64": Neon = "neon";
    "wasm32": Simd128 = "simd128";
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
        let (mut bits, mut i) = (0, 0);
        while i < features.len() {
            bits |= 1 << features[i] as u32;
            i += 1;
        }
        FeatureSet(bits)
    }

    /// The features of a `#[target_feature(enable = ...)]` list:
    /// `"avx2,bmi2"` gives AVX2 and BMI2.
    ///
    /// # Panics
    ///
    /// On a feature [`Feature`] does not list (at compile time in a `const`).
    pub const fn of_enabled(list: &str) -> FeatureSet {
        let bytes = list.as_bytes();
        let (mut bits, mut start) = (0, 0);
        while start < bytes.len() {
            let mut end = start;
            while end < bytes.len() && bytes[end] != b',' {
                end += 1;
            }
            let name = bytes.split_at(end).0.split_at(start).1;
            bits |= 1 << named(name) as u32;
            start = end + 1;
        }
        FeatureSet(bits)
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
        let missing: u32 = self
            .iter()
            .filter(|f| !f.is_detected())
            .map(|f| 1 << f as u32)
            .sum();
        FeatureSet(missing)
    }

    /// Whether the build enables every feature of the set everywhere.
    pub const fn is_static(self) -> bool {
        let mut i = 0;
        while i < Feature::ALL.len() {
            if self.contains(Feature::ALL[i]) && !Feature::ALL[i].is_static() {
                return false;
            }
            i += 1;
        }
        true
    }
}

/// The feature called `name`; panics if none is (at compile time in a `const`).
const fn named(name: &[u8]) -> Feature {
    let mut i = 0;
    while i < Feature::ALL.len() {
        let candidate = Feature::ALL[i].name().as_bytes();
        if crate::bytes_eq(candidate, name) {
            return Feature::ALL[i];
        }
        i += 1;
    }
    panic!("a level's feature list names a feature `Feature` does not list")
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
            write!(f, "{}{feature}", if i > 0 { ", " } else { "" })?;
        }
        Ok(())
    }
}

/// The levels, one line each: variant, name, architecture and the
/// features its code is compiled with (a `#[target_feature(enable = ...)]`
/// list). Everything about a level comes from its line: its
/// [`FeatureSet`], its `at_level!` arm, and the function [`run_for`] runs
/// its jobs in. A new level is a line here (`tests::each_level_is_one_line`
/// checks the rest).
///
/// `X86V4` is the psABI's v4 plus the AVX-512 extensions of Ice Lake, the
/// set `multiversion` enables with any AVX-512 feature (this crate used it
/// until its proc macro was measured to be half of a user's build: see the
/// README's "Dependencies"). Detection checks every feature the code is
/// compiled with: every CPU with AVX-512 and GFNI has them (Ice Lake and
/// later, Zen 4).
macro_rules! each_level {
    ($d:tt $callback:path) => {
        $callback! { $d
            /// x86-64-v2: SSE3, SSSE3, SSE4.1, SSE4.2, POPCNT.
            X86V2 = "x86-64-v2", "x86_64", "sse3,ssse3,sse4.1,sse4.2,popcnt";
            /// x86-64-v3: v2 plus AVX, AVX2, BMI1, BMI2, LZCNT, FMA, MOVBE, F16C.
            X86V3 = "x86-64-v3", "x86_64", "sse3,ssse3,sse4.1,sse4.2,popcnt,avx,avx2,bmi1,bmi2,\
lzcnt,fma,movbe,f16c";
            /// x86-64-v4 (AVX-512 F/BW/CD/DQ/VL) plus Ice Lake's AVX-512
            /// extensions: VBMI, VBMI2, BITALG, IFMA, VNNI, VPOPCNTDQ, GFNI,
            /// VAES, VPCLMULQDQ.
            X86V4 = "x86-64-v4+gfni", "x86_64", "sse3,ssse3,sse4.1,sse4.2,popcnt,avx,avx2,\
bmi1,bmi2,lzcnt,fma,movbe,f16c,avx512f,avx512bw,avx512cd,avx512dq,avx512vl,avx512vbmi,\
avx512vbmi2,avx512bitalg,avx512ifma,avx512vnni,avx512vpopcntdq,gfni,vaes,vpclmulqdq";
            /// AArch64 Advanced SIMD (NEON).
            Neon = "neon", "aarch64", "neon";
            /// WebAssembly 128-bit SIMD (enabled at compile time only: wasm
            /// has no run-time detection).
            Simd128 = "simd128", "wasm32", "simd128";
        }
    };
}

/// `Level`, its methods, `at_level!` and the functions that run code at
/// each level, from [`each_level!`]'s lines.
macro_rules! define_levels {
    ($d:tt $($(#[$doc:meta])* $level:ident = $name:literal, $arch:literal, $enabled:literal;)*) => {
        /// The instruction set a backend is compiled for: a fixed bundle of
        /// features. Backends declare one ([`SliderAttacks::LEVEL`](crate::SliderAttacks::LEVEL));
        /// a token exists only where every feature of its level is present,
        /// and code compiled for a level may use all of them.
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        #[non_exhaustive]
        pub enum Level {
            /// What the target has without any extra feature: portable code.
            Baseline,
            $($(#[$doc])* $level,)*
        }

        impl Level {
            /// Every level, [`Level::Baseline`] first.
            pub const ALL: &'static [Level] = &[Level::Baseline, $(Level::$level),*];

            /// A short name (`x86-64-v3`, `neon`, ...).
            pub const fn name(self) -> &'static str {
                match self { Level::Baseline => "baseline", $(Level::$level => $name,)* }
            }

            /// The architecture the level belongs to (`None` for [`Level::Baseline`]).
            pub const fn arch(self) -> Option<&'static str> {
                match self { Level::Baseline => None, $(Level::$level => Some($arch),)* }
            }

            /// The features the level's code is compiled with, as
            /// `#[target_feature(enable = ...)]` takes them (`None` for
            /// [`Level::Baseline`]).
            pub const fn enabled(self) -> Option<&'static str> {
                match self { Level::Baseline => None, $(Level::$level => Some($enabled),)* }
            }

            /// The features of the level.
            pub const fn features(self) -> FeatureSet {
                match self {
                    Level::Baseline => FeatureSet::EMPTY,
                    $(Level::$level => const { FeatureSet::of_enabled($enabled) },)*
                }
            }
        }

        /// Compiles items for a [`Level`](crate::cpu::Level): each gets
        /// `#[cfg(target_arch)]` and `#[target_feature]` of the level, so it
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
                $d(#[cfg(target_arch = $arch)] #[target_feature(enable = $enabled)] $d item)*
            };)*
        }

        /// Each level's function that runs a closure compiled for it.
        #[allow(non_snake_case)]
        mod at {
            $(
                /// Runs `f` inlined into a function compiled for the level.
                #[cfg(target_arch = $arch)]
                #[target_feature(enable = $enabled)]
                pub(super) fn $level<R>(f: impl FnOnce() -> R) -> R {
                    f()
                }
            )*
        }

        /// Runs `f` compiled for exactly `level`.
        ///
        /// # Safety
        ///
        /// The CPU must have every feature of `level`.
        #[inline(always)]
        unsafe fn run_at<R>(level: Level, f: impl FnOnce() -> R) -> R {
            match level {
                $(
                    #[cfg(target_arch = $arch)]
                    // SAFETY: the caller guarantees the level's features
                    // (wasm32 calls such functions safely).
                    #[allow(unused_unsafe)]
                    Level::$level => unsafe { at::$level(f) },
                )*
                _ => f(),
            }
        }

        /// [`run_for`] for a level known at compile time: only the copy of
        /// `f` that can run is compiled (one, or x86-64-v3, v2 and the
        /// baseline for a job [`Level::for_jobs`] raises), where
        /// [`run_for`]'s match on a run-time level compiled `f` once per
        /// level of the target. Each `if const` is decided when the
        /// caller's code is generated, so the other branches are not.
        ///
        /// # Safety
        ///
        /// The CPU must have every feature of `L::LEVEL`.
        #[inline(always)]
        pub(crate) unsafe fn run_for_fixed<L: FixedLevel, R>(f: impl FnOnce() -> R) -> R {
            #[cfg(target_arch = "x86_64")]
            if const { L::LEVEL.is_raised_for_jobs() } {
                // SAFETY: the caller guarantees the level's features, and
                // `for_jobs` only raises a level to one this CPU has.
                return unsafe { run_raised(jobs_level(L::LEVEL), f) };
            }
            $(
                #[cfg(target_arch = $arch)]
                if const { matches!(L::LEVEL, Level::$level) } {
                    // SAFETY: the caller guarantees the level's features
                    // (wasm32 calls such functions safely).
                    #[allow(unused_unsafe)]
                    return unsafe { at::$level(f) };
                }
            )*
            f()
        }
    };
}

each_level!($ define_levels);
pub(crate) use each_level;

impl Level {
    /// Whether the build enables every feature of the level everywhere.
    pub const fn is_static(self) -> bool {
        self.features().is_static()
    }

    /// Whether the running CPU has every feature of the level.
    pub fn is_detected(self) -> bool {
        self.features().missing().is_empty()
    }

    /// The level jobs for a backend of level `backend` run at here
    /// ([`run_for`]): the backend's own, raised to the best of x86-64-v3
    /// and v2 the CPU has (POPCNT, BMI and AVX2 for the caller's code
    /// whatever the backend, but AVX-512 only with an AVX-512 backend).
    pub fn for_jobs(backend: Level) -> Level {
        if !backend.is_raised_for_jobs() {
            return backend;
        }
        [Level::X86V3, Level::X86V2]
            .into_iter()
            .find(|l| l.is_detected())
            .map_or(backend, |l| l.max(backend))
    }

    /// Whether the whole build is compiled for the level jobs of a backend
    /// of this level run at, wherever it runs ([`Level::for_jobs`]: x86-64-v3
    /// at least on x86-64): there a kernel compiled for that level inlines.
    pub const fn jobs_level_is_static(self) -> bool {
        self.is_static() && (!self.is_raised_for_jobs() || Level::X86V3.is_static())
    }

    /// Whether [`Level::for_jobs`] may raise a backend of this level: the
    /// x86-64 baseline and x86-64-v2.
    pub(crate) const fn is_raised_for_jobs(self) -> bool {
        cfg!(target_arch = "x86_64") && self as u8 <= Level::X86V2 as u8
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Runs `f` compiled for the level jobs of a backend of `level` run at
/// ([`Level::for_jobs`]): inside the `#[target_feature]` function of
/// that level, into which `f` is inlined (mark the closure
/// `#[inline(always)]`: LLVM does not inline a big closure on its own, and
/// then nothing in it is compiled for the level).
/// [`SliderAttacks::run_compiled`](crate::SliderAttacks::run_compiled) does
/// the same for its token's level, known at compile time, so that only the
/// copies of `f` that can run are compiled; here `f` is
/// compiled for every level of the target.
///
/// The one hand-written dispatch over levels, for two measured reasons
/// (the README's "Jobs" has the figures): `multiversion`'s dispatcher picks
/// the best level the CPU has, and a PEXT job compiled for AVX-512 ran
/// perft 5-7 % slower than at its own x86-64-v3; and where its direct
/// dispatcher cloned the bench's jobs of portable backends for v3, their
/// batches ran at 0.6x the same closure in the level's function here.
///
/// # Safety
///
/// The running CPU must have every feature of `level`.
#[inline(always)]
pub unsafe fn run_for<R>(level: Level, f: impl FnOnce() -> R) -> R {
    // SAFETY: the caller guarantees the level's features, and `for_jobs`
    // only raises a level to one this CPU has.
    unsafe {
        match level {
            #[cfg(target_arch = "x86_64")]
            level if level.is_raised_for_jobs() => run_raised(jobs_level(level), f),
            level => run_at(level, f),
        }
    }
}

/// A type whose [`Level`] is known at compile time (a backend's token), for
/// [`run_for_fixed`].
pub(crate) trait FixedLevel {
    /// The level.
    const LEVEL: Level;
}

/// Runs `f` at the level [`jobs_level`] raised a backend of x86-64-v2 or
/// below to: x86-64-v3, v2 or the baseline, never v4 (`for_jobs` does not
/// raise to it), so no copy of `f` is compiled for it.
///
/// # Safety
///
/// The CPU must have every feature of `level`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn run_raised<R>(level: Level, f: impl FnOnce() -> R) -> R {
    // SAFETY: the caller guarantees the level's features.
    unsafe {
        match level {
            Level::X86V3 => at::X86V3(f),
            Level::X86V2 => at::X86V2(f),
            _ => f(),
        }
    }
}

/// [`Level::for_jobs`], with the x86-64 detection made once.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn jobs_level(backend: Level) -> Level {
    if !backend.is_raised_for_jobs() {
        return backend;
    }
    use core::sync::atomic::{AtomicU8, Ordering::Relaxed};
    /// The best of x86-64-v3 and v2 this CPU has (`u8::MAX`: not yet known).
    static RAISED: AtomicU8 = AtomicU8::new(u8::MAX);
    let raised = match RAISED.load(Relaxed) {
        u8::MAX => {
            let level = Level::for_jobs(Level::Baseline);
            RAISED.store(level as u8, Relaxed);
            level
        }
        known => Level::ALL[known as usize],
    };
    raised.max(backend)
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
        match missing.is_empty() {
            true => Ok(()),
            false => Err(MissingFeatures {
                backend,
                level,
                missing,
            }),
        }
    }
}

impl fmt::Display for MissingFeatures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (backend, level) = (self.backend, self.level);
        // Another architecture's backend: its feature list says nothing here.
        if let Some(arch) = level.arch()
            && arch != TARGET_ARCH
        {
            return write!(
                f,
                "backend {backend} cannot run here: it is built for {level}, a level of {arch}, \
                 and this build is for {TARGET_ARCH} ({arch} backends are absent from it)"
            );
        }
        if level == Level::Simd128 || !cfg!(feature = "std") {
            // Nothing is detected at run time: the build's features decide.
            let why = if level == Level::Simd128 {
                "wasm has no run-time CPU detection"
            } else {
                "this build has no run-time CPU detection (hq-attacks without its `std` feature)"
            };
            return write!(
                f,
                "backend {backend} cannot run in this build: it is built for {level} ({}), and \
                 {why}, so only the features enabled at compile time count; not enabled: {}; \
                 build with RUSTFLAGS=\"-C target-cpu=native\" or \"-C target-feature=+{}\"",
                level.features(),
                self.missing,
                self.missing
                    .iter()
                    .map(Feature::name)
                    .next()
                    .unwrap_or("...")
            );
        }
        write!(
            f,
            "backend {backend} cannot run on this CPU: it is built for {level} ({}); missing \
             here: {}",
            level.features(),
            self.missing
        )
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

pub use crate::identity::{Identity, Vendor};

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    #[test]
    fn levels_nest_and_detection_is_consistent() {
        for pair in [Level::X86V2, Level::X86V3, Level::X86V4].windows(2) {
            let (lower, upper) = (pair[0].features(), pair[1].features());
            assert!(lower.iter().all(|f| upper.contains(f)));
            if pair[1].is_detected() {
                assert!(pair[0].is_detected(), "{:?} without {:?}", pair[1], pair[0]);
            }
        }
        assert!(Level::Baseline.is_detected() && Level::Baseline.features().is_empty());
        let jobs = Level::for_jobs(Level::Baseline);
        assert!(jobs.is_detected() && jobs <= Level::X86V3);
        assert_eq!(Level::for_jobs(Level::X86V4), Level::X86V4);
    }

    /// A level is one line of `each_level!`: its feature list names
    /// exactly its features, and code runs at it.
    #[test]
    fn each_level_is_one_line() {
        for &level in &Level::ALL[1..] {
            let enabled = level.enabled().expect("a level beyond baseline");
            let names: std::vec::Vec<&str> = enabled.split(',').collect();
            let listed: std::vec::Vec<&str> = level.features().iter().map(Feature::name).collect();
            assert_eq!(names.len(), listed.len(), "{level}: {enabled}");
            assert!(names.iter().all(|n| listed.contains(n)), "{level}");
            assert!(level.arch().is_some(), "{level}");
            if level.is_detected() {
                // SAFETY: just detected.
                assert_eq!(unsafe { run_for(level, || 41 + 1) }, 42);
                // What covers this level's SKIPPED line on other CPUs and
                // targets (`cargo xtask test`).
                std::println!("hq-core: RAN run_for at {level}");
            } else {
                std::println!(
                    "hq-core: SKIPPED run_for at {level}: {}",
                    level.features().missing()
                );
            }
        }
        let v4 = Level::X86V4.features();
        assert!(v4.contains(Feature::Avx512vbmi) && v4.contains(Feature::Gfni));
        assert_eq!(Level::Baseline.enabled(), None);
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
                text.contains("x86-64-v4") && text.contains("missing here: avx512vbmi, gfni"),
                "{text}"
            );
        } else {
            assert!(
                text.contains("a level of x86_64") && text.contains("x86_64 backends are absent"),
                "{text}"
            );
        }
    }
}
