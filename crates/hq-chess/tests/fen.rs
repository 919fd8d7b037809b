//! FEN reading: one clear error per kind of bad input, acceptance of
//! well-formed unreachable positions, round trips, and a proptest that feeds
//! random and mutated FENs and demands an `Err` or a valid position, never a
//! panic.

use hq_chess::{FenError, MAX_MOVES, Position, STARTPOS_FEN, perft};
use hq_core::piece::{Color, Piece, PieceKind};
use hq_core::{Bitboard, SliderAttacks, Square, reference};
use hq_scalar::ScalarRankTable;
use proptest::prelude::*;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn token() -> ScalarRankTable {
    ScalarRankTable::new().expect("portable backend")
}

fn err(fen: &str) -> FenError {
    match Position::from_fen(fen) {
        Ok(p) => panic!("accepted {fen:?} as {p}"),
        Err(e) => {
            // Every error has a message that says what is wrong.
            assert!(e.to_string().len() > 20, "terse message for {fen:?}: {e}");
            e
        }
    }
}

#[test]
fn each_kind_of_bad_input_has_its_own_error() {
    use FenError::*;
    // Each bad input and the error it must give.
    let expected = [
        ("", FieldCount(0)),
        ("8/8/8/8/8/8/8/K6k w - - 0", FieldCount(5)),
        ("8/8/8/8/8/8/8/K6k w - - 0 1 extra", FieldCount(7)),
        ("8/8/8/8/8/8/K6k w - - 0 1", RankCount(7)),
        (
            "8/8/8/8/8/8/8/K7k w - - 0 1",
            RankLength { rank: 1, files: 9 },
        ),
        (
            "8/8/8/7/8/8/8/K6k w - - 0 1",
            RankLength { rank: 5, files: 7 },
        ),
        (
            "8/8/8/8/8/8/8/K5xk w - - 0 1",
            BadPiece {
                rank: 1,
                found: 'x',
            },
        ),
        (
            "8/8/8/8/9/8/8/K6k w - - 0 1",
            BadPiece {
                rank: 4,
                found: '9',
            },
        ),
        ("8/8/8/8/8/8/8/K6k x - - 0 1", BadSide("x".into())),
        ("8/8/8/8/8/8/8/K6k w - - a 1", BadHalfmoveClock("a".into())),
        (
            "8/8/8/8/8/8/8/K6k w - - 0 -1",
            BadFullmoveNumber("-1".into()),
        ),
        // Kings.
        ("8/8/8/8/8/8/8/K7 w - - 0 1", MissingKing(Color::Black)),
        ("8/8/8/8/8/8/8/7k w - - 0 1", MissingKing(Color::White)),
        ("k7/8/8/8/8/8/8/K6K w - - 0 1", TooManyKings(Color::White)),
        ("kk6/8/8/8/8/8/8/K7 w - - 0 1", TooManyKings(Color::Black)),
        // Pawns on the first or last rank.
        ("k6P/8/8/8/8/8/8/K7 w - - 0 1", PawnOnBackRank(Square::H8)),
        ("k7/8/8/8/8/8/8/K2p4 w - - 0 1", PawnOnBackRank(Square::D1)),
        // Castling rights that the pieces do not back.
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", CastlingWithoutRook('K')),
        ("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", CastlingWithoutRook('K')),
        ("r3k3/8/8/8/8/8/8/4K3 w k - 0 1", CastlingWithoutRook('k')),
        ("4k3/8/8/8/8/8/8/R3K2R w G - 0 1", CastlingWithoutRook('G')),
        ("4k3/8/8/8/8/8/4K3/R6R w K - 0 1", CastlingWithoutKing('K')),
        ("4k3/8/8/8/8/8/8/R3K2R w KH - 0 1", DuplicateCastling('H')),
        ("4k3/8/8/8/8/8/8/R3K2R w Kx - 0 1", BadCastlingChar('x')),
        ("4k3/8/8/8/8/8/8/R3K2R w -- - 0 1", BadCastlingChar('-')),
        // En passant.
        ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", BadEnPassant("e9".into())),
        // More material than 16 men make.
        (
            "k7/pppppppp/p7/8/8/8/8/K7 w - - 0 1",
            TooMuchMaterial(Color::Black),
        ),
        (
            "k7/8/8/8/8/8/NNNNNNNN/KNNNNNNN w - - 0 1",
            TooMuchMaterial(Color::White),
        ),
        (
            "k7/8/8/8/8/P7/QQ6/QQQQQQQK w - - 0 1",
            TooMuchMaterial(Color::White),
        ),
        // The side not to move in check.
        ("7k/8/8/8/8/8/8/4K2R w - - 0 1", OpponentInCheck),
        ("4k3/8/3N4/8/8/8/8/4K3 w - - 0 1", OpponentInCheck),
    ];
    for (fen, error) in expected {
        assert_eq!(err(fen), error, "{fen:?}");
    }
    // En passant squares that no pawn can have just passed: only the kind
    // is checked (the error's reason is prose).
    for fen in [
        "4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1",
        "4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1",
        "4k3/3p4/8/3pP3/8/8/8/4K3 w - d6 0 1",
        "4k3/8/8/3pP3/8/8/8/4K3 b - d6 0 1",
    ] {
        assert!(matches!(err(fen), ImpossibleEnPassant { .. }), "{fen:?}");
    }
}

