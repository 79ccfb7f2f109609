//! The renderer's print sizes (issue 45 items 5-6), split from `renderer.rs` (the 600-line rule):
//! a declared figure width is the printed width of both backends, a declared marker size is drawn
//! in both, and a last x tick label at the axis end is not clipped.

mod common;

use common::figures::{attr, axis, draw_fig91, figure, series, Drawn};
use common::DAHL;
use fric_plot::AxisSpec;

/// A figure of two panels declared `width: double`, panel a with points drawn at
/// `marker_size: 3` (pt) and panel b with the default.
fn double_width() -> String {
    let run = &DAHL[..DAHL.find("panels:").unwrap()];
    format!(
        "{run}{}",
        r#"layout: {rows: 1, cols: 2, width: double}
panels:
  - id: a
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: dahl, x: u, y: F, window: {periods: [1, 2]}, style: points, marker_size: 3}
  - id: b
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: dahl, x: u, y: F, window: {periods: [1, 2]}, style: points}
"#
    )
}

/// [`double_width`] drawn: the SVG, its drawing units per SVG pixel (the viewBox's width over
/// the width) and the PGFPlots file.
fn draw_double_width() -> (String, f64, String) {
    let Drawn { svg, tex, .. } = draw_fig91(&double_width());
    let head = &svg[..svg.find('>').unwrap()];
    let unit = attr(head, "viewBox")[2] / attr(head, "width")[0];
    (svg, unit, tex)
}

