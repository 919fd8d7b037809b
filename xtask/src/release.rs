//! The steps of `cargo xtask test` that check what users get from the
//! registry: the `no_std` build of the facade, `cargo package` of every
//! publishable crate, and the MSRV.

use crate::test::{cargo, cargo_env};
use std::process::Command;

/// The facade without `std`: its free functions against the oracle on the
/// compile-time choice of a plain build and of a `-C target-cpu=native`
/// build, and a build for a bare-metal target (no `std` to link at all).
pub fn no_std() -> Result<(), String> {
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
    cargo_env(
        &test,
        &[
            ("CARGO_TARGET_DIR", "target/no-std-native"),
            ("RUSTFLAGS", "-C target-cpu=native"),
        ],
    )?;
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

/// The workspace's publishable packages (those without `publish = false`).
fn publishable() -> Result<Vec<String>, String> {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("cargo metadata printed no JSON: {e}"))?;
    let packages = meta["packages"]
        .as_array()
        .ok_or("cargo metadata: no packages")?;
    Ok(packages
        .iter()
        // `publish` is null for "any registry", `[]` for `publish = false`.
        .filter(|p| p["publish"].as_array().is_none_or(|r| !r.is_empty()))
        .filter_map(|p| p["name"].as_str().map(str::to_owned))
        .collect())
}

/// `cargo package` of every publishable crate at once (cargo orders them by
/// dependency and verifies each against the others' packaged sources).
pub fn package() -> Result<(), String> {
    let names = publishable()?;
    println!("\npublishable crates: {}", names.join(", "));
    let mut args = vec!["package", "--allow-dirty"];
    for name in &names {
        args.extend(["-p", name]);
    }
    cargo(&args)
}

/// The workspace's `rust-version`, checked with that toolchain (installed
/// by `.ci/run`; SKIPPED with the reason when rustup lacks it).
pub fn msrv() -> Result<(), String> {
    let manifest = std::fs::read_to_string(crate::workspace_root().join("Cargo.toml"))
        .map_err(|e| format!("Cargo.toml: {e}"))?;
    let version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .map(|v| v.trim_matches('"'))
        .ok_or("no rust-version in the workspace Cargo.toml")?;
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
    let names = publishable()?;
    let mut all = vec!["check", "--all-targets"];
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
            .map_err(|e| format!("cannot run cargo {toolchain}: {e}"))?;
        if !status.success() {
            return Err(format!(
                "`cargo {toolchain} {}` failed: the MSRV in Cargo.toml is wrong",
                args.join(" ")
            ));
        }
    }
    Ok(())
}
