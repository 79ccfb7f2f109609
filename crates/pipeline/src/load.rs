//! Walking `experiments/`, parsing and validating every manifest, resolving runs (sweeps and
//! references to other manifests) and computing their cache keys.

use crate::hash::sha256_hex;
use fric_experiments::{resolve, RunRequest};
use fric_manifest::{
    parse, parse_path, Diagnostic, Kind, Locator, Manifest, MetricKind, Op, Provenance, RunSpec, Status, Style, Window,
    DOCUMENTS,
};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// A valid manifest with its runs resolved.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Path relative to the root, `experiments/<doc>/<name>.yaml`.
    pub file: String,
    pub manifest: Manifest,
    /// Every concrete run (sweeps expanded) by id.
    pub runs: BTreeMap<String, ResolvedRun>,
    /// Swept runs: base id → member ids with their values.
    pub sweeps: BTreeMap<String, Vec<(String, f64)>>,
}

#[derive(Clone, Debug)]
pub struct ResolvedRun {
    pub request: RunRequest,
    /// Derived columns added after loading (not part of the key).
    pub post: Vec<fric_manifest::PostOp>,
    /// Cache key: sha256 of the canonical request and the code fingerprint.
    pub key: String,
}

/// A manifest that could not be used.
#[derive(Clone, Debug)]
pub struct InvalidManifest {
    pub file: String,
    pub id: Option<String>,
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Debug, Default)]
pub struct Loaded {
    pub entries: Vec<Entry>,
    pub invalid: Vec<InvalidManifest>,
}

/// Cache key of a run request.
pub fn run_key(req: &RunRequest) -> String {
    let canonical = serde_json::to_string(req).expect("requests serialise");
    sha256_hex(format!("run-v1\n{}\n{}", crate::RUNS_FINGERPRINT, canonical).as_bytes())
}

/// Every `*.yaml` under `<root>/experiments`, sorted.
pub fn manifest_files(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(root.join("experiments"))
        .sort_by_file_name()
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .map(|e| e.into_path())
        .collect();
    files.sort();
    files
}

struct Parsed {
    file: String,
    text: String,
    manifest: Manifest,
}

/// Load and validate every manifest under `root`.
pub fn load(root: &Path) -> Loaded {
    let mut out = Loaded::default();
    let mut parsed = Vec::new();
    for path in manifest_files(root) {
        let file = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                out.invalid.push(InvalidManifest {
                    file: file.clone(),
                    id: None,
                    diagnostics: vec![Diagnostic {
                        file,
                        line: 1,
                        column: 1,
                        message: format!("cannot read: {e}"),
                        allowed: String::new(),
                    }],
                });
                continue;
            }
        };
        match parse(&file, &text) {
            Ok(manifest) => parsed.push(Parsed { file, text, manifest }),
            Err(d) => out.invalid.push(InvalidManifest {
                file,
                id: None,
                diagnostics: vec![d],
            }),
        }
    }
    // Ids of manifests that failed to parse are unknown; the ones that parsed are indexed for
    // `from:` references.
    let by_id: HashMap<&str, &Parsed> = parsed.iter().map(|p| (p.manifest.id.as_str(), p)).collect();
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for p in &parsed {
        let mut errs = Vec::new();
        if let Some(first) = seen.insert(&p.manifest.id, &p.file) {
            errs.push((
                "id".to_string(),
                format!("duplicate id `{}` (also in {first})", p.manifest.id),
                String::new(),
            ));
        }
        let entry = validate(p, &by_id, &mut errs);
        if errs.is_empty() {
            out.entries.push(entry);
        } else {
            let loc = Locator::new(&p.text);
            let diagnostics = errs
                .into_iter()
                .map(|(path, message, allowed)| {
                    let (line, column) = loc.find(&parse_path(&path));
                    Diagnostic {
                        file: p.file.clone(),
                        line,
                        column,
                        message,
                        allowed,
                    }
                })
                .collect();
            out.invalid.push(InvalidManifest {
                file: p.file.clone(),
                id: Some(p.manifest.id.clone()),
                diagnostics,
            });
        }
    }
    out.entries.sort_by(|a, b| a.manifest.id.cmp(&b.manifest.id));
    out.invalid.sort_by(|a, b| a.file.cmp(&b.file));
    out
}

