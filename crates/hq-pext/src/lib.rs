//! PEXT bitboards: the attack set of every relevant occupancy, stored; BMI2's
//! parallel bit extract turns the occupancy into the index.
//!
//! ```text
//! rook_attacks(sq, occ) = ATTACKS[ROOK[sq].offset + pext(occ, ROOK[sq].mask)]
//! ```
//!
//! `mask` is the rook's (or bishop's) lines through `sq` without the square
//! and without the last square of each ray (a blocker there changes
//! nothing), so `pext` packs the relevant occupancy into `popcount(mask)`
//! bits: at most 12 for a rook, 9 for a bishop. One table of 107,648 attack
//! sets (841 KiB, 102,400 for rooks, 5,248 for bishops), computed at compile
//! time: enumerating the subsets of a mask with the carry-rippler
//! `s = (s - mask) & mask` visits them in exactly the order of their PEXT
//! index, so entry `k` of a square is the attack set of the `k`-th subset.
//!
//! [`PextPdep`] (`pext-pdep`) is the same method with a table a quarter of
//! the size: each attack set packed into 16 bits, unpacked by PDEP.
//!
//! This is the table method of the fastest engines on CPUs with a fast PEXT.
//! On AMD before Zen 3 `pext` is microcoded (18 cycles and more, data
//! dependent): the token still works there, but the facade does not choose
//! it (`hq_core::cpu::Identity::has_fast_pext`).
//!
//! The token's level is x86-64-v3 (BMI2 among it), so jobs compiled for it
//! inline the lookup. Set-wise calls loop over the sliders up to a measured
//! count and use `hq_scalar`'s occluded fill above it.
//!
//! ```
//! use hq_core::{Bitboard, SliderAttacks, Square};
//!
//! if let Some(pext) = hq_pext::Pext::new() {
//!     let attacks = pext.rook_attacks(Square::A1, Bitboard::from(Square::A4));
//!     assert_eq!(attacks.count(), 7 + 3);
//! }
//! ```

#![no_std]
#[cfg(test)]
extern crate std;

use hq_core::cpu::Level;
use hq_core::{Bitboard, Line, Slider, Square};

mod compact;
pub use compact::PextPdep;
use hq_pext_tables::{ATTACKS, BISHOP_ENTRIES, BISHOP_LAYOUT, ROOK_LAYOUT};

/// One piece's table entries, by square: the relevant-occupancy masks and
/// each square's first attack set in [`ATTACKS`].
///
/// Two arrays rather than one array of (mask, pointer) pairs: with 8-byte
/// elements the square index scales inside the x86 addressing mode, so a
/// lookup needs no shift, and a caller that keeps masks of its own (the
/// facade's armed masks, also 8 bytes apart) shares one index register
/// with it. With 16-byte pairs each table needed its own shifted copy of
/// the index (two more instructions per queen lookup in the facade's
/// native loop, AMD Zen 4).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Entries {
    /// The relevant occupancy bits.
    masks: [u64; 64],
    /// A pointer per square, so that a lookup is `*(attacks + pext(occ,
    /// mask))` with no base address to add.
    attacks: [*const u64; 64],
}

/// The entries of both pieces in one static, so that a lookup needs one
/// address (a queen: both pieces).
#[repr(C)]
struct PieceEntries {
    rook: Entries,
    bishop: Entries,
}

/// Which piece's entries a lookup reads (a queen reads both).
#[derive(Clone, Copy)]
pub(crate) enum Piece {
    Rook,
    Bishop,
}

