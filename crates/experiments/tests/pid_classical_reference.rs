//! An independent reference for the classical-friction PID stick–slip of report ch. 5
//! (`inertia-pid-classical`: Figs 5.5 and 5.34, Table 5.11), sharing no code with the production
//! path (`fric_solvers::hybrid`'s Dormand–Prince between located events, `fric_models::pid`):
//! between events the loop is linear with constant coefficients, so it is solved in closed form.
//!
//! Equations (report (1.2)–(1.4), the PID law of ch. 5): `u = k_p (r − θ) + k_i I − k_d θ'`,
//! `I' = r − θ`, physical gains `k = J k̄′`. Slip in direction `s = ±1`:
//! `J θ'' = u − α θ' − s τ_k^s`, an affine system `z' = M z` in `z = (θ, θ', I, 1)`, so
//! `z(t) = exp(M t) z(0)` (the matrix exponential by its Taylor series with scaling and squaring).
//! Stick: `θ' ≡ 0` and `θ` held, so `I` grows linearly and `u(t) = k_p (r − θ) + k_i (I_0 + (r − θ) t)`
//! reaches `τ_s^+` or `−τ_s^−` at a time solved exactly. A slip ends where `θ'` returns to zero
//! (located by a scan at 1 ms and bisection to the last bit); at rest the body sticks while
//! `−τ_s^− ≤ u ≤ τ_s^+`, else slips the way `u` pushes.
//!
//! The production runs must agree with this at the tolerances of the checks the manifests hold
//! them to (report/fig5.5, report/fig5.34, report/table5.11; a bound check with no tolerance,
//! `upper_swing`/`middle_swing` > 0.5 rad, at the ±5e-4 of its neighbours; Fig 5.5's period and
//! its previous-period rests, which place the windows and feed the 1 % repeat checks, at ±0.01 s
//! and ±5e-4 rad), at the manifests'
//! rtol 1e-10 and at 1e-12, each metric computed by one helper here from both sample sets on the
//! same grid. Measured 2026-12-06: every metric agrees to 3e-10 at rtol 1e-10 and 1e-12 at rtol
//! 1e-12 (Table 5.11: T = 5.037720829 s, a_θ = 0.497545084 rad, a_ω = 3.898695207 rad/s in both).
//! Shown to fail: the production's τ_k raised by 1e-3 N·m (0.45 %) fails Figs 5.5 (period
//! 5.0578 against 5.0399 s, beyond ±0.01) and 5.34 (upper swing 0.98887 against 0.99509 rad);
//! Table 5.11's checks are wider and need 1e-2 N·m.

use fric_experiments::{execute, resolve, RunData};
use fric_manifest::{InputSpec, ParamValue, SimSpec};
use std::collections::BTreeMap;

type Mat = [[f64; 4]; 4];

