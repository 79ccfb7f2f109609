//! The methods a run may be computed by (`sim.method`), as an enum resolved when the manifest is
//! loaded: an unknown name is a load error at its line with the allowed list, and a method the
//! run's system does not take is one too (`fric_experiments::resolve`). The enum names methods
//! only; what each does lives with the systems (`fric_experiments::drive` maps the integrating
//! ones onto `fric_solvers::Method`), so this crate stays free of numerics.
//!
//! Adding a method is one line in the [`methods!`] list below (name, variant, doc), then its
//! behaviour where the systems that take it are written.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Declares [`Method`] from one line per method: `Variant = "name": "doc"`.
macro_rules! methods {
    ($($variant:ident = $name:literal : $doc:literal,)*) => {
        /// How a run is computed (`sim.method`); each system lists the ones it takes, its
        /// first being its default.
        #[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, Hash)]
        pub enum Method {
            $(#[doc = $doc] #[serde(rename = $name)] $variant,)*
        }

        impl Method {
            /// Every method, in declaration order.
            pub const ALL: &'static [Method] = &[$(Method::$variant,)*];

            /// The name manifests write.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Method::$variant => $name,)*
                }
            }

            /// What the method is.
            pub fn doc(self) -> &'static str {
                match self {
                    $(Method::$variant => $doc,)*
                }
            }
        }
    };
}

methods! {
    Dopri5 = "dopri5": "explicit Dormand–Prince 5(4), adaptive step",
    Dop853 = "dop853": "explicit Dormand–Prince 8(5,3), adaptive step",
    Radau5 = "radau5": "implicit Radau IIA of order 5, for stiff systems",
    Rosenbrock23 = "rosenbrock23": "linearly implicit Rosenbrock 2(3), for stiff systems",
    Dop853Radau5 = "dop853-radau5": "dop853, switching to radau5 where the steps show stiffness",
    Exponential = "exponential": "exponential collocation along the input for a single-state model affine in its state (4 Gauss nodes, φ-functions, error control; step set by the input, not the stiffness)",
    IntegratingFactor = "integrating-factor": "exact along the input from the integrating factor of a single-state model affine in its state (adaptive quadrature, no time step)",
    Exact = "exact": "the rate-independent operator evaluated exactly on the input samples",
    Ode = "ode": "the rate-independent operator integrated in time as an ODE (dopri5)",
    Analytic = "analytic": "a closed-form evaluation, no integration",
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The names of `methods`, comma-separated (an error's allowed list, `schema`).
pub fn method_names(methods: &[Method]) -> String {
    methods.iter().map(|m| m.as_str()).collect::<Vec<_>>().join(", ")
}

impl std::str::FromStr for Method {
    type Err = String;
    /// A method by the name manifests write; the error lists the allowed names.
    fn from_str(s: &str) -> Result<Self, String> {
        Method::ALL
            .iter()
            .copied()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| format!("unknown method `{s}` (methods: {})", method_names(Method::ALL)))
    }
}
