//! `dash-dot`: a dash and a dot alternating (fits, where the source draws them so).

use super::{Ink, Keep, KindDoc, Source, StyleDef};

pub(super) const STYLE: StyleDef = StyleDef {
    doc: KindDoc {
        name: "dash-dot",
        doc: "A 10 px dash and a 2 px dot, 4 px apart: fits, where the source draws them dash-dotted",
        fields: &[],
        example: "{run: fit, x: v, y: F, style: dash-dot}",
    },
    ink: Ink::Line {
        dash: &[10.0, 4.0, 2.0, 4.0],
    },
    keep: Keep::Line,
    source: Source::Run,
    check: None,
};
