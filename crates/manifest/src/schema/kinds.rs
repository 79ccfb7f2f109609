//! One declaration per kind of input, post-processing step, metric, window, panel part and
//! check provenance: its fields (name, type, unit, whether required, meaning) and an example.
//! Validation reads the field lists from here (the input fields a kind takes and needs, the
//! `param` a post step needs, the `x` and `at` a metric needs), `cargo xtask schema` prints them,
//! and the JSON Schema of inputs is generated from them, so the three cannot disagree.

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
    pub doc: &'static str,
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

/// The name a manifest writes for a unit enum value (`MetricKind::LoopArea` → `loop-area`).
pub fn kind_name<T: serde::Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

/// The declaration of `name` in `kinds`.
pub fn kind<'a>(kinds: &'a [KindDoc], name: &str) -> Option<&'a KindDoc> {
    kinds.iter().find(|k| k.name == name)
}

const fn req(name: &'static str, ty: FieldType, unit: &'static str, doc: &'static str) -> FieldDoc {
    FieldDoc {
        name,
        ty,
        unit,
        required: true,
        doc,
    }
}

const fn opt(name: &'static str, ty: FieldType, unit: &'static str, doc: &'static str) -> FieldDoc {
    FieldDoc {
        name,
        ty,
        unit,
        required: false,
        doc,
    }
}

use FieldType::*;

const AMPLITUDE: FieldDoc = req("amplitude", Number, "input", "amplitude");
const OMEGA: FieldDoc = req("omega", Number, "rad/s", "angular frequency, > 0");
const PHASE: FieldDoc = opt("phase", Number, "rad", "phase (default 0)");
const OFFSET: FieldDoc = opt("offset", Number, "input", "added constant (default 0)");

/// Input kinds (`runs[].input.kind`). Which systems take which is listed per system.
pub const INPUT_KINDS: &[KindDoc] = &[
    KindDoc {
        name: "sine",
        doc: "offset + amplitude sin(omega t + phase)",
        fields: &[AMPLITUDE, OMEGA, PHASE, OFFSET],
        example: "{kind: sine, amplitude: 5, omega: 2}",
    },
    KindDoc {
        name: "cosine",
        doc: "offset + amplitude cos(omega t + phase)",
        fields: &[AMPLITUDE, OMEGA, PHASE, OFFSET],
        example: "{kind: cosine, amplitude: 5, omega: 0.25}",
    },
    KindDoc {
        name: "switched-sine",
        doc: "sinusoidal pieces of one frequency, each starting after a number of periods",
        fields: &[
            OMEGA,
            req("pieces", Pieces, "periods, input", "from_period (the first is 0) and amplitude of each piece"),
        ],
        example: "{kind: switched-sine, omega: 1, pieces: [{from_period: 0, amplitude: 2}, {from_period: 1.5, amplitude: 1}]}",
    },
    KindDoc {
        name: "triangle",
        doc: "triangle wave with the sine's phase convention: 0 at t = 0 rising, extrema where the sine has them",
        fields: &[AMPLITUDE, OMEGA, PHASE, OFFSET],
        example: "{kind: triangle, amplitude: 1.5, omega: 1.5707963267948966}",
    },
    KindDoc {
        name: "signed-square-sine",
        doc: "offset + amplitude sin(θ) |sin(θ)|, θ = omega t + phase: rate 2 amplitude omega |sin θ| cos θ (report L930: \
              amplitude A/(2π), omega 2π give the velocity A sgn(sin 2πt) sin 4πt)",
        fields: &[AMPLITUDE, OMEGA, PHASE, OFFSET],
        example: "{kind: signed-square-sine, amplitude: 7.957747154594767e-5, omega: 6.283185307179586}",
    },
    KindDoc {
        name: "sawtooth",
        doc: "continuous sawtooth: rises for `width` of the period, falls for the rest; 0 at t = 0 rising",
        fields: &[
            AMPLITUDE,
            OMEGA,
            PHASE,
            OFFSET,
            req("width", Number, "1", "rising fraction of the period, 0 < width < 1 (0.5: triangle)"),
        ],
        example: "{kind: sawtooth, amplitude: 1, omega: 6.283185307179586, width: 0.9}",
    },
    KindDoc {
        name: "ramp-hold",
        doc: "hold `from` until `start`, ramp linearly to `to` over `ramp`, then hold `to` (no period: sim.t_end)",
        fields: &[
            req("from", Number, "input", "value before and at the start of the ramp"),
            req("to", Number, "input", "value at the end of the ramp and after"),
            req("ramp", Number, "s", "duration of the ramp, > 0"),
            opt("start", Number, "s", "time the ramp starts (default 0)"),
        ],
        example: "{kind: ramp-hold, from: 0, to: 1e-3, ramp: 2}",
    },
    KindDoc {
        name: "piecewise-linear",
        doc: "linear interpolation through points, constant beyond the first and last (no period: sim.t_end)",
        fields: &[req("points", Points, "s, input", "[t, u] points, t strictly increasing, at least two")],
        example: "{kind: piecewise-linear, points: [[0, 0], [1, 1], [3, -1], [4, 0]]}",
    },
    KindDoc {
        name: "sum-of-sines",
        doc: "offset + Σ amplitude_k sin(omega_k t + phase_k) (no period: sim.t_end)",
        fields: &[
            req(
                "components",
                Components,
                "input, rad/s, rad",
                "the terms: amplitude, omega (> 0), phase (default 0)",
            ),
            OFFSET,
        ],
        example: "{kind: sum-of-sines, components: [{amplitude: 1, omega: 1}, {amplitude: 0.2, omega: 7, phase: 0.5}]}",
    },
    KindDoc {
        name: "csv",
        doc: "samples read from a CSV file under data/ (header row; t strictly increasing; finite values), \
              linearly interpolated and constant beyond the ends; the file's sha256 is part of the cache key \
              (no period: sim.t_end)",
        fields: &[
            req("path", Text, "", "the file, relative to the workspace root: data/<dir>/<file>.csv"),
            opt("t_column", Text, "", "header name of the time column, in s (default `t`)"),
            opt("u_column", Text, "", "header name of the input column (default `u`)"),
        ],
        example: "{kind: csv, path: data/measured/run1.csv, t_column: time, u_column: position}",
    },
    KindDoc {
        name: "grid",
        doc: "an evaluation grid for analytic curves",
        fields: &[
            req("from", Number, "input", "first grid value"),
            req("to", Number, "input", "last grid value, > from"),
            req("points", Count, "", "number of grid points, ≥ 2"),
            opt("scale", Scale, "", "spacing (default linear; log needs from > 0)"),
        ],
        example: "{kind: grid, from: -0.1, to: 0.1, points: 401, scale: sym-log}",
    },
    KindDoc {
        name: "none",
        doc: "no input: an autonomous system, run for sim.t_end",
        fields: &[],
        example: "{kind: none}",
    },
];

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
];

