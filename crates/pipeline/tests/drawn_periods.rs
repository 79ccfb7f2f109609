//! Issue 46 item 3: a figure drawing "the last period" draws one that closed. A series over a
//! window of settled periods must close to one pixel of a 640 × 480 panel in its non-time
//! coordinates (`DRAWN_GAP`; `CLOSURE_TOL`'s 1 % until 2026-12-06) or declare why not (`open:`,
//! with its measured gap); a declaration on a stretch that closes is refused too.

mod common;

use common::{run_in, DAHL};

const DRAWN: &str = "{run: dahl, x: u, y: F, window: {periods: [1, 2]}, label: LABEL}";

/// The drawing errors of the test figure with its drawn series replaced by `series`, the run
/// simulated over `periods` input periods.
fn drawing_errors_over(series: &str, periods: u32) -> Vec<String> {
    let text = DAHL
        .replace(DRAWN, series)
        .replace("sim: {periods: 2,", &format!("sim: {{periods: {periods},"));
    assert!(
        text.contains(series) && text.contains(&format!("periods: {periods},")),
        "{text}"
    );
    let (_ws, s) = run_in("thesis/fig9.1.yaml", &text, 1);
    assert!(s.invalid.is_empty(), "{:#?}", s.invalid);
    s.report.experiments.into_iter().flat_map(|e| e.errors).collect()
}

/// [`drawing_errors_over`] two periods.
fn drawing_errors(series: &str) -> Vec<String> {
    drawing_errors_over(series, 2)
}

#[test]
fn a_settled_period_is_drawn_without_a_declaration() {
    // The Dahl loop settles within the first period: the second closes.
    let e = drawing_errors("{run: dahl, x: u, y: F, window: last-period, label: settled}");
    assert!(e.is_empty(), "{e:?}");
    let e = drawing_errors("{run: dahl, x: u, y: F, window: {periods: [1, 2]}, label: settled}");
    assert!(e.is_empty(), "{e:?}");
}

#[test]
fn a_last_period_that_does_not_close_must_say_so() {
    // A run of one period: its last period is the first, from F = 0, and ends on the lower
    // branch, about half of F's range away from its start.
    let e = drawing_errors_over("{run: dahl, x: u, y: F, window: last-period, label: first}", 1);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains("panel main") && e[0].contains("the drawn period ends"),
        "{e:?}"
    );
    assert!(e[0].contains("declare `open:`"), "{e:?}");
    // Declared, with why: drawn.
    let e = drawing_errors_over(
        "{run: dahl, x: u, y: F, window: last-period, label: first, open: \"the transient from rest\"}",
        1,
    );
    assert!(e.is_empty(), "{e:?}");
    // The same stretch drawn as what it is, a window from rest, needs no declaration.
    let e = drawing_errors("{run: dahl, x: u, y: F, window: {periods: [0, 1]}, label: first}");
    assert!(e.is_empty(), "{e:?}");
}

#[test]
fn a_time_history_closes_in_its_value_not_in_time() {
    // u(t) over a period: t never returns, u does.
    let e = drawing_errors("{run: dahl, x: t, y: u, window: last-period, label: u}");
    assert!(e.is_empty(), "{e:?}");
}

#[test]
fn a_declaration_on_a_period_that_closes_is_refused() {
    let e = drawing_errors("{run: dahl, x: u, y: F, window: last-period, label: settled, open: \"stale\"}");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("declares `open:` but its drawn period closes"), "{e:?}");
    // Also over a time window: the declaration must be true.
    let e = drawing_errors("{run: dahl, x: u, y: F, window: {t: [3.14159265, 6.28318531]}, label: s, open: \"stale\"}");
    assert_eq!(e.len(), 1, "{e:?}");
}
