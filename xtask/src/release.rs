//! The steps of `cargo xtask test` that check what users get from the
//! registry: the `no_std` facade, `cargo package` and the MSRV.

use crate::cargo;
use anyhow::Context;
use cargo_metadata::{MetadataCommand, Package};
use std::path::PathBuf;
use xshell::cmd;

/// The directory of the builds for this CPU (`-C target-cpu=native`):
/// the native facade's here, and the forced backend at its level
/// (`forced_below_and_at_level`), so that the crates compile once for it.
pub const NATIVE_DIR: &str = "target/native";
/// Their flags.
pub const NATIVE_FLAGS: &str = "-C target-cpu=native";

/// The facade without `std`: its free functions against the oracle on the
/// compile-time choice of a plain and of a native build, and bare-metal
/// builds (no `std` to link at all); and the `std` facade's tests natively,
/// where the build's level fixes cells at compile time (every class that
/// can run it agrees on them: `hq_plan::classes::fixed`), a path no other
/// step compiles.
///
/// The tests are unoptimised: they check the choice a build makes and a
/// sample against the oracle in well under a second, where optimising
/// their four builds cost over a minute of CI. The plain build shares the
/// workspace's target directory and the forced builds' profile (their
/// crates compile once); the native ones [`NATIVE_DIR`]. The bare-metal
/// builds keep both profiles.
pub fn no_std() -> anyhow::Result<()> {
    let sh = crate::sh()?;
    let test = "test -p hq-attacks --no-default-features --test no_std \
                --config profile.test.opt-level=0 -- --nocapture";
    cargo(&sh, test).run()?;
    let bare = format!("{}-unknown-none", std::env::consts::ARCH);
    if crate::cross::has_target(&bare) {
        // Release and dev: an unoptimised build once met an LLVM error there
        // (SIMD code a no-SSE target cannot lower) that the release build hid.
        let build = format!("build -p hq-attacks --no-default-features --target {bare}");
        cargo(&sh, &build).args(["--profile", "release"]).run()?;
        cargo(&sh, &build).args(["--profile", "dev"]).run()?;
    } else {
        let why = format!("rustup target {bare} is not installed (rustup target add {bare})");
        crate::skips::missing_tool("no_std bare-metal build", &why)?;
    }
    sh.set_var("CARGO_TARGET_DIR", NATIVE_DIR);
    sh.set_var("RUSTFLAGS", NATIVE_FLAGS);
    cargo(&sh, test).run()?;
    // `--lib`: the route's unit tests, where the build's level decides
    // which class's arms it inlines, and the class table's, where it
    // decides which cells are fixed at compile time.
    let std_tests = "--lib --test facade --test switching --test plan --test first_use";
    let std_tests = format!(
        "test -p hq-attacks -p hq-plan {std_tests} --config profile.test.opt-level=0 -- --nocapture"
    );
    cargo(&sh, &std_tests).run()?;
    Ok(())
}

/// The workspace's publishable packages (`publish` is `Some([])` for
/// `publish = false`, `None` for any registry).
fn publishable() -> anyhow::Result<Vec<Package>> {
    let mut packages = MetadataCommand::new().no_deps().exec()?.packages;
    packages.retain(|p| p.publish.as_ref().is_none_or(|to| !to.is_empty()));
    Ok(packages)
}

/// `cargo package` of every publishable crate at once (cargo verifies each
/// against the others' packaged sources), in its own target directory emptied
/// first: cargo compiles a registry dependency once per name and version, so
/// an older commit's build of a packaged crate would be reused.
pub fn package() -> anyhow::Result<()> {
    let crates = publishable()?;
    forget_stale_overlay_sources(&crates)?;
    let names: Vec<&str> = crates.iter().map(|p| p.name.as_str()).collect();
    println!("publishable crates: {}", names.join(", "));
    let (sh, target) = (crate::sh()?, "target/package-check");
    sh.remove_path(target)?;
    sh.set_var("CARGO_TARGET_DIR", target);
    let packages = names.iter().flat_map(|name| ["-p", name]);
    cargo(&sh, "package --allow-dirty").args(packages).run()?;
    Ok(())
}

/// Removes this workspace's crates from cargo's unpacked local-registry
/// sources, so that `cargo package` verifies against today's code.
///
/// Cargo unpacks the packaged dependencies once per name and version into
/// `$CARGO_HOME/registry/src/-<hash of the temporary registry's path>/`:
/// where an older commit was packaged in the same checkout path (a CI
/// runner), verification compiled against the old sources and failed.
fn forget_stale_overlay_sources(crates: &[Package]) -> anyhow::Result<()> {
    let home = std::env::var_os("CARGO_HOME").map(PathBuf::from);
    let Some(home) = home.or_else(|| std::env::home_dir().map(|h| h.join(".cargo"))) else {
        return Ok(());
    };
    let (sh, sources, mut removed) = (crate::sh()?, home.join("registry/src"), 0);
    for registry in sh.read_dir(&sources).unwrap_or_default() {
        // Local registries' sources are `-<hash>`: crates.io's stay.
        let name = registry.file_name().unwrap_or_default().to_string_lossy();
        for p in crates.iter().filter(|_| name.starts_with('-')) {
            let unpacked = registry.join(format!("{}-{}", p.name, p.version));
            if unpacked.is_dir() {
                sh.remove_path(unpacked)?;
                removed += 1;
            }
        }
    }
    if removed > 0 {
        let from = sources.display();
        println!("removed {removed} stale unpacked copies of this workspace's crates from {from}");
    }
    Ok(())
}

/// The publishable crates' `rust-version`, checked with that toolchain
/// (installed by `.ci/run`; SKIPPED with the reason when rustup lacks it).
pub fn msrv() -> anyhow::Result<()> {
    let crates = publishable()?;
    let version = crates.iter().filter_map(|p| p.rust_version.as_ref()).max();
    let version = version.context("no publishable crate has a rust-version")?;
    // rustup's toolchain as Cargo.toml names it: `1.89`, not `1.89.0`.
    let version = version.to_string();
    let version = version.strip_suffix(".0").unwrap_or(&version);
    let sh = crate::sh()?;
    let probe = cmd!(sh, "rustup run {version} rustc --version");
    if probe.output().is_err() {
        let install = format!("rustup toolchain install {version} --profile minimal");
        let why = format!("rust {version} is not installed ({install})");
        return crate::skips::missing_tool("MSRV", &why);
    }
    // What a dependent compiles: the libraries and binaries (their tests and
    // benches may use newer dev-dependencies). `cargo +VERSION` goes through
    // rustup's proxy, not the cargo that runs xtask.
    sh.set_var("CARGO_TARGET_DIR", "target/msrv");
    let packages = crates.iter().flat_map(|p| ["-p", p.name.as_str()]);
    let no_std = ["-p", "hq-attacks", "--no-default-features"];
    for args in [packages.collect(), no_std.to_vec()] {
        let check = cmd!(sh, "cargo +{version} check {args...}");
        check.run().context("the MSRV in Cargo.toml is wrong")?;
    }
    Ok(())
}
