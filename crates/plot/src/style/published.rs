//! `published`: the points a source prints, as open squares with their labels.

use super::{Ink, Keep, KindDoc, Marker, Problem, Source, StyleDef, MARKER_SIZE, POINTS_REQUIRED};
use fric_manifest::SeriesSpec;

pub(super) const STYLE: StyleDef = StyleDef {
    doc: KindDoc {
        name: "published",
        doc: "Values the source publishes (`points: [{x, y, label, line}]`): open squares, each with \
              its label beside it, so a computed curve can be read against them",
        fields: &[POINTS_REQUIRED, MARKER_SIZE],
        example: "{style: published, label: Table 2.1, points: [{x: 0.5, y: 0.12, label: A, line: 1204}]}",
    },
    ink: Ink::Markers(Marker::OpenSquare),
    keep: Keep::All,
    source: Source::Points,
    check: Some(check),
};

/// Each point finite with its seed line; nothing drawn from a run or a metric.
fn check(s: &SeriesSpec) -> Vec<Problem> {
    let mut out = Vec::new();
    for (k, q) in s.points.iter().enumerate() {
        if q.line == 0 || !(q.x.is_finite() && q.y.is_finite()) {
            out.push(Problem::new(
                format!(".points[{k}]"),
                "a published point needs finite x, y and its seed line",
                "{x, y, line: <seed line>}",
            ));
        }
    }
    if !s.run.is_empty() || s.metric.is_some() {
        out.push(Problem::new(
            "",
            "published points are not drawn from a run or a metric",
            "drop `run`/`metric`",
        ));
    }
    out
}
