//! The SVG bar chart (plotters, SVG backend only: the text stays text, so no
//! system fonts are needed to draw it).

use crate::markdown::Keys;
use hq_bench_format::{Results, RowKind};
use plotters::coord::ranged1d::SegmentValue::{CenterOf, Exact};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

/// A panel: its title, and the run and workload of its queen figures.
pub type Panel<'a> = (String, &'a Results, &'a str);

/// Each row kind's colour, and its name in the legend.
const KINDS: [(RowKind, RGBColor, &str); 6] = {
    use RowKind::*;
    [
        (Backend, RGBColor(31, 119, 180), "hq backend"),
        (Facade, RGBColor(23, 190, 207), "hq facade"),
        (Job, RGBColor(44, 160, 44), "hq job"),
        (
            Reference,
            RGBColor(90, 90, 90),
            "reference (PEXT, Kogge-Stone)",
        ),
        (Peer, RGBColor(255, 127, 14), "peer crate"),
        (Floor, RGBColor(190, 190, 190), "buffer reads only"),
    ]
};

/// Draws horizontal bars: one per key (top to bottom) in each panel (side by
/// side), with its value and ratio to PEXT printed at its end.
pub fn draw(path: &Path, title: &str, keys: &Keys, panels: &[Panel]) -> anyhow::Result<()> {
    let labels: Vec<_> = keys
        .iter()
        .map(|(c, m)| format!("{} [{c}]", m.name))
        .collect();
    let (n, columns) = (keys.len().max(1), panels.len().max(1) as u32);
    let label_width = 12 + 7 * labels.iter().map(String::len).max().unwrap_or(10) as u32;
    let (width, height) = (label_width + 330 * columns + 20, 120 + 18 * n as u32);
    let root = SVGBackend::new(path, (width, height)).into_drawing_area();
    let draw = || -> Result<(), DrawingAreaErrorKind<_>> {
        root.fill(&WHITE)?;
        let root = root.titled(title, ("sans-serif", 18))?;
        let (body, legend) = root.split_vertically(height - 60);
        // The first panel also carries the row labels.
        let (first, rest) = body.split_horizontally(label_width + 330);
        let mut areas = vec![first];
        if panels.len() > 1 {
            areas.extend(rest.split_evenly((1, panels.len() - 1)));
        }
        for (p, ((caption, r, workload), area)) in panels.iter().zip(&areas).enumerate() {
            // Each measured key's place (the first on top), kind and figure.
            let bars = (0..n).rev().zip(keys).filter_map(|(y, (c, m))| {
                Some((y, m.kind, r.figure(c, &m.name, "queen", workload)?))
            });
            let bars: Vec<_> = bars.collect();
            let max = bars
                .iter()
                .map(|(_, _, f)| f.mlookups_per_s)
                .fold(1.0, f64::max);
            let mut chart = ChartBuilder::on(area)
                .caption(caption, ("sans-serif", 14))
                .margin_right(10)
                .x_label_area_size(30)
                .y_label_area_size(if p == 0 { label_width } else { 0 })
                .build_cartesian_2d(0.0..max * 1.45, (0..n).into_segmented())?;
            chart
                .configure_mesh()
                .disable_y_mesh()
                .light_line_style(TRANSPARENT)
                .x_labels(6)
                .x_label_formatter(&|v| format!("{v:.0}"))
                .y_labels(n)
                .y_label_formatter(&|v| match v {
                    CenterOf(y) if *y < labels.len() => labels[n - 1 - y].clone(),
                    _ => String::new(),
                })
                .x_desc("million lookups / s")
                .label_style(("sans-serif", 11))
                .draw()?;
            chart.draw_series(bars.iter().map(|&(y, kind, f)| {
                let colour = KINDS.iter().find(|k| k.0 == kind).map_or(BLACK, |k| k.1);
                let ends = [(0.0, Exact(y)), (f.mlookups_per_s, Exact(y + 1))];
                let mut bar = Rectangle::new(ends, colour.filled());
                bar.set_margin(2, 2, 0, 0);
                bar
            }))?;
            let anchor = Pos::new(HPos::Left, VPos::Center);
            chart.draw_series(bars.iter().map(|&(y, _, f)| {
                let ratio = f.ratio_to_pext.map(|r| format!(" ({r:.2}x)"));
                let text = format!("{:.0}{}", f.mlookups_per_s, ratio.unwrap_or_default());
                let style = TextStyle::from(("sans-serif", 10).into_font()).pos(anchor);
                Text::new(text, (f.mlookups_per_s + max * 0.02, CenterOf(y)), style)
            }))?;
        }
        let mut x = 20;
        for (_, colour, name) in KINDS {
            legend.draw(&Rectangle::new([(x, 20), (x + 14, 34)], colour.filled()))?;
            legend.draw(&Text::new(name, (x + 20, 22), ("sans-serif", 12)))?;
            x += 30 + 7 * name.len() as i32;
        }
        root.present()
    };
    draw().map_err(|e| anyhow::anyhow!("chart {}: {e:?}", path.display()))
}

