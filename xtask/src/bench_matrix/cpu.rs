//! The CPU's identity for the results: `hq`'s own detection (CPUID through
//! `raw-cpuid`, the features `hq` knows; the id is [`hq::cpu::cpu_id`]).

use hq::cpu::{Feature, Identity, Vendor};
use hq_bench_format::Cpu;

/// Reads this CPU's identity.
pub fn detect() -> Cpu {
    let id = Identity::detect();
    // `Vendor` has no `Display` (and is `non_exhaustive`): its names, here.
    let vendor = match id.vendor {
        Vendor::Intel => "Intel",
        Vendor::Amd => "AMD",
        Vendor::Hygon => "Hygon",
        Vendor::NotX86 => "not x86",
        _ => "other x86",
    };
    Cpu {
        id: hq::cpu::cpu_id(),
        vendor: vendor.to_owned(),
        model_name: hq::cpu::brand_string().unwrap_or_default(),
        family: id.family,
        model: id.model,
        stepping: id.stepping,
        features: Feature::ALL
            .iter()
            .map(|f| (f.name().to_owned(), f.is_detected()))
            .collect(),
    }
}
