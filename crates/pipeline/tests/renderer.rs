//! The renderer's promises (issue 45 items 2-4), tested on figures drawn here: a circle drawn
//! with equal aspect is round, arrowheads are solid and off the extrema, every line style's
//! legend sample shows the pattern its series is drawn with (also for a series covered by a
//! coincident one), published points are drawn with their labels, PGFPlots draws the same
//! styles and arrowheads, and a manifest's hostile `$...$` is refused at its line.

mod common;

use common::figures::{attr, axis, draw_fig91, drew_one, figure, series, Drawn};
use common::{workspace, DAHL};
use fric_plot::{FigureData, SeriesData};

fn circle(n: usize, turns: f64) -> (Vec<f64>, Vec<f64>) {
    (0..=n)
        .map(|i| {
            let a = turns * std::f64::consts::TAU * i as f64 / n as f64;
            (a.cos(), a.sin())
        })
        .unzip()
}

fn svg(f: &FigureData) -> String {
    String::from_utf8(fric_plot::render_svg(f).unwrap()).unwrap()
}

/// A unit circle drawn with equal aspect spans as many pixels across as up.
#[test]
fn a_circle_is_round_with_equal_aspect() {
    let (x, y) = circle(720, 1.0);
    let units_per_px = |s: &str| {
        let f = attr(s, "data-frame");
        let (xr, yr) = (attr(s, "data-x"), attr(s, "data-y"));
        ((xr[1] - xr[0]) / (f[2] - f[0]), (yr[1] - yr[0]) / (f[3] - f[1]))
    };
    let (ux, uy) = units_per_px(&svg(&figure(
        vec![series(x.clone(), y.clone(), fric_plot::style::SOLID, "C")],
        true,
    )));
    assert!((ux / uy - 1.0).abs() < 1e-9, "{ux} vs {uy} units per pixel");
    // Without the request, the 640 × 400 panel draws it as an ellipse.
    let (ux, uy) = units_per_px(&svg(&figure(vec![series(x, y, fric_plot::style::SOLID, "C")], false)));
    assert!((ux / uy - 1.0).abs() > 0.2, "{ux} vs {uy}");
}

/// Every `d="..."` path of class `fric-arrow`.
fn arrows(s: &str) -> Vec<&str> {
    s.match_indices("<path class=\"fric-arrow\"")
        .map(|(i, _)| &s[i..i + s[i..].find("/>").unwrap()])
        .collect()
}

/// Arrowheads on a dashed loop are filled and solid, one per place on a loop drawn three
/// times over, and none sits on the loop's extrema in x or y.
#[test]
fn arrowheads_are_solid_and_off_the_extrema() {
    let (x, y) = circle(3 * 720, 3.0);
    let mut s = series(x, y, fric_plot::style::DASHED, "loop");
    s.arrows = 6;
    let f = figure(vec![s], true);
    let out = svg(&f);
    let heads = arrows(&out);
    assert!(!heads.is_empty() && heads.len() <= 6, "{} heads", heads.len());
    let mut tips = Vec::new();
    for h in &heads {
        assert!(!h.contains("dasharray"), "dashed arrowhead: {h}");
        assert!(h.contains("fill=\"#"), "{h}");
        let d = &h[h.find("d=\"M").unwrap() + 4..];
        let xy: Vec<f64> = d.split(['L', ' ']).take(2).map(|v| v.parse().unwrap()).collect();
        tips.push((xy[0], xy[1]));
    }
    // The loop's extrema, in drawing units, from the frame and the equalised ranges.
    let fr = attr(&out, "data-frame");
    let (xr, yr) = (attr(&out, "data-x"), attr(&out, "data-y"));
    let px = |x: f64, y: f64| {
        (
            fr[0] + (x - xr[0]) / (xr[1] - xr[0]) * (fr[2] - fr[0]),
            fr[3] - (y - yr[0]) / (yr[1] - yr[0]) * (fr[3] - fr[1]),
        )
    };
    for e in [px(1.0, 0.0), px(0.0, 1.0), px(-1.0, 0.0), px(0.0, -1.0)] {
        for t in &tips {
            assert!(
                (t.0 - e.0).hypot(t.1 - e.1) > 10.0 * 4.0,
                "a head at {t:?} on the extremum {e:?}"
            );
        }
    }
    for (i, a) in tips.iter().enumerate() {
        for b in &tips[i + 1..] {
            assert!(
                (a.0 - b.0).hypot(a.1 - b.1) > 8.0 * 4.0,
                "two heads at one place: {a:?} {b:?}"
            );
        }
    }
    // PGFPlots draws the same heads, solid.
    let drawn = fric_plot::render(&f).unwrap();
    assert_eq!(drawn.arrows[0][0].len(), heads.len());
}

