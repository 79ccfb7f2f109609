//! Series styles, declared once: each style is one file here carrying its declaration
//! ([`StyleDef`]: its manifest name, doc with an example and the series fields it takes, its
//! validation, and its ink: a dash pattern, a marker or a fill), registered by one line of
//! [`STYLES`] (a style declared elsewhere: [`register`]). A manifest names a style
//! (`fric_manifest::StyleName`, kept as written); the loader resolves it here ([`of`]: an
//! unknown name is an error at its line listing [`names`]; [`StyleDef::problems`] checks the
//! series against the declaration), and from then on a series carries its [`Style`], the
//! declaration itself. `cargo xtask schema` and the JSON Schema list [`docs`]. Every backend
//! draws a series from that declaration alone: the SVG/PNG data layer (`series.rs`, legend
//! samples in `legend.rs`, print thinning in `reduce.rs` by [`StyleDef::keep`]) and PGFPlots
//! ([`StyleDef::pgf_options`]).
//!
//! The registry is per process, as the methods' is (`fric_experiments::methods::register`): a
//! style registered at run time is seen by that process's loader and renderers only. That is
//! what it is for (a study's own style registered by its own front end before it loads, a
//! test's toy style), not a limitation: the project's styles are all in [`STYLES`], so every
//! process sees the same ones. One limit: a figure's cache key holds a series' style by name
//! (the panels as written), not the declaration, so a study that registers a different style
//! under a name it drew with before must remove that figure's outputs to redraw it.
//!
//! Arrowheads are not a style but an ornament any line carries; they are declared in
//! [`arrow`] the same way (geometry, SVG and PGFPlots drawing, placement).

pub mod arrow;
mod band;
mod circles;
mod dash_dot;
mod dash_dot_dot;
mod dashed;
mod dotted;
mod points;
mod published;
mod solid;

pub use fric_manifest::{FieldDoc, FieldType, KindDoc, SeriesSpec, StyleName};
use std::sync::RwLock;

/// A series style: its declaration, resolved from the manifest's name at load.
pub type Style = &'static StyleDef;

pub const SOLID: Style = &solid::STYLE;
pub const DASHED: Style = &dashed::STYLE;
pub const DOTTED: Style = &dotted::STYLE;
pub const DASH_DOT: Style = &dash_dot::STYLE;
pub const DASH_DOT_DOT: Style = &dash_dot_dot::STYLE;
pub const POINTS: Style = &points::STYLE;
pub const CIRCLES: Style = &circles::STYLE;
pub const PUBLISHED: Style = &published::STYLE;
pub const BAND: Style = &band::STYLE;

/// Every style of the project, in the order `schema` lists them: one line per style.
pub const STYLES: &[Style] = &[
    SOLID,
    DASHED,
    DOTTED,
    DASH_DOT,
    DASH_DOT_DOT,
    POINTS,
    CIRCLES,
    PUBLISHED,
    BAND,
];

/// The style of a series that names none (`StyleName::default()`).
pub const DEFAULT: Style = SOLID;

/// How a style inks its series.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ink {
    /// A line; `dash` alternates on and off lengths in SVG pixels (empty: solid). Each piece's
    /// pattern is stretched by at most a period so that it ends on a dash.
    Line { dash: &'static [f64] },
    /// One marker per sample.
    Markers(Marker),
    /// The area between `y` and `y2`, filled translucent.
    Band,
}

/// Marker shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// A filled disc (computed samples).
    Disc,
    /// An open square (values the source publishes).
    OpenSquare,
    /// An open circle (a marked point drawn over others).
    Circle,
}

/// SVG pixels per PGFPlots point (a 640-pixel panel prints at 3.5 in, 2 px per pt for the pattern
/// lengths, as the dashes were tuned).
pub const PX_PER_PT: f64 = 2.0;

/// Marker radius (disc, circle) or half side (square), in SVG pixels, unless the series declares
/// its `marker_size`.
pub const MARKER_PX: f64 = 3.0;

