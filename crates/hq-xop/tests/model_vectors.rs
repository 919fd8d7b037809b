//! The model against test vectors derived by hand from AMD's definition of
//! VPPERM (APM vol. 4): every expected byte below was worked out on paper
//! from the operand bytes, not computed by code. The same vectors then run
//! through the fast versions available on this CPU.

use hq_xop::model::{self, Op};

const SRC1: [u8; 16] = [
    0x00, 0x01, 0x80, 0xFF, 0x0F, 0xF0, 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF1, 0x2C, 0xA5,
];
const SRC2: [u8; 16] = [
    0x10, 0x20, 0x40, 0x7F, 0x81, 0xC3, 0x3C, 0xE7, 0x18, 0x24, 0x42, 0x99, 0x66, 0xAA, 0x55, 0x5A,
];

/// Selector bytes `base | i` for `i` in 0..16.
fn run(base: u8) -> [u8; 16] {
    core::array::from_fn(|i| base | i as u8)
}

/// (name, selector, expected): each operation on each half of the table, and
/// a mixed selector. Hand-derived bit reversals used below, for the record:
/// 12->48 34->2C 56->6A 78->1E 9A->59 BC->3D DE->7B F1->8F 2C->34 A5->A5,
/// 10->08 20->04 40->02 7F->FE 81->81 C3->C3 3C->3C E7->E7 AA->55 55->AA.
fn vectors() -> Vec<(&'static str, [u8; 16], [u8; 16])> {
    vec![
        ("op 0 copy, src1", run(0x00), SRC1),
        ("op 0 copy, src2", run(0x10), SRC2),
        (
            "op 0 copy, permuted across both halves",
            [
                0x1F, 0x00, 0x10, 0x0F, 0x17, 0x07, 0x18, 0x08, 0x1E, 0x0E, 0x11, 0x01, 0x1D, 0x0D,
                0x12, 0x02,
            ],
            [
                0x5A, 0x00, 0x10, 0xA5, 0xE7, 0x34, 0x18, 0x56, 0x55, 0x2C, 0x20, 0x01, 0xAA, 0xF1,
                0x40, 0x80,
            ],
        ),
        (
            "op 1 invert, src1",
            run(0x20),
            [
                0xFF, 0xFE, 0x7F, 0x00, 0xF0, 0x0F, 0xED, 0xCB, 0xA9, 0x87, 0x65, 0x43, 0x21, 0x0E,
                0xD3, 0x5A,
            ],
        ),
        (
            "op 1 invert, src2",
            run(0x30),
            [
                0xEF, 0xDF, 0xBF, 0x80, 0x7E, 0x3C, 0xC3, 0x18, 0xE7, 0xDB, 0xBD, 0x66, 0x99, 0x55,
                0xAA, 0xA5,
            ],
        ),
        (
            "op 2 bit-reverse, src1",
            run(0x40),
            [
                0x00, 0x80, 0x01, 0xFF, 0xF0, 0x0F, 0x48, 0x2C, 0x6A, 0x1E, 0x59, 0x3D, 0x7B, 0x8F,
                0x34, 0xA5,
            ],
        ),
        (
            "op 2 bit-reverse, src2",
            run(0x50),
            [
                0x08, 0x04, 0x02, 0xFE, 0x81, 0xC3, 0x3C, 0xE7, 0x18, 0x24, 0x42, 0x99, 0x66, 0x55,
                0xAA, 0x5A,
            ],
        ),
        (
            "op 3 bit-reverse then invert, src1",
            run(0x60),
            [
                0xFF, 0x7F, 0xFE, 0x00, 0x0F, 0xF0, 0xB7, 0xD3, 0x95, 0xE1, 0xA6, 0xC2, 0x84, 0x70,
                0xCB, 0x5A,
            ],
        ),
        (
            "op 3 bit-reverse then invert, src2",
            run(0x70),
            [
                0xF7, 0xFB, 0xFD, 0x01, 0x7E, 0x3C, 0xC3, 0x18, 0xE7, 0xDB, 0xBD, 0x66, 0x99, 0xAA,
                0x55, 0xA5,
            ],
        ),
        ("op 4 zero, src1", run(0x80), [0x00; 16]),
        ("op 4 zero, src2", run(0x90), [0x00; 16]),
        ("op 5 ones, src1", run(0xA0), [0xFF; 16]),
        ("op 5 ones, src2", run(0xB0), [0xFF; 16]),
        (
            "op 6 sign, src1",
            run(0xC0),
            [
                0x00, 0x00, 0xFF, 0xFF, 0x00, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF,
                0x00, 0xFF,
            ],
        ),
        (
            "op 6 sign, src2",
            run(0xD0),
            [
                0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0xFF, 0x00, 0x00, 0x00, 0xFF, 0x00, 0xFF,
                0x00, 0x00,
            ],
        ),
        (
            "op 7 inverted sign, src1",
            run(0xE0),
            [
                0xFF, 0xFF, 0x00, 0x00, 0xFF, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00,
                0xFF, 0x00,
            ],
        ),
        (
            "op 7 inverted sign, src2",
            run(0xF0),
            [
                0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0xFF, 0x00, 0xFF, 0xFF, 0xFF, 0x00, 0xFF, 0x00,
                0xFF, 0xFF,
            ],
        ),
        (
            "every op in one selector, both halves",
            [
                0x03, 0x36, 0x47, 0x71, 0x9F, 0xA0, 0xC2, 0xF3, 0x1D, 0x2E, 0x5B, 0x6D, 0x8C, 0xBF,
                0xD4, 0xE1,
            ],
            [
                0xFF, 0xC3, 0x2C, 0xFB, 0x00, 0xFF, 0xFF, 0xFF, 0xAA, 0xD3, 0x99, 0x70, 0x00, 0xFF,
                0xFF, 0xFF,
            ],
        ),
    ]
}

