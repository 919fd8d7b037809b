//! `cargo xtask bench-matrix adoption`: what a new user pays to take the
//! library, beside the peers. One small program per crate (the README's quick
//! start and a loop of 100 million queen lookups), and the `hq-attacks` one
//! again with its loop in a `multiversion` function (what every user would
//! build if the library took its levels from `multiversion`'s proc macro
//! rather than a `macro_rules!`), each built as its own
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

/// Rounds of the builds (each program's release and debug build).
pub const ROUNDS: usize = 3;

/// The `hq-attacks` program with `multiversion`'s proc macro beside it.
const WITH_MULTIVERSION: &str = "hq-attacks+multiversion";

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

/// [`HQ`]'s loop in a function that `multiversion` compiles for x86-64-v3
/// and v2 (as the benches' reference rows are).
const HQ_MULTIVERSION: &str = r#"
use hq::{Bitboard, Square};

#[multiversion::multiversion(targets(
    "x86_64+avx2+bmi1+bmi2+fma+lzcnt+movbe+popcnt",
    "x86_64+sse4.2+popcnt+ssse3"
))]
fn lookups() {
    LOOP
}

fn main() -> Result<(), hq::BackendError> {
    hq::init()?;
    let occupancy = Bitboard::from(Square::E7) | Square::B4;
    let attacks = hq::rook_attacks(Square::E4, occupancy);
    assert!(attacks.contains(Square::E7) && !attacks.contains(Square::E8));
    println!("{attacks}");
    println!("{}", hq::selection());
    lookups();
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
        "hq-attacks" | WITH_MULTIVERSION => {
            "hq::queen_attacks(Square::from_index_masked(sq), Bitboard(occ)).0"
        }
        "cozy-chess" => {
            "{ let (s, o) = (Square::index(sq as usize), BitBoard(occ)); \
             (get_rook_moves(s, o) | get_bishop_moves(s, o)).0 }"
        }
        _ => "u64::from(attacks::queen_attacks(Square::new(u32::from(sq)), Bitboard(occ)))",
    }
}

/// The programs: `hq-attacks`, the peers at the versions the workspace's
/// benches use (its `Cargo.lock` is copied into each project), with default
/// features, and `hq-attacks` with `multiversion` last.
fn programs(root: &Path) -> Vec<Program> {
    let hq = root.join("crates/hq");
    let hq = format!("hq-attacks = {{ path = {:?} }}", hq.display().to_string());
    vec![
        Program {
            name: "hq-attacks",
            dependency: hq.clone(),
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
        Program {
            name: WITH_MULTIVERSION,
            dependency: format!("{hq}\nmultiversion = \"0.9\""),
            source: HQ_MULTIVERSION,
        },
    ]
}

/// One program's figures: its build times per round.
struct Cost {
    name: &'static str,
    release_s: Vec<f64>,
    debug_s: Vec<f64>,
    stripped_bytes: u64,
    /// Its release binary's read-only data (where its tables are).
    rodata_bytes: u64,
}

/// The name of a program's package and its directory: its crate's name,
/// `+` as `-`.
fn package(name: &str) -> String {
    name.replace('+', "-")
}

/// Writes `program`'s project under `dir`.
fn write_project(root: &Path, dir: &Path, program: &Program) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir.join("src"))?;
    let manifest = format!(
        "[package]\nname = \"adoption-{}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
         publish = false\n\n[dependencies]\n{}\n\n[workspace]\n",
        package(program.name),
        program.dependency
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
    let binary = dir.join(format!("target/release/adoption-{}", package(program.name)));
    let stripped = dir.join("stripped");
    std::fs::copy(&binary, &stripped)?;
    let strip = std::process::Command::new("strip").arg(&stripped).status();
    ensure!(
        strip.is_ok_and(|s| s.success()),
        "`strip` failed or is missing (binutils): the stripped size needs it"
    );
    Ok(std::fs::metadata(&stripped)?.len())
}

/// The read-only data of `program`'s release binary, built in `dir`: its
/// `.rodata` sections (`size -A`), where the attack tables of every crate
/// here are (a symbol table misses those compiled as anonymous constants).
fn read_only_data(dir: &Path, program: &Program) -> anyhow::Result<u64> {
    let binary = dir.join(format!("target/release/adoption-{}", package(program.name)));
    let out = std::process::Command::new("size")
        .arg("-A")
        .arg(&binary)
        .output();
    let out = out.ok().filter(|o| o.status.success());
    let out = out.context("`size` failed or is missing (binutils): the read-only data needs it")?;
    // `section size address` lines.
    let bytes: u64 = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let (name, size) = (words.next()?, words.next()?);
            name.starts_with(".rodata")
                .then(|| size.parse::<u64>().ok())?
        })
        .sum();
    ensure!(bytes > 0, "no .rodata section in {}", binary.display());
    Ok(bytes)
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

