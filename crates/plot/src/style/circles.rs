//! `circles`: one open circle per sample, for a marked point that must stay visible on or next
//! to other markers.

use super::{Ink, Marker, StyleDef};
use fric_manifest::Style;

pub(super) const STYLE: StyleDef = StyleDef {
    style: Style::Circles,
    name: "circles",
    doc: "An open circle per sample: a marked point (an intersection, a solution) that lies on or \
          next to other markers; listed after them it is drawn over them, its centre left clear so \
          both stay visible.",
    ink: Ink::Markers(Marker::Circle),
};
