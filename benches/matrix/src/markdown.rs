//! Markdown tables, the shared layer of the report, the comparison, the
//! chart's keys and the README's tables.

use hq_bench_format::RowMeta;
use std::{collections::HashSet, hash::Hash};
use tabled::settings::object::{Columns, Object as _, Rows};
use tabled::settings::{Alignment, Style, style::LineChar};
use tabled::{builder::Builder, grid::config::Offset};

/// A table line's cells.
pub(crate) type Line = Vec<String>;
/// (configuration, row): a line of a table, a bar of the chart.
pub(crate) type Keys<'a> = [(&'a str, &'a RowMeta)];

/// A Markdown table under the `|`-separated titles `head`; the columns from
/// `n` on (the figures) are right-aligned.
pub(crate) fn table(head: &str, rows: impl IntoIterator<Item = Line>, n: usize) -> String {
    let mut builder: Builder = rows.into_iter().collect();
    builder.insert_record(0, head.split('|'));
    let mut table = builder.build();
    table.with(Style::markdown());
    table.modify(Columns::new(n..), Alignment::right());
    let separator = Rows::one(1).intersect(Columns::new(n..));
    let colon = LineChar::horizontal(':', Offset::End(0));
    table.modify(separator, colon).to_string()
}

/// A table line: the `text` cells, then the `figures`.
pub(crate) fn line(text: &[&str], figures: impl IntoIterator<Item = String>) -> Line {
    let text = text.iter().map(|t| t.to_string());
    text.chain(figures).collect()
}

/// `text` as Markdown code.
pub(crate) fn code(text: &str) -> String {
    format!("`{text}`")
}

/// The items in first-seen order, without repeats.
pub(crate) fn distinct<T: Clone + Eq + Hash>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut seen = HashSet::new();
    items
        .into_iter()
        .filter(|x| seen.insert(x.clone()))
        .collect()
}
