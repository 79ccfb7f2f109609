//! A timing probe, not a check: the cost of the hybrid driver's guard rates on a CBM run
//! (`#[ignore]`d; run it by hand, command below).

use fric_experiments::cbm::{powered, CbmSettings, CbmSwitched, Jumps};
use fric_models::cbm::{Cbm, StickSlip, Windows};
use fric_solvers::hybrid::simulate;
use fric_solvers::switch::SwitchModel;
use fric_solvers::Method;
use std::cell::RefCell;

/// `H` with its guards' rates withheld (the driver then compares guards at the step ends
/// only, as before the graze fix): the baseline of [`guard_rate_cost`].
struct WithoutRates<'a, H>(&'a H);

impl<H: fric_solvers::hybrid::HybridSystem> fric_solvers::hybrid::HybridSystem for WithoutRates<'_, H> {
    type Mode = H::Mode;
    fn dim(&self) -> usize {
        self.0.dim()
    }
    fn rhs(&self, mode: Self::Mode, t: f64, x: &[f64], dx: &mut [f64]) {
        self.0.rhs(mode, t, x, dx)
    }
    fn n_guards(&self, mode: Self::Mode) -> usize {
        self.0.n_guards(mode)
    }
    fn guards(&self, mode: Self::Mode, t: f64, x: &[f64], g: &mut [f64]) {
        self.0.guards(mode, t, x, g)
    }
    fn jump(&self, mode: Self::Mode, guard: usize, t: f64, x: &mut [f64]) -> Self::Mode {
        self.0.jump(mode, guard, t, x)
    }
    fn guards_fire_from_zero(&self) -> bool {
        self.0.guards_fire_from_zero()
    }
    fn n_quadratures(&self) -> usize {
        self.0.n_quadratures()
    }
    fn integrands(&self, mode: Self::Mode, t: f64, x: &[f64], q: &mut [f64]) {
        self.0.integrands(mode, t, x, q)
    }
}

/// The cost of the guards' rates (one right-hand side per accepted step, for the rate at
/// the step's end): thesis Fig 4.4's production run (pulled rig, 100 s, 200 samples/s,
/// rtol 1e-9) with and without them, five alternating repetitions in one process, the
/// median time of each. A probe, not a check (timings depend on the machine): run with
/// `cargo test --release -p fric-experiments --test guard_rate_cost -- --ignored --nocapture`.
#[test]
#[ignore]
fn guard_rate_cost() {
    let pulled = StickSlip {
        cbm: Cbm::fig_4_4(),
        vp: 0.1,
    };
    let save: Vec<f64> = (0..=20_000).map(|i| i as f64 * 0.005).collect();
    for method in [Method::Dopri5, Method::Radau5] {
        let s = CbmSettings {
            max_events: 10_000_000,
            ..CbmSettings::thesis_ch4(method)
        };
        let x0 = [0.0; 5];
        let sys = CbmSwitched {
            config: &pulled,
            eta: s.eta,
            jumps: RefCell::new(Jumps::default()),
        };
        let sm = SwitchModel::new(&sys, s.eta, s.tau);
        let mode0 = sm.initial_mode(Windows::locate(&pulled.cbm, 0.0), 0.0, &x0);
        let powered = powered(sm, &pulled, s.tau);
        let time = |rates: bool| {
            let start = std::time::Instant::now();
            let o = if rates {
                simulate(
                    &powered,
                    mode0,
                    method,
                    &s.tol,
                    0.0,
                    &x0,
                    100.0,
                    &save,
                    s.max_events,
                    &mut |_, _, _| {},
                )
            } else {
                let h = WithoutRates(&powered);
                simulate(
                    &h,
                    mode0,
                    method,
                    &s.tol,
                    0.0,
                    &x0,
                    100.0,
                    &save,
                    s.max_events,
                    &mut |_, _, _| {},
                )
            };
            (start.elapsed().as_secs_f64(), o.unwrap().stats)
        };
        let (mut with, mut without) = (Vec::new(), Vec::new());
        let (mut sw, mut so) = (None, None);
        for _ in 0..5 {
            let (a, st) = time(true);
            with.push(a);
            sw = Some(st);
            let (b, st) = time(false);
            without.push(b);
            so = Some(st);
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let (a, b) = (median(&mut with), median(&mut without));
        let (sw, so) = (sw.unwrap(), so.unwrap());
        eprintln!(
            "{method:?}: with rates {a:.3} s ({} accepted, {} rhs), without {b:.3} s ({} accepted, {} rhs): time ratio {:.3}, rhs ratio {:.3}",
            sw.accepted,
            sw.rhs_evals,
            so.accepted,
            so.rhs_evals,
            a / b,
            sw.rhs_evals as f64 / so.rhs_evals as f64
        );
    }
}