/// The columns of the choice chart: workload, title, and the entry point
/// whose backend serves it.
const CHOICE_COLUMNS: [(&str, &str, hq::Entry); 8] = [
    ("throughput", "throughput", hq::Entry::Single),
    ("engine-throughput", "engine loop", hq::Entry::Single),
    ("cache", "cache pressure", hq::Entry::Single),
    ("latency", "latency", hq::Entry::Latency),
    ("batch", "batch", hq::Entry::Batch),
    ("setwise-few", "set-wise 1-2", hq::Entry::Setwise),
    ("setwise-typical", "set-wise 4-6", hq::Entry::Setwise),
    ("setwise-many", "set-wise 10-14", hq::Entry::Setwise),
];

/// One bar of the choice chart: its label, colour, figure and interval.
struct Bar {
    label: String,
    colour: RGBColor,
    value: f64,
    low: f64,
    high: f64,
}

/// The runtime build's bars for `piece` in column `workload`: the class's
/// choice (the backend row its plan runs there), the best backend row and
/// the best peer row, each with its interval.
fn choice_bars(r: &Results, piece: &str, workload: &str, entry: hq::Entry) -> Vec<Bar> {
    let Some(meta) = r.meta_of("runtime") else {
        return Vec::new();
    };
    let plan: Option<hq::Plan> = meta.plan.as_deref().and_then(|p| p.parse().ok());
    let slider = hq::Slider::ALL.into_iter().find(|s| s.name() == piece);
    let chosen = plan.zip(slider).map(|(p, s)| {
        let (low, high) = match workload {
            "setwise-few" => (1, 2),
            "setwise-typical" => (4, 6),
            _ => (10, 14),
        };
        // A set-wise loop over single lookups covering the column.
        let looped = entry == hq::Entry::Setwise && p.setwise_loop.get(s) >= high;
        let _ = low;
        match looped {
            true => p.get(hq::Entry::Single, s),
            false => p.get(entry, s),
        }
        .name()
    });
    let figure = |row: &str| r.figure("runtime", row, piece, workload);
    let best = |kind: RowKind| {
        let rows = meta.rows.iter().filter(|m| m.kind == kind);
        rows.filter_map(|m| figure(&m.name))
            .max_by(|a, b| a.mlookups_per_s.total_cmp(&b.mlookups_per_s))
    };
    let colour = |kind| KINDS.iter().find(|k| k.0 == kind).map_or(BLACK, |k| k.1);
    let bar = |what: &str, kind, f: &hq_bench_format::Figure| {
        let i = f
            .interval
            .unwrap_or(hq_bench_format::Interval::exact(f.mlookups_per_s));
        Bar {
            label: format!("{piece} {what}: {} {:.0}", f.row, f.mlookups_per_s),
            colour: colour(kind),
            value: f.mlookups_per_s,
            low: i.low,
            high: i.high,
        }
    };
    let mut bars = Vec::new();
    bars.extend(
        chosen
            .and_then(figure)
            .map(|f| bar("choice", RowKind::Facade, f)),
    );
    bars.extend(best(RowKind::Backend).map(|f| bar("best backend", RowKind::Backend, f)));
    bars.extend(best(RowKind::Peer).map(|f| bar("best peer", RowKind::Peer, f)));
    bars
}

