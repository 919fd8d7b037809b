//! The choice made, and the free functions' path to it — in one place.
//!
//! * **Run-time dispatch** (no `force-*` feature): one atomic pointer per
//!   entry-point group (single lookups, batches, set-wise) to a static table
//!   of function pointers (memchr's "ifunc" pattern). Each starts at a table
//!   whose entries decide ([`decide`]), install the three chosen tables and
//!   forward; every later call is one atomic load and one indirect call. The
//!   table entries run the kernels compiled for their backend's level.
//!   Three kernels skip the call where installed, behind one load and a
//!   predicted branch: PEXT's single lookups ([`PEXT_MASKS`]) and batches
//!   ([`PEXT_BATCH`]), and `avx512`'s set-wise fill ([`AVX512_SETWISE`]),
//!   all `asm!` that needs no target feature on the caller.
//! * **Forced** (`force-*` features, additive): the free functions call the
//!   forced tokens directly (inlined); the winner of each entry point is
//!   decided once and kept in an atomic index, so a build with one forced
//!   backend pays one relaxed load and a predicted branch per call.
//!
//! The soundness argument is the same for both: a table, or a winner index,
//! is only ever installed for a backend [`Backend::check_supported`] accepted.

use crate::active::looping;
use crate::choice::{self, Choice, ClassChoice, Latency, Plan, Slider};
use crate::registry::FORCED;
use crate::{Backend, BackendError, Group, WithBackend, registry};
use core::fmt;
#[cfg(target_arch = "x86_64")]
use core::sync::atomic::{AtomicBool, AtomicU64};
use core::sync::atomic::{AtomicPtr, AtomicU8, Ordering};
use hq_core::cpu::compiled_fn;
use hq_core::{Bitboard, Line, SliderAttacks, Square};
use std::format;
use std::string::String;
use std::sync::Mutex;
use std::vec::Vec;

/// How this build chooses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Detected at the first call (or `HQ_BACKEND`, or [`crate::set_backend`]).
    RunTime,
    /// Restricted to the backends of the enabled `force-*` features.
    Forced,
}

/// Why the choice is what it is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Source {
    /// The CPU class's measured (or inferred) choice.
    Class,
    /// `HQ_BACKEND` named the backend.
    Environment,
    /// [`crate::set_backend`] installed it.
    SetBackend,
    /// A calibration measured it on this CPU ([`crate::calibrate()`], or
    /// `HQ_CALIBRATE=1` at first use).
    Calibration,
    /// `HQ_CHOICE` gave it (over the class's, `HQ_BACKEND`'s or the
    /// calibrated plan).
    PlanVariable,
}

/// The choice in force, and why: what [`crate::selection`] explains.
#[derive(Clone, Debug)]
pub struct Selection {
    /// Run-time dispatch or forced.
    pub mode: Mode,
    /// The backend of each entry point and piece (and of [`crate::latency`]).
    pub plan: Plan,
    /// The class this CPU belongs to, and what the class would choose.
    pub class: &'static ClassChoice,
    /// What decided.
    pub source: Source,
    /// Forced backends that lost, and why (empty unless forced).
    pub notes: Vec<String>,
}

impl Selection {
    /// The queen's backend of each entry point ([`Plan::choice`]).
    pub fn choice(&self) -> Choice {
        self.plan.choice()
    }

    /// The backend of each piece of [`crate::latency`].
    pub fn latency(&self) -> Latency {
        self.plan.latency
    }

    /// What decided, in one sentence (the last line of the `Display` form,
    /// before any notes).
    pub fn reason(&self) -> impl fmt::Display + '_ {
        Reason(self)
    }
}

struct Reason<'a>(&'a Selection);

impl fmt::Display for Reason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0.mode, self.0.source) {
            (Mode::Forced, _) => {
                write!(f, "forced by Cargo features ")?;
                for (i, b) in Backend::forced().enumerate() {
                    write!(f, "{}{}", if i > 0 { ", " } else { "" }, b.force_feature())?;
                }
                write!(
                    f,
                    ": each entry point takes the class's choice if it is forced and runs \
                     here, else the first forced backend that runs here"
                )
            }
            (Mode::RunTime, Source::Class) => write!(f, "run-time dispatch: the class's choice"),
            (Mode::RunTime, Source::Environment) => {
                write!(f, "run-time dispatch overridden by {}", crate::ENV_VAR)
            }
            (Mode::RunTime, Source::SetBackend) => write!(f, "set by hq::set_backend"),
            (Mode::RunTime, Source::Calibration) => {
                write!(f, "calibrated: measured on this CPU at run time")
            }
            (Mode::RunTime, Source::PlanVariable) => {
                write!(f, "run-time dispatch overridden by {PLAN_VAR}")
            }
        }?;
        match STATIC_SINGLES {
            Some(b) => write!(
                f,
                " (single lookups: {b}, fixed at compile time: x86-64-v4)"
            ),
            None => Ok(()),
        }
    }
}

/// Three lines: the backend of each entry point, the CPU class (its
/// evidence is [`ClassChoice::evidence`]), and what decided; then any notes.
impl fmt::Display for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.plan;
        write!(
            f,
            "single lookups: {}, batches: {}, set-wise: {}",
            p.single.compact(),
            p.batch.compact(),
            p.setwise.compact()
        )?;
        if p.choice().loops_setwise() {
            write!(
                f,
                " ({} up to {} sliders)",
                p.single.compact(),
                p.setwise_loop.queen
            )?;
        }
        write!(f, "; latency (rook / bishop / queen): {}", p.latency)?;
        write!(
            f,
            "\nCPU class: {} ({}); its choice: {}",
            self.class.name, self.class.description, self.class.choice
        )?;
        for piece in self.class.per_piece {
            write!(
                f,
                ", {}.{}={}",
                piece.entry.name(),
                piece.slider.name(),
                piece.backend
            )?;
        }
        writeln!(f)?;
        write!(f, "{}", self.reason())?;
        for note in &self.notes {
            write!(f, "\n{note}")?;
        }
        Ok(())
    }
}

/// The environment variable that gives a [`Plan`] in its text form, applied
/// over the class's (or `HQ_BACKEND`'s, or a calibration's) plan: say
/// `HQ_CHOICE=batch.rook=avx512`, or a whole plan `hq-info --calibrate`
/// printed.
pub const PLAN_VAR: &str = "HQ_CHOICE";

