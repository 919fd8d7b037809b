//! The match every entry point and job goes through: [`dispatch`], made
//! from the backend list, and the keyed backend's lookups.
//!
//! A cell's match inlines only the backends likely to serve it
//! ([`inlined`]); every other backend this build dispatches is reached by
//! the same match out of line ([`Arms::All`]), so that the code of unlikely
//! backends, and their calls, stay out of the caller's loop. Measured
//! (single lookups, AMD Zen 4): a match with four arms cost 0.75x of PEXT's
//! throughput where PEXT was taken, behind its key test 0.96x; the commit
//! that made this has the figures.

use hq_core::SliderAttacks;
#[cfg(feature = "std")]
use hq_core::{Bitboard, Slider, Square};
use hq_plan::classes::{CLASSES, ClassChoice, chosen_here, fixed, on_this_target};
use hq_plan::{Backend, backend_list};
use hq_plan::{Entry, Slider as Piece};

/// What an entry point or a job runs on the token [`dispatch`] picks.
pub(crate) trait Kernel: Sized {
    /// What it returns.
    type Output;
    /// The entry point.
    const ENTRY: Entry;
    /// A job: monomorphized only for the backends some class of this
    /// target chooses for its entry point (else [`Kernel::without_arm`]).
    const JOB: bool = false;
    /// The piece (a constant where the route inlines).
    fn slider(&self) -> Piece;
    /// Runs on `token`, inlined into the caller.
    fn run<B: SliderAttacks>(self, token: B) -> Self::Output;
    /// The cell's slot of entry points: the piece's, 3 for a line lookup.
    #[cfg(feature = "std")]
    fn slot(&self) -> usize {
        self.slider() as usize
    }
    /// Runs through `entry`, the cell's installed entry point (a function
    /// of its backend's level, `hq_core::entries`).
    ///
    /// # Safety
    ///
    /// `entry` must be this kernel's kind of entry point, of a backend
    /// that runs here (what [`crate::installed`] holds).
    #[cfg(feature = "std")]
    unsafe fn call(self, entry: *mut ()) -> Self::Output {
        let _ = entry;
        self.without_arm()
    }
    /// Runs without an arm of its own: a job on a backend no class chooses
    /// for it (through the free functions).
    fn without_arm(self) -> Self::Output {
        unreachable!("hq: every backend the dispatch installs has an arm")
    }
}

