//! The facade's free functions against the oracle, under whatever
//! `HQ_BACKEND` names (`cargo xtask test` runs this target once per backend
//! this CPU runs, and once without the variable: the class's choice, with
//! PEXT's inlined path where it is the choice): single lookups, lines,
//! batches of any length (a length that differs: the documented panic) and
//! set-wise calls.

#![no_main]

use arbitrary::Arbitrary;
use hq::{Backend, Bitboard, Line, Plan, Source, Square, reference};
use hq_fuzz::{Batches, agree, check_batch, setwise_oracle};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    square: u8,
    occupancy: u64,
    sliders: u64,
    squares: Vec<u8>,
    out_len: Option<u8>,
}

/// The first call's checks: the selection is what `HQ_BACKEND` asks for.
fn check_selection() {
    hq::init().unwrap_or_else(|e| panic!("hq::init: {e}"));
    let selection = hq::selection();
    match std::env::var(hq::BACKEND_VAR) {
        Ok(name) if !name.is_empty() && !name.eq_ignore_ascii_case("auto") => {
            let backend = Backend::from_name(&name).expect("a valid HQ_BACKEND");
            assert_eq!(selection.source, Source::Environment, "{selection}");
            assert_eq!(selection.plan, Plan::all(backend), "{selection}");
        }
        _ => assert_eq!(selection.plan, selection.class.plan, "{selection}"),
    }
    eprintln!(
        "facade target: {}",
        selection.to_string().replace('\n', "; ")
    );
}

fuzz_target!(
    init: check_selection(),
    |input: Input| {
        let sq = hq_fuzz::square(input.square);
        let occ = Bitboard(input.occupancy);
        let name = "free functions";
        let what = |f: &'static str| move || format!("hq::{f}({sq}, {occ:?})");
        agree(name, what("rook_attacks"), reference::rook_attacks(sq, occ), hq::rook_attacks(sq, occ));
        agree(
            name,
            what("bishop_attacks"),
            reference::bishop_attacks(sq, occ),
            hq::bishop_attacks(sq, occ),
        );
        agree(
            name,
            what("queen_attacks"),
            reference::queen_attacks(sq, occ),
            hq::queen_attacks(sq, occ),
        );
        for line in Line::ALL {
            agree(
                name,
                what(line.name()),
                reference::line_attacks(line, sq, occ),
                hq::line_attacks(line, sq, occ),
            );
        }
        let squares: Vec<Square> = input.squares.iter().map(|&b| hq_fuzz::square(b)).collect();
        let batch = Batches {
            squares: &squares,
            occ,
            out_len: input.out_len.map_or(squares.len(), usize::from),
        };
        check_batch(name, "rook_attacks_batch", hq::rook_attacks_batch, reference::rook_attacks, batch);
        check_batch(
            name,
            "bishop_attacks_batch",
            hq::bishop_attacks_batch,
            reference::bishop_attacks,
            batch,
        );
        check_batch(
            name,
            "queen_attacks_batch",
            hq::queen_attacks_batch,
            reference::queen_attacks,
            batch,
        );
        let sliders = Bitboard(input.sliders);
        let setwise = |f: &'static str| move || format!("hq::{f}(sliders {sliders:?}, {occ:?})");
        agree(
            name,
            setwise("rook_attacks_setwise"),
            setwise_oracle(sliders, occ, reference::rook_attacks),
            hq::rook_attacks_setwise(sliders, occ),
        );
        agree(
            name,
            setwise("bishop_attacks_setwise"),
            setwise_oracle(sliders, occ, reference::bishop_attacks),
            hq::bishop_attacks_setwise(sliders, occ),
        );
        agree(
            name,
            setwise("queen_attacks_setwise"),
            setwise_oracle(sliders, occ, reference::queen_attacks),
            hq::queen_attacks_setwise(sliders, occ),
        );
    }
);
