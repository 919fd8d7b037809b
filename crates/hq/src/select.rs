//! The choice: the class's plan, then the build's forced backends, then the
//! environment (`HQ_BACKEND`, `HQ_CALIBRATE`, `HQ_CHOICE`), then the cells
//! the build fixes at compile time ([`hq_plan::classes::fixed`]).

use core::fmt;
use hq_core::cpu::Identity;
use hq_plan::Backend;
#[cfg(feature = "std")]
use hq_plan::BackendError;
use hq_plan::classes::{ClassChoice, fixed};
use hq_plan::{Entry, Plan, Slider};

/// How this build chooses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum Mode {
    /// At the first call, from the CPU (or the environment, or
    /// [`crate::set_backend`]).
    RunTime,
    /// Among the backends of the enabled `force-*` features.
    Forced,
    /// At compile time, from the build's target features: without `std`,
    /// and on wasm32 (which has no run-time detection).
    Compiled,
}

/// Why the plan is what it is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum Source {
    /// The CPU class's plan.
    Class,
    /// `HQ_BACKEND` named the backend.
    Environment,
    /// [`crate::set_backend`] or [`crate::set_plan`] installed it.
    SetBackend,
    /// A calibration measured it on this CPU ([`crate::calibrate()`], or
    /// `HQ_CALIBRATE=1` at first use).
    Calibration,
    /// `HQ_CHOICE` gave it (over the class's, `HQ_BACKEND`'s or the
    /// calibrated plan).
    PlanVariable,
}

/// A set of backends (a bit per [`Backend`]).
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub(crate) struct Backends(u32);

impl Backends {
    /// The backends this build forces.
    #[cfg(feature = "std")]
    pub(crate) const FORCED: Backends = {
        let (mut bits, mut i) = (0, 0);
        while i < Backend::ALL.len() {
            if Backend::ALL[i].is_forced() {
                bits |= 1 << Backend::ALL[i] as u32;
            }
            i += 1;
        }
        Backends(bits)
    };

    pub(crate) fn contains(self, b: Backend) -> bool {
        self.0 & (1 << b as u32) != 0
    }

    /// The members `keep` accepts.
    #[cfg(feature = "std")]
    pub(crate) fn filter(self, keep: &dyn Fn(Backend) -> bool) -> Backends {
        Backends(
            self.iter()
                .filter(|&b| keep(b))
                .map(|b| 1 << b as u32)
                .sum(),
        )
    }

    pub(crate) fn iter(self) -> impl Iterator<Item = Backend> {
        Backend::ALL
            .iter()
            .copied()
            .filter(move |&b| self.contains(b))
    }
}

/// The plan in force, and why: what [`crate::selection`] explains.
#[derive(Clone, Copy, Debug)]
pub struct Selection {
    /// Run-time dispatch, forced or compiled.
    pub mode: Mode,
    /// The backend of each entry point and piece.
    pub plan: Plan,
    /// The class this CPU belongs to, and what the class would choose.
    pub class: &'static ClassChoice,
    /// What decided.
    pub source: Source,
    /// Forced backends this CPU cannot run.
    pub(crate) unrunnable: Backends,
    /// Forced backends that serve no entry point here.
    pub(crate) unused: Backends,
    /// Whether a request was overridden where the build fixes a cell.
    pub(crate) overridden: bool,
    /// The CPU, where its model is in none of its class's measured runs
    /// and the plan was calibrated for that reason.
    pub(crate) unmeasured: Option<Identity>,
}

impl Selection {
    /// What decided, in one sentence (the last line of the `Display` form,
    /// before any notes).
    pub fn reason(&self) -> impl fmt::Display + '_ {
        struct Reason<'a>(&'a Selection);
        impl fmt::Display for Reason<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let s = self.0;
                match (s.mode, s.source) {
                    (Mode::Compiled, _) => f.write_str(
                        "compiled in: the build's target features chose (no run-time detection)",
                    ),
                    (Mode::Forced, _) => {
                        f.write_str("forced by Cargo features")?;
                        for b in Backend::ALL.iter().filter(|b| b.is_forced()) {
                            write!(f, " {}", b.force_feature())?;
                        }
                        f.write_str(
                            ": each entry point takes the class's choice if it is forced and \
                             runs here, else the first forced backend that runs here",
                        )
                    }
                    (_, Source::Class) => f.write_str("run-time dispatch: the class's choice"),
                    (_, Source::Environment) => {
                        write!(f, "overridden by {}", hq_plan::BACKEND_VAR)
                    }
                    (_, Source::SetBackend) => {
                        f.write_str("set by hq::set_backend or hq::set_plan")
                    }
                    (_, Source::Calibration) => match s.unmeasured {
                        Some(id) => write!(
                            f,
                            "calibrated at first use: no committed run measured this model \
                             (family {:#x} model {:#x}), so its class's plan is inferred, and \
                             a cell changes where a backend ran in half the time; \
                             {CALIBRATE_VAR}=0 takes the class's plan",
                            id.family, id.model
                        ),
                        None => f.write_str(
                            "calibrated: measured on this CPU (a cell changes where a backend \
                             ran in half the time)",
                        ),
                    },
                    (_, Source::PlanVariable) => write!(f, "overridden by {}", PLAN_VAR),
                }
            }
        }
        Reason(self)
    }
}

