//! Choosing the backend behind the free functions — in one place.
//!
//! Three modes, decided at compile time with `cfg`:
//!
//! 1. **Forced** (`force-<name>` Cargo feature): that token, statically,
//!    fully inlined. Its CPU support is checked once, at the first call
//!    (one relaxed load and a predictable branch after that), so a forced
//!    backend the CPU lacks stops with a clear message, never SIGILL.
//! 2. **Static**: when the target features of the preferred SIMD backend are
//!    enabled at compile time (`-C target-cpu=native`), that token, with no
//!    check and no indirection: the binary already requires those features.
//! 3. **Run-time dispatch** otherwise: an atomic pointer to a table of
//!    function pointers (memchr's "ifunc" pattern). It starts at a table
//!    whose entries detect the CPU (and read `HQ_BACKEND`), install the
//!    chosen table and forward; every later call is one atomic load and one
//!    indirect call. Racing first calls all install the same table.
//!
//! The hot path never detects features: code that wants no indirection at
//! all runs its whole loop under [`crate::with_active_backend`].

use crate::backend::{Backend, BackendError};
use hq_core::{Bitboard, Line, SliderAttacks, Square};

/// Function pointers for one backend.
pub(crate) struct Table {
    pub backend: Option<Backend>,
    pub line: fn(Line, Square, Bitboard) -> Bitboard,
    pub rook: fn(Square, Bitboard) -> Bitboard,
    pub bishop: fn(Square, Bitboard) -> Bitboard,
    pub queen: fn(Square, Bitboard) -> Bitboard,
    pub rook_batch: fn(&[Square], Bitboard, &mut [Bitboard]),
    pub bishop_batch: fn(&[Square], Bitboard, &mut [Bitboard]),
    pub queen_batch: fn(&[Square], Bitboard, &mut [Bitboard]),
    pub rook_setwise: fn(Bitboard, Bitboard) -> Bitboard,
    pub bishop_setwise: fn(Bitboard, Bitboard) -> Bitboard,
    pub queen_setwise: fn(Bitboard, Bitboard) -> Bitboard,
}

/// The token of `B`, for table entries.
#[inline(always)]
fn token<B: SliderAttacks>() -> B {
    // SAFETY: a `Table` of `B` is only reachable through `table_of`, which is
    // only called with a backend whose `is_supported()` returned true.
    unsafe { B::new_unchecked() }
}

/// Batch loops compiled for several x86 feature levels and picked at run
/// time (multiversion), so the portable backends' loops get AVX2/BMI2 code
/// generation where the CPU has it. SIMD backends override the batch
/// methods with their own kernels, which these clones simply call.
mod batch {
    use super::*;
    use multiversion::multiversion;

    #[multiversion(targets("x86_64+avx2+bmi1+bmi2+lzcnt+popcnt", "x86_64+sse4.2+popcnt"))]
    pub(super) fn rook<B: SliderAttacks>(squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
        super::token::<B>().rook_attacks_batch(squares, occ, out)
    }

    #[multiversion(targets("x86_64+avx2+bmi1+bmi2+lzcnt+popcnt", "x86_64+sse4.2+popcnt"))]
    pub(super) fn bishop<B: SliderAttacks>(
        squares: &[Square],
        occ: Bitboard,
        out: &mut [Bitboard],
    ) {
        super::token::<B>().bishop_attacks_batch(squares, occ, out)
    }

    #[multiversion(targets("x86_64+avx2+bmi1+bmi2+lzcnt+popcnt", "x86_64+sse4.2+popcnt"))]
    pub(super) fn queen<B: SliderAttacks>(squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
        super::token::<B>().queen_attacks_batch(squares, occ, out)
    }
}

/// The table of `B`. Callers must have checked `B::is_supported()`.
fn table_for<B: SliderAttacks>(backend: Backend) -> &'static Table {
    macro_rules! tables {
        ($($b:ident),*) => {
            match backend {
                $(Backend::$b => const {
                    &Table {
                        backend: Some(Backend::$b),
                        line: |l, s, o| token::<B>().line_attacks(l, s, o),
                        rook: |s, o| token::<B>().rook_attacks(s, o),
                        bishop: |s, o| token::<B>().bishop_attacks(s, o),
                        queen: |s, o| token::<B>().queen_attacks(s, o),
                        rook_batch: batch::rook::<B>,
                        bishop_batch: batch::bishop::<B>,
                        queen_batch: batch::queen::<B>,
                        rook_setwise: |r, o| token::<B>().rook_attacks_setwise(r, o),
                        bishop_setwise: |b, o| token::<B>().bishop_attacks_setwise(b, o),
                        queen_setwise: |q, o| token::<B>().queen_attacks_setwise(q, o),
                    }
                },)*
                #[allow(unreachable_patterns)]
                _ => unreachable!(),
            }
        };
    }
    // The variant only fills the table's `backend` field; one arm per variant
    // keeps the const blocks free of run-time values.
    macro_rules! all_variants {
        ($(($variant:ident, $token:path, $feature:literal)),* $(,)?) => { tables!($($variant),*) };
    }
    crate::registry::for_each_backend!(all_variants)
}

