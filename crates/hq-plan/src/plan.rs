//! What serves each entry point and piece: a [`Plan`], and its text form
//! (`HQ_CHOICE`, `hq::set_plan`, a calibration's output).

use crate::registry::Backend;
use core::fmt;
pub use hq_core::Slider;

/// The entry points a plan chooses for.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Entry {
    /// `rook_attacks` ... (throughput: independent lookups).
    Single,
    /// `*_attacks_batch`.
    Batch,
    /// `*_attacks_setwise`.
    Setwise,
    /// `latency::rook_attacks` ... (each occupancy depends on the previous
    /// result).
    Latency,
}

impl Entry {
    /// Every entry point, in the text form's order.
    pub const ALL: [Entry; 4] = [Entry::Single, Entry::Batch, Entry::Setwise, Entry::Latency];

    /// `single`, `batch`, `setwise` or `latency`.
    pub const fn name(self) -> &'static str {
        match self {
            Entry::Single => "single",
            Entry::Batch => "batch",
            Entry::Setwise => "setwise",
            Entry::Latency => "latency",
        }
    }
}

/// One value per slider piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Pieces<T = Backend> {
    /// Rook attacks.
    pub rook: T,
    /// Bishop attacks.
    pub bishop: T,
    /// Queen attacks (and line attacks).
    pub queen: T,
}

impl<T: Copy + PartialEq> Pieces<T> {
    /// The same value for every piece.
    pub const fn all(value: T) -> Pieces<T> {
        Pieces {
            rook: value,
            bishop: value,
            queen: value,
        }
    }

    /// The value of `slider`.
    pub const fn get(&self, slider: Slider) -> T {
        match slider {
            Slider::Rook => self.rook,
            Slider::Bishop => self.bishop,
            Slider::Queen => self.queen,
        }
    }

    /// Sets the value of `slider`.
    pub const fn set(&mut self, slider: Slider, value: T) {
        match slider {
            Slider::Rook => self.rook = value,
            Slider::Bishop => self.bishop = value,
            Slider::Queen => self.queen = value,
        }
    }

    /// The one value of every piece, if they agree.
    pub fn uniform(&self) -> Option<T> {
        (self.rook == self.bishop && self.bishop == self.queen).then_some(self.rook)
    }
}

impl<T: Copy + PartialEq + fmt::Display> fmt::Display for Pieces<T> {
    /// One value where the pieces agree (`pext`), else
    /// `pext (rook) / avx512 (bishop) / pext (queen)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.uniform() {
            Some(v) => write!(f, "{v}"),
            None => write!(
                f,
                "{} (rook) / {} (bishop) / {} (queen)",
                self.rook, self.bishop, self.queen
            ),
        }
    }
}

/// The backend of each entry point and piece: what the free functions, the
/// latency functions and the jobs run. A class's plan
/// ([`crate::classes::CLASSES`]), a calibration's (`hq::calibrate`),
/// `HQ_CHOICE` or `hq::set_plan` give one.
///
/// Its text form lists `entry=backend` items, an entry whose pieces differ
/// as `entry.rook=…,entry.bishop=…,entry.queen=…`, and `setwise.loop=N`:
///
/// ```
/// use hq_plan::{Backend, Plan};
///
/// let plan = Plan::all(Backend::ScalarRankTable);
/// let text = plan.to_string();
/// assert_eq!(
///     text,
///     "single=scalar-rank-table,batch=scalar-rank-table,setwise=scalar-rank-table,\
///      setwise.loop=0,latency=scalar-rank-table"
/// );
/// # #[cfg(feature = "std")]
/// assert_eq!(text.parse::<Plan>().unwrap(), plan);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Plan {
    /// `rook_attacks`, `bishop_attacks`, `queen_attacks` (and `line_attacks`,
    /// on the queen's backend).
    pub single: Pieces,
    /// `*_attacks_batch`.
    pub batch: Pieces,
    /// `*_attacks_setwise`.
    pub setwise: Pieces,
    /// Set-wise calls of a piece with at most this many sliders take the
    /// union of its single lookups instead (0: never; up to two without a
    /// loop): below the crossover a few of the fastest lookups beat a
    /// set-wise kernel.
    pub setwise_loop: Pieces<u32>,
    /// `hq::latency`.
    pub latency: Pieces,
}

impl Plan {
    /// The same backend everywhere.
    pub const fn all(backend: Backend) -> Plan {
        Plan {
            single: Pieces::all(backend),
            batch: Pieces::all(backend),
            setwise: Pieces::all(backend),
            setwise_loop: Pieces::all(0),
            latency: Pieces::all(backend),
        }
    }

    /// The backends of `entry`.
    pub const fn entry(&self, entry: Entry) -> Pieces {
        match entry {
            Entry::Single => self.single,
            Entry::Batch => self.batch,
            Entry::Setwise => self.setwise,
            Entry::Latency => self.latency,
        }
    }

    /// The backend of `entry` for `slider`.
    pub const fn get(&self, entry: Entry, slider: Slider) -> Backend {
        self.entry(entry).get(slider)
    }

    /// Sets the backend of `entry` for `slider`.
    pub const fn set(&mut self, entry: Entry, slider: Slider, backend: Backend) {
        match entry {
            Entry::Single => self.single.set(slider, backend),
            Entry::Batch => self.batch.set(slider, backend),
            Entry::Setwise => self.setwise.set(slider, backend),
            Entry::Latency => self.latency.set(slider, backend),
        }
    }

    /// The plan with `backend` for every piece of `entry`.
    pub const fn with_entry(mut self, entry: Entry, backend: Backend) -> Plan {
        let mut i = 0;
        while i < 3 {
            self.set(entry, Slider::ALL[i], backend);
            i += 1;
        }
        self
    }

    /// The plan with `backend` for `entry` and `slider`.
    pub const fn with(mut self, entry: Entry, slider: Slider, backend: Backend) -> Plan {
        self.set(entry, slider, backend);
        self
    }

    /// The plan with set-wise calls of up to `n` sliders by single lookups.
    pub const fn with_setwise_loop(mut self, n: u32) -> Plan {
        self.setwise_loop = Pieces::all(n);
        self
    }

    /// Every backend the plan names.
    pub fn backends(&self) -> impl Iterator<Item = Backend> + '_ {
        Entry::ALL
            .into_iter()
            .flat_map(move |e| Slider::ALL.map(move |s| self.get(e, s)))
    }
}

/// `key=value` where the pieces agree, else `key.rook=…,key.bishop=…,key.queen=…`.
fn write_items<T: Copy + PartialEq + fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    key: &str,
    pieces: Pieces<T>,
) -> fmt::Result {
    match pieces.uniform() {
        Some(v) => write!(f, "{key}={v}"),
        None => write!(
            f,
            "{key}.rook={},{key}.bishop={},{key}.queen={}",
            pieces.rook, pieces.bishop, pieces.queen
        ),
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, entry) in Entry::ALL.into_iter().enumerate() {
            f.write_str(if i > 0 { "," } else { "" })?;
            write_items(f, entry.name(), self.entry(entry))?;
            if entry == Entry::Setwise {
                f.write_str(",")?;
                write_items(f, "setwise.loop", self.setwise_loop)?;
            }
        }
        Ok(())
    }
}