/// Three lines: the backend of each entry point, the CPU class and what
/// decided; then any notes.
impl fmt::Display for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.plan;
        write!(
            f,
            "single lookups: {}, batches: {}, set-wise: {}",
            p.single, p.batch, p.setwise
        )?;
        if let Some(n) = p.setwise_loop.uniform().filter(|&n| n > 0) {
            write!(f, " (single lookups up to {n} sliders)")?;
        } else if p.setwise_loop.uniform().is_none() {
            write!(f, " (single lookups up to {} sliders)", p.setwise_loop)?;
        }
        write!(f, "; latency: {}", p.latency)?;
        let c = self.class;
        write!(
            f,
            "\nCPU class: {} ({}); its plan: {}\n",
            c.name, c.description, c.plan
        )?;
        write!(f, "{}", self.reason())?;
        if portable_only(self.mode) {
            f.write_str(PORTABLE_NOTE)?;
        }
        for b in self.below_level() {
            write!(f, "{}", BelowLevelNote(b))?;
        }
        for b in self.unrunnable.iter() {
            write!(f, "\n{} ignored: ", b.force_feature())?;
            match b.check_supported() {
                Err(missing) => write!(f, "{missing}")?,
                Ok(_) => f.write_str("it cannot run here")?,
            }
        }
        for b in self.unused.iter() {
            write!(
                f,
                "\n{} ignored: another forced backend serves every entry point here",
                b.force_feature()
            )?;
        }
        if self.overridden {
            f.write_str(
                "\nfixed at compile time by the build's target features, whatever was asked:",
            )?;
            for entry in Entry::ALL {
                let cells = Slider::ALL.map(|s| fixed(entry, s));
                if cells.iter().any(Option::is_some) {
                    write!(f, " {}", entry.name())?;
                }
            }
        }
        Ok(())
    }
}

impl Selection {
    /// The forced backends serving here whose level the build's target
    /// features lack: the free functions run their forms for callers of any
    /// level (`asm!` kernels, or a call), slower than their tokens in some
    /// entry points. Portable backends have no other form.
    pub(crate) fn below_level(&self) -> impl Iterator<Item = Backend> + '_ {
        let serving = move |b: Backend| self.plan.backends().any(|p| p == b);
        Backend::ALL.iter().copied().filter(move |&b| {
            matches!(self.mode, Mode::Forced)
                && b.is_forced()
                && serving(b)
                && b.level() != hq_core::cpu::Level::Baseline
                && !crate::kernels::free_functions_have(b.level())
        })
    }
}

/// The note on a forced backend the build runs below its level
/// ([`Selection::below_level`]): what that costs in the committed runs,
/// and the flags that remove it.
struct BelowLevelNote(Backend);

impl fmt::Display for BelowLevelNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        let level = crate::kernels::jobs_at(b.level());
        write!(
            f,
            "\nnote: {}: this build's target features lack {level}, {b}'s level, so the free \
             functions run its forms for callers of any level, not its kernels inlined: {}; \
             build with RUSTFLAGS=\"{}\" (or -C target-cpu=native on such a CPU) for its full \
             speed",
            b.force_feature(),
            below_level_cost(b),
            level_flags(level),
        )
    }
}

