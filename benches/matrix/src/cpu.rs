//! The CPU's identity for the results: `hq`'s own detection (CPUID through
//! `raw-cpuid`, the features `hq` knows; the id is [`hq_core::identity::cpu_id`]).

use hq_bench_format::Cpu;
use hq_core::cpu::Feature;
use hq_core::identity::{Identity, brand_string, cpu_id};

/// Reads this CPU's identity.
pub fn detect() -> Cpu {
    let id = Identity::detect();
    Cpu {
        id: cpu_id(),
        vendor: id.vendor.to_string(),
        model_name: brand_string().unwrap_or_default(),
        family: id.family,
        model: id.model,
        stepping: id.stepping,
        features: Feature::ALL
            .iter()
            .map(|f| (f.name().to_owned(), f.is_detected()))
            .collect(),
    }
}
