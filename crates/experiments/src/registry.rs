//! The table of systems: names, parameters with units and ranges, inputs, columns, methods.

use crate::{Invalid, RunRequest};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Scalar,
    Vector,
}

#[derive(Clone, Copy, Debug)]
pub struct ParamInfo {
    pub name: &'static str,
    pub unit: &'static str,
    pub kind: ParamKind,
    /// Allowed range; `open_min` excludes the lower bound.
    pub min: f64,
    pub max: f64,
    pub open_min: bool,
    pub default: Option<f64>,
    pub doc: &'static str,
}

impl ParamInfo {
    pub fn accepts(&self, v: f64) -> bool {
        v.is_finite() && (if self.open_min { v > self.min } else { v >= self.min }) && v <= self.max
    }
    pub fn range_text(&self) -> String {
        let lo = if self.min == f64::NEG_INFINITY {
            "(-inf".to_string()
        } else if self.open_min {
            format!("({}", self.min)
        } else {
            format!("[{}", self.min)
        };
        let hi = if self.max == f64::INFINITY {
            "inf)".to_string()
        } else {
            format!("{}]", self.max)
        };
        format!("{lo}, {hi} {}", self.unit)
    }
}

pub struct SystemInfo {
    pub name: &'static str,
    pub doc: &'static str,
    pub params: &'static [ParamInfo],
    pub inputs: &'static [&'static str],
    /// Output columns `(name, unit, meaning)`.
    pub columns: &'static [(&'static str, &'static str, &'static str)],
    /// Accepted methods; the first is the default.
    pub methods: &'static [&'static str],
    /// Cross-parameter checks.
    pub check: fn(&RunRequest, &mut Vec<Invalid>),
}

const INF: f64 = f64::INFINITY;

const fn positive(name: &'static str, unit: &'static str, doc: &'static str) -> ParamInfo {
    ParamInfo {
        name,
        unit,
        kind: ParamKind::Scalar,
        min: 0.0,
        max: INF,
        open_min: true,
        default: None,
        doc,
    }
}
const fn nonneg(name: &'static str, unit: &'static str, doc: &'static str) -> ParamInfo {
    ParamInfo {
        name,
        unit,
        kind: ParamKind::Scalar,
        min: 0.0,
        max: INF,
        open_min: false,
        default: None,
        doc,
    }
}
const fn initial(name: &'static str, unit: &'static str, doc: &'static str) -> ParamInfo {
    ParamInfo {
        name,
        unit,
        kind: ParamKind::Scalar,
        min: -INF,
        max: INF,
        open_min: false,
        default: Some(0.0),
        doc,
    }
}

fn no_check(_: &RunRequest, _: &mut Vec<Invalid>) {}

fn same_length_k_delta(r: &RunRequest, errs: &mut Vec<Invalid>) {
    if r.vector("k").len() != r.vector("delta").len() {
        errs.push(Invalid {
            path: "params.delta".into(),
            message: format!(
                "k has {} elements, delta has {}",
                r.vector("k").len(),
                r.vector("delta").len()
            ),
            allowed: "k and delta of equal length".into(),
        });
    }
}

fn dahl_check(r: &RunRequest, errs: &mut Vec<Invalid>) {
    if r.scalar("f0").abs() > r.scalar("fc") {
        errs.push(Invalid {
            path: "params.f0".into(),
            message: "|f0| exceeds fc".into(),
            allowed: "|f0| ≤ fc".into(),
        });
    }
}

fn lugre_check(r: &RunRequest, errs: &mut Vec<Invalid>) {
    if r.scalar("fs") < r.scalar("fc") {
        errs.push(Invalid {
            path: "params.fs".into(),
            message: "fs < fc".into(),
            allowed: "fs ≥ fc (static level at least the Coulomb level)".into(),
        });
    }
}

const PRESCRIBED: &[&str] = &["sine", "cosine", "switched-sine"];

const fn any(name: &'static str, unit: &'static str, doc: &'static str) -> ParamInfo {
    ParamInfo {
        name,
        unit,
        kind: ParamKind::Scalar,
        min: -INF,
        max: INF,
        open_min: false,
        default: None,
        doc,
    }
}
const fn with_default(p: ParamInfo, d: f64) -> ParamInfo {
    ParamInfo { default: Some(d), ..p }
}
const fn vector(name: &'static str, unit: &'static str, min: f64, open_min: bool, doc: &'static str) -> ParamInfo {
    ParamInfo {
        name,
        unit,
        kind: ParamKind::Vector,
        min,
        max: INF,
        open_min,
        default: None,
        doc,
    }
}