/// `0x0123456789ABCDEF` and its complement, reversed by hand nibble by nibble
/// (each nibble's bits reversed, nibble order reversed).
const QWORDS: [u64; 2] = [0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210];
const QWORDS_REVERSED: [u64; 2] = [0xF7B3_D591_E6A2_C480, 0x084C_2A6E_195D_3B7F];
/// `0x40 | (i ^ 7)`, written out.
const QWORD_REVERSE: [u8; 16] = [
    0x47, 0x46, 0x45, 0x44, 0x43, 0x42, 0x41, 0x40, 0x4F, 0x4E, 0x4D, 0x4C, 0x4B, 0x4A, 0x49, 0x48,
];

fn u128_of(q: [u64; 2]) -> u128 {
    u128::from(q[0]) | (u128::from(q[1]) << 64)
}

fn check_all(name: &str, vpperm: impl Fn([u8; 16], [u8; 16], [u8; 16]) -> [u8; 16]) -> usize {
    let mut checked = 0;
    for (what, selector, expected) in vectors() {
        assert_eq!(vpperm(SRC1, SRC2, selector), expected, "{name}: {what}");
        checked += 1;
    }
    let qwords = u128_of(QWORDS).to_le_bytes();
    assert_eq!(
        vpperm(qwords, SRC2, QWORD_REVERSE),
        u128_of(QWORDS_REVERSED).to_le_bytes(),
        "{name}: qword reversal"
    );
    // The source in src2 instead: 0x50 | (i ^ 7) reverses src2's qwords.
    let from_src2 = QWORD_REVERSE.map(|s| s | 0x10);
    assert_eq!(
        vpperm(SRC1, qwords, from_src2),
        u128_of(QWORDS_REVERSED).to_le_bytes(),
        "{name}: qword reversal of src2"
    );
    println!("{name}: {} hand-derived vectors passed", checked + 2);
    checked + 2
}

#[test]
fn the_model_matches_the_hand_derived_vectors() {
    assert_eq!(check_all("model", model::vpperm), vectors().len() + 2);
}

#[test]
fn the_selector_helpers_spell_what_the_manual_says() {
    assert_eq!(model::qword_reverse_selector().to_le_bytes(), QWORD_REVERSE);
    assert_eq!(model::selector(Op::Reverse, 7), 0x47);
    assert_eq!(model::selector(Op::SignInvert, 31), 0xFF);
    assert_eq!(model::selector(Op::Copy, 16), 0x10);
    for s in 0..=255u8 {
        assert_eq!(model::selector(Op::of_selector(s), s & 31), s);
    }
    // Full reversal: {a, b} -> {rev(b), rev(a)}.
    let full = model::vpperm_u128(u128_of(QWORDS), 0, model::full_reverse_selector());
    assert_eq!(full, u128_of([QWORDS_REVERSED[1], QWORDS_REVERSED[0]]));
    // Pair: {x, x} -> {x, rev(x)}.
    let x = u128_of([QWORDS[0], QWORDS[0]]);
    assert_eq!(
        model::vpperm_u128(x, 0, model::pair_selector()),
        u128_of([QWORDS[0], QWORDS_REVERSED[0]])
    );
}

#[test]
fn bochs_example_from_the_harness_readme_is_what_amd_defines() {
    // The harness README's example: op 0 over indices 0-15 must give src1
    // (Bochs gives something else: its VPPERM swaps the operand roles).
    let a = [
        0x7a, 0x78, 0x85, 0x9d, 0xac, 0xb2, 0xa8, 0xa1, 0x42, 0x3d, 0x6c, 0x39, 0x09, 0xd9, 0xac,
        0xdb,
    ];
    let b = [
        0x67, 0x79, 0x6e, 0x28, 0x9d, 0xd1, 0xfd, 0x8d, 0x5f, 0xe6, 0xc6, 0x6c, 0xa4, 0x18, 0xfd,
        0x54,
    ];
    assert_eq!(model::vpperm(a, b, run(0x00)), a);
}

#[cfg(target_arch = "x86_64")]
#[test]
fn the_ssse3_version_matches_the_hand_derived_vectors() {
    match hq_xop::ssse3::Ssse3Vpperm::new() {
        Some(v) => {
            check_all("ssse3", |a, b, s| v.vpperm(a, b, s));
        }
        None => println!("SKIPPED ssse3 VPPERM vectors: this CPU lacks ssse3"),
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn the_avx512_version_matches_the_hand_derived_vectors() {
    use hq_xop::avx512::Avx512Vpperm;
    match Avx512Vpperm::require() {
        Ok(v) => {
            // Put each vector in a different lane, the other lanes busy with other vectors.
            check_all("avx512", |a, b, s| {
                let out = v.vpperm_x4(
                    [SRC2, a, SRC1, a],
                    [SRC1, b, SRC2, b],
                    [run(0x40), s, run(0x70), s],
                );
                assert_eq!(out[1], out[3], "lanes 1 and 3 computed the same VPPERM");
                out[1]
            });
        }
        Err(missing) => {
            println!("SKIPPED avx512 VPPERM vectors (not counted as passed): {missing}")
        }
    }
}
