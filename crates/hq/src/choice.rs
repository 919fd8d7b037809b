//! Which backend serves which entry point, per class of CPU — the data the
//! run-time choice is made from, with the measurements behind each row.
//!
//! A CPU belongs to the first class in [`CLASSES`] whose vendor, family and
//! instruction-set level it has. Each class names one backend per entry
//! point: single lookups (`rook_attacks` ...), batches (`*_batch`) and
//! set-wise calls (`*_setwise`), and per piece where a measurement shows
//! a piece faster on another backend ([`ClassChoice::per_piece`]: rook
//! batches on `avx512` where bishop and queen batches are fastest on
//! `pext`). The rows marked *measured* come from full
//! `cargo xtask bench-matrix` runs committed under `benches/results/<cpu-id>/`
//! (a test, `benches/tests/choice.rs`, checks that each such row still names the
//! fastest backend of its run); the other rows are fallbacks for CPUs no
//! run has measured yet, and say what they are inferred from.

use crate::Backend;
use hq_core::cpu::{Identity, Level, Vendor};
use hq_core::{Bitboard, SliderAttacks, Square};

/// The backend of each entry point.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Choice {
    /// `rook_attacks`, `bishop_attacks`, `queen_attacks`, `line_attacks`.
    pub single: Backend,
    /// `*_attacks_batch`.
    pub batch: Backend,
    /// `*_attacks_setwise`.
    pub setwise: Backend,
    /// Set-wise calls with at most this many sliders loop over the `single`
    /// backend's lookups instead (0: never): below the crossover a few of
    /// the fastest single lookups beat the set-wise kernel. Only where the
    /// two backends differ (a backend's own set-wise entry already makes its
    /// own crossover).
    pub setwise_loop: u32,
}

impl Choice {
    /// The same backend for every entry point.
    pub const fn all(backend: Backend) -> Choice {
        Choice {
            single: backend,
            batch: backend,
            setwise: backend,
            setwise_loop: 0,
        }
    }

    /// The set-wise loop in force: [`Choice::setwise_loop`] where the single
    /// and set-wise backends differ, else 0.
    pub const fn effective_setwise_loop(&self) -> u32 {
        if self.single as u8 == self.setwise as u8 {
            0
        } else {
            self.setwise_loop
        }
    }

    /// Whether set-wise calls loop over the single backend's lookups up to
    /// [`Choice::setwise_loop`] sliders.
    pub const fn loops_setwise(&self) -> bool {
        self.effective_setwise_loop() > 0
    }
}

impl core::fmt::Display for Choice {
    /// `single / batch / set-wise`, the set-wise part with its loop if any:
    /// `pext / pext / avx512 (pext up to 2 sliders)`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} / {} / {}", self.single, self.batch, self.setwise)?;
        if self.loops_setwise() {
            write!(f, " ({} up to {} sliders)", self.single, self.setwise_loop)?;
        }
        Ok(())
    }
}

/// A piece with slider moves: what a [`Pieces`] choice is indexed by.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Slider {
    /// Rank and file moves.
    Rook,
    /// Diagonal moves.
    Bishop,
    /// Both (and `line_attacks`, which follows the queen's backend).
    Queen,
}

impl Slider {
    /// Rook, bishop, queen.
    pub const ALL: [Slider; 3] = [Slider::Rook, Slider::Bishop, Slider::Queen];

