//! Which backend serves which entry point, per class of CPU: the data the
//! choice is made from, with the measurements behind each row.
//!
//! A CPU belongs to the first class in [`CLASSES`] whose vendor, family and
//! instruction-set level it has. The rows marked *measured* come from full
//! `cargo xtask bench-matrix` runs committed under
//! `benches/results/<cpu-id>/` (`benches/format/tests/choice.rs` checks each
//! against its runs); the others are fallbacks for CPUs no run has
//! measured, and say what they are inferred from.

use crate::plan::{Entry, Pieces, Plan, Slider};
use crate::registry::Backend::{self, *};
use hq_core::cpu::{Feature, Identity, Level, Vendor};

/// A class of CPUs and its plan.
#[derive(Clone, Copy, Debug)]
pub struct ClassChoice {
    /// A short stable name (`intel-avx512`, ...).
    pub name: &'static str,
    /// Which CPUs these are, for people.
    pub description: &'static str,
    /// The vendors of the class (empty: any).
    pub vendors: &'static [Vendor],
    /// The display families of the class, inclusive.
    pub families: (u32, u32),
    /// The instruction-set level the class needs.
    pub level: Level,
    /// `Some(true)`: only CPUs with a fast PEXT; `Some(false)`: only those
    /// without; `None`: either.
    pub fast_pext: Option<bool>,
    /// The backends.
    pub plan: Plan,
    /// Where the plan comes from: the committed runs that measured it, or
    /// what it is inferred from.
    pub evidence: &'static str,
    /// The cpu ids of the committed runs of this class (empty: not measured).
    pub measured_on: &'static [&'static str],
    /// The cells whose committed figures could not separate the plan's
    /// backend from others (`benches/format/tests/choice.rs` checks the
    /// list against the committed runs): what a calibration may take
    /// instead without leaving the noise.
    pub ties: &'static [Tie],
}

/// Backends a committed run of the class measured as a tie with the
/// class's backend for one entry point and piece: their paired ratio's 95 %
/// interval held 1 (runs of the earlier method: within 5 % of each other).
/// A class measured on several models lists what any of its runs ties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tie {
    /// The entry point.
    pub entry: Entry,
    /// The piece.
    pub slider: Slider,
    /// The backends tied with the class's.
    pub with: &'static [Backend],
}

impl Tie {
    /// `slider`'s cell of `entry` tied with the backends `with`.
    pub const fn new(entry: Entry, slider: Slider, with: &'static [Backend]) -> Tie {
        Tie {
            entry,
            slider,
            with,
        }
    }

    /// The same tie for each piece of `entry` ([`Slider::ALL`]'s order).
    pub const fn each_piece(entry: Entry, with: &'static [Backend]) -> [Tie; 3] {
        let mut ties = [Tie::new(entry, Slider::ALL[0], with); 3];
        let mut i = 1;
        while i < ties.len() {
            ties[i].slider = Slider::ALL[i];
            i += 1;
        }
        ties
    }
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

    /// Whether a committed run of this class measured a CPU of `identity`'s
    /// model: one of `measured_on` has its family and model (the cpu id's
    /// `-f<family>-m<model>-` part, in hex). Steppings and brand strings
    /// may differ.
    pub fn measured(&self, identity: Identity) -> bool {
        let part = |id: &str, key: char| {
            id.split('-')
                .rev()
                .find_map(|p| p.strip_prefix(key))
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
        };
        self.measured_on.iter().any(|id| {
            part(id, 'f') == Some(identity.family) && part(id, 'm') == Some(identity.model)
        })
    }

    /// The backends tied with the class's for `entry` and `slider`
    /// ([`ClassChoice::ties`]).
    pub fn tied(&self, entry: Entry, slider: Slider) -> &'static [Backend] {
        self.ties
            .iter()
            .find(|t| t.entry == entry && t.slider == slider)
            .map_or(&[], |t| t.with)
    }
}

const ANY_FAMILY: (u32, u32) = (0, u32::MAX);

const AMD: &[Vendor] = &[Vendor::Amd, Vendor::Hygon];

/// `plan` with the first-rank-table HQ for dependency chains: the
/// `latency` column's fastest on every x86-64 run.
const fn chains_on_table(plan: Plan) -> Plan {
    plan.with_entry(Entry::Latency, ScalarRankTable)
}

/// PEXT for single lookups and bishop and queen batches, avx512 for rook
/// batches and set-wise calls: Zen 4's plan, the base of Zen 5's.
const AMD_AVX512: Plan = chains_on_table(Plan::all(Pext).with_entry(Entry::Setwise, Avx512).with(
    Entry::Batch,
    Slider::Rook,
    Avx512,
));