impl PieceEntries {
    /// `piece`'s mask and attack pointer on `sq`, as elements from the
    /// start of the table: mask `piece * ROOK_MASKS + sq` of the `u64`s,
    /// pointer `piece * ROOK_POINTERS + MASKS + sq` of the pointers (on
    /// x86-64 `128 * piece + sq` and `128 * piece + 64 + sq`). Not field
    /// indexing (`self.bishop.masks[sq]`): in loops that LLVM unrolls (a
    /// hybrid's PEXT half) that computed `sq * 8`, or `sq * 8 + 512`, in a
    /// register of its own, one instruction more per lookup, where one base
    /// and the scaled addressing mode need none. The square is read
    /// through [`opaque_index`], which keeps the offset there too.
    #[inline(always)]
    fn of(&self, piece: Piece, sq: Square) -> (u64, *const u64) {
        use core::mem::{offset_of, size_of};
        /// The rook's entries in `u64`s and in pointers, and the masks in
        /// pointers (pointers are 4 bytes on wasm32).
        const ROOK_MASKS: usize = offset_of!(PieceEntries, bishop) / size_of::<u64>();
        const ROOK_POINTERS: usize = offset_of!(PieceEntries, bishop) / size_of::<*const u64>();
        const MASKS: usize = offset_of!(Entries, attacks) / size_of::<*const u64>();
        const {
            assert!(offset_of!(PieceEntries, bishop) % size_of::<u64>() == 0);
            assert!(offset_of!(Entries, attacks) % size_of::<*const u64>() == 0);
        };
        let (piece, sq) = (piece as usize, opaque_index(sq));
        // The same index on 64-bit targets, so that both reads share it.
        let (mask, pointer) = (piece * ROOK_MASKS + sq, piece * ROOK_POINTERS + sq);
        let base = core::ptr::from_ref(self);
        // SAFETY: `sq < 64` and `piece < 2`: the mask read is element `sq`
        // of the piece's `masks`, the pointer read element `sq` of its
        // `attacks` (the offsets above, exact by the assertions), all
        // inside `self`.
        unsafe {
            (
                *base.cast::<u64>().add(mask),
                *base.cast::<*const u64>().add(MASKS + pointer),
            )
        }
    }
}

// SAFETY: the pointers point into the immutable static `ATTACKS`; nothing
// is ever written through them.
unsafe impl Sync for PieceEntries {}

