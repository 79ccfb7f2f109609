//! Friction and hysteresis models as pure functions and small state machines.
//!
//! This crate owns the physics: right-hand sides of the model ODEs, steady-state curves, the
//! exact rate-independent operators and the input signals that drive them. It does no I/O, knows
//! nothing about manifests, caching or plotting, and does not integrate ODEs itself (that is
//! `fric-solvers`); it only states the equations in a form a generic solver can use.
//!
//! Every model cites the equation numbers of the source it implements. One implementation per
//! model: a document that reuses a model reuses the code here.

pub mod bliman_sorine;
pub mod butterfly;
pub mod cbm;
pub mod coulomb;
pub mod cubic;
pub mod dahl;
pub mod duhem;
pub mod inertia;
pub mod linear;
pub mod lugre;
pub mod magnetostriction;
pub mod mass_spring;
pub mod maxwell_slip;
pub mod multiplay;
pub mod pid;
pub mod prandtl_ishlinskii;
pub mod rbm;
pub mod ruderman;
pub mod signal;
pub mod two_bar_linkage;

/// `sign` with `sign(0) = 0`.
#[inline]
pub fn sgn(v: f64) -> f64 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// A model driven by a prescribed input `u(t)` with state `x` and a scalar output, written in the
/// form `x' = f(x, u, u')`, `y = h(x, u, u')`. The solvers see it through an adapter that supplies
/// `u(t)` and `u'(t)` from a [`signal::Signal`].
pub trait InputDriven {
    /// Number of states.
    fn dim(&self) -> usize;
    /// `dx = f(x, u, du)`.
    fn rhs(&self, u: f64, du: f64, x: &[f64], dx: &mut [f64]);
    /// Output `y = h(x, u, du)`.
    fn output(&self, u: f64, du: f64, x: &[f64]) -> f64;
    /// Row-major Jacobian `df/dx`; return `false` when not available (the solver then uses finite
    /// differences).
    fn jacobian(&self, _u: f64, _du: f64, _x: &[f64], _jac: &mut [f64]) -> bool {
        false
    }
    /// The derivatives a state Jacobian leaves out, for a plant that drives the law by its own
    /// motion (`u = θ`, `u' = θ'`, [`inertia::Inertia`]): `∂f/∂u` into `df_du` and `∂f/∂u'`
    /// into `df_ddu` (one per state), the output's gradient `∂y/∂x` into `dy_dx`; returns
    /// `Some([∂y/∂u, ∂y/∂u'])`, or `None` when not available (the plant's Jacobian is then left
    /// to finite differences).
    fn input_jacobian(
        &self,
        _u: f64,
        _du: f64,
        _x: &[f64],
        _df_du: &mut [f64],
        _df_ddu: &mut [f64],
        _dy_dx: &mut [f64],
    ) -> Option<[f64; 2]> {
        None
    }
    /// For a single-state model that is affine in its state along a prescribed input,
    /// `x' = a(u, u') x + b(u, u')`: `Some((a, b))`. Such a model can be integrated exactly along
    /// the input from its integrating factor (no time step, no stiffness). `None` otherwise.
    fn affine(&self, _u: f64, _du: f64) -> Option<(f64, f64)> {
        None
    }
    /// Whether the state moves only with the input: both [`InputDriven::affine`] coefficients
    /// are `|u'|` times coefficients that have a limit as `u' → 0` (LuGre, Dahl γ = 1). Such a
    /// model can be integrated in the distance the input travels instead of in time
    /// (`fric_solvers::expint_path`), where its stiff coefficient is nearly constant.
    fn moves_with_input(&self) -> bool {
        false
    }
    /// The size of the state, for error control (the largest |x| the model reaches in steady
    /// motion, or 1 when no scale is known).
    fn state_scale(&self) -> f64 {
        1.0
    }
    /// The input speed below which the model's coefficients change with `|u'|` (LuGre: the
    /// Stribeck speed `v_s`, with `g(u')` within `e^{−36}` of `F_c` above `6 v_s`), or `None` for a
    /// model with no such speed (rate independent: Dahl, the semilinear Duhem model). The
    /// exponential driver splits the input's monotone pieces where `|u'| = 6 v_s`, so that the
    /// Stribeck region is a piece of its own whatever its length (its steps are also capped).
    fn speed_scale(&self) -> Option<f64> {
        None
    }
    /// The size of each state component where components differ in kind (shooting's
    /// finite-difference steps `h_j = 1e-7 · max(|x_j|, scale_j)`): [`InputDriven::state_scale`]
    /// for every one unless a model knows better (an inertia's motion states are not its law's).
    fn state_scales(&self) -> Vec<f64> {
        vec![self.state_scale(); self.dim()]
    }
    /// The edges of a right-hand side that jumps on surfaces in the state ([`Edges`]), or `None`
    /// (the default) for a right-hand side that is smooth between the input's kinks.
    fn edges(&self) -> Option<&dyn Edges> {
        None
    }
}