const M_NAME: FieldDoc = req("name", Text, "", "the metric's name (checks refer to it)");
const M_RUN: FieldDoc = req(
    "run",
    Text,
    "",
    "a run id: one member `<id>[k]` of a sweep, or a swept id for one value per member (a metric table)",
);
const M_X: FieldDoc = req("x", Column, "", "the abscissa column");
const M_X_OPT: FieldDoc = opt("x", Column, "", "the abscissa column (unused)");
const M_Y: FieldDoc = req("y", Column, "", "the column measured");
const M_WINDOW: FieldDoc = opt("window", Other, "", "which samples (default all): see Windows");
const M_UNIT: FieldDoc = opt("unit", Text, "", "unit of the value, for the report");
const M_NOTE: FieldDoc = opt("note", Text, "", "a remark for the report");
const M_BASELINE: FieldDoc = opt(
    "baseline_tol",
    Other,
    "",
    "{rel, abs}: how far the value may move from the committed baseline (default rel 1e-9, abs 1e-12)",
);
const M_OF: FieldDoc = req("of", Pair, "", "two earlier metric names");

/// Metric kinds (`metrics[].kind`).
pub const METRIC_KINDS: &[KindDoc] = &[
    KindDoc {
        name: "loop-area",
        doc: "signed ∮ y dx over the window (positive clockwise); unit x·y",
        fields: &[M_NAME, M_RUN, M_X, M_Y, M_WINDOW, M_UNIT, M_NOTE, M_BASELINE],
        example: "{name: area, kind: loop-area, run: dahl, x: u, y: F, window: last-period}",
    },
    KindDoc {
        name: "max",
        doc: "largest y over the window; unit of y",
        fields: &[M_NAME, M_RUN, M_X_OPT, M_Y, M_WINDOW, M_UNIT, M_NOTE, M_BASELINE],
        example: "{name: fmax, kind: max, run: dahl, y: F}",
    },
    KindDoc {
        name: "min",
        doc: "smallest y over the window; unit of y",
        fields: &[M_NAME, M_RUN, M_X_OPT, M_Y, M_WINDOW, M_UNIT, M_NOTE, M_BASELINE],
        example: "{name: fmin, kind: min, run: dahl, y: F}",
    },
    KindDoc {
        name: "max-abs",
        doc: "largest |y| over the window; unit of y",
        fields: &[M_NAME, M_RUN, M_X_OPT, M_Y, M_WINDOW, M_UNIT, M_NOTE, M_BASELINE],
        example: "{name: fpeak, kind: max-abs, run: dahl, y: F}",
    },
    KindDoc {
        name: "value-at",
        doc: "y at x = at on the first bracketing segment; unit of y",
        fields: &[
            M_NAME,
            M_RUN,
            M_X,
            M_Y,
            req("at", Number, "unit of x", "the abscissa"),
            M_WINDOW,
            M_UNIT,
            M_NOTE,
            M_BASELINE,
        ],
        example: "{name: f0, kind: value-at, run: dahl, x: u, y: F, at: 0, window: last-period}",
    },
    KindDoc {
        name: "slope",
        doc: "least-squares dy/dx over the samples with x in range; unit y/x",
        fields: &[
            M_NAME,
            M_RUN,
            M_X,
            M_Y,
            opt("range", Pair, "unit of x", "the x range of the fit (default all)"),
            M_WINDOW,
            M_UNIT,
            M_NOTE,
            M_BASELINE,
        ],
        example: "{name: k, kind: slope, run: dahl, x: u, y: F, range: [-0.1, 0.1]}",
    },
    KindDoc {
        name: "intercept",
        doc: "intercept of the same least-squares line; unit of y",
        fields: &[
            M_NAME,
            M_RUN,
            M_X,
            M_Y,
            opt("range", Pair, "unit of x", "the x range of the fit (default all)"),
            M_WINDOW,
            M_UNIT,
            M_NOTE,
            M_BASELINE,
        ],
        example: "{name: b, kind: intercept, run: dahl, x: u, y: F, range: [-0.1, 0.1]}",
    },
    KindDoc {
        name: "max-diff",
        doc: "largest |y − other.y| over equally sampled windows; unit of y",
        fields: &[
            M_NAME,
            M_RUN,
            M_Y,
            req("other", Other, "", "{run, y, window}: the series compared against"),
            M_WINDOW,
            M_UNIT,
            M_NOTE,
            M_BASELINE,
        ],
        example: "{name: d, kind: max-diff, run: exact, y: F, other: {run: ode, y: F}}",
    },
    KindDoc {
        name: "curve-crossings",
        doc: "how many times the polyline (x, y) crosses the polyline (other.x, other.y) in the plane, such as a Nyquist curve and −1/N (a NaN row breaks a curve); a count",
        fields: &[
            M_NAME,
            M_RUN,
            M_X,
            M_Y,
            req("other", Other, "", "{run, x, y, window}: the other curve"),
            M_WINDOW,
            M_UNIT,
            M_NOTE,
            M_BASELINE,
        ],
        example: "{name: n, kind: curve-crossings, run: df, x: re, y: im, other: {run: h1, x: re, y: im}}",
    },
    KindDoc {
        name: "final",
        doc: "y of the last sample in the window; unit of y",
        fields: &[M_NAME, M_RUN, M_X_OPT, M_Y, M_WINDOW, M_UNIT, M_NOTE, M_BASELINE],
        example: "{name: f_end, kind: final, run: dahl, y: F}",
    },
    KindDoc {
        name: "info",
        doc: "a run diagnostic by name (y), such as periods_to_steady_state, steps",
        fields: &[
            M_NAME,
            M_RUN,
            req("y", Text, "", "the diagnostic's name"),
            M_UNIT,
            M_NOTE,
            M_BASELINE,
        ],
        example: "{name: n, kind: info, run: msd, y: periods_to_steady_state}",
    },
    KindDoc {
        name: "quantile",
        doc: "the at-quantile of y over the window; unit of y",
        fields: &[
            M_NAME,
            M_RUN,
            M_X_OPT,
            M_Y,
            req("at", Number, "1", "the quantile, 0…1"),
            M_WINDOW,
            M_UNIT,
            M_NOTE,
            M_BASELINE,
        ],
        example: "{name: median, kind: quantile, run: dahl, y: F, at: 0.5}",
    },
    KindDoc {
        name: "crossing-period",
        doc: "mean x-interval between successive upward crossings of y through the level at (default 0), located by linear interpolation, over the window: the period of an oscillation; unit of x; an error with fewer than two crossings",
        fields: &[
            M_NAME,
            M_RUN,
            M_X,
            M_Y,
            opt("at", Number, "", "the level crossed (default 0)"),
            M_WINDOW,
            M_UNIT,
            M_NOTE,
            M_BASELINE,
        ],
        example: "{name: ringing, kind: crossing-period, run: sim, x: t, y: omega, window: {t: [0.7, 0.8]}, unit: s}",
    },
    KindDoc {
        name: "decay-fit",
        doc: "one parameter of the least-squares fit y ≈ floor + (peak − floor) exp(−(x/scale)²) over the samples with x in range (variable projection: exact in floor and peak, golden section in ln scale): floor and peak in the unit of y, scale in the unit of x, rms the residual; an error when the best scale is at the end of the searched range [1e-3, 10] × max|x|",
        fields: &[
            M_NAME,
            M_RUN,
            M_X,
            M_Y,
            req("part", Text, "", "floor, peak, scale or rms"),
            opt("range", Pair, "unit of x", "the x range of the fit (default all)"),
            M_WINDOW,
            M_UNIT,
            M_NOTE,
            M_BASELINE,
        ],
        example: "{name: vs, kind: decay-fit, run: sim, x: v, y: theta_bar, part: scale, range: [0, 1], unit: m/s}",
    },
    KindDoc {
        name: "dwell",
        doc: "mean duration, in x, of the maximal runs of consecutive samples with y in range that lie wholly inside the window (runs cut by its ends are left out; NaN is in no run): a stick or rest time; unit of x; an error without a complete run",
        fields: &[
            M_NAME,
            M_RUN,
            M_X,
            M_Y,
            req("range", Pair, "unit of y", "the band of y that counts"),
            M_WINDOW,
            M_UNIT,
            M_NOTE,
            M_BASELINE,
        ],
        example: "{name: t_stick, kind: dwell, run: sim, x: t, y: e_at_rest, range: [0.3, 1], unit: s}",
    },
    KindDoc {
        name: "difference",
        doc: "a − b of two earlier metrics",
        fields: &[M_NAME, M_OF, M_UNIT, M_NOTE, M_BASELINE],
        example: "{name: d, kind: difference, of: [fmax, fmin]}",
    },
    KindDoc {
        name: "sum",
        doc: "a + b of two earlier metrics",
        fields: &[M_NAME, M_OF, M_UNIT, M_NOTE, M_BASELINE],
        example: "{name: s, kind: sum, of: [fmax, fmin]}",
    },
    KindDoc {
        name: "ratio",
        doc: "a / b of two earlier metrics",
        fields: &[M_NAME, M_OF, M_UNIT, M_NOTE, M_BASELINE],
        example: "{name: r, kind: ratio, of: [fmax, fpeak]}",
    },
    KindDoc {
        name: "relative-difference",
        doc: "(a − b) / |b| of two earlier metrics",
        fields: &[M_NAME, M_OF, M_UNIT, M_NOTE, M_BASELINE],
        example: "{name: rd, kind: relative-difference, of: [area_fast, area_slow]}",
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
        name: "periods",
        doc: "input periods a to b, inclusive (periodic inputs)",
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
            opt("y2", Column, "", "the upper edge, for style: band"),
            opt("style", Text, "", "solid | dashed | dotted | points | band"),
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
        ],
        example: "{run: dahl, x: u, y: F, window: last-period, style: dashed, label: \"ω = {value}\"}",
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
        ],
        example: "{metric: area, expected: 28.8, tol: {rel: 0.01}, provenance: {published: {line: 463}}}",
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
    req("expected", Number, "the metric's", "the expected value"),
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
    fn json_schema(self, generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
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

/// The schema of an input is generated from [`INPUT_KINDS`] (the declaration its parsing uses):
/// one alternative per kind, with that kind's fields, required ones marked.
impl schemars::JsonSchema for super::InputSpec {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "InputSpec".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut alternatives = Vec::new();
        for k in INPUT_KINDS {
            let mut props = serde_json::Map::new();
            props.insert("kind".into(), serde_json::json!({"const": k.name}));
            let mut required = vec![serde_json::json!("kind")];
            for f in k.fields {
                let mut s = f.ty.json_schema(generator).to_value();
                if let Some(o) = s.as_object_mut() {
                    let unit = if f.unit.is_empty() {
                        String::new()
                    } else {
                        format!(" [{}]", f.unit)
                    };
                    o.insert("description".into(), format!("{}{unit}", f.doc).into());
                }
                props.insert(f.name.into(), s);
                if f.required {
                    required.push(f.name.into());
                }
            }
            alternatives.push(serde_json::json!({
                "type": "object",
                "description": format!("{}. Example: {}", k.doc, k.example),
                "properties": props,
                "required": required,
                "additionalProperties": false,
            }));
        }
        schemars::json_schema!({
            "description": "The input signal or evaluation grid, by `kind`.",
            "oneOf": alternatives,
        })
    }
}

