//! The status rule's facts declared in the manifest (issue 44): an assumption that replaces a
//! stated quantity keeps a manifest from `reproduced`, and a transcribed value read back is
//! shown but never counted as a passed check.

mod common;

use common::{workspace, DAHL};
use fric_pipeline::{run, Options};
use fric_report::Outcome;
use std::path::Path;

fn go(root: &Path) -> fric_pipeline::Summary {
    let mut o = Options::new(root);
    o.jobs = Some(1);
    run(&o).unwrap()
}

/// DAHL with one assumption carrying `carries` (and `replaces:` when given), and the status
/// line replaced.
fn with_assumption(carries: &str, replaces: Option<&str>, status: &str) -> String {
    let replaces = replaces.map_or(String::new(), |r| format!("\n    replaces: \"{r}\""));
    DAHL.replace(
        "status: reproduced\n",
        &format!(
            "{status}assumptions:\n  - what: \"sigma = 7.5\"\n    why: \"test\"\n    carries: {carries}{replaces}\n"
        ),
    )
}

#[test]
fn an_assumption_that_replaces_a_stated_quantity_is_not_reproduced() {
    let ws = workspace(&[(
        "thesis/fig9.1.yaml",
        &with_assumption("replaced", Some("sigma = 5 N/m, L1"), "status: reproduced\n"),
    )]);
    let s = go(ws.path());
    assert!(!s.ok());
    let errors = &s.report.experiments[0].errors;
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("experiments/thesis/fig9.1.yaml:5: status `reproduced` disagrees with the status rule")
            && errors[0].contains("an assumption (replaced) replaces what the source states (sigma = 5 N/m, L1)"),
        "{}",
        errors[0]
    );
    // Declared partial with its reason, it is accepted; carrying a window, reproduced is.
    let partial = with_assumption(
        "replaced",
        Some("sigma = 5 N/m, L1"),
        "status: partial\nreason: \"sigma replaced\"\n",
    );
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), partial).unwrap();
    assert!(go(ws.path()).ok());
    let supplied = DAHL.replace(
        "status: reproduced\n",
        "status: reproduced\nassumptions:\n  - what: \"A = 5\"\n    why: \"unstated\"\n    carries: unstated-input\n    supplies: \"the amplitude, L1\"\n",
    );
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), supplied).unwrap();
    let s = go(ws.path());
    let errors = &s.report.experiments[0].errors;
    assert!(
        errors.len() == 1
            && errors[0]
                .contains("an assumption (unstated-input) supplies what the source does not state (the amplitude, L1)"),
        "{errors:?}"
    );
    let plain = with_assumption("window", None, "status: reproduced\n");
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), plain).unwrap();
    assert!(go(ws.path()).ok());
}

/// The load errors of a run as `file:line: message (allowed)`, one a line.
fn located(s: &fric_pipeline::Summary) -> String {
    s.invalid
        .iter()
        .flat_map(|i| &i.diagnostics)
        .map(|d| format!("{}:{}: {} ({})\n", d.file, d.line, d.message, d.allowed))
        .collect()
}

/// Every assumption must say what it carries: a missing or unknown class, or a class without
/// the text it needs, is a load error at file:line listing what is allowed.
#[test]
fn an_assumption_must_declare_what_it_carries() {
    let cases = [
        (
            "status: reproduced\nassumptions:\n  - what: \"A = 5\"\n    why: \"x\"\n",
            "fig9.1.yaml:7: an assumption must declare what it carries",
            "solver-setting, window, initial-state, plotting, reading, implied, addition, illustrative, design, unstated-parameter, unstated-input, replaced",
        ),
        (
            "status: reproduced\nassumptions:\n  - what: \"A = 5\"\n    why: \"x\"\n    carries: guess\n",
            "fig9.1.yaml:9:",
            "unknown variant `guess`",
        ),
        (
            "status: reproduced\nassumptions:\n  - what: \"A = 5\"\n    why: \"x\"\n    carries: replaced\n",
            "fig9.1.yaml:7:",
            "`carries: replaced` needs `replaces:`",
        ),
        (
            "status: reproduced\nassumptions:\n  - what: \"A = 5\"\n    why: \"x\"\n    carries: window\n    supplies: \"A, L1\"\n",
            "fig9.1.yaml:10:",
            "`supplies:` goes only with",
        ),
    ];
    for (yaml, at, says) in cases {
        let ws = workspace(&[("thesis/fig9.1.yaml", &DAHL.replace("status: reproduced\n", yaml))]);
        let s = go(ws.path());
        assert!(!s.ok());
        let all = located(&s);
        assert!(all.contains(at) && all.contains(says), "{yaml}: {all}");
    }
}

