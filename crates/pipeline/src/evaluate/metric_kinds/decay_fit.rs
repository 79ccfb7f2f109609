//! `decay-fit`: one parameter of a Gaussian decay fit.

use super::*;
use fric_manifest::FieldType::{Pair, Text};
use fric_manifest::FitPart;
use fric_solvers::analysis;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "decay-fit",
        doc: "one parameter of the least-squares fit y ≈ floor + (peak − floor) exp(−(x/scale)²) over the samples with x in range (variable projection: exact in floor and peak, golden section in ln scale): floor and peak in the unit of y, scale in the unit of x, rms the residual; an error when the best scale is at the end of the searched range [1e-3, 10] × max|x|",
        fields: &[
            NAME,
            RUN,
            X,
            Y,
            req("part", Text, "", "floor, peak, scale or rms"),
            opt("range", Pair, "unit of x", "the x range of the fit (default all)"),
            WINDOW,
            UNIT,
            NOTE,
            BASELINE,
        ],
        example: "{name: vs, kind: decay-fit, run: sim, x: v, y: theta_bar, part: scale, range: [0, 1], unit: m/s}",
    },
    other: OtherSeries::None,
    eval,
};

fn eval(c: &Ctx) -> Result<f64, String> {
    let s = c.series()?;
    let (xs, ys) = in_range(s.x()?, s.y, c.spec.range);
    let f = analysis::decay_fit(&xs, &ys).ok_or("fewer than three samples or no x ≠ 0 in the range")?;
    if f.at_bound {
        return Err(format!(
            "the best scale {:.3e} lies at the end of the searched range: no decay in the data",
            f.scale
        ));
    }
    Ok(match c.spec.part.ok_or("needs `part`")? {
        FitPart::Floor => f.floor,
        FitPart::Peak => f.peak,
        FitPart::Scale => f.scale,
        FitPart::Rms => f.rms,
    })
}
