//! Moves from outside: `parse_uci` and `try_play` accept exactly the legal
//! moves and name the others in their error.

use hq_chess::{IllegalMove, Position};
use hq_scalar::ScalarRankTable;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn token() -> ScalarRankTable {
    ScalarRankTable::get()
}

#[test]
fn every_legal_move_parses_back_to_itself_and_plays() {
    for fen in [hq_chess::STARTPOS_FEN, KIWIPETE] {
        let position = Position::from_fen(fen).unwrap();
        for &mv in &position.legal_moves(token()) {
            let text = mv.uci(position.is_chess960()).to_string();
            assert_eq!(position.parse_uci(token(), &text), Ok(mv), "{fen}: {text}");
            let played = position.try_play(token(), mv).expect("legal");
            assert_eq!(played.to_string(), position.play(mv).to_string());
        }
    }
}

#[test]
fn castling_is_accepted_in_both_notations() {
    let position = Position::from_fen(KIWIPETE).unwrap();
    let king_to_g1 = position.parse_uci(token(), "e1g1").unwrap();
    assert_eq!(position.parse_uci(token(), "e1h1"), Ok(king_to_g1));
}

#[test]
fn illegal_moves_are_errors_that_name_the_move() {
    let start = Position::startpos();
    for text in ["e2e5", "e1e2", "a1a1", "e7e5", "nonsense", ""] {
        let error = start.parse_uci(token(), text).unwrap_err();
        assert_eq!(error, IllegalMove { uci: text.into() });
        assert!(error.to_string().contains("not a legal move"), "{error}");
    }
    // A move legal elsewhere (Kiwipete's castling) is refused here.
    let kiwipete = Position::from_fen(KIWIPETE).unwrap();
    let castle = kiwipete.parse_uci(token(), "e1g1").unwrap();
    let error = start.try_play(token(), castle).unwrap_err();
    assert_eq!(error.uci, "e1g1");
}
