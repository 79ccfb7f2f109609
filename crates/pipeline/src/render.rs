//! From a manifest's panels and its runs' data to SVG, PNG, one CSV per plotted series and a
//! PGFPlots `.pgf.tex` that reads those CSVs, skipped when nothing that affects the drawing
//! changed.

use crate::entry::Entry;
use crate::evaluate::window;
use crate::fingerprint::RENDER_FINGERPRINT;
use crate::frames;
use crate::hash::sha256_hex;
use crate::metric_tables::swept_base;
use crate::run_source::RunView;
use crate::stamp::{outputs_intact, Stamp};
use crate::store::{output_path, write_if_changed};
use fric_experiments::RunData;
use fric_manifest::member::MemberId;
use fric_manifest::LegendPos;
use fric_plot::{AxisSpec, FigureData, PanelData, SeriesData};
use fric_report::pgf::PgfTable;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

pub struct Rendered {
    /// Output files relative to the root (SVG, PNG, the PGFPlots `.pgf.tex`, then the series
    /// CSVs), with the sha256 of their content.
    pub outputs: Vec<(String, String)>,
    /// False when the previous drawing was current and intact.
    pub drawn: bool,
    pub render_key: String,
}

/// `figures/<doc>/<name>.<ext>` (names contain dots, so the extension is appended, not set).
pub fn out_rel(id: &str, ext: &str) -> String {
    format!("figures/{id}.{ext}")
}

fn format_value(v: f64) -> String {
    let s = format!("{v}");
    s
}

/// One series file: its name in the figure's directory and its columns.
pub(crate) struct Csv {
    pub name: String,
    pub columns: Vec<(String, Vec<f64>)>,
}

/// Markers at `(x, y)` with their labels (empty, or one per point), in the style, colour, size
/// and legend entry the manifest's series `s` declares, and their CSV (`<panel>-<k>.csv`, `x`,
/// `y`): a find's located point, a fit's targets, published points. Each marker is a result of
/// its own (never thinned), and markers carry no arrowheads.
fn push_markers(
    csvs: &mut Vec<Csv>,
    series: &mut Vec<SeriesData>,
    panel: &str,
    s: &fric_manifest::SeriesSpec,
    style: fric_plot::style::Style,
    (x, y, point_labels): (Vec<f64>, Vec<f64>, Vec<Option<String>>),
) {
    csvs.push(Csv {
        name: format!("{panel}-{}.csv", series.len() + 1),
        columns: vec![("x".into(), x.clone()), ("y".into(), y.clone())],
    });
    series.push(SeriesData {
        arrows: 0,
        x,
        y,
        y2: None,
        style,
        label: s.label.clone(),
        color: s.color.clone(),
        point_labels,
        marker_size: s.marker_size,
        results: true,
    });
}

/// The table each series of a figure reads in PGFPlots: its CSV file (`csvs`, one per series in
/// the figure's order) relative to `figures/`, and its columns.
fn pgf_tables(id: &str, csvs: &[Csv]) -> Vec<PgfTable> {
    csvs.iter()
        .map(|c| {
            let col = |k: usize| c.columns.get(k).map(|c| c.0.clone());
            PgfTable {
                csv: format!("{id}/{}", c.name),
                x: col(0).unwrap_or_default(),
                y: col(1).unwrap_or_default(),
                y2: col(2),
            }
        })
        .collect()
}

/// A legend entry with `{value}` (the first swept parameter's value) and `{<param>}` (each
/// swept parameter's value) replaced.
fn substitute(label: &str, coords: &fric_manifest::Coords) -> String {
    let mut out = label.to_string();
    if let Some((_, v)) = coords.first() {
        out = out.replace("{value}", &format_value(*v));
    }
    for (p, v) in coords {
        out = out.replace(&format!("{{{p}}}"), &format_value(*v));
    }
    out
}

/// The series of a metric series: a metric over a swept run against one swept parameter
/// (`x`), one series per value of another (`group`), each sorted by x: (label, x, y).
type MetricCurve = (Option<String>, Vec<f64>, Vec<f64>);

