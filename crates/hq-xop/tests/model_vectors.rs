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

/// (name, selector, expected) of [`VECTORS`]: each operation on each half of the table, and
/// a mixed selector. Hand-derived bit reversals used below, for the record:
/// 12->48 34->2C 56->6A 78->1E 9A->59 BC->3D DE->7B F1->8F 2C->34 A5->A5,
/// 10->08 20->04 40->02 7F->FE 81->81 C3->C3 3C->3C E7->E7 AA->55 55->AA.
fn vectors() -> Vec<(&'static str, [u8; 16], [u8; 16])> {
    VECTORS
        .lines()
        .map(|line| {
            let mut fields = line.split(" | ");
            let (name, selector, expected) = (
                fields.next().expect("a name"),
                fields.next().expect("a selector"),
                fields.next().expect("the expected bytes"),
            );
            let selector = match selector.strip_prefix('+') {
                Some(base) => run(u8::from_str_radix(base, 16).expect("a hex base")),
                None => hex(selector),
            };
            (name, selector, hex(expected))
        })
        .collect()
}

/// 16 bytes written in hex, separated by spaces.
fn hex(text: &str) -> [u8; 16] {
    let bytes: Vec<u8> = text
        .split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).expect("a hex byte"))
        .collect();
    bytes.try_into().expect("16 bytes")
}

/// One vector per line: name | selector (16 bytes, or `+BASE` for the
/// bytes `BASE | i`) | the expected bytes.
const VECTORS: &str = "\
op 0 copy, src1 | +00 | 00 01 80 FF 0F F0 12 34 56 78 9A BC DE F1 2C A5
op 0 copy, src2 | +10 | 10 20 40 7F 81 C3 3C E7 18 24 42 99 66 AA 55 5A
op 0 copy, permuted across both halves | 1F 00 10 0F 17 07 18 08 1E 0E 11 01 1D 0D 12 02 | 5A 00 10 A5 E7 34 18 56 55 2C 20 01 AA F1 40 80
op 1 invert, src1 | +20 | FF FE 7F 00 F0 0F ED CB A9 87 65 43 21 0E D3 5A
op 1 invert, src2 | +30 | EF DF BF 80 7E 3C C3 18 E7 DB BD 66 99 55 AA A5
op 2 bit-reverse, src1 | +40 | 00 80 01 FF F0 0F 48 2C 6A 1E 59 3D 7B 8F 34 A5
op 2 bit-reverse, src2 | +50 | 08 04 02 FE 81 C3 3C E7 18 24 42 99 66 55 AA 5A
op 3 bit-reverse then invert, src1 | +60 | FF 7F FE 00 0F F0 B7 D3 95 E1 A6 C2 84 70 CB 5A
op 3 bit-reverse then invert, src2 | +70 | F7 FB FD 01 7E 3C C3 18 E7 DB BD 66 99 AA 55 A5
op 4 zero, src1 | +80 | 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
op 4 zero, src2 | +90 | 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
op 5 ones, src1 | +A0 | FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF
op 5 ones, src2 | +B0 | FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF
op 6 sign, src1 | +C0 | 00 00 FF FF 00 FF 00 00 00 00 FF FF FF FF 00 FF
op 6 sign, src2 | +D0 | 00 00 00 00 FF FF 00 FF 00 00 00 FF 00 FF 00 00
op 7 inverted sign, src1 | +E0 | FF FF 00 00 FF 00 FF FF FF FF 00 00 00 00 FF 00
op 7 inverted sign, src2 | +F0 | FF FF FF FF 00 00 FF 00 FF FF FF 00 FF 00 FF FF
every op in one selector, both halves | 03 36 47 71 9F A0 C2 F3 1D 2E 5B 6D 8C BF D4 E1 | FF C3 2C FB 00 FF FF FF AA D3 99 70 00 FF FF FF";

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
            println!("SKIPPED avx512 VPPERM vectors: {missing}")
        }
    }
}
