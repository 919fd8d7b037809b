//! The peer crates behind [`Lookup`], so that they run the very same loops.
//!
//! Which variant of each peer is compiled depends on the build:
//! * cozy-chess: black magic; PEXT with the `cozy-chess-pext` feature of
//!   this crate, which needs BMI2 enabled at compile time (cozy-chess stops
//!   with a compile error otherwise), so only the native build enables it;
//! * chess: magic, plus its `*_bmi` functions when BMI2 is enabled at compile time;
//! * shakmaty (GPL-3.0, a dev-dependency only): magics with the default
//!   `shakmaty-magics` feature, Hyperbola Quintessence without it. One build
//!   cannot hold both: they are one crate version with a feature toggled, and
//!   the older semver-incompatible releases (0.29 and before) have no HQ at
//!   all, so the HQ variant is measured by a second build (`--no-default-features`).

use hq::{Bitboard, Square};
use hq_benches::Lookup;
use hq_benches::runner::{Bench, RowKind};

/// cozy-chess's `get_rook_moves` / `get_bishop_moves`.
#[derive(Clone, Copy, Debug)]
pub struct CozyChess;

impl Lookup for CozyChess {
    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        Bitboard(
            cozy_chess::get_rook_moves(
                cozy_chess::Square::index(sq.to_usize()),
                cozy_chess::BitBoard(occ.0),
            )
            .0,
        )
    }
    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        Bitboard(
            cozy_chess::get_bishop_moves(
                cozy_chess::Square::index(sq.to_usize()),
                cozy_chess::BitBoard(occ.0),
            )
            .0,
        )
    }
}

#[inline(always)]
fn chess_square(sq: Square) -> chess::Square {
    // SAFETY: `Square::index` is below 64, the range `chess::Square::new` needs.
    unsafe { chess::Square::new(sq.to_usize() as u8) }
}

/// chess's `get_rook_moves` / `get_bishop_moves` (magic bitboards).
#[derive(Clone, Copy, Debug)]
pub struct ChessMagic;

impl Lookup for ChessMagic {
    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        Bitboard(chess::get_rook_moves(chess_square(sq), chess::BitBoard(occ.0)).0)
    }
    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        Bitboard(chess::get_bishop_moves(chess_square(sq), chess::BitBoard(occ.0)).0)
    }
}

/// chess's `get_rook_moves_bmi` / `get_bishop_moves_bmi` (PEXT), compiled
/// only when BMI2 is enabled at compile time.
#[cfg(target_feature = "bmi2")]
#[derive(Clone, Copy, Debug)]
pub struct ChessBmi;

#[cfg(target_feature = "bmi2")]
impl Lookup for ChessBmi {
    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        Bitboard(chess::get_rook_moves_bmi(chess_square(sq), chess::BitBoard(occ.0)).0)
    }
    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        Bitboard(chess::get_bishop_moves_bmi(chess_square(sq), chess::BitBoard(occ.0)).0)
    }
}

/// shakmaty's `attacks::rook_attacks` / `bishop_attacks`.
#[derive(Clone, Copy, Debug)]
pub struct Shakmaty;

impl Lookup for Shakmaty {
    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        Bitboard(
            shakmaty::attacks::rook_attacks(
                shakmaty::Square::new(sq.to_usize() as u32),
                shakmaty::Bitboard(occ.0),
            )
            .0,
        )
    }
    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        Bitboard(
            shakmaty::attacks::bishop_attacks(
                shakmaty::Square::new(sq.to_usize() as u32),
                shakmaty::Bitboard(occ.0),
            )
            .0,
        )
    }
}

/// Adds the shakmaty variant of this build.
pub fn add_shakmaty(bench: &mut Bench) {
    if cfg!(feature = "shakmaty-magics") {
        bench.add(
            "shakmaty-magic",
            "shakmaty 0.30.1 attacks (fixed-shift magics)",
            RowKind::Peer,
            Shakmaty,
        );
    } else {
        bench.add(
            "shakmaty-hq",
            "shakmaty 0.30.1 attacks (HQ, default features off)",
            RowKind::Peer,
            Shakmaty,
        );
    }
}

/// Adds every peer variant this build has (see the module docs).
pub fn add_all(bench: &mut Bench) {
    if cfg!(feature = "cozy-chess-pext") {
        bench.add(
            "cozy-chess-pext",
            "cozy-chess 0.3 get_*_moves (pext feature)",
            RowKind::Peer,
            CozyChess,
        );
    } else {
        bench.add(
            "cozy-chess-magic",
            "cozy-chess 0.3 get_*_moves (black magic)",
            RowKind::Peer,
            CozyChess,
        );
    }
    bench.add(
        "chess-magic",
        "chess 3.2 get_*_moves (magic)",
        RowKind::Peer,
        ChessMagic,
    );
    #[cfg(target_feature = "bmi2")]
    bench.add(
        "chess-bmi2",
        "chess 3.2 get_*_moves_bmi (PEXT, bmi2 at compile time)",
        RowKind::Peer,
        ChessBmi,
    );
    #[cfg(not(target_feature = "bmi2"))]
    bench.skip(
        "chess-bmi2",
        "needs bmi2 enabled at compile time (built in the native configuration)",
    );
    add_shakmaty(bench);
}
