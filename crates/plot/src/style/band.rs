//! `band`: the area between `y` and `y2`.

use super::{Ink, StyleDef};
use fric_manifest::Style;

pub(super) const STYLE: StyleDef = StyleDef {
    style: Style::Band,
    name: "band",
    doc: "The area between `y` (lower edge) and `y2` (upper edge), filled at 25 % opacity.",
    ink: Ink::Band,
};
