//! The one list of backends, and everything that must name each backend's
//! type: the [`Backend`] enum, running a job with a backend's token, the
//! run-time dispatch tables, and the forced-backend dispatch.
//!
//! Adding a backend is one line in the list below (plus its crate as a
//! dependency and its `force-<name>` Cargo feature, which
//! `tests/facade.rs::every_backend_has_its_force_feature` checks).
//!
//! The order is the general order of preference: where two forced backends
//! could serve an entry point and the CPU class's measured choice is neither,
//! the first wins (see [`crate::choice`]).

#[cfg(feature = "std")]
use crate::dispatch::{Batches, Setwise, Singles};
use crate::{BackendError, WithBackend};
use hq_core::SliderAttacks;
use hq_core::cpu::{Level, MissingFeatures};

macro_rules! backends {
    ($($(#[$doc:meta])* $variant:ident = $token:ty, $feature:literal;)*) => {
        /// A backend compiled into this build.
        ///
        /// Every variant exists on every target; [`Backend::is_supported`]
        /// says whether this CPU runs it (an x86-64 backend never runs on
        /// AArch64 or wasm32, and naming it there gives the same error as
        /// naming one the CPU lacks).
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        #[non_exhaustive]
        pub enum Backend {
            $($(#[$doc])* $variant,)*
        }

        impl Backend {
            pub(crate) const ALL: &'static [Backend] = &[$(Backend::$variant),*];

            /// The stable name (`HQ_BACKEND=<name>`, feature `force-<name>`).
            pub const fn name(self) -> &'static str {
                match self { $(Backend::$variant => <$token as SliderAttacks>::NAME),* }
            }

            /// The instruction set the backend is compiled for.
            pub const fn level(self) -> Level {
                match self { $(Backend::$variant => <$token as SliderAttacks>::LEVEL),* }
            }

            /// Whether this CPU runs the backend.
            pub fn is_supported(self) -> bool {
                match self { $(Backend::$variant => <$token as SliderAttacks>::is_supported()),* }
            }

            /// The Cargo feature that forces the backend.
            pub const fn force_feature(self) -> &'static str {
                match self { $(Backend::$variant => $feature),* }
            }

            /// Whether this build enables the backend's `force-*` feature.
            pub const fn is_forced(self) -> bool {
                match self { $(Backend::$variant => cfg!(feature = $feature)),* }
            }

            /// Whether the free functions can dispatch to the backend
            /// (`HQ_BACKEND`, [`crate::set_backend`]): the backends some CPU
            /// class of this build's target chooses, the forced ones, or
            /// every backend with the `all-backends` feature. The others
            /// (research backends) stay out of programs that only call the
            /// free functions; [`crate::with_backend`] runs any backend.
            pub const fn is_dispatched(self) -> bool {
                self.is_forced()
                    || cfg!(feature = "all-backends")
                    || crate::choice::chosen_on_this_target(self)
            }

            /// `Ok(self)` if this CPU runs the backend, else what it lacks.
            pub fn check_supported(self) -> Result<Backend, BackendError> {
                match self {
                    $(Backend::$variant => <$token as SliderAttacks>::require()
                        .map(|_| self)
                        .map_err(BackendError::Unsupported),)*
                }
            }
        }

        /// Runs `job` with the token of `backend`, compiled for its
        /// instruction set ([`SliderAttacks::run_compiled`]): what
        /// [`crate::with_backend`] monomorphizes, every backend.
        pub(crate) fn run_with<W: WithBackend>(backend: Backend, job: W) -> Result<W::Output, MissingFeatures> {
            match backend {
                $(Backend::$variant => {
                    let token = <$token as SliderAttacks>::require()?;
                    Ok(token.run_compiled(#[inline(always)] |token| job.run(token)))
                })*
            }
        }

        /// Runs `job` with the token of a forced `backend`, not compiled
        /// anew: what the free functions of a forced build inline (and of a
        /// build without `std`, where `backend` is a constant).
        ///
        /// # Safety
        ///
        /// `backend` must be supported by this CPU.
        #[inline(always)]
        #[allow(unreachable_code, unused_variables)] // a build with no force-* feature has no arm
        pub(crate) unsafe fn run_forced<W: WithBackend>(backend: Backend, job: W) -> W::Output {
            match backend {
                $(
                    #[cfg(any(feature = $feature, not(feature = "std")))]
                    // SAFETY: the caller guarantees the CPU supports the backend.
                    Backend::$variant => job.run(unsafe { <$token as SliderAttacks>::new_unchecked() }),
                )*
                #[allow(unreachable_patterns)]
                _ => unreachable!("hq: backend {backend} is not forced in this build"),
            }
        }

        /// Runs `job` with [`crate::dispatch::run_with_active`] over a forced
        /// single backend of `choice`; gives the job back if `choice.single`
        /// is not forced.
        #[cfg(feature = "std")]
        #[allow(unreachable_code, unused_variables)] // a build with no force-* feature has no arm
        pub(crate) fn run_forced_active<W: WithBackend>(plan: crate::Plan, job: W) -> Result<W::Output, W> {
            match plan.single.queen {
                $(
                    #[cfg(feature = $feature)]
                    Backend::$variant => Ok(crate::active::run_with_active::<$token, W>(plan, job)),
                )*
                #[allow(unreachable_patterns)]
                _ => Err(job),
            }
        }

        /// Runs `job` with [`crate::active::run_with_active`] over the single
        /// backend of the compile-time choice ([`crate::fixed::CHOICE`]): one
        /// instantiation, the others are `if const { false }`.
        #[cfg(not(feature = "std"))]
        pub(crate) fn run_fixed_active<W: WithBackend>(job: W) -> W::Output {
            use crate::fixed::CHOICE;
            $(
                if const { CHOICE.single as u8 == Backend::$variant as u8 } {
                    return crate::active::run_with_active::<$token, W>(crate::fixed::PLAN, job);
                }
            )*
            unreachable!()
        }

        /// The run-time dispatch tables of `backend`, if it is one the
        /// free functions dispatch to ([`Backend::is_dispatched`]): only
        /// those are linked into a program that calls the free functions.
        #[cfg(feature = "std")]
        pub(crate) fn tables(backend: Backend) -> Option<(&'static Singles, &'static Batches, &'static Setwise)> {
            match backend {
                $(Backend::$variant => if const { Backend::$variant.is_dispatched() } {
                    Some((
                        const { &Singles::of::<$token>() },
                        const { &Batches::of::<$token>() },
                        const { &Setwise::of::<$token>() },
                    ))
                } else {
                    None
                },)*
            }
        }
    };
}

/// Whether this build forces backends.
pub(crate) const FORCED: bool = {
    let mut i = 0;
    let mut any = false;
    while i < Backend::ALL.len() {
        any |= Backend::ALL[i].is_forced();
        i += 1;
    }
    any
};

backends! {
    /// PEXT tables (`hq_pext::Pext`).
    Pext = hq_pext::Pext, "force-pext";
    /// AVX-512 + GFNI HQ (`hq_simd::Avx512`).
    Avx512 = hq_simd::Avx512, "force-avx512";
    /// AVX2 HQ (`hq_simd::Avx2`).
    Avx2 = hq_simd::Avx2, "force-avx2";
    /// SSSE3 HQ (`hq_simd::Ssse3`).
    Ssse3 = hq_simd::Ssse3, "force-ssse3";
    /// NEON HQ (`hq_simd::Neon`).
    Neon = hq_simd::Neon, "force-neon";
    /// WebAssembly SIMD HQ (`hq_simd::Simd128`).
    Simd128 = hq_simd::Simd128, "force-simd128";
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
