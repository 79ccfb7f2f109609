//! Unit tests of shooting and of the Floquet analysis.

use super::floquet::radius;
use super::*;
use crate::analysis::until_periodic;

/// Exact period map of a lightly damped forced oscillator x'' + 2ζω x' + ω² x = cos t over
/// one period 2π, as an affine map (computed once by a tiny RK4 with many steps).
fn oscillator_map(zeta: f64) -> impl FnMut(&mut [f64]) -> Result<(), String> {
    move |x: &mut [f64]| {
        let (w, steps) = (3.0f64, 20_000);
        let h = 2.0 * std::f64::consts::PI / steps as f64;
        let f = |t: f64, s: [f64; 2]| [s[1], t.cos() - 2.0 * zeta * w * s[1] - w * w * s[0]];
        let mut s = [x[0], x[1]];
        for k in 0..steps {
            let t = k as f64 * h;
            let k1 = f(t, s);
            let k2 = f(t + h / 2.0, [s[0] + h / 2.0 * k1[0], s[1] + h / 2.0 * k1[1]]);
            let k3 = f(t + h / 2.0, [s[0] + h / 2.0 * k2[0], s[1] + h / 2.0 * k2[1]]);
            let k4 = f(t + h, [s[0] + h * k3[0], s[1] + h * k3[1]]);
            for i in 0..2 {
                s[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
            }
        }
        x.copy_from_slice(&s);
        Ok(())
    }
}

#[test]
fn shooting_finds_the_steady_state_of_a_lightly_damped_oscillator_in_few_maps() {
    // Steady state of x'' + 2ζω x' + ω² x = cos t: x = A cos t + B sin t with
    // A = (ω² − 1)/D, B = 2ζω/D, D = (ω² − 1)² + (2ζω)².
    let zeta = 0.002;
    let w = 3.0f64;
    let d = (w * w - 1.0).powi(2) + (2.0 * zeta * w).powi(2);
    let exact = [(w * w - 1.0) / d, 2.0 * zeta * w / d];
    let mut x = [0.0, 0.0];
    let s = shoot(&mut x, &[1.0, 1.0], 1e-11, 50, oscillator_map(zeta)).unwrap();
    assert!(s.converged, "{s:?}");
    assert!(s.maps <= 12, "{s:?}");
    assert!(
        (x[0] - exact[0]).abs() < 1e-9 && (x[1] - exact[1]).abs() < 1e-9,
        "{x:?} vs {exact:?}"
    );
    // Plain iteration: the slowest mode decays by e^{−2π ζ ω} ≈ 0.963 per period, so the
    // same residual needs hundreds of periods.
    let mut y = [0.0, 0.0];
    let per = until_periodic(&mut y, 1e-11, 2000, |_, v| oscillator_map(zeta)(v)).unwrap();
    assert!(per.converged && per.periods > 400, "{per:?}");
    assert!((y[0] - exact[0]).abs() < 1e-8, "{y:?}");
}

#[test]
fn broyden_updates_save_period_maps_on_a_smooth_nonlinear_map() {
    // A smooth contraction in three states with coupling: P(x) = c + 0.6 sin(A x).
    let map = |v: &mut [f64]| {
        let a = [[0.9, 0.3, -0.2], [0.1, 0.8, 0.4], [-0.3, 0.2, 0.7]];
        let c = [0.5, -0.2, 0.1];
        let y: Vec<f64> = (0..3)
            .map(|i| c[i] + 0.6 * (0..3).map(|j| a[i][j] * v[j]).sum::<f64>().sin())
            .collect();
        v.copy_from_slice(&y);
        Ok::<(), ()>(())
    };
    let mut x = [0.0; 3];
    let s = shoot(&mut x, &[1.0; 3], 1e-12, 100, map).unwrap();
    assert!(s.converged, "{s:?}");
    // The fixed point, by the map itself.
    let mut px = x;
    map(&mut px).unwrap();
    for i in 0..3 {
        assert!((px[i] - x[i]).abs() < 1e-11, "{x:?} vs {px:?}");
    }
    // Newton with a fresh finite-difference Jacobian at every step needs 2 + 4k maps for k
    // steps (about 4 steps here: 18 maps); one Jacobian and Broyden updates need far fewer.
    assert!(s.maps <= 14, "{s:?}");
}

#[test]
fn the_spectral_radius_of_rotations_and_non_normal_matrices() {
    // A damped rotation: eigenvalues 0.9 e^{±iπ/3}, so ρ = 0.9. A^(2^20) = 0.9^(2^20) R(4π/3)
    // (2^20 ≡ 4 mod 6), whose largest entry is 0.9^(2^20) √3/2, so the bound is exactly
    // 0.9 (√3/2)^(2^-20) (derived): 1.4e-7 relative below ρ.
    let (c, s) = ((std::f64::consts::PI / 3.0).cos(), (std::f64::consts::PI / 3.0).sin());
    let r = radius(&[0.9 * c, -0.9 * s, 0.9 * s, 0.9 * c], 2);
    let exact = 0.9 * (3f64.sqrt() / 2.0).powf(1.0 / f64::from(1u32 << 20));
    assert!(
        (r - exact).abs() < 1e-12 && (r - 0.9).abs() < 2e-7 * 0.9,
        "{r} vs {exact}"
    );
    // Non-normal: ρ = 0.95 with a large off-diagonal (‖A‖ = 100): the bound stays within
    // (100/0.95)^(2^-20) of ρ.
    let r = radius(&[0.95, 100.0, 0.0, 0.5], 2);
    assert!(r > 0.95 && r < 0.95 * 1.00001, "{r}");
    // Unstable: ρ = 1.03.
    let r = radius(&[1.03, 0.0, 0.2, 0.1], 2);
    assert!((r - 1.03).abs() < 1e-5, "{r}");
    // The map form: P(x) = A x + b is affine, so M = A exactly.
    let px = [0.5 + 0.4 + 1.0, -0.3 + 1.0];
    let (rho, maps) = spectral_radius(&[1.0, 2.0], &px, &[1.0, 1.0], |v: &mut [f64]| {
        let y = [0.5 * v[0] + 0.2 * v[1] + 1.0, -0.3 * v[0] + 0.5 * v[1]];
        v.copy_from_slice(&y);
        Ok::<(), ()>(())
    })
    .unwrap();
    // Eigenvalues 0.5 ± i sqrt(0.06): ρ = sqrt(0.25 + 0.06).
    assert_eq!(maps, 2);
    assert!((rho - 0.31f64.sqrt()).abs() < 1e-6, "{rho}");
}

/// `V diag(d) V⁻¹` for `V = [[1, 0, 1], [1, 1, 0], [0, 1, 1]]` (`V⁻¹ = [[1, 1, −1], [−1, 1, 1],
/// [1, −1, 1]] / 2`).
fn similar(d: [f64; 3]) -> Floquet {
    let v = [[1.0, 0.0, 1.0], [1.0, 1.0, 0.0], [0.0, 1.0, 1.0]];
    let vi = [[0.5, 0.5, -0.5], [-0.5, 0.5, 0.5], [0.5, -0.5, 0.5]];
    let mut m = vec![0.0; 9];
    for i in 0..3 {
        for j in 0..3 {
            m[i * 3 + j] = (0..3).map(|k| v[i][k] * d[k] * vi[k][j]).sum();
        }
    }
    Floquet {
        radius: radius(&m, 3),
        monodromy: m,
        maps: 3,
    }
}

#[test]
fn the_dominant_multiplier_and_its_eigenvectors() {
    // Multipliers 1.1, 0.2, −0.05: the right eigenvector is V's first column (1, 1, 0), the
    // left one V⁻¹'s first row (1, 1, −1)/2, and their product is 1 (derived).
    let f = similar([1.1, 0.2, -0.05]);
    assert!((f.radius - 1.1).abs() < 1e-5, "{f:?}");
    let d = f.dominant().expect("a real, separated dominant multiplier");
    assert!((d.mu - 1.1).abs() < 1e-11, "{d:?}");
    for (got, want) in d.right.iter().zip([1.0, 1.0, 0.0]) {
        assert!((got - want).abs() < 1e-10, "{d:?}");
    }
    for (got, want) in d.left.iter().zip([0.5, 0.5, -0.5]) {
        assert!((got - want).abs() < 1e-10, "{d:?}");
    }
    // A negative dominant multiplier, a complex pair, and two of nearly the same modulus
    // (the power iteration converges as 0.99^k): none is a direction to follow.
    assert_eq!(similar([-1.1, 0.2, 0.05]).dominant(), None);
    assert_eq!(similar([1.1, -1.09, 0.05]).dominant(), None);
    let (c, s) = (1.1 * 0.3f64.cos(), 1.1 * 0.3f64.sin());
    let rot = Floquet {
        monodromy: vec![c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 0.5],
        radius: 1.1,
        maps: 3,
    };
    assert_eq!(rot.dominant(), None);
}

/// `P(x) = x/2 + 1` (fixed point 2, multiplier 1/2) made rough at the level `eps`, as an
/// integration error near a grazing event makes a period map: a deterministic but
/// discontinuous error in `[-eps, eps]` (a hash of `x`'s bits), so no state has a residual
/// far below `eps`.
fn rough(eps: f64) -> impl FnMut(&mut [f64]) -> Result<(), ()> {
    move |v: &mut [f64]| {
        // splitmix64's finaliser.
        let mut z = v[0].to_bits().wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let noise = 2.0 * (z >> 11) as f64 / (1u64 << 53) as f64 - 1.0;
        v[0] = 0.5 * v[0] + 1.0 + eps * noise;
        Ok(())
    }
}

#[test]
fn on_a_rough_map_the_iteration_stops_at_its_floor_with_the_best_iterate() {
    // No state has a residual near 1e-14; Newton gets to the roughness floor (about 1e-8),
    // and iterating P wanders there. The shooting must stop after STALL maps without a new
    // lowest residual, not spend its whole budget, and return P of the best iterate with
    // that iterate's residual.
    let mut x = [0.0];
    let s = shoot(&mut x, &[1.0], 1e-14, 500, rough(1e-8)).unwrap();
    assert!(!s.converged, "{s:?}");
    assert!(s.maps < 100, "{s:?}");
    assert!(s.residual < 1e-8, "{s:?}");
    // x = P(best): the residual is that of best, and P(best) lies within it of best.
    assert!((x[0] - 2.0).abs() < 3e-8 * 3.0, "{x:?}");
}

#[test]
fn shoot_attracting_hands_a_map_rough_at_its_residual_to_the_iteration() {
    // Rough at 1e-4: a finite-difference Jacobian (steps of 1e-7) is noise, and Newton's
    // steps only wander at the floor. Once the residual has not halved since the last fresh
    // Jacobian, Newton must stop (a second fresh Jacobian at most) and the plain iteration
    // end the shot at its own stall, with the best iterate, well inside the budget.
    for start in [2.0 + 1e-3, 0.0, 5.0] {
        let mut x = [start];
        let s = shoot_attracting(&mut x, &[1.0], 1e-14, 500, rough(1e-4)).unwrap();
        assert!(!s.converged && s.residual < 1e-3, "{start}: {s:?}");
        assert!(s.newton_steps <= 2 && s.maps <= 2 + 2 * 7 + 3 * STALL, "{start}: {s:?}");
    }
    // A smooth map with an unstable fixed point (multipliers about 1.52 and 0.28: plain
    // periods leave it) still converges by Newton from 0.2 away, its residual halving
    // between Jacobians.
    let mut x = [1.2, -0.8];
    let s = shoot_attracting(&mut x, &[1.0, 1.0], 1e-13, 80, |v: &mut [f64]| {
        let (d0, d1) = (v[0] - 1.0, v[1] + 1.0);
        v[0] = 1.0 + 1.5 * d0 + 0.2 * d1 + 0.5 * d0 * d0;
        v[1] = -1.0 + 0.1 * d0 + 0.3 * d1 + 0.5 * d0 * d1;
        Ok::<(), ()>(())
    })
    .unwrap();
    assert!(s.converged && s.newton_steps >= 2, "{s:?}");
    assert!((x[0] - 1.0).abs() < 1e-12 && (x[1] + 1.0).abs() < 1e-12, "{x:?}");
}

#[test]
fn shoot_keeps_to_newton_far_from_the_fixed_point() {
    // Started far from the fixed point (0.673, −3.529), damped Newton steps lower the residual
    // by less than half between Jacobians; `shoot` keeps to Newton and converges, where
    // `shoot_attracting` hands over to the iteration (and need not converge).
    let map = |v: &mut [f64]| {
        let (a, b) = (v[0], v[1]);
        v[0] = 0.9 * a + 0.3 * (b * b).sin() + 0.1;
        v[1] = -0.5 * a * a + 0.95 * b + 0.05;
        Ok::<(), ()>(())
    };
    let mut x = [0.3, -0.2];
    let s = shoot(&mut x, &[1.0, 1.0], 1e-13, 80, map).unwrap();
    assert!(s.converged && (x[0] - 0.6730133687833).abs() < 1e-9, "{s:?} {x:?}");
    let mut y = [0.3, -0.2];
    let t = shoot_attracting(&mut y, &[1.0, 1.0], 1e-13, 80, map).unwrap();
    assert!(t.newton_steps < s.newton_steps, "{t:?} against {s:?}");
}

#[test]
fn the_final_iteration_leaves_an_unstable_orbit_for_the_attractor() {
    // P(x) = x + 0.3 x (1 − x): 0 is unstable (P' = 1.3), 1 stable (P' = 0.7). From near 0
    // the residual rises for about 50 maps without a new lowest value; the iteration must
    // not take that for a rough floor, and reaches 1.
    let map = |v: &mut [f64], maps: &mut usize| {
        *maps += 1;
        v[0] += 0.3 * v[0] * (1.0 - v[0]);
        Ok::<(), ()>(())
    };
    let mut x = [1e-6];
    let mut px = x;
    let mut maps = 0;
    map(&mut px, &mut maps).unwrap();
    let r0 = residual(&x, &px);
    let res = iterate(&mut x, &mut px, r0, 1e-12, 500, &mut maps, map).unwrap();
    assert!(
        res < 1e-12 && (x[0] - 1.0).abs() < 1e-11,
        "{x:?}, residual {res}, {maps} maps"
    );
}

#[test]
fn the_multiplier_of_a_rough_map_is_not_its_roughness() {
    // At points where the shooting stalled with a residual of about 1e-7 on a map rough at
    // 1e-7, a finite-difference step of 1e-7 would see slopes of order 1 from the roughness
    // alone (multipliers anywhere in [-0.5, 1.5]); the step widened with the residual keeps
    // the multiplier at 1/2 to 1e-2.
    for k in 0..40 {
        let x = [2.0 + 3e-7 * (1.0 + k as f64 / 40.0)];
        let mut px = x;
        rough(1e-7)(&mut px).unwrap();
        assert!(residual(&x, &px) > 1e-8, "{x:?}");
        let (rho, maps) = spectral_radius(&x, &px, &[1.0], rough(1e-7)).unwrap();
        assert_eq!(maps, 1);
        assert!((rho - 0.5).abs() < 1e-2, "x = {x:?}: ρ = {rho}");
    }
}

#[test]
fn a_map_with_a_kink_converges() {
    // A contraction with a kink at 0: the first Newton step crosses it, the second lands.
    let mut x = [5.0];
    let s = shoot(&mut x, &[1.0], 1e-12, 200, |v: &mut [f64]| {
        v[0] = if v[0] > 0.0 { 0.5 * v[0] - 1.0 } else { 0.1 * v[0] - 0.4 };
        Ok::<(), ()>(())
    })
    .unwrap();
    // Fixed point: x = 0.1 x − 0.4 → x = −4/9.
    assert!(s.converged, "{s:?}");
    assert!((x[0] + 4.0 / 9.0).abs() < 1e-11, "{x:?}");
}

/// `P(x) = x/2 − 30` for `x ≥ 0`, `x/2 + 30` below: no fixed point (each branch's would lie
/// on the other side), and an attracting 2-cycle {20, −20} (derived: `x₂ = (x₂/2 − 30)/2 + 30`)
/// that the iterates approach by a factor 1/4 every two maps; its residuals are 40/21 ≈ 1.905,
/// against 0.79 at 101 (`|20.5 − 101|/102`).
fn two_cycle(v: &mut [f64]) -> Result<(), ()> {
    v[0] = if v[0] >= 0.0 {
        0.5 * v[0] - 30.0
    } else {
        0.5 * v[0] + 30.0
    };
    Ok(())
}

#[test]
fn the_final_iteration_stops_early_on_a_period_two_cycle() {
    // From 101 (the best residual, 0.789) the iterates reach the 2-cycle: 20.5, −19.75, 20.125,
    // −19.94, each within 1 % of the cycle's residual (0.019) of the one two maps before from
    // the third on. The cycle closes over its two iterates by the fourth map, and 1.905 (1 − 0.02)^39
    // = 0.87 is above 0.789, so the rest of the budget could not bring a new best: the
    // iteration stops there, with the first state's image. The stall rule alone stops after 16
    // maps without a new best (17 maps in all).
    let apply = |v: &mut [f64], maps: &mut usize| {
        *maps += 1;
        two_cycle(v)
    };
    let (mut x, mut px) = ([101.0], [101.0]);
    let mut maps = 0;
    apply(&mut px, &mut maps).unwrap();
    let r0 = residual(&x, &px);
    let res = iterate(&mut x, &mut px, r0, 1e-10, 80, &mut maps, apply).unwrap();
    assert!(
        res == r0 && x[0] == 20.5 && maps <= 6,
        "residual {res}, {maps} maps, {x:?}"
    );
}

#[test]
fn the_final_iteration_does_not_stop_on_a_slow_convergence_that_looks_periodic() {
    // P(x) = 1 − 0.995 (x − 1): the iterates alternate about the fixed point 1 and return after
    // two maps to within |μ² − 1|/|μ − 1| = 0.5 % of the residual (a closed 2-cycle by CLOSED),
    // but every map brings a new best; the iteration must go on to the tolerance (about
    // ln(1e-8)/ln(0.995) ≈ 3 700 maps from a residual of 2).
    let apply = |v: &mut [f64], maps: &mut usize| {
        *maps += 1;
        v[0] = 1.0 - 0.995 * (v[0] - 1.0);
        Ok::<(), ()>(())
    };
    let (mut x, mut px) = ([0.0], [0.0]);
    let mut maps = 0;
    apply(&mut px, &mut maps).unwrap();
    let r0 = residual(&x, &px);
    let res = iterate(&mut x, &mut px, r0, 1e-8, 10_000, &mut maps, apply).unwrap();
    assert!(res < 1e-8 && (x[0] - 1.0).abs() < 1e-8, "residual {res}, {maps} maps");
    // A rotation by 2π/3 shrinking by 0.998 a map: a 3-cycle to |μ³ − 1|/|μ − 1| ≈ 0.35 %, and
    // a residual falling by 0.998 a map, to 1e-6 in about 7 000 maps.
    let (c, s) = (
        (2.0 * std::f64::consts::PI / 3.0).cos(),
        (2.0 * std::f64::consts::PI / 3.0).sin(),
    );
    let apply = |v: &mut [f64], maps: &mut usize| {
        *maps += 1;
        let (a, b) = (v[0], v[1]);
        v[0] = 0.998 * (c * a - s * b);
        v[1] = 0.998 * (s * a + c * b);
        Ok::<(), ()>(())
    };
    let (mut x, mut px) = ([0.5, 0.0], [0.5, 0.0]);
    let mut maps = 0;
    apply(&mut px, &mut maps).unwrap();
    let r0 = residual(&x, &px);
    let res = iterate(&mut x, &mut px, r0, 1e-6, 10_000, &mut maps, apply).unwrap();
    assert!(res < 1e-6, "residual {res}, {maps} maps");
}
