//! Which backend serves which entry point, per class of CPU — the data the
//! run-time choice is made from, with the measurements behind each row.
//!
//! A CPU belongs to the first class in [`CLASSES`] whose vendor, family and
//! instruction-set level it has. Each class names one backend per entry
//! point: single lookups (`rook_attacks` ...), batches (`*_batch`) and
//! set-wise calls (`*_setwise`). The rows marked *measured* come from full
//! `cargo xtask bench-matrix` runs committed under `benches/results/<cpu-id>/`
//! (a test, `benches/tests/choice.rs`, checks that each such row still names the
//! fastest backend of its run); the other rows are fallbacks for CPUs no
//! run has measured yet, and say what they are inferred from.

use crate::Backend;
use hq_core::cpu::{Identity, Level, Vendor};

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

/// The backend of each piece for [`crate::latency`]: lookups in a
/// dependency chain, where a short path from occupancy to attacks matters
/// more than throughput.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Latency {
    /// `latency::rook_attacks`.
    pub rook: Backend,
    /// `latency::bishop_attacks`.
    pub bishop: Backend,
    /// `latency::queen_attacks` (and `latency::line_attacks`).
    pub queen: Backend,
}

impl Latency {
    /// The same backend for every piece.
    pub const fn all(backend: Backend) -> Latency {
        Latency {
            rook: backend,
            bishop: backend,
            queen: backend,
        }
    }
}

impl core::fmt::Display for Latency {
    /// `rook / bishop / queen`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} / {} / {}", self.rook, self.bishop, self.queen)
    }
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
    /// Where the choice comes from: the committed runs (cpu ids under
    /// `benches/results/`) that measured it, or what it is inferred from.
    pub evidence: &'static str,
    /// The cpu ids of the committed runs of this class (empty: not measured).
    pub measured_on: &'static [&'static str],
}

impl ClassChoice {
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
        evidence: "measured: benches/results/intel-r-xeon-r-processor-f6-ma7-s1 (rows pext \
                   and avx512, runtime build, columns throughput, batch and set-wise; set-wise \
                   with 1-2 sliders: the per-piece rows; latency: every backend row's latency \
                   column)",
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
            batch: Avx512,
            setwise: Avx512,
            setwise_loop: 2,
        },
        latency: Latency::all(ScalarRankTable),
        evidence: "measured: benches/results/amd-epyc-f19-m11-s1 (AMD EPYC, Zen 4; rows \
                   pext, avx512 and the per-piece loops, runtime build, columns throughput, \
                   batch and set-wise; latency: every backend row's latency column); Zen 5 not \
                   committed",
        measured_on: &["amd-epyc-f19-m11-s1"],
    },
    ClassChoice {
        name: "amd-zen3",
        description: "AMD Zen 3 (family 0x19 without AVX-512)",
        vendors: AMD,
        families: (0x19, 0x19),
        level: Level::X86V3,
        fast_pext: Some(true),
        choice: Choice {
            single: Pext,
            batch: Avx2,
            setwise: Pext,
            setwise_loop: 0,
        },
        latency: Latency::all(ScalarRankTable),
        evidence: "measured on Zen 3 before PEXT was a backend (the README's first matrix: \
                   the PEXT reference 491 M queens/s against 374 for avx2; avx2 batches 626 \
                   against 537; PEXT per-piece set-wise 320 against 177), not committed",
        measured_on: &[],
    },
    ClassChoice {
        name: "amd-slow-pext",
        description: "AMD before Zen 3 with BMI2 (Excavator, Zen 1, Zen 2): PEXT is microcoded",
        vendors: AMD,
        families: ANY_FAMILY,
        level: Level::X86V3,
        fast_pext: Some(false),
        choice: Choice::all(Avx2),
        latency: Latency::all(ScalarRankTable),
        evidence: "not measured; PEXT excluded (microcoded, 18+ cycles); avx2 was the fastest \
                   HQ backend for every entry point on Zen 3",
        measured_on: &[],
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
        choice: Choice {
            single: Pext,
            batch: Avx2,
            setwise: Pext,
            setwise_loop: 0,
        },
        latency: Latency::all(ScalarRankTable),
        evidence: "not measured; as the Zen 3 class",
        measured_on: &[],
    },
    ClassChoice {
        name: "x86-64-v3-slow-pext",
        description: "other x86-64 CPUs with AVX2 and a slow PEXT",
        vendors: &[],
        families: ANY_FAMILY,
        level: Level::X86V3,
        fast_pext: Some(false),
        choice: Choice::all(Avx2),
        latency: Latency::all(ScalarRankTable),
        evidence: "not measured; as the AMD slow-PEXT class",
        measured_on: &[],
    },
    ClassChoice {
        name: "x86-64-v2",
        description: "x86-64 CPUs with SSSE3 and SSE4.2, without AVX2",
        vendors: &[],
        families: ANY_FAMILY,
        level: Level::X86V2,
        fast_pext: None,
        choice: Choice::all(Ssse3),
        latency: Latency::all(ScalarRankTable),
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
        if level_on_this_target(class.level)
            && (c.single as u8 == backend as u8
                || c.batch as u8 == backend as u8
                || c.setwise as u8 == backend as u8)
        {
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