type Errs = Vec<(String, String, String)>;

fn err(errs: &mut Errs, path: impl Into<String>, msg: impl Into<String>, allowed: impl Into<String>) {
    errs.push((path.into(), msg.into(), allowed.into()));
}

/// Apply one sweep value to a run spec.
fn apply_sweep(spec: &RunSpec, param: &str, value: f64) -> Result<RunSpec, String> {
    let mut s = spec.clone();
    s.sweep = None;
    if let Some(field) = param.strip_prefix("input.") {
        let input = s.input.as_ref().ok_or("sweep over an input field needs an input")?;
        let mut v = serde_json::to_value(input).map_err(|e| e.to_string())?;
        let obj = v.as_object_mut().ok_or("input is not a map")?;
        if !obj.contains_key(field) || field == "kind" {
            let fields: Vec<&String> = obj.keys().filter(|k| *k != "kind").collect();
            return Err(format!("the input has no numeric field `{field}` (fields: {fields:?})"));
        }
        obj.insert(field.to_string(), serde_json::json!(value));
        s.input = Some(serde_json::from_value(v).map_err(|e| format!("cannot set input.{field}: {e}"))?);
    } else {
        s.params
            .insert(param.to_string(), fric_manifest::ParamValue::Number(value));
    }
    Ok(s)
}