/// The table of a supported backend.
pub(crate) fn table_of(backend: Backend) -> &'static Table {
    debug_assert!(backend.is_supported());
    macro_rules! pick {
        ($(($variant:ident, $token:path, $feature:literal)),* $(,)?) => {
            match backend { $(Backend::$variant => table_for::<$token>(backend),)* }
        };
    }
    crate::registry::for_each_backend!(pick)
}

/// The backend the run-time dispatcher should use: `HQ_BACKEND` if set, else detection.
pub(crate) fn choose_at_run_time() -> Result<Backend, BackendError> {
    Ok(Backend::from_env()?.unwrap_or_else(Backend::detected))
}

// ---------------------------------------------------------------------------
// The three modes.

macro_rules! count_forced {
    ($(($variant:ident, $token:path, $feature:literal)),* $(,)?) => {
        0 $(+ cfg!(feature = $feature) as usize)*
    };
}
const FORCED_COUNT: usize = crate::registry::for_each_backend!(count_forced);
#[allow(clippy::absurd_extreme_comparisons)]
const _: () = assert!(
    FORCED_COUNT <= 1,
    "hq: the force-* features are mutually exclusive: enable at most one force-<backend> feature"
);

/// Defines `selected()`, the statically chosen token, for modes 1 and 2.
#[allow(unused_macros)]
macro_rules! static_mode {
    ($token:ty, $variant:ident, checked) => {
        pub(crate) type Selected = $token;
        pub(crate) const STATIC_BATCH_BACKEND: Option<Backend> = None;
        pub(crate) const STATIC_BACKEND: Option<Backend> = Some(Backend::$variant);

        static CHECKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

        #[cold]
        #[inline(never)]
        fn check_forced() {
            if let Err(e) = check_static(Backend::$variant) {
                panic!("hq: {e}");
            }
            CHECKED.store(true, std::sync::atomic::Ordering::Relaxed);
        }

        #[inline(always)]
        pub(crate) fn selected() -> Selected {
            if !CHECKED.load(std::sync::atomic::Ordering::Relaxed) {
                check_forced();
            }
            // SAFETY: `check_forced` returned, so the CPU supports the backend.
            unsafe { <$token as SliderAttacks>::new_unchecked() }
        }
    };
    ($token:ty, $variant:ident, compile_time) => {
        pub(crate) type Selected = $token;
        pub(crate) const STATIC_BACKEND: Option<Backend> = Some(Backend::$variant);

        #[inline(always)]
        pub(crate) fn selected() -> Selected {
            // SAFETY: this mode is compiled only when every feature the token
            // needs is enabled at compile time, so the binary as a whole
            // already requires them.
            unsafe { <$token as SliderAttacks>::new_unchecked() }
        }
    };
}

/// Single-square lookups and set-wise calls from `S`, batches from `B`: the
/// static choice of builds with AVX2 (or AVX-512) enabled at compile time.
///
/// Measured with `cargo xtask bench-matrix` (README): once inlined into code
/// compiled for AVX2, the scalar `scalar-rank-table` kernel matches the SIMD
/// kernels' throughput and has about twice their latency advantage (a SIMD
/// lookup pays for moving the occupancy into a vector register and back),
/// while for batches the structure-of-arrays SIMD kernels win. So static
/// builds take each entry point from the backend that is best at it. (For
/// AVX-512 the same split is inferred from the instruction counts; no
/// AVX-512 machine was available to time it.)
#[derive(Clone, Copy, Debug)]
#[allow(dead_code)] // used only by builds with AVX2 or AVX-512 enabled at compile time
pub(crate) struct Combined<S, B>(S, B);

