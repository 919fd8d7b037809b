//! The module of `src/lib.rs` with shakmaty's queen attacks (its default
//! magic tables) in place of `hq`'s: the size a page pays for the peer.

/// Queen attacks from square `sq` (0..64, taken modulo 64) over `occupancy`.
#[unsafe(no_mangle)]
pub extern "C" fn queen_attacks(sq: u32, occupancy: u64) -> u64 {
    let square = shakmaty::Square::new(sq & 63);
    shakmaty::attacks::queen_attacks(square, shakmaty::Bitboard(occupancy)).0
}
