//! Metric kinds, one file each: its declaration (name, fields with type, unit and whether
//! required, doc, example) beside its evaluation, registered by one line in [`ALL`]. `cargo xtask
//! schema`, the JSON Schema ([`json_schema`]), the loader's checks (`load/refs.rs`) and the
//! evaluation all read that declaration.
//!
//! Why here and not in `fric_manifest`: evaluating a metric reads run data
//! (`fric_experiments::RunData`) and numerics (`fric_solvers::analysis`), and the manifest crate
//! depends on neither. The manifest crate keeps what every kind shares: the written form
//! ([`fric_manifest::MetricSpec`], a bag of optional fields whose `kind` is a name) and the
//! declaration type ([`fric_manifest::KindDoc`]); the kind's name is checked against this
//! registry when the manifest is loaded, with its line and the allowed names.

mod abs;
mod constant;
mod crossing_interval;
mod crossing_period;
mod curve_crossings;
mod curve_distance;
mod decay_fit;
mod difference;
mod dwell;
mod final_value;
mod fitted;
mod info;
mod intercept;
mod loop_area;
mod loop_area_pl;
mod max;
mod max_abs;
mod max_diff;
mod min;
mod negate;
mod path_integral;
mod points_moved;
mod quantile;
mod ratio;
mod relative_difference;
mod slope;
mod sum;
mod value_at;

use super::window;
use fric_experiments::RunData;
use fric_manifest::{opt, req, FieldDoc, FieldType, KindDoc, MetricSpec};
use std::collections::{BTreeMap, HashMap};
use std::sync::RwLock;

/// Every metric kind of the project, in the order `schema` lists them: one line per kind (a kind
/// declared elsewhere is added by [`register`]).
pub const ALL: &[&MetricDecl] = &[
    &loop_area::DECL,
    &loop_area_pl::DECL,
    &path_integral::DECL,
    &max::DECL,
    &min::DECL,
    &max_abs::DECL,
    &value_at::DECL,
    &slope::DECL,
    &intercept::DECL,
    &max_diff::DECL,
    &curve_crossings::DECL,
    &curve_distance::DECL,
    &points_moved::DECL,
    &final_value::DECL,
    &info::DECL,
    &quantile::DECL,
    &crossing_period::DECL,
    &crossing_interval::DECL,
    &decay_fit::DECL,
    &dwell::DECL,
    &difference::DECL,
    &sum::DECL,
    &ratio::DECL,
    &relative_difference::DECL,
    &negate::DECL,
    &abs::DECL,
    &constant::DECL,
    &fitted::DECL,
];

/// What a kind reads from `other` (a second series).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OtherSeries {
    /// No second series.
    None,
    /// `other: {run, y, window}`.
    Y,
    /// `other: {run, x, y, window}`: a second curve in the plane.
    Xy,
}

/// One metric kind: its declaration and its evaluation.
pub struct MetricDecl {
    /// Name, doc, fields and example, as `schema` prints them and the loader checks them.
    pub doc: KindDoc,
    /// What `other` must hold.
    pub other: OtherSeries,
    /// The value, from the run data or the earlier metrics the context holds.
    pub eval: fn(&Ctx) -> Result<f64, String>,
}

impl MetricDecl {
    /// Whether the kind reads a run (`run` required).
    pub fn reads_run(&self) -> bool {
        self.doc.requires("run")
    }
    /// How many earlier metrics `of` names: 0, 1 (a name) or 2 (a pair).
    pub fn operands(&self) -> usize {
        match self.doc.field("of").map(|f| f.ty) {
            None => 0,
            Some(FieldType::Pair) => 2,
            Some(_) => 1,
        }
    }
    /// Whether `y` names a column (not, for `info`, a diagnostic).
    pub fn y_is_column(&self) -> bool {
        self.doc.field("y").is_some_and(|f| f.ty == FieldType::Column)
    }
}

/// Kinds added at run time by [`register`], after [`ALL`].
static ADDED: RwLock<Vec<&'static MetricDecl>> = RwLock::new(Vec::new());