/// The environment variable that asks for a calibration at first use
/// (`1`; `0` or unset: the class's choice).
pub const CALIBRATE_VAR: &str = "HQ_CALIBRATE";

/// `HQ_CHOICE`'s value, if set and not empty.
fn plan_from_env() -> Result<Option<String>, BackendError> {
    match std::env::var(PLAN_VAR) {
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(raw)) => Err(BackendError::Environment {
            variable: PLAN_VAR,
            value: raw.to_string_lossy().into_owned(),
            cause: std::boxed::Box::new(BackendError::BadPlan {
                item: raw.to_string_lossy().into_owned(),
                why: "not UTF-8".into(),
            }),
        }),
        Ok(text) if text.trim().is_empty() => Ok(None),
        Ok(text) => Ok(Some(text)),
    }
}

/// Whether `HQ_CALIBRATE` asks for a calibration.
fn calibrate_from_env() -> Result<bool, BackendError> {
    match std::env::var(CALIBRATE_VAR) {
        Err(std::env::VarError::NotPresent) => Ok(false),
        Ok(v) if matches!(v.trim(), "" | "0") => Ok(false),
        Ok(v) if v.trim() == "1" => Ok(true),
        other => {
            let value = match other {
                Ok(v) => v,
                Err(e) => std::format!("{e}"),
            };
            Err(BackendError::Environment {
                variable: CALIBRATE_VAR,
                cause: std::boxed::Box::new(BackendError::Invalid(
                    "expected 1 (calibrate at first use) or 0 (the class's choice)".into(),
                )),
                value,
            })
        }
    }
}

/// `Ok` if every backend of `plan` may serve here: this CPU runs it and
/// the free functions dispatch to it (in a forced build: it is forced).
pub(crate) fn check_plan(plan: &Plan) -> Result<(), BackendError> {
    for b in plan.backends() {
        b.check_supported()?;
        if FORCED && !b.is_forced() {
            return Err(BackendError::NotForced { requested: b });
        }
    }
    for pieces in [plan.single, plan.batch, plan.setwise] {
        for slider in Slider::ALL {
            pieces.get(slider).check_dispatched()?;
        }
    }
    for slider in Slider::ALL {
        let b = plan.latency.get(slider);
        if !crate::latency::serves(b) {
            return Err(BackendError::BadPlan {
                item: std::format!("latency.{}={b}", slider.name()),
                why: std::format!(
                    "the latency functions run {}",
                    crate::latency::SERVED.map(Backend::name).join(", ")
                ),
            });
        }
    }
    Ok(())
}

/// The single lookups' backend where this build's target features decide
/// it: PEXT in a build that enables x86-64-v4 (with GFNI) everywhere, as
/// `-C target-cpu=native` does on an AVX-512 CPU, and forces no backend.
///
/// Why: every class of that level chooses PEXT for single lookups (a test
/// of the class table keeps it so), and every CPU with AVX-512 has a fast
/// PEXT. So the free functions inline the lookup with no test at all, as
/// multiversion's static dispatcher would; the armed-mask test of the
/// run-time path costs a load, a compare and a branch per call. The
/// single lookups then stay PEXT's whatever `HQ_BACKEND`, `HQ_CHOICE`,
/// [`crate::set_backend`] or a calibration ask for; those steer the other
/// entry points, and [`crate::selection`] notes the difference. Time other
/// backends' single lookups with [`crate::with_backend`].
#[cfg(target_arch = "x86_64")]
pub const STATIC_SINGLES: Option<Backend> = if !FORCED && hq_core::cpu::Level::X86V4.is_static() {
    Some(Backend::Pext)
} else {
    None
};
/// As on x86-64: no other architecture has a static single choice.
#[cfg(not(target_arch = "x86_64"))]
pub const STATIC_SINGLES: Option<Backend> = None;

/// `plan` with the single lookups this build fixes at compile time
/// ([`STATIC_SINGLES`]), and a note if that overrides what was asked.
fn with_static_singles(mut plan: Plan, notes: &mut Vec<String>) -> Plan {
    if let Some(fixed) = STATIC_SINGLES {
        let all = choice::Pieces::all(fixed);
        notes.retain(|n| !n.starts_with(STATIC_NOTE));
        if plan.single != all {
            notes.push(format!(
                "{STATIC_NOTE} {fixed} (x86-64-v4 enabled at compile time), not {}",
                plan.single.compact()
            ));
            plan.single = all;
        }
    }
    plan
}

/// The start of [`with_static_singles`]'s note.
const STATIC_NOTE: &str = "single lookups fixed by the build's target features:";

/// The selection, once decided (cold paths only).
static SELECTION: Mutex<Option<Selection>> = Mutex::new(None);

/// Decides the selection for this CPU and build (no side effect but a
/// calibration's timing, if `HQ_CALIBRATE=1`): the class's plan (or
/// `HQ_BACKEND`'s), then a calibration if asked for, then `HQ_CHOICE`'s
/// items over it.
pub(crate) fn decide() -> Result<Selection, BackendError> {
    let class = choice::this_cpu();
    let (mode, mut plan, mut source, mut notes) = if FORCED {
        let (plan, source, notes) = forced_plan(class)?;
        (Mode::Forced, plan, source, notes)
    } else {
        let (plan, source) = match Backend::from_env()? {
            Some(backend) => (Plan::all(backend), Source::Environment),
            None => (class_plan(class), Source::Class),
        };
        (Mode::RunTime, plan, source, Vec::new())
    };
    if calibrate_from_env()? {
        // wasm32-unknown-unknown has no clock (the measuring would only
        // return its error), and keeping the measuring out of the first
        // call there keeps it out of every module that calls the free
        // functions (the wasm module size step).
        #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
        {
            plan = crate::calibrate::measure(plan)?.plan;
            source = Source::Calibration;
        }
        #[cfg(all(target_family = "wasm", target_os = "unknown"))]
        return Err(BackendError::Invalid(
            "HQ_CALIBRATE: calibration needs a clock, and wasm32-unknown-unknown has none".into(),
        ));
    }
    if let Some(text) = plan_from_env()? {
        let env_error = |e: BackendError| BackendError::Environment {
            variable: PLAN_VAR,
            value: text.clone(),
            cause: std::boxed::Box::new(e),
        };
        plan.apply(&text).map_err(env_error)?;
        check_plan(&plan).map_err(env_error)?;
        source = Source::PlanVariable;
    }
    let plan = with_static_singles(plan, &mut notes);
    Ok(Selection {
        mode,
        plan,
        class,
        source,
        notes,
    })
}

