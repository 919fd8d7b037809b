//! The leaper, line and `const` slider helpers, exhaustively over squares,
//! against plain computations by coordinates and the dispatched free functions.

use hq::{
    Bitboard, Color, Square, between, bishop_attacks_const, king_attacks, knight_attacks, line,
    pawn_attacks, queen_attacks_const, rook_attacks_const,
};

/// The squares reached from `sq` by single steps `(file, rank)`, by coordinates.
fn steps(sq: Square, steps: &[(i32, i32)]) -> Bitboard {
    let (file, rank) = (i32::from(sq.file()), i32::from(sq.rank()));
    steps
        .iter()
        .filter_map(|&(df, dr)| {
            let (f, r) = (file + df, rank + dr);
            ((0..8).contains(&f) && (0..8).contains(&r))
                .then(|| Square::from_coords(f as u8, r as u8).expect("on the board"))
        })
        .collect()
}

#[test]
fn leapers_agree_with_steps_on_every_square() {
    // The leapers by their definitions, not by the crate's step lists: a
    // knight moves 1 and 2 squares on the two axes, a king at most 1 on each.
    let all: Vec<(i32, i32)> = (-2..=2)
        .flat_map(|f| (-2..=2).map(move |r| (f, r)))
        .collect();
    let knight: Vec<(i32, i32)> = all
        .iter()
        .copied()
        .filter(|&(f, r)| (f * r).abs() == 2)
        .collect();
    let king: Vec<(i32, i32)> = all
        .iter()
        .copied()
        .filter(|&(f, r)| (f, r) != (0, 0) && f.abs() <= 1 && r.abs() <= 1)
        .collect();
    assert_eq!((knight.len(), king.len()), (8, 8));
    for sq in Square::ALL {
        assert_eq!(knight_attacks(sq), steps(sq, &knight), "knight {sq}");
        assert_eq!(king_attacks(sq), steps(sq, &king), "king {sq}");
        assert_eq!(
            pawn_attacks(Color::White, sq),
            steps(sq, &[(-1, 1), (1, 1)]),
            "white pawn {sq}"
        );
        assert_eq!(
            pawn_attacks(Color::Black, sq),
            steps(sq, &[(-1, -1), (1, -1)]),
            "black pawn {sq}"
        );
    }
}

/// The squares from `sq` on by `(df, dr)` steps to the edge, `sq` excluded,
/// by coordinates (the tables are built from the oracle's ray walk: this
/// check shares nothing with it).
fn walk(sq: Square, (df, dr): (i32, i32)) -> Vec<Square> {
    let (mut f, mut r) = (i32::from(sq.file()) + df, i32::from(sq.rank()) + dr);
    let mut squares = Vec::new();
    while (0..8).contains(&f) && (0..8).contains(&r) {
        squares.push(Square::ALL[(r * 8 + f) as usize]);
        (f, r) = (f + df, r + dr);
    }
    squares
}

#[test]
fn between_and_line_agree_with_coordinates_for_every_pair() {
    let mut aligned = 0;
    for a in Square::ALL {
        for b in Square::ALL {
            let df = i32::from(b.file()) - i32::from(a.file());
            let dr = i32::from(b.rank()) - i32::from(a.rank());
            let (want_between, want_line) =
                if a != b && (df == 0 || dr == 0 || df.abs() == dr.abs()) {
                    aligned += 1;
                    let step = (df.signum(), dr.signum());
                    let toward_b = walk(a, step);
                    let until_b = toward_b.iter().take_while(|&&s| s != b);
                    let back = walk(a, (-step.0, -step.1));
                    let whole = toward_b.iter().chain(&back).chain([&a]);
                    (until_b.copied().collect(), whole.copied().collect())
                } else {
                    (Bitboard::EMPTY, Bitboard::EMPTY)
                };
            assert_eq!(between(a, b), want_between, "between {a} {b}");
            assert_eq!(line(a, b), want_line, "line {a} {b}");
            assert_eq!(
                between(a, b),
                between(b, a),
                "between is symmetric: {a} {b}"
            );
            assert_eq!(line(a, b), line(b, a), "line is symmetric: {a} {b}");
        }
    }
    // 64 squares, each aligned with the others on its rank, file and two diagonals.
    assert_eq!(aligned, 64 * 14 + 560);
}

#[test]
fn const_sliders_work_in_const_context_and_agree_with_the_free_functions() {
    // The const sliders are the oracle's walk; the free functions are the
    // dispatched backend's, an independent implementation.
    const E4_EMPTY: Bitboard = rook_attacks_const(Square::E4, Bitboard::EMPTY);
    assert_eq!(E4_EMPTY.count(), 14);
    for occ in hq_testkit::occupancies(0x0123_4567_89AB_CDEF, 256) {
        for sq in Square::ALL {
            let pieces = [
                (
                    "rook",
                    rook_attacks_const(sq, occ),
                    hq::rook_attacks(sq, occ),
                ),
                (
                    "bishop",
                    bishop_attacks_const(sq, occ),
                    hq::bishop_attacks(sq, occ),
                ),
                (
                    "queen",
                    queen_attacks_const(sq, occ),
                    hq::queen_attacks(sq, occ),
                ),
            ];
            for (piece, walked, dispatched) in pieces {
                assert_eq!(walked, dispatched, "{piece} {sq} {occ:?}");
            }
        }
    }
}

/// The shape of an engine author's first program against the facade.
#[test]
fn an_engine_authors_program_compiles_and_runs() {
    use hq::{Squares, queen_attacks};
    const R: Bitboard = rook_attacks_const(Square::E4, Bitboard::EMPTY);
    let sq = Square::try_from(28i32).expect("28 is e4");
    assert_eq!(sq, Square::E4);
    assert_eq!(usize::from(sq), 28);
    assert_eq!(u64::from(sq), 28);
    assert!(Square::try_from(64u64).is_err() && Square::try_from(-1i64).is_err());
    let occ = Bitboard::from(Square::E6) | Square::C4 | 0x8000_0000_0000_0000u64;
    let mut targets = queen_attacks(sq, occ) - occ;
    assert_eq!(targets & R, (R & queen_attacks(sq, occ)) - occ);
    let mut n = 0;
    while let Some(to) = targets.pop_lsb() {
        assert!(!occ.contains(to));
        n += 1;
    }
    assert_eq!(targets, Bitboard::EMPTY);
    assert_eq!(n, queen_attacks(sq, occ).count() - 2);
    let attackers =
        knight_attacks(Square::G1) | king_attacks(Square::E1) | pawn_attacks(Color::White, sq);
    assert!(attackers.contains(Square::F3) && attackers.contains(Square::D5));
    assert_eq!(
        between(Square::E1, Square::E4),
        Bitboard::from(Square::E2) | Square::E3
    );
    assert!(line(Square::E1, Square::E4).contains(Square::E8));
    let squares: Squares = R.iter();
    assert_eq!(squares.len(), 14);
}
