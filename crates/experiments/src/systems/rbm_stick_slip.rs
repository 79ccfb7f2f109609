//! `rbm-stick-slip`: a block on a spring pulled at `v_p` over the rotating bristles, thesis
//! (3.10)–(3.12) with the RBM friction (3.7)–(3.9). The contact sets are the per-bristle state
//! machine of `fric_models::rbm`; between two of its thresholds the states are frozen and the
//! force is smooth in x, so each threshold is a located event of the hybrid integrator.
//!
//! **Energy balance.** (3.10)–(3.12) times `v`, integrated: `∫ K l v_p dt = ∫ F v dt +
//! Δ(½ m v² + ½ K l²)`, exact for any friction force on the block (the bristles' torsion energy is
//! inside the friction work); a jump moves the block by 1e-12 m ([`crate::bristle_rig::NUDGE`]) and changes neither
//! `v` nor `l`, so no stored energy.

use crate::bristle_rig::{data, tolerances, ContactSets, Rig};
use crate::laws::BristleRow;
use crate::spring::PulledSpring;
use crate::system::{initial, params, Column, System, NONE, Group, LINEAR};
use crate::{Invalid, RunData, RunRequest};
use fric_models::rbm::Rbm;
use crate::energy_balance::{check, max_abs, Bound};
use crate::invariants::{col, Invariant, Violation};

params! {
    pub struct Params {
        spring: PulledSpring = Group(LINEAR),
        row: BristleRow = Group(LINEAR),
        x0: f64 = initial("m", "initial position (the lattice phase: bases at iΔ)"),
        v0: f64 = initial("m/s", "initial velocity"),
        l0: f64 = initial("m", "initial spring extension"),
    }
}

pub struct RbmStickSlip;

/// The contact sets of the per-bristle state machine, with its next thresholds kept from the
/// last jump.
struct Machine {
    rbm: Rbm,
    /// `(above, below)` of the current states.
    next: (f64, f64),
}

impl ContactSets for Machine {
    fn friction_at(&self, x: f64) -> (f64, f64) {
        self.rbm.friction_at(x)
    }
    fn thresholds(&self) -> (f64, f64) {
        let (above, below) = self.next;
        (below, above)
    }
    fn advance(&mut self, x: f64) {
        self.rbm.advance(x);
        self.next = self.rbm.next_thresholds();
    }
}

impl System for RbmStickSlip {
    const NAME: &'static str = "rbm-stick-slip";
    const DOC: &'static str = "Rotating bristle model, thesis ch. III: block on a spring pulled at v_p, (3.10)-(3.12) with F_f of (3.7)-(3.9); contact sets from the per-bristle state machine (Tables 3.1-3.2 generalised to repeated short reversals), every state change a located event (Dormand-Prince between events). Initial bristles as Table 3.2 for a first motion to the right.";
    type Params = Params;
    const INPUTS: &'static [&'static str] = NONE;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("x", "m", "position"),
        ("v", "m/s", "velocity"),
        ("l", "m", "spring extension"),
        ("F", "N", "friction force F_f = F_f^l + F_f^r"),
        ("Fl", "N", "left-corner force F_f^l"),
        ("Fr", "N", "right-corner force F_f^r"),
        ("W_in", "J", "input work ∫ K l v_p dt at the spring's free end from the start (quadrature on the dense output)"),
        ("W_f", "J", "friction work ∫ F v dt from the start (dissipated or stored in the bristles)"),
        ("E", "J", "stored energy ½ m v² + ½ K l²"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Dopri5];
    const INVARIANTS: &'static [Invariant<Params>] = &[Invariant {
        name: crate::invariants::BRISTLE_WINDOWS,
        doc: crate::invariants::BRISTLE_WINDOWS_DOC,
        check: |p, _, d| crate::invariants::corner_forces(d, p.row.corner_bound()),
    }, Invariant {
        name: "energy-balance",
        doc: "work put in at the spring's free end = friction work + change of ½ m v² + ½ K l² ((3.10)-(3.12) times v, integrated; the bristles' torsion is inside the friction work), to the bound derived from the solver's tolerance (experiments/src/energy_balance.rs)",
        check: check_energy,
    }];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.row.check(errs);
        p.spring.check_pulled_forward(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        run_reporting(p, req, 1.0)
    }
}