/// DAHL with its check's provenance `transcribed` and the given expected value: only
/// transcribed, it is `partial` by the rule.
fn transcribed(expected: &str) -> String {
    DAHL.replace(
        "status: reproduced\n",
        "status: partial\nreason: \"only transcribed\"\n",
    )
    .replace(
        "expected: 28.8, tol: {rel: 1.0e-3}, provenance: {derived: \"4(A Fc - Fr Fc/sigma)\"}",
        &format!("expected: {expected}, tol: {{rel: 1.0e-3}}, provenance: {{transcribed: {{line: 1}}}}"),
    )
}

#[test]
fn a_transcribed_value_is_counted_apart_from_passed_checks() {
    let ws = workspace(&[("thesis/fig9.1.yaml", &transcribed("28.8"))]);
    let s = go(ws.path());
    assert!(s.ok(), "{:?}", s.report.experiments[0].errors);
    let c = &s.report.experiments[0].checks[0];
    assert_eq!(
        (c.outcome, c.provenance.as_str()),
        (Outcome::Transcribed, "transcribed")
    );
    assert_eq!((s.count(Outcome::Pass), s.count(Outcome::Transcribed)), (0, 1));
    // report.json counts it per document, apart from passed checks.
    let doc = &s.report.checks["thesis"];
    assert_eq!((doc["pass"], doc["transcribed"]), (0, 1), "{doc:?}");
    let json = std::fs::read_to_string(ws.path().join("figures/report.json")).unwrap();
    assert!(json.contains("\"transcribed\": 1"), "{json}");
    // The HTML report shows it under its own heading, not among the checks.
    let html = std::fs::read_to_string(ws.path().join("figures/thesis/index.html")).unwrap();
    assert!(
        html.contains("<h3>Transcribed values</h3>") && !html.contains("<h3>Checks</h3>"),
        "{html}"
    );
    // Only transcribed, the manifest is not reproduced.
    let claimed = transcribed("28.8").replace(
        "status: partial\nreason: \"only transcribed\"\n",
        "status: reproduced\n",
    );
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), claimed).unwrap();
    let e = go(ws.path()).report.experiments[0].errors.clone();
    assert!(
        e.len() == 1 && e[0].contains("its checks are only transcriptions"),
        "{e:?}"
    );
    // A transcription that does not read back is a failure, not a transcription.
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), transcribed("30")).unwrap();
    let s = go(ws.path());
    assert!(!s.ok());
    assert_eq!(s.report.experiments[0].checks[0].outcome, Outcome::Fail);
}

/// A manifest with no check at all tests nothing of what it shows: `reproduced` is refused at
/// its `status:` line, `partial` (with a reason) accepted (code review M2 of s53).
#[test]
fn a_manifest_without_a_check_is_partial() {
    let i = DAHL.find("checks:\n").expect("DAHL has checks");
    let bare = &DAHL[..i];
    assert!(!bare.contains("checks:"));
    let ws = workspace(&[("thesis/fig9.1.yaml", bare)]);
    let e = go(ws.path()).report.experiments[0].errors.clone();
    assert!(
        e.len() == 1
            && e[0].contains("fig9.1.yaml:5: status `reproduced` disagrees")
            && e[0].contains("it has no check"),
        "{e:?}"
    );
    let partial = bare.replace("status: reproduced\n", "status: partial\nreason: \"nothing checked\"\n");
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), partial).unwrap();
    let s = go(ws.path());
    assert!(s.ok(), "{:?}", s.report.experiments[0].errors);
}

/// DAHL as a manifest of `mystudy`, a study of one's own (`source: none`), with `status`.
fn own_study(status: &str) -> Vec<(&'static str, String)> {
    let m = DAHL
        .replace("thesis/fig9.1", "mystudy/fig1")
        .replace("document: thesis", "document: mystudy")
        .replace(", lines: [1]", "")
        .replace("status: reproduced\n", &format!("status: {status}\n"));
    vec![
        ("mystudy/document.yaml", "title: \"own\"\nsource: none\n".to_string()),
        ("mystudy/fig1.yaml", m),
    ]
}

