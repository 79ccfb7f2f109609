//! `panels_from:` a figure drawn with another manifest's layout and panels (one definition of
//! a figure that two documents publish), with `panels_relabel:` this document's numbers in its
//! labels.

use fric_manifest::{Manifest, Panel};
use std::collections::HashMap;

/// A problem with `panels_from` or `panels_relabel`: the field, the message and what is allowed.
pub(super) type Problem = (&'static str, String, String);

/// `m` with the layout and panels of the manifest its `panels_from` names (`None` without
/// `panels_from`), relabelled by its `panels_relabel`, or the problem. The series' runs are
/// then validated against `m`'s own runs like any panel's.
pub(super) fn inherit(m: &Manifest, by_id: &HashMap<&str, &Manifest>) -> Result<Option<Manifest>, Problem> {
    let Some(r) = &m.panels_from else {
        if m.panels_relabel.is_empty() {
            return Ok(None);
        }
        return Err((
            "panels_relabel",
            "`panels_relabel` without `panels_from`: there are no inherited panels to relabel".into(),
            "panels_relabel beside panels_from, or the labels written in the manifest's own panels".into(),
        ));
    };
    let at = "panels_from";
    if m.layout.is_some() || !m.panels.is_empty() {
        return Err((
            at,
            "a manifest with `panels_from` declares no `layout` or `panels` of its own".into(),
            "either panels_from or layout and panels".into(),
        ));
    }
    let Some(other) = by_id.get(r.as_str()) else {
        return Err((
            at,
            format!("no valid manifest `{r}`"),
            "the id of a manifest that parses, <doc>/<name>".into(),
        ));
    };
    if other.panels_from.is_some() {
        return Err((
            at,
            format!("`{r}` itself takes its panels from another manifest"),
            "a manifest that declares its panels".into(),
        ));
    }
    if other.panels.is_empty() {
        return Err((
            at,
            format!("`{r}` has no panels"),
            "a figure manifest with panels".into(),
        ));
    }
    let mut out = m.clone();
    out.layout = other.layout.clone();
    out.panels = other.panels.clone();
    for (i, rl) in m.panels_relabel.iter().enumerate() {
        let mut hits = 0;
        if !rl.from.is_empty() {
            for p in &mut out.panels {
                for_each_text(p, |s| {
                    if s.contains(&rl.from) {
                        hits += 1;
                        *s = s.replace(&rl.from, &rl.to);
                    }
                });
            }
        }
        if hits == 0 {
            return Err((
                "panels_relabel",
                format!(
                    "panels_relabel[{i}]: `{}` occurs in no title, axis label or series label of `{r}`'s panels",
                    rl.from
                ),
                "a non-empty text of the inherited panels (a stale replacement is an error)".into(),
            ));
        }
    }
    Ok(Some(out))
}

/// Every text a reader sees on a panel: its title, axis labels, series labels and the labels
/// of published points.
fn for_each_text(p: &mut Panel, mut f: impl FnMut(&mut String)) {
    if let Some(t) = &mut p.title {
        f(t);
    }
    f(&mut p.x.label);
    f(&mut p.y.label);
    for s in &mut p.series {
        if let Some(l) = &mut s.label {
            f(l);
        }
        for pt in &mut s.points {
            if let Some(l) = &mut pt.label {
                f(l);
            }
        }
    }
}
