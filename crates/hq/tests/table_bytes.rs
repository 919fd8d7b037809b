//! Every backend's table footprint (`SliderAttacks::TABLE_BYTES`, as
//! `Backend::table_bytes`): printed, and the facts we expect of it.

use hq::Backend;

/// The backends whose single lookups read no table at all: none. Every one
/// reads masks at least (`reverse-bitboards` and the scalar HQs the line
/// masks, `classic` the ray masks; every target states `neon`'s and
/// `simd128`'s figures on their own architecture). Only test tokens that
/// ask the oracle (`hq_testkit`'s, the fuzz crate's planted bug) state 0.
const NO_TABLES: &[Backend] = &[];

#[test]
fn every_backend_states_its_table_footprint() {
    for &backend in Backend::all() {
        println!(
            "table bytes: {:<22} {:>9}{}",
            backend.name(),
            backend.table_bytes(),
            if backend.is_supported() {
                ""
            } else {
                " (not supported here)"
            }
        );
    }
    for &backend in Backend::all() {
        assert_eq!(
            backend.table_bytes() == 0,
            NO_TABLES.contains(&backend),
            "{backend}: {} bytes",
            backend.table_bytes()
        );
    }

    let (pext, compact) = (Backend::Pext.table_bytes(), Backend::PextPdep.table_bytes());
    // 107,648 attack sets of 8 bytes, and the entries.
    assert!(pext > 800_000, "pext: {pext} bytes");
    // The same sets packed into 2 bytes: a quarter, and larger entries.
    assert!(
        compact * 3 < pext,
        "pext-pdep: {compact} bytes, pext: {pext}"
    );
}

#[test]
fn the_route_s_bound_covers_every_backend_it_can_install() {
    let bound = Backend::dispatched_table_bytes();
    println!("table bytes: at most {bound} through the installed plan");
    for backend in Backend::supported().filter(|b| b.is_dispatched()) {
        assert!(
            backend.table_bytes() <= bound,
            "{backend}: {} bytes, bound {bound}",
            backend.table_bytes()
        );
    }
    // Three pieces: no more than three backends' tables.
    let mut all: Vec<usize> = Backend::all().iter().map(|b| b.table_bytes()).collect();
    all.sort_unstable();
    assert!(bound <= all.iter().rev().take(3).sum::<usize>());
}
