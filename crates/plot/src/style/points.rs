//! `points`: one filled disc per computed sample.

use super::{Ink, Marker, StyleDef};
use fric_manifest::Style;

pub(super) const STYLE: StyleDef = StyleDef {
    style: Style::Points,
    name: "points",
    doc: "A filled disc per sample: computed points (a sweep's values, a map's iterates).",
    ink: Ink::Markers(Marker::Disc),
};
