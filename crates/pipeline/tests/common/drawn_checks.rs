//! Checks of the project's drawn figures that `fidelity.rs` runs over every figure (issue 45
//! item 9): the renderer tests' text checks, which `renderer.rs` runs on a synthetic crowded
//! figure (`no_text_is_clipped_overlapped_or_missing_glyphs`), and the describing-function zoom
//! figures' drawn crossings (item 7).

/// Every text of one SVG: inside the figure (no clipped tick label), each typeset run drawn with
/// its own glyphs, as many as its characters less the font's standard ligatures inside a word of
/// text (`fric_plot::TextBox::glyph_problems`: `F_f^l` once rasterised as "F_fl"), and no two
/// texts overlapping.
pub fn text_problems(name: &str, svg: &[u8]) -> Vec<String> {
    let s = String::from_utf8_lossy(svg);
    let head = &s[..s.find('>').unwrap()];
    let (w, h) = (
        super::figures::attr(head, "width")[0] as f32,
        super::figures::attr(head, "height")[0] as f32,
    );
    let boxes = fric_plot::text_boxes(svg).unwrap();
    let mut bad = Vec::new();
    for b in &boxes {
        let r = b.rect;
        if !(r[0] >= 0.0 && r[1] >= 0.0 && r[2] <= w && r[3] <= h) {
            bad.push(format!("{name}: `{}` at {r:?} clipped by {w} × {h}", b.text));
        }
        bad.extend(b.glyph_problems().into_iter().map(|g| format!("{name}: {g}")));
    }
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let (p, q) = (a.rect, b.rect);
            let apart = p[2] <= q[0] + 0.5 || q[2] <= p[0] + 0.5 || p[3] <= q[1] + 0.5 || q[3] <= p[1] + 0.5;
            if !apart {
                bad.push(format!("{name}: `{}` {p:?} overlaps `{}` {q:?}", a.text, b.text));
            }
        }
    }
    bad
}

/// The longest chord, as a fraction of the panel's diagonal, on which a describing-function
/// curve of a zoom figure may cross G's Nyquist plot. Derived: the zooms refine their curves
/// (`refine` 0.02: consecutive points differ by at most 0.02 in |ln N|, a chord of at most about
/// 2 % of |−1/N|, 0.35 N·m/rad near G's line Re = k_p = 0.18), which is 0.007 N·m/rad, under
/// 1 % of report Fig 5.24's diagonal (0.3 × 0.8 N·m/rad) and Fig 5.27's; 3 % leaves room for a
/// refinement stopped at its 12 halvings. Unrefined, Fig 5.24's crossings at ω = 1.9 and 2.0
/// were on chords of 16.5 % and 26 % (the s52 audit).
pub const CROSSING_CHORD: f64 = 0.03;

/// How far, as a fraction of the drawn region's diagonal (a panel, or an inset's region), a drawn
/// crossing of a describing-function curve with G may lie from the nearest mark, in a panel that
/// marks its crossings. Derived: a marked crossing is a vertex of the refined curve on G's line
/// Re = k_p (its amplitude bisected to 1e-12 relative), and G's plot is that line, so the polyline
/// crossing is the vertex up to rounding; 1e-3 of a diagonal is under a pixel of every panel and
/// inset the project draws (report Fig 5.24's panel is about 1000 px across, its inset about 300).
pub const MARK_DISTANCE: f64 = 1e-3;

/// The polyline segments of one drawn series (x, y columns; NaN breaks it).
fn segments(x: &[f64], y: &[f64]) -> Vec<[(f64, f64); 2]> {
    (1..x.len())
        .filter(|&i| [x[i - 1], y[i - 1], x[i], y[i]].iter().all(|v| v.is_finite()))
        .map(|i| [(x[i - 1], y[i - 1]), (x[i], y[i])])
        .collect()
}

/// Where segments `p` and `q` cross, if they do.
fn crossing(p: [(f64, f64); 2], q: [(f64, f64); 2]) -> Option<(f64, f64)> {
    let (d1, d2) = ((p[1].0 - p[0].0, p[1].1 - p[0].1), (q[1].0 - q[0].0, q[1].1 - q[0].1));
    let den = d1.0 * d2.1 - d1.1 * d2.0;
    if den == 0.0 {
        return None;
    }
    let (ex, ey) = (q[0].0 - p[0].0, q[0].1 - p[0].1);
    let t = (ex * d2.1 - ey * d2.0) / den;
    let u = (ex * d1.1 - ey * d1.0) / den;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then(|| (p[0].0 + t * d1.0, p[0].1 + t * d1.1))
}