/// Zen 3's plan, which other AVX2 CPUs with a fast PEXT inherit: PEXT
/// single lookups and bishop set-wise calls, batches on AVX2 beside PEXT,
/// AVX2 rook set-wise calls; bishops' chains and queens' set-wise calls
/// on the smallest table of a tie.
const ZEN3: Plan = chains_on_table(Plan::all(Pext).with_entry(Entry::Batch, HybridAvx2Pext))
    .with(Entry::Latency, Slider::Bishop, ScalarRankDiagonal)
    .with(Entry::Setwise, Slider::Rook, Avx2)
    .with(Entry::Setwise, Slider::Queen, ScalarRankDiagonal);

/// AVX2 CPUs with a slow (microcoded) PEXT: AVX2 for every entry point.
const V3_SLOW_PEXT: ClassChoice = ClassChoice {
    name: "x86-64-v3-slow-pext",
    description: "other x86-64 CPUs with AVX2 and a slow PEXT",
    vendors: &[],
    families: ANY_FAMILY,
    level: Level::X86V3,
    fast_pext: Some(false),
    plan: chains_on_table(Plan::all(Avx2)),
    evidence: "not measured; as the AMD slow-PEXT class",
    measured_on: &[],
    ties: &[],
};

/// A class for any vendor and family.
const fn any(
    name: &'static str,
    description: &'static str,
    level: Level,
    plan: Plan,
) -> ClassChoice {
    ClassChoice {
        name,
        description,
        vendors: &[],
        families: ANY_FAMILY,
        level,
        fast_pext: None,
        plan,
        evidence: "",
        measured_on: &[],
        ties: &[],
    }
}

