//! The changed runs a manifest asks for besides its own: each alternative reading of an
//! assumption (`assumptions[].alternatives[]`) and both ends of each parameter range an
//! explanation searches (`checks[].explain[]`). Each must resolve against its run's system at
//! load time, so that a reading or a search that cannot run is a manifest error at its line,
//! never a reading skipped or a search failing halfway.

use super::ctx::Ctx;
use crate::entry::ResolvedRun;
use crate::overrides::patch;
use fric_manifest::member::is_run_or_member;

/// Why changing `run` (every member of a swept run) by `set` fails, or `None`. A run that is
/// itself invalid or unknown is reported elsewhere.
pub(super) fn variant_problem(cx: &Ctx, run: &str, set: &[(String, f64)]) -> Option<String> {
    if cx.failed_runs.contains(run) {
        return None;
    }
    let members: Vec<(&String, &ResolvedRun)> = cx.runs.iter().filter(|(id, _)| is_run_or_member(id, run)).collect();
    members
        .into_iter()
        .find_map(|(id, r)| patch(r, set).err().map(|e| format!("run `{id}`: {e}")))
}

/// Every alternative reading: values that its runs' systems accept (values that are not
/// numbers are refused by the parser).
pub(super) fn check_alternatives(cx: &mut Ctx) {
    let mut errs = Vec::new();
    for (i, a) in cx.m.assumptions.iter().enumerate() {
        for (j, alt) in a.alternatives.iter().enumerate() {
            let at = format!("assumptions[{i}].alternatives[{j}].set");
            let set: Vec<(String, f64)> = alt.set.iter().map(|(k, v)| (k.clone(), *v)).collect();
            if let Some(e) = alt.run.ids().iter().find_map(|run| variant_problem(cx, run, &set)) {
                errs.push((
                    at,
                    format!("alternative `{}`: {e}", alt.name),
                    "values the run's system accepts (`cargo xtask schema`)".into(),
                ));
            }
        }
    }
    cx.errs.extend(errs);
}

/// Every explanation's search range: both ends must be values its run's system accepts (the
/// search tries the whole range).
pub(super) fn check_explain_ranges(cx: &mut Ctx) {
    let mut errs = Vec::new();
    for (i, c) in cx.m.checks.iter().enumerate() {
        for (k, x) in c.explain.iter().enumerate() {
            let at = format!("checks[{i}].explain[{k}].range");
            if !x.range.iter().all(|v| v.is_finite()) {
                errs.push((
                    at,
                    format!("range [{}, {}] is not finite", x.range[0], x.range[1]),
                    "[lo, hi], finite numbers".into(),
                ));
                continue;
            }
            for end in x.range {
                if let Some(e) = variant_problem(cx, &x.run, &[(x.param.clone(), end)]) {
                    let msg = format!("{} = {end} (an end of the range): {e}", x.param);
                    errs.push((
                        at.clone(),
                        msg,
                        "a range of values the run's system accepts (`cargo xtask schema`)".into(),
                    ));
                    break;
                }
            }
        }
    }
    cx.errs.extend(errs);
}
