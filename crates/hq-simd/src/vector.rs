//! The one abstraction the kernels are written over: a SIMD register seen as
//! `LANES` 64-bit lanes, one bitboard per lane (memchr's `Vector` trait is
//! the model). Each instruction set implements it once, in `arch/`; the HQ
//! algorithms in `generic/` are written once, against it.
//!
//! # Safety
//!
//! Every method is an `unsafe fn`: it executes instructions of its
//! implementation's instruction set, so the caller must know the CPU has
//! them. The methods are `#[inline(always)]` and only ever reach machine code
//! inlined into a `#[target_feature]` entry point of `arch/` (whose token
//! proves the features), as in memchr.

use hq_core::Square;

/// 64-bit lanes in a SIMD register.
pub(crate) trait Lanes: Copy {
    /// How many bitboards one register holds.
    const LANES: usize;

    /// `x` in every lane.
    unsafe fn splat(x: u64) -> Self;
    /// `LANES` words from `src` (no alignment needed).
    unsafe fn load(src: *const u64) -> Self;
    /// The lanes into `LANES` words at `dst` (no alignment needed).
    unsafe fn store(self, dst: *mut u64);
    /// Lane `i` is the index of `squares[i]` (exactly `LANES` squares at
    /// `squares`; at most 8 lanes).
    #[inline(always)]
    unsafe fn load_squares(squares: *const Square) -> Self {
        let mut words = [0u64; 8];
        for (i, w) in words.iter_mut().take(Self::LANES).enumerate() {
            // SAFETY: the caller provides `LANES` readable squares.
            *w = unsafe { *squares.add(i) } as u64;
        }
        // SAFETY: `words` holds at least `LANES` words.
        unsafe { Self::load(words.as_ptr()) }
    }

    /// The first `n` lanes from `n` squares (`n < LANES`; the other lanes
    /// hold square 0): a batch's last, partial register. By default through
    /// copies on the stack; AVX-512 loads under a mask, so that its batch
    /// entry points need no stack frame.
    #[inline(always)]
    unsafe fn load_squares_partial(squares: *const Square, n: usize) -> Self {
        let mut padded = [Square::A1; 8];
        // SAFETY: the caller provides `n < LANES <= 8` readable squares.
        unsafe { core::ptr::copy_nonoverlapping(squares, padded.as_mut_ptr(), n) };
        // SAFETY: `padded` holds 8 squares.
        unsafe { Self::load_squares(padded.as_ptr()) }
    }
    /// The first `n` lanes into `n` words at `dst` (`n < LANES`), as
    /// [`Lanes::load_squares_partial`].
    #[inline(always)]
    unsafe fn store_partial(self, dst: *mut u64, n: usize) {
        let mut words = [0u64; 8];
        // SAFETY: `words` holds at least `LANES` words.
        unsafe { self.store(words.as_mut_ptr()) };
        // SAFETY: the caller provides `n` writable words at `dst`.
        unsafe { core::ptr::copy_nonoverlapping(words.as_ptr(), dst, n) };
    }

    /// `self & other`.
    unsafe fn and(self, other: Self) -> Self;
    /// `self | other`.
    unsafe fn or(self, other: Self) -> Self;
    /// `self ^ other`.
    unsafe fn xor(self, other: Self) -> Self;
    /// `self & !other`.
    unsafe fn and_not(self, other: Self) -> Self;
    /// `self - other`, lane by lane, wrapping.
    unsafe fn sub(self, other: Self) -> Self;

    /// `(self ^ b) & c` (one ternary-logic instruction where there is one).
    #[inline(always)]
    unsafe fn xor_and(self, b: Self, c: Self) -> Self {
        // SAFETY: the caller has the instruction set (the `Lanes` contract).
        unsafe { self.xor(b).and(c) }
    }
    /// `self ^ (b & c)` (likewise).
    #[inline(always)]
    unsafe fn xor_of_and(self, b: Self, c: Self) -> Self {
        // SAFETY: the caller has the instruction set (the `Lanes` contract).
        unsafe { self.xor(b.and(c)) }
    }
    /// `self | (b & c)` (likewise).
    #[inline(always)]
    unsafe fn or_of_and(self, b: Self, c: Self) -> Self {
        // SAFETY: the caller has the instruction set (the `Lanes` contract).
        unsafe { self.or(b.and(c)) }
    }

