//! `cargo xtask info`: what the CPU has, which backends run, which one `hq`
//! selects, and a quick self-check of every supported backend against the oracle.

use hq::{Backend, Bitboard, SliderAttacks, Square, WithBackend};

struct SelfCheck;

impl WithBackend for SelfCheck {
    type Output = Result<u64, String>;
    fn run<B: SliderAttacks>(self, backend: B) -> Result<u64, String> {
        let mut state = 0x1234_5678_9ABC_DEF1u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut checked = 0;
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
            checked += 1;
        }
        Ok(checked)
    }
}

/// Prints the report; an error if any supported backend disagrees with the oracle.
pub fn run(_args: &[String]) -> Result<(), String> {
    let features = [
        "ssse3",
        "avx2",
        "bmi2",
        "avx512f",
        "avx512bw",
        "avx512vbmi",
        "gfni",
    ];
    let line = |f: &&str| format!("{f}{}", if hq::cpu_has_feature(f) { "+" } else { "-" });
    println!(
        "CPU features: {}",
        features.iter().map(line).collect::<Vec<_>>().join(" ")
    );
    println!("{:<22} {:<40} status", "backend", "needs");
    for &b in Backend::all() {
        let status = match hq::with_backend(b, SelfCheck) {
            Ok(Ok(n)) => format!("ok: {n} random queen lookups agree with the oracle"),
            Ok(Err(e)) => return Err(format!("self-check failed: {e}")),
            Err(_) => format!("skipped: CPU lacks {}", b.missing_features().join(", ")),
        };
        println!(
            "{:<22} {:<40} {status}",
            b.name(),
            b.required_features().join(", ")
        );
    }
    println!(
        "detected: {}   selection: {:?}",
        Backend::detected(),
        hq::selection()
    );
    let active = hq::init().map_err(|e| e.to_string())?;
    println!("active backend: {active}");
    Ok(())
}
