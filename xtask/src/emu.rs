//! `cargo xtask emu-test`: the AVX-512 / XOP suites on the emulated CPUs of
//! `../shared/avx512-emu` (owned by the AVX-512 issue; being written).

/// Builds the lean static test binaries and runs them under the emulator.
pub fn run(_args: &[String]) -> Result<(), String> {
    Err("emu-test is not written yet".into())
}
