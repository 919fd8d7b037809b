//! The benchmark-validity check (issue 13): the single-lookup workload loops
//! of a bench binary must time one lookup at a time, as an engine calls
//! them, not a loop the compiler batched across inputs.
//!
//! `benches/lib.rs` passes every input through an opaque `asm!` barrier, so
//! LLVM cannot vectorize those loops. This module proves it on the binary:
//! it disassembles the bench executable (`objdump -d -C`; the bench builds
//! use v0 symbol names, which keep generic parameters), finds every function
//! that holds single-lookup workload loops (`Lookup::run_single` and the
//! functions compiled for an instruction set that the loops are inlined
//! into), and fails on
//!
//! * any gather instruction (`vpgather*`, `vgather*`): the tell-tale of a
//!   table lookup vectorized across inputs (the native build had 1,528), and
//! * any ymm/zmm instruction in the loops of rows that are plain table
//!   lookups (the peers and the PEXT reference): a table lookup has no
//!   vector work of its own, so vector code there can only be work spread
//!   across inputs.

use std::path::Path;
use std::process::Command;

/// What the scan of one binary found.
#[derive(Debug, Default)]
pub struct AsmReport {
    /// Single-lookup workload functions scanned.
    pub functions: usize,
    /// Of those, the table-lookup rows' functions (checked for ymm/zmm too).
    pub table_functions: usize,
    /// Instructions scanned in those functions.
    pub instructions: usize,
    /// `(function, instruction)` for every violation.
    pub violations: Vec<(String, String)>,
}

/// Whether a demangled symbol holds single-lookup workload loops: a row's
/// `Lookup::run_single`, or the function compiled for an instruction set
/// that a backend's or the job's loop is inlined into (its name carries
/// `run_single`'s closure or the job type `SingleLookupLoop`).
fn is_single_lookup_function(symbol: &str) -> bool {
    symbol.contains("hq_benches")
        && (symbol.contains("run_single") || symbol.contains("SingleLookupLoop"))
}

/// Whether the row behind a single-lookup function is a plain table lookup
/// (no vector code of its own): the peer crates and the table references.
fn is_table_row(symbol: &str) -> bool {
    [
        "peers::CozyChess",
        "peers::ChessMagic",
        "peers::ChessBmi",
        "peers::Shakmaty",
        "reference::Kindergarten",
        "reference::Rotated",
    ]
    .iter()
    .any(|peer| symbol.contains(peer))
        || symbol.contains("run_single_with_bmi2")
}

/// Scans objdump's output (`objdump -d -C --no-show-raw-insn`).
pub fn scan(disassembly: &str) -> AsmReport {
    let mut report = AsmReport::default();
    let mut current: Option<(String, bool)> = None;
    for line in disassembly.lines() {
        // A function starts with `0000000000012345 <symbol>:`.
        if let Some(rest) = line.strip_suffix(">:")
            && let Some((address, symbol)) = rest.split_once(" <")
            && address.chars().all(|c| c.is_ascii_hexdigit())
        {
            current = is_single_lookup_function(symbol).then(|| {
                let table = is_table_row(symbol);
                report.functions += 1;
                report.table_functions += usize::from(table);
                (symbol.to_owned(), table)
            });
            continue;
        }
        let Some((symbol, table)) = &current else {
            continue;
        };
        // Instruction lines: `  12345:\tmnemonic operands`.
        let Some((_, instruction)) = line.split_once(":\t") else {
            continue;
        };
        let instruction = instruction.trim();
        if instruction.is_empty() {
            continue;
        }
        report.instructions += 1;
        let mnemonic = instruction.split_whitespace().next().unwrap_or("");
        let wide = instruction.contains("%ymm") || instruction.contains("%zmm");
        if mnemonic.contains("gather") || (*table && wide) {
            report
                .violations
                .push((symbol.clone(), instruction.to_owned()));
        }
    }
    report
}

/// Disassembles `binary` and scans it; an error names every violation.
pub fn check_binary(binary: &Path) -> anyhow::Result<AsmReport> {
    let output = Command::new("objdump")
        .args(["-d", "-C", "--no-show-raw-insn", "--section=.text"])
        .arg(binary)
        .output()
        .map_err(|e| {
            anyhow::anyhow!("cannot run objdump (binutils) on {}: {e}", binary.display())
        })?;
    if !output.status.success() {
        return Err(anyhow::anyhow!(
            "objdump failed on {}: {}",
            binary.display(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let report = scan(&String::from_utf8_lossy(&output.stdout));
    if report.functions == 0 {
        return Err(anyhow::anyhow!(
            "{}: no single-lookup workload function (`hq_benches ... run_single`) found; \
             the check would prove nothing",
            binary.display()
        ));
    }
    if !report.violations.is_empty() {
        let shown: Vec<String> = report
            .violations
            .iter()
            .take(12)
            .map(|(f, i)| format!("  {i}    in {f}"))
            .collect();
        return Err(anyhow::anyhow!(
            "{}: {} instruction(s) show single-lookup loops batched across inputs \
             (gathers, or vector code in a table lookup's loop):\n{}",
            binary.display(),
            report.violations.len(),
            shown.join("\n")
        ));
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLEAN: &str = "
0000000000001000 <<attacks::peers::CozyChess as hq_benches::Lookup>::run_single>:
    1000:\tmov    (%rdi),%rax
    1003:\tpext   %rcx,%rax,%rax
    1008:\tret
0000000000002000 <<hq_benches::Ours<hq_simd::Avx2> as hq_benches::Lookup>::run_single>:
    2000:\tvpsubq %ymm1,%ymm0,%ymm0
    2004:\tret
0000000000003000 <criterion::stats::something>:
    3000:\tvpgatherqq (%rax,%ymm1,8),%ymm0
";

    #[test]
    fn clean_loops_pass_and_other_functions_are_not_scanned() {
        let r = scan(CLEAN);
        assert_eq!((r.functions, r.table_functions, r.instructions), (2, 1, 5));
        assert!(r.violations.is_empty(), "{:?}", r.violations);
    }

    #[test]
    fn gathers_anywhere_and_vectors_in_table_rows_are_caught() {
        let text = CLEAN.replace("pext   %rcx,%rax,%rax", "vpgatherqq (%rax,%ymm1,8),%ymm0")
            + "
0000000000004000 <hq_benches::reference::run_single_with_bmi2>:
    4000:\tvpxor  %ymm0,%ymm0,%ymm0
";
        let r = scan(&text);
        assert_eq!(r.violations.len(), 2, "{:?}", r.violations);
        assert!(r.violations[0].1.contains("vpgatherqq"));
        assert!(r.violations[1].0.contains("run_single_with_bmi2"));
    }
}
