//! Tests of the whole renderer (drawing a figure).

use super::*;
use crate::panel::title_size;
use crate::ranges::log_floor;
use crate::ticks::{decade_label, ticks};
use fric_manifest::{LegendPos, Scale};

#[test]
fn a_long_title_is_shrunk_to_fit_its_panel() {
    register_font();
    let mut svg = String::new();
    let area = SVGBackend::with_string(&mut svg, (800 * K, 480 * K)).into_drawing_area();
    assert_eq!(title_size(&area, "short"), TITLE_SIZE * K);
    let long = "B&S with the printed parameters (the measured curve is not published)";
    let size = title_size(&area, long);
    assert!(size < TITLE_SIZE * K, "{size}");
    let (w, _) = area
        .estimate_text_size(long, &TextStyle::from(("sans-serif", size)))
        .unwrap();
    assert!(w <= (800 - 24) * K, "{w} px wide in {} px", (800 - 24) * K);
}

#[test]
fn colour_tables_agree() {
    let names: Vec<&str> = COLORS.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, COLOR_NAMES);
    assert_eq!(&names[..PALETTE_NAMES.len()], PALETTE_NAMES);
    assert_eq!(series_color(9, None), "blue");
    assert_eq!(series_color(0, Some("grey")), "gray");
    assert_eq!(series_color(2, Some("teal")), "red");
    assert_eq!(color_rgb("lightgrey"), Some((200, 200, 200)));
}

fn fig() -> FigureData {
    let x: Vec<f64> = (0..50).map(|i| i as f64 / 10.0).collect();
    let y: Vec<f64> = x.iter().map(|v| v.sin()).collect();
    FigureData {
        rows: 1,
        cols: 2,
        panel_width: 320,
        panel_height: 240,
        companions: vec![],
        panels: vec![
            PanelData {
                id: "a".into(),
                title: Some("(a)".into()),
                x: AxisSpec {
                    label: "u".into(),
                    unit: Some("m".into()),
                    scale: Scale::Linear,
                    range: None,
                },
                y: AxisSpec {
                    label: "F".into(),
                    unit: Some("N".into()),
                    scale: Scale::Linear,
                    range: None,
                },
                legend: LegendPos::UpperRight,
                equal_aspect: false,
                insets: vec![],
                series: vec![SeriesData {
                    x: x.clone(),
                    y: y.clone(),
                    y2: None,
                    style: crate::style::DASHED,
                    label: Some("sin".into()),
                    color: None,
                    arrows: 0,
                    point_labels: vec![],
                    marker_size: None,
                    results: false,
                }],
            },
            PanelData {
                id: "b".into(),
                title: None,
                x: AxisSpec {
                    label: "v".into(),
                    unit: None,
                    scale: Scale::Log,
                    range: None,
                },
                y: AxisSpec {
                    label: "y".into(),
                    unit: None,
                    scale: Scale::Linear,
                    range: Some([-2.0, 2.0]),
                },
                legend: LegendPos::None,
                equal_aspect: false,
                insets: vec![],
                series: vec![SeriesData {
                    x,
                    y: y.clone(),
                    y2: Some(y.iter().map(|v| v + 0.5).collect()),
                    style: crate::style::BAND,
                    label: None,
                    color: Some("gray".into()),
                    arrows: 0,
                    point_labels: vec![],
                    marker_size: None,
                    results: false,
                }],
            },
        ],
    }
}

/// Panels stacked in one column with the same x quantity share one x range and label it
/// once, at the bottom; side by side they each keep their own.
#[test]
fn stacked_time_histories_share_their_time_axis() {
    let mut f = fig();
    f.panels[1].x = f.panels[0].x.clone();
    f.panels[1].series[0].x = f.panels[1].series[0].x.iter().map(|v| v * 2.0).collect();
    let svg = |f: &FigureData| String::from_utf8(render_svg(f).unwrap()).unwrap();
    let frames = |s: &str| -> Vec<String> {
        s.match_indices("data-x=\"")
            .map(|(i, _)| s[i..i + s[i..].find("\" ").unwrap()].to_string())
            .collect()
    };
    let side = svg(&f);
    assert_eq!(side.matches(">u [m]</text>").count(), 2);
    assert_ne!(frames(&side)[0], frames(&side)[1]);
    f.rows = 2;
    f.cols = 1;
    let stacked = svg(&f);
    assert_eq!(
        stacked.matches(">u [m]</text>").count(),
        1,
        "one x label, at the bottom"
    );
    assert_eq!(frames(&stacked)[0], frames(&stacked)[1], "one x range");
    // A record 25 times longer below keeps both readable: each panel its own range and label.
    f.panels[1].series[0].x = f.panels[1].series[0].x.iter().map(|v| v * 25.0).collect();
    let apart = svg(&f);
    assert_eq!(apart.matches(">u [m]</text>").count(), 2);
    assert_ne!(frames(&apart)[0], frames(&apart)[1]);
}