/// The class's plan ([`ClassChoice::plan`]), its latency choice with each
/// piece checked.
pub(crate) fn class_plan(class: &ClassChoice) -> Plan {
    Plan {
        latency: class_latency(class),
        ..class.plan()
    }
}

/// A forced build's plan: `HQ_BACKEND`'s backend if forced, else each
/// entry point and piece takes the class's backend if it is forced and
/// runs here, else the first forced backend that runs here (the latency
/// functions: else the single lookups').
fn forced_plan(class: &'static ClassChoice) -> Result<(Plan, Source, Vec<String>), BackendError> {
    // Forced: only the forced backends this CPU runs may serve.
    let mut runs = Vec::new();
    let mut notes = Vec::new();
    let mut missing = Vec::new();
    for backend in Backend::forced() {
        match backend.check_supported() {
            Ok(_) => runs.push(backend),
            Err(BackendError::Unsupported(m)) => {
                notes.push(format!("{} ignored: {m}", backend.force_feature()));
                missing.push(m);
            }
            Err(e) => return Err(e),
        }
    }
    if runs.is_empty() {
        return Err(BackendError::NoForcedBackendRuns { missing });
    }
    let (plan, source) = match Backend::from_env()? {
        Some(b) if runs.contains(&b) => (Plan::all(b), Source::Environment),
        Some(b) => return Err(BackendError::NotForced { requested: b }),
        None => {
            let pick = |wanted: Backend| {
                if runs.contains(&wanted) {
                    wanted
                } else {
                    runs[0]
                }
            };
            let c = class.choice;
            let (single, setwise) = (pick(c.single), pick(c.setwise));
            // Each piece's latency backend where forced, else the single
            // lookups'.
            let latency_pick = |_: Slider, wanted: Backend| {
                if runs.contains(&wanted) {
                    wanted
                } else {
                    single
                }
            };
            let choice = Choice {
                single,
                batch: pick(c.batch),
                setwise,
                // The loop needs both of the class's backends forced.
                setwise_loop: if (single, setwise) == (c.single, c.setwise) {
                    c.setwise_loop
                } else {
                    0
                },
            };
            let mut plan = Plan::of_class(choice, class.latency.map(latency_pick));
            // The class's per-piece exceptions whose backends are forced.
            for &piece in class.per_piece {
                if runs.contains(&piece.backend) {
                    plan = plan.with(piece);
                }
            }
            (plan, Source::Class)
        }
    };
    for &b in &runs {
        if !plan.backends().any(|p| p == b) {
            notes.push(format!(
                "{} ignored: another forced backend serves every entry point here",
                b.force_feature()
            ));
        }
    }
    Ok((plan, source, notes))
}

/// The class's latency choice, each piece's backend checked (the single
/// lookups' backend where the CPU lacks it: a class row can only name
/// backends its level has, but a test may hand any class here).
fn class_latency(class: &ClassChoice) -> Latency {
    class.plan().latency.map(|_, b| {
        if b.is_supported() {
            b
        } else {
            class.choice.single
        }
    })
}

/// The selection, deciding and installing it on first use.
pub(crate) fn selection() -> Result<Selection, BackendError> {
    let mut slot = SELECTION.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = &*slot {
        return Ok(s.clone());
    }
    let s = decide()?;
    install(&s.plan);
    *slot = Some(s.clone());
    Ok(s)
}

/// Installs `backend` for every entry point (checked), recording why.
pub(crate) fn set(backend: Backend) -> Result<(), BackendError> {
    backend.check_supported()?.check_dispatched()?;
    if FORCED && !backend.is_forced() {
        return Err(BackendError::NotForced { requested: backend });
    }
    replace(Plan::all(backend), Source::SetBackend)
}

/// Installs `plan` (checked here) for every entry point, recording that a
/// calibration (`calibrated`) or the caller chose it.
pub(crate) fn set_plan(plan: Plan, calibrated: bool) -> Result<(), BackendError> {
    check_plan(&plan)?;
    let source = if calibrated {
        Source::Calibration
    } else {
        Source::SetBackend
    };
    replace(plan, source)
}

/// Installs `plan`, whose backends the caller checked, as the selection's,
/// recording `source` (deciding the rest of the selection first if no call
/// has yet).
fn replace(plan: Plan, source: Source) -> Result<(), BackendError> {
    let mut slot = SELECTION.lock().unwrap_or_else(|e| e.into_inner());
    let mut s = match slot.take() {
        Some(s) => s,
        None => decide()?,
    };
    s.plan = with_static_singles(plan, &mut s.notes);
    s.source = source;
    install(&s.plan);
    *slot = Some(s);
    Ok(())
}

/// Points the free functions and the latency functions at `plan`, whose
/// backends were all checked ([`check_plan`], or the class's and forced
/// plans, built from checked backends).
fn install(plan: &Plan) {
    for (slot, slider) in LATENCY.iter().zip(Slider::ALL) {
        slot.store(plan.latency.get(slider).index() as u8, Ordering::Release);
    }
    if FORCED {
        for (slots, pieces) in FORCED_BACKENDS
            .iter()
            .zip([plan.single, plan.batch, plan.setwise])
        {
            for (slot, slider) in slots.iter().zip(Slider::ALL) {
                slot.store(pieces.get(slider).index() as u8, Ordering::Release);
            }
        }
    } else {
        let (singles, batches, setwise) = run_time_tables(plan);
        SINGLES.store(ptr(singles), Ordering::Release);
        #[cfg(target_arch = "x86_64")]
        arm_inlined_kernels(plan);
        BATCHES.store(ptr(batches), Ordering::Release);
        SETWISE.store(ptr(setwise), Ordering::Release);
    }
}

