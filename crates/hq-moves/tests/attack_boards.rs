//! Incremental attack boards against recomputation from scratch and the
//! oracle after every move of long random games, unmake restoring every
//! field, and x-ray attacks against an oracle.

use hq_core::piece::{Color, Piece, PieceKind};
use hq_core::{Bitboard, Direction, Square, reference};
use hq_moves::AttackBoards;
use hq_moves::playout::{KindCounts, Rng, choose_move};
use hq_moves::{Move, MoveKind, Position, Undo};
use proptest::prelude::*;
use proptest::test_runner::Config;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn steps(sq: Square, steps: &[(i8, i8)]) -> u64 {
    steps
        .iter()
        .filter_map(|&(df, dr)| sq.offset(df, dr))
        .fold(0, |a, s| a | s.bit())
}

/// What `piece` on `sq` attacks, from the oracle and plain steps (no crate code).
fn oracle_attacks(piece: Piece, sq: Square, occ: Bitboard) -> u64 {
    match piece.kind() {
        Some(PieceKind::Pawn) => {
            let dr = if piece.color() == Some(Color::White) {
                1
            } else {
                -1
            };
            steps(sq, &[(-1, dr), (1, dr)])
        }
        Some(PieceKind::Knight) => steps(
            sq,
            &[
                (1, 2),
                (2, 1),
                (2, -1),
                (1, -2),
                (-1, -2),
                (-2, -1),
                (-2, 1),
                (-1, 2),
            ],
        ),
        Some(PieceKind::King) => steps(
            sq,
            &[
                (1, 0),
                (1, 1),
                (0, 1),
                (-1, 1),
                (-1, 0),
                (-1, -1),
                (0, -1),
                (1, -1),
            ],
        ),
        Some(PieceKind::Bishop) => reference::bishop_attacks(sq, occ).0,
        Some(PieceKind::Rook) => reference::rook_attacks(sq, occ).0,
        Some(PieceKind::Queen) => reference::queen_attacks(sq, occ).0,
        None => 0,
    }
}

/// X-ray oracle: ray walks restarted behind own pieces sliding along the same line.
fn oracle_xray(position: &Position, sq: Square) -> u64 {
    let piece = position.piece_at(sq);
    let occ = Bitboard(position.occupancy());
    let mut total = oracle_attacks(piece, sq, occ);
    let slides = |p: Piece, d: Direction| {
        let diagonal = d.delta().0 != 0 && d.delta().1 != 0;
        matches!(
            (p.kind(), diagonal),
            (Some(PieceKind::Queen), _)
                | (Some(PieceKind::Bishop), true)
                | (Some(PieceKind::Rook), false)
        )
    };
    for dir in Direction::ALL {
        if !slides(piece, dir) {
            continue;
        }
        let mut from = sq;
        loop {
            let ray = reference::ray_attacks(dir, from, occ);
            total |= ray.0;
            match ray.iter().find(|&s| occ.contains(s)) {
                Some(b)
                    if position.piece_at(b).color() == piece.color()
                        && slides(position.piece_at(b), dir) =>
                {
                    from = b
                }
                _ => break,
            }
        }
    }
    total
}

fn check_board(board: &AttackBoards, last: Move) {
    let position = board.position();
    assert_eq!(
        board,
        &AttackBoards::from_position(position),
        "after {last:?}, now {}",
        position.to_fen()
    );
    let occ = Bitboard(position.occupancy());
    assert_eq!(board.occupied(), occ.0);
    for sq in Square::ALL {
        let piece = position.piece_at(sq);
        assert_eq!(
            board.attacks_from(sq),
            oracle_attacks(piece, sq, occ),
            "{sq} in {}",
            position.to_fen()
        );
        let attackers = Square::ALL
            .into_iter()
            .filter(|&s| oracle_attacks(position.piece_at(s), s, occ) & sq.bit() != 0)
            .fold(0, |a, s| a | s.bit());
        assert_eq!(board.attacked_by(sq), attackers);
    }
    for sq in [
        last.to(),
        position.king_square(Color::White),
        position.king_square(Color::Black),
    ] {
        assert_eq!(
            board.xray_attacks(sq),
            oracle_xray(position, sq),
            "x-ray {sq} in {}",
            position.to_fen()
        );
    }
}

