//! The tables of `hq-pext`, computed at compile time: every attack set of
//! every relevant occupancy (`ATTACKS`, the `pext` backend's, 841 KiB) and
//! the same packed into 16 bits (`PACKED`, `pext-pdep`'s, 210 KiB), in the
//! order of their PEXT index.
//!
//! A crate of their own, with no dependency: their `const` evaluation (about
//! 4 s of a build) then runs beside `hq-attacks-core` and the other
//! backends' crates, not after them on the build's critical path. `hq-pext`
//! is the API; use it, not this crate.
//!
//! Enumerating the subsets of a mask with the carry-rippler
//! `s = (s - mask) & mask` visits them in exactly the order of their PEXT
//! index, so entry `k` of a square is the attack set of the `k`-th subset.

#![no_std]

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const RANK_1: u64 = 0xFF;
const RANK_8: u64 = RANK_1 << 56;

/// File and rank steps of the rook's rays.
pub const ROOK_STEPS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// File and rank steps of the bishop's rays.
pub const BISHOP_STEPS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Attacks from `sq` along `steps` over `occupancy`, by walking the rays.
pub const fn walk(sq: usize, occupancy: u64, steps: &[(i32, i32); 4]) -> u64 {
    let mut attacks = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = steps[d];
        let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupancy & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

/// The relevant occupancy mask: the rays without their last squares.
const fn relevant_mask(sq: usize, steps: &[(i32, i32); 4]) -> u64 {
    let attacks = walk(sq, 0, steps);
    let (file, rank) = (sq % 8, sq / 8);
    let mut edges = 0;
    if file != 0 {
        edges |= FILE_A;
    }
    if file != 7 {
        edges |= FILE_H;
    }
    if rank != 0 {
        edges |= RANK_1;
    }
    if rank != 7 {
        edges |= RANK_8;
    }
    // A rook on an edge keeps that edge's line (minus its far corner, which
    // the other edges remove); a bishop's rays end on edges anyway.
    attacks & !edges
}

/// The rooks' entries: 64 squares, 2^(relevant bits) each.
pub const ROOK_ENTRIES: usize = 102_400;
/// The bishops' entries, after the rooks'.
pub const BISHOP_ENTRIES: usize = 5_248;

/// The masks and offsets of `steps`' squares, their offsets from `start`.
const fn layout(steps: &[(i32, i32); 4], start: usize) -> [(u64, usize); 64] {
    let mut table = [(0, 0); 64];
    let mut offset = start;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq, steps);
        table[sq] = (mask, offset);
        offset += 1 << mask.count_ones();
        sq += 1;
    }
    table
}

/// Each square's rook mask and first entry in the tables.
pub const ROOK_LAYOUT: [(u64, usize); 64] = layout(&ROOK_STEPS, 0);
/// Each square's bishop mask and first entry (after the rooks').
pub const BISHOP_LAYOUT: [(u64, usize); 64] = layout(&BISHOP_STEPS, ROOK_ENTRIES);

/// One ray's share of a square's entries: for each subset of the ray's
/// relevant squares, its bits of the entry's index (the subset's PEXT over
/// the square's mask) and the squares the slider reaches along the ray.
///
/// A square's entries are the combinations of its four rays' subsets: the
/// index the OR of their index bits (PEXT of disjoint sets is the OR of
/// theirs), the attack set the OR of their reaches. Filling the table from
/// the rays' shares costs the const evaluator a few operations per entry,
/// where a ray walk per entry took 17 s of every build's `cargo check`.
#[derive(Clone, Copy)]
struct RayShare {
    count: usize,
    index: [usize; 64],
    reached: [u64; 64],
}

/// The shares of the four rays of `steps` from `sq`, whose relevant
/// occupancy mask is `mask`.
const fn ray_shares(sq: usize, steps: &[(i32, i32); 4], mask: u64) -> [RayShare; 4] {
    let empty = RayShare {
        count: 0,
        index: [0; 64],
        reached: [0; 64],
    };
    let mut shares = [empty; 4];
    let mut d = 0;
    while d < 4 {
        let ray = walk(sq, 0, &[steps[d]; 4]);
        let relevant = ray & mask;
        let share = &mut shares[d];
        let mut subset = 0u64;
        loop {
            share.index[share.count] = soft_pext(subset, mask) as usize;
            share.reached[share.count] = walk(sq, subset, &[steps[d]; 4]);
            share.count += 1;
            subset = subset.wrapping_sub(relevant) & relevant;
            if subset == 0 {
                break;
            }
        }
        d += 1;
    }
    shares
}

