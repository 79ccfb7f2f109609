//! Runs: references to other manifests, sweeps, validation against the system's declaration
//! (`fric_experiments::resolve`), and post-processing steps.

use super::ctx::Ctx;
use crate::entry::{run_key, ResolvedRun};
use crate::member::MemberId;
use crate::overrides::apply_sweep;
use fric_experiments::resolve;
use fric_manifest::{InputSpec, Manifest, PostKind, RunSpec};
use std::collections::HashMap;

/// The manifest path (under `sweep`) of a swept parameter's name.
fn sweep_field(sw: &fric_manifest::Sweep, param: &str) -> String {
    let find = |axes: &[fric_manifest::SweepAxis], name: &str| {
        axes.iter()
            .position(|a| a.param == param)
            .map(|i| format!("{name}[{i}].param"))
    };
    find(&sw.grid, "grid")
        .or_else(|| find(&sw.zip, "zip"))
        .unwrap_or_else(|| "param".into())
}

/// The manifest path of the error `path` (under the run, e.g. `params.fc` or `input.omega`) of
/// a sweep member whose coordinates are `coords`: the swept values when the error is about a
/// swept parameter (the values set it, not the `params:` line), else `path` itself.
fn member_error_path(sw: Option<&fric_manifest::Sweep>, coords: &fric_manifest::Coords, path: &str) -> String {
    let swept = coords
        .iter()
        .find(|(p, _)| path == format!("params.{p}") || path == p.as_str());
    match (sw, swept) {
        (Some(sw), Some((p, _))) => {
            let field = sweep_field(sw, p);
            let values = field
                .strip_suffix("param")
                .map(|f| format!("{f}values"))
                .unwrap_or(field);
            format!("sweep.{values}")
        }
        _ => path.to_string(),
    }
}

/// The spec a `from:` reference stands for, or the error at `<at>.from`. The referencing run
/// may add `post` steps: they apply after the referenced run's own, to the same run data (the
/// run, and so its cache key, is the referenced one).
fn referenced(spec: &RunSpec, r: &str, by_id: &HashMap<&str, &Manifest>) -> Result<RunSpec, (String, String)> {
    if spec.system.is_some()
        || !spec.params.is_empty()
        || spec.input.is_some()
        || spec.sim.is_some()
        || spec.sweep.is_some()
    {
        return Err((
            "a run with `from` takes no other field than `id` and `post`".into(),
            "{id, from, post}".into(),
        ));
    }
    let Some((mid, rid)) = r.split_once('#') else {
        return Err((format!("malformed reference `{r}`"), "<doc>/<name>#<run id>".into()));
    };
    let Some(other) = by_id.get(mid) else {
        return Err((
            format!("no valid manifest `{mid}`"),
            "the id of a manifest that parses".into(),
        ));
    };
    match other.runs.iter().find(|r| r.id == rid) {
        Some(o) if o.from.is_none() => {
            let mut post = o.post.clone();
            post.extend(spec.post.iter().cloned());
            Ok(RunSpec {
                id: spec.id.clone(),
                post,
                ..o.clone()
            })
        }
        Some(_) => Err((format!("`{r}` is itself a reference"), "a run defined in place".into())),
        None => {
            let known: Vec<&str> = other.runs.iter().map(|r| r.id.as_str()).collect();
            Err((format!("`{mid}` has no run `{rid}`"), known.join(", ")))
        }
    }
}

