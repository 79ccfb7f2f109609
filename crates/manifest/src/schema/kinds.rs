//! One declaration per kind of input, post-processing step, window, panel part and check
//! provenance: its fields (name, type, unit, whether required, meaning) and an example.
//! Validation reads the field lists from here (the input fields a kind takes and needs, the
//! `param` a post step needs), `cargo xtask schema` prints them, and the JSON Schema of inputs is
//! generated from them, so the three cannot disagree. Metric kinds use the same types but are
//! declared beside their evaluation (`fric_pipeline::evaluate::metric_kinds`).

/// The type of a field as a manifest writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldType {
    Number,
    /// A whole number ≥ 0.
    Count,
    Text,
    /// A column name of the run.
    Column,
    /// `[a, b]`: two numbers.
    Pair,
    /// `[[t, u], ...]`.
    Points,
    /// `[{amplitude, omega, phase}, ...]`.
    Components,
    /// `[{from_period, amplitude}, ...]`.
    Pieces,
    /// `linear`, `log` or `sym-log`.
    Scale,
    /// A mapping or other structure, described in `doc`.
    Other,
    /// A list, its items described in `doc`.
    List,
}

impl FieldType {
    pub fn name(self) -> &'static str {
        match self {
            FieldType::Number => "number",
            FieldType::Count => "integer",
            FieldType::Text => "text",
            FieldType::Column => "column",
            FieldType::Pair => "[a, b]",
            FieldType::Points => "[[t, u], ...]",
            FieldType::Components => "[{amplitude, omega, phase}, ...]",
            FieldType::Pieces => "[{from_period, amplitude}, ...]",
            FieldType::Scale => "linear | log | sym-log",
            FieldType::Other => "mapping",
            FieldType::List => "list",
        }
    }
}

/// One field of a kind.
#[derive(Clone, Copy, Debug)]
pub struct FieldDoc {
    pub name: &'static str,
    pub ty: FieldType,
    /// Its unit ("" when it has none; "input" for the unit of the system's input).
    pub unit: &'static str,
    pub required: bool,
    /// The value an optional field takes when it is left out (`None`: no value, or a default
    /// described in `doc`).
    pub default: Option<FieldDefault>,
    pub doc: &'static str,
}

/// The declared default of an optional field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FieldDefault {
    Number(f64),
    Text(&'static str),
}

impl std::fmt::Display for FieldDefault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FieldDefault::Number(v) => write!(f, "{v}"),
            FieldDefault::Text(t) => f.write_str(t),
        }
    }
}

/// One kind: its name as manifests write it, what it is, its fields and an example.
#[derive(Clone, Copy, Debug)]
pub struct KindDoc {
    pub name: &'static str,
    pub doc: &'static str,
    pub fields: &'static [FieldDoc],
    pub example: &'static str,
}

impl KindDoc {
    pub fn field(&self, name: &str) -> Option<&FieldDoc> {
        self.fields.iter().find(|f| f.name == name)
    }
    /// Whether the kind needs the field.
    pub fn requires(&self, name: &str) -> bool {
        self.field(name).is_some_and(|f| f.required)
    }
    pub fn field_names(&self) -> Vec<&'static str> {
        self.fields.iter().map(|f| f.name).collect()
    }
}

/// The declaration of `name` in `kinds`.
pub fn kind<'a>(kinds: &'a [KindDoc], name: &str) -> Option<&'a KindDoc> {
    kinds.iter().find(|k| k.name == name)
}

/// A required field.
pub const fn req(name: &'static str, ty: FieldType, unit: &'static str, doc: &'static str) -> FieldDoc {
    FieldDoc {
        name,
        ty,
        unit,
        required: true,
        default: None,
        doc,
    }
}

/// An optional field.
pub const fn opt(name: &'static str, ty: FieldType, unit: &'static str, doc: &'static str) -> FieldDoc {
    FieldDoc {
        name,
        ty,
        unit,
        required: false,
        default: None,
        doc,
    }
}

/// An optional field with its default.
pub const fn opt_or(
    name: &'static str,
    ty: FieldType,
    unit: &'static str,
    default: FieldDefault,
    doc: &'static str,
) -> FieldDoc {
    FieldDoc {
        name,
        ty,
        unit,
        required: false,
        default: Some(default),
        doc,
    }
}

use FieldType::*;

const POST_NAME: FieldDoc = req("name", Text, "", "the new column's name");
const POST_OF: FieldDoc = req("of", Column, "", "the column it is computed from");