fn mul(a: &Mat, b: &Mat) -> Mat {
    let mut c = [[0.0; 4]; 4];
    for i in 0..4 {
        for j in 0..4 {
            c[i][j] = (0..4).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    c
}

fn apply(a: &Mat, z: &[f64; 4]) -> [f64; 4] {
    let mut y = [0.0; 4];
    for (i, yi) in y.iter_mut().enumerate() {
        *yi = (0..4).map(|k| a[i][k] * z[k]).sum();
    }
    y
}

/// `exp(M t)`: scaled until `‖M t‖₁ / 2^s ≤ 1/8`, a Taylor series to 30 terms (converged far
/// below rounding there), squared `s` times.
fn expm(m: &Mat, t: f64) -> Mat {
    let norm = (0..4)
        .map(|j| (0..4).map(|i| (m[i][j] * t).abs()).sum::<f64>())
        .fold(0.0, f64::max);
    let mut s = 0;
    while norm / f64::powi(2.0, s) > 0.125 {
        s += 1;
    }
    let h = t / f64::powi(2.0, s);
    let mut e: Mat = [[0.0; 4]; 4];
    let mut term: Mat = [[0.0; 4]; 4];
    for i in 0..4 {
        e[i][i] = 1.0;
        term[i][i] = 1.0;
    }
    for k in 1..30 {
        let mut next = [[0.0; 4]; 4];
        for i in 0..4 {
            for j in 0..4 {
                next[i][j] = (0..4).map(|l| term[i][l] * m[l][j]).sum::<f64>() * h / k as f64;
            }
        }
        term = next;
        for i in 0..4 {
            for j in 0..4 {
                e[i][j] += term[i][j];
            }
        }
    }
    for _ in 0..s {
        e = mul(&e, &e);
    }
    e
}

/// The loop's parameters in physical units.
#[derive(Clone, Copy)]
struct Loop {
    j: f64,
    kp: f64,
    ki: f64,
    kd: f64,
    r: f64,
    alpha: f64,
    /// (stiction, kinetic) forward and backward.
    plus: (f64, f64),
    minus: (f64, f64),
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Phase {
    Stick,
    Slip(f64),
}

impl Loop {
    fn control(&self, theta: f64, omega: f64, i: f64) -> f64 {
        self.kp * (self.r - theta) + self.ki * i - self.kd * omega
    }
    /// `M` of the slip in direction `s`.
    fn slip_matrix(&self, s: f64) -> Mat {
        let tk = if s > 0.0 { self.plus.1 } else { self.minus.1 };
        let j = self.j;
        [
            [0.0, 1.0, 0.0, 0.0],
            [
                -self.kp / j,
                -(self.kd + self.alpha) / j,
                self.ki / j,
                (self.kp * self.r - s * tk) / j,
            ],
            [-1.0, 0.0, 0.0, self.r],
            [0.0, 0.0, 0.0, 0.0],
        ]
    }
    fn at_rest(&self, theta: f64, i: f64) -> Phase {
        let u = self.control(theta, 0.0, i);
        if u > self.plus.0 {
            Phase::Slip(1.0)
        } else if u < -self.minus.0 {
            Phase::Slip(-1.0)
        } else {
            Phase::Stick
        }
    }

    /// The solution from rest at `(θ, I) = 0` sampled at `times` (increasing, from 0):
    /// columns θ, θ', u; and the count of phase switches.
    fn run(&self, times: &[f64]) -> ([Vec<f64>; 3], usize) {
        let t_end = *times.last().unwrap();
        let mut out: [Vec<f64>; 3] = [vec![], vec![], vec![]];
        let push = |out: &mut [Vec<f64>; 3], z: [f64; 4]| {
            out[0].push(z[0]);
            out[1].push(z[1]);
            out[2].push(self.control(z[0], z[1], z[2]));
        };
        let (mut t0, mut z0) = (0.0, [0.0, 0.0, 0.0, 1.0]);
        let mut phase = self.at_rest(0.0, 0.0);
        let mut next = 0;
        let mut switches = 0;
        while next < times.len() {
            // The phase's end `t1` and the state there.
            let (t1, z1) = match phase {
                Phase::Stick => {
                    let e = self.r - z0[0];
                    let u0 = self.control(z0[0], 0.0, z0[2]);
                    let rate = self.ki * e;
                    let dt = if rate > 0.0 {
                        (self.plus.0 - u0) / rate
                    } else if rate < 0.0 {
                        (-self.minus.0 - u0) / rate
                    } else {
                        f64::INFINITY
                    };
                    let t1 = t0 + dt.max(0.0);
                    let z1 = [z0[0], 0.0, z0[2] + e * (t1 - t0).min(t_end + 1.0 - t0), 1.0];
                    (t1, z1)
                }
                Phase::Slip(s) => {
                    let m = self.slip_matrix(s);
                    let h = 1e-3;
                    let eh = expm(&m, h);
                    let (mut ta, mut za) = (t0, z0);
                    loop {
                        let zb = apply(&eh, &za);
                        if zb[1] * s <= 0.0 {
                            // θ' returns to zero in (ta, ta + h]: bisect on exp(M τ) z(ta).
                            let (mut lo, mut hi) = (0.0, h);
                            while hi - lo > 0.0 {
                                let mid = 0.5 * (lo + hi);
                                if mid == lo || mid == hi {
                                    break;
                                }
                                if apply(&expm(&m, mid), &za)[1] * s > 0.0 {
                                    lo = mid;
                                } else {
                                    hi = mid;
                                }
                            }
                            let mut z1 = apply(&expm(&m, hi), &za);
                            z1[1] = 0.0;
                            break (ta + hi, z1);
                        }
                        if ta > t_end + 1.0 {
                            break (f64::INFINITY, zb);
                        }
                        (ta, za) = (ta + h, zb);
                    }
                }
            };
            while next < times.len() && times[next] <= t1 {
                let t = times[next];
                let z = match phase {
                    Phase::Stick => [z0[0], 0.0, z0[2] + (self.r - z0[0]) * (t - t0), 1.0],
                    Phase::Slip(s) => apply(&expm(&self.slip_matrix(s), t - t0), &z0),
                };
                push(&mut out, z);
                next += 1;
            }
            if t1.is_infinite() {
                break;
            }
            let after = match phase {
                Phase::Stick => Phase::Slip(if self.control(z1[0], 0.0, z1[2]) > 0.0 {
                    1.0
                } else {
                    -1.0
                }),
                Phase::Slip(_) => self.at_rest(z1[0], z1[2]),
            };
            (t0, z0, phase) = (t1, z1, after);
            switches += usize::from(t1 <= t_end);
        }
        (out, switches)
    }
}

/// A run of a manifest: the report's J = 0.0025 kg·m² (C.3), the J-normalised gains, `r`, the
/// levels (`plus` = (0, 0): symmetric) and α.
struct Case {
    gains: (f64, f64, f64),
    r: f64,
    minus: (f64, f64),
    plus: (f64, f64),
    alpha: f64,
    t_end: f64,
    samples: usize,
}

const J: f64 = 0.0025;

impl Case {
    fn reference(&self) -> Loop {
        Loop {
            j: J,
            kp: J * self.gains.0,
            ki: J * self.gains.1,
            kd: J * self.gains.2,
            r: self.r,
            alpha: self.alpha,
            minus: self.minus,
            plus: if self.plus.0 > 0.0 { self.plus } else { self.minus },
        }
    }
    fn production(&self, rtol: Option<f64>) -> RunData {
        let p: BTreeMap<String, ParamValue> = [
            ("j", J),
            ("kp_n", self.gains.0),
            ("ki_n", self.gains.1),
            ("kd_n", self.gains.2),
            ("r", self.r),
            ("tau_s", self.minus.0),
            ("tau_k", self.minus.1),
            ("tau_s_plus", self.plus.0),
            ("tau_k_plus", self.plus.1),
            ("alpha", self.alpha),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), ParamValue::Number(*v)))
        .collect();
        let sim = SimSpec {
            t_end: Some(self.t_end),
            samples_per_period: Some(self.samples),
            rtol,
            atol: rtol.map(|r| r * 1e-2),
            ..Default::default()
        };
        let req = resolve(
            "inertia-pid-classical",
            &p,
            Some(&InputSpec::new("none", [])),
            Some(&sim),
        )
        .unwrap();
        execute(&req).unwrap()
    }
}

/// One sample set: t, θ, θ', u.
struct Samples<'a> {
    t: &'a [f64],
    theta: &'a [f64],
    omega: &'a [f64],
    u: &'a [f64],
}

