//! `circles`: one open circle per sample, for a marked point that must stay visible on or next
//! to other markers.

use super::{Ink, Keep, KindDoc, Marker, Source, StyleDef, MARKER_SIZE};

pub(super) const STYLE: StyleDef = StyleDef {
    doc: KindDoc {
        name: "circles",
        doc: "An open circle per sample: a marked point (an intersection, a solution) that lies on or \
              next to other markers; listed after them it is drawn over them, its centre left clear so \
              both stay visible",
        fields: &[MARKER_SIZE],
        example: "{find: root, style: circles, marker_size: 3}",
    },
    ink: Ink::Markers(Marker::Circle),
    // Thinned as a line is (a marked point is one sample; computed results are kept wherever
    // the panel shows them, `reduce.rs`), as before the declaration carried it.
    keep: Keep::Line,
    source: Source::Run,
    check: None,
};
