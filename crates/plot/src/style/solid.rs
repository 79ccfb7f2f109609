//! `solid`: an unbroken line (the default; model curves).

use super::{Ink, StyleDef};
use fric_manifest::Style;

pub(super) const STYLE: StyleDef = StyleDef {
    style: Style::Solid,
    name: "solid",
    doc: "An unbroken line (the default): model curves.",
    ink: Ink::Line { dash: &[] },
};
