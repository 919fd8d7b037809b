//! The perft peers, shared by `examples/peers.rs` and hq-benches'
//! `benches/perft_peers.rs` (included with `#[path]`; dev-dependencies only,
//! as shakmaty is GPL-3.0).
//!
//! * cozy-chess: its legal generator (`Board::generate_moves`) with bulk
//!   counting at the last ply, as its own `examples/perft.rs` does.
//! * shakmaty: its `perft` (it counts `legal_moves().len()` at the last ply).
//! * Stockfish: `go perft N` over UCI, timed from the command to the
//!   `Nodes searched` line (process start-up excluded).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// Perft with cozy-chess's move generator, bulk counting at the last ply.
pub fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let mut nodes = 0;
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
            nodes
        }
        _ => {
            let mut nodes = 0;
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_perft(&child, depth - 1);
                }
                false
            });
            nodes
        }
    }
}

/// Times cozy-chess perft on `fen`: `(nodes, seconds)`.
pub fn time_cozy(fen: &str, depth: u32) -> Result<(u64, f64), String> {
    let board =
        cozy_chess::Board::from_fen(fen, false).map_err(|e| format!("cozy-chess: {e:?}"))?;
    let start = Instant::now();
    let nodes = cozy_perft(&board, depth);
    Ok((nodes, start.elapsed().as_secs_f64()))
}

/// shakmaty's position for `fen`.
pub fn shakmaty_position(fen: &str) -> Result<shakmaty::Chess, String> {
    let fen: shakmaty::fen::Fen = fen.parse().map_err(|e| format!("shakmaty: {e}"))?;
    fen.into_position(shakmaty::CastlingMode::Standard)
        .map_err(|e| format!("shakmaty: {e}"))
}

/// Times shakmaty's `perft` on `fen`: `(nodes, seconds)`.
pub fn time_shakmaty(fen: &str, depth: u32) -> Result<(u64, f64), String> {
    let pos = shakmaty_position(fen)?;
    let start = Instant::now();
    let nodes = shakmaty::perft(&pos, depth);
    Ok((nodes, start.elapsed().as_secs_f64()))
}

/// The Stockfish binary: `$STOCKFISH`, else `stockfish` on `PATH`, else
/// Debian's `/usr/games/stockfish`.
pub fn stockfish_path() -> Option<std::path::PathBuf> {
    if let Some(p) = std::env::var_os("STOCKFISH") {
        return Some(p.into());
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("stockfish"))
            .find(|p| p.is_file())
    });
    on_path
        .or_else(|| Some(std::path::PathBuf::from("/usr/games/stockfish")).filter(|p| p.is_file()))
}

/// A Stockfish process spoken to over UCI.
pub struct Stockfish {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Stockfish {
    /// Starts Stockfish and waits for `readyok`.
    pub fn start() -> Result<Stockfish, String> {
        let path = stockfish_path()
            .ok_or("Stockfish not found (apt-get install stockfish, or set STOCKFISH)")?;
        let mut child = Command::new(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let mut sf = Stockfish {
            child,
            input,
            output,
        };
        sf.send("uci")?;
        sf.wait_for("uciok")?;
        sf.send("isready")?;
        sf.wait_for("readyok")?;
        Ok(sf)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|_| self.input.flush())
            .map_err(|e| format!("stockfish: {e}"))
    }

    /// Reads lines until one starts with `prefix`; returns it.
    fn wait_for(&mut self, prefix: &str) -> Result<String, String> {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self
                .output
                .read_line(&mut line)
                .map_err(|e| format!("stockfish: {e}"))?;
            if n == 0 {
                return Err(format!("stockfish closed before {prefix:?}"));
            }
            if line.starts_with(prefix) {
                return Ok(line.trim().to_string());
            }
        }
    }

    /// `go perft depth` on `fen`: `(nodes, seconds)`, timed from the command
    /// to the `Nodes searched` line.
    pub fn perft(&mut self, fen: &str, depth: u32, chess960: bool) -> Result<(u64, f64), String> {
        self.send(&format!("setoption name UCI_Chess960 value {chess960}"))?;
        self.send(&format!("position fen {fen}"))?;
        self.send("isready")?;
        self.wait_for("readyok")?;
        let start = Instant::now();
        self.send(&format!("go perft {depth}"))?;
        let line = self.wait_for("Nodes searched")?;
        let secs = start.elapsed().as_secs_f64();
        let nodes = line
            .rsplit(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("stockfish: cannot read {line:?}"))?;
        Ok((nodes, secs))
    }
}

impl Drop for Stockfish {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
