//! [`WithQuadratures`] forwards every [`HybridSystem`] method: by name (the trait's methods, read
//! from its source, are the wrapper's) and by value (a probe system overriding every method with
//! a value of its own, compared with the wrapper on each).

use super::{Quadratures, WithQuadratures};
use crate::hybrid::HybridSystem;
use std::collections::BTreeSet;

/// The names of the `fn`s in the block of `source` opened by the line containing `opening`
/// and closed by the first line that is exactly `}`.
fn fn_names(source: &str, opening: &str) -> BTreeSet<String> {
    let start = source.find(opening).unwrap_or_else(|| panic!("no `{opening}`"));
    let block = &source[start..];
    let end = block.find("\n}\n").expect("the block closes");
    block[..end]
        .split("fn ")
        .skip(1)
        .map(|s| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect())
        .collect()
}

/// A method added to the trait later cannot be dropped silently: the wrapper's impl names
/// exactly the trait's methods.
#[test]
fn forwards_every_trait_method() {
    let trait_fns = fn_names(include_str!("../../hybrid.rs"), "pub trait HybridSystem {");
    let wrapper_fns = fn_names(
        include_str!("../quadratures.rs"),
        "HybridSystem for WithQuadratures<S, Q> {",
    );
    assert!(trait_fns.len() >= 10, "{trait_fns:?}");
    assert_eq!(trait_fns, wrapper_fns, "trait methods vs the wrapper's");
}

/// A system whose every method returns a value of its own (no trait default in use).
struct Probe;

impl HybridSystem for Probe {
    type Mode = u8;
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, mode: u8, t: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = x[1] + t;
        dx[1] = -x[0] * f64::from(mode);
    }
    fn n_guards(&self, mode: u8) -> usize {
        3 + usize::from(mode)
    }
    fn guards(&self, mode: u8, t: f64, x: &[f64], g: &mut [f64]) {
        for (i, gi) in g.iter_mut().enumerate() {
            *gi = x[0] - t * i as f64 + f64::from(mode);
        }
    }
    fn jump(&self, mode: u8, guard: usize, t: f64, x: &mut [f64]) -> u8 {
        x[1] = -0.5 * x[1] + t;
        mode + guard as u8 + 1
    }
    fn guards_fire_from_zero(&self) -> bool {
        true
    }
    fn guard_rates(&self) -> bool {
        true
    }
    fn guard_rate(&self, mode: u8, guard: usize, t: f64, x: &[f64], f: &[f64]) -> Option<f64> {
        Some(f[0] * x[1] - t * guard as f64 + f64::from(mode))
    }
    fn n_quadratures(&self) -> usize {
        1
    }
    fn integrands(&self, mode: u8, t: f64, x: &[f64], q: &mut [f64]) {
        q[0] = x[0] * x[0] + t * f64::from(mode);
    }
}

/// Two integrals appended: `x₁` and `mode · t`.
struct Two;

impl Quadratures<u8> for Two {
    fn count(&self) -> usize {
        2
    }
    fn integrands(&self, mode: u8, t: f64, x: &[f64], q: &mut [f64]) {
        q[0] = x[1];
        q[1] = f64::from(mode) * t;
    }
}

