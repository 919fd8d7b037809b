//! `hq-info`: what this CPU supports and which backend `hq` picks.
//!
//! `hq-info` prints the report; `hq-info --call` makes one attack call
//! without [`hq::init`] first (to show the first-call path); exit status 2
//! means the backend choice is broken (the message says why).

use hq::{Backend, Bitboard, Square};

fn main() {
    let call_first = std::env::args().any(|a| a == "--call");
    if call_first {
        let attacks = hq::queen_attacks(Square::D4, Bitboard::EMPTY);
        println!("queen on d4, empty board: {} squares", attacks.count());
    }
    let features = [
        "ssse3",
        "avx2",
        "bmi2",
        "avx512f",
        "avx512bw",
        "avx512vbmi",
        "gfni",
    ];
    let present: Vec<&str> = features
        .iter()
        .copied()
        .filter(|f| hq::cpu_has_feature(f))
        .collect();
    println!("CPU features: {}", present.join(" "));
    println!("backends compiled in (order of preference):");
    for b in Backend::all() {
        let status = if b.is_supported() {
            "supported".to_string()
        } else {
            format!("unsupported (missing {})", b.missing_features().join(", "))
        };
        println!(
            "  {:<22} needs [{}]: {status}",
            b.name(),
            b.required_features().join(", ")
        );
    }
    println!("detected: {}", Backend::detected());
    println!("selection: {:?}", hq::selection());
    match hq::init() {
        Ok(b) => {
            println!("active: {b}");
            if hq::active_batch_backend() != b {
                println!("batch entry points: {}", hq::active_batch_backend());
            }
        }
        Err(e) => {
            eprintln!("hq-info: error: {e}");
            std::process::exit(2);
        }
    }
}