    /// `rook`, `bishop` or `queen` (as in [`Plan`]'s text form).
    pub const fn name(self) -> &'static str {
        match self {
            Slider::Rook => "rook",
            Slider::Bishop => "bishop",
            Slider::Queen => "queen",
        }
    }

    /// `backend`'s single lookup of this piece (a constant where the
    /// dispatch calls it, so the match folds away).
    #[inline(always)]
    pub(crate) fn single<B: SliderAttacks>(
        self,
        backend: B,
        sq: Square,
        occ: Bitboard,
    ) -> Bitboard {
        match self {
            Slider::Rook => backend.rook_attacks(sq, occ),
            Slider::Bishop => backend.bishop_attacks(sq, occ),
            Slider::Queen => backend.queen_attacks(sq, occ),
        }
    }

    /// `backend`'s batch of this piece.
    #[inline(always)]
    pub(crate) fn batch<B: SliderAttacks>(
        self,
        backend: B,
        squares: &[Square],
        occ: Bitboard,
        out: &mut [Bitboard],
    ) {
        match self {
            Slider::Rook => backend.rook_attacks_batch(squares, occ, out),
            Slider::Bishop => backend.bishop_attacks_batch(squares, occ, out),
            Slider::Queen => backend.queen_attacks_batch(squares, occ, out),
        }
    }

    /// `backend`'s set-wise call of this piece.
    #[inline(always)]
    pub(crate) fn setwise<B: SliderAttacks>(
        self,
        backend: B,
        set: Bitboard,
        occ: Bitboard,
    ) -> Bitboard {
        match self {
            Slider::Rook => backend.rook_attacks_setwise(set, occ),
            Slider::Bishop => backend.bishop_attacks_setwise(set, occ),
            Slider::Queen => backend.queen_attacks_setwise(set, occ),
        }
    }
}

/// One value per slider piece: the backend of one entry point (single
/// lookups, batches, set-wise calls or [`crate::latency`]) in a [`Plan`],
/// or its set-wise loop.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Pieces<T = Backend> {
    /// Rook attacks.
    pub rook: T,
    /// Bishop attacks.
    pub bishop: T,
    /// Queen attacks (and line attacks).
    pub queen: T,
}

/// The backend of each piece for [`crate::latency`]: lookups in a
/// dependency chain, where a short path from occupancy to attacks matters
/// more than throughput.
pub type Latency = Pieces;

impl<T: Copy + PartialEq> Pieces<T> {
    /// The same value for every piece.
    pub const fn all(value: T) -> Pieces<T> {
        Pieces {
            rook: value,
            bishop: value,
            queen: value,
        }
    }

    /// The value of `slider`.
    pub const fn get(&self, slider: Slider) -> T {
        match slider {
            Slider::Rook => self.rook,
            Slider::Bishop => self.bishop,
            Slider::Queen => self.queen,
        }
    }

    /// Sets the value of `slider`.
    pub const fn set(&mut self, slider: Slider, value: T) {
        match slider {
            Slider::Rook => self.rook = value,
            Slider::Bishop => self.bishop = value,
            Slider::Queen => self.queen = value,
        }
    }

    /// The one value of every piece, if they agree.
    pub fn uniform(&self) -> Option<T> {
        (self.rook == self.bishop && self.bishop == self.queen).then_some(self.rook)
    }

    /// Each piece's value through `f`.
    pub fn map<U>(self, mut f: impl FnMut(Slider, T) -> U) -> Pieces<U> {
        Pieces {
            rook: f(Slider::Rook, self.rook),
            bishop: f(Slider::Bishop, self.bishop),
            queen: f(Slider::Queen, self.queen),
        }
    }
}

impl<T: Copy + PartialEq + core::fmt::Display> Pieces<T> {
    /// One value where the pieces agree (`pext`), else each with its piece
    /// (`pext (rook) / avx512 (bishop) / pext (queen)`).
    pub fn compact(&self) -> impl core::fmt::Display + '_ {
        struct Compact<'a, T>(&'a Pieces<T>);
        impl<T: Copy + PartialEq + core::fmt::Display> core::fmt::Display for Compact<'_, T> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                let p = self.0;
                match p.uniform() {
                    Some(v) => write!(f, "{v}"),
                    None => write!(
                        f,
                        "{} (rook) / {} (bishop) / {} (queen)",
                        p.rook, p.bishop, p.queen
                    ),
                }
            }
        }
        Compact(self)
    }
}

