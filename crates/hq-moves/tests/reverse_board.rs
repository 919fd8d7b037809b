//! The maintained board against recomputation from scratch after every move
//! of long random games, unmake restoring every field, the slider-check test
//! and attack reuse against the oracle.

use hq_core::piece::{Color, PieceKind};
use hq_core::{Bitboard, Square, reference};
use hq_moves::playout::{KindCounts, Rng, choose_move};
use hq_moves::{AttackReuse, ReverseBoard, SliderKind};
use hq_moves::{Move, Position, Undo};
use proptest::prelude::*;
use proptest::test_runner::Config;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Whether an enemy slider attacks `color`'s king, by the oracle and the mailbox.
fn oracle_slider_check(position: &Position, color: Color) -> bool {
    let king = position.king_square(color);
    let occ = Bitboard(position.occupancy());
    Square::ALL.into_iter().any(|sq| {
        let piece = position.piece_at(sq);
        piece.color() == Some(color.opposite())
            && match piece.kind() {
                Some(PieceKind::Bishop) => reference::bishop_attacks(sq, occ).contains(king),
                Some(PieceKind::Rook) => reference::rook_attacks(sq, occ).contains(king),
                Some(PieceKind::Queen) => reference::queen_attacks(sq, occ).contains(king),
                _ => false,
            }
    })
}

/// Everything the board answers, against the oracle and a fresh recomputation.
fn check_board(board: &ReverseBoard, last: Move) {
    let position = board.position();
    assert_eq!(
        board,
        &ReverseBoard::from_position(position),
        "after {last:?}, now {}",
        position.to_fen()
    );
    assert_eq!(board.occupied_reversed(), board.occupied().reverse_bits());
    let occ = Bitboard(board.occupied());
    for sq in [
        position.king_square(Color::White),
        position.king_square(Color::Black),
        last.from(),
        last.to(),
    ] {
        assert_eq!(board.rook_attacks(sq), reference::rook_attacks(sq, occ).0);
        assert_eq!(
            board.bishop_attacks(sq),
            reference::bishop_attacks(sq, occ).0
        );
        assert_eq!(board.queen_attacks(sq), reference::queen_attacks(sq, occ).0);
    }
    for color in [Color::White, Color::Black] {
        assert_eq!(
            board.in_slider_check(color),
            oracle_slider_check(position, color),
            "{color:?} in {}",
            position.to_fen()
        );
    }
}

/// Plays the game the choices pick; after every move checks the board, takes
/// the move back (exact restore) and plays it again; unwinds at the end.
fn play(start: &Position, choices: &[u64], counts: &mut KindCounts, checks: &mut u64) {
    let mut board = ReverseBoard::new(start.clone());
    let mut buffer = Vec::new();
    let mut history: Vec<(Move, Undo, ReverseBoard)> = Vec::new();
    for &choice in choices {
        let Some(mv) = choose_move(board.position(), choice, &mut buffer) else {
            break;
        };
        counts.add(mv);
        let before = board.clone();
        let undo = board.make(mv);
        check_board(&board, mv);
        *checks +=
            u64::from(board.in_slider_check(Color::White) || board.in_slider_check(Color::Black));
        board.unmake(mv, undo);
        assert_eq!(
            board,
            before,
            "unmake of {mv:?} in {}",
            before.position().to_fen()
        );
        let undo = board.make(mv);
        history.push((mv, undo, before));
    }
    while let Some((mv, undo, before)) = history.pop() {
        board.unmake(mv, undo);
        assert_eq!(board, before, "unmake of {mv:?} while unwinding");
    }
    assert_eq!(board, ReverseBoard::new(start.clone()));
}

proptest! {
    #![proptest_config(Config { cases: 48, failure_persistence: None, ..Config::default() })]

    #[test]
    fn incremental_board_equals_recomputation_from_the_start(choices in prop::collection::vec(any::<u64>(), 1..500)) {
        play(&Position::start(), &choices, &mut KindCounts::default(), &mut 0);
    }

    #[test]
    fn incremental_board_equals_recomputation_from_kiwipete(choices in prop::collection::vec(any::<u64>(), 1..500)) {
        play(&Position::from_fen(KIWIPETE).unwrap(), &choices, &mut KindCounts::default(), &mut 0);
    }
}