/// The forms of a run (`runs[]`): a computed run, a reference to another manifest's run, and the
/// three sweep forms that expand one run into members `<id>[0]`, `<id>[1]`, ...
pub const RUN_KINDS: &[KindDoc] = &[
    KindDoc {
        name: "run",
        doc: "one simulation or analytic evaluation of a system",
        fields: &[
            req("id", Text, "", "unique in the manifest; panels and metrics name it"),
            req("system", Text, "", "a system listed under Systems"),
            opt(
                "params",
                Other,
                "",
                "name: number | [list] | {value, unit, line}; unset parameters take their defaults",
            ),
            opt("input", Other, "", "the input signal or grid (see Inputs)"),
            opt("sim", Other, "", "the simulation settings (see Sim)"),
            opt("sweep", Other, "", "one run per member (see sweep, grid, zip)"),
            opt("post", List, "", "derived columns (see Post-processing)"),
        ],
        example: "{id: dahl, system: dahl, params: {sigma: {value: 7.5, unit: N/m, line: 412}, fc: 1.5}, input: {kind: sine, amplitude: 5, omega: 2}, sim: {periods: 2}}",
    },
    KindDoc {
        name: "from",
        doc: "another manifest's run, shared (computed once, cached once); no other field but `id`",
        fields: &[
            req("id", Text, "", "this manifest's name for it"),
            req("from", Text, "", "<doc>/<name>#<run id>"),
        ],
        example: "{id: cbm, from: \"thesis/fig4.4#cbm\"}",
    },
    KindDoc {
        name: "sweep",
        doc: "one parameter over a list of values: members <id>[k], k = 0, 1, ...",
        fields: &[
            req("param", Text, "", "a parameter name, or input.<field> for a field of the input"),
            req("values", List, "", "[v0, v1, ...]"),
        ],
        example: "{param: input.omega, values: [1, 0.1, 0.01]}",
    },
    KindDoc {
        name: "grid",
        doc: "several parameters, every combination (row-major: the last varies fastest)",
        fields: &[req(
            "grid",
            List,
            "",
            "[{param, values}, ...]; members are numbered in row-major order",
        )],
        example: "{grid: [{param: sigma1, values: [0, 10]}, {param: input.omega, values: [1, 10]}]}",
    },
    KindDoc {
        name: "zip",
        doc: "several parameters taken together: value k of each for member k",
        fields: &[req("zip", List, "", "[{param, values}, ...] with lists of equal length")],
        example: "{zip: [{param: fc, values: [1, 2]}, {param: fs, values: [1.5, 3]}]}",
    },
];

