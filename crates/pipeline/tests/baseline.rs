//! Every number guarded: the tidy metrics file, the committed baseline, what moved against it
//! (`cargo xtask diff`, `check`) and blessing new values; and the provenance in report.json.

mod common;

use common::{workspace, DAHL, LINEAR};
use fric_pipeline::metrics::{self, BASELINE};
use fric_pipeline::{run, Options, Summary};
use fric_report::metrics::{Change, ChangeKind};
use parquet::record::Field;
use std::path::Path;

/// The swept mass–spring–damper of fig9.2 with metrics: one per sweep member, one derived.
fn linear(c: f64) -> String {
    format!(
        "{}metrics:\n  \
         - {{name: peak_fast, kind: max, run: \"msd[0]\", y: y, unit: m}}\n  \
         - {{name: peak_slow, kind: max, run: \"msd[1]\", y: y, unit: m}}\n  \
         - {{name: ratio, kind: ratio, of: [peak_slow, peak_fast]}}\n",
        LINEAR.replace("c: 2,", &format!("c: {c},"))
    )
}

fn go(root: &Path, only: &[&str]) -> Summary {
    let mut o = Options::new(root);
    o.jobs = Some(2);
    o.only = only.iter().map(|s| s.to_string()).collect();
    run(&o).unwrap()
}

fn write(root: &Path, rel: &str, text: &str) {
    std::fs::write(root.join("experiments").join(rel), text).unwrap();
}

fn names(changes: &[Change]) -> Vec<(ChangeKind, String)> {
    changes
        .iter()
        .map(|c| (c.kind, format!("{}#{}", c.experiment, c.metric)))
        .collect()
}

/// The `check` of the runner: what moved against the committed baseline.
fn moved(root: &Path, s: &Summary) -> Vec<(ChangeKind, String)> {
    names(&metrics::diff(root, s, None).unwrap())
}

#[test]
fn a_parameter_change_in_another_manifest_fails_check_until_blessed() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", &linear(2.0))]);
    let root = ws.path();
    let s = go(root, &[]);
    // No baseline yet: every metric is new.
    assert_eq!(moved(root, &s).len(), 4);
    let blessed = metrics::bless(root, &s).unwrap();
    assert_eq!(blessed.len(), 4);
    assert!(blessed.iter().all(|c| c.kind == ChangeKind::New));
    assert!(moved(root, &go(root, &[])).is_empty(), "check passes after bless");

    // A deliberate change of a parameter no check looks at.
    write(root, "thesis/fig9.2.yaml", &linear(2.5));
    let s = go(root, &[]);
    assert!(s.ok(), "no published check fails");
    let changes = metrics::diff(root, &s, None).unwrap();
    assert_eq!(
        names(&changes),
        [
            (ChangeKind::Moved, "thesis/fig9.2#peak_fast".to_string()),
            (ChangeKind::Moved, "thesis/fig9.2#peak_slow".to_string()),
            (ChangeKind::Moved, "thesis/fig9.2#ratio".to_string()),
        ]
    );
    let fast = &changes[0];
    assert_eq!(fast.sweep.as_deref(), Some("input.omega=1"));
    assert_eq!(fast.unit.as_deref(), Some("m"));
    assert!(fast.new.unwrap() < fast.old.unwrap(), "more damping, smaller peak");
    let table = fric_report::metrics::diff_table(&changes);
    assert!(
        table.contains("peak_slow") && table.contains("input.omega=0.5"),
        "{table}"
    );
    // Still failing on the next run: nothing was accepted.
    assert_eq!(moved(root, &go(root, &[])).len(), 3);

    metrics::bless(root, &go(root, &[])).unwrap();
    assert!(moved(root, &go(root, &[])).is_empty());
    let text = std::fs::read_to_string(root.join(BASELINE)).unwrap();
    assert!(text.contains(&format!(
        "thesis,thesis/fig9.2,peak_fast,input.omega=1,{:?},m",
        fast.new.unwrap()
    )));
}