/// The Markdown report: a row per program (medians over the rounds), and
/// hq-attacks ÷ the slower peer, per round; then what `multiversion` adds
/// to hq-attacks's release build, per round. [`parse`] reads it back.
fn report(cpu: &str, commit: &str, costs: &[Cost]) -> String {
    let rounds = costs.first().map_or(0, |c| c.release_s.len());
    let mut md = format!(
        "# What a user program costs to build\n\n{cpu}, commit `{commit}`: the README's quick \
         start and 100 million queen lookups, each crate's program built as its own project \
         from an empty target directory, {rounds} rounds of the programs' builds in turn \
         (`cargo xtask bench-matrix adoption`). Times: medians of the rounds.\n\n\
         | crate | `cargo build --release` s | `cargo build` s | stripped binary bytes | \
         read-only data bytes |\n\
         |---|---:|---:|---:|---:|\n"
    );
    for c in costs {
        md += &format!(
            "| {} | {:.1} | {:.1} | {} | {} |\n",
            c.name,
            median(&c.release_s),
            median(&c.debug_s),
            c.stripped_bytes,
            c.rodata_bytes
        );
    }
    let hq = costs.iter().find(|c| c.name == "hq-attacks");
    let peers: Vec<&Cost> = costs
        .iter()
        .filter(|c| !c.name.starts_with("hq-attacks"))
        .collect();
    if let Some(hq) = hq.filter(|_| !peers.is_empty()) {
        let of = |f: fn(&Cost) -> &[f64]| {
            paired_ratio(f(hq), &peers.iter().map(|c| f(c)).collect::<Vec<_>>())
        };
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
    if let (Some(hq), Some(with)) = (hq, costs.iter().find(|c| c.name == WITH_MULTIVERSION)) {
        md += &format!(
            "\n{WITH_MULTIVERSION} ÷ {}, per round (median, lowest–highest): release build \
             {}.\n",
            hq.name,
            paired_ratio(&with.release_s, &[&hq.release_s])
        );
    }
    md
}

/// One program's row of a report, as [`parse`] reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The program's crate (`hq-attacks`, a peer, `hq-attacks+multiversion`).
    pub name: String,
    /// Median `cargo build --release` seconds.
    pub release_s: f64,
    /// Median `cargo build` seconds.
    pub debug_s: f64,
    /// The stripped release binary.
    pub stripped_bytes: u64,
    /// Its read-only data, tables included (reports written before the
    /// column have none).
    pub rodata_bytes: Option<u64>,
}

/// A paired ratio of a report: median, lowest, highest.
pub type Ratio = (f64, f64, f64);

/// A report read back: what the README's cost table quotes.
#[derive(Clone, Debug, PartialEq)]
pub struct Adoption {
    /// The commit it measured.
    pub commit: String,
    /// A row per program, in the report's order.
    pub rows: Vec<Row>,
    /// hq-attacks ÷ the slower peer: release and debug builds.
    pub release: Ratio,
    /// As `release`, for the debug build.
    pub debug: Ratio,
    /// hq-attacks's stripped binary ÷ the larger peer's.
    pub size: f64,
    /// `hq-attacks+multiversion` ÷ hq-attacks, release build (reports
    /// written before that program have none).
    pub multiversion: Option<Ratio>,
}

impl Adoption {
    /// The row of `name`.
    pub fn row(&self, name: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.name == name)
    }
}

/// `1.46× (1.40–1.90)` as numbers.
fn parse_ratio(text: &str) -> Option<Ratio> {
    let (median, rest) = text.trim().split_once("× (")?;
    let (low, rest) = rest.split_once('–')?;
    let high = rest.split(')').next()?;
    Some((median.parse().ok()?, low.parse().ok()?, high.parse().ok()?))
}

/// Reads back a report [`report`] wrote (the committed `adoption.md`).
pub fn parse(md: &str) -> anyhow::Result<Adoption> {
    let commit = md
        .split_once("commit `")
        .and_then(|(_, rest)| rest.split('`').next())
        .context("no commit")?
        .to_owned();
    let mut rows = Vec::new();
    for line in md
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| crate"))
    {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let (name, release, debug, bytes, rodata) = match cells[..] {
            [name, release, debug, bytes] => (name, release, debug, bytes, None),
            [name, release, debug, bytes, rodata] => {
                (name, release, debug, bytes, Some(rodata.parse()?))
            }
            _ => anyhow::bail!("a row of four or five cells: {line}"),
        };
        rows.push(Row {
            name: name.to_owned(),
            release_s: release.parse()?,
            debug_s: debug.parse()?,
            stripped_bytes: bytes.parse()?,
            rodata_bytes: rodata,
        });
    }
    let after = |key: &str| md.split_once(key).map(|(_, rest)| rest);
    let release = after("release build ").and_then(parse_ratio);
    let debug = after("debug build ").and_then(parse_ratio);
    let size = after("; stripped binary ")
        .and_then(|s| s.split('×').next())
        .and_then(|s| s.trim().parse().ok());
    let multiversion = md
        .split_once(&format!("{WITH_MULTIVERSION} ÷ "))
        .and_then(|(_, rest)| rest.split_once("release build "))
        .and_then(|(_, rest)| parse_ratio(rest));
    let (Some(release), Some(debug), Some(size)) = (release, debug, size) else {
        anyhow::bail!("no ratios to the slower peer");
    };
    ensure!(!rows.is_empty(), "no rows");
    Ok(Adoption {
        commit,
        rows,
        release,
        debug,
        size,
        multiversion,
    })
}