/// Post-processing steps (`runs[].post[]`, `op`): each adds a column `name` computed from `of`.
pub const POST_KINDS: &[KindDoc] = &[
    KindDoc {
        name: "ewma",
        doc: "exponentially weighted moving average m_k = β y_k + (1 − β) m_{k−1}, m_0 = y_0",
        fields: &[
            POST_NAME,
            POST_OF,
            req("param", Number, "1", "β, the weight of the newest sample, in (0, 1]"),
        ],
        example: "{name: F_avg, op: ewma, of: F, param: 0.01}",
    },
    KindDoc {
        name: "moving-average",
        doc: "centred moving average (shrinking at the ends)",
        fields: &[
            POST_NAME,
            POST_OF,
            req("param", Number, "samples", "the window, a whole number ≥ 1"),
        ],
        example: "{name: F_avg, op: moving-average, of: F, param: 51}",
    },
    KindDoc {
        name: "abs",
        doc: "|of|",
        fields: &[POST_NAME, POST_OF],
        example: "{name: F_abs, op: abs, of: F}",
    },
    KindDoc {
        name: "gradient",
        doc: "d(of)/d(by) by central differences (one-sided at the ends)",
        fields: &[
            POST_NAME,
            POST_OF,
            opt("by", Column, "", "the independent column (default t)"),
        ],
        example: "{name: dF_du, op: gradient, of: F, by: u}",
    },
    KindDoc {
        name: "rising",
        doc: "of where it rises from the previous sample, NaN elsewhere (the first sample NaN): the increasing trace of a loop, for a metric with x set to this column and a range (NaN lies in no range)",
        fields: &[POST_NAME, POST_OF],
        example: "{name: v_up, op: rising, of: v}",
    },
    KindDoc {
        name: "gate",
        doc: "of where |by| ≤ param, NaN elsewhere: a column restricted to the samples where another is small (the error while at rest), for dwell, max or min metrics",
        fields: &[
            POST_NAME,
            POST_OF,
            req("by", Column, "", "the column that gates"),
            req("param", Number, "unit of by", "the largest |by| that passes"),
        ],
        example: "{name: e_rest, op: gate, of: e, by: omega, param: 0.01}",
    },
    KindDoc {
        name: "since-reversal",
        doc: "of minus its value at its last reversal (the last sample where it changed direction; the first sample before any): the displacement since the last velocity reversal, signed (abs for the report's s of (3.5))",
        fields: &[POST_NAME, POST_OF],
        example: "{name: s, op: since-reversal, of: theta}",
    },
    KindDoc {
        name: "cumulative-integral",
        doc: "trapezoidal ∫ of d(by) from the first sample",
        fields: &[
            POST_NAME,
            POST_OF,
            opt("by", Column, "", "the independent column (default t)"),
        ],
        example: "{name: work, op: cumulative-integral, of: F, by: u}",
    },
    KindDoc {
        name: "scale",
        doc: "param · of",
        fields: &[
            POST_NAME,
            POST_OF,
            req("param", Number, "unit of the new column / unit of `of`", "the factor"),
        ],
        example: "{name: F_mN, op: scale, of: F, param: 1000}",
    },
    KindDoc {
        name: "offset",
        doc: "of + param",
        fields: &[
            POST_NAME,
            POST_OF,
            req("param", Number, "unit of `of`", "the added constant"),
        ],
        example: "{name: F_shifted, op: offset, of: F, param: -0.5}",
    },
    KindDoc {
        name: "shear",
        doc: "of − param · (by − at): the (by, of) plane sheared along by about by = at; f − k (x − x₀), a loop's mean slope k taken out, opens hysteresis loops thinner than a line and keeps them centred on x₀",
        fields: &[
            POST_NAME,
            POST_OF,
            req("by", Column, "", "the column whose multiple is subtracted"),
            req("param", Number, "unit of `of` / unit of by", "the slope k taken out"),
            opt_or(
                "at",
                Number,
                "unit of by",
                FieldDefault::Number(0.0),
                "the reference x₀ the plane is sheared about (the curve keeps its values at by = at); within the by column's range",
            ),
        ],
        example: "{name: f_sheared, op: shear, of: F, by: x, param: 10, at: -0.5}",
    },
];

/// Windows (`window:` of series and metrics): which samples of a run.
pub const WINDOW_KINDS: &[KindDoc] = &[
    KindDoc {
        name: "all",
        doc: "every sample",
        fields: &[],
        example: "all",
    },
    KindDoc {
        name: "last-period",
        doc: "the last input period (periodic inputs)",
        fields: &[],
        example: "last-period",
    },
    KindDoc {
        name: "last_periods",
        doc: "the last k input periods (periodic inputs; k may be fractional)",
        fields: &[req("last_periods", Number, "periods", "k > 0")],
        example: "{last_periods: 3}",
    },
    KindDoc {
        name: "periods",
        doc: "input periods a to b, inclusive (periodic inputs; one cycle: [a, a + 1])",
        fields: &[req("periods", Pair, "periods", "[a, b]")],
        example: "{periods: [1, 2]}",
    },
    KindDoc {
        name: "t",
        doc: "times a to b, inclusive",
        fields: &[req("t", Pair, "s", "[a, b]")],
        example: "{t: [0, 10]}",
    },
];