/// What running `backend`'s forms for callers of any level cost: the free
/// functions of its `force-<backend>` build against its token, paired
/// medians (Intel Xeon 6/0xa7, the `--full` run kept in
/// `benches/runs/intel-r-xeon-r-processor-f6-ma7-s1-b5dd804`, "The free
/// functions against their backends").
const fn below_level_cost(backend: Backend) -> &'static str {
    match backend {
        Backend::Avx2 => {
            "0.94x its token's queen throughput, 0.96x rook, 1.00x bishop; 0.80-0.97x in an \
             engine-shaped loop, 0.78-0.89x in set-wise calls (Intel Xeon 6/0xa7)"
        }
        Backend::Avx512 => {
            "0.94x its token's queen throughput, 0.98x rook, 1.09x bishop; 0.89-0.98x in an \
             engine-shaped loop, 0.88-0.94x in set-wise calls (Intel Xeon 6/0xa7)"
        }
        Backend::Ssse3 => {
            "0.97x its token's queen throughput, 0.95x rook, 1.01x bishop; 0.80-0.91x in an \
             engine-shaped loop, 0.77-0.89x in set-wise calls (Intel Xeon 6/0xa7)"
        }
        Backend::Pext | Backend::PextPdep => {
            "1.00-1.03x its token's throughput for each piece; 0.80-0.92x in set-wise calls \
             (Intel Xeon 6/0xa7)"
        }
        Backend::XopSsse3 => {
            "0.98x its token's queen throughput, 0.83x rook and bishop; 0.44-0.93x in set-wise \
             calls (Intel Xeon 6/0xa7)"
        }
        _ => "not measured against its token yet",
    }
}

/// The `RUSTFLAGS` that enable `level` (x86-64; the named levels' target
/// CPUs, and for [`Level::X86V4`](hq_core::cpu::Level::X86V4) its Ice Lake
/// extensions beside).
pub(crate) const fn level_flags(level: hq_core::cpu::Level) -> &'static str {
    use hq_core::cpu::Level;
    match level {
        Level::X86V2 => "-C target-cpu=x86-64-v2",
        Level::X86V3 => "-C target-cpu=x86-64-v3",
        Level::X86V4 => V4_FLAGS,
        _ => "-C target-cpu=native",
    }
}

/// [`level_flags`] of x86-64-v4 with GFNI and the other extensions the
/// level takes in (`tests::the_v4_flags_enable_the_level` checks the list).
const V4_FLAGS: &str = "-C target-cpu=x86-64-v4 -C target-feature=+avx512vbmi,+avx512vbmi2,\
+avx512bitalg,+avx512ifma,+avx512vnni,+avx512vpopcntdq,+gfni,+vaes,+vpclmulqdq";

/// The note of a build that chooses at compile time for x86-64 with no
/// level above the baseline enabled: it runs portable code on any CPU.
const PORTABLE_NOTE: &str = "\nnote: without run-time detection (no `std`), this x86-64 build \
     chooses from its target features, which enable nothing beyond the baseline: it runs \
     portable code (about half the default build's speed); build with \
     RUSTFLAGS=\"-C target-cpu=native\" (or x86-64-v3) for the SIMD and PEXT backends";

/// Whether `mode` is a compile-time choice for x86-64 without any level
/// above the baseline enabled.
const fn portable_only(mode: Mode) -> bool {
    matches!(mode, Mode::Compiled)
        && cfg!(target_arch = "x86_64")
        && !hq_core::cpu::Level::X86V2.is_static()
}

/// The plan of `class` on a CPU where `runs` tells which backends run, in a
/// build forcing `forced` (empty: none): `requested` (`HQ_BACKEND`'s,
/// checked) for every entry point, or the class's; with forced backends
/// only those that run (each cell the class's if it is one, else the first
/// of them; the latency functions: else the single lookups'). Then the
/// cells the build fixes.
#[cfg(feature = "std")]
pub(crate) fn start(
    forced: Backends,
    class: &'static ClassChoice,
    runs: &dyn Fn(Backend) -> bool,
    requested: Option<Backend>,
) -> Result<Selection, BackendError> {
    let mut s = Selection {
        mode: Mode::RunTime,
        plan: requested.map_or(class.plan, Plan::all),
        class,
        source: match requested {
            Some(_) => Source::Environment,
            None => Source::Class,
        },
        unrunnable: Backends::default(),
        unused: Backends::default(),
        overridden: false,
        unmeasured: None,
    };
    if hq_plan::classes::COMPILED_PLAN.is_some() {
        s.mode = Mode::Compiled;
    }
    if forced != Backends::default() {
        s.mode = Mode::Forced;
        let running = forced.filter(runs);
        let Some(first) = running.iter().next() else {
            let missing = forced
                .iter()
                .filter_map(|b| b.check_supported().err())
                .collect();
            return Err(BackendError::NoForcedBackendRuns { missing });
        };
        s.unrunnable = forced.filter(&|b| !running.contains(b));
        if let Some(b) = requested.filter(|&b| !running.contains(b)) {
            return Err(BackendError::NotForced { requested: b });
        }
        let wanted = s.plan;
        for entry in Entry::ALL {
            for slider in Slider::ALL {
                let b = wanted.get(entry, slider);
                let or = match entry {
                    Entry::Latency => s.plan.get(Entry::Single, slider),
                    _ => first,
                };
                s.plan
                    .set(entry, slider, if running.contains(b) { b } else { or });
            }
        }
        // A loop over single lookups needs both of the class's backends.
        for slider in Slider::ALL {
            let pair = |p: &Plan| (p.get(Entry::Single, slider), p.get(Entry::Setwise, slider));
            if pair(&s.plan) != pair(&wanted) {
                s.plan.setwise_loop.set(slider, 0);
            }
        }
        s.unused = running.filter(&|b| !s.plan.backends().any(|p| p == b));
    } else {
        // A class row names only backends of its level; a test may hand
        // any class here: a latency backend that does not run takes the
        // single lookups'.
        for slider in Slider::ALL {
            if !runs(s.plan.get(Entry::Latency, slider)) {
                s.plan
                    .latency
                    .set(slider, s.plan.get(Entry::Single, slider));
            }
        }
    }
    fix(&mut s);
    Ok(s)
}

