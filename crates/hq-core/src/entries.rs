//! A backend's entry points compiled for the level its jobs run at, as
//! function pointers: what a run-time dispatcher calls where it does not
//! inline the backend (one indirect call, the kernel inlined behind it).

use crate::cpu::Level;
use crate::{Bitboard, Line, Slider, SliderAttacks, Square};

/// A single lookup of one piece (or a dependency chain's link), the
/// square as its index (`index & 63` is looked up). A dispatcher's fast
/// path already holds the square as an index word: with a `Square`
/// argument its call kept a second copy of the byte alive through the
/// fast path (one more uop per lookup).
pub type SingleFn = unsafe fn(usize, Bitboard) -> Bitboard;
/// A line lookup.
pub type LineFn = unsafe fn(Line, Square, Bitboard) -> Bitboard;
/// A batch of one piece (`squares` and `out` of equal length).
pub type BatchFn = unsafe fn(&[Square], Bitboard, &mut [Bitboard]);
/// A set-wise call of one piece.
pub type SetwiseFn = unsafe fn(Bitboard, Bitboard) -> Bitboard;

/// One backend's entry points, per piece (rook, bishop, queen).
///
/// Calling one is `unsafe`: the CPU must have the level they are compiled
/// for ([`Entries::of`] picks it from the token's, which proves it).
#[derive(Clone, Copy, Debug)]
pub struct Entries {
    /// `*_attacks`.
    pub single: [SingleFn; 3],
    /// `line_attacks`.
    pub line: LineFn,
    /// `*_attacks_batch`.
    pub batch: [BatchFn; 3],
    /// `*_attacks_setwise`.
    pub setwise: [SetwiseFn; 3],
}

/// `B`'s [`Entries`] from the `single`, `line`, `batch` and `setwise`
/// functions where it is invoked (a level's module, or the baseline's).
macro_rules! entries_here {
    ($b:ident) => {
        Entries {
            single: [single::<$b, 0>, single::<$b, 1>, single::<$b, 2>],
            line: line::<$b>,
            batch: [batch::<$b, 0>, batch::<$b, 1>, batch::<$b, 2>],
            setwise: [setwise::<$b, 0>, setwise::<$b, 1>, setwise::<$b, 2>],
        }
    };
}

/// The generic entry points, once per level: each is `#[target_feature]`
/// of its level, on its level's architecture only, with
/// the token's method inlined.
macro_rules! define_entries {
    ($d:tt $($(#[$doc:meta])* $level:ident = $name:literal, $arch:literal, $enabled:literal;)*) => {
        #[allow(non_snake_case)]
        mod at {
            $(
                #[cfg(target_arch = $arch)]
                pub(super) mod $level {
                    use crate::{Bitboard, Line, Slider, SliderAttacks, Square};
                    use super::super::Entries;

                    #[target_feature(enable = $enabled)]
                    pub(crate) fn single<B: SliderAttacks, const S: usize>(sq: usize, o: Bitboard) -> Bitboard {
                        let sq = Square::from_index_masked(sq as u8);
                        // SAFETY: called only where the CPU has the level (`Entries`).
                        Slider::ALL[S].single(unsafe { B::new_unchecked() }, sq, o)
                    }

                    #[target_feature(enable = $enabled)]
                    pub(crate) fn line<B: SliderAttacks>(line: Line, sq: Square, o: Bitboard) -> Bitboard {
                        // SAFETY: as above.
                        unsafe { B::new_unchecked() }.line_attacks(line, sq, o)
                    }

                    #[target_feature(enable = $enabled)]
                    pub(crate) fn batch<B: SliderAttacks, const S: usize>(s: &[Square], o: Bitboard, out: &mut [Bitboard]) {
                        // SAFETY: as above.
                        Slider::ALL[S].batch(unsafe { B::new_unchecked() }, s, o, out)
                    }

                    #[target_feature(enable = $enabled)]
                    pub(crate) fn setwise<B: SliderAttacks, const S: usize>(set: Bitboard, o: Bitboard) -> Bitboard {
                        // SAFETY: as above.
                        Slider::ALL[S].setwise(unsafe { B::new_unchecked() }, set, o)
                    }

                    /// `B`'s entry points at this level.
                    pub(crate) fn entries<B: SliderAttacks>() -> Entries {
                        entries_here!(B)
                    }
                }
            )*
        }

        impl Entries {
            /// The entry points of `token`'s backend, compiled for the level
            /// its jobs run at ([`Level::for_jobs`]). Each `if const` is
            /// decided when the caller's code is generated: only the levels
            /// `B` can run at are compiled (one, or x86-64-v3, v2 and the
            /// baseline for a backend `for_jobs` raises), where a match on
            /// the run-time level compiled every level of the target.
            pub fn of<B: SliderAttacks>(token: B) -> Entries {
                // The token proves `B::LEVEL`, and `for_jobs` only raises it
                // to a level this CPU has.
                let _proof = token;
                #[cfg(target_arch = "x86_64")]
                if const { B::LEVEL.is_raised_for_jobs() } {
                    return match crate::cpu::jobs_level(B::LEVEL) {
                        Level::X86V3 => at::X86V3::entries::<B>(),
                        Level::X86V2 => at::X86V2::entries::<B>(),
                        _ => baseline::<B>(),
                    };
                }
                $(
                    #[cfg(target_arch = $arch)]
                    if const { matches!(B::LEVEL, Level::$level) } {
                        return at::$level::entries::<B>();
                    }
                )*
                baseline::<B>()
            }
        }
    };
}

crate::cpu::each_level!($ define_entries);

/// The portable entry points (the baseline level).
fn baseline<B: SliderAttacks>() -> Entries {
    entries_here!(B)
}

/// The portable entries (the baseline level).
unsafe fn single<B: SliderAttacks, const S: usize>(sq: usize, o: Bitboard) -> Bitboard {
    let sq = Square::from_index_masked(sq as u8);
    // SAFETY: called only where the CPU has `B::LEVEL` (`Entries`).
    Slider::ALL[S].single(unsafe { B::new_unchecked() }, sq, o)
}
unsafe fn line<B: SliderAttacks>(line: Line, sq: Square, o: Bitboard) -> Bitboard {
    // SAFETY: as above.
    unsafe { B::new_unchecked() }.line_attacks(line, sq, o)
}
unsafe fn batch<B: SliderAttacks, const S: usize>(s: &[Square], o: Bitboard, out: &mut [Bitboard]) {
    // SAFETY: as above.
    Slider::ALL[S].batch(unsafe { B::new_unchecked() }, s, o, out)
}
unsafe fn setwise<B: SliderAttacks, const S: usize>(set: Bitboard, o: Bitboard) -> Bitboard {
    // SAFETY: as above.
    Slider::ALL[S].setwise(unsafe { B::new_unchecked() }, set, o)
}
