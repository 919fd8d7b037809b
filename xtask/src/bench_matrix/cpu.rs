//! The CPU's identity: vendor, brand string and family/model/stepping from
//! CPUID, and the features that decide which backends run.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The features that matter for the backends and the peers.
pub const FEATURES: [&str; 8] = [
    "ssse3",
    "avx2",
    "bmi2",
    "avx512f",
    "avx512bw",
    "avx512vbmi",
    "gfni",
    "popcnt",
];

/// Who the CPU is.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Cpu {
    /// A file-name-safe identifier: the brand string slugged, with family, model and stepping.
    pub id: String,
    /// CPUID vendor string (`AuthenticAMD`, `GenuineIntel`, ...).
    pub vendor: String,
    /// CPUID brand string.
    pub model_name: String,
    /// Display family (base + extended).
    pub family: u32,
    /// Display model (base + extended).
    pub model: u32,
    /// Stepping.
    pub stepping: u32,
    /// Feature name -> detected.
    pub features: BTreeMap<String, bool>,
}

impl Cpu {
    /// One line for people.
    pub fn summary(&self) -> String {
        let features: Vec<String> = self
            .features
            .iter()
            .map(|(f, &on)| format!("{f}{}", if on { "+" } else { "-" }))
            .collect();
        format!(
            "{} ({}, family {:#x} model {:#x} stepping {}) [{}]",
            self.model_name,
            self.vendor,
            self.family,
            self.model,
            self.stepping,
            features.join(" ")
        )
    }

    /// Whether the CPU has `feature`.
    pub fn has(&self, feature: &str) -> bool {
        self.features.get(feature).copied().unwrap_or(false)
    }
}

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
    let features = FEATURES
        .iter()
        .map(|&f| (f.to_owned(), hq::cpu_has_feature(f)))
        .collect();
    let (vendor, model_name, family, model, stepping) = cpuid();
    // Virtual machines often hide the model ("AMD EPYC"): family, model and
    // stepping keep different CPUs apart.
    let name = match slug(&model_name) {
        s if s.is_empty() => slug(&vendor),
        s => s,
    };
    let id = format!("{name}-f{family:x}-m{model:x}-s{stepping}");
    Cpu {
        id,
        vendor,
        model_name,
        family,
        model,
        stepping,
        features,
    }
}

#[cfg(target_arch = "x86_64")]
fn cpuid() -> (String, String, u32, u32, u32) {
    use std::arch::x86_64::__cpuid;
    let bytes = |regs: [u32; 4]| -> Vec<u8> { regs.iter().flat_map(|r| r.to_le_bytes()).collect() };
    let leaf0 = __cpuid(0);
    let vendor =
        String::from_utf8_lossy(&bytes([leaf0.ebx, leaf0.edx, leaf0.ecx, 0])[..12]).into_owned();
    let leaf1 = __cpuid(1);
    let eax = leaf1.eax;
    let base_family = (eax >> 8) & 0xF;
    let base_model = (eax >> 4) & 0xF;
    let family = if base_family == 0xF {
        base_family + ((eax >> 20) & 0xFF)
    } else {
        base_family
    };
    let model = if base_family == 0x6 || base_family == 0xF {
        base_model | (((eax >> 16) & 0xF) << 4)
    } else {
        base_model
    };
    let stepping = eax & 0xF;
    let max_extended = __cpuid(0x8000_0000).eax;
    let model_name = if max_extended >= 0x8000_0004 {
        let mut name = Vec::new();
        for leaf in 0x8000_0002..=0x8000_0004u32 {
            let r = __cpuid(leaf);
            name.extend(bytes([r.eax, r.ebx, r.ecx, r.edx]));
        }
        String::from_utf8_lossy(&name)
            .trim_matches(char::from(0))
            .trim()
            .to_owned()
    } else {
        String::new()
    };
    (vendor, model_name, family, model, stepping)
}

#[cfg(not(target_arch = "x86_64"))]
fn cpuid() -> (String, String, u32, u32, u32) {
    (std::env::consts::ARCH.to_owned(), String::new(), 0, 0, 0)
}
