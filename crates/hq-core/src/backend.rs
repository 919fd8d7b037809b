//! The interface every backend implements.

use crate::{Bitboard, Line, Square};

/// A slider-attack backend, as a zero-sized *token*.
///
/// A token can only be obtained through [`SliderAttacks::new`], which checks
/// that the running CPU has every instruction the backend uses (the pattern of
/// `memchr`'s `One::new`), or through the `unsafe`
/// [`SliderAttacks::new_unchecked`] by a caller that checked for itself. So,
/// with a token in hand, every method is safe to call: the token *is* the
/// proof that the instructions exist.
///
/// Required methods are the single-square kernels; the batch and set-wise
/// entry points have plain loops as defaults, which SIMD backends override.
///
/// ```
/// use hq_core::{Bitboard, Line, SliderAttacks, Square, reference};
///
/// /// A toy backend that asks the oracle (for illustration only).
/// #[derive(Clone, Copy, Debug)]
/// struct Oracle;
/// impl SliderAttacks for Oracle {
///     const NAME: &'static str = "oracle";
///     const REQUIRED_FEATURES: &'static [&'static str] = &[];
///     fn is_supported() -> bool { true }
///     unsafe fn new_unchecked() -> Self { Oracle }
///     fn line_attacks(self, line: Line, sq: Square, occ: Bitboard) -> Bitboard {
///         reference::line_attacks(sq, line, occ)
///     }
/// }
///
/// let token = Oracle::new().unwrap();
/// assert_eq!(token.rook_attacks(Square::A1, Bitboard::EMPTY).count(), 14);
/// ```
pub trait SliderAttacks: Copy + Send + Sync + core::fmt::Debug + 'static {
    /// The backend's stable name, as used by `HQ_BACKEND` and the `force-*`
    /// features (for example `"scalar-reverse"`).
    const NAME: &'static str;

    /// The CPU features the backend needs, spelled as
    /// `is_x86_feature_detected!` spells them (empty for portable backends).
    const REQUIRED_FEATURES: &'static [&'static str];

    /// Whether the running CPU (and OS) support every required feature.
    fn is_supported() -> bool;

    /// The token, if the CPU supports the backend.
    #[inline]
    fn new() -> Option<Self> {
        if Self::is_supported() {
            // SAFETY: `is_supported` just confirmed every required feature.
            Some(unsafe { Self::new_unchecked() })
        } else {
            None
        }
    }

    /// The token, without checking the CPU.
    ///
    /// # Safety
    ///
    /// The caller must ensure that the running CPU supports every feature in
    /// [`SliderAttacks::REQUIRED_FEATURES`]; otherwise the methods may execute
    /// instructions the CPU does not have.
    unsafe fn new_unchecked() -> Self;

    /// Attacks from `sq` along one `line` (both directions).
    fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard;

    /// Rook attacks from `sq`: rank and file.
    #[inline]
    fn rook_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
        self.line_attacks(Line::Rank, sq, occupancy) | self.line_attacks(Line::File, sq, occupancy)
    }

    /// Bishop attacks from `sq`: both diagonals.
    #[inline]
    fn bishop_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
        self.line_attacks(Line::Diagonal, sq, occupancy)
            | self.line_attacks(Line::AntiDiagonal, sq, occupancy)
    }

    /// Queen attacks from `sq`: all four lines.
    #[inline]
    fn queen_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
        self.rook_attacks(sq, occupancy) | self.bishop_attacks(sq, occupancy)
    }

    /// Rook attacks of many squares over one occupancy: `out[i]` for `squares[i]`.
    ///
    /// # Panics
    ///
    /// If `squares` and `out` differ in length.
    #[inline]
    fn rook_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
        check_batch_lengths(squares.len(), out.len());
        for (o, &sq) in out.iter_mut().zip(squares) {
            *o = self.rook_attacks(sq, occupancy);
        }
    }

    /// Bishop attacks of many squares over one occupancy. Panics as [`Self::rook_attacks_batch`].
    #[inline]
    fn bishop_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
        check_batch_lengths(squares.len(), out.len());
        for (o, &sq) in out.iter_mut().zip(squares) {
            *o = self.bishop_attacks(sq, occupancy);
        }
    }

    /// Queen attacks of many squares over one occupancy. Panics as [`Self::rook_attacks_batch`].
    #[inline]
    fn queen_attacks_batch(self, squares: &[Square], occupancy: Bitboard, out: &mut [Bitboard]) {
        check_batch_lengths(squares.len(), out.len());
        for (o, &sq) in out.iter_mut().zip(squares) {
            *o = self.queen_attacks(sq, occupancy);
        }
    }

    /// The union of the rook attacks of every square in `rooks` (set-wise).
    ///
    /// The sliders count as occupied whether or not `occupancy` has them, so
    /// one rook stops another: the same answer as the union of
    /// `rook_attacks(sq, occupancy | rooks)`.
    #[inline]
    fn rook_attacks_setwise(self, rooks: Bitboard, occupancy: Bitboard) -> Bitboard {
        let occupancy = occupancy | rooks;
        rooks.iter().fold(Bitboard::EMPTY, |acc, sq| {
            acc | self.rook_attacks(sq, occupancy)
        })
    }

    /// The union of the bishop attacks of every square in `bishops` (see [`Self::rook_attacks_setwise`]).
    #[inline]
    fn bishop_attacks_setwise(self, bishops: Bitboard, occupancy: Bitboard) -> Bitboard {
        let occupancy = occupancy | bishops;
        bishops.iter().fold(Bitboard::EMPTY, |acc, sq| {
            acc | self.bishop_attacks(sq, occupancy)
        })
    }

    /// The union of the queen attacks of every square in `queens` (see [`Self::rook_attacks_setwise`]).
    #[inline]
    fn queen_attacks_setwise(self, queens: Bitboard, occupancy: Bitboard) -> Bitboard {
        self.rook_attacks_setwise(queens, occupancy)
            | self.bishop_attacks_setwise(queens, occupancy)
    }
}

/// Panics with a clear message unless a batch's input and output lengths agree.
#[inline]
#[track_caller]
pub fn check_batch_lengths(squares: usize, out: usize) {
    assert!(
        squares == out,
        "batch attack call: `squares` has {squares} entries but `out` has {out}; they must be equal"
    );
}
