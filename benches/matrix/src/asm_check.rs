//! The benchmark-validity check (issue 13): the single-lookup workload loops
//! of a bench binary must time one lookup at a time, as an engine calls
//! them, not a loop the compiler batched across inputs.
//!
//! `benches/lib.rs` passes every input through an opaque `asm!` barrier, so
//! LLVM cannot vectorize those loops. This proves it on the binary: every
//! function holding such loops (found by its v0 symbol name, which keeps the
//! generic parameters) is decoded, and fails on
//!
//! * any gather (VSIB addressing): the tell-tale of a table lookup
//!   vectorized across inputs (the native build had 1,528), and
//! * any ymm/zmm operand in the loops of rows that are plain table lookups
//!   (the peers and the PEXT reference): a table lookup has no vector work
//!   of its own, so vector code there can only be work spread across inputs.

use anyhow::{Context, ensure};
use iced_x86::{Decoder, DecoderOptions};
use object::{Object, ObjectSection, ObjectSymbol, SymbolKind};
use std::path::Path;

/// What the scan of one binary found.
#[derive(Debug, Default)]
pub struct AsmReport {
    /// Single-lookup workload functions scanned.
    pub functions: usize,
    /// Of those, the table-lookup rows' functions (checked for ymm/zmm too).
    pub table_functions: usize,
    /// Instructions scanned in those functions.
    pub instructions: usize,
    /// `<address> <mnemonic> in <function>` for every violation.
    pub violations: Vec<String>,
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
    let rows = [
        "peers::CozyChess",
        "peers::ChessMagic",
        "peers::ChessBmi",
        "peers::Shakmaty",
    ];
    let references = [
        "reference::Kindergarten",
        "reference::Rotated",
        "run_single_with_bmi2",
    ];
    rows.iter()
        .chain(&references)
        .any(|row| symbol.contains(row))
}

/// Scans x86-64 functions given as `(symbol, address, machine code)`.
fn scan<'a>(functions: impl IntoIterator<Item = (&'a str, u64, &'a [u8])>) -> AsmReport {
    let mut report = AsmReport::default();
    for (symbol, address, code) in functions {
        // v0 names, without the crates' hashes.
        let symbol = format!("{:#}", rustc_demangle::demangle(symbol));
        if !is_single_lookup_function(&symbol) {
            continue;
        }
        let table = is_table_row(&symbol);
        report.functions += 1;
        report.table_functions += usize::from(table);
        for ins in Decoder::with_ip(64, code, address, DecoderOptions::NONE) {
            report.instructions += 1;
            let operands = (0..ins.op_count()).map(|i| ins.op_register(i));
            let mut registers = operands.chain([ins.memory_base(), ins.memory_index()]);
            if ins.is_vsib() || (table && registers.any(|r| r.is_ymm() || r.is_zmm())) {
                let (ip, mnemonic) = (ins.ip(), ins.mnemonic());
                report
                    .violations
                    .push(format!("{ip:#x} {mnemonic:?} in {symbol}"));
            }
        }
    }
    report
}

/// Reads `binary`'s function symbols and scans them; `None` if the binary is
/// not x86-64 (iced decodes x86 only); an error names the violations.
pub fn check_binary(binary: &Path) -> anyhow::Result<Option<AsmReport>> {
    let path = binary.display();
    let data = std::fs::read(binary).with_context(|| format!("cannot read {path}"))?;
    let file = object::File::parse(&*data).with_context(|| format!("cannot parse {path}"))?;
    if file.architecture() != object::Architecture::X86_64 {
        return Ok(None);
    }
    let functions = file
        .symbols()
        .filter(|s| s.kind() == SymbolKind::Text && s.size() > 0)
        .filter_map(|s| {
            let section = file.section_by_index(s.section_index()?).ok()?;
            let code = section.data_range(s.address(), s.size()).ok()??;
            Some((s.name().ok()?, s.address(), code))
        });
    let report = scan(functions);
    ensure!(
        report.functions > 0,
        "{path}: no single-lookup workload function (`hq_benches ... run_single`) found; \
         the check would prove nothing"
    );
    let violations = &report.violations;
    ensure!(
        violations.is_empty(),
        "{path}: {} instruction(s) show single-lookup loops batched across inputs (gathers, \
         or vector code in a table lookup's loop):\n  {}",
        violations.len(),
        violations[..violations.len().min(12)].join("\n  ")
    );
    Ok(Some(report))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Hand-encoded (as `objdump -D -b binary -m i386:x86-64` decodes them).
    const PEXT: &[u8] = b"\x48\x8b\x07\xc4\xe2\xfa\xf5\xc1\xc3"; // mov rax,[rdi]; pext rax,rax,rcx; ret
    const VPSUBQ: &[u8] = b"\xc5\xfd\xfb\xc1\xc3"; // vpsubq ymm0,ymm0,ymm1; ret
    const GATHER: &[u8] = b"\xc4\xe2\xed\x91\x04\xc8"; // vpgatherqq ymm0,[rax+ymm1*8],ymm2
    const VPXOR: &[u8] = b"\xc5\xfd\xef\xc0"; // vpxor ymm0,ymm0,ymm0
    // Real v0 symbols of a bench binary: a peer's row, and an `hq` backend's.
    const COZY: &str = "_RNvYNtNtCs4rUtvAWQIy8_7attacks5peers9CozyChessNtCseOVR6qKAEot_10hq_benches6Lookup10run_singleB6_";
    const OURS: &str = "_RNvXs7_CseOVR6qKAEot_10hq_benchesINtB5_4OursNtCs2CflhfLDpaD_7hq_simd4Avx2ENtB5_6Lookup10run_singleB5_";

    #[test]
    fn clean_loops_pass_and_other_functions_are_not_scanned() {
        let r = scan([
            (COZY, 0x1000, PEXT),
            (OURS, 0x2000, VPSUBQ),
            ("criterion::x", 0, GATHER),
        ]);
        assert_eq!((r.functions, r.table_functions, r.instructions), (2, 1, 5));
        assert!(r.violations.is_empty(), "{:?}", r.violations);
    }

    #[test]
    fn gathers_anywhere_and_vectors_in_table_rows_are_caught() {
        let bmi2 = "hq_benches::reference::run_single_with_bmi2";
        let r = scan([
            (OURS, 0x1000, GATHER),
            (COZY, 0x2000, VPXOR),
            (bmi2, 0x3000, VPXOR),
        ]);
        let ours = "<hq_benches::Ours<hq_simd::Avx2> as hq_benches::Lookup>::run_single";
        let cozy = "<attacks::peers::CozyChess as hq_benches::Lookup>::run_single";
        let want = [
            format!("0x1000 Vpgatherqq in {ours}"),
            format!("0x2000 Vpxor in {cozy}"),
            format!("0x3000 Vpxor in {bmi2}"),
        ];
        assert_eq!(r.violations, want);
    }
}
