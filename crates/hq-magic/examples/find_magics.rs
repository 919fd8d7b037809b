//! Prints the magics `hq-magic` commits (`src/magics.rs`), found from the
//! committed seed, or from another given as the first argument.
//!
//! ```sh
//! cargo run --release -p hq-magic --example find_magics
//! ```

fn main() {
    let seed = match std::env::args().nth(1) {
        Some(text) => text
            .strip_prefix("0x")
            .map_or_else(|| text.parse(), |hex| u64::from_str_radix(hex, 16))
            .unwrap_or_else(|e| {
                eprintln!("find_magics: the seed {text:?} is not a number: {e}");
                std::process::exit(2)
            }),
        None => hq_magic::search::SEED,
    };
    let (rooks, bishops) = hq_magic::search::magics(seed);
    for (name, magics) in [("ROOK", rooks), ("BISHOP", bishops)] {
        println!("{name}_MAGICS:");
        for row in magics.chunks(4) {
            let row: Vec<String> = row.iter().map(|m| format!("{m:#018X}")).collect();
            println!("    {},", row.join(", "));
        }
    }
}
