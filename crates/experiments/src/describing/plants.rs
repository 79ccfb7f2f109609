//! The forced systems of the DF runs: a friction law driven by its velocity (approach 1) or, on
//! an inertia, by a torque (approach 3); the Bliman–Sorine path model; the classical stick.

use super::orbit_checks::{check_bounds, check_energy, check_opposes, LawBounds};
use fric_models::inertia::Inertia;
use fric_models::InputDriven;
use fric_solvers::describing::{Forced, Orbit};

/// A friction law driven by its velocity (approach 1): states `[s, law…]`, `s' = v`, output the
/// law's friction (without viscous friction, which the linear part holds).
pub struct VelocityInput<M>(pub M);

impl<M: InputDriven + LawBounds> Forced for VelocityInput<M> {
    fn dim(&self) -> usize {
        1 + self.0.dim()
    }
    fn rhs(&self, v: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = v;
        self.0.rhs(x[0], v, &x[1..], &mut dx[1..]);
    }
    fn output(&self, v: f64, x: &[f64]) -> f64 {
        self.0.output(x[0], v, &x[1..])
    }
    /// The displacement does not enter a position-invariant law (LuGre, B&S).
    fn drifting(&self, i: usize) -> bool {
        i == 0
    }
    /// The law's state bounds ([`LawBounds`]; no inertia, no energy balance).
    fn checks_orbit(&self) -> bool {
        true
    }
    fn check_orbit(&self, o: &Orbit) -> Result<f64, String> {
        check_bounds(o, &self.0.bounds(), |x| x[1..].to_vec())?;
        Ok(f64::NAN)
    }
}

/// An inertia with viscous and law friction driven by a torque (approach 3): states
/// `[θ, θ', law…]`, `J θ'' = u − α θ' − F`, output θ (which drifts where the inertia slides
/// further one way than the other).
pub struct TorqueInput<M>(pub Inertia<M>);

impl<M: InputDriven + LawBounds> Forced for TorqueInput<M> {
    fn dim(&self) -> usize {
        self.0.dim()
    }
    fn rhs(&self, u: f64, x: &[f64], dx: &mut [f64]) {
        self.0.rhs(u, 0.0, x, dx);
    }
    fn output(&self, _: f64, x: &[f64]) -> f64 {
        x[0]
    }
    fn drifting(&self, i: usize) -> bool {
        i == 0
    }
    /// The inertia's energy balance and the law's state bounds ([`LawBounds`]).
    fn checks_orbit(&self) -> bool {
        true
    }
    fn n_works(&self) -> usize {
        2
    }
    fn works(&self, u: f64, x: &[f64], q: &mut [f64]) {
        q[0] = u * x[1];
        q[1] = (self.0.friction_torque(x) + self.0.alpha * x[1]) * x[1];
    }
    fn check_orbit(&self, o: &Orbit) -> Result<f64, String> {
        let m = &self.0;
        let r = check_energy(o, m.j, 1, |u, x| x[1] * (u - m.alpha * x[1] - m.friction_torque(x)))?;
        check_bounds(o, &m.friction.bounds(), |x| x[2..].to_vec())?;
        Ok(r)
    }
}

/// An inertia with Bliman & Sorine and viscous friction driven by a torque (approach 3), with the
/// friction computed exactly along the path: B&S is rate independent, so between two reversals
/// its state is `advance(x_r, θ − θ_r)` from the state `x_r` at the last reversal `θ_r`. States
/// `[d = θ − θ_r, θ', x1_r, x2_r, θ]`; the event `θ' = 0` re-anchors. The stiff friction states
/// (rates |θ'|/(εη)) are gone, only the inertia's two states are integrated.
pub struct BlimanSorinePath {
    pub j: f64,
    pub alpha: f64,
    pub law: fric_models::bliman_sorine::BlimanSorine,
}

impl BlimanSorinePath {
    fn friction(&self, x: &[f64]) -> f64 {
        let s = self.law.advance([x[2], x[3]], x[0]);
        s[0] + s[1]
    }
}

