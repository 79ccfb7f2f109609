//! The command line: help with examples, version, suggestions for misspellings, and values
//! checked against what is allowed (exit 2, never an empty result).

mod common;
use common::{repo, xtask, xtask_ok};

const COMMANDS: [&str; 8] = ["figures", "check", "diff", "bless", "list", "schema", "clean", "bench"];

#[test]
fn help_lists_every_command_with_examples() {
    for args in [&["--help"][..], &["-h"], &["help"]] {
        let o = xtask(&repo(), args);
        assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
        for c in COMMANDS {
            assert!(
                o.stdout.contains(&format!("  {c} ")),
                "{args:?} lacks `{c}`:\n{}",
                o.stdout
            );
        }
        assert!(o.stdout.contains("--root <DIR>"), "{}", o.stdout);
        assert!(
            o.stdout.contains("cargo xtask figures --only 'thesis/fig1.*'"),
            "{}",
            o.stdout
        );
        assert!(
            o.stdout.contains("cargo xtask list --status pending --doc report"),
            "{}",
            o.stdout
        );
    }
}

#[test]
fn every_command_has_its_own_help_with_examples() {
    let expect: [(&str, &[&str]); 8] = [
        (
            "figures",
            &[
                "--only <PATTERN>",
                "--force",
                "--jobs <N>",
                "--dry-run",
                "figures --only 'thesis/fig1.*'",
            ],
        ),
        (
            "check",
            &["--dry-run", "Exit status", "check --only", "metrics.baseline.csv"],
        ),
        (
            "diff",
            &[
                "--against <FILE>",
                "--only <PATTERN>",
                "diff --against old/figures/report.json",
            ],
        ),
        ("bless", &["--only <PATTERN>", "metrics.baseline.csv", "bless --only"]),
        (
            "list",
            &[
                "--status <STATUS>",
                "not-reproducible",
                "document.yaml",
                "list --status pending --doc report",
            ],
        ),
        ("schema", &["cargo xtask schema"]),
        ("clean", &["cargo xtask clean"]),
        ("bench", &["lugre, vdp, coulomb, bristle500", "bench --only bristle500"]),
    ];
    for (cmd, needles) in expect {
        for args in [vec!["help", cmd], vec![cmd, "--help"], vec![cmd, "-h"]] {
            let o = xtask(&repo(), &args);
            assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
            assert!(
                o.stdout.contains(&format!("Usage: cargo xtask {cmd}")),
                "{args:?}:\n{}",
                o.stdout
            );
            assert!(o.stdout.contains("Examples:"), "{args:?}:\n{}", o.stdout);
            for n in needles {
                assert!(o.stdout.contains(n), "{args:?} lacks `{n}`:\n{}", o.stdout);
            }
        }
    }
}

#[test]
fn version() {
    for flag in ["--version", "-V"] {
        let o = xtask_ok(&repo(), &[flag]);
        assert_eq!(o.stdout.trim(), format!("xtask {}", env!("CARGO_PKG_VERSION")));
    }
}

#[test]
fn misspellings_get_a_suggestion() {
    let cases: [(&[&str], &str); 4] = [
        (&["figurs"], "'figures'"),
        (&["figures", "--onyl", "x"], "'--only'"),
        (&["check", "--dry-rum"], "'--dry-run'"),
        (&["lsit"], "'list'"),
    ];
    for (args, tip) in cases {
        let o = xtask(&repo(), args);
        assert_eq!(o.code, 2, "{args:?}");
        assert!(
            o.stderr.contains("similar") && o.stderr.contains(tip),
            "{args:?}:\n{}",
            o.stderr
        );
        assert!(o.stdout.is_empty(), "{args:?} printed {}", o.stdout);
    }
}

#[test]
fn no_command_prints_help_and_fails() {
    let o = xtask(&repo(), &[]);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("Usage: cargo xtask"), "{}", o.stderr);
}