    /// Bytes of the tables [`Lanes::swap_bytes`] loads (its shuffle
    /// control; 0 where it is one instruction).
    const SWAP_BYTES_TABLES: usize;
    /// Bytes of the tables [`Lanes::reverse_bits`] loads, those of its
    /// byte swap included (nibble tables, a bit matrix; 0 where it is one
    /// instruction).
    const REVERSE_BITS_TABLES: usize;

    /// Each lane byte-swapped: the board mirrored vertically, which reverses
    /// every file, diagonal and anti-diagonal (not the ranks).
    unsafe fn swap_bytes(self) -> Self;
    /// Each lane bit-reversed: the board turned by 180 degrees, which
    /// reverses every line.
    unsafe fn reverse_bits(self) -> Self;

    /// The lanes or-ed together.
    unsafe fn or_lanes(self) -> u64;
}

/// Lanes with per-lane variable shifts (AVX2, AVX-512, NEON): what the
/// structure-of-arrays kernels compute their masks with, and what the
/// set-wise fill moves each lane in its own direction with.
pub(crate) trait VariableShifts: Lanes {
    /// Each lane shifted left by the count in the same lane of `counts`;
    /// counts of 64 and more give 0.
    unsafe fn shl_var(self, counts: Self) -> Self;
    /// Each lane shifted right likewise (counts of 64 and more give 0).
    unsafe fn shr_var(self, counts: Self) -> Self;
    /// Whether [`VariableShifts::lookup8`] and [`VariableShifts::lookup16`]
    /// are one instruction each (AVX-512's permutes). The batch kernels
    /// look their line masks up where they are, and compute them by shifts
    /// elsewhere.
    const LOOKUPS_IN_ONE: bool = false;
    /// Lane `i` = `table[self_i % 8]`. The default goes through memory;
    /// AVX-512 overrides it with one permute.
    #[inline(always)]
    unsafe fn lookup8(self, table: &[u64; 8]) -> Self {
        // SAFETY: the caller has the instruction set (the `Lanes` contract).
        unsafe { lookup_through_memory(self, table) }
    }
    /// Lane `i` = `table[self_i % 16]`. The default goes through memory;
    /// AVX-512 overrides it with one permute over two registers.
    #[inline(always)]
    unsafe fn lookup16(self, table: &[u64; 16]) -> Self {
        // SAFETY: as `lookup8`.
        unsafe { lookup_through_memory(self, table) }
    }
    /// Each lane rotated left by its count (0..64) in `counts`. The default
    /// is two shifts; AVX-512 has one instruction.
    #[inline(always)]
    unsafe fn rotate_left_var(self, counts: Self) -> Self {
        // SAFETY: the caller has the instruction set (the `Lanes` contract).
        unsafe {
            let back = Self::splat(64).sub(counts);
            self.shl_var(counts).or(self.shr_var(back))
        }
    }
}

/// Lane `i` = `table[index_i % N]`, lane by lane through memory (`N` is 8
/// or 16).
///
/// # Safety
///
/// The caller has `V`'s instruction set (the [`Lanes`] contract).
#[inline(always)]
unsafe fn lookup_through_memory<V: Lanes, const N: usize>(index: V, table: &[u64; N]) -> V {
    let mut words = [0u64; 8];
    // SAFETY: the caller has V's instruction set; `words` holds at least
    // `LANES` (at most 8) words.
    unsafe {
        index.store(words.as_mut_ptr());
        for w in words.iter_mut().take(V::LANES) {
            *w = table[*w as usize % N];
        }
        V::load(words.as_ptr())
    }
}

