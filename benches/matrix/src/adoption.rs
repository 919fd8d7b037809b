//! `cargo xtask bench-matrix adoption`: what a new user pays to take the
//! library, beside the peers. One small program per crate (the README's quick
//! start and a loop of 100 million queen lookups), each built as its own
//! project outside the workspace (so that neither the workspace's
//! `.cargo/config.toml` nor its profiles apply), from an empty target
//! directory, `cargo build --release` and `cargo build`, one after another;
//! then its release binary stripped. Writes `adoption.md` beside the run's
//! `results.json`. Build times are wall-clock seconds: a figure of this
//! machine's load as much as of the crate (one build of the hq program took
//! 31.9 s and then 25.3 s on the same Intel Xeon 6/0xa7), so the three
//! programs build in [`ROUNDS`] rounds, taking turns, and the report gives
//! each build's median and the ratio of each round, paired: what slowed a
//! round slowed its three programs alike.

use anyhow::{Context as _, ensure};
use hq_bench_format::Cpu;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// `cargo xtask bench-matrix adoption`'s options.
#[derive(clap::Args)]
pub struct Args {
    /// Where to write `adoption.md` (default: benches/results/CPU-ID/).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Rounds of the six builds (each program's release and debug build).
pub const ROUNDS: usize = 3;

/// A user program: the crate it shows, its dependency line and its source.
struct Program {
    name: &'static str,
    dependency: String,
    source: &'static str,
}

/// The loop all three programs run: 100 million queen lookups over a
/// xorshift sequence of squares and occupancies, folded so that none is
/// optimised away. `LOOKUP` is each crate's queen call on `(sq, occ)`.
const LOOP: &str = r#"
    let (mut x, mut acc) = (0x9E37_79B9_7F4A_7C15u64, 0u64);
    for _ in 0..100_000_000u32 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let (sq, occ) = ((x & 63) as u8, x & (x >> 29));
        acc ^= LOOKUP;
    }
    println!("{acc}");
"#;

const HQ: &str = r#"
use hq::{Bitboard, Square};

fn main() -> Result<(), hq::BackendError> {
    hq::init()?;
    let occupancy = Bitboard::from(Square::E7) | Square::B4;
    let attacks = hq::rook_attacks(Square::E4, occupancy);
    assert!(attacks.contains(Square::E7) && !attacks.contains(Square::E8));
    println!("{attacks}");
    println!("{}", hq::selection());
    LOOP
    Ok(())
}
"#;

const COZY: &str = r#"
use cozy_chess::{BitBoard, Square, get_bishop_moves, get_rook_moves};

fn main() {
    let occupancy = Square::E7.bitboard() | Square::B4.bitboard();
    let attacks = get_rook_moves(Square::E4, occupancy);
    assert!(attacks.has(Square::E7) && !attacks.has(Square::E8));
    println!("{attacks:?}");
    LOOP
}
"#;

const SHAKMATY: &str = r#"
use shakmaty::{Bitboard, Square, attacks};

fn main() {
    let occupancy = Bitboard::from(Square::E7) | Bitboard::from(Square::B4);
    let rook = attacks::rook_attacks(Square::E4, occupancy);
    assert!(rook.contains(Square::E7) && !rook.contains(Square::E8));
    println!("{rook:?}");
    LOOP
}
"#;

/// Each crate's queen lookup of `(sq: u8, occ: u64)` as a `u64`.
fn lookup(name: &str) -> &'static str {
    match name {
        "hq-attacks" => "hq::queen_attacks(Square::from_index_masked(sq), Bitboard(occ)).0",
        "cozy-chess" => {
            "{ let (s, o) = (Square::index(sq as usize), BitBoard(occ)); \
             (get_rook_moves(s, o) | get_bishop_moves(s, o)).0 }"
        }
        _ => "u64::from(attacks::queen_attacks(Square::new(u32::from(sq)), Bitboard(occ)))",
    }
}

/// The three programs: the peers at the versions the workspace's benches use
/// (its `Cargo.lock` is copied into each project), with default features.
fn programs(root: &Path) -> Vec<Program> {
    let hq = root.join("crates/hq");
    vec![
        Program {
            name: "hq-attacks",
            dependency: format!("hq-attacks = {{ path = {:?} }}", hq.display().to_string()),
            source: HQ,
        },
        Program {
            name: "cozy-chess",
            dependency: "cozy-chess = \"=0.3.4\"".into(),
            source: COZY,
        },
        Program {
            name: "shakmaty",
            dependency: "shakmaty = \"=0.30.1\"".into(),
            source: SHAKMATY,
        },
    ]
}