#[test]
fn new_and_removed_metrics_and_manifests_are_flagged() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", &linear(2.0))]);
    let root = ws.path();
    metrics::bless(root, &go(root, &[])).unwrap();
    let with_new = DAHL.replace(
        "checks:",
        "  - {name: fmax, kind: max, run: dahl, y: F, unit: N}\nchecks:",
    );
    write(root, "thesis/fig9.1.yaml", &with_new);
    std::fs::remove_file(root.join("experiments/thesis/fig9.2.yaml")).unwrap();
    let s = go(root, &[]);
    let got = moved(root, &s);
    assert!(got.contains(&(ChangeKind::New, "thesis/fig9.1#fmax".into())), "{got:?}");
    for m in ["peak_fast", "peak_slow", "ratio"] {
        assert!(
            got.contains(&(ChangeKind::Removed, format!("thesis/fig9.2#{m}"))),
            "{got:?}"
        );
    }
    assert_eq!(got.len(), 4);
    // With --only, only the selected manifests are compared (the removed one is not among them).
    let s = go(root, &["thesis/fig9.1"]);
    assert_eq!(moved(root, &s), [(ChangeKind::New, "thesis/fig9.1#fmax".to_string())]);
    // Blessing the selection keeps the other rows.
    metrics::bless(root, &s).unwrap();
    let text = std::fs::read_to_string(root.join(BASELINE)).unwrap();
    assert!(
        text.contains("fig9.1,fmax,") && text.contains("fig9.2,peak_fast,"),
        "{text}"
    );
    assert_eq!(moved(root, &go(root, &[])).len(), 3, "the removed ones remain");
}

/// Replace the baseline value of `metric` by `value`.
fn set_baseline(root: &Path, metric: &str, value: f64) {
    let p = root.join(BASELINE);
    let text = std::fs::read_to_string(&p).unwrap();
    let out: Vec<String> = text
        .lines()
        .map(|l| {
            let mut f: Vec<String> = l.split(',').map(String::from).collect();
            if f[2] == metric {
                f[4] = format!("{value:?}");
            }
            f.join(",")
        })
        .collect();
    std::fs::write(&p, out.join("\n") + "\n").unwrap();
}

#[test]
fn changes_within_the_tolerance_are_not_flagged() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    let root = ws.path();
    let s = go(root, &[]);
    metrics::bless(root, &s).unwrap();
    let area = s.report.experiments[0].metrics["area"].unwrap();
    // Last-bit differences (another CPU or compiler) are within the default 1e-9.
    set_baseline(root, "area", area * (1.0 + 1e-11));
    assert!(moved(root, &s).is_empty());
    // Blessing keeps a value within tolerance: no churn.
    metrics::bless(root, &s).unwrap();
    assert!(std::fs::read_to_string(root.join(BASELINE))
        .unwrap()
        .contains(&format!("{:?}", area * (1.0 + 1e-11))));
    set_baseline(root, "area", area * (1.0 + 1e-7));
    assert_eq!(moved(root, &s), [(ChangeKind::Moved, "thesis/fig9.1#area".to_string())]);
    // A metric's own `baseline_tol` replaces the default.
    let loose = DAHL.replace(
        "window: {periods: [1, 2]}}\nchecks:",
        "window: {periods: [1, 2]}, baseline_tol: {rel: 1.0e-6}}\nchecks:",
    );
    assert_ne!(loose, DAHL);
    write(root, "thesis/fig9.1.yaml", &loose);
    let s = go(root, &[]);
    assert!(moved(root, &s).is_empty());
    set_baseline(root, "area", area * (1.0 + 1e-5));
    assert_eq!(moved(root, &s).len(), 1);
}

#[test]
fn diff_against_another_report() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", &linear(2.0))]);
    let root = ws.path();
    go(root, &[]);
    let old = root.join("old-report.json");
    std::fs::copy(root.join("figures/report.json"), &old).unwrap();
    let old_csv = root.join("old-metrics.csv");
    std::fs::copy(root.join("figures/metrics.csv"), &old_csv).unwrap();
    write(root, "thesis/fig9.1.yaml", &DAHL.replace("sigma: 7.5", "sigma: 8"));
    let s = go(root, &[]);
    for against in [&old, &old_csv] {
        let got = names(&metrics::diff(root, &s, Some(against)).unwrap());
        assert_eq!(
            got,
            [(ChangeKind::Moved, "thesis/fig9.1#area".to_string())],
            "{against:?}"
        );
    }
    assert!(metrics::diff(root, &s, Some(&root.join("missing.csv"))).is_err());
}

/// Every row of a Parquet file as (column, field) pairs, read by the `parquet` crate's record
/// reader (not the pipeline's own).
fn parquet_rows(bytes: &[u8]) -> Vec<Vec<(String, Field)>> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(bytes::Bytes::copy_from_slice(bytes)).unwrap();
    let rows = reader.get_row_iter(None).unwrap();
    rows.map(|r| r.unwrap().into_columns()).collect()
}