/// The tables of every plan installed so far, so that switching between
/// plans (a benchmark comparing the class's and the calibrated plan) makes
/// no new table.
type Installed = (Plan, &'static Singles, &'static Batches, &'static Setwise);
static TABLES: Mutex<Vec<Installed>> = Mutex::new(Vec::new());

/// The three tables of `plan`: a backend's own `static` tables where one
/// backend serves every piece, else a table made of each piece's entries
/// (leaked, once per distinct plan: a few words each).
fn run_time_tables(plan: &Plan) -> (&'static Singles, &'static Batches, &'static Setwise) {
    let mut known = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, singles, batches, setwise)) = known.iter().find(|k| k.0 == *plan) {
        return (singles, batches, setwise);
    }
    let (singles, batches, setwise) = new_tables(plan);
    known.push((*plan, singles, batches, setwise));
    (singles, batches, setwise)
}

/// [`run_time_tables`] for a plan not seen before.
fn new_tables(plan: &Plan) -> (&'static Singles, &'static Batches, &'static Setwise) {
    // `check_plan` (or the class table's test) accepted only dispatched backends.
    let tables = |b: Backend| registry::tables(b).expect("a dispatched backend");
    let setwise_of = |slider: Slider| -> &'static Setwise {
        setwise_table(
            plan.single.get(slider),
            plan.setwise.get(slider),
            plan.setwise_loop.get(slider),
        )
    };
    let singles = match plan.single.uniform() {
        Some(b) => tables(b).0,
        None => {
            let (r, b, q) = (
                tables(plan.single.rook).0,
                tables(plan.single.bishop).0,
                tables(plan.single.queen).0,
            );
            std::boxed::Box::leak(std::boxed::Box::new(Singles {
                line: q.line,
                rook: r.rook,
                bishop: b.bishop,
                queen: q.queen,
            }))
        }
    };
    let batches = match plan.batch.uniform() {
        Some(b) => tables(b).1,
        None => std::boxed::Box::leak(std::boxed::Box::new(Batches {
            rook: tables(plan.batch.rook).1.rook,
            bishop: tables(plan.batch.bishop).1.bishop,
            queen: tables(plan.batch.queen).1.queen,
        })),
    };
    let (r, b, q) = (
        setwise_of(Slider::Rook),
        setwise_of(Slider::Bishop),
        setwise_of(Slider::Queen),
    );
    let setwise = if core::ptr::eq(r, b) && core::ptr::eq(b, q) {
        r
    } else {
        std::boxed::Box::leak(std::boxed::Box::new(Setwise {
            rook: r.rook,
            bishop: b.bishop,
            queen: q.queen,
        }))
    };
    (singles, batches, setwise)
}

/// The set-wise table a piece uses with `single` and `setwise` backends and
/// a loop up to `setwise_loop` sliders: the loop's where the free functions
/// have it ([`piece_loop`]), else the set-wise backend's own.
fn setwise_table(single: Backend, setwise: Backend, setwise_loop: u32) -> &'static Setwise {
    piece_loop(single, setwise, setwise_loop)
        .unwrap_or_else(|| registry::tables(setwise).expect("a dispatched backend").2)
}

/// The table of a piece's set-wise calls looping over `single`'s lookups up
/// to `setwise_loop` sliders before `setwise`'s kernel, if the loop applies
/// (a count above 0, two different backends) and the free functions have
/// it (the calibration's loop candidates).
pub(crate) fn piece_loop(
    single: Backend,
    setwise: Backend,
    setwise_loop: u32,
) -> Option<&'static Setwise> {
    looping_setwise(Choice {
        single,
        batch: single,
        setwise,
        setwise_loop,
    })
}

fn ptr<T>(table: &'static T) -> *mut T {
    (table as *const T).cast_mut()
}

/// The first call: decide, install, or stop with the error (the free
/// functions cannot return one; [`crate::init`] can).
#[cold]
#[inline(never)]
fn first_call() {
    if let Err(e) = selection() {
        panic!("hq: {e} (call hq::init() at start-up to get this as an error instead)");
    }
}

// ---------------------------------------------------------------------------
// Run-time dispatch tables.

/// The single-lookup entry points of one backend.
pub(crate) struct Singles {
    pub line: unsafe fn(Line, (Square, Bitboard)) -> Bitboard,
    pub rook: SingleFn,
    pub bishop: SingleFn,
    pub queen: SingleFn,
}

/// A single-lookup entry point of one piece.
type SingleFn = unsafe fn(Square, Bitboard) -> Bitboard;

/// The batch entry points of one backend.
pub(crate) struct Batches {
    pub rook: unsafe fn(&[Square], Bitboard, &mut [Bitboard]),
    pub bishop: unsafe fn(&[Square], Bitboard, &mut [Bitboard]),
    pub queen: unsafe fn(&[Square], Bitboard, &mut [Bitboard]),
}

/// A set-wise entry point: the union of a set's attacks over an occupancy.
type SetwiseFn = unsafe fn(Bitboard, Bitboard) -> Bitboard;

/// The set-wise entry points of one backend.
pub(crate) struct Setwise {
    pub rook: SetwiseFn,
    pub bishop: SetwiseFn,
    pub queen: SetwiseFn,
}

/// `B`'s token, for the entries of `compiled_fn` (called only through them).
///
/// # Safety
///
/// The CPU must support `B` (every table entry has this contract, which
/// [`install`] upholds: only checked backends' tables are installed).
#[inline(always)]
unsafe fn token<B: SliderAttacks>() -> B {
    // SAFETY: the caller guarantees the CPU supports `B`.
    unsafe { B::new_unchecked() }
}

impl Singles {
    /// The single-lookup entries point straight at functions compiled for
    /// `B`'s level with the kernel inlined ([`compiled_fn`]): one indirect
    /// call per lookup, no further call.
    pub(crate) const fn of<B: SliderAttacks>() -> Singles {
        Singles {
            line: compiled_fn(B::LEVEL, |l, (s, o)| {
                // SAFETY: called only through installed tables, whose backends were checked.
                unsafe { token::<B>() }.line_attacks(l, s, o)
            }),
            rook: Self::entry::<B, 0>(),
            bishop: Self::entry::<B, 1>(),
            queen: Self::entry::<B, 2>(),
        }
    }

    /// `B`'s single lookup of `Slider::ALL[SLIDER]`, compiled for its level.
    const fn entry<B: SliderAttacks, const SLIDER: usize>() -> SingleFn {
        compiled_fn(B::LEVEL, |sq, o| {
            // SAFETY: called only through installed tables, whose backends were checked.
            Slider::ALL[SLIDER].single(unsafe { token::<B>() }, sq, o)
        })
    }
}