/// Add a metric kind declared outside this crate (a study's own metric; a test's toy kind):
/// from then on `schema`, the JSON Schema, the loader and evaluation see it as they see [`ALL`].
/// An error if a kind of that name exists.
pub fn register(decl: &'static MetricDecl) -> Result<(), String> {
    let mut added = ADDED.write().unwrap_or_else(|e| e.into_inner());
    if ALL.iter().chain(added.iter()).any(|d| d.doc.name == decl.doc.name) {
        return Err(format!("metric kind `{}` is declared already", decl.doc.name));
    }
    added.push(decl);
    Ok(())
}

/// Every kind: [`ALL`], then the registered ones.
pub fn all() -> Vec<&'static MetricDecl> {
    let added = ADDED.read().unwrap_or_else(|e| e.into_inner());
    ALL.iter().copied().chain(added.iter().copied()).collect()
}

/// The declaration of kind `name`.
pub fn find(name: &str) -> Option<&'static MetricDecl> {
    all().into_iter().find(|d| d.doc.name == name)
}

/// The declarations, for `schema` and the JSON Schema.
pub fn docs() -> Vec<KindDoc> {
    all().iter().map(|d| d.doc).collect()
}

/// The JSON Schema of the manifest format, its metric kinds from this registry, its input
/// kinds from `fric_experiments::inputs`, its methods from `fric_experiments::methods` and its
/// series styles from `fric_plot::style`
/// (`experiments/manifest.schema.json`, written by `cargo xtask schema --json`).
pub fn json_schema() -> String {
    fric_manifest::json_schema(
        &docs(),
        &fric_experiments::inputs::docs(),
        &fric_experiments::methods::docs(),
        &fric_plot::style::docs(),
    )
}

/// The names of every kind, comma-separated (an error's allowed list).
pub fn names() -> String {
    all().iter().map(|d| d.doc.name).collect::<Vec<_>>().join(", ")
}

/// Compute one metric. `runs` maps run ids to their data; `done` holds earlier metrics.
pub fn evaluate(
    spec: &MetricSpec,
    runs: &HashMap<String, &RunData>,
    done: &BTreeMap<String, Option<f64>>,
) -> Result<f64, String> {
    evaluate_bounded(spec, runs, done).map(|(v, _)| v)
}

/// [`evaluate`], with what the openness of the cycle it reads can move the value by (a loop
/// area, a period), when the kind measures it: the pipeline's closure gate compares it with the
/// tolerances of the checks on the metric.
pub fn evaluate_bounded(
    spec: &MetricSpec,
    runs: &HashMap<String, &RunData>,
    done: &BTreeMap<String, Option<f64>>,
) -> Result<(f64, Option<ClosureBound>), String> {
    let decl =
        find(&spec.kind.0).ok_or_else(|| format!("unknown metric kind `{}` (kinds: {})", spec.kind.0, names()))?;
    let c = Ctx {
        spec,
        runs,
        done,
        bound: Default::default(),
    };
    let v = (decl.eval)(&c)?;
    Ok((v, c.bound.into_inner()))
}

/// What an evaluation reads: the metric as written, the runs' data and the earlier metrics.
pub struct Ctx<'a> {
    pub spec: &'a MetricSpec,
    runs: &'a HashMap<String, &'a RunData>,
    done: &'a BTreeMap<String, Option<f64>>,
    bound: std::cell::RefCell<Option<ClosureBound>>,
}

/// A run's columns over a window: `x` when the metric names one.
pub struct Series<'a> {
    pub x: Option<&'a [f64]>,
    pub y: &'a [f64],
}

impl<'a> Series<'a> {
    /// The abscissa, which the kind needs.
    pub fn x(&self) -> Result<&'a [f64], String> {
        self.x.ok_or_else(|| "needs x".to_string())
    }
}

fn col<'a>(data: &'a RunData, name: &str) -> Result<&'a [f64], String> {
    data.column(name).ok_or_else(|| format!("no column `{name}`"))
}

