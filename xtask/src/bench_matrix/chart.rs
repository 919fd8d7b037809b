//! The SVG bar chart (plotters, SVG backend only: the text stays text, so no
//! system fonts are needed to draw it).

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use std::path::Path;

/// One bar: the value and its ratio to PEXT, if any.
pub type Bar = Option<(f64, Option<f64>)>;

/// A panel: a title and one bar per row.
pub struct Panel {
    /// Over the panel.
    pub title: String,
    /// One per row (None: not measured).
    pub bars: Vec<Bar>,
}

/// The colour of a row kind.
fn colour(kind: &str) -> RGBColor {
    match kind {
        "backend" => RGBColor(31, 119, 180),
        "facade" => RGBColor(23, 190, 207),
        "job" => RGBColor(44, 160, 44),
        "reference" => RGBColor(90, 90, 90),
        "peer" => RGBColor(255, 127, 14),
        _ => RGBColor(190, 190, 190),
    }
}

/// Draws horizontal bars: one row per `labels` entry (top to bottom), one
/// panel per [`Panel`] side by side, with value and ratio printed at each bar.
pub fn draw(
    path: &Path,
    title: &str,
    labels: &[String],
    kinds: &[String],
    panels: &[Panel],
) -> anyhow::Result<()> {
    let rows = labels.len().max(1);
    let label_width = 12 + 7 * labels.iter().map(|l| l.len()).max().unwrap_or(10) as u32;
    let panel_width = 330u32;
    let width = label_width + panel_width * panels.len().max(1) as u32 + 20;
    let height = 120 + 18 * rows as u32;
    let e = |e: DrawingAreaErrorKind<_>| anyhow::anyhow!("chart {}: {e:?}", path.display());
    let root = SVGBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(e)?;
    let root = root.titled(title, ("sans-serif", 18)).map_err(e)?;
    let (body, legend) = root.split_vertically(height - 60);
    // The first panel also carries the row labels.
    let (first, rest) = body.split_horizontally(label_width + panel_width);
    let mut areas = vec![first];
    if panels.len() > 1 {
        areas.extend(rest.split_evenly((1, panels.len() - 1)));
    }
    for (p, (panel, area)) in panels.iter().zip(&areas).enumerate() {
        let max = panel
            .bars
            .iter()
            .flatten()
            .map(|b| b.0)
            .fold(1.0f64, f64::max);
        let mut chart = ChartBuilder::on(area)
            .caption(&panel.title, ("sans-serif", 14))
            .margin_right(10)
            .x_label_area_size(30)
            .y_label_area_size(if p == 0 { label_width } else { 0 })
            .build_cartesian_2d(0.0..max * 1.45, (0..rows).into_segmented())
            .map_err(e)?;
        let n = rows;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(TRANSPARENT)
            .x_labels(6)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_labels(n)
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) if *i < n => labels[n - 1 - *i].clone(),
                _ => String::new(),
            })
            .x_desc("million lookups / s")
            .label_style(("sans-serif", 11))
            .draw()
            .map_err(e)?;
        let bars = panel.bars.iter().enumerate().filter_map(|(i, bar)| {
            let (value, _) = (*bar)?;
            let y = n - 1 - i;
            let mut rect = Rectangle::new(
                [
                    (0.0, SegmentValue::Exact(y)),
                    (value, SegmentValue::Exact(y + 1)),
                ],
                colour(&kinds[i]).filled(),
            );
            rect.set_margin(2, 2, 0, 0);
            Some(rect)
        });
        chart.draw_series(bars).map_err(e)?;
        let texts = panel.bars.iter().enumerate().filter_map(|(i, bar)| {
            let (value, ratio) = (*bar)?;
            let y = n - 1 - i;
            let text = match ratio {
                Some(r) => format!("{value:.0} ({r:.2}x)"),
                None => format!("{value:.0}"),
            };
            Some(Text::new(
                text,
                (value + max * 0.02, SegmentValue::CenterOf(y)),
                TextStyle::from(("sans-serif", 10).into_font()).pos(text_anchor()),
            ))
        });
        chart.draw_series(texts).map_err(e)?;
    }
    let kinds_legend = [
        ("hq backend", "backend"),
        ("hq facade", "facade"),
        ("reference (PEXT, Kogge-Stone)", "reference"),
        ("peer crate", "peer"),
        ("buffer reads only", "floor"),
    ];
    let mut x = 20;
    for (name, kind) in kinds_legend {
        legend
            .draw(&Rectangle::new(
                [(x, 20), (x + 14, 34)],
                colour(kind).filled(),
            ))
            .map_err(e)?;
        legend
            .draw(&Text::new(name, (x + 20, 22), ("sans-serif", 12)))
            .map_err(e)?;
        x += 30 + 7 * name.len() as i32;
    }
    root.present().map_err(e)?;
    Ok(())
}

fn text_anchor() -> plotters::style::text_anchor::Pos {
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    Pos::new(HPos::Left, VPos::Center)
}
