//! The Kogge-Stone fill: the classic table-free set-wise method.

use super::compiled_up_to_v3;
use crate::{Data, Lookup, Piece, Workload};
use hq::{Bitboard, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

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
    compiled_up_to_v3!();
}