impl<'a> Ctx<'a> {
    /// Record what the openness of the cycle the metric reads can move its value by.
    pub fn set_bound(&self, b: ClosureBound) {
        *self.bound.borrow_mut() = Some(b);
    }
    /// The value of an earlier metric.
    pub fn metric(&self, name: &str) -> Result<f64, String> {
        self.done
            .get(name)
            .copied()
            .flatten()
            .ok_or_else(|| format!("metric `{name}` has no value"))
    }
    /// The values of the metrics `of` names, in order.
    pub fn operands(&self) -> Result<Vec<f64>, String> {
        let of = self.spec.of.as_ref().ok_or("missing `of`")?;
        of.names().into_iter().map(|n| self.metric(n)).collect()
    }
    /// The two operands of a kind of two metrics.
    pub fn pair(&self) -> Result<(f64, f64), String> {
        match self.operands()?[..] {
            [a, b] => Ok((a, b)),
            _ => Err("`of` names two metrics".into()),
        }
    }
    /// The one operand of a kind of one metric.
    pub fn single(&self) -> Result<f64, String> {
        match self.operands()?[..] {
            [a] => Ok(a),
            _ => Err("`of` names one metric".into()),
        }
    }
    fn run_data(&self, run: &str) -> Result<&'a RunData, String> {
        self.runs
            .get(run)
            .copied()
            .ok_or_else(|| format!("run `{run}` has no data"))
    }
    /// The data of the metric's run.
    pub fn data(&self) -> Result<&'a RunData, String> {
        self.run_data(self.spec.run.as_deref().ok_or("missing run")?)
    }
    /// The metric's `x` (when named) and `y` over its window.
    pub fn series(&self) -> Result<Series<'a>, String> {
        let data = self.data()?;
        let r = window(data, self.spec.window.as_ref())?;
        let y = &col(data, self.spec.y.as_deref().unwrap_or(""))?[r.clone()];
        let x = match &self.spec.x {
            Some(x) => Some(&col(data, x)?[r]),
            None => None,
        };
        Ok(Series { x, y })
    }
    /// The times (`t`) of the metric's window and of the `other` series' window.
    pub fn times(&self) -> Result<(&'a [f64], &'a [f64]), String> {
        let o = self.spec.other.as_ref().ok_or("needs `other`")?;
        let (d, od) = (self.data()?, self.run_data(&o.run)?);
        let (r, or) = (window(d, self.spec.window.as_ref())?, window(od, o.window.as_ref())?);
        Ok((&col(d, "t")?[r], &col(od, "t")?[or]))
    }
    /// The `other` series over its window (`x` when it names one).
    pub fn other(&self) -> Result<Series<'a>, String> {
        let o = self.spec.other.as_ref().ok_or("needs `other`")?;
        let od = self.run_data(&o.run)?;
        let r = window(od, o.window.as_ref())?;
        let x = match &o.x {
            Some(x) => Some(&col(od, x)?[r.clone()]),
            None => None,
        };
        Ok(Series {
            x,
            y: &col(od, &o.y)?[r],
        })
    }
}

/// The samples with x in `range` (all without one).
pub fn in_range(x: &[f64], y: &[f64], range: Option<[f64; 2]>) -> (Vec<f64>, Vec<f64>) {
    match range {
        Some([a, b]) => x
            .iter()
            .zip(y)
            .filter(|(x, _)| **x >= a && **x <= b)
            .map(|(x, y)| (*x, *y))
            .unzip(),
        None => (x.to_vec(), y.to_vec()),
    }
}

/// The least-squares line `(slope, intercept)` through the run's samples with x in the metric's
/// `range`: what `slope` and `intercept` each report one half of.
pub fn line_fit_in_range(c: &Ctx) -> Result<(f64, f64), String> {
    let s = c.series()?;
    let (xs, ys) = in_range(s.x()?, s.y, c.spec.range);
    fric_solvers::analysis::line_fit(&xs, &ys).ok_or_else(|| "fewer than two distinct x in the range".to_string())
}

