//! `dotted`: 2 px dots, 4 px gaps.

use super::{Ink, StyleDef};
use fric_manifest::Style;

pub(super) const STYLE: StyleDef = StyleDef {
    style: Style::Dotted,
    name: "dotted",
    doc: "Dots of 2 px with 4 px gaps: a third curve, an asymptote.",
    ink: Ink::Line { dash: &[2.0, 4.0] },
};
