//! Which workspace a command works on, `--dry-run`, and the failure table, on small temporary
//! workspaces.

mod common;
use common::{repo, snapshot, workspace, write, xtask, xtask_ok, DAHL, LINEAR};
use std::path::Path;

fn is_workspace(d: &Path) -> bool {
    d.join("Cargo.toml").is_file() && d.join("experiments").is_dir()
}

#[test]
fn outside_a_workspace_is_an_error_unless_root_names_one() {
    let outside = tempfile::tempdir().unwrap();
    assert!(
        !outside.path().ancestors().any(is_workspace),
        "the temporary directory {} lies inside a workspace",
        outside.path().display()
    );
    for args in [
        &["figures"][..],
        &["check", "--dry-run"],
        &["list"],
        &["clean"],
        &["bench"],
    ] {
        let o = xtask(outside.path(), args);
        assert_eq!(o.code, 2, "{args:?}: {}{}", o.stdout, o.stderr);
        assert!(
            o.stderr.contains("no workspace found") && o.stderr.contains("--root DIR"),
            "{args:?}: {}",
            o.stderr
        );
        assert!(o.stdout.is_empty(), "{args:?}: {}", o.stdout);
    }
    assert!(snapshot(outside.path()).is_empty(), "nothing is written");
    // `schema` needs no workspace.
    assert_eq!(xtask(outside.path(), &["schema"]).code, 0);

    let repo = repo().canonicalize().unwrap();
    let root = repo.to_str().unwrap();
    for args in [["--root", root, "list"], ["list", "--root", root]] {
        let o = xtask_ok(outside.path(), &args);
        assert!(o.stderr.contains(&format!("workspace: {root}")), "{}", o.stderr);
        assert!(o.stdout.contains("registered"), "{}", o.stdout);
    }
    let o = xtask(outside.path(), &["--root", ".", "list"]);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("not a workspace"), "{}", o.stderr);
    let o = xtask(outside.path(), &["--root", "no/such/dir", "list"]);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("--root no/such/dir"), "{}", o.stderr);
}

#[test]
fn the_nearest_workspace_above_the_current_directory_is_used_and_named() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    let root = ws.path().canonicalize().unwrap();
    let o = xtask_ok(&root.join("experiments/thesis"), &["list", "--status", "reproduced"]);
    assert_eq!(o.stderr.trim(), format!("workspace: {}", root.display()));
    assert_eq!(o.stdout.trim(), "thesis/fig9.1                test figure");
    // `--root` wins over the current directory.
    let other = workspace(&[("thesis/fig9.2.yaml", LINEAR)]);
    let o = xtask(
        &root,
        &["--root", other.path().to_str().unwrap(), "list", "--status", "partial"],
    );
    assert!(o.stdout.starts_with("thesis/fig9.2 "), "{}", o.stdout);
}

#[test]
fn dry_run_lists_what_would_be_computed_and_drawn_and_writes_nothing() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", LINEAR)]);
    let root = ws.path();
    let before = snapshot(root);
    for cmd in ["figures", "check"] {
        let o = xtask_ok(root, &[cmd, "--dry-run"]);
        assert!(o.stderr.starts_with("workspace: "), "{}", o.stderr);
        let out = &o.stdout;
        assert!(out.contains("runs to compute: 3 of 3 (0 cached)"), "{out}");
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with("dahl ") && l.ends_with("thesis/fig9.1#dahl")),
            "{out}"
        );
        assert_eq!(out.matches("linear-msd ").count(), 2, "{out}");
        assert!(
            out.contains("thesis/fig9.2#msd[0]") && out.contains("thesis/fig9.2#msd[1]"),
            "{out}"
        );
        assert!(out.contains("figures to draw: 2 of 2 (0 up to date)"), "{out}");
        assert_eq!(snapshot(root), before, "`{cmd} --dry-run` wrote something");
    }
    xtask_ok(root, &["figures"]);
    let after_run = snapshot(root);
    let o = xtask_ok(root, &["check", "--dry-run"]);
    assert!(o.stdout.contains("runs to compute: 0 of 3 (3 cached)"), "{}", o.stdout);
    assert!(
        o.stdout.contains("figures to draw: 0 of 2 (2 up to date)"),
        "{}",
        o.stdout
    );
    assert_eq!(snapshot(root), after_run, "a dry run after a run wrote something");

    // A label edit redraws without recomputing; a missing series file redraws too.
    write(
        &root.join("experiments/thesis/fig9.1.yaml"),
        &DAHL.replace("LABEL", "other"),
    );
    std::fs::remove_file(root.join("figures/thesis/fig9.2/main-2.csv")).unwrap();
    let o = xtask(root, &["figures", "--dry-run"]);
    assert!(o.stdout.contains("runs to compute: 0 of 3"), "{}", o.stdout);
    assert!(o.stdout.contains("figures to draw: 2 of 2"), "{}", o.stdout);
    let o = xtask(root, &["figures", "--dry-run", "--only", "thesis/fig9.1"]);
    assert!(o.stdout.contains("manifests: 2 (1 selected)"), "{}", o.stdout);
    assert!(
        o.stdout
            .contains("figures to draw: 1 of 1 (0 up to date)\n  thesis/fig9.1\n"),
        "{}",
        o.stdout
    );

    // --force lists everything; a corrupted cache is recomputed.
    let o = xtask(root, &["figures", "--dry-run", "--force"]);
    assert!(
        o.stdout.contains("runs to compute: 3 of 3") && o.stdout.contains("(--force)"),
        "{}",
        o.stdout
    );
    for (p, _) in snapshot(&root.join("data/cache/runs")) {
        std::fs::write(p, b"garbage").unwrap();
    }
    let o = xtask(root, &["check", "--dry-run"]);
    assert!(o.stdout.contains("runs to compute: 3 of 3 (0 cached)"), "{}", o.stdout);
}

