//! The report: the data model of `figures/report.json`, LaTeX rendering of tables and of the
//! checks table (tera templates in `templates/`), the PGFPlots version of each figure ([`pgf`]),
//! the HTML reproduction report ([`site`]), and the terminal summary.
//!
//! This crate formats results it is given; it computes nothing and writes no files.

pub mod metrics;
pub mod pgf;
pub mod site;

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tera::{Context, Tera};

mod terminal;
pub use terminal::failures_table;

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Report {
    /// Every manifest, sorted by id.
    pub experiments: Vec<ExperimentReport>,
    /// Per document: count of manifests by status.
    pub coverage: BTreeMap<String, BTreeMap<String, usize>>,
    /// Per document: count of known discrepancies by kind (`source-error`, `assumption`,
    /// `unresolved`; only the first two are the source's).
    #[serde(default)]
    pub discrepancies: BTreeMap<String, BTreeMap<DiscrepancyKind, usize>>,
    /// What produced this report (commit, tool and compiler). The only part of the report that
    /// depends on the checkout rather than on the manifests; figures and tables never carry it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Provenance>,
}

/// What produced a report.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Provenance {
    /// The commit checked out (`git rev-parse HEAD`); `None` outside a git checkout or without git.
    pub commit: Option<String>,
    /// Whether tracked files differ from that commit (untracked files do not count); `None`
    /// when unknown.
    pub dirty: Option<bool>,
    /// The runner: `fric-pipeline <version>`.
    pub tool: String,
    /// `rustc --version` of the compiler that built the runner; `None` when unknown.
    pub rustc: Option<String>,
}

/// A tolerance as a manifest writes it: the larger of the two bounds applies.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Tolerance {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abs: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rel: Option<f64>,
}

/// What the manifest says about one metric besides its value.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct MetricInfo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// Sweep coordinates of the run the metric reads, `input.omega=2` (and of the other series
    /// of a `max-diff`, `input.omega=2 vs input.omega=0.1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<String>,
    /// The manifest's `baseline_tol`, when it overrides the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline_tol: Option<Tolerance>,
}

impl MetricInfo {
    pub fn is_empty(&self) -> bool {
        self.unit.is_none() && self.sweep.is_none() && self.baseline_tol.is_none()
    }
}

/// A concrete run as the report records it.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct RunInfo {
    pub system: String,
    /// Every parameter, defaults filled in (a number, or a list for list parameters).
    pub params: BTreeMap<String, serde_json::Value>,
    pub input: serde_json::Value,
    /// The sweep coordinates of a sweep member (parameter → value).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sweep: BTreeMap<String, f64>,
}

/// A metric evaluated over every member of a swept run.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct MetricTable {
    /// The swept run.
    pub run: String,
    /// The swept parameters, in the sweep's order.
    pub params: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// One row per member, in member order (`<run>[k]`).
    pub members: Vec<MetricMember>,
}

/// One member of a metric table: its run, its coordinates and the metric's value there.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct MetricMember {
    pub run: String,
    pub coords: BTreeMap<String, f64>,
    pub value: Option<f64>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct ExperimentReport {
    pub id: String,
    pub kind: String,
    pub content: String,
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub caption: String,
    /// Files written, relative to the workspace root.
    pub outputs: Vec<String>,
    pub metrics: BTreeMap<String, Option<f64>>,
    /// Unit, sweep coordinates and baseline tolerance of the metrics that have any.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metric_info: BTreeMap<String, MetricInfo>,
    /// Metrics evaluated over every member of a swept run (each member's value is also in
    /// `metrics` as `name[k]`): name → the table indexed by the sweep values.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metric_tables: BTreeMap<String, MetricTable>,
    /// Every concrete run (sweep members included): its system, its resolved parameters
    /// (defaults filled in) and input, and its sweep coordinates.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub runs: BTreeMap<String, RunInfo>,
    pub checks: Vec<CheckReport>,
    /// Problems that kept this experiment from running (invalid manifest, solver failure).
    pub errors: Vec<String>,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    Pass,
    Fail,
    /// A check marked as a known discrepancy (of the kind its `discrepancy` says), failing as
    /// documented.
    KnownDiscrepancy,
    /// Marked as a known discrepancy but now passing: the manifest needs updating.
    UnexpectedPass,
    /// The metric could not be computed.
    Error,
    /// A transcribed value (`transcribed` provenance) read back as written: shown, counted
    /// apart from passed checks.
    Transcribed,
}

