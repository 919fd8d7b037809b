//! `with_active_backend` monomorphizes a job only for the backends some CPU
//! class of this target can choose for single lookups (plus forced ones),
//! and once for the rest: counted from the symbols of this test binary.

use hq::{Backend, Bitboard, SliderAttacks, Square, WithBackend};
use std::hint::black_box;

/// One copy of this function per job instantiation.
#[inline(never)]
fn instantiation_probe<B: SliderAttacks>(backend: B, sq: Square) -> Bitboard {
    backend.queen_attacks(sq, Bitboard::EMPTY)
}

struct Probe;
impl WithBackend for Probe {
    type Output = Bitboard;
    fn run<B: SliderAttacks>(self, backend: B) -> Bitboard {
        instantiation_probe(black_box(backend), black_box(Square::E4))
    }
}

#[test]
fn with_active_backend_instantiates_a_job_once_per_arm() {
    assert_eq!(hq::with_active_backend(Probe).count(), 27);
    if cfg!(target_family = "wasm") {
        println!("instantiations: SKIPPED: counting symbols runs nm, and wasm has no processes");
        return;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = std::process::Command::new("nm")
        .arg("--demangle")
        .arg(&exe)
        .output()
        .expect("nm (binutils, installed beside the C linker Rust uses) lists the symbols");
    if !out.status.success() && !cfg!(target_arch = "x86_64") {
        // A cross-compiled test (aarch64 under qemu-user) runs the host's nm,
        // which may not read this target's objects.
        println!(
            "instantiations: SKIPPED: the host's nm cannot read this {} binary: {}",
            std::env::consts::ARCH,
            String::from_utf8_lossy(&out.stderr).trim()
        );
        return;
    }
    assert!(out.status.success(), "nm failed on {}", exe.display());
    let symbols = String::from_utf8_lossy(&out.stdout);
    let copies: Vec<&str> = symbols
        .lines()
        .filter(|l| l.contains("instantiation_probe"))
        .collect();
    // An arm per backend some class of this target chooses for single
    // lookups, or forced, and the fallback through the free functions.
    let mut arms: Vec<Backend> = Backend::all()
        .iter()
        .copied()
        .filter(|b| b.is_forced())
        .collect();
    for class in hq::unstable::CLASSES {
        if class
            .level
            .arch()
            .is_none_or(|a| a == std::env::consts::ARCH)
        {
            arms.extend([
                class.plan.single.rook,
                class.plan.single.bishop,
                class.plan.single.queen,
            ]);
        }
    }
    arms.sort_by_key(|b| b.name());
    arms.dedup();
    let limit = arms.len() + 1;
    println!(
        "instantiations: {} copies of a job under with_active_backend (at most {limit})",
        copies.len()
    );
    assert!(
        !copies.is_empty(),
        "no symbol found: the probe was inlined or renamed"
    );
    assert!(
        copies.len() <= limit,
        "{} copies of one job, at most {limit} expected:\n{}",
        copies.len(),
        copies.join("\n")
    );
}