/// Resolve every run (sweeps expanded). A run that is invalid is reported once and recorded
/// in `failed_runs`, so that panels and metrics drawing on it are not reported again.
pub(super) fn resolve_runs(cx: &mut Ctx, by_id: &HashMap<&str, &Manifest>) {
    let m = cx.m;
    let mut ids = std::collections::HashSet::new();
    for (i, spec) in m.runs.iter().enumerate() {
        let at = format!("runs[{i}]");
        // Duplicate and malformed ids are reported by the manifest's rules.
        if !ids.insert(spec.id.clone()) {
            continue;
        }
        if fric_manifest::rules::id_problem(&spec.id).is_some() {
            cx.failed_runs.insert(spec.id.clone());
            continue;
        }
        let spec = match &spec.from {
            None => spec.clone(),
            Some(r) => match referenced(spec, r, by_id) {
                Ok(s) => s,
                Err((msg, allowed)) => {
                    cx.err(format!("{at}.from"), msg, allowed);
                    cx.failed_runs.insert(spec.id.clone());
                    continue;
                }
            },
        };
        let Some(system) = spec.system.clone() else {
            let names: Vec<&str> = fric_experiments::systems().iter().map(|s| s.name).collect();
            cx.err(at, "a run needs `system` (or `from`)", names.join(", "));
            cx.failed_runs.insert(spec.id.clone());
            continue;
        };
        let mut members = Vec::new();
        let mut failed = false;
        // Sampled inputs read once per run, not once per sweep member.
        let mut sampled = HashMap::new();
        match &spec.sweep {
            None => members.push((spec.id.clone(), spec.clone(), Default::default())),
            Some(sw) => {
                // Bounded before anything is expanded.
                let coords = match crate::limits::sweep_problem(sw).map_or_else(
                    || sw.members(),
                    |msg| Err((String::new(), msg, "fewer values, or a coarser grid".into())),
                ) {
                    Ok(c) => c,
                    Err((path, msg, allowed)) => {
                        let path = if path.is_empty() {
                            format!("{at}.sweep")
                        } else {
                            format!("{at}.sweep.{path}")
                        };
                        cx.err(path, msg, allowed);
                        failed = true;
                        Vec::new()
                    }
                };
                let mut values = Vec::new();
                'member: for (k, c) in coords.into_iter().enumerate() {
                    let mut s = spec.clone();
                    s.sweep = None;
                    for (param, v) in &c {
                        match apply_sweep(&s, param, *v) {
                            Ok(next) => s = next,
                            Err(e) => {
                                failed = true;
                                if !cx.errs.iter().any(|(_, msg, _)| *msg == e) {
                                    let field = sweep_field(sw, param);
                                    cx.err(format!("{at}.sweep.{field}"), e, "a parameter name or input.<field>");
                                }
                                continue 'member;
                            }
                        }
                    }
                    let id = MemberId::new(&spec.id, k).to_string();
                    members.push((id.clone(), s, c.clone()));
                    values.push((id, c));
                }
                cx.sweeps.insert(spec.id.clone(), values);
            }
        }
        for (mid, s, coords) in members {
            match resolve(&system, &s.params, s.input.as_ref(), s.sim.as_ref()) {
                Ok(mut req) => {
                    if let InputSpec::Csv {
                        path,
                        t_column,
                        u_column,
                    } = &req.input
                    {
                        let read = sampled
                            .entry((path.clone(), t_column.clone(), u_column.clone()))
                            .or_insert_with(|| super::csv::read(cx.root, path, t_column, u_column))
                            .clone();
                        match read {
                            Ok(data) => {
                                req.input_data = Some(data);
                                // The budget again, now that the number of samples is known.
                                let columns = fric_experiments::system(&req.system).map_or(1, |s| s.columns.len());
                                let mut over = Vec::new();
                                fric_experiments::budget::check(&req, columns, &mut over);
                                if let Some(e) = over.into_iter().next() {
                                    failed = true;
                                    cx.err(format!("{at}.{}", e.path), e.message, e.allowed);
                                    continue;
                                }
                            }
                            Err((field, msg, allowed)) => {
                                failed = true;
                                let path = format!("{at}.input.{field}");
                                if !cx.errs.iter().any(|(p, m, _)| *p == path && *m == msg) {
                                    cx.err(path, msg, allowed);
                                }
                                continue;
                            }
                        }
                    }
                    let key = run_key(&req);
                    let post = s.post.clone();
                    cx.runs.insert(
                        mid,
                        ResolvedRun {
                            request: req,
                            key,
                            post,
                        },
                    );
                }
                Err(list) => {
                    failed = true;
                    for e in list {
                        // A parameter that was dropped as invalid is not also missing.
                        let missing = e
                            .message
                            .strip_prefix("missing parameter `")
                            .and_then(|r| r.split_once('`'));
                        if let Some((name, _)) = missing {
                            if cx.doc.is_knock_on(&format!("{at}.params.{name}")) {
                                continue;
                            }
                        }
                        // Report each problem once, not once per sweep member; a swept
                        // value's at the sweep.
                        let path = format!("{at}.{}", member_error_path(spec.sweep.as_ref(), &coords, &e.path));
                        if !cx.errs.iter().any(|(p, msg, _)| *p == path && *msg == e.message) {
                            cx.err(path, e.message, e.allowed);
                        }
                    }
                }
            }
        }
        if failed {
            cx.failed_runs.insert(spec.id.clone());
        }
    }
    manifest_memory(cx);
}

/// The runs of a manifest are held in memory together while it is evaluated: their estimated
/// size is bounded ([`crate::limits::MANIFEST_BYTES`]), reported at `runs`.
fn manifest_memory(cx: &mut Ctx) {
    let mut keys = std::collections::HashSet::new();
    let bytes: f64 = cx
        .runs
        .values()
        .filter(|r| keys.insert(r.key.as_str()))
        .map(crate::batches::run_bytes)
        .sum();
    if let Some(msg) = crate::limits::manifest_memory_problem(bytes, keys.len()) {
        cx.err("runs", msg, "fewer sweep members, fewer periods or samples_per_period");
    }
}

