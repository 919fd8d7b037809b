//! `cargo xtask bench-matrix` (being written for the benchmark issue). Until
//! then it prints what `cargo xtask info` prints: CPU features, backends, the
//! selected one, and a self-check against the oracle.

/// The task.
pub fn run(args: &[String]) -> Result<(), String> {
    crate::info::run(args)
}
