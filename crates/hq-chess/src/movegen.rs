//! Strictly legal move generation, generic over the backend token and over
//! what happens to the moves (a [`Sink`]).
//!
//! The design follows the usual fast bitboard generators: find the checkers
//! and the pinned pieces first, then generate only legal moves, so no move is
//! ever made to be tested. Pins are kept as two masks (the rays of all
//! orthogonal pins, and of all diagonal pins): a pinned piece may only move
//! within the mask of its pin type, and since the rays of one type through the
//! king are never crossed by a piece's other lines, the union is exact.
//!
//! Moves leave the generator in groups — one piece and a target set, or a
//! set of pawn moves with one shift — so a counting sink adds popcounts
//! (bulk counting) and never looks at a single move.

use crate::board::{BISHOP, Board, CastlingRules, KING, KNIGHT, PAWN, QUEEN, ROOK, bits};
use crate::tables::{
    BACK_RANKS, BETWEEN, BISHOP_LINES, FILE_A, FILE_H, KING as KING_ATTACKS,
    KNIGHT as KNIGHT_ATTACKS, PAWN_ATTACKS, ROOK_LINES,
};
use crate::upkeep::{Enemy, Upkeep};
use hq_core::{Bitboard, SliderAttacks, Square};

/// Receives the legal moves of a position, in groups.
pub(crate) trait Sink {
    /// A knight, bishop, rook, queen or king (kind index `kind`) on `from`
    /// moves to each square of `targets` (captures included).
    fn piece(&mut self, kind: usize, from: u8, targets: u64);
    /// Pawn moves without promotion, one per square of `targets`, each from
    /// `to - shift` (`shift` is 7, 8, 9 or 16 for white, negative for black).
    fn pawns(&mut self, targets: u64, shift: i8);
    /// Pawn moves that promote, four per square of `targets`.
    fn promotions(&mut self, targets: u64, shift: i8);
    /// An en-passant capture.
    fn en_passant(&mut self, from: u8, to: u8);
    /// Castling with right `r`.
    fn castle(&mut self, r: usize);
}

#[inline(always)]
fn sq(index: u32) -> Square {
    Square::from_index_masked(index as u8)
}

/// The pin rays (the squares between, and the pinner) of `snipers`, enemy
/// sliders that see `king` on an empty board; the ones with nothing between
/// join `checkers`. One piece of `own` between means a pin.
#[inline(always)]
fn pins(mut snipers: u64, king: usize, occ: u64, own: u64, checkers: &mut u64) -> u64 {
    let mut pins = 0;
    while snipers != 0 {
        let s = snipers.trailing_zeros() as usize;
        snipers &= snipers - 1;
        let between = BETWEEN[king][s] & occ;
        if between == 0 {
            *checkers |= 1 << s;
        } else if between & (between - 1) == 0 && between & own != 0 {
            pins |= BETWEEN[king][s] | 1 << s;
        }
    }
    pins
}

/// Shifts `bb` by `shift` squares toward rank 8 (negative: toward rank 1).
#[inline(always)]
const fn shift(bb: u64, shift: i8) -> u64 {
    if shift >= 0 {
        bb << shift
    } else {
        bb >> -shift
    }
}

