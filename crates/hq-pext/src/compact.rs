//! PEXT with a compact table: each entry is the attack set packed onto the
//! square's empty-board attacks (`u16`: a rook sees at most 14 squares),
//! and BMI2's parallel bit deposit unpacks it.
//!
//! ```text
//! rook_attacks(sq, occ) = pdep(PACKED[offset + pext(occ, mask)], SPAN[sq])
//! ```
//!
//! The same layout and indices as [`crate::Pext`], with a table a quarter
//! of its size: 107,648 entries of 2 bytes (210 KiB against 841), the form
//! of the `chess` crate's BMI2 path. One more instruction per line pair
//! (PDEP, 3 cycles on the CPUs with a fast PEXT), and a table that stays
//! in L2 where engines' transposition tables evict the large one.

use hq_core::cpu::Level;
use hq_core::{Bitboard, Line, Slider, Square};
use hq_pext_tables::{BISHOP_LAYOUT, BISHOP_STEPS, PACKED, ROOK_LAYOUT, ROOK_STEPS, walk};

use super::Piece;

/// One piece's entries by square: the relevant-occupancy masks, the
/// empty-board attacks the packed sets unpack onto, and each square's
/// first entry in [`PACKED`].
#[repr(C)]
struct Entries {
    masks: [u64; 64],
    spans: [u64; 64],
    packed: [*const u16; 64],
}

#[repr(C)]
struct PieceEntries {
    rook: Entries,
    bishop: Entries,
}

// SAFETY: the pointers point into the immutable static `PACKED`; nothing
// is ever written through them.
unsafe impl Sync for PieceEntries {}

impl PieceEntries {
    /// `piece`'s mask, span and packed-set pointer on `sq`, as elements
    /// from the start of the table (one base, the scaled addressing mode),
    /// as `Pext`'s entries are read.
    #[inline(always)]
    fn of(&self, piece: Piece, sq: Square) -> (u64, u64, *const u16) {
        use core::mem::{offset_of, size_of};
        /// The rook's entries in `u64`s and in pointers, and the masks and
        /// spans in pointers (pointers are 4 bytes on wasm32).
        const ROOK_WORDS: usize = offset_of!(PieceEntries, bishop) / size_of::<u64>();
        const ROOK_POINTERS: usize = offset_of!(PieceEntries, bishop) / size_of::<*const u16>();
        const WORDS: usize = offset_of!(Entries, packed) / size_of::<*const u16>();
        const {
            assert!(offset_of!(Entries, spans) == 64 * size_of::<u64>());
            assert!(offset_of!(PieceEntries, bishop) % size_of::<u64>() == 0);
            assert!(offset_of!(Entries, packed) % size_of::<*const u16>() == 0);
        };
        let (piece, sq) = (piece as usize, sq as usize);
        // The same index on 64-bit targets, so that the reads share it.
        let (word, pointer) = (piece * ROOK_WORDS + sq, piece * ROOK_POINTERS + sq);
        let (words, pointers) = (
            core::ptr::from_ref(self).cast::<u64>(),
            core::ptr::from_ref(self).cast::<*const u16>(),
        );
        // SAFETY: `sq < 64` and `piece < 2`: the reads are element `sq` of
        // the piece's `masks`, `spans` and `packed` (the offsets above,
        // exact by the assertions), all inside `self`.
        unsafe {
            (
                *words.add(word),
                *words.add(64 + word),
                *pointers.add(WORDS + pointer),
            )
        }
    }
}

/// The entries of a layout (`steps`' pieces), pointing into [`PACKED`].
const fn entries(layout: &[(u64, usize); 64], steps: &[(i32, i32); 4]) -> Entries {
    let mut table = Entries {
        masks: [0; 64],
        spans: [0; 64],
        packed: [core::ptr::null(); 64],
    };
    let mut sq = 0;
    while sq < 64 {
        let (mask, offset) = layout[sq];
        table.masks[sq] = mask;
        table.spans[sq] = walk(sq, 0, steps);
        // In bounds: the layout is `Pext`'s, whose slices fill a table of
        // PACKED's length exactly (`table_sizes_are_the_known_ones`).
        table.packed[sq] = PACKED.as_ptr().wrapping_add(offset);
        sq += 1;
    }
    table
}

static ENTRIES: PieceEntries = PieceEntries {
    rook: entries(&ROOK_LAYOUT, &ROOK_STEPS),
    bishop: entries(&BISHOP_LAYOUT, &BISHOP_STEPS),
};

impl PextPdep {
    #[inline(always)]
    fn lookup(self, piece: Piece, sq: Square, occupancy: u64) -> u64 {
        // SAFETY: the square's own mask.
        unsafe { self.lookup_masked(piece, sq, occupancy, ENTRIES.of(piece, sq).0) }
    }

