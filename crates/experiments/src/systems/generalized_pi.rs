//! `generalized-pi`: the generalized Prandtl–Ishlinskii model of thesis (5.23)–(5.26) driven by
//! the actuator current, with the magnetostrictive transforms (5.18)–(5.20).

use crate::drive::exact;
use crate::input::signal;
use crate::system::{any, between, params, positive, Column, System, PRESCRIBED};
use crate::{RunData, RunRequest};
use fric_models::magnetostriction as ms;
use fric_models::prandtl_ishlinskii::PrandtlIshlinskii;
use fric_solvers::analysis::{loop_area, loop_areas};

params! {
    pub struct Params {
        c0: f64 = positive("1", "envelope gain c0 of (5.25)").default(4.0904),
        c1: f64 = positive("1", "envelope slope c1 of (5.25), per scaled field").default(0.7774),
        c2: f64 = any("1", "envelope offset c2 of (5.25)").default(-0.0666),
        c3: f64 = any("1", "envelope shift c3 of (5.25)").default(-0.2686),
        rho: f64 = any("1", "density gain ρ of (5.26)").default(4.6403),
        tau: f64 = any("1", "density exponent τ of (5.26)").default(-0.1909),
        q: f64 = any("1", "direct gain q of (5.24)").default(11.9609),
        beta: f64 = positive("1", "threshold step β: w_k = k β").default(1.1386),
        n: f64 = between("1", 1.0, 1000.0, "number of plays N (a whole number)").default(10.0),
        x0: f64 = any("1", "initial output of every play, clamped into its band").default(0.0),
        coil: f64 = positive("1/m", "coil factor c0 of (5.20)").default(1.54e4),
        h_bias: f64 = any("A/m", "bias field H_bias of (5.20)").default(1.23e4),
        scale: f64 = positive("1", "scaling of H and M in the model (L2254)").default(1e-4),
        lambda_s: f64 = positive("1", "saturation magnetostriction λ_s").default(1.313e-3),
        m_s: f64 = positive("A/m", "saturation magnetization M_s").default(7.87e5),
        l_rod: f64 = positive("m", "rod length L_rod").default(5.13e-2),
        b1: f64 = any("1", "offset b1 of (5.19)").default(0.0),
    }
}

pub struct GeneralizedPi;

impl System for GeneralizedPi {
    const NAME: &'static str = "generalized-pi";
    const DOC: &'static str = "Generalized Prandtl-Ishlinskii model, thesis (5.23)-(5.26), driven by the actuator current u = I (A): H = coil I + H_bias (5.20), h = scale H, m = q γ(h) + Σ p(w_k) x_k (γ(v) = c0 tanh(c1 v + c2) + c3, p(w) = ρ e^{−τ w}, w_k = k β, k = 1..N), M = m / scale, λ = a1 M² + b1 with a1 = λ_s/M_s² (5.19), ΔL = L_rod λ (5.18). Exact on the input samples. Info: every parameter it used (c0..c3, rho, tau, q, beta, N), loop_area_hm = ∮ m dh (scaled), butterfly_wings (loops of (I, ΔL) larger than 1/10 of the largest), wing_pos, wing_neg (their largest signed areas), active_plays (plays whose output moved). Invariants: none declared; the thesis states none for the generalized Prandtl-Ishlinskii model (5.20)-(5.26).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = PRESCRIBED;
    const COLUMNS: &'static [Column] = &[
        ("t", "s", "time"),
        ("u", "A", "coil current I"),
        ("h", "1", "scaled field 1e-4 H"),
        ("m", "1", "scaled magnetization 1e-4 M (PI output)"),
        ("M", "A/m", "magnetization"),
        ("lambda", "1", "magnetostriction (5.19)"),
        ("dL", "m", "rod elongation (5.18)"),
        ("dL_um", "μm", "rod elongation (5.18) in micrometres (dL · 1e6), for plotting"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Exact];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        if p.n.fract() != 0.0 {
            return Err(format!("n must be a whole number, not {}", p.n));
        }
        let n = p.n as usize;
        let pi = PrandtlIshlinskii::generalized(p.q, [p.c0, p.c1, p.c2, p.c3], p.rho, p.tau, p.beta, n);
        let sig = signal(req)?;
        let hs = |i: f64| p.scale * ms::field(i, p.coil, p.h_bias);
        let mut st = pi.state(hs(sig.value(0.0)), p.x0);
        let x_init = st.x.clone();
        let mut moved = vec![false; n];
        let data = exact(req, &sig, |i| {
            let m = pi.advance(&mut st, hs(i));
            for (k, (x, x0)) in st.x.iter().zip(&x_init).enumerate() {
                moved[k] |= x != x0;
            }
            m
        })?;
        let i = data.column("u").unwrap_or(&[]).to_vec();
        let m = data.column("F").unwrap_or(&[]).to_vec();
        let h: Vec<f64> = i.iter().map(|&i| hs(i)).collect();
        let big_m: Vec<f64> = m.iter().map(|&m| m / p.scale).collect();
        let a1 = ms::saturation_coefficient(p.lambda_s, p.m_s);
        let lambda: Vec<f64> = big_m.iter().map(|&m| ms::quadratic_strain(m, a1, p.b1)).collect();
        let dl: Vec<f64> = lambda.iter().map(|&l| l * p.l_rod).collect();
        // Loops over the last period when the input is periodic.
        let t = data.column("t").unwrap_or(&[]).to_vec();
        let t_last = t.last().copied().unwrap_or(0.0);
        let start = data.period.map_or(0, |per| t.partition_point(|&s| s < t_last - per - 1e-9 * per));
        let loops = loop_areas(&i[start..], &dl[start..]);
        let big = loops.iter().fold(0.0f64, |a, b| a.max(b.abs()));
        let wings = loops.iter().filter(|a| a.abs() > 0.1 * big).count();
        let mut out = RunData {
            period: data.period,
            info: data.info.clone(),
            ..Default::default()
        };
        let dl_um: Vec<f64> = dl.iter().map(|v| v * 1e6).collect();
        out.columns = vec![
            ("t".into(), t),
            ("u".into(), i),
            ("h".into(), h.clone()),
            ("m".into(), m.clone()),
            ("M".into(), big_m),
            ("lambda".into(), lambda),
            ("dL".into(), dl),
            ("dL_um".into(), dl_um),
        ];
        Ok(out.with_info(&[
            ("c0", p.c0),
            ("c1", p.c1),
            ("c2", p.c2),
            ("c3", p.c3),
            ("rho", p.rho),
            ("tau", p.tau),
            ("q", p.q),
            ("beta", p.beta),
            ("N", n as f64),
            ("loop_area_hm", loop_area(&h[start..], &m[start..])),
            ("butterfly_wings", wings as f64),
            ("wing_pos", loops.iter().cloned().fold(0.0, f64::max)),
            ("wing_neg", loops.iter().cloned().fold(0.0, f64::min)),
            ("active_plays", moved.iter().filter(|&&b| b).count() as f64),
        ]))
    }
}