/// The classes, most specific first; the last ones match every CPU of their level.
pub const CLASSES: &[ClassChoice] = &[
    ClassChoice {
        name: "intel-avx512",
        description: "Intel with AVX-512 and GFNI (Ice Lake and later)",
        vendors: &[Vendor::Intel],
        families: ANY_FAMILY,
        level: Level::X86V4,
        fast_pext: None,
        // Bishop and queen batches: a zmm of squares by GFNI HQ beside
        // PEXT lookups, in one loop. Set-wise calls: the AVX-512 fill.
        plan: Plan {
            latency: Pieces {
                rook: ScalarRankTable,
                bishop: Pext,
                queen: ScalarRankTable,
            },
            ..Plan::all(Pext)
                .with_entry(Entry::Setwise, Avx512)
                .with_entry(Entry::Batch, HybridAvx512Pext)
                .with(Entry::Batch, Slider::Rook, Avx512)
        },
        evidence: "measured: benches/results/intel-r-xeon-r-processor-f6-ma7-s8 and \
                   intel-r-xeon-r-processor-f6-mcf-s2 (each cell the decision of each run's \
                   matrix.md: backends compared by paired intervals over fresh processes and \
                   code layouts, runtime build; single lookups by the hash perft)",
        measured_on: &[
            "intel-r-xeon-r-processor-f6-ma7-s8",
            "intel-r-xeon-r-processor-f6-mcf-s2",
        ],
        // Set-wise calls: the hybrid's are the same fill code. Rook
        // batches: a tie on 0xcf, `avx512` clear on 0xa7.
        ties: &{
            let [rook, bishop, queen] = Tie::each_piece(Entry::Setwise, &[HybridAvx512Pext]);
            let chains = Tie::new(Entry::Latency, Slider::Queen, &[HybridAvx2Pext]);
            let rook_batches = Tie::new(Entry::Batch, Slider::Rook, &[HybridAvx512Pext]);
            [chains, rook_batches, rook, bishop, queen]
        },
    },
    ClassChoice {
        name: "amd-zen4",
        description: "AMD Zen 4 (family 0x19 with AVX-512)",
        vendors: AMD,
        families: (0x19, 0x19),
        level: Level::X86V4,
        fast_pext: Some(true),
        // Batches: PEXT lookups beside the zmm GFNI HQ, clear for every
        // piece. Bishops' chains: a tie of the two first-rank HQ forms, the
        // smaller table.
        plan: AMD_AVX512.with_entry(Entry::Batch, HybridAvx512Pext).with(
            Entry::Latency,
            Slider::Bishop,
            ScalarRankDiagonal,
        ),
        evidence: "measured: benches/results/amd-epyc-f19-m11-s1 (Zen 4, commit 875092d; each \
                   cell the decision of its matrix.md: backends compared by paired intervals \
                   over fresh processes and code layouts, runtime build; single lookups by the \
                   hash perft, then the engine-shaped loop)",
        measured_on: &["amd-epyc-f19-m11-s1"],
        // `hybrid-avx512-pext`'s set-wise calls are `avx512`'s fill code.
        // Single lookups: the hash perft ties `pext` with the AVX2 kernels,
        // and the free functions key `pext`.
        ties: &{
            let [rook, bishop, queen] = Tie::each_piece(Entry::Setwise, &[HybridAvx512Pext]);
            let [single_rook, single_bishop, single_queen] =
                Tie::each_piece(Entry::Single, &[Avx2, HybridAvx2Pext]);
            let chains = Tie::new(Entry::Latency, Slider::Bishop, &[ScalarRankTable]);
            [
                chains,
                rook,
                bishop,
                queen,
                single_rook,
                single_bishop,
                single_queen,
            ]
        },
    },
    ClassChoice {
        name: "amd-zen5",
        description: "AMD Zen 5 and later (family 0x1a and above, with AVX-512)",
        vendors: AMD,
        families: (0x1a, u32::MAX),
        level: Level::X86V4,
        fast_pext: Some(true),
        // Zen 5's four 512-bit pipes: `avx512` batches every piece at about
        // twice `pext`'s rate; the hybrid's PEXT lookups beside it
        // (`hq_hybrid::Split::WideVector`) lead it for every piece (the
        // lead needs the core to itself: `docs/benchmarks.md`). Bishops'
        // chains: a tie of the two first-rank HQ forms, the smaller table.
        plan: AMD_AVX512.with_entry(Entry::Batch, HybridAvx512Pext).with(
            Entry::Latency,
            Slider::Bishop,
            ScalarRankDiagonal,
        ),
        evidence: "measured: benches/results/amd-epyc-f1a-m2-s1 (Zen 5, commit 13d48a6; each \
                   cell the decision of its matrix.md: backends compared by paired intervals \
                   over fresh processes and code layouts, runtime build; single lookups by the \
                   hash perft, then the engine-shaped loop); later families are inferred from \
                   it and calibrate by default",
        measured_on: &["amd-epyc-f1a-m2-s1"],
        // `hybrid-avx512-pext`'s set-wise calls are `avx512`'s fill code.
        // Single lookups: the hash perft ties `pext` with `pext-pdep`, and
        // the free functions key `pext`.
        ties: &{
            let [rook, bishop, queen] = Tie::each_piece(Entry::Setwise, &[HybridAvx512Pext]);
            let [single_rook, single_bishop, single_queen] =
                Tie::each_piece(Entry::Single, &[PextPdep]);
            let chains = Tie::new(Entry::Latency, Slider::Bishop, &[ScalarRankTable]);
            [
                chains,
                single_rook,
                single_bishop,
                single_queen,
                rook,
                bishop,
                queen,
            ]
        },
    },
    ClassChoice {
        name: "amd-zen3",
        description: "AMD Zen 3 (family 0x19 without AVX-512)",
        vendors: AMD,
        families: (0x19, 0x19),
        level: Level::X86V3,
        fast_pext: Some(true),
        plan: ZEN3,
        evidence: "measured: benches/results/amd-epyc-f19-m1-s1 (Zen 3, commit 7929e1c; \
                   each cell the decision of its matrix.md: backends compared by paired \
                   intervals over fresh processes and code layouts, runtime build; single lookups \
                   by the hash perft, then the engine-shaped loop; set-wise calls one kernel per \
                   piece over their three columns)",
        measured_on: &["amd-epyc-f19-m1-s1"],
        ties: &[
            Tie::new(Entry::Single, Slider::Queen, &[PextPdep]),
            Tie::new(Entry::Single, Slider::Rook, &[PextPdep]),
            Tie::new(Entry::Single, Slider::Bishop, &[PextPdep]),
            Tie::new(Entry::Latency, Slider::Bishop, &[ScalarRankTable]),
            Tie::new(Entry::Batch, Slider::Bishop, &[Pext]),
            Tie::new(
                Entry::Setwise,
                Slider::Queen,
                &[
                    Ssse3,
                    ScalarRankTable,
                    ScalarReverse,
                    ReverseBitboards,
                    Classic,
                    XopSsse3,
                    XopModel,
                ],
            ),
        ],
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
        fast_pext: Some(true),
        evidence: "not measured; the cells the measured AVX-512 classes agree on (rook \
                   batches avx512, bishop and queen batches pext)",
        ..any(
            "x86-64-v4",
            "other x86-64 CPUs with AVX-512 and GFNI",
            Level::X86V4,
            chains_on_table(
                Plan::all(Pext)
                    .with_entry(Entry::Setwise, Avx512)
                    .with_setwise_loop(2)
                    .with(Entry::Batch, Slider::Rook, Avx512),
            ),
        )
    },
    ClassChoice {
        fast_pext: Some(true),
        evidence: "not measured; as the Zen 3 class",
        ..any(
            "x86-64-v3",
            "other x86-64 CPUs with AVX2 and a fast PEXT",
            Level::X86V3,
            ZEN3,
        )
    },
    V3_SLOW_PEXT,
    ClassChoice {
        evidence: "not measured on such a CPU; ssse3 beat the scalar backends on Zen 3 in \
                   throughput and batches",
        ..any(
            "x86-64-v2",
            "x86-64 CPUs with SSSE3 and SSE4.2, without AVX2",
            Level::X86V2,
            chains_on_table(Plan::all(Ssse3)),
        )
    },
    ClassChoice {
        evidence: "not timed: instruction counts of the cross-compiled kernels (rustc 1.95, \
                   aarch64-unknown-linux-gnu; rook/bishop/queen): single lookups neon 21/19/35 \
                   against scalar-rank-table 27/22/42; batches per square neon 19/17/32 against \
                   25/20/39; set-wise (under qemu; 1-2, 5 and 10 sliders) scalar-rank-table \
                   geometric mean 76 against 91 for neon",
        ..any(
            "aarch64",
            "AArch64 (NEON is part of the architecture)",
            Level::Neon,
            chains_on_table(Plan::all(Neon).with_entry(Entry::Setwise, ScalarRankTable)),
        )
    },
    #[cfg(not(feature = "small-tables"))]
    WASM32_SIMD128,
    #[cfg(feature = "small-tables")]
    WASM32_SIMD128_SMALL,
    // wasm32 has no level to tell a portable build by, so this row exists
    // in wasm32 builds only.
    #[cfg(all(target_arch = "wasm32", not(feature = "small-tables")))]
    WASM32,
    #[cfg(all(target_arch = "wasm32", feature = "small-tables"))]
    WASM32_SMALL,
    // x86-64 builds without `std` and without target features only.
    #[cfg(all(target_arch = "x86_64", not(feature = "std")))]
    X86_64_PORTABLE,
    ClassChoice {
        evidence: "scalar-rank-table was the fastest portable backend on every CPU measured",
        ..any(
            "baseline",
            "any other CPU: portable code only",
            Level::Baseline,
            Plan::all(ScalarRankTable),
        )
    },
];