impl Outcome {
    pub fn is_failure(self) -> bool {
        matches!(self, Outcome::Fail | Outcome::UnexpectedPass | Outcome::Error)
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "FAIL",
            Outcome::KnownDiscrepancy => "known discrepancy",
            Outcome::UnexpectedPass => "UNEXPECTED PASS",
            Outcome::Error => "ERROR",
            Outcome::Transcribed => "transcribed",
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CheckReport {
    pub metric: String,
    /// `within`, `lt` or `gt`.
    pub op: String,
    pub computed: Option<f64>,
    pub expected: f64,
    /// Allowed deviation for `within`.
    pub tolerance: Option<f64>,
    /// `published`, `derived`, `claim` or `transcribed`.
    pub provenance: String,
    /// Seed line(s) for published values and claims.
    pub lines: Vec<u32>,
    /// The derivation, the claim kind and text, or the quote.
    pub basis: String,
    pub outcome: Outcome,
    /// Whether the computed value meets the expectation (false for a known discrepancy too).
    pub pass: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known_discrepancy: Option<String>,
    /// The kind of the known discrepancy (with `known_discrepancy`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discrepancy: Option<DiscrepancyKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Where the check is written: `experiments/<doc>/<name>.yaml:<line>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// The check under the alternative readings of the manifest's assumptions (none listed:
    /// absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sensitivity: Option<Sensitivity>,
    /// For a known discrepancy that declares parameters that could explain it: the value of
    /// each that reproduces the expected number, or that none in its range does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub explained_by: Vec<Explained>,
}

/// The kind of a known discrepancy, as the manifest declares it.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum DiscrepancyKind {
    /// The source's arithmetic or a printed formula, shown wrong by a computation in the evidence.
    SourceError,
    /// An unstated value of the source explains it (found by `cargo xtask explain`).
    Assumption,
    /// Not explained: not to be called the source's.
    Unresolved,
}

impl DiscrepancyKind {
    /// Every kind, in the order reports list them.
    pub const ALL: [DiscrepancyKind; 3] = [
        DiscrepancyKind::SourceError,
        DiscrepancyKind::Assumption,
        DiscrepancyKind::Unresolved,
    ];

    /// The name manifests and report.json use: `source-error`, `assumption`, `unresolved`.
    pub fn as_str(self) -> &'static str {
        match self {
            DiscrepancyKind::SourceError => "source-error",
            DiscrepancyKind::Assumption => "assumption",
            DiscrepancyKind::Unresolved => "unresolved",
        }
    }

    /// What the kind means, for a reader of the report.
    pub fn meaning(self) -> &'static str {
        match self {
            DiscrepancyKind::SourceError => {
                "an error of the source: its arithmetic or a printed formula, shown wrong by a computation in the evidence"
            }
            DiscrepancyKind::Assumption => {
                "a value the source does not state explains it (found by cargo xtask explain)"
            }
            DiscrepancyKind::Unresolved => {
                "not explained yet, not attributed to the source: the evidence says what was ruled out"
            }
        }
    }
}

/// Per document (the id's part before `/`), the known discrepancies of these experiments by
/// kind (see [`count_by_kind`]); every document of `documents` is listed, with zeros.
pub fn discrepancies_by_document<'a>(
    documents: impl IntoIterator<Item = &'a str>,
    experiments: &[ExperimentReport],
) -> BTreeMap<String, BTreeMap<DiscrepancyKind, usize>> {
    let mut out: BTreeMap<String, BTreeMap<DiscrepancyKind, usize>> = documents
        .into_iter()
        .map(|d| (d.to_string(), count_by_kind([])))
        .collect();
    for e in experiments {
        let doc = e.id.split('/').next().unwrap_or("").to_string();
        let counts = out.entry(doc).or_insert_with(|| count_by_kind([]));
        for (k, n) in count_by_kind(&e.checks) {
            *counts.entry(k).or_default() += n;
        }
    }
    out
}

