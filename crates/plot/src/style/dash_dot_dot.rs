//! `dash-dot-dot`: a long dash and two dots, the fifth line style.

use super::{Ink, Keep, KindDoc, Source, StyleDef};

pub(super) const STYLE: StyleDef = StyleDef {
    doc: KindDoc {
        name: "dash-dot-dot",
        doc: "A 16 px dash and two 2 px dots: a fifth line style, told apart from the other four",
        fields: &[],
        example: "{run: sweep, x: v, y: F, style: dash-dot-dot}",
    },
    ink: Ink::Line {
        dash: &[16.0, 4.0, 2.0, 4.0, 2.0, 4.0],
    },
    keep: Keep::Line,
    source: Source::Run,
    check: None,
};
