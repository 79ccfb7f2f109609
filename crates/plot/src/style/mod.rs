//! Series styles, declared once: each style is one file here carrying its manifest name, its
//! documentation and its ink (a dash pattern, a marker or a fill), registered by one line of
//! [`STYLES`]. Every backend draws a series from that declaration alone: the SVG/PNG data layer
//! (`series.rs`, legend samples in `legend.rs`) and PGFPlots ([`StyleDef::pgf_options`]).
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

use fric_manifest::Style;

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

/// A series style: its manifest name, what it is for, and its ink.
#[derive(Debug)]
pub struct StyleDef {
    pub style: Style,
    /// As written in a manifest (`dash-dot`).
    pub name: &'static str,
    pub doc: &'static str,
    pub ink: Ink,
}

/// Every style, in the manifest enum's order: one line per style.
pub const STYLES: &[&StyleDef] = &[
    &solid::STYLE,
    &dashed::STYLE,
    &dotted::STYLE,
    &dash_dot::STYLE,
    &dash_dot_dot::STYLE,
    &points::STYLE,
    &circles::STYLE,
    &published::STYLE,
    &band::STYLE,
];

/// SVG pixels per PGFPlots point (a 640-pixel panel prints at 3.5 in, 2 px per pt for the pattern
/// lengths, as the dashes were tuned).
pub const PX_PER_PT: f64 = 2.0;

/// Marker radius (disc, circle) or half side (square), in SVG pixels, unless the series declares
/// its `marker_size`.
pub const MARKER_PX: f64 = 3.0;

/// The declaration of a style.
pub fn def(style: Style) -> &'static StyleDef {
    STYLES
        .iter()
        .find(|d| d.style == style)
        .copied()
        .unwrap_or(&solid::STYLE)
}

impl StyleDef {
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

    /// Every manifest style has exactly one declaration, under its manifest name.
    #[test]
    fn every_style_is_declared_once_under_its_manifest_name() {
        for d in STYLES {
            let name = serde_json::to_value(d.style).unwrap();
            assert_eq!(name.as_str(), Some(d.name), "{d:?}");
            assert_eq!(STYLES.iter().filter(|e| e.style == d.style).count(), 1);
            assert!(!d.doc.is_empty());
        }
        let schema = serde_json::to_string(&schemars::schema_for!(Style)).unwrap();
        let listed = schema.matches("\"").count();
        assert!(listed > 0);
        for d in STYLES {
            assert!(
                schema.contains(&format!("\"{}\"", d.name)),
                "{} not in the schema",
                d.name
            );
        }
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
            def(Style::Dashed).pgf_options("c", None),
            "thick, mark=none, dash pattern=on 5pt off 3pt"
        );
        assert_eq!(
            def(Style::DashDot).pgf_options("c", None),
            "thick, mark=none, dash pattern=on 5pt off 2pt on 1pt off 2pt"
        );
        assert!(def(Style::Band).pgf_options("fricred", None).contains("fill=fricred"));
    }
}