/// The project's declared documents.
const DOCUMENTS: &[&str] = &[
    "thesis",
    "stribeck-paper",
    "report",
    "duhem-paper",
    "ruderman-paper",
    "followup",
];

/// A bad value is an error that names the allowed values, never an empty table.
#[test]
fn values_are_checked_against_what_is_allowed() {
    let cases: [(&[&str], &[&str]); 8] = [
        (&["list", "--doc", "thesiss"], DOCUMENTS),
        (
            &["list", "--status", "done"],
            &[
                "reproduced",
                "partial",
                "pending",
                "not-reproducible",
                "computed",
                "invalid",
            ],
        ),
        (&["list", "--status", "pending", "--doc", "paper"], DOCUMENTS),
        (&["figures", "--jobs", "0"], &["positive whole number"]),
        (&["check", "-j", "two"], &["positive whole number"]),
        (&["figures", "--jobs", "-1"], &["positive whole number"]),
        (
            &["bench", "--only", "lugre2"],
            &["lugre", "vdp", "coulomb", "bristle500"],
        ),
        (
            &["figures", "--only", "thesis/[fig"],
            &["not a glob pattern", "unclosed character class"],
        ),
    ];
    for (args, allowed) in cases {
        let o = xtask(&repo(), args);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert!(o.stdout.is_empty(), "{args:?} printed:\n{}", o.stdout);
        assert!(o.stderr.contains("error: "), "{args:?}: {}", o.stderr);
        for a in allowed {
            assert!(o.stderr.contains(a), "{args:?} does not name `{a}`:\n{}", o.stderr);
        }
    }
}

#[test]
fn valid_values_are_accepted() {
    xtask_ok(&repo(), &["list", "--status", "pending", "--doc", "report"]);
    let o = xtask_ok(&repo(), &["list", "--doc", "thesis"]);
    assert!(o.stdout.lines().any(|l| l.starts_with("thesis ")), "{}", o.stdout);
    assert!(!o.stdout.lines().any(|l| l.starts_with("report ")), "{}", o.stdout);
}

/// README's "Commands" section shows the real help.
#[test]
fn readme_shows_the_real_help() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let help = xtask(&repo(), &["--help"]).stdout;
    assert!(
        readme.contains(help.trim()),
        "README.md lacks the output of `cargo xtask --help`:\n{help}"
    );
    for cmd in ["figures", "diff", "list"] {
        let h = xtask(&repo(), &["help", cmd]).stdout;
        let options = &h[h.find("Options:").unwrap()..];
        let options = &options[..options.find("\n\n").unwrap()];
        assert!(
            readme.contains(options),
            "README.md lacks the options of `{cmd}`:\n{options}"
        );
    }
}

/// `cargo xtask schema | head -1`: output to a closed pipe is dropped, not a panic.
#[test]
fn a_closed_stdout_is_not_a_panic() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .current_dir(repo())
        .arg("schema")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

/// `schema` lists every kind with its fields and an example (the `scale` step's factor among
/// them); `schema --json` prints the JSON Schema that `experiments/manifest.schema.json` holds.
#[test]
fn schema_lists_fields_and_prints_the_json_schema() {
    let o = xtask_ok(&repo(), &["schema"]);
    for needle in [
        "Inputs (runs[].input",
        "triangle",
        "t_column",
        "Post-processing (runs[].post[]",
        "the factor",
        "Metrics (metrics[]",
        "example: {name: area, kind: loop-area",
        // The metric arithmetic, declared with its evaluation; the methods, from their enum.
        "example: {name: loss, kind: negate, of: area}",
        "example: {name: f_c, kind: constant, value: 1.5",
        "Methods (sim.method",
        "  integrating-factor: exact along the input",
        "Check provenance",
        "Figures (layout, panels[]",
    ] {
        assert!(o.stdout.contains(needle), "schema lacks {needle:?}");
    }
    let o = xtask_ok(&repo(), &["schema", "--json"]);
    let committed = std::fs::read_to_string(repo().join("experiments/manifest.schema.json")).unwrap();
    assert_eq!(o.stdout, committed);
}
