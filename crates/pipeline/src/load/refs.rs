//! The registry fields, and what panels, metrics and checks refer to: runs, their columns,
//! earlier metrics. References to a run or metric that is itself invalid are skipped: its own
//! error is the one to fix.

use super::Ctx;
use fric_manifest::{Kind, MetricKind, Op, Provenance, Status, Style, Window};

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
    if m.source.lines.is_empty() || m.source.lines.contains(&0) {
        cx.err(
            "source.lines",
            "source lines must be a non-empty list of seed line numbers (1-based)",
            "lines: [caption line, ...]",
        );
    }
    if m.source.caption.trim().is_empty() {
        cx.err("source.caption", "empty caption", "the caption text from the seed");
    }
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
            Kind::Figure if m.panels.is_empty() => {
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
        for (i, r) in t.rows.iter().enumerate() {
            if r.len() != t.columns.len() {
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
        self.failed_runs.contains(run.split('[').next().unwrap_or(run))
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

/// A metric's run: known, one run (not a whole sweep), not invalid itself.
fn metric_run(cx: &mut Ctx, path: String, r: &str) -> bool {
    if cx.run_failed(r) {
        return false;
    }
    if cx.runs.contains_key(r) {
        return true;
    }
    let members: Vec<String> = cx.runs.keys().cloned().collect();
    if cx.sweeps.contains_key(r) {
        let msg = format!("run `{r}` is swept: a metric reads one member, `{r}[k]`");
        cx.err(path, msg, members.join(", "));
    } else {
        cx.err(path, format!("unknown run `{r}`"), members.join(", "));
    }
    false
}

pub(super) fn metrics(cx: &mut Ctx) {
    let m = cx.m;
    let mut names: Vec<&str> = Vec::new();
    for (i, mt) in m.metrics.iter().enumerate() {
        let at = format!("metrics[{i}]");
        let ok = if mt.kind.needs_run() {
            match &mt.run {
                None => {
                    let allowed = cx.run_ids();
                    cx.err(at.clone(), format!("metric `{}` needs `run`", mt.name), allowed);
                    false
                }
                Some(r) if !metric_run(cx, format!("{at}.run"), r) => false,
                Some(r) => {
                    // What a kind needs is its declaration's (`fric_manifest::METRIC_KINDS`).
                    let decl = fric_manifest::kind(fric_manifest::METRIC_KINDS, &fric_manifest::kind_name(&mt.kind));
                    let needs = |f: &str| decl.is_some_and(|d| d.requires(f));
                    let needs_x = needs("x");
                    match (&mt.x, needs_x) {
                        (Some(x), _) => cx.check_col(format!("{at}.x"), r, x),
                        (None, true) => cx.err(at.clone(), "this metric kind needs `x`", "x: <column>"),
                        _ => {}
                    }
                    match &mt.y {
                        Some(y) if mt.kind != MetricKind::Info => cx.check_col(format!("{at}.y"), r, y),
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
                    if mt.kind == MetricKind::MaxDiff {
                        match &mt.other {
                            None => cx.err(at.clone(), "max-diff needs `other`", "other: {run, y, window}"),
                            Some(o) => {
                                if metric_run(cx, format!("{at}.other.run"), &o.run) {
                                    cx.check_col(format!("{at}.other.y"), &o.run, &o.y);
                                }
                            }
                        }
                    }
                    cx.check_window(format!("{at}.window"), &mt.window);
                    true
                }
            }
        } else {
            match &mt.of {
                None => {
                    cx.err(
                        at.clone(),
                        "this metric kind needs `of: [a, b]`",
                        "two earlier metric names",
                    );
                    false
                }
                Some([a, b]) => {
                    let mut ok = true;
                    for (k, n) in [a, b].into_iter().enumerate() {
                        if cx.failed_metrics.contains(n) {
                            ok = false;
                        } else if !names.contains(&n.as_str()) {
                            let msg = format!("`{n}` is not an earlier metric");
                            cx.err(format!("{at}.of[{k}]"), msg, names.join(", "));
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

pub(super) fn checks(cx: &mut Ctx) {
    let m = cx.m;
    let names: Vec<&str> = m.metrics.iter().map(|x| x.name.as_str()).collect();
    for (i, c) in m.checks.iter().enumerate() {
        let at = format!("checks[{i}]");
        if !names.contains(&c.metric.as_str()) && !cx.failed_metrics.contains(&c.metric) {
            cx.err(
                format!("{at}.metric"),
                format!("unknown metric `{}`", c.metric),
                names.join(", "),
            );
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