/// Runs `batch` on `squares` and `out` as slices of 64 when they are, so
/// that the kernel inlined into the table's entry is compiled for that
/// length too (unrolled, no loop count), the common batch of a whole board.
#[inline(always)]
fn whole_board(
    squares: &[Square],
    out: &mut [Bitboard],
    batch: impl FnOnce(&[Square], &mut [Bitboard]),
) {
    if squares.len() == 64 && out.len() == 64 {
        batch(&squares[..64], &mut out[..64])
    } else {
        batch(squares, out)
    }
}

impl Batches {
    pub(crate) const fn of<B: SliderAttacks>() -> Batches {
        Batches {
            rook: Self::entry::<B, 0>,
            bishop: Self::entry::<B, 1>,
            queen: Self::entry::<B, 2>,
        }
    }

    /// The entry of `Slider::ALL[SLIDER]`.
    ///
    /// # Safety
    ///
    /// As [`token`] (called only through installed tables, whose backends
    /// were checked).
    unsafe fn entry<B: SliderAttacks, const SLIDER: usize>(
        squares: &[Square],
        occupancy: Bitboard,
        out: &mut [Bitboard],
    ) {
        // SAFETY: the caller's guarantee.
        unsafe {
            compiled_batch::<B>(squares, occupancy, out, |t, s, o, out| {
                Slider::ALL[SLIDER].batch(t, s, o, out)
            })
        }
    }
}

/// Runs `batch` on `B`'s token in a function compiled for `B`'s level
/// ([`compiled_fn`]), which a table's entry reaches by one direct jump (a
/// closure run through `run_compiled` instead was a call with its
/// arguments packed on the stack). `compiled_fn` takes two arguments, so
/// the slices travel as raw parts.
///
/// # Safety
///
/// As [`token`].
#[inline(always)]
unsafe fn compiled_batch<B: SliderAttacks>(
    squares: &[Square],
    occupancy: Bitboard,
    out: &mut [Bitboard],
    batch: impl Fn(B, &[Square], Bitboard, &mut [Bitboard]) + Copy,
) {
    hq_core::check_batch_lengths(squares.len(), out.len());
    let entry = compiled_fn(
        B::LEVEL,
        move |(s, out): (*const Square, *mut Bitboard), (o, len): (Bitboard, usize)| {
            // SAFETY: the parts of the two slices below, of `len` elements
            // each (checked above), borrowed for this call only.
            let (s, out) = unsafe {
                (
                    core::slice::from_raw_parts(s, len),
                    core::slice::from_raw_parts_mut(out, len),
                )
            };
            // SAFETY: the caller guarantees the CPU supports `B`.
            let token = unsafe { token::<B>() };
            whole_board(s, out, |s, out| batch(token, s, o, out));
        },
    );
    let parts = (
        (squares.as_ptr(), out.as_mut_ptr()),
        (occupancy, squares.len()),
    );
    // SAFETY: the parts of live slices of equal length; `B` as the caller guarantees.
    unsafe { entry(parts.0, parts.1) }
}

impl Setwise {
    pub(crate) const fn of<B: SliderAttacks>() -> Setwise {
        Setwise {
            rook: Self::entry::<B, 0>(),
            bishop: Self::entry::<B, 1>(),
            queen: Self::entry::<B, 2>(),
        }
    }

    /// `B`'s set-wise entry of `Slider::ALL[SLIDER]`, compiled for its level.
    const fn entry<B: SliderAttacks, const SLIDER: usize>() -> SetwiseFn {
        compiled_fn(B::LEVEL, |set, o| {
            // SAFETY: called only through installed tables, whose backends were checked.
            Slider::ALL[SLIDER].setwise(unsafe { token::<B>() }, set, o)
        })
    }

    /// [`looping`] over `S`'s lookups and `W`'s set-wise entry, compiled for
    /// `W`'s level (the set-wise kernels' level; `S`'s lookups inline when it
    /// includes theirs, as x86-64-v4 includes PEXT's v3).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // only x86-64 has a combination
    pub(crate) const fn looping<S: SliderAttacks, W: SliderAttacks, const LOOP: u32>() -> Setwise {
        Setwise {
            rook: Self::looping_entry::<S, W, LOOP, 0>(),
            bishop: Self::looping_entry::<S, W, LOOP, 1>(),
            queen: Self::looping_entry::<S, W, LOOP, 2>(),
        }
    }

    /// [`Setwise::looping`]'s entry of `Slider::ALL[SLIDER]`.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    const fn looping_entry<
        S: SliderAttacks,
        W: SliderAttacks,
        const LOOP: u32,
        const SLIDER: usize,
    >() -> SetwiseFn {
        compiled_fn(
            W::LEVEL,
            #[inline(always)]
            |set, o| {
                let slider = Slider::ALL[SLIDER];
                // SAFETY: called only through installed tables, whose backends were checked.
                let (s, w) = unsafe { (token::<S>(), token::<W>()) };
                looping::<LOOP>(
                    set,
                    o,
                    #[inline(always)]
                    |sq, o| slider.single(s, sq, o),
                    #[inline(always)]
                    |set, o| slider.setwise(w, set, o),
                )
            },
        )
    }
}

/// The tables before the first call: decide, install, forward.
static DETECT_SINGLES: Singles = Singles {
    // SAFETY: the installed table holds only checked backends (`install`).
    line: |l, so| unsafe { (installed_singles().line)(l, so) },
    // SAFETY: the installed table holds only checked backends (`install`).
    rook: |s, o| unsafe { (installed_singles().rook)(s, o) },
    // SAFETY: the installed table holds only checked backends (`install`).
    bishop: |s, o| unsafe { (installed_singles().bishop)(s, o) },
    // SAFETY: the installed table holds only checked backends (`install`).
    queen: |s, o| unsafe { (installed_singles().queen)(s, o) },
};
static DETECT_BATCHES: Batches = Batches {
    // SAFETY: the installed table holds only checked backends (`install`).
    rook: |s, o, out| unsafe { (installed_batches().rook)(s, o, out) },
    // SAFETY: the installed table holds only checked backends (`install`).
    bishop: |s, o, out| unsafe { (installed_batches().bishop)(s, o, out) },
    // SAFETY: the installed table holds only checked backends (`install`).
    queen: |s, o, out| unsafe { (installed_batches().queen)(s, o, out) },
};
static DETECT_SETWISE: Setwise = Setwise {
    // SAFETY: the installed table holds only checked backends (`install`).
    rook: |r, o| unsafe { (installed_setwise().rook)(r, o) },
    // SAFETY: the installed table holds only checked backends (`install`).
    bishop: |b, o| unsafe { (installed_setwise().bishop)(b, o) },
    // SAFETY: the installed table holds only checked backends (`install`).
    queen: |q, o| unsafe { (installed_setwise().queen)(q, o) },
};