/// The characters of a column a `post` step adds: it becomes a CSV header and a name in the
/// manifest's references, so no separators, spaces or path parts.
const COLUMN_ALLOWED: &str = "a letter, then letters, digits or `_` ([A-Za-z][A-Za-z0-9_]*), at most 64 characters";

/// Why `name` is not allowed as a new column's name, or None.
fn column_problem(name: &str) -> Option<String> {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return Some("empty column name".into());
    };
    if name.len() > fric_manifest::rules::MAX_ID_LEN {
        return Some(format!("column name of {} characters", name.chars().count()));
    }
    let ok = first.is_ascii_alphabetic() && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    (!ok).then(|| format!("column name `{}` has characters outside the rule", name.escape_debug()))
}

/// The fields `param` and `by` of step `p` that its kind (`decl`) does not take: (field, why).
fn fields_not_taken(p: &fric_manifest::PostOp, decl: Option<&fric_manifest::KindDoc>) -> Vec<(&'static str, String)> {
    let Some(d) = decl else { return Vec::new() };
    let kind = fric_manifest::kind_name(&p.op);
    [("param", p.param.is_some()), ("by", p.by.is_some())]
        .into_iter()
        .filter(|(f, given)| *given && d.field(f).is_none())
        .map(|(f, _)| (f, format!("`{kind}` takes no `{f}`")))
        .collect()
}

/// Post-processing steps: each reads existing columns and adds a new one.
pub(super) fn check_post(cx: &mut Ctx) {
    for (i, spec) in cx.m.runs.iter().enumerate() {
        if cx.failed_runs.contains(&spec.id) {
            continue;
        }
        let first_member = cx.sweeps.get(&spec.id).and_then(|ms| ms.first().map(|m| m.0.clone()));
        let Some(first) = cx
            .runs
            .get(&spec.id)
            .or_else(|| first_member.and_then(|id| cx.runs.get(&id)))
        else {
            continue;
        };
        let Some(sys) = fric_experiments::system(&first.request.system) else {
            continue;
        };
        let mut known: Vec<String> = sys.columns.iter().map(|c| c.0.to_string()).collect();
        let mut errs = Vec::new();
        // A `from:` run's steps follow the referenced run's, which its own manifest checks.
        let inherited = first.post.len() - spec.post.len().min(first.post.len());
        for (j, p) in first.post.iter().enumerate() {
            if j < inherited {
                known.push(p.name.clone());
                continue;
            }
            let at = format!("runs[{i}].post[{}]", j - inherited);
            if !known.contains(&p.of) {
                let msg = format!("no column `{}` before this step", p.of);
                errs.push((format!("{at}.of"), msg, known.join(", ")));
            }
            if let Some(b) = p.by.as_ref().filter(|b| !known.contains(b)) {
                errs.push((format!("{at}.by"), format!("no column `{b}`"), known.join(", ")));
            }
            let decl = fric_manifest::kind(fric_manifest::POST_KINDS, &fric_manifest::kind_name(&p.op));
            if let (Some(d), None) = (decl.and_then(|d| d.field("param")).filter(|f| f.required), p.param) {
                errs.push((
                    at.clone(),
                    "this step needs `param`".into(),
                    format!("param: {}", d.doc),
                ));
            }
            if decl.is_some_and(|d| d.requires("by")) && p.by.is_none() {
                errs.push((at.clone(), "this step needs `by`".into(), "by: <column>".into()));
            }
            if p.op == PostKind::Ewma && p.param.is_some_and(|b| !(b > 0.0 && b <= 1.0)) {
                errs.push((
                    format!("{at}.param"),
                    "ewma weight out of range".into(),
                    "β in (0, 1]".into(),
                ));
            }
            if p.op == PostKind::MovingAverage && p.param.is_some_and(|w| !(w >= 1.0 && w.fract() == 0.0)) {
                errs.push((
                    format!("{at}.param"),
                    "moving-average window out of range".into(),
                    "a whole number of samples ≥ 1".into(),
                ));
            }
            for (field, msg) in fields_not_taken(p, decl) {
                let allowed = decl.map_or_else(String::new, |d| d.field_names().join(", "));
                errs.push((format!("{at}.{field}"), msg, allowed));
            }
            if let Some(msg) = column_problem(&p.name) {
                errs.push((format!("{at}.name"), msg, COLUMN_ALLOWED.into()));
            }
            if known.contains(&p.name) {
                let msg = format!("column `{}` exists already", p.name);
                errs.push((format!("{at}.name"), msg, "a new column name".into()));
            }
            known.push(p.name.clone());
        }
        cx.errs.extend(errs);
    }
}