/// x86-64 built without `std` and without target features: no run-time
/// detection, so every CPU runs this plan; the portable rows of the
/// runtime build of the one run that has the magic rows decide it (single
/// lookups by its hash perft: `magic`; batches, chains and set-wise calls:
/// the first-rank HQ forms). Not in
/// `std` builds, whose portable fallback ([`CLASSES`]' `baseline`) runs only
/// on CPUs without SSSE3 and keeps small tables: magic tables there would
/// grow every default binary.
const X86_64_PORTABLE: ClassChoice = ClassChoice {
    evidence: "measured: the portable backends' rows of benches/results/amd-epyc-f19-m11-s1 \
               (Zen 4, runtime build: the portable code is compiled as a no-std baseline \
               build compiles it)",
    measured_on: &["amd-epyc-f19-m11-s1"],
    ties: &[
        Tie::new(Entry::Batch, Slider::Bishop, &[ScalarRankTable]),
        Tie::new(Entry::Latency, Slider::Bishop, &[ScalarRankTable]),
        Tie::new(Entry::Setwise, Slider::Rook, &[ReverseBitboards]),
        Tie::new(Entry::Setwise, Slider::Bishop, &[ScalarRankTable]),
        Tie::new(
            Entry::Setwise,
            Slider::Queen,
            &[ReverseBitboards, ScalarRankTable, ScalarReverse, XopModel],
        ),
    ],
    ..any(
        "x86-64-no-std",
        "x86-64 without std or target features: portable code, fixed at compile time",
        Level::Baseline,
        Plan::all(ScalarRankTable)
            .with_entry(Entry::Single, Magic)
            .with(Entry::Batch, Slider::Bishop, ScalarRankDiagonal)
            .with(Entry::Latency, Slider::Bishop, ScalarRankDiagonal)
            .with(Entry::Setwise, Slider::Rook, ScalarReverse)
            .with(Entry::Setwise, Slider::Bishop, ScalarRankDiagonal)
            .with(Entry::Setwise, Slider::Queen, ScalarRankDiagonal),
    )
};

