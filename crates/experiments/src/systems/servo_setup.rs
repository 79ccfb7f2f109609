//! `servo-setup`: the arithmetic of report Appendix C's DC-servo testbed (L2476–L2521): the
//! inertia on the motor side, the gain from control signal to torque and the encoder resolution,
//! from the constants the appendix prints; and the frequency at which the PWM of the current
//! signal appears in the position sampled every T (its alias), for Remark 1's ≈ 135 Hz (L1538).

use crate::input::table;
use crate::system::{nonneg, params, positive, Column, System, NONE};
use crate::{RunData, RunRequest};

params! {
    pub struct Params {
        j_m: f64 = positive("kg-m^2", "motor inertia J_m"),
        m: f64 = positive("kg", "mass of the cylindrical load"),
        r: f64 = positive("m", "radius of the cylindrical load"),
        n: f64 = positive("1", "gear ratio"),
        k_c: f64 = positive("N-m/A", "motor current constant"),
        k_ui: f64 = positive("A/V", "gain of the voltage/current converter"),
        k_da: f64 = positive("V", "gain of the D/A converter (per unit control signal)"),
        divisions: f64 = positive("1", "encoder divisions per turn"),
        interpolation: f64 = positive("1", "resolution factor of the encoder board"),
        pwm_hz: f64 = nonneg("Hz", "PWM frequency of the current signal (0: not evaluated)").default(0.0),
        sample_time: f64 = nonneg("s", "sampling time T of the position (0: not evaluated)").default(0.0),
    }
}

pub struct ServoSetup;

impl System for ServoSetup {
    const NAME: &'static str = "servo-setup";
    const DOC: &'static str = "Report Appendix C's testbed arithmetic: the inertia on the motor side J = J_m + J_l/n² with the load J_l = m r²/2 (L2500-L2508), the gain from the dimensionless control signal to torque k = k_D/A k_U/I k_c (L2476-L2496, L2521), the encoder's angular resolution ΔΦ = 2π/(interpolation · divisions) on the motor axis (L2514), and (pwm_hz, sample_time > 0) the alias of the PWM frequency f sampled every T, |f − round(f T)/T| (L2521). Info: j_load, j_total, k_total, resolution, pwm_alias_hz. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = NONE;
    const COLUMNS: &'static [Column] = &[
        ("j_total", "kg-m^2", "inertia on the motor side"),
        ("k_total", "N-m", "torque per unit control signal"),
        ("resolution", "rad", "encoder resolution on the motor axis"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn run(p: &Params, _: &RunRequest) -> Result<RunData, String> {
        let [j_load, j_total, k_total, resolution] = derive(p);
        let mut data = table(vec![
            ("j_total", vec![j_total]),
            ("k_total", vec![k_total]),
            ("resolution", vec![resolution]),
        ]);
        for (k, v) in [("j_load", j_load), ("j_total", j_total), ("k_total", k_total), ("resolution", resolution)] {
            data.info.insert(k.into(), v);
        }
        if let Some(a) = pwm_alias(p.pwm_hz, p.sample_time) {
            data.info.insert("pwm_alias_hz".into(), a);
        }
        Ok(data)
    }
}

/// `[J_l, J, k, ΔΦ]` of [`ServoSetup`].
fn derive(p: &Params) -> [f64; 4] {
    let j_load = 0.5 * p.m * p.r * p.r;
    [
        j_load,
        p.j_m + j_load / (p.n * p.n),
        p.k_da * p.k_ui * p.k_c,
        2.0 * std::f64::consts::PI / (p.interpolation * p.divisions),
    ]
}

/// The frequency a tone of `f` Hz appears at when sampled every `t` s (folded into
/// [0, 1/(2t)]), or None when either is 0.
fn pwm_alias(f: f64, t: f64) -> Option<f64> {
    (f > 0.0 && t > 0.0).then(|| {
        let fs = 1.0 / t;
        (f - (f / fs).round() * fs).abs()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appendix_c_arithmetic() {
        let p = Params {
            j_m: 0.00223,
            m: 12.0,
            r: 0.05,
            n: 15.5,
            k_c: 0.352,
            k_ui: 3.0,
            k_da: 10.0,
            divisions: 30000.0,
            interpolation: 4.0,
            pwm_hz: 0.0,
            sample_time: 0.0,
        };
        let [j_load, j_total, k_total, resolution] = derive(&p);
        // J_l = 12 · 0.05² / 2 = 0.015, over 15.5² = 240.25.
        assert!((j_load - 0.015).abs() < 1e-15);
        assert!((j_total - (0.00223 + 0.015 / 240.25)).abs() < 1e-15);
        assert!((k_total - 10.56).abs() < 1e-12);
        // 2π / 120 000 = 52.36 µrad.
        assert!((resolution - 5.235987755982988e-5).abs() < 1e-18);
    }

    #[test]
    fn pwm_alias_folds_into_the_nyquist_band() {
        // 20 and 40 kHz are multiples of the 1 kHz sampling rate: both alias to DC.
        assert_eq!(pwm_alias(20_000.0, 1e-3), Some(0.0));
        assert_eq!(pwm_alias(40_000.0, 1e-3), Some(0.0));
        assert!((pwm_alias(20_135.0, 1e-3).unwrap() - 135.0).abs() < 1e-9);
        assert!((pwm_alias(19_865.0, 1e-3).unwrap() - 135.0).abs() < 1e-9);
        assert_eq!(pwm_alias(0.0, 1e-3), None);
    }
}
