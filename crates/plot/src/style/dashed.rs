//! `dashed`: 10 px dashes, 6 px gaps.

use super::{Ink, Keep, KindDoc, Source, StyleDef};

pub(super) const STYLE: StyleDef = StyleDef {
    doc: KindDoc {
        name: "dashed",
        doc: "Dashes of 10 px with 6 px gaps: a second curve, a reference",
        fields: &[],
        example: "{run: dahl, x: u, y: F, style: dashed}",
    },
    ink: Ink::Line { dash: &[10.0, 6.0] },
    keep: Keep::Line,
    source: Source::Run,
    check: None,
};