impl<T: core::fmt::Display> core::fmt::Display for Pieces<T> {
    /// `rook / bishop / queen`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} / {} / {}", self.rook, self.bishop, self.queen)
    }
}

/// The entry points a plan chooses for (the groups of [`Plan`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Entry {
    /// `rook_attacks` ... (throughput: independent lookups).
    Single,
    /// `latency::rook_attacks` ... (each occupancy depends on the previous
    /// result).
    Latency,
    /// `*_attacks_batch`.
    Batch,
    /// `*_attacks_setwise`.
    Setwise,
}

impl Entry {
    /// Every entry point, in the [`Plan`] text form's order.
    pub const ALL: [Entry; 4] = [Entry::Single, Entry::Batch, Entry::Setwise, Entry::Latency];

    /// `single`, `batch`, `setwise` or `latency`.
    pub const fn name(self) -> &'static str {
        match self {
            Entry::Single => "single",
            Entry::Latency => "latency",
            Entry::Batch => "batch",
            Entry::Setwise => "setwise",
        }
    }
}

/// The backend of each entry point *and* piece: what the free functions
/// run. A class's [`Choice`] and [`Latency`] make a plan with the same
/// backend for every piece ([`Plan::of_class`]); a calibration
/// (`hq::calibrate`) or `HQ_CHOICE` may pick per piece.
///
/// Its text form lists `group=backend` items (group `single`, `batch`,
/// `setwise`, `latency`), a group whose pieces differ as
/// `group.rook=…,group.bishop=…,group.queen=…`, and `setwise.loop=N`:
///
/// ```
/// use hq::{Backend, Plan};
///
/// let plan = Plan::all(Backend::ScalarRankTable);
/// let text = plan.to_string();
/// assert_eq!(
///     text,
///     "single=scalar-rank-table,batch=scalar-rank-table,setwise=scalar-rank-table,\
///      setwise.loop=0,latency=scalar-rank-table"
/// );
/// # #[cfg(feature = "std")]
/// assert_eq!(text.parse::<Plan>().unwrap(), plan);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Plan {
    /// `rook_attacks`, `bishop_attacks`, `queen_attacks` (and `line_attacks`,
    /// on the queen's backend).
    pub single: Pieces,
    /// `*_attacks_batch`.
    pub batch: Pieces,
    /// `*_attacks_setwise`.
    pub setwise: Pieces,
    /// Set-wise calls of a piece with at most this many sliders loop over
    /// the piece's `single` backend (0: never), where that differs from its
    /// set-wise backend and the free functions have the combination (see
    /// [`Choice::setwise_loop`]).
    pub setwise_loop: Pieces<u32>,
    /// [`crate::latency`].
    pub latency: Pieces,
}

impl Plan {
    /// The same backend everywhere.
    pub const fn all(backend: Backend) -> Plan {
        Plan::of_class(Choice::all(backend), Pieces::all(backend))
    }

    /// The plan of a class's choice and latency choice.
    pub const fn of_class(choice: Choice, latency: Latency) -> Plan {
        Plan {
            single: Pieces::all(choice.single),
            batch: Pieces::all(choice.batch),
            setwise: Pieces::all(choice.setwise),
            setwise_loop: Pieces::all(choice.setwise_loop),
            latency,
        }
    }

    /// The queen's backend of each entry point (the per-entry-point summary,
    /// and what jobs of [`crate::with_active_backend`] are compiled for).
    pub const fn choice(&self) -> Choice {
        Choice {
            single: self.single.queen,
            batch: self.batch.queen,
            setwise: self.setwise.queen,
            setwise_loop: self.setwise_loop.queen,
        }
    }