const SPRING: [ParamInfo; 4] = [
    positive("m", "kg", "mass"),
    positive("ks", "N/m", "spring stiffness k_s"),
    initial("q0", "m", "initial position"),
    initial("v0", "m/s", "initial velocity"),
];
type Columns = &'static [(&'static str, &'static str, &'static str)];
const SPRING_COLUMNS: Columns = &[
    ("t", "s", "time"),
    ("u", "N", "external force F_e"),
    ("q", "m", "position"),
    ("v", "m/s", "velocity"),
    ("F", "N", "friction"),
];
const DRUM_COLUMNS: Columns = &[
    ("t", "s", "time"),
    ("i", "A", "motor current"),
    ("Tm", "N-m", "motor torque km i_m"),
    ("theta", "rad", "drum angle"),
    ("omega", "rad/s", "angular velocity"),
    ("Tf", "N-m", "friction torque"),
];
/// The unforced Ruderman oscillator (both of its systems).
const OSCILLATOR: [ParamInfo; 6] = [
    positive("m", "kg", "mass"),
    positive("sigma", "N/m", "rest stiffness"),
    positive("fc", "N", "Coulomb level"),
    initial("x0", "m", "initial position"),
    initial("v0", "m/s", "initial velocity"),
    initial("f0", "N", "initial friction force"),
];
const DRUM: [ParamInfo; 9] = [
    positive("inertia", "kg-m^2", "drum inertia I"),
    positive("k1", "N/m", "spring 1 stiffness"),
    positive("k2", "N/m", "spring 2 stiffness"),
    positive("r", "m", "drum radius"),
    positive("km", "N-m/A", "motor torque constant"),
    nonneg("f10", "N", "spring 1 preload"),
    nonneg("f20", "N", "spring 2 preload"),
    initial("theta0", "rad", "initial angle"),
    initial("omega0", "rad/s", "initial angular velocity"),
];

const GRID: &[&str] = &["grid"];
const NONE: &[&str] = &["none"];

const fn ratio(name: &'static str, doc: &'static str) -> ParamInfo {
    ParamInfo {
        name,
        unit: "1",
        kind: ParamKind::Scalar,
        min: 0.0,
        max: 1.0,
        open_min: true,
        default: None,
        doc,
    }
}
const fn variant() -> ParamInfo {
    ParamInfo {
        name: "variant",
        unit: "1",
        kind: ParamKind::Scalar,
        min: 0.0,
        max: 2.0,
        open_min: false,
        default: Some(0.0),
        doc:
            "next-reversal formula: 0 exact root of (3.10), 1 (3.13) as derived from (3.11)-(3.12), 2 (3.13) as printed",
    }
}

fn whole_variant(r: &RunRequest, errs: &mut Vec<Invalid>) {
    if r.scalar("variant").fract() != 0.0 {
        errs.push(Invalid {
            path: "params.variant".into(),
            message: "variant must be 0, 1 or 2".into(),
            allowed: "0, 1, 2".into(),
        });
    }
}

fn unit_grid(r: &RunRequest, errs: &mut Vec<Invalid>) {
    whole_variant(r, errs);
    if let fric_manifest::InputSpec::Grid { from, to, .. } = r.input {
        if from < 0.0 || to > 1.0 {
            errs.push(Invalid {
                path: "input".into(),
                message: "the grid is the fraction of the way between two reversals".into(),
                allowed: "from ≥ 0, to ≤ 1".into(),
            });
        }
    }
}

fn index_grid(r: &RunRequest, errs: &mut Vec<Invalid>) {
    whole_variant(r, errs);
    if let fric_manifest::InputSpec::Grid { from, to, points, .. } = r.input {
        if from != 0.0 || to.fract() != 0.0 || points as f64 != to + 1.0 {
            errs.push(Invalid {
                path: "input".into(),
                message: "the grid is the reversal index n = 0, 1, ..., N".into(),
                allowed: "{kind: grid, from: 0, to: N, points: N + 1}".into(),
            });
        }
    }
}

