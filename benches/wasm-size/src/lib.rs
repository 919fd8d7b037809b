//! One exported function that calls `hq::queen_attacks`: `cargo xtask test`
//! builds this for `wasm32-unknown-unknown` in release and checks that the
//! module stays small (no PEXT table, no research backend).

/// Queen attacks from square `sq` (0..64, taken modulo 64) over `occupancy`.
#[unsafe(no_mangle)]
pub extern "C" fn queen_attacks(sq: u32, occupancy: u64) -> u64 {
    let square = hq::Square::from_index_masked(sq as u8);
    hq::queen_attacks(square, hq::Bitboard(occupancy)).0
}
