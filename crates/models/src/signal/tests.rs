//! Tests of the input signals.

use super::*;

#[test]
fn sine_extrema_are_zeros_of_derivative() {
    let s = Sine {
        amplitude: 2.0,
        omega: 0.3,
        phase: 0.4,
        offset: 0.0,
    };
    let mut e = Vec::new();
    s.extrema(0.0, 100.0, &mut e);
    assert_eq!(e.len(), ((100.0 * 0.3 + 0.4 - PI / 2.0) / PI).floor() as usize + 1);
    for t in e {
        assert!(s.deriv(t).abs() < 1e-12, "{t}");
        assert!((s.value(t).abs() - 2.0).abs() < 1e-12);
    }
}

#[test]
fn sample_times_contain_extrema_and_are_sorted() {
    let s = Signal::Piecewise(Piecewise {
        pieces: vec![
            (
                0.0,
                Sine {
                    amplitude: 1.0,
                    omega: 2.0,
                    phase: 0.0,
                    offset: 0.0,
                },
            ),
            (
                PI,
                Sine {
                    amplitude: 0.5,
                    omega: 2.0,
                    phase: 0.0,
                    offset: 0.0,
                },
            ),
        ],
    });
    let t = s.sample_times(0.0, 2.0 * PI, 100);
    assert!(t.windows(2).all(|w| w[0] < w[1]));
    for k in [0.25, 0.75, 1.25, 1.75] {
        let e = k * PI;
        assert!(t.iter().any(|&x| (x - e).abs() < 1e-12), "missing extremum {e}");
    }
    assert!((s.value(1.25 * PI) - 0.5).abs() < 1e-12);
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * (1.0 + b.abs())
}

#[test]
fn signed_square_is_the_report_passivity_velocity() {
    // L930: v = A sgn(sin 2πt) sin 4πt from amplitude A/(2π), omega 2π.
    let a = 5e-4;
    let s = Signal::SignedSquare(Sine {
        amplitude: a / (2.0 * PI),
        omega: 2.0 * PI,
        phase: 0.0,
        offset: 0.0,
    });
    for k in 1..200 {
        let t = k as f64 * 0.01 + 0.001;
        let v = a * (2.0 * PI * t).sin().signum() * (4.0 * PI * t).sin();
        assert!((s.deriv(t) - v).abs() < 1e-15, "t = {t}");
        let h = 1e-6;
        let fd = (s.value(t + h) - s.value(t - h)) / (2.0 * h);
        assert!((fd - v).abs() < 1e-12, "t = {t}");
    }
    let mut k = Vec::new();
    s.kinks(0.0, 1.0, &mut k);
    assert_eq!(k.len(), 3, "{k:?}"); // extrema at 1/4, 3/4 and the kink at 1/2
    assert!((k[1] - 0.5).abs() < 1e-12);
}

#[test]
fn triangle_hand_values() {
    // Period 4 s, amplitude 2, offset 1: 1, 3, 1, -1, 1 at t = 0, 1, 2, 3, 4.
    let s = Signal::Sawtooth(Sawtooth::triangle(2.0, PI / 2.0, 0.0, 1.0));
    for (t, u) in [
        (0.0, 1.0),
        (0.5, 2.0),
        (1.0, 3.0),
        (2.0, 1.0),
        (3.0, -1.0),
        (4.0, 1.0),
        (5.0, 3.0),
    ] {
        assert!(close(s.value(t), u), "u({t}) = {} != {u}", s.value(t));
    }
    assert!(close(s.deriv(0.5), 2.0) && close(s.deriv(1.5), -2.0));
    assert_eq!(s.period(), Some(4.0));
    let mut e = Vec::new();
    s.extrema(0.0, 8.0, &mut e);
    assert_eq!(e.len(), 4);
    for (a, b) in e.iter().zip([1.0, 3.0, 5.0, 7.0]) {
        assert!(close(*a, b), "{e:?}");
    }
    // A phase of π/2 starts at the maximum, like a cosine.
    let c = Sawtooth::triangle(2.0, PI / 2.0, PI / 2.0, 0.0);
    assert!(close(c.value(0.0), 2.0) && close(c.value(2.0), -2.0));
}

