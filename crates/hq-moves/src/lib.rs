//! Moves, a mailbox position and random games: what drives the
//! incrementally maintained boards of `hq-reverse` and `hq-classic`.
//!
//! * [`Move`]: 16 bits, from-square, to-square and a 4-bit [`MoveKind`]
//!   (quiet, double push, both castlings, capture, en passant, promotions
//!   with and without capture).
//! * [`Position`]: a mailbox (`[Piece; 64]`, the encoding of
//!   [`hq_core::piece`]), side to move, castling rights and the en-passant
//!   square, with [`Position::make`] / [`Position::unmake`] and
//!   [`Position::pseudo_legal_moves`].
//! * [`playout`]: random pseudo-legal games, for tests, benchmarks and the
//!   attack-reuse measurement.
//!
//! Pseudo-legal means: every piece moves by its rules to an empty or enemy
//! square, pawns push, double-push from their start rank, capture diagonally,
//! promote on the last rank and capture en passant only right after a double
//! push; castling needs the king and rook on their squares (guaranteed by the
//! rights) and the squares between them empty. Nobody checks whether a king
//! is left in check, **but kings are never captured**, so both kings stay on
//! the board and every position has exactly one king per side.
//!
//! This is not a legal move generator (that is `hq-perft`'s job); it exists
//! so that two board crates can be driven through the *same* long move
//! sequences and checked against recomputation from scratch.

pub mod attack_boards;
mod movegen;
mod moves;
pub mod playout;
mod position;
pub mod reuse;
pub mod reverse_board;

pub use attack_boards::{AttackBoards, piece_attacks};
pub use reuse::{AttackReuse, ReuseStats};
pub use reverse_board::{ReverseBoard, SliderKind};

pub use moves::{Move, MoveKind};
pub use position::{CastlingRights, FenError, MoveError, Position, START_FEN, Undo};