    /// The lookup with `mask` in place of the square's (the keyed form).
    ///
    /// # Safety
    ///
    /// `mask` must be a subset of the square's mask (that mask, or 0), so
    /// that the index stays inside the square's slice.
    #[inline(always)]
    unsafe fn lookup_masked(self, piece: Piece, sq: Square, occupancy: u64, mask: u64) -> u64 {
        let (own_mask, span, packed) = ENTRIES.of(piece, sq);
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        // SAFETY: the token proves x86-64-v3, which has BMI2.
        let index = unsafe { super::bmi2::pext(occupancy, mask) };
        #[cfg(any(not(target_arch = "x86_64"), miri))]
        let index = hq_pext_tables::soft_pext(occupancy, mask);
        debug_assert!(mask & !own_mask == 0);
        // SAFETY: `index < 2^popcount(mask) <= 2^popcount(the square's
        // mask)` (the caller keeps `mask` inside the square's), and the
        // square's slice of that many entries lies inside `PACKED` (the
        // layout's slices are back to back and fill it).
        let bits = u64::from(unsafe { *packed.add(index as usize) });
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        // SAFETY: as above.
        return unsafe { super::bmi2::pdep(bits, span) };
        #[cfg(any(not(target_arch = "x86_64"), miri))]
        return soft_pdep(bits, span);
    }
}

/// PDEP in software, for the never-supported stand-in off x86-64 and for
/// Miri (which runs no `asm!`).
#[cfg(any(not(target_arch = "x86_64"), miri, test))]
const fn soft_pdep(value: u64, mut mask: u64) -> u64 {
    let (mut out, mut bit) = (0, 1);
    while mask != 0 {
        if value & bit != 0 {
            out |= mask & mask.wrapping_neg();
        }
        mask &= mask - 1;
        bit <<= 1;
    }
    out
}

super::pext_token! {
    /// The compact PEXT backend token (`pext-pdep`): PEXT indices into a
    /// table of packed attack sets, unpacked by PDEP.
    PextPdep: "pext-pdep",
    // The masks, spans and packed-set pointers of both pieces, and the
    // packed attack sets.
    tables size_of_val(&ENTRIES) + size_of_val(&PACKED)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hq_core::{SliderAttacks, SplitMix64, reference};

    #[test]
    fn soft_pdep_scatters_onto_the_mask() {
        assert_eq!(soft_pdep(0b1011, 0b1111_0000), 0b1011_0000);
        assert_eq!(
            soft_pdep(0b1111, 0x8100_0000_0000_0081),
            0x8100_0000_0000_0081
        );
        assert_eq!(
            soft_pdep(0b1001, 0x8100_0000_0000_0081),
            0x8000_0000_0000_0001
        );
        assert_eq!(soft_pdep(u64::MAX, 0), 0);
        for (value, mask) in [(0x1234, 0xF0F0_F0F0), (!0, 0x0101_0101_0101_0101)] {
            assert_eq!(
                hq_pext_tables::soft_pext(soft_pdep(value, mask), mask),
                value & ((1 << mask.count_ones()) - 1)
            );
        }
    }

    /// Every packed entry unpacks to the attack set it stands for: each
    /// fits its span's bits, and the ends and middle of every square's
    /// slice agree with the oracle (Miri checks the pointer arithmetic).
    #[test]
    fn packed_entries_unpack_to_the_oracle() {
        for sq in 0..64 {
            for (entries, layout) in [
                (&ENTRIES.rook, &ROOK_LAYOUT),
                (&ENTRIES.bishop, &BISHOP_LAYOUT),
            ] {
                let (mask, offset) = layout[sq];
                let bits = entries.spans[sq].count_ones();
                assert!(bits <= 14);
                // Every entry natively; under Miri a sample (its
                // interpreter takes minutes for all 107,648).
                let step = if cfg!(miri) { 97 } else { 1 };
                for k in (0..1usize << mask.count_ones()).step_by(step) {
                    let i = offset + k;
                    assert!(u32::from(PACKED[i]) < 1 << bits, "square {sq} entry {k}");
                    // Every entry is `Pext`'s attack set, packed.
                    let packed =
                        hq_pext_tables::soft_pext(hq_pext_tables::ATTACKS[i], entries.spans[sq]);
                    assert_eq!(u64::from(PACKED[i]), packed, "square {sq} entry {k}");
                }
            }
        }
        let token = match PextPdep::new() {
            Some(t) => t,
            // SAFETY: under Miri the lookups take the software PEXT and PDEP.
            None if cfg!(miri) => unsafe { PextPdep::new_unchecked() },
            None => {
                std::println!(
                    "hq-pext: SKIPPED pext-pdep lookups: {}",
                    PextPdep::require().expect_err("no token")
                );
                return;
            }
        };
        let mut rng = SplitMix64(0x5EED_CAFE);
        for sq in Square::ALL {
            let (rook, bishop) = (crate::Pext::rook_mask(sq), crate::Pext::bishop_mask(sq));
            let random = [rng.next_u64(), rng.next_u64() & rng.next_u64()];
            for occ in [0, rook, bishop, rook | bishop, !0, random[0], random[1]] {
                let occ = Bitboard(occ);
                let (r, b) = (
                    reference::rook_attacks(sq, occ),
                    reference::bishop_attacks(sq, occ),
                );
                assert_eq!(token.rook_attacks(sq, occ), r, "rook {sq} {occ:?}");
                assert_eq!(token.bishop_attacks(sq, occ), b, "bishop {sq} {occ:?}");
                assert_eq!(token.queen_attacks(sq, occ), r | b, "queen {sq} {occ:?}");
            }
        }
    }

    #[test]
    fn the_table_is_a_quarter_of_pext_s() {
        assert_eq!(
            core::mem::size_of_val(&PACKED) * 4,
            core::mem::size_of_val(&hq_pext_tables::ATTACKS)
        );
        assert_eq!(core::mem::size_of_val(&PACKED), 215_296);
    }
}