impl<S: SliderAttacks, B: SliderAttacks> SliderAttacks for Combined<S, B> {
    const NAME: &'static str = S::NAME;
    const REQUIRED_FEATURES: &'static [&'static str] = B::REQUIRED_FEATURES;
    fn is_supported() -> bool {
        S::is_supported() && B::is_supported()
    }
    unsafe fn new_unchecked() -> Self {
        // SAFETY: the caller guarantees the CPU has B's features; S is portable.
        unsafe { Combined(S::new_unchecked(), B::new_unchecked()) }
    }
    #[inline(always)]
    fn line_attacks(self, line: Line, sq: Square, occ: Bitboard) -> Bitboard {
        self.0.line_attacks(line, sq, occ)
    }
    #[inline(always)]
    fn rook_attacks(self, sq: Square, occ: Bitboard) -> Bitboard {
        self.0.rook_attacks(sq, occ)
    }
    #[inline(always)]
    fn bishop_attacks(self, sq: Square, occ: Bitboard) -> Bitboard {
        self.0.bishop_attacks(sq, occ)
    }
    #[inline(always)]
    fn queen_attacks(self, sq: Square, occ: Bitboard) -> Bitboard {
        self.0.queen_attacks(sq, occ)
    }
    #[inline(always)]
    fn rook_attacks_batch(self, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
        self.1.rook_attacks_batch(squares, occ, out)
    }
    #[inline(always)]
    fn bishop_attacks_batch(self, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
        self.1.bishop_attacks_batch(squares, occ, out)
    }
    #[inline(always)]
    fn queen_attacks_batch(self, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
        self.1.queen_attacks_batch(squares, occ, out)
    }
    #[inline(always)]
    fn rook_attacks_setwise(self, rooks: Bitboard, occ: Bitboard) -> Bitboard {
        self.0.rook_attacks_setwise(rooks, occ)
    }
    #[inline(always)]
    fn bishop_attacks_setwise(self, bishops: Bitboard, occ: Bitboard) -> Bitboard {
        self.0.bishop_attacks_setwise(bishops, occ)
    }
    #[inline(always)]
    fn queen_attacks_setwise(self, queens: Bitboard, occ: Bitboard) -> Bitboard {
        self.0.queen_attacks_setwise(queens, occ)
    }
}

/// A statically chosen backend must be supported, and agree with `HQ_BACKEND` if that is set.
pub(crate) fn check_static(backend: Backend) -> Result<Backend, BackendError> {
    backend.check_supported()?;
    match Backend::from_env()? {
        Some(other) if other != backend => Err(BackendError::Conflict {
            fixed: backend,
            requested: other,
        }),
        _ => Ok(backend),
    }
}

macro_rules! forced_mode {
    ($(($variant:ident, $token:path, $feature:literal)),* $(,)?) => {
        cfg_if::cfg_if! {
            $(
                if #[cfg(feature = $feature)] {
                    static_mode!($token, $variant, checked);
                } else
            )*
            {
                runtime_or_compile_time_mode!();
            }
        }
    };
}

#[allow(unused_macros)] // unused in force-* builds
macro_rules! runtime_or_compile_time_mode {
    () => {
        cfg_if::cfg_if! {
            if #[cfg(all(
                target_arch = "x86_64",
                target_feature = "avx512f",
                target_feature = "avx512bw",
                target_feature = "avx512vbmi",
                target_feature = "gfni"
            ))] {
                static_mode!(Combined<hq_scalar::ScalarRankTable, hq_avx512::Avx512>, ScalarRankTable, compile_time);
                pub(crate) const STATIC_BATCH_BACKEND: Option<Backend> = Some(Backend::Avx512);
            } else if #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))] {
                static_mode!(Combined<hq_scalar::ScalarRankTable, hq_avx2::Avx2>, ScalarRankTable, compile_time);
                pub(crate) const STATIC_BATCH_BACKEND: Option<Backend> = Some(Backend::Avx2);
            } else {
                pub(crate) type Selected = runtime::Dynamic;
                pub(crate) const STATIC_BACKEND: Option<Backend> = None;
                pub(crate) const STATIC_BATCH_BACKEND: Option<Backend> = None;

                #[inline(always)]
                pub(crate) fn selected() -> Selected {
                    runtime::Dynamic(())
                }
            }
        }
    };
}

crate::registry::for_each_backend!(forced_mode);

/// Mode 3: the atomic table pointer.
pub(crate) mod runtime {
    use super::*;
    use std::sync::atomic::{AtomicPtr, Ordering};

