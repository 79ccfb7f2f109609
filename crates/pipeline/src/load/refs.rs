//! The registry fields, and what panels, metrics and checks refer to: runs, their columns,
//! earlier metrics. References to a run or metric that is itself invalid are skipped: its own
//! error is the one to fix.

use super::ctx::Ctx;
use crate::evaluate::metric_kinds::{self, OtherSeries};
use crate::member::{base_of, MemberId};
use fric_manifest::{Kind, Op, Provenance, Status, Style, Window};

/// Identity and registry fields.
pub(super) fn registry(cx: &mut Ctx) {
    let m = cx.m;
    let expected_id = cx
        .file
        .trim_start_matches("experiments/")
        .trim_end_matches(".yaml")
        .trim_end_matches(".yml");
    if m.id != expected_id {
        let msg = format!("id `{}` does not match the file path", m.id);
        cx.err("id", msg, format!("id: {expected_id}"));
    }
    let doc = expected_id.split('/').next().unwrap_or("");
    if m.source.document != doc {
        let msg = format!("document `{}` does not match the directory `{doc}`", m.source.document);
        cx.err("source.document", msg, doc);
    }
    if m.source.lines.contains(&0) || (cx.has_text && m.source.lines.is_empty()) {
        cx.err(
            "source.lines",
            "source lines must be a non-empty list of seed line numbers (1-based) for a document with a source text",
            "lines: [caption line, ...]",
        );
    }
    if m.source.caption.trim().is_empty() {
        cx.err("source.caption", "empty caption", "the caption text from the seed");
    }
    math_text(cx);
    if m.status != Status::Reproduced && m.reason.as_deref().is_none_or(|r| r.trim().is_empty()) {
        let msg = format!("status `{}` needs a `reason`", m.status.as_str());
        cx.err("status", msg, "reason: why it is not reproduced");
    }
    for (i, a) in m.assumptions.iter().enumerate() {
        if a.what.trim().is_empty() || a.why.trim().is_empty() {
            cx.err(
                format!("assumptions[{i}]"),
                "an assumption needs both `what` and `why`",
                "{what: ..., why: ...}",
            );
        }
    }
    // Not when the kind or status was itself invalid (a stand-in is in its place).
    if m.status.is_built() && !cx.doc.is_knock_on("kind") && !cx.doc.is_knock_on("status") {
        match m.kind {
            // With `panels_from`, a missing reference is reported there.
            Kind::Figure if m.panels.is_empty() && m.panels_from.is_none() => {
                cx.err("panels", "a reproduced figure needs panels", "panels: [...]")
            }
            // Reported at `status`; not when the table was dropped as invalid.
            Kind::Table if m.table.is_none() && !cx.doc.is_knock_on("table") => cx.err(
                "status",
                "a reproduced table needs a `table`",
                "table: {columns, rows, lines}",
            ),
            _ => {}
        }
    }
    if let Some(t) = &m.table {
        if t.columns.is_empty() && (t.from_metrics.is_none() || !t.rows.is_empty()) {
            cx.err(
                "table",
                "a table needs `columns`",
                "columns: [...] (left out only with from_metrics and no rows)",
            );
        }
        for (i, r) in t.rows.iter().enumerate() {
            if !t.columns.is_empty() && r.len() != t.columns.len() {
                cx.err(
                    format!("table.rows[{i}]"),
                    format!("row has {} cells, the table has {} columns", r.len(), t.columns.len()),
                    format!("{} cells", t.columns.len()),
                );
            }
        }
    }
}

impl Ctx<'_> {
    /// Whether a reference (`id`, `id[k]`) names a run that is invalid itself.
    fn run_failed(&self, run: &str) -> bool {
        self.failed_runs.contains(base_of(run))
    }

    /// The columns of a run (a swept run's are its first member's).
    fn columns_of(&self, run: &str) -> Option<Vec<String>> {
        let id = if self.runs.contains_key(run) {
            run.to_string()
        } else {
            self.sweeps.get(run)?.first()?.0.clone()
        };
        let r = self.runs.get(&id)?;
        let sys = fric_experiments::system(&r.request.system)?;
        let cols = sys.columns.iter().map(|c| c.0.to_string());
        Some(cols.chain(r.post.iter().map(|p| p.name.clone())).collect())
    }

    fn run_ids(&self) -> String {
        let ids: Vec<&str> = self.runs.keys().chain(self.sweeps.keys()).map(|s| s.as_str()).collect();
        ids.join(", ")
    }

    fn check_col(&mut self, path: String, run: &str, col: &str) {
        if let Some(cols) = self.columns_of(run) {
            if !cols.iter().any(|c| c == col) {
                self.err(path, format!("run `{run}` has no column `{col}`"), cols.join(", "));
            }
        }
    }

    fn check_window(&mut self, path: String, w: &Option<Window>) {
        if let Some(Window::Periods { periods: [a, b] } | Window::Time { t: [a, b] }) = w {
            if !(a < b) {
                self.err(path, format!("empty window [{a}, {b}]"), "[a, b] with a < b");
            }
        }
    }
}