#[test]
fn the_tidy_file_is_read_back_and_rewritten_only_on_change() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL), ("thesis/fig9.2.yaml", &linear(2.0))]);
    let root = ws.path();
    let s = go(root, &[]);
    let csv = std::fs::read_to_string(root.join("figures/metrics.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "document,experiment,metric,sweep,value,unit");
    assert!(lines[1].starts_with("thesis,thesis/fig9.1,area,,28.7"), "{csv}");
    assert!(
        lines[2].starts_with("thesis,thesis/fig9.2,peak_fast,input.omega=1,"),
        "{csv}"
    );
    assert!(lines[4].starts_with("thesis,thesis/fig9.2,ratio,,") && lines[4].ends_with(','));
    // Parquet: the same rows, nulls where there is no sweep or unit.
    let pq = std::fs::read(root.join("figures/metrics.parquet")).unwrap();
    let rows = parquet_rows(&pq);
    assert_eq!(rows.len(), 4);
    let names: Vec<&str> = rows[0].iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["document", "experiment", "metric", "sweep", "value", "unit"]);
    let area = s.report.experiments[0].metrics["area"].unwrap();
    assert_eq!(rows[0][4].1, Field::Double(area));
    assert_eq!(rows[0][3].1, Field::Null);
    assert_eq!(rows[2][5].1, Field::Str("m".into()));
    // A second run leaves both untouched; a deleted Parquet file comes back identical.
    let mtime = |p: &str| std::fs::metadata(root.join(p)).unwrap().modified().unwrap();
    let before = (mtime("figures/metrics.csv"), mtime("figures/metrics.parquet"));
    go(root, &[]);
    assert_eq!((mtime("figures/metrics.csv"), mtime("figures/metrics.parquet")), before);
    std::fs::remove_file(root.join("figures/metrics.parquet")).unwrap();
    go(root, &[]);
    assert_eq!(std::fs::read(root.join("figures/metrics.parquet")).unwrap(), pq);
    // A damaged one too.
    std::fs::write(root.join("figures/metrics.parquet"), b"PAR1").unwrap();
    go(root, &[]);
    assert_eq!(std::fs::read(root.join("figures/metrics.parquet")).unwrap(), pq);
}

fn git(root: &Path, args: &[&str]) -> bool {
    std::process::Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn provenance_is_in_the_report_and_nowhere_else() {
    let ws = workspace(&[("thesis/fig9.1.yaml", DAHL)]);
    let root = ws.path();
    let s = go(root, &[]);
    let p = s.report.provenance.clone().unwrap();
    assert_eq!(p.tool, format!("fric-pipeline {}", env!("CARGO_PKG_VERSION")));
    assert!(p.rustc.as_deref().is_some_and(|r| r.starts_with("rustc ")), "{p:?}");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("figures/report.json")).unwrap()).unwrap();
    assert_eq!(json["provenance"]["tool"], p.tool.as_str());
    let figure = |ext: &str| std::fs::read(root.join(format!("figures/thesis/fig9.1.{ext}"))).unwrap();
    let (svg, png) = (figure("svg"), figure("png"));
    if !git(root, &["init", "-q"]) {
        eprintln!("git is not available: the commit part of this test is skipped");
        return;
    }
    assert_eq!(
        (p.commit, p.dirty),
        (None, None),
        "a temporary directory is no checkout"
    );
    assert!(git(root, &["add", "experiments"]) && git(root, &["commit", "-q", "-m", "one"]));
    let s = go(root, &[]);
    let p = s.report.provenance.unwrap();
    let head = std::process::Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["rev-parse", "HEAD"])
        .output()
        .unwrap();
    assert_eq!(p.commit.as_deref(), Some(String::from_utf8_lossy(&head.stdout).trim()));
    assert_eq!(p.dirty, Some(false), "untracked outputs do not make the checkout dirty");
    // An edit of a tracked file does; the figures do not change with the checkout.
    write(root, "thesis/fig9.1.yaml", &format!("{DAHL}# comment\n"));
    let s = go(root, &[]);
    assert_eq!(s.report.provenance.unwrap().dirty, Some(true));
    assert_eq!((figure("svg"), figure("png")), (svg, png));
}