/// Count known discrepancies by kind: every kind present (zero included); a check marked as a
/// known discrepancy without a kind is not counted.
pub fn count_by_kind<'a>(checks: impl IntoIterator<Item = &'a CheckReport>) -> BTreeMap<DiscrepancyKind, usize> {
    let mut out: BTreeMap<DiscrepancyKind, usize> = DiscrepancyKind::ALL.iter().map(|k| (*k, 0)).collect();
    for c in checks {
        if c.outcome == Outcome::KnownDiscrepancy {
            if let Some(k) = c.discrepancy {
                *out.entry(k).or_default() += 1;
            }
        }
    }
    out
}

/// A check across the alternative readings of its manifest's assumptions.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Sensitivity {
    /// Met (or not met) under the manifest's reading and every alternative; never when a
    /// reading could not be evaluated (see `failed`).
    pub robust: bool,
    /// The readings under which the check could not be evaluated (a run failed, a metric was
    /// not computed): the check's robustness is unknown, not robust.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<String>,
    /// Each reading: its name, the computed value and whether it meets the expectation
    /// (`None`: the reading could not be evaluated).
    pub readings: Vec<ReadingOutcome>,
}

impl Sensitivity {
    /// The readings under which the check's result differs from the manifest's reading.
    pub fn flipped_by(&self, met: bool) -> Vec<&str> {
        self.readings
            .iter()
            .filter(|r| r.met.is_some_and(|m| m != met))
            .map(|r| r.name.as_str())
            .collect()
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ReadingOutcome {
    pub name: String,
    pub computed: Option<f64>,
    pub met: Option<bool>,
}

/// One parameter's explanation of a known discrepancy.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Explained {
    pub run: String,
    pub param: String,
    pub range: [f64; 2],
    /// The manifest's value.
    pub current: Option<f64>,
    /// The value that reproduces the expected number, if any in the range does.
    pub value: Option<f64>,
    /// The metric at `value`.
    pub metric_at_value: Option<f64>,
    /// The smallest and largest metric the scan of the range saw.
    pub scanned: [f64; 2],
    /// Metric evaluations (one run each, cached or computed).
    pub evaluations: usize,
    /// Sign changes of metric − expected the scan found (several: several values reproduce it;
    /// the first is given).
    pub brackets: usize,
    /// The relative precision `value` was found to (the manifest's `xtol`, default 1e-4).
    pub xtol: f64,
    /// Where the metric jumps across the expected value instead of passing through it (the
    /// first such bracket): no value there reproduces it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jump: Option<Jump>,
}

/// A jump of a metric across a value: from `from` to `to` as the parameter crosses `at`.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct Jump {
    /// The bracket `[p₁, p₂]`, as narrow as the explanation's precision.
    pub at: [f64; 2],
    /// The metric at `p₁` and at `p₂`.
    pub from: f64,
    pub to: f64,
}

impl Explained {
    /// One line: `sigma of run dahl = 5.62500 (written 1.5) reproduces it (15 runs)`.
    pub fn text(&self) -> String {
        let written = self.current.map_or(String::new(), |c| format!(" (written {c})"));
        let jump = self.jump.map(|j| {
            format!(
                "the metric jumps from {:.6} to {:.6} at {} ∈ [{:.6}, {:.6}] (run `{}`)",
                j.from, j.to, self.param, j.at[0], j.at[1], self.run
            )
        });
        match (self.value, jump) {
            (None, Some(jump)) => {
                return format!(
                    "{jump}; no value reproduces it{written} ({} runs){}",
                    self.evaluations,
                    if self.brackets > 1 {
                        format!(
                            ", nor one in the other {} brackets in [{}, {}]",
                            self.brackets - 1,
                            self.range[0],
                            self.range[1]
                        )
                    } else {
                        String::new()
                    }
                )
            }
            (Some(_), Some(jump)) => {
                let mut no_jump = self.clone();
                no_jump.jump = None;
                return format!("{}; below it {jump}", no_jump.text());
            }
            _ => {}
        }
        match self.value {
            Some(v) => format!(
                "{} of run `{}` = {v:.6} (to a relative {:e}) reproduces it{written}, found in {} runs{}",
                self.param,
                self.run,
                self.xtol,
                self.evaluations,
                if self.brackets > 1 {
                    format!("; the metric crosses it {} times in [{}, {}], the smallest value that reproduces it given", self.brackets, self.range[0], self.range[1])
                } else {
                    String::new()
                }
            ),
            None => format!(
                "no value of {} (run `{}`) in [{}, {}] reproduces it{written}: the metric spans [{:.6}, {:.6}] there ({} runs)",
                self.param, self.run, self.range[0], self.range[1], self.scanned[0], self.scanned[1], self.evaluations
            ),
        }
    }
}

