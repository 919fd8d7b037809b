//! Jobs: a caller's code monomorphized for the chosen backend and compiled
//! for its level, reached by the same route as the free functions.

use crate::dispatch::Kernel;
use crate::kernels::{Batch, JobOn, Single};
use crate::route::{route, setwise};
use core::marker::PhantomData;
use hq_core::cpu::Level;
use hq_core::{Bitboard, Line, SliderAttacks, Square};
use hq_plan::WithBackend;
use hq_plan::{Entry, Slider};

/// A job of the entry point `ENTRY` (an index into [`Entry::ALL`]) as the
/// route's kernel: on [`Active`] over the cell's backend where the job has
/// an arm for it, else on [`Dynamic`].
pub(crate) struct Job<W, const ENTRY: usize>(pub W, pub Slider);

impl<W: WithBackend, const ENTRY: usize> Kernel for Job<W, ENTRY> {
    type Output = W::Output;
    const ENTRY: Entry = Entry::ALL[ENTRY];
    const JOB: bool = true;

    #[inline(always)]
    fn slider(&self) -> Slider {
        self.1
    }

    #[inline(always)]
    fn run<B: SliderAttacks>(self, token: B) -> W::Output {
        Active::<B, ENTRY>(token).run_compiled(
            #[inline(always)]
            |t| self.0.run(t),
        )
    }

    fn without_arm(self) -> W::Output {
        Dynamic::<ENTRY>(()).run_compiled(
            #[inline(always)]
            |t| self.0.run(t),
        )
    }
}

/// The token jobs get: single lookups (lines, pairs) from `S`, the cell's
/// backend, inlined; batches and set-wise calls through the route, from
/// code of `S`'s level (inlined where the installed backend's level allows).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Active<S, const ENTRY: usize>(S);

/// Methods that hand their arguments to `self.0`.
macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        #[inline(always)]
        fn $method(self, $($arg: $ty),*) -> Bitboard {
            self.0.$method($($arg),*)
        }
    )*};
}

/// Batch and set-wise methods through the route from code of `$caller`.
macro_rules! through_route {
    ($caller:ty) => {
        #[inline(always)]
        fn rook_attacks_batch(self, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
            batch::<$caller>(Slider::Rook, squares, occ, out)
        }
        #[inline(always)]
        fn bishop_attacks_batch(self, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
            batch::<$caller>(Slider::Bishop, squares, occ, out)
        }
        #[inline(always)]
        fn queen_attacks_batch(self, squares: &[Square], occ: Bitboard, out: &mut [Bitboard]) {
            batch::<$caller>(Slider::Queen, squares, occ, out)
        }
        #[inline(always)]
        fn rook_attacks_setwise(self, rooks: Bitboard, occ: Bitboard) -> Bitboard {
            setwise::<$caller>(Slider::Rook, rooks, occ)
        }
        #[inline(always)]
        fn bishop_attacks_setwise(self, bishops: Bitboard, occ: Bitboard) -> Bitboard {
            setwise::<$caller>(Slider::Bishop, bishops, occ)
        }
        #[inline(always)]
        fn queen_attacks_setwise(self, queens: Bitboard, occ: Bitboard) -> Bitboard {
            setwise::<$caller>(Slider::Queen, queens, occ)
        }
    };
}

/// A batch through the route from code of `C`.
#[inline(always)]
pub(crate) fn batch<C: crate::kernels::Caller>(
    slider: Slider,
    squares: &[Square],
    occupancy: Bitboard,
    out: &mut [Bitboard],
) {
    hq_core::check_batch_lengths(squares.len(), out.len());
    route(Batch::<C>(slider, squares, occupancy, out, PhantomData))
}

impl<S: SliderAttacks, const ENTRY: usize> SliderAttacks for Active<S, ENTRY> {
    const NAME: &'static str = "auto";
    const LEVEL: Level = S::LEVEL;
    const TABLE_BYTES: usize = S::TABLE_BYTES;

    fn is_supported() -> bool {
        S::is_supported()
    }
    unsafe fn new_unchecked() -> Self {
        // SAFETY: the caller guarantees the CPU supports `S`.
        Active(unsafe { S::new_unchecked() })
    }
    #[inline(always)]
    fn line_attacks(self, line: Line, sq: Square, occ: Bitboard) -> Bitboard {
        self.0.line_attacks(line, sq, occ)
    }
    forward! {
        rook_attacks(sq: Square, occ: Bitboard);
        bishop_attacks(sq: Square, occ: Bitboard);
        queen_attacks(sq: Square, occ: Bitboard);
        rook_attacks_pair(sq: Square, occ: Bitboard, reversed: Bitboard);
        bishop_attacks_pair(sq: Square, occ: Bitboard, reversed: Bitboard);
        queen_attacks_pair(sq: Square, occ: Bitboard, reversed: Bitboard);
    }
    through_route!(JobOn<S>);
}

/// The token of a job on a backend no class chooses for its entry point
/// (a research backend named by `HQ_BACKEND`, say): every lookup through
/// the route of `ENTRY` (single lookups or latency).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dynamic<const ENTRY: usize>(());

impl<const ENTRY: usize> SliderAttacks for Dynamic<ENTRY> {
    const NAME: &'static str = "auto";
    const LEVEL: Level = Level::Baseline;
    const TABLE_BYTES: usize = hq_plan::Backend::dispatched_table_bytes();

    unsafe fn new_unchecked() -> Self {
        Dynamic(())
    }
    #[inline(always)]
    fn line_attacks(self, line: Line, sq: Square, occ: Bitboard) -> Bitboard {
        let lookup = crate::kernels::LineLookup::<ENTRY>(line, sq, occ);
        route(lookup)
    }
    #[inline(always)]
    fn rook_attacks(self, sq: Square, occ: Bitboard) -> Bitboard {
        route(Single::<ENTRY>(Slider::Rook, sq, occ))
    }
    #[inline(always)]
    fn bishop_attacks(self, sq: Square, occ: Bitboard) -> Bitboard {
        route(Single::<ENTRY>(Slider::Bishop, sq, occ))
    }
    #[inline(always)]
    fn queen_attacks(self, sq: Square, occ: Bitboard) -> Bitboard {
        route(Single::<ENTRY>(Slider::Queen, sq, occ))
    }
    through_route!(JobOn<hq_scalar::ScalarRankTable>);
}