/// Which samples of a series the SVG needs at its pixel size (print thinning, `reduce.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// A polyline's: what a half-pixel Douglas–Peucker keeps of each drawable piece.
    Line,
    /// A marker's at each distinct position (a quarter-pixel cell).
    Distinct,
    /// Every sample (few, each carrying its label).
    All,
    /// Both edges' (`y` and `y2`), reduced together.
    Band,
}

/// Where a series in the style takes its samples from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A run's columns, a metric against swept parameters, a find's or fit's result.
    Run,
    /// The series' own `points`, as the source prints them (no run, no metric).
    Points,
}

/// A problem of a series in a style: the field (a path after the series', `.points[0]`, or
/// empty for the series itself), what is wrong and what is allowed.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub field: String,
    pub message: String,
    pub allowed: String,
}

impl Problem {
    pub fn new(field: impl Into<String>, message: impl Into<String>, allowed: impl Into<String>) -> Self {
        Problem {
            field: field.into(),
            message: message.into(),
            allowed: allowed.into(),
        }
    }
}

/// A series style: its name, doc, example and the series fields it takes ([`KindDoc`], what
/// `schema` and the JSON Schema show), how it inks a series, which samples it needs, where
/// they come from, and its own checks beyond its fields.
#[derive(Debug)]
pub struct StyleDef {
    /// `name` as written in a manifest (`dash-dot`); `fields`: the style's own series fields
    /// (of [`STYLE_FIELDS`]), required or optional.
    pub doc: KindDoc,
    pub ink: Ink,
    pub keep: Keep,
    pub source: Source,
    /// Further checks of a series in the style (after its fields').
    pub check: Option<fn(&SeriesSpec) -> Vec<Problem>>,
}

/// Styles are the same when their names are (a name is registered once).
impl PartialEq for StyleDef {
    fn eq(&self, other: &Self) -> bool {
        self.doc.name == other.doc.name
    }
}

/// `y2`, as a band requires it.
pub const Y2_REQUIRED: FieldDoc = FieldDoc {
    name: "y2",
    ty: FieldType::Column,
    unit: "",
    required: true,
    default: None,
    doc: "the upper edge, a column of the run (`y` is the lower edge)",
};

/// `points`, as published points require them.
pub const POINTS_REQUIRED: FieldDoc = FieldDoc {
    name: "points",
    ty: FieldType::List,
    unit: "",
    required: true,
    default: None,
    doc: "the points the source prints, [{x, y, label, line}], each with its seed line",
};

/// `marker_size`, which a marker style takes.
pub const MARKER_SIZE: FieldDoc = FieldDoc {
    name: "marker_size",
    ty: FieldType::Number,
    unit: "pt",
    required: false,
    default: None,
    doc: "the marker's size (PGFPlots' `mark size`: a disc's or circle's radius, a square's half \
          side), 0.5 to 6; default 1.5 (2.0 for an open square)",
};

/// The series fields a style may take: one that a series sets and its style does not declare is
/// refused (it would be ignored).
pub const STYLE_FIELDS: &[&str] = &["y2", "points", "marker_size"];

/// Whether series `s` sets the style field `name` (one of [`STYLE_FIELDS`]).
fn is_set(s: &SeriesSpec, name: &str) -> bool {
    match name {
        "y2" => s.y2.is_some(),
        "points" => !s.points.is_empty(),
        "marker_size" => s.marker_size.is_some(),
        _ => false,
    }
}

/// Styles added at run time by [`register`].
static ADDED: RwLock<Vec<Style>> = RwLock::new(Vec::new());