static SYSTEMS: &[SystemInfo] = &[
    SystemInfo {
        name: "linear-msd",
        doc: "Linear mass/dashpot/spring with position input, thesis (1.3)-(1.4): m x'' + c x' + k (x - u) = 0, y = x.",
        params: &[
            positive("m", "kg", "mass"),
            nonneg("c", "N-s/m", "damping"),
            positive("k", "N/m", "stiffness"),
            initial("x0", "m", "initial position"),
            initial("v0", "m/s", "initial velocity"),
        ],
        inputs: PRESCRIBED,
        columns: &[("t", "s", "time"), ("u", "m", "input position"), ("y", "m", "output x"), ("v", "m/s", "velocity")],
        methods: &["dopri5", "rosenbrock23"],
        check: no_check,
    },
    SystemInfo {
        name: "cubic",
        doc: "Cubic feedback example, thesis (1.5)-(1.6): x' = -x^3 + x + u, y = x.",
        params: &[initial("x0", "1", "initial state")],
        inputs: PRESCRIBED,
        columns: &[
            ("t", "s", "time"),
            ("u", "1", "input"),
            ("x", "1", "state = output"),
            ("eq_residual", "1", "|u - (x^3 - x)| = |x'|: distance from the equilibria map (1.8)"),
        ],
        methods: &["dopri5", "rosenbrock23"],
        check: no_check,
    },
    SystemInfo {
        name: "cubic-equilibria",
        doc: "Equilibria map of the cubic example, thesis (1.8): u = x^3 - x over a grid of x; stable = 1 where 3x^2 - 1 > 0.",
        params: &[],
        inputs: GRID,
        columns: &[("x", "1", "equilibrium state"), ("u", "1", "equilibrium input"), ("stable", "1", "1 if stable, 0 if not")],
        methods: &["analytic"],
        check: no_check,
    },
    SystemInfo {
        name: "coulomb-friction-curve",
        doc: "Coulomb friction force vs velocity, thesis (1.17): F = Fc sign(v), the set [-Fc, Fc] at v = 0 drawn as a vertical segment.",
        params: &[positive("fc", "N", "Coulomb level")],
        inputs: GRID,
        columns: &[("v", "m/s", "velocity"), ("F", "N", "friction force")],
        methods: &["analytic"],
        check: no_check,
    },
    SystemInfo {
        name: "coulomb-mass-spring",
        doc: "Force-driven mass-spring with Coulomb friction, thesis (1.18): m x'' + K x = u - F_f, event-driven stick-slip (hybrid automaton).",
        params: &[
            positive("m", "kg", "mass"),
            positive("k", "N/m", "spring stiffness K"),
            positive("fc", "N", "Coulomb level F_C"),
            initial("x0", "m", "initial position"),
            initial("v0", "m/s", "initial velocity"),
        ],
        inputs: PRESCRIBED,
        columns: &[
            ("t", "s", "time"),
            ("u", "N", "input force"),
            ("x", "m", "position"),
            ("v", "m/s", "velocity"),
            ("F", "N", "friction force"),
            ("applied", "N", "applied force u - K x (inside [-F_C, F_C] on the equilibria map)"),
            ("mode", "1", "0 stick, +1/-1 slip direction"),
        ],
        methods: &["dopri5"],
        check: no_check,
    },
    SystemInfo {
        name: "coulomb-equilibria",
        doc: "Equilibria band of the Coulomb mass-spring, thesis (1.19): (u - Fc)/K <= x <= (u + Fc)/K over a grid of u.",
        params: &[positive("k", "N/m", "spring stiffness K"), positive("fc", "N", "Coulomb level F_C")],
        inputs: GRID,
        columns: &[("u", "N", "constant input"), ("x_lo", "m", "lower edge"), ("x_hi", "m", "upper edge")],
        methods: &["analytic"],
        check: no_check,
    },
    SystemInfo {
        name: "maxwell-slip",
        doc: "Maxwell-slip model, thesis (1.20)-(1.22): F = sum k_i (u - x_i), |u - x_i| <= delta_i. `exact`: stop operators driven by the input samples (every extremum included); `ode`: the time-domain ODE (1.20).",
        params: &[
            ParamInfo { name: "k", unit: "N/m", kind: ParamKind::Vector, min: -INF, max: INF, open_min: false, default: None, doc: "element stiffnesses" },
            ParamInfo { name: "delta", unit: "m", kind: ParamKind::Vector, min: 0.0, max: INF, open_min: true, default: None, doc: "element deadbands (|u - x_i| <= delta_i)" },
            initial("s0", "m", "initial element displacement u - x_i (clamped to the deadband)"),
        ],
        inputs: PRESCRIBED,
        columns: &[("t", "s", "time"), ("u", "m", "input position"), ("v", "m/s", "input velocity u'"), ("F", "N", "friction force")],
        methods: &["exact", "ode"],
        check: same_length_k_delta,
    },
    SystemInfo {
        name: "dahl",
        doc: "Dahl model, thesis (1.23). `exact`: closed-form integration along each monotone input increment; `ode`: the time-domain ODE with Dormand-Prince.",
        params: &[
            positive("sigma", "N/m", "rest stiffness"),
            positive("fc", "N", "Coulomb level"),
            nonneg("gamma", "1", "shape exponent"),
            initial("f0", "N", "initial force"),
        ],
        inputs: PRESCRIBED,
        columns: &[("t", "s", "time"), ("u", "m", "input position"), ("v", "m/s", "input velocity u'"), ("F", "N", "friction force")],
        methods: &["exact", "ode"],
        check: dahl_check,
    },
    SystemInfo {
        name: "lugre",
        doc: "LuGre model with prescribed displacement, thesis (1.24)-(1.26); stiff, integrated with Rosenbrock 2(3) by default.",
        params: &[
            positive("sigma0", "N/m", "bristle stiffness"),
            nonneg("sigma1", "N-s/m", "bristle damping"),
            nonneg("sigma2", "N-s/m", "viscous coefficient"),
            positive("fc", "N", "Coulomb level"),
            positive("fs", "N", "static level"),
            positive("vs", "m/s", "Stribeck velocity"),
            initial("z0", "m", "initial bristle deflection"),
        ],
        inputs: PRESCRIBED,
        columns: &[("t", "s", "time"), ("u", "m", "input position"), ("v", "m/s", "input velocity"), ("z", "m", "bristle deflection"), ("F", "N", "friction force")],
        methods: &["rosenbrock23", "dopri5"],
        check: lugre_check,
    },
    SystemInfo {
        name: "lugre-steady-state",
        doc: "LuGre steady-state friction, thesis (1.27): F_ss(v) = (Fc + (Fs - Fc) exp(-(v/vs)^2)) sign(v) + sigma2 v; the jump at v = 0 drawn as a vertical segment. sigma0 and sigma1 cancel and are accepted only to record the published set.",
        params: &[
            ParamInfo { default: Some(1.0), ..positive("sigma0", "N/m", "bristle stiffness (cancels)") },
            ParamInfo { default: Some(0.0), ..nonneg("sigma1", "N-s/m", "bristle damping (unused in steady state)") },
            nonneg("sigma2", "N-s/m", "viscous coefficient"),
            positive("fc", "N", "Coulomb level"),
            positive("fs", "N", "static level"),
            positive("vs", "m/s", "Stribeck velocity"),
        ],
        inputs: GRID,
        columns: &[("v", "m/s", "velocity"), ("F", "N", "steady-state friction")],
        methods: &["analytic"],
        check: lugre_check,
    },
    SystemInfo {
        name: "ruderman-potential",
        doc: "Potential energy at a motion reversal, Ruderman (3.9) with F_i = -a F_c: E_p = (F_c^2/sigma)(a - ln(1 + a)) over a grid of a = |F_i|/F_c.",
        params: &[positive("fc", "N", "Coulomb level"), positive("sigma", "N/m", "rest stiffness")],
        inputs: GRID,
        columns: &[("a", "1", "|F_i|/F_c"), ("Ep", "J", "potential energy at the reversal")],
        methods: &["analytic"],
        check: no_check,
    },
    SystemInfo {
        name: "ruderman-omega",
        doc: "Ruderman (3.10)-(3.11): Omega(x) = exp(-sigma x/F_c) and its linear approximation 1 - K x, K = (sigma/F_c)(F_c/(F_c - F_i))^0.6, over a grid of x. Info: x_next (exact root of (3.10)) and gap = |Omega*(x_next) - Omega(x_next)|.",
        params: &[positive("fc", "N", "Coulomb level"), positive("sigma", "N/m", "rest stiffness"), ratio("a", "|F_i|/F_c at the last reversal")],
        inputs: GRID,
        columns: &[("x", "m", "distance from the force zero crossing"), ("omega", "1", "Omega(x)"), ("omega_lin", "1", "Omega*(x)")],
        methods: &["analytic"],
        check: no_check,
    },
    SystemInfo {
        name: "ruderman-branch",
        doc: "Force-displacement branch (3.5) between reversal i (F_i = -a F_c) and the next reversal, from the chosen next-reversal formula; grid over the fraction s in [0, 1] of the way. Info: x_i, x_next, a_next, x_ratio = |x_next/x_i|.",
        params: &[positive("fc", "N", "Coulomb level"), positive("sigma", "N/m", "rest stiffness"), ratio("a", "|F_i|/F_c at reversal i"), variant()],
        inputs: GRID,
        columns: &[("s", "1", "fraction of the way"), ("x", "m", "displacement, zero crossing at 0"), ("f", "N", "friction force")],
        methods: &["analytic"],
        check: unit_grid,
    },
    SystemInfo {
        name: "ruderman-reversals",
        doc: "Sequence of reversals from a_0 by the chosen next-reversal formula (Ruderman (3.10)/(3.13)), grid over the index n = 0..N; NaN once the printed formula breaks down.",
        params: &[positive("fc", "N", "Coulomb level"), positive("sigma", "N/m", "rest stiffness"), ratio("a0", "|F_0|/F_c at the first reversal"), variant()],
        inputs: GRID,
        columns: &[
            ("n", "1", "reversal index"),
            ("a", "1", "|F_n|/F_c"),
            ("Ep", "J", "potential energy E_p(n), (3.9)"),
            ("Ed", "J", "dissipation E_p(n) - E_p(n+1), (2.10)"),
            ("ratio", "1", "E_p(n+1)/E_p(n)"),
            ("n2Ep", "1", "n^2 E_p(n) / (F_c^2/sigma)"),
            ("dissipated", "1", "sum of E_d over reversals before n, over E_p(0)"),
        ],
        methods: &["analytic"],
        check: index_grid,
    },
    SystemInfo {
        name: "cbm-stick-slip",
        doc: "Compressed bristle model, thesis ch. IV: body on a spring pulled at v_p over a row of bristles, (4.13), (4.18)-(4.22), f+- (4.44)-(4.47) with ydd = -g + F_y/m, integrated with the Switch Model (4.33)-(4.43) (stick band |v| <= eta, time constant tau); every bristle entering or leaving the slant is a located event.",
        params: &[
            positive("m", "kg", "body mass"),
            positive("w", "m", "body thickness"),
            positive("d", "m", "body length"),
            positive("alpha", "deg", "slant angle from the vertical"),
            positive("k_spring", "N/m", "spring stiffness K"),
            positive("n", "1", "number N of bristles under the flat bottom (4.17)"),
            positive("k", "N/m", "bristle stiffness"),
            positive("h0", "m", "relaxed bristle length"),
            positive("delta", "m", "bristle spacing (bases at i delta)"),
            positive("g", "m/s^2", "gravity"),
            positive("vp", "m/s", "speed of the spring's free end"),
            positive("eta", "m/s", "Switch Model stick band |v| <= eta"),
            positive("tau", "s", "Switch Model time constant (g' = -g/tau in the band)"),
            initial("x0", "m", "initial position"),
            initial("v0", "m/s", "initial velocity"),
            initial("l0", "m", "initial spring extension"),
            initial("y0", "m", "initial height"),
            initial("yd0", "m/s", "initial vertical velocity"),
        ],
        inputs: NONE,
        columns: &[
            ("t", "s", "time"),
            ("x", "m", "position"),
            ("v", "m/s", "velocity"),
            ("l", "m", "spring extension"),
            ("y", "m", "height"),
            ("yd", "m/s", "vertical velocity"),
            ("F", "N", "friction force acting (F_f+- on a branch; in the stick band K l + m v/tau)"),
            ("Ff", "N", "bristle friction (4.13) at the state, branch + for v >= -eta (v inside the stick band counts as 0)"),
            ("stuck", "1", "1 in the Switch Model's attractive (stick) case"),
            ("v_stuck", "m/s", "|v| while stuck, 0 otherwise"),
        ],
        methods: &["dopri5", "radau5"],
        check: no_check,
    },
    SystemInfo {
        name: "ruderman-oscillator",
        doc: "Unforced pre-sliding oscillator m x'' + F = 0 with Dahl (gamma = 1) friction, Ruderman (2.1) with (3.4): x' = v, v' = -F/m, F' = sigma (v - |v| F/F_c); restarted at every reversal (v = 0, located as an event). E_f is the integrated power since the last reversal (2.8).",
        params: &OSCILLATOR,
        inputs: NONE,
        columns: &[
            ("t", "s", "time"),
            ("x", "m", "position"),
            ("v", "m/s", "velocity"),
            ("F", "N", "friction force"),
            ("Ek", "J", "kinetic energy m v^2/2"),
            ("Ef", "J", "integral of F v dt since the last reversal"),
            ("E_abs", "J", "|E_f|"),
        ],
        methods: &["dopri5"],
        check: no_check,
    },
    SystemInfo {
        name: "ruderman-oscillator-reversals",
        doc: "The reversals of ruderman-oscillator, one row each: the force F_i at v = 0, the closed-form E_p(F_i) (3.9), the simulated peak kinetic energy of the following half cycle (at the force zero crossing, located as an event), and the exact-map prediction of a_i from a_{i-1}.",
        params: &OSCILLATOR,
        inputs: NONE,
        columns: &[
            ("i", "1", "reversal index"),
            ("t", "s", "time of the reversal"),
            ("x", "m", "position at the reversal"),
            ("F", "N", "force at the reversal"),
            ("a", "1", "|F_i|/F_c"),
            ("Ep", "J", "closed-form potential energy (3.9)"),
            ("Ek_peak", "J", "simulated kinetic energy at the next force zero crossing"),
            ("balance_err", "1", "(Ek_peak - Ep)/Ep"),
            ("a_pred", "1", "exact map of the previous a (NaN for i = 0)"),
            ("map_err", "1", "a - a_pred"),
            ("n2Ep", "1", "i^2 Ep / (F_c^2/sigma)"),
            ("Ed_sim", "J", "dissipation of half cycle i measured on the trajectory: Ek_peak(i) - Ek_peak(i+1)"),
            ("balance_residual", "1", "(Ep(i) - Ed_sim(i) - Ep(i+1))/Ep(i), the residual of (2.10)"),
            ("dissipated", "1", "sum of Ed_sim over the half cycles before i, over Ep(0)"),
        ],
        methods: &["dopri5"],
        check: no_check,
    },
    SystemInfo {
        name: "semilinear-duhem",
        doc: "Rate-independent semilinear Duhem model, duhem-paper (6)-(8), scalar state, prescribed input: x' = u'+ (a_plus x + b_plus u + e_plus) + u'- (a_minus x + b_minus u + e_minus), y = c x + d u. Column y_limit is the closed-form periodic output (10) at the same input (u_min, u_max from the signal).",
        params: &[
            any("a_plus", "1/m", "A+"),
            with_default(any("b_plus", "1/m", "B+"), 0.0),
            with_default(any("e_plus", "N/m", "E+"), 0.0),
            any("a_minus", "1/m", "A-"),
            with_default(any("b_minus", "1/m", "B-"), 0.0),
            with_default(any("e_minus", "N/m", "E-"), 0.0),
            with_default(any("c", "1", "C"), 1.0),
            with_default(any("d", "N/m", "D"), 0.0),
            initial("x0", "N", "initial state"),
        ],
        inputs: &["sine", "cosine"],
        columns: &[("t", "s", "time"), ("u", "m", "input"), ("v", "m/s", "input rate"), ("y", "N", "output"), ("y_limit", "N", "closed-form limiting output (10)")],
        methods: &["dopri5", "dop853"],
        check: no_check,
    },
    SystemInfo {
        name: "mass-spring-dahl",
        doc: "Force-driven mass-spring with Dahl friction, duhem-paper (28) + (30): m q'' + k_s q = F_e - F, F' = sigma |1 - F/F_C sgn q'|^gamma sgn(...) q'.",
        params: &[
            SPRING[0], SPRING[1],
            positive("sigma", "N/m", "rest stiffness"),
            positive("fc", "N", "Coulomb level"),
            ParamInfo { min: 1.0, ..nonneg("gamma", "1", "shape exponent (>= 1: Lipschitz, as the time integrator needs)") },
            SPRING[2], SPRING[3],
            initial("f0", "N", "initial friction"),
        ],
        inputs: PRESCRIBED,
        columns: SPRING_COLUMNS,
        methods: &["dopri5", "dop853", "radau5"],
        check: no_check,
    },
    SystemInfo {
        name: "mass-spring-lugre",
        doc: "Force-driven mass-spring with LuGre friction, duhem-paper (28) + (34)-(36); stiff, Radau IIA by default.",
        params: &[
            SPRING[0], SPRING[1],
            positive("sigma0", "N/m", "bristle stiffness"),
            nonneg("sigma1", "N-s/m", "bristle damping"),
            nonneg("sigma2", "N-s/m", "viscous coefficient"),
            positive("fc", "N", "Coulomb level"),
            positive("fs", "N", "static level"),
            positive("vs", "m/s", "Stribeck velocity"),
            SPRING[2], SPRING[3],
            initial("z0", "m", "initial bristle deflection"),
        ],
        inputs: PRESCRIBED,
        columns: SPRING_COLUMNS,
        methods: &["radau5", "rosenbrock23", "dopri5"],
        check: lugre_check,
    },
    SystemInfo {
        name: "mass-spring-maxwell-slip",
        doc: "Force-driven mass-spring with Maxwell-slip friction, duhem-paper (28) + (24)-(25): integrated between velocity reversals (located events) with the exact stop operators of the distance travelled since the last reversal, so |F| <= sum k_i delta_i holds exactly. Info: reversals.",
        params: &[
            SPRING[0], SPRING[1],
            vector("k", "N/m", -INF, false, "element stiffnesses"),
            vector("delta", "m", 0.0, true, "element deadbands"),
            SPRING[2], SPRING[3],
        ],
        inputs: PRESCRIBED,
        columns: SPRING_COLUMNS,
        methods: &["dopri5"],
        check: same_length_k_delta,
    },
    SystemInfo {
        name: "drum-dahl",
        doc: "DC-motor/drum testbed, duhem-paper (37)-(41), with Dahl friction torque: the mass-spring of (28) with m = I, k_s = (k1 + k2) r^2, F_e = km i_m - (F10 - F20) r. Input: motor current i_m [A].",
        params: &[
            DRUM[0], DRUM[1], DRUM[2], DRUM[3], DRUM[4], DRUM[5], DRUM[6],
            positive("sigma", "N-m/rad", "rest stiffness"),
            positive("fc", "N-m", "Coulomb level"),
            ParamInfo { min: 1.0, ..nonneg("gamma", "1", "shape exponent (>= 1)") },
            DRUM[7], DRUM[8],
            initial("f0", "N-m", "initial friction torque"),
        ],
        inputs: PRESCRIBED,
        columns: DRUM_COLUMNS,
        methods: &["dopri5", "dop853", "radau5"],
        check: no_check,
    },
    SystemInfo {
        name: "drum-lugre",
        doc: "DC-motor/drum testbed (37)-(41) with LuGre friction torque (see drum-dahl for the mapping); stiff, Radau IIA by default.",
        params: &[
            DRUM[0], DRUM[1], DRUM[2], DRUM[3], DRUM[4], DRUM[5], DRUM[6],
            positive("sigma0", "N-m/rad", "bristle stiffness"),
            nonneg("sigma1", "N-m-s/rad", "bristle damping"),
            nonneg("sigma2", "N-m-s/rad", "viscous coefficient"),
            positive("fc", "N-m", "Coulomb level"),
            positive("fs", "N-m", "static level"),
            positive("vs", "rad/s", "Stribeck velocity"),
            DRUM[7], DRUM[8],
            initial("z0", "rad", "initial bristle deflection"),
        ],
        inputs: PRESCRIBED,
        columns: DRUM_COLUMNS,
        methods: &["radau5", "rosenbrock23", "dopri5"],
        check: lugre_check,
    },
    SystemInfo {
        name: "drum-maxwell-slip",
        doc: "DC-motor/drum testbed (37)-(41) with Maxwell-slip friction torque (hybrid; see mass-spring-maxwell-slip and drum-dahl).",
        params: &[
            DRUM[0], DRUM[1], DRUM[2], DRUM[3], DRUM[4], DRUM[5], DRUM[6],
            vector("k", "N-m/rad", -INF, false, "element stiffnesses"),
            vector("delta", "rad", 0.0, true, "element deadbands"),
            DRUM[7], DRUM[8],
        ],
        inputs: PRESCRIBED,
        columns: DRUM_COLUMNS,
        methods: &["dopri5"],
        check: same_length_k_delta,
    },
];

/// Every system, in a fixed order.
pub fn systems() -> &'static [SystemInfo] {
    SYSTEMS
}
