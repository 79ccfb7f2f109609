//! Friction laws as parameter groups, declared once and shared by every system that uses them
//! (prescribed displacement, mass–spring, drum), in translational or rotational units.

use crate::system::params;
use crate::system::{any, between, initial, invalid, nonneg, positive, Group};
use crate::Invalid;
use fric_models::BySign;
use fric_models::{
    bliman_sorine::BlimanSorine,
    dahl::Dahl,
    lugre::{LuGre, LuGreVd},
    maxwell_slip::MaxwellSlip,
    multiplay::Multiplay,
    rbm::Bristles,
};

params! {
    /// The LuGre steady-state curve (1.27): what is left of LuGre when σ0 and σ1 cancel.
    pub struct LuGreStatic(u) {
        sigma2: f64 = nonneg(u.damping, "viscous coefficient"),
        fc: f64 = positive(u.force, "Coulomb level"),
        fs: f64 = positive(u.force, "static level"),
        vs: f64 = positive(u.vel, "Stribeck velocity"),
    }
}

impl LuGreStatic {
    /// `fs ≥ fc`: the static level is at least the Coulomb level.
    pub fn check(&self, errs: &mut Vec<Invalid>) {
        if self.fs < self.fc {
            errs.push(invalid(
                "fs",
                "fs < fc",
                "fs ≥ fc (static level at least the Coulomb level)",
            ));
        }
    }
    /// The model with the given bristle stiffness and damping.
    pub fn with_bristles(&self, sigma0: f64, sigma1: f64) -> LuGre {
        LuGre {
            sigma0,
            sigma1,
            sigma2: self.sigma2,
            fc: self.fc,
            fs: self.fs,
            vs: self.vs,
        }
    }
}

params! {
    /// LuGre friction (1.24)–(1.26) and the initial bristle deflection.
    pub struct LuGreLaw(u) {
        sigma0: f64 = positive(u.stiffness, "bristle stiffness"),
        sigma1: f64 = nonneg(u.damping, "bristle damping"),
        curve: LuGreStatic = Group(*u),
        z0: f64 = initial(u.disp, "initial bristle deflection"),
    }
}

impl LuGreLaw {
    pub fn model(&self) -> LuGre {
        self.curve.with_bristles(self.sigma0, self.sigma1)
    }
    /// The LuGre bristle bound on the column `z` of a run of this law
    /// ([`crate::invariants::lugre_bound`]; `g` peaks at `max(fs, fc)`).
    pub fn check_bound(&self, d: &crate::RunData, z: &str) -> Result<(), crate::invariants::Violation> {
        crate::invariants::lugre_bound(d, z, self.z0, self.curve.fs.max(self.curve.fc), self.sigma0)
    }
}

params! {
    /// The two further forms of LuGre that the prescribed-motion system `lugre` takes, each off by
    /// default: the velocity-dependent damping σ1(v) of report (3.27) (L1191), and the asymmetric
    /// static and viscous parameters of report §3.7 (L1217–1219: α0±, α1±, v0± by the sign of the
    /// velocity; α2± as the rows of Tables 4.2, 4.6), with σ0 and σ1 symmetric (the source's σ0± by
    /// the sign of z, L1221–1227, is averaged in its simulations, L1229, L1519: Table 4.2's rows at
    /// σ0 = 650). With `fc_plus` given, the law's `fc`, `fs`, `vs`, `sigma2` are the side v < 0 and
    /// these the side v ≥ 0 (as [`ReportLuGre`]'s `alpha0_plus`).
    pub struct LuGreForms(u) {
        sigma1_vd: f64 = nonneg(u.vel, "v_d of the velocity-dependent damping sigma1(v) = sigma1 exp(-|v|/v_d), report (3.27) (0: constant sigma1)").default(0.0),
        fc_plus: f64 = nonneg(u.force, "Coulomb level for v >= 0 (0: symmetric; fc, fs, vs, sigma2 are then the side v < 0)").default(0.0),
        fs_plus: f64 = nonneg(u.force, "static level for v >= 0 (with fc_plus)").default(0.0),
        vs_plus: f64 = nonneg(u.vel, "Stribeck velocity for v >= 0 (with fc_plus; 0: vs)").default(0.0),
        sigma2_plus: f64 = nonneg(u.damping, "viscous coefficient for v >= 0 (with fc_plus; absent: 0, no viscous term on that side, not sigma2: the side v >= 0 is stated in full, as alpha2_plus)").default(0.0),
    }
}

