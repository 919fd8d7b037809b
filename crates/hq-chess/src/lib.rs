//! The workspace's one chess board: FEN, copy-make, legal move generation,
//! random games and perft on any slider-attack backend, with the seeds'
//! maintained structures as board options.
//!
//! **What it is for:** the project's test and benchmark board (the perft
//! suites that check every backend end to end, the perft stage of
//! `cargo xtask bench-matrix`). It is not a user API and is not published;
//! an engine builds its own board on `hq-attacks` (see
//! `docs/engine-integration.md` and `crates/hq/examples/engine.rs`).
//!
//! Perft (the number of leaves of the legal move tree at a given depth) is
//! how chess programs prove their attack and move-generation code end to end:
//! one wrong attack set anywhere changes the count. This crate runs it on top
//! of any [`hq_core::SliderAttacks`] token, monomorphized per backend and
//! compiled for the backend's instruction set, so every backend of the
//! workspace can be checked against the published counts and timed.
//!
//! * [`Position`]: FEN in and out, with full validation ([`FenError`]),
//!   Chess960 castling (X-FEN and Shredder-FEN rights); [`Position::play`]
//!   is the make (copy-make: the parent stays as it was, which is the unmake).
//! * [`Position::legal_moves`]: strictly legal generation (pins, checks,
//!   double checks, castling rules, en passant with the rank-pin case,
//!   promotions), into a [`MoveList`] sized for the 218-move maximum.
//! * [`perft`] with bulk counting at the last ply, [`divide`], and
//!   [`perft_parallel`] with rayon root splitting; [`perft_with`] with a
//!   board option of [`upkeep`] (the reversed occupancy and the pair entry
//!   points, Mack's table-free in-check test, Hyatt's incremental attack
//!   table): same counts, other speeds; [`perft_hashed`] with a
//!   transposition table ([`HashTable`]), the search shape engines run;
//!   [`FreeFunctions`], a token on `hq`'s free functions, for perft as
//!   user code calls them.
//! * [`playout`]: random legal games.
//! * [`epd`]: the perft-suite format (`FEN ;D1 n ;D2 n ...`) and the
//!   published suites, part of this repository.
//!
//! # Running it
//!
//! * `cargo run --release -p hq-chess -- --fen startpos --depth 6 [--backend NAME|auto] [--threads N] [--divide]`
//!   prints the node count, time and nodes per second (`--divide`: each root
//!   move with its count first, as `e2e4: 20`).
//! * `cargo test -p hq-chess`: the suites (`suites/*.epd`) on every backend
//!   the CPU supports and with every board option, at CI depths; its `perft-suite`
//!   binary (`cargo run --release -p hq-chess --bin perft-suite`) runs
//!   every listed depth.
//! * `cargo run --release -p hq-chess --example peers --features peers-board-options -- [--quick] [--csv]`
//!   (`--features peers` without the board-option rows):
//!   the speed of hq's choice, every backend and every board option against
//!   cozy-chess, shakmaty and Stockfish (hq-benches' `benches/perft_peers.rs`
//!   is the criterion version, without Stockfish).
//!
//! ```
//! use hq_core::SliderAttacks;
//! use hq_chess::{Position, divide, perft};
//!
//! let token = hq_scalar::ScalarReverse::new().unwrap();
//! let kiwipete: Position =
//!     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
//! assert_eq!(perft(&kiwipete, 2, token), 2_039);
//! let first = divide(&kiwipete, 2, token)[0];
//! println!("{}: {}", first.0.uci(kiwipete.is_chess960()), first.1);
//! ```

mod board;
#[cfg(feature = "runners")]
pub mod cli;
pub mod epd;
mod free;
mod hash;
mod movegen;
mod perft;
pub mod playout;
mod position;
mod tables;
pub mod upkeep;

pub use board::{MAX_MOVES, Move, MoveKind, MoveList, UciMove};
pub use free::FreeFunctions;
pub use hash::{HashTable, huge_page_share, huge_page_vec};
#[cfg(feature = "runners")]
pub use perft::perft_on;
pub use perft::{divide, divide_parallel, perft, perft_hashed, perft_parallel, perft_with};
pub use position::{FenError, IllegalMove, Position, STARTPOS_FEN};
