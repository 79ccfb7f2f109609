//! `points-moved`: the largest distance between corresponding marked points of two runs.

use super::*;
use fric_manifest::FieldType::Other;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "points-moved",
        doc: "the largest distance in the plane between the k-th point of (x, y) with both finite and the k-th such point of (other.x, other.y), over every k: how far marked points (a DF run's crossings, mark_re/mark_im) move between a run and its twin at another rtol; an error if the two have different numbers of points; unit of x and y",
        fields: &[
            NAME,
            RUN,
            X,
            Y,
            req("other", Other, "", "{run, x, y, window}: the twin's points"),
            WINDOW,
            UNIT,
            NOTE,
            BASELINE,
        ],
        example: "{name: moved, kind: points-moved, run: df, x: mark_re, y: mark_im, other: {run: df_r9, x: mark_re, y: mark_im}}",
    },
    other: OtherSeries::Xy,
    eval,
};

/// The points of `(x, y)` with both coordinates finite, in order.
fn finite(x: &[f64], y: &[f64]) -> Vec<(f64, f64)> {
    x.iter()
        .zip(y)
        .filter(|(a, b)| a.is_finite() && b.is_finite())
        .map(|(a, b)| (*a, *b))
        .collect()
}

fn eval(c: &Ctx) -> Result<f64, String> {
    let s = c.series()?;
    let o = c.other()?;
    let (p, q) = (finite(s.x()?, s.y), finite(o.x.ok_or("needs `other.x`")?, o.y));
    if p.len() != q.len() {
        return Err(format!("{} points against the other's {}", p.len(), q.len()));
    }
    Ok(p.iter()
        .zip(&q)
        .fold(0.0, |m, (a, b)| m.max((a.0 - b.0).hypot(a.1 - b.1))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finite_points_pair_in_order() {
        let nan = f64::NAN;
        assert_eq!(finite(&[nan, 1.0, 2.0, nan], &[0.0, 3.0, nan, 4.0]), vec![(1.0, 3.0)]);
    }
}
