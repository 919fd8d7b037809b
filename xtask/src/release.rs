//! The steps of `cargo xtask test` that check what users get from the
//! registry: the `no_std` build of the facade, `cargo package` of every
//! publishable crate, and the MSRV.

use crate::test::cargo_env;
use std::process::Command;

/// The facade without `std`: its free functions against the oracle on the
/// compile-time choice of a plain build and of a `-C target-cpu=native`
/// build, and a build for a bare-metal target (no `std` to link at all);
/// and the `std` facade's tests in the native build.
pub fn no_std() -> anyhow::Result<()> {
    let test = [
        "test",
        "-p",
        "hq-attacks",
        "--no-default-features",
        "--test",
        "no_std",
        "--",
        "--nocapture",
    ];
    cargo_env(&test, &[("CARGO_TARGET_DIR", "target/no-std")])?;
    let native = [
        ("CARGO_TARGET_DIR", "target/no-std-native"),
        ("RUSTFLAGS", "-C target-cpu=native"),
    ];
    cargo_env(&test, &native)?;
    // The `std` facade's native build too: where this CPU has x86-64-v4 its
    // single lookups are fixed at compile time (`hq::STATIC_SINGLES`), a
    // path no other step compiles; elsewhere the test says so.
    let mut std_native = vec!["test", "-p", "hq-attacks"];
    for name in ["facade", "switching", "plan", "first_use"] {
        std_native.extend(["--test", name]);
    }
    std_native.extend(["--", "--nocapture"]);
    cargo_env(&std_native, &native)?;
    let bare = if cfg!(target_arch = "aarch64") {
        "aarch64-unknown-none"
    } else {
        "x86_64-unknown-none"
    };
    if !crate::cross::has_target(bare) {
        println!("\nSKIPPED no_std bare-metal build: rustup target {bare} is not installed");
        return Ok(());
    }
    // Release and debug: an unoptimised build once met an LLVM error there
    // (SIMD code a no-SSE target cannot lower) that the release build hid.
    for profile in ["--release", "--profile=dev"] {
        cargo_env(
            &[
                "build",
                "-p",
                "hq-attacks",
                "--no-default-features",
                profile,
                "--target",
                bare,
            ],
            &[("CARGO_TARGET_DIR", "target/no-std")],
        )?;
    }
    Ok(())
}

/// The workspace's publishable packages (those without `publish = false`),
/// as (name, version).
fn publishable() -> anyhow::Result<Vec<(String, String)>> {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .output()
        .map_err(|e| anyhow::anyhow!("cannot run cargo metadata: {e}"))?;
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| anyhow::anyhow!("cargo metadata printed no JSON: {e}"))?;
    let packages = meta["packages"]
        .as_array()
        .ok_or(anyhow::anyhow!("cargo metadata: no packages"))?;
    Ok(packages
        .iter()
        // `publish` is null for "any registry", `[]` for `publish = false`.
        .filter(|p| p["publish"].as_array().is_none_or(|r| !r.is_empty()))
        .filter_map(|p| {
            Some((
                p["name"].as_str()?.to_owned(),
                p["version"].as_str()?.to_owned(),
            ))
        })
        .collect())
}

/// The names of [`publishable`] packages.
fn publishable_names() -> anyhow::Result<Vec<String>> {
    Ok(publishable()?.into_iter().map(|(name, _)| name).collect())
}

/// `cargo package` of every publishable crate at once (cargo orders them by
/// dependency and verifies each against the others' packaged sources).
pub fn package() -> anyhow::Result<()> {
    let crates = publishable()?;
    forget_stale_overlay_sources(&crates)?;
    let names: Vec<&str> = crates.iter().map(|(name, _)| name.as_str()).collect();
    println!("\npublishable crates: {}", names.join(", "));
    // Its own target directory, emptied first: cargo compiles a registry
    // dependency once per name and version and never checks its sources
    // again, so an older commit's build of a packaged crate would be reused.
    let target = crate::workspace_root().join(PACKAGE_TARGET_DIR);
    if target.exists() {
        std::fs::remove_dir_all(&target)
            .map_err(|e| anyhow::anyhow!("cannot empty {}: {e}", target.display()))?;
    }
    let mut args = vec!["package", "--allow-dirty"];
    for name in &names {
        args.extend(["-p", name]);
    }
    cargo_env(&args, &[("CARGO_TARGET_DIR", PACKAGE_TARGET_DIR)])
}