/// A study of one's own gets a status that claims no reproduction: `computed`, shown as such
/// in report.json and its coverage; `reproduced` is refused there, `computed` elsewhere.
#[test]
fn a_study_of_ones_own_is_computed_not_reproduced() {
    let files = own_study("computed");
    let refs: Vec<(&str, &str)> = files.iter().map(|(a, b)| (*a, b.as_str())).collect();
    let ws = workspace(&refs);
    let s = go(ws.path());
    assert!(s.ok(), "{:?} {:?}", s.invalid, s.report.experiments[0].errors);
    assert_eq!(s.report.experiments[0].status, "computed");
    assert_eq!(s.report.coverage["mystudy"]["computed"], 1);
    assert_eq!(s.report.coverage["mystudy"]["reproduced"], 0);
    let html = std::fs::read_to_string(ws.path().join("figures/mystudy/index.html")).unwrap();
    assert!(
        html.contains("badge computed") && !html.contains("badge reproduced"),
        "{html}"
    );

    let files = own_study("reproduced");
    std::fs::write(ws.path().join("experiments/mystudy/fig1.yaml"), &files[1].1).unwrap();
    let s = go(ws.path());
    let all = located(&s);
    assert!(
        !s.ok() && all.contains("fig1.yaml:5") && all.contains("study of one's own"),
        "{all}"
    );

    let ws = workspace(&[(
        "thesis/fig9.1.yaml",
        &DAHL.replace("status: reproduced", "status: computed"),
    )]);
    let s = go(ws.path());
    let all = located(&s);
    assert!(
        !s.ok() && all.contains("fig9.1.yaml:5") && all.contains("`computed` is for a study"),
        "{all}"
    );
}

/// The errors of the manifest `id` in a run's report.
fn errors_of<'a>(s: &'a fric_pipeline::Summary, id: &str) -> &'a [String] {
    &s.report.experiments.iter().find(|e| e.id == id).unwrap().errors
}

/// The rule derives the status in both directions: a manifest declared `partial` whose facts
/// give `reproduced` is refused too, at its `status:` line; a declared fact that makes it
/// partial (an assumption that supplies a value, a part `not_built`) is accepted.
#[test]
fn a_partial_the_rule_gives_reproduced_is_refused() {
    let partial = with_assumption("window", None, "status: partial\nreason: \"a window\"\n");
    let ws = workspace(&[("thesis/fig9.1.yaml", &partial)]);
    let s = go(ws.path());
    assert!(!s.ok());
    let errors = errors_of(&s, "thesis/fig9.1");
    assert!(
        errors.len() == 1
            && errors[0]
                .starts_with("experiments/thesis/fig9.1.yaml:5: status `partial` disagrees with the status rule")
            && errors[0].contains("the rule gives `reproduced`"),
        "{errors:?}"
    );
    let unbuilt = partial.replace(
        "reason: \"a window\"\n",
        "reason: \"the measured curve is not published\"\nnot_built: [\"the measured curve, L1\"]\n",
    );
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), unbuilt).unwrap();
    assert!(go(ws.path()).ok());
    let supplied = with_assumption(
        "unstated-parameter",
        None,
        "status: partial\nreason: \"sigma unstated\"\n",
    )
    .replace(
        "carries: unstated-parameter",
        "carries: unstated-parameter\n    supplies: \"sigma, L1\"",
    );
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), &supplied).unwrap();
    assert!(go(ws.path()).ok(), "{:?}", errors_of(&go(ws.path()), "thesis/fig9.1"));
    // Declared reproduced, the part not built is refused.
    let unbuilt = DAHL.replace(
        "status: reproduced\n",
        "status: reproduced\nnot_built: [\"panel (b), L1\"]\n",
    );
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), unbuilt).unwrap();
    let s = go(ws.path());
    let errors = errors_of(&s, "thesis/fig9.1");
    assert!(
        errors.len() == 1 && errors[0].contains("a part of the source is not built (panel (b), L1)"),
        "{errors:?}"
    );
}