    /// The groups by their text names.
    const fn groups(&self) -> [(&'static str, Pieces); 4] {
        [
            ("single", self.single),
            ("batch", self.batch),
            ("setwise", self.setwise),
            ("latency", self.latency),
        ]
    }

    /// The plan with `piece`'s backend for its entry point and piece.
    pub const fn with(mut self, piece: PieceChoice) -> Plan {
        let PieceChoice {
            entry,
            slider,
            backend,
        } = piece;
        match entry {
            Entry::Single => self.single.set(slider, backend),
            Entry::Batch => self.batch.set(slider, backend),
            Entry::Setwise => self.setwise.set(slider, backend),
            Entry::Latency => self.latency.set(slider, backend),
        }
        self
    }

    /// Every backend the plan names.
    pub fn backends(&self) -> impl Iterator<Item = Backend> + '_ {
        self.groups()
            .into_iter()
            .flat_map(|(_, p)| [p.rook, p.bishop, p.queen])
    }
}

/// `key=value` where the pieces agree, else `key.rook=…,key.bishop=…,key.queen=…`.
fn write_items<T: Copy + PartialEq + core::fmt::Display>(
    f: &mut core::fmt::Formatter<'_>,
    key: &str,
    pieces: Pieces<T>,
) -> core::fmt::Result {
    match pieces.uniform() {
        Some(v) => write!(f, "{key}={v}"),
        None => write!(
            f,
            "{key}.rook={},{key}.bishop={},{key}.queen={}",
            pieces.rook, pieces.bishop, pieces.queen
        ),
    }
}

impl core::fmt::Display for Plan {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for (i, (group, pieces)) in self.groups().into_iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write_items(f, group, pieces)?;
            if group == "setwise" {
                f.write_str(",")?;
                write_items(f, "setwise.loop", self.setwise_loop)?;
            }
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl Plan {
    /// Applies the items of `text` (the [`Plan`] text form, any subset of
    /// it, in any order; spaces around items are ignored) over this plan.
    pub fn apply(&mut self, text: &str) -> Result<(), crate::BackendError> {
        self.apply_tracked(text, &mut [[false; 3]; 4], &mut [false; 3])
    }

    /// [`Plan::apply`], marking in `seen` each (group, piece) set and in
    /// `loop_seen` whether `setwise.loop` was.
    fn apply_tracked(
        &mut self,
        text: &str,
        seen: &mut [[bool; 3]; 4],
        loop_seen: &mut [bool; 3],
    ) -> Result<(), crate::BackendError> {
        use std::string::ToString;
        let bad = |item: &str, why: &str| crate::BackendError::BadPlan {
            item: item.to_string(),
            why: why.to_string(),
        };
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| bad(item, "expected key=value"))?;
            let (group, piece) = match key.trim().split_once('.') {
                Some((g, p)) => (g.trim(), Some(p.trim())),
                None => (key.trim(), None),
            };
            let value = value.trim();
            let slider = |name: &str| {
                Slider::ALL
                    .into_iter()
                    .enumerate()
                    .find(|(_, s)| s.name() == name)
                    .ok_or_else(|| bad(item, "the pieces are rook, bishop and queen"))
            };
            if let (Some(rest), "setwise") = (piece.and_then(|p| p.strip_prefix("loop")), group) {
                let count: u32 = value
                    .parse()
                    .map_err(|_| bad(item, "setwise.loop takes a slider count (0: never)"))?;
                match rest.strip_prefix('.') {
                    None if rest.is_empty() => {
                        self.setwise_loop = Pieces::all(count);
                        *loop_seen = [true; 3];
                    }
                    Some(name) => {
                        let (i, s) = slider(name.trim())?;
                        self.setwise_loop.set(s, count);
                        loop_seen[i] = true;
                    }
                    None => return Err(bad(item, "expected setwise.loop or setwise.loop.<piece>")),
                }
                continue;
            }
            let (index, pieces) = match group {
                "single" => (0, &mut self.single),
                "batch" => (1, &mut self.batch),
                "setwise" => (2, &mut self.setwise),
                "latency" => (3, &mut self.latency),
                _ => {
                    return Err(bad(
                        item,
                        "the groups are single, batch, setwise and latency",
                    ));
                }
            };
            let backend = Backend::from_name(value).map_err(|e| bad(item, &e.to_string()))?;
            match piece {
                None => {
                    *pieces = Pieces::all(backend);
                    seen[index] = [true; 3];
                }
                Some(p) => {
                    let (i, slider) = slider(p)?;
                    pieces.set(slider, backend);
                    seen[index][i] = true;
                }
            }
        }
        Ok(())
    }
}