/// Add a style declared outside this crate (a study's own; a test's toy style): from then on
/// `schema`, the JSON Schema, the loader and every backend see it as they see [`STYLES`]. An
/// error if a style of that name exists or it declares a field not in [`STYLE_FIELDS`].
pub fn register(decl: Style) -> Result<(), String> {
    let mut added = ADDED.write().unwrap_or_else(|e| e.into_inner());
    if STYLES.iter().chain(added.iter()).any(|d| *d == decl) {
        return Err(format!("style `{}` is declared already", decl.doc.name));
    }
    if let Some(f) = decl.doc.fields.iter().find(|f| !STYLE_FIELDS.contains(&f.name)) {
        return Err(format!(
            "style `{}`: `{}` is not a series field a style takes ({})",
            decl.doc.name,
            f.name,
            STYLE_FIELDS.join(", ")
        ));
    }
    added.push(decl);
    Ok(())
}

/// Every style: [`STYLES`], then the registered ones.
pub fn all() -> Vec<Style> {
    let added = ADDED.read().unwrap_or_else(|e| e.into_inner());
    STYLES.iter().chain(added.iter()).copied().collect()
}

/// The style called `name`.
pub fn find(name: &str) -> Option<Style> {
    all().into_iter().find(|d| d.doc.name == name)
}

/// The style a manifest names: an error, never another style, when it is unknown (the loader
/// refuses it at its line before anything is drawn).
pub fn of(name: &StyleName) -> Result<Style, String> {
    find(&name.0).ok_or_else(|| format!("unknown style `{name}`"))
}

/// Every style's name, comma-separated (an error's allowed list).
pub fn names() -> String {
    all().iter().map(|d| d.doc.name).collect::<Vec<_>>().join(", ")
}

/// The declarations, for `schema` and the JSON Schema (`series[].style` is one of their names).
pub fn docs() -> Vec<KindDoc> {
    all().iter().map(|d| d.doc).collect()
}

impl StyleDef {
    /// The name a manifest writes.
    pub fn name(&self) -> &'static str {
        self.doc.name
    }

    /// Series `s`, in this style, checked against the declaration: each field the style
    /// requires present, none of [`STYLE_FIELDS`] that it does not take, a marker size
    /// printable, then the style's own [`StyleDef::check`].
    pub fn problems(&self, s: &SeriesSpec) -> Vec<Problem> {
        let name = self.doc.name;
        let mut out = Vec::new();
        for f in self.doc.fields.iter().filter(|f| f.required && !is_set(s, f.name)) {
            out.push(Problem::new(
                format!(".{}", f.name),
                format!("style `{name}` needs `{}`: {}", f.name, f.doc),
                format!("{}: <{}>", f.name, f.ty.name()),
            ));
        }
        for field in STYLE_FIELDS
            .iter()
            .filter(|n| is_set(s, n) && self.doc.field(n).is_none())
        {
            let takers: Vec<&str> = all()
                .iter()
                .filter(|d| d.doc.field(field).is_some())
                .map(|d| d.doc.name)
                .collect();
            out.push(Problem::new(
                format!(".{field}"),
                format!("`{field}` on style `{name}`, which does not take it: it would be ignored"),
                format!("{field} only with style {}", or_list(&takers)),
            ));
        }
        if let (Some(m), Some(_)) = (s.marker_size, self.doc.field("marker_size")) {
            let (lo, hi) = fric_manifest::rules::MARKER_SIZE_PT;
            if !(lo..=hi).contains(&m) {
                out.push(Problem::new(
                    ".marker_size",
                    format!("`marker_size` = {m} pt is not a printable marker"),
                    format!("{lo} to {hi} pt"),
                ));
            }
        }
        out.extend(self.check.map(|c| c(s)).unwrap_or_default());
        out
    }

    /// True for a band (the area between `y` and `y2`).
    pub fn is_band(&self) -> bool {
        matches!(self.ink, Ink::Band)
    }

    /// True for an unbroken line (thinned to pixel columns, `series.rs`).
    pub fn is_solid(&self) -> bool {
        matches!(self.ink, Ink::Line { dash: [] })
    }

    /// True for a style drawn as a line (solid or dashed in any pattern).
    pub fn is_line(&self) -> bool {
        matches!(self.ink, Ink::Line { .. })
    }

    /// The dash pattern in SVG pixels (empty for a solid line and for other inks).
    pub fn dash(&self) -> &'static [f64] {
        match self.ink {
            Ink::Line { dash } => dash,
            _ => &[],
        }
    }

    /// The marker, for a marker style.
    pub fn marker(&self) -> Option<Marker> {
        match self.ink {
            Ink::Markers(m) => Some(m),
            _ => None,
        }
    }

    /// The marker's size in pt (PGFPlots' `mark size`: radius, or a square's half side): the
    /// series' declared `marker_size`, else the style's default (0 for a style without markers).
    pub fn marker_pt(&self, declared: Option<f64>) -> f64 {
        match (self.ink, declared) {
            (Ink::Markers(_), Some(pt)) => pt,
            (Ink::Markers(Marker::OpenSquare), None) => MARKER_PX / PX_PER_PT + 0.5,
            (Ink::Markers(_), None) => MARKER_PX / PX_PER_PT,
            _ => 0.0,
        }
    }

    /// PGFPlots `\addplot` options after the colour (`color` is the defined colour's name),
    /// derived from the ink: the same pattern, marker (at `marker_size` pt when the series
    /// declares one) and fill as the SVG.
    pub fn pgf_options(&self, color: &str, marker_size: Option<f64>) -> String {
        let size = self.marker_pt(marker_size);
        match self.ink {
            Ink::Line { dash: [] } => "solid, thick, mark=none".into(),
            Ink::Line { dash } => format!("thick, mark=none, dash pattern={}", pgf_dash(dash)),
            Ink::Markers(Marker::Disc) => format!("only marks, mark=*, mark size={size}pt"),
            Ink::Markers(Marker::Circle) => {
                format!("only marks, mark=o, mark size={size}pt, mark options={{solid, thick}}")
            }
            Ink::Markers(Marker::OpenSquare) => {
                format!("only marks, mark=square, mark size={size}pt, mark options={{solid, thick}}")
            }
            Ink::Band => format!("fill={color}, draw=none, fill opacity=0.25, area legend"),
        }
    }
}

