//! Engine integration, end to end: what to call where (`docs/engine-integration.md`
//! walks through it). Runs as `cargo run --release -p hq-attacks --example engine`,
//! and `cargo test` builds and runs it.
//!
//! * move generation in a recursive search: the free functions;
//! * pins: `between` and `line`;
//! * a static exchange evaluation, a chain of dependent lookups:
//!   `hq::latency`;
//! * what was chosen: `hq::selection()`.

use hq::{Bitboard, Square, between, king_attacks, knight_attacks, line};

/// One side's pieces, by kind, and the other side's.
#[derive(Clone, Copy)]
struct Side {
    king: Square,
    rooks: Bitboard,
    bishops: Bitboard,
    queens: Bitboard,
    knights: Bitboard,
}

impl Side {
    fn all(&self) -> Bitboard {
        self.rooks | self.bishops | self.queens | self.knights | self.king
    }
}

/// The pieces of `us` pinned to our king by `them`'s sliders, each with the
/// line it may still move along. The pinners are found with the attacks of
/// an empty board from the king; `between` gives the blockers.
fn pins(us: &Side, them: &Side, occupancy: Bitboard) -> Vec<(Square, Bitboard)> {
    let empty = Bitboard::EMPTY;
    let orthogonal = hq::rook_attacks(us.king, empty) & (them.rooks | them.queens);
    let diagonal = hq::bishop_attacks(us.king, empty) & (them.bishops | them.queens);
    let mut pinned = Vec::new();
    for pinner in orthogonal | diagonal {
        let blockers = between(us.king, pinner) & occupancy;
        if blockers.count() == 1 && (blockers & us.all()) == blockers {
            let sq = blockers.first().expect("one blocker");
            pinned.push((sq, line(us.king, pinner)));
        }
    }
    pinned
}

/// Pseudo-legal moves of `us`'s sliders and knights, pinned pieces kept on
/// their line: (from, to).
fn moves(us: &Side, them: &Side) -> Vec<(Square, Square)> {
    let occupancy = us.all() | them.all();
    let pinned = pins(us, them, occupancy);
    let allowed = |sq: Square| {
        pinned
            .iter()
            .find(|(p, _)| *p == sq)
            .map_or(!Bitboard::EMPTY, |(_, l)| *l)
    };
    let mut out = Vec::new();
    let mut add = |from: Square, targets: Bitboard| {
        for to in targets & !us.all() & allowed(from) {
            out.push((from, to));
        }
    };
    // The free functions: one lookup each, inlined where the choice allows.
    for sq in us.rooks {
        add(sq, hq::rook_attacks(sq, occupancy));
    }
    for sq in us.bishops {
        add(sq, hq::bishop_attacks(sq, occupancy));
    }
    for sq in us.queens {
        add(sq, hq::queen_attacks(sq, occupancy));
    }
    for sq in us.knights {
        add(sq, knight_attacks(sq));
    }
    add(us.king, king_attacks(us.king));
    out
}

/// `side` with whatever stood on `sq` removed.
fn without(side: &Side, sq: Square) -> Side {
    Side {
        rooks: side.rooks.without(sq),
        bishops: side.bishops.without(sq),
        queens: side.queens.without(sq),
        knights: side.knights.without(sq),
        ..*side
    }
}

/// A recursive count of move sequences `depth` plies deep (captures of the
/// king end a line): recursion cannot be one `#[inline(always)]` job, and
/// needs none: the free functions are the search's entry points.
fn count(us: &Side, them: &Side, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for (from, to) in moves(us, them) {
        if to == them.king {
            continue;
        }
        let moved = |b: Bitboard| match b.contains(from) {
            true => b.without(from).with(to),
            false => b,
        };
        let mut next = Side {
            rooks: moved(us.rooks),
            bishops: moved(us.bishops),
            queens: moved(us.queens),
            knights: moved(us.knights),
            ..*us
        };
        if from == us.king {
            next.king = to;
        }
        nodes += count(&without(them, to), &next, depth - 1);
    }
    nodes
}

/// The attackers of `target` among `side`'s sliders and knights over
/// `occupancy`. An exchange recomputes them after each capture, so each
/// lookup depends on the last: what `hq::latency` is for.
fn attackers(target: Square, side: &Side, occupancy: Bitboard) -> Bitboard {
    let rooks = (side.rooks | side.queens) & occupancy;
    let bishops = (side.bishops | side.queens) & occupancy;
    (hq::latency::rook_attacks(target, occupancy) & rooks)
        | (hq::latency::bishop_attacks(target, occupancy) & bishops)
        | (knight_attacks(target) & side.knights & occupancy)
}

/// The static exchange evaluation of capturing on `target`, where a piece
/// worth `victim` pawns stands, `us` to move: the least valuable attacker
/// captures each time, x-rays open as pieces leave the occupancy, and
/// either side may stop.
fn see(target: Square, victim: i32, us: &Side, them: &Side) -> i32 {
    let value = |side: &Side, sq: Square| match () {
        _ if side.knights.contains(sq) || side.bishops.contains(sq) => 3,
        _ if side.rooks.contains(sq) => 5,
        _ => 9,
    };
    let mut occupancy = us.all() | them.all();
    let (mut gain, mut on_target, mut sides) = (Vec::new(), victim, [us, them]);
    while let Some(from) = attackers(target, sides[0], occupancy)
        .iter()
        .min_by_key(|&sq| value(sides[0], sq))
    {
        gain.push(on_target - gain.last().copied().unwrap_or(0));
        on_target = value(sides[0], from);
        occupancy = occupancy.without(from);
        sides.swap(0, 1);
    }
    for d in (1..gain.len()).rev() {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
    }
    gain.first().copied().unwrap_or(0)
}

fn main() {
    // What this program runs on this CPU, and why.
    println!("{}\n", hq::selection());
    let sq = |name: &str| name.parse::<Square>().expect("a square name");
    let white = Side {
        king: sq("e1"),
        rooks: Bitboard::from(sq("a1")) | sq("h1"),
        bishops: Bitboard::from(sq("c4")),
        queens: Bitboard::from(sq("d1")),
        knights: Bitboard::from(sq("e2")),
    };
    let black = Side {
        king: sq("e8"),
        rooks: Bitboard::from(sq("a8")),
        bishops: Bitboard::from(sq("b4")),
        queens: Bitboard::from(sq("e7")),
        knights: Bitboard::from(sq("f6")),
    };
    let occupancy = white.all() | black.all();
    let pinned = pins(&white, &black, occupancy);
    println!(
        "pinned: {:?}",
        pinned.iter().map(|(s, _)| s).collect::<Vec<_>>()
    );
    assert_eq!(pinned.len(), 1, "the e2 knight, by the queen on e7");
    for depth in 1..=3 {
        println!("depth {depth}: {} sequences", count(&white, &black, depth));
    }
    // Bxf7, the square guarded by the e7 queen: the bishop is lost.
    let bxf7 = see(sq("f7"), 0, &white, &black);
    println!("SEE of Bxf7: {bxf7}");
    assert_eq!(bxf7, -3);
    // Qxe2 (the pinned knight), guarded by the d1 queen: queen for knight.
    let qxe2 = see(sq("e2"), 3, &black, &white);
    println!("SEE of Qxe2: {qxe2}");
    assert_eq!(qxe2, 3 - 9);
    debug_assert_eq!(between(sq("e1"), sq("e7")).count(), 5);
}