/// Draws the choice chart: a panel per column, in each for every piece the
/// class's choice, the best backend and the best peer of the runtime
/// build, each a bar with its 95 % interval as a whisker.
pub fn draw_choices(path: &Path, title: &str, r: &Results) -> anyhow::Result<()> {
    let pieces = ["queen", "rook", "bishop"];
    let (panel_w, panel_h) = (330u32, 60 + 3 * 3 * 18);
    let (width, height) = (4 * panel_w + 20, 2 * panel_h + 90);
    let root = SVGBackend::new(path, (width, height)).into_drawing_area();
    let draw = || -> Result<(), DrawingAreaErrorKind<_>> {
        root.fill(&WHITE)?;
        let root = root.titled(title, ("sans-serif", 16))?;
        let (body, legend) = root.split_vertically(height - 50);
        let areas = body.split_evenly((2, 4));
        for ((workload, caption, entry), area) in CHOICE_COLUMNS.iter().zip(&areas) {
            let bars: Vec<Bar> = pieces
                .iter()
                .flat_map(|p| choice_bars(r, p, workload, *entry))
                .collect();
            let n = bars.len().max(1);
            let max = bars.iter().map(|b| b.high).fold(1.0, f64::max);
            let mut chart = ChartBuilder::on(area)
                .caption(*caption, ("sans-serif", 13))
                .margin(6)
                .x_label_area_size(22)
                .build_cartesian_2d(0.0..max * 1.05, (0..n).into_segmented())?;
            chart
                .configure_mesh()
                .disable_y_mesh()
                .disable_y_axis()
                .light_line_style(TRANSPARENT)
                .x_labels(5)
                .x_label_formatter(&|v| format!("{v:.0}"))
                .label_style(("sans-serif", 10))
                .draw()?;
            let y = |i: usize| n - 1 - i;
            chart.draw_series(bars.iter().enumerate().map(|(i, b)| {
                let mut bar = Rectangle::new(
                    [(0.0, Exact(y(i))), (b.value, Exact(y(i) + 1))],
                    b.colour.mix(0.75).filled(),
                );
                bar.set_margin(2, 2, 0, 0);
                bar
            }))?;
            // The whiskers: the interval, with caps.
            chart.draw_series(bars.iter().enumerate().flat_map(|(i, b)| {
                let at = CenterOf(y(i));
                [
                    PathElement::new(vec![(b.low, at.clone()), (b.high, at.clone())], BLACK),
                    PathElement::new(vec![(b.low, Exact(y(i))), (b.low, Exact(y(i) + 1))], BLACK),
                    PathElement::new(
                        vec![(b.high, Exact(y(i))), (b.high, Exact(y(i) + 1))],
                        BLACK,
                    ),
                ]
            }))?;
            let anchor = Pos::new(HPos::Left, VPos::Center);
            chart.draw_series(bars.iter().enumerate().map(|(i, b)| {
                let style = TextStyle::from(("sans-serif", 9).into_font()).pos(anchor);
                Text::new(b.label.clone(), (max * 0.01, CenterOf(y(i))), style)
            }))?;
        }
        let mut x = 20;
        for (kind, name) in [
            (RowKind::Facade, "the class's choice"),
            (RowKind::Backend, "best backend"),
            (RowKind::Peer, "best peer"),
        ] {
            let colour = KINDS.iter().find(|k| k.0 == kind).map_or(BLACK, |k| k.1);
            legend.draw(&Rectangle::new([(x, 15), (x + 14, 29)], colour.filled()))?;
            legend.draw(&Text::new(name, (x + 20, 17), ("sans-serif", 12)))?;
            x += 40 + 7 * name.len() as i32;
        }
        legend.draw(&Text::new(
            "whiskers: 95 % intervals (medians over fresh processes); million lookups / s",
            (x + 20, 17),
            ("sans-serif", 12),
        ))?;
        root.present()
    };
    draw().map_err(|e| anyhow::anyhow!("chart {}: {e:?}", path.display()))
}
