//! `multiplay-inverse`: the two inverses of the multiplay of thesis §2.7–§2.8, driven by the
//! forward model's output `y(t)` for a prescribed input `u(t)`, with `u_est` the recreated input.
//! `exact` (the default): the slope inverse (2.27)–(2.29) in the DC limit — the forward stop operators give `y`,
//! the inverse multiplay (k', Δ') as stop operators driven by `y` gives `u_est` (exact). `dopri5`:
//! the forward ODE (2.3)–(2.4) and the inverse system (2.32)–(2.33) with `ū = y`, integrated as one
//! ODE from the same state, `u_est = ȳ`.

use crate::drive::{driven, exact_pl, steps_in_time, Operator, StopOps};
use crate::input::signal;
use crate::laws::MultiplayElements;
use crate::system::{Column, Group, System, LINEAR, PRESCRIBED};
use crate::{Invalid, RunData, RunRequest};
use fric_models::maxwell_slip::MaxwellSlip;
use fric_models::multiplay::{DcMap, DynamicInverse, Multiplay};
use fric_models::InputDriven;

crate::system::params! {
    pub struct Params {
        elements: MultiplayElements = Group(LINEAR),
        x0_offset: f64 = crate::system::initial("m", "dopri5 only: offset of every inverse element's initial position from the forward one's (0: the same state)"),
    }
}

pub struct MultiplayInverse;

/// The forward multiplay and its dynamic inverse driven by the forward output: state
/// `[forward; inverse]`, input `u`.
struct Chain {
    fwd: Multiplay,
    inv: DynamicInverse,
}

impl InputDriven for Chain {
    fn dim(&self) -> usize {
        2 * self.fwd.dim()
    }
    fn rhs(&self, u: f64, du: f64, x: &[f64], dx: &mut [f64]) {
        let n = self.fwd.dim();
        self.fwd.rhs(u, du, &x[..n], &mut dx[..n]);
        let y = self.fwd.output(u, du, &x[..n]);
        self.inv.rhs(y, 0.0, &x[n..], &mut dx[n..]);
    }
    fn output(&self, u: f64, du: f64, x: &[f64]) -> f64 {
        let n = self.fwd.dim();
        self.inv.output(self.fwd.output(u, du, &x[..n]), 0.0, &x[n..])
    }
}

/// The exact slope-inverse chain: the forward stop operators give `y`, the inverse ones driven by
/// `y` give `u_est`; every `y` is kept. Its kinks are the forward slip onsets and the inputs where
/// `y` (linear between them) passes an inverse element's slip onset.
struct SlopeChain {
    fwd: StopOps,
    back: StopOps,
    ys: Vec<f64>,
}

impl Operator for SlopeChain {
    fn advance(&mut self, u: f64) -> f64 {
        let y = self.fwd.advance(u);
        self.ys.push(y);
        self.back.advance(y)
    }
    fn kinks(&self, u: f64, out: &mut Vec<f64>) {
        let mut ends = Vec::new();
        self.fwd.kinks(u, &mut ends);
        ends.push(u);
        let (mut f, mut b) = (self.fwd.state.clone(), self.back.state.clone());
        let mut back = Vec::new();
        for (j, &ub) in ends.iter().enumerate() {
            let (ua, ya) = (f.u, b.u);
            let yb = self.fwd.model.advance(&mut f, ub);
            back.clear();
            self.back.model.onsets(&b, yb, &mut back);
            out.extend(back.iter().map(|y| ua + (y - ya) / (yb - ya) * (ub - ua)));
            self.back.model.advance(&mut b, yb);
            if j + 1 < ends.len() {
                out.push(ub);
            }
        }
    }
}

impl System for MultiplayInverse {
    const NAME: &'static str = "multiplay-inverse";
    const DOC: &'static str = "Inverses of the multiplay, thesis (2.27)-(2.33), driven by the forward output y for a prescribed input u; u_est is the recreated input. `exact` (slope inverse): DC limit, forward stop operators (every slip onset of either set a sample), then the slope-inverse multiplay (k' = A^-1 s', Δ' = rise/2; the zero-slope segment s_N+1 = 0 is not inverted, info vertical_at = its |y|) as stop operators driven by y, both from the relaxed state. `dopri5` (dynamic inverse): the forward ODE (2.3)-(2.4) and the inverse system (2.32)-(2.33) with ū = y, one ODE, same initial state (at rest, x_i = u(0)). Info (exact): sum_k_prime, sum_k_prime_delta_prime, delta_prime_max, vertical_at. Invariants: none declared; the thesis states none for the inverse multiplay (2.27)-(2.33).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("u", "m", "input (bar position)"),
        ("v", "m/s", "input velocity u'"),
        ("y", "N", "forward output (2.4)"),
        ("u_est", "m", "recreated input: slope inverse or ȳ (2.33)"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Exact, crate::methods::Method::Dopri5];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.elements.check(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let m = p.elements.model();
        let sig = signal(req)?;
        let u0 = sig.value(0.0);
        if steps_in_time(req) {
            let inv = DynamicInverse::new(m.clone())?;
            let chain = Chain { fwd: m.clone(), inv };
            let x0 = m.state_at_rest(&vec![u0; m.len()]);
            let shifted: Vec<f64> = x0
                .iter()
                .enumerate()
                .map(|(i, x)| if i % 2 == 0 { x + p.x0_offset } else { *x })
                .collect();
            let x0: Vec<f64> = x0.iter().chain(&shifted).copied().collect();
            let n = m.dim();
            return driven(req, &sig, &chain, x0, &["v", "y", "u_est"], |u, du, x, out| {
                out[0] = du;
                out[1] = m.output(u, du, &x[..n]);
                out[2] = chain.output(u, du, x);
            });
        }
        let map = DcMap::new(&m.k, &m.delta);
        let si = map.slope_inverse().map_err(|e| format!("no slope inverse (2.27): {e}"))?;
        let fwd = m.dc_limit();
        let back = MaxwellSlip::new(si.k.clone(), si.delta.clone());
        let sf = fwd.state(u0, 0.0);
        let sb = back.state(fwd.force(&sf), 0.0);
        let mut chain = SlopeChain {
            fwd: StopOps { model: fwd, state: sf },
            back: StopOps { model: back, state: sb },
            ys: Vec::new(),
        };
        let mut data = exact_pl(req, &sig, &mut chain)?;
        let mut ys = chain.ys;
        // `exact` evaluates the operator once per recorded sample (plus the steady-state search,
        // which `sim.steady_state` would add first): keep the recorded tail of y.
        let n = data.columns[0].1.len();
        let y = ys.split_off(ys.len() - n);
        data.columns[3].0 = "u_est".into();
        data.columns.insert(3, ("y".into(), y));
        data.info.insert("sum_k_prime".into(), si.k.iter().sum());
        data.info.insert(
            "sum_k_prime_delta_prime".into(),
            si.k.iter().zip(&si.delta).map(|(k, d)| k * d).sum(),
        );
        data.info.insert("delta_prime_max".into(), si.delta.iter().fold(0.0, |a, b| a.max(*b)));
        data.info.insert("vertical_at".into(), si.vertical_at);
        Ok(data)
    }
}