/// The measured wasm32 runs (Node 20's V8 on a Zen 4), whose decisions
/// the wasm32 classes are.
const WASM_EVIDENCE: &str = "measured: benches/results/wasm32-node20-amd-epyc-f19-m11-s1 and \
    wasm32-simd128-node20-amd-epyc-f19-m11-s1 (commit de84288; the bench binary for \
    wasm32-wasip1 under Node v20.20.2 on a Zen 4; each cell the decision of its run's \
    matrix.md, the small-tables classes among backends of at most SMALL_TABLE_BYTES)";

/// The tables a `small-tables` build's plans may read, per backend: the
/// HQ backends' masks and first-rank tables (2-6 KiB), not the magic or
/// PEXT tables (over 800 KiB). A web page downloads every byte of them.
pub const SMALL_TABLE_BYTES: usize = 8 * 1024;

/// WebAssembly without simd128: magic bitboards for single lookups and
/// batches, the ray-mask method for rook and queen chains.
const WASM32: ClassChoice = ClassChoice {
    evidence: WASM_EVIDENCE,
    measured_on: &["wasm32-node20-amd-epyc-f19-m11-s1"],
    ties: &[
        Tie::new(Entry::Setwise, Slider::Rook, &[ScalarRankTable]),
        Tie::new(
            Entry::Setwise,
            Slider::Queen,
            &[
                Magic,
                ReverseBitboards,
                ScalarRankTable,
                ScalarReverse,
                XopModel,
            ],
        ),
    ],
    ..any(
        "wasm32",
        "WebAssembly without simd128",
        Level::Baseline,
        Plan::all(Magic)
            .with(Entry::Latency, Slider::Rook, Classic)
            .with(Entry::Latency, Slider::Queen, Classic)
            .with(Entry::Setwise, Slider::Rook, ScalarRankDiagonal)
            .with(Entry::Setwise, Slider::Queen, ScalarRankDiagonal),
    )
};

/// [`WASM32`] within [`SMALL_TABLE_BYTES`] (`small-tables`).
const WASM32_SMALL: ClassChoice = ClassChoice {
    evidence: WASM_EVIDENCE,
    measured_on: &["wasm32-node20-amd-epyc-f19-m11-s1"],
    ties: &[
        Tie::new(Entry::Setwise, Slider::Rook, &[ScalarRankTable]),
        Tie::new(Entry::Setwise, Slider::Bishop, &[Classic, ReverseBitboards]),
        Tie::new(
            Entry::Setwise,
            Slider::Queen,
            &[
                Classic,
                ReverseBitboards,
                ScalarRankTable,
                ScalarReverse,
                XopModel,
            ],
        ),
    ],
    ..any(
        "wasm32-small",
        "WebAssembly without simd128, small tables",
        Level::Baseline,
        Plan::all(Classic)
            .with_entry(Entry::Setwise, ScalarRankDiagonal)
            .with(Entry::Setwise, Slider::Bishop, ScalarReverse),
    )
};

/// WebAssembly with simd128: as [`WASM32`], the SIMD HQ for bishop
/// batches and set-wise calls.
const WASM32_SIMD128: ClassChoice = ClassChoice {
    evidence: WASM_EVIDENCE,
    measured_on: &["wasm32-simd128-node20-amd-epyc-f19-m11-s1"],
    ties: &[
        Tie::new(Entry::Batch, Slider::Bishop, &[Magic]),
        Tie::new(
            Entry::Setwise,
            Slider::Queen,
            &[
                Classic,
                Magic,
                ScalarRankTable,
                ScalarReverse,
                Simd128,
                XopModel,
            ],
        ),
    ],
    ..any(
        "wasm32-simd128",
        "WebAssembly built with +simd128",
        Level::Simd128,
        Plan::all(Magic)
            .with(Entry::Latency, Slider::Rook, Classic)
            .with(Entry::Latency, Slider::Queen, Classic)
            .with(Entry::Batch, Slider::Bishop, Simd128)
            .with(Entry::Setwise, Slider::Queen, ScalarRankDiagonal)
            .with(Entry::Setwise, Slider::Rook, ScalarRankDiagonal)
            .with(Entry::Setwise, Slider::Bishop, Simd128),
    )
};

/// [`WASM32_SIMD128`] within [`SMALL_TABLE_BYTES`] (`small-tables`).
const WASM32_SIMD128_SMALL: ClassChoice = ClassChoice {
    evidence: WASM_EVIDENCE,
    measured_on: &["wasm32-simd128-node20-amd-epyc-f19-m11-s1"],
    ties: &[Tie::new(
        Entry::Setwise,
        Slider::Queen,
        &[Classic, ScalarRankTable, ScalarReverse, Simd128, XopModel],
    )],
    ..any(
        "wasm32-simd128-small",
        "WebAssembly built with +simd128, small tables",
        Level::Simd128,
        Plan::all(Classic)
            .with_entry(Entry::Batch, Simd128)
            .with_entry(Entry::Setwise, ScalarRankDiagonal)
            .with(Entry::Setwise, Slider::Rook, ScalarRankDiagonal)
            .with(Entry::Setwise, Slider::Bishop, Simd128),
    )
};

