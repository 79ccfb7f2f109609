//! Tests of the compressed bristle model (thesis ch. IV), `fric_models::cbm`.
//!
//! Numbers are either cited (catalog `thesis_ch4_6.md` entry and seed line) or labelled derived.

use fric_models::cbm::{
    delta_from_n, Branch, Cbm, Configuration, ForceDriven, PrescribedHeight, StickSlip, Window, Windows,
};
use fric_models::signal::Sine;

const BRANCHES: [Branch; 2] = [Branch::Plus, Branch::Minus];

/// Fig 4.4 parameters (L1659): m = 1, w = 1, d = 2, α = 15°, K = 5, N = 500, k = 0.01,
/// h0 = 2.69; g = 10 assumed (catalog Fig 4.4), Δ as given.
fn fig44(delta: f64) -> Cbm {
    Cbm {
        delta,
        ..Cbm::fig_4_4()
    }
}

/// Fig 4.6 parameters (L1698): K = 2, N = 100, k = 0.05, h0 = 4.46, Δ = (d − d1)/(N − 1).
fn fig46() -> Cbm {
    let alpha = 15f64.to_radians();
    Cbm {
        spring_k: 2.0,
        n_bottom: 100.0,
        k: 0.05,
        h0: 4.46,
        delta: delta_from_n(2.0, 1.0, alpha, 100.0),
        ..fig44(0.0035)
    }
}

/// Fig 4.7 parameters (L1717): K = 2, g = 10, N = 500, Δ = 0.0035, h0 = 1.65, k = 0.01.
fn fig47() -> Cbm {
    Cbm {
        spring_k: 2.0,
        h0: 1.65,
        ..fig44(0.0035)
    }
}

/// A spacing larger than `d1` (0.268): windows with zero or one bristle.
fn coarse() -> Cbm {
    Cbm {
        delta: 0.4,
        ..fig44(0.0035)
    }
}

/// xorshift64* uniform in [0, 1).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.next()
    }
}