/// Decide a check's outcome.
pub fn judge(
    op: &str,
    computed: Option<f64>,
    expected: f64,
    tolerance: Option<f64>,
    known_discrepancy: bool,
) -> Outcome {
    // A value that is not finite was never computed: no comparison with it means anything.
    let Some(c) = computed.filter(|c| c.is_finite()) else {
        return Outcome::Error;
    };
    let ok = match op {
        "lt" => c < expected,
        "gt" => c > expected,
        _ => (c - expected).abs() <= tolerance.unwrap_or(0.0),
    };
    match (ok, known_discrepancy) {
        (true, false) => Outcome::Pass,
        (false, false) => Outcome::Fail,
        (false, true) => Outcome::KnownDiscrepancy,
        (true, true) => Outcome::UnexpectedPass,
    }
}

/// Escape text for LaTeX outside math: `$...$` spans are passed through unchanged.
pub fn tex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_math = false;
    for ch in s.chars() {
        if ch == '$' {
            in_math = !in_math;
            out.push(ch);
        } else if in_math {
            out.push(ch);
        } else {
            push_escaped(&mut out, ch);
        }
    }
    out
}

/// Push one character of text, escaped for LaTeX outside math.
pub(crate) fn push_escaped(out: &mut String, ch: char) {
    match ch {
        '&' | '%' | '#' | '_' | '{' | '}' | '$' => {
            out.push('\\');
            out.push(ch);
        }
        '~' => out.push_str("\\textasciitilde{}"),
        '^' => out.push_str("\\textasciicircum{}"),
        '\\' => out.push_str("\\textbackslash{}"),
        _ => out.push(ch),
    }
}

fn templates() -> Tera {
    let mut t = Tera::default();
    t.autoescape_on(vec![]);
    t.add_raw_templates(vec![
        ("table.tex", include_str!("../templates/table.tex.tera")),
        ("checks.tex", include_str!("../templates/checks.tex.tera")),
    ])
    .expect("templates parse");
    t
}

/// A transcribed table.
pub struct TableInput<'a> {
    pub manifest: &'a str,
    pub document: &'a str,
    pub number: &'a str,
    pub caption: &'a str,
    pub lines: &'a [u32],
    pub columns: &'a [String],
    pub rows: &'a [Vec<String>],
    pub notes: &'a [String],
}

/// Render a table to LaTeX. Cells are LaTeX already (math kept), other text is escaped.
pub fn render_table(t: &TableInput) -> Result<String, String> {
    let mut ctx = Context::new();
    ctx.insert("manifest", t.manifest);
    ctx.insert("document", t.document);
    ctx.insert("kind", "table");
    ctx.insert("number", t.number);
    ctx.insert(
        "lines",
        &t.lines.iter().map(|l| format!("L{l}")).collect::<Vec<_>>().join(", "),
    );
    ctx.insert("caption", &tex_escape(t.caption));
    ctx.insert("label", &format!("tab:{}", t.manifest.replace('/', ":")));
    ctx.insert("colspec", &"l".repeat(t.columns.len()));
    ctx.insert(
        "header",
        &t.columns.iter().map(|c| tex_escape(c)).collect::<Vec<_>>().join(" & "),
    );
    let rows: Vec<String> = t
        .rows
        .iter()
        .map(|r| r.iter().map(|c| tex_escape(c)).collect::<Vec<_>>().join(" & "))
        .collect();
    ctx.insert("rows", &rows);
    ctx.insert("notes", &t.notes.iter().map(|n| tex_escape(n)).collect::<Vec<_>>());
    templates().render("table.tex", &ctx).map_err(|e| format!("{e:?}"))
}