impl LuGreForms {
    /// `fs_plus ≥ fc_plus` when asymmetric; no side-`+` parameter without `fc_plus`.
    pub fn check(&self, errs: &mut Vec<Invalid>) {
        if self.fc_plus > 0.0 {
            if self.fs_plus < self.fc_plus {
                errs.push(invalid(
                    "fs_plus",
                    "fs_plus < fc_plus",
                    "fs_plus ≥ fc_plus (static level at least the Coulomb level)",
                ));
            }
        } else if let Some((name, _)) = [
            ("fs_plus", self.fs_plus),
            ("vs_plus", self.vs_plus),
            ("sigma2_plus", self.sigma2_plus),
        ]
        .into_iter()
        .find(|p| p.1 != 0.0)
        {
            errs.push(invalid(
                name,
                format!("{name} is given without fc_plus: the law would stay symmetric"),
                "fc_plus > 0 with the side v ≥ 0, or no side-plus parameter",
            ));
        }
    }
    /// `law` in these forms: `minus` for v < 0, `plus` for v ≥ 0 (the same when symmetric), each
    /// with σ1(v) when `sigma1_vd > 0`.
    pub fn model(&self, law: &LuGreLaw) -> BySign<LuGreVd> {
        let vd = (self.sigma1_vd > 0.0).then_some(self.sigma1_vd);
        let minus = LuGreVd { lugre: law.model(), vd };
        let plus = if self.fc_plus > 0.0 {
            let vs = if self.vs_plus > 0.0 { self.vs_plus } else { law.curve.vs };
            LuGreVd {
                lugre: LuGreStatic {
                    sigma2: self.sigma2_plus,
                    fc: self.fc_plus,
                    fs: self.fs_plus,
                    vs,
                }
                .with_bristles(law.sigma0, law.sigma1),
                vd,
            }
        } else {
            minus
        };
        BySign { minus, plus }
    }
    /// The largest `g` on either side, `max(fs, fc, fs_plus, fc_plus)`: the LuGre bristle bound's
    /// `g_max` ([`crate::invariants::lugre_bound`]).
    pub fn g_max(&self, law: &LuGreLaw) -> f64 {
        law.curve.fs.max(law.curve.fc).max(self.fs_plus).max(self.fc_plus)
    }
}

params! {
    /// The report's LuGre (3.3)–(3.4) in its standard parametrisation, with the asymmetric static
    /// and viscous parameters of §3.7 (L1217–1229) switched on the sign of the velocity (rows of
    /// Tables 4.2, 4.6): `g(v) = α0 + α1 exp(−(v/v0)²)`, `F = σ0 z + σ1 z' + α2 v`.
    pub struct ReportLuGre(u) {
        sigma0: f64 = positive(u.stiffness, "bristle stiffness σ0"),
        sigma1: f64 = nonneg(u.damping, "bristle damping σ1"),
        v0: f64 = positive(u.vel, "Stribeck velocity v0"),
        alpha0: f64 = positive(u.force, "Coulomb level α0 (for v < 0 when alpha0_plus is given)"),
        alpha1: f64 = nonneg(u.force, "stiction excess α1 (for v < 0 when alpha0_plus is given)"),
        alpha2: f64 = nonneg(u.damping, "viscous coefficient α2 (for v < 0 when alpha0_plus is given)"),
        alpha0_plus: f64 = nonneg(u.force, "α0 for v ≥ 0 (0: symmetric)").default(0.0),
        alpha1_plus: f64 = nonneg(u.force, "α1 for v ≥ 0 (used with alpha0_plus)").default(0.0),
        alpha2_plus: f64 = nonneg(u.damping, "α2 for v ≥ 0 (used with alpha0_plus)").default(0.0),
    }
}

