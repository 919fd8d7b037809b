//! All versions agree on random boards; the per-kind/colour bitboards agree
//! with the pieces; bad planes and bad bitboards give an error. The AVX-512
//! parts report SKIPPED without the features.

use hq_core::piece::{Color, Piece, PieceKind};
use hq_mailbox::{InvalidBitboards, PieceBitboards, Planes, one_hot, scalar};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        3 => Just(Piece::NONE),
        2 => (0u8..2, 1u8..7).prop_map(|(c, k)| Piece::from_code((c << 3) | k).expect("valid code")),
    ]
}

fn board() -> impl Strategy<Value = [Piece; 64]> {
    proptest::collection::vec(piece(), 64).prop_map(|v| v.try_into().expect("64 pieces"))
}

/// Boards that are mostly no position: dense random words, sparse ones (an
/// and of three), and a valid board with one bit flipped.
fn any_boards() -> impl Strategy<Value = PieceBitboards> {
    prop_oneof![
        any::<[u64; 8]>().prop_map(PieceBitboards::from_array),
        (any::<[u64; 8]>(), any::<[u64; 8]>(), any::<[u64; 8]>()).prop_map(|(a, b, c)| {
            PieceBitboards::from_array(std::array::from_fn(|i| a[i] & b[i] & c[i]))
        }),
        (board(), 0u32..64, 0usize..8).prop_map(|(b, sq, i)| {
            let mut boards = scalar::to_bitboards_reference(&b).to_array();
            boards[i] ^= 1 << sq;
            PieceBitboards::from_array(boards)
        }),
    ]
}

/// Random cases per property (Miri interprets: a sample there, for
/// undefined behaviour in the casts between pieces and bytes).
const CASES: u32 = if cfg!(miri) { 2 } else { 3_000 };

/// Every `MIRI_STEP`-th edge case under Miri, all of them elsewhere.
const MIRI_STEP: usize = if cfg!(miri) { 61 } else { 1 };

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    })
}

/// Every piece (both colours, all kinds).
fn pieces() -> impl Iterator<Item = Piece> {
    [Color::White, Color::Black]
        .into_iter()
        .flat_map(|c| PieceKind::ALL.map(|k| Piece::new(c, k)))
}

/// The edge-case boards: empty, each piece alone on each square, each piece
/// on every square.
fn edge_boards() -> Vec<[Piece; 64]> {
    let mut boards = vec![[Piece::NONE; 64]];
    for p in pieces() {
        for sq in 0..64 {
            let mut b = [Piece::NONE; 64];
            b[sq] = p;
            boards.push(b);
        }
        boards.push([p; 64]);
    }
    boards
}

/// The boards with one byte `byte` on square `sq` and nothing elsewhere.
fn single_byte(sq: usize, byte: u8) -> PieceBitboards {
    PieceBitboards::from_array(std::array::from_fn(|i| u64::from((byte >> i) & 1) << sq))
}

