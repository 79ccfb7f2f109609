//! Rules a manifest must follow beyond its shape, checked on the manifest alone: ids that are
//! safe to put in file names, unique ids, tolerances that can be met, a figure size that can be
//! drawn.

use crate::Manifest;
use std::collections::HashMap;

/// The characters of a run id, panel id or metric name (panel ids become file names:
/// `figures/<doc>/<name>/<panel>-<k>.csv`).
pub const ID_ALLOWED: &str =
    "lower-case letters, digits, `.`, `_`, `-` ([a-z0-9][a-z0-9._-]*), without `..`, at most 64 characters";

/// The longest run id, panel id, metric name or document folder name: ids become parts of file
/// names (`<panel>-<k>.csv`, a sweep member's `run[k]`), and a file name longer than the
/// filesystem's 255 bytes failed only when the figure was drawn. The project's longest is 26.
pub const MAX_ID_LEN: usize = 64;

/// A manifest's name, the file name without `.yaml`.
pub const NAME_ALLOWED: &str = "fig<number> or table<number>, the number as printed (digits or an \
     appendix letter, then `.<digits>` parts) and one lower-case letter for a sub-figure: \
     fig1.7, fig6a, figC.1, table2.1";

/// Why an id is not allowed, or None if it is.
pub fn id_problem(id: &str) -> Option<String> {
    let Some(first) = id.chars().next() else {
        return Some("is empty".into());
    };
    if id.len() > MAX_ID_LEN {
        return Some(format!(
            "is {} characters long, more than {MAX_ID_LEN}",
            id.chars().count()
        ));
    }
    if id.contains(['/', '\\']) {
        return Some("contains a path separator".into());
    }
    if id.contains("..") {
        return Some("contains `..`".into());
    }
    if !(first.is_ascii_lowercase() || first.is_ascii_digit()) {
        return Some(format!("starts with `{first}`"));
    }
    id.chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(*c)))
        .map(|c| format!("contains `{}`", c.escape_debug()))
}

/// Whether a manifest name (`fig1.7`, `figC.1`, `table2.1`, `fig6a`) follows the naming rule.
pub fn is_manifest_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("fig").or_else(|| name.strip_prefix("table")) else {
        return false;
    };
    let rest = rest.strip_suffix(|c: char| c.is_ascii_lowercase()).unwrap_or(rest);
    let mut parts = rest.split('.');
    let first = parts.next().unwrap_or("");
    let number = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    let appendix = first.len() == 1 && first.bytes().all(|b| b.is_ascii_uppercase());
    (number(first) || appendix) && parts.all(number)
}

/// Why a manifest id (`<doc>/<name>`) breaks the naming rule, or None; `documents` are the
/// declared documents (folders with a `document.yaml`).
pub fn manifest_id_problem(id: &str, documents: &[&str]) -> Option<(String, String)> {
    let declared = || {
        format!(
            "a declared document: {} (a folder declares one with document.yaml)",
            documents.join(", ")
        )
    };
    let Some((doc, name)) = id.split_once('/') else {
        return Some((format!("`{id}` is not in a document directory"), declared()));
    };
    if !documents.contains(&doc) {
        return Some((
            format!("`{doc}` is not a document directory (no experiments/{doc}/document.yaml)"),
            declared(),
        ));
    }
    if !is_manifest_name(name) {
        return Some((format!("`{name}` is not a manifest name"), NAME_ALLOWED.into()));
    }
    None
}

/// A problem at a path of the manifest: (path, message, allowed).
pub type Problem = (String, String, String);

/// Check one list of ids: each allowed, none twice.
fn ids<'a>(out: &mut Vec<Problem>, what: &str, list: &str, field: &str, ids: impl Iterator<Item = &'a str>) {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, id) in ids.enumerate() {
        let path = format!("{list}[{i}].{field}");
        if let Some(why) = id_problem(id) {
            // A long id is shown by its start, not echoed whole.
            let shown: String = id.chars().take(MAX_ID_LEN).collect();
            let more = if shown.len() < id.len() { "…" } else { "" };
            out.push((path, format!("{what} `{shown}{more}` {why}"), ID_ALLOWED.into()));
        } else if let Some(first) = seen.insert(id, i) {
            out.push((
                path,
                format!("duplicate {what} `{id}` (also {list}[{first}])"),
                format!("unique {what}s"),
            ));
        }
    }
}