impl ReportLuGre {
    fn side(&self, a0: f64, a1: f64, a2: f64) -> LuGre {
        LuGre {
            sigma0: self.sigma0,
            sigma1: self.sigma1,
            sigma2: a2,
            fc: a0,
            fs: a0 + a1,
            vs: self.v0,
        }
    }
    /// The largest `g(v) = α0 + α1 exp(−(v/v0)²)` on either side: the LuGre bristle bound's
    /// `g_max` ([`crate::invariants::lugre_bound`]).
    pub fn g_max(&self) -> f64 {
        let m = self.model();
        m.minus.fs.max(m.minus.fc).max(m.plus.fs.max(m.plus.fc))
    }
    /// The law, `minus` for v < 0 and `plus` for v ≥ 0 (the same when symmetric).
    pub fn model(&self) -> BySign<LuGre> {
        let minus = self.side(self.alpha0, self.alpha1, self.alpha2);
        let plus = if self.alpha0_plus > 0.0 {
            self.side(self.alpha0_plus, self.alpha1_plus, self.alpha2_plus)
        } else {
            minus
        };
        BySign { minus, plus }
    }
}

params! {
    /// Dahl friction (1.23) and the initial friction force.
    pub struct DahlLaw(u) {
        sigma: f64 = positive(u.stiffness, "rest stiffness"),
        fc: f64 = positive(u.force, "Coulomb level"),
        gamma: f64 = nonneg("1", "shape exponent"),
        f0: f64 = initial(u.force, "initial friction force"),
    }
}

impl DahlLaw {
    /// The Dahl force bound on the column `f` of a run of this law ([`crate::invariants::dahl_bound`]).
    pub fn check_bound(&self, d: &crate::RunData, f: &str) -> Result<(), crate::invariants::Violation> {
        crate::invariants::dahl_bound(d, f, self.f0, self.fc)
    }
    pub fn model(&self) -> Dahl {
        Dahl {
            sigma: self.sigma,
            fc: self.fc,
            gamma: self.gamma,
        }
    }
    /// `γ ≥ 1`, which a time integrator needs (the right-hand side is Lipschitz only then).
    pub fn check_lipschitz(&self, errs: &mut Vec<Invalid>) {
        if self.gamma < 1.0 {
            errs.push(invalid(
                "gamma",
                format!(
                    "`gamma` = {} is below 1: the time-integrated Dahl model needs a Lipschitz right-hand side",
                    self.gamma
                ),
                "gamma ≥ 1",
            ));
        }
    }
}

params! {
    /// Bliman & Sorine friction, report (2.7): the two first-order responses.
    pub struct BlimanSorineLaw(u) {
        f1: f64 = positive(u.force, "gain f1 of the fast first-order response"),
        f2: f64 = positive(u.force, "gain f2 of the slow response (f1 - f2 is the kinetic level)"),
        eps: f64 = positive(u.disp, "space constant eps_f of the slow response"),
        eta: f64 = between("1", 0.0, 1.0, "ratio eta of the fast to the slow space constant"),
    }
}

impl BlimanSorineLaw {
    pub fn model(&self) -> BlimanSorine {
        BlimanSorine {
            f1: self.f1,
            f2: self.f2,
            eps: self.eps,
            eta: self.eta,
        }
    }
    /// `f₁ > η f₂`: a positive zero-state stiffness (2.16).
    pub fn check(&self, errs: &mut Vec<Invalid>) {
        if self.f1 <= self.eta * self.f2 {
            errs.push(invalid(
                "f1",
                format!(
                    "f1 = {} ≤ eta f2 = {}: the zero-state stiffness (2.16) is not positive",
                    self.f1,
                    self.eta * self.f2
                ),
                "f1 > eta f2",
            ));
        }
    }
}

params! {
    /// Maxwell-slip elements (1.20)–(1.22): stiffnesses and deadbands.
    pub struct MaxwellSlipElements(u) {
        k: Vec<f64> = any(u.stiffness, "element stiffnesses"),
        delta: Vec<f64> = positive(u.disp, "element deadbands (|u - x_i| <= delta_i)"),
    }
}