/// Parses the whole text form: every group and piece, and `setwise.loop`,
/// must be given ([`Plan::apply`] takes a subset over another plan).
#[cfg(feature = "std")]
impl core::str::FromStr for Plan {
    type Err = crate::BackendError;
    fn from_str(text: &str) -> Result<Plan, crate::BackendError> {
        let mut plan = Plan::all(Backend::Classic);
        let (mut seen, mut loop_seen) = ([[false; 3]; 4], [false; 3]);
        plan.apply_tracked(text, &mut seen, &mut loop_seen)?;
        let missing = plan
            .groups()
            .into_iter()
            .zip(seen)
            .flat_map(|((group, _), seen)| {
                Slider::ALL
                    .into_iter()
                    .zip(seen)
                    .filter(|(_, s)| !s)
                    .map(move |(slider, _)| std::format!("{group}.{}", slider.name()))
            })
            .chain(
                Slider::ALL
                    .into_iter()
                    .zip(loop_seen)
                    .filter(|(_, s)| !s)
                    .map(|(slider, _)| std::format!("setwise.loop.{}", slider.name())),
            )
            .collect::<std::vec::Vec<_>>();
        if !missing.is_empty() {
            return Err(crate::BackendError::BadPlan {
                item: text.into(),
                why: std::format!("it does not give {}", missing.join(", ")),
            });
        }
        Ok(plan)
    }
}

/// One piece's backend for one entry point: a class's exception to its
/// per-entry-point [`Choice`], where a measurement shows that piece faster
/// on another backend (on an Intel Xeon of model 0xa7, rook batches are
/// fastest on `avx512` while bishop and queen batches are on `pext`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PieceChoice {
    /// The entry point.
    pub entry: Entry,
    /// The piece.
    pub slider: Slider,
    /// Its backend.
    pub backend: Backend,
}

/// A class of CPUs and its choice.
#[derive(Clone, Copy, Debug)]
pub struct ClassChoice {
    /// A short stable name (`intel-avx512`, ...).
    pub name: &'static str,
    /// Which CPUs these are, for people.
    pub description: &'static str,
    /// The vendors of the class (empty: any).
    pub vendors: &'static [Vendor],
    /// The display families of the class, inclusive (`(0, u32::MAX)`: any).
    pub families: (u32, u32),
    /// The instruction-set level the class needs.
    pub level: Level,
    /// `Some(true)`: only CPUs with a fast PEXT; `Some(false)`: only those
    /// without; `None`: either.
    pub fast_pext: Option<bool>,
    /// The backends.
    pub choice: Choice,
    /// The backends of [`crate::latency`], per piece (the `latency` column
    /// of the measured runs; portable scalar backends where inferred).
    pub latency: Latency,
    /// Per-piece exceptions to `choice` (and `latency`), each backed by the
    /// committed runs of `measured_on`. Builds without `std` choose per
    /// entry point and ignore them.
    pub per_piece: &'static [PieceChoice],
    /// Where the choice comes from: the committed runs (cpu ids under
    /// `benches/results/`) that measured it, or what it is inferred from.
    pub evidence: &'static str,
    /// The cpu ids of the committed runs of this class (empty: not measured).
    pub measured_on: &'static [&'static str],
}

impl ClassChoice {
    /// The class's plan: [`ClassChoice::choice`] and
    /// [`ClassChoice::latency`] for every piece, then the exceptions of
    /// [`ClassChoice::per_piece`].
    pub const fn plan(&self) -> Plan {
        let mut plan = Plan::of_class(self.choice, self.latency);
        let mut i = 0;
        while i < self.per_piece.len() {
            plan = plan.with(self.per_piece[i]);
            i += 1;
        }
        plan
    }