#[test]
fn log_floors_cut_dips_through_zero_not_data() {
    // A smooth decay: every value shown.
    let smooth: Vec<f64> = (0..1000).map(|i| 10f64.powf(-(i as f64) / 250.0)).collect();
    assert_eq!(log_floor([smooth.as_slice()].into_iter()), Some(smooth[999].log10()));
    // |sin| through zero: the few samples near the zeros are cut a decade below the 2nd
    // percentile, not at 1e-16.
    let dips: Vec<f64> = (0..1000).map(|i| (i as f64 * 0.0314159).sin().abs()).collect();
    let f = log_floor([dips.as_slice()].into_iter()).unwrap();
    assert!(f > -3.5 && f < -1.0, "{f}");
}

/// Every log tick label equals the decade it stands at (they read 1e-2, 1e-2, 1e-2, 1e-3
/// when fractional exponents were printed with `{:.0}`).
#[test]
fn log_ticks_are_decades_labelled_as_powers_of_ten() {
    let (major, minor) = ticks(-6.3, -1.7, Scale::Log, 10);
    assert_eq!(major, vec![-6.0, -5.0, -4.0, -3.0, -2.0]);
    let labels: Vec<String> = major.iter().map(|v| decade_label(*v)).collect();
    assert_eq!(labels, ["10⁻⁶", "10⁻⁵", "10⁻⁴", "10⁻³", "10⁻²"]);
    for v in &major {
        let k: i64 = decade_label(*v)[2..]
            .chars()
            .map(|c| match c {
                '⁻' => '-',
                c => char::from_digit("⁰¹²³⁴⁵⁶⁷⁸⁹".chars().position(|d| d == c).unwrap() as u32, 10).unwrap(),
            })
            .collect::<String>()
            .parse()
            .unwrap();
        assert_eq!(
            10f64.powi(k as i32),
            10f64.powf(*v),
            "label {} at {v}",
            decade_label(*v)
        );
    }
    // Minor ticks at 2..9 times each decade, inside the range.
    let (lo, hi) = (10f64.powf(-6.3), 10f64.powf(-1.7));
    let expected: Vec<f64> = (-7..=-2)
        .flat_map(|k| (2..10).map(move |m| m as f64 * 10f64.powi(k)))
        .filter(|x| (lo..=hi).contains(x))
        .collect();
    assert_eq!(minor.len(), expected.len());
    for (v, x) in minor.iter().zip(&expected) {
        assert!((10f64.powf(*v) / x - 1.0).abs() < 1e-12, "{v} vs {x}");
    }
    // Less than a decade: the minor ticks are labelled.
    let (major, _) = ticks(2f64.log10(), 8f64.log10() + 0.01, Scale::Log, 10);
    let labels: Vec<String> = major.iter().map(|v| decade_label(*v)).collect();
    assert_eq!(labels, ["2·10⁰", "3·10⁰", "4·10⁰", "5·10⁰", "6·10⁰", "7·10⁰", "8·10⁰"]);
}

#[test]
fn renders_deterministically() {
    let a = render_png(&fig()).unwrap();
    let b = render_png(&fig()).unwrap();
    assert_eq!(a, b);
    assert_eq!(&a[1..4], b"PNG");
    let s = String::from_utf8(render_svg(&fig()).unwrap()).unwrap();
    assert!(s.starts_with("<svg") && s.contains("u [m]"));
}

/// Dark pixels of a PNG (RGB, 8 bit).
fn dark_pixels(png_bytes: &[u8]) -> usize {
    let mut dec = png::Decoder::new(std::io::Cursor::new(png_bytes)).read_info().unwrap();
    let mut buf = vec![0; dec.output_buffer_size()];
    let info = dec.next_frame(&mut buf).unwrap();
    buf[..info.buffer_size()]
        .chunks_exact(3)
        .filter(|p| p.iter().all(|&c| c < 100))
        .count()
}

fn one_series(x: Vec<f64>, y: Vec<f64>) -> FigureData {
    let mut f = fig();
    f.cols = 1;
    f.panels.truncate(1);
    f.panels[0].legend = LegendPos::None;
    f.panels[0].x.range = Some([-6.0, 6.0]);
    f.panels[0].y.range = Some([-2.0, 2.0]);
    f.panels[0].series = vec![SeriesData {
        x,
        y,
        y2: None,
        style: crate::style::SOLID,
        label: None,
        color: None,
        arrows: 0,
        point_labels: vec![],
        marker_size: None,
        results: false,
    }];
    f
}