impl Samples<'_> {
    fn window(&self, a: f64, b: f64) -> impl Iterator<Item = usize> + '_ {
        (0..self.t.len()).filter(move |&i| self.t[i] >= a && self.t[i] <= b)
    }
    fn max(&self, y: &[f64], a: f64, b: f64) -> f64 {
        self.window(a, b).map(|i| y[i]).fold(f64::NEG_INFINITY, f64::max)
    }
    fn min(&self, y: &[f64], a: f64, b: f64) -> f64 {
        self.window(a, b).map(|i| y[i]).fold(f64::INFINITY, f64::min)
    }
    /// The error `r − θ` extremes.
    fn e_max(&self, r: f64, a: f64, b: f64) -> f64 {
        r - self.min(self.theta, a, b)
    }
    fn e_min(&self, r: f64, a: f64, b: f64) -> f64 {
        r - self.max(self.theta, a, b)
    }
    /// The mean interval between upward crossings of θ = `at` in `[a, b]` (linear interpolation
    /// between samples).
    fn period(&self, at: f64, a: f64, b: f64) -> f64 {
        let idx: Vec<usize> = self.window(a, b).collect();
        let ups: Vec<f64> = idx
            .windows(2)
            .filter(|w| self.theta[w[0]] < at && self.theta[w[1]] >= at)
            .map(|w| {
                let (t0, t1, y0, y1) = (self.t[w[0]], self.t[w[1]], self.theta[w[0]], self.theta[w[1]]);
                t0 + (at - y0) * (t1 - t0) / (y1 - y0)
            })
            .collect();
        assert!(ups.len() >= 2, "fewer than two upward crossings of {at} in [{a}, {b}]");
        (ups[ups.len() - 1] - ups[0]) / (ups.len() - 1) as f64
    }
    /// The first time `u` reaches `level` (linear interpolation).
    fn time_u_reaches(&self, level: f64) -> f64 {
        let i = (1..self.t.len())
            .find(|&i| self.u[i - 1] < level && self.u[i] >= level)
            .unwrap();
        self.t[i - 1] + (level - self.u[i - 1]) * (self.t[i] - self.t[i - 1]) / (self.u[i] - self.u[i - 1])
    }
}