/// Where `cargo package` builds, away from the workspace's `target/debug`.
const PACKAGE_TARGET_DIR: &str = "target/package-check";

/// Removes this workspace's crates from cargo's unpacked local-registry
/// sources, so that `cargo package` verifies against today's code.
/// (Found when CI failed twice on code that passed in fresh clones here.)
///
/// To verify a crate against its packaged dependencies, cargo "publishes"
/// them to a temporary registry in `target/package/tmp-registry` and unpacks
/// them into `$CARGO_HOME/registry/src/-<hash of that path>/name-version`.
/// It unpacks a name and version only once: on a machine that packaged an
/// older commit in the same checkout path (a CI runner), verification
/// compiled against the old sources and failed ("cannot find `at_level` in
/// `hq_core`"). Only directories of these crates' names and versions under
/// the `-<hash>` (local) sources are removed; crates.io's are untouched.
fn forget_stale_overlay_sources(crates: &[(String, String)]) -> anyhow::Result<()> {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".cargo")));
    let Some(sources) = cargo_home.map(|home| home.join("registry").join("src")) else {
        return Ok(());
    };
    let Ok(registries) = std::fs::read_dir(&sources) else {
        return Ok(());
    };
    let mut removed = 0;
    for registry in registries.flatten() {
        if !registry.file_name().to_string_lossy().starts_with('-') {
            continue;
        }
        for (name, version) in crates {
            let unpacked = registry.path().join(format!("{name}-{version}"));
            if unpacked.is_dir() {
                std::fs::remove_dir_all(&unpacked)
                    .map_err(|e| anyhow::anyhow!("cannot remove {}: {e}", unpacked.display()))?;
                removed += 1;
            }
        }
    }
    if removed > 0 {
        println!(
            "\nremoved {removed} earlier unpacked copies of this workspace's crates \
             from {} (cargo would verify against them)",
            sources.display()
        );
    }
    Ok(())
}

/// The workspace's `rust-version`, checked with that toolchain (installed
/// by `.ci/run`; SKIPPED with the reason when rustup lacks it).
pub fn msrv() -> anyhow::Result<()> {
    let manifest = std::fs::read_to_string(crate::workspace_root().join("Cargo.toml"))
        .map_err(|e| anyhow::anyhow!("Cargo.toml: {e}"))?;
    let version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .map(|v| v.trim_matches('"'))
        .ok_or(anyhow::anyhow!(
            "no rust-version in the workspace Cargo.toml"
        ))?;
    let toolchain = format!("+{version}");
    let has_toolchain = Command::new("rustup")
        .args(["run", version, "rustc", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_toolchain {
        println!(
            "\nSKIPPED MSRV: rust {version} is not installed \
             (rustup toolchain install {version} --profile minimal)"
        );
        return Ok(());
    }
    let names = publishable_names()?;
    // What a dependent compiles: the libraries and binaries (their tests
    // and benches may use newer dev-dependencies).
    let mut all = vec!["check"];
    for name in &names {
        all.extend(["-p", name]);
    }
    let no_std = ["check", "-p", "hq-attacks", "--no-default-features"];
    for args in [&all[..], &no_std[..]] {
        println!("\n==> cargo {toolchain} {} (target/msrv)", args.join(" "));
        // `cargo +version` goes through rustup's proxy, not this cargo.
        let status = Command::new("cargo")
            .arg(&toolchain)
            .args(args)
            .env("CARGO_TARGET_DIR", "target/msrv")
            .status()
            .map_err(|e| anyhow::anyhow!("cannot run cargo {toolchain}: {e}"))?;
        if !status.success() {
            return Err(anyhow::anyhow!(
                "`cargo {toolchain} {}` failed: the MSRV in Cargo.toml is wrong",
                args.join(" ")
            ));
        }
    }
    Ok(())
}
