//! `hq-info`: what this CPU has, which backends run here, what `hq` chooses
//! for each entry point and why, and a self-check of every backend that runs
//! against the oracle. A program linking `hq` makes the same choice.
//!
//! Exit status 2 means the choice is broken (`HQ_BACKEND` naming an unknown
//! or unsupported backend, forced backends the CPU lacks); the message says why.

use clap::Parser;
use hq::cpu::{Feature, Identity, Level};
use hq::{Backend, Bitboard, SliderAttacks, Square, WithBackend};

/// What this CPU runs and what `hq` chooses for it.
#[derive(Parser)]
#[command(version, about)]
struct Args {
    /// Make one attack call before anything else, without `hq::init()`: the
    /// first-call path of a program that never calls `init`.
    #[arg(long)]
    call: bool,
    /// Skip the self-check of every backend against the oracle.
    #[arg(long)]
    no_check: bool,
}

/// 20,000 random queen lookups against the oracle.
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
        for _ in 0..20_000 {
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
        Ok(20_000)
    }
}

fn main() {
    let args = Args::parse();
    if args.call {
        let attacks = hq::queen_attacks(Square::D4, Bitboard::EMPTY);
        println!("queen on d4, empty board: {} squares", attacks.count());
    }
    let id = Identity::detect();
    println!(
        "CPU: {} ({:?}, family {:#x}, model {:#x}, stepping {})",
        hq::cpu::brand_string().unwrap_or_else(|| hq::cpu::TARGET_ARCH.to_owned()),
        id.vendor,
        id.family,
        id.model,
        id.stepping
    );
    let features: Vec<String> = Feature::ALL
        .iter()
        .map(|f| format!("{f}{}", if f.is_detected() { "+" } else { "-" }))
        .collect();
    println!("features: {}", features.join(" "));
    let levels: Vec<&str> = [
        Level::X86V2,
        Level::X86V3,
        Level::X86V4,
        Level::Neon,
        Level::Simd128,
    ]
    .into_iter()
    .filter(|l| l.is_detected())
    .map(Level::name)
    .collect();
    println!("levels: baseline {}", levels.join(" "));
    println!("backends (general order of preference):");
    let mut failed = None;
    for &b in Backend::all() {
        let status = match b.check_supported() {
            Err(e) => format!("does not run here: {e}"),
            Ok(_) if args.no_check => "runs here".to_owned(),
            Ok(_) => match hq::with_backend(b, SelfCheck) {
                Ok(Ok(n)) => format!("runs here; {n} random queen lookups agree with the oracle"),
                Ok(Err(e)) => {
                    failed = Some(e.clone());
                    format!("SELF-CHECK FAILED: {e}")
                }
                Err(e) => format!("does not run here: {e}"),
            },
        };
        println!("  {:<22} {:<22} {status}", b.name(), b.level().name());
    }
    match hq::init() {
        Ok(selection) => {
            println!("active: {}", selection.choice.single);
            println!("{selection}");
        }
        Err(e) => {
            eprintln!("hq-info: error: {e}");
            std::process::exit(2);
        }
    }
    if let Some(e) = failed {
        eprintln!("hq-info: a backend disagrees with the oracle: {e}");
        std::process::exit(1);
    }
}
