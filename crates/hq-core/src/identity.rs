//! Who the CPU is: vendor, family and model, for choices that depend on the
//! micro-architecture rather than on features (PEXT is microcoded on AMD
//! before Zen 3), and the id the bench matrix names its results by.

#[cfg(feature = "std")]
use crate::cpu::TARGET_ARCH;
use core::fmt;

/// The CPU vendor, from CPUID (x86) or the target.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum Vendor {
    /// `GenuineIntel`.
    Intel,
    /// `AuthenticAMD`.
    Amd,
    /// `HygonGenuine` (licensed Zen 1).
    Hygon,
    /// Another x86 vendor string.
    OtherX86,
    /// Not x86 (the vendor is not read).
    NotX86,
}

impl Vendor {
    /// Every vendor, in declaration order.
    pub const ALL: [Vendor; 5] = [
        Vendor::Intel,
        Vendor::Amd,
        Vendor::Hygon,
        Vendor::OtherX86,
        Vendor::NotX86,
    ];

    /// A stable name, as recorded in benchmark results (`Display` writes
    /// it, `FromStr` reads it back).
    pub const fn name(self) -> &'static str {
        match self {
            Vendor::Intel => "Intel",
            Vendor::Amd => "Amd",
            Vendor::Hygon => "Hygon",
            Vendor::OtherX86 => "OtherX86",
            Vendor::NotX86 => "NotX86",
        }
    }
}

impl fmt::Display for Vendor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for Vendor {
    type Err = UnknownVendor;

    /// The vendor of a [`Vendor::name`].
    ///
    /// ```
    /// use hq_core::cpu::Vendor;
    /// assert_eq!("Amd".parse(), Ok(Vendor::Amd));
    /// assert!("AMD".parse::<Vendor>().is_err());
    /// ```
    fn from_str(name: &str) -> Result<Self, UnknownVendor> {
        Vendor::ALL
            .into_iter()
            .find(|v| v.name() == name)
            .ok_or(UnknownVendor)
    }
}

/// A vendor name that no [`Vendor`] has.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct UnknownVendor;

impl fmt::Display for UnknownVendor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown CPU vendor name; the names: ")?;
        for (i, v) in Vendor::ALL.iter().enumerate() {
            write!(f, "{}{v}", if i == 0 { "" } else { ", " })?;
        }
        Ok(())
    }
}

/// Who the CPU is: what choices that depend on the micro-architecture need.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Identity {
    /// The vendor.
    pub vendor: Vendor,
    /// Display family (base plus extended family; 0 off x86).
    pub family: u32,
    /// Display model (base plus extended model; 0 off x86).
    pub model: u32,
    /// Stepping (0 off x86).
    pub stepping: u32,
}