/// A series that runs back over itself (a reversal stroke, thesis Fig 1.11(a) at u = ±5) is
/// inked where it runs, whatever it overlaps: plotters' bitmap backend filled a thick
/// polyline as one polygon, and the parts drawn twice cancelled out.
#[test]
fn strokes_that_run_back_over_themselves_stay_inked() {
    let up_down = one_series(vec![-5.0, 5.0, 5.0, 5.0, -5.0], vec![-1.5, -1.5, 1.5, -1.5, -1.5]);
    let up_only = one_series(vec![-5.0, 5.0, 5.0], vec![-1.5, -1.5, 1.5]);
    let (a, b) = (
        dark_pixels(&render_png(&up_down).unwrap()),
        dark_pixels(&render_png(&up_only).unwrap()),
    );
    assert!(
        a as f64 >= 0.97 * b as f64,
        "{a} dark pixels with the stroke drawn back, {b} without"
    );
}

/// A panel of `t` against `peak`·sin²(πt), its y axis a force in N (automatic ranges).
fn force_panel(peak: f64) -> PanelData {
    let t: Vec<f64> = (0..=200).map(|i| f64::from(i) / 100.0).collect();
    let y = t
        .iter()
        .map(|v| peak * (std::f64::consts::PI * v).sin().powi(2))
        .collect();
    let mut p = one_series(t, y).panels.remove(0);
    p.x.range = None;
    p.y.range = None;
    p.y.unit = Some("N".into());
    p
}

/// The y powers of ten and the second panel's y tick labels of two force panels side by side.
fn group_of(peaks: [f64; 2]) -> ((i32, i32), Vec<String>) {
    let mut f = one_series(vec![], vec![]);
    f.cols = 2;
    f.panels = peaks.iter().map(|p| force_panel(*p)).collect();
    let d = render(&f).unwrap();
    let labels = d.panels[1].ticks.1.iter().map(|(_, l)| l.clone()).collect();
    ((d.panels[0].powers.1, d.panels[1].powers.1), labels)
}

/// A quantity's shared unit gives way where an axis would print more than three zeros after the
/// point: report Fig 3.4's g(v) − 2 N panel (a 2.5 nN dip) beside the F panel's mN printed
/// 0 … −0.0000025 mN; three zeros (Fig 3.18(a)'s ±0.0003 rad beside 0.05 rad) keep the group's.
#[test]
fn a_group_unit_gives_way_where_it_costs_more_than_three_zeros() {
    let (powers, labels) = group_of([1e-3, -2.5e-9]);
    assert_eq!(powers, (-3, -9), "mN beside nN");
    assert!(labels.iter().all(|l| !l.contains("0.0")), "{labels:?}");
    assert!(labels.iter().any(|l| l == "\u{2212}2"), "{labels:?}");
    let (powers, labels) = group_of([0.05, 3e-4]);
    assert_eq!(powers, (0, 0), "the group's N: {labels:?}");
    assert!(labels.iter().any(|l| l == "0.0003"), "{labels:?}");
    let (powers, _) = group_of([0.05, 5e-5]);
    assert_eq!(powers, (0, -6), "four zeros: µN");
}

/// A legend below the axes that is scaled down to the panel's width (an entry wider than the
/// panel) takes its scaled height: the figure ends a margin under it, not under its unscaled
/// height (report 5.27: 289 drawing units blank under the legend, of 2720).
#[test]
fn a_scaled_legend_below_leaves_no_blank_band() {
    register_font();
    let mut f = fig();
    f.cols = 1;
    f.panels.truncate(1);
    let long = "ω = 1.5 crossing of Re G = k_p (upper); intersection −1/N(a*, ω*), ω* = 1.989 (lower), and more";
    for k in 0..5 {
        let mut s = f.panels[0].series[0].clone();
        s.label = Some(format!("{long} {k}"));
        f.panels[0].series.push(s);
    }
    let svg = String::from_utf8(render_svg(&f).unwrap()).unwrap();
    let attr = |name: &str| -> Vec<f64> {
        let at = svg.find(&format!("{name}=\"")).unwrap_or_else(|| panic!("no {name}")) + name.len() + 2;
        svg[at..at + svg[at..].find('"').unwrap()]
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect()
    };
    let legend = attr("data-legend");
    let height = attr("viewBox")[3];
    assert!(
        svg.contains("scale("),
        "the legend is not scaled: the test does not test"
    );
    let blank = height - legend[3];
    assert!(
        blank <= 12.0 * K as f64,
        "{blank} drawing units blank under the legend ({legend:?}, height {height})"
    );
}