/// A dash pattern (`None`: drawn solid).
type Dash = Option<Vec<f64>>;

/// The dash patterns of each series' first path, in order, and of the legend samples, by label.
fn patterns(s: &str) -> (Vec<Dash>, Vec<Dash>) {
    let groups: Vec<&str> = s.split("<g class=\"fric-series\"").skip(1).collect();
    let dash = |el: &str| -> Dash {
        let i = el.find("stroke-dasharray=\"")? + 18;
        Some(
            el[i..i + el[i..].find('"').unwrap()]
                .split(' ')
                .map(|v| v.parse().unwrap())
                .collect(),
        )
    };
    let drawn = groups.iter().map(|g| dash(&g[..g.find("</g>").unwrap()])).collect();
    // Legend samples by their entry's label (entries may flow in columns below the axes).
    let legend = &s[s.find("class=\"fric-legend\"").unwrap()..];
    let mut by_label: Vec<(String, Dash)> = legend
        .split("<path d=\"M")
        .skip(1)
        .map(|p| {
            let t = &p[p.find("<text").unwrap()..];
            let label = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
            (label.to_string(), dash(&p[..p.find("/>").unwrap()]))
        })
        .collect();
    by_label.sort_by_key(|(l, _)| l.clone());
    let samples = by_label.into_iter().map(|(_, d)| d).collect();
    (drawn, samples)
}

/// Ratios of a dash pattern to its first dash (a drawn pattern is stretched to end on a dash).
fn ratios(p: &[f64]) -> Vec<f64> {
    p.iter().map(|v| v / p[0]).collect()
}

/// Five line styles in one panel: each drawn in its declared pattern, each legend sample in the
/// same, no two alike; a series covered by a coincident one keeps its pattern and its sample.
#[test]
fn legend_samples_match_the_drawn_styles() {
    let styles = [
        fric_plot::style::SOLID,
        fric_plot::style::DASHED,
        fric_plot::style::DOTTED,
        fric_plot::style::DASH_DOT,
        fric_plot::style::DASH_DOT_DOT,
    ];
    let x: Vec<f64> = (0..200).map(|i| -1.0 + i as f64 / 100.0).collect();
    let mut all: Vec<SeriesData> = styles
        .iter()
        .enumerate()
        .map(|(k, st)| {
            let y = x.iter().map(|v| 0.15 * k as f64 - 0.9 + 0.1 * v).collect();
            series(x.clone(), y, st, &format!("s{k}"))
        })
        .collect();
    // A solid series exactly on the dash-dot one: the dash-dot one is covered.
    all.push(series(x.clone(), all[3].y.clone(), fric_plot::style::SOLID, "z on top"));
    let out = svg(&figure(all, false));
    let (drawn, samples) = patterns(&out);
    assert_eq!(samples.len(), 6);
    for (k, st) in styles.iter().enumerate() {
        let declared = st.dash();
        match (&drawn[k], &samples[k]) {
            (None, None) => assert!(declared.is_empty(), "{st:?} drawn solid"),
            (Some(d), Some(s)) => {
                let want = ratios(declared);
                for (a, b) in ratios(d).iter().zip(&want).chain(ratios(s).iter().zip(&want)) {
                    assert!((a - b).abs() < 1e-2, "{st:?}: {d:?} / {s:?} against {declared:?}");
                }
                assert_eq!(d.len(), declared.len());
            }
            other => panic!("{st:?}: drawn and sample differ: {other:?}"),
        }
    }
    assert!(
        out.contains("(coincides at this scale)"),
        "the covering series says so in the legend, at this panel's scale only"
    );
}