/// Every text that reaches a `.tex` file with its `$...$` kept (caption, titles, labels, table
/// text) has only well-formed mathematics with allowed commands (`fric_report::pgf::check_math`):
/// `$\input{/etc/passwd}$` is refused here, at its line.
fn math_text(cx: &mut Ctx) {
    let m = cx.m;
    let mut texts: Vec<(String, &str)> = vec![("source.caption".into(), m.source.caption.as_str())];
    for (i, p) in m.panels.iter().enumerate() {
        texts.extend(p.title.as_deref().map(|t| (format!("panels[{i}].title"), t)));
        texts.push((format!("panels[{i}].x.label"), p.x.label.as_str()));
        texts.push((format!("panels[{i}].y.label"), p.y.label.as_str()));
        for (j, s) in p.series.iter().enumerate() {
            texts.extend(
                s.label
                    .as_deref()
                    .map(|l| (format!("panels[{i}].series[{j}].label"), l)),
            );
        }
    }
    if let Some(t) = &m.table {
        texts.extend(
            t.columns
                .iter()
                .enumerate()
                .map(|(k, c)| (format!("table.columns[{k}]"), c.as_str())),
        );
        for (r, row) in t.rows.iter().enumerate() {
            texts.extend(
                row.iter()
                    .enumerate()
                    .map(|(k, c)| (format!("table.rows[{r}][{k}]"), c.as_str())),
            );
        }
        texts.extend(
            t.notes
                .iter()
                .enumerate()
                .map(|(k, n)| (format!("table.notes[{k}]"), n.as_str())),
        );
    }
    for (path, text) in texts {
        if let Err(e) = fric_report::pgf::check_math(text) {
            cx.err(path, e, "`$...$` with balanced braces and mathematical commands only");
        }
    }
}

/// A series of published points: its `points`, each with its seed line; no run.
fn published(cx: &mut Ctx, at: &str, s: &fric_manifest::SeriesSpec) {
    if s.points.is_empty() {
        cx.err(
            format!("{at}.points"),
            "published points need `points`",
            "points: [{x, y, label, line}]",
        );
    }
    for (k, q) in s.points.iter().enumerate() {
        if q.line == 0 || !(q.x.is_finite() && q.y.is_finite()) {
            cx.err(
                format!("{at}.points[{k}]"),
                "a published point needs finite x, y and its seed line",
                "{x, y, line: <seed line>}",
            );
        }
    }
    if !s.run.is_empty() || s.metric.is_some() {
        cx.err(
            at.to_string(),
            "published points are not drawn from a run or a metric",
            "drop `run`/`metric`",
        );
    }
}

