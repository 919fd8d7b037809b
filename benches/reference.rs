//! Reference points that are not backends of `hq`: a PEXT lookup (the
//! fastest table method on CPUs with a fast PEXT, the column every figure is
//! divided by) and a Kogge-Stone fill (the classic table-free set-wise method).

use crate::{Data, Lookup, Piece, Workload, run_inline};
use hq::{Bitboard, Line, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const RANK_1: u64 = 0xFF;
const RANK_8: u64 = RANK_1 << 56;
const EDGES: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;

/// The occupancy bits that matter for a slider on `sq` along `lines`: the
/// lines through it, without the square and without the last square of each
/// ray (a blocker there changes nothing).
fn relevant_mask(sq: Square, lines: [Line; 2]) -> u64 {
    lines
        .iter()
        .map(|&line| {
            let mask = hq_core::line_mask(line, sq);
            let ends = match line {
                Line::Rank => FILE_A | FILE_H,
                Line::File => RANK_1 | RANK_8,
                Line::Diagonal | Line::AntiDiagonal => EDGES,
            };
            mask & !ends
        })
        .fold(0, |a, b| a | b)
}

/// One square's slice of a PEXT table.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    mask: u64,
    offset: u32,
}

/// PEXT tables: `attacks[offset[sq] + pext(occ, mask[sq])]`, built at start-up
/// from the oracle (107 648 words, 841 KiB, as every PEXT engine has).
#[derive(Debug)]
struct PextTables {
    rook: [Entry; 64],
    bishop: [Entry; 64],
    attacks: Vec<u64>,
}

/// Software PEXT, only for building the tables.
fn soft_pext(src: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        if src & mask & mask.wrapping_neg() != 0 {
            out |= bit;
        }
        mask &= mask - 1;
        bit <<= 1;
    }
    out
}

impl PextTables {
    fn build() -> PextTables {
        let mut attacks = Vec::new();
        let mut fill = |lines: [Line; 2], piece: Piece| -> [Entry; 64] {
            let mut entries = [Entry::default(); 64];
            for sq in Square::ALL {
                let mask = relevant_mask(sq, lines);
                let offset = attacks.len();
                attacks.resize(offset + (1usize << mask.count_ones()), 0);
                // Every subset of the mask (carry-rippler).
                let mut subset = 0u64;
                loop {
                    attacks[offset + soft_pext(subset, mask) as usize] =
                        piece.reference(sq, Bitboard(subset)).0;
                    subset = subset.wrapping_sub(mask) & mask;
                    if subset == 0 {
                        break;
                    }
                }
                entries[sq.index()] = Entry {
                    mask,
                    offset: offset as u32,
                };
            }
            entries
        };
        let rook = fill([Line::Rank, Line::File], Piece::Rook);
        let bishop = fill([Line::Diagonal, Line::AntiDiagonal], Piece::Bishop);
        PextTables {
            rook,
            bishop,
            attacks,
        }
    }
}

/// Our own PEXT lookup (BMI2 `_pext_u64`), the reference column: only
/// constructible when the CPU has BMI2, and its benchmark loops are compiled
/// with BMI2 enabled so that `pext` is inlined as an engine built with
/// `-mbmi2` has it.
#[derive(Clone, Copy, Debug)]
pub struct Pext(&'static PextTables);

impl Pext {
    /// The lookup with freshly built tables, or `None` without BMI2.
    pub fn new() -> Option<Pext> {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return None;
        }
        // Leaked once per process: a benchmark's lifetime is the process's.
        Some(Pext(Box::leak(Box::new(PextTables::build()))))
    }

    #[inline(always)]
    fn lookup(self, entry: Entry, occ: Bitboard) -> Bitboard {
        // SAFETY: a `Pext` is only constructed after BMI2 was detected.
        let index = unsafe { std::arch::x86_64::_pext_u64(occ.0, entry.mask) };
        // SAFETY: `index < 2^popcount(mask)`, and the table reserved that
        // many words from `offset` for this square.
        Bitboard(unsafe {
            *self
                .0
                .attacks
                .get_unchecked(entry.offset as usize + index as usize)
        })
    }
}

/// The workloads compiled with BMI2, so that `_pext_u64` inlines.
#[target_feature(enable = "bmi2")]
fn run_with_bmi2(pext: Pext, workload: Workload, piece: Piece, data: &Data) -> u64 {
    run_inline(pext, workload, piece, data)
}

/// Batch and set-wise are the plain loops over single lookups: the
/// reference those entry points of the backends must beat.
impl Lookup for Pext {
    const HAS_BATCH: bool = true;
    const HAS_SETWISE: bool = true;

    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        self.lookup(self.0.rook[sq.index()], occ)
    }
    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        self.lookup(self.0.bishop[sq.index()], occ)
    }
    #[inline(never)]
    fn run(self, workload: Workload, piece: Piece, data: &Data) -> u64 {
        // SAFETY: a `Pext` is only constructed after BMI2 was detected.
        unsafe { run_with_bmi2(self, workload, piece, data) }
    }
}

/// Kogge-Stone occluded fills (the chessprogramming wiki's form): eight
/// directions of three shift-and-mask steps each, no table at all, and
/// set-wise by nature.
#[derive(Clone, Copy, Debug)]
pub struct KoggeStone;

/// Fill from `gen` through `pro` (the empty squares) by `shift` (positive:
/// left), with `wrap` the squares a step may land on.
#[inline(always)]
fn occluded_fill(mut gen_: u64, mut pro: u64, shift: i32, wrap: u64) -> u64 {
    let step = |b: u64, n: i32| {
        if shift > 0 {
            b << (shift * n)
        } else {
            b >> (-shift * n)
        }
    };
    pro &= wrap;
    gen_ |= pro & step(gen_, 1);
    pro &= step(pro, 1);
    gen_ |= pro & step(gen_, 2);
    pro &= step(pro, 2);
    gen_ |= pro & step(gen_, 4);
    // The attacks are the fill moved one more step (onto the blocker).
    step(gen_, 1) & wrap
}

impl KoggeStone {
    #[inline(always)]
    fn rook_fill(sliders: u64, empty: u64) -> u64 {
        occluded_fill(sliders, empty, 8, !0)
            | occluded_fill(sliders, empty, -8, !0)
            | occluded_fill(sliders, empty, 1, !FILE_A)
            | occluded_fill(sliders, empty, -1, !FILE_H)
    }

    #[inline(always)]
    fn bishop_fill(sliders: u64, empty: u64) -> u64 {
        occluded_fill(sliders, empty, 9, !FILE_A)
            | occluded_fill(sliders, empty, 7, !FILE_H)
            | occluded_fill(sliders, empty, -7, !FILE_A)
            | occluded_fill(sliders, empty, -9, !FILE_H)
    }
}

impl Lookup for KoggeStone {
    const HAS_SETWISE: bool = true;

    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        Bitboard(Self::rook_fill(sq.bit(), !occ.0))
    }
    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        Bitboard(Self::bishop_fill(sq.bit(), !occ.0))
    }
    #[inline(always)]
    fn setwise(self, piece: Piece, sliders: Bitboard, occ: Bitboard) -> Bitboard {
        let empty = !occ.0;
        Bitboard(match piece {
            Piece::Rook => Self::rook_fill(sliders.0, empty),
            Piece::Bishop => Self::bishop_fill(sliders.0, empty),
            Piece::Queen => Self::rook_fill(sliders.0, empty) | Self::bishop_fill(sliders.0, empty),
        })
    }
}
