//! `panels_from:` a figure drawn with another manifest's layout and panels (one definition of
//! a figure that two documents publish).

use fric_manifest::Manifest;
use std::collections::HashMap;

/// `m` with the layout and panels of the manifest its `panels_from` names (`None` without
/// `panels_from`), or the problem `(message, allowed)` at `panels_from`. The series' runs are
/// then validated against `m`'s own runs like any panel's.
pub(super) fn inherit(m: &Manifest, by_id: &HashMap<&str, &Manifest>) -> Result<Option<Manifest>, (String, String)> {
    let Some(r) = &m.panels_from else {
        return Ok(None);
    };
    if m.layout.is_some() || !m.panels.is_empty() {
        return Err((
            "a manifest with `panels_from` declares no `layout` or `panels` of its own".into(),
            "either panels_from or layout and panels".into(),
        ));
    }
    let Some(other) = by_id.get(r.as_str()) else {
        return Err((
            format!("no valid manifest `{r}`"),
            "the id of a manifest that parses, <doc>/<name>".into(),
        ));
    };
    if other.panels_from.is_some() {
        return Err((
            format!("`{r}` itself takes its panels from another manifest"),
            "a manifest that declares its panels".into(),
        ));
    }
    if other.panels.is_empty() {
        return Err((format!("`{r}` has no panels"), "a figure manifest with panels".into()));
    }
    let mut out = m.clone();
    out.layout = other.layout.clone();
    out.panels = other.panels.clone();
    Ok(Some(out))
}