// The fields most kinds share.
use FieldType::{Column, Other, Pair, Text};
pub const NAME: FieldDoc = req("name", Text, "", "the metric's name (checks refer to it)");
pub const RUN: FieldDoc = req(
    "run",
    Text,
    "",
    "a run id: one member `<id>[k]` of a sweep, or a swept id for one value per member (a metric table)",
);
pub const X: FieldDoc = req("x", Column, "", "the abscissa column");
pub const X_UNUSED: FieldDoc = opt("x", Column, "", "the abscissa column (unused)");
pub const Y: FieldDoc = req("y", Column, "", "the column measured");
pub const WINDOW: FieldDoc = opt("window", Other, "", "which samples (default all): see Windows");
pub const UNIT: FieldDoc = opt("unit", Text, "", "unit of the value, for the report");
pub const NOTE: FieldDoc = opt("note", Text, "", "a remark for the report");
pub const BASELINE: FieldDoc = opt(
    "baseline_tol",
    Other,
    "",
    "{rel, abs}: how far the value may move from the committed baseline (default rel 1e-9, abs 1e-12)",
);
/// `of` of a kind of two metrics.
pub const OF_TWO: FieldDoc = req("of", Pair, "", "two earlier metric names");
/// `of` of a kind of one metric.
pub const OF_ONE: FieldDoc = req("of", Text, "", "an earlier metric's name");
/// The fields of a kind of one series: name, run, x (unused), y, window, unit, note, baseline.
pub const ONE_SERIES: &[FieldDoc] = &[NAME, RUN, X_UNUSED, Y, WINDOW, UNIT, NOTE, BASELINE];
/// The fields of a kind of a curve (x, y).
pub const CURVE: &[FieldDoc] = &[NAME, RUN, X, Y, WINDOW, UNIT, NOTE, BASELINE];

/// What a cycle's openness can move a metric's value by: the metric kind measures it
/// ([`closed_cycle`] for a loop area, `crossing-period` for a period), and the pipeline quotes
/// the value only where this is within the tolerance of every check that reads it (and within
/// the margin of a threshold check), else the metric is [`NOT_CLOSED`] with the bound and the
/// tolerance in its error (`metric_tables::closure_gate`). No chosen gap: the checks' tolerances,
/// each source-justified, decide (issue 44 item 4).
#[derive(Clone, Debug, PartialEq)]
pub struct ClosureBound {
    /// The bound, in the metric's unit: the larger of `down` and `up`.
    pub amount: f64,
    /// How far below its value the openness can put it (for a kind's own bound, `amount`).
    pub down: f64,
    /// How far above.
    pub up: f64,
    /// How it was found, for the error that refuses the value.
    pub what: String,
}

/// The text that starts the error of a cycle that did not close: a reading whose only metric
/// errors are these (and the metrics that read them) reports the checks on them as open under
/// that reading, not as failed.
pub const NOT_CLOSED: &str = "not closed: ";

/// The share of its range that a coordinate of a cycle ends away from its start (0 for a
/// coordinate that does not move, and for fewer than two samples), and that range.
pub fn end_share(v: &[f64]) -> (f64, f64) {
    let (Some(a), Some(b)) = (v.first(), v.last()) else {
        return (0.0, 0.0);
    };
    let (lo, hi) = v
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &z| (l.min(z), h.max(z)));
    let range = hi - lo;
    if range > 0.0 {
        ((b - a).abs() / range, range)
    } else {
        (0.0, range.max(0.0))
    }
}

/// The closure gap of a cycle sampled as (x, y): the larger of |x_end − x_start| and
/// |y_end − y_start|, each a share of that coordinate's range over the samples.
pub fn closure_gap(x: &[f64], y: &[f64]) -> f64 {
    end_share(x).0.max(end_share(y).0)
}

