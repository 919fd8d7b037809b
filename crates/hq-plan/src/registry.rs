//! The one list of backends ([`backend_list!`]), and what is made from it
//! alone: the [`Backend`] enum and its facts, and running a job on any
//! backend. The route's match over the backends this build dispatches is
//! made from the same list (the facade's `dispatch`).
//!
//! Adding a backend is its crate as a dependency, one line in the list, its
//! `force-<name>` Cargo feature (`tests/facade.rs` checks it exists) and,
//! where a class should choose it, that class's row in
//! `crate::classes::CLASSES`; `CONTRIBUTING.md` has the recipe. How a
//! backend's kernels reach a caller of another level is the token's own
//! business (`SliderAttacks::batch_in_any_caller` and the like), not a path
//! of its own. The order is the general order of preference: where two
//! forced backends could serve a cell and the class's choice is neither,
//! the first wins.

use hq_core::SliderAttacks;
use hq_core::cpu::{Level, MissingFeatures};

/// The list: one line per backend (variant, token type, force feature, and
/// `keyed` where its single lookups take a per-square word, `SliderAttacks::single_key`),
/// handed to `$callback` (the facade makes its dispatch from it; its
/// token paths resolve where it is invoked, so that crate depends on every
/// backend crate).
#[doc(hidden)]
#[macro_export]
macro_rules! backend_list {
    ($callback:ident) => {
        $callback! {
            /// PEXT tables (`hq_pext::Pext`).
            Pext = hq_pext::Pext, "force-pext", keyed;
            /// Compact PEXT tables, unpacked by PDEP (`hq_pext::PextPdep`).
            PextPdep = hq_pext::PextPdep, "force-pext-pdep", keyed;
            /// AVX-512 + GFNI HQ (`hq_simd::Avx512`).
            Avx512 = hq_simd::Avx512, "force-avx512", keyed;
            /// AVX2 HQ (`hq_simd::Avx2`).
            Avx2 = hq_simd::Avx2, "force-avx2", keyed;
            /// AVX-512 + GFNI HQ beside PEXT lookups (`hq_hybrid::HybridAvx512Pext`).
            HybridAvx512Pext = hq_hybrid::HybridAvx512Pext, "force-hybrid-avx512-pext";
            /// AVX2 HQ beside PEXT lookups (`hq_hybrid::HybridAvx2Pext`).
            HybridAvx2Pext = hq_hybrid::HybridAvx2Pext, "force-hybrid-avx2-pext";
            /// SSSE3 HQ (`hq_simd::Ssse3`).
            Ssse3 = hq_simd::Ssse3, "force-ssse3", keyed;
            /// NEON HQ (`hq_simd::Neon`).
            Neon = hq_simd::Neon, "force-neon";
            /// WebAssembly SIMD HQ (`hq_simd::Simd128`).
            Simd128 = hq_simd::Simd128, "force-simd128";
            /// Fancy magic bitboards, portable (`hq_magic::Magic`).
            Magic = hq_magic::Magic, "force-magic";
            /// Byte-swap HQ, first-rank table (`hq_scalar::ScalarRankTable`).
            ScalarRankTable = hq_scalar::ScalarRankTable, "force-scalar-rank-table";
            /// Byte-swap HQ, rank on the diagonal (`hq_scalar::ScalarRankDiagonal`).
            ScalarRankDiagonal = hq_scalar::ScalarRankDiagonal, "force-scalar-rank-diagonal";
            /// Bit-reversal HQ (`hq_scalar::ScalarReverse`).
            ScalarReverse = hq_scalar::ScalarReverse, "force-scalar-reverse";
            /// Ryan Mack's reverse bitboards (`hq_reverse::ReverseBitboards`).
            ReverseBitboards = hq_reverse::ReverseBitboards, "force-reverse-bitboards";
            /// Hyatt's rays and bit scans (`hq_classic::Classic`).
            Classic = hq_classic::Classic, "force-classic";
            /// HQ written with XOP `VPPERM`, emulated by SSSE3 (`hq_xop::XopSsse3`).
            XopSsse3 = hq_xop::XopSsse3, "force-xop-ssse3";
            /// HQ written with XOP `VPPERM`, on the exact software model (`hq_xop::XopModel`).
            XopModel = hq_xop::XopModel, "force-xop-model";
        }
    };
}

