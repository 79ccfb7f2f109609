//! Colours a manifest may name, and the palette series without a colour take in turn.

/// Every colour a manifest may name, with its sRGB value; the first eight, in order, are the
/// palette that series without a colour take in turn: Okabe–Ito colours (distinguishable with
/// the common colour-vision deficiencies), black first, and a neutral grey.
pub const COLORS: &[(&str, (u8, u8, u8))] = &[
    ("black", (0, 0, 0)),
    ("blue", (0, 114, 178)),
    ("red", (213, 94, 0)),
    ("green", (0, 158, 115)),
    ("orange", (230, 159, 0)),
    ("purple", (204, 121, 167)),
    ("skyblue", (86, 180, 233)),
    ("gray", (127, 127, 127)),
    ("brown", (140, 86, 75)),
    ("lightgray", (200, 200, 200)),
];

/// The palette colour of the `i`-th series without a colour of its own.
pub(crate) fn palette(i: usize) -> (u8, u8, u8) {
    COLORS[i % PALETTE_NAMES.len()].1
}

/// The palette's colours by name, in palette order (series without a colour take them in turn).
pub const PALETTE_NAMES: &[&str] = &["black", "blue", "red", "green", "orange", "purple", "skyblue", "gray"];

/// Color names accepted in manifests.
pub const COLOR_NAMES: &[&str] = &[
    "black",
    "blue",
    "red",
    "green",
    "orange",
    "purple",
    "skyblue",
    "gray",
    "brown",
    "lightgray",
];

/// The canonical name of a colour (`grey` is `gray`), if a manifest may use it.
fn canonical_color(name: &str) -> Option<&'static str> {
    let name = match name {
        "grey" => "gray",
        "lightgrey" => "lightgray",
        n => n,
    };
    COLORS.iter().find(|(n, _)| *n == name).map(|(n, _)| *n)
}

/// The sRGB value of a colour name.
pub fn color_rgb(name: &str) -> Option<(u8, u8, u8)> {
    let name = canonical_color(name)?;
    COLORS.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
}

/// The colour (canonical name) the `i`-th series of a panel is drawn in: its own when it names
/// a known colour, otherwise the palette's in turn.
pub fn series_color(i: usize, color: Option<&str>) -> &'static str {
    color
        .and_then(canonical_color)
        .unwrap_or(PALETTE_NAMES[i % PALETTE_NAMES.len()])
}

pub(crate) fn named_color(name: &str) -> Option<(u8, u8, u8)> {
    color_rgb(name)
}

pub fn is_known_color(name: &str) -> bool {
    named_color(name).is_some()
}