/// The selection with the cells the build fixes at compile time, noting
/// whether that overrode its plan.
#[cfg(feature = "std")]
pub(crate) fn fix(s: &mut Selection) {
    for entry in Entry::ALL {
        for slider in Slider::ALL {
            if let Some(b) = fixed(entry, slider) {
                s.overridden |= s.plan.get(entry, slider) != b;
                s.plan.set(entry, slider, b);
            }
        }
    }
    for slider in Slider::ALL {
        if let Some(n) = hq_plan::classes::fixed_loop(slider) {
            s.overridden |= s.plan.setwise_loop.get(slider) != n;
            s.plan.setwise_loop.set(slider, n);
        }
    }
}

/// `Ok` if every backend of `plan` may serve here: this build dispatches it
/// and this CPU runs it.
#[cfg(feature = "std")]
pub(crate) fn check_plan(plan: &Plan) -> Result<(), BackendError> {
    plan.backends()
        .try_for_each(|b| b.check_available().map(|_| ()))?;
    #[cfg(feature = "std")]
    if let Some(slider) = Slider::ALL
        .into_iter()
        .find(|&s| plan.setwise_loop.get(s) > 14)
    {
        return Err(BackendError::BadPlan {
            item: std::format!("setwise.loop.{slider}={}", plan.setwise_loop.get(slider)),
            why: "set-wise calls loop over single lookups up to 14 sliders at most".into(),
        });
    }
    Ok(())
}

/// The selection of a build that chooses at compile time (without `std`).
#[cfg(not(feature = "std"))]
pub(crate) fn compiled() -> Selection {
    let (class, plan) =
        hq_plan::classes::COMPILED.expect("a build without std chooses at compile time");
    let mode = if hq_plan::FORCED {
        Mode::Forced
    } else {
        Mode::Compiled
    };
    let none = Backends::default();
    Selection {
        mode,
        plan,
        class,
        source: Source::Class,
        unrunnable: none,
        unused: none,
        overridden: false,
        unmeasured: None,
    }
}

#[cfg(feature = "std")]
pub(crate) use env::{decide, decide_for};

/// The environment variable that gives a [`Plan`] in its text form, applied
/// over the class's (or `HQ_BACKEND`'s, or a calibration's) plan: say
/// `HQ_CHOICE=batch.rook=avx512`, or a whole plan `hq-info --calibrate`
/// printed.
pub const PLAN_VAR: &str = "HQ_CHOICE";

/// The environment variable that turns the calibration at the first call on
/// (`1`) or off (`0`). Unset, an optimised build calibrates where the CPU's
/// model is in none of its class's measured runs, and nowhere else.
pub const CALIBRATE_VAR: &str = "HQ_CALIBRATE";

/// The environment's part (with `std`).
#[cfg(feature = "std")]
mod env {
    use super::*;
    use std::string::String;

