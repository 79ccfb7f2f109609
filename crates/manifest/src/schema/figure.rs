//! Figures: layout, panels, axes, series and the windows they draw.

use super::Scale;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    pub rows: usize,
    pub cols: usize,
    /// Pixel size of one panel.
    #[serde(default = "default_panel_width")]
    pub panel_width: u32,
    #[serde(default = "default_panel_height")]
    pub panel_height: u32,
    /// The printed width of the whole figure: `single` (a journal's column, 3.5 in), `double`
    /// (the text width of a two-column page, 7.16 in) or a length (`120mm`, `12cm`, `4.5in`).
    /// The panels are scaled to it keeping their aspect (`panel_width` : `panel_height`), the
    /// text staying at its print size; both the SVG/PNG and PGFPlots follow it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<String>,
}

impl Layout {
    /// The printed width in inches, or why `width` is not one.
    pub fn width_in(&self) -> Result<Option<f64>, String> {
        let Some(w) = self.width.as_deref().map(str::trim) else {
            return Ok(None);
        };
        let inches = match w {
            "single" => 3.5,
            "double" => 7.16,
            _ => {
                let (num, per_in) = [("mm", 25.4), ("cm", 2.54), ("in", 1.0)]
                    .iter()
                    .find_map(|(u, f)| w.strip_suffix(u).map(|n| (n.trim(), *f)))
                    .ok_or_else(|| format!("width `{w}` is not single, double or a length in mm, cm or in"))?;
                let v: f64 = num
                    .parse()
                    .map_err(|_| format!("width `{w}`: `{num}` is not a number"))?;
                v / per_in
            }
        };
        if !(1.0..=7.16).contains(&inches) {
            return Err(format!(
                "width `{w}` is {inches:.2} in: a figure prints 1 to 7.16 in wide"
            ));
        }
        Ok(Some(inches))
    }
}

fn default_panel_width() -> u32 {
    640
}
fn default_panel_height() -> u32 {
    480
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Panel {
    /// As published: "a", "b" ... (one panel: "main").
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub x: Axis,
    pub y: Axis,
    pub series: Vec<SeriesSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legend: Option<LegendPos>,
    /// Equal aspect: one unit of x as long as one unit of y on the page (a circle drawn as a
    /// circle); the ranges are widened, never cut, to make it so.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub equal_aspect: bool,
    /// Regions of the panel redrawn at larger scale inside it (zooms), each region's frame
    /// marked on the panel.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub insets: Vec<Inset>,
}

/// A region of a panel redrawn at larger scale in a corner of the panel's axes, with tick labels
/// on its inner sides; the region's frame is drawn on the panel. The same series, styles and
/// colours; the legend of the panel keeps clear of it.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Inset {
    /// The region's x range (axis units).
    pub x: [f64; 2],
    /// The region's y range (axis units).
    pub y: [f64; 2],
    /// The corner of the panel's axes the inset is drawn in.
    #[serde(default)]
    pub corner: Corner,
    /// The inset's axes as a fraction of the panel's axes (width and height), 0.2 to 0.6.
    #[serde(default = "default_inset_size")]
    pub size: f64,
}

fn default_inset_size() -> f64 {
    0.4
}