/// A table (`table:` of a `kind: table` manifest) and its rows generated from metric tables.
pub const TABLE_KINDS: &[KindDoc] = &[
    KindDoc {
        name: "table",
        doc: "a LaTeX table: written rows (cells may hold metric values), then generated rows",
        fields: &[
            opt(
                "columns",
                List,
                "",
                "[heading, ...]; may be left out with from_metrics and no rows",
            ),
            opt(
                "rows",
                List,
                "",
                "[[cell, ...], ...]; {{ name }} or {{ name | fmt(\".3g\") }} is a metric's value (name[k] for member k)",
            ),
            opt("lines", List, "", "[seed line, ...] the rows are transcribed from"),
            opt("notes", List, "", "[text, ...] printed under the table; may hold metric cells"),
            opt("from_metrics", Other, "", "rows generated from metric tables (see from_metrics)"),
        ],
        example: "{columns: [model, \"area [J]\"], rows: [[Dahl, \"{{ area | fmt(\\\".4g\\\") }}\"]], lines: [350]}",
    },
    KindDoc {
        name: "from_metrics",
        doc: "one row per member of a swept run: its sweep coordinates, then each metric's value",
        fields: &[
            req("metrics", List, "", "[metric, ...] evaluated over the same swept run"),
            opt("format", Text, "", ".Ng | .Ne | .Nf (default: shortest exact)"),
        ],
        example: "{metrics: [area, area_over_dahl], format: \".4g\"}",
    },
];