impl Identity {
    /// The running CPU (CPUID on x86-64; [`Vendor::NotX86`] elsewhere).
    /// Under Miri, which cannot execute CPUID, an x86-64 CPU of
    /// [`Vendor::OtherX86`] with family, model and stepping 0 (Miri reports
    /// no feature beyond the build's, so no choice depends on it there).
    pub fn detect() -> Identity {
        #[cfg(all(target_arch = "x86_64", miri))]
        {
            Identity {
                vendor: Vendor::OtherX86,
                family: 0,
                model: 0,
                stepping: 0,
            }
        }
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        {
            let vendor_leaf = cpuid(0);
            let mut name = [0u8; 12];
            for (i, reg) in [vendor_leaf.ebx, vendor_leaf.edx, vendor_leaf.ecx]
                .into_iter()
                .enumerate()
            {
                name[i * 4..i * 4 + 4].copy_from_slice(&reg.to_le_bytes());
            }
            let vendor = match &name {
                b"GenuineIntel" => Vendor::Intel,
                b"AuthenticAMD" => Vendor::Amd,
                b"HygonGenuine" => Vendor::Hygon,
                _ => Vendor::OtherX86,
            };
            // Leaf 1's signature: the display family and model (the
            // extended fields added where the base family says so).
            let (family, model, stepping) = match vendor_leaf.eax {
                0 => (0, 0, 0),
                _ => {
                    let eax = cpuid(1).eax;
                    let (base_family, base_model) = ((eax >> 8) & 0xF, (eax >> 4) & 0xF);
                    let family = match base_family {
                        0xF => base_family + ((eax >> 20) & 0xFF),
                        f => f,
                    };
                    let model = match base_family {
                        0x6 | 0xF => ((eax >> 16) & 0xF) << 4 | base_model,
                        _ => base_model,
                    };
                    (family, model, eax & 0xF)
                }
            };
            Identity {
                vendor,
                family,
                model,
                stepping,
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Identity {
                vendor: Vendor::NotX86,
                family: 0,
                model: 0,
                stepping: 0,
            }
        }
    }

    /// Whether `PEXT`/`PDEP` are fast here (given BMI2): everywhere except
    /// AMD (and Hygon) before family 0x19 (Zen 3), where they are microcoded
    /// at 18 cycles and more, data-dependent (REFERENCES.md: Zen 1/2).
    pub const fn has_fast_pext(self) -> bool {
        !matches!(self.vendor, Vendor::Amd | Vendor::Hygon) || self.family >= 0x19
    }
}

/// CPUID leaf `leaf`, subleaf 0 (the instruction itself: a dependency for
/// three leaves cost every build a crate on its critical path).
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[allow(unused_unsafe)] // `__cpuid` is a safe function in newer Rust
fn cpuid(leaf: u32) -> core::arch::x86_64::CpuidResult {
    // SAFETY: every x86-64 CPU has CPUID, and reading a leaf changes nothing
    // (a leaf above the CPU's maximum gives another leaf's data, never a
    // fault; the callers check the maximum first).
    unsafe { core::arch::x86_64::__cpuid(leaf) }
}

/// The CPU's brand string (x86-64 CPUID leaves 0x8000_0002..4), if any.
#[cfg(feature = "std")]
pub fn brand_string() -> Option<std::string::String> {
    // Miri cannot execute CPUID.
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        if cpuid(0x8000_0000).eax < 0x8000_0004 {
            return None;
        }
        let mut bytes = std::vec::Vec::with_capacity(48);
        for leaf in 0x8000_0002..=0x8000_0004 {
            let r = cpuid(leaf);
            for reg in [r.eax, r.ebx, r.ecx, r.edx] {
                bytes.extend_from_slice(&reg.to_le_bytes());
            }
        }
        let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        let brand: std::string::String = std::string::String::from_utf8_lossy(&bytes[..end])
            .trim()
            .into();
        (!brand.is_empty()).then_some(brand)
    }
    #[cfg(any(not(target_arch = "x86_64"), miri))]
    {
        None
    }
}

/// This CPU's id, as the bench matrix names its results
/// (`benches/results/<cpu-id>/`) and the choice table's `measured_on` lists
/// it: the brand string as a slug, then family, model and stepping (virtual
/// machines often hide the model in the brand: "AMD EPYC"). For example
/// `amd-epyc-f19-m11-s1`.
#[cfg(feature = "std")]
pub fn cpu_id() -> std::string::String {
    let id = Identity::detect();
    let name = match slug(&brand_string().unwrap_or_default()) {
        s if s.is_empty() => slug(&std::format!("{:?}-{TARGET_ARCH}", id.vendor)),
        s => s,
    };
    std::format!("{name}-f{:x}-m{:x}-s{}", id.family, id.model, id.stepping)
}

/// Lower-case letters and digits, other runs turned into one `-`.
#[cfg(feature = "std")]
fn slug(text: &str) -> std::string::String {
    let mut out = std::string::String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.truncate(out.trim_end_matches('-').len());
    out
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_file_names() {
        assert_eq!(
            slug("Intel(R) Xeon(R) Processor"),
            "intel-r-xeon-r-processor"
        );
        assert_eq!(slug("  AMD EPYC 9R45 "), "amd-epyc-9r45");
        assert!(cpu_id().contains("-f") && !cpu_id().contains(' '));
    }

    #[test]
    fn pext_is_slow_only_on_amd_before_zen_3() {
        let id = |vendor, family| Identity {
            vendor,
            family,
            model: 0,
            stepping: 0,
        };
        assert!(!id(Vendor::Amd, 0x17).has_fast_pext());
        assert!(!id(Vendor::Hygon, 0x18).has_fast_pext());
        assert!(id(Vendor::Amd, 0x19).has_fast_pext());
        assert!(id(Vendor::Intel, 6).has_fast_pext());
    }
}