/// A checked metric: its name, the check's tolerance (absolute) and how it is read.
type Metric = (&'static str, f64, fn(&Samples, f64) -> f64);

/// Each case's production at its manifest's tolerance (the default rtol 1e-10) and at 1e-12,
/// against the reference, on every metric the manifests check, to the check's tolerance; the
/// measured differences printed.
fn compare(case: &Case, metrics: &[Metric]) {
    let d0 = case.production(None);
    let times = d0.column("t").unwrap().to_vec();
    let ((cols, switches), r) = (case.reference().run(&times), case.r);
    assert_eq!(cols[0].len(), times.len(), "the reference covers the grid");
    let reference = Samples {
        t: &times,
        theta: &cols[0],
        omega: &cols[1],
        u: &cols[2],
    };
    for (label, d) in [("rtol 1e-10", d0), ("rtol 1e-12", case.production(Some(1e-12)))] {
        let ours = Samples {
            t: d.column("t").unwrap(),
            theta: d.column("theta").unwrap(),
            omega: d.column("omega").unwrap(),
            u: d.column("u").unwrap(),
        };
        for (name, tol, read) in metrics {
            let (a, b) = (read(&ours, r), read(&reference, r));
            eprintln!(
                "r = {r}, {label}: {name} production {a:.9} reference {b:.9} (difference {:.2e}, check tolerance {tol:e}; {switches} reference switches, {} production)",
                (a - b).abs(),
                d.info["switches"]
            );
            assert!(
                (a - b).abs() <= *tol,
                "r = {r}, {label}: {name} production {a} vs reference {b}, beyond the check's ±{tol}"
            );
        }
    }
}

/// Report Fig 5.5 (asymmetric levels, L1783-1784): the metrics its checks read, over the last
/// complete period and the one before; the positions' sum and the repeats follow from these.
#[test]
fn fig5_5_production_agrees_with_the_closed_form_reference() {
    let case = Case {
        gains: (72.0, 216.0, 5.2),
        r: 1.0,
        minus: (0.30, 0.14),
        plus: (0.46, 0.30),
        alpha: 0.017,
        t_end: 30.0,
        samples: 30000,
    };
    compare(
        &case,
        &[
            ("period", 0.01, |s, r| s.period(r, 10.0, 30.0)),
            ("u_max", 5e-4, |s, _| s.max(s.u, 21.58, 26.6)),
            ("u_min", 5e-4, |s, _| s.min(s.u, 21.58, 26.6)),
            ("e_max", 5e-4, |s, r| s.e_max(r, 21.58, 26.6)),
            ("e_min", 5e-4, |s, r| s.e_min(r, 21.58, 26.6)),
            ("e_max_prev", 5e-4, |s, r| s.e_max(r, 16.54, 21.57)),
            ("e_min_prev", 5e-4, |s, r| s.e_min(r, 16.54, 21.57)),
        ],
    );
}

/// Report Table 5.11's classical row (τ_s = 0.38, τ_k = 0.22 N·m, L1879): T, a_θ, the error's
/// minimum and a_ω over [30, 60] s, to the checks' ±0.05 s, ±0.005 rad, ±0.05 rad/s.
#[test]
fn table5_11_production_agrees_with_the_closed_form_reference() {
    let case = Case {
        gains: (72.0, 216.0, 5.2),
        r: 1.0,
        minus: (0.38, 0.22),
        plus: (0.0, 0.0),
        alpha: 0.017,
        t_end: 60.0,
        samples: 60000,
    };
    compare(
        &case,
        &[
            ("classical_period", 0.05, |s, r| s.period(r, 30.0, 60.0)),
            ("classical_a_theta", 0.005, |s, r| s.e_max(r, 30.0, 60.0)),
            ("classical_e_min", 0.005, |s, r| s.e_min(r, 30.0, 60.0)),
            ("classical_a_omega", 0.05, |s, _| {
                s.window(30.0, 60.0).map(|i| s.omega[i].abs()).fold(0.0, f64::max)
            }),
        ],
    );
}

/// Report Fig 5.34 (L2295-2310): PID 1 at r = 1 rad (the upper cycle's swing) and at r = 1 mrad
/// (exactly still while the integral winds up, the time u passes 0.379 N·m to a relative 1e-6,
/// the middle cycle's swing); PID 2 at r = 1 rad (stuck: the swing below 1e-6 rad).
#[test]
fn fig5_34_production_agrees_with_the_closed_form_reference() {
    let pid1 = |r: f64, t_end: f64, samples: usize| Case {
        gains: (72.0, 216.0, 5.2),
        r,
        minus: (0.38, 0.22),
        plus: (0.0, 0.0),
        alpha: 0.017,
        t_end,
        samples,
    };
    compare(
        &pid1(1.0, 40.0, 40000),
        &[("upper_swing", 5e-4, |s, _| {
            s.max(s.theta, 31.5, 36.54) - s.min(s.theta, 31.5, 36.54)
        })],
    );
    compare(
        &pid1(0.001, 1000.0, 100_000),
        &[
            ("middle_still", 1e-15, |s, _| {
                s.window(0.0, 700.0).map(|i| s.theta[i].abs()).fold(0.0, f64::max)
            }),
            ("middle_u_0379", 701.5185185 * 1e-6, |s, _| s.time_u_reaches(0.379)),
            ("middle_swing", 5e-4, |s, _| {
                s.max(s.theta, 990.26, 995.29) - s.min(s.theta, 990.26, 995.29)
            }),
        ],
    );
    compare(
        &Case {
            gains: (2700.0, 27000.0, 83.0),
            ..pid1(1.0, 40.0, 40000)
        },
        &[("lower_swing", 1e-6, |s, _| {
            s.max(s.theta, 30.0, 40.0) - s.min(s.theta, 30.0, 40.0)
        })],
    );
}
