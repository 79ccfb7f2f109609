//! Figures built in code for the renderer's tests (`renderer.rs`, `renderer_print.rs`): an axis,
//! a series, a one-panel figure, and reading numbers back from the SVG.

use fric_manifest::{LegendPos, Scale};
use fric_plot::Style;
use fric_plot::{AxisSpec, FigureData, PanelData, SeriesData};

/// A linear axis without a unit, over `range` (automatic when `None`).
pub fn axis(label: &str, range: Option<[f64; 2]>) -> AxisSpec {
    AxisSpec {
        label: label.into(),
        unit: None,
        scale: Scale::Linear,
        range,
    }
}

/// A labelled series of computed samples in `style`, without arrowheads.
pub fn series(x: Vec<f64>, y: Vec<f64>, style: Style, label: &str) -> SeriesData {
    SeriesData {
        x,
        y,
        y2: None,
        style,
        label: Some(label.into()),
        color: None,
        arrows: 0,
        point_labels: vec![],
        marker_size: None,
        results: false,
    }
}

/// One 640 × 400 panel over [−1.1, 1.1]² holding `series`.
pub fn figure(series: Vec<SeriesData>, equal_aspect: bool) -> FigureData {
    FigureData {
        rows: 1,
        cols: 1,
        panel_width: 640,
        panel_height: 400,
        companions: vec![],
        panels: vec![PanelData {
            id: "main".into(),
            title: None,
            x: axis("x", Some([-1.1, 1.1])),
            y: axis("y", Some([-1.1, 1.1])),
            legend: LegendPos::UpperRight,
            series,
            equal_aspect,
            insets: vec![],
        }],
    }
}

/// The numbers of attribute `name` of the first element that has it.
pub fn attr(s: &str, name: &str) -> Vec<f64> {
    let i = s.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
    let v = &s[i..i + s[i..].find('"').unwrap()];
    v.split(' ').filter_map(|t| t.parse().ok()).collect()
}

/// A manifest `thesis/fig9.1` drawn by the pipeline in a temporary workspace.
pub struct Drawn {
    /// The workspace (its `figures/thesis/fig9.1/` holds the series' CSV files).
    pub ws: tempfile::TempDir,
    pub svg: String,
    /// The PGFPlots file.
    pub tex: String,
}

/// Run the pipeline on `manifest` (id `thesis/fig9.1`), check that it drew the figure without
/// an invalid manifest or a failed run, and read the SVG and the PGFPlots file.
pub fn draw_fig91(manifest: &str) -> Drawn {
    let ws = super::workspace(&[("thesis/fig9.1.yaml", manifest)]);
    drew_one(&fric_pipeline::run(&fric_pipeline::Options::new(ws.path())).unwrap());
    let figs = ws.path().join("figures/thesis");
    let svg = std::fs::read_to_string(figs.join("fig9.1.svg")).unwrap();
    let tex = std::fs::read_to_string(figs.join("fig9.1.pgf.tex")).unwrap();
    Drawn { ws, svg, tex }
}

/// Check that a pipeline run drew one figure, without an invalid manifest or a failed run.
pub fn drew_one(s: &fric_pipeline::Summary) {
    assert!(
        s.invalid.is_empty() && s.runs_failed.is_empty(),
        "{:?} {:?}",
        s.invalid,
        s.runs_failed
    );
    assert_eq!(s.figures_drawn, 1);
}