/// Published points: one open marker per point, each with its label.
#[test]
fn published_points_are_drawn_with_their_labels() {
    let mut p = series(
        vec![-0.5, 0.0, 0.5],
        vec![0.1, 0.2, 0.3],
        fric_plot::style::PUBLISHED,
        "Table 2.1",
    );
    p.point_labels = vec![Some("1".into()), Some("2".into()), Some("σ0".into())];
    let out = svg(&figure(vec![p], false));
    let group = &out[out.find("data-style=\"published\"").unwrap()..];
    assert_eq!(group[..group.find("</g>").unwrap()].matches("<rect").count(), 3);
    assert_eq!(out.matches("class=\"fric-point-label\"").count(), 3);
    assert!(out.contains("σ<tspan baseline-shift=\"-0.3em\" font-size=\"72%\">0</tspan>"));
}

/// `common::DAHL` with a hostile caption and a published point without its seed line (line 19),
/// up to its metrics.
fn hostile() -> String {
    let head = &DAHL[..DAHL.find("metrics:").unwrap()];
    head.replace(r#""test figure""#, r#"'see $\input{/etc/passwd}$'"#)
        .replace(
            ", window: {periods: [1, 2]}, label: LABEL}",
            "}\n      - style: published\n        points: [{x: 1, y: 2, label: \"$x^{2$\", line: 0}]",
        )
}

/// `$\input{/etc/passwd}$` in a caption is refused at the caption's line; a published point
/// without its seed line at the point's.
#[test]
fn hostile_math_and_unsourced_points_are_refused_at_their_lines() {
    let ws = workspace(&[("thesis/fig9.1.yaml", &hostile())]);
    let loaded = fric_pipeline::load(ws.path());
    assert_eq!(loaded.invalid.len(), 1);
    let d = &loaded.invalid[0].diagnostics;
    let input = d
        .iter()
        .find(|d| d.message.contains("\\input"))
        .expect("\\input refused");
    assert_eq!(input.line, 3, "{input}");
    let point = d
        .iter()
        .find(|d| d.message.contains("seed line"))
        .expect("point refused");
    assert_eq!(point.line, 19, "{point}");
    // `\sgn`, which LaTeX does not define, is refused at its line with what to write instead.
    let head = &DAHL[..DAHL.find("metrics:").unwrap()];
    let sgn = head.replace(r#""test figure""#, r#"'$F_c \sgn(v)$'"#);
    let loaded = fric_pipeline::load(workspace(&[("thesis/fig9.1.yaml", &sgn)]).path());
    let d = &loaded.invalid[0].diagnostics;
    assert_eq!((d.len(), d[0].line), (1, 3), "{d:#?}");
    assert!(d[0].message.contains("\\operatorname{sgn}"), "{}", d[0]);
}

/// The rectangle `[left, top, right, bottom]` of attribute `name` in the first element whose
/// text from `from` on has it.
fn rect_attr(s: &str, from: &str, name: &str) -> [f64; 4] {
    let v = attr(&s[s.find(from).unwrap()..], name);
    [v[0], v[1], v[2], v[3]]
}

/// An inset redraws its region inside the panel's axes, at its corner, with the region's
/// frame marked on the panel, the series in the region drawn in the inset, and the legend clear
/// of it.
#[test]
fn an_inset_redraws_its_region_inside_the_panel() {
    let (x, y) = circle(720, 1.0);
    let mut f = figure(vec![series(x, y, fric_plot::style::SOLID, "circle")], false);
    f.panels[0].insets = vec![fric_manifest::Inset {
        x: [0.9, 1.1],
        y: [-0.1, 0.1],
        corner: fric_manifest::Corner::LowerLeft,
        size: 0.3,
    }];
    let s = svg(&f);
    assert_eq!(s.matches("class=\"fric-inset\"").count(), 1, "one inset");
    let panel = rect_attr(&s, "class=\"fric-panel\"", "data-frame");
    let inset = rect_attr(&s, "class=\"fric-inset\"", "data-frame");
    // Inside the panel's axes, in its lower-left quarter, and 0.3 of its size.
    assert!(
        inset[0] > panel[0] && inset[2] < 0.5 * (panel[0] + panel[2]),
        "{inset:?} in {panel:?}"
    );
    assert!(
        inset[3] < panel[3] && inset[1] > 0.5 * (panel[1] + panel[3]),
        "{inset:?} in {panel:?}"
    );
    assert!(((inset[2] - inset[0]) / (panel[2] - panel[0]) - 0.3).abs() < 1e-9);
    let xr = attr(&s[s.find("class=\"fric-inset\"").unwrap()..], "data-x");
    assert_eq!(xr, vec![0.9, 1.1], "the inset shows the region");
    // The region's frame on the panel: x from 0.9 to 1.1 of the panel's [-1.1, 1.1].
    let r = attr(&s[s.find("fric-inset-region").unwrap()..], "x")[0];
    let want = panel[0] + (0.9 + 1.1) / 2.2 * (panel[2] - panel[0]);
    assert!((r - want).abs() < 0.2, "region frame at {r}, want {want}");
    // The circle's piece through (1, 0) is drawn in the inset, within its frame.
    let group = &s[s.find("class=\"fric-inset-series\"").unwrap()..];
    let d = &group[group.find(" d=\"").unwrap() + 4..];
    let pts: Vec<f64> = d[..d.find('"').unwrap()]
        .split(['M', 'L', ' '])
        .filter_map(|t| t.parse().ok())
        .collect();
    assert!(pts.len() >= 20, "the inset draws the curve: {pts:?}");
    for p in pts.chunks(2) {
        assert!(p[0] >= inset[0] - 0.1 && p[0] <= inset[2] + 0.1 && p[1] >= inset[1] - 0.1 && p[1] <= inset[3] + 0.1);
    }
    // The legend does not cover the inset.
    let l = rect_attr(&s, "class=\"fric-panel\"", "data-legend");
    let apart = l[2] < inset[0] || l[0] > inset[2] || l[3] < inset[1] || l[1] > inset[3];
    assert!(apart, "legend {l:?} over inset {inset:?}");
}

/// A region far smaller than a marker (report 5.24's close-up, 5.27's zoom) is framed on the
/// panel at its true size, and two thin connectors join the frame's corners to the same corners
/// of the inset's box (its frame with its tick labels), neither crossing the inset (issue 45
/// item 1: "a region redrawn at larger scale, with its frame marked on the parent").
#[test]
fn an_inset_region_is_framed_at_its_size_and_joined_to_the_inset() {
    let (x, y) = circle(720, 1.0);
    let mut f = figure(vec![series(x, y, fric_plot::style::SOLID, "circle")], false);
    f.panels[0].insets = vec![fric_manifest::Inset {
        x: [-0.01, 0.01],
        y: [0.995, 1.005],
        corner: fric_manifest::Corner::LowerRight,
        size: 0.3,
    }];
    let s = svg(&f);
    let panel = rect_attr(&s, "class=\"fric-panel\"", "data-frame");
    let inset = rect_attr(&s, "class=\"fric-inset\"", "data-frame");
    let at = &s[s.find("fric-inset-region").unwrap()..];
    let (rx, ry, rw, rh) = (
        attr(at, "x")[0],
        attr(at, "y")[0],
        attr(at, "width")[0],
        attr(at, "height")[0],
    );
    let want = (0.02 / 2.2 * (panel[2] - panel[0]), 0.01 / 2.2 * (panel[3] - panel[1]));
    assert!(
        (rw - want.0).abs() < 0.2 && (rh - want.1).abs() < 0.2,
        "frame {rw} × {rh}, want {want:?}"
    );
    let path = &s[s.find("class=\"fric-inset-connector\"").expect("connectors drawn")..];
    let d: Vec<f64> = attr_str(path, "d")
        .split(['M', 'L', ' '])
        .filter_map(|t| t.parse().ok())
        .collect();
    assert_eq!(d.len(), 8, "two connectors: {d:?}");
    let corners = [(rx, ry), (rx + rw, ry), (rx + rw, ry + rh), (rx, ry + rh)];
    for c in d.chunks(4) {
        let near = |p: (f64, f64), q: (f64, f64)| (p.0 - q.0).abs() < 0.11 && (p.1 - q.1).abs() < 0.11;
        assert!(
            corners.iter().any(|&q| near((c[0], c[1]), q)),
            "starts at a frame corner: {c:?}"
        );
        // It ends at the inset's box (left of and below its frame, where its labels are) and no
        // point of it lies inside the inset's frame.
        for k in 0..=100 {
            let t = k as f64 / 100.0;
            let (px, py) = (c[0] + t * (c[2] - c[0]), c[1] + t * (c[3] - c[1]));
            let inside = px > inset[0] + 0.5 && px < inset[2] - 0.5 && py > inset[1] + 0.5 && py < inset[3] - 0.5;
            assert!(!inside, "connector {c:?} crosses the inset {inset:?}");
        }
    }
}

/// The text of attribute `name` of the first element in `s`.
fn attr_str<'a>(s: &'a str, name: &str) -> &'a str {
    let i = s.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
    &s[i..i + s[i..].find('"').unwrap()]
}

