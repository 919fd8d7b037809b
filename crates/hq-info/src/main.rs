//! `hq-info`: what this CPU has, which backends run here, what `hq` chooses
//! for each entry point and why, and a self-check of every backend that runs
//! against the oracle. A program linking `hq` makes the same choice.
//!
//! Exit status 2 means the choice is broken (`HQ_BACKEND` naming an unknown
//! or unsupported backend, forced backends the CPU lacks); the message says why.
//!
//! Its features are the facade's, under the name this package depends on it
//! by, `hq`: `cargo run -p hq-info --features hq/force-avx2` shows what a
//! build forcing `avx2` chooses (`hq-attacks/force-avx2` names no package of
//! this one's dependencies, and cargo refuses it).

use clap::Parser;
use hq::cpu::{Feature, Level};
use hq::{Backend, Bitboard, SliderAttacks, Square, WithBackend};
use hq_core::identity::{Identity, brand_string, cpu_id};

/// What this CPU runs and what `hq` chooses for it.
#[derive(Parser)]
#[command(
    version,
    about,
    after_help = "To see a forced build's choice, build with the facade's feature under its \
                  dependency name `hq`: cargo run -p hq-info --features hq/force-avx2"
)]
struct Args {
    /// Make one attack call before anything else, without `hq::init()`: the
    /// first-call path of a program that never calls `init`.
    #[arg(long)]
    call: bool,
    /// Skip the self-check of every backend against the oracle.
    #[arg(long)]
    no_check: bool,
    /// Also print the class's evidence, the CPU's features and every backend.
    #[arg(long, short)]
    verbose: bool,
    /// Measure the choice on this CPU (`hq::calibrate`, at most about 5 ms)
    /// and print it beside the class's, with every candidate's figure, and
    /// as an `HQ_CHOICE` value that installs it without measuring again.
    #[arg(long)]
    calibrate: bool,
}

/// Random queen lookups per backend in the self-check.
const SELF_CHECK_LOOKUPS: u64 = 20_000;

/// [`SELF_CHECK_LOOKUPS`] random queen lookups against the oracle.
struct SelfCheck;

impl WithBackend for SelfCheck {
    type Output = Result<u64, String>;
    #[inline(always)]
    fn run<B: SliderAttacks>(self, backend: B) -> Result<u64, String> {
        let mut state = 0x1234_5678_9ABC_DEF1u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..SELF_CHECK_LOOKUPS {
            let occ = Bitboard(next() & next());
            let sq = Square::from_index_masked(next() as u8);
            let (want, got) = (
                hq::reference::queen_attacks(sq, occ),
                backend.queen_attacks(sq, occ),
            );
            if want != got {
                return Err(format!(
                    "{}: queen on {sq} over {occ:?}: expected {want:?}, got {got:?}",
                    B::NAME
                ));
            }
        }
        Ok(SELF_CHECK_LOOKUPS)
    }
}

fn main() {
    let args = Args::parse();
    if args.call {
        let attacks = hq::queen_attacks(Square::D4, Bitboard::EMPTY);
        println!("queen on d4, empty board: {} squares", attacks.count());
    }
    let started = std::time::Instant::now();
    if let Err(e) = hq::init() {
        eprintln!("hq-info: error: {e}");
        std::process::exit(2);
    }
    let first_use = started.elapsed();
    let selection = hq::selection();
    let id = Identity::detect();
    let top_level = [
        Level::X86V4,
        Level::X86V3,
        Level::X86V2,
        Level::Neon,
        Level::Simd128,
    ]
    .into_iter()
    .find(|l| l.is_detected())
    .unwrap_or(Level::Baseline);
    println!(
        "hq-attacks {} on {} ({:?}, family {:#x}, model {:#x}; {top_level})",
        env!("CARGO_PKG_VERSION"),
        brand_string().unwrap_or_else(|| hq_core::cpu::TARGET_ARCH.to_owned()),
        id.vendor,
        id.family,
        id.model,
    );
    // The choice, one line per entry point.
    let p = selection.plan;
    println!("single lookups: {}", p.single);
    println!("batches:        {}", p.batch);
    match p.setwise_loop.uniform() {
        Some(0) => println!("set-wise:       {}", p.setwise),
        _ => println!(
            "set-wise:       {} (single lookups up to {} sliders)",
            p.setwise, p.setwise_loop
        ),
    }
    println!("latency:        {} (hq::latency)", p.latency);
    // The whole plan in the form HQ_CHOICE and hq::set_plan read back.
    println!("plan:           {p}");
    // What the chosen backends keep in the caches between lookups.
    let mut chosen: Vec<Backend> = Vec::new();
    for b in p.backends() {
        if !chosen.contains(&b) {
            chosen.push(b);
        }
    }
    let tables: Vec<String> = chosen
        .iter()
        .map(|b| format!("{b} {}", kib(b.table_bytes())))
        .collect();
    println!("tables:         {}", tables.join(", "));
    let text = selection.to_string();
    let mut why = text.lines().skip(2);
    println!("why:            {}", why.next().unwrap_or_default());
    for note in why {
        println!("                {note}");
    }
    if selection.source == hq::Source::Calibration && !args.calibrate {
        // The choice at first use, calibration included (HQ_CALIBRATE=1, or
        // a model no committed run measured).
        let ms = first_use.as_secs_f64() * 1e3;
        println!("first use:      {ms:.2} ms, the calibration included");
    }
    // The class, and how far its evidence reaches this CPU.
    let class = selection.class;
    println!("CPU class:      {} ({})", class.name, class.description);
    let this = cpu_id();
    let evidence = if class.measured_on.contains(&this.as_str()) {
        format!("measured on this CPU (benches/results/{this})")
    } else if !class.measured_on.is_empty() {
        format!(
            "measured on another model of the class ({}), not on this one ({this})",
            class.measured_on.join(", ")
        )
    } else {
        "inferred, not measured on a CPU of the class (--verbose says from what)".to_owned()
    };
    println!("evidence:       {evidence}");
    if args.calibrate {
        calibrate();
    }
    let failed = self_check(&args);
    if args.verbose {
        verbose(class);
    } else {
        println!("more:           hq-info --verbose (CPU features, every backend, the evidence)");
    }
    if let Some(e) = failed {
        eprintln!("hq-info: a backend disagrees with the oracle: {e}");
        std::process::exit(1);
    }
}

