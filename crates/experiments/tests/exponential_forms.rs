//! The two further LuGre forms the prescribed-motion system `lugre` takes (issue 51 item 1): the
//! velocity-dependent damping σ1(v) = σ1 e^{−|v|/v_d} of report (3.27) and the asymmetric static
//! and viscous parameters of report §3.7 (Table 4.2's row, L1527–1528). Each by the exponential
//! integrator (the system's default) at rtol 1e-11 against Dopri5 at rtol 1e-13, Radau5 at 1e-11
//! and the integrating factor at 1e-12 (loop area, extremes, the values at the two reversals and
//! at the end, and every sample), and against what each form derives: σ1(v) changes `F` by
//! `(σ1(v) − σ1) z'` and nothing else (so the loop area by `∮ (σ1(v) − σ1) z' du`); the
//! asymmetric law is the side `v ≥ 0`'s LuGre while the input rises and the side `v < 0`'s while
//! it falls, once the last reversal is forgotten.

mod common;

use common::{n, run, sine};
use fric_experiments::RunData;
use fric_manifest::{ParamValue, SimSpec};
use fric_solvers::analysis::{extremes, loop_area, max_abs_diff};

type Params = Vec<(&'static str, ParamValue)>;

fn sim(method: Option<&str>, rtol: f64, periods: f64, spp: usize) -> SimSpec {
    SimSpec {
        periods: Some(periods),
        samples_per_period: Some(spp),
        method: method.map(|m| m.parse().expect("a method name")),
        rtol: Some(rtol),
        atol: matches!(method, Some("dopri5" | "radau5")).then_some(1e-15),
        ..Default::default()
    }
}

/// A LuGre case: the parameters, the input `sine(amplitude, ω)`, periods and samples a period.
struct Case {
    name: &'static str,
    params: Params,
    input: (f64, f64),
    periods: f64,
    spp: usize,
}

impl Case {
    fn go(&self, method: Option<&str>, rtol: f64) -> RunData {
        self.go_with(&self.params, method, rtol)
    }
    fn go_with(&self, p: &Params, method: Option<&str>, rtol: f64) -> RunData {
        run(
            "lugre",
            p,
            sine(self.input.0, self.input.1),
            sim(method, rtol, self.periods, self.spp),
        )
    }
    fn get(&self, name: &str) -> f64 {
        match self.params.iter().find(|p| p.0 == name) {
            Some((_, ParamValue::Number(v))) => *v,
            _ => 0.0,
        }
    }
    /// The largest static level, the scale of `F`.
    fn fscale(&self) -> f64 {
        ["fs", "fc", "fs_plus", "fc_plus"]
            .map(|k| self.get(k))
            .into_iter()
            .fold(0.0, f64::max)
    }
}

/// The last period's loop area (F over u), min and max of F, F where u is largest and smallest
/// (the two reversals, to the sampling), and F at the end.
fn summary(d: &RunData, spp: usize) -> [(&'static str, f64); 6] {
    let (u, f) = (d.column("u").unwrap(), d.column("F").unwrap());
    let (u, f) = (&u[u.len() - 1 - spp..], &f[f.len() - 1 - spp..]);
    let at = |better: fn(f64, f64) -> bool| {
        let i = (1..u.len()).fold(0, |b, i| if better(u[i], u[b]) { i } else { b });
        f[i]
    };
    let (lo, hi) = extremes(f);
    [
        ("loop area", loop_area(u, f)),
        ("min F", lo),
        ("max F", hi),
        ("F at u_max", at(|a, b| a > b)),
        ("F at u_min", at(|a, b| a < b)),
        ("F at the end", f[f.len() - 1]),
    ]
}

fn table_4_2() -> Params {
    // report Table 4.2, asymmetric row (L1527–1528): σ0, σ1, v0; α0⁻, α1⁻, α2⁻ and α0⁺, α1⁺, α2⁺
    // as fc = α0, fs = α0 + α1, sigma2 = α2 of each side (the units here are the linear ones).
    vec![
        ("sigma0", n(650.0)),
        ("sigma1", n(1.0)),
        ("vs", n(0.1)),
        ("fc", n(0.50)),
        ("fs", n(0.61)),
        ("sigma2", n(0.016)),
        ("fc_plus", n(0.58)),
        ("fs_plus", n(0.72)),
        ("sigma2_plus", n(0.020)),
    ]
}

fn damped() -> Params {
    // A Stribeck LuGre whose σ1 z' is of the size of F (σ1 |v| up to 1.5 N) with v_d below the
    // input's peak speed 0.05 m/s, so that σ1(v) spans σ1 … 4.5e-5 σ1 over a period.
    vec![
        ("sigma0", n(1e3)),
        ("sigma1", n(30.0)),
        ("sigma2", n(0.1)),
        ("fc", n(1.0)),
        ("fs", n(1.5)),
        ("vs", n(0.01)),
        ("sigma1_vd", n(0.005)),
    ]
}

fn cases() -> Vec<Case> {
    let mut both = table_4_2();
    both.push(("sigma1_vd", n(0.05)));
    vec![
        Case {
            name: "asymmetric (report Table 4.2)",
            params: table_4_2(),
            input: (0.2, 2.0),
            periods: 3.0,
            spp: 4000,
        },
        Case {
            name: "σ1(v), report (3.27)",
            params: damped(),
            input: (0.01, 5.0),
            periods: 3.0,
            spp: 4000,
        },
        Case {
            name: "asymmetric with σ1(v)",
            params: both,
            input: (0.2, 2.0),
            periods: 3.0,
            spp: 4000,
        },
    ]
}

#[test]
fn lugre_forms_by_default_agree_with_dopri5_radau5_and_the_integrating_factor_at_rtol_1e_11() {
    for c in cases() {
        let exp = c.go(None, 1e-11);
        assert!(
            exp.info.contains_key("coefficient_evaluations"),
            "{}: the default is the exponential integrator",
            c.name
        );
        let others = [
            ("Dopri5 1e-13", c.go(Some("dopri5"), 1e-13)),
            ("Radau5 1e-11", c.go(Some("radau5"), 1e-11)),
            ("integrating factor 1e-12", c.go(Some("integrating-factor"), 1e-12)),
        ];
        let (fscale, se) = (c.fscale(), summary(&exp, c.spp));
        for (what, d) in &others {
            let df = max_abs_diff(exp.column("F").unwrap(), d.column("F").unwrap()).unwrap();
            eprintln!("{}: max |ΔF| vs {what} {df:.2e} (F scale {fscale})", c.name);
            assert!(df <= 1e-9 * fscale, "{}: max |ΔF| vs {what} {df:e}", c.name);
            for ((name, e), (_, o)) in se.iter().zip(summary(d, c.spp)) {
                eprintln!("    {name}: {e:.12e} ({what} {:+.1e})", o - e);
                let allowed = 1e-10 * if *name == "loop area" { e.abs() } else { fscale };
                assert!((o - e).abs() <= allowed, "{}: {name} {e} vs {what} {o}", c.name);
            }
        }
    }
}

/// σ1(v) enters the output only: against the same run with constant σ1 the state is the same bit
/// for bit and `F` differs by `(σ1 e^{−|v|/v_d} − σ1) z'`, `z' = v − |v| σ0 z / g(v)` computed
/// from the columns; the loop area by that difference's loop integral, which is not small here.
#[test]
fn sigma1_of_v_changes_f_by_the_derived_amount() {
    let cases = cases();
    let c = &cases[1];
    let (s0, s1, s2, fc, fs, vs, vd) = (
        c.get("sigma0"),
        c.get("sigma1"),
        c.get("sigma2"),
        c.get("fc"),
        c.get("fs"),
        c.get("vs"),
        c.get("sigma1_vd"),
    );
    let constant: Params = c.params.iter().filter(|p| p.0 != "sigma1_vd").cloned().collect();
    let (d, d0) = (c.go(None, 1e-11), c.go_with(&constant, None, 1e-11));
    let col = |d: &RunData, k: &str| d.column(k).unwrap().to_vec();
    assert_eq!(col(&d, "z"), col(&d0, "z"), "the state does not depend on σ1(v)");
    let (v, z, f, f0) = (col(&d, "v"), col(&d, "z"), col(&d, "F"), col(&d0, "F"));
    let g = |v: f64| fc + (fs - fc) * (-(v / vs).powi(2)).exp();
    let derived: Vec<f64> = (0..v.len())
        .map(|i| (s1 * (-v[i].abs() / vd).exp() - s1) * (v[i] - v[i].abs() * s0 * z[i] / g(v[i])))
        .collect();
    let worst = (0..v.len())
        .map(|i| (f[i] - f0[i] - derived[i]).abs())
        .fold(0.0, f64::max);
    let spp = c.spp;
    let last = |x: &[f64]| x[x.len() - 1 - spp..].to_vec();
    let u = last(&col(&d, "u"));
    let (a, a0, da) = (
        loop_area(&u, &last(&f)),
        loop_area(&u, &last(&f0)),
        loop_area(&u, &last(&derived)),
    );
    eprintln!(
        "σ1(v): max |F − F_const − (σ1(v) − σ1) z'| = {worst:.2e}; loop area {a:.12e}, constant σ1 {a0:.12e}, \
         derived change {da:+.6e} (σ2 {s2})"
    );
    assert!(worst <= 1e-13 * fs, "{worst:e}");
    assert!((a - a0 - da).abs() <= 1e-12 * a0.abs(), "{a} − {a0} vs {da}");
    assert!(da.abs() >= 1e-2 * a0.abs(), "σ1(v) should move this loop: {da} of {a0}");
}

/// The asymmetric law: while the input rises it is the LuGre of the side `v ≥ 0` (`fc_plus`, …),
/// while it falls that of the side `v < 0`. After a reversal the two runs that share the side
/// differ only in `z`, and that difference decays as `exp(−σ0 ∫|du| / g) ≤ exp(−σ0 Δu / g_max)`
/// (the same linear equation), so once the input has moved `Δu ≥ 40 g_max / σ0` from the last
/// reversal they agree to the integrators' error. The first half period starts from z = 0 in
/// all three, rising.
#[test]
fn asymmetric_lugre_is_each_sides_lugre_once_the_reversal_is_forgotten() {
    let cases = cases();
    let c = &cases[0];
    // The symmetric LuGre of one side: its static and viscous parameters, the shared σ0, σ1, vs.
    let side = |plus: bool| -> Params {
        let own = [("fc", "fc_plus"), ("fs", "fs_plus"), ("sigma2", "sigma2_plus")];
        let mut p: Params = own.map(|(k, kp)| (k, n(c.get(if plus { kp } else { k })))).into();
        p.extend(["sigma0", "sigma1", "vs"].map(|k| (k, n(c.get(k)))));
        p
    };
    let (asym, minus, plus) = (
        c.go(None, 1e-11),
        c.go_with(&side(false), None, 1e-11),
        c.go_with(&side(true), None, 1e-11),
    );
    let (u, v, f) = (
        asym.column("u").unwrap(),
        asym.column("v").unwrap(),
        asym.column("F").unwrap(),
    );
    let (fm, fp) = (minus.column("F").unwrap(), plus.column("F").unwrap());
    let forget = 40.0 * c.fscale() / c.get("sigma0");
    let (mut u_rev, mut worst, mut apart, mut used) = (u[0], 0.0f64, 0.0f64, 0);
    for i in 0..u.len() {
        if i > 0 && v[i - 1] * v[i] <= 0.0 {
            u_rev = u[i];
        }
        if (u[i] - u_rev).abs() < forget {
            continue;
        }
        let same = if v[i] >= 0.0 { fp[i] } else { fm[i] };
        worst = worst.max((f[i] - same).abs());
        apart = apart.max((fp[i] - fm[i]).abs());
        used += 1;
    }
    eprintln!(
        "asymmetric: {used} of {} samples past Δu = {forget:.3e} from a reversal: max |F − F_side| = {worst:.2e}, \
         the sides' runs apart by up to {apart:.3}",
        u.len()
    );
    assert!(used > u.len() / 2, "{used}");
    assert!(worst <= 1e-10 * c.fscale(), "{worst:e}");
    assert!(apart >= 0.05, "the two sides should differ: {apart}");
}

/// The forms' parameters are checked where they are read: a side-`+` parameter without
/// `fc_plus` (the law would silently stay symmetric) and `fs_plus < fc_plus` are refused.
#[test]
fn the_asymmetric_parameters_are_checked() {
    let with = |extra: &[(&'static str, f64)]| {
        let mut p = damped();
        p.extend(extra.iter().map(|&(k, v)| (k, n(v))));
        let sim = sim(None, 1e-8, 1.0, 100);
        let map = common::params(&p);
        fric_experiments::resolve("lugre", &map, Some(&sine(0.01, 5.0)), Some(&sim))
    };
    let e = with(&[("fs_plus", 1.2)]).unwrap_err();
    assert!(
        e.iter()
            .any(|e| e.path == "params.fs_plus" && e.message.contains("without fc_plus")),
        "{e:?}"
    );
    let e = with(&[("fc_plus", 1.2), ("fs_plus", 1.1)]).unwrap_err();
    assert!(e.iter().any(|e| e.path == "params.fs_plus"), "{e:?}");
    assert!(with(&[("fc_plus", 1.2), ("fs_plus", 1.4), ("sigma2_plus", 0.1)]).is_ok());
}

/// `vs_plus` sets the Stribeck speed of the side `v ≥ 0` only: the sides' steady-state curves
/// against `F_ss(v) = sgn v (F_c + (F_s − F_c) e^{−(v/v_s)²}) + σ2 v` derived at a few speeds, each
/// side with its own parameters; `vs_plus` absent (0) is `vs` on both sides.
#[test]
fn vs_plus_changes_only_the_positive_side_s_stribeck_curve() {
    use fric_experiments::laws::{LuGreForms, LuGreLaw, LuGreStatic};
    let law = LuGreLaw {
        sigma0: 1e4,
        sigma1: 100.0,
        curve: LuGreStatic {
            sigma2: 0.6,
            fc: 1.0,
            fs: 1.5,
            vs: 0.04,
        },
        z0: 0.0,
    };
    let forms = |vs_plus: f64| LuGreForms {
        sigma1_vd: 0.0,
        fc_plus: 1.2,
        fs_plus: 1.4,
        vs_plus,
        sigma2_plus: 0.6,
    };
    let fss = |fc: f64, fs: f64, vs: f64, v: f64| v.signum() * (fc + (fs - fc) * (-(v / vs).powi(2)).exp()) + 0.6 * v;
    for (vs_plus, vs_side) in [(0.1, 0.1), (0.0, 0.04)] {
        let m = forms(vs_plus).model(&law);
        for v in [0.01, 0.04, 0.1, 0.3] {
            let (plus, minus) = (m.plus.lugre.steady_state(v), m.minus.lugre.steady_state(-v));
            assert!(
                (plus - fss(1.2, 1.4, vs_side, v)).abs() <= 1e-15,
                "vs_plus {vs_plus}, v = {v}: {plus}"
            );
            assert!(
                (minus - fss(1.0, 1.5, 0.04, -v)).abs() <= 1e-15,
                "vs_plus {vs_plus}, v = −{v}: {minus}"
            );
        }
    }
}

/// The asymmetric LuGre is declared twice, by the prescribed-motion `lugre` system's
/// `LuGreForms` (fc, fs, vs, sigma2 and their `_plus`) and by the report's `ReportLuGre` (α0, α1,
/// v0, α2 and their `_plus`, the rotary systems): the one model, `LuGre` on each side. Table
/// 4.2's asymmetric row written both ways (α0 = F_c, α0 + α1 = F_s, v0 = v_s, α2 = σ2 on each
/// side) gives the same model, field for field, on both sides; so the two mappings cannot drift
/// apart unnoticed.
#[test]
fn the_two_declarations_of_the_asymmetric_lugre_give_one_model() {
    use fric_experiments::laws::{LuGreForms, LuGreLaw, LuGreStatic, ReportLuGre};
    let report = ReportLuGre {
        sigma0: 650.0,
        sigma1: 0.8,
        v0: 0.05,
        alpha0: 0.53,
        alpha1: 0.1,
        alpha2: 0.6,
        alpha0_plus: 0.72,
        alpha1_plus: 0.25,
        alpha2_plus: 0.9,
    };
    let law = LuGreLaw {
        sigma0: 650.0,
        sigma1: 0.8,
        curve: LuGreStatic {
            sigma2: 0.6,
            fc: 0.53,
            fs: 0.63,
            vs: 0.05,
        },
        z0: 0.0,
    };
    let forms = LuGreForms {
        sigma1_vd: 0.0,
        fc_plus: 0.72,
        fs_plus: 0.97,
        vs_plus: 0.05,
        sigma2_plus: 0.9,
    };
    let (r, f) = (report.model(), forms.model(&law));
    for (side, a, b) in [("v < 0", r.minus, f.minus), ("v ≥ 0", r.plus, f.plus)] {
        assert_eq!(b.vd, None, "{side}");
        let b = b.lugre;
        assert_eq!(
            (a.sigma0, a.sigma1, a.sigma2, a.fc, a.vs),
            (b.sigma0, b.sigma1, b.sigma2, b.fc, b.vs),
            "{side}"
        );
        assert!((a.fs - b.fs).abs() <= 1e-15, "{side}: fs {} vs {}", a.fs, b.fs);
    }
}