fn metric_series(
    entry: &Entry,
    metrics: &BTreeMap<String, Option<f64>>,
    metric: &str,
    s: &fric_manifest::SeriesSpec,
) -> Result<Vec<MetricCurve>, String> {
    let m = &entry.manifest;
    let spec = m
        .metrics
        .iter()
        .find(|x| x.name == metric)
        .ok_or_else(|| format!("no metric `{metric}`"))?;
    let base = swept_base(entry, spec).ok_or_else(|| format!("metric `{metric}` is not over a swept run"))?;
    let members = entry
        .sweeps
        .get(&base)
        .ok_or_else(|| format!("run `{base}` is not swept"))?;
    let coord = |c: &fric_manifest::Coords, p: &str| c.iter().find(|(q, _)| q == p).map(|(_, v)| *v);
    // (group value, points (x, y)) in order of first appearance.
    type Group = (Option<f64>, Vec<(f64, f64)>);
    let mut groups: Vec<Group> = Vec::new();
    for (k, (_, c)) in members.iter().enumerate() {
        let x = coord(c, &s.x).ok_or_else(|| format!("run `{base}` does not sweep `{}`", s.x))?;
        let g = match &s.group {
            Some(g) => Some(coord(c, g).ok_or_else(|| format!("run `{base}` does not sweep `{g}`"))?),
            None => None,
        };
        let y = metrics
            .get(&MemberId::new(metric, k).to_string())
            .copied()
            .flatten()
            .ok_or_else(|| format!("metric `{}` has no value", MemberId::new(metric, k)))?;
        match groups.iter_mut().find(|(v, _)| *v == g) {
            Some((_, pts)) => pts.push((x, y)),
            None => groups.push((g, vec![(x, y)])),
        }
    }
    Ok(groups
        .into_iter()
        .enumerate()
        .map(|(k, (g, mut pts))| {
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            let label = s.label.as_ref().and_then(|l| match (g, &s.group) {
                (Some(v), Some(p)) if l.contains('{') => Some(substitute(l, &vec![(p.clone(), v)])),
                _ if k > 0 => None,
                _ => Some(l.clone()),
            });
            (
                label,
                pts.iter().map(|p| p.0).collect(),
                pts.iter().map(|p| p.1).collect(),
            )
        })
        .collect())
}

