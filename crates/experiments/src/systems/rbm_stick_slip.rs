//! `rbm-stick-slip`: a block on a spring pulled at `v_p` over the rotating bristles, thesis
//! (3.10)–(3.12) with the RBM friction (3.7)–(3.9). The contact sets are the per-bristle state
//! machine of `fric_models::rbm`; between two of its thresholds the states are frozen and the
//! force is smooth in x, so each threshold is a located event of the hybrid integrator.

use crate::laws::BristleRow;
use crate::spring::PulledSpring;
use crate::system::{initial, params, Column, System, NONE, Group, LINEAR};
use crate::{Invalid, RunData, RunRequest};
use fric_models::rbm::Rbm;
use fric_solvers::hybrid::{simulate, HybridSystem};
use fric_solvers::{Method, Tolerances};
use std::cell::{Cell, RefCell};

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

/// (3.10)–(3.12) with the contact states frozen between events; the mode counts the events.
struct Rig {
    rbm: RefCell<Rbm>,
    /// `(above, below)` of the current states.
    next: Cell<(f64, f64)>,
    m: f64,
    k: f64,
    vp: f64,
}

/// How far past a threshold a jump places the body, so that the state machine sees the
/// crossing and the new guard starts on its negative side: 1e-12 m, far below every length
/// of the model.
const NUDGE: f64 = 1e-12;

impl HybridSystem for Rig {
    type Mode = u64;
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, _: u64, _: f64, s: &[f64], ds: &mut [f64]) {
        let (fl, fr) = self.rbm.borrow().friction_at(s[0]);
        ds[0] = s[1];
        ds[1] = (self.k * s[2] - fl - fr) / self.m;
        ds[2] = self.vp - s[1];
    }
    fn n_guards(&self, _: u64) -> usize {
        2
    }
    fn guards(&self, _: u64, _: f64, s: &[f64], g: &mut [f64]) {
        let (above, below) = self.next.get();
        g[0] = s[0] - above;
        g[1] = below - s[0];
    }
    fn jump(&self, mode: u64, guard: usize, _: f64, s: &mut [f64]) -> u64 {
        let (above, below) = self.next.get();
        s[0] = if guard == 0 { above + NUDGE } else { below - NUDGE };
        let mut r = self.rbm.borrow_mut();
        r.advance(s[0]);
        self.next.set(r.next_thresholds());
        mode + 1
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
    ];
    const METHODS: crate::methods::Methods = &[&crate::methods::DOPRI5];
    const INVARIANTS: &'static [crate::invariants::Invariant<Params>] = &[crate::invariants::Invariant {
        name: crate::invariants::BRISTLE_WINDOWS,
        doc: crate::invariants::BRISTLE_WINDOWS_DOC,
        check: |p, _, d| crate::invariants::corner_forces(d, p.row.corner_bound()),
    }];

    fn check(p: &Params, _: &RunRequest, errs: &mut Vec<Invalid>) {
        p.row.check(errs);
        p.spring.check_pulled_forward(errs)
    }

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let b = p.row.bristles();
        let (t_end, save) = crate::drive::autonomous_times(req)?;
        // The body cannot outrun the spring's end by more than the initial extension plus the
        // largest friction over K; the lattice covers that travel with a margin of one body.
        let span = p.spring.vp * t_end + p.l0.abs() + p.row.d;
        let rbm = Rbm::new(b, p.x0, span, true);
        let next = rbm.next_thresholds();
        let rig = Rig {
            rbm: RefCell::new(rbm),
            next: Cell::new(next),
            m: p.spring.m,
            k: p.spring.k_spring,
            vp: p.spring.vp,
        };
        let tol = Tolerances {
            rtol: req.sim.rtol.unwrap_or(1e-10),
            atol: req.sim.atol.unwrap_or(1e-12),
            ..Default::default()
        };
        let mut rows: Vec<[f64; 6]> = Vec::with_capacity(save.len());
        // The observer runs between events, when the frozen states are those of the sample.
        let mut out = |t: f64, _: u64, s: &[f64]| {
            let (fl, fr) = rig.rbm.borrow().friction_at(s[0]);
            rows.push([t, s[0], s[1], s[2], fl, fr]);
        };
        let r = simulate(&rig, 0, Method::Dopri5, &tol, 0.0, &[p.x0, p.v0, p.l0], t_end, &save, 50_000_000, &mut out)
            .map_err(|e| e.to_string())?;
        if rows.iter().any(|r| (r[1] - p.x0).abs() > span) {
            return Err(format!("the body left the lattice of ±{span} m"));
        }
        let col = |j: usize| rows.iter().map(|r| r[j]).collect::<Vec<f64>>();
        let f: Vec<f64> = rows.iter().map(|r| r[4] + r[5]).collect();
        let mut data = RunData {
            columns: vec![
                ("t".into(), col(0)),
                ("x".into(), col(1)),
                ("v".into(), col(2)),
                ("l".into(), col(3)),
                ("F".into(), f),
                ("Fl".into(), col(4)),
                ("Fr".into(), col(5)),
            ],
            period: None,
            ..Default::default()
        };
        data.info.insert("state_events".into(), r.switches.len() as f64);
        data.info.insert("steps".into(), r.stats.accepted as f64);
        data.info.insert("d0".into(), p.row.bristles().d0());
        Ok(data)
    }
}
