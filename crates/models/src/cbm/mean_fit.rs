//! Mean height and mean friction fits (4.68)–(4.71).

use super::Branch;

/// Shape of the mean-height fit: `sech` (4.68) or Gaussian (4.70).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    Sech,
    Gauss,
}

impl Profile {
    /// `sech(s)` or `e^{−s²}`.
    pub fn value(self, s: f64) -> f64 {
        match self {
            Profile::Sech => 1.0 / s.cosh(),
            Profile::Gauss => (-s * s).exp(),
        }
    }
}

/// Mean height and mean friction fits (4.68)–(4.71), L1819–L1837:
/// `ȳ(v) = y1 − y2 φ(v/v_s)`, `F̄_f(v) = sign(v) k̃ (h0 − ȳ(v))` with `sign(0) = +1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanFit {
    pub y1: f64,
    pub y2: f64,
    pub vs: f64,
    pub k_tilde: f64,
    pub h0: f64,
    pub profile: Profile,
}

impl MeanFit {
    pub fn height(&self, v: f64) -> f64 {
        self.y1 - self.y2 * self.profile.value(v / self.vs)
    }
    pub fn friction(&self, v: f64) -> f64 {
        Branch::of_velocity(v).sign() * self.k_tilde * (self.h0 - self.height(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_fit_values() {
        // Derived values of the catalog (Fig 4.10: 1.155 N, 0.93 N; Fig 4.11 text set: 1.2 N).
        let f = MeanFit {
            y1: 0.4,
            y2: 0.3,
            vs: 0.6 / (2.0 * std::f64::consts::PI),
            k_tilde: 0.75,
            h0: 1.64,
            profile: Profile::Sech,
        };
        assert!((f.height(0.0) - 0.1).abs() < 1e-15);
        assert!((f.friction(0.0) - 1.155).abs() < 1e-12);
        assert!((f.friction(-1e3) + 0.93).abs() < 1e-12);
        let g = MeanFit {
            vs: 0.1,
            h0: 1.7,
            profile: Profile::Gauss,
            ..f
        };
        assert!((g.friction(0.0) - 1.2).abs() < 1e-12);
        assert!((g.height(0.1) - (0.4 - 0.3 * (-1f64).exp())).abs() < 1e-15);
    }
}
