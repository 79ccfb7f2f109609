//! `solid`: an unbroken line (the default; model curves).

use super::{Ink, Keep, KindDoc, Source, StyleDef};

pub(super) const STYLE: StyleDef = StyleDef {
    doc: KindDoc {
        name: "solid",
        doc: "An unbroken line (the default): model curves",
        fields: &[],
        example: "{run: dahl, x: u, y: F}",
    },
    ink: Ink::Line { dash: &[] },
    keep: Keep::Line,
    source: Source::Run,
    check: None,
};