/// Two panels of one figure: u in metres (±5 m) and a thousandth of it, F a thousandth of the
/// force in both; a third series over the last half period. `common::DAHL`'s run with two
/// post steps, and its own panels.
fn units() -> String {
    let run = &DAHL[..DAHL.find("panels:").unwrap()];
    format!(
        "{run}{}",
        r#"    post:
      - {name: u_small, op: scale, of: u, param: 0.001}
      - {name: F_small, op: scale, of: F, param: 0.001}
panels:
  - id: a
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: dahl, x: u, y: F_small, window: {periods: [1, 2]}}
      - {run: dahl, x: u, y: F_small, window: {last_periods: 0.5}, style: dashed}
  - id: b
    x: {label: u, unit: m}
    y: {label: F, unit: N}
    series:
      - {run: dahl, x: u_small, y: F_small, window: {periods: [1, 2]}}
"#
    )
}

/// The `<text>` contents of an SVG (tags inside them dropped).
fn texts(s: &str) -> Vec<String> {
    s.split("<text")
        .skip(1)
        .map(|t| {
            let body = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
            let mut out = String::new();
            let mut tag = false;
            for c in body.chars() {
                match c {
                    '<' => tag = true,
                    '>' => tag = false,
                    c if !tag => out.push(c),
                    _ => {}
                }
            }
            out
        })
        .collect()
}

