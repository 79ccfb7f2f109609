//! `dash-dot-dot`: a long dash and two dots, the fifth line style.

use super::{Ink, StyleDef};
use fric_manifest::Style;

pub(super) const STYLE: StyleDef = StyleDef {
    style: Style::DashDotDot,
    name: "dash-dot-dot",
    doc: "A 16 px dash and two 2 px dots: a fifth line style, told apart from the other four.",
    ink: Ink::Line {
        dash: &[16.0, 4.0, 2.0, 4.0, 2.0, 4.0],
    },
};