/// How far a cycle sampled as (x, y) ends off itself, (|Δx|, |Δy|): the end's offset from the
/// nearest point of the curve's first [`CUT_STEPS`] sample steps, or the start's from its last
/// ones, whichever is nearer (distances in shares of each coordinate's range). A window whose
/// ends fall between samples cuts a closed cycle a fraction of a step apart: its end lies on the
/// curve near its start, and the chord that closes it spans the curve there (the area between
/// them is of second order in the step). What the end misses the curve by is not a cut.
pub fn gap_off_curve(x: &[f64], y: &[f64]) -> (f64, f64) {
    let n = x.len().min(y.len());
    if n < 2 {
        return (0.0, 0.0);
    }
    let (rx, ry) = (end_share(&x[..n]).1, end_share(&y[..n]).1);
    let scale = |d: f64, r: f64| if r > 0.0 { d / r } else { 0.0 };
    let dist = |d: (f64, f64)| scale(d.0, rx).hypot(scale(d.1, ry));
    // The offset of point p from the segment a–b, nearest point clamped to the segment.
    let off = |p: (f64, f64), a: (f64, f64), b: (f64, f64)| -> (f64, f64) {
        let (ex, ey) = (scale(b.0 - a.0, rx), scale(b.1 - a.1, ry));
        let (px, py) = (scale(p.0 - a.0, rx), scale(p.1 - a.1, ry));
        let len2 = ex * ex + ey * ey;
        let t = if len2 > 0.0 {
            ((px * ex + py * ey) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (p.0 - (a.0 + t * (b.0 - a.0)), p.1 - (a.1 + t * (b.1 - a.1)))
    };
    let pt = |i: usize| (x[i], y[i]);
    let (first, last) = (pt(0), pt(n - 1));
    let k = CUT_STEPS.min(n - 1);
    let mut best = (last.0 - first.0, last.1 - first.1);
    for i in 0..k {
        for d in [off(last, pt(i), pt(i + 1)), off(first, pt(n - 2 - i), pt(n - 1 - i))] {
            if dist(d) < dist(best) {
                best = d;
            }
        }
    }
    (best.0.abs(), best.1.abs())
}

/// The sample steps at each end of a cycle within which [`gap_off_curve`] takes its end to lie
/// on the curve (a cut between samples, not a drift).
pub const CUT_STEPS: usize = 2;

/// The bound on the loop area `∮ y dx` of a cycle sampled as (x, y) that its closure gap leaves:
/// |Δx|·R_y + |Δy|·R_x, R the ranges over the samples and (Δx, Δy) how far the cycle ends off
/// itself ([`gap_off_curve`]).
///
/// Derivation. Write the stretch as a closed cycle γ plus a drift over the period, c(s) = γ(s) +
/// s·Δ for s in [0, 1]. The loop area of c closed by its chord from end to start (what
/// `loop-area` integrates) is, exactly, A_γ + Δy·(x̄ − x₀) − Δx·(ȳ − y₀), where (x₀, y₀) = γ(0)
/// is the start and x̄, ȳ the means of γ over s (expand ∮ x dy over c and the chord: the ΔxΔy/2
/// terms cancel, and ∫ s·γy′ ds = y₀ − ȳ by parts). The start and the mean both lie within the
/// range, so the value differs from the cycle's by at most |Δy|·R_x + |Δx|·R_y, and where the
/// window cuts the period moves it over that span. A drift that is not linear in s moves it by
/// the same first-order terms with the drift's own path; the gap is what the samples show.
pub fn loop_area_bound(x: &[f64], y: &[f64]) -> f64 {
    let (dx, dy) = gap_off_curve(x, y);
    let (rx, ry) = (end_share(x).1, end_share(y).1);
    // An end within rounding of its start (a sine's sin 2πk ≈ 1e-16) is the same point.
    let real = |d: f64, r: f64| if d <= ROUNDING * r { 0.0 } else { d };
    real(dx, rx) * ry + real(dy, ry) * rx
}

/// A share of a range that is rounding, not openness: 64 units in the last place of f64.
pub const ROUNDING: f64 = 64.0 * f64::EPSILON;

/// A cycle's samples, its loop area's closure bound ([`loop_area_bound`]) recorded for the gate.
pub fn closed_cycle<'a>(c: &Ctx<'a>) -> Result<(&'a [f64], &'a [f64]), String> {
    let s = c.series()?;
    let x = s.x()?;
    let amount = loop_area_bound(x, s.y);
    let (gx, gy) = gap_off_curve(x, s.y);
    let (rx, ry) = (end_share(x).1, end_share(s.y).1);
    let pct = |g: f64, r: f64| if r > 0.0 { 100.0 * g / r } else { 0.0 };
    let (xn, yn) = (c.spec.x.as_deref().unwrap_or("x"), c.spec.y.as_deref().unwrap_or("y"));
    c.set_bound(ClosureBound {
        amount,
        down: amount,
        up: amount,
        what: format!(
            "the cycle over the window ends off itself by {:.3} % of its range in {xn} and {:.3} % in {yn}: its \
             loop area is bounded to ±{amount:.3e} (|Δx|·R_y + |Δy|·R_x)",
            pct(gx, rx),
            pct(gy, ry)
        ),
    });
    Ok((x, s.y))
}

/// How far a drawn period may end from its start, as a share of the drawn series' range: one
/// pixel of the default 640 × 480 panel (3.5 in wide in print), 1/640 in x and 1/480 in y. The
/// axes span at least the series' range over a frame narrower than the panel (514 × 398 px), so
/// such a gap is under one pixel on the page: a reader cannot see it.
pub const DRAWN_GAP: [f64; 2] = [1.0 / 640.0, 1.0 / 480.0];

/// A drawn series over a window of settled periods (`last-period`, `last_periods`, or
/// `periods: [a, a + 1]` with a ≥ 1: one whole period after the first) must close to what the
/// reader can see, [`DRAWN_GAP`] (a curve in the plane: how far it ends off itself,
/// [`gap_off_curve`]; a time series: how far it ends from its start), in its non-time coordinates (`x` unless it is `t`, and `y`), or
/// declare why it does not (`open`, with its measured gap): a figure drawing "the last period"
/// draws one that closed (issue 46). A declared `open` on a stretch that does close is an error
/// too, so the declaration cannot outlive the reason for it. Over another window (a time window
/// drawn as one forcing period, say) `open` is checked the same way when declared, and nothing
/// is otherwise.
pub fn drawn_period_closes(s: &fric_manifest::SeriesSpec, run: &str, x: &[f64], y: &[f64]) -> Result<(), String> {
    use fric_manifest::{NamedWindow, Window};
    // A window that draws a settled period: the last one(s), or one whole period after the first
    // (a window from rest, part of a period or a run of several is a transient or a sequence).
    // (`last_periods` only for whole periods: a half period is a part of one, not a cycle.)
    let in_periods = match s.window {
        Some(Window::Named(NamedWindow::LastPeriod)) => true,
        Some(Window::LastPeriods { last_periods }) => last_periods >= 1.0 && last_periods.fract() == 0.0,
        Some(Window::Periods { periods: [a, b] }) => a >= 1.0 && b - a == 1.0,
        _ => false,
    };
    if !in_periods && s.open.is_none() {
        return Ok(());
    }
    // A curve in the plane: how far it ends off itself (a window cut between samples is no gap);
    // a time series: how far its value ends from its start.
    let (gx, gy) = if s.x == "t" {
        (0.0, end_share(y).0)
    } else {
        let (dx, dy) = gap_off_curve(x, y);
        let share = |d: f64, r: f64| if r > 0.0 { d / r } else { 0.0 };
        (share(dx, end_share(x).1), share(dy, end_share(y).1))
    };
    let closes = gx <= DRAWN_GAP[0] && gy <= DRAWN_GAP[1];
    let gaps = format!(
        "{:.3} % of its range in {} and {:.3} % in {}",
        100.0 * gx,
        s.x,
        100.0 * gy,
        s.y
    );
    let seen = format!(
        "one pixel of a 640 × 480 panel: {:.3} % in x, {:.3} % in y",
        100.0 * DRAWN_GAP[0],
        100.0 * DRAWN_GAP[1]
    );
    match (&s.open, closes) {
        (None, false) => Err(format!(
            "series ({}, {}) of run `{run}`: the drawn period ends {gaps} away from its start (a drawn period \
             closes to {seen}): run on or shoot until it closes, or declare `open:` with the measured gap and \
             why it does not close (and label it as what it is)",
            s.x, s.y
        )),
        (Some(_), true) => Err(format!(
            "series ({}, {}) of run `{run}` declares `open:` but its drawn period closes ({gaps}, within {seen}): \
             remove the declaration",
            s.x, s.y
        )),
        _ => Ok(()),
    }
}

/// The fields of a kind of two earlier metrics.
pub const TWO_METRICS: &[FieldDoc] = &[NAME, OF_TWO, UNIT, NOTE, BASELINE];
/// The fields of a kind of one earlier metric.
pub const ONE_METRIC: &[FieldDoc] = &[NAME, OF_ONE, UNIT, NOTE, BASELINE];
