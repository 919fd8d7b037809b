//! The choice as a program linking `hq` makes it, through the real binary:
//! `HQ_BACKEND` overrides, and every way of naming a bad backend is a clear
//! error, never a silent fallback.

use hq::Backend;
use std::process::Command;

/// The binary, run through `HQ_TEST_RUNNER` when that is set: a
/// cross-compiled test (`cargo xtask cross-test`, aarch64 under qemu-user)
/// names there the emulator cargo's runner uses, since cargo runs the test
/// itself through the runner but not the programs the test starts.
fn command() -> Command {
    let binary = env!("CARGO_BIN_EXE_hq-info");
    let runner = std::env::var("HQ_TEST_RUNNER").unwrap_or_default();
    let mut words = runner.split_whitespace();
    match words.next() {
        Some(program) => {
            let mut cmd = Command::new(program);
            cmd.args(words).arg(binary);
            cmd
        }
        None => Command::new(binary),
    }
}

fn hq_info(env: Option<&str>, args: &[&str]) -> (i32, String, String) {
    let mut cmd = command();
    cmd.args(args).arg("--no-check");
    match env {
        Some(v) => cmd.env(hq::BACKEND_VAR, v),
        None => cmd.env_remove(hq::BACKEND_VAR),
    };
    let out = cmd.output().expect("hq-info runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The value of the first-screen line `name: value`.
fn line<'a>(stdout: &'a str, name: &str) -> &'a str {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))
        .unwrap_or_else(|| panic!("no line {name:?} in:\n{stdout}"))
        .trim()
}

/// The backends of the three entry points, as the first screen gives them.
fn entry_points(stdout: &str) -> [&str; 3] {
    let setwise = line(stdout, "set-wise");
    [
        line(stdout, "single lookups"),
        line(stdout, "batches"),
        setwise.split(' ').next().unwrap_or(setwise),
    ]
}

#[test]
fn hq_backend_makes_one_backend_serve_every_entry_point() {
    for b in Backend::supported().filter(|b| b.is_dispatched()) {
        let (code, stdout, stderr) = hq_info(Some(b.name()), &["--call"]);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(entry_points(&stdout), [b.name(); 3], "{stdout}");
        assert!(
            line(&stdout, "why").contains("overridden by HQ_BACKEND"),
            "{stdout}"
        );
    }
}