pub(super) fn panels(cx: &mut Ctx) {
    let m = cx.m;
    if let Some(l) = &m.layout {
        if l.rows.saturating_mul(l.cols) < m.panels.len() {
            cx.err(
                "layout",
                format!("{}×{} layout for {} panels", l.rows, l.cols, m.panels.len()),
                "rows × cols ≥ number of panels",
            );
        }
    }
    for (i, panel) in m.panels.iter().enumerate() {
        for (j, s) in panel.series.iter().enumerate() {
            let at = format!("panels[{i}].series[{j}]");
            if let Some(c) = s.color.as_ref().filter(|c| !fric_plot::is_known_color(c)) {
                cx.err(
                    format!("{at}.color"),
                    format!("unknown color `{c}`"),
                    fric_plot::COLOR_NAMES.join(", "),
                );
            }
            if s.y2.is_none() && s.style == Style::Band {
                cx.err(
                    format!("{at}.style"),
                    "a band needs `y2` (its upper edge)",
                    "y2: <column>",
                );
            }
            cx.check_window(format!("{at}.window"), &s.window);
            if s.style == Style::Published {
                published(cx, &at, s);
                continue;
            }
            if !s.points.is_empty() {
                cx.err(
                    format!("{at}.points"),
                    "`points` belong to `style: published`",
                    "style: published",
                );
            }
            if s.metric.is_some() || s.group.is_some() {
                metric_series(cx, &at, s);
                continue;
            }
            if s.run.is_empty() || s.y.is_empty() {
                let missing = if s.run.is_empty() { "run" } else { "y" };
                cx.err(
                    at,
                    format!("a series needs `{missing}`"),
                    "{run, x, y} (columns of a run) or {metric, x, group} (a metric against swept parameters)",
                );
                continue;
            }
            // Columns are checked against a valid run only.
            if cx.run_failed(&s.run) {
                continue;
            }
            if !cx.runs.contains_key(&s.run) && !cx.sweeps.contains_key(&s.run) {
                let allowed = cx.run_ids();
                cx.err(format!("{at}.run"), format!("unknown run `{}`", s.run), allowed);
                continue;
            }
            cx.check_col(format!("{at}.x"), &s.run, &s.x);
            cx.check_col(format!("{at}.y"), &s.run, &s.y);
            if let Some(y2) = &s.y2 {
                cx.check_col(format!("{at}.y2"), &s.run, y2);
            }
        }
    }
}

/// The swept run a metric (by name) is evaluated over, if any: its own run when swept, or
/// either operand's for a metric of two metrics.
fn swept_run_of(
    m: &fric_manifest::Manifest,
    sweeps: &std::collections::BTreeMap<String, Vec<(String, fric_manifest::Coords)>>,
    name: &str,
    depth: usize,
) -> Option<String> {
    let mt = m.metrics.iter().find(|x| x.name == name)?;
    if let Some(r) = &mt.run {
        return sweeps.contains_key(r).then(|| r.clone());
    }
    let of = mt.of.as_ref()?;
    if depth > m.metrics.len() {
        return None;
    }
    of.names()
        .into_iter()
        .find_map(|n| swept_run_of(m, sweeps, n, depth + 1))
}

/// A series drawing a metric over a swept run against one swept parameter (`x`), one series
/// per value of another (`group`).
fn metric_series(cx: &mut Ctx, at: &str, s: &fric_manifest::SeriesSpec) {
    let shape = "{metric, x: <swept parameter>, group: <another swept parameter>} without run and y";
    let Some(metric) = &s.metric else {
        cx.err(format!("{at}.group"), "`group` belongs to a metric series", shape);
        return;
    };
    for (field, set) in [
        ("run", !s.run.is_empty()),
        ("y", !s.y.is_empty()),
        ("y2", s.y2.is_some()),
    ] {
        if set {
            cx.err(
                format!("{at}.{field}"),
                format!("a metric series takes no `{field}`"),
                shape,
            );
        }
    }
    if cx.failed_metrics.contains(metric) {
        return;
    }
    let names: Vec<String> = cx.m.metrics.iter().map(|x| x.name.clone()).collect();
    if !names.contains(metric) {
        cx.err(
            format!("{at}.metric"),
            format!("unknown metric `{metric}`"),
            names.join(", "),
        );
        return;
    }
    let Some(base) = swept_run_of(cx.m, &cx.sweeps, metric, 0) else {
        cx.err(
            format!("{at}.metric"),
            format!("metric `{metric}` is not evaluated over a swept run"),
            "a metric whose `run` is a swept id (or of such metrics)",
        );
        return;
    };
    if cx.run_failed(&base) {
        return;
    }
    let params: Vec<String> = cx.sweeps[&base]
        .first()
        .map(|(_, c)| c.iter().map(|p| p.0.clone()).collect())
        .unwrap_or_default();
    let allowed = format!("a parameter run `{base}` sweeps: {}", params.join(", "));
    if !params.contains(&s.x) {
        cx.err(
            format!("{at}.x"),
            format!("run `{base}` does not sweep `{}`", s.x),
            allowed.clone(),
        );
    }
    match &s.group {
        Some(g) if !params.contains(g) || *g == s.x => cx.err(
            format!("{at}.group"),
            format!("`{g}` is not another parameter run `{base}` sweeps"),
            allowed,
        ),
        None if params.len() > 1 => cx.err(
            at.to_string(),
            format!(
                "run `{base}` sweeps {} parameters: name the others in `group`",
                params.len()
            ),
            "group: <another swept parameter>",
        ),
        _ => {}
    }
}