/// A driven model whose right-hand side jumps where the state reaches an edge, and which stays
/// on that edge while the input keeps its direction: each element of the Maxwell-slip model
/// (thesis (1.20)) sticks until `u − x_i` reaches `±Δ_i`, then slides with the input. An embedded
/// error estimate assumes a smooth right-hand side, so a step across such a jump is not error
/// controlled (it carried duhem-paper Fig 6's elements up to 6.15e-8 N past their bound). The
/// driver (`fric-experiments`' `drive`) therefore integrates [`Edges::rhs_held`], smooth with the
/// held edges fixed, locates each edge as a terminal event ([`Edges::edge_values`] rising through
/// zero), and restarts there after [`Edges::settle`] has put the element on its edge. Between
/// two kinks of the input (where the driver restarts anyway) its direction `s` is constant.
pub trait Edges {
    /// Number of edges (at most one reachable per element in a given input direction).
    fn n_edges(&self) -> usize;
    /// At a restart with the input moving in direction `s` (+1, −1, or 0 while it holds still):
    /// hold every edge the state has reached (`held[i] = true`; a held edge stays held) and put
    /// the state of each held edge exactly on it.
    fn settle(&self, u: f64, s: f64, x: &mut [f64], held: &mut [bool]);
    /// The right-hand side with the edges `held` held (smooth in `x` and `t` for fixed `held`).
    fn rhs_held(&self, u: f64, du: f64, x: &[f64], held: &[bool], dx: &mut [f64]);
    /// The event functions: `g_i` rises through zero where edge `i` is reached (negative for a
    /// held edge).
    fn edge_values(&self, u: f64, s: f64, x: &[f64], held: &[bool], g: &mut [f64]);
}

/// A friction law whose parameters switch on the sign of the velocity, as in the asymmetric
/// models of report §3.7 (L1215) and Tables 5.3–5.6, 5.12: `minus` for `u' < 0`, `plus` for
/// `u' ≥ 0`. The state dimension is the law's.
#[derive(Clone, Copy, Debug)]
pub struct BySign<M> {
    pub minus: M,
    pub plus: M,
}

impl<M: InputDriven> BySign<M> {
    fn side(&self, du: f64) -> &M {
        if du < 0.0 {
            &self.minus
        } else {
            &self.plus
        }
    }
}

impl<M: InputDriven> InputDriven for BySign<M> {
    fn dim(&self) -> usize {
        self.plus.dim()
    }
    fn rhs(&self, u: f64, du: f64, x: &[f64], dx: &mut [f64]) {
        self.side(du).rhs(u, du, x, dx)
    }
    fn output(&self, u: f64, du: f64, x: &[f64]) -> f64 {
        self.side(du).output(u, du, x)
    }
    fn jacobian(&self, u: f64, du: f64, x: &[f64], j: &mut [f64]) -> bool {
        self.side(du).jacobian(u, du, x, j)
    }
    fn input_jacobian(
        &self,
        u: f64,
        du: f64,
        x: &[f64],
        df_du: &mut [f64],
        df_ddu: &mut [f64],
        dy_dx: &mut [f64],
    ) -> Option<[f64; 2]> {
        self.side(du).input_jacobian(u, du, x, df_du, df_ddu, dy_dx)
    }
    fn affine(&self, u: f64, du: f64) -> Option<(f64, f64)> {
        self.side(du).affine(u, du)
    }
    fn moves_with_input(&self) -> bool {
        self.minus.moves_with_input() && self.plus.moves_with_input()
    }
    fn state_scale(&self) -> f64 {
        self.minus.state_scale().max(self.plus.state_scale())
    }
    /// The smaller of the two sides' (either side's, when only one has one).
    fn speed_scale(&self) -> Option<f64> {
        match (self.minus.speed_scale(), self.plus.speed_scale()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}
