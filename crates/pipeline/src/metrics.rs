//! Every number guarded: the tidy metrics file (`figures/metrics.csv` and `.parquet`), the
//! committed baseline (`experiments/metrics.baseline.csv`), what moved against it, blessing new
//! values, and the provenance of a report (commit, dirty flag, tool and compiler versions).
//!
//! The rows, their CSV form and the comparison are `fric_report::metrics`; this module reads
//! and writes the files.

use crate::hash::sha256_hex;
use crate::parquet_file::{self, Column, Data};
use crate::store::write_if_changed;
use crate::summary::Summary;
use fric_report::metrics::{self, Change, MetricRow};
use fric_report::{Provenance, Report};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// The committed baseline of every metric, relative to the workspace root.
pub const BASELINE: &str = "experiments/metrics.baseline.csv";
/// The tidy metrics file, relative to the workspace root (with `.parquet` beside it).
pub const TIDY_CSV: &str = "figures/metrics.csv";
pub const TIDY_PARQUET: &str = "figures/metrics.parquet";

/// The rows as a Parquet file: strings, `value` as f64, nulls where a row has no sweep, value or
/// unit.
pub fn to_parquet(rows: &[MetricRow]) -> Result<Vec<u8>, String> {
    let text = |f: fn(&MetricRow) -> &str| Data::OptText(rows.iter().map(|r| Some(f(r))).collect());
    let opt = |f: fn(&MetricRow) -> Option<&str>| Data::OptText(rows.iter().map(f).collect());
    let cols = [
        ("document", text(|r| &r.document)),
        ("experiment", text(|r| &r.experiment)),
        ("metric", text(|r| &r.metric)),
        ("sweep", opt(|r| r.sweep.as_deref())),
        ("value", Data::OptDouble(rows.iter().map(|r| r.value).collect())),
        ("unit", opt(|r| r.unit.as_deref())),
    ];
    let cols: Vec<Column> = cols.into_iter().map(|(name, data)| Column { name, data }).collect();
    parquet_file::write(&cols)
}

/// Where the hashes of the last tidy files are kept, so that an unchanged run neither builds
/// the Parquet file nor misses a damaged one.
const TIDY_STAMP: &str = "data/cache/entries/metrics.sha256";

/// Write `figures/metrics.csv` and `figures/metrics.parquet` from the report, each only if its
/// bytes changed. The Parquet file is a function of the CSV text: it is rebuilt when the CSV
/// changed or either file no longer has the hash recorded when it was written. The record of
/// those hashes (in `data/cache/entries`) is best effort: when it cannot be written (a full or
/// read-only cache) the tidy files are written all the same, and its error is returned in `Ok`
/// for the run's one warning about the cache.
pub fn write_tidy(root: &Path, report: &Report) -> Result<Option<String>, String> {
    let rows = metrics::rows(report);
    let csv = metrics::to_csv(&rows);
    write_if_changed(&root.join(TIDY_CSV), csv.as_bytes()).map_err(|e| format!("{TIDY_CSV}: {e}"))?;
    let pq_path = root.join(TIDY_PARQUET);
    // Both reads through the bounded reader: a FIFO at either path is a mismatch, never opened.
    let file_hash = |p: &Path| {
        crate::readfile::read(p, crate::readfile::INPUT)
            .map(|b| sha256_hex(&b))
            .unwrap_or_default()
    };
    let stamp_path = root.join(TIDY_STAMP);
    let stamp = |pq: &str| format!("{} csv\n{pq} parquet\n", sha256_hex(csv.as_bytes()));
    if crate::readfile::read_to_string(&stamp_path, crate::readfile::INPUT)
        .is_ok_and(|s| s == stamp(&file_hash(&pq_path)))
    {
        return Ok(None);
    }
    let pq = to_parquet(&rows).map_err(|e| format!("{TIDY_PARQUET}: {e}"))?;
    write_if_changed(&pq_path, &pq).map_err(|e| format!("{TIDY_PARQUET}: {e}"))?;
    Ok(write_if_changed(&stamp_path, stamp(&sha256_hex(&pq)).as_bytes())
        .err()
        .map(|e| format!("{TIDY_STAMP}: {e}")))
}