/// A metric's run: known (a run, a member `id[k]`, or a swept id), not invalid itself.
fn metric_run(cx: &mut Ctx, path: String, r: &str) -> bool {
    if cx.run_failed(r) {
        return false;
    }
    if cx.runs.contains_key(r) {
        return true;
    }
    // A swept id: the metric is evaluated over every member (a metric table).
    if cx.sweeps.contains_key(r) {
        return true;
    }
    let allowed = cx.run_ids();
    cx.err(path, format!("unknown run `{r}`"), allowed);
    false
}

pub(super) fn metrics(cx: &mut Ctx) {
    let m = cx.m;
    let mut names: Vec<&str> = Vec::new();
    for (i, mt) in m.metrics.iter().enumerate() {
        let at = format!("metrics[{i}]");
        // What a kind needs is its declaration's (`evaluate/metric_kinds/`).
        let Some(decl) = metric_kinds::find(&mt.kind.0) else {
            let msg = format!("unknown metric kind `{}`", mt.kind.0);
            cx.err(format!("{at}.kind"), msg, metric_kinds::names());
            cx.failed_metrics.insert(mt.name.clone());
            names.push(&mt.name);
            continue;
        };
        let ok = if decl.reads_run() {
            match &mt.run {
                None => {
                    let allowed = cx.run_ids();
                    cx.err(at.clone(), format!("metric `{}` needs `run`", mt.name), allowed);
                    false
                }
                Some(r) if !metric_run(cx, format!("{at}.run"), r) => false,
                Some(r) => {
                    let needs = |f: &str| decl.doc.requires(f);
                    let needs_x = needs("x");
                    match (&mt.x, needs_x) {
                        (Some(x), _) => cx.check_col(format!("{at}.x"), r, x),
                        (None, true) => cx.err(at.clone(), "this metric kind needs `x`", "x: <column>"),
                        _ => {}
                    }
                    match &mt.y {
                        Some(y) if decl.y_is_column() => cx.check_col(format!("{at}.y"), r, y),
                        Some(_) => {}
                        None => cx.err(
                            at.clone(),
                            "metric needs `y`",
                            "y: <column> (or the info name for kind: info)",
                        ),
                    }
                    if needs("at") && mt.at.is_none() {
                        cx.err(
                            at.clone(),
                            "this metric kind needs `at`",
                            "at: <x value> (value-at) or <0…1> (quantile)",
                        );
                    }
                    if needs("range") && mt.range.is_none() {
                        cx.err(
                            at.clone(),
                            "this metric kind needs `range`",
                            "range: [lo, hi] (the band of y)",
                        );
                    }
                    if needs("part") && mt.part.is_none() {
                        cx.err(
                            at.clone(),
                            "this metric kind needs `part`",
                            "part: floor, peak, scale or rms",
                        );
                    }
                    if decl.other != OtherSeries::None {
                        let crossings = decl.other == OtherSeries::Xy;
                        match &mt.other {
                            None => {
                                let shape = if crossings {
                                    "{run, x, y, window}"
                                } else {
                                    "{run, y, window}"
                                };
                                cx.err(
                                    at.clone(),
                                    format!("{} needs `other`", decl.doc.name),
                                    format!("other: {shape}"),
                                )
                            }
                            Some(o) => {
                                if metric_run(cx, format!("{at}.other.run"), &o.run) {
                                    cx.check_col(format!("{at}.other.y"), &o.run, &o.y);
                                    match (&o.x, crossings) {
                                        (Some(x), _) => cx.check_col(format!("{at}.other.x"), &o.run, x),
                                        (None, true) => cx.err(
                                            format!("{at}.other"),
                                            format!("{} needs the other curve's x", decl.doc.name),
                                            "other: {run, x, y}",
                                        ),
                                        _ => {}
                                    }
                                }
                            }
                        }
                    }
                    cx.check_window(format!("{at}.window"), &mt.window);
                    true
                }
            }
        } else if decl.operands() == 0 {
            // A metric of neither a run nor other metrics: what it needs is its fields'.
            let missing: Vec<&str> = decl
                .doc
                .fields
                .iter()
                .filter(|f| f.required && f.name == "value" && mt.value.is_none())
                .map(|f| f.name)
                .collect();
            for f in &missing {
                cx.err(
                    at.clone(),
                    format!("this metric kind needs `{f}`"),
                    format!("{f}: <number>"),
                );
            }
            missing.is_empty()
        } else {
            let n_of = decl.operands();
            let shape = if n_of == 1 { "of: <metric>" } else { "of: [a, b]" };
            match mt.of.as_ref().map(|o| o.names()) {
                None => {
                    cx.err(
                        at.clone(),
                        format!("this metric kind needs `{shape}`"),
                        if n_of == 1 {
                            "an earlier metric name"
                        } else {
                            "two earlier metric names"
                        },
                    );
                    false
                }
                Some(of) if of.len() != n_of => {
                    let msg = format!("`{}` takes {n_of} metric(s), {} given", decl.doc.name, of.len());
                    cx.err(format!("{at}.of"), msg, shape);
                    false
                }
                Some(of) => {
                    let mut ok = true;
                    for (k, n) in of.iter().copied().enumerate() {
                        // An earlier metric, or member `name[k]` of an earlier metric table.
                        let base = base_of(n);
                        let member_ok = n == base || metric_ref(cx, n) == Some(true);
                        if cx.failed_metrics.contains(base) {
                            ok = false;
                        } else if !names.contains(&base) || !member_ok {
                            let msg = format!("`{n}` is not an earlier metric");
                            let path = if of.len() == 1 {
                                format!("{at}.of")
                            } else {
                                format!("{at}.of[{k}]")
                            };
                            cx.err(path, msg, names.join(", "));
                            ok = false;
                        }
                    }
                    let swept: Vec<(&str, String)> = of
                        .iter()
                        .filter_map(|n| swept_run_of(m, &cx.sweeps, n, 0).map(|r| (*n, r)))
                        .collect();
                    if let (true, [(a, ra), .., (b, rb)]) = (ok, &swept[..]) {
                        if ra != rb {
                            cx.err(
                                format!("{at}.of"),
                                format!("`{a}` is over swept run `{ra}`, `{b}` over `{rb}`"),
                                "metrics over the same swept run (member by member), or one of them a single value",
                            );
                            ok = false;
                        }
                    }
                    ok
                }
            }
        };
        if !ok {
            cx.failed_metrics.insert(mt.name.clone());
        }
        names.push(&mt.name);
    }
}