#[test]
fn long_games_cover_every_kind_of_move_and_slider_checks() {
    let (mut counts, mut checks) = (KindCounts::default(), 0);
    let mut rng = Rng(0x5EED_4E5E);
    for _ in 0..30 {
        let choices: Vec<u64> = (0..400).map(|_| rng.next_u64()).collect();
        play(&Position::start(), &choices, &mut counts, &mut checks);
    }
    println!("reverse board checked after {counts:?}; positions with a slider check: {checks}");
    assert!(counts.each_at_least(5), "{counts:?}");
    assert!(
        checks >= 100,
        "too few slider checks to test the check detection: {checks}"
    );
}

#[test]
fn a_bad_move_is_an_error_and_changes_nothing() {
    let mut board = ReverseBoard::new(Position::start());
    let bad = Move::new(Square::D1, Square::D2, hq_moves::MoveKind::Quiet);
    assert!(board.try_make(bad).is_err());
    assert_eq!(board, ReverseBoard::new(Position::start()));
}

#[test]
fn reused_attack_sets_are_always_right() {
    let mut rng = Rng(0x00A7_7AC4);
    let mut buffer = Vec::new();
    let mut total = hq_moves::ReuseStats::default();
    for _ in 0..20 {
        let mut position = Position::start();
        let mut reuse = AttackReuse::new();
        for _ in 0..300 {
            let occ = position.occupancy();
            for sq in Square::ALL {
                // Every square, slider or not: the test does not care what stands there.
                let rook = reuse.attacks(SliderKind::Orthogonal, sq, occ, occ.reverse_bits());
                let bishop = reuse.attacks(SliderKind::Diagonal, sq, occ, occ.reverse_bits());
                assert_eq!(rook, reference::rook_attacks(sq, Bitboard(occ)).0);
                assert_eq!(bishop, reference::bishop_attacks(sq, Bitboard(occ)).0);
            }
            let Some(mv) = choose_move(&position, rng.next_u64(), &mut buffer) else {
                break;
            };
            position.make(mv);
        }
        total.lookups += reuse.stats().lookups;
        total.hits += reuse.stats().hits;
    }
    // Some sets must have been reused and some recomputed, or the test proves nothing.
    assert!(total.hits > 0 && total.hits < total.lookups, "{total:?}");
}

#[test]
fn reuse_hit_rate_on_random_games() {
    for (name, start) in [
        ("the start position", Position::start()),
        ("Kiwipete", Position::from_fen(KIWIPETE).unwrap()),
    ] {
        let stats = hq_moves::reuse::reuse_on_random_games(&start, 1, 100, 200);
        println!(
            "attack reuse on 100 random pseudo-legal games of 200 plies from {name}: \
             {} of {} lookups reused, hit rate {:.1} %",
            stats.hits,
            stats.lookups,
            100.0 * stats.hit_rate()
        );
        assert!(
            stats.lookups > 10_000 && stats.hits > 0 && stats.hits < stats.lookups,
            "{stats:?}"
        );
    }
}

#[test]
fn reuse_hit_rate_on_a_depth_first_walk() {
    for (name, start, depth) in [
        ("the start position", Position::start(), 4),
        ("Kiwipete", Position::from_fen(KIWIPETE).unwrap(), 3),
    ] {
        let stats = hq_moves::reuse::reuse_on_pseudo_legal_tree(&start, depth);
        println!(
            "attack reuse on the depth-first walk of all pseudo-legal lines of {depth} plies from {name}: \
             {} of {} lookups reused, hit rate {:.1} %",
            stats.hits,
            stats.lookups,
            100.0 * stats.hit_rate()
        );
        assert!(stats.hits > 0 && stats.hits < stats.lookups, "{stats:?}");
    }
}
