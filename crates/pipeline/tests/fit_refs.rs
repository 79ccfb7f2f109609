//! A fit's result used by another manifest (issue 50, item 3: "the fitted values usable by other
//! manifests"): `kind: fitted` takes `<doc>/<name>#<fit>.<param>` with its standard error, the
//! referring manifest is evaluated again when the fit changes, and a bad reference is refused at
//! its line.

mod common;

use common::{reports, workspace, FIT, FIT_FILE};

const USER_FILE: &str = "thesis/table9.9.yaml";

/// A table taking σ and Fc of [`FIT`]'s fit `id`, with arithmetic on σ's standard error.
const USER: &str = r#"id: thesis/table9.9
kind: table
source: {document: thesis, number: "9.9", caption: "σ = {{ s | fmt(\".6g\") }} ± {{ s.sd | fmt(\".2g\") }} N/m", lines: [7]}
content: table
status: partial
metrics:
  - {name: s, kind: fitted, fit: "thesis/fig9.8#id.sigma", unit: N/m}
  - {name: f, kind: fitted, fit: "thesis/fig9.8#id.fc", unit: N}
  - {name: rel_sd, kind: ratio, of: [s.sd, s]}
table:
  columns: ["σ [N/m]", "Fc [N]"]
  rows:
    - ["{{ s | fmt(\".6g\") }}", "{{ f | fmt(\".6g\") }}"]
checks:
  - metric: s
    expected: 1000
    tol: {rel: 1.0e-4}
    provenance: {derived: "the fitted σ of thesis/fig9.8, whose points are the loop of σ = 1000 N/m"}
reason: "a table checked only by a derived value: partial by the status rule"
"#;

#[test]
fn a_fitted_metric_is_the_other_manifests_fit_with_its_standard_error_and_follows_it() {
    let ws = workspace(&[(FIT_FILE, FIT), (USER_FILE, USER)]);
    let all = reports(ws.path(), &[], 2);
    let (fit, user) = (&all["thesis/fig9.8"].metrics, &all["thesis/table9.9"]);
    assert!(user.errors.is_empty(), "{:?}", user.errors);
    let m = &user.metrics;
    // The same serial steps on the same cached runs: the same numbers, bit for bit.
    assert_eq!(m["s"], fit["id.sigma"]);
    assert_eq!(m["s.sd"], fit["id.sigma.sd"]);
    assert_eq!(m["f"], fit["id.fc"]);
    assert_eq!(
        m["rel_sd"].unwrap(),
        fit["id.sigma.sd"].unwrap() / fit["id.sigma"].unwrap()
    );
    assert!(user.caption.starts_with("σ = 1000"), "{}", user.caption);
    assert!(user.checks.iter().all(|c| c.pass), "{:?}", user.checks);
    // Selected alone, the table still evaluates the fit (its manifest validated with it).
    let alone = reports(ws.path(), &["thesis/table9.9"], 2);
    assert_eq!(alone["thesis/table9.9"].metrics["s"], fit["id.sigma"]);
    // Every force of the fit's points 10 % larger: Fc = 1.1 N. Only the fit's manifest changed,
    // and the table follows it (its evaluation is keyed on the fit's manifest).
    let scaled = FIT
        .replace("0.8387827987921773", "0.9226610786713951")
        .replace("0.9022168245943949", "0.9924385070538345");
    let scaled = scaled.replace("0.9406915061124422", "1.0347606567236864");
    std::fs::write(ws.path().join("experiments").join(FIT_FILE), &scaled).unwrap();
    let again = reports(ws.path(), &["thesis/table9.9"], 2);
    let f = again["thesis/table9.9"].metrics["f"].unwrap();
    assert!((f - 1.1).abs() < 1e-4, "{f}");
}

#[test]
fn bad_references_are_refused_at_their_line() {
    let cases = [
        (
            "thesis/fig9.8#id.sigma",
            "thesis/fig9.7#id.sigma",
            "no valid manifest `thesis/fig9.7`",
        ),
        (
            "thesis/fig9.8#id.sigma",
            "thesis/fig9.8#di.sigma",
            "`thesis/fig9.8` has no fit `di` (its fits: id)",
        ),
        (
            "thesis/fig9.8#id.sigma",
            "thesis/fig9.8#id.gamma",
            "fit `id` of `thesis/fig9.8` fits no `gamma` (it fits sigma, fc)",
        ),
        (
            "thesis/fig9.8#id.sigma",
            "thesis/fig9.8.sigma",
            "is not `<doc>/<name>#<fit>.<param>`",
        ),
        (
            "thesis/fig9.8#id.sigma",
            "thesis/table9.9#id.sigma",
            "this manifest's own fit",
        ),
    ];
    for (from, to, message) in cases {
        let ws = workspace(&[(FIT_FILE, FIT), (USER_FILE, &USER.replacen(from, to, 1))]);
        let loaded = fric_pipeline::load(ws.path());
        assert_eq!(loaded.invalid.len(), 1, "{to}");
        let d = &loaded.invalid[0].diagnostics;
        assert!(
            d.iter().any(|d| d.line == 7
                && d.message.contains(message)
                && d.allowed.contains("<doc>/<name>#<fit>.<param>")),
            "{to}: {d:#?}"
        );
    }
    // `fit` on another kind, and a fitted metric without it.
    let other = USER.replacen("{name: f, kind: fitted,", "{name: f, kind: constant, value: 1,", 1);
    let ws = workspace(&[(FIT_FILE, FIT), (USER_FILE, &other)]);
    let d = &fric_pipeline::load(ws.path()).invalid[0].diagnostics;
    assert!(
        d.iter()
            .any(|d| d.line == 8 && d.message.contains("a `constant` metric takes no `fit`")),
        "{d:#?}"
    );
    let none = USER.replacen(", fit: \"thesis/fig9.8#id.fc\"", "", 1);
    let ws = workspace(&[(FIT_FILE, FIT), (USER_FILE, &none)]);
    let d = &fric_pipeline::load(ws.path()).invalid[0].diagnostics;
    assert!(
        d.iter().any(|d| d.line == 8 && d.message.contains("needs `fit`")),
        "{d:#?}"
    );
}
