//! The CPU's identity for the results: `hq`'s own detection (CPUID through
//! `raw-cpuid`, the features `hq` knows), named for file systems.

use hq::cpu::{Feature, Identity};
use hq_bench_format::Cpu;

/// Lower-case letters and digits, other runs turned into one `-`.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_owned()
}

/// Reads this CPU's identity.
pub fn detect() -> Cpu {
    let id = Identity::detect();
    let model_name = hq::cpu::brand_string().unwrap_or_default();
    let vendor = format!("{:?}", id.vendor);
    // Virtual machines often hide the model ("AMD EPYC"): family, model and
    // stepping keep different CPUs apart.
    let name = match slug(&model_name) {
        s if s.is_empty() => slug(&format!("{vendor}-{}", hq::cpu::TARGET_ARCH)),
        s => s,
    };
    Cpu {
        id: format!("{name}-f{:x}-m{:x}-s{}", id.family, id.model, id.stepping),
        vendor,
        model_name,
        family: id.family,
        model: id.model,
        stepping: id.stepping,
        features: Feature::ALL
            .iter()
            .map(|f| (f.name().to_owned(), f.is_detected()))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_file_names() {
        assert_eq!(
            slug("Intel(R) Xeon(R) Processor"),
            "intel-r-xeon-r-processor"
        );
        assert_eq!(slug("  AMD EPYC 9R45 "), "amd-epyc-9r45");
    }
}
