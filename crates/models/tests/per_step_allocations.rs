//! The per-step paths of the Prandtl–Ishlinskii operator and of the multiplay right-hand side,
//! output and Jacobian do not allocate: a counting global allocator (its own test binary; counts
//! are per thread) sees no allocation over many calls.

use fric_models::multiplay::Multiplay;
use fric_models::prandtl_ishlinskii::PrandtlIshlinskii;
use fric_models::InputDriven;

#[path = "../../solvers/tests/counting/mod.rs"]
mod counting;
use counting::allocations;

#[test]
fn pi_advance_does_not_allocate() {
    let pi = PrandtlIshlinskii::generalized(11.9609, [4.0904, 0.7774, -0.0666, -0.2686], 4.6403, -0.1909, 1.1386, 8);
    let mut st = pi.state(0.0, 0.0);
    let before = allocations();
    let mut acc = 0.0;
    for j in 0..10_000 {
        acc += pi.advance(&mut st, 5.0 * (j as f64 * 0.01).sin());
    }
    acc += pi.output(&st);
    assert_eq!(allocations(), before, "allocated in PrandtlIshlinskii::advance");
    assert!(acc.is_finite());
}

#[test]
fn multiplay_rhs_output_and_jacobian_do_not_allocate() {
    let mp = Multiplay::from_stiffness(vec![1.0, 2.0, 3.0], vec![0.2, 0.5, 0.8]);
    let mut x = mp.state_at_rest(&[0.1, -0.3, 0.6]);
    let mut dx = vec![0.0; mp.dim()];
    let mut jac = vec![0.0; mp.dim() * mp.dim()];
    let before = allocations();
    let mut acc = 0.0;
    for j in 0..10_000 {
        let u = (j as f64 * 0.01).sin();
        mp.rhs(u, 0.0, &x, &mut dx);
        assert!(mp.jacobian(u, 0.0, &x, &mut jac));
        for (xi, di) in x.iter_mut().zip(&dx) {
            *xi += 1e-3 * di;
        }
        acc += mp.output(u, 0.0, &x);
    }
    assert_eq!(allocations(), before, "allocated in the multiplay per-step paths");
    assert!(acc.is_finite());
}

/// The inertia's Jacobian assembled from Bliman & Sorine's (inertia-bliman-sorine, run on every
/// Jacobian evaluation of the implicit solvers) and its right-hand side do not allocate.
#[test]
fn inertia_rhs_and_jacobian_do_not_allocate() {
    use fric_models::bliman_sorine::BlimanSorine;
    use fric_models::inertia::Inertia;
    let m = Inertia {
        j: 0.0025,
        alpha: 0.018,
        friction: BlimanSorine {
            f1: 0.45,
            f2: 0.23,
            eps: 0.0067,
            eta: 0.28,
        },
    };
    let (mut x, mut dx, mut jac) = ([0.01, 0.3, 0.2, -0.1], [0.0; 4], [0.0; 16]);
    let before = allocations();
    let mut acc = 0.0;
    for j in 0..10_000 {
        let u = 0.3 * (j as f64 * 0.01).sin();
        m.rhs(u, 0.0, &x, &mut dx);
        assert!(m.jacobian(u, 0.0, &x, &mut jac));
        for (xi, di) in x.iter_mut().zip(&dx) {
            *xi += 1e-6 * di;
        }
        acc += jac.iter().sum::<f64>();
    }
    assert_eq!(allocations(), before, "allocated in Inertia::rhs or Inertia::jacobian");
    assert!(acc.is_finite());
}