/// DAHL as `thesis/fig9.3`, drawing the run `dahl` of thesis/fig9.1 taken by `from:`, with
/// `extra` after its status line.
fn borrower(status: &str, extra: &str) -> String {
    DAHL.replace("thesis/fig9.1", "thesis/fig9.3")
        .replace("number: \"9.1\"", "number: \"9.3\"")
        .replace("status: reproduced\n", &format!("status: {status}\n{extra}"))
        .replace(
            "  - id: dahl\n    system: dahl\n    params: {sigma: 7.5, fc: 1.5, gamma: 1}\n    input: {kind: sine, amplitude: 5, omega: 2}\n    sim: {periods: 2, samples_per_period: 400}\n",
            "  - {id: dahl, from: \"thesis/fig9.1#dahl\"}\n",
        )
}

/// A manifest that takes a run by `from:` inherits the assumptions of the run's manifest that
/// supply an unstated value (report/fig2.12 takes report/fig2.11#sim, whose B&S parameters are
/// Table 2.1 row 3 of a lost set): declared `reproduced`, it is refused. An owner's assumption
/// scoped (`runs:`) to another run is not inherited, nor one the borrower settles with an
/// `implied` assumption naming the run.
#[test]
fn a_run_taken_by_from_inherits_the_assumptions_that_supply_a_value() {
    let owner = DAHL.replace(
        "status: reproduced\n",
        "status: partial\nreason: \"sigma unstated\"\nassumptions:\n  - what: \"sigma = 7.5\"\n    why: \"unstated\"\n    carries: unstated-parameter\n    supplies: \"sigma, L1\"\n",
    );
    let ws = workspace(&[
        ("thesis/fig9.1.yaml", &owner),
        ("thesis/fig9.3.yaml", &borrower("reproduced", "")),
    ]);
    let s = go(ws.path());
    assert!(!s.ok());
    assert!(errors_of(&s, "thesis/fig9.1").is_empty());
    let errors = errors_of(&s, "thesis/fig9.3");
    assert!(
        errors.len() == 1
            && errors[0].starts_with("experiments/thesis/fig9.3.yaml:5: status `reproduced` disagrees")
            && errors[0].contains(
                "the run thesis/fig9.1#dahl it takes by `from:` brings an assumption (unstated-parameter) supplies what the source does not state (sigma, L1)"
            ),
        "{errors:?}"
    );
    // Declared partial, the borrower is accepted.
    let b = ws.path().join("experiments/thesis/fig9.3.yaml");
    std::fs::write(&b, borrower("partial", "reason: \"sigma of fig9.1 unstated\"\n")).unwrap();
    assert!(go(ws.path()).ok());
    // An implied assumption naming the run but no inherited assumption settles nothing.
    let implied = "assumptions:\n  - what: \"sigma = 7.5 is stated for this case\"\n    why: \"L2\"\n    carries: implied\n    runs: dahl\n";
    std::fs::write(&b, borrower("reproduced", implied)).unwrap();
    let s = go(ws.path());
    assert!(
        errors_of(&s, "thesis/fig9.3").len() == 1 && s.invalid.is_empty(),
        "{:?} {:?}",
        errors_of(&s, "thesis/fig9.3"),
        s.invalid
    );
    // Settled for this case by an implied assumption naming the run and the inherited
    // assumption it answers (`settles:`): reproduced again.
    let settled = format!("{implied}    settles: \"sigma = 7.5\"\n");
    std::fs::write(&b, borrower("reproduced", &settled)).unwrap();
    let s = go(ws.path());
    assert!(s.ok(), "{:?} {:?}", errors_of(&s, "thesis/fig9.3"), s.invalid);
    // An owner's assumption about another of its runs is not inherited.
    let other = "  - id: other\n    system: dahl\n    params: {sigma: 2, fc: 1.5, gamma: 1}\n    input: {kind: sine, amplitude: 5, omega: 2}\n    sim: {periods: 2, samples_per_period: 400}\n";
    let scoped = owner
        .replace(
            "    supplies: \"sigma, L1\"\n",
            "    supplies: \"sigma, L1\"\n    runs: [other]\n",
        )
        .replace("runs:\n  - id: dahl\n", &format!("runs:\n{other}  - id: dahl\n"));
    std::fs::write(ws.path().join("experiments/thesis/fig9.1.yaml"), scoped).unwrap();
    std::fs::write(&b, borrower("reproduced", "")).unwrap();
    let s = go(ws.path());
    assert!(s.ok(), "{:?} {:?}", errors_of(&s, "thesis/fig9.3"), s.invalid);
}