/// The classes of builds without run-time detection that [`CLASSES`]
/// holds only in those builds: the x86-64 no-std portable plan, and the
/// wasm32 classes in both variants (fastest, and within
/// [`SMALL_TABLE_BYTES`]; [`CLASSES`] holds one variant of each, and the
/// portable one only in wasm32 builds). For the data tests, which check
/// them all against the runs of that target on any host.
#[doc(hidden)]
pub const TARGET_CLASSES: &[ClassChoice] = &[
    X86_64_PORTABLE,
    WASM32,
    WASM32_SMALL,
    WASM32_SIMD128,
    WASM32_SIMD128_SMALL,
];

/// Whether a class of `level` can match a CPU this build runs on: its level
/// is portable or of this build's architecture.
#[doc(hidden)]
pub const fn on_this_target(level: Level) -> bool {
    match level.arch() {
        None => true,
        Some(arch) => hq_core::bytes_eq(arch.as_bytes(), hq_core::cpu::TARGET_ARCH.as_bytes()),
    }
}

impl Backend {
    /// Whether the free functions can dispatch to the backend
    /// (`HQ_BACKEND`, `hq::set_backend`): in a forced build the
    /// forced ones; else those some CPU class of this build's target
    /// chooses, or every one with the `all-backends` feature. The others
    /// stay out of programs that only call the free functions;
    /// `hq::with_backend` runs any backend.
    pub const fn is_dispatched(self) -> bool {
        match crate::registry::FORCED {
            true => self.is_forced(),
            false => cfg!(feature = "all-backends") || chosen_here(self, None),
        }
    }

    /// An upper bound of the bytes of lookup tables
    /// ([`Backend::table_bytes`]) that single lookups through the installed
    /// plan read, whichever plan it is: each piece's lookups run on one
    /// backend this build dispatches on this target, so the largest
    /// footprints of those backends, one per piece, summed (a plan with one
    /// backend for every piece reads that backend's alone). For tokens on
    /// the route (`hq`'s jobs without an arm, tokens on its free
    /// functions). The installed words the route reads to find the backend
    /// are its state, not tables: not counted.
    #[doc(hidden)]
    pub const fn dispatched_table_bytes() -> usize {
        let mut largest = [0; Slider::ALL.len()];
        let mut i = 0;
        while i < Backend::ALL.len() {
            let backend = Backend::ALL[i];
            if backend.is_dispatched() && on_this_target(backend.level()) {
                // Into the sorted list of the largest, the smallest out.
                let mut bytes = backend.table_bytes();
                let mut j = 0;
                while j < largest.len() {
                    if bytes > largest[j] {
                        (largest[j], bytes) = (bytes, largest[j]);
                    }
                    j += 1;
                }
            }
            i += 1;
        }
        let (mut sum, mut j) = (0, 0);
        while j < largest.len() {
            sum += largest[j];
            j += 1;
        }
        sum
    }
}