/// The metric rows of a file: a `report.json` (by extension) or a metrics CSV (the tidy file or
/// a baseline).
pub fn read_rows(path: &Path) -> Result<Vec<MetricRow>, String> {
    let bytes = crate::readfile::read(path, crate::readfile::INPUT)?;
    if path.extension().is_some_and(|x| x == "json") {
        let r: Report = serde_json::from_slice(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(metrics::rows(&r));
    }
    let text = String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", path.display()))?;
    metrics::from_csv(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Whether the workspace has a committed baseline.
pub fn baseline_exists(root: &Path) -> bool {
    root.join(BASELINE).is_file()
}

/// The committed baseline; none (every metric new) when the file does not exist.
pub fn baseline(root: &Path) -> Result<Vec<MetricRow>, String> {
    let p = root.join(BASELINE);
    if !p.exists() {
        return Ok(Vec::new());
    }
    read_rows(&p)
}

/// Whether a manifest id is within what a run selected: every id without `--only` (so baseline
/// rows of deleted manifests count as removed), else the selected ones.
fn scope(s: &Summary) -> impl Fn(&str) -> bool + '_ {
    move |id: &str| !s.only || s.selected_ids.contains(id)
}

/// What moved in the run `s` against the baseline, or against `against` (a `report.json` or a
/// metrics CSV), within the manifests the run selected.
pub fn diff(root: &Path, s: &Summary, against: Option<&Path>) -> Result<Vec<Change>, String> {
    let old = match against {
        Some(p) => read_rows(p)?,
        None => baseline(root)?,
    };
    let cur = metrics::rows(&s.report);
    let tols = metrics::tolerances(&s.report);
    Ok(metrics::compare(&old, &cur, &tols, &scope(s)))
}

/// Accept the values of the run `s` (its selected manifests) as the new baseline; returns what
/// changed. A metric within its tolerance keeps its baseline value, so blessing on another
/// machine does not churn the last bits of every number. The file is rewritten only if its text
/// changed.
pub fn bless(root: &Path, s: &Summary) -> Result<Vec<Change>, String> {
    let old = baseline(root)?;
    let changes = diff(root, s, None)?;
    let changed: HashSet<(&str, &str)> = changes
        .iter()
        .map(|c| (c.experiment.as_str(), c.metric.as_str()))
        .collect();
    let kept: HashMap<(&str, &str), Option<f64>> = old
        .iter()
        .map(|r| ((r.experiment.as_str(), r.metric.as_str()), r.value))
        .collect();
    let mut cur = metrics::rows(&s.report);
    not_computed(&cur)?;
    for r in &mut cur {
        let k = (r.experiment.as_str(), r.metric.as_str());
        if let (false, Some(v)) = (changed.contains(&k), kept.get(&k)) {
            r.value = *v;
        }
    }
    let merged = metrics::merge(&old, &cur, &scope(s));
    write_if_changed(&root.join(BASELINE), metrics::to_csv(&merged).as_bytes())
        .map_err(|e| format!("{BASELINE}: {e}"))?;
    Ok(changes)
}

/// An error naming every metric of `rows` without a finite value: a baseline of `-inf` or of
/// nothing would guard nothing, so `bless` refuses it.
fn not_computed(rows: &[MetricRow]) -> Result<(), String> {
    let bad: Vec<String> = rows
        .iter()
        .filter(|r| !r.value.is_some_and(f64::is_finite))
        .map(|r| match r.value {
            Some(v) => format!("{} `{}` = {v}", r.experiment, r.metric),
            None => format!("{} `{}` (not computed)", r.experiment, r.metric),
        })
        .collect();
    if bad.is_empty() {
        return Ok(());
    }
    Err(format!(
        "not blessing: {} metric{} without a finite value: {}; fix the manifest or the run first",
        bad.len(),
        if bad.len() == 1 { "" } else { "s" },
        bad.join(", ")
    ))
}

/// The version of the compiler that built this crate (`rustc --version`, from the build script).
pub const RUSTC_VERSION: &str = env!("FRIC_RUSTC_VERSION");

/// Commit and dirty flag of the checkout at `root`, from one `git status` (no git, or not a
/// checkout: both unknown).
fn git(root: &Path) -> (Option<String>, Option<bool>) {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["status", "--porcelain=v2", "--branch", "--untracked-files=all"])
        // Never take the index lock: other processes may be using the checkout.
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output();
    let Ok(out) = out
        .map_err(|_| ())
        .and_then(|o| if o.status.success() { Ok(o) } else { Err(()) })
    else {
        return (None, None);
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let commit = text
        .lines()
        .find_map(|l| l.strip_prefix("# branch.oid "))
        .filter(|oid| oid.len() >= 40 && oid.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(str::to_string);
    let dirty = text.lines().any(counts_as_dirty);
    (commit, Some(dirty))
}

/// Whether a line of `git status --porcelain=v2` makes the checkout dirty: any change to a
/// tracked file, and an untracked file under `experiments/` or `data/` (a new manifest or
/// measured input changes what is computed; untracked outputs elsewhere, and the run cache
/// `data/cache/`, do not).
fn counts_as_dirty(line: &str) -> bool {
    match line.strip_prefix("? ") {
        Some(path) => {
            path.starts_with("experiments/") || (path.starts_with("data/") && !path.starts_with("data/cache/"))
        }
        None => !line.starts_with('#') && !line.is_empty(),
    }
}

/// The provenance of a report written now at `root`.
pub fn provenance(root: &Path) -> Provenance {
    let (commit, dirty) = git(root);
    Provenance {
        commit,
        dirty,
        tool: format!("fric-pipeline {}", env!("CARGO_PKG_VERSION")),
        rustc: (!RUSTC_VERSION.is_empty()).then(|| RUSTC_VERSION.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untracked_manifests_and_data_make_the_checkout_dirty() {
        assert!(counts_as_dirty("? experiments/mystudy/fig1.yaml"));
        assert!(counts_as_dirty("? data/mystudy/u.csv"));
        assert!(counts_as_dirty("1 .M N... 100644 100644 100644 a b crates/x.rs"));
        assert!(!counts_as_dirty("? notes.txt"));
        assert!(!counts_as_dirty("? data/cache/runs/ab/cd.bin"));
        assert!(!counts_as_dirty("# branch.oid abc"));
        assert!(!counts_as_dirty(""));
    }

    #[test]
    fn parquet_is_deterministic_and_readable() {
        let rows = vec![
            MetricRow {
                document: "thesis".into(),
                experiment: "thesis/fig1.9".into(),
                metric: "area".into(),
                sweep: Some("input.omega=2".into()),
                value: Some(28.8),
                unit: Some("J".into()),
            },
            MetricRow {
                document: "thesis".into(),
                experiment: "thesis/fig1.9".into(),
                metric: "b".into(),
                sweep: None,
                value: None,
                unit: None,
            },
        ];
        let a = to_parquet(&rows).unwrap();
        assert_eq!(a, to_parquet(&rows).unwrap());
        use parquet::file::reader::{FileReader, SerializedFileReader};
        use parquet::record::Field;
        let reader = SerializedFileReader::new(bytes::Bytes::from(a)).unwrap();
        let rows: Vec<Vec<(String, Field)>> = reader
            .get_row_iter(None)
            .unwrap()
            .map(|r| r.unwrap().into_columns())
            .collect();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0][4], ("value".to_string(), Field::Double(28.8)));
        assert_eq!(rows[1][4], ("value".to_string(), Field::Null));
        assert_eq!(rows[0][3].1, Field::Str("input.omega=2".into()));
        assert_eq!(rows[1][3], ("sweep".to_string(), Field::Null));
    }
}
