//! The [`Backend`] enum's lookups by name, the environment override, and
//! the one error type of backend selection.

use crate::Backend;
use core::fmt;
use hq_core::cpu::MissingFeatures;
#[cfg(feature = "std")]
use std::{borrow::ToOwned, boxed::Box, string::String, vec::Vec};

/// The environment variable that overrides the run-time choice (read only
/// with the `std` feature).
pub const ENV_VAR: &str = "HQ_BACKEND";

impl Backend {
    /// Every backend compiled in, in the general order of preference.
    pub fn all() -> &'static [Backend] {
        Backend::ALL
    }

    /// Its index into [`Backend::all`] (the dispatch stores backends so).
    pub(crate) const fn index(self) -> usize {
        let mut i = 0;
        while i < Backend::ALL.len() {
            if Backend::ALL[i] as u8 == self as u8 {
                return i;
            }
            i += 1;
        }
        panic!("every backend is in Backend::ALL")
    }

    /// The backends this CPU runs, in the general order of preference.
    pub fn supported() -> impl Iterator<Item = Backend> {
        Backend::ALL.iter().copied().filter(|b| b.is_supported())
    }

    /// The backend named `name` (case-insensitive), or an error that lists the valid names.
    ///
    /// ```
    /// let err = hq::Backend::from_name("turbo").unwrap_err();
    /// assert!(err.to_string().contains("scalar-reverse"));
    /// ```
    #[cfg(feature = "std")]
    pub fn from_name(name: &str) -> Result<Backend, BackendError> {
        let wanted = name.trim();
        Backend::ALL
            .iter()
            .copied()
            .find(|b| b.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| BackendError::UnknownName(name.to_owned()))
    }

    /// The backend named by `HQ_BACKEND`: `Ok(None)` when it is unset, empty
    /// or `auto`; an error when it names no backend or one this CPU cannot run.
    #[cfg(feature = "std")]
    pub fn from_env() -> Result<Option<Backend>, BackendError> {
        match std::env::var(ENV_VAR) {
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(raw)) => {
                let value = raw.to_string_lossy().into_owned();
                Err(BackendError::Environment {
                    variable: ENV_VAR,
                    cause: Box::new(BackendError::UnknownName(value.clone())),
                    value,
                })
            }
            Ok(name) if name.trim().is_empty() || name.trim().eq_ignore_ascii_case("auto") => {
                Ok(None)
            }
            Ok(name) => Backend::from_name(&name)
                .and_then(Backend::check_supported)
                .and_then(Backend::check_dispatched)
                .map(Some)
                .map_err(|e| BackendError::Environment {
                    variable: ENV_VAR,
                    value: name,
                    cause: Box::new(e),
                }),
        }
    }

    /// `Ok(self)` if the free functions can dispatch to the backend
    /// ([`Backend::is_dispatched`]), else the error that says how to get it.
    pub fn check_dispatched(self) -> Result<Backend, BackendError> {
        if self.is_dispatched() {
            Ok(self)
        } else {
            Err(BackendError::NotDispatched { requested: self })
        }
    }

    /// The backends whose `force-*` feature this build enables.
    pub fn forced() -> impl Iterator<Item = Backend> {
        Backend::ALL.iter().copied().filter(|b| b.is_forced())
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(feature = "std")]
impl core::str::FromStr for Backend {
    type Err = BackendError;
    fn from_str(s: &str) -> Result<Backend, BackendError> {
        Backend::from_name(s)
    }
}

/// Why a backend cannot be used.
///
/// `Debug` prints the same sentence as `Display`, so that `fn main() ->
/// Result<(), Box<dyn Error>>` with `hq::init()?` reports it readably.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BackendError {
    /// `HQ_BACKEND`, `HQ_CHOICE` or `HQ_CALIBRATE` holds a value that
    /// cannot be used.
    #[cfg(feature = "std")]
    Environment {
        /// The variable's name.
        variable: &'static str,
        /// The variable's value.
        value: String,
        /// What is wrong with it.
        cause: Box<BackendError>,
    },
    /// No backend has this name.
    #[cfg(feature = "std")]
    UnknownName(String),
    /// A setting's value is not one it takes (the sentence says which).
    #[cfg(feature = "std")]
    Invalid(String),
    /// A [`crate::Plan`]'s text form has an item that cannot be read.
    #[cfg(feature = "std")]
    BadPlan {
        /// The item (or the whole text, if something is missing).
        item: String,
        /// What is wrong with it.
        why: String,
    },
    /// The CPU lacks features the backend needs (or the backend is for
    /// another architecture).
    Unsupported(MissingFeatures),
    /// This build forces backends with `force-*` features, and another one
    /// was requested (by `HQ_BACKEND` or [`crate::set_backend`]).
    NotForced {
        /// The backend asked for.
        requested: Backend,
    },
    /// The backend is not in the free functions' run-time dispatch (a
    /// research backend, without the `all-backends` feature).
    NotDispatched {
        /// The backend asked for.
        requested: Backend,
    },
    /// This build forces backends, and the CPU runs none of them.
    #[cfg(feature = "std")]
    NoForcedBackendRuns {
        /// Why each forced backend cannot run.
        missing: Vec<MissingFeatures>,
    },
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |filter: fn(Backend) -> bool| Names(filter);
        match self {
            #[cfg(feature = "std")]
            BackendError::Environment {
                variable,
                value,
                cause,
            } => {
                write!(
                    f,
                    "environment variable {variable}={value:?} is invalid: {cause}"
                )
            }
            #[cfg(feature = "std")]
            BackendError::Invalid(why) => f.write_str(why),
            #[cfg(feature = "std")]
            BackendError::BadPlan { item, why } => {
                write!(f, "cannot read the plan item {item:?}: {why}")
            }
            #[cfg(feature = "std")]
            BackendError::UnknownName(name) => write!(
                f,
                "unknown backend {name:?}; valid names are: auto, {}",
                list(|_| true)
            ),
            BackendError::Unsupported(missing) => write!(
                f,
                "{missing}; backends this CPU runs: {}",
                list(Backend::is_supported)
            ),
            BackendError::NotForced { requested } => write!(
                f,
                "backend {requested} was requested, but this build forces [{}] with Cargo \
                 features and can only run those; unset {ENV_VAR} or rebuild with \
                 the `{}` feature of hq-attacks",
                list(Backend::is_forced),
                requested.force_feature()
            ),
            BackendError::NotDispatched { requested } => write!(
                f,
                "backend {requested} is not in this build's run-time dispatch, which links \
                 only the backends a CPU class chooses (dispatched here: {}); enable the \
                 `all-backends` feature of hq-attacks, or run a job on it with hq::with_backend",
                list(Backend::is_dispatched)
            ),
            #[cfg(feature = "std")]
            BackendError::NoForcedBackendRuns { missing } => {
                write!(
                    f,
                    "none of the backends this build forces can run on this CPU: "
                )?;
                for (i, m) in missing.iter().enumerate() {
                    write!(f, "{}{m}", if i > 0 { "; " } else { "" })?;
                }
                Ok(())
            }
        }
    }
}

/// The names of the backends `filter` accepts, comma-separated (written
/// straight to the formatter: no allocation, for `no_std` builds).
struct Names(fn(Backend) -> bool);

impl fmt::Display for Names {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names = Backend::ALL.iter().copied().filter(|&b| (self.0)(b));
        if let Some(first) = names.next() {
            f.write_str(first.name())?;
        }
        names.try_for_each(|b| write!(f, ", {b}"))
    }
}

impl fmt::Debug for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl core::error::Error for BackendError {}