/// O(n) reference straight from the equations: sets (4.7)/(4.8), lengths (4.2)/(4.3), and
/// `Σ (h0 − h_i)`. Returns the sum and the index range (`None` when empty).
fn reference(c: &Cbm, sigma: Branch, x: f64, y: f64) -> (f64, Option<(i64, i64)>) {
    let d1 = c.w * c.alpha.tan();
    let (a, b) = match sigma {
        Branch::Plus => (x + c.d / 2.0 - d1, x + c.d / 2.0),
        Branch::Minus => (x - c.d / 2.0, x - c.d / 2.0 + d1),
    };
    let mut sum = 0.0;
    let mut range: Option<(i64, i64)> = None;
    let i0 = (a / c.delta).floor() as i64 - 2;
    let i1 = (b / c.delta).ceil() as i64 + 2;
    for i in i0..=i1 {
        let xb = i as f64 * c.delta;
        if a <= xb && xb <= b {
            let h = match sigma {
                Branch::Plus => y - c.w / 2.0 + c.w / d1 * (xb - (x + c.d / 2.0 - d1)),
                Branch::Minus => y - c.w / 2.0 + c.w / d1 * (x - c.d / 2.0 + d1 - xb),
            };
            sum += c.h0 - h;
            range = Some(match range {
                None => (i, i),
                Some((f, _)) => (f, i),
            });
        }
    }
    (sum, range)
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn closed_form_matches_reference_on_random_points() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    for c in [
        fig44(0.0035),
        fig44(delta_from_n(2.0, 1.0, 15f64.to_radians(), 500.0)),
        fig46(),
        fig47(),
        coarse(),
    ] {
        for _ in 0..4000 {
            let x = rng.range(-60.0, 60.0);
            let y = rng.range(-1.0, c.h0 + 1.0);
            for sigma in BRANCHES {
                let (sum, range) = reference(&c, sigma, x, y);
                let win = c.window(sigma, x);
                match range {
                    Some((f, l)) => assert_eq!((win.first, win.last), (f, l), "{sigma:?} x={x}"),
                    None => assert_eq!(win.count(), 0, "{sigma:?} x={x}"),
                }
                assert!(
                    close(c.slant_sum(sigma, win, x, y), sum, 1e-11),
                    "{sigma:?} x={x} y={y}"
                );
                let kc = c.k * c.alpha.cos();
                let ks = c.k * c.alpha.sin();
                assert!(close(c.friction(sigma, x, y), sigma.sign() * kc * sum, 1e-11));
                assert!(close(c.vertical_slant(sigma, x, y), ks * sum, 1e-11));
                let fy = ks * sum + c.n_bottom * c.k * (c.h0 - y + c.w / 2.0);
                assert!(close(c.vertical(sigma, x, y), fy, 1e-11));
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 5 * 4000 * 2);
}

/// Closed intervals (4.7): with Δ = 0.25 and d = 2 (exact in binary), x = −0.25 puts the tip
/// `x + d/2 = 0.75 = 3Δ` exactly on a base, which must be counted with length `y + w/2`.
#[test]
fn tip_on_a_base_is_inside_the_window() {
    let c = Cbm {
        delta: 0.25,
        ..fig44(0.0035)
    };
    let (x, y) = (-0.25, 1.0);
    let win = c.window(Branch::Plus, x);
    assert_eq!(win.last, 3);
    let (sum, range) = reference(&c, Branch::Plus, x, y);
    assert_eq!(range.map(|r| r.1), Some(3));
    // d1 = 0.268 > Δ: bases 2 and 3 are in [0.482, 0.75].
    assert_eq!(win, Window { first: 2, last: 3 });
    assert!(close(c.slant_sum(Branch::Plus, win, x, y), sum, 1e-14));
    // Mirror for the minus branch: tip x − d/2 = −3Δ at x = 0.25.
    let wm = c.window(Branch::Minus, 0.25);
    assert_eq!(wm, Window { first: -3, last: -2 });
    // The lower end exactly on a base (closed too), placed with the threshold expressions.
    let (_, hi) = c.window_bounds(Branch::Plus, win);
    let at_hi = c.window(Branch::Plus, hi);
    let inside = |w: Window, i: i64| w.first <= i && i <= w.last;
    assert!(inside(at_hi, 2) && inside(at_hi, 3), "{at_hi:?} at x = {hi}");
}

/// Walk x forward and backward with steps incommensurate with Δ, advancing the frozen windows
/// only through the events: the windows always equal the located ones, the frozen forces equal the
/// exact ones, and each branch records one entry and one exit per bristle passed.
#[test]
fn frozen_windows_follow_events() {
    for c in [fig44(0.0035), fig46(), coarse()] {
        let step = c.delta / 7.3;
        let x0 = -0.123_456;
        let mut x = x0;
        let mut win = Windows::locate(&c, x);
        let mut crossings = 0usize;
        let n_steps = 7300;
        for dir in [1.0, -1.0] {
            for _ in 0..n_steps {
                x += dir * step;
                let g = win.events(&c, x);
                // Emulate a solver: handle each fired event (rising, g > 0), then settle.
                for (j, gj) in g.iter().enumerate() {
                    if *gj > 0.0 {
                        win.cross(&c, j);
                        crossings += 1;
                    }
                }
                crossings += win.settle(&c, x);
                assert!(win.events(&c, x).iter().all(|g| *g <= 0.0));
                assert_eq!(win, Windows::locate(&c, x), "x = {x}");
                for sigma in BRANCHES {
                    let y = 1.3;
                    assert_eq!(c.friction_in(sigma, win.get(sigma), x, y), c.friction(sigma, x, y));
                }
            }
        }
        assert!((x - x0).abs() < 1e-9);
        // Distance 2 × 1000Δ, two branches, one entry and one exit per base: 8000 crossings.
        let expected = 2 * 2 * 2 * 1000;
        assert!(crossings.abs_diff(expected) <= 8, "crossings {crossings} vs {expected}");
    }
}

/// After `cross` at a threshold, both event functions of the new window are `≤ 0` there and
/// the new window is the located one just past the threshold.
#[test]
fn cross_at_threshold_is_consistent() {
    let c = fig44(0.0035);
    let mut rng = Rng(42);
    for _ in 0..2000 {
        let x = rng.range(-5.0, 5.0);
        for sigma in BRANCHES {
            let w = c.window(sigma, x);
            let (lo, hi) = c.window_bounds(sigma, w);
            assert!(lo <= x && x <= hi && lo < hi);
            let wf = c.cross(sigma, w, true);
            assert!(c.window_events(sigma, wf, hi).iter().all(|g| *g <= 0.0));
            assert_eq!(wf, c.window(sigma, hi + 1e-12));
            assert_eq!(c.cross(sigma, wf, false), w);
            let wb = c.cross(sigma, w, false);
            assert!(c.window_events(sigma, wb, lo).iter().all(|g| *g <= 0.0));
            assert_eq!(wb, c.window(sigma, lo - 1e-12));
            assert_eq!(c.cross(sigma, wb, true), w);
            // Closed intervals (4.7)/(4.8) at the thresholds themselves: at x_hi the base that
            // enters is already in and the base that leaves is still in; likewise at x_lo.
            assert_eq!(
                c.window(sigma, hi),
                Window {
                    first: w.first,
                    last: wf.last
                }
            );
            assert_eq!(
                c.window(sigma, lo),
                Window {
                    first: wb.first,
                    last: w.last
                }
            );
        }
    }
}

/// `d1/Δ` an integer (tan α = 0.25, Δ = 1/16, all exact in binary): entry and exit thresholds
/// coincide, and crossing must move both ends at once so the count stays 4 (derived).
#[test]
fn coincident_entry_and_exit_thresholds() {
    let c = Cbm {
        alpha: 0.25f64.atan(),
        delta: 0.0625,
        ..fig44(0.0035)
    };
    assert_eq!(c.d1(), 0.25, "precondition: d1 exact");
    let mut rng = Rng(5);
    for _ in 0..500 {
        let x = rng.range(-3.0, 3.0);
        for sigma in BRANCHES {
            let w = c.window(sigma, x);
            assert_eq!(w.count(), 4, "generic x");
            let (lo, hi) = c.window_bounds(sigma, w);
            assert_eq!(hi - lo, 0.0625);
            let wf = c.cross(sigma, w, true);
            assert_eq!(wf, c.window(sigma, hi + 1e-9));
            assert_eq!((wf.first, wf.last), (w.first + 1, w.last + 1));
            let wb = c.cross(sigma, w, false);
            assert_eq!(wb, c.window(sigma, lo - 1e-9));
            // On the threshold the closed intervals hold five bases.
            assert_eq!(c.window(sigma, hi).count(), 5);
        }
    }
}

/// Sawtooth (catalog M1(b)): across thresholds F_f+ jumps by `+k cos α (h0 − y − w/2)` (entry at
/// the tip) or `−k cos α (h0 − y + w/2)` (exit at the corner); with a frozen window it is
/// continuous with slope `n k cos α w/d1`; over one lattice period the jumps sum to
/// `−k cos α w` (derived: 0.00966 N for k = 0.01, 0.0483 N for k = 0.05) and F_f+ is periodic.
#[test]
fn sawtooth_jumps_slope_and_drop_per_bristle() {
    for (c, drop) in [(fig44(0.0035), 0.00966), (fig46(), 0.0483)] {
        assert!((c.sawtooth_drop() - drop).abs() < 5e-6, "{}", c.sawtooth_drop());
        let y = 1.1;
        let kc = c.k * c.alpha.cos();
        let x0 = 0.377;
        let mut win = c.window(Branch::Plus, x0);
        let mut x = x0;
        let (mut jumps, mut rise) = (0.0, 0.0);
        let (mut entries, mut exits) = (0, 0);
        loop {
            let (_, hi) = c.window_bounds(Branch::Plus, win);
            let xe = hi.min(x0 + c.delta);
            let f_a = c.friction_in(Branch::Plus, win, x, y);
            let f_b = c.friction_in(Branch::Plus, win, xe, y);
            // Slope inside the segment.
            if xe > x {
                let s = (f_b - f_a) / (xe - x);
                assert!(close(s, c.slope_between_events(win.count()), 1e-6));
            }
            // Continuity of the frozen field across the threshold.
            let eps = 1e-7;
            let f_past = c.friction_in(Branch::Plus, win, xe + eps, y);
            assert!((f_past - f_b - c.slope_between_events(win.count()) * eps).abs() < 1e-12);
            rise += f_b - f_a;
            if xe >= x0 + c.delta {
                break;
            }
            let nw = c.cross(Branch::Plus, win, true);
            let jump = c.friction_in(Branch::Plus, nw, xe, y) - f_b;
            if nw.last > win.last {
                entries += 1;
            }
            if nw.first > win.first {
                exits += 1;
            }
            let mut expect = 0.0;
            if nw.last > win.last {
                expect += kc * (c.h0 - y - c.w / 2.0);
            }
            if nw.first > win.first {
                expect -= kc * (c.h0 - y + c.w / 2.0);
            }
            assert!((jump - expect).abs() < 1e-12, "jump {jump} vs {expect}");
            jumps += jump;
            win = nw;
            x = xe;
        }
        assert_eq!((entries, exits), (1, 1));
        assert!((jumps + c.sawtooth_drop()).abs() < 1e-12, "jumps {jumps}");
        assert!((jumps + rise).abs() < 1e-11, "not periodic: {}", jumps + rise);
        let f0 = c.friction(Branch::Plus, x0, y);
        assert!(close(c.friction(Branch::Plus, x0 + c.delta, y), f0, 1e-12));
    }
}

/// Mean friction (4.67), catalog M7: the exact average of F_f+ over one lattice period (integrated
/// segment by segment between events) is `k̃ (h0 − y)` with `k̃ = k cos α d1/Δ`. Catalog values
/// (derived): 0.7395 N/m for Δ = 0.0035, 0.7457 for Δ = (d − d1)/499, 0.7397 for Fig 4.6.
#[test]
fn mean_friction_over_a_lattice_period() {
    let cases = [
        (fig44(0.0035), 0.7395),
        (fig44(delta_from_n(2.0, 1.0, 15f64.to_radians(), 500.0)), 0.7457),
        (fig46(), 0.7397),
    ];
    for (c, kt) in cases {
        assert!((c.k_tilde() - kt).abs() < 6e-5, "k̃ = {}", c.k_tilde());
        for y in [0.2, 1.0, 1.9] {
            for sigma in BRANCHES {
                let x0 = -3.21;
                let mut win = c.window(sigma, x0);
                let mut x = x0;
                let mut integral = 0.0;
                while x < x0 + c.delta {
                    let (_, hi) = c.window_bounds(sigma, win);
                    let xe = hi.min(x0 + c.delta);
                    let fa = c.friction_in(sigma, win, x, y);
                    let fb = c.friction_in(sigma, win, xe, y);
                    integral += 0.5 * (fa + fb) * (xe - x);
                    win = c.cross(sigma, win, true);
                    x = xe;
                }
                let mean = integral / c.delta;
                assert!(
                    close(mean, c.mean_friction(sigma, y), 1e-10),
                    "{sigma:?} y={y}: {mean} vs {}",
                    c.mean_friction(sigma, y)
                );
            }
        }
    }
}

/// Window counts are ⌊d1/Δ⌋ or ⌈d1/Δ⌉ and average d1/Δ (76.557 for Δ = 0.0035, derived).
#[test]
fn window_count_averages_d1_over_delta() {
    let c = fig44(0.0035);
    assert!((c.mean_slant_count() - 76.557).abs() < 1e-3);
    let mut rng = Rng(7);
    let m = 200_000;
    let mut total = 0i64;
    for _ in 0..m {
        let n = c.window(Branch::Plus, rng.range(-10.0, 10.0)).count();
        assert!(n == 76 || n == 77);
        total += n;
    }
    assert!((total as f64 / m as f64 - c.mean_slant_count()).abs() < 0.01);
}

/// Signs: F_f+ > 0 > F_f− and F_ys± > 0 while no bristle is stretched (y + w/2 ≤ h0); mirror
/// symmetry of the lattice iΔ: F_f−(x, y) = −F_f+(−x, y), F_ys−(x, y) = F_ys+(−x, y).
/// Without clipping (catalog M1(c)) a body above h0 pulls: F_f+ < 0.
#[test]
fn signs_mirror_symmetry_and_no_clipping() {
    let mut rng = Rng(99);
    for c in [fig44(0.0035), fig46(), fig47()] {
        for _ in 0..3000 {
            let x = rng.range(-20.0, 20.0);
            let y = rng.range(0.0, c.h0 - c.w / 2.0);
            assert!(!c.tensile(y));
            let (fp, fm) = (c.friction(Branch::Plus, x, y), c.friction(Branch::Minus, x, y));
            assert!(fp > 0.0 && fm < 0.0, "x={x} y={y}: {fp} {fm}");
            assert!(c.vertical_slant(Branch::Plus, x, y) > 0.0);
            assert!(c.vertical_slant(Branch::Minus, x, y) > 0.0);
            assert!(close(fm, -c.friction(Branch::Plus, -x, y), 1e-10));
            assert!(close(
                c.vertical_slant(Branch::Minus, x, y),
                c.vertical_slant(Branch::Plus, -x, y),
                1e-10
            ));
        }
        let y = c.h0 + c.w;
        assert!(c.tensile(y));
        assert!(c.friction(Branch::Plus, 0.1, y) < 0.0);
    }
}

/// Vertical dynamics (catalog M2, derived): `k_uo = −∂F_y/∂y = N k + n k sin α`,
/// `ω = sqrt(k_uo/m) ≈ 2.280 rad/s`, and `h0 − y_eq = (m g − N k w/2)/k_uo ≈ 1.443 m` (g = 10),
/// found here as the root of `F_y+(x, y) = m g` at many x for both Δ choices of Fig 4.4.
#[test]
fn vertical_equilibrium_and_frequency_fig44() {
    for c in [fig44(0.0035), fig44(delta_from_n(2.0, 1.0, 15f64.to_radians(), 500.0))] {
        let mut offsets = Vec::new();
        for j in 0..100 {
            let x = -1.0 + j as f64 * c.delta / 100.0 * 3.7;
            let win = c.window(Branch::Plus, x);
            // F_y is affine in y for a fixed window: the secant slope is exact.
            let (y0, y1) = (1.0, 1.5);
            let (f0, f1) = (
                c.vertical_in(Branch::Plus, win, x, y0),
                c.vertical_in(Branch::Plus, win, x, y1),
            );
            let kuo = -(f1 - f0) / (y1 - y0);
            assert!(close(kuo, c.k_uo(win.count()), 1e-10));
            let omega = (kuo / c.m).sqrt();
            assert!((omega - 2.280).abs() < 1e-3, "ω = {omega}");
            let y_eq = y0 + (f0 - c.m * c.g) / kuo;
            assert!((c.vertical_in(Branch::Plus, win, x, y_eq) - c.m * c.g).abs() < 1e-9);
            // The equilibrium lies inside this window's validity (x fixed), so the located
            // force agrees.
            assert!((c.vertical(Branch::Plus, x, y_eq) - c.m * c.g).abs() < 1e-9);
            offsets.push(c.h0 - y_eq);
        }
        let mean = offsets.iter().sum::<f64>() / offsets.len() as f64;
        let (lo, hi) = offsets
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), &o| (a.min(o), b.max(o)));
        assert!((mean - 1.443).abs() < 1e-3, "mean offset {mean}");
        assert!(lo > 1.4415 && hi < 1.4445, "offset range [{lo}, {hi}]");
    }
}

