//! `curve-crossings`: crossings of two curves in the plane.

use super::*;
use fric_manifest::FieldType::Other;
use fric_solvers::analysis;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "curve-crossings",
        doc: "how many times the polyline (x, y) crosses the polyline (other.x, other.y) in the plane, such as a Nyquist curve and −1/N (a NaN row breaks a curve); a count",
        fields: &[
            NAME,
            RUN,
            X,
            Y,
            req("other", Other, "", "{run, x, y, window}: the other curve"),
            WINDOW,
            UNIT,
            NOTE,
            BASELINE,
        ],
        example: "{name: n, kind: curve-crossings, run: df, x: re, y: im, other: {run: h1, x: re, y: im}}",
    },
    other: OtherSeries::Xy,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let s = c.series()?;
    let o = c.other()?;
    let ox = o.x.ok_or("needs `other.x`")?;
    Ok(analysis::curve_crossings(s.x()?, s.y, ox, o.y) as f64)
}