/// The axes frame of panel `id` in drawing units: left, top, right, bottom.
fn frame_of(svg: &str, id: &str) -> [f64; 4] {
    let g = &svg[svg.find(&format!(r#"data-panel="{id}""#)).unwrap()..];
    let v = attr(g, "data-frame");
    [v[0], v[1], v[2], v[3]]
}

/// `<key>=<number>cm` values in order of appearance.
fn cms(tex: &str, key: &str) -> Vec<f64> {
    tex.match_indices(&format!("{key}="))
        .filter_map(|(i, _)| {
            let rest = &tex[i + key.len() + 1..];
            rest[..rest.find("cm")?].parse().ok()
        })
        .collect()
}

/// `layout.width: double` prints the figure 7.16 in wide in both backends: the SVG's width at
/// the print scale, and the PGFPlots axes and the gap between them spanning what the SVG's
/// frames span (within 0.02 cm).
#[test]
fn a_declared_width_is_the_printed_width_of_both_backends() {
    let (svg, unit, tex) = draw_double_width();
    let head = &svg[..svg.find('>').unwrap()];
    let inches = attr(head, "width")[0] / fric_plot::PX_PER_IN;
    assert!((inches - 7.16).abs() < 0.01, "the SVG prints {inches} in wide");
    let (a, b) = (frame_of(&svg, "a"), frame_of(&svg, "b"));
    let cm_per_px = fric_report::pgf::CM_PER_PX;
    let svg_span = (b[2] - a[0]) / unit * cm_per_px;
    let widths = cms(&tex, "width");
    let hsep = cms(&tex, "horizontal sep");
    assert!(widths.len() >= 2 && hsep.len() == 1, "{tex}");
    let pgf_span = widths[0] + hsep[0] + widths[1];
    assert!(
        (pgf_span - svg_span).abs() < 0.02,
        "PGFPlots spans {pgf_span} cm, the SVG's frames {svg_span} cm"
    );
    assert!(pgf_span < 7.16 * 2.54, "{pgf_span} cm is wider than the text");
}

/// A declared `marker_size` (pt) is the marker's radius in the SVG (at 2 px per pt) and its
/// `mark size` in PGFPlots; a series without one keeps the style's default (1.5 pt).
#[test]
fn a_declared_marker_size_is_drawn_in_both_backends() {
    let (svg, unit, tex) = draw_double_width();
    let radius = |panel: &str| {
        let g = &svg[svg
            .find(&format!(r#"data-panel="{panel}""#))
            .unwrap_or_else(|| panic!("{svg}"))..];
        let c = &g[g.find("<circle").unwrap()..];
        attr(c, "r")[0] / unit
    };
    let px_per_pt = fric_plot::style::PX_PER_PT;
    assert!(
        (radius("a") - 3.0 * px_per_pt).abs() < 1e-9,
        "panel a: r = {} px",
        radius("a")
    );
    assert!(
        (radius("b") - fric_plot::style::MARKER_PX).abs() < 1e-9,
        "panel b: r = {} px",
        radius("b")
    );
    assert!(tex.contains("mark=*, mark size=3pt"), "{tex}");
    assert!(tex.contains("mark=*, mark size=1.5pt"), "{tex}");
}

/// The last x tick label at the right end of its axis (report Fig 3.15's 0.016; here 1.0015,
/// six characters, centred on the frame's right edge) is drawn whole: the right margin grows
/// for it (code review L10). The same with a superscript in the y label, which widens the left
/// margin the growth is computed with.
#[test]
fn a_last_x_tick_label_at_the_axis_end_is_not_clipped() {
    for y_unit in [None, Some("kg-m^2")] {
        let x: Vec<f64> = (0..=50).map(|i| 0.999 + 0.0025 * f64::from(i) / 50.0).collect();
        let y: Vec<f64> = x.iter().map(|v| (v - 1.0) * 1e3).collect();
        let mut f = figure(vec![series(x, y, fric_plot::style::SOLID, "ramp")], false);
        f.panels[0].x = axis("u", Some([0.999, 1.0015]));
        f.panels[0].y = AxisSpec {
            unit: y_unit.map(Into::into),
            ..axis("J", Some([-1.0, 1.5]))
        };
        let svg = fric_plot::render_svg(&f).unwrap();
        let s = String::from_utf8(svg.clone()).unwrap();
        let w = attr(&s, "width")[0] as f32;
        let boxes = fric_plot::text_boxes(&svg).unwrap();
        let last = boxes.iter().find(|b| b.text == "1.0015").unwrap_or_else(|| {
            panic!(
                "no tick label 1.0015 in {:?}",
                boxes.iter().map(|b| &b.text).collect::<Vec<_>>()
            )
        });
        assert!(
            last.rect[2] <= w,
            "`1.0015` at {:?} clipped by the width {w}",
            last.rect
        );
    }
}

/// The SVG's inset tick labels (`fric-inset-tick` texts) along x (centred) or y (right-aligned).
fn inset_tick_labels(svg: &str, anchor: &str) -> Vec<String> {
    svg.match_indices(r#"class="fric-inset-tick""#)
        .map(|(i, _)| &svg[i..])
        .filter(|t| t[..t.find('>').unwrap()].contains(&format!(r#"text-anchor="{anchor}""#)))
        .map(|t| t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()].to_string())
        .collect()
}

/// An inset's ticks in PGFPlots are the SVG's, labels and all: on a region 0.01 m wide
/// (4.99 … 5 m) PGFPlots' own labels, rounded to two decimals, printed 4.99, 5, 5 (report
/// Fig 5.27's inset printed 0.18 five times).
#[test]
fn an_insets_pgfplots_ticks_are_the_svgs() {
    let run = &DAHL[..DAHL.find("panels:").unwrap()];
    let manifest = format!(
        "{run}{}",
        r#"panels:
  - id: main
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    insets:
      - {x: [4.99, 5.0], y: [1.485, 1.5], corner: lower-right, size: 0.3}
    series:
      - {run: dahl, x: u, y: F, window: {periods: [1, 2]}}
"#
    );
    let Drawn { svg, tex, .. } = draw_fig91(&manifest);
    let inset = &tex[tex.find("\\end{groupplot}").unwrap()..];
    for (xy, anchor) in [('x', "middle"), ('y', "end")] {
        let labels = inset_tick_labels(&svg, anchor);
        assert!(labels.len() >= 2, "{xy}: {labels:?}");
        let tex_labels: Vec<String> = labels
            .iter()
            .map(|l| format!("{{${}$}}", l.replace('\u{2212}', "-")))
            .collect();
        let expected = format!("{xy}ticklabels={{{}}}", tex_labels.join(","));
        assert!(inset.contains(&expected), "{expected} not in {inset}");
    }
}
