//! The SVG bar chart (plotters, SVG backend only: the text stays text, so no
//! system fonts are needed to draw it).

use crate::report::Keys;
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