impl MaxwellSlipElements {
    pub fn check(&self, errs: &mut Vec<Invalid>) {
        if self.k.len() != self.delta.len() {
            errs.push(invalid(
                "delta",
                format!("k has {} elements, delta has {}", self.k.len(), self.delta.len()),
                "k and delta of equal length",
            ));
        }
    }
    /// The Maxwell-slip force bound on the column `f` of a run of these elements:
    /// `|F| ≤ Σ |k_i| Δ_i` ([`crate::invariants::MAXWELL_SLIP_BOUND_DOC`]).
    pub fn check_bound(&self, d: &crate::RunData, f: &str) -> Result<(), crate::invariants::Violation> {
        let bound = self.k.iter().zip(&self.delta).map(|(k, d)| k.abs() * d).sum();
        crate::invariants::bounded(crate::invariants::col(d, "t")?, crate::invariants::col(d, f)?, bound, f)
    }
    pub fn model(&self) -> MaxwellSlip {
        MaxwellSlip::new(self.k.clone(), self.delta.clone())
    }
}

params! {
    /// Multiplay elements (2.3)–(2.4): masses, dampers, stiffnesses and deadzone half-widths
    /// (each may be negative except Δ, L602, L700).
    pub struct MultiplayElements(u) {
        k: Vec<f64> = any(u.stiffness, "element stiffnesses k_i"),
        delta: Vec<f64> = positive(u.disp, "deadzone half-widths Δ_i (gap 2Δ_i)"),
        m: Vec<f64> = any("kg", "element masses m_i (non-zero; negative with negative k_i, L700)"),
        c: Vec<f64> = any(u.damping, "element dampers c_i"),
    }
}

impl MultiplayElements {
    pub fn check(&self, errs: &mut Vec<Invalid>) {
        for (name, len) in [("delta", self.delta.len()), ("m", self.m.len()), ("c", self.c.len())] {
            if len != self.k.len() {
                errs.push(invalid(
                    name,
                    format!("k has {} elements, {name} has {len}", self.k.len()),
                    "k, delta, m and c of equal length",
                ));
            }
        }
        if self.m.contains(&0.0) {
            errs.push(invalid("m", "a mass is zero", "non-zero masses"));
        }
    }
    pub fn model(&self) -> Multiplay {
        Multiplay::new(self.m.clone(), self.c.clone(), self.k.clone(), self.delta.clone())
    }
}

params! {
    /// A row of rigid rotating bristles under a body, thesis (3.1)–(3.6) (RBM and DRBM).
    pub struct BristleRow(u) {
        kappa: f64 = positive("N*m/rad", "bristle torsional stiffness κ"),
        h: f64 = positive("m", "height of the body's lower surface"),
        lb: f64 = positive("m", "bristle length l_b (> h)"),
        delta: f64 = positive("m", "bristle spacing Δ (bases at iΔ)"),
        d: f64 = positive("m", "body length"),
    }
}

impl BristleRow {
    /// `l_b > h`: a bristle reaches the body.
    pub fn check(&self, errs: &mut Vec<Invalid>) {
        if self.lb <= self.h {
            errs.push(invalid(
                "lb",
                format!("l_b = {} does not exceed h = {}", self.lb, self.h),
                "lb > h (the bristles reach the body)",
            ));
        }
    }
    /// The largest force one corner's contact set can exert, `n κ θ_max/h` with
    /// `θ_max = atan(d0/h)`, `d0 = √(l_b² − h²)`, `n = ⌊d0/Δ⌋ + 1` ([`crate::invariants::corner_forces`]).
    pub fn corner_bound(&self) -> f64 {
        let d0 = (self.lb * self.lb - self.h * self.h).sqrt();
        ((d0 / self.delta).floor() + 1.0) * self.kappa * (d0 / self.h).atan() / self.h
    }
    pub fn bristles(&self) -> Bristles {
        Bristles {
            kappa: self.kappa,
            h: self.h,
            lb: self.lb,
            delta: self.delta,
            d: self.d,
        }
    }
}