/// `settles:` answers one inherited assumption by name; one that names none the run brings, or
/// a `replaced` one (a stated value no implied statement settles), or sits on another class,
/// is refused at its line.
#[test]
fn settles_names_an_inherited_unstated_assumption() {
    let owner = |carries: &str| {
        let text = if carries == "replaced" {
            "replaces: \"sigma = 5, L1\""
        } else {
            "supplies: \"sigma, L1\""
        };
        DAHL.replace(
            "status: reproduced\n",
            &format!("status: partial\nreason: \"sigma\"\nassumptions:\n  - what: \"sigma = 7.5\"\n    why: \"x\"\n    carries: {carries}\n    {text}\n"),
        )
    };
    let settles = |carries: &str, what: &str| {
        format!("assumptions:\n  - what: \"stated here\"\n    why: \"L2\"\n    carries: {carries}\n    runs: dahl\n    settles: \"{what}\"\n")
    };
    let cases = [
        (
            "unstated-parameter",
            settles("implied", "sigma = 2"),
            "names no assumption of `thesis/fig9.1`",
        ),
        (
            "replaced",
            settles("implied", "sigma = 7.5"),
            "answers a `replaced` assumption",
        ),
        (
            "unstated-parameter",
            settles("window", "sigma = 7.5"),
            "goes only with `carries: implied`",
        ),
    ];
    for (carries, extra, says) in cases {
        let ws = workspace(&[
            ("thesis/fig9.1.yaml", &owner(carries)),
            ("thesis/fig9.3.yaml", &borrower("reproduced", &extra)),
        ]);
        let s = go(ws.path());
        let all = located(&s);
        assert!(
            !s.ok() && all.contains("fig9.3.yaml:11:") && all.contains(says),
            "{says}: {all}"
        );
    }
}

/// A run borrowed from a manifest that fails validation is an error of the borrower, not an
/// empty inheritance that lets it pass as `reproduced`.
#[test]
fn a_run_borrowed_from_an_invalid_manifest_is_an_error() {
    // The owner supplies sigma and is invalid: its second assumption declares no class.
    let owner = DAHL.replace(
        "status: reproduced\n",
        "status: partial\nreason: \"sigma unstated\"\nassumptions:\n  - what: \"sigma = 7.5\"\n    why: \"unstated\"\n    carries: unstated-parameter\n    supplies: \"sigma, L1\"\n  - what: \"x\"\n    why: \"y\"\n",
    );
    let ws = workspace(&[
        ("thesis/fig9.1.yaml", &owner),
        ("thesis/fig9.3.yaml", &borrower("reproduced", "")),
    ]);
    let s = go(ws.path());
    assert!(located(&s).contains("fig9.1.yaml"), "{}", located(&s));
    let errors = errors_of(&s, "thesis/fig9.3");
    assert!(
        errors.len() == 1
            && errors[0].starts_with(
                "experiments/thesis/fig9.3.yaml:5: the run `dahl` borrows from an invalid manifest `thesis/fig9.1`"
            ),
        "{errors:?}"
    );
}

/// `not_built` says what is not built with its seed line: an empty or unsourced entry is
/// refused at its line (it would silence the reverse check); a sourced one is shown in the
/// HTML report beside the status.
#[test]
fn not_built_needs_a_seed_line() {
    let with = |entry: &str| {
        DAHL.replace(
            "status: reproduced\n",
            &format!("status: partial\nreason: \"not all built\"\nnot_built: [\"{entry}\"]\n"),
        )
    };
    for bad in ["", "x", "the measured curve", "the measured curve, L0", "L12"] {
        let ws = workspace(&[("thesis/fig9.1.yaml", &with(bad))]);
        let s = go(ws.path());
        let all = located(&s);
        assert!(
            !s.ok() && all.contains("fig9.1.yaml:7:") && all.contains("must say what of the source is not built"),
            "{bad:?}: {all}"
        );
    }
    let ws = workspace(&[("thesis/fig9.1.yaml", &with("the measured curve, L1"))]);
    let s = go(ws.path());
    assert!(s.ok(), "{:?} {}", errors_of(&s, "thesis/fig9.1"), located(&s));
    let html = std::fs::read_to_string(ws.path().join("figures/thesis/index.html")).unwrap();
    assert!(
        html.contains("<strong>Not built:</strong>") && html.contains("<li>the measured curve, L1</li>"),
        "{html}"
    );
}