/// N vs Δ (catalog M1(d), derived): (d − d1)/Δ + 1 = 495.87 for Δ = 0.0035; Δ = (d − d1)/(N − 1)
/// is 0.0034710 for N = 500 and 0.017495 for N = 100.
#[test]
fn n_versus_delta() {
    assert!((fig47().n_from_delta() - 495.87).abs() < 5e-3);
    let a = 15f64.to_radians();
    assert!((delta_from_n(2.0, 1.0, a, 500.0) - 0.0034710).abs() < 5e-8);
    assert!((delta_from_n(2.0, 1.0, a, 100.0) - 0.017495).abs() < 5e-7);
    assert!((fig46().n_from_delta() - 100.0).abs() < 1e-9);
}

/// The three Switch-Model configurations against the equations written out by hand, with
/// m = 2 so that the typo fix `ÿ = −g + F_y/m` (catalog M2) is visible: the printed
/// `−m g + F_y` would differ.
#[test]
fn configuration_vector_fields() {
    let c = Cbm {
        m: 2.0,
        ..fig44(0.0035)
    };
    let kc = c.k * c.alpha.cos();
    let ks = c.k * c.alpha.sin();
    let fyb = |y: f64| c.n_bottom * c.k * (c.h0 - y + c.w / 2.0);

    // M3: [x, v, l, y, ẏ] (4.44)–(4.45).
    let ss = StickSlip { cbm: c, vp: 0.1 };
    let s = [0.3, 0.05, 0.4, 1.2, -0.1];
    let win = Windows::locate(&c, s[0]);
    let mut out = [0.0; 5];
    for sigma in BRANCHES {
        ss.f(sigma, 0.0, &s, &win, &mut out);
        let (sum, _) = reference(&c, sigma, s[0], s[3]);
        let ff = sigma.sign() * kc * sum;
        let fy = ks * sum + fyb(s[3]);
        let expect = [s[1], (5.0 * s[2] - ff) / 2.0, 0.1 - s[1], s[4], -10.0 + fy / 2.0];
        for (o, e) in out.iter().zip(expect) {
            assert!(close(*o, e, 1e-12), "M3 {sigma:?}: {out:?} vs {expect:?}");
        }
        assert!((out[4] - (-2.0 * 10.0 + fy)).abs() > 1.0);
        assert!(close(ss.friction(sigma, 0.0, &s, &win), ff, 1e-12));
    }
    assert_eq!(ss.dim(), 5);
    assert_eq!(ss.applied(0.0, &s), 5.0 * 0.4);

    // M3b: [x, v, l] (4.48)–(4.49) with y = A sin ωt, A = 1.3, ω = 6.8 (L1698).
    let height = Sine {
        amplitude: 1.3,
        omega: 6.8,
        phase: 0.0,
        offset: 0.0,
    };
    let ph = PrescribedHeight {
        cbm: c,
        vp: 0.1,
        height,
    };
    let t = 0.7;
    let y = 1.3 * (6.8f64 * t).sin();
    assert_eq!(ph.height(t, &s[..3]), y);
    let mut out3 = [0.0; 3];
    for sigma in BRANCHES {
        ph.f(sigma, t, &s[..3], &win, &mut out3);
        let (sum, _) = reference(&c, sigma, s[0], y);
        let expect = [s[1], (5.0 * s[2] - sigma.sign() * kc * sum) / 2.0, 0.1 - s[1]];
        for (o, e) in out3.iter().zip(expect) {
            assert!(close(*o, e, 1e-12), "M3b {sigma:?}");
        }
    }

    // M4: [x, v, y, ẏ] (4.50)–(4.51) with u = 2 sin(0.01 t) (L1717).
    let fd = ForceDriven {
        cbm: c,
        input: Sine {
            amplitude: 2.0,
            omega: 0.01,
            phase: 0.0,
            offset: 0.0,
        },
    };
    let s4 = [0.3, -0.05, 1.2, 0.2];
    let t = 100.0;
    let u = 2.0 * (0.01f64 * t).sin();
    assert!(close(fd.applied(t, &s4), u - 5.0 * 0.3, 1e-14));
    let mut out4 = [0.0; 4];
    for sigma in BRANCHES {
        fd.f(sigma, t, &s4, &win, &mut out4);
        let (sum, _) = reference(&c, sigma, s4[0], s4[2]);
        let ff = sigma.sign() * kc * sum;
        let expect = [
            s4[1],
            (u - 5.0 * 0.3 - ff) / 2.0,
            s4[3],
            -10.0 + (ks * sum + fyb(s4[2])) / 2.0,
        ];
        for (o, e) in out4.iter().zip(expect) {
            assert!(close(*o, e, 1e-12), "M4 {sigma:?}");
        }
    }
}