params! {
    /// The PID position loop of report Fig 5.1: inertia, J-normalised gains (Tables 5.2, 5.14)
    /// and the reference step.
    pub struct PidPlant(u) {
        j: f64 = positive("kg-m^2", "inertia J"),
        kp_n: f64 = nonneg("1/s^2", "J-normalised proportional gain k̄′_p (physical k_p = J k̄′_p)"),
        ki_n: f64 = nonneg("1/s^3", "J-normalised integral gain k̄′_i"),
        kd_n: f64 = nonneg("1/s", "J-normalised derivative gain k̄′_d (on the measurement)"),
        r: f64 = nonneg("rad", "reference, a step at t = 0 from θ = 0"),
    }
}

/// A PID loop as an ODE (the friction law's states after θ, ω and the integral), with the
/// energy balance's works as quadrature outputs (`crate::energy_balance`): `W_in = ∫ u θ' dt`
/// (the control torque's work) and `W_f = ∫ report · (F + α θ') θ' dt` (`report` = 1 in
/// production; another value only in the test that the balance catches a misreported torque).
struct PidOde<F> {
    lp: fric_models::pid::PidLoop<F>,
    report: f64,
}

impl<F: fric_models::InputDriven> fric_solvers::OdeSystem for PidOde<F> {
    fn dim(&self) -> usize {
        self.lp.dim()
    }
    fn rhs(&self, _: f64, x: &[f64], dx: &mut [f64]) {
        self.lp.rhs(x, dx)
    }
    fn n_quadratures(&self) -> usize {
        2
    }
    fn integrands(&self, _: f64, x: &[f64], q: &mut [f64]) {
        q[0] = self.lp.control(x) * x[1];
        q[1] = self.report * (self.lp.friction(x) + self.lp.plant.alpha * x[1]) * x[1];
    }
}

/// The columns the PID loops append for their energy balance ([`PidPlant::check_energy`]).
pub const PID_ENERGY_COLUMNS: [crate::system::Column; 3] = [
    (
        "W_in",
        "J",
        "control work: integral of u θ' dt from the start (quadrature on the dense output)",
    ),
    ("W_f", "J", "friction work: integral of (F + α θ') θ' dt from the start"),
    ("E", "J", "kinetic energy J θ'^2/2"),
];

/// What the PID loops' energy balance states.
pub const PID_ENERGY_DOC: &str = "control work = friction work + change of J theta'^2/2 (J theta'' = u - alpha theta' - F times theta', integrated; exact for any friction torque on the inertia; the law's own states, bristles or B&S x1, x2, are inside the friction work), to the bound derived from the solver's tolerance (experiments/src/energy_balance.rs)";

impl PidPlant {
    /// The loop with `friction` from rest, the reference step at t = 0, over the autonomous save
    /// grid by `sim.method` ([`PidPlant::tolerances`]): columns t, theta, omega, e, u,
    /// F (the law's output, without α θ'), the law's states named `states` and
    /// [`PID_ENERGY_COLUMNS`]; info `steps`.
    pub fn simulate<F: fric_models::InputDriven>(
        &self,
        alpha: f64,
        friction: F,
        states: &[&str],
        req: &crate::RunRequest,
    ) -> Result<crate::RunData, String> {
        self.simulate_reporting(alpha, friction, states, req, 1.0)
    }

    /// rtol 1e-8, atol 1e-11 unless the run sets them.
    pub fn tolerances(req: &crate::RunRequest) -> (f64, f64) {
        (req.sim.rtol.unwrap_or(1e-8), req.sim.atol.unwrap_or(1e-11))
    }