/// A job generic over the backend token, so that it can be monomorphized
/// for whichever backend is chosen at run time (as `pulp`'s `WithSimd`).
///
/// `hq::with_backend` and `hq::with_active_backend` run the job
/// inside a function compiled for the backend's instruction set; mark `run`
/// `#[inline(always)]` so that it, and the kernels it calls, are compiled
/// there too (`hq::job!` does).
///
/// (`hq::with_active_backend`'s docs have an example.)
pub trait WithBackend {
    /// What the job returns.
    type Output;
    /// Runs the job with a token of the chosen backend.
    fn run<B: SliderAttacks>(self, backend: B) -> Self::Output;
}

/// The [`Backend`] enum and its facts, from [`backend_list!`].
macro_rules! define_backends {
    ($($(#[$doc:meta])* $variant:ident = $token:ty, $feature:literal $(, $keyed:ident)?;)*) => {
        /// A backend compiled into this build.
        ///
        /// Every variant exists on every target; [`Backend::is_supported`]
        /// says whether this CPU runs it (an x86-64 backend never runs on
        /// AArch64 or wasm32).
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        #[non_exhaustive]
        pub enum Backend {
            $($(#[$doc])* $variant,)*
        }

        impl Backend {
            #[doc(hidden)]
            pub const ALL: &'static [Backend] = &[$(Backend::$variant),*];

            /// The stable name (`HQ_BACKEND=<name>`, feature `force-<name>`).
            pub const fn name(self) -> &'static str {
                match self { $(Backend::$variant => <$token as SliderAttacks>::NAME),* }
            }

            /// The instruction set the backend is compiled for.
            pub const fn level(self) -> Level {
                match self { $(Backend::$variant => <$token as SliderAttacks>::LEVEL),* }
            }

            /// Bytes of the backend's lookup tables ([`SliderAttacks::TABLE_BYTES`]).
            pub const fn table_bytes(self) -> usize {
                match self { $(Backend::$variant => <$token as SliderAttacks>::TABLE_BYTES),* }
            }

            /// The backend's entry points compiled for its level, where
            /// the free functions can dispatch to it
            /// ([`Backend::is_dispatched`]) and this CPU runs it. The
            /// check is a constant per arm, so a program links the entry
            /// points (and the tables) of the dispatched backends only.
            #[cfg(feature = "std")]
            #[doc(hidden)]
            pub fn entries(self) -> Option<hq_core::entries::Entries> {
                match self {
                    $(Backend::$variant => {
                        if !const { Backend::$variant.is_dispatched() } {
                            return None;
                        }
                        <$token as SliderAttacks>::require().ok().map(hq_core::entries::Entries::of)
                    })*
                }
            }

            /// Whether this CPU runs the backend.
            pub fn is_supported(self) -> bool {
                self.check_supported().is_ok()
            }

            /// `Ok(self)` if this CPU runs the backend, else what it lacks.
            pub fn check_supported(self) -> Result<Backend, MissingFeatures> {
                match self {
                    $(Backend::$variant => <$token as SliderAttacks>::require().map(|_| self),)*
                }
            }

            /// The Cargo feature that forces the backend.
            pub const fn force_feature(self) -> &'static str {
                match self { $(Backend::$variant => $feature),* }
            }

            /// Whether this build enables the backend's `force-*` feature.
            pub const fn is_forced(self) -> bool {
                match self { $(Backend::$variant => cfg!(feature = $feature)),* }
            }
        }

        /// Runs `job` with `backend`'s token, compiled for its level, or
        /// what this CPU lacks: `hq::with_backend`, every backend.
        #[doc(hidden)]
        pub fn run_with<W: WithBackend>(backend: Backend, job: W) -> Result<W::Output, MissingFeatures> {
            match backend {
                $(Backend::$variant => {
                    let token = <$token as SliderAttacks>::require()?;
                    Ok(token.run_compiled(#[inline(always)] |token| job.run(token)))
                })*
            }
        }

    };
}

backend_list!(define_backends);

/// Whether this build forces backends.
#[doc(hidden)]
pub const FORCED: bool = {
    let mut i = 0;
    while i < Backend::ALL.len() && !Backend::ALL[i].is_forced() {
        i += 1;
    }
    i < Backend::ALL.len()
};

impl Backend {
    /// Every backend compiled in, in the general order of preference.
    pub fn all() -> &'static [Backend] {
        Backend::ALL
    }

    /// The backends this CPU runs, in the general order of preference.
    pub fn supported() -> impl Iterator<Item = Backend> {
        Backend::ALL.iter().copied().filter(|b| b.is_supported())
    }
}

impl core::fmt::Display for Backend {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
