//! The module of `src/lib.rs` with cozy-chess's queen moves (its black
//! magic tables) in place of `hq`'s: the size a page pays for the peer.

/// Queen attacks from square `sq` (0..64, taken modulo 64) over `occupancy`.
#[unsafe(no_mangle)]
pub extern "C" fn queen_attacks(sq: u32, occupancy: u64) -> u64 {
    let square = cozy_chess::Square::index((sq & 63) as usize);
    let occupancy = cozy_chess::BitBoard(occupancy);
    (cozy_chess::get_rook_moves(square, occupancy)
        | cozy_chess::get_bishop_moves(square, occupancy))
    .0
}