/// Every method of the wrapper equals the bare system's (bitwise), the quadratures excepted,
/// which are the bare system's followed by the appended ones.
#[test]
fn agrees_with_the_bare_system_on_every_method() {
    let bare = Probe;
    let wrapped = WithQuadratures::new(Probe, Two);
    let (mode, t, x) = (2u8, 0.7, [0.3, -1.1]);
    assert_eq!(wrapped.dim(), bare.dim());
    let (mut a, mut b) = ([0.0; 2], [0.0; 2]);
    wrapped.rhs(mode, t, &x, &mut a);
    bare.rhs(mode, t, &x, &mut b);
    assert_eq!(a, b, "rhs");
    assert_eq!(wrapped.n_guards(mode), bare.n_guards(mode));
    let (mut ga, mut gb) = (vec![0.0; bare.n_guards(mode)], vec![0.0; bare.n_guards(mode)]);
    wrapped.guards(mode, t, &x, &mut ga);
    bare.guards(mode, t, &x, &mut gb);
    assert_eq!(ga, gb, "guards");
    let (mut xa, mut xb) = (x, x);
    assert_eq!(
        wrapped.jump(mode, 1, t, &mut xa),
        bare.jump(mode, 1, t, &mut xb),
        "jump mode"
    );
    assert_eq!(xa, xb, "jump reset");
    assert_eq!(wrapped.guards_fire_from_zero(), bare.guards_fire_from_zero());
    assert_eq!(wrapped.guard_rates(), bare.guard_rates());
    for i in 0..bare.n_guards(mode) {
        assert_eq!(
            wrapped.guard_rate(mode, i, t, &x, &b),
            bare.guard_rate(mode, i, t, &x, &b),
            "guard_rate {i}"
        );
    }
    assert_eq!(wrapped.n_quadratures(), bare.n_quadratures() + 2);
    let mut q = [0.0; 3];
    wrapped.integrands(mode, t, &x, &mut q);
    let mut own = [0.0; 1];
    bare.integrands(mode, t, &x, &mut own);
    assert_eq!(q, [own[0], x[1], f64::from(mode) * t], "integrands");
}

/// Simulated through the driver, the wrapper gives the bare system's trajectory, switches and
/// integrals, with the appended integrals after them.
#[test]
fn simulates_as_the_bare_system() {
    use crate::hybrid::simulate;
    use crate::{Method, Tolerances};
    /// A bouncing-free toy: `ẋ = 1` in one mode, one guard `x − 1` that resets `x` to 0.
    struct Ramp;
    impl HybridSystem for Ramp {
        type Mode = u8;
        fn dim(&self) -> usize {
            1
        }
        fn rhs(&self, _: u8, _: f64, _: &[f64], dx: &mut [f64]) {
            dx[0] = 1.0;
        }
        fn n_guards(&self, _: u8) -> usize {
            1
        }
        fn guards(&self, _: u8, _: f64, x: &[f64], g: &mut [f64]) {
            g[0] = x[0] - 1.0;
        }
        fn jump(&self, mode: u8, _: usize, _: f64, x: &mut [f64]) -> u8 {
            x[0] = 0.0;
            mode + 1
        }
    }
    struct Area;
    impl Quadratures<u8> for Area {
        fn count(&self) -> usize {
            1
        }
        fn integrands(&self, _: u8, _: f64, x: &[f64], q: &mut [f64]) {
            q[0] = x[0];
        }
    }
    let tol = Tolerances::default();
    let run = |sys: &dyn Fn(&mut Vec<Vec<f64>>) -> super::super::HybridOutcome<u8>| {
        let mut rows = Vec::new();
        let o = sys(&mut rows);
        (o, rows)
    };
    let save = [0.5, 1.5, 2.5];
    let (bare, rows_b) = run(&|rows| {
        simulate(
            &Ramp,
            0,
            Method::Dopri5,
            &tol,
            0.0,
            &[0.0],
            3.2,
            &save,
            10,
            &mut |_, _, x| rows.push(x.to_vec()),
        )
        .expect("bare")
    });
    let (wrapped, rows_w) = run(&|rows| {
        simulate(
            &WithQuadratures::new(Ramp, Area),
            0,
            Method::Dopri5,
            &tol,
            0.0,
            &[0.0],
            3.2,
            &save,
            10,
            &mut |_, _, x| rows.push(x.to_vec()),
        )
        .expect("wrapped")
    });
    assert_eq!(bare.switches, wrapped.switches);
    assert_eq!(bare.x, wrapped.x);
    assert_eq!(rows_b.len(), rows_w.len());
    for (b, w) in rows_b.iter().zip(&rows_w) {
        assert_eq!(b[0], w[0]);
    }
    // Three ramps of area ½ and a last one to 0.2 (area 0.02).
    assert!((wrapped.quadrature[0] - 1.52).abs() < 1e-9, "{:?}", wrapped.quadrature);
}