/// The most arrowheads one series may ask for: more would hide the curve under them (and a huge
/// count would cost time and memory before anything is drawn).
pub const MAX_ARROWS: u32 = 100;

/// The printable marker sizes, in pt (`marker_size`).
pub const MARKER_SIZE_PT: (f64, f64) = (0.5, 6.0);

/// What `discrepancy:` allows.
pub const DISCREPANCY_ALLOWED: &str = "discrepancy: source-error (the source's arithmetic or printed formula \
     shown wrong by a computation in the evidence), assumption (an unstated value explains it; \
     with `explain`) or unresolved (the evidence says what was ruled out)";

/// Why a check's known discrepancy is incompletely declared, as (field, message, allowed): a
/// known discrepancy needs its kind, a kind needs its evidence, and an `assumption` needs the
/// `explain` entry that finds the unstated value.
fn discrepancy_problem(c: &crate::CheckSpec) -> Option<Problem> {
    use crate::DiscrepancyKind;
    match (&c.known_discrepancy, c.discrepancy) {
        (Some(_), None) => Some((
            "known_discrepancy".into(),
            format!("known discrepancy of `{}` without its kind", c.metric),
            DISCREPANCY_ALLOWED.into(),
        )),
        (None, Some(kind)) => Some((
            "discrepancy".into(),
            format!("`discrepancy: {}` without `known_discrepancy`", kind.name()),
            "known_discrepancy: \"<evidence>\" beside the kind, or no kind".into(),
        )),
        (Some(_), Some(DiscrepancyKind::Assumption)) if c.explain.is_empty() => Some((
            "discrepancy".into(),
            format!(
                "known discrepancy of `{}` is an `assumption` but names no parameter to explain it",
                c.metric
            ),
            "explain: [{run, param, range}] (the unstated value `cargo xtask explain` finds), or \
             discrepancy: unresolved"
                .into(),
        )),
        _ => None,
    }
}

/// The field a rule's problem at `path` follows from, when that is another field: a known
/// discrepancy "without its kind" is a knock-on error when its `discrepancy` was written but
/// dropped as invalid (that error is reported at its own line).
pub fn follows_from(path: &str) -> Option<String> {
    path.strip_suffix(".known_discrepancy")
        .map(|check| format!("{check}.discrepancy"))
}

/// At most this many insets in one panel (one per corner).
pub const MAX_INSETS: usize = 4;

/// The insets of panel `i`: at most one per corner, each region a non-empty finite range
/// (positive on a log axis), its size 0.2 to 0.6 of the panel's axes.
fn inset_problems(i: usize, panel: &crate::Panel) -> Vec<Problem> {
    let mut out = Vec::new();
    if panel.insets.len() > MAX_INSETS {
        out.push((
            format!("panels[{i}].insets"),
            format!("{} insets in one panel", panel.insets.len()),
            format!("at most {MAX_INSETS}, one per corner"),
        ));
    }
    for (k, inset) in panel.insets.iter().enumerate() {
        let at = format!("panels[{i}].insets[{k}]");
        for (name, r, axis) in [("x", inset.x, &panel.x), ("y", inset.y, &panel.y)] {
            let log = axis.scale == crate::Scale::Log;
            if !(r[0].is_finite() && r[1].is_finite() && r[0] < r[1]) || (log && r[0] <= 0.0) {
                out.push((
                    format!("{at}.{name}"),
                    format!("region [{}, {}] is empty or not finite", r[0], r[1]),
                    format!(
                        "[min, max] with min < max{}",
                        if log { ", min > 0 on a log axis" } else { "" }
                    ),
                ));
            }
        }
        if !(0.2..=0.6).contains(&inset.size) {
            out.push((
                format!("{at}.size"),
                format!("inset size {} out of range", inset.size),
                "0.2 to 0.6 of the panel's axes".into(),
            ));
        }
        if panel.insets[..k].iter().any(|o| o.corner == inset.corner) {
            out.push((
                format!("{at}.corner"),
                "two insets in one corner".into(),
                "one inset per corner".into(),
            ));
        }
    }
    out
}

