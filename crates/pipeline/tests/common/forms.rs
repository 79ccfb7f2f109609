//! What the manifest-form tests (`find`, `fit`) share: one manifest evaluated in a fresh
//! workspace at a job count, and the one diagnostic an invalid manifest must have.

use super::workspace;

/// The manifest `text` written at `file` (under `experiments/`) in a fresh workspace and run
/// with `jobs` workers (an empty run cache each time).
pub fn run_manifest(file: &str, text: &str, jobs: usize) -> fric_pipeline::Summary {
    let ws = workspace(&[(file, text)]);
    let mut o = fric_pipeline::Options::new(ws.path());
    o.jobs = Some(jobs);
    fric_pipeline::run(&o).unwrap()
}

/// [`run_manifest`], which must load and evaluate without an error: its report.
pub fn evaluated(file: &str, text: &str, jobs: usize) -> fric_report::ExperimentReport {
    let s = run_manifest(file, text, jobs);
    assert!(s.invalid.is_empty(), "{:#?}", s.invalid);
    let fig = s.report.experiments.into_iter().next().expect("one manifest");
    assert!(fig.errors.is_empty(), "{:?}", fig.errors);
    fig
}

/// The only diagnostic of the manifest `text` at `file`, which must be invalid: at `line`, its
/// message containing `message`, its allowed values `allowed`.
pub fn only_diagnostic(file: &str, text: &str, line: usize, message: &str, allowed: &str) {
    let ws = workspace(&[(file, text)]);
    let loaded = fric_pipeline::load(ws.path());
    assert_eq!(loaded.invalid.len(), 1, "{text}");
    let d = &loaded.invalid[0].diagnostics;
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].line, line, "{}", d[0]);
    assert!(d[0].message.contains(message), "{}", d[0]);
    assert!(d[0].allowed.contains(allowed), "{}", d[0]);
}

/// The diagnostics of the manifest `text` at `file`, which must be invalid.
pub fn diagnostics(file: &str, text: &str) -> Vec<fric_manifest::Diagnostic> {
    let ws = workspace(&[(file, text)]);
    let loaded = fric_pipeline::load(ws.path());
    assert!(!loaded.invalid.is_empty(), "{text}");
    loaded.invalid[0].diagnostics.clone()
}
