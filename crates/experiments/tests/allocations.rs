//! The exponential driver allocates nothing per segment: a counting global allocator (its own
//! test binary, so that it sees only this file's test; counts are per thread) shows no heap
//! allocation over 40 monotone segments of a LuGre run once the caller's buffer of pieces holds
//! a segment's (each split at the Stribeck speed twice), and over 40 of the semilinear Duhem model;
//! nor does the closed-form periodic pass with its Fourier quadrature on every step.

mod common;

use fric_experiments::exponential_segment;
use fric_models::lugre::LuGre;
use fric_models::InputDriven;
use fric_solvers::expint::{ExpStats, ExpTolerance};
use fric_solvers::expquad::Relaxation;

#[path = "../../solvers/tests/counting/mod.rs"]
mod counting;
use counting::allocations;

#[test]
fn a_segment_allocates_nothing_once_the_pieces_buffer_is_grown() {
    // Thesis Fig 1.11's LuGre under u = sin t: segments of π between reversals.
    let m = LuGre {
        sigma0: 1e5,
        sigma1: 316.0,
        sigma2: 0.4,
        fc: 1.0,
        fs: 1.5,
        vs: 0.1,
    };
    let (u, du) = (|t: f64| t.sin(), |t: f64| t.cos());
    let coef = |t: f64| m.affine(u(t), du(t)).expect("LuGre is affine along the input");
    let scheme = Relaxation::<4>::new();
    let tol = ExpTolerance {
        abs: 1e-10 * m.state_scale(),
        z_scale: m.state_scale(),
        hmax: 2.0 * std::f64::consts::PI / 100.0,
    };
    let (mut stats, mut pieces, mut z) = (ExpStats::default(), Vec::new(), 0.0);
    let half = std::f64::consts::PI;
    let segment = |k: usize, z: f64, stats: &mut ExpStats, pieces: &mut Vec<f64>, saves: &mut usize| {
        let (a, b) = ((k as f64 - 0.5) * half, (k as f64 + 0.5) * half);
        let at = [a + 0.25 * half, a + 0.5 * half, b];
        exponential_segment(
            &scheme,
            &coef,
            &du,
            m.speed_scale(),
            (a, z, b),
            &at,
            tol,
            stats,
            pieces,
            &mut |_, _| *saves += 1,
        )
        .unwrap()
    };
    let mut saves = 0;
    z = segment(1, z, &mut stats, &mut pieces, &mut saves);
    assert_eq!(
        pieces.len(),
        4,
        "the segment's ends and two Stribeck splits: {pieces:?}"
    );
    let before = allocations();
    for k in 2..42 {
        z = segment(k, z, &mut stats, &mut pieces, &mut saves);
    }
    assert_eq!(allocations() - before, 0, "allocations over 40 segments");
    assert_eq!(saves, 3 * 41);
    assert!(z.is_finite() && stats.steps > 40, "{z} {stats:?}");
}

/// The same for the semilinear Duhem model (`semilinear-duhem`'s default): no speed scale, so
/// one piece per segment; its rising branch grows (`a₊ > 0`), so half the steps are the
/// quadrature's fallback, the collocation in time.
#[test]
fn a_semilinear_duhem_segment_allocates_nothing() {
    let m = fric_models::duhem::Semilinear {
        a_plus: 0.5,
        b_plus: 0.5,
        e_plus: 1.0,
        a_minus: 3.0,
        b_minus: -0.4,
        e_minus: 2.0,
        c: 1.0,
        d: 0.0,
    };
    let (u, du) = (|t: f64| 1.3 * t.sin(), |t: f64| 1.3 * t.cos());
    let coef = |t: f64| m.affine(u(t), du(t)).expect("affine along the input");
    let tol = ExpTolerance {
        abs: 1e-11 * m.state_scale(),
        z_scale: m.state_scale(),
        hmax: 2.0 * std::f64::consts::PI / 100.0,
    };
    let (scheme, half) = (Relaxation::<4>::new(), std::f64::consts::PI);
    let (mut stats, mut pieces, mut z, mut saves) = (ExpStats::default(), Vec::new(), 0.0, 0);
    let mut segment = |k: usize, z: f64, stats: &mut ExpStats, pieces: &mut Vec<f64>| {
        let (a, b) = ((k as f64 - 0.5) * half, (k as f64 + 0.5) * half);
        let at = [a + 0.5 * half, b];
        let s = (a, z, b);
        exponential_segment(
            &scheme,
            &coef,
            &du,
            m.speed_scale(),
            s,
            &at,
            tol,
            stats,
            pieces,
            &mut |_, _| saves += 1,
        )
        .unwrap()
    };
    z = segment(1, z, &mut stats, &mut pieces);
    let before = allocations();
    for k in 2..42 {
        z = segment(k, z, &mut stats, &mut pieces);
    }
    assert_eq!(allocations() - before, 0, "allocations over 40 segments");
    assert_eq!(pieces.len(), 2, "one piece per segment: {pieces:?}");
    assert!(z.is_finite() && stats.steps > 40, "{z} {stats:?}");
}

/// The closed-form periodic pass (`fric_solvers::expint_periodic`) with the Fourier integrals of
/// the describing function's approach 1 taken on every step by adaptive Gauss–Kronrod on its dense
/// output (`fric_solvers::kronrod`, as `describing/exponential.rs` does): no allocation over a
/// whole period once the breaks are known.
#[test]
fn a_periodic_pass_with_its_fourier_quadrature_allocates_nothing() {
    use fric_solvers::expint_periodic::solve_periodic;
    use fric_solvers::kronrod::{integrate, KronrodStats};
    // Report Table 5.10's LuGre driven by the velocity a sin ωt.
    let m = common::table_5_10_model();
    let (a, w) = (1.0, 1.0);
    let period = 2.0 * std::f64::consts::PI / w;
    let coef = |t: f64| m.affine(a / w * (1.0 - (w * t).cos()), a * (w * t).sin()).unwrap();
    let tol = ExpTolerance {
        abs: 1e-10 * m.state_scale(),
        z_scale: m.state_scale(),
        hmax: period / 100.0,
    };
    let (scheme, breaks) = (Relaxation::<4>::new(), [0.0, 0.5 * period, period]);
    let (mut stats, mut quad, mut acc) = (ExpStats::default(), KronrodStats::default(), [0.0; 4]);
    let before = allocations();
    let per = solve_periodic(&scheme, &coef, &breaks, tol, &mut stats, &mut |st| {
        let q = integrate(
            &mut |th: f64| {
                let t = st.t + th * st.h;
                let (y, g) = st.at(th);
                let (s, c) = (w * t).sin_cos();
                let f = m.output(0.0, a * s, &[y]);
                [f * s, f * c, g * s, g * c]
            },
            [1e-12; 4],
            &mut quad,
        )
        .unwrap();
        for (x, v) in acc.iter_mut().zip(q) {
            *x += st.h * v;
        }
    })
    .unwrap();
    assert_eq!(allocations() - before, 0, "allocations over a periodic pass");
    assert!(
        stats.steps >= 100 && quad.evals >= 15 * stats.steps,
        "{stats:?} {quad:?}"
    );
    assert!(
        per.z.is_finite() && acc.iter().all(|x| x.is_finite()),
        "{per:?} {acc:?}"
    );
}
