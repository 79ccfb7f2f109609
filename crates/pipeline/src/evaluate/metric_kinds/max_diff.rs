//! `max-diff`: largest |y − other.y| over equally sampled windows; unit of y.

use super::*;
use fric_manifest::FieldType::Other;
use fric_solvers::analysis;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "max-diff",
        doc: "largest |y − other.y| over equally sampled windows, or over the samples both share (at equal phase of the windows) when one window's samples contain the other's (an exact operator's slip-onset samples beside an ODE run's grid); unit of y",
        fields: &[
            NAME,
            RUN,
            Y,
            req("other", Other, "", "{run, y, window}: the series compared against"),
            WINDOW,
            UNIT,
            NOTE,
            BASELINE,
        ],
        example: "{name: d, kind: max-diff, run: exact, y: F, other: {run: ode, y: F}}",
    },
    other: OtherSeries::Y,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let y = c.series()?.y;
    let oy = c.other()?.y;
    if let Some(d) = analysis::max_abs_diff(y, oy) {
        return Ok(d);
    }
    let (t, ot) = c.times()?;
    shared(t, y, ot, oy).ok_or_else(|| format!("windows sample differently ({} vs {} samples)", y.len(), oy.len()))
}

/// max |a − b| over the samples the two series share, when every sample of the shorter one is at a
/// sample of the longer one: the times are compared as phases of their windows, (t − t₀)/(t₁ − t₀),
/// within 1e-12 (the rule by which input extrema snap onto the grid), so two windows of
/// different frequencies compare at equal phase as they do sample by sample.
fn shared(ta: &[f64], a: &[f64], tb: &[f64], b: &[f64]) -> Option<f64> {
    let phase = |t: &[f64]| -> Option<Vec<f64>> {
        let (t0, t1) = (*t.first()?, *t.last()?);
        (t1 > t0).then(|| t.iter().map(|s| (s - t0) / (t1 - t0)).collect())
    };
    let (pa, pb) = (phase(ta)?, phase(tb)?);
    let (mut i, mut j, mut matched, mut d) = (0, 0, 0, 0.0f64);
    while i < pa.len() && j < pb.len() {
        if (pa[i] - pb[j]).abs() <= 1e-12 {
            d = d.max((a[i] - b[j]).abs());
            (i, j, matched) = (i + 1, j + 1, matched + 1);
        } else if pa[i] < pb[j] {
            i += 1;
        } else {
            j += 1;
        }
    }
    (matched == pa.len().min(pb.len())).then_some(d)
}
