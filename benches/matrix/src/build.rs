//! The builds and binaries the run times: one cargo build per set of
//! flags, into its own target directory; the code layouts of a binary
//! (the same objects linked in other orders); the steps' clock. Below the
//! run and the perft stage, which both build and time.

use anyhow::Context;
use cargo_metadata::Message;
use hq_bench_format::Timing;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;
use xshell::Cmd;

use crate::process::Seeds;

/// `cmd`, a cargo build, into `target/bench-matrix-build/<dir>`: one target
/// dir per `RUSTFLAGS` value (`default` without flags, else the flags'
/// `target-cpu`: `native`, `x86-64-v3`), so flipping flags never rebuilds
/// another configuration.
pub(crate) fn build_env<'a>(cmd: Cmd<'a>, rustflags: &str) -> Cmd<'a> {
    let cpu = rustflags
        .split_whitespace()
        .find_map(|flag| flag.strip_prefix("target-cpu="));
    let dir = match (rustflags.is_empty(), cpu) {
        (true, _) => "default",
        (false, Some(cpu)) => cpu,
        (false, None) => "other",
    };
    let target = crate::workspace_root().join("target/bench-matrix-build");
    // v0 symbol names keep the generic parameters, so the assembly check can
    // tell which row a workload function belongs to (no effect on code).
    let rustflags = format!("{rustflags} -C symbol-mangling-version=v0");
    // No line tables: they lengthen every build, and nothing here reads
    // them (the assembly check reads the symbols).
    cmd.env("CARGO_TARGET_DIR", target.join(dir))
        .env("RUSTFLAGS", rustflags.trim_start())
        .env("CARGO_PROFILE_BENCH_DEBUG", "false")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
}

/// The executables one build made, by target name (`attacks`, `peers`,
/// `hq-info`, ...).
pub(crate) type Executables = BTreeMap<String, PathBuf>;

/// Runs a `cargo build` with JSON messages; its executables.
pub(crate) fn build(cmd: Cmd<'_>, what: &str) -> anyhow::Result<Executables> {
    let messages = cmd
        .arg("--message-format=json-render-diagnostics")
        .read()
        .with_context(|| format!("building {what} failed"))?;
    let mut out = Executables::new();
    for message in Message::parse_stream(messages.as_bytes()) {
        if let Message::CompilerArtifact(artifact) = message?
            && let Some(exe) = artifact.executable
        {
            out.insert(artifact.target.name.clone(), exe.into_std_path_buf());
        }
    }
    Ok(out)
}

/// The linker every build links with where layouts are taken ([`layouts`]):
/// `cc` as rustc runs it (LLD, the default on x86-64 Linux), given
/// `--shuffle-sections` when `HQ_LINK_SHUFFLE` names a seed.
const LINK_IN_ORDER: &str = "#!/bin/sh
# The bench matrix's linker: cc, as rustc runs it, with the input sections
# in the order of HQ_LINK_SHUFFLE where that names a seed (LLD).
if [ -n \"$HQ_LINK_SHUFFLE\" ]; then
  exec cc \"$@\" \"-Wl,--shuffle-sections=*=$HQ_LINK_SHUFFLE\"
fi
exec cc \"$@\"
";

/// Writes [`LINK_IN_ORDER`] into `dir` where this host can take layouts
/// (x86-64 Linux, whose Rust links with LLD); the `--config` that makes
/// every build link with it, or `None`.
pub(crate) fn link_in_order(dir: &Path) -> anyhow::Result<Option<String>> {
    if !cfg!(all(target_arch = "x86_64", target_os = "linux")) {
        return Ok(None);
    }
    std::fs::create_dir_all(dir)?;
    let path = dir.join("link-in-order.sh");
    std::fs::write(&path, LINK_IN_ORDER)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
    }
    let triple = "x86_64-unknown-linux-gnu";
    Ok(Some(format!(
        "target.{triple}.linker=\"{}\"",
        path.display()
    )))
}

/// The code layouts of a binary (a bench, or the perft example): its
/// build's own link order (layout seed 0), and the same objects linked
/// again in the orders of other seeds (LLD's `--shuffle-sections` through
/// [`LINK_IN_ORDER`], the link-order randomisation of Stabilizer):
/// `rebuild` runs the build's own command again after `source` (the
/// target's own source file) is touched, so that only that target is
/// compiled and linked again, with every feature as before. Copied aside,
/// `(path, seed)`; processes take them in turn. One process is one sample
/// of layout, and a backend's lead must hold over several: link orders of
/// the same code have moved a peer's rows several times over (the commit
/// that added layouts gives the figures).
pub(crate) fn layouts(
    name: &str,
    target: &str,
    source: &Path,
    built: &Path,
    n: usize,
    seeds: &mut Seeds,
    rebuild: impl Fn(u64) -> anyhow::Result<Executables>,
) -> anyhow::Result<Layouts> {
    let dir = &crate::workspace_root().join("target/bench-matrix/layouts");
    let seeds: Vec<u64> = (1..n).map(|_| seeds.next() % 1_000_000 + 1).collect();
    std::fs::create_dir_all(dir)?;
    let aside = |exe: &Path, seed: u64| -> anyhow::Result<PathBuf> {
        let copy = dir.join(format!("{name}-{target}-layout-{seed:x}"));
        std::fs::copy(exe, &copy).with_context(|| format!("cannot copy {}", exe.display()))?;
        Ok(copy)
    };
    let touch = || -> anyhow::Result<()> {
        let file = std::fs::File::options().append(true).open(source)?;
        file.set_modified(std::time::SystemTime::now())?;
        Ok(())
    };
    let mut out = vec![(aside(built, 0)?, Some(0))];
    for &seed in &seeds {
        touch().with_context(|| format!("cannot touch {}", source.display()))?;
        let exes = rebuild(seed)?;
        let exe = exes
            .get(target)
            .with_context(|| format!("the relink made no {target} binary"))?;
        out.push((aside(exe, seed)?, Some(seed)));
    }
    // The build's own order back in place: a later build finds it fresh.
    touch()?;
    rebuild(0)?;
    Ok(out)
}

/// A build command again, linked in the order of layout `seed` (0: the
/// build's own).
pub(crate) fn in_layout(cmd: Cmd<'_>, seed: u64) -> Cmd<'_> {
    match seed {
        0 => cmd.env_remove("HQ_LINK_SHUFFLE"),
        seed => cmd.env("HQ_LINK_SHUFFLE", seed.to_string()),
    }
}

/// A binary's code layouts: each copy's path and its layout seed (`None`
/// where the run takes one layout, the build's own).
pub(crate) type Layouts = Vec<(PathBuf, Option<u64>)>;

/// Five significant digits: a sample's noise is far above that, and the
/// samples file stays a third the size.
pub(crate) fn significant(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let scale = 10f64.powi(4 - x.abs().log10().floor() as i32);
    (x * scale).round() / scale
}

/// The steps' times, kept and printed as they end.
#[derive(Default)]
pub(crate) struct Clock {
    pub(crate) timings: Vec<Timing>,
}

impl Clock {
    /// Records `step`, started at `since`.
    pub(crate) fn done(&mut self, step: &str, since: Instant) {
        let seconds = since.elapsed().as_secs_f64();
        println!("bench-matrix: {step}: {seconds:.0} s");
        self.timings.push(Timing {
            step: step.to_owned(),
            seconds,
        });
    }
}