#[test]
fn the_first_screen_is_short_and_verbose_has_the_details() {
    let (code, stdout, stderr) = hq_info(None, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.lines().count() <= 15, "{stdout}");
    let class = hq::unstable::this_cpu();
    assert!(
        line(&stdout, "CPU class").starts_with(class.name),
        "{stdout}"
    );
    let evidence = line(&stdout, "evidence");
    assert!(
        evidence.starts_with("measured on this CPU")
            || evidence.starts_with("measured on another model")
            || evidence.starts_with("inferred"),
        "{stdout}"
    );
    assert_eq!(
        evidence.starts_with("inferred"),
        class.measured_on.is_empty(),
        "{stdout}"
    );
    let (code, verbose, stderr) = hq_info(None, &["--verbose"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(verbose.contains(class.evidence), "{verbose}");
    for b in Backend::all() {
        assert!(
            verbose
                .lines()
                .any(|l| l.trim_start().starts_with(b.name())),
            "{verbose}"
        );
    }
}

#[test]
fn without_hq_backend_the_class_choice_serves() {
    for env in [None, Some("auto"), Some("")] {
        let (code, stdout, stderr) = hq_info(env, &[]);
        assert_eq!(code, 0, "{stderr}");
        // The class's plan, with its per-piece exceptions.
        let p = hq::unstable::this_cpu().plan;
        assert_eq!(line(&stdout, "single lookups"), p.single.to_string());
        assert_eq!(line(&stdout, "batches"), p.batch.to_string());
        let setwise = p.setwise.to_string();
        assert!(line(&stdout, "set-wise").starts_with(&setwise), "{stdout}");
        assert_eq!(
            line(&stdout, "why"),
            "run-time dispatch: the class's choice"
        );
    }
}

#[test]
fn a_bad_hq_backend_is_a_clear_error_not_a_silent_fallback() {
    let (code, _, stderr) = hq_info(Some("no-such-backend"), &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("unknown backend \"no-such-backend\""),
        "{stderr}"
    );
    assert!(stderr.contains("scalar-reverse"), "{stderr}");
    // Without init(), the first attack call stops with the same message (101: a panic).
    let (code, _, stderr) = hq_info(Some("no-such-backend"), &["--call"]);
    assert_eq!(code, 101, "{stderr}");
    assert!(stderr.contains("unknown backend"), "{stderr}");
    // A backend this CPU (or this architecture) lacks names what is missing.
    for b in Backend::all().iter().filter(|b| !b.is_supported()) {
        let (code, _, stderr) = hq_info(Some(b.name()), &["--call"]);
        assert_eq!(code, 101, "{stderr}");
        assert!(stderr.contains("cannot run"), "{stderr}");
        let missing = b.check_supported().unwrap_err().to_string();
        assert!(stderr.contains(&missing), "{stderr}\nexpected: {missing}");
    }
}

/// `hq-info` with extra environment variables (and no `HQ_BACKEND`).
fn hq_info_env(env: &[(&str, &str)], args: &[&str]) -> (i32, String, String) {
    let mut cmd = command();
    cmd.args(args).arg("--no-check").env_remove(hq::BACKEND_VAR);
    for var in [hq::PLAN_VAR, hq::CALIBRATE_VAR] {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied());
    let out = cmd.output().expect("hq-info runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn hq_choice_overrides_per_piece_and_hq_calibrate_measures_at_first_use() {
    // Two backends every x86-64, aarch64 and wasm32 build dispatches.
    let runs: Vec<Backend> = Backend::supported().filter(|b| b.is_dispatched()).collect();
    let (a, b) = (runs[0], runs[runs.len() - 1]);
    let text = format!("batch.rook={a},batch.bishop={b}");
    let (code, stdout, stderr) = hq_info_env(&[(hq::PLAN_VAR, &text)], &[]);
    assert_eq!(code, 0, "{stderr}");
    let batches = line(&stdout, "batches");
    let wanted = if a == b {
        a.to_string()
    } else {
        format!("{a} (rook) / {b} (bishop)")
    };
    assert!(batches.starts_with(&wanted), "{text}: {batches}");
    assert!(line(&stdout, "why").contains("HQ_CHOICE"), "{stdout}");
    println!("HQ_CHOICE={text}: batches: {batches}");

    // A calibration at the first call, then HQ_CHOICE over it.
    let (code, stdout, stderr) = hq_info_env(&[(hq::CALIBRATE_VAR, "1")], &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(line(&stdout, "why").starts_with("calibrated"), "{stdout}");
    let (code, stdout, stderr) = hq_info_env(
        &[
            (hq::CALIBRATE_VAR, "1"),
            (hq::PLAN_VAR, &format!("latency={}", runs[0])),
        ],
        &[],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        line(&stdout, "latency").starts_with(runs[0].name()),
        "{stdout}"
    );

    // Bad values are errors naming the variable, never a silent fallback.
    for (var, value, says) in [
        (
            hq::PLAN_VAR,
            "batch.rook=turbo",
            "unknown backend \"turbo\"",
        ),
        (
            hq::PLAN_VAR,
            "batch.king=classic",
            "the pieces are rook, bishop and queen",
        ),
        (hq::CALIBRATE_VAR, "yes", "expected 1"),
    ] {
        let (code, _, stderr) = hq_info_env(&[(var, value)], &[]);
        assert_eq!(code, 2, "{var}={value}: {stderr}");
        assert!(
            stderr.contains(var) && stderr.contains(says),
            "{var}={value}: {stderr}"
        );
        println!("{var}={value}: {}", stderr.trim());
    }
}

#[test]
fn calibrate_prints_the_measured_plan_that_hq_choice_reads_back() {
    let (code, stdout, stderr) = hq_info_env(&[], &["--calibrate"]);
    assert_eq!(code, 0, "{stderr}");
    let plan = stdout
        .lines()
        .find_map(|l| l.strip_prefix("HQ_CHOICE="))
        .unwrap_or_else(|| panic!("no HQ_CHOICE line:\n{stdout}"));
    let parsed: hq::Plan = plan.parse().expect("the printed plan parses");
    // Installed through the variable, it is the plan in force.
    let (code, again, stderr) = hq_info_env(&[(hq::PLAN_VAR, plan)], &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(line(&again, "single lookups"), parsed.single.to_string());
    assert_eq!(line(&again, "batches"), parsed.batch.to_string());
    println!("hq-info --calibrate: HQ_CHOICE={plan}");
}