#[test]
fn a_selection_that_matches_nothing_is_an_error() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    for dry in [true, false] {
        let mut args = vec!["figures", "--only", "thesis/fig9.9"];
        if dry {
            args.push("--dry-run");
        }
        let o = xtask(ws.path(), &args);
        assert_eq!(o.code, 2, "{args:?}");
        assert!(
            o.stderr.contains("no manifest id matches --only thesis/fig9.9"),
            "{}",
            o.stderr
        );
    }
}

/// The failure table: failures first, values with the digits that tell them apart, deviation,
/// tolerance and the manifest line of each check.
#[test]
fn failure_table_names_file_line_deviation_and_tolerance() {
    let manifest = DAHL.replace(
        "  - {metric: area, expected: 28.8,",
        "  - {metric: area, expected: 30.0, tol: {rel: 1.0e-3}, provenance: {published: {line: 7, quote: \"an area of 30.0 J\", printed: \"30.0\"}}, \
         discrepancy: unresolved, known_discrepancy: \"printed value\"}\n  - {metric: area, expected: 28.0,",
    );
    let ws = workspace(&[("thesis/fig9.1.yaml", &manifest)]);
    let o = xtask(ws.path(), &["check"]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert!(
        lines[0].starts_with("outcome") && lines[0].contains("deviation"),
        "{}",
        o.stdout
    );
    let line_of = |needle: &str| manifest.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let (fail, known) = (lines[2], lines[3]);
    assert!(fail.starts_with("FAIL"), "{}", o.stdout);
    assert!(
        fail.contains(&format!("experiments/thesis/fig9.1.yaml:{}", line_of("expected: 28.0"))),
        "{fail}"
    );
    // Expected 28 within 2.8e-2: the row shows the deviation and the tolerance it exceeds.
    assert!(
        fail.contains("2.800000e1") && fail.contains("+2.8") && fail.contains("2.80e-2"),
        "{fail}"
    );
    assert!(known.starts_with("known discrepancy"), "{}", o.stdout);
    assert!(
        known.contains(&format!("experiments/thesis/fig9.1.yaml:{}", line_of("expected: 30.0"))),
        "{known}"
    );
    assert!(known.contains("3.000000e1") && known.contains("3.00e-2"), "{known}");
}

/// `check` fails while a metric differs from the committed baseline (here: none yet, then a
/// parameter change), `diff` shows it as a table with exit status 0, and `bless` accepts it.
#[test]
fn check_fails_on_a_moved_metric_until_blessed() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    let root = ws.path();
    let o = xtask(root, &["check"]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(
        o.stderr.contains("0 moved, 1 new, 0 removed")
            && o.stderr.contains("new thesis/fig9.1#area")
            && o.stderr.contains("cargo xtask diff")
            && o.stderr.contains("cargo xtask bless"),
        "{}",
        o.stderr
    );
    let o = xtask_ok(root, &["bless"]);
    assert!(o.stdout.contains("1 new") && root.join("experiments/metrics.baseline.csv").is_file());
    let o = xtask(root, &["check"]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("every metric matches the baseline"), "{}", o.stdout);
    write(
        &root.join("experiments/thesis/fig9.1.yaml"),
        &DAHL.replace("sigma: 7.5", "sigma: 7.4"),
    );
    let o = xtask(root, &["figures"]);
    assert_eq!(o.code, 0, "`figures` only notes it: {}", o.stderr);
    assert!(
        o.stderr.contains("note: metrics against the baseline: 1 moved"),
        "{}",
        o.stderr
    );
    let o = xtask_ok(root, &["diff"]);
    let row = o.stdout.lines().find(|l| l.starts_with("moved ")).unwrap_or_default();
    assert!(row.contains("thesis/fig9.1") && row.contains("area"), "{}", o.stdout);
    let o = xtask(root, &["check"]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("moved thesis/fig9.1#area"), "{}", o.stderr);
    assert_eq!(xtask(root, &["bless"]).code, 0);
    assert_eq!(xtask(root, &["check"]).code, 0);
}