/// The run, with the friction work integrated from `report ×` the force acting ([`Rig`]).
fn run_reporting(p: &Params, req: &RunRequest, report: f64) -> Result<RunData, String> {
    let b = p.row.bristles();
    let (t_end, save) = crate::drive::autonomous_times(req)?;
    // The body cannot outrun the spring's end by more than the initial extension plus the
    // largest friction over K; the lattice covers that travel with a margin of one body.
    let span = p.spring.vp * t_end + p.l0.abs() + p.row.d;
    let rbm = Rbm::new(b, p.x0, span, true);
    let next = rbm.next_thresholds();
    let rig = Rig::new(&p.spring, Machine { rbm, next }, report);
    let (rows, r) = rig.simulate(req, [p.x0, p.v0, p.l0], t_end, &save);
    let r = r?;
    if rows.iter().any(|r| (r[1] - p.x0).abs() > span) {
        return Err(format!("the body left the lattice of ±{span} m"));
    }
    Ok(data(&rows, &r, p.row.bristles().d0()))
}

/// Invariant: the energy balance (`crate::energy_balance`) with the bound derived there, on the
/// state `[x, v, l]`: the stored `½ m v² + ½ K l²` has `G_v = m max|v|`, `G_l = K max|l|`; the
/// rate `K l v_p − F v` has `H_l = K v_p`, `H_v = max|F|` and `H_x = max|v| · 2 n κ/h²`: with the
/// contact sets frozen each bristle adds `κ θ cos²θ/h`, `θ = atan((c − x_b)/h)` ((3.5)–(3.6)),
/// whose slope in `x` is `κ cos²θ (cos²θ − θ sin 2θ)/h²`, at most `κ/h²` in size, and each
/// corner holds at most `n = ⌊d0/Δ⌋ + 1` bristles (the `bristle-windows` invariant).
fn check_energy(p: &Params, req: &RunRequest, d: &RunData) -> Result<(), Violation> {
    let (t, x, v, l, f) = (col(d, "t")?, col(d, "x")?, col(d, "v")?, col(d, "l")?, col(d, "F")?);
    let b = p.row.bristles();
    let n = (b.d0() / b.delta).floor() + 1.0;
    let slope = 2.0 * n * b.kappa / (b.h * b.h);
    let (vm, lm, k) = (max_abs(v), max_abs(l), p.spring.k_spring);
    let bound = Bound::for_run(
        d,
        tolerances(req),
        vec![(max_abs(x), 0.0, vm * slope), (vm, p.spring.m * vm, max_abs(f)), (lm, k * lm, k * p.spring.vp.abs())],
    );
    check(t, col(d, "W_in")?, col(d, "W_f")?, col(d, "E")?, bound.tolerance())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::ParamSet;
    use fric_manifest::{InputSpec, ParamValue, SimSpec};

    /// Thesis Fig 3.5's rig (L958), 20 s.
    fn request() -> RunRequest {
        let params = [("m", 1.0), ("k_spring", 1.0), ("vp", 0.5), ("kappa", 0.5), ("h", 0.098), ("lb", 0.1), ("delta", 0.01), ("d", 1.0), ("x0", 0.0), ("v0", 0.0), ("l0", 0.0)]
            .iter()
            .map(|(k, v)| (k.to_string(), ParamValue::Number(*v)))
            .collect();
        let input = InputSpec::new("none", []);
        let sim = SimSpec {
            t_end: Some(20.0),
            samples_per_period: Some(20000),
            ..Default::default()
        };
        crate::resolve("rbm-stick-slip", &params, Some(&input), Some(&sim)).unwrap()
    }

    /// The declared energy balance holds on the production run and fails when the work is
    /// integrated from a force 0.1 % off the one acting.
    #[test]
    fn energy_balance_holds_and_catches_a_misreported_force() {
        let req = request();
        let p = Params::read(&req.params);
        crate::energy_balance::assert_holds_and_catches_misreport(RbmStickSlip::INVARIANTS, &p, &req, "W_in", 0.1, |r| run_reporting(&p, &req, r));
    }
}