/// Panels of one figure with one unit share its scaling (mN in both, m in both although one
/// panel alone would read mm), and PGFPlots prints the units and tick scaling the SVG does.
/// `last_periods` selects the last half period.
#[test]
fn panels_share_units_and_pgf_units_equal_the_svgs() {
    let Drawn { ws, svg, tex } = draw_fig91(&units());
    let figs = ws.path().join("figures/thesis");
    let labels: Vec<String> = texts(&svg).into_iter().filter(|t| t.contains('[')).collect();
    assert_eq!(labels.iter().filter(|t| *t == "u [m]").count(), 2, "{labels:?}");
    assert_eq!(labels.iter().filter(|t| *t == "F [mN]").count(), 2, "{labels:?}");
    // The SVG's units, printed by PGFPlots with the tick labels scaled as the SVG's.
    assert_eq!(tex.matches("xlabel={$u$ [m]}").count(), 2, "{tex}");
    assert_eq!(tex.matches("ylabel={$F$ [mN]}").count(), 2, "{tex}");
    assert_eq!(tex.matches("scaled x ticks=false").count(), 2, "{tex}");
    assert_eq!(tex.matches("scaled y ticks=base 10:3,").count(), 2, "{tex}");
    // The last half period: 200 of the 400 samples per period (drawn ones fewer, never more).
    let csv = std::fs::read_to_string(figs.join("fig9.1/a-2.csv")).unwrap();
    let full = std::fs::read_to_string(figs.join("fig9.1/a-1.csv")).unwrap();
    let (half, whole) = (csv.lines().count(), full.lines().count());
    assert!(half > 10 && half < whole, "{half} of {whole} rows");
}