fn validate(p: &Parsed, by_id: &HashMap<&str, &Parsed>, errs: &mut Errs) -> Entry {
    let m = &p.manifest;
    // Identity and registry fields.
    let expected_id = p
        .file
        .trim_start_matches("experiments/")
        .trim_end_matches(".yaml")
        .trim_end_matches(".yml");
    if m.id != expected_id {
        err(
            errs,
            "id",
            format!("id `{}` does not match the file path", m.id),
            format!("id: {expected_id}"),
        );
    }
    let doc = expected_id.split('/').next().unwrap_or("");
    if !DOCUMENTS.contains(&doc) {
        err(
            errs,
            "id",
            format!("`{doc}` is not a document directory"),
            DOCUMENTS.join(", "),
        );
    }
    if m.source.document != doc {
        err(
            errs,
            "source.document",
            format!("document `{}` does not match the directory `{doc}`", m.source.document),
            doc,
        );
    }
    if m.source.lines.is_empty() || m.source.lines.contains(&0) {
        err(
            errs,
            "source.lines",
            "source lines must be a non-empty list of seed line numbers (1-based)",
            "lines: [caption line, ...]",
        );
    }
    if m.source.caption.trim().is_empty() {
        err(
            errs,
            "source.caption",
            "empty caption",
            "the caption text from the seed",
        );
    }
    if m.status != Status::Reproduced && m.reason.as_deref().is_none_or(|r| r.trim().is_empty()) {
        err(
            errs,
            "status",
            format!("status `{}` needs a `reason`", m.status.as_str()),
            "reason: why it is not reproduced",
        );
    }
    for (i, a) in m.assumptions.iter().enumerate() {
        if a.what.trim().is_empty() || a.why.trim().is_empty() {
            err(
                errs,
                format!("assumptions[{i}]"),
                "an assumption needs both `what` and `why`",
                "{what: ..., why: ...}",
            );
        }
    }
    if m.status.is_built() {
        match m.kind {
            Kind::Figure if m.panels.is_empty() => {
                err(errs, "panels", "a reproduced figure needs panels", "panels: [...]")
            }
            Kind::Table if m.table.is_none() => err(
                errs,
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
                err(
                    errs,
                    format!("table.rows[{i}]"),
                    format!("row has {} cells, the table has {} columns", r.len(), t.columns.len()),
                    format!("{} cells", t.columns.len()),
                );
            }
        }
    }

    // Runs.
    let mut runs = BTreeMap::new();
    let mut sweeps = BTreeMap::new();
    let mut ids = std::collections::HashSet::new();
    for (i, spec) in m.runs.iter().enumerate() {
        let at = format!("runs[{i}]");
        if !ids.insert(spec.id.clone()) {
            err(
                errs,
                format!("{at}.id"),
                format!("duplicate run id `{}`", spec.id),
                "unique run ids",
            );
            continue;
        }
        if spec.from.is_some() && !spec.post.is_empty() {
            err(
                errs,
                format!("{at}.post"),
                "a run with `from` takes no other field than `id`",
                "{id, from}",
            );
            continue;
        }
        if spec.id.contains('[') || spec.id.contains('#') {
            err(
                errs,
                format!("{at}.id"),
                format!("run id `{}` contains `[` or `#`", spec.id),
                "letters, digits, `-`, `_`, `.`",
            );
            continue;
        }
        let spec = match &spec.from {
            None => spec.clone(),
            Some(r) => {
                if spec.system.is_some()
                    || !spec.params.is_empty()
                    || spec.input.is_some()
                    || spec.sim.is_some()
                    || spec.sweep.is_some()
                {
                    err(
                        errs,
                        format!("{at}.from"),
                        "a run with `from` takes no other field than `id`",
                        "{id, from}",
                    );
                    continue;
                }
                let Some((mid, rid)) = r.split_once('#') else {
                    err(
                        errs,
                        format!("{at}.from"),
                        format!("malformed reference `{r}`"),
                        "<doc>/<name>#<run id>",
                    );
                    continue;
                };
                let Some(other) = by_id.get(mid) else {
                    err(
                        errs,
                        format!("{at}.from"),
                        format!("no valid manifest `{mid}`"),
                        "the id of a manifest that parses",
                    );
                    continue;
                };
                match other.manifest.runs.iter().find(|r| r.id == rid) {
                    Some(o) if o.from.is_none() => RunSpec {
                        id: spec.id.clone(),
                        ..o.clone()
                    },
                    Some(_) => {
                        err(
                            errs,
                            format!("{at}.from"),
                            format!("`{r}` is itself a reference"),
                            "a run defined in place",
                        );
                        continue;
                    }
                    None => {
                        let known: Vec<&str> = other.manifest.runs.iter().map(|r| r.id.as_str()).collect();
                        err(
                            errs,
                            format!("{at}.from"),
                            format!("`{mid}` has no run `{rid}`"),
                            known.join(", "),
                        );
                        continue;
                    }
                }
            }
        };
        let Some(system) = spec.system.clone() else {
            err(
                errs,
                at,
                "a run needs `system` (or `from`)",
                fric_experiments::systems()
                    .iter()
                    .map(|s| s.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            );
            continue;
        };
        let mut members = Vec::new();
        match &spec.sweep {
            None => members.push((spec.id.clone(), None, spec.clone())),
            Some(sw) => {
                if sw.values.is_empty() {
                    err(errs, format!("{at}.sweep.values"), "empty sweep", "at least one value");
                }
                for (k, v) in sw.values.iter().enumerate() {
                    match apply_sweep(&spec, &sw.param, *v) {
                        Ok(s) => members.push((format!("{}[{k}]", spec.id), Some(*v), s)),
                        Err(e) => err(
                            errs,
                            format!("{at}.sweep.param"),
                            e,
                            "a parameter name or input.<field>",
                        ),
                    }
                }
                sweeps.insert(
                    spec.id.clone(),
                    members
                        .iter()
                        .map(|(id, v, _)| (id.clone(), v.unwrap_or(f64::NAN)))
                        .collect(),
                );
            }
        }
        for (mid, _, s) in members {
            match resolve(&system, &s.params, s.input.as_ref(), s.sim.as_ref()) {
                Ok(req) => {
                    let key = run_key(&req);
                    runs.insert(
                        mid,
                        ResolvedRun {
                            request: req,
                            key,
                            post: s.post.clone(),
                        },
                    );
                }
                Err(list) => {
                    for e in list {
                        // Report each problem once, not once per sweep member.
                        let path = format!("{at}.{}", e.path);
                        if !errs.iter().any(|(p, msg, _)| *p == path && *msg == e.message) {
                            err(errs, path, e.message, e.allowed);
                        }
                    }
                }
            }
        }
    }

    for (i, spec) in m.runs.iter().enumerate() {
        let first_member = sweeps
            .get(&spec.id)
            .and_then(|ms: &Vec<(String, f64)>| ms.first().map(|m| m.0.clone()));
        let Some(first) = runs.get(&spec.id).or_else(|| first_member.and_then(|id| runs.get(&id))) else {
            continue;
        };
        let Some(sys) = fric_experiments::system(&first.request.system) else {
            continue;
        };
        let mut known: Vec<String> = sys.columns.iter().map(|c| c.0.to_string()).collect();
        for (j, p) in first.post.iter().enumerate() {
            let at = format!("runs[{i}].post[{j}]");
            if !known.contains(&p.of) {
                err(
                    errs,
                    format!("{at}.of"),
                    format!("no column `{}` before this step", p.of),
                    known.join(", "),
                );
            }
            if let Some(b) = &p.by {
                if !known.contains(b) {
                    err(errs, format!("{at}.by"), format!("no column `{b}`"), known.join(", "));
                }
            }
            use fric_manifest::PostKind as K;
            let needs_param = matches!(p.op, K::Ewma | K::MovingAverage);
            if needs_param && p.param.is_none() {
                err(
                    errs,
                    at.clone(),
                    "this step needs `param`",
                    "ewma: β in (0, 1]; moving-average: window in samples",
                );
            }
            if p.op == K::Ewma && p.param.is_some_and(|b| !(b > 0.0 && b <= 1.0)) {
                err(errs, format!("{at}.param"), "ewma weight out of range", "β in (0, 1]");
            }
            if known.contains(&p.name) {
                err(
                    errs,
                    format!("{at}.name"),
                    format!("column `{}` exists already", p.name),
                    "a new column name",
                );
            }
            known.push(p.name.clone());
        }
    }
    let columns_of = |run: &str| -> Option<Vec<String>> {
        let member = |m: &Vec<(String, f64)>| m.first().map(|(id, _)| id.clone());
        let id = if runs.contains_key(run) {
            run.to_string()
        } else {
            sweeps.get(run).and_then(member)?
        };
        let r = runs.get(&id)?;
        let sys = fric_experiments::system(&r.request.system)?;
        Some(
            sys.columns
                .iter()
                .map(|c| c.0.to_string())
                .chain(r.post.iter().map(|p| p.name.clone()))
                .collect(),
        )
    };
    let run_ids = || {
        runs.keys()
            .cloned()
            .chain(sweeps.keys().cloned())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let check_col = |errs: &mut Errs, path: String, run: &str, col: &str| {
        if let Some(cols) = columns_of(run) {
            if !cols.iter().any(|c| c == col) {
                err(
                    errs,
                    path,
                    format!("run `{run}` has no column `{col}`"),
                    cols.join(", "),
                );
            }
        }
    };
    let check_window = |errs: &mut Errs, path: String, w: &Option<Window>| {
        if let Some(Window::Periods { periods: [a, b] } | Window::Time { t: [a, b] }) = w {
            if !(a < b) {
                err(errs, path, format!("empty window [{a}, {b}]"), "[a, b] with a < b");
            }
        }
    };

    // Panels.
    if let Some(l) = &m.layout {
        if l.rows * l.cols < m.panels.len() {
            err(
                errs,
                "layout",
                format!("{}×{} layout for {} panels", l.rows, l.cols, m.panels.len()),
                "rows × cols ≥ number of panels",
            );
        }
    }
    for (i, panel) in m.panels.iter().enumerate() {
        for (j, s) in panel.series.iter().enumerate() {
            let at = format!("panels[{i}].series[{j}]");
            if !runs.contains_key(&s.run) && !sweeps.contains_key(&s.run) {
                err(errs, format!("{at}.run"), format!("unknown run `{}`", s.run), run_ids());
                continue;
            }
            check_col(errs, format!("{at}.x"), &s.run, &s.x);
            check_col(errs, format!("{at}.y"), &s.run, &s.y);
            match (&s.y2, s.style) {
                (Some(y2), _) => check_col(errs, format!("{at}.y2"), &s.run, y2),
                (None, Style::Band) => err(
                    errs,
                    format!("{at}.style"),
                    "a band needs `y2` (its upper edge)",
                    "y2: <column>",
                ),
                _ => {}
            }
            if let Some(c) = &s.color {
                if !fric_plot::is_known_color(c) {
                    err(
                        errs,
                        format!("{at}.color"),
                        format!("unknown color `{c}`"),
                        fric_plot::COLOR_NAMES.join(", "),
                    );
                }
            }
            check_window(errs, format!("{at}.window"), &s.window);
        }
    }

    // Metrics.
    let mut names: Vec<&str> = Vec::new();
    for (i, mt) in m.metrics.iter().enumerate() {
        let at = format!("metrics[{i}]");
        if names.contains(&mt.name.as_str()) {
            err(
                errs,
                format!("{at}.name"),
                format!("duplicate metric `{}`", mt.name),
                "unique names",
            );
        }
        if mt.kind.needs_run() {
            match &mt.run {
                None => err(errs, at.clone(), format!("metric `{}` needs `run`", mt.name), run_ids()),
                Some(r) if !runs.contains_key(r) => err(
                    errs,
                    format!("{at}.run"),
                    format!("unknown run `{r}` (a swept run needs a member: `{r}[k]`)"),
                    runs.keys().cloned().collect::<Vec<_>>().join(", "),
                ),
                Some(r) => {
                    let needs_x = matches!(
                        mt.kind,
                        MetricKind::LoopArea | MetricKind::ValueAt | MetricKind::Slope | MetricKind::Intercept
                    );
                    match (&mt.x, needs_x) {
                        (Some(x), _) => check_col(errs, format!("{at}.x"), r, x),
                        (None, true) => err(errs, at.clone(), "this metric kind needs `x`", "x: <column>"),
                        _ => {}
                    }
                    match &mt.y {
                        Some(y) if mt.kind != MetricKind::Info => check_col(errs, format!("{at}.y"), r, y),
                        Some(_) => {}
                        None => err(
                            errs,
                            at.clone(),
                            "metric needs `y`",
                            "y: <column> (or the info name for kind: info)",
                        ),
                    }
                    if matches!(mt.kind, MetricKind::ValueAt | MetricKind::Quantile) && mt.at.is_none() {
                        err(
                            errs,
                            at.clone(),
                            "this metric kind needs `at`",
                            "at: <x value> (value-at) or <0…1> (quantile)",
                        );
                    }
                    if mt.kind == MetricKind::MaxDiff {
                        match &mt.other {
                            None => err(errs, at.clone(), "max-diff needs `other`", "other: {run, y, window}"),
                            Some(o) if !runs.contains_key(&o.run) => err(
                                errs,
                                format!("{at}.other.run"),
                                format!("unknown run `{}`", o.run),
                                runs.keys().cloned().collect::<Vec<_>>().join(", "),
                            ),
                            Some(o) => check_col(errs, format!("{at}.other.y"), &o.run, &o.y),
                        }
                    }
                    check_window(errs, format!("{at}.window"), &mt.window);
                }
            }
        } else {
            match &mt.of {
                None => err(
                    errs,
                    at.clone(),
                    "this metric kind needs `of: [a, b]`",
                    "two earlier metric names",
                ),
                Some([a, b]) => {
                    for (k, n) in [a, b].into_iter().enumerate() {
                        if !names.contains(&n.as_str()) {
                            err(
                                errs,
                                format!("{at}.of[{k}]"),
                                format!("`{n}` is not an earlier metric"),
                                names.join(", "),
                            );
                        }
                    }
                }
            }
        }
        names.push(&mt.name);
    }

    // Checks.
    for (i, c) in m.checks.iter().enumerate() {
        let at = format!("checks[{i}]");
        if !names.contains(&c.metric.as_str()) {
            err(
                errs,
                format!("{at}.metric"),
                format!("unknown metric `{}`", c.metric),
                names.join(", "),
            );
        }
        if c.op == Op::Within && c.tol.is_none_or(|t| t.abs.is_none() && t.rel.is_none()) {
            err(
                errs,
                format!("{at}.tol"),
                "a `within` check needs a tolerance",
                "tol: {abs: ...} or {rel: ...}",
            );
        }
        match &c.provenance {
            Provenance::Published { line: 0, .. } => err(
                errs,
                format!("{at}.provenance"),
                "a published value needs its seed line",
                "published: {line: N}",
            ),
            Provenance::Derived(d) if d.trim().is_empty() => err(
                errs,
                format!("{at}.provenance"),
                "a derived value needs its derivation",
                "derived: \"<one line>\"",
            ),
            Provenance::Claim { lines, .. } if lines.is_empty() => err(
                errs,
                format!("{at}.provenance"),
                "a claim needs its seed lines",
                "claim: {kind, lines: [N]}",
            ),
            _ => {}
        }
    }

    Entry {
        file: p.file.clone(),
        manifest: m.clone(),
        runs,
        sweeps,
    }
}
