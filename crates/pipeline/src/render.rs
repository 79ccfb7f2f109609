//! From a manifest's panels and its runs' data to SVG, PNG and one CSV per plotted series,
//! skipped when nothing that affects the drawing changed.

use crate::evaluate::window;
use crate::hash::sha256_hex;
use crate::load::Entry;
use crate::store::{write_atomic, write_if_changed};
use crate::{frames, RENDER_FINGERPRINT};
use fric_experiments::RunData;
use fric_manifest::LegendPos;
use fric_plot::{AxisSpec, FigureData, PanelData, SeriesData};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub struct Rendered {
    /// Output files relative to the root.
    pub outputs: Vec<String>,
    /// False when the stamp matched and every output existed.
    pub drawn: bool,
}

/// `figures/<doc>/<name>` for a manifest id `<doc>/<name>`.
pub fn out_base(root: &Path, id: &str) -> PathBuf {
    root.join("figures").join(id)
}

/// `figures/<doc>/<name>.<ext>` (names contain dots, so the extension is appended, not set).
pub fn out_file(root: &Path, id: &str, ext: &str) -> PathBuf {
    root.join("figures").join(format!("{id}.{ext}"))
}

fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root).unwrap_or(p).to_string_lossy().replace('\\', "/")
}

fn axis_label(a: &fric_manifest::Axis) -> String {
    match &a.unit {
        Some(u) if !u.is_empty() => format!("{} [{}]", a.label, u),
        _ => a.label.clone(),
    }
}

fn format_value(v: f64) -> String {
    let s = format!("{v}");
    s
}

struct Csv {
    name: String,
    columns: Vec<(String, Vec<f64>)>,
}

fn build(entry: &Entry, runs: &HashMap<String, &RunData>) -> Result<(FigureData, Vec<Csv>), String> {
    let m = &entry.manifest;
    let mut panels = Vec::new();
    let mut csvs = Vec::new();
    for p in &m.panels {
        let mut series = Vec::new();
        for s in &p.series {
            let members: Vec<(String, Option<f64>)> = match entry.sweeps.get(&s.run) {
                Some(ms) => ms.iter().map(|(id, v)| (id.clone(), Some(*v))).collect(),
                None => vec![(s.run.clone(), None)],
            };
            for (id, value) in members {
                let d = *runs.get(&id).ok_or_else(|| format!("run `{id}` has no data"))?;
                let r = window(d, s.window.as_ref()).map_err(|e| format!("panel {}: {e}", p.id))?;
                let pick = |c: &str| {
                    d.column(c)
                        .map(|v| v[r.clone()].to_vec())
                        .ok_or_else(|| format!("run `{id}` has no column `{c}`"))
                };
                let x = pick(&s.x)?;
                let y = pick(&s.y)?;
                let y2 = s.y2.as_deref().map(pick).transpose()?;
                let label = s.label.as_ref().map(|l| match value {
                    Some(v) => l.replace("{value}", &format_value(v)),
                    None => l.clone(),
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
                    x,
                    y,
                    y2,
                    style: s.style,
                    label,
                    color: s.color.clone(),
                });
            }
        }
        panels.push(PanelData {
            title: p.title.clone(),
            x: AxisSpec {
                label: axis_label(&p.x),
                scale: p.x.scale,
                range: p.x.range,
            },
            y: AxisSpec {
                label: axis_label(&p.y),
                scale: p.y.scale,
                range: p.y.range,
            },
            legend: p.legend.unwrap_or(LegendPos::UpperLeft),
            series,
        });
    }
    let (rows, cols, w, h) = match &m.layout {
        Some(l) => (l.rows, l.cols, l.panel_width, l.panel_height),
        None => (1, m.panels.len().max(1), 640, 480),
    };
    Ok((
        FigureData {
            rows,
            cols,
            panel_width: w,
            panel_height: h,
            panels,
        },
        csvs,
    ))
}

/// Key of everything a drawing depends on: panels, layout, the data (by run keys) and the
/// drawing code.
pub(crate) fn render_key(entry: &Entry) -> String {
    let m = &entry.manifest;
    let keys: Vec<(&String, &String, &Vec<fric_manifest::PostOp>)> =
        entry.runs.iter().map(|(id, r)| (id, &r.key, &r.post)).collect();
    let v = serde_json::json!({ "panels": m.panels, "layout": m.layout, "runs": keys, "code": RENDER_FINGERPRINT });
    sha256_hex(v.to_string().as_bytes())
}

/// Render a figure manifest unless its stamp is current.
pub fn render(root: &Path, entry: &Entry, runs: &HashMap<String, &RunData>, force: bool) -> Result<Rendered, String> {
    let id = &entry.manifest.id;
    let svg = out_file(root, id, "svg");
    let png = out_file(root, id, "png");
    let dir = out_base(root, id);
    let stamp = root.join("data/cache/renders").join(format!("{id}.key"));
    let key = render_key(entry);
    let (fig, csvs) = build(entry, runs)?;
    let mut outputs = vec![svg.clone(), png.clone()];
    outputs.extend(csvs.iter().map(|c| dir.join(&c.name)));
    let current =
        !force && std::fs::read_to_string(&stamp).is_ok_and(|k| k == key) && outputs.iter().all(|p| p.exists());
    let rels = outputs.iter().map(|p| rel(root, p)).collect();
    if current {
        return Ok(Rendered {
            outputs: rels,
            drawn: false,
        });
    }
    let svg_bytes = fric_plot::render_svg(&fig)?;
    let png_bytes = fric_plot::render_png(&fig)?;
    let io = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    write_if_changed(&svg, &svg_bytes).map_err(|e| io(&svg, e))?;
    write_if_changed(&png, &png_bytes).map_err(|e| io(&png, e))?;
    // Remove series files of an earlier layout, then write the current ones.
    if let Ok(rd) = std::fs::read_dir(&dir) {
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if name.ends_with(".csv") && !csvs.iter().any(|c| c.name == name) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
    for c in &csvs {
        let p = dir.join(&c.name);
        write_if_changed(&p, &frames::to_csv(&c.columns)?).map_err(|e| io(&p, e))?;
    }
    write_atomic(&stamp, key.as_bytes()).map_err(|e| io(&stamp, e))?;
    Ok(Rendered {
        outputs: rels,
        drawn: true,
    })
}