/// Stick classification (4.33): with the spring force inside (F_f−, F_f+) both fields push v
/// towards 0 (attractive sliding mode); beyond F_f+ the `+` field accelerates.
#[test]
fn stick_classification() {
    let c = fig44(0.0035);
    let ss = StickSlip { cbm: c, vp: 0.1 };
    let y = c.h0 - 1.443;
    let win = Windows::locate(&c, 0.0);
    let fp = c.friction(Branch::Plus, 0.0, y);
    let fm = c.friction(Branch::Minus, 0.0, y);
    // F_f+ ≈ k̃ (h0 − y) ≈ 1.07 N (derived).
    assert!((fp - c.k_tilde() * 1.443).abs() < 0.01, "F_f+ = {fp}");
    let mut out_p = [0.0; 5];
    let mut out_m = [0.0; 5];
    for (l, sticks) in [
        (0.0, true),
        (0.9 * fp / 5.0, true),
        (0.9 * fm / 5.0, true),
        (1.1 * fp / 5.0, false),
        (1.1 * fm / 5.0, false),
    ] {
        let s = [0.0, 0.0, l, y, 0.0];
        assert_eq!(ss.sticks(0.0, &s, &win), sticks, "l = {l}");
        ss.f(Branch::Plus, 0.0, &s, &win, &mut out_p);
        ss.f(Branch::Minus, 0.0, &s, &win, &mut out_m);
        assert_eq!(out_p[1] < 0.0 && out_m[1] > 0.0, sticks);
    }
}