/// Calibrates, and prints the figures and the plan.
fn calibrate() {
    if cfg!(debug_assertions) {
        eprintln!(
            "hq-info: warning: an unoptimised (debug) build times unoptimised kernels: its \
             figures, and the plan they choose, are not the release build's; run \
             `cargo run --release -p hq-info -- --calibrate`"
        );
    }
    let calibration = hq::calibrate().unwrap_or_else(|e| {
        eprintln!("hq-info: error: calibration failed: {e}");
        std::process::exit(2);
    });
    println!(
        "\ncalibrated:     {} rounds in {:.2} ms; per entry point and piece, \
         measured here | the class's choice (ns per lookup, per call for set-wise):",
        calibration.rounds,
        calibration.elapsed.as_secs_f64() * 1e3
    );
    for line in calibration.to_string().lines().skip(1) {
        if let Some(plan) = line.strip_prefix("plan: ") {
            let changed = if calibration.plan == calibration.base {
                "the class's choice, confirmed".to_owned()
            } else {
                format!("differs from the class's ({})", calibration.base)
            };
            println!("measured plan:  {changed}");
            println!("HQ_CHOICE={plan}");
        } else {
            println!("    {line}");
        }
    }
    println!();
}

/// Runs the self-check of every backend this CPU runs (one summary line,
/// or a line per failure); returns the first failure.
fn self_check(args: &Args) -> Option<String> {
    if args.no_check {
        println!("self-check:     skipped (--no-check)");
        return None;
    }
    let mut failed = None;
    let mut passed = 0;
    for &b in Backend::all() {
        match hq::with_backend(b, SelfCheck) {
            Ok(Ok(_)) => passed += 1,
            Ok(Err(e)) => {
                println!("self-check:     {} FAILED: {e}", b.name());
                failed.get_or_insert(e);
            }
            Err(_) => {} // does not run here (--verbose says why)
        }
    }
    if failed.is_none() {
        println!(
            "self-check:     the {passed} backends that run here agree with the oracle \
             ({SELF_CHECK_LOOKUPS} random queen lookups each)"
        );
    }
    failed
}

/// The details behind the first screen.
fn verbose(class: &hq::unstable::ClassChoice) {
    println!("\nclass evidence: {}", class.evidence);
    let features: Vec<String> = Feature::ALL
        .iter()
        .map(|f| format!("{f}{}", if f.is_detected() { "+" } else { "-" }))
        .collect();
    println!("CPU features:   {}", features.join(" "));
    println!("backends (general order of preference):");
    for &b in Backend::all() {
        let status = match b.check_supported() {
            Ok(_) => "runs here".to_owned(),
            Err(missing) => format!("does not run here: {missing}"),
        };
        let (name, level, tables) = (b.name(), b.level().name(), kib(b.table_bytes()));
        println!("  {name:<22} {level:<16} {tables:>10} of tables  {status}");
    }
}

/// `bytes` in KiB, one decimal (the footprint of a backend's tables).
fn kib(bytes: usize) -> String {
    format!("{:.1} KiB", bytes as f64 / 1024.0)
}