#[test]
fn scalar_versions_agree_and_round_trip() {
    runner()
        .run(&board(), |b| {
            let planes = scalar::to_planes_reference(&b);
            prop_assert_eq!(scalar::to_planes(&b), planes);
            prop_assert_eq!(hq_mailbox::to_planes(&b), planes);
            prop_assert_eq!(scalar::to_mailbox(&planes), Ok(b));
            prop_assert_eq!(hq_mailbox::to_mailbox(&planes), Ok(b));
            prop_assert_eq!(&planes.0[4..], &[0u64; 4][..]);
            // Per-kind and per-colour bitboards, square by square.
            let bb = PieceBitboards::from_planes(&planes);
            for (sq, p) in b.iter().enumerate() {
                let bit = 1u64 << sq;
                prop_assert_eq!(bb.occupied().0 & bit != 0, !p.is_none());
                for kind in PieceKind::ALL {
                    prop_assert_eq!(bb.kind(kind).0 & bit != 0, p.kind() == Some(kind));
                    for color in [Color::White, Color::Black] {
                        prop_assert_eq!(
                            bb.piece(color, kind).0 & bit != 0,
                            *p == Piece::new(color, kind)
                        );
                    }
                }
                for color in [Color::White, Color::Black] {
                    prop_assert_eq!(bb.color(color).0 & bit != 0, p.color() == Some(color));
                }
            }
            // The one-hot path gives the same boards, directly.
            prop_assert_eq!(scalar::to_bitboards_reference(&b), bb);
            prop_assert_eq!(scalar::to_bitboards(&b), bb);
            prop_assert_eq!(hq_mailbox::to_bitboards(&b), bb);
            prop_assert_eq!(bb.invalid_squares(), 0);
            prop_assert_eq!(scalar::from_bitboards_reference(&bb), Ok(b));
            prop_assert_eq!(scalar::from_bitboards(&bb), Ok(b));
            prop_assert_eq!(hq_mailbox::from_bitboards(&bb), Ok(b));
            Ok(())
        })
        .unwrap();
    println!(
        "mailbox: scalar (mask-multiply), reference loop and auto-dispatch agree on {CASES} random boards, \
         planes and one-hot bitboards, both directions"
    );
}

#[test]
fn scalar_bitboards_edge_cases_agree() {
    let boards: Vec<_> = edge_boards().into_iter().step_by(MIRI_STEP).collect();
    for b in &boards {
        let bb = scalar::to_bitboards_reference(b);
        assert_eq!(scalar::to_bitboards(b), bb);
        assert_eq!(scalar::from_bitboards(&bb), Ok(*b));
        assert_eq!(scalar::from_bitboards_reference(&bb), Ok(*b));
    }
    // Each piece alone: exactly its kind board and its colour board hold the square.
    for p in pieces() {
        let mut b = [Piece::NONE; 64];
        b[27] = p;
        let want: [u64; 8] = std::array::from_fn(|i| u64::from((one_hot(p) >> i) & 1) << 27);
        assert_eq!(scalar::to_bitboards(&b).to_array(), want, "{p:?}");
    }
    println!(
        "mailbox: scalar one-hot bitboards = reference loop on {} edge boards (empty, each piece on each square, each piece everywhere; a sample under Miri)",
        boards.len()
    );
}

#[test]
fn scalar_bitboards_report_every_invalid_byte() {
    // Every byte on every square: 13 bytes are a piece or empty, 243 are errors.
    let mut errors = 0;
    let squares: Vec<usize> = (0..64).step_by(MIRI_STEP).collect();
    for &sq in &squares {
        for byte in (0..=255u8).step_by(MIRI_STEP.min(17)) {
            let bb = single_byte(sq, byte);
            let want = scalar::from_bitboards_reference(&bb);
            assert_eq!(
                scalar::from_bitboards(&bb),
                want,
                "square {sq} byte {byte:#04x}"
            );
            assert_eq!(hq_mailbox::from_bitboards(&bb), want);
            match want {
                Ok(b) => {
                    assert_eq!(b[sq].code(), hq_mailbox::from_one_hot(byte).unwrap().code());
                    assert_eq!(bb.invalid_squares(), 0);
                }
                Err(e) => {
                    assert_eq!(
                        e,
                        InvalidBitboards {
                            square: sq as u8,
                            byte
                        }
                    );
                    assert_eq!(bb.invalid_squares(), 1 << sq);
                    errors += 1;
                }
            }
        }
    }
    if MIRI_STEP == 1 {
        assert_eq!(errors, 64 * 243);
    }
    // Random, mostly invalid boards: scalar = reference, errors included.
    runner()
        .run(&any_boards(), |bb| {
            let want = scalar::from_bitboards_reference(&bb);
            prop_assert_eq!(scalar::from_bitboards(&bb), want);
            prop_assert_eq!(hq_mailbox::from_bitboards(&bb), want);
            prop_assert_eq!(bb.validate().is_ok(), want.is_ok());
            Ok(())
        })
        .unwrap();
    println!(
        "mailbox: scalar from_bitboards = reference on {} single-square bytes ({errors} errors; \
         all 64 x 256 unless under Miri) and {CASES} random, mostly invalid boards",
        squares.len() * 256usize.div_ceil(MIRI_STEP.min(17))
    );
}