/// The task: builds the programs and writes `adoption.md`.
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

/// Builds the programs and writes `out/adoption.md`, naming `cpu`
/// and `commit` (the bench matrix's default and `--full` runs end with it).
pub fn write(out: &Path, cpu: &Cpu, commit: &str) -> anyhow::Result<()> {
    let root = crate::workspace_root();
    let scratch = std::env::temp_dir().join(format!("hq-adoption-{}", std::process::id()));
    let programs = programs(&root);
    let mut costs = Vec::new();
    for program in &programs {
        prepare(&root, &scratch.join(package(program.name)), program)?;
        costs.push(Cost {
            name: program.name,
            release_s: Vec::new(),
            debug_s: Vec::new(),
            stripped_bytes: 0,
            rodata_bytes: 0,
        });
    }
    for round in 1..=ROUNDS {
        for (program, cost) in programs.iter().zip(&mut costs) {
            let dir = scratch.join(package(program.name));
            println!(
                "==> adoption round {round}/{ROUNDS}: {} (release, then debug, from an empty target)",
                program.name
            );
            cost.release_s.push(timed_build(&dir, &["--release"])?);
            cost.stripped_bytes = stripped_size(&dir, program)?;
            cost.rodata_bytes = read_only_data(&dir, program)?;
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
    fn the_report_divides_by_the_slower_peer_per_round_and_reads_back() {
        let cost = |name, release_s: [f64; 3], debug_s: [f64; 3], stripped_bytes| Cost {
            name,
            release_s: release_s.to_vec(),
            debug_s: debug_s.to_vec(),
            stripped_bytes,
            rodata_bytes: stripped_bytes / 2,
        };
        let md = report(
            "cpu",
            "abc",
            &[
                cost("hq-attacks", [9.0, 18.0, 12.0], [4.0, 4.0, 4.0], 1_500_000),
                cost("cozy-chess", [5.0, 10.0, 6.0], [2.0, 2.0, 2.0], 1_000_000),
                // The slower peer in release: 6, 12, 8 (ratios 1.5, 1.5, 1.5).
                cost("shakmaty", [6.0, 12.0, 8.0], [8.0, 8.0, 16.0], 1_200_000),
                cost(
                    WITH_MULTIVERSION,
                    [18.0, 27.0, 24.0],
                    [8.0, 8.0, 8.0],
                    1_600_000,
                ),
            ],
        );
        // Paired per round, the release ratio is steady where the medians'
        // (12 ÷ 8) agree; the debug ratios 0.5, 0.5, 0.25.
        assert!(
            md.contains("release build 1.50× (1.50–1.50), debug build 0.50× (0.25–0.50); stripped binary 1.25×"),
            "{md}"
        );
        assert!(
            md.contains("| hq-attacks | 12.0 | 4.0 | 1500000 | 750000 |"),
            "{md}"
        );
        assert!(md.contains("3 rounds"), "{md}");
        // multiversion ÷ hq: 2.0, 1.5, 2.0.
        assert!(md.contains("release build 2.00× (1.50–2.00)."), "{md}");
        let read = parse(&md).expect("the report reads back");
        assert_eq!(read.commit, "abc");
        assert_eq!(read.rows.len(), 4);
        assert_eq!(read.row("shakmaty").map(|r| r.release_s), Some(8.0));
        assert_eq!(
            read.row("hq-attacks").and_then(|r| r.rodata_bytes),
            Some(750_000)
        );
        // A report written before the column reads back without it.
        let old = md.replace(" | 750000 |", " |");
        let old = parse(&old).expect("an older report reads back");
        assert_eq!(old.row("hq-attacks").unwrap().rodata_bytes, None);
        assert_eq!(
            (read.release, read.debug),
            ((1.5, 1.5, 1.5), (0.5, 0.25, 0.5))
        );
        assert_eq!(read.size, 1.25);
        assert_eq!(read.multiversion, Some((2.0, 1.5, 2.0)));
    }

    /// The committed reports read back, those written before the
    /// `multiversion` program too.
    #[test]
    fn every_committed_report_reads_back() {
        let dir = crate::workspace_root().join("benches/results");
        let mut read = 0;
        for entry in std::fs::read_dir(&dir).expect("benches/results") {
            let file = entry.expect("an entry").path().join("adoption.md");
            if let Ok(md) = std::fs::read_to_string(&file) {
                let a = parse(&md).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                assert!(a.row("hq-attacks").is_some(), "{}", file.display());
                read += 1;
            }
        }
        assert!(read > 0, "no committed adoption.md");
    }
}