    /// Whether a CPU with `identity`, on which `has_level` tells which
    /// levels are present, belongs to the class.
    pub fn matches(&self, identity: Identity, has_level: impl Fn(Level) -> bool) -> bool {
        (self.vendors.is_empty() || self.vendors.contains(&identity.vendor))
            && (self.families.0..=self.families.1).contains(&identity.family)
            && has_level(self.level)
            && self
                .fast_pext
                .is_none_or(|fast| fast == identity.has_fast_pext())
    }
}

use Backend::*;

const ANY_FAMILY: (u32, u32) = (0, u32::MAX);
const AMD: &[Vendor] = &[Vendor::Amd, Vendor::Hygon];

/// PEXT for single lookups and set-wise calls, AVX2 batches: Zen 3's
/// choice, which other AVX2 CPUs with a fast PEXT inherit.
const ZEN3: Choice = Choice {
    single: Pext,
    batch: Avx2,
    setwise: Pext,
    setwise_loop: 0,
};

/// AVX2 CPUs with a slow (microcoded) PEXT: AVX2 for every entry point. The
/// AMD class of such CPUs is this one with its vendor and evidence.
const V3_SLOW_PEXT: ClassChoice = ClassChoice {
    name: "x86-64-v3-slow-pext",
    description: "other x86-64 CPUs with AVX2 and a slow PEXT",
    vendors: &[],
    families: ANY_FAMILY,
    level: Level::X86V3,
    fast_pext: Some(false),
    choice: Choice::all(Avx2),
    latency: Latency::all(ScalarRankTable),
    per_piece: &[],
    evidence: "not measured; as the AMD slow-PEXT class",
    measured_on: &[],
};