/// A corner of a panel's axes.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Corner {
    UpperLeft,
    #[default]
    UpperRight,
    LowerLeft,
    LowerRight,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Axis {
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    #[serde(default)]
    pub scale: Scale,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<[f64; 2]>,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum LegendPos {
    UpperLeft,
    UpperRight,
    LowerLeft,
    LowerRight,
    None,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SeriesSpec {
    /// A run id, `<id>[k]` for one member of a sweep, or a swept id for one curve per value
    /// (empty for a metric series).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub run: String,
    /// A metric over a swept run, drawn against the swept parameter `x` (instead of `run`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
    /// The result of this manifest's `find` of that name, drawn as a marker: the located point
    /// (the parameter's value, the level), or, where the metric jumps across the level, the two
    /// sides of the jump (no run, no `x`/`y`: the axes are the find's parameter and metric).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub find: Option<String>,
    /// This manifest's `fit` of that name: without `run`, its targets' points (abscissa, value)
    /// as markers; with `run` (the fit's run), that run drawn at the fitted parameters (the
    /// fitted curve, the run the fit's last evaluation computed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fit: Option<String>,
    /// With `metric`: one series per value of this other swept parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// A column of the run, or with `metric` a swept parameter (`sigma1`, `input.omega`)
    /// (empty for published points).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub x: String,
    /// A column of the run (empty for a metric series).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub y: String,
    /// Upper edge for `style: band` (`y` is the lower edge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y2: Option<String>,
    #[serde(default)]
    pub style: StyleName,
    /// Legend entry; `{value}` is replaced by the sweep value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<Window>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// Arrowheads along the curve showing its direction (for loops whose orientation the text
    /// discusses): how many, evenly spaced by arc length.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(max = 100))]
    pub arrows: u32,
    /// For a marker style: the marker's size in pt (PGFPlots' `mark size`: a disc's or circle's
    /// radius, a square's half side), 0.5 to 6; default 1.5 (2.0 for `published`). A larger
    /// marker for points the caption names, which print too small at the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marker_size: Option<f64>,
    /// With a window of settled periods (`last-period`, `last_periods`, or `periods: [a, a + 1]`
    /// with a ≥ 1): why the drawn
    /// stretch does not close, with its measured gap. A drawn period must close to what a reader
    /// can see (its end within one pixel of a 640 × 480 panel of its start: 1/640 of its range in
    /// x, 1/480 in y, unless x is t) or say here why not; the drawing fails otherwise (issue 46). Over any other
    /// window, declared for a stretch drawn as one period that does not close; a declared `open`
    /// on a stretch that closes is an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<String>,
    /// With `style: published`: the points the source prints (a table's rows, values read in
    /// the text), each with its seed line; drawn as open markers, labelled when `label` is set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub points: Vec<PublishedPoint>,
}

/// A point the source publishes, drawn as it is printed (no run, no metric).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PublishedPoint {
    pub x: f64,
    pub y: f64,
    /// Written beside the marker (`A`, `σ₀ = 10⁵`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Seed line the value is printed on.
    pub line: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// What the JSON Schema says of a series' `style`.
pub const STYLE_DOC: &str = "How a series is drawn (`style`, default `solid`); each style is declared with what it\ntakes and how every backend draws it.";

/// A series style by name, as the manifest writes it (`dashed`, `published`). The styles are
/// declared, each with its fields, checks and how every backend draws it, in
/// `fric_plot::style` (one file per style, registered by one line); the loader resolves the
/// name against that registry (an unknown style is an error at its line with the allowed
/// list), and the JSON Schema lists the names it holds.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, Hash)]
#[serde(transparent)]
pub struct StyleName(pub String);

/// `solid`.
impl Default for StyleName {
    fn default() -> Self {
        StyleName("solid".into())
    }
}

impl std::fmt::Display for StyleName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Any name parses (`"dashed".parse()`); the loader resolves it against the registry.
impl std::str::FromStr for StyleName {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(StyleName(s.to_string()))
    }
}

/// A string here; [`crate::json_schema`] adds the registry's names as its alternatives.
impl JsonSchema for StyleName {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Style".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"description": STYLE_DOC, "type": "string"})
    }
}

/// Which samples of a run: everything, the last period, the last k periods, a range of periods
/// or of time.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(
    untagged,
    expecting = "`all`, `last-period`, {last_periods: k}, {periods: [a, b]} or {t: [a, b]}"
)]
pub enum Window {
    Named(NamedWindow),
    LastPeriods { last_periods: f64 },
    Periods { periods: [f64; 2] },
    Time { t: [f64; 2] },
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum NamedWindow {
    All,
    LastPeriod,
}