/// Runs `$body` for every square of each slider, rooks first, with the
/// square `$sq`, the slider's ray steps `$steps`, and the square's mask and
/// table offset (`$mask`, `$offset`) bound: a `const` loop, where closures
/// cannot run.
macro_rules! each_square {
    (|$sq:ident, $steps:ident, $mask:ident, $offset:ident| $body:block) => {{
        let kinds = [(&ROOK_STEPS, &ROOK_LAYOUT), (&BISHOP_STEPS, &BISHOP_LAYOUT)];
        let mut kind = 0;
        while kind < 2 {
            let ($steps, layout) = kinds[kind];
            let mut $sq = 0;
            while $sq < 64 {
                let ($mask, $offset) = layout[$sq];
                $body
                $sq += 1;
            }
            kind += 1;
        }
    }};
}

/// Writes a square's entries into `$table` (of `$t`) from its slice's
/// start `$offset`: every combination of the four `$shares`.
macro_rules! fill_square {
    ($table:ident[$offset:expr] = $shares:expr, as $t:ty) => {{
        let [a, b, c, d] = $shares;
        let mut i = 0;
        while i < a.count {
            let (ia, ra) = (a.index[i], a.reached[i]);
            let mut j = 0;
            while j < b.count {
                let (ib, rb) = (ia | b.index[j], ra | b.reached[j]);
                let mut k = 0;
                while k < c.count {
                    let (ic, rc) = (ib | c.index[k], rb | c.reached[k]);
                    let mut l = 0;
                    while l < d.count {
                        $table[$offset + (ic | d.index[l])] = (rc | d.reached[l]) as $t;
                        l += 1;
                    }
                    k += 1;
                }
                j += 1;
            }
            i += 1;
        }
    }};
}

/// Every attack set, rooks first: entry `offset + k` of a square is the
/// attack set of the subset of its mask whose PEXT is `k`.
#[allow(long_running_const_eval)] // 107,648 attack sets, once per build
pub static ATTACKS: [u64; ROOK_ENTRIES + BISHOP_ENTRIES] = {
    let mut table = [0u64; ROOK_ENTRIES + BISHOP_ENTRIES];
    each_square!(|sq, steps, mask, offset| {
        fill_square!(table[offset] = ray_shares(sq, steps, mask), as u64);
    });
    table
};

/// PEXT in software: for the tables' generation, the never-supported
/// stand-in off x86-64, and the table lookups under Miri (which runs no
/// `asm!`).
pub const fn soft_pext(value: u64, mut mask: u64) -> u64 {
    let (mut out, mut bit) = (0, 1);
    while mask != 0 {
        if value & mask & mask.wrapping_neg() != 0 {
            out |= bit;
        }
        mask &= mask - 1;
        bit <<= 1;
    }
    out
}

/// Every attack set packed onto its square's span, in `Pext`'s order.
#[allow(long_running_const_eval)] // as many entries as `Pext`'s table, once per build
pub static PACKED: [u16; ROOK_ENTRIES + BISHOP_ENTRIES] = {
    let mut table = [0u16; ROOK_ENTRIES + BISHOP_ENTRIES];
    each_square!(|sq, steps, mask, offset| {
        // Each ray's reach packed onto the span: the packed sets are
        // the ORs of the rays' (PEXT of disjoint sets).
        let span = walk(sq, 0, steps);
        let mut shares = ray_shares(sq, steps, mask);
        let mut d = 0;
        while d < 4 {
            let mut i = 0;
            while i < shares[d].count {
                shares[d].reached[i] = soft_pext(shares[d].reached[i], span);
                i += 1;
            }
            d += 1;
        }
        fill_square!(table[offset] = shares, as u16);
    });
    table
};