/// Every crossing inside the axis ranges `xr`, `yr` of a describing-function curve (`df`: its
/// x, y columns) with G (`g`) lies on a chord of the curve no longer than [`CROSSING_CHORD`] of
/// the region's diagonal (lengths in axis fractions, as the region draws them) and, where the
/// panel marks crossings (`marks`: the marked points, x and y columns, NaN rows skipped), within
/// [`MARK_DISTANCE`] of a mark: a figure that marks its crossings marks every one. With `chord`
/// false (an inset's region of a panel that marks its crossings: magnified, the chord next to a
/// computed crossing is long, and the crossing itself is a computed point) only the mark is
/// asked for. The count of crossings checked is returned with the problems.
pub fn df_crossing_problems(
    name: &str,
    df: &[(&[f64], &[f64])],
    g: (&[f64], &[f64]),
    marks: Option<(&[f64], &[f64])>,
    chord_check: bool,
    xr: [f64; 2],
    yr: [f64; 2],
) -> (usize, Vec<String>) {
    let norm = |(x, y): (f64, f64)| ((x - xr[0]) / (xr[1] - xr[0]), (y - yr[0]) / (yr[1] - yr[0]));
    let inside = |(x, y): (f64, f64)| (0.0..=1.0).contains(&x) && (0.0..=1.0).contains(&y);
    let dist = |a: (f64, f64), b: (f64, f64)| ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt() / 2f64.sqrt();
    let gs = segments(g.0, g.1);
    let (mut n, mut bad) = (0, Vec::new());
    for (k, (x, y)) in df.iter().enumerate() {
        for s in segments(x, y) {
            for q in &gs {
                let Some(c) = crossing(s, *q) else { continue };
                if !inside(norm(c)) {
                    continue;
                }
                n += 1;
                if let Some((mx, my)) = marks {
                    let nearest = mx
                        .iter()
                        .zip(my)
                        .filter(|(x, y)| x.is_finite() && y.is_finite())
                        .map(|(x, y)| dist(norm((*x, *y)), norm(c)))
                        .fold(f64::INFINITY, f64::min);
                    if nearest > MARK_DISTANCE {
                        bad.push(format!(
                            "{name}: curve {} crosses G at {c:?}, no mark within {} of the region's diagonal (nearest {nearest:.2e})",
                            k + 1,
                            MARK_DISTANCE
                        ));
                    }
                }
                let chord = dist(norm(s[0]), norm(s[1]));
                if chord_check && chord > CROSSING_CHORD {
                    bad.push(format!(
                        "{name}: curve {} crosses G at {c:?} on a chord {:.1} % of the region's diagonal, from {:?} to {:?} (at most {} %)",
                        k + 1,
                        100.0 * chord,
                        s[0],
                        s[1],
                        100.0 * CROSSING_CHORD
                    ));
                }
            }
        }
    }
    (n, bad)
}

/// The DF zoom figures (a caption saying "zoom", a panel with describing-function curves and
/// G's Nyquist plot) of the workspace `opts`: per figure and panel, the drawn crossings checked
/// by [`df_crossing_problems`] on the series at full resolution (`export::series_in`, from the
/// run cache; the series files beside a figure are thinned to the ink, so a chord there may
/// stand for computed points within a pixel of it).
pub fn df_zoom_problems(opts: &fric_pipeline::Options) -> (usize, usize, Vec<String>) {
    let loaded = fric_pipeline::load(&opts.root);
    let (mut figs, mut n, mut bad) = (0, 0, Vec::new());
    for e in &loaded.entries {
        let m = &e.manifest;
        if m.panels.is_empty() || !m.source.caption.to_lowercase().contains("zoom") {
            continue;
        }
        let system = |run: &str| {
            m.runs
                .iter()
                .find(|r| r.id == run)
                .and_then(|r| r.system.clone())
                .unwrap_or_default()
        };
        let series = fric_pipeline::export::series_in(opts, &loaded, &m.id).unwrap();
        for p in &m.panels {
            let cols = |k: usize| {
                let name = format!("{}-{}", p.id, k + 1);
                let (_, c) = series
                    .iter()
                    .find(|s| s.0 == name)
                    .unwrap_or_else(|| panic!("{}: no {name}", m.id));
                (c[0].1.clone(), c[1].1.clone())
            };
            let df: Vec<(Vec<f64>, Vec<f64>)> = p
                .series
                .iter()
                .enumerate()
                .filter(|(_, s)| system(&s.run).starts_with("describing-function") && s.y == "im")
                .map(|(k, _)| cols(k))
                .collect();
            // The marked points of the describing-function runs, all in one list.
            let (mut mx, mut my) = (Vec::new(), Vec::new());
            for (k, _) in p
                .series
                .iter()
                .enumerate()
                .filter(|(_, s)| system(&s.run).starts_with("describing-function") && s.y == "mark_im")
            {
                let (x, y) = cols(k);
                mx.extend(x);
                my.extend(y);
            }
            let g: Vec<(Vec<f64>, Vec<f64>)> = p
                .series
                .iter()
                .enumerate()
                .filter(|(_, s)| system(&s.run) == "frequency-response" && s.style.0 != "points")
                .map(|(k, _)| cols(k))
                .collect();
            let (Some(xr), Some(yr), [g]) = (p.x.range, p.y.range, g.as_slice()) else {
                continue;
            };
            if df.is_empty() {
                continue;
            }
            figs += 1;
            let df: Vec<(&[f64], &[f64])> = df.iter().map(|(x, y)| (x.as_slice(), y.as_slice())).collect();
            let marks = (!mx.is_empty()).then_some((mx.as_slice(), my.as_slice()));
            let name = format!("{} panel {}", m.id, p.id);
            let (k, b) = df_crossing_problems(&name, &df, (&g.0, &g.1), marks, true, xr, yr);
            n += k;
            bad.extend(b);
            // Each inset's region, magnified: its crossings are counted again (one drawn twice).
            for (i, inset) in p.insets.iter().enumerate() {
                let name = format!("{name} inset {}", i + 1);
                let (k, b) = df_crossing_problems(&name, &df, (&g.0, &g.1), marks, marks.is_none(), inset.x, inset.y);
                n += k;
                bad.extend(b);
            }
        }
    }
    (figs, n, bad)
}
