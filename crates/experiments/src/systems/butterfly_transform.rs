//! `butterfly-transform`: a closed curve mapped by a unimodal output transformation, thesis ch. V
//! (5.1)–(5.11).

use crate::input::{grid, table};
use crate::system::{any, between, params, Column, System, GRID};
use crate::{RunData, RunRequest};
use fric_models::butterfly::{loop_areas, loop_boundaries, reconstruct, sign_function, Curve, Unimodal};

params! {
    pub struct Params {
        shape: f64 = between("1", 0.0, 2.0, "the curve C: 0 = sheared/bent unit circle y = ±sqrt(1 − x²) + a x + b x², 1 = lens y = x ± r(1 − x²), 2 = right half-disc").default(0.0),
        a: f64 = any("1", "shear of the circle").default(0.0),
        b: f64 = any("1", "bend of the circle").default(0.0),
        r: f64 = between("1", 0.0, 0.5, "half-width of the lens").default(0.3),
        yc: f64 = any("1", "extremum location y_c of f").default(0.0),
        peak: f64 = any("1", "extremum value f(y_c)").default(1.0),
        left: f64 = any("1", "f = peak − left (y_c − y)^p for y ≤ y_c (> 0: ∧-unimodal, < 0: ∨-unimodal)").default(1.0),
        right: f64 = any("1", "f = peak − right (y − y_c)^p for y ≥ y_c (same sign as left)").default(1.0),
        power: f64 = between("1", 0.1, 10.0, "exponent p").default(1.0),
    }
}

pub struct ButterflyTransform;