static SINGLES: AtomicPtr<Singles> = AtomicPtr::new(ptr_of(&DETECT_SINGLES));
static BATCHES: AtomicPtr<Batches> = AtomicPtr::new(ptr_of(&DETECT_BATCHES));
static SETWISE: AtomicPtr<Setwise> = AtomicPtr::new(ptr_of(&DETECT_SETWISE));

const fn ptr_of<T>(table: &'static T) -> *mut T {
    (table as *const T).cast_mut()
}

/// PEXT's relevant-occupancy masks (rooks, then bishops) while the single
/// lookups are `pext`'s, zeros otherwise: the free functions' fast path.
///
/// A free function loads its square's mask from here and, if it is not 0,
/// inlines the PEXT lookup with it (an `asm!` `pext`, which needs no target
/// feature on the caller); if it is 0 it takes the table path. So one load
/// both fetches the mask the lookup needs anyway and decides the path: no
/// extra load or flag per call (a separate flag cost 8-13 % of `pext`'s
/// throughput in tight loops on AMD Zen 4; `examples/free_functions.rs`).
/// Every square's masks are not 0, so 0 means "not PEXT". The words are 8
/// bytes apart, as `hq_pext`'s own masks and attack pointers are, so that
/// one square index scales inside the addressing mode for all of them.
///
/// Soundness: [`install`] stores the masks only for a choice whose single
/// backend is `pext`, after its CPU check, and zeros otherwise. Each word is
/// either 0 or its square's mask, whatever a concurrent reader sees, and a
/// lookup runs only with its masks non-zero.
///
/// One array per piece (the queen's holds rook masks, and decides the
/// queen's and the lines' path), so each piece's single lookups may have
/// their own backend.
#[cfg(target_arch = "x86_64")]
static PEXT_MASKS: [[AtomicU64; 64]; 3] = [const { [const { AtomicU64::new(0) }; 64] }; 3];

/// Arms (with `pext`'s masks) the PEXT path of each piece whose single
/// lookups are `pext`'s, and disarms (zeros) the others'.
#[cfg(target_arch = "x86_64")]
fn arm_pext(single: crate::choice::Pieces) {
    use hq_pext::Pext;
    for sq in Square::ALL {
        let mask = |slider: Slider, mask: u64| {
            if single.get(slider) == Backend::Pext {
                mask
            } else {
                0
            }
        };
        let (rook, bishop) = (Pext::rook_mask(sq), Pext::bishop_mask(sq));
        PEXT_MASKS[0][sq as usize].store(mask(Slider::Rook, rook), Ordering::Relaxed);
        PEXT_MASKS[1][sq as usize].store(mask(Slider::Bishop, bishop), Ordering::Relaxed);
        PEXT_MASKS[2][sq as usize].store(mask(Slider::Queen, rook), Ordering::Relaxed);
    }
}

/// The PEXT token for the free functions' fast path.
///
/// # Safety
///
/// Only with a non-zero mask from [`PEXT_MASKS`] in hand (stored only
/// after `pext` passed its CPU check).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn armed_pext() -> hq_pext::Pext {
    // SAFETY: the caller holds a non-zero armed mask.
    unsafe { <hq_pext::Pext as SliderAttacks>::new_unchecked() }
}

/// Whether this build's single lookups are PEXT's, fixed at compile time.
#[cfg(target_arch = "x86_64")]
const STATIC_PEXT: bool = matches!(STATIC_SINGLES, Some(Backend::Pext));

/// The PEXT token where this build's single lookups are fixed to PEXT
/// ([`STATIC_PEXT`]), else `None` (folded at compile time either way).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn static_pext() -> Option<hq_pext::Pext> {
    // SAFETY: only where `STATIC_PEXT` holds: the build enables x86-64-v4
    // everywhere, which includes PEXT's x86-64-v3, so the whole program
    // already requires every instruction the token allows.
    STATIC_PEXT.then(|| unsafe { <hq_pext::Pext as SliderAttacks>::new_unchecked() })
}

/// `slider`'s attacks by the inlined PEXT lookup, if its single lookups
/// are `pext`'s (`slider` is a constant at every call, so the matches fold).
/// The queen's armed rook mask decides for both of its halves, and the
/// bishop half uses the table's own mask (a second test would cost more
/// than it tells: an armed rook mask already proves that `pext` passed its
/// CPU check).
#[inline(always)]
fn pext_single(slider: Slider, sq: Square, occupancy: Bitboard) -> Option<Bitboard> {
    #[cfg(target_arch = "x86_64")]
    {
        if let Some(pext) = static_pext() {
            return Some(slider.single(pext, sq, occupancy));
        }
        let mask = PEXT_MASKS[slider as usize][sq as usize].load(Ordering::Relaxed);
        if mask != 0 {
            // SAFETY: a non-zero armed mask is the square's own rook or
            // bishop mask (`PEXT_MASKS`), stored only once `pext` passed its check.
            let pext = unsafe { armed_pext() };
            // SAFETY: as above, each masked lookup with its piece's mask.
            return Some(unsafe {
                match slider {
                    Slider::Rook => pext.rook_attacks_masked(sq, occupancy, mask),
                    Slider::Bishop => pext.bishop_attacks_masked(sq, occupancy, mask),
                    Slider::Queen => {
                        pext.rook_attacks_masked(sq, occupancy, mask)
                            | pext.bishop_attacks(sq, occupancy)
                    }
                }
            });
        }
    }
    let _ = (slider, sq, occupancy);
    None
}