#[test]
fn invalid_bitboards_are_a_clear_error() {
    let knight_bishop_white = single_byte(9, 0x46);
    let e = scalar::from_bitboards(&knight_bishop_white).unwrap_err();
    assert_eq!((e.square, e.byte), (9, 0x46));
    assert!(e.to_string().contains("square 9") && e.to_string().contains("more than one kind"));
    assert_eq!(hq_mailbox::from_bitboards(&knight_bishop_white), Err(e));
    let cases = [
        (0x08, "a kind without a colour"), // rook, no colour
        (0x40, "a colour without a kind"), // white, nothing
        (0xC1, "both colours"),            // pawn, white and black
    ];
    for (byte, why) in cases {
        let bb = single_byte(63, byte);
        let e = scalar::from_bitboards(&bb).unwrap_err();
        assert_eq!((e.square, e.byte), (63, byte));
        assert!(e.to_string().contains(why), "{e}");
        assert_eq!(hq_mailbox::from_bitboards(&bb), Err(e));
    }
    // The first bad square is reported, whatever comes after it.
    let mut boards = single_byte(20, 0x03).to_array();
    boards[6] |= 1 << 40;
    boards[1] |= 1 << 5 | 1 << 50;
    let bb = PieceBitboards::from_array(boards);
    let e = hq_mailbox::from_bitboards(&bb).unwrap_err();
    assert_eq!((e.square, e.byte), (5, 0x02));
    assert_eq!(bb.invalid_squares(), 1 << 5 | 1 << 20 | 1 << 40 | 1 << 50);
}

