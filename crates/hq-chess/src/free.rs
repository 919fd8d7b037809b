//! A token on `hq`'s free functions: perft (and anything generic over a
//! token) as user code calls them, with no job around it.

use hq_core::{Bitboard, Line, Square};

hq_core::slider_token! {
    /// `hq`'s free functions as a token (`free-functions`): every lookup is
    /// `hq::rook_attacks` and its siblings, from code compiled for the
    /// build's own target features. Unlike a backend's token, it compiles
    /// its callers for no level: the shape of a search written on the free
    /// functions.
    pub struct FreeFunctions: "free-functions", portable;
    impl {
        /// The free functions run the installed plan's backends, one per
        /// piece at most (each piece's may differ): the sum of the largest
        /// footprints of the backends `hq` can install, one per piece, an
        /// upper bound.
        const TABLE_BYTES: usize = hq::Backend::dispatched_table_bytes();

        /// One call into `f`, compiled for the build's own features, as a
        /// job's token makes one call into code of its level: a perft (or
        /// search) node is then one function here as in a job, as in an
        /// engine's recursive search. Inlined, the optimiser picks the
        /// recursion's unit itself (here `RecurseSink::piece`), and the
        /// free functions' rows would differ from the jobs' by that shape,
        /// not by the lookups they exist to compare.
        #[inline(always)]
        fn run_compiled<R>(self, f: impl FnOnce(Self) -> R) -> R {
            #[inline(never)]
            fn node<R>(token: FreeFunctions, f: impl FnOnce(FreeFunctions) -> R) -> R {
                f(token)
            }
            node(self, f)
        }

        #[inline(always)]
        fn line_attacks(self, line: Line, sq: Square, occupancy: Bitboard) -> Bitboard {
            hq::line_attacks(line, sq, occupancy)
        }

        #[inline(always)]
        fn rook_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
            hq::rook_attacks(sq, occupancy)
        }

        #[inline(always)]
        fn bishop_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
            hq::bishop_attacks(sq, occupancy)
        }

        #[inline(always)]
        fn queen_attacks(self, sq: Square, occupancy: Bitboard) -> Bitboard {
            hq::queen_attacks(sq, occupancy)
        }

        #[inline(always)]
        fn rook_attacks_setwise(self, rooks: Bitboard, occupancy: Bitboard) -> Bitboard {
            hq::rook_attacks_setwise(rooks, occupancy)
        }

        #[inline(always)]
        fn bishop_attacks_setwise(self, bishops: Bitboard, occupancy: Bitboard) -> Bitboard {
            hq::bishop_attacks_setwise(bishops, occupancy)
        }

        #[inline(always)]
        fn queen_attacks_setwise(self, queens: Bitboard, occupancy: Bitboard) -> Bitboard {
            hq::queen_attacks_setwise(queens, occupancy)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{HashTable, Position, perft, perft_hashed};

    #[test]
    fn perft_on_the_free_functions_counts_right() {
        let token = FreeFunctions::get();
        let kiwipete: Position =
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
                .parse()
                .expect("valid FEN");
        assert_eq!(perft(&kiwipete, 3, token), 97_862);
        assert_eq!(
            perft_hashed(&kiwipete, 3, token, &mut HashTable::new(1)),
            97_862
        );
    }
}