/// Per piece (rook, bishop, queen): whether the installed batch entry is
/// `pext`'s. The batch free functions then run its loop inline, in the
/// caller's code (its lookups are `asm!` PEXT, which needs no target
/// feature), instead of calling the entry, whose call and setup showed
/// against `pext`'s own loop in a bishop batch (the `hq` and `pext` rows'
/// batch columns; the commit that added this has the figures).
///
/// Soundness: [`install`] sets a flag only for a plan whose backends were
/// checked, so only once `pext` passed its CPU check.
#[cfg(target_arch = "x86_64")]
static PEXT_BATCH: [AtomicBool; 3] = [const { AtomicBool::new(false) }; 3];

/// `slider`'s batch by `pext`'s loop, inlined, where [`PEXT_BATCH`] says
/// it is installed; `None` otherwise.
#[inline(always)]
pub(crate) fn inline_batch(
    slider: Slider,
    squares: &[Square],
    occupancy: Bitboard,
    out: &mut [Bitboard],
) -> Option<()> {
    #[cfg(target_arch = "x86_64")]
    if PEXT_BATCH[slider as usize].load(Ordering::Relaxed) {
        // SAFETY: the flag is set only once `pext` passed its check.
        unsafe { pext_batch(slider, squares, occupancy, out) };
        return Some(());
    }
    let _ = (slider, squares, occupancy, out);
    None
}

/// `slider`'s batch by `pext`'s loop as the free functions inline it
/// ([`PEXT_BATCH`]); also what the calibration times for `pext`'s batch cells.
///
/// # Safety
///
/// The CPU must support `pext` (its check passed).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn pext_batch(
    slider: Slider,
    squares: &[Square],
    occupancy: Bitboard,
    out: &mut [Bitboard],
) {
    // SAFETY: the caller's guarantee.
    let pext = unsafe { <hq_pext::Pext as SliderAttacks>::new_unchecked() };
    slider.batch(pext, squares, occupancy, out)
}

/// Per piece (rook, bishop, queen): whether the installed set-wise entry is
/// `avx512`'s own (no loop over single lookups). The set-wise free
/// functions then run its kernel inline, in the caller's loop, instead of
/// calling the installed entry; for rook and bishop sets the call is a
/// large part of the kernel's time (the `hq` and `avx512` rows' set-wise
/// columns). They run the `asm!` form that any caller may inline, baseline
/// code included (`Avx512::rook_attacks_setwise_in_any_caller`), in every
/// build: in one that enables x86-64-v4, inlining the token's kernel
/// instead measured slower (the native build's `hq` set-wise cells; the
/// commit that made the change has the figures).
///
/// Soundness: [`install`] sets a flag only for a plan whose backends were
/// checked, so only once `avx512` passed its CPU check; the flag chooses
/// between two ways to run that same backend.
#[cfg(target_arch = "x86_64")]
static AVX512_SETWISE: [AtomicBool; 3] = [const { AtomicBool::new(false) }; 3];

/// Arms, for `plan`, the kernels the free functions inline where their
/// backend is installed, and disarms the others: PEXT's single lookups
/// ([`arm_pext`]), [`PEXT_BATCH`] and [`AVX512_SETWISE`].
#[cfg(target_arch = "x86_64")]
fn arm_inlined_kernels(plan: &Plan) {
    arm_pext(plan.single);
    for (flag, slider) in PEXT_BATCH.iter().zip(Slider::ALL) {
        flag.store(plan.batch.get(slider) == Backend::Pext, Ordering::Relaxed);
    }
    for (flag, slider) in AVX512_SETWISE.iter().zip(Slider::ALL) {
        let (single, n) = (plan.single.get(slider), plan.setwise_loop.get(slider));
        let own = plan.setwise.get(slider) == Backend::Avx512
            && piece_loop(single, Backend::Avx512, n).is_none();
        flag.store(own, Ordering::Relaxed);
    }
}

/// `slider`'s set-wise attacks by `avx512`'s kernel, inlined, where
/// [`AVX512_SETWISE`] says it is installed; `None` otherwise.
#[inline(always)]
pub(crate) fn inline_setwise(
    slider: Slider,
    sliders: Bitboard,
    occupancy: Bitboard,
) -> Option<Bitboard> {
    #[cfg(target_arch = "x86_64")]
    if AVX512_SETWISE[slider as usize].load(Ordering::Relaxed) {
        // SAFETY: the flag is set only once `avx512` passed its check.
        return Some(unsafe { avx512_setwise(slider, sliders, occupancy) });
    }
    let _ = (slider, sliders, occupancy);
    None
}

/// `slider`'s set-wise attacks by `avx512`'s kernel as the free functions
/// inline it ([`AVX512_SETWISE`]): the `asm!` form for callers of any
/// level. Also what the calibration times for `avx512`'s set-wise cells.
///
/// # Safety
///
/// The CPU must support `avx512` (its check passed).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn avx512_setwise(
    slider: Slider,
    sliders: Bitboard,
    occupancy: Bitboard,
) -> Bitboard {
    // SAFETY: the caller's guarantee.
    let avx512 = unsafe { <hq_simd::Avx512 as SliderAttacks>::new_unchecked() };
    match slider {
        Slider::Rook => avx512.rook_attacks_setwise_in_any_caller(sliders, occupancy),
        Slider::Bishop => avx512.bishop_attacks_setwise_in_any_caller(sliders, occupancy),
        Slider::Queen => avx512.queen_attacks_setwise_in_any_caller(sliders, occupancy),
    }
}

/// Rook attacks by the inlined PEXT lookup ([`pext_single`]).
#[inline(always)]
pub(crate) fn pext_rook(sq: Square, occupancy: Bitboard) -> Option<Bitboard> {
    pext_single(Slider::Rook, sq, occupancy)
}

/// Bishop attacks by the inlined PEXT lookup ([`pext_single`]).
#[inline(always)]
pub(crate) fn pext_bishop(sq: Square, occupancy: Bitboard) -> Option<Bitboard> {
    pext_single(Slider::Bishop, sq, occupancy)
}

/// Queen attacks by the inlined PEXT lookups ([`pext_single`]).
#[inline(always)]
pub(crate) fn pext_queen(sq: Square, occupancy: Bitboard) -> Option<Bitboard> {
    pext_single(Slider::Queen, sq, occupancy)
}