/// [`dispatch`] and the keyed lookups, from the backend list.
macro_rules! define_dispatch {
    ($($(#[$doc:meta])* $variant:ident = $token:ty, $feature:literal $(, $keyed:ident)?;)*) => {
        /// Runs `kernel` on the backend at `index` if `arms` has an arm for
        /// it, else gives it back. A constant `index` folds to one arm.
        ///
        /// # Safety
        ///
        /// The backend at `index` must run on this CPU (every index the
        /// dispatch installs was checked).
        #[inline(always)]
        pub(crate) unsafe fn dispatch<K: Kernel>(index: u8, kernel: K, arms: Arms) -> Result<K::Output, K> {
            let slider = kernel.slider();
            $(
                // A job is monomorphized only for its own arms.
                if const { Backend::$variant.is_dispatched() && (!K::JOB || job_arm(Backend::$variant, K::ENTRY)) }
                    && arms.has(Backend::$variant, K::ENTRY, slider, K::JOB)
                    && index == Backend::$variant as u8
                {
                    // SAFETY: the caller's guarantee.
                    return Ok(kernel.run(unsafe { <$token as SliderAttacks>::new_unchecked() }));
                }
            )*
            Err(kernel)
        }

        /// The keyed backend's lookup with `key` (`None` where the single
        /// lookups of `slider` have no keyed arm: [`keyed_for`]).
        ///
        /// # Safety
        ///
        /// As [`SliderAttacks::single_keyed`], and the keyed backend must run here.
        #[cfg(feature = "std")]
        #[inline(always)]
        pub(crate) unsafe fn keyed(slider: Slider, sq: Square, occupancy: Bitboard, key: u64) -> Option<Bitboard> {
            $($(
                let _: $keyed = ();
                if keyed_for(slider).is_some_and(|b| b as u8 == Backend::$variant as u8) {
                    // SAFETY: the caller's guarantee.
                    let token = unsafe { <$token as SliderAttacks>::new_unchecked() };
                    // SAFETY: the caller's guarantee.
                    return Some(unsafe { token.single_keyed(slider, sq, occupancy, key) });
                }
            )?)*
            let _ = (slider, sq, occupancy, key);
            None
        }

        /// Whether the list marks `backend` keyed: its single lookups take
        /// a per-square word ([`SliderAttacks::single_key`]), which the
        /// installed state holds in place of its index, so that one load
        /// fetches what the lookup needs and decides the path.
        #[cfg(feature = "std")]
        pub(crate) const fn is_keyed(backend: Backend) -> bool {
            $($(
                let _: $keyed = ();
                if backend as u8 == Backend::$variant as u8 {
                    return true;
                }
            )?)*
            let _ = backend;
            false
        }

        /// The key of `backend` for `slider` on `sq` (0: not keyed).
        #[cfg(feature = "std")]
        pub(crate) fn key_of(backend: Backend, slider: Slider, sq: Square) -> u64 {
            $($(
                let _: $keyed = ();
                if backend == Backend::$variant {
                    return <$token as SliderAttacks>::single_key(slider, sq);
                }
            )?)*
            let _ = (backend, slider, sq);
            0
        }
    };
}

backend_list!(define_dispatch);

/// The `keyed` marker of the list (a type, so that the macro can test it).
#[cfg(feature = "std")]
#[allow(non_camel_case_types)]
type keyed = ();

/// The keyed backend where the single lookups of `slider` inline it: the
/// installed words hold its keys there, and the route tests them.
#[cfg(feature = "std")]
#[inline(always)]
pub(crate) const fn keyed_for(slider: Piece) -> Option<Backend> {
    KEYED_FOR[slider as usize]
}

/// [`keyed_for`]'s values (a table: the route reads a constant): the
/// first keyed backend the single lookups of the piece inline (read from
/// [`INLINED`], not [`Arms::has`], which reads this table).
#[cfg(feature = "std")]
const KEYED_FOR: [Option<Backend>; 3] = {
    let mut keyed = [None; 3];
    let mut s = 0;
    while s < 3 {
        let mut i = 0;
        while i < Backend::ALL.len() && keyed[s].is_none() {
            let b = Backend::ALL[i];
            if is_keyed(b) && INLINED[Entry::Single as usize][s] & (1 << b as u32) != 0 {
                keyed[s] = Some(b);
            }
            i += 1;
        }
        s += 1;
    }
    keyed
};

/// Which arms a [`dispatch`] has.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Arms {
    /// The cell's likely backends, inlined into the caller ([`inlined`]).
    Inlined,
    /// [`Arms::Inlined`] less the piece's keyed backend ([`keyed_for`]):
    /// the single lookups' arms once the key test has failed.
    #[cfg(feature = "std")]
    Unkeyed,
    /// Every backend this build dispatches (jobs: still only their own):
    /// the calibration's candidates.
    #[cfg(all(feature = "std", not(target_arch = "wasm32")))]
    All,
}

impl Arms {
    /// Whether the match has an arm for `backend` in `entry`'s cell of `slider`.
    #[inline(always)]
    const fn has(self, backend: Backend, entry: Entry, slider: Piece, job: bool) -> bool {
        match (self, job) {
            // A job's arms are chosen at compile time ([`job_arm`], in `dispatch`).
            (_, true) => true,
            #[cfg(all(feature = "std", not(target_arch = "wasm32")))]
            (Arms::All, false) => true,
            (Arms::Inlined, false) => {
                INLINED[entry as usize][slider as usize] & (1 << backend as u32) != 0
            }
            #[cfg(feature = "std")]
            (Arms::Unkeyed, false) => {
                let keyed = matches!(keyed_for(slider), Some(b) if b as u8 == backend as u8);
                !keyed && Arms::Inlined.has(backend, entry, slider, false)
            }
        }
    }
}

/// Whether a job of `entry` is monomorphized for `backend`: some class of
/// this target chooses it there, or it is forced.
const fn job_arm(backend: Backend, entry: Entry) -> bool {
    backend.is_forced() || chosen_here(backend, Some(entry))
}

/// The backend a cell's match inlines, if one is (a table: the route reads
/// a constant; the loop of a `const fn` is not always folded at a call).
#[inline(always)]
pub(crate) const fn inlined_backend(entry: Entry, slider: Piece) -> Option<Backend> {
    INLINED_BACKEND[entry as usize][slider as usize]
}

/// [`inlined_backend`]'s cells.
const INLINED_BACKEND: [[Option<Backend>; 3]; 4] = {
    let mut cells = [[None; 3]; 4];
    let mut e = 0;
    while e < 4 {
        let mut s = 0;
        while s < 3 {
            let mut i = 0;
            while i < Backend::ALL.len() && cells[e][s].is_none() {
                if INLINED[e][s] & (1 << Backend::ALL[i] as u32) != 0 {
                    cells[e][s] = Some(Backend::ALL[i]);
                }
                i += 1;
            }
            s += 1;
        }
        e += 1;
    }
    cells
};

/// [`inlined`] for every cell, as bit sets.
const INLINED: [[u32; 3]; 4] = {
    let mut sets = [[0; 3]; 4];
    let (mut e, mut i) = (0, 0);
    while e < 4 {
        let mut s = 0;
        while s < 3 {
            while i < Backend::ALL.len() {
                if inlined(Backend::ALL[i], Entry::ALL[e], Piece::ALL[s]) {
                    sets[e][s] |= 1 << Backend::ALL[i] as u32;
                }
                i += 1;
            }
            (s, i) = (s + 1, 0);
        }
        e += 1;
    }
    sets
};

/// Whether a cell's match inlines `backend`: the cell's fixed backend where
/// the build fixes it; in a forced build every forced backend; else the
/// choice of the likeliest class ([`LIKELIEST`]). One arm: a second inlined
/// arm, even one never taken, cost the taken one (four inlined arms, PEXT's
/// taken: 0.75x of its throughput; `avx512`'s set-wise fill beside the
/// other classes' set-wise arms: 0.84x of its own loop).
const fn inlined(backend: Backend, entry: Entry, slider: Piece) -> bool {
    if let Some(b) = fixed(entry, slider) {
        return b as u8 == backend as u8;
    }
    if hq_plan::FORCED {
        return backend.is_forced();
    }
    match LIKELIEST {
        Some(class) => class.plan.get(entry, slider) as u8 == backend as u8,
        None => false,
    }
}

/// The class a build most likely runs on: the first of this target whose
/// level the build enables throughout, where it enables one above the
/// portable level (a build for x86-64-v3, `-C target-cpu=native` on an
/// AVX2 CPU, runs on the CPUs of that level); else the first of this target
/// (the classes come most specific first).
const LIKELIEST: Option<&ClassChoice> = {
    let (mut first, mut built_for, mut i) = (None, None, 0);
    while i < CLASSES.len() {
        let class = &CLASSES[i];
        if on_this_target(class.level) {
            if first.is_none() {
                first = Some(class);
            }
            if built_for.is_none() && class.level.is_static() {
                built_for = Some(class);
            }
        }
        i += 1;
    }
    match built_for {
        Some(class) if class.level.arch().is_some() => Some(class),
        _ => first,
    }
};

#[cfg(test)]
mod tests {
    use super::{CLASSES, LIKELIEST, inlined_backend};
    use hq_core::cpu::Level;
    use hq_plan::{Entry, Slider};

    /// The route inlines the likeliest class's choices: in a build for a
    /// level above the portable one, the first class of that level (a
    /// build for x86-64-v3 inlines the AVX2 classes' choices, not the
    /// first class's AVX-512 ones); else the target's first class.
    #[test]
    fn the_inlined_arms_are_the_likeliest_class_choices() {
        let class = LIKELIEST.expect("every target has a class");
        let first = CLASSES
            .iter()
            .find(|c| hq_plan::classes::on_this_target(c.level))
            .expect("a class");
        let built_for = Level::ALL
            .iter()
            .rev()
            .find(|l| l.arch().is_some() && l.is_static() && hq_plan::classes::on_this_target(**l));
        match built_for {
            Some(level) if CLASSES.iter().any(|c| c.level == *level) => {
                let expected = CLASSES
                    .iter()
                    .find(|c| c.level.is_static())
                    .expect("a class");
                assert_eq!(class.name, expected.name, "a build for {level}");
                assert!(class.level.is_static());
            }
            _ => assert_eq!(class.name, first.name, "a build for the portable level"),
        }
        if hq_plan::FORCED {
            return;
        }
        for slider in Slider::ALL {
            if hq_plan::classes::fixed(Entry::Setwise, slider).is_none() {
                assert_eq!(
                    inlined_backend(Entry::Setwise, slider),
                    Some(class.plan.get(Entry::Setwise, slider))
                );
            }
        }
    }
}