/// Every problem of these rules.
pub fn check(m: &Manifest) -> Vec<Problem> {
    let mut out = Vec::new();
    ids(&mut out, "run id", "runs", "id", m.runs.iter().map(|r| r.id.as_str()));
    ids(
        &mut out,
        "panel id",
        "panels",
        "id",
        m.panels.iter().map(|p| p.id.as_str()),
    );
    ids(
        &mut out,
        "metric name",
        "metrics",
        "name",
        m.metrics.iter().map(|x| x.name.as_str()),
    );
    if let Some(l) = &m.layout {
        for (name, v, lo, hi) in [
            ("rows", l.rows, 1, 16),
            ("cols", l.cols, 1, 16),
            ("panel_width", l.panel_width as usize, 64, 4096),
            ("panel_height", l.panel_height as usize, 64, 4096),
        ] {
            if !(lo..=hi).contains(&v) {
                let msg = format!("`{name}` = {v} is out of range");
                out.push((format!("layout.{name}"), msg, format!("{lo} to {hi}")));
            }
        }
    }
    let alternatives: Vec<(String, &crate::Alternative)> = m
        .assumptions
        .iter()
        .enumerate()
        .flat_map(|(i, a)| {
            a.alternatives
                .iter()
                .enumerate()
                .map(move |(j, alt)| (format!("assumptions[{i}].alternatives[{j}]"), alt))
        })
        .collect();
    let mut names: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
    let run_ids: Vec<&str> = m.runs.iter().map(|r| r.id.as_str()).collect();
    let unknown_run = |run: &str| {
        (!run_ids.contains(&run)).then(|| {
            (
                format!("no run `{run}` in this manifest"),
                format!("a run id of this manifest: {}", run_ids.join(", ")),
            )
        })
    };
    for (at, alt) in &alternatives {
        if let Some(p) = id_problem(&alt.name) {
            out.push((
                format!("{at}.name"),
                format!("alternative name `{}` {p}", alt.name),
                ID_ALLOWED.into(),
            ));
        } else if let Some(first) = names.insert(&alt.name, at) {
            out.push((
                format!("{at}.name"),
                format!("duplicate alternative name `{}` (also {first})", alt.name),
                "unique alternative names".into(),
            ));
        }
        let ids = alt.run.ids();
        if ids.is_empty() {
            out.push((
                format!("{at}.run"),
                "no run named".into(),
                "a run id or a list of run ids".into(),
            ));
        }
        for id in ids {
            if let Some((msg, allowed)) = unknown_run(id) {
                out.push((format!("{at}.run"), msg, allowed));
            }
        }
        if alt.set.is_empty() {
            out.push((
                format!("{at}.set"),
                "an alternative that sets nothing".into(),
                "{param: value, ...}".into(),
            ));
        }
    }
    for (i, c) in m.checks.iter().enumerate() {
        for (k, x) in c.explain.iter().enumerate() {
            let at = format!("checks[{i}].explain[{k}]");
            if let Some((msg, allowed)) = unknown_run(&x.run) {
                out.push((format!("{at}.run"), msg, allowed));
            }
            if x.range[0].partial_cmp(&x.range[1]) != Some(std::cmp::Ordering::Less) {
                out.push((
                    format!("{at}.range"),
                    format!("empty range [{}, {}]", x.range[0], x.range[1]),
                    "[lo, hi] with lo < hi".into(),
                ));
            }
            if let Some(t) = x.xtol {
                if !(1e-12..=0.1).contains(&t) {
                    out.push((
                        format!("{at}.xtol"),
                        format!("relative precision {t} out of range"),
                        "a number from 1e-12 to 0.1 (default 1e-4)".into(),
                    ));
                }
            }
        }
    }
    for (i, c) in m.checks.iter().enumerate() {
        out.extend(discrepancy_problem(c).map(|(field, msg, allowed)| (format!("checks[{i}].{field}"), msg, allowed)));
    }
    for (i, panel) in m.panels.iter().enumerate() {
        out.extend(inset_problems(i, panel));
        for (k, s) in panel.series.iter().enumerate() {
            if s.arrows > MAX_ARROWS {
                out.push((
                    format!("panels[{i}].series[{k}].arrows"),
                    format!("`arrows` = {} is too many arrowheads for one curve", s.arrows),
                    format!("0 to {MAX_ARROWS}"),
                ));
            }
        }
    }
    let tols = m
        .checks
        .iter()
        .enumerate()
        .filter_map(|(i, c)| Some((format!("checks[{i}].tol"), c.tol?)));
    let baseline_tols = m
        .metrics
        .iter()
        .enumerate()
        .filter_map(|(i, mt)| Some((format!("metrics[{i}].baseline_tol"), mt.baseline_tol?)));
    for (at, tol) in tols.chain(baseline_tols) {
        for (name, v) in [("abs", tol.abs), ("rel", tol.rel)] {
            if let Some(v) = v.filter(|v| *v < 0.0) {
                out.push((
                    format!("{at}.{name}"),
                    format!("negative tolerance `{name}: {v}`"),
                    "a tolerance ≥ 0".into(),
                ));
            }
        }
    }
    out.extend(m.checks.iter().enumerate().filter_map(|(i, c)| scale_problem(m, i, c)));
    out
}

