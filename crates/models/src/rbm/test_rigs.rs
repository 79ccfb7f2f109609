//! The bristle rows of thesis Figs 3.5 and 3.3, shared by the unit tests of this module.

use super::Bristles;

/// The Fig 3.5 bristles (L958): d0/Δ = 1.99.
pub(super) fn fig35() -> Bristles {
    Bristles {
        kappa: 0.5,
        h: 0.098,
        lb: 0.1,
        delta: 0.01,
        d: 1.0,
    }
}

pub(super) fn fig33() -> Bristles {
    Bristles {
        kappa: 0.1,
        h: 0.098,
        lb: 0.1,
        delta: 0.002,
        d: 1.0,
    }
}