/// Whether some class of this build's target names `backend` for `entry`
/// (any entry: `None`).
#[doc(hidden)]
pub const fn chosen_here(backend: Backend, entry: Option<Entry>) -> bool {
    let mut i = 0;
    while i < CLASSES.len() {
        let class = &CLASSES[i];
        let mut e = 0;
        while e < Entry::ALL.len() && on_this_target(class.level) {
            let mut s = 0;
            while s < 3 {
                let named = class.plan.get(Entry::ALL[e], Slider::ALL[s]) as u8 == backend as u8;
                let wanted = match entry {
                    None => true,
                    Some(entry) => entry as u8 == Entry::ALL[e] as u8,
                };
                if named && wanted {
                    return true;
                }
                s += 1;
            }
            e += 1;
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

/// Whether `backend` may serve a build that chooses at compile time: forced
/// (if any is) and its level enabled at compile time.
const fn runs_compiled(backend: Backend) -> bool {
    (!crate::registry::FORCED || backend.is_forced()) && backend.level().is_static()
}

/// `wanted` if it may serve a build choosing at compile time, else `or`,
/// else the first forced backend that may.
const fn pick_compiled(wanted: Backend, or: Option<Backend>) -> Backend {
    if runs_compiled(wanted) {
        return wanted;
    }
    if let Some(or) = or {
        return or;
    }
    let mut i = 0;
    while i < Backend::ALL.len() {
        if runs_compiled(Backend::ALL[i]) {
            return Backend::ALL[i];
        }
        i += 1;
    }
    panic!(
        "hq-attacks without run-time detection (no `std`, or wasm32): none of the forced \
         backends' instruction sets is enabled at compile time; enable them \
         (RUSTFLAGS=\"-C target-cpu=...\" or \"-C target-feature=...\") or drop the force-* features"
    )
}

/// The plan of a build that chooses at compile time, as multiversion's
/// static dispatcher does: without `std` (no run-time detection), and on
/// wasm32 (none exists). The class is the first that names no vendor,
/// whose level the build enables, and that does not rule out a fast PEXT
/// (a build enabling BMI2 is taken to target a CPU whose PEXT is fast; for
/// AMD before Zen 3, force another backend). Forced backends: each cell
/// the class's if forced and enabled, else the first forced one enabled
/// (the latency functions: else the single lookups'). A build where none
/// is enabled fails with the reason. Set-wise calls take the set-wise
/// backend whatever the count.
#[doc(hidden)]
pub const COMPILED: Option<(&ClassChoice, Plan)> = {
    if cfg!(feature = "std") && !cfg!(target_arch = "wasm32") {
        None
    } else {
        let mut i = 0;
        let class = loop {
            let c = &CLASSES[i];
            if c.vendors.is_empty() && !matches!(c.fast_pext, Some(false)) && c.level.is_static() {
                break c;
            }
            i += 1;
        };
        let mut plan = class.plan;
        let mut e = 0;
        while e < Entry::ALL.len() {
            let mut s = 0;
            while s < 3 {
                let (entry, slider) = (Entry::ALL[e], Slider::ALL[s]);
                let or = match entry {
                    Entry::Latency => Some(plan.get(Entry::Single, slider)),
                    _ => None,
                };
                plan.set(
                    entry,
                    slider,
                    pick_compiled(class.plan.get(entry, slider), or),
                );
                s += 1;
            }
            e += 1;
        }
        Some((class, plan.with_setwise_loop(0)))
    }
};

/// [`COMPILED`]'s plan.
#[doc(hidden)]
pub const COMPILED_PLAN: Option<Plan> = match COMPILED {
    Some((_, plan)) => Some(plan),
    None => None,
};

/// The backend of `entry` for `slider` where this build fixes it at
/// compile time: everywhere in a build that chooses at compile time
/// ([`COMPILED_PLAN`]) or forces one backend its target features enable;
/// and wherever every class that can run the build agrees
/// ([`CAN_RUN_THIS_BUILD`]): in an x86-64 build that enables x86-64-v4 with
/// GFNI (`-C target-cpu=native` on an AVX-512 CPU), or one that enables
/// x86-64-v3 with VAES (`-C target-cpu=native` on a Zen 3), whose single
/// lookups every such class runs on `pext`. There the route has no test
/// at all, as multiversion's static dispatcher; `HQ_BACKEND`, `HQ_CHOICE`,
/// `hq::set_plan` and calibrations steer the other cells only, and
/// `hq::selection` says so.
#[doc(hidden)]
pub const fn fixed(entry: Entry, slider: Slider) -> Option<Backend> {
    match FIXED[entry as usize][slider as usize] {
        Some((b, _)) => Some(b),
        None => None,
    }
}

/// [`fixed`]'s cells, with their set-wise loops.
const FIXED: [[Option<(Backend, u32)>; 3]; 4] = {
    let mut cells = [[None; 3]; 4];
    let mut e = 0;
    while e < 4 {
        let mut s = 0;
        while s < 3 {
            cells[e][s] = fixed_cell(Entry::ALL[e], Slider::ALL[s]);
            s += 1;
        }
        e += 1;
    }
    cells
};

/// The one forced backend, if the build forces exactly one and enables its level.
const fn one_forced_compiled() -> Option<Backend> {
    let (mut found, mut i) = (None, 0);
    while i < Backend::ALL.len() {
        if Backend::ALL[i].is_forced() {
            if found.is_some() {
                return None;
            }
            found = Some(Backend::ALL[i]);
        }
        i += 1;
    }
    match found {
        Some(b) if b.level().is_static() => Some(b),
        _ => None,
    }
}

/// Whether the build enables the feature called `name` throughout.
const fn enables(name: &str) -> bool {
    let mut i = 0;
    while i < Feature::ALL.len() {
        if hq_core::bytes_eq(Feature::ALL[i].name().as_bytes(), name.as_bytes()) {
            return Feature::ALL[i].is_static();
        }
        i += 1;
    }
    false
}

/// The highest level of this target's architecture the build enables
/// throughout (`None`: none above the portable level).
const BUILT_FOR: Option<Level> = {
    let (mut built, mut i) = (None, 0);
    while i < Level::ALL.len() {
        let level = Level::ALL[i];
        if level.arch().is_some() && on_this_target(level) && level.is_static() {
            built = Some(level);
        }
        i += 1;
    }
    built
};

/// Whether a CPU of `class` can run this build (cells every such class
/// agrees on are fixed, [`fixed`]): a CPU runs the build only if it has
/// the build's level, and a CPU that has a level is in a class of that
/// level or above (the classes of each level catch every CPU of it); and a
/// build that enables BMI2 and VAES runs on no CPU with a slow PEXT (those,
/// AMD and Hygon before family 0x19, have no VAES). Portable builds fix
/// nothing this way: every class can run them.
const fn can_run_this_build(class: &ClassChoice) -> bool {
    let Some(built) = BUILT_FOR else {
        return false;
    };
    let same_arch = match (class.level.arch(), built.arch()) {
        (Some(a), Some(b)) => hq_core::bytes_eq(a.as_bytes(), b.as_bytes()),
        _ => false,
    };
    let fast_pext_only = enables("bmi2") && enables("vaes");
    same_arch
        && class.level as u8 >= built as u8
        && !(fast_pext_only && matches!(class.fast_pext, Some(false)))
}

/// A cell's fixed backend and set-wise loop ([`fixed`]).
const fn fixed_cell(entry: Entry, slider: Slider) -> Option<(Backend, u32)> {
    if let Some(plan) = COMPILED_PLAN {
        return Some((plan.get(entry, slider), 0));
    }
    if let Some(b) = one_forced_compiled() {
        return Some((b, 0));
    }
    if crate::registry::FORCED {
        return None;
    }
    // (backend, set-wise loop) of every class that can run the build.
    let (mut agreed, mut i): (Option<(Backend, u32)>, usize) = (None, 0);
    while i < CLASSES.len() {
        let class = &CLASSES[i];
        if can_run_this_build(class) {
            let b = class.plan.get(entry, slider);
            let n = match entry {
                Entry::Setwise => class.plan.setwise_loop.get(slider),
                _ => 0,
            };
            if let Some((a, m)) = agreed
                && (a as u8 != b as u8 || m != n)
            {
                return None;
            }
            agreed = Some((b, n));
        }
        i += 1;
    }
    agreed
}

/// The set-wise loop of `slider` where this build fixes its set-wise cell
/// (0 where the whole plan is fixed): a table, so that the route reads a
/// constant.
#[doc(hidden)]
pub const fn fixed_loop(slider: Slider) -> Option<u32> {
    match FIXED[Entry::Setwise as usize][slider as usize] {
        Some((_, n)) => Some(n),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cell the build fixes is what every class that can run the build
    /// chooses; and a build enabling x86-64-v3 with VAES (`-C
    /// target-cpu=native` on a Zen 3) fixes the single lookups to `pext`,
    /// which every CPU that runs it has fast.
    #[test]
    fn a_fixed_cell_is_every_class_choice_that_can_run_the_build() {
        if COMPILED_PLAN.is_some() || crate::registry::FORCED {
            return;
        }
        let runs: std::vec::Vec<&str> = CLASSES
            .iter()
            .filter(|c| can_run_this_build(c))
            .map(|c| c.name)
            .collect();
        std::println!("classes that can run this build ({BUILT_FOR:?}): {runs:?}");
        for entry in Entry::ALL {
            for slider in Slider::ALL {
                let Some(b) = fixed(entry, slider) else {
                    continue;
                };
                for class in CLASSES.iter().filter(|c| can_run_this_build(c)) {
                    assert_eq!(class.plan.get(entry, slider), b, "{}", class.name);
                }
                std::println!("fixed: {}.{slider} = {b}", entry.name());
            }
        }
        let v3_vaes = BUILT_FOR.is_some_and(|l| l as u8 >= Level::X86V3 as u8)
            && enables("bmi2")
            && enables("vaes");
        if v3_vaes {
            for slider in Slider::ALL {
                assert_eq!(fixed(Entry::Single, slider), Some(Pext), "{slider}");
            }
        }
        if BUILT_FOR.is_none() {
            assert!(
                Entry::ALL
                    .iter()
                    .all(|&e| Slider::ALL.iter().all(|&s| fixed(e, s).is_none()))
            );
        }
    }
}