#[test]
fn sawtooth_hand_values() {
    // Period 1 s, rising for 0.8 s: 0 at t = 0, 1 at 0.4, −1 at 0.6 and 1.6.
    let s = Signal::Sawtooth(Sawtooth {
        amplitude: 1.0,
        omega: 2.0 * PI,
        phase: 0.0,
        offset: 0.0,
        width: 0.8,
    });
    for (t, u) in [
        (0.0, 0.0),
        (0.2, 0.5),
        (0.4, 1.0),
        (0.5, 0.0),
        (0.6, -1.0),
        (1.0, 0.0),
        (1.4, 1.0),
    ] {
        assert!((s.value(t) - u).abs() < 1e-12, "u({t}) = {}", s.value(t));
    }
    assert!(close(s.deriv(0.1), 2.5) && close(s.deriv(0.5), -10.0));
    let mut e = Vec::new();
    s.extrema(0.0, 1.5, &mut e);
    let want = [0.4, 0.6, 1.4];
    assert_eq!(e.len(), 3, "{e:?}");
    assert!(e.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12), "{e:?}");
}

#[test]
fn linear_hand_values_and_reversals() {
    // Ramp 0 → 2 over [1, 3], hold, then down to 1 at t = 5, up to 4 at t = 6.
    let l = Linear {
        t: vec![1.0, 3.0, 4.0, 5.0, 6.0],
        u: vec![0.0, 2.0, 2.0, 1.0, 4.0],
    };
    let s = Signal::Linear(l.clone());
    for (t, u) in [
        (0.0, 0.0),
        (1.0, 0.0),
        (2.0, 1.0),
        (3.0, 2.0),
        (3.5, 2.0),
        (4.5, 1.5),
        (5.5, 2.5),
        (9.0, 4.0),
    ] {
        assert!(close(s.value(t), u), "u({t}) = {}", s.value(t));
    }
    assert!(close(s.deriv(2.0), 1.0) && s.deriv(3.5) == 0.0 && close(s.deriv(5.0), 3.0) && s.deriv(7.0) == 0.0);
    assert_eq!(s.period(), None);
    let mut e = Vec::new();
    s.extrema(0.0, 10.0, &mut e);
    // Reversals: start of the ramp, both ends of the hold (rise → flat → fall), the
    // minimum at 5 and the end at 6.
    assert_eq!(e, vec![1.0, 3.0, 4.0, 5.0, 6.0]);
    let mono = Linear {
        t: vec![0.0, 1.0, 2.0],
        u: vec![0.0, 1.0, 3.0],
    };
    let mut e = Vec::new();
    mono.extrema(-1.0, 3.0, &mut e);
    assert_eq!(e, vec![0.0, 2.0], "the breakpoint at 1 is not a reversal");
    let mut k = Vec::new();
    mono.kinks(-1.0, 3.0, &mut k);
    assert_eq!(k, vec![0.0, 1.0, 2.0]);
}

#[test]
fn sum_of_sines_hand_values_and_extrema() {
    let s = SumOfSines {
        terms: vec![
            Sine {
                amplitude: 1.0,
                omega: 1.0,
                phase: 0.0,
                offset: 0.0,
            },
            Sine {
                amplitude: 0.5,
                omega: 3.0,
                phase: PI / 2.0,
                offset: 0.0,
            },
        ],
        offset: 0.25,
    };
    assert!(close(s.value(0.0), 0.75));
    assert!(close(s.value(PI / 2.0), 1.25 + 0.5 * (3.0 * PI / 2.0 + PI / 2.0).sin()));
    assert!(close(s.deriv(0.0), 1.0));
    let mut e = Vec::new();
    s.extrema(0.0, 4.0 * PI, &mut e);
    assert!(!e.is_empty());
    for t in &e {
        assert!(s.deriv(*t).abs() < 1e-12, "u'({t}) = {}", s.deriv(*t));
    }
    // Between two extrema the input is monotone.
    for w in e.windows(2) {
        let m = 0.5 * (w[0] + w[1]);
        assert!(s.deriv(m) != 0.0 && (s.deriv(m) > 0.0) == (s.deriv(0.5 * (w[0] + m)) > 0.0));
    }
    assert!(close(s.shortest_period(), 2.0 * PI / 3.0));
}