/// The AVX-512 kernels against the scalar ones, or SKIPPED without the features.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::*;
    use hq_mailbox::MailboxAvx512;
    use proptest::test_runner::TestCaseError;

    /// The AVX-512 token, or `None` after printing the SKIPPED line.
    fn avx512_or_skip(what: &str) -> Option<MailboxAvx512> {
        match MailboxAvx512::require() {
            Ok(t) => {
                // What covers this test's SKIPPED line on CPUs without the
                // features (`cargo xtask test`); a failure below fails the step.
                println!("RAN {what}");
                Some(t)
            }
            Err(e) => {
                let first = e
                    .missing
                    .iter()
                    .next()
                    .expect("an error names a missing feature");
                assert!(e.to_string().contains(first.name()));
                println!("SKIPPED {what}: {e}");
                None
            }
        }
    }

    /// `agree` on random boards with the AVX-512 token, which the result
    /// returns for the test's further checks; `None` without the features
    /// (reported as [`avx512_or_skip`] does).
    fn on_random_boards(
        what: &str,
        agree: impl Fn(MailboxAvx512, [Piece; 64]) -> Result<(), TestCaseError>,
    ) -> Option<MailboxAvx512> {
        let t = avx512_or_skip(what)?;
        runner().run(&board(), |b| agree(t, b)).unwrap();
        Some(t)
    }

    #[test]
    fn avx512_agrees_with_scalar_or_reports_skipped() {
        let Some(_) = on_random_boards("avx512 mailbox transposition", |t, b| {
            let planes = scalar::to_planes_reference(&b);
            prop_assert_eq!(t.to_planes(&b), planes);
            prop_assert_eq!(t.to_mailbox(&planes), Ok(b));
            Ok(())
        }) else {
            return;
        };
        // Arbitrary bytes too (the kernels do not care about validity): all 64 x 8 single bits.
        for sq in 0..64 {
            for k in 0..8 {
                let mut bytes = [0u8; 64];
                bytes[sq] = 1 << k;
                // SAFETY: the token above proves the features.
                let planes = unsafe { hq_mailbox::avx512::to_planes(&bytes) };
                let mut want = [0u64; 8];
                want[k] = 1 << sq;
                assert_eq!(planes, want, "square {sq} bit {k}");
                // SAFETY: the token above proves the features.
                let back = unsafe { hq_mailbox::avx512::to_bytes(&want) };
                assert_eq!(back, bytes, "square {sq} bit {k} back");
            }
        }
        println!(
            "mailbox: avx512 = scalar on {CASES} random boards both directions, and on all 512 single bits"
        );
    }

    #[test]
    fn avx512_bitboards_agree_or_report_skipped() {
        let Some(t) = on_random_boards("avx512 one-hot bitboards", |t, b| {
            let bb = scalar::to_bitboards_reference(&b);
            prop_assert_eq!(t.to_bitboards(&b), bb);
            prop_assert_eq!(scalar::to_bitboards(&b), bb);
            prop_assert_eq!(t.from_bitboards(&bb), Ok(b));
            prop_assert_eq!(scalar::from_bitboards(&bb), Ok(b));
            prop_assert_eq!(scalar::from_bitboards_reference(&bb), Ok(b));
            Ok(())
        }) else {
            return;
        };
        let edges = edge_boards();
        for b in &edges {
            let bb = scalar::to_bitboards_reference(b);
            assert_eq!(t.to_bitboards(b), bb);
            assert_eq!(t.from_bitboards(&bb), Ok(*b));
        }
        println!(
            "mailbox: avx512 one-hot bitboards = scalar = reference loop on {CASES} random boards both directions \
             and {} edge boards",
            edges.len()
        );
    }

    #[test]
    fn avx512_bitboards_report_invalid_input_or_skipped() {
        let Some(t) = avx512_or_skip("avx512 one-hot bitboards, invalid input") else {
            return;
        };
        // Every byte on every square: the same result and, from the kernel, the
        // same bad-square mask as the scalar check.
        for sq in 0..64 {
            for byte in 0..=255u8 {
                let bb = single_byte(sq, byte);
                let want = scalar::from_bitboards_reference(&bb);
                assert_eq!(t.from_bitboards(&bb), want, "square {sq} byte {byte:#04x}");
                // SAFETY: the token above proves the features.
                let bad = unsafe { hq_mailbox::avx512::to_codes(&bb, &mut [0; 64]) };
                assert_eq!(bad, bb.invalid_squares(), "square {sq} byte {byte:#04x}");
            }
        }
        runner()
            .run(&any_boards(), |bb| {
                let want = scalar::from_bitboards_reference(&bb);
                prop_assert_eq!(t.from_bitboards(&bb), want);
                prop_assert_eq!(scalar::from_bitboards(&bb), want);
                // SAFETY: the token above proves the features.
                let bad = unsafe { hq_mailbox::avx512::to_codes(&bb, &mut [0; 64]) };
                prop_assert_eq!(bad, bb.invalid_squares());
                Ok(())
            })
            .unwrap();
        println!(
            "mailbox: avx512 from_bitboards = scalar = reference on all 64 x 256 single-square bytes \
             and {CASES} random, mostly invalid boards (same error, same bad-square mask)"
        );
    }
}

#[test]
fn invalid_planes_are_a_clear_error() {
    let mut planes = Planes::default();
    planes.0[0] = 1 << 9;
    planes.0[1] = 1 << 9;
    planes.0[2] = 1 << 9; // kind 7 on b2
    let e = scalar::to_mailbox(&planes).unwrap_err();
    assert_eq!((e.square, e.code), (9, 7));
    assert!(e.to_string().contains("square 9"));
    assert_eq!(hq_mailbox::to_mailbox(&planes), Err(e));
    let mut planes = Planes::default();
    planes.0[3] = 1 << 63; // colour without a piece
    assert_eq!(scalar::to_mailbox(&planes).unwrap_err().code, 8);
    let mut planes = Planes::default();
    planes.0[6] = 1; // a high bit
    assert_eq!(scalar::to_mailbox(&planes).unwrap_err().code, 0x40);
}
