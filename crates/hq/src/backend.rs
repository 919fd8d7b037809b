//! The [`Backend`] enum: every backend compiled into this build, by name.

use crate::registry::for_each_backend;
use hq_core::SliderAttacks;
use std::fmt;

macro_rules! define_backend_enum {
    ($(($variant:ident, $token:path, $feature:literal)),* $(,)?) => {
        /// A backend compiled into this build.
        ///
        /// Every variant exists on every CPU; [`Backend::is_supported`] says
        /// whether this one can run it.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        #[non_exhaustive]
        pub enum Backend {
            $(
                #[doc = concat!("`", stringify!($token), "`, forced by the `", $feature, "` feature.")]
                $variant,
            )*
        }

        impl Backend {
            const ALL: &'static [Backend] = &[$(Backend::$variant),*];

            /// The stable name (`HQ_BACKEND=<name>`, `force-<name>`).
            pub const fn name(self) -> &'static str {
                match self { $(Backend::$variant => <$token as SliderAttacks>::NAME),* }
            }

            /// The CPU features the backend needs.
            pub const fn required_features(self) -> &'static [&'static str] {
                match self { $(Backend::$variant => <$token as SliderAttacks>::REQUIRED_FEATURES),* }
            }

            /// Whether this CPU can run the backend (checked at run time).
            pub fn is_supported(self) -> bool {
                match self { $(Backend::$variant => <$token as SliderAttacks>::is_supported()),* }
            }
        }

        /// Runs `job` with the token of `backend`, without checking support.
        ///
        /// # Safety
        ///
        /// `backend.is_supported()` must be true.
        pub(crate) unsafe fn run_unchecked<W: crate::WithBackend>(backend: Backend, job: W) -> W::Output {
            match backend {
                $(Backend::$variant => {
                    // SAFETY: the caller guarantees the CPU supports this backend.
                    job.run(unsafe { <$token as SliderAttacks>::new_unchecked() })
                })*
            }
        }
    };
}
for_each_backend!(define_backend_enum);

impl Backend {
    /// Every backend compiled in, in the order of preference (fastest first,
    /// as measured on the reference machine; see the README).
    pub fn all() -> &'static [Backend] {
        Backend::ALL
    }

    /// The backends this CPU supports, in the order of preference.
    pub fn supported() -> impl Iterator<Item = Backend> {
        Backend::ALL.iter().copied().filter(|b| b.is_supported())
    }

    /// The best backend this CPU supports (run-time detection; ignores `HQ_BACKEND`).
    pub fn detected() -> Backend {
        Backend::supported()
            .next()
            .expect("the portable scalar backends are always supported")
    }

    /// The backend the free functions of this crate use (see [`crate::active_backend`]).
    pub fn active() -> Backend {
        crate::active_backend()
    }

    /// The backend named `name`, or an error that lists the valid names.
    ///
    /// ```
    /// let err = hq::Backend::from_name("turbo").unwrap_err();
    /// assert!(err.to_string().contains("scalar-reverse"));
    /// ```
    pub fn from_name(name: &str) -> Result<Backend, BackendError> {
        let wanted = name.trim();
        Backend::ALL
            .iter()
            .copied()
            .find(|b| b.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| BackendError::UnknownName(name.to_owned()))
    }

    /// The required features this CPU lacks (empty when supported).
    pub fn missing_features(self) -> Vec<&'static str> {
        self.required_features()
            .iter()
            .copied()
            .filter(|f| !cpu_has_feature(f))
            .collect()
    }

    /// `Ok(self)` if supported, else an error naming the missing CPU features.
    pub fn check_supported(self) -> Result<Backend, BackendError> {
        if self.is_supported() {
            Ok(self)
        } else {
            Err(BackendError::Unsupported {
                backend: self,
                missing: self.missing_features(),
            })
        }
    }

    /// The backend named by the `HQ_BACKEND` environment variable: `Ok(None)`
    /// when it is unset, empty or `auto`; an error when it names no backend
    /// or one this CPU cannot run.
    pub fn from_env() -> Result<Option<Backend>, BackendError> {
        match std::env::var(ENV_VAR) {
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(raw)) => Err(BackendError::UnknownName(
                raw.to_string_lossy().into_owned(),
            )),
            Ok(name) if name.trim().is_empty() || name.trim().eq_ignore_ascii_case("auto") => {
                Ok(None)
            }
            Ok(name) => Backend::from_name(&name)?.check_supported().map(Some),
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Backend {
    type Err = BackendError;
    fn from_str(s: &str) -> Result<Backend, BackendError> {
        Backend::from_name(s)
    }
}

/// The environment variable that overrides run-time selection.
pub const ENV_VAR: &str = "HQ_BACKEND";

/// Why a backend cannot be used.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BackendError {
    /// No backend has this name.
    UnknownName(String),
    /// The CPU lacks features the backend needs.
    Unsupported {
        /// The backend asked for.
        backend: Backend,
        /// The features this CPU lacks.
        missing: Vec<&'static str>,
    },
    /// The build fixed one backend and another was requested.
    Conflict {
        /// The backend fixed at compile time.
        fixed: Backend,
        /// The backend asked for (by `HQ_BACKEND` or [`crate::set_backend`]).
        requested: Backend,
    },
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BackendError::UnknownName(name) => {
                let names: Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
                write!(
                    f,
                    "unknown backend {name:?}; valid names are: auto, {}",
                    names.join(", ")
                )
            }
            BackendError::Unsupported { backend, missing } => write!(
                f,
                "backend {backend} cannot run on this CPU: it needs the CPU feature(s) {} \
                 (missing: {}); supported here: {}",
                backend.required_features().join(", "),
                missing.join(", "),
                Backend::supported()
                    .map(|b| b.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            BackendError::Conflict { fixed, requested } => write!(
                f,
                "backend {requested} was requested, but this build fixed backend {fixed} at compile \
                 time (a force-* feature or static target features); unset {ENV_VAR} or rebuild"
            ),
        }
    }
}

impl std::error::Error for BackendError {}

/// Run-time detection of one feature, by the name `is_x86_feature_detected!` uses.
pub fn cpu_has_feature(name: &str) -> bool {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        macro_rules! detect {
            ($($f:tt),*) => {
                match name {
                    $($f => std::arch::is_x86_feature_detected!($f),)*
                    _ => false,
                }
            };
        }
        detect!(
            "sse2",
            "ssse3",
            "sse4.1",
            "sse4.2",
            "popcnt",
            "avx",
            "avx2",
            "bmi1",
            "bmi2",
            "lzcnt",
            "avx512f",
            "avx512bw",
            "avx512vl",
            "avx512vbmi",
            "avx512vbmi2",
            "gfni"
        )
    }
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
    {
        let _ = name;
        false
    }
}
