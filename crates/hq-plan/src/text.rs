//! The text form of a [`Plan`]: read back what `Display` writes.

use crate::error::BackendError;
use crate::plan::{Entry, Plan, Slider};
use crate::registry::Backend;
use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

/// Which items a text gave: each entry's pieces, then `setwise.loop`'s.
type Seen = [[bool; 3]; 5];

impl Plan {
    /// Applies the items of `text` (the [`Plan`] text form, any subset
    /// of it, in any order; spaces around items are ignored) over this plan.
    pub fn apply(&mut self, text: &str) -> Result<(), BackendError> {
        self.apply_tracked(text, &mut [[false; 3]; 5])
    }

    fn apply_tracked(&mut self, text: &str, seen: &mut Seen) -> Result<(), BackendError> {
        let bad = |item: &str, why: &str| BackendError::BadPlan {
            item: item.to_string(),
            why: why.to_string(),
        };
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| bad(item, "expected key=value"))?;
            let (group, piece) = match key.trim().split_once('.') {
                Some((g, p)) => (g.trim(), Some(p.trim())),
                None => (key.trim(), None),
            };
            let value = value.trim();
            // The pieces an item names (all three without one).
            let pieces = |piece: Option<&str>| match piece {
                None => Ok(Slider::ALL.to_vec()),
                Some(name) => Slider::ALL
                    .into_iter()
                    .find(|s| s.name() == name)
                    .map(|s| std::vec![s])
                    .ok_or_else(|| bad(item, "the pieces are rook, bishop and queen")),
            };
            if let (Some(rest), "setwise") = (piece.and_then(|p| p.strip_prefix("loop")), group) {
                let count: u32 = value
                    .parse()
                    .map_err(|_| bad(item, "setwise.loop takes a slider count (0: never)"))?;
                let piece = match rest.strip_prefix('.') {
                    None if rest.is_empty() => None,
                    Some(name) => Some(name.trim()),
                    None => return Err(bad(item, "expected setwise.loop or setwise.loop.<piece>")),
                };
                for slider in pieces(piece)? {
                    self.setwise_loop.set(slider, count);
                    seen[4][slider as usize] = true;
                }
                continue;
            }
            let entry = Entry::ALL
                .into_iter()
                .find(|e| e.name() == group)
                .ok_or_else(|| bad(item, "the entries are single, batch, setwise and latency"))?;
            let backend = Backend::from_name(value).map_err(|e| bad(item, &e.to_string()))?;
            for slider in pieces(piece)? {
                self.set(entry, slider, backend);
                seen[entry as usize][slider as usize] = true;
            }
        }
        Ok(())
    }
}

/// Parses the whole text form: every entry and piece, and
/// `setwise.loop`, must be given ([`Plan::apply`] takes a subset).
impl core::str::FromStr for Plan {
    type Err = BackendError;
    fn from_str(text: &str) -> Result<Plan, BackendError> {
        let mut plan = Plan::all(Backend::Classic);
        let mut seen = [[false; 3]; 5];
        plan.apply_tracked(text, &mut seen)?;
        let names = Entry::ALL
            .map(Entry::name)
            .into_iter()
            .chain(["setwise.loop"]);
        let missing: Vec<String> = names
            .zip(seen)
            .flat_map(|(key, seen)| {
                Slider::ALL
                    .into_iter()
                    .filter(move |&s| !seen[s as usize])
                    .map(move |s| format!("{key}.{s}"))
            })
            .collect();
        if !missing.is_empty() {
            return Err(BackendError::BadPlan {
                item: text.into(),
                why: format!("it does not give {}", missing.join(", ")),
            });
        }
        Ok(plan)
    }
}
