//! The one error type of backend selection, and the lookups by name.

use crate::registry::{Backend, FORCED};
use core::fmt;
use hq_core::cpu::MissingFeatures;
#[cfg(feature = "std")]
use std::{borrow::ToOwned, boxed::Box, string::String, vec::Vec};

/// The environment variable that makes one backend serve every entry point
/// (read only with the `std` feature).
pub const BACKEND_VAR: &str = "HQ_BACKEND";

/// Why a backend (or a plan) cannot be used.
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
    /// was requested.
    NotForced {
        /// The backend asked for.
        requested: Backend,
    },
    /// The backend is not in the free functions' dispatch (a research
    /// backend, without the `all-backends` feature).
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

impl From<MissingFeatures> for BackendError {
    fn from(missing: MissingFeatures) -> BackendError {
        BackendError::Unsupported(missing)
    }
}

impl Backend {
    /// Whether this build's free functions can run the backend on this
    /// CPU: what `HQ_BACKEND` and `hq::set_backend` take.
    pub fn is_available(self) -> bool {
        self.is_dispatched() && self.is_supported()
    }

    /// `Ok(self)` if [`Backend::is_available`], else why not.
    pub fn check_available(self) -> Result<Backend, BackendError> {
        self.check_supported()?;
        match (FORCED, self.is_dispatched()) {
            (_, true) => Ok(self),
            (true, false) => Err(BackendError::NotForced { requested: self }),
            (false, false) => Err(BackendError::NotDispatched { requested: self }),
        }
    }

    /// The backend named `name` (case-insensitive), or an error that lists
    /// the names this build and CPU take.
    ///
    /// ```
    /// assert_eq!(hq_plan::Backend::from_name("PEXT"), Ok(hq_plan::Backend::Pext));
    /// let err = hq_plan::Backend::from_name("turbo").unwrap_err();
    /// assert!(err.to_string().starts_with("unknown backend \"turbo\""));
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
}

#[cfg(feature = "std")]
impl core::str::FromStr for Backend {
    type Err = BackendError;
    fn from_str(s: &str) -> Result<Backend, BackendError> {
        Backend::from_name(s)
    }
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let available = Names(Backend::is_available);
        match self {
            #[cfg(feature = "std")]
            BackendError::Environment {
                variable,
                value,
                cause,
            } => write!(
                f,
                "environment variable {variable}={value:?} is invalid: {cause}"
            ),
            #[cfg(feature = "std")]
            BackendError::Invalid(why) => f.write_str(why),
            #[cfg(feature = "std")]
            BackendError::BadPlan { item, why } => {
                write!(f, "cannot read the plan item {item:?}: {why}")
            }
            #[cfg(feature = "std")]
            BackendError::UnknownName(name) => write!(
                f,
                "unknown backend {name:?}; the names this build and CPU take: auto, {available}"
            ),
            BackendError::Unsupported(missing) => write!(
                f,
                "{missing}; the backends this build and CPU run: {available}"
            ),
            BackendError::NotForced { requested } => write!(
                f,
                "backend {requested} was requested, but this build forces [{}] with Cargo \
                 features and can only run those; unset {BACKEND_VAR} or rebuild with the \
                 `{}` feature of hq-attacks",
                Names(Backend::is_forced),
                requested.force_feature()
            ),
            BackendError::NotDispatched { requested } => write!(
                f,
                "backend {requested} is not in this build's dispatch, which links only the \
                 backends a CPU class chooses (here: {available}); enable the `all-backends` \
                 feature of hq-attacks, or run a job on it with hq::with_backend"
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
        match names.next() {
            Some(first) => f.write_str(first.name())?,
            None => f.write_str("none")?,
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
