//! `lugre-linearisation`: the LuGre model linearised at rest, report (3.10)–(3.12), on a mass:
//! `m x'' + (σ1 + α2) x' + σ0 x = 0`, with the pre-sliding displacement of Property 3.1 and the
//! gain of Property 3.5 — the numbers the report derives from its parameter tables.

use crate::input::table;
use crate::system::{nonneg, params, positive, Column, System, NONE};
use crate::{RunData, RunRequest};

params! {
    pub struct Params {
        mass: f64 = positive("kg-m^2", "mass or inertia m (J for the servo)"),
        sigma0: f64 = positive("N-m/rad", "bristle stiffness σ0"),
        sigma1: f64 = nonneg("N-m-s/rad", "bristle damping σ1"),
        alpha2: f64 = nonneg("N-m-s/rad", "viscous coefficient α2").default(0.0),
        alpha0: f64 = nonneg("N-m", "Coulomb level α0 (for Properties 3.1 and 3.5; 0: not given)").default(0.0),
        alpha1: f64 = nonneg("N-m", "stiction excess α1").default(0.0),
    }
}

pub struct LuGreLinearisation;

impl System for LuGreLinearisation {
    const NAME: &'static str = "lugre-linearisation";
    const DOC: &'static str = "LuGre linearised at v = 0, z = 0 on a mass, report (3.10)-(3.12): m x'' + (sigma1 + alpha2) x' + sigma0 x = 0. Info: omega_n = sqrt(sigma0/m) (3.11), zeta = (sigma1 + alpha2)/(2 sqrt(m sigma0)) ((3.12) with the square root over m sigma0, as L1520 requires), the poles (root_slow, root_fast when real; re and im otherwise), the sigma1 giving zeta = 1, stiction = alpha0 + alpha1, Property 3.1's eps = (alpha0 + alpha1) ln(10)/sigma0 and Property 3.5's gain gamma2 = sigma1 (1 + (alpha0 + alpha1)/alpha0) + alpha2. Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = NONE;
    const COLUMNS: &'static [Column] = &[
        ("omega_n", "rad/s", "undamped natural frequency (3.11)"),
        ("zeta", "1", "damping ratio (3.12)"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn run(p: &Params, _: &RunRequest) -> Result<RunData, String> {
        let c = p.sigma1 + p.alpha2;
        let wn = (p.sigma0 / p.mass).sqrt();
        let zeta = c / (2.0 * (p.mass * p.sigma0).sqrt());
        let mut d = table(vec![("omega_n", vec![wn]), ("zeta", vec![zeta])]);
        let info = &mut d.info;
        info.insert("omega_n".into(), wn);
        info.insert("zeta".into(), zeta);
        info.insert("sigma1_unit_damping".into(), 2.0 * (p.mass * p.sigma0).sqrt() - p.alpha2);
        let disc = c * c - 4.0 * p.mass * p.sigma0;
        if disc >= 0.0 {
            // Roots of m s² + c s + σ0 without cancellation: the fast one first, the slow from
            // the product σ0/m of the roots.
            let fast = -(c + disc.sqrt()) / (2.0 * p.mass);
            info.insert("root_fast".into(), fast);
            info.insert("root_slow".into(), p.sigma0 / (p.mass * fast));
        } else {
            info.insert("root_re".into(), -c / (2.0 * p.mass));
            info.insert("root_im".into(), (-disc).sqrt() / (2.0 * p.mass));
        }
        let stiction = p.alpha0 + p.alpha1;
        if stiction > 0.0 {
            info.insert("stiction".into(), stiction);
            info.insert("eps".into(), stiction * std::f64::consts::LN_10 / p.sigma0);
        }
        if p.alpha0 > 0.0 {
            info.insert("gamma2".into(), p.sigma1 * (1.0 + stiction / p.alpha0) + p.alpha2);
        }
        Ok(d)
    }
}
