//! Evaluating and drawing one manifest: metrics, checks, alternative readings, explanations,
//! then its figure or table written.

use crate::entry::Entry;
use crate::entry_report::{registry_report, with_runs};
use crate::metric_tables::metrics_and_checks;
use crate::run_source::{Lazy, Source};
use crate::store::{self, write_if_changed, RunCache};
use crate::{companions, evaluate, hash, render, sensitivity, stamp, tables};
use fric_experiments::RunData;
use fric_manifest::Kind;
use fric_report::ExperimentReport;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

/// What evaluating one manifest produced.
pub(crate) struct Built {
    pub(crate) report: ExperimentReport,
    pub(crate) drawn: bool,
    pub(crate) table: bool,
    /// Output files with their sha256, and the render key (figures), for the stamp.
    pub(crate) outputs: BTreeMap<String, String>,
    pub(crate) render_key: Option<String>,
    /// Time spent drawing the figure (timed apart from the evaluation; a table is written in it).
    pub(crate) draw: crate::own_time::Spent,
}

/// The runs a manifest's evaluation may use: the computed ones, the failed ones, and the cache
/// (for the runs `explain` needs, which are not known in advance).
pub(crate) struct Runs<'a> {
    pub(crate) data: &'a HashMap<String, Arc<RunData>>,
    pub(crate) failed: &'a HashMap<String, String>,
    pub(crate) cache: &'a RunCache,
    /// The explanations' steps computed beside the runs.
    pub(crate) steps: &'a sensitivity::StepMemo,
    /// The runs of a batch over the per-process limit, released once computed: read again
    /// from the cache when needed.
    pub(crate) lazy: Option<&'a Lazy<'a>>,
}

/// Evaluate and render one built manifest, its checks also under the alternative `readings` of
/// its assumptions and, for known discrepancies that declare them, with the parameter values
/// that would explain them.
pub(crate) fn build_entry(
    root: &Path,
    e: &Entry,
    runs: &Runs,
    readings: &[sensitivity::Planned],
    prev: Option<&stamp::Stamp>,
    force: bool,
) -> Built {
    let (cache, steps) = (runs.cache, runs.steps);
    let src = Source::with_lazy(runs.data, runs.failed, runs.lazy);
    let mut b = Built {
        report: registry_report(e),
        drawn: false,
        table: false,
        outputs: BTreeMap::new(),
        render_key: None,
        draw: Default::default(),
    };
    let m = &e.manifest;
    let mut rendered = None;
    let mut b_draw = crate::own_time::Spent::default();
    let evaluated = with_runs(e, &src, &mut b.report, |runs, rep| {
        // Another manifest's fit results first: the metrics of metrics read them.
        crate::fit_refs::evaluate_fit_refs(cache, e, rep);
        metrics_and_checks(e, runs, rep);
        crate::finds::evaluate_finds(cache, e, rep);
        crate::fits::evaluate_fits(cache, e, rep);
        // The caption as every output shows it: its quotes filled (report.json, HTML, LaTeX).
        rep.caption = crate::quote::fill_or_keep(&m.source.caption, e, &rep.metrics, &mut rep.errors);
        sensitivity::attach(readings, &mut rep.checks, &src);
        let errors = sensitivity::explain_known(cache, steps, e, &mut rep.checks);
        rep.errors.extend(errors);
        evaluate::locate_checks(root, &e.file, &mut rep.checks);
        crate::metric_tables::verify_scales(root, e, runs, rep);
        if m.kind == Kind::Figure && m.status.is_built() {
            let (r, draw) = crate::own_time::own_spent(|| {
                let fitted = crate::marks::fitted_runs(cache, e, &rep.metrics);
                companions::magnitudes(e, &src)
                    .and_then(|units| render::render(root, e, runs, &rep.metrics, &fitted?, units, prev, force))
            });
            (rendered, b_draw) = (Some(r), draw);
        }
    });
    b.draw = b_draw;
    let rep = &mut b.report;
    if evaluated.is_none() {
        evaluate::locate_checks(root, &e.file, &mut rep.checks);
        return b;
    }
    match m.kind {
        // Not drawn: a computed manifest that is not built ([`computed`]).
        Kind::Figure => match rendered {
            None => {}
            Some(Ok(r)) => {
                b.drawn = r.drawn;
                rep.outputs = r.outputs.iter().map(|o| o.0.clone()).collect();
                b.outputs = r.outputs.into_iter().collect();
                b.render_key = Some(r.render_key);
            }
            Some(Err(err)) => rep.errors.push(format!("render: {err}")),
        },
        Kind::Table => {
            if let Some(t) = &m.table {
                let mut cells = None;
                let tex = tables::build(t, e, rep).and_then(|(columns, rows, notes)| {
                    let tex = fric_report::render_table(&fric_report::TableInput {
                        manifest: &m.id,
                        document: &m.source.document,
                        number: &m.source.number,
                        caption: &rep.caption,
                        lines: &t.lines,
                        columns: &columns,
                        rows: &rows,
                        notes: &notes,
                    });
                    cells = Some(fric_report::TableCells { columns, rows, notes });
                    tex
                });
                let rel = render::out_rel(&m.id, "tex");
                let written = tex.and_then(|s| {
                    let p = store::output_path(root, &rel)?;
                    write_if_changed(&p, s.as_bytes()).map_err(|e| e.to_string())?;
                    Ok(hash::sha256_hex(s.as_bytes()))
                });
                match written {
                    Ok(sha) => {
                        b.table = true;
                        rep.table = cells;
                        rep.outputs.push(rel.clone());
                        b.outputs.insert(rel, sha);
                    }
                    Err(err) => rep.errors.push(format!("table: {err}")),
                }
            }
        }
    }
    b
}