impl System for ButterflyTransform {
    const NAME: &'static str = "butterfly-transform";
    const DOC: &'static str = "A closed curve C (traversed counterclockwise over a grid of s in [0, 1]) mapped by a unimodal f into C' = {(x, f(y))}, thesis (5.1)-(5.11). Columns: the curve and its image, D(x) = f(y_min(x)) − f(y_max(x)) on a grid of x, f on a grid of y, and the curves C1, C2 rebuilt from C' and f by Thm 5.3.3. Info: n_loops, boundary_k (the zeros of D that separate loops: sign changes and isolated touching zeros, k = 1..), area_k (signed area ∫ D dx of loop k, clockwise positive, k = 1..n_loops), f_extremum_at (y where f is extremal on the y grid), n_extrema (local maxima of f(y) along C' for a ∧-unimodal f, minima for a ∨-unimodal f), extremum_1, extremum_2 (their values), c1_error (max |y_C1 − y|), c2_image_error (max |f(y_C2) − q|). Invariants: none (a closed-form evaluation, no simulated state).";
    type Params = Params;
    const INPUTS: &'static [&'static str] = GRID;
    const COLUMNS: &'static [Column] = &[
        ("t", "1", "curve parameter s (named t so that time windows select branches: t ∈ [0, 0.5] is the lower branch)"),
        ("x", "1", "x on C"),
        ("y", "1", "y on C"),
        ("q", "1", "f(y): the image curve C'"),
        ("forward", "1", "1 on the branch traversed with increasing x"),
        ("xd", "1", "x grid for D"),
        ("D", "1", "D(x) = f(y_min(x)) − f(y_max(x)) (5.1)"),
        ("yf", "1", "y grid for f"),
        ("f", "1", "f(y)"),
        ("y_c1", "1", "C1 of Thm 5.3.3 (5.4)-(5.7)"),
        ("y_c2", "1", "C2 of Thm 5.3.3 (5.8)-(5.11)"),
        ("x_yc", "1", "x_min(y_c) for t ≤ 0.5, x_max(y_c) for t > 0.5: where C crosses y = y_c (linear interpolation between samples; NaN if it does not)"),
        ("y_yc", "1", "y_c (constant), to mark (x_min(y_c), y_c), (x_max(y_c), y_c) and (y_c, q_c)"),
        ("q_yc", "1", "q_c = f(y_c) (constant): the extremum of f and of C'"),
    ];
    const METHODS: crate::methods::Methods = &[crate::methods::Method::Analytic];

    fn run(p: &Params, req: &RunRequest) -> Result<RunData, String> {
        let curve = if p.shape == 0.0 {
            Curve::Circle { a: p.a, b: p.b }
        } else if p.shape == 1.0 {
            Curve::Lens { r: p.r }
        } else if p.shape == 2.0 {
            Curve::HalfDisc
        } else {
            return Err(format!("shape must be 0, 1 or 2, not {}", p.shape));
        };
        if p.left * p.right <= 0.0 {
            return Err("left and right must be non-zero and of the same sign".into());
        }
        let f = Unimodal {
            yc: p.yc,
            peak: p.peak,
            left: p.left,
            right: p.right,
            power: p.power,
        };
        let s = grid(&req.input);
        let pts: Vec<(f64, f64)> = s.iter().map(|&s| curve.point(s)).collect();
        let x: Vec<f64> = pts.iter().map(|p| p.0).collect();
        let y: Vec<f64> = pts.iter().map(|p| p.1).collect();
        let q: Vec<f64> = y.iter().map(|&y| f.eval(y)).collect();
        let fw: Vec<bool> = s.iter().map(|&s| s.rem_euclid(1.0) <= 0.5).collect();
        let (x0, x1) = curve.x_range();
        let xd: Vec<f64> = s.iter().map(|&s| x0 + (x1 - x0) * s).collect();
        let d: Vec<f64> = xd.iter().map(|&x| sign_function(&curve, &f, x)).collect();
        let (ylo, yhi) = y.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
        let yf: Vec<f64> = s.iter().map(|&s| ylo + (yhi - ylo) * s).collect();
        let fy: Vec<f64> = yf.iter().map(|&y| f.eval(y)).collect();
        let c1 = reconstruct(&x, &q, &fw, &f, false);
        let c2 = reconstruct(&x, &q, &fw, &f, true);

        let bounds = loop_boundaries(&curve, &f, 4000);
        let areas = if bounds.is_empty() && d.iter().all(|v| v.abs() <= 1e-12) {
            vec![0.0]
        } else {
            loop_areas(&curve, &f, &bounds, 4000)
        };
        let key = |v: f64| if f.is_wedge() { v } else { -v };
        let arg = (0..yf.len()).max_by(|&i, &j| key(fy[i]).total_cmp(&key(fy[j]))).unwrap_or(0);
        // Extrema of f(y) along the closed curve (the last grid point repeats the first).
        let n = if s.len() > 1 && (s[s.len() - 1] - s[0] - 1.0).abs() < 1e-12 { s.len() - 1 } else { s.len() };
        let ext: Vec<f64> = (0..n)
            .filter(|&i| {
                let (a, b, c) = (key(q[(i + n - 1) % n]), key(q[i]), key(q[(i + 1) % n]));
                b > a && b >= c
            })
            .map(|i| q[i])
            .collect();
        let c1_err = c1.iter().zip(&y).fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        let c2_err = c2.iter().zip(&q).fold(0.0f64, |m, (a, b)| m.max((f.eval(*a) - b).abs()));
        // Where the closed sampled curve crosses y = y_c: x_min(y_c) and x_max(y_c).
        let mut xs: Vec<f64> = Vec::new();
        for i in 0..n {
            let (a, b) = (y[i] - p.yc, y[(i + 1) % n] - p.yc);
            if a == 0.0 {
                xs.push(x[i]);
            } else if a * b < 0.0 {
                let j = (i + 1) % n;
                xs.push(x[i] + (x[j] - x[i]) * a / (a - b));
            }
        }
        let x_min_yc = xs.iter().copied().fold(f64::NAN, f64::min);
        let x_max_yc = xs.iter().copied().fold(f64::NAN, f64::max);
        let x_yc: Vec<f64> = s.iter().map(|&t| if t <= 0.5 { x_min_yc } else { x_max_yc }).collect();
        let y_yc = vec![p.yc; s.len()];
        let q_yc = vec![f.eval(p.yc); s.len()];
        let bool_col = |v: &[bool]| v.iter().map(|&b| f64::from(u8::from(b))).collect::<Vec<f64>>();

        let mut info: Vec<(String, f64)> = vec![
            ("n_loops".into(), areas.len() as f64),
            ("f_extremum_at".into(), yf[arg]),
            ("n_extrema".into(), ext.len() as f64),
            ("c1_error".into(), c1_err),
            ("c2_image_error".into(), c2_err),
        ];
        for (k, b) in bounds.iter().enumerate() {
            info.push((format!("boundary_{}", k + 1), *b));
        }
        for (k, a) in areas.iter().enumerate() {
            info.push((format!("area_{}", k + 1), *a));
        }
        for (k, e) in ext.iter().take(2).enumerate() {
            info.push((format!("extremum_{}", k + 1), *e));
        }
        let mut data = table(vec![
            ("t", s.clone()),
            ("x", x),
            ("y", y),
            ("q", q),
            ("forward", bool_col(&fw)),
            ("xd", xd),
            ("D", d),
            ("yf", yf),
            ("f", fy),
            ("y_c1", c1),
            ("y_c2", c2),
            ("x_yc", x_yc),
            ("y_yc", y_yc),
            ("q_yc", q_yc),
        ]);
        data.info.extend(info);
        Ok(data)
    }
}