/// Whether `name` is a metric, or member `name[k]` of a metric table (with k in range), or
/// refers to one that is invalid itself (`Some(false)`: do not report). `None`: unknown.
fn metric_ref(cx: &Ctx, name: &str) -> Option<bool> {
    let m = cx.m;
    let (base, k) = match MemberId::parse(name) {
        Some(m) => (m.base, Some(m.k)),
        // `name[x]` with an index that is not a number names nothing.
        None if base_of(name) != name => return None,
        None => (name, None),
    };
    if cx.failed_metrics.contains(base) {
        return Some(false);
    }
    m.metrics.iter().find(|x| x.name == base)?;
    match k {
        None => Some(true),
        Some(k) => {
            let run = swept_run_of(m, &cx.sweeps, base, 0)?;
            if cx.run_failed(&run) {
                return Some(false);
            }
            (k < cx.sweeps[&run].len()).then_some(true)
        }
    }
}

/// What a metric reference may be, for an error message.
fn metric_names(cx: &Ctx) -> String {
    let names: Vec<String> =
        cx.m.metrics
            .iter()
            .map(|x| match swept_run_of(cx.m, &cx.sweeps, &x.name, 0) {
                Some(r) => format!("{} (or {}[0..{}])", x.name, x.name, cx.sweeps[&r].len()),
                None => x.name.clone(),
            })
            .collect();
    names.join(", ")
}

