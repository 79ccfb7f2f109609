//! `published`: the points a source prints, as open squares with their labels.

use super::{Ink, Marker, StyleDef};
use fric_manifest::Style;

pub(super) const STYLE: StyleDef = StyleDef {
    style: Style::Published,
    name: "published",
    doc: "Values the source publishes (`points: [{x, y, label, line}]`): open squares, each with \
          its label beside it, so a computed curve can be read against them.",
    ink: Ink::Markers(Marker::OpenSquare),
};