    static DETECT: Table = Table {
        backend: None,
        line: |l, s, o| (install().line)(l, s, o),
        rook: |s, o| (install().rook)(s, o),
        bishop: |s, o| (install().bishop)(s, o),
        queen: |s, o| (install().queen)(s, o),
        rook_batch: |s, o, out| (install().rook_batch)(s, o, out),
        bishop_batch: |s, o, out| (install().bishop_batch)(s, o, out),
        queen_batch: |s, o, out| (install().queen_batch)(s, o, out),
        rook_setwise: |r, o| (install().rook_setwise)(r, o),
        bishop_setwise: |b, o| (install().bishop_setwise)(b, o),
        queen_setwise: |q, o| (install().queen_setwise)(q, o),
    };

    static ACTIVE: AtomicPtr<Table> = AtomicPtr::new(&DETECT as *const Table as *mut Table);

    /// The installed table, or the detecting one before the first call.
    #[inline(always)]
    pub(crate) fn active_table() -> &'static Table {
        // SAFETY: ACTIVE only ever holds pointers to `static` tables (DETECT
        // or one from `table_of`), which live forever and are never written.
        unsafe { &*ACTIVE.load(Ordering::Acquire) }
    }

    /// Picks the backend (once), installs its table and returns it.
    #[cold]
    pub(crate) fn install() -> &'static Table {
        match try_install() {
            Ok(table) => table,
            Err(e) => panic!("hq: {e}"),
        }
    }

    pub(crate) fn try_install() -> Result<&'static Table, BackendError> {
        if let Some(b) = active_table().backend {
            return Ok(table_of(b));
        }
        let table = table_of(choose_at_run_time()?);
        ACTIVE.store(table as *const Table as *mut Table, Ordering::Release);
        Ok(table)
    }

    /// A token that forwards every call through the installed table: what the
    /// free functions use in run-time dispatch mode.
    #[derive(Clone, Copy, Debug)]
    #[allow(dead_code)] // unused in force-* builds
    pub(crate) struct Dynamic(pub(crate) ());

    impl SliderAttacks for Dynamic {
        const NAME: &'static str = "auto";
        const REQUIRED_FEATURES: &'static [&'static str] = &[];
        fn is_supported() -> bool {
            true
        }
        unsafe fn new_unchecked() -> Self {
            Dynamic(())
        }
        #[inline(always)]
        fn line_attacks(self, line: Line, sq: Square, occ: Bitboard) -> Bitboard {
            (active_table().line)(line, sq, occ)
        }
        #[inline(always)]
        fn rook_attacks(self, sq: Square, occ: Bitboard) -> Bitboard {
            (active_table().rook)(sq, occ)
        }
        #[inline(always)]
        fn bishop_attacks(self, sq: Square, occ: Bitboard) -> Bitboard {
            (active_table().bishop)(sq, occ)
        }
        #[inline(always)]
        fn queen_attacks(self, sq: Square, occ: Bitboard) -> Bitboard {
            (active_table().queen)(sq, occ)
        }
        #[inline(always)]
        fn rook_attacks_batch(self, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
            hq_core::check_batch_lengths(squares.len(), out.len());
            (active_table().rook_batch)(squares, occ, out)
        }
        #[inline(always)]
        fn bishop_attacks_batch(self, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
            hq_core::check_batch_lengths(squares.len(), out.len());
            (active_table().bishop_batch)(squares, occ, out)
        }
        #[inline(always)]
        fn queen_attacks_batch(self, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
            hq_core::check_batch_lengths(squares.len(), out.len());
            (active_table().queen_batch)(squares, occ, out)
        }
        #[inline(always)]
        fn rook_attacks_setwise(self, rooks: Bitboard, occ: Bitboard) -> Bitboard {
            (active_table().rook_setwise)(rooks, occ)
        }
        #[inline(always)]
        fn bishop_attacks_setwise(self, bishops: Bitboard, occ: Bitboard) -> Bitboard {
            (active_table().bishop_setwise)(bishops, occ)
        }
        #[inline(always)]
        fn queen_attacks_setwise(self, queens: Bitboard, occ: Bitboard) -> Bitboard {
            (active_table().queen_setwise)(queens, occ)
        }
    }

    /// Installs `backend` (checked), replacing the current choice.
    pub(crate) fn set(backend: Backend) -> Result<(), BackendError> {
        let table = table_of(backend.check_supported()?);
        ACTIVE.store(table as *const Table as *mut Table, Ordering::Release);
        Ok(())
    }
}
