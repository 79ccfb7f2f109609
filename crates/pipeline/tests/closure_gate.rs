//! Issue 44 item 4: a loop area is quoted only where the bound its cycle's closure gap leaves,
//! |Δx|·R_y + |Δy|·R_x, is within the tolerance of every check that reads it; the 1 % gap the
//! metric kinds accepted whatever the check (`CLOSURE_TOL`, until 2026-12-06) is gone.

mod common;

use common::{run_in, DAHL};

/// The Dahl figure (2000 samples per period) with its loop area read over a window `ends`
/// periods long from the end of the first (a stretch past one period ends away from its start),
/// checked to `tol`: the area's value and the manifest's errors.
fn area_over(ends: f64, tol: &str) -> (Option<f64>, Vec<String>) {
    let text = DAHL
        .replace(
            "sim: {periods: 2, samples_per_period: 400}",
            "sim: {periods: 3, samples_per_period: 2000}",
        )
        .replace(
            "{name: area, kind: loop-area, run: dahl, x: u, y: F, window: {periods: [1, 2]}}",
            &format!(
                "{{name: area, kind: loop-area, run: dahl, x: u, y: F, window: {{periods: [1, {}]}}}}",
                1.0 + ends
            ),
        )
        .replace("tol: {rel: 1.0e-3}", tol);
    assert!(text.contains("periods: 3,") && text.contains(tol), "{text}");
    let (_ws, s) = run_in("thesis/fig9.1.yaml", &text, 1);
    assert!(s.invalid.is_empty(), "{:#?}", s.invalid);
    let e = s.report.experiments.into_iter().next().unwrap();
    (e.metrics.get("area").copied().flatten(), e.errors)
}

#[test]
fn an_area_open_by_half_a_percent_is_quoted_only_where_its_bound_is_within_the_check() {
    // Closed (one whole settled period): quoted under the tight tolerance.
    let (v, errors) = area_over(1.0, "tol: {rel: 1.0e-3}");
    assert!(v.is_some() && errors.is_empty(), "{errors:?}");
    let closed = v.unwrap();
    // 0.0025 period (5 samples) past it: u = 5 sin 2t ends 5 · 2π · 0.0025 = 0.079 m past its
    // start, 0.79 % of its 10 m range, which the old 1 % gate quoted whatever the check. Two
    // steps of that are a cut between samples; the rest, 3 steps (0.047 m, 0.47 %), is off the
    // curve, and F on the saturated branch barely moves: the bound is 0.047 · R_F ≈ 0.14 N·m,
    // above the check's 1e-3 of 28.8 (0.029): not quoted.
    let (v, errors) = area_over(1.0025, "tol: {rel: 1.0e-3}");
    assert!(v.is_none(), "{v:?}");
    let e = errors
        .iter()
        .find(|e| e.starts_with("metric `area`: not closed: "))
        .expect("not closed");
    assert!(
        e.contains("off itself by 0.47") && e.contains("exceeds the tolerance ±2.880e-2 of the check on `area`"),
        "{e}"
    );
    // Under a check whose tolerance holds the bound (1 %: 0.29), the same stretch is quoted, and
    // it lies within its bound of the closed cycle's value.
    let (v, errors) = area_over(1.0025, "tol: {rel: 1.0e-2}");
    assert!(errors.is_empty(), "{errors:?}");
    assert!((v.unwrap() - closed).abs() < 0.15, "{v:?} vs {closed}");
}
