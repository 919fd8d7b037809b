//! The CPU's identity for the results: `hq`'s own detection (CPUID through
//! `raw-cpuid`, the features `hq` knows; the id is [`hq::cpu::cpu_id`]).

use hq::cpu::{Feature, Identity};
use hq_bench_format::Cpu;

/// Reads this CPU's identity.
pub fn detect() -> Cpu {
    let id = Identity::detect();
    Cpu {
        id: hq::cpu::cpu_id(),
        vendor: id.vendor.to_string(),
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