#[test]
fn well_formed_unreachable_positions_are_accepted() {
    // Two pawns giving check at once.
    let two_pawns: Position = "1rrrrrk1/1PPPPPPP/8/8/8/8/8/6K1 b - - 0 1".parse().unwrap();
    assert!(two_pawns.is_check());
    assert_eq!(perft(&two_pawns, 1, token()), 3);
    // The position with 218 legal moves: the move list holds them all.
    let max: Position = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1"
        .parse()
        .unwrap();
    let moves = max.legal_moves(token());
    assert_eq!(moves.len(), 218);
    assert!(moves.len() <= MAX_MOVES);
    // Eight queens, and the side to move in triple check.
    assert!(Position::from_fen("QQQQQQQQ/8/8/8/8/8/8/K6k b - - 0 1").is_ok());
    let triple: Position = "4k3/8/8/8/1b6/5n2/8/r3K3 w - - 0 1".parse().unwrap();
    assert!(triple.is_check());
    // 4-field EPD positions get default counters.
    let epd: Position = "8/8/8/8/8/8/8/K6k w - -".parse().unwrap();
    assert_eq!((epd.halfmove_clock(), epd.fullmove_number()), (0, 1));
}

#[test]
fn fen_round_trips_and_chess960_notation() {
    for fen in [STARTPOS_FEN, KIWIPETE, "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1"] {
        assert_eq!(Position::from_fen(fen).unwrap().to_string(), fen);
    }
    // X-FEN `KQkq` means the outermost rooks; written back as Shredder-FEN.
    let xfen: Position = "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1"
        .parse()
        .unwrap();
    assert!(xfen.is_chess960());
    assert_eq!(
        xfen.to_string(),
        "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea - 0 1"
    );
    assert_eq!(Position::from_fen(&xfen.to_string()).unwrap(), xfen);
    // Castling moves print king-to-square normally, king-takes-rook in Chess960.
    let castles = |p: &Position| -> Vec<String> {
        let mut v: Vec<String> = p
            .legal_moves(token())
            .iter()
            .filter(|m| m.kind() == hq_chess::MoveKind::Castle)
            .map(|m| m.uci(p.is_chess960()).to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(castles(&KIWIPETE.parse().unwrap()), ["e1c1", "e1g1"]);
    assert_eq!(castles(&xfen), ["c1a1", "c1e1"]);
}

#[test]
fn play_updates_counters_and_rights() {
    // The legal move of `p` written `uci` (standard notation).
    let legal = |p: &Position, uci: &str| {
        let moves = p.legal_moves(token());
        let found = moves.iter().find(|m| m.uci(false).to_string() == uci);
        *found.unwrap_or_else(|| panic!("{uci} is not legal in {p}"))
    };
    let p = Position::startpos();
    let after = p.play(legal(&p, "e2e4"));
    // No black pawn can take on e3, so no en-passant square is recorded.
    assert_eq!(
        after.to_string(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    // With only the queen-side right, castling must use that right's rook.
    let queen_side: Position = KIWIPETE.replace("KQkq", "Qkq").parse().unwrap();
    assert_eq!(
        queen_side.play(legal(&queen_side, "e1c1")).to_string(),
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/2KR3R b kq - 1 1"
    );
    let kiwi: Position = KIWIPETE.parse().unwrap();
    assert_eq!(
        kiwi.play(legal(&kiwi, "e1g1")).to_string(),
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1"
    );
}

/// Whether `by` attacks `sq`, from the oracle and plain offsets: a check
/// written independently of the crate's tables and generator.
fn attacked_by(p: &Position, sq: Square, by: Color) -> bool {
    let occ: Bitboard = Square::ALL
        .iter()
        .copied()
        .filter(|&s| !p.piece_at(s).is_none())
        .collect();
    let has = |s: Square, kind: PieceKind| p.piece_at(s) == Piece::new(by, kind);
    let near = |steps: &[(i8, i8)], kind| {
        steps
            .iter()
            .any(|&(f, r)| sq.offset(f, r).is_some_and(|s| has(s, kind)))
    };
    let pawn_rank: i8 = if by == Color::White { -1 } else { 1 };
    // The leapers by their definitions: a knight moves 1 and 2 squares
    // on the two axes, a king at most 1 on each.
    let steps = |keep: fn(i8, i8) -> bool| -> Vec<(i8, i8)> {
        (-2..=2)
            .flat_map(|f| (-2..=2).map(move |r| (f, r)))
            .filter(|&(f, r)| keep(f, r))
            .collect()
    };
    let knight = steps(|f, r| (f * r).abs() == 2);
    let king = steps(|f, r| (f, r) != (0, 0) && f.abs() <= 1 && r.abs() <= 1);
    near(&knight, PieceKind::Knight)
        || near(&king, PieceKind::King)
        || near(&[(-1, pawn_rank), (1, pawn_rank)], PieceKind::Pawn)
        || reference::rook_attacks(sq, occ)
            .iter()
            .any(|s| has(s, PieceKind::Rook) || has(s, PieceKind::Queen))
        || reference::bishop_attacks(sq, occ)
            .iter()
            .any(|s| has(s, PieceKind::Bishop) || has(s, PieceKind::Queen))
}

fn king_of(p: &Position, color: Color) -> Option<Square> {
    Square::ALL
        .iter()
        .copied()
        .find(|&s| p.piece_at(s) == Piece::new(color, PieceKind::King))
}

/// What a position `from_fen` accepted must satisfy.
fn assert_valid(p: &Position) {
    let fen = p.to_string();
    assert_eq!(
        Position::from_fen(&fen).as_ref(),
        Ok(p),
        "FEN does not round-trip: {fen}"
    );
    for color in [Color::White, Color::Black] {
        let kings = Square::ALL
            .iter()
            .filter(|&&s| p.piece_at(s) == Piece::new(color, PieceKind::King))
            .count();
        assert_eq!(kings, 1, "{fen}");
    }
    for s in Square::ALL {
        if s.rank() == 0 || s.rank() == 7 {
            assert_ne!(p.piece_at(s).kind(), Some(PieceKind::Pawn), "{fen}");
        }
    }
    let us = p.side_to_move();
    let them = us.opposite();
    assert!(
        !attacked_by(p, king_of(p, them).unwrap(), us),
        "opponent in check: {fen}"
    );
    assert_eq!(
        p.is_check(),
        attacked_by(p, king_of(p, us).unwrap(), them),
        "{fen}"
    );
    // Every generated move keeps the mover's king safe, by the oracle.
    let moves = p.legal_moves(token());
    assert_eq!(moves.len() as u64, perft(p, 1, token()), "{fen}");
    for &mv in &moves {
        let child = p.play(mv);
        let king = king_of(&child, us).expect("the king stays on the board");
        assert!(
            !attacked_by(&child, king, them),
            "{} leaves the king in check in {fen}",
            mv.uci(p.is_chess960())
        );
        assert_valid_shallow(&child, &fen, mv.uci(p.is_chess960()));
    }
}

/// The child of a legal move must itself be a valid position.
fn assert_valid_shallow(child: &Position, parent: &str, mv: hq_chess::UciMove) {
    let fen = child.to_string();
    assert_eq!(
        Position::from_fen(&fen).map(|p| p.to_string()),
        Ok(fen),
        "after {mv} in {parent}"
    );
}

const FEN_CHARS: &[char] = &[
    'p', 'n', 'b', 'r', 'q', 'k', 'P', 'N', 'B', 'R', 'Q', 'K', '1', '2', '3', '4', '5', '6', '7',
    '8', '9', '0', '/', ' ', '-', 'w', 'a', 'c', 'd', 'e', 'f', 'g', 'h', 'A', 'C', 'D', 'E', 'F',
    'G', 'H', 'x', 'é', '\t',
];

const SEEDS: &[&str] = &[
    STARTPOS_FEN,
    KIWIPETE,
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
    "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
];

/// Applies `(operation, position, character)` edits to `fen`.
fn mutate(fen: &str, edits: &[(u8, usize, char)]) -> String {
    let mut chars: Vec<char> = fen.chars().collect();
    for &(op, at, c) in edits {
        let i = if chars.is_empty() {
            0
        } else {
            at % chars.len()
        };
        match op % 4 {
            0 if !chars.is_empty() => chars[i] = c,
            1 if !chars.is_empty() => {
                chars.remove(i);
            }
            2 => chars.insert(i.min(chars.len()), c),
            _ if chars.len() > 1 => {
                let next = (i + 1) % chars.len();
                chars.swap(i, next);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

fn check_any(fen: &str) {
    if let Ok(p) = Position::from_fen(fen) {
        assert_valid(&p);
    }
}

/// Random positions with one king each and random rights, side and en
/// passant: many are accepted, so the generator runs on odd positions.
fn random_position() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        6 => Just('.'),
        1 => prop::sample::select(&['p', 'n', 'b', 'r', 'q', 'P', 'N', 'B', 'R', 'Q'][..]),
    ];
    (
        prop::collection::vec(piece, 64),
        0..64usize,
        0..64usize,
        any::<bool>(),
        prop::sample::subsequence(vec!['K', 'Q', 'H', 'A', 'k', 'q', 'h', 'a', 'C', 'f'], 0..4),
        prop::option::of(0..64u8),
    )
        .prop_map(|(mut cells, white_king, black_king, white, rights, ep)| {
            cells[white_king] = 'K';
            if black_king != white_king {
                cells[black_king] = 'k';
            }
            let mut placement = String::new();
            for rank in (0..8).rev() {
                let mut empty = 0;
                for file in 0..8 {
                    match cells[rank * 8 + file] {
                        '.' => empty += 1,
                        c => {
                            if empty > 0 {
                                placement.push_str(&empty.to_string());
                                empty = 0;
                            }
                            placement.push(c);
                        }
                    }
                }
                if empty > 0 {
                    placement.push_str(&empty.to_string());
                }
                if rank > 0 {
                    placement.push('/');
                }
            }
            let rights: String = if rights.is_empty() {
                "-".into()
            } else {
                rights.into_iter().collect()
            };
            let ep = ep.map_or("-".to_string(), |s| {
                Square::new(s).map_or("-".into(), |s| s.to_string())
            });
            format!(
                "{placement} {} {rights} {ep} 0 1",
                if white { 'w' } else { 'b' }
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_strings_never_panic(chars in prop::collection::vec(prop::sample::select(FEN_CHARS), 0..90)) {
        check_any(&chars.into_iter().collect::<String>());
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,100}") {
        check_any(&text);
    }

    #[test]
    fn mutated_fens_never_panic(
        seed in prop::sample::select(SEEDS),
        edits in prop::collection::vec((0..4u8, 0..200usize, prop::sample::select(FEN_CHARS)), 1..6),
    ) {
        check_any(&mutate(seed, &edits));
    }

    #[test]
    fn random_positions_are_rejected_or_valid(fen in random_position()) {
        check_any(&fen);
    }
}
