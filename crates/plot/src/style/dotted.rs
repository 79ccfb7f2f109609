//! `dotted`: 2 px dots, 4 px gaps.

use super::{Ink, Keep, KindDoc, Source, StyleDef};

pub(super) const STYLE: StyleDef = StyleDef {
    doc: KindDoc {
        name: "dotted",
        doc: "Dots of 2 px with 4 px gaps: a third curve, an asymptote",
        fields: &[],
        example: "{run: dahl, x: u, y: F, style: dotted}",
    },
    ink: Ink::Line { dash: &[2.0, 4.0] },
    keep: Keep::Line,
    source: Source::Run,
    check: None,
};