    /// [`PidPlant::simulate`] with the friction work integrated from `report ×` the torque acting.
    pub(crate) fn simulate_reporting<F: fric_models::InputDriven>(
        &self,
        alpha: f64,
        friction: F,
        states: &[&str],
        req: &crate::RunRequest,
        report: f64,
    ) -> Result<crate::RunData, String> {
        let ode = PidOde {
            lp: self.with(alpha, friction),
            report,
        };
        let lp = &ode.lp;
        let (t_end, save) = crate::drive::autonomous_times(req)?;
        let (rtol, atol) = Self::tolerances(req);
        let tol = fric_solvers::Tolerances {
            rtol,
            atol,
            ..Default::default()
        };
        let n = lp.dim();
        let mut cols: Vec<Vec<f64>> = vec![Vec::with_capacity(save.len()); 6 + states.len() + 3];
        let mut out = |t: f64, x: &[f64]| {
            let row = [t, x[0], x[1], lp.r - x[0], lp.control(x), lp.friction(x)];
            let energy = [x[n], x[n + 1], 0.5 * lp.plant.j * x[1] * x[1]];
            for (c, v) in cols.iter_mut().zip(row.iter().chain(&x[3..n]).chain(&energy)) {
                c.push(*v);
            }
        };
        let x0 = vec![0.0; n];
        let o = fric_solvers::solve(
            &ode,
            crate::drive::method_of(req)?,
            &tol,
            0.0,
            &x0,
            t_end,
            &save,
            &mut out,
        )
        .map_err(|e| e.to_string())?;
        let names = ["t", "theta", "omega", "e", "u", "F"]
            .into_iter()
            .chain(states.iter().copied())
            .chain(PID_ENERGY_COLUMNS.iter().map(|c| c.0));
        let mut data = crate::RunData {
            columns: names.map(String::from).zip(cols).collect(),
            period: None,
            ..Default::default()
        };
        data.info.insert("steps".into(), o.stats.accepted as f64);
        Ok(data)
    }

    /// Invariant: the energy balance (`crate::energy_balance`) of a run of [`PidPlant::simulate`]
    /// with the same `alpha`, `friction` and `states`, to the bound derived there. The stored
    /// energy `½ J θ'²` has `G_θ' = J max|θ'|`; the rate `θ' (u − α θ' − F)` is differentiated
    /// numerically ([`crate::energy_balance::sensitivities`]) at each sample's state
    /// `[θ, θ', I, law…]`, the integral `I = (u − k_p e + k_d θ')/k_i` read back from the control
    /// (the rate is linear in it; 0 when `k_i = 0`).
    pub fn check_energy<F: fric_models::InputDriven>(
        &self,
        alpha: f64,
        friction: F,
        states: &[&str],
        req: &crate::RunRequest,
        d: &crate::RunData,
    ) -> Result<(), crate::invariants::Violation> {
        use crate::energy_balance::{check, max_abs, sensitivities, Bound};
        use crate::invariants::col;
        let lp = self.with(alpha, friction);
        let (t, th, w, e, u) = (
            col(d, "t")?,
            col(d, "theta")?,
            col(d, "omega")?,
            col(d, "e")?,
            col(d, "u")?,
        );
        let law: Vec<&[f64]> = states.iter().map(|s| col(d, s)).collect::<Result<_, _>>()?;
        let integral = |i: usize| {
            if lp.ki == 0.0 {
                0.0
            } else {
                (u[i] - lp.kp * e[i] + lp.kd * w[i]) / lp.ki
            }
        };
        let n = lp.dim();
        let sens = sensitivities(
            t.len(),
            n,
            |i, x| {
                x[0] = th[i];
                x[1] = w[i];
                x[2] = integral(i);
                for (xc, z) in x[3..].iter_mut().zip(&law) {
                    *xc = z[i];
                }
            },
            |x| x[1] * (lp.control(x) - alpha * x[1] - lp.friction(x)),
        );
        let g_w = self.j * max_abs(w);
        let components = sens
            .iter()
            .enumerate()
            .map(|(c, &(xm, h))| (xm, if c == 1 { g_w } else { 0.0 }, h))
            .collect();
        let bound = Bound::for_run(d, Self::tolerances(req), components);
        check(t, col(d, "W_in")?, col(d, "W_f")?, col(d, "E")?, bound.tolerance())
    }

    /// The loop with viscous friction `alpha` and the friction law `friction`.
    pub fn with<F>(&self, alpha: f64, friction: F) -> fric_models::pid::PidLoop<F> {
        fric_models::pid::PidLoop {
            plant: fric_models::inertia::Inertia {
                j: self.j,
                alpha,
                friction,
            },
            kp: self.j * self.kp_n,
            ki: self.j * self.ki_n,
            kd: self.j * self.kd_n,
            r: self.r,
        }
    }
}
