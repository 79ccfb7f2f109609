//! `sensitivity` and `explain`: printing what `fric_pipeline::sensitivity` finds, and writing
//! `figures/sensitivity.json`.

use crate::cli::{ExplainArgs, SensitivityArgs};
use crate::print::out;
use fric_pipeline::sensitivity::{self, ManifestSensitivity};
use fric_pipeline::Options;
use std::path::Path;
use std::process::ExitCode;

fn options(root: &Path, cache: Option<&Path>, jobs: Option<usize>) -> Options {
    let mut o = Options::new(root);
    o.jobs = jobs;
    o.cache_dir = cache.map(Path::to_path_buf);
    o
}

fn value(v: Option<f64>) -> String {
    v.map_or("—".into(), |v| format!("{v:.6}"))
}

fn print_manifest(m: &ManifestSensitivity) {
    out!(
        "{}: {} of {} checks robust under {} alternative readings",
        m.id,
        m.robust(),
        m.verdicts.len(),
        m.readings.len()
    );
    for r in &m.readings {
        let set: Vec<String> = r.set.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        out!(
            "  reading {}: {} (assumption: {})",
            r.name,
            set.join(", "),
            r.assumption
        );
        for e in &r.errors {
            out!("    error: {e}");
        }
    }
    for (k, v) in m.verdicts.iter().enumerate() {
        let base = &m.baseline[k];
        let mark = match (v.robust, v.failed.is_empty()) {
            (_, false) => "FAILED   ",
            (true, true) => "robust   ",
            (false, true) => "SENSITIVE",
        };
        let cells: Vec<String> = m
            .readings
            .iter()
            .map(|r| match r.checks.get(k) {
                Some(c) => format!(
                    "{}: {} {}",
                    r.name,
                    value(c.computed),
                    if c.pass { "met" } else { "not met" }
                ),
                None => format!("{}: —", r.name),
            })
            .collect();
        out!(
            "  {mark} {} {} {} ({}): as written {} {}; {}",
            v.metric,
            base.op.name(),
            base.expected,
            v.location.as_deref().unwrap_or(""),
            value(base.computed),
            if base.pass { "met" } else { "not met" },
            cells.join("; ")
        );
        if !v.failed.is_empty() {
            out!("            not evaluated under: {}", v.failed.join(", "));
        }
        if !v.flipped_by.is_empty() {
            out!("            flipped by: {}", v.flipped_by.join(", "));
        }
    }
}

/// `sensitivity`.
pub fn sensitivity(root: &Path, cache: Option<&Path>, a: &SensitivityArgs) -> ExitCode {
    let mut opts = options(root, cache, a.jobs);
    opts.only = a.only.clone();
    let found = match sensitivity::sensitivity(&opts) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    crate::print::invalid(&found.invalid);
    crate::print::left_out(&found.left_out);
    let (all, computed) = (&found.manifests, found.computed);
    for m in all {
        print_manifest(m);
    }
    let checks: usize = all.iter().map(|m| m.verdicts.len()).sum();
    let robust: usize = all.iter().map(|m| m.robust()).sum();
    let failed: usize = all.iter().map(|m| m.failed()).sum();
    let open: usize = all.iter().map(|m| m.open()).sum();
    let readings: usize = all.iter().map(|m| m.readings.len()).sum();
    let errors: usize = all.iter().flat_map(|m| &m.readings).map(|r| r.errors.len()).sum();
    out!(
        "sensitivity: {} manifests with alternatives, {readings} readings, {checks} checks: {robust} robust, {} assumption-sensitive, {open} open (a reading's cycle does not close), {failed} failed (a reading could not be evaluated); {computed} runs computed",
        all.len(),
        checks - robust - failed - open
    );
    if let Err(e) = sensitivity::write(root, &found) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    if !found.invalid.is_empty() {
        eprintln!(
            "error: {} selected manifests are invalid (above); their readings were not evaluated",
            found.invalid.len()
        );
        return ExitCode::FAILURE;
    }
    if errors > 0 {
        eprintln!("error: {errors} readings could not be evaluated (above)");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// `explain`.
pub fn explain(root: &Path, cache: Option<&Path>, a: &ExplainArgs) -> ExitCode {
    let r = match sensitivity::explain(&options(root, cache, a.jobs), &a.experiment, &a.metric) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    out!(
        "{} {}: expected {} ({}), computed {}",
        r.id,
        r.metric,
        r.expected,
        r.provenance,
        value(r.computed)
    );
    for x in &r.explanations {
        out!("  {}", x.text());
        if let Some(m) = x.metric_at_value {
            out!("    {} there = {m:.7}", r.metric);
        }
    }
    ExitCode::SUCCESS
}