/// Generates every legal move of `board` into `sink` with side `WHITE` to
/// move; slider attacks from `token` through what `upkeep` keeps.
#[inline(always)]
pub(crate) fn generate<B: SliderAttacks, U: Upkeep, S: Sink, const WHITE: bool>(
    board: &Board,
    upkeep: &U,
    rules: &CastlingRules,
    token: B,
    sink: &mut S,
) {
    let (us, them) = if WHITE { (0, 1) } else { (1, 0) };
    let forward: i8 = if WHITE { 8 } else { -8 };
    let own = board.colors[us];
    let enemy = board.colors[them];
    let occ = own | enemy;

    let king_bit = board.kinds[KING] & own;
    let king = king_bit.trailing_zeros() as usize;
    let enemy_pawns = board.kinds[PAWN] & enemy;
    let enemy_knights = board.kinds[KNIGHT] & enemy;
    let enemy_king = board.kinds[KING] & enemy;
    let enemy_rooks = (board.kinds[ROOK] | board.kinds[QUEEN]) & enemy;
    let enemy_bishops = (board.kinds[BISHOP] | board.kinds[QUEEN]) & enemy;

    // Checkers and pins, from the enemy sliders that see the king on an empty
    // board: nothing between means a check, one piece of ours means a pin.
    let mut checkers =
        (KNIGHT_ATTACKS[king] & enemy_knights) | (PAWN_ATTACKS[us][king] & enemy_pawns);
    let (rook_snipers, bishop_snipers) = (
        ROOK_LINES[king] & enemy_rooks,
        BISHOP_LINES[king] & enemy_bishops,
    );
    let pin_orth = pins(rook_snipers, king, occ, own, &mut checkers);
    let pin_diag = pins(bishop_snipers, king, occ, own, &mut checkers);

    // Whether the enemy attacks `square` when the board holds `occupancy`
    // (the board's occupancy with the king, and a castling rook, lifted).
    let attacked = |square: usize, occupancy: u64| -> bool {
        (KNIGHT_ATTACKS[square] & enemy_knights)
            | (PAWN_ATTACKS[us][square] & enemy_pawns)
            | (KING_ATTACKS[square] & enemy_king)
            != 0
            || upkeep.slider_attacks(
                token,
                square as u32,
                occupancy,
                occ ^ occupancy,
                Enemy {
                    side: them,
                    rooks: enemy_rooks,
                    bishops: enemy_bishops,
                },
            )
    };

    // King moves: tested with the king lifted, so it cannot hide behind itself.
    let without_king = occ ^ king_bit;
    let mut king_moves = 0u64;
    for to in bits(KING_ATTACKS[king] & !own) {
        if !attacked(usize::from(to), without_king) {
            king_moves |= 1 << to;
        }
    }
    sink.piece(KING, king as u8, king_moves);

    if checkers & checkers.wrapping_sub(1) != 0 {
        return; // Double check: only the king moves.
    }
    let checkmask = if checkers == 0 {
        !0
    } else {
        BETWEEN[king][checkers.trailing_zeros() as usize] | checkers
    };
    let target = !own & checkmask;
    let pinned = pin_orth | pin_diag;

    // Knights: a pinned knight never moves.
    for from in bits(board.kinds[KNIGHT] & own & !pinned) {
        sink.piece(KNIGHT, from, KNIGHT_ATTACKS[usize::from(from)] & target);
    }

    // Bishops and rooks: one pinned across its lines never moves; one pinned
    // along them stays on its pin ray.
    for (kind, own_ray, cross_ray) in [(BISHOP, pin_diag, pin_orth), (ROOK, pin_orth, pin_diag)] {
        for from in bits(board.kinds[kind] & own & !cross_ray) {
            let ray = if own_ray & 1 << from != 0 {
                own_ray
            } else {
                !0
            };
            let attacks = upkeep.piece_attacks(token, kind, u32::from(from), occ);
            sink.piece(kind, from, attacks & target & ray);
        }
    }

    for from in bits(board.kinds[QUEEN] & own) {
        let (bit, from_index) = (1u64 << from, u32::from(from));
        let attacks = if pin_orth & bit != 0 {
            upkeep.piece_attacks(token, ROOK, from_index, occ) & pin_orth
        } else if pin_diag & bit != 0 {
            upkeep.piece_attacks(token, BISHOP, from_index, occ) & pin_diag
        } else {
            upkeep.piece_attacks(token, QUEEN, from_index, occ)
        };
        sink.piece(QUEEN, from, attacks & target);
    }

    // Pawns, set-wise. Pushes: not if pinned diagonally, along the ray if
    // pinned orthogonally. Captures: not if pinned orthogonally, along the ray
    // if pinned diagonally.
    let pawns = board.kinds[PAWN] & own;
    let empty = !occ;
    let pushers = pawns & !pin_diag;
    let single = (shift(pushers & !pin_orth, forward) & empty)
        | (shift(pushers & pin_orth, forward) & empty & pin_orth);
    let third_rank = if WHITE { 0xFF << 16 } else { 0xFF << 40 };
    let double = shift(single & third_rank, forward) & empty & checkmask;
    let single = single & checkmask;
    sink.pawns(single & !BACK_RANKS, forward);
    sink.promotions(single & BACK_RANKS, forward);
    sink.pawns(double, 2 * forward);

    let capturers = pawns & !pin_orth;
    let free = capturers & !pin_diag;
    let pinned_capturers = capturers & pin_diag;
    let capture_targets = enemy & checkmask;
    // Toward the a-file (from the b..h files) and toward the h-file.
    let (west, east): (i8, i8) = if WHITE { (7, 9) } else { (-9, -7) };
    let west_captures = (shift(free & !FILE_A, west)
        | (shift(pinned_capturers & !FILE_A, west) & pin_diag))
        & capture_targets;
    let east_captures = (shift(free & !FILE_H, east)
        | (shift(pinned_capturers & !FILE_H, east) & pin_diag))
        & capture_targets;
    sink.pawns(west_captures & !BACK_RANKS, west);
    sink.promotions(west_captures & BACK_RANKS, west);
    sink.pawns(east_captures & !BACK_RANKS, east);
    sink.promotions(east_captures & BACK_RANKS, east);

    // En passant: rare, so tested in full by lifting both pawns. This covers
    // pins, the rank pin through both pawns, and checks it does not resolve.
    if board.ep != 0 {
        let to = board.ep.trailing_zeros() as usize;
        let captured = 1u64 << (if WHITE { to - 8 } else { to + 8 });
        // A knight or pawn check survives unless that pawn is the checker.
        if checkers & !captured & (enemy_knights | enemy_pawns) == 0 {
            let mut candidates = PAWN_ATTACKS[them][to] & pawns;
            while candidates != 0 {
                let from = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                let after = occ ^ (1 << from) ^ (1 << to) ^ captured;
                let rook_hit = token.rook_attacks(sq(king as u32), Bitboard(after)).0 & enemy_rooks;
                let bishop_hit =
                    token.bishop_attacks(sq(king as u32), Bitboard(after)).0 & enemy_bishops;
                if rook_hit | bishop_hit == 0 {
                    sink.en_passant(from as u8, to as u8);
                }
            }
        }
    }

    // Castling: not out of check, not through or into an attacked square.
    if checkers == 0 {
        let mut rights = (board.castling >> (2 * us)) & 3;
        while rights != 0 {
            let r = 2 * us + rights.trailing_zeros() as usize;
            rights &= rights - 1;
            if occ & rules.empty[r] != 0 {
                continue;
            }
            // Lift king and rook: the rook may shield the path today (Chess960).
            let lifted = occ ^ king_bit ^ (1u64 << rules.rook_from[r]);
            let mut path = rules.king_path[r];
            let mut safe = true;
            while path != 0 {
                let s = path.trailing_zeros() as usize;
                path &= path - 1;
                if attacked(s, lifted) {
                    safe = false;
                    break;
                }
            }
            if safe {
                sink.castle(r);
            }
        }
    }
}

