//! `dashed`: 10 px dashes, 6 px gaps.

use super::{Ink, StyleDef};
use fric_manifest::Style;

pub(super) const STYLE: StyleDef = StyleDef {
    style: Style::Dashed,
    name: "dashed",
    doc: "Dashes of 10 px with 6 px gaps: a second curve, a reference.",
    ink: Ink::Line { dash: &[10.0, 6.0] },
};