/// `sq` as an index LLVM cannot see through, so that a piece's offset in
/// the entries stays in the addressing mode (`0x400(base, sq, 8)` for a
/// bishop's mask).
///
/// Knowing `sq < 64`, LLVM folded `128 + sq` into the square's byte
/// (`sq | 128`), and in the unrolled lookups of a hybrid's bishop batch
/// its SLP vectorizer then ORed eight squares at once in a vector register
/// and moved each out with `vpextrb`: ten instructions per eight lookups
/// where eight loads do, and in the AVX2 kernel eight indexes live at once,
/// which spilled its constants to the stack. The empty `asm!` block costs
/// no instruction. Measured in the commit message that added it.
/// `pext-pdep`'s entries (no hybrid unrolls its lookups) read the square
/// as it is: through this block LLVM inlined its bench rows differently,
/// a change nothing measured.
#[inline(always)]
fn opaque_index(sq: Square) -> usize {
    #[allow(unused_mut)]
    let mut index = sq as usize;
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    // SAFETY: an empty block: it reads and writes only `index`'s register,
    // and leaves it as it was.
    unsafe {
        core::arch::asm!(
            "/* {index} */",
            index = inout(reg) index,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    index
}

/// The entries of a layout, pointing into [`ATTACKS`].
const fn entries(layout: &[(u64, usize); 64]) -> Entries {
    let mut table = Entries {
        masks: [0; 64],
        attacks: [core::ptr::null(); 64],
    };
    let mut sq = 0;
    while sq < 64 {
        let (mask, offset) = layout[sq];
        table.masks[sq] = mask;
        // In bounds: `table_sizes_are_the_known_ones` checks that the
        // slices fill the table exactly.
        table.attacks[sq] = ATTACKS.as_ptr().wrapping_add(offset);
        sq += 1;
    }
    table
}

static ENTRIES: PieceEntries = PieceEntries {
    rook: entries(&ROOK_LAYOUT),
    bishop: entries(&BISHOP_LAYOUT),
};

impl Pext {
    #[inline(always)]
    fn lookup(self, piece: Piece, sq: Square, occupancy: u64) -> u64 {
        // SAFETY: the square's own mask.
        unsafe { self.lookup_masked(piece, sq, occupancy, ENTRIES.of(piece, sq).0) }
    }

    /// The lookup with `mask` in place of the square's.
    ///
    /// # Safety
    ///
    /// `mask` must be a subset of the square's mask (that mask, or 0), so
    /// that the index stays inside the square's slice.
    #[inline(always)]
    unsafe fn lookup_masked(self, piece: Piece, sq: Square, occupancy: u64, mask: u64) -> u64 {
        let (own_mask, attacks) = ENTRIES.of(piece, sq);
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        // SAFETY: the token proves x86-64-v3, which has BMI2.
        let index = unsafe { bmi2::pext(occupancy, mask) };
        // Miri runs no `asm!`: the lookups take the software PEXT there.
        #[cfg(any(not(target_arch = "x86_64"), miri))]
        let index = hq_pext_tables::soft_pext(occupancy, mask);
        debug_assert!(mask & !own_mask == 0 && index < 1 << own_mask.count_ones());
        // SAFETY: `index < 2^popcount(mask) <= 2^popcount(own_mask)` (PEXT
        // packs the mask's bits; the caller keeps `mask` inside the square's),
        // and the square's slice of that many entries lies inside `ATTACKS`
        // (`layout` lays them out back to back; `table_sizes_are_the_known_ones`).
        unsafe { *attacks.add(index as usize) }
    }

    /// The relevant-occupancy mask of a rook on `sq` (the key of the
    /// keyed lookups, [`SliderAttacks::single_key`](hq_core::SliderAttacks::single_key)).
    pub const fn rook_mask(sq: Square) -> u64 {
        ROOK_LAYOUT[sq as usize].0
    }

    /// The relevant-occupancy mask of a bishop on `sq`.
    pub const fn bishop_mask(sq: Square) -> u64 {
        BISHOP_LAYOUT[sq as usize].0
    }

    /// Bytes of what the bishop lookups read: the bishop entries and the
    /// bishop slices of the attack table (a backend that takes only its
    /// bishops from PEXT keeps these in the caches, not the rooks' 800 KiB).
    pub const BISHOP_TABLE_BYTES: usize =
        size_of_val(&ENTRIES.bishop) + BISHOP_ENTRIES * size_of::<u64>();
}

/// `pext`, callable from code compiled without BMI2.
///
/// Where the build enables BMI2 (`-C target-cpu=native` on a BMI2 CPU, or
/// inside a job compiled for x86-64-v3) this is the intrinsic, which LLVM
/// schedules and folds like any instruction. Elsewhere it is one `pext` in
/// inline assembly: an `asm!` block needs no `#[target_feature]` on its
/// caller, so the lookup inlines into plain (baseline) code, such as the
/// facade's free functions, instead of staying a call into a BMI2 function.
#[cfg(all(target_arch = "x86_64", not(miri)))]
mod bmi2 {
    /// # Safety
    ///
    /// The CPU must have BMI2.
    #[cfg(target_feature = "bmi2")]
    #[inline(always)]
    pub(super) unsafe fn pext(value: u64, mask: u64) -> u64 {
        // SAFETY: BMI2 is enabled for the whole build.
        unsafe { core::arch::x86_64::_pext_u64(value, mask) }
    }

    /// # Safety
    ///
    /// The CPU must have BMI2.
    #[cfg(not(target_feature = "bmi2"))]
    #[inline(always)]
    pub(super) unsafe fn pext(value: u64, mask: u64) -> u64 {
        let index: u64;
        // SAFETY: the caller guarantees BMI2; `pext` reads and writes only
        // the named registers, touches no memory and no flags.
        unsafe {
            core::arch::asm!(
                "pext {index}, {value}, {mask}",
                index = lateout(reg) index,
                value = in(reg) value,
                mask = in(reg) mask,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        index
    }

    /// # Safety
    ///
    /// The CPU must have BMI2.
    #[cfg(target_feature = "bmi2")]
    #[inline(always)]
    pub(super) unsafe fn pdep(value: u64, mask: u64) -> u64 {
        // SAFETY: BMI2 is enabled for the whole build.
        unsafe { core::arch::x86_64::_pdep_u64(value, mask) }
    }

    /// # Safety
    ///
    /// The CPU must have BMI2.
    #[cfg(not(target_feature = "bmi2"))]
    #[inline(always)]
    pub(super) unsafe fn pdep(value: u64, mask: u64) -> u64 {
        let deposited: u64;
        // SAFETY: the caller guarantees BMI2; `pdep` reads and writes only
        // the named registers, touches no memory and no flags.
        unsafe {
            core::arch::asm!(
                "pdep {out}, {value}, {mask}",
                out = lateout(reg) deposited,
                value = in(reg) value,
                mask = in(reg) mask,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        deposited
    }
}

/// A PEXT token: the single lookups through `self.lookup` and
/// `self.lookup_masked` on the invoking module's `ENTRIES` (`pext`'s attack
/// sets, `pext-pdep`'s packed ones), and the same set-wise, batch and keyed
/// forms, so that the two tables differ only in their lookup.
macro_rules! pext_token {
    ($(#[$doc:meta])* $token:ident: $name:literal, tables $tables:expr) => {
        hq_core::slider_token! {
            $(#[$doc])*
            pub struct $token: $name, Level::X86V3;
            impl {
                const TABLE_BYTES: usize = $tables;

                #[inline]
                fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
                    hq_core::line_attacks_from_piece(self, line, sq, occupancy)
                }

                #[inline]
                fn rook_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
                    Bitboard(self.lookup($crate::Piece::Rook, sq, occupancy.0))
                }

                #[inline]
                fn bishop_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
                    Bitboard(self.lookup($crate::Piece::Bishop, sq, occupancy.0))
                }

                // PEXT lookups up to 2 sliders, branch-free, the occluded fill
                // (compiled for x86-64-v3) above: with 3-4 sliders of mixed counts
                // the fill beat a loop of lookups (`setwise_crossover` on the Intel
                // Xeon; the `pext` rows' set-wise columns of the committed runs).
                hq_scalar::setwise_methods!(rooks pair_up_to(2), bishops pair_up_to(2), queens pair_up_to(2); fill compiled, any caller);

                // The lookups are `asm!` (`pext`, `pdep`), which need no target
                // feature of the caller: a batch inlines into any caller.
                #[inline(always)]
                fn batch_in_any_caller(self, slider: Slider, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
                    slider.batch(self, squares, occupancy, out)
                }

                /// The square's PEXT mask (the queen's: the rook's). No mask holds
                /// a corner, h8 among them: bit 63 stays clear.
                #[inline(always)]
                fn single_key(slider: Slider, sq: Square) -> u64 {
                    match slider {
                        Slider::Bishop => $crate::Pext::bishop_mask(sq),
                        _ => $crate::Pext::rook_mask(sq),
                    }
                }

                #[inline(always)]
                unsafe fn single_keyed(self, slider: Slider, sq: Square, occupancy: Bitboard, key: u64) -> Bitboard {
                    let (rook, bishop, occ) = ($crate::Piece::Rook, $crate::Piece::Bishop, occupancy.0);
                    // SAFETY: `key` is the square's own mask (the caller's
                    // guarantee); the queen's is the rook's, and its bishop
                    // half uses the table's.
                    Bitboard(unsafe {
                        match slider {
                            Slider::Rook => self.lookup_masked(rook, sq, occ, key),
                            Slider::Bishop => self.lookup_masked(bishop, sq, occ, key),
                            Slider::Queen => self.lookup_masked(rook, sq, occ, key) | self.lookup(bishop, sq, occ),
                        }
                    })
                }
            }
        }
    };
}
pub(crate) use pext_token;

pext_token! {
    /// The PEXT backend token (`pext`).
    Pext: "pext",
    // The masks and attack pointers of both pieces, and the attack sets
    // (every form of the lookups reads these: the keyed one takes the mask
    // from its key, not from the entries, and reads the rest).
    tables size_of_val(&ENTRIES) + size_of_val(&ATTACKS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hq_core::{SliderAttacks, SplitMix64, reference};
    use hq_pext_tables::ROOK_ENTRIES;

    /// The token of the lookup tests: the real one where the CPU has
    /// x86-64-v3, and under Miri one made unchecked, whose lookups take the
    /// software PEXT there (the tests call only the lookups, not the
    /// set-wise paths compiled for x86-64-v3).
    fn lookup_token() -> Option<Pext> {
        if let Some(token) = Pext::new() {
            return Some(token);
        }
        if cfg!(miri) {
            // SAFETY: under Miri `lookup_masked` runs `soft_pext`, no BMI2
            // instruction, and the callers run only the lookups.
            return Some(unsafe { Pext::new_unchecked() });
        }
        None
    }

    #[test]
    fn soft_pext_packs_the_mask_bits() {
        assert_eq!(hq_pext_tables::soft_pext(0b1011_0110, 0b1111_0000), 0b1011);
        assert_eq!(hq_pext_tables::soft_pext(!0, 0x8100_0000_0000_0081), 0b1111);
        assert_eq!(
            hq_pext_tables::soft_pext(0x8000_0000_0000_0001, 0x8100_0000_0000_0081),
            0b1001
        );
        assert_eq!(hq_pext_tables::soft_pext(u64::MAX, 0), 0);
    }

    /// Every square's slice at its first entry (mask 0 or an empty
    /// occupancy), its last (the full mask) and in between, through the
    /// lookups and the masked lookups: the pointer arithmetic into the
    /// static table, which Miri checks.
    #[test]
    fn lookups_agree_with_the_oracle_at_the_ends_of_every_slice() {
        let Some(pext) = lookup_token() else {
            std::println!(
                "hq-pext: SKIPPED table lookups: {}",
                Pext::require().expect_err("no token")
            );
            return;
        };
        let mut rng = SplitMix64(0x9E37_79B9);
        let mut checked = 0;
        for sq in Square::ALL {
            let (rook, bishop) = (Pext::rook_mask(sq), Pext::bishop_mask(sq));
            let random = [rng.next_u64(), rng.next_u64() & rng.next_u64()];
            for occ in [0, rook, bishop, rook | bishop, !0, random[0], random[1]] {
                let occ = Bitboard(occ);
                let (r, b) = (
                    reference::rook_attacks(sq, occ),
                    reference::bishop_attacks(sq, occ),
                );
                assert_eq!(pext.rook_attacks(sq, occ), r, "rook {sq} {occ:?}");
                assert_eq!(pext.bishop_attacks(sq, occ), b, "bishop {sq} {occ:?}");
                assert_eq!(pext.queen_attacks(sq, occ), r | b, "queen {sq} {occ:?}");
                let (o, rooks, bishops) = (occ.0, Piece::Rook, Piece::Bishop);
                // SAFETY: the square's own masks, and 0.
                let masked = unsafe {
                    [
                        pext.lookup_masked(rooks, sq, o, rook),
                        pext.lookup_masked(bishops, sq, o, bishop),
                        pext.lookup_masked(rooks, sq, o, 0),
                        pext.lookup_masked(bishops, sq, o, 0),
                    ]
                    .map(Bitboard)
                };
                let empty = Bitboard::EMPTY;
                let expected = [
                    r,
                    b,
                    reference::rook_attacks(sq, empty),
                    reference::bishop_attacks(sq, empty),
                ];
                assert_eq!(masked, expected, "masked lookups {sq} {occ:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 64 * 7);
    }

    #[test]
    fn table_sizes_are_the_known_ones() {
        let sizes = |layout: &[(u64, usize); 64]| -> usize {
            layout.iter().map(|e| 1usize << e.0.count_ones()).sum()
        };
        assert_eq!(sizes(&ROOK_LAYOUT), ROOK_ENTRIES);
        assert_eq!(sizes(&BISHOP_LAYOUT), BISHOP_ENTRIES);
        assert_eq!(ROOK_LAYOUT[0].0.count_ones(), 12);
        assert_eq!(BISHOP_LAYOUT[27].0.count_ones(), 9);
        // The slices are back to back and end at the table's end.
        let end = BISHOP_LAYOUT[63].1 + (1 << BISHOP_LAYOUT[63].0.count_ones());
        assert_eq!(end, ATTACKS.len());
        assert_eq!(ENTRIES.bishop.attacks[0], ATTACKS[ROOK_ENTRIES..].as_ptr());
    }
}