/// `a, b or c`.
fn or_list(names: &[&str]) -> String {
    match names {
        [] => "none".into(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// A dash pattern as PGF's `on a off b ...`, in points.
fn pgf_dash(dash: &[f64]) -> String {
    dash.iter()
        .enumerate()
        .map(|(i, v)| format!("{} {}pt", if i % 2 == 0 { "on" } else { "off" }, v / PX_PER_PT))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every style has exactly one declaration under its own name, a doc and an example.
    #[test]
    fn every_style_is_declared_once_under_its_name() {
        for d in STYLES {
            assert_eq!(STYLES.iter().filter(|e| e.doc.name == d.doc.name).count(), 1);
            assert!(!d.doc.doc.is_empty() && !d.doc.example.is_empty(), "{d:?}");
            assert_eq!(find(d.doc.name), Some(*d));
            for f in d.doc.fields {
                assert!(STYLE_FIELDS.contains(&f.name), "{}: {}", d.doc.name, f.name);
            }
        }
        assert_eq!(of(&StyleName::default()), Ok(DEFAULT));
        assert!(of(&StyleName("wavy".into())).is_err());
        // The five line styles differ pairwise.
        let lines: Vec<_> = STYLES.iter().filter(|d| d.is_line()).map(|d| d.dash()).collect();
        assert_eq!(lines.len(), 5);
        for (i, a) in lines.iter().enumerate() {
            for b in &lines[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn pgf_options_follow_the_declaration() {
        assert_eq!(
            DASHED.pgf_options("c", None),
            "thick, mark=none, dash pattern=on 5pt off 3pt"
        );
        assert_eq!(
            DASH_DOT.pgf_options("c", None),
            "thick, mark=none, dash pattern=on 5pt off 2pt on 1pt off 2pt"
        );
        assert!(BAND.pgf_options("fricred", None).contains("fill=fricred"));
    }
}