fn num(v: Option<f64>) -> String {
    match v {
        None => "--".into(),
        Some(v) if v.is_nan() => "NaN".into(),
        Some(v) => format!("{v:.6e}"),
    }
}

/// The checks table of every experiment.
pub fn render_checks(r: &Report) -> Result<String, String> {
    #[derive(Serialize)]
    struct Row {
        id: String,
        metric: String,
        computed: String,
        op: String,
        expected: String,
        tol: String,
        prov: String,
        outcome: String,
    }
    let mut rows = Vec::new();
    for e in &r.experiments {
        for c in &e.checks {
            let prov = match c.provenance.as_str() {
                "published" => format!("P L{}", c.lines.first().copied().unwrap_or(0)),
                "claim" => format!("C L{}", c.lines.first().copied().unwrap_or(0)),
                _ => "D".into(),
            };
            rows.push(Row {
                id: tex_escape(&e.id),
                metric: tex_escape(&c.metric),
                computed: num(c.computed),
                op: match c.op.as_str() {
                    "lt" => "$<$ ".into(),
                    "gt" => "$>$ ".into(),
                    _ => String::new(),
                },
                expected: format!("{:.6e}", c.expected),
                tol: c.tolerance.map_or("--".into(), |t| format!("{t:.1e}")),
                prov,
                outcome: c.outcome.as_str().into(),
            });
        }
    }
    let mut ctx = Context::new();
    ctx.insert("checks", &rows);
    templates().render("checks.tex", &ctx).map_err(|e| format!("{e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judging() {
        assert_eq!(judge("within", Some(1.0), 1.05, Some(0.1), false), Outcome::Pass);
        assert_eq!(judge("within", Some(1.0), 1.2, Some(0.1), false), Outcome::Fail);
        assert_eq!(
            judge("within", Some(1.0), 1.2, Some(0.1), true),
            Outcome::KnownDiscrepancy
        );
        assert_eq!(
            judge("within", Some(1.2), 1.2, Some(0.1), true),
            Outcome::UnexpectedPass
        );
        assert_eq!(judge("lt", Some(1.0), 2.0, None, false), Outcome::Pass);
        assert_eq!(judge("gt", Some(f64::NAN), 2.0, None, false), Outcome::Error);
        // A value that is not finite was never computed: an error under every operator.
        for v in [f64::INFINITY, f64::NEG_INFINITY] {
            for op in ["lt", "gt", "within"] {
                assert_eq!(judge(op, Some(v), 2.0, Some(1e300), false), Outcome::Error, "{op} {v}");
            }
        }
    }

    #[test]
    fn a_jump_is_reported_with_both_sides_never_as_a_root() {
        let x = Explained {
            run: "pull".into(),
            param: "vp".into(),
            range: [0.1, 0.5],
            current: Some(0.3),
            value: None,
            metric_at_value: None,
            scanned: [0.0, 0.25],
            evaluations: 22,
            brackets: 1,
            xtol: 1e-4,
            jump: Some(Jump {
                at: [0.142535, 0.142549],
                from: 0.137,
                to: 0.0989,
            }),
        };
        let t = x.text();
        assert!(
            t.starts_with("the metric jumps from 0.137000 to 0.098900 at vp ∈ [0.142535, 0.142549] (run `pull`); no value reproduces it"),
            "{t}"
        );
        assert!(!t.contains(" of run ") && !t.contains(" = "), "{t}");
    }

    #[test]
    fn table_renders_with_escaping() {
        let cols = vec!["Model".to_string(), "Rate".to_string()];
        let rows = vec![vec![
            "Dahl, $\\gamma = 0$".to_string(),
            "rate_independent & x".to_string(),
        ]];
        let s = render_table(&TableInput {
            manifest: "thesis/table1.2",
            document: "thesis",
            number: "1.2",
            caption: "Friction models",
            lines: &[386],
            columns: &cols,
            rows: &rows,
            notes: &[],
        })
        .unwrap();
        assert!(s.contains("Dahl, $\\gamma = 0$ & rate\\_independent \\& x \\\\"));
        assert!(s.contains("\\caption{Friction models}"));
    }
}