/// The figure's panels and one series file per plotted series, at full resolution.
pub(crate) fn build(
    entry: &Entry,
    runs: &RunView,
    metrics: &BTreeMap<String, Option<f64>>,
    fitted: &crate::marks::FittedRuns,
) -> Result<(FigureData, Vec<Csv>), String> {
    let m = &entry.manifest;
    let mut panels = Vec::new();
    let mut csvs = Vec::new();
    for p in &m.panels {
        // Panel ids name the series files; validation allows plain names only, and this keeps a
        // path out of the file name even if validation missed one.
        if p.id.is_empty() || p.id.starts_with('.') || p.id.contains(['/', '\\']) {
            return Err(format!("panel id `{}` cannot name a file", p.id));
        }
        let mut series = Vec::new();
        let mut bases: HashMap<&str, usize> = HashMap::new();
        for s in &p.series {
            let style = fric_plot::style::of(&s.style)?;
            if let Some(metric) = &s.metric {
                // Group k takes palette colour k, so every series drawn from one group (its
                // points and its line, say) has the same colour.
                for (k, (label, x, y)) in metric_series(entry, metrics, metric, s)?.into_iter().enumerate() {
                    let color = s.color.clone().or_else(|| {
                        let names = fric_plot::PALETTE_NAMES;
                        Some(names[k % names.len()].to_string())
                    });
                    csvs.push(Csv {
                        name: format!("{}-{}.csv", p.id, series.len() + 1),
                        columns: vec![(s.x.clone(), x.clone()), (metric.clone(), y.clone())],
                    });
                    series.push(SeriesData {
                        arrows: s.arrows,
                        x,
                        y,
                        y2: None,
                        style,
                        label,
                        color,
                        point_labels: vec![],
                        marker_size: s.marker_size,
                        results: true,
                    });
                }
                continue;
            }
            // A find's located point, a fit's targets: computed results, drawn as markers.
            if let Some((x, y)) = crate::marks::points(entry, metrics, s)? {
                push_markers(&mut csvs, &mut series, &p.id, s, style, (x, y, vec![]));
                continue;
            }
            if style.source == fric_plot::style::Source::Points {
                let (x, y): (Vec<f64>, Vec<f64>) = s.points.iter().map(|q| (q.x, q.y)).unzip();
                let labels = s.points.iter().map(|q| q.label.clone()).collect();
                push_markers(&mut csvs, &mut series, &p.id, s, style, (x, y, labels));
                continue;
            }
            let members: Vec<(String, Option<&fric_manifest::Coords>)> = match entry.sweeps.get(&s.run) {
                Some(ms) => ms.iter().map(|(id, c)| (id.clone(), Some(c))).collect(),
                None => vec![(s.run.clone(), None)],
            };
            let sweep_base = *bases.entry(s.run.as_str()).or_insert(series.len());
            for (k, (id, value)) in members.into_iter().enumerate() {
                // One member's data at a time (read from the cache when its batch was released):
                // only the drawn columns over the window are kept.
                let held = match &s.fit {
                    // The fit's run at its fitted parameters.
                    Some(f) => crate::marks::fitted_data(fitted, f, &id)?,
                    None => runs.get(&id)?.ok_or_else(|| format!("run `{id}` has no data"))?,
                };
                let d: &RunData = &held;
                // A run whose input kind declares its samples computed points (a grid: each at a
                // chosen amplitude, frequency): every sample is a result, kept in print wherever
                // the panel shows it as a marker (a line through them is reduced like any line).
                let results = entry
                    .runs
                    .get(&id)
                    .is_some_and(|r| r.request.input.decl().role.computed_points());
                let r = window(d, s.window.as_ref()).map_err(|e| format!("panel {}: {e}", p.id))?;
                let pick = |c: &str| {
                    d.column(c)
                        .map(|v| v[r.clone()].to_vec())
                        .ok_or_else(|| format!("run `{id}` has no column `{c}`"))
                };
                let x = pick(&s.x)?;
                let y = pick(&s.y)?;
                let y2 = s.y2.as_deref().map(pick).transpose()?;
                crate::evaluate::metric_kinds::drawn_period_closes(s, &id, &x, &y)
                    .map_err(|e| format!("panel {}: {e}", p.id))?;
                // A label without `{value}` names the whole sweep: shown once, not per member.
                let label = s.label.as_ref().and_then(|l| match value {
                    Some(c) if l.contains('{') => Some(substitute(l, c)),
                    Some(_) if k > 0 => None,
                    _ => Some(l.clone()),
                });
                // The members of a sweep take consecutive palette colours from where the sweep
                // first appears in the panel, so every series drawn from the same member (its
                // points and its line, say) has the same colour.
                let color = s.color.clone().or_else(|| {
                    value.map(|_| {
                        let names = fric_plot::PALETTE_NAMES;
                        names[(sweep_base + k) % names.len()].to_string()
                    })
                });
                let mut cols = vec![(s.x.clone(), x.clone()), (s.y.clone(), y.clone())];
                if let (Some(n), Some(v)) = (&s.y2, &y2) {
                    cols.push((n.clone(), v.clone()));
                }
                csvs.push(Csv {
                    name: format!("{}-{}.csv", p.id, series.len() + 1),
                    columns: cols,
                });
                series.push(SeriesData {
                    arrows: s.arrows,
                    x,
                    y,
                    y2,
                    style,
                    label,
                    color,
                    point_labels: vec![],
                    marker_size: s.marker_size,
                    results,
                });
            }
        }
        panels.push(PanelData {
            id: p.id.clone(),
            title: p
                .title
                .as_deref()
                .map(|t| crate::quote::fill(t, entry, metrics))
                .transpose()?,
            x: AxisSpec {
                label: p.x.label.clone(),
                unit: p.x.unit.clone(),
                scale: p.x.scale,
                range: p.x.range,
            },
            y: AxisSpec {
                label: p.y.label.clone(),
                unit: p.y.unit.clone(),
                scale: p.y.scale,
                range: p.y.range,
            },
            legend: p.legend.unwrap_or(LegendPos::UpperLeft),
            equal_aspect: p.equal_aspect,
            insets: p.insets.clone(),
            series,
        });
    }
    let (rows, cols, w, h) = fric_plot::grid(m, panels.len())?;
    Ok((
        FigureData {
            rows,
            cols,
            panel_width: w,
            panel_height: h,
            panels,
            companions: vec![],
        },
        csvs,
    ))
}

/// The figure and its series files with only the samples the drawing needs, to within
/// [`fric_plot::TOLERANCE_PX`] (the CSVs hold exactly the drawn samples; `csvs` are in the
/// order of the figure's series, panel by panel).
fn reduced(mut fig: FigureData, mut csvs: Vec<Csv>) -> (FigureData, Vec<Csv>) {
    let r = fric_plot::reduce(&fig);
    fric_plot::apply(&mut fig, &r);
    for (c, keep) in csvs.iter_mut().zip(r.keep.iter().flatten()) {
        for col in &mut c.columns {
            col.1 = fric_plot::pick(&col.1, keep);
        }
    }
    (fig, csvs)
}

