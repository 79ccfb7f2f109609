//! The dynamic inverse of a multiplay: the elements driven by the output they must recreate.

use super::Multiplay;
use crate::InputDriven;

/// The dynamic inverse (2.32)–(2.33) (L778–L798; catalog M14): the multiplay elements driven by
/// `ȳ = (ū + Σ k_j x_j)/Σ k_j`, which is (2.30) solved for the input; the input `ū` is the forward
/// output `y`, the output `ȳ` recreates `u`. The elements are coupled through `ȳ`, which is
/// explicit in the state (no algebraic loop). Needs `Σ k_j ≠ 0`.
#[derive(Clone, Debug)]
pub struct DynamicInverse {
    pub model: Multiplay,
    sum_k: f64,
}

impl DynamicInverse {
    pub fn new(model: Multiplay) -> Result<Self, String> {
        let sum_k: f64 = model.k.iter().sum();
        if sum_k == 0.0 {
            return Err("the dynamic inverse (2.32) needs Σ k_j ≠ 0 (L784)".into());
        }
        Ok(Self { model, sum_k })
    }
    /// `ȳ` (2.33) from the input `ū` and the state `[x_1, x_1', …]`.
    #[inline]
    pub fn recreated_input(&self, ubar: f64, x: &[f64]) -> f64 {
        let kx: f64 = self.model.k.iter().enumerate().map(|(i, k)| k * x[2 * i]).sum();
        (ubar + kx) / self.sum_k
    }
}

impl InputDriven for DynamicInverse {
    fn dim(&self) -> usize {
        2 * self.model.len()
    }
    fn rhs(&self, ubar: f64, _du: f64, x: &[f64], dx: &mut [f64]) {
        let ybar = self.recreated_input(ubar, x);
        self.model.rhs(ybar, 0.0, x, dx)
    }
    fn output(&self, ubar: f64, _du: f64, x: &[f64]) -> f64 {
        self.recreated_input(ubar, x)
    }
}
