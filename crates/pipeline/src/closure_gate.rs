//! The closure gate (issue 44 item 4): a value read from a cycle that may not have closed (a
//! loop area, a period) is quoted only where what the cycle's openness can move it by, its
//! [`ClosureBound`] measured by the metric kind, is within the tolerance of every check that
//! reads it (for a threshold check, within its margin: the openness cannot turn the verdict; a
//! value off its expected one by more than tolerance and bound together fails whatever the
//! closure, and is quoted so: a discrepancy the openness cannot explain).
//! Otherwise the metric is [`NOT_CLOSED`], its error naming the bound and the tolerance, and the
//! checks on it are open (an error under the manifest's own reading, open under an alternative
//! one), as before. No chosen gap: the checks' tolerances, each source-justified, decide; a
//! metric no check reads is quoted with its bound unused. Generic: the pipeline compares
//! numbers and knows no physics.

use crate::entry::Entry;
use crate::evaluate::{self, metric_kinds::ClosureBound, metric_kinds::NOT_CLOSED};
use fric_manifest::member::MemberId;
use fric_manifest::{CheckSpec, MetricSpec};
use fric_report::ExperimentReport;
use std::collections::BTreeMap;

/// The closure bounds of the metrics that have one, by the name they are recorded under.
pub(crate) type Bounds = BTreeMap<String, ClosureBound>;

type Measured = Result<(f64, Option<ClosureBound>), String>;

/// The value of metric `name` (written `spec`), its closure bound kept in `bounds`: the kind's
/// own, or for a metric of earlier metrics the bounds of its operands carried through: each
/// operand with a bound moved down and up by it in `done` and the metric evaluated again
/// (`eval`), the changes below and above its value each summed over the operands (first order;
/// a move that leaves no finite value gives an infinite bound).
pub(crate) fn carry(
    bounds: &mut Bounds,
    name: &str,
    spec: &MetricSpec,
    v: Measured,
    done: &BTreeMap<String, Option<f64>>,
    eval: impl Fn(&BTreeMap<String, Option<f64>>) -> Measured,
) -> Result<f64, String> {
    let (value, own) = v?;
    if let Some(b) = own {
        bounds.insert(name.to_string(), b);
        return Ok(value);
    }
    let Some(of) = &spec.of else { return Ok(value) };
    let (mut down, mut up, mut what) = (0.0, 0.0, Vec::new());
    for n in of.names() {
        let (Some(b), Some(x)) = (bounds.get(n), done.get(n).copied().flatten()) else {
            continue;
        };
        // The metric's change with the operand moved by `d`.
        let moved = |d: f64| -> f64 {
            let mut m = done.clone();
            m.insert(n.to_string(), Some(x + d));
            match eval(&m) {
                Ok((w, _)) if w.is_finite() => w - value,
                _ => f64::NAN,
            }
        };
        let (lo, hi) = (moved(-b.down), moved(b.up));
        if lo.is_nan() || hi.is_nan() {
            (down, up) = (f64::INFINITY, f64::INFINITY);
        } else {
            down += (-lo).max(-hi).max(0.0);
            up += lo.max(hi).max(0.0);
        }
        what.push(format!("`{n}` −{:.3e}/+{:.3e} ({})", b.down, b.up, b.what));
    }
    if !what.is_empty() {
        let amount = down.max(up);
        let what = format!("its operand {} moves it by −{down:.3e}/+{up:.3e}", what.join(" and "));
        bounds.insert(name.to_string(), ClosureBound { amount, down, up, what });
    }
    Ok(value)
}

/// The checks of `e` as evaluated: a check on a metric table once per member (`name[k]`).
fn expanded(e: &Entry, rep: &ExperimentReport) -> Vec<CheckSpec> {
    let mut out = Vec::new();
    for c in &e.manifest.checks {
        match rep.metric_tables.get(&c.metric) {
            Some(t) => out.extend((0..t.members.len()).map(|k| CheckSpec {
                metric: MemberId::new(&c.metric, k).to_string(),
                ..c.clone()
            })),
            None => out.push(c.clone()),
        }
    }
    out
}

/// The metric a check compares with, by the name it is recorded under (member `k`'s of a table
/// when the check is on member k), as `evaluate::check` reads it.
fn compared_with(c: &CheckSpec, metrics: &BTreeMap<String, Option<f64>>) -> Option<String> {
    let other = c.expected.metric()?;
    Some(match MemberId::parse(&c.metric) {
        Some(m) if !metrics.contains_key(other) => MemberId::new(other, m.k).to_string(),
        _ => other.to_string(),
    })
}

/// Refuse every metric whose closure bound exceeds the tolerance (or the threshold margin) of
/// a check that reads it: its value removed and its error, starting [`NOT_CLOSED`], naming the
/// bound, how it was found and the tolerance. Every decision is taken on the values before any
/// is removed. Whether any metric was refused.
pub(crate) fn gate(e: &Entry, rep: &mut ExperimentReport, bounds: &Bounds) -> bool {
    let checks = expanded(e, rep);
    let (mut refused, mut names) = (Vec::new(), Vec::new());
    for (name, b) in bounds {
        if rep.metrics.get(name).copied().flatten().is_none() {
            continue;
        }
        let against = checks
            .iter()
            .filter(|c| c.metric == *name || compared_with(c, &rep.metrics).as_deref() == Some(name))
            .find_map(|c| {
                let r = evaluate::check(c, &rep.metrics);
                if r.op == fric_manifest::Op::Within {
                    // Within the tolerance: the value is known to better than the check asks. A
                    // value farther from the expected than tolerance and bound together fails
                    // whatever the closure (a discrepancy the openness cannot explain): quoted.
                    let t = r.tolerance.unwrap_or(0.0);
                    let off = r.computed.map_or(0.0, |v| (v - r.expected).abs());
                    (!(b.amount <= t || off > t + b.amount))
                        .then(|| format!("the tolerance ±{t:.3e} of the check on `{}`", c.metric))
                } else {
                    // A threshold: the openness must not be able to carry the value across it
                    // (its side toward the threshold; a bounded expected value either way).
                    let margin = r.computed.map_or(0.0, |v| (v - r.expected).abs());
                    let toward = match (c.metric == *name, r.op) {
                        (true, fric_manifest::Op::Gt) => b.down,
                        (true, _) => b.up,
                        (false, _) => b.amount,
                    };
                    (!(toward < margin)).then(|| {
                        format!(
                            "the margin {margin:.3e} of the check `{}` {} {} (the openness could turn it)",
                            c.metric,
                            r.op.name(),
                            r.expected
                        )
                    })
                }
            });
        if let Some(against) = against {
            refused.push(format!(
                "metric `{name}`: {NOT_CLOSED}{}; the bound {:.3e} exceeds {against}: a value is quoted only where \
                 its cycle closes to within the tolerance of every check on it (run on until a period closes, \
                 quote a window that closes, or quote the open stretch as what it is, kind path-integral)",
                b.what, b.amount
            ));
            names.push(name.clone());
        }
    }
    for n in names {
        rep.metrics.insert(n, None);
    }
    let any = !refused.is_empty();
    rep.errors.extend(refused);
    any
}
