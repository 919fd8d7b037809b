//! The cold path as a call that preserves the caller's registers: x86-64
//! (System V callee) but Miri, Windows and builds with AVX-512
//! ([`super`] says why).

use super::lookup;
use hq_core::{Bitboard, Square};
use hq_plan::Slider;

/// The single lookup of `slider` on the cold path, through [`trampoline`].
#[inline(always)]
pub(in crate::route) fn single(slider: Slider, sq: Square, occupancy: Bitboard) -> Bitboard {
    let (attacks, panicked): (u64, u64);
    // SAFETY: `trampoline` restores every general-purpose register but its
    // outputs (`rax`, `rdx`) before it returns, and calls `entry`, a sound
    // function with the System V ABI, whose arguments are these three
    // registers; what `entry` may clobber beyond them is named here: the
    // flags (no `preserves_flags`), the vector and x87/MMX registers (a
    // build without AVX-512 has no others for it to clobber), and memory
    // (no `nomem`). Without `nostack` the stack is aligned for a call and
    // nothing lives below the stack pointer. `entry` unwinds no panic
    // through the trampoline: it catches them.
    unsafe {
        core::arch::asm!(
            "call {trampoline}",
            trampoline = sym trampoline,
            in("rdi") slider as u64,
            in("rsi") sq as u64,
            inlateout("rdx") occupancy.0 => panicked,
            lateout("rax") attacks,
            out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
            out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
            out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
            out("xmm12") _, out("xmm13") _, out("xmm14") _, out("xmm15") _,
            out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
            out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
            out("mm0") _, out("mm1") _, out("mm2") _, out("mm3") _,
            out("mm4") _, out("mm5") _, out("mm6") _, out("mm7") _,
        );
    }
    if panicked != 0 {
        resume();
    }
    Bitboard(attacks)
}

/// What [`entry`] returns (in `rax` and `rdx`).
#[repr(C)]
struct Outcome {
    attacks: u64,
    panicked: u64,
}

std::thread_local! {
    /// The panic [`entry`] caught, for [`resume`] to carry on with.
    static CAUGHT: core::cell::Cell<Option<std::boxed::Box<dyn core::any::Any + Send>>> =
        const { core::cell::Cell::new(None) };
}

/// [`lookup`] with its arguments in registers, catching a panic (the first
/// call's refusal of a bad `HQ_BACKEND`) for [`resume`]: no unwind crosses
/// the trampoline.
extern "sysv64" fn entry(slider: u64, sq: u64, occupancy: u64) -> Outcome {
    let slider = Slider::ALL[slider as usize];
    let sq = Square::from_index_masked(sq as u8);
    match std::panic::catch_unwind(|| lookup(slider, sq, Bitboard(occupancy))) {
        Ok(attacks) => Outcome {
            attacks: attacks.0,
            panicked: 0,
        },
        Err(payload) => {
            CAUGHT.set(Some(payload));
            Outcome {
                attacks: 0,
                panicked: 1,
            }
        }
    }
}

/// Carries on with the panic [`entry`] caught.
#[cold]
#[inline(never)]
fn resume() -> ! {
    match CAUGHT.take() {
        Some(payload) => std::panic::resume_unwind(payload),
        None => unreachable!("hq: the cold path reported a panic it did not catch"),
    }
}

/// Saves the general-purpose registers the System V ABI lets [`entry`]
/// clobber (but `rax` and `rdx`, its results), calls it, restores them.
/// Seven pushes after the call's return address leave the stack aligned
/// to 16 bytes for the inner call.
#[unsafe(naked)]
unsafe extern "sysv64" fn trampoline() {
    core::arch::naked_asm!(
        "push rcx",
        "push rsi",
        "push rdi",
        "push r8",
        "push r9",
        "push r10",
        "push r11",
        "call {entry}",
        "pop r11",
        "pop r10",
        "pop r9",
        "pop r8",
        "pop rdi",
        "pop rsi",
        "pop rcx",
        "ret",
        entry = sym entry,
    )
}
