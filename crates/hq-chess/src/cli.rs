//! The `perft` binary's command line, in the library so that the fuzz
//! target (`fuzz/fuzz_targets/fen_epd.rs`) parses exactly what the binary
//! parses.

use crate::Position;
use hq::Backend;

/// Count the leaves of the legal move tree of a position.
#[derive(clap::Parser)]
#[command(name = "perft", version, about)]
pub struct Args {
    /// The position: a FEN (X-FEN and Shredder-FEN castling accepted) or `startpos`.
    #[arg(long, value_parser = parse_position)]
    pub fen: Position,
    /// Plies to search.
    #[arg(long)]
    pub depth: u32,
    /// A backend name, or `auto` for hq's choice on this CPU.
    #[arg(long, default_value = "auto", value_parser = parse_backend)]
    pub backend: Which,
    /// Threads (root moves shared out).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: u16,
    /// Print each root move with its count.
    #[arg(long)]
    pub divide: bool,
}

/// `--fen`: `startpos` or a FEN.
///
/// # Errors
///
/// The FEN's error, as text.
pub fn parse_position(text: &str) -> Result<Position, String> {
    if text == "startpos" {
        Ok(Position::startpos())
    } else {
        Position::from_fen(text).map_err(|e| e.to_string())
    }
}

/// `--backend`: hq's choice, or one backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// `auto`: hq's choice on this CPU.
    Auto,
    /// One backend by name.
    Named(Backend),
}

/// `--backend`: `auto` (any case) or a backend name.
///
/// # Errors
///
/// The unknown name's error, listing the valid ones.
pub fn parse_backend(text: &str) -> Result<Which, String> {
    if text.eq_ignore_ascii_case("auto") {
        Ok(Which::Auto)
    } else {
        Backend::from_name(text)
            .map(Which::Named)
            .map_err(|e| e.to_string())
    }
}