/// One program's figures: its build times per round.
struct Cost {
    name: &'static str,
    release_s: Vec<f64>,
    debug_s: Vec<f64>,
    stripped_bytes: u64,
}

/// Writes `program`'s project under `dir`.
fn write_project(root: &Path, dir: &Path, program: &Program) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir.join("src"))?;
    let manifest = format!(
        "[package]\nname = \"adoption-{}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
         publish = false\n\n[dependencies]\n{}\n\n[workspace]\n",
        program.name, program.dependency
    );
    std::fs::write(dir.join("Cargo.toml"), manifest)?;
    let body = LOOP.replace("LOOKUP", lookup(program.name));
    std::fs::write(
        dir.join("src/main.rs"),
        program.source.replace("LOOP", &body),
    )?;
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock"))?;
    Ok(())
}

/// Seconds of `cargo build ARGS` in `dir` from an empty target directory,
/// with none of the caller's build settings (as a user's shell has none).
fn timed_build(dir: &Path, args: &[&str]) -> anyhow::Result<f64> {
    let target = dir.join("target");
    if target.exists() {
        std::fs::remove_dir_all(&target)?;
    }
    let mut cmd = std::process::Command::new(crate::CARGO);
    cmd.arg("build").arg("--quiet").args(args).current_dir(dir);
    for (key, _) in std::env::vars() {
        let build_setting = key.starts_with("CARGO_PROFILE_")
            || key.starts_with("CARGO_BUILD_")
            || key.starts_with("CARGO_TARGET_")
            || ["CARGO_INCREMENTAL", "RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS"]
                .contains(&key.as_str());
        if build_setting {
            cmd.env_remove(key);
        }
    }
    let started = Instant::now();
    let status = cmd
        .status()
        .with_context(|| format!("cannot run cargo in {}", dir.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    ensure!(
        status.success(),
        "cargo build {} failed in {}",
        args.join(" "),
        dir.display()
    );
    Ok(seconds)
}

/// Writes `program`'s project in `dir` and fetches its crates (a no-op
/// where they are cached), so that the timed builds only compile.
fn prepare(root: &Path, dir: &Path, program: &Program) -> anyhow::Result<()> {
    write_project(root, dir, program)?;
    let fetch = std::process::Command::new(crate::CARGO)
        .arg("fetch")
        .arg("--quiet")
        .current_dir(dir)
        .status()?;
    ensure!(fetch.success(), "cargo fetch failed in {}", dir.display());
    Ok(())
}

/// The stripped size of `program`'s release binary, built in `dir`.
fn stripped_size(dir: &Path, program: &Program) -> anyhow::Result<u64> {
    let binary = dir.join(format!("target/release/adoption-{}", program.name));
    let stripped = dir.join("stripped");
    std::fs::copy(&binary, &stripped)?;
    let strip = std::process::Command::new("strip").arg(&stripped).status();
    ensure!(
        strip.is_ok_and(|s| s.success()),
        "`strip` failed or is missing (binutils): the stripped size needs it"
    );
    Ok(std::fs::metadata(&stripped)?.len())
}

/// The median of the rounds' figures `v`.
fn median(v: &[f64]) -> f64 {
    hq_bench_stats::median(&mut v.to_vec())
}

/// `hq`'s time ÷ the slower peer's, per round: their median, lowest and
/// highest, as `1.46× (1.40–1.90)`.
fn paired_ratio(hq: &[f64], peers: &[&[f64]]) -> String {
    let ratios: Vec<f64> = (0..hq.len())
        .map(|r| hq[r] / peers.iter().map(|p| p[r]).fold(0.0, f64::max))
        .collect();
    let (low, high) = ratios
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
    format!("{:.2}× ({low:.2}–{high:.2})", median(&ratios))
}

/// The Markdown report: a row per crate (medians over the rounds), and
/// hq-attacks ÷ the slower peer, per round.
fn report(cpu: &str, commit: &str, costs: &[Cost]) -> String {
    let rounds = costs.first().map_or(0, |c| c.release_s.len());
    let mut md = format!(
        "# What a user program costs to build\n\n{cpu}, commit `{commit}`: the README's quick \
         start and 100 million queen lookups, each crate's program built as its own project \
         from an empty target directory, {rounds} rounds of the three programs' builds in turn \
         (`cargo xtask bench-matrix adoption`). Times: medians of the rounds.\n\n\
         | crate | `cargo build --release` s | `cargo build` s | stripped binary bytes |\n\
         |---|---:|---:|---:|\n"
    );
    for c in costs {
        md += &format!(
            "| {} | {:.1} | {:.1} | {} |\n",
            c.name,
            median(&c.release_s),
            median(&c.debug_s),
            c.stripped_bytes
        );
    }
    if let [hq, peers @ ..] = costs {
        let of =
            |f: fn(&Cost) -> &[f64]| paired_ratio(f(hq), &peers.iter().map(f).collect::<Vec<_>>());
        let size = peers.iter().map(|c| c.stripped_bytes).max().unwrap_or(1);
        let size = hq.stripped_bytes as f64 / size as f64;
        md += &format!(
            "\n{} ÷ the slower (larger) peer, per round (median, lowest–highest): release build \
             {}, debug build {}; stripped binary {size:.2}×.\n",
            hq.name,
            of(|c| &c.release_s),
            of(|c| &c.debug_s),
        );
    }
    md
}

/// The task: builds the three programs and writes `adoption.md`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let cpu = crate::cpu::detect();
    let out = match &args.out {
        Some(dir) => dir.clone(),
        None => crate::workspace_root()
            .join("benches/results")
            .join(&cpu.id),
    };
    write(&out, &cpu, &crate::git_commit())
}

/// Builds the three programs and writes `out/adoption.md`, naming `cpu`
/// and `commit` (the bench matrix's default and `--full` runs end with it).
pub fn write(out: &Path, cpu: &Cpu, commit: &str) -> anyhow::Result<()> {
    let root = crate::workspace_root();
    let scratch = std::env::temp_dir().join(format!("hq-adoption-{}", std::process::id()));
    let programs = programs(&root);
    let mut costs = Vec::new();
    for program in &programs {
        prepare(&root, &scratch.join(program.name), program)?;
        costs.push(Cost {
            name: program.name,
            release_s: Vec::new(),
            debug_s: Vec::new(),
            stripped_bytes: 0,
        });
    }
    for round in 1..=ROUNDS {
        for (program, cost) in programs.iter().zip(&mut costs) {
            let dir = scratch.join(program.name);
            println!(
                "==> adoption round {round}/{ROUNDS}: {} (release, then debug, from an empty target)",
                program.name
            );
            cost.release_s.push(timed_build(&dir, &["--release"])?);
            cost.stripped_bytes = stripped_size(&dir, program)?;
            cost.debug_s.push(timed_build(&dir, &[])?);
            println!(
                "ok: {}: release {:.1} s, debug {:.1} s, stripped {} bytes",
                cost.name,
                cost.release_s[round - 1],
                cost.debug_s[round - 1],
                cost.stripped_bytes
            );
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    let name = format!("{} (`{}`)", cpu.model_name, cpu.id);
    let md = report(&name, commit, &costs);
    std::fs::create_dir_all(out)?;
    let file = out.join("adoption.md");
    hq_bench_format::write_atomically(&file, md.as_bytes()).map_err(anyhow::Error::msg)?;
    print!("{md}");
    println!("adoption: wrote {}", file.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_program_has_its_lookup_in_the_loop() {
        let root = crate::workspace_root();
        for p in programs(&root) {
            let body = LOOP.replace("LOOKUP", lookup(p.name));
            let source = p.source.replace("LOOP", &body);
            assert!(
                !source.contains("LOOKUP") && !source.contains("LOOP\n"),
                "{}",
                p.name
            );
            assert!(source.contains(lookup(p.name)), "{}", p.name);
        }
    }

    #[test]
    fn the_report_divides_by_the_slower_peer_per_round() {
        let cost = |name, release_s: [f64; 3], debug_s: [f64; 3], stripped_bytes| Cost {
            name,
            release_s: release_s.to_vec(),
            debug_s: debug_s.to_vec(),
            stripped_bytes,
        };
        let md = report(
            "cpu",
            "abc",
            &[
                cost("hq-attacks", [9.0, 18.0, 12.0], [4.0, 4.0, 4.0], 1_500_000),
                cost("cozy-chess", [5.0, 10.0, 6.0], [2.0, 2.0, 2.0], 1_000_000),
                // The slower peer in release: 6, 12, 8 (ratios 1.5, 1.5, 1.5).
                cost("shakmaty", [6.0, 12.0, 8.0], [8.0, 8.0, 16.0], 1_200_000),
            ],
        );
        // Paired per round, the release ratio is steady where the medians'
        // (12 ÷ 8) agree; the debug ratios 0.5, 0.5, 0.25.
        assert!(
            md.contains("release build 1.50× (1.50–1.50), debug build 0.50× (0.25–0.50); stripped binary 1.25×"),
            "{md}"
        );
        assert!(md.contains("| hq-attacks | 12.0 | 4.0 | 1500000 |"), "{md}");
        assert!(md.contains("3 rounds"), "{md}");
    }
}
