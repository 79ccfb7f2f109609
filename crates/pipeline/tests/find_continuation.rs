//! `find` with `continuation` (issue 50, item 2): a pulled LuGre rig stepped up and down the
//! pulling velocity, each run from the previous run's final state, shows two onsets of
//! stick-slip (hysteresis), the same at any job count; a bad continuation is refused at its line.

mod common;

use common::{evaluated, evaluated_in, only_diagnostic};

const FILE: &str = "thesis/fig9.9.yaml";

/// The rig of followup/fig7 on a coarser grid (4 steps, onsets to 0.01 m/s).
const TEXT: &str = r#"id: thesis/fig9.9
kind: figure
source: {document: thesis, number: "9.9", caption: "up {{ onset.up | fmt(\".4g\") }}, down {{ onset.down | fmt(\".4g\") }}", lines: [6]}
content: simulation
status: reproduced
runs:
  - id: rig
    system: lugre-stick-slip
    params: {m: 1, k_spring: 1, vp: 0.1, sigma0: 1.0e4, sigma1: 100, sigma2: 1, fc: 1, fs: 1.5, vs: 0.1, x0: 0, v0: 0, l0: 0, z0: 0}
    input: {kind: none}
    sim: {t_end: 150, samples_per_period: 15000}
panels:
  - id: main
    x: {label: v_p, unit: m/s}
    y: {label: swing, unit: m/s}
    series:
      - {find: onset.up, style: points}
      - {find: onset.down, style: circles}
      - {find: onset, style: circles}
metrics:
  - {name: v_max, kind: max, run: rig, y: v, window: {t: [100, 150]}, unit: m/s}
  - {name: v_min, kind: min, run: rig, y: v, window: {t: [100, 150]}, unit: m/s}
  - {name: swing, kind: difference, of: [v_max, v_min], unit: m/s}
find:
  - name: onset
    run: rig
    param: vp
    metric: swing
    level: 0.05
    bracket: [0.1, 0.3]
    tol: 1.0e-2
    unit: m/s
    continuation: {steps: 4, carry: {x0: x, v0: v, l0: l, z0: z}}
checks:
  - metric: onset
    expected: 0.02
    op: gt
    tolerance_reason: "derived: a bound, not a tolerance"
    provenance: {derived: "steady sliding is stable above the Hopf point 0.16796 m/s, stick-slip persists to above 0.2 m/s"}
"#;

/// The linearisation of steady sliding of [`TEXT`]'s rig loses stability at this v_p (the
/// largest real part of its Jacobian's eigenvalues crosses 0; numpy, brentq to 1e-14).
const HOPF: f64 = 0.16796327123705845;

#[test]
fn up_and_down_onsets_differ_and_are_the_same_at_any_job_count() {
    let (ws, fig) = evaluated_in(FILE, TEXT, 2);
    let m = &fig.metrics;
    let (up, down) = (m["onset.up"].unwrap(), m["onset.down"].unwrap());
    // Up: stick-slip on the grid to 0.2 m/s, steady sliding at 0.25 m/s.
    assert!((0.2..=0.25).contains(&up), "{up} {m:?}");
    // Down: steady sliding until (a little below, the growth being slow there) the Hopf point.
    assert!((0.15..=HOPF + 0.01).contains(&down), "{down} {m:?}");
    assert!(
        (m["onset"].unwrap() - (up - down)).abs() < 1e-15 && up - down > 0.02,
        "{m:?}"
    );
    let (lo, hi) = (m["onset.up.lo"].unwrap(), m["onset.up.hi"].unwrap());
    assert!(hi - lo <= 1e-2 && lo < up && up < hi, "{lo} {hi}");
    assert!(m["onset.up.metric_lo"].unwrap() > 0.05 && m["onset.up.metric_hi"].unwrap() < 0.05);
    // The branches: at 0.2 m/s stick-slip going up, steady sliding coming down.
    assert!(
        m["onset.up.step2"].unwrap() > 0.3 && m["onset.down.step2"].unwrap() < 1e-3,
        "{m:?}"
    );
    assert!(fig.checks.iter().all(|c| c.pass), "{:?}", fig.checks);
    assert!(
        fig.caption.contains("up 0.2") && fig.caption.contains("down 0.1"),
        "{}",
        fig.caption
    );
    assert_eq!(fig.metric_info["onset.down"].unit.as_deref(), Some("m/s"));
    // The branch series and the onsets are drawn (their CSVs: the grid and the two runs that
    // end the onset's bisection, the drop drawn between them at the onset; the two onsets).
    let dir = ws.path().join("figures/thesis/fig9.9");
    let csv = |k: usize| std::fs::read_to_string(dir.join(format!("main-{k}.csv"))).unwrap();
    // (an end already on the grid is drawn once: here the up bracket is [0.2, 0.20625])
    let rows = csv(1).lines().count();
    assert!((1 + 5 + 1..=1 + 5 + 2).contains(&rows), "{}", csv(1));
    let (lo, hi) = (m["onset.up.lo"].unwrap(), m["onset.up.hi"].unwrap());
    assert!(hi - lo <= 1e-2 + 1e-12, "{lo} {hi}");
    for p in [lo, hi] {
        assert!(
            csv(1)
                .lines()
                .skip(1)
                .any(|l| l.split(',').next().unwrap().parse::<f64>().unwrap() == p),
            "{p} not drawn: {}",
            csv(1)
        );
    }
    assert_eq!(csv(3).lines().count(), 1 + 2, "{}", csv(3));
    // One job, an empty cache: the same runs in the same order, the same numbers.
    let n = evaluated(FILE, TEXT, 1).metrics;
    for k in ["onset.up", "onset.down", "onset.evaluations", "onset.down.step1"] {
        assert_eq!(n[k], m[k], "{k}");
    }
}

#[test]
fn bad_continuations_are_refused_at_their_line() {
    let cases: &[(&str, &str, &str, &str)] = &[
        ("steps: 4,", "steps: 1,", "steps 1: too few or too many", "2 to 200"),
        ("l0: l,", "l0: ell,", "run `rig` has no column `ell`", "W_in"),
        (
            "l0: l,",
            "vp: l,",
            "`vp` is the parameter the continuation varies",
            "initial-state",
        ),
        (
            "l0: l,",
            "q0: l,",
            "q0: run `rig`: `q0` is not a parameter",
            "initial-state",
        ),
    ];
    for (from, to, message, allowed) in cases {
        assert!(TEXT.contains(from), "{from}");
        only_diagnostic(FILE, &TEXT.replacen(from, to, 1), 33, message, allowed);
    }
}