/// One panel of report 4.8's panel size, and times over 80…100 s.
fn report_4_8_panel() -> (FigureData, Vec<f64>) {
    register_font();
    let mut f = fig();
    f.cols = 1;
    f.panels.truncate(1);
    (f.panel_width, f.panel_height) = (640, 480);
    (f, (0..=400).map(|i| 80.0 + i as f64 * 0.05).collect())
}

/// Every text box of a rendered SVG apart from every other by at least half a pixel (as the
/// fidelity test asks of the project's figures): the pairs that are not.
fn overlapping_texts(svg: &[u8]) -> Vec<String> {
    let boxes = text_boxes(svg).unwrap();
    let mut bad = Vec::new();
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let (p, q) = (a.rect, b.rect);
            let apart = p[2] <= q[0] + 0.5 || q[2] <= p[0] + 0.5 || p[3] <= q[1] + 0.5 || q[3] <= p[1] + 0.5;
            if !apart {
                bad.push(format!("`{}` {p:?} overlaps `{}` {q:?}", a.text, b.text));
            }
        }
    }
    bad
}

/// The two collisions left in the project's figures at 2026-12-06 (fidelity.rs KNOWN_TEXT), in
/// one synthetic panel: an inset whose first x tick label (`88.6`) sits on its lowest y tick
/// label (`0.5`) at the frame's corner (report 4.8, 4.9; ruderman-paper 7's log inset alike), and
/// two legend rows with a sub- and a superscript each (thesis 5.8, 1.1 px apart too few).
#[test]
fn inset_corner_and_scripted_legend_rows_do_not_collide() {
    let (mut f, t) = report_4_8_panel();
    let p = &mut f.panels[0];
    let s = p.series[0].clone();
    p.series = ["f_{+}^{-1} (y ≥ y_c)", "f_{-}^{-1} (y ≤ y_c)"]
        .iter()
        .enumerate()
        .map(|(k, l)| SeriesData {
            x: t.clone(),
            y: t.iter().map(|v| 0.6 + 0.1 * k as f64 * (v - 89.0)).collect(),
            label: Some(l.to_string()),
            ..s.clone()
        })
        .collect();
    p.insets = vec![fric_manifest::Inset {
        x: [88.6, 89.2],
        y: [0.5, 0.65],
        corner: fric_manifest::Corner::LowerLeft,
        size: 0.35,
    }];
    let svg = render_svg(&f).unwrap();
    let bad = overlapping_texts(&svg);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The corner's x label is the one cleared (x has four labels, y two); its tick stays.
    let s = String::from_utf8(svg).unwrap();
    assert!(
        !s.contains(">88.6<") && s.contains(">88.8<") && s.contains(">0.5<"),
        "inset labels"
    );
}

/// Report 4.8's and 4.9's upper insets (rev59d): a region left of an inset, level with it. With
/// the y tick labels on the inset's left the lines could not reach its left corners and ended
/// ~80 px left of the frame, at the corner of the labels' box; the labels stand on the inset's
/// right instead, and both lines end on the frame's left corners, clear of every label.
#[test]
fn an_inset_beside_its_region_takes_its_y_labels_to_the_far_side() {
    let (mut f, t) = report_4_8_panel();
    let p = &mut f.panels[0];
    p.series[0].y = t.iter().map(|v| (v - 90.0) / 10.0).collect();
    p.series[0].x = t;
    p.insets = vec![fric_manifest::Inset {
        x: [86.0, 86.5],
        y: [0.5, 0.6],
        corner: fric_manifest::Corner::UpperRight,
        size: 0.35,
    }];
    let d = render(&f).unwrap();
    let inset = &d.panels[0].insets[0];
    assert!(inset.right_labels, "y labels right of the inset");
    assert_eq!(inset.connectors.len(), 2);
    for c in &inset.connectors {
        assert!(
            c.past.is_none() && c.anchor.ends_with("west") && !c.anchor.starts_with("outer"),
            "on the frame's left corners: {c:?}"
        );
    }
    let bad = overlapping_texts(&d.svg);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    let s = String::from_utf8(d.svg).unwrap();
    assert!(
        s.contains(r#"data-y-labels="right""#)
            && s.contains(r#"text-anchor="start" font-family="sans-serif" font-size"#)
    );
}
