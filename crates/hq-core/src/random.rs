//! A tiny fixed-seed generator for the workspace's tests, suites and random
//! games: the same seed gives the same sequence on every target. Not for
//! anything that needs unpredictable numbers.

/// SplitMix64 (Steele, Lea and Flood): one add and two multiply-xorshifts per
/// 64 bits.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