/// Table cells that refer to metrics, and rows generated from metric tables.
pub(super) fn table(cx: &mut Ctx) {
    let Some(t) = &cx.m.table else { return };
    let cells = t.rows.iter().enumerate().flat_map(|(i, r)| {
        r.iter()
            .enumerate()
            .map(move |(j, c)| (format!("table.rows[{i}][{j}]"), c))
    });
    let notes = t
        .notes
        .iter()
        .enumerate()
        .map(|(i, n)| (format!("table.notes[{i}]"), n));
    for (at, cell) in cells.chain(notes) {
        {
            match crate::tables::cell_refs(cell) {
                Err((msg, allowed)) => cx.err(at, msg, allowed),
                Ok(refs) => {
                    for r in refs {
                        if metric_ref(cx, &r.metric).is_none() {
                            let allowed = metric_names(cx);
                            cx.err(
                                at.clone(),
                                format!("unknown metric `{}` in the cell", r.metric),
                                allowed,
                            );
                        }
                    }
                }
            }
        }
    }
    let Some(f) = &t.from_metrics else { return };
    if let Some(Err(e)) = f.format.as_deref().map(crate::tables::check_format) {
        cx.err("table.from_metrics.format", e, ".Ng, .Ne or .Nf, e.g. .3g");
    }
    if f.metrics.is_empty() {
        cx.err("table.from_metrics.metrics", "no metrics", "metrics over one swept run");
    }
    let mut run: Option<String> = None;
    for (i, n) in f.metrics.iter().enumerate() {
        let at = format!("table.from_metrics.metrics[{i}]");
        if cx.failed_metrics.contains(n) {
            return;
        }
        if !cx.m.metrics.iter().any(|x| x.name == *n) {
            let allowed = metric_names(cx);
            cx.err(at, format!("unknown metric `{n}`"), allowed);
            return;
        }
        match (swept_run_of(cx.m, &cx.sweeps, n, 0), &run) {
            (None, _) => {
                cx.err(
                    at,
                    format!("metric `{n}` is not over a swept run"),
                    "metrics whose `run` is a swept id",
                );
                return;
            }
            (Some(r), Some(first)) if r != *first => {
                cx.err(
                    at,
                    format!("metric `{n}` is over `{r}`, the first over `{first}`"),
                    "metrics over one swept run",
                );
                return;
            }
            (Some(r), _) => run = Some(r),
        }
    }
    if let (Some(r), false) = (run, t.columns.is_empty()) {
        let params = cx.sweeps[&r].first().map_or(0, |(_, c)| c.len());
        let want = params + f.metrics.len();
        if t.columns.len() != want {
            cx.err(
                "table.columns",
                format!("{} columns; the generated rows have {want} cells", t.columns.len()),
                format!(
                    "{params} swept parameters then {} metrics (or leave `columns` out)",
                    f.metrics.len()
                ),
            );
        }
    }
}

pub(super) fn checks(cx: &mut Ctx) {
    let m = cx.m;
    for (i, c) in m.checks.iter().enumerate() {
        let at = format!("checks[{i}]");
        if metric_ref(cx, &c.metric).is_none() {
            let allowed = metric_names(cx);
            cx.err(
                format!("{at}.metric"),
                format!("unknown metric `{}`", c.metric),
                allowed,
            );
        }
        if let Some(other) = c.expected.metric() {
            if metric_ref(cx, other).is_none() {
                let allowed = metric_names(cx);
                cx.err(
                    format!("{at}.expected.metric"),
                    format!("unknown metric `{other}`"),
                    allowed,
                );
            }
            if !c.explain.is_empty() {
                cx.err(
                    format!("{at}.explain"),
                    "`explain` solves for a number: this check's expected value is a metric",
                    "expected: <number> with explain, or no explain",
                );
            }
        }
        if c.op == Op::Within && c.tol.is_none_or(|t| t.abs.is_none() && t.rel.is_none()) {
            cx.err(
                format!("{at}.tol"),
                "a `within` check needs a tolerance",
                "tol: {abs: ...} or {rel: ...}",
            );
        }
        match &c.provenance {
            Provenance::Published { line: 0, .. } => cx.err(
                format!("{at}.provenance"),
                "a published value needs its seed line",
                "published: {line: N}",
            ),
            Provenance::Transcribed { line: 0, .. } => cx.err(
                format!("{at}.provenance"),
                "a transcribed value needs its seed line",
                "transcribed: {line: N}",
            ),
            Provenance::Derived(d) if d.trim().is_empty() => cx.err(
                format!("{at}.provenance"),
                "a derived value needs its derivation",
                "derived: \"<one line>\"",
            ),
            Provenance::Claim { lines, .. } if lines.is_empty() => cx.err(
                format!("{at}.provenance"),
                "a claim needs its seed lines",
                "claim: {kind, lines: [N]}",
            ),
            _ => {}
        }
    }
}
