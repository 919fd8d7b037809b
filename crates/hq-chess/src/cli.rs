//! The `perft` binary's command line, in the library so that the fuzz
//! target (`fuzz/fuzz_targets/fen_epd.rs`) parses exactly what the binary
//! parses.

use crate::{Move, Position, divide, divide_parallel, perft_parallel};
use hq::{Backend, SliderAttacks, WithBackend};

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

/// What a command counts: the leaves, and with `--divide` each root move's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counted {
    /// The leaves at `--depth` (1 at depth 0: the position itself).
    pub nodes: u64,
    /// With `--divide`, each root move and its leaves (none at depth 0).
    pub divided: Vec<(Move, u64)>,
}

/// Runs the command's perft on its backend (monomorphized for it): what the
/// binary prints, without the printing.
///
/// # Errors
///
/// A backend this CPU lacks, or a thread pool that cannot be built.
pub fn count(args: &Args) -> Result<Counted, String> {
    let backend = match args.backend {
        Which::Named(b) => Some(b),
        Which::Auto => None,
    };
    crate::perft::on_backend(backend, Run(args)).map_err(|e| e.to_string())?
}

/// The run, monomorphized for the chosen backend.
struct Run<'a>(&'a Args);

impl WithBackend for Run<'_> {
    type Output = Result<Counted, String>;
    fn run<B: SliderAttacks>(self, token: B) -> Result<Counted, String> {
        let args = self.0;
        let threads = usize::from(args.threads);
        if !args.divide {
            return perft_parallel(&args.fen, args.depth, token, threads)
                .map(|nodes| Counted {
                    nodes,
                    divided: Vec::new(),
                })
                .map_err(|e| e.to_string());
        }
        let divided = if threads > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| e.to_string())?;
            pool.install(|| divide_parallel(&args.fen, args.depth, token))
        } else {
            divide(&args.fen, args.depth, token)
        };
        // At depth 0 no move is listed, and the position is the one leaf.
        let nodes = if args.depth == 0 {
            1
        } else {
            divided.iter().map(|&(_, n)| n).sum()
        };
        Ok(Counted { nodes, divided })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// Found by the fuzz target: `--depth 0 --divide` counted 0 nodes,
    /// `--depth 0` 1.
    #[test]
    fn divide_counts_what_perft_counts_at_every_depth() {
        for depth in 0..=2 {
            let depth_arg = depth.to_string();
            let plain = ["perft", "--fen", "startpos", "--depth", &depth_arg];
            let args = Args::try_parse_from(plain).expect("valid arguments");
            let perft = count(&args).expect("runs");
            let args = Args::try_parse_from(plain.iter().chain(&["--divide"])).expect("valid");
            let divided = count(&args).expect("runs");
            assert_eq!(perft.nodes, [1, 20, 400][depth], "depth {depth}");
            assert_eq!(divided.nodes, perft.nodes, "depth {depth}");
            assert_eq!(divided.divided.len(), if depth == 0 { 0 } else { 20 });
        }
    }
}