/// The parts of a figure (`layout`, `panels[]`, their axes and series).
pub const PANEL_KINDS: &[KindDoc] = &[
    KindDoc {
        name: "layout",
        doc: "the grid of panels",
        fields: &[
            req("rows", Count, "", "1–16"),
            req("cols", Count, "", "1–16"),
            opt("panel_width", Count, "px", "64–4096 (default 640)"),
            opt("panel_height", Count, "px", "64–4096 (default 480)"),
            opt(
                "width",
                Text,
                "",
                "the printed width: single (3.5 in), double (7.16 in) or a length (120mm, 12cm, 4.5in); panels scaled to it",
            ),
        ],
        example: "{rows: 1, cols: 2}",
    },
    KindDoc {
        name: "panel",
        doc: "one panel as published",
        fields: &[
            req("id", Text, "", "as published: a, b, ... (one panel: main)"),
            opt("title", Text, "", "title above the panel"),
            req("x", Other, "", "the x axis (see axis)"),
            req("y", Other, "", "the y axis (see axis)"),
            req("series", Other, "", "the curves (see series)"),
            opt(
                "legend",
                Text,
                "",
                "upper-left | upper-right | lower-left | lower-right | none",
            ),
            opt("equal_aspect", Other, "", "true: one unit of x as long as one of y"),
            opt("insets", List, "", "regions redrawn at larger scale inside the panel (see inset)"),
        ],
        example: "{id: main, x: {label: u, unit: m}, y: {label: F, unit: N}, series: [{run: dahl, x: u, y: F}]}",
    },
    KindDoc {
        name: "axis",
        doc: "an axis of a panel",
        fields: &[
            req("label", Text, "", "the label, as published"),
            opt("unit", Text, "", "shown after the label"),
            opt("scale", Scale, "", "default linear"),
            opt("range", Pair, "axis unit", "[min, max] (default: the data's)"),
        ],
        example: "{label: F, unit: N, range: [-2, 2]}",
    },
    KindDoc {
        name: "series",
        doc: "one curve (one per value of a swept run)",
        fields: &[
            opt(
                "run",
                Text,
                "",
                "a run id, `<id>[k]`, or a swept id for one curve per value (required unless `metric`)",
            ),
            opt(
                "metric",
                Text,
                "",
                "instead of `run`: a metric over a swept run, drawn against the swept parameter `x`",
            ),
            opt(
                "group",
                Text,
                "",
                "with `metric`: one series per value of this other swept parameter",
            ),
            req("x", Column, "", "the x column (with `metric`: a swept parameter)"),
            opt("y", Column, "", "the y column, the lower edge of a band (required unless `metric`)"),
            opt("y2", Column, "", "the upper edge, for a style that takes it (band)"),
            opt(
                "style",
                Text,
                "",
                "how the series is drawn: one of the series styles (listed below with what each takes), default solid",
            ),
            opt(
                "label",
                Text,
                "",
                "legend entry; {value} is replaced by the sweep value (the group's value), {<param>} by that parameter's",
            ),
            opt("window", Other, "", "which samples (see Windows)"),
            opt("color", Text, "", "a color name"),
            opt(
                "arrows",
                Count,
                "",
                "arrowheads along the curve showing its direction: how many, 0 to 100 (default 0)",
            ),
            opt(
                "marker_size",
                Number,
                "pt",
                "for a style that takes it (a marker style, see Series styles): the marker's radius (a square's half side), 0.5–6 (default 1.5, published 2)",
            ),
            opt(
                "open",
                Text,
                "",
                "with a window of settled periods (last-period, last_periods, periods: [a, a + 1] with a ≥ 1; or any window drawn as one period): why the drawn stretch does not close, with its measured gap (a drawn period must close to 1 % of its range in each non-time coordinate, or say why here)",
            ),
        ],
        example: "{run: dahl, x: u, y: F, window: last-period, style: dashed, label: \"ω = {value}\"}",
    },
    KindDoc {
        name: "inset",
        doc: "a region of a panel redrawn at larger scale in a corner of its axes, the region's frame marked on the panel",
        fields: &[
            req("x", Pair, "axis unit", "the region's [min, max]"),
            req("y", Pair, "axis unit", "the region's [min, max]"),
            opt("corner", Text, "", "upper-left | upper-right | lower-left | lower-right (default upper-right)"),
            opt("size", Number, "", "fraction of the panel's axes, 0.2–0.6 (default 0.4)"),
        ],
        example: "{x: [0.9, 1.1], y: [-0.05, 0.05], corner: lower-right}",
    },
    KindDoc {
        name: "panels_from",
        doc: "instead of `layout` and `panels`: draw with those of another manifest (one definition of a figure two documents publish); this manifest has every run they draw, under the same ids",
        fields: &[req("panels_from", Text, "", "<doc>/<name> of a manifest that declares its panels")],
        example: "panels_from: thesis/fig4.9",
    },
    KindDoc {
        name: "panels_relabel",
        doc: "with `panels_from`: text replacements, in order, in the inherited panels' titles, axis labels and series labels (this document's equation or line numbers for the other's); each `from` must occur there",
        fields: &[
            req("from", Text, "", "the text as the other manifest's panels have it"),
            req("to", Text, "", "the text this document prints instead"),
        ],
        example: "panels_relabel: [{from: \"(4.68)\", to: \"(68)\"}, {from: \"(4.69)\", to: \"(69)\"}]",
    },
];