/// Line attacks by the inlined PEXT lookup, if the single lookups are `pext`'s.
#[inline(always)]
pub(crate) fn pext_line(line: Line, sq: Square, occupancy: Bitboard) -> Option<Bitboard> {
    #[cfg(target_arch = "x86_64")]
    if let Some(pext) = static_pext() {
        return Some(pext.line_attacks(line, sq, occupancy));
    }
    #[cfg(target_arch = "x86_64")]
    if PEXT_MASKS[2][sq as usize].load(Ordering::Relaxed) != 0 {
        // SAFETY: the masks are armed only once `pext` passed its check.
        return Some(unsafe { armed_pext() }.line_attacks(line, sq, occupancy));
    }
    let _ = (line, sq, occupancy);
    None
}

/// The single lookups through the installed table, out of line and `#[cold]`
/// so that a caller's loop lays the inlined PEXT path out as its
/// fall-through (measured: with the two paths inline, LLVM placed the PEXT
/// block out of line with a jump back, 0.90-0.94x `pext`'s throughput in the
/// native build on AMD Zen 4). Off the PEXT path this costs a direct call
/// on top of the indirect one.
macro_rules! cold_singles {
    ($($name:ident($($arg:ident: $ty:ty),*) => $field:ident($($call:expr),*);)*) => {
        $(
            #[cold]
            #[inline(never)]
            pub(crate) fn $name($($arg: $ty),*) -> Bitboard {
                // SAFETY: the installed table's backend was checked (`install`).
                unsafe { (singles().$field)($($call),*) }
            }
        )*
    };
}

cold_singles! {
    cold_rook(sq: Square, occupancy: Bitboard) => rook(sq, occupancy);
    cold_bishop(sq: Square, occupancy: Bitboard) => bishop(sq, occupancy);
    cold_queen(sq: Square, occupancy: Bitboard) => queen(sq, occupancy);
    cold_line(line: Line, sq: Square, occupancy: Bitboard) => line(line, (sq, occupancy));
}

/// The installed single-lookup table (the detecting one before the first call).
#[inline(always)]
pub(crate) fn singles() -> &'static Singles {
    // SAFETY: SINGLES only ever holds pointers to `static` tables (the
    // detecting one, or one of `registry::tables`), never written.
    unsafe { &*SINGLES.load(Ordering::Acquire) }
}

/// The installed batch table.
#[inline(always)]
pub(crate) fn batches() -> &'static Batches {
    // SAFETY: as `singles`.
    unsafe { &*BATCHES.load(Ordering::Acquire) }
}

/// The installed set-wise table.
#[inline(always)]
pub(crate) fn setwise() -> &'static Setwise {
    // SAFETY: as `singles`.
    unsafe { &*SETWISE.load(Ordering::Acquire) }
}

#[cold]
fn installed_singles() -> &'static Singles {
    first_call();
    singles()
}

#[cold]
fn installed_batches() -> &'static Batches {
    first_call();
    batches()
}

#[cold]
fn installed_setwise() -> &'static Setwise {
    first_call();
    setwise()
}

// ---------------------------------------------------------------------------
// Forced builds.

const UNDECIDED: u8 = u8::MAX;

/// The backend of each piece of [`crate::latency`] (rook, bishop, queen),
/// as an index into [`Backend::ALL`]; [`UNDECIDED`] before the first call.
static LATENCY: [AtomicU8; 3] = [const { AtomicU8::new(UNDECIDED) }; 3];

/// The latency backend of `slider` as an index into [`Backend::ALL`],
/// deciding on first use. Only backends [`install`] checked are ever
/// stored. The index itself, not the `Backend`: the latency functions
/// compare it with their inlined backends' indexes, one compare each, on
/// the path of every call of a dependency chain.
#[inline(always)]
pub(crate) fn latency_index(slider: Slider) -> usize {
    let index = LATENCY[slider as usize].load(Ordering::Relaxed) as usize;
    if index < Backend::ALL.len() {
        index
    } else {
        latency_index_at_first_use(slider)
    }
}

/// [`latency_index`] before the first call: decides, then reads.
#[cold]
#[inline(never)]
fn latency_index_at_first_use(slider: Slider) -> usize {
    first_call();
    LATENCY[slider as usize].load(Ordering::Acquire) as usize
}

/// A forced build's backend of each entry-point group (single lookups,
/// batches, set-wise) and piece (rook, bishop, queen), as an index into
/// [`Backend::ALL`]; [`UNDECIDED`] before the first call.
static FORCED_BACKENDS: [[AtomicU8; 3]; 3] = [const { [const { AtomicU8::new(UNDECIDED) }; 3] }; 3];

/// Runs `job` on the forced winner of `group` for `slider`, deciding it on
/// first use.
#[inline(always)]
pub(crate) fn forced<W: WithBackend>(group: Group, slider: Slider, job: W) -> W::Output {
    let slot = &FORCED_BACKENDS[group as usize][slider as usize];
    let mut index = slot.load(Ordering::Relaxed);
    if index == UNDECIDED {
        first_call();
        index = slot.load(Ordering::Acquire);
    }
    let backend = Backend::ALL[index as usize];
    // SAFETY: `install` stores only backends `decide`/`set` checked.
    unsafe { registry::run_forced(backend, job) }
}

/// The set-wise table of a choice that loops over its single backend's
/// lookups below its set-wise backend ([`Choice::loops_setwise`]): one per
/// combination the choice table uses (`None` for any other; `benches/tests/choice.rs`
/// checks every row has its table, [`has_setwise_table`]).
fn looping_setwise(choice: Choice) -> Option<&'static Setwise> {
    if !choice.loops_setwise() {
        return None;
    }
    // Only x86-64 has both backends (elsewhere the table would link PEXT's
    // table into every program that calls the free functions).
    #[cfg(target_arch = "x86_64")]
    if (choice.single, choice.setwise, choice.setwise_loop) == (Backend::Pext, Backend::Avx512, 2) {
        return Some(const { &Setwise::looping::<hq_pext::Pext, hq_simd::Avx512, 2>() });
    }
    None
}

/// Whether the free functions have the set-wise table `choice` needs
/// (every row of the choice table must: `benches/tests/choice.rs`).
#[doc(hidden)]
pub fn has_setwise_table(choice: Choice) -> bool {
    !choice.loops_setwise() || looping_setwise(choice).is_some()
}
