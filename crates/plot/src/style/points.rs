//! `points`: one filled disc per computed sample.

use super::{Ink, Keep, KindDoc, Marker, Source, StyleDef, MARKER_SIZE};

pub(super) const STYLE: StyleDef = StyleDef {
    doc: KindDoc {
        name: "points",
        doc: "A filled disc per sample: computed points (a sweep's values, a map's iterates)",
        fields: &[MARKER_SIZE],
        example: "{metric: area, x: omega, style: points}",
    },
    ink: Ink::Markers(Marker::Disc),
    keep: Keep::Distinct,
    source: Source::Run,
    check: None,
};
