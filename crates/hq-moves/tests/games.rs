//! Random games on the mailbox: make/unmake restores everything, every
//! generated move fits its position, and the state stays consistent.

use hq_core::Square;
use hq_core::piece::{Color, PieceKind};
use hq_moves::playout::{KindCounts, choose_move};
use hq_moves::{Move, Position, Undo};
use proptest::prelude::*;
use proptest::test_runner::Config;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The invariants a position must keep, checked from the mailbox alone.
fn assert_consistent(position: &Position) {
    for color in [Color::White, Color::Black] {
        let king = hq_core::piece::Piece::new(color, PieceKind::King);
        let kings: Vec<Square> = Square::ALL
            .into_iter()
            .filter(|&s| position.piece_at(s) == king)
            .collect();
        assert_eq!(
            kings,
            [position.king_square(color)],
            "{}",
            position.to_fen()
        );
    }
    // Every position reached is one a FEN can describe, and reads back the same.
    assert_eq!(
        Position::from_fen(&position.to_fen()).as_ref(),
        Ok(position)
    );
}

fn play(start: &Position, choices: &[u64], counts: &mut KindCounts) {
    let mut position = start.clone();
    let mut buffer = Vec::new();
    let mut history: Vec<(Move, Undo, Position)> = Vec::new();
    for &choice in choices {
        let Some(mv) = choose_move(&position, choice, &mut buffer) else {
            break;
        };
        assert_eq!(position.check_move(mv), Ok(()));
        counts.add(mv);
        let before = position.clone();
        let undo = position.make(mv);
        assert_consistent(&position);
        position.unmake(mv, undo);
        assert_eq!(position, before, "unmake of {mv:?}");
        let undo = position.make(mv);
        history.push((mv, undo, before));
    }
    while let Some((mv, undo, before)) = history.pop() {
        position.unmake(mv, undo);
        assert_eq!(position, before);
    }
    assert_eq!(&position, start);
}

proptest! {
    #![proptest_config(Config { cases: 64, failure_persistence: None, ..Config::default() })]

    #[test]
    fn random_games_from_the_start_unmake_exactly(choices in prop::collection::vec(any::<u64>(), 1..400)) {
        play(&Position::start(), &choices, &mut KindCounts::default());
    }

    #[test]
    fn random_games_from_kiwipete_unmake_exactly(choices in prop::collection::vec(any::<u64>(), 1..400)) {
        play(&Position::from_fen(KIWIPETE).unwrap(), &choices, &mut KindCounts::default());
    }
}

#[test]
fn games_exercise_every_kind_of_move() {
    let mut counts = KindCounts::default();
    let mut rng = hq_moves::playout::Rng(11);
    for _ in 0..40 {
        let choices: Vec<u64> = (0..300).map(|_| rng.next_u64()).collect();
        play(&Position::start(), &choices, &mut counts);
    }
    println!("{counts:?}");
    assert!(counts.each_at_least(5), "{counts:?}");
}

#[test]
fn moves_that_do_not_fit_are_rejected_with_a_reason() {
    use hq_moves::MoveKind;
    let mut start = Position::start();
    let bad = [
        Move::new(Square::E7, Square::E5, MoveKind::DoublePush), // black piece, white to move
        Move::new(Square::E2, Square::E2, MoveKind::Quiet),      // nowhere
        Move::new(Square::D1, Square::D2, MoveKind::Quiet),      // own piece on d2
        Move::new(Square::B1, Square::C3, MoveKind::Capture),    // nothing to capture
        Move::new(Square::E1, Square::G1, MoveKind::CastleKingside), // f1, g1 occupied
        Move::new(Square::E2, Square::D3, MoveKind::EnPassant),  // no double push
        Move::new(Square::G1, Square::F3, MoveKind::DoublePush), // not a pawn
    ];
    for mv in bad {
        let err = start.try_make(mv).expect_err("must be rejected");
        assert!(!err.to_string().is_empty());
        assert_eq!(start, Position::start());
    }
    assert!(
        start
            .try_make(Move::new(Square::G1, Square::F3, MoveKind::Quiet))
            .is_ok()
    );
    assert!(start.is_pseudo_legal(Move::new(Square::E7, Square::E5, MoveKind::DoublePush)));
}

#[test]
fn bad_fens_are_rejected() {
    for fen in [
        "8/8/8/8/8/8/8/8 w - -",                                   // no kings
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq -",    // side
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq -",    // right without rook
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6", // wrong ep rank
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",    // digit 9
        "Pnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - -",       // pawn on rank 8
    ] {
        assert!(Position::from_fen(fen).is_err(), "{fen}");
    }
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    assert_eq!(Position::from_fen(after_e4).unwrap().to_fen(), after_e4);
}
