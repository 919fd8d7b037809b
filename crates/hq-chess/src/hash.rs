//! The transposition table of [`crate::perft_hashed`]: an engine's hash
//! table in its simplest form (one slot per index, always replaced), large
//! enough that its reads miss every cache, as an engine's do.

use crate::board::Board;

/// What [`crate::perft`]'s recursion asks of a table.
pub(crate) trait Table {
    /// The key of `board` searched `depth` plies deep.
    fn key(board: &Board, depth: u32) -> u64;
    /// The count stored under `key`, if any.
    fn probe(&self, key: u64) -> Option<u64>;
    /// Stores `nodes` under `key`.
    fn store(&mut self, key: u64, nodes: u64);
}

/// No table: plain perft (every method a no-op the optimizer removes).
pub(crate) struct NoTable;

impl Table for NoTable {
    #[inline(always)]
    fn key(_: &Board, _: u32) -> u64 {
        0
    }
    #[inline(always)]
    fn probe(&self, _: u64) -> Option<u64> {
        None
    }
    #[inline(always)]
    fn store(&mut self, _: u64, _: u64) {}
}

/// A transposition table of perft counts: `(key, count)` slots of 16
/// bytes, indexed by the key's low bits, always replaced. The key is a
/// 64-bit hash of the whole board and the depth, checked in full on a
/// probe; a false hit would need two positions of one search with the same
/// 64 bits (the perft counts, checked against the known ones, would show
/// it).
pub struct HashTable {
    slots: Vec<[u64; 2]>,
}

impl HashTable {
    /// A table of `mib` MiB (rounded down to a power of two slots, at least
    /// one), on 2 MiB pages where Linux grants them (`MADV_HUGEPAGE`, as
    /// engines ask for): on 4 KiB pages a random read is also a page walk.
    pub fn new(mib: usize) -> HashTable {
        let slots = (mib.max(1) << 20) / 16;
        let slots = 1usize << slots.ilog2();
        let mut v: Vec<[u64; 2]> = huge_page_vec(slots);
        v.resize(slots, [0, 0]);
        HashTable { slots: v }
    }

    /// Empties the table (a new search).
    pub fn clear(&mut self) {
        self.slots.fill([0, 0]);
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * 16
    }

    /// The share of the table on 2 MiB pages ([`huge_page_share`]).
    pub fn huge_page_share(&self) -> Option<f64> {
        huge_page_share(&self.slots)
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> usize {
        key as usize & (self.slots.len() - 1)
    }
}

impl Table for HashTable {
    /// A multiply-xorshift mix of the board's words (the white pieces and
    /// the kinds give every piece; side, castling and en passant, and the
    /// depth, in the last word). Key 0 is never stored: an empty slot.
    #[inline(always)]
    fn key(board: &Board, depth: u32) -> u64 {
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let state = board.ep
            ^ u64::from(board.side)
            ^ u64::from(board.castling) << 1
            ^ u64::from(depth) << 8;
        let mut h = 0u64;
        for w in [
            board.kinds[0],
            board.kinds[1],
            board.kinds[2],
            board.kinds[3],
        ] {
            h = (h ^ w).wrapping_mul(K).rotate_left(29);
        }
        for w in [board.kinds[4], board.kinds[5], board.colors[0], state] {
            h = (h ^ w).wrapping_mul(K).rotate_left(29);
        }
        (h ^ h >> 32).wrapping_mul(K) | 1
    }

    #[inline(always)]
    fn probe(&self, key: u64) -> Option<u64> {
        let [k, nodes] = self.slots[self.slot(key)];
        (k == key).then_some(nodes)
    }

    #[inline(always)]
    fn store(&mut self, key: u64, nodes: u64) {
        let i = self.slot(key);
        self.slots[i] = [key, nodes];
    }
}

/// An empty vector with room for `capacity` items, its allocation not yet
/// touched and, on Linux, advised onto 2 MiB pages (`madvise(MADV_HUGEPAGE)`,
/// as Stockfish does for its transposition table): where transparent huge
/// pages are granted only on request (the `madvise` setting, common on
/// servers), a buffer on 4 KiB pages makes every random read a page walk
/// too, and the walks' share of the caches varies from process to process.
/// Without the grant, or off Linux, it stays on 4 KiB pages. The hash
/// perft's table and the bench matrix's cache-pressure buffer use it.
pub fn huge_page_vec<T>(capacity: usize) -> Vec<T> {
    let v: Vec<T> = Vec::with_capacity(capacity);
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = v.as_ptr() as usize;
        let end = start + v.capacity() * core::mem::size_of::<T>();
        // madvise wants a page-aligned start; the first and last partial
        // pages stay as they are.
        let (first, last) = (start.next_multiple_of(PAGE), end / PAGE * PAGE);
        if last > first {
            // SAFETY: [first, last) lies inside the vector's own allocation,
            // which madvise neither reads nor writes: MADV_HUGEPAGE only
            // changes how its not yet touched pages will be backed.
            let _ = unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                )
            };
        }
    }
    v
}

/// The share of `memory` that Linux backs with 2 MiB pages now (the
/// `AnonHugePages` of its mappings in `/proc/self/smaps`, over its size):
/// whether [`huge_page_vec`]'s request was granted, which moves random-read
/// figures from process to process. `None` off Linux or if `smaps` cannot
/// be read.
pub fn huge_page_share<T>(memory: &[T]) -> Option<f64> {
    let start = memory.as_ptr() as usize;
    let end = start + core::mem::size_of_val(memory);
    if !cfg!(target_os = "linux") || end == start {
        return None;
    }
    let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
    let (mut huge_kib, mut inside) = (0usize, false);
    for line in smaps.lines() {
        // A mapping's header: `start-end perms offset dev inode [path]`.
        if let Some((from, to)) = line
            .split_whitespace()
            .next()
            .and_then(|range| range.split_once('-'))
            .and_then(|(a, b)| {
                Some((
                    usize::from_str_radix(a, 16).ok()?,
                    usize::from_str_radix(b, 16).ok()?,
                ))
            })
        {
            inside = from < end && start < to;
        } else if inside && let Some(kib) = line.strip_prefix("AnonHugePages:") {
            huge_kib += kib
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<usize>()
                .ok()?;
        }
    }
    Some((huge_kib as f64 * 1024.0 / (end - start) as f64).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn the_huge_page_share_of_a_buffer_is_a_fraction_on_linux() {
        // 4 MiB: two 2 MiB pages (the wasm32 tests' runtime crashed at exit
        // after a 64 MiB buffer).
        let mut v: Vec<u64> = huge_page_vec(1 << 19);
        v.resize(1 << 19, 1);
        let share = huge_page_share(&v);
        match cfg!(target_os = "linux") && std::path::Path::new("/proc/self/smaps").exists() {
            true => {
                let share = share.expect("smaps is readable");
                assert!((0.0..=1.0).contains(&share), "{share}");
            }
            false => assert_eq!(share, None),
        }
        assert_eq!(huge_page_share::<u64>(&[]), None);
    }

    #[test]
    fn a_table_is_a_power_of_two_of_slots_and_stores_what_it_is_given() {
        let mut table = HashTable::new(3);
        assert_eq!(table.bytes(), 2 << 20);
        let board = &Position::startpos().board;
        let key = HashTable::key(board, 4);
        assert_ne!(
            key,
            HashTable::key(board, 5),
            "the depth is part of the key"
        );
        assert_eq!(table.probe(key), None);
        table.store(key, 197_281);
        assert_eq!(table.probe(key), Some(197_281));
        table.clear();
        assert_eq!(table.probe(key), None);
    }
}