/// The classes, most specific first; the last ones match every CPU of their level.
pub const CLASSES: &[ClassChoice] = &[
    ClassChoice {
        name: "intel-avx512",
        description: "Intel with AVX-512 and GFNI (Ice Lake and later)",
        vendors: &[Vendor::Intel],
        families: ANY_FAMILY,
        level: Level::X86V4,
        fast_pext: None,
        choice: Choice {
            single: Pext,
            batch: Pext,
            setwise: Avx512,
            setwise_loop: 2,
        },
        latency: Latency {
            rook: ScalarRankTable,
            bishop: Pext,
            queen: ScalarRankTable,
        },
        per_piece: &[PieceChoice {
            entry: Entry::Batch,
            slider: Slider::Rook,
            backend: Avx512,
        }],
        evidence: "measured: benches/results/intel-r-xeon-r-processor-f6-ma7-s1 (rows pext \
                   and avx512, runtime build, columns throughput, batch and set-wise, each \
                   piece's batch on its own; set-wise with 1-2 sliders: the per-piece rows; \
                   latency: every backend row's latency column)",
        measured_on: &["intel-r-xeon-r-processor-f6-ma7-s1"],
    },
    ClassChoice {
        name: "amd-avx512",
        description: "AMD with AVX-512 (Zen 4, Zen 5)",
        vendors: AMD,
        families: (0x19, u32::MAX),
        level: Level::X86V4,
        fast_pext: Some(true),
        choice: Choice {
            single: Pext,
            batch: Pext,
            setwise: Avx512,
            setwise_loop: 0,
        },
        latency: Latency::all(ScalarRankTable),
        per_piece: &[PieceChoice {
            entry: Entry::Batch,
            slider: Slider::Rook,
            backend: Avx512,
        }],
        evidence: "measured: benches/results/amd-epyc-f19-m11-s1 (AMD EPYC, Zen 4; rows \
                   pext, avx512 and the per-piece loops, runtime build, columns throughput, \
                   batch and set-wise, each piece's batch on its own; latency: every backend \
                   row's latency column); Zen 5 not committed",
        measured_on: &["amd-epyc-f19-m11-s1"],
    },
    ClassChoice {
        name: "amd-zen3",
        description: "AMD Zen 3 (family 0x19 without AVX-512)",
        vendors: AMD,
        families: (0x19, 0x19),
        level: Level::X86V3,
        fast_pext: Some(true),
        choice: ZEN3,
        latency: Latency::all(ScalarRankTable),
        per_piece: &[],
        evidence: "measured on Zen 3 before PEXT was a backend (the README's first matrix: \
                   the PEXT reference 491 M queens/s against 374 for avx2; avx2 batches 626 \
                   against 537; PEXT per-piece set-wise 320 against 177), not committed",
        measured_on: &[],
    },
    ClassChoice {
        name: "amd-slow-pext",
        description: "AMD before Zen 3 with BMI2 (Excavator, Zen 1, Zen 2): PEXT is microcoded",
        vendors: AMD,
        evidence: "not measured; PEXT excluded (microcoded, 18+ cycles); avx2 was the fastest \
                   HQ backend for every entry point on Zen 3",
        ..V3_SLOW_PEXT
    },
    ClassChoice {
        name: "x86-64-v4",
        description: "other x86-64 CPUs with AVX-512 and GFNI",
        vendors: &[],
        families: ANY_FAMILY,
        level: Level::X86V4,
        fast_pext: Some(true),
        choice: Choice {
            single: Pext,
            batch: Avx512,
            setwise: Avx512,
            setwise_loop: 2,
        },
        latency: Latency::all(ScalarRankTable),
        per_piece: &[],
        evidence: "not measured; as the measured Intel AVX-512 class",
        measured_on: &[],
    },
    ClassChoice {
        name: "x86-64-v3",
        description: "other x86-64 CPUs with AVX2 and a fast PEXT",
        vendors: &[],
        families: ANY_FAMILY,
        level: Level::X86V3,
        fast_pext: Some(true),
        choice: ZEN3,
        latency: Latency::all(ScalarRankTable),
        per_piece: &[],
        evidence: "not measured; as the Zen 3 class",
        measured_on: &[],
    },
    V3_SLOW_PEXT,
    ClassChoice {
        name: "x86-64-v2",
        description: "x86-64 CPUs with SSSE3 and SSE4.2, without AVX2",
        vendors: &[],
        families: ANY_FAMILY,
        level: Level::X86V2,
        fast_pext: None,
        choice: Choice::all(Ssse3),
        latency: Latency::all(ScalarRankTable),
        per_piece: &[],
        evidence: "not measured on such a CPU; ssse3 beat the scalar backends on Zen 3 in \
                   throughput and batches",
        measured_on: &[],
    },
    ClassChoice {
        name: "aarch64",
        description: "AArch64 (NEON is part of the architecture)",
        vendors: &[],
        families: ANY_FAMILY,
        level: Level::Neon,
        fast_pext: None,
        choice: Choice {
            single: Neon,
            batch: Neon,
            setwise: ScalarRankTable,
            setwise_loop: 0,
        },
        latency: Latency::all(ScalarRankTable),
        per_piece: &[],
        evidence: "not timed: instruction counts of the cross-compiled kernels (rustc 1.95, \
                   --release, aarch64-unknown-linux-gnu; rook/bishop/queen): single lookups \
                   neon 21/19/35 against scalar-rank-table 27/22/42 and scalar-reverse \
                   30/30/40; batches per square neon 19/17/32 against 25/20/39 and 28/28/36; \
                   set-wise (executed under qemu, 1-2, 5 and 10 sliders) scalar-rank-table \
                   59/52/81, 67/67/127, 67/67/127 against neon 50.5/47.5/79, 89/89/186, \
                   89/89/186 (geometric means 76 against 91); see the README's Platforms",
        measured_on: &[],
    },
    ClassChoice {
        name: "wasm32-simd128",
        description: "WebAssembly built with +simd128",
        vendors: &[],
        families: ANY_FAMILY,
        level: Level::Simd128,
        fast_pext: None,
        choice: Choice::all(Simd128),
        latency: Latency::all(Classic),
        per_piece: &[],
        evidence: "not timed: instruction counts of the compiled kernels (wasm operators, \
                   rustc 1.95, --release, +simd128; rook/bishop/queen): single lookups \
                   simd128 60/33/82 against classic 68/68/132 and scalar-rank-table \
                   171/253/373 (wasm has no byte swap or bit reversal); batches per square \
                   simd128 71/48/92 against classic 85/85/149; set-wise (executed, 1-2, 5 \
                   and 10 sliders: loops of simd128 lookups, then the scalar fill) geometric \
                   mean 177 against 208 for scalar-reverse",
        measured_on: &[],
    },
    // wasm32 has no run-time detection and no level to tell a portable
    // build by, so this row exists in wasm32 builds only: without simd128
    // the byte swaps and bit reversals of the HQ backends are open-coded.
    #[cfg(target_arch = "wasm32")]
    ClassChoice {
        name: "wasm32",
        description: "WebAssembly without simd128: portable code only",
        vendors: &[],
        families: ANY_FAMILY,
        level: Level::Baseline,
        fast_pext: None,
        choice: Choice {
            single: Classic,
            batch: Classic,
            setwise: ScalarReverse,
            setwise_loop: 0,
        },
        latency: Latency::all(Classic),
        per_piece: &[],
        evidence: "not timed: instruction counts of the compiled kernels (wasm operators, \
                   rustc 1.95, --release; rook/bishop/queen): single lookups classic \
                   68/68/132 against scalar-rank-table 171/253/373 and scalar-reverse \
                   216/216/256 (no byte swap or bit reversal instruction); batches per square \
                   classic 85/85/149 against scalar-reverse 158/158/198; set-wise (executed, \
                   1-2, 5 and 10 sliders) scalar-reverse's fill 164-320 whatever the number \
                   against classic 141-1627 (geometric means 208 against 456)",
        measured_on: &[],
    },
    ClassChoice {
        name: "baseline",
        description: "any other CPU: portable code only",
        vendors: &[],
        families: ANY_FAMILY,
        level: Level::Baseline,
        fast_pext: None,
        choice: Choice::all(ScalarRankTable),
        latency: Latency::all(ScalarRankTable),
        per_piece: &[],
        evidence: "scalar-rank-table was the fastest portable backend on every CPU measured",
        measured_on: &[],
    },
];