impl Forced for BlimanSorinePath {
    fn dim(&self) -> usize {
        5
    }
    fn rhs(&self, u: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = x[1];
        dx[1] = (u - self.alpha * x[1] - self.friction(x)) / self.j;
        dx[2] = 0.0;
        dx[3] = 0.0;
        dx[4] = x[1];
    }
    fn output(&self, _: f64, x: &[f64]) -> f64 {
        x[4]
    }
    fn drifting(&self, i: usize) -> bool {
        i == 4
    }
    fn n_events(&self) -> usize {
        1
    }
    fn events(&self, _: f64, x: &[f64], g: &mut [f64]) {
        g[0] = x[1];
    }
    fn on_event(&self, _: usize, _: f64, x: &mut [f64]) {
        let s = self.law.advance([x[2], x[3]], x[0]);
        x[0] = 0.0;
        x[2] = s[0];
        x[3] = s[1];
    }
    /// The lightly damped pre-sliding ringing (ω_n = √(σ/J) ≈ 290 rad/s for Table 5.9) can take
    /// θ' through zero and back within one step: a missed pair of reversals leaves the friction
    /// on the wrong branch. [`EVENT_SAMPLES`] interior checks per step find them.
    fn event_samples(&self) -> usize {
        EVENT_SAMPLES
    }
    /// The event is the sign of θ' (state 1).
    fn event_component(&self, _: usize) -> Option<usize> {
        Some(1)
    }
    /// The inertia's energy balance and the bound (2.25) gives the B&S states
    /// (`orbit_checks`), on the states advanced along the path.
    fn checks_orbit(&self) -> bool {
        true
    }
    fn n_works(&self) -> usize {
        2
    }
    fn works(&self, u: f64, x: &[f64], q: &mut [f64]) {
        q[0] = u * x[1];
        q[1] = (self.friction(x) + self.alpha * x[1]) * x[1];
    }
    fn check_orbit(&self, o: &Orbit) -> Result<f64, String> {
        let r = check_energy(o, self.j, 1, |u, x| x[1] * (u - self.alpha * x[1] - self.friction(x)))?;
        check_bounds(o, &self.law.bounds(), |x| self.law.advance([x[2], x[3]], x[0]).to_vec())?;
        Ok(r)
    }
}

/// Interior event checks per step for the B&S path form ([`BlimanSorinePath`]): measured on the
/// benchmark's B&S problem (report Fig 2.3, 462 reversals in 3 periods), 0 samples found 402–456
/// of them depending on rtol, 4, 8 and 16 samples all 462 at every rtol ≤ 1e-8.
pub const EVENT_SAMPLES: usize = 8;

/// An inertia with the classical static friction of report Table 5.7 and exact stick, driven by a
/// torque (approach 3): `J θ'' = u − τ_k s − α θ'` while sliding in direction `s = ±1`; when `θ'`
/// reaches 0 it sticks (`s = 0`, `θ'` held at exactly 0) while `|u| ≤ τ_s`, and breaks away in
/// the direction of `u` when `|u| > τ_s`. States `[θ', θ, s]`; the mode `s` is constant between
/// events, so the right-hand side is smooth inside every integration segment. Events: `s θ'`
/// falling to 0 (the slide ends) and `|u| − τ_s` rising through 0 while stuck (break-away).
pub struct ClassicalStick {
    pub j: f64,
    pub alpha: f64,
    pub tau_s: f64,
    pub tau_k: f64,
}

impl Forced for ClassicalStick {
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, u: f64, x: &[f64], dx: &mut [f64]) {
        let (v, s) = (x[0], x[2]);
        dx[0] = if s != 0.0 {
            (u - self.tau_k * s - self.alpha * v) / self.j
        } else {
            0.0
        };
        dx[1] = v;
        dx[2] = 0.0;
    }
    fn output(&self, _: f64, x: &[f64]) -> f64 {
        x[1]
    }
    /// θ does not enter the dynamics; the mode is set from θ' by `prepare`, not shot.
    fn drifting(&self, i: usize) -> bool {
        i != 0
    }
    fn n_events(&self) -> usize {
        2
    }
    fn events(&self, u: f64, x: &[f64], g: &mut [f64]) {
        let s = x[2];
        g[0] = if s != 0.0 { s * x[0] } else { 1.0 };
        g[1] = if s == 0.0 { u.abs() - self.tau_s } else { -1.0 };
    }
    fn on_event(&self, i: usize, u: f64, x: &mut [f64]) {
        if i == 1 {
            // |u| rose through τ_s while stuck (u at the located time may round to τ_s).
            x[2] = u.signum();
            return;
        }
        // The slide ended: stick, or slide back at once if the torque already exceeds τ_s.
        x[0] = 0.0;
        x[2] = if u.abs() > self.tau_s { u.signum() } else { 0.0 };
    }
    fn prepare(&self, x: &mut [f64]) {
        // At t = 0 the input is 0 < τ_s: a body at rest is stuck.
        x[2] = if x[0] != 0.0 { x[0].signum() } else { 0.0 };
    }
    /// The sign rule of (1.2)–(1.4) and the inertia's energy balance (`orbit_checks`).
    fn checks_orbit(&self) -> bool {
        true
    }
    fn n_works(&self) -> usize {
        2
    }
    fn works(&self, u: f64, x: &[f64], q: &mut [f64]) {
        q[0] = u * x[0];
        q[1] = (self.tau_k * x[2] + self.alpha * x[0]) * x[0];
    }
    fn check_orbit(&self, o: &Orbit) -> Result<f64, String> {
        let r = check_energy(o, self.j, 0, |u, x| x[0] * (u - self.tau_k * x[2] - self.alpha * x[0]))?;
        check_opposes(o, self.tau_k, 0, 2, o.atol)?;
        Ok(r)
    }
}
