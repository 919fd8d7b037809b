//! The search that found the magics (`examples/find_magics.rs` prints what
//! it finds; a unit test holds the committed ones to it): for each square,
//! rooks first, sparse random candidates (three draws of a xorshift
//! generator ANDed) until one maps every subset of the square's mask to an
//! entry of its own or to one with the same attack set, with the fewest
//! bits (`64 - popcount(mask)` as the shift).

use hq_pext_tables::{ATTACKS as BY_SUBSET, BISHOP_LAYOUT, ROOK_LAYOUT};

/// The committed magics' seed.
pub const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// The rooks' and the bishops' magics the search finds from `seed`.
pub fn magics(seed: u64) -> ([u64; 64], [u64; 64]) {
    let mut state = seed;
    let rooks = piece(&ROOK_LAYOUT, &mut state);
    let bishops = piece(&BISHOP_LAYOUT, &mut state);
    (rooks, bishops)
}

/// The next draw of the xorshift generator.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// The magics of one piece's `layout` (masks and offsets).
fn piece(layout: &[(u64, usize); 64], state: &mut u64) -> [u64; 64] {
    let mut magics = [0; 64];
    for (magic, &(mask, offset)) in magics.iter_mut().zip(layout) {
        let shift = 64 - mask.count_ones();
        *magic = loop {
            let candidate = next(state) & next(state) & next(state);
            // Too few bits at the top of the mask's product: hopeless.
            if (mask.wrapping_mul(candidate) & 0xFF00_0000_0000_0000).count_ones() < 6 {
                continue;
            }
            if fits(mask, offset, candidate, shift) {
                break candidate;
            }
        };
    }
    magics
}

/// Whether `magic` maps every subset of `mask` (attack sets from `offset`
/// in the PEXT table, in its order) to an entry of its own or to one with
/// the same attack set.
fn fits(mask: u64, offset: usize, magic: u64, shift: u32) -> bool {
    let mut slots = [0u64; 1 << 12];
    let (mut subset, mut k) = (0u64, 0);
    loop {
        let attacks = BY_SUBSET[offset + k];
        let slot = &mut slots[(subset.wrapping_mul(magic) >> shift) as usize];
        if *slot == 0 {
            *slot = attacks;
        } else if *slot != attacks {
            return false;
        }
        k += 1;
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            return true;
        }
    }
}