/// Whether a class for `level` can match a CPU this build runs on: its level
/// is portable or of this build's architecture.
const fn level_on_this_target(level: Level) -> bool {
    let Some(arch) = level.arch() else {
        return true;
    };
    let (a, b) = (arch.as_bytes(), hq_core::cpu::TARGET_ARCH.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether some class of this build's target chooses `backend` for some
/// entry point: the backends the free functions' run-time dispatch links.
pub const fn chosen_on_this_target(backend: Backend) -> bool {
    let mut i = 0;
    while i < CLASSES.len() {
        let class = &CLASSES[i];
        let c = class.choice;
        let mut named = c.single as u8 == backend as u8
            || c.batch as u8 == backend as u8
            || c.setwise as u8 == backend as u8;
        let mut j = 0;
        while j < class.per_piece.len() {
            let piece = class.per_piece[j];
            named |= !matches!(piece.entry, Entry::Latency) && piece.backend as u8 == backend as u8;
            j += 1;
        }
        if level_on_this_target(class.level) && named {
            return true;
        }
        i += 1;
    }
    false
}

/// The class of a CPU with `identity` and levels `has_level`.
pub fn classify(identity: Identity, has_level: impl Fn(Level) -> bool) -> &'static ClassChoice {
    CLASSES
        .iter()
        .find(|c| c.matches(identity, &has_level))
        .expect("the baseline class matches every CPU")
}

/// The class of the running CPU.
pub fn this_cpu() -> &'static ClassChoice {
    classify(Identity::detect(), Level::is_detected)
}
