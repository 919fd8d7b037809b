//! Fancy magic bitboards: the attack set of every relevant occupancy,
//! stored; a multiply and a shift turn the occupancy into the index.
//!
//! ```text
//! rook_attacks(sq, occ) = ATTACKS[ROOK[sq].offset + ((occ & ROOK[sq].mask) * ROOK[sq].magic >> ROOK[sq].shift)]
//! ```
//!
//! The method every peer crate uses (shakmaty's and cozy-chess's tables,
//! Stockfish's without PEXT): portable, one multiply where `pext` needs
//! BMI2. Each square's magic maps the `2^n` subsets of its `n`-bit mask
//! onto `2^n` entries (`shift = 64 - n`), two subsets sharing an entry
//! only where their attack sets agree: the same 107,648 entries as `pext`'s
//! table (841 KiB), laid out alike, filled in another order.
//!
//! The table is built at compile time from `hq-pext-tables`' (whose entry
//! `k` of a square is the attack set of the `k`-th subset of its mask), and
//! the build fails if a magic sends two subsets with different attack sets
//! to one entry.
//!
//! ```
//! use hq_core::{Bitboard, SliderAttacks, Square};
//! use hq_magic::Magic;
//!
//! let magic = Magic::new().unwrap();
//! let attacks = magic.rook_attacks(Square::A1, Bitboard::from(Square::A4));
//! assert_eq!(attacks.count(), 7 + 3);
//! ```

#![no_std]
#[cfg(test)]
extern crate std;

mod magics;

use hq_core::{Bitboard, Line, Square};
use hq_pext_tables::{
    ATTACKS as BY_SUBSET, BISHOP_ENTRIES, BISHOP_LAYOUT, ROOK_ENTRIES, ROOK_LAYOUT,
};
use magics::{BISHOP_MAGICS, ROOK_MAGICS};

#[doc(hidden)]
pub mod search;

/// A square's entry: its relevant occupancy, its magic, the shift that
/// keeps the product's top bits, and its first attack set in [`ATTACKS`].
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Entry {
    mask: u64,
    magic: u64,
    offset: u32,
    shift: u32,
}

/// The entries of a piece's `layout` (masks and offsets, `pext`'s) with
/// its `magics`.
const fn entries(layout: &[(u64, usize); 64], magics: &[u64; 64]) -> [Entry; 64] {
    let empty = Entry {
        mask: 0,
        magic: 0,
        offset: 0,
        shift: 0,
    };
    let mut out = [empty; 64];
    let mut sq = 0;
    while sq < 64 {
        let (mask, offset) = layout[sq];
        out[sq] = Entry {
            mask,
            magic: magics[sq],
            offset: offset as u32,
            shift: 64 - mask.count_ones(),
        };
        sq += 1;
    }
    out
}

/// The rooks' entries, by square.
static ROOK: [Entry; 64] = entries(&ROOK_LAYOUT, &ROOK_MAGICS);
/// The bishops' entries, by square.
static BISHOP: [Entry; 64] = entries(&BISHOP_LAYOUT, &BISHOP_MAGICS);

/// Every attack set, rooks first, each square's slice in its magic's
/// order. A slot no subset maps to stays 0 (no slider attacks nothing).
#[allow(long_running_const_eval)] // 107,648 attack sets, once per build
static ATTACKS: [u64; ROOK_ENTRIES + BISHOP_ENTRIES] = {
    let mut table = [0u64; ROOK_ENTRIES + BISHOP_ENTRIES];
    let pieces = [
        (&ROOK_LAYOUT, &ROOK_MAGICS),
        (&BISHOP_LAYOUT, &BISHOP_MAGICS),
    ];
    let mut piece = 0;
    while piece < 2 {
        let (layout, magics) = pieces[piece];
        let mut sq = 0;
        while sq < 64 {
            let (mask, offset) = layout[sq];
            let shift = 64 - mask.count_ones();
            // The carry-rippler visits the subsets in the order of the
            // PEXT table's entries.
            let (mut subset, mut k) = (0u64, 0);
            loop {
                let attacks = BY_SUBSET[offset + k];
                let slot = offset + (subset.wrapping_mul(magics[sq]) >> shift) as usize;
                if table[slot] == 0 {
                    table[slot] = attacks;
                } else if table[slot] != attacks {
                    panic!("a magic maps two subsets with different attack sets to one entry");
                }
                k += 1;
                subset = subset.wrapping_sub(mask) & mask;
                if subset == 0 {
                    break;
                }
            }
            sq += 1;
        }
        piece += 1;
    }
    table
};

/// The attack set of the piece of `entries` on `sq` over `occupancy`.
#[inline(always)]
fn lookup(entries: &[Entry; 64], sq: Square, occupancy: u64) -> u64 {
    let e = &entries[sq as usize];
    let index = ((occupancy & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
    // SAFETY: `index < 2^(64 - shift) = 2^popcount(mask)`, and the square's
    // slice of that many entries starts at `offset` inside `ATTACKS`
    // (`pext`'s layout: the slices lie back to back and fill the table,
    // `hq_pext_tables`' `table_sizes_are_the_known_ones`).
    unsafe { *ATTACKS.get_unchecked(e.offset as usize + index) }
}

hq_core::slider_token! {
    /// The fancy-magic backend token, `magic`. Portable.
    pub struct Magic: "magic", portable;
    impl {
        /// The attack sets and both pieces' entries.
        const TABLE_BYTES: usize =
            size_of_val(&ATTACKS) + size_of_val(&ROOK) + size_of_val(&BISHOP);

        #[inline]
        fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
            hq_core::line_attacks_from_piece(self, line, sq, occupancy)
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn rook_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
            Bitboard(lookup(&ROOK, sq, occupancy.0))
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn bishop_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
            Bitboard(lookup(&BISHOP, sq, occupancy.0))
        }

        // Table lookups up to two sliders, the occluded fill above (as
        // `pext`'s).
        hq_scalar::setwise_methods!(rooks pair_up_to(2), bishops pair_up_to(2), queens pair_up_to(2); any caller);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every slot a subset maps to holds that subset's attack set (the
    /// compile-time check's claim, read back), for every square.
    #[test]
    fn every_subset_finds_its_attack_set() {
        for (entries, layout) in [(&ROOK, &ROOK_LAYOUT), (&BISHOP, &BISHOP_LAYOUT)] {
            for sq in Square::ALL {
                let (mask, offset) = layout[sq as usize];
                let (mut subset, mut k) = (0u64, 0);
                loop {
                    assert_eq!(lookup(entries, sq, subset), BY_SUBSET[offset + k], "{sq}");
                    k += 1;
                    subset = subset.wrapping_sub(mask) & mask;
                    if subset == 0 {
                        break;
                    }
                }
            }
        }
    }

    /// The committed magics are what the search finds from its seed.
    #[test]
    fn the_committed_magics_are_the_searchs() {
        let (rooks, bishops) = search::magics(search::SEED);
        assert_eq!(rooks, ROOK_MAGICS);
        assert_eq!(bishops, BISHOP_MAGICS);
    }
}
