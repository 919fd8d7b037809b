//! The choice of a build without `std`: made at compile time from the
//! build's target features, as multiversion's static dispatcher does (a
//! `no_std` build has no run-time CPU detection).
//!
//! The class is the first of [`CLASSES`] that names no vendor, whose level
//! the build enables (`-C target-cpu=...` or `-C target-feature=...`), and
//! that does not rule out a fast PEXT: a build that enables BMI2 statically
//! is taken to target a CPU whose PEXT is fast (for AMD before Zen 3, force
//! another backend). With `force-*` features, each entry point takes the
//! class's backend if it is forced, else the first forced backend whose
//! level the build enables; if there is none the build fails with the
//! reason, so a `no_std` build never executes an instruction its target
//! lacks. Set-wise calls go to the set-wise backend whatever the slider
//! count (the run-time choice's loop over single lookups for one or two
//! sliders needs the installed tables of the `std` build).

use crate::choice::{CLASSES, Choice, ClassChoice};
use crate::registry::FORCED;
use crate::{Backend, Group, WithBackend};

/// The class the build's target features select.
pub(crate) const CLASS: &ClassChoice = {
    let mut i = 0;
    loop {
        // The last class (baseline) matches every build.
        let class = &CLASSES[i];
        let fast_pext_allowed = !matches!(class.fast_pext, Some(false));
        if class.vendors.is_empty() && fast_pext_allowed && class.level.is_static() {
            break class;
        }
        i += 1;
    }
};

/// Whether `backend` may serve this build: forced (if any is) and enabled
/// at compile time.
const fn runs(backend: Backend) -> bool {
    (!FORCED || backend.is_forced()) && backend.level().is_static()
}

/// `wanted` if it may serve, else the first forced backend that may.
const fn pick(wanted: Backend) -> Backend {
    if runs(wanted) {
        return wanted;
    }
    let mut i = 0;
    while i < Backend::ALL.len() {
        if runs(Backend::ALL[i]) {
            return Backend::ALL[i];
        }
        i += 1;
    }
    panic!(
        "hq-attacks without `std`: none of the forced backends' instruction sets is enabled \
         at compile time, and a build without `std` cannot detect them at run time; enable \
         them (RUSTFLAGS=\"-C target-cpu=...\" or \"-C target-feature=...\") or drop the \
         force-* features"
    )
}

/// The backend of each entry point in a build without `std`.
pub(crate) const CHOICE: Choice = {
    let class = CLASS.choice;
    let choice = Choice {
        single: pick(class.single),
        batch: pick(class.batch),
        setwise: pick(class.setwise),
        setwise_loop: 0,
    };
    assert!(runs(choice.single) && runs(choice.batch) && runs(choice.setwise));
    choice
};

/// The backend of each piece of [`crate::latency`] without `std`: the
/// class's where it may serve, else the single lookups'.
pub(crate) const LATENCY: crate::Latency = {
    const fn or_single(b: Backend) -> Backend {
        if runs(b) { b } else { CHOICE.single }
    }
    let l = CLASS.latency;
    crate::Latency {
        rook: or_single(l.rook),
        bishop: or_single(l.bishop),
        queen: or_single(l.queen),
    }
};

/// The plan of a build without `std` ([`CHOICE`] and [`LATENCY`]).
pub(crate) const PLAN: crate::Plan = crate::Plan::of_class(CHOICE, LATENCY);

/// Runs `job` on the compile-time choice of `group`.
#[inline(always)]
pub(crate) fn run<W: WithBackend>(group: Group, job: W) -> W::Output {
    let backend = match group {
        Group::Single => CHOICE.single,
        Group::Batch => CHOICE.batch,
        Group::Setwise => CHOICE.setwise,
    };
    // SAFETY: every backend of CHOICE has its level enabled at compile time
    // (asserted above), so the program only runs on CPUs that have it.
    unsafe { crate::registry::run_forced(backend, job) }
}