/// Key of everything a drawing depends on: panels, layout, the data (by run keys) and the
/// drawing code.
pub(crate) fn render_key(entry: &Entry, metrics: &BTreeMap<String, Option<f64>>) -> String {
    let m = &entry.manifest;
    let keys: Vec<(&String, &String, &Vec<fric_manifest::PostOp>)> =
        entry.runs.iter().map(|(id, r)| (id, &r.key, &r.post)).collect();
    let mut v = serde_json::json!({ "panels": m.panels, "layout": m.layout, "runs": keys, "code": RENDER_FINGERPRINT });
    // Companion figures choose the units with their data: their panels and runs (only then, so
    // the key of every other figure is unchanged).
    if !entry.companions.is_empty() {
        let of = |c: &Entry| {
            let runs: Vec<(&String, &String, &Vec<fric_manifest::PostOp>)> =
                c.runs.iter().map(|(id, r)| (id, &r.key, &r.post)).collect();
            serde_json::json!({ "id": c.manifest.id, "panels": c.manifest.panels, "layout": c.manifest.layout, "runs": runs })
        };
        v["companions"] = entry.companions.iter().map(of).collect();
    }
    // Metric series draw metric values: those are part of the drawing then (only then, so the
    // key of every other figure is unchanged).
    // So do titles that quote (`{{ name }}`), and a find's or fit's result (its marker, and the
    // fitted curve's run, set by the fitted values).
    let quotes = |p: &fric_manifest::Panel| p.title.as_ref().is_some_and(|t| t.contains("{{"));
    if m.panels.iter().any(|p| {
        quotes(p)
            || p.series
                .iter()
                .any(|s| s.metric.is_some() || s.find.is_some() || s.fit.is_some())
    }) {
        v["metrics"] = serde_json::json!(metrics);
    }
    sha256_hex(v.to_string().as_bytes())
}

/// Render a figure manifest unless the previous drawing (`prev`) is current and intact.
#[allow(clippy::too_many_arguments)]
pub fn render(
    root: &Path,
    entry: &Entry,
    runs: &RunView,
    metrics: &BTreeMap<String, Option<f64>>,
    fitted: &crate::marks::FittedRuns,
    companions: Vec<(String, f64)>,
    prev: Option<&Stamp>,
    force: bool,
) -> Result<Rendered, String> {
    let id = &entry.manifest.id;
    let key = render_key(entry, metrics);
    let (mut fig, csvs) = build(entry, runs, metrics, fitted)?;
    fig.companions = companions;
    let (svg, png, pgf) = (out_rel(id, "svg"), out_rel(id, "png"), out_rel(id, "pgf.tex"));
    let csv_rel = |name: &str| format!("figures/{id}/{name}");
    let mut wanted = vec![svg.clone(), png.clone(), pgf.clone()];
    wanted.extend(csvs.iter().map(|c| csv_rel(&c.name)));
    if let Some(prev) = prev.filter(|p| !force && p.render_key.as_deref() == Some(key.as_str())) {
        let kept: BTreeMap<String, String> = wanted
            .iter()
            .filter_map(|w| prev.outputs.get(w).map(|h| (w.clone(), h.clone())))
            .collect();
        if kept.len() == wanted.len() && outputs_intact(root, &kept, &prev.stats) {
            return Ok(Rendered {
                outputs: wanted.iter().map(|w| (w.clone(), kept[w].clone())).collect(),
                drawn: false,
                render_key: key,
            });
        }
    }
    // Drawn and exported: the series sized to the ink (fric-plot's `reduce`); the full
    // resolution stays in the run cache (`cargo xtask export`).
    let (fig, csvs) = reduced(fig, csvs);
    let mut outputs = Vec::new();
    let mut put = |rel: &str, bytes: &[u8]| -> Result<(), String> {
        let p = output_path(root, rel)?;
        write_if_changed(&p, bytes).map_err(|e| format!("{}: {e}", p.display()))?;
        outputs.push((rel.to_string(), sha256_hex(bytes)));
        Ok(())
    };
    let drawn = fric_plot::render(&fig)?;
    put(&svg, &drawn.svg)?;
    put(&png, &fric_plot::rasterize(&drawn.svg)?)?;
    let tex = fric_report::pgf::render_pgfplots(id, &fig, &drawn, &pgf_tables(id, &csvs))?;
    put(&pgf, tex.as_bytes())?;
    // Remove series files of an earlier layout, then write the current ones.
    let dir = output_path(root, &format!("figures/{id}"))?;
    if let Ok(rd) = std::fs::read_dir(&dir) {
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if name.ends_with(".csv") && !csvs.iter().any(|c| c.name == name) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
    for c in &csvs {
        put(&csv_rel(&c.name), &frames::to_csv(&c.columns)?)?;
    }
    Ok(Rendered {
        outputs,
        drawn: true,
        render_key: key,
    })
}