    /// `Some(value)` of `variable` if set and not blank, as UTF-8.
    fn var(variable: &'static str) -> Result<Option<String>, BackendError> {
        match std::env::var(variable) {
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(raw)) => Err(BackendError::Environment {
                variable,
                value: raw.to_string_lossy().into_owned(),
                cause: std::boxed::Box::new(BackendError::Invalid("not UTF-8".into())),
            }),
            Ok(v) if v.trim().is_empty() => Ok(None),
            Ok(v) => Ok(Some(v)),
        }
    }

    /// `cause` as the error of `variable`'s `value`.
    fn invalid(variable: &'static str, value: &str, cause: BackendError) -> BackendError {
        BackendError::Environment {
            variable,
            value: value.into(),
            cause: std::boxed::Box::new(cause),
        }
    }

    /// The backend `HQ_BACKEND` names (`None`: unset, blank or `auto`),
    /// checked: this build dispatches it and this CPU runs it.
    pub(crate) fn backend_var() -> Result<Option<Backend>, BackendError> {
        match var(hq_plan::BACKEND_VAR)? {
            Some(name) if !name.trim().eq_ignore_ascii_case("auto") => Backend::from_name(&name)
                .and_then(Backend::check_available)
                .map(Some)
                .map_err(|e| invalid(hq_plan::BACKEND_VAR, &name, e)),
            _ => Ok(None),
        }
    }

    /// What `HQ_CALIBRATE` asks: `Some(true)` a calibration, `Some(false)`
    /// none, `None` (unset) the default.
    fn calibrate_var() -> Result<Option<bool>, BackendError> {
        match var(CALIBRATE_VAR)?.as_deref().map(str::trim) {
            None => Ok(None),
            Some("0") => Ok(Some(false)),
            Some("1") => Ok(Some(true)),
            Some(other) => Err(invalid(
                CALIBRATE_VAR,
                other,
                BackendError::Invalid(
                    "expected 1 (calibrate at first use) or 0 (the class's plan)".into(),
                ),
            )),
        }
    }

    /// Decides the selection for this CPU and build.
    pub(crate) fn decide() -> Result<Selection, BackendError> {
        let identity = Identity::detect();
        decide_for(identity, !cfg!(debug_assertions))
    }

    /// Decides the selection as for a CPU of `identity` (with this CPU's
    /// instruction sets): [`start`] on its class; then a calibration if
    /// `HQ_CALIBRATE=1`, or by default where `optimised` and no committed
    /// run measured the model (FFTW's planner: measure where nothing is
    /// known); then `HQ_CHOICE`'s items over it. An unoptimised build never
    /// calibrates by default: its figures are not the release build's.
    pub(crate) fn decide_for(
        identity: Identity,
        optimised: bool,
    ) -> Result<Selection, BackendError> {
        let class = hq_plan::classes::classify(identity, hq_core::cpu::Level::is_detected);
        let requested = backend_var()?;
        let mut s = start(Backends::FORCED, class, &|b| b.is_supported(), requested)?;
        let unmeasured = s.mode == Mode::RunTime
            && requested.is_none()
            && optimised
            && !class.measured(identity);
        let wanted = calibrate_var()?;
        if wanted.unwrap_or(unmeasured) {
            #[cfg(not(target_arch = "wasm32"))]
            {
                s.unmeasured = Some(identity).filter(|_| wanted.is_none());
                s.plan = crate::calibrate::measure(s.plan)?.plan;
                s.source = Source::Calibration;
            }
            #[cfg(target_arch = "wasm32")]
            return Err(BackendError::Invalid(
                "HQ_CALIBRATE=1: a wasm32 build fixes every cell at compile time (it has no \
                 run-time CPU detection): nothing to calibrate"
                    .into(),
            ));
        }
        if let Some(text) = var(PLAN_VAR)? {
            let plan_error = |e| invalid(PLAN_VAR, &text, e);
            s.plan.apply(&text).map_err(plan_error)?;
            check_plan(&s.plan).map_err(plan_error)?;
            s.source = Source::PlanVariable;
        }
        fix(&mut s);
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hq_core::cpu::{FeatureSet, Level};

    /// The flags the note gives for x86-64-v4 enable every feature of the
    /// level: x86-64-v3's, the psABI's v4 (AVX-512 F, BW, CD, DQ, VL) and
    /// the extensions they list.
    #[test]
    fn the_v4_flags_enable_the_level() {
        let (cpu, features) = V4_FLAGS.split_once(" -C target-feature=").unwrap();
        assert_eq!(cpu, "-C target-cpu=x86-64-v4");
        let mut named: std::vec::Vec<_> = Level::X86V3.features().iter().collect();
        for name in ["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"]
            .into_iter()
            .chain(features.split(',').map(|f| f.strip_prefix('+').unwrap()))
        {
            let f = hq_core::cpu::Feature::ALL
                .iter()
                .find(|f| f.name() == name)
                .unwrap_or_else(|| panic!("{name} is no feature of the list"));
            named.push(*f);
        }
        assert_eq!(FeatureSet::of(&named), Level::X86V4.features());
    }
}