/// Counts moves without looking at them: bulk counting.
pub(crate) struct CountSink(pub(crate) u64);

impl Sink for CountSink {
    #[inline(always)]
    fn piece(&mut self, _kind: usize, _from: u8, targets: u64) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn pawns(&mut self, targets: u64, _shift: i8) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn promotions(&mut self, targets: u64, _shift: i8) {
        self.0 += 4 * u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn en_passant(&mut self, _from: u8, _to: u8) {
        self.0 += 1;
    }
    #[inline(always)]
    fn castle(&mut self, _r: usize) {
        self.0 += 1;
    }
}

/// Collects the moves into a [`MoveList`](crate::MoveList).
pub(crate) struct ListSink<'a>(
    pub(crate) &'a mut crate::MoveList,
    pub(crate) &'a CastlingRules,
);

impl Sink for ListSink<'_> {
    #[inline(always)]
    fn piece(&mut self, _kind: usize, from: u8, targets: u64) {
        for to in bits(targets) {
            self.0.push(crate::Move::normal(from, to));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, targets: u64, shift: i8) {
        for to in bits(targets) {
            self.0
                .push(crate::Move::normal(to.wrapping_sub(shift as u8), to));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, targets: u64, shift: i8) {
        for to in bits(targets) {
            let from = to.wrapping_sub(shift as u8);
            for kind in [QUEEN, ROOK, BISHOP, KNIGHT] {
                self.0.push(crate::Move::promotion(from, to, kind));
            }
        }
    }
    #[inline(always)]
    fn en_passant(&mut self, from: u8, to: u8) {
        self.0.push(crate::Move::en_passant(from, to));
    }
    #[inline(always)]
    fn castle(&mut self, r: usize) {
        self.0.push(crate::Move::castle(
            self.1.king_from[r],
            self.1.rook_from[r],
        ));
    }
}

/// Runs [`generate`] for whichever side is to move.
#[inline(always)]
pub(crate) fn generate_any<B: SliderAttacks, U: Upkeep, S: Sink>(
    board: &Board,
    upkeep: &U,
    rules: &CastlingRules,
    token: B,
    sink: &mut S,
) {
    if board.side == 0 {
        generate::<B, U, S, true>(board, upkeep, rules, token, sink);
    } else {
        generate::<B, U, S, false>(board, upkeep, rules, token, sink);
    }
}