/// A crowded figure: two panels with long tick labels (±12345.678), a title, a legend of
/// labels with sub- and superscripts and ligature-prone letters, and an inset.
fn crowded() -> FigureData {
    let (x, y) = circle(400, 1.0);
    let big: Vec<f64> = y.iter().map(|v| 12345.678 * v).collect();
    let mut a = series(x.clone(), big, fric_plot::style::SOLID, "F_f^l flow σ0 ffi");
    a.arrows = 2;
    let b = series(
        x.clone(),
        y.iter().map(|v| -0.5 * v).collect(),
        fric_plot::style::DASHED,
        "−x_{k−1}",
    );
    let mut f = figure(vec![a], false);
    f.cols = 2;
    f.panels[0].y = axis("F_f", None);
    f.panels[0].title = Some("(a) a long title with F_f^l and σ0 = 10^5".into());
    f.panels[0].insets = vec![fric_manifest::Inset {
        x: [0.9, 1.1],
        y: [-1500.0, 1500.0],
        corner: fric_manifest::Corner::LowerRight,
        size: 0.3,
    }];
    let mut p2 = f.panels[0].clone();
    p2.id = "b".into();
    p2.insets = vec![];
    p2.series = vec![b];
    p2.y = axis("θ̇", Some([-0.6, 0.6]));
    f.panels.push(p2);
    f
}

/// Every text of a crowded figure, as rasterised: inside the figure (no tick label clipped),
/// no two overlapping, and every typeset run (one script level) drawn with as many glyphs as its
/// characters less the font's standard ligatures inside a word of text, none joining two runs
/// (`fric_plot::TextBox::glyph_problems`; `F_f^l` once rasterised as "F_fl").
#[test]
fn no_text_is_clipped_overlapped_or_missing_glyphs() {
    let svg = fric_plot::render_svg(&crowded()).unwrap();
    let s = String::from_utf8(svg.clone()).unwrap();
    let (w, h) = (attr(&s, "width")[0] as f32, attr(&s, "height")[0] as f32);
    let boxes = fric_plot::text_boxes(&svg).unwrap();
    assert!(boxes.len() > 20, "{} texts", boxes.len());
    for b in &boxes {
        let r = b.rect;
        assert!(
            r[0] >= 0.0 && r[1] >= 0.0 && r[2] <= w && r[3] <= h,
            "`{}` at {r:?} clipped by {w} × {h}",
            b.text
        );
        let glyphs = b.glyph_problems();
        assert!(glyphs.is_empty(), "{glyphs:?}");
    }
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let (p, q) = (a.rect, b.rect);
            let apart = p[2] <= q[0] + 0.5 || q[2] <= p[0] + 0.5 || p[3] <= q[1] + 0.5 || q[3] <= p[1] + 0.5;
            assert!(apart, "`{}` {p:?} overlaps `{}` {q:?}", a.text, b.text);
        }
    }
}

/// Two of the text collisions the project's figures had (s54, issue 45): a figure without a
/// title whose top y tick sits at the top of the frame (its label was cut by the figure's top
/// edge, thesis Fig 1.4), and the lowest y tick label and the first x tick label at the frame's
/// corner ("−1.5" and "−1" overlapping, thesis Fig 1.3). (Legend rows with a sub- and a
/// superscript each, thesis Fig 5.8, still overlap by about 1 px: open, in fidelity's KNOWN_TEXT.)
#[test]
fn top_tick_and_corner_labels_stay_apart() {
    let x: Vec<f64> = (0..=100).map(|i| -1.0 + 0.02 * i as f64).collect();
    let low = |k: f64| x.iter().map(|v| -1.0 + k * v).collect::<Vec<f64>>();
    let a = series(x.clone(), low(0.3), fric_plot::style::SOLID, "upper");
    let b = series(x.clone(), low(-0.3), fric_plot::style::DASHED, "lower");
    let mut f = figure(vec![a, b], false);
    f.panel_height = 480;
    f.panels[0].x = axis("x", Some([-1.0, 1.0]));
    f.panels[0].y = axis("y", Some([-1.5, 1.5]));
    let svg = fric_plot::render_svg(&f).unwrap();
    let bad = common::drawn_checks::text_problems("synthetic", &svg);
    assert!(bad.is_empty(), "{bad:#?}");
}

