//! `band`: the area between `y` and `y2`.

use super::{Ink, Keep, KindDoc, Source, StyleDef, Y2_REQUIRED};

pub(super) const STYLE: StyleDef = StyleDef {
    doc: KindDoc {
        name: "band",
        doc: "The area between `y` (lower edge) and `y2` (upper edge), filled at 25 % opacity",
        fields: &[Y2_REQUIRED],
        example: "{run: envelope, x: t, y: F_lo, y2: F_hi, style: band}",
    },
    ink: Ink::Band,
    keep: Keep::Band,
    source: Source::Run,
    check: None,
};
