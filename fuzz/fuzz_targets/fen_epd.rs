//! FEN and EPD parsing, and the `perft` binary's command line: any text.
//!
//! * `Position::from_fen`: no panic; a rejected FEN has an error message;
//!   an accepted one writes back to a FEN that reads as the same position,
//!   every legal move parses back from its UCI text and plays to a position
//!   whose FEN reads back, and perft to depth 2 agrees between a portable
//!   backend, `divide` and the facade's choice (`with_active_backend`).
//! * `epd::parse_line` and `epd::parse_suite`: no panic, a message for
//!   every rejection (a suite's names the line), counts as written.
//! * The perft binary's arguments (one per line of the input, parsed by
//!   its own `clap` parser, `hq_chess::cli`): no panic, a message for every
//!   rejection; an accepted command counts as the binary does
//!   (`hq_chess::cli::count`), to depth 2 at most and on one thread (a
//!   thread pool per input would be all the fuzzer measures), the same with
//!   `--divide` as without (it found `--depth 0 --divide` counting 0).

#![no_main]

use clap::Parser;
use hq::backends::ScalarRankTable;
use hq::{SliderAttacks, WithBackend};
use hq_chess::cli::{Args, Which, count, parse_position};
use hq_chess::epd::{parse_line, parse_suite};
use hq_chess::{Position, divide, perft};
use libfuzzer_sys::fuzz_target;

/// Perft as a job, for `with_backend` and `with_active_backend`.
#[derive(Clone, Copy)]
struct Perft<'a>(&'a Position, u32);

impl WithBackend for Perft<'_> {
    type Output = u64;
    fn run<B: SliderAttacks>(self, token: B) -> u64 {
        perft(self.0, self.1, token)
    }
}

fn check_position(p: &Position) {
    let token = ScalarRankTable::get();
    let fen = p.to_string();
    assert_eq!(
        Position::from_fen(&fen).as_ref(),
        Ok(p),
        "FEN does not round-trip: {fen}"
    );
    let moves = p.legal_moves(token);
    for &mv in &moves {
        let uci = mv.uci(p.is_chess960()).to_string();
        assert_eq!(p.parse_uci(token, &uci), Ok(mv), "{uci} in {fen}");
        let child = p.play(mv).to_string();
        assert!(
            Position::from_fen(&child).is_ok(),
            "{uci} in {fen} gives {child}"
        );
    }
    assert_eq!(perft(p, 1, token), moves.len() as u64, "{fen}");
    let nodes = perft(p, 2, token);
    let divided: u64 = divide(p, 2, token).iter().map(|&(_, n)| n).sum();
    assert_eq!(divided, nodes, "divide at depth 2: {fen}");
    assert_eq!(
        hq::with_active_backend(Perft(p, 2)),
        nodes,
        "the facade's choice: {fen}"
    );
}

fn check_fen(text: &str) {
    match Position::from_fen(text) {
        Ok(p) => check_position(&p),
        Err(e) => assert!(
            !e.to_string().is_empty(),
            "{text:?} rejected without a message: {e:?}"
        ),
    }
}

fn check_epd(text: &str) {
    match parse_line(text) {
        Ok(entry) => {
            assert_eq!(entry.fen, text.split(';').next().unwrap_or("").trim());
            assert_eq!(entry.counts.len(), text.matches(';').count());
            for &(depth, nodes) in &entry.counts {
                assert!(
                    entry.expected(depth).is_some() && depth <= entry.max_depth(),
                    "{nodes}"
                );
            }
        }
        Err(e) => assert!(!e.is_empty(), "{text:?} rejected without a message"),
    }
    match parse_suite(text) {
        Ok(entries) => {
            let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
            assert_eq!(entries.len(), lines);
        }
        Err(e) => assert!(
            e.starts_with("line ") && e.len() > "line 1: ".len(),
            "{e:?}"
        ),
    }
}

fn check_command_line(text: &str) {
    let argv = std::iter::once("perft").chain(text.split('\n'));
    let mut args = match Args::try_parse_from(argv) {
        Ok(args) => args,
        Err(e) => {
            assert!(!e.to_string().trim().is_empty(), "{text:?}: {e:?}");
            return;
        }
    };
    args.depth = args.depth.min(2);
    args.threads = 1;
    let counted = match count(&args) {
        Ok(counted) => counted,
        Err(e) => {
            // The binary prints it and exits with an error.
            let Which::Named(backend) = args.backend else {
                panic!("hq's choice failed: {e}");
            };
            assert!(!backend.is_supported() && !e.is_empty(), "{backend}: {e}");
            return;
        }
    };
    let token = ScalarRankTable::get();
    assert_eq!(
        counted.nodes,
        perft(&args.fen, args.depth, token),
        "{text:?}"
    );
    if args.divide {
        let sum: u64 = counted.divided.iter().map(|&(_, n)| n).sum();
        let moves = if args.depth == 0 {
            0
        } else {
            args.fen.legal_moves(token).len()
        };
        assert_eq!(counted.divided.len(), moves, "{text:?}");
        assert!(sum == counted.nodes || args.depth == 0, "{text:?}");
    }
    // `--fen` reads `startpos` or the FEN the same way.
    assert!(parse_position(&args.fen.to_string()).is_ok_and(|p| p == args.fen));
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    check_fen(&text);
    check_epd(&text);
    check_command_line(&text);
});