fn play(start: &Position, choices: &[u64], counts: &mut KindCounts, oracle_every: usize) {
    let mut board = AttackBoards::new(start.clone());
    let mut buffer = Vec::new();
    let mut history: Vec<(Move, Undo, AttackBoards)> = Vec::new();
    for (ply, &choice) in choices.iter().enumerate() {
        let Some(mv) = choose_move(board.position(), choice, &mut buffer) else {
            break;
        };
        counts.add(mv);
        let before = board.clone();
        let undo = board.make(mv);
        if ply % oracle_every == 0 {
            check_board(&board, mv);
        } else {
            assert_eq!(
                board,
                AttackBoards::from_position(board.position()),
                "after {mv:?}"
            );
        }
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
    assert_eq!(board, AttackBoards::new(start.clone()));
}

proptest! {
    #![proptest_config(Config { cases: 48, failure_persistence: None, ..Config::default() })]

    #[test]
    fn incremental_attack_boards_equal_recomputation_from_the_start(choices in prop::collection::vec(any::<u64>(), 1..500)) {
        play(&Position::start(), &choices, &mut KindCounts::default(), 1);
    }

    #[test]
    fn incremental_attack_boards_equal_recomputation_from_kiwipete(choices in prop::collection::vec(any::<u64>(), 1..500)) {
        play(&Position::from_fen(KIWIPETE).unwrap(), &choices, &mut KindCounts::default(), 1);
    }
}

#[test]
fn long_games_cover_every_kind_of_move() {
    let mut counts = KindCounts::default();
    let mut rng = Rng(0x0C1A_551C);
    for _ in 0..30 {
        let choices: Vec<u64> = (0..400).map(|_| rng.next_u64()).collect();
        play(&Position::start(), &choices, &mut counts, 7);
    }
    println!("attack boards checked after {counts:?}");
    assert!(counts.each_at_least(5), "{counts:?}");
}

#[test]
fn hyatt_steps_on_a_hand_checked_move() {
    // Rook a1, bishop c1 (white); black rook a8. Moving the bishop c1-e3:
    // the a1 rook's rank ray extends through c1 to h1 (step 3); nothing on
    // the e-file or the e3 lines is shortened except what passes e3.
    let position = Position::from_fen("r3k3/8/8/8/8/8/8/R1B1K3 w - - 0 1").unwrap();
    let mut board = AttackBoards::new(position);
    assert_eq!(board.attacks_from(Square::A1) & Square::D1.bit(), 0);
    let mv = Move::new(Square::C1, Square::E3, MoveKind::Quiet);
    let undo = board.make(mv);
    let rank1: u64 = [Square::B1, Square::C1, Square::D1, Square::E1]
        .iter()
        .fold(0, |a, s| a | s.bit());
    let file_a: u64 = (1..8).fold(0, |a, r| a | Square::from_coords(0, r).unwrap().bit());
    assert_eq!(board.attacks_from(Square::A1), rank1 | file_a);
    assert_eq!(
        board.attacked_by(Square::D1),
        Square::A1.bit() | Square::E1.bit()
    );
    board.unmake(mv, undo);
    assert_eq!(
        board,
        AttackBoards::new(Position::from_fen("r3k3/8/8/8/8/8/8/R1B1K3 w - - 0 1").unwrap())
    );
}

#[test]
fn a_bishop_behind_its_queen_on_the_board() {
    let position = Position::from_fen("4k3/8/8/6p1/8/8/3Q4/2B1K3 w - - 0 1").unwrap();
    let board = AttackBoards::new(position);
    let beyond = Square::E3.bit() | Square::F4.bit() | Square::G5.bit();
    assert_eq!(board.attacks_from(Square::C1) & beyond, 0);
    assert_eq!(board.xray_attacks(Square::C1) & beyond, beyond);
    assert_eq!(
        board.xray_attacks(Square::C1) & Square::H6.bit(),
        0,
        "the pawn on g5 stops it"
    );
    assert_eq!(
        board.xray_attacks(Square::C1),
        oracle_xray(board.position(), Square::C1)
    );
}

#[test]
fn a_bad_move_is_an_error_and_changes_nothing() {
    let mut board = AttackBoards::new(Position::start());
    let err = board
        .try_make(Move::new(Square::B1, Square::B2, MoveKind::Quiet))
        .unwrap_err();
    assert!(err.to_string().contains("b1b2"), "{err}");
    assert_eq!(board, AttackBoards::new(Position::start()));
}