/// A legend entry wider than its panel (thesis fig5.12's first entry) cannot wrap into columns:
/// the legend below the axes is scaled down and its box stays inside the figure.
#[test]
fn a_legend_wider_than_its_panel_stays_inside_the_figure() {
    let (x, y) = circle(360, 1.0);
    let long = "ω = 1 rad/s, E_diss = 0.740 J (published; closed loop 0.745 J), a label as wide as the panel and more";
    let f = figure(vec![series(x, y, fric_plot::style::SOLID, long)], false);
    let s = svg(&f);
    let view = attr(&s, "viewBox");
    let l = rect_attr(&s, "class=\"fric-panel\"", "data-legend");
    assert!(
        l[0] >= view[0] && l[1] >= view[1] && l[2] <= view[0] + view[2] && l[3] <= view[1] + view[3],
        "legend {l:?} leaves the figure {view:?}"
    );
    assert!(s.contains("scale("), "the legend is drawn scaled down");
}

/// Published points in the top right corner, at the right edge and at the top of the frame:
/// every label, as rasterised, stays inside the axes frame (flipped below or left of its
/// point), and PGFPlots anchors it on the same side.
#[test]
fn published_point_labels_stay_inside_the_frame() {
    let labels = ["(s_e, f_s) corner", "(s_p, f_k) right", "(top, f_k) top"];
    let mut p = series(
        vec![1.08, 1.08, 0.0],
        vec![1.08, 0.0, 1.08],
        fric_plot::style::PUBLISHED,
        "points",
    );
    p.point_labels = labels.iter().map(|l| Some(l.to_string())).collect();
    let f = figure(vec![p], false);
    let drawn = fric_plot::render(&f).unwrap();
    let s = String::from_utf8(drawn.svg.clone()).unwrap();
    let scale = attr(&s, "viewBox")[2] / attr(&s, "width")[0];
    let fr = rect_attr(&s, "class=\"fric-panel\"", "data-frame").map(|v| (v / scale) as f32);
    let boxes = fric_plot::text_boxes(&drawn.svg).unwrap();
    for l in labels {
        let plain = fric_plot::math::plain(l);
        let b = boxes
            .iter()
            .find(|b| b.text.replace(' ', "") == plain.replace(' ', ""))
            .unwrap_or_else(|| panic!("`{plain}` not drawn"));
        let r = b.rect;
        assert!(
            r[0] >= fr[0] && r[1] >= fr[1] && r[2] <= fr[2] && r[3] <= fr[3],
            "`{}` at {r:?} leaves the frame {fr:?}",
            b.text
        );
    }
    use fric_plot::LabelSide::*;
    assert_eq!(drawn.panels[0].label_sides[0], vec![BelowLeft, AboveLeft, BelowRight]);
}

/// Figure 9.3 draws F in thousandths (mN on its own, as in [`units`]) and names Figure 9.1
/// (`common::DAHL`, F in N) its companion: selected alone, it is drawn in N like its
/// companion, whose run is computed for it although it is not selected. A companion that is
/// not a manifest is refused at its line.
#[test]
fn companion_figures_share_their_units() {
    let own = units().replace("id: thesis/fig9.1", "id: thesis/fig9.3");
    let with = format!("{own}related:\n  - {{id: thesis/fig9.1, relation: companion-of}}\n");
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.3.yaml", &with)]);
    let mut o = fric_pipeline::Options::new(ws.path());
    o.only = vec!["thesis/fig9.3".into()];
    drew_one(&fric_pipeline::run(&o).unwrap());
    let svg = std::fs::read_to_string(ws.path().join("figures/thesis/fig9.3.svg")).unwrap();
    let labels: Vec<String> = texts(&svg).into_iter().filter(|t| t.starts_with("F [")).collect();
    assert_eq!(labels, vec!["F [N]", "F [N]"], "the companion's unit scaling");
    let bad = format!("{own}related:\n  - {{id: thesis/fig9.9, relation: companion-of}}\n");
    let ws = workspace(&[("thesis/fig9.3.yaml", &bad)]);
    let s = fric_pipeline::run(&fric_pipeline::Options::new(ws.path())).unwrap();
    let d = s
        .invalid
        .iter()
        .flat_map(|i| &i.diagnostics)
        .find(|d| d.message.contains("thesis/fig9.9"));
    let line = bad.lines().position(|l| l.contains("fig9.9")).unwrap() + 1;
    assert_eq!(d.map(|d| d.line), Some(line), "{:?}", s.invalid);
}