/// A check's `scale` is the positive magnitude of the quantity an `lt` bound is on; on any other
/// check it would be ignored. It names what it measures (`scale_of`, code review M4): a column
/// of one of the manifest's runs, or `relative` with scale 1.
fn scale_problem(m: &crate::Manifest, i: usize, c: &crate::CheckSpec) -> Option<Problem> {
    use crate::{ScaleOf, ScaleWord};
    let at = format!("checks[{i}].scale");
    let Some(s) = c.scale else {
        return c.scale_of.as_ref().map(|_| {
            (
                format!("checks[{i}].scale_of"),
                "`scale_of` without a `scale`: it names the magnitude of nothing".into(),
                "scale_of only with scale".into(),
            )
        });
    };
    if c.op != crate::Op::Lt {
        return Some((
            at,
            "`scale` on a check that is not an `lt` bound: it would be ignored".into(),
            "scale only with op: lt".into(),
        ));
    }
    if s <= 0.0 {
        return Some((at, format!("`scale: {s}` is no magnitude"), "a scale > 0".into()));
    }
    let of = format!("checks[{i}].scale_of");
    match &c.scale_of {
        None => Some((
            at,
            format!("`scale: {s}` does not say what it measures, so nothing can check it"),
            "scale_of: {run: ID, y: COLUMN} (the column whose largest |value| the scale is), or scale_of: relative with scale: 1".into(),
        )),
        Some(ScaleOf::Word(ScaleWord::Relative)) => (s != 1.0).then(|| {
            (
                of,
                format!("a relative error's scale is 1, not {s}"),
                "scale: 1 with scale_of: relative".into(),
            )
        }),
        Some(ScaleOf::Column(col)) => {
            let base = crate::member::base_of(&col.run);
            (!m.runs.iter().any(|r| r.id == base)).then(|| {
                (
                    format!("{of}.run"),
                    format!("`scale_of` names run `{}`, which this manifest does not declare", col.run),
                    "a run id of this manifest (a sweep member as id[k])".into(),
                )
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_names() {
        for ok in ["main", "a", "r1", "lugre_a.2-b", "0"] {
            assert_eq!(id_problem(ok), None, "{ok}");
        }
        for bad in [
            "../x", "/tmp/x", "sub/dir", "a\\b", ".hidden", "a..b", "Main", "a b", "-x", "a[0]",
        ] {
            assert!(id_problem(bad).is_some(), "{bad}");
        }
        assert_eq!(id_problem(&"a".repeat(MAX_ID_LEN)), None);
        let long = id_problem(&"a".repeat(300)).unwrap();
        assert!(long.contains("300 characters") && long.len() < 80, "{long}");
        for ok in ["fig1.7", "fig6a", "figC.1", "table2.1", "fig14", "table5.10"] {
            assert!(is_manifest_name(ok), "{ok}");
        }
        for bad in [
            "Fig1", "fig", "fig1..2", "fig1.", "figure1", "fig1.7A", "fig1/2", "fig../x", "figCD.1",
        ] {
            assert!(!is_manifest_name(bad), "{bad}");
        }
    }
}
