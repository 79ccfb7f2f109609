//! `frequency-response`: the frequency response `H(iω) = num(iω)/den(iω)` of a rational transfer
//! function on a grid of ω, for Nyquist plots (the linear parts of report §5.3).

use crate::describing::response;
use crate::input::{grid, table};
use crate::system::{any, params, Column, System, GRID};
use crate::{Invalid, RunData, RunRequest};

params! {
    pub struct Params {
        num: Vec<f64> = any("1", "numerator coefficients, highest power of s first"),
        den: Vec<f64> = any("1", "denominator coefficients, highest power of s first"),
    }
}

pub struct FrequencyResponse;

impl System for FrequencyResponse {
    const NAME: &'static str = "frequency-response";
    const DOC: &'static str = "Frequency response H(iω) = num(iω)/den(iω) of a rational transfer function (coefficients highest power first) on the input grid of ω: columns omega, re, im, mag, phase; the Nyquist curve is (re, im). An error where den(iω) = 0 on the grid. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = &[
        ("omega", "rad/s", "angular frequency"),
        ("re", "1", "Re H(iω)"),
        ("im", "1", "Im H(iω)"),
        ("mag", "1", "|H(iω)|"),
        ("phase", "rad", "arg H(iω)"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        if p.den.iter().all(|c| *c == 0.0) {
            errs.push(crate::system::invalid("den", "the denominator is zero", "a non-zero coefficient"));
        }
        if p.num.is_empty() {
            errs.push(crate::system::invalid("num", "no numerator coefficients", "[c_n, ..., c_0]"));
        }
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let w = grid(&req.input);
        let (mut re, mut im, mut mag, mut ph) = (vec![], vec![], vec![], vec![]);
        for &w in &w {
            let (r, i) = response(&p.num, &p.den, w).ok_or_else(|| format!("den(iω) = 0 at ω = {w}"))?;
            re.push(r);
            im.push(i);
            mag.push(r.hypot(i));
            ph.push(i.atan2(r));
        }
        Ok(table(vec![("omega", w), ("re", re), ("im", im), ("mag", mag), ("phase", ph)]))
    }
}
