//! The manifest probes of the December reliability review that held (`reliability-2026-12.md`,
//! first paragraph), kept as tests so that they keep holding: hostile YAML (anchor bombs, deep
//! nesting, merge keys, zero-width characters), CRLF line ends, `from:` cycles and traversal,
//! and every bad sweep value. Each is refused at a line of its file, quickly and without a
//! panic, or (CRLF) read as its LF twin.

mod common;

use common::{workspace, DAHL, LINEAR};
use std::time::{Duration, Instant};

/// How long loading one hostile manifest may take (it takes milliseconds).
const QUICK: Duration = Duration::from_secs(20);

/// Load a workspace holding `files`; the loaded manifests and how long loading took.
fn load(files: &[(&str, &str)]) -> (fric_pipeline::load::Loaded, Duration) {
    let ws = workspace(files);
    let t = Instant::now();
    let loaded = fric_pipeline::load::load(ws.path());
    (loaded, t.elapsed())
}

/// `fig9.1` with `text` is refused quickly, every diagnostic at a line of its file.
fn refused_at_a_line(what: &str, text: &str) {
    let (loaded, took) = load(&[("thesis/fig9.1.yaml", text)]);
    assert!(took < QUICK, "{what}: loading took {took:?}");
    let bad = loaded
        .invalid
        .iter()
        .find(|i| i.file.ends_with("fig9.1.yaml"))
        .unwrap_or_else(|| panic!("{what}: accepted"));
    assert!(!bad.diagnostics.is_empty(), "{what}: refused without a diagnostic");
    for d in &bad.diagnostics {
        assert!(
            d.line >= 1 && d.file.ends_with("fig9.1.yaml"),
            "{what}: not located: {d:?}"
        );
        assert!(d.message.len() < 2000, "{what}: a message of {} bytes", d.message.len());
    }
}

/// `DAHL` with `from` replaced by `to` (which must occur).
fn with(from: &str, to: &str) -> String {
    assert!(DAHL.contains(from), "{from}");
    DAHL.replacen(from, to, 1)
}

#[test]
fn hostile_yaml_is_refused_at_a_line() {
    // A billion laughs: nine levels of nine aliases.
    let mut bomb = String::from("bomb:\n  l0: &l0 [x, x, x, x, x, x, x, x, x]\n");
    for i in 1..9 {
        let p = format!("*l{}", i - 1);
        bomb += &format!("  l{i}: &l{i} [{}]\n", [p.as_str(); 9].join(", "));
    }
    refused_at_a_line("an anchor bomb", &format!("{DAHL}{bomb}"));
    let deep = format!("{DAHL}deep: {}{}\n", "[".repeat(10_000), "]".repeat(10_000));
    refused_at_a_line("10 000 nested lists", &deep);
    let deep = format!("{DAHL}deep: {}1{}\n", "{a: ".repeat(10_000), "}".repeat(10_000));
    refused_at_a_line("10 000 nested mappings", &deep);
    refused_at_a_line(
        "a zero-width space in a run id",
        &with("  - id: dahl\n", "  - id: dahl\u{200b}\n"),
    );
    refused_at_a_line(
        "a right-to-left override in a label",
        &with("label: LABEL", "label: \"LA\u{202e}BEL\""),
    );
    refused_at_a_line("a document that is a list", "- 1\n- 2\n");
    refused_at_a_line("a document that is a number", "42\n");
}

#[test]
fn crlf_line_ends_read_as_lf() {
    let crlf = DAHL.replace('\n', "\r\n");
    let (loaded, _) = load(&[("thesis/fig9.1.yaml", &crlf)]);
    assert!(loaded.invalid.is_empty(), "{:?}", loaded.invalid);
    let (lf, _) = load(&[("thesis/fig9.1.yaml", DAHL)]);
    assert_eq!(loaded.entries[0].runs["dahl"].key, lf.entries[0].runs["dahl"].key);
}

#[test]
fn a_merge_key_is_read_or_refused_at_its_line() {
    let text = with(
        "    params: {sigma: 7.5, fc: 1.5, gamma: 1}\n",
        "    params:\n      <<: {sigma: 7.5, fc: 1.5}\n      gamma: 1\n",
    );
    let (loaded, took) = load(&[("thesis/fig9.1.yaml", &text)]);
    assert!(took < QUICK);
    match loaded.invalid.first() {
        Some(bad) => assert!(bad.diagnostics.iter().all(|d| d.line >= 1), "{bad:?}"),
        None => {
            let (lf, _) = load(&[("thesis/fig9.1.yaml", DAHL)]);
            assert_eq!(loaded.entries[0].runs["dahl"].key, lf.entries[0].runs["dahl"].key);
        }
    }
}

#[test]
fn from_cycles_and_traversal_are_refused_at_their_line() {
    let to_b = with(
        "  - id: dahl\n    system: dahl\n",
        "  - id: dahl\n    from: \"thesis/fig9.2#msd\"\n    system: dahl\n",
    );
    let to_a = LINEAR.replacen(
        "  - id: msd\n    system: linear-msd\n",
        "  - id: msd\n    from: \"thesis/fig9.1#dahl\"\n    system: linear-msd\n",
        1,
    );
    assert_ne!(to_a, LINEAR);
    let (loaded, took) = load(&[("thesis/fig9.1.yaml", &to_b), ("thesis/fig9.2.yaml", &to_a)]);
    assert!(took < QUICK);
    assert!(!loaded.invalid.is_empty(), "a `from:` cycle was accepted");
    for bad in &loaded.invalid {
        assert!(bad.diagnostics.iter().all(|d| d.line >= 1), "{bad:?}");
    }
    for target in [
        "../../../etc/passwd#x",
        "/etc/passwd#x",
        "thesis/../../x#dahl",
        "thesis/fig9.1#dahl",
    ] {
        let text = with(
            "  - id: dahl\n    system: dahl\n",
            &format!("  - id: dahl\n    from: \"{target}\"\n    system: dahl\n"),
        );
        refused_at_a_line(&format!("from: {target}"), &text);
    }
}

#[test]
fn every_bad_sweep_value_is_refused_at_a_line() {
    let sim = "    sim: {periods: 2, samples_per_period: 400}\n";
    for (what, sweep) in [
        ("NaN", "{param: sigma, values: [.nan]}"),
        ("infinity", "{param: sigma, values: [.inf]}"),
        ("1e400", "{param: sigma, values: [1e400]}"),
        ("no values", "{param: sigma, values: []}"),
        ("a negative frequency", "{param: input.omega, values: [-1]}"),
        ("a zero frequency", "{param: input.omega, values: [0]}"),
        ("an unknown parameter", "{param: nosuch, values: [1]}"),
        (
            "zipped lists of unequal length",
            "{zip: [{param: sigma, values: [1, 2]}, {param: fc, values: [1]}]}",
        ),
    ] {
        refused_at_a_line(what, &with(sim, &format!("{sim}    sweep: {sweep}\n")));
    }
}
