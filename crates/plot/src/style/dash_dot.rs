//! `dash-dot`: a dash and a dot alternating (fits, where the source draws them so).

use super::{Ink, StyleDef};
use fric_manifest::Style;

pub(super) const STYLE: StyleDef = StyleDef {
    style: Style::DashDot,
    name: "dash-dot",
    doc: "A 10 px dash and a 2 px dot, 4 px apart: fits, where the source draws them dash-dotted.",
    ink: Ink::Line {
        dash: &[10.0, 4.0, 2.0, 4.0],
    },
};