/// The bytes of `table` that a register of type `V` loads as a constant:
/// its first `size_of::<V>()` (all of a shorter table). For the
/// `*_TABLES` constants of [`Lanes`].
#[cfg_attr(target_arch = "aarch64", allow(dead_code))] // `rev64`, `rbit`: no table
pub(crate) const fn loaded_bytes<V>(table: &[u8]) -> usize {
    if size_of::<V>() < table.len() {
        size_of::<V>()
    } else {
        table.len()
    }
}

/// The plain lane logic of a [`Lanes`] impl, from each instruction set's
/// intrinsics (one line per method, so the arch modules differ only in
/// names). `and_not` and `splat` are given as `|a, b| expr` / `|x| expr`
/// because their argument order and types differ between instruction sets.
macro_rules! lanes_logic {
    ($lanes:literal, splat: |$x:ident| $splat:expr, load: $load:path, store: $store:path,
     and: $and:path, or: $or:path, xor: $xor:path, and_not: |$a:ident, $b:ident| $and_not:expr,
     sub: $sub:path) => {
        const LANES: usize = $lanes;
        #[inline(always)]
        unsafe fn splat($x: u64) -> Self {
            // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
            Self(unsafe { $splat })
        }
        #[inline(always)]
        unsafe fn load(src: *const u64) -> Self {
            // SAFETY: the instruction set as above; `LANES` readable words at `src`.
            Self(unsafe { $load(src.cast()) })
        }
        #[inline(always)]
        unsafe fn store(self, dst: *mut u64) {
            // SAFETY: the instruction set as above; `LANES` writable words at `dst`.
            unsafe { $store(dst.cast(), self.0) }
        }
        #[inline(always)]
        unsafe fn and(self, other: Self) -> Self {
            // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
            Self(unsafe { $and(self.0, other.0) })
        }
        #[inline(always)]
        unsafe fn or(self, other: Self) -> Self {
            // SAFETY: as `and`.
            Self(unsafe { $or(self.0, other.0) })
        }
        #[inline(always)]
        unsafe fn xor(self, other: Self) -> Self {
            // SAFETY: as `and`.
            Self(unsafe { $xor(self.0, other.0) })
        }
        #[inline(always)]
        unsafe fn and_not(self, other: Self) -> Self {
            let ($a, $b) = (self.0, other.0);
            // SAFETY: as `and`.
            Self(unsafe { $and_not })
        }
        #[inline(always)]
        unsafe fn sub(self, other: Self) -> Self {
            // SAFETY: as `and`.
            Self(unsafe { $sub(self.0, other.0) })
        }
    };
}

/// `reverse_bits` by byte swap and two 16-entry nibble lookups (SSSE3
/// `pshufb`, AVX2, wasm `i8x16_swizzle`): each byte's low nibble indexes a
/// table of reversed nibbles placed high, its high nibble one placed low.
#[allow(unused_macros)] // aarch64 has `rbit`
macro_rules! nibble_reverse_bits {
    (table: $table:path, shuffle: $shuffle:path, and: $and:path, or: $or:path,
     low_nibbles: $low:expr, high_nibbles: |$x:ident| $high:expr) => {
        const REVERSE_BITS_TABLES: usize = Self::SWAP_BYTES_TABLES
            + $crate::vector::loaded_bytes::<Self>(&NIBBLE_REVERSED_HIGH)
            + $crate::vector::loaded_bytes::<Self>(&NIBBLE_REVERSED_LOW);

        #[inline(always)]
        unsafe fn reverse_bits(self) -> Self {
            // SAFETY: the caller has this register type's instruction set (the `Lanes` contract).
            unsafe {
                let $x = self.swap_bytes().0;
                let low = $and($x, $low);
                let high = $high;
                Self($or(
                    $shuffle($table(&NIBBLE_REVERSED_HIGH), low),
                    $shuffle($table(&NIBBLE_REVERSED_LOW), high),
                ))
            }
        }
    };
}
