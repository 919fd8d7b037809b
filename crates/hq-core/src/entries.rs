//! A backend's entry points compiled for the level its jobs run at, as
//! function pointers: what a run-time dispatcher calls where it does not
//! inline the backend (one indirect call, the kernel inlined behind it).

use crate::cpu::Level;
use crate::{Bitboard, Line, Slider, SliderAttacks, Square};

/// A single lookup of one piece (or a dependency chain's link).
pub type SingleFn = unsafe fn(Square, Bitboard) -> Bitboard;
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

/// The generic entry points, once per level: each is `#[target_feature]`
/// of its level (`#[multiversion::target]` with the level's string) with
/// the token's method inlined.
macro_rules! define_entries {
    ($d:tt $($(#[$doc:meta])* $level:ident = $name:literal, $arch:literal, $target:literal;)*) => {
        #[allow(non_snake_case)]
        mod at {
            $(
                #[cfg(target_arch = $arch)]
                pub(super) mod $level {
                    use crate::{Bitboard, Line, Slider, SliderAttacks, Square};

                    #[multiversion::target($target)]
                    pub(crate) fn single<B: SliderAttacks, const S: usize>(sq: Square, o: Bitboard) -> Bitboard {
                        // SAFETY: called only where the CPU has the level (`Entries`).
                        Slider::ALL[S].single(unsafe { B::new_unchecked() }, sq, o)
                    }

                    #[multiversion::target($target)]
                    pub(crate) fn line<B: SliderAttacks>(line: Line, sq: Square, o: Bitboard) -> Bitboard {
                        // SAFETY: as above.
                        unsafe { B::new_unchecked() }.line_attacks(line, sq, o)
                    }

                    #[multiversion::target($target)]
                    pub(crate) fn batch<B: SliderAttacks, const S: usize>(s: &[Square], o: Bitboard, out: &mut [Bitboard]) {
                        // SAFETY: as above.
                        Slider::ALL[S].batch(unsafe { B::new_unchecked() }, s, o, out)
                    }

                    #[multiversion::target($target)]
                    pub(crate) fn setwise<B: SliderAttacks, const S: usize>(set: Bitboard, o: Bitboard) -> Bitboard {
                        // SAFETY: as above.
                        Slider::ALL[S].setwise(unsafe { B::new_unchecked() }, set, o)
                    }
                }
            )*
        }

        impl Entries {
            /// `B`'s entry points, compiled for `level`.
            ///
            /// # Safety
            ///
            /// Only where the CPU has `level`, at least `B::LEVEL`.
            #[allow(unreachable_code)]
            unsafe fn at_level<B: SliderAttacks>(level: Level) -> Entries {
                match level {
                    $(
                        #[cfg(target_arch = $arch)]
                        Level::$level => Entries {
                            single: [at::$level::single::<B, 0>, at::$level::single::<B, 1>, at::$level::single::<B, 2>],
                            line: at::$level::line::<B>,
                            batch: [at::$level::batch::<B, 0>, at::$level::batch::<B, 1>, at::$level::batch::<B, 2>],
                            setwise: [at::$level::setwise::<B, 0>, at::$level::setwise::<B, 1>, at::$level::setwise::<B, 2>],
                        },
                    )*
                    _ => Entries {
                        single: [single::<B, 0>, single::<B, 1>, single::<B, 2>],
                        line: line::<B>,
                        batch: [batch::<B, 0>, batch::<B, 1>, batch::<B, 2>],
                        setwise: [setwise::<B, 0>, setwise::<B, 1>, setwise::<B, 2>],
                    },
                }
            }
        }
    };
}

crate::cpu::each_level!($ define_entries);

impl Entries {
    /// The entry points of `token`'s backend, compiled for the level its
    /// jobs run at ([`Level::for_jobs`]).
    pub fn of<B: SliderAttacks>(token: B) -> Entries {
        let _proof = token;
        // SAFETY: the token proves `B::LEVEL`, and `for_jobs` only raises it
        // to a level this CPU has.
        unsafe { Entries::at_level::<B>(Level::for_jobs(B::LEVEL)) }
    }
}

/// The portable entries (the baseline level).
unsafe fn single<B: SliderAttacks, const S: usize>(sq: Square, o: Bitboard) -> Bitboard {
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