/// Check provenances (`checks[].provenance`), and the fields of every check.
pub const CHECK_KINDS: &[KindDoc] = &[
    KindDoc {
        name: "published",
        doc: "a number printed in the source",
        fields: &[
            req("line", Count, "", "the seed line it is printed on"),
            opt("quote", Text, "", "the printed text"),
            opt(
                "printed",
                Text,
                "",
                "the number as printed (\"0.740\"): half a unit of its last digit bounds the tolerance",
            ),
        ],
        example: "{metric: area, expected: 28.8, tol: {abs: 0.05}, provenance: {published: {line: 463, quote: \"an area of 28.8\", printed: \"28.8\"}}}",
    },
    KindDoc {
        name: "derived",
        doc: "a value worked out from the source's equations and parameters: the one-line derivation (text)",
        fields: &[],
        example: "{metric: area, expected: 28.8, tol: {rel: 1e-3}, provenance: {derived: \"4(A Fc - Fc^2/sigma)\"}}",
    },
    KindDoc {
        name: "claim",
        doc: "a qualitative statement of the source, turned into a numeric test",
        fields: &[
            req("kind", Text, "", "rate-independence | rate-dependence | local-memory | nonlocal-memory | clockwise | counterclockwise | convergence-as-omega-to-zero | hysteretic | not-hysteretic | bound | equivalence | symmetry | shape | in-equilibria"),
            req("lines", Other, "", "the seed lines stating it"),
            opt("text", Text, "", "the statement"),
        ],
        example: "{metric: d, op: lt, expected: 1e-6, provenance: {claim: {kind: rate-independence, lines: [130]}}}",
    },
];

/// The fields of every check, whatever its provenance.
pub const CHECK_FIELDS: &[FieldDoc] = &[
    req("metric", Text, "", "the metric compared"),
    opt("op", Text, "", "within (default): |computed − expected| ≤ tol; lt; gt"),
    req(
        "expected",
        Number,
        "the metric's",
        "the expected value: a number, or {metric: NAME} for an earlier metric's value (a check comparing two metrics)",
    ),
    opt(
        "tol",
        Other,
        "the metric's",
        "{abs, rel}: the larger bound applies; required for within",
    ),
    req(
        "provenance",
        Other,
        "",
        "exactly one of published, derived, claim (below)",
    ),
    opt(
        "known_discrepancy",
        Text,
        "",
        "the computed value misses the expected one: the evidence why (requires `discrepancy`)",
    ),
    opt(
        "discrepancy",
        Text,
        "",
        "the kind of the known discrepancy: source-error (the source's arithmetic or printed \
         formula shown wrong by a computation in the evidence, independent of the simulation), \
         assumption (an unstated value explains it; requires `explain`) or unresolved (the \
         evidence says what was ruled out); only the first two are the source's",
    ),
    opt(
        "explain",
        List,
        "",
        "[{run, param, range, xtol}]: parameters `cargo xtask explain` solves for to reproduce expected",
    ),
    opt("note", Text, "", "a remark for the report"),
];

impl FieldType {
    /// The JSON Schema of a value of this type.
    pub(super) fn json_schema(self, generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        use schemars::json_schema;
        let number = json_schema!({"type": "number"});
        match self {
            FieldType::Number => number,
            FieldType::Count => json_schema!({"type": "integer", "minimum": 0}),
            FieldType::Text | FieldType::Column => json_schema!({"type": "string"}),
            FieldType::Pair => json_schema!({"type": "array", "items": number, "minItems": 2, "maxItems": 2}),
            FieldType::Points => json_schema!({
                "type": "array",
                "items": {"type": "array", "items": number, "minItems": 2, "maxItems": 2}
            }),
            FieldType::Components => generator.subschema_for::<Vec<super::SineComponent>>(),
            FieldType::Pieces => generator.subschema_for::<Vec<super::SinePiece>>(),
            FieldType::Scale => generator.subschema_for::<super::Scale>(),
            FieldType::Other => json_schema!({}),
            FieldType::List => json_schema!({"type": "array"}),
        }
    }
}
