//! What the runner prints: pipeline summaries, dry-run plans, the coverage list and the schema.

use fric_pipeline::plan::{Plan, Reason};
use fric_pipeline::{InvalidManifest, Summary};
use fric_report::metrics::{self, Change};
use fric_report::Outcome;
use std::path::Path;

/// `println!` that does not panic when stdout is closed (`cargo xtask list | head -3`): output
/// to a closed pipe is dropped.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}
pub(crate) use out;

pub fn invalid(invalid: &[InvalidManifest]) {
    for inv in invalid {
        for d in &inv.diagnostics {
            eprintln!("error: {d}");
        }
    }
}

/// One error per distinct cause: errors that differ only in a sweep member's index (one per
/// member of a swept run) as the first of them and how many more there are, in first-seen order.
pub fn distinct(errors: &[String]) -> Vec<(&str, usize)> {
    let mut out: Vec<(&str, usize, String)> = Vec::new();
    for e in errors {
        let blind = fric_manifest::member::member_blind(e);
        match out.iter_mut().find(|(_, _, b)| *b == blind) {
            Some(x) => x.1 += 1,
            None => out.push((e, 0, blind)),
        }
    }
    out.into_iter().map(|(e, n, _)| (e, n)).collect()
}

/// `s` with every number (a run of digits) replaced by `#`: the shape of a run's error, alike
/// for the members of a sweep that fail for one cause at different parameter values.
fn number_blind(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_digits = false;
    for c in s.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('#');
            }
            in_digits = true;
        } else {
            out.push(c);
            in_digits = false;
        }
    }
    out
}

/// The failed runs `(key, error)` one per distinct cause: those whose errors differ only in
/// numbers (the members of a swept run, each at its own value) as the first of them and how
/// many more there are, in first-seen order.
pub fn distinct_runs(failed: &[(String, String)]) -> Vec<(&str, &str, usize)> {
    let mut out: Vec<(&str, &str, usize, String)> = Vec::new();
    for (key, e) in failed {
        let blind = number_blind(e);
        match out.iter_mut().find(|x| x.3 == blind) {
            Some(x) => x.2 += 1,
            None => out.push((key, e, 0, blind)),
        }
    }
    out.into_iter().map(|(k, e, n, _)| (k, e, n)).collect()
}

/// The summary of a pipeline run: errors on stderr, the failure table and the counts on stdout.
pub fn summary(s: &Summary) {
    invalid(&s.invalid);
    // One line per distinct cause: the members of a swept run failing alike are one error.
    for (key, e, alike) in distinct_runs(&s.runs_failed) {
        let e = fric_pipeline::limits::bounded_error(e.to_string());
        match alike {
            0 => eprintln!("error: run {}: {e}", &key[..key.len().min(12)]),
            n => eprintln!(
                "error: run {}: {e} (and {n} more runs alike)",
                &key[..key.len().min(12)]
            ),
        }
    }
    for e in s.selected_reports() {
        if e.status != "invalid" {
            for (err, alike) in distinct(&e.errors) {
                match alike {
                    0 => eprintln!("error: {}: {err}", e.id),
                    n => eprintln!("error: {}: {err} (and {n} more sweep members alike)", e.id),
                }
            }
        }
    }
    for (key, e) in &s.readings_failed {
        eprintln!(
            "note: run {} of an alternative reading failed ({e}); the reading is reported as not evaluated",
            &key[..12]
        );
    }
    for (key, why) in &s.runs_recovered {
        eprintln!(
            "note: cache entry {} was corrupted ({why}) and has been recomputed",
            &key[..12]
        );
    }
    for (id, why) in &s.chains_panicked {
        eprintln!("warning: {id}: {why}; its explanations are computed again, or fail, where its checks are evaluated");
    }
    // One warning for everything the cache could not keep (a full or read-only data/cache).
    let records = s.records_unwritable.as_ref().map(|(e, n)| {
        format!("{n} records not written under data/cache (the first: {e}), so what they record is evaluated or read again next time")
    });
    match (&s.cache_unwritable, records) {
        (Some((dir, e, n)), records) => eprintln!(
            "warning: the run cache {} could not be written ({n} runs not stored; the first: {e}{}); \
             their results were evaluated and drawn, and will be computed again next time",
            dir.display(),
            records.map(|r| format!("; and {r}")).unwrap_or_default()
        ),
        (None, Some(r)) => eprintln!("warning: the cache could not be written: {r}; this run's results are complete"),
        (None, None) => {}
    }
    if s.batches > 1 {
        eprintln!(
            "note: the runs to compute were held in {} batches, one after the other, to stay within \
             {} (an estimated {:.2} GB at once)",
            s.batches,
            fric_pipeline::limits::PROCESS_BYTES.env,
            fric_pipeline::limits::PROCESS_BYTES.value() as f64 / 1e9
        );
    }
    if s.runs_released > 0 {
        eprintln!(
            "note: {} runs of manifests over {} were released once computed and read back from the cache \
             when their evaluation needed them (their data were never all held at once)",
            s.runs_released,
            fric_pipeline::limits::PROCESS_BYTES.env
        );
    }
    if s.stale_removed.entries > 0 {
        eprintln!(
            "note: removed {} cached runs of other builds ({:.1} MB), the least recently written beyond {} \
             ({:.2} GB); `cargo xtask clean --stale` removes them all",
            s.stale_removed.entries,
            s.stale_removed.bytes as f64 / 1e6,
            fric_pipeline::limits::STALE_CACHE_BYTES.env,
            fric_pipeline::limits::STALE_CACHE_BYTES.value() as f64 / 1e9
        );
    }
    if let Some(w) = &s.record_warning {
        eprintln!("warning: {w}");
    }
    left_out(&s.left_out);
    if s.temps_removed > 0 {
        eprintln!(
            "note: removed {} temporary files left by an interrupted run",
            s.temps_removed
        );
    }
    let table = fric_report::failures_table(&s.selected_report(), true);
    if !table.is_empty() {
        out!("{table}\n");
    }
    out!(
        "manifests: {} ({} selected), {} invalid",
        s.manifests,
        s.selected,
        s.invalid.len()
    );
    out!(
        "runs:      {} ({} computed, {} cached, {} recovered, {} failed)",
        s.runs_total,
        s.runs_computed,
        s.runs_cached,
        s.runs_recovered.len(),
        s.runs_failed.len()
    );
    let reading_runs = s.reading_runs_computed + s.reading_runs_cached + s.readings_failed.len();
    if reading_runs > 0 {
        out!(
            "           and {reading_runs} runs of alternative readings only ({} computed, {} cached, {} failed)",
            s.reading_runs_computed,
            s.reading_runs_cached,
            s.readings_failed.len()
        );
    }
    let checks: Vec<&fric_report::CheckReport> = s.selected_reports().flat_map(|e| &e.checks).collect();
    let sens: Vec<&fric_report::Sensitivity> = checks.iter().filter_map(|c| c.sensitivity.as_ref()).collect();
    let explained: Vec<&fric_report::CheckReport> =
        checks.iter().copied().filter(|c| !c.explained_by.is_empty()).collect();
    if !sens.is_empty() || !explained.is_empty() {
        let robust = sens.iter().filter(|x| x.robust).count();
        let failed = sens.iter().filter(|x| !x.failed.is_empty()).count();
        let open = sens
            .iter()
            .filter(|x| x.failed.is_empty() && !x.open.is_empty())
            .count();
        let with_value = explained
            .iter()
            .filter(|c| c.explained_by.iter().any(|x| x.value.is_some()))
            .count();
        out!(
            "readings:  {} checks under alternative readings: {robust} robust, {} assumption-sensitive, \
             {open} open (a reading's cycle does not close), {failed} failed; {} known discrepancies explained ({with_value} by a parameter value, {} by none in range)",
            sens.len(),
            sens.len() - robust - failed - open,
            explained.len(),
            explained.len() - with_value
        );
    }
    out!(
        "outputs:   {} figures drawn, {} up to date, {} tables",
        s.figures_drawn,
        s.figures_current,
        s.tables
    );
    out!(
        "checks:    {} passed, {} failed, {} known discrepancies ({}), {} unexpected passes, {} errors; {} transcribed values",
        s.count(Outcome::Pass),
        s.count(Outcome::Fail),
        s.count(Outcome::KnownDiscrepancy),
        kinds_text(&s.count_by_kind()),
        s.count(Outcome::UnexpectedPass),
        s.count(Outcome::Error),
        s.count(Outcome::Transcribed)
    );
    let with_errors: Vec<usize> = s
        .selected_reports()
        .filter(|e| e.status != "invalid" && !e.errors.is_empty())
        .map(|e| e.errors.len())
        .collect();
    if !with_errors.is_empty() {
        out!(
            "errors:    {} evaluation or drawing errors in {} manifests (above)",
            with_errors.iter().sum::<usize>(),
            with_errors.len()
        );
    }
    out!(
        "time:      {:.2} s   report: figures/report.json",
        s.elapsed.as_secs_f64()
    );
}

/// Known discrepancies by kind, for the summary: `2 source errors, 5 assumptions, 90 unresolved`.
pub fn kinds_text(counts: &std::collections::BTreeMap<fric_report::DiscrepancyKind, usize>) -> String {
    use fric_report::DiscrepancyKind as K;
    let n = |k: K| counts.get(&k).copied().unwrap_or(0);
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{}, {}, {}",
        plural(n(K::SourceError), "source error", "source errors"),
        plural(n(K::Assumption), "assumption", "assumptions"),
        format_args!("{} unresolved", n(K::Unresolved))
    )
}

/// `--timings`: the `n` manifests that took longest.
pub fn timings(t: &[fric_pipeline::timings::ManifestTime], n: usize, one_thread: bool) {
    if t.is_empty() {
        out!("timings:   nothing was computed or evaluated");
        return;
    }
    out!(
        "timings:   the {} slowest of {} manifests that took time, seconds per task (wall / CPU)",
        n.min(t.len()),
        t.len()
    );
    out!(
        "           (each run and evaluation timed without the tasks it ran nested on its thread; a run shared \
         by several manifests counts in each; explain: the elapsed wall time of its explanation chain{})",
        if one_thread {
            ""
        } else {
            "; with several threads the tasks overlap in time"
        }
    );
    out!(
        "  {:>13}  {:>13}  {:>4}  {:>7}  {:>13}  {:>13}  {:<30}  manifest",
        "total",
        "runs",
        "n",
        "explain",
        "evaluate",
        "draw",
        "slowest run (wall / CPU)"
    );
    let pair = |s: fric_pipeline::own_time::Spent| format!("{:.2} / {:.2}", s.wall, s.cpu);
    for m in t.iter().take(n) {
        let slowest = m
            .slowest_run
            .as_ref()
            .map_or("-".to_string(), |(sys, s)| format!("{sys} {}", pair(*s)));
        out!(
            "  {:>13}  {:>13}  {:>4}  {:>7.2}  {:>13}  {:>13}  {:<30}  {}",
            format!("{:.2} / {:.2}", m.total(), m.cpu()),
            pair(m.runs),
            m.computed,
            m.explain,
            pair(m.evaluate),
            pair(m.draw),
            slowest,
            m.id
        );
    }
}

/// `diff`: the table of what moved against `against`.
pub fn changes(changes: &[Change], against: &str) {
    if changes.is_empty() {
        out!("metrics: every metric matches {against} within its tolerance");
        return;
    }
    out!("metrics against {against}:\n{}", metrics::diff_table(changes));
    out!("metrics:   {}", metrics::counts(changes));
}

/// `check`: metrics that moved without a bless.
pub fn baseline_failure(changes: &[Change]) {
    out!(
        "metrics against {}:\n{}",
        fric_pipeline::metrics::BASELINE,
        metrics::diff_table(changes)
    );
    let names: Vec<String> = changes
        .iter()
        .take(5)
        .map(|c| format!("{} {}#{}", c.kind.as_str(), c.experiment, c.metric))
        .collect();
    let more = if changes.len() > 5 {
        format!(" and {} more", changes.len() - 5)
    } else {
        String::new()
    };
    eprintln!(
        "check failed: {} against the baseline {} ({}{more}); review with `cargo xtask diff`, \
         accept with `cargo xtask bless` and commit the baseline",
        metrics::counts(changes),
        fric_pipeline::metrics::BASELINE,
        names.join(", ")
    );
}

/// `bless`: what the baseline took.
pub fn blessed(changes: &[Change]) {
    if changes.is_empty() {
        out!("baseline: unchanged ({})", fric_pipeline::metrics::BASELINE);
        return;
    }
    out!("{}", metrics::diff_table(changes));
    out!(
        "baseline: {} written to {}; commit it",
        metrics::counts(changes),
        fric_pipeline::metrics::BASELINE
    );
}

/// A dry run: the runs that would be computed and the figures that would be drawn.
pub fn plan(p: &Plan) {
    invalid(&p.invalid);
    out!("dry run: nothing is computed or written");
    out!(
        "manifests: {} ({} selected), {} invalid",
        p.manifests,
        p.selected,
        p.invalid.len()
    );
    out!(
        "runs to compute: {} of {} ({} cached)",
        p.to_compute.len(),
        p.runs_total,
        p.runs_total - p.to_compute.len()
    );
    let w = p.to_compute.iter().map(|r| r.system.len()).max().unwrap_or(0);
    for r in &p.to_compute {
        let why = match &r.reason {
            Reason::Missing => String::new(),
            Reason::Forced => "  (--force)".into(),
            Reason::Corrupt(why) => format!("  (cache entry corrupted: {why})"),
        };
        out!("  {:<w$}  {}  {}{why}", r.system, &r.key[..12], r.used_by.join(", "));
    }
    out!(
        "figures to draw: {} of {} ({} up to date)",
        p.to_draw.len(),
        p.figures_total,
        p.figures_total - p.to_draw.len()
    );
    for id in &p.to_draw {
        out!("  {id}");
    }
    out!("tables: {} (each written only if its text changed)", p.tables);
}

/// `list`: the coverage table, or the manifests with one status (`status` is validated by the
/// command line, `doc` here against the declared documents: false when it is not one).
pub fn list(root: &Path, status: Option<&str>, doc: Option<&str>) -> bool {
    let loaded = fric_pipeline::load(root);
    if let Some(d) = doc.filter(|d| loaded.document(d).is_none()) {
        let ids: Vec<&str> = loaded.documents.iter().map(|d| d.id.as_str()).collect();
        eprintln!(
            "error: invalid value '{d}' for '--doc <DOC>': not a declared document\n  [possible values: {}]",
            ids.join(", ")
        );
        return false;
    }
    let cov = fric_pipeline::coverage(&loaded);
    if let Some(status) = status {
        let doc_ok = |id: &str| doc.is_none_or(|d| id.starts_with(&format!("{d}/")));
        if status == "invalid" {
            for i in &loaded.invalid {
                if doc_ok(i.file.trim_start_matches("experiments/")) {
                    out!("{}", i.file);
                }
            }
        }
        for e in &loaded.entries {
            let m = &e.manifest;
            if m.status.name() == status && doc_ok(&m.id) {
                let cap: String = m.source.caption.chars().take(70).collect();
                out!("{:<28} {}", m.id, cap);
            }
        }
        return true;
    }
    out!(
        "{:<16} {:>10} {:>8} {:>8} {:>8} {:>17} {:>8} {:>6}",
        "document",
        "reproduced",
        "partial",
        "computed",
        "pending",
        "not-reproducible",
        "invalid",
        "total"
    );
    let mut tot = [0usize; 7];
    for (name, m) in &cov {
        if doc.is_some_and(|d| d != name) {
            continue;
        }
        let g = |k: &str| m.get(k).copied().unwrap_or(0);
        // `computed`: a study of one's own, which claims no reproduction.
        let row = [
            g("reproduced"),
            g("partial"),
            g("computed"),
            g("pending"),
            g("not-reproducible"),
            g("invalid"),
        ];
        let total: usize = row.iter().sum();
        for (t, v) in tot.iter_mut().zip(row.iter().chain([total].iter())) {
            *t += v;
        }
        out!(
            "{:<16} {:>10} {:>8} {:>8} {:>8} {:>17} {:>8} {:>6}",
            name,
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            row[5],
            total
        );
    }
    out!(
        "{:<16} {:>10} {:>8} {:>8} {:>8} {:>17} {:>8} {:>6}",
        "all",
        tot[0],
        tot[1],
        tot[2],
        tot[3],
        tot[4],
        tot[5],
        tot[6]
    );
    // With --doc, the manifests of that document alone.
    let of_doc: Vec<_> = loaded
        .entries
        .iter()
        .filter(|e| doc.is_none_or(|d| e.manifest.source.document == d))
        .collect();
    let figs = of_doc
        .iter()
        .filter(|e| e.manifest.kind == fric_manifest::Kind::Figure)
        .count();
    out!(
        "\n{} figures and {} tables registered{}.",
        figs,
        of_doc.len() - figs,
        doc.map(|d| format!(" in {d}")).unwrap_or_default()
    );
    true
}

/// `schema`: what a manifest can use.
/// One list of kind declarations: name, meaning, fields (type, unit, required) and an example.
fn kinds(title: &str, list: &[fric_manifest::KindDoc]) {
    out!("{title}:\n");
    for k in list {
        out!("{}\n  {}", k.name, k.doc);
        fields(k.fields);
        out!("  example: {}\n", k.example);
    }
}

fn fields(list: &[fric_manifest::FieldDoc]) {
    for f in list {
        let unit = if f.unit.is_empty() {
            String::new()
        } else {
            format!(" [{}]", f.unit)
        };
        let need = match (f.required, f.default) {
            (true, _) => "required".to_string(),
            (false, Some(d)) => format!("optional, default {d}"),
            (false, None) => "optional".to_string(),
        };
        out!("  - {:<10} {:<8} {need}{unit}: {}", f.name, f.ty.name(), f.doc);
    }
}

pub fn schema() {
    out!("Systems (runs[].system):\n");
    for s in fric_experiments::systems() {
        out!("{}\n  {}", s.name, s.doc);
        out!(
            "  inputs: {}   methods: {} (default {}{}{})",
            s.input_names().join(", "),
            fric_experiments::methods::names(&s.all_methods()),
            s.methods[0],
            if s.default_note.is_empty() { "" } else { "; " },
            s.default_note
        );
        for (name, doc) in &s.invariants {
            out!("  invariant {name}: {doc}");
        }
        for p in &s.params {
            let kind = if p.kind == fric_experiments::ParamKind::Vector {
                "list"
            } else {
                "number"
            };
            let def = p.default.map(|d| format!(", default {d}")).unwrap_or_default();
            out!("  - {:<8} {:<7} in {}{}: {}", p.name, kind, p.range_text(), def, p.doc);
        }
        let cols: Vec<String> = s.columns.iter().map(|(n, u, _)| format!("{n} [{u}]")).collect();
        out!("  columns: {}\n", cols.join(", "));
    }
    out!("Sim: periods | t_end | steady_state {{tol, max_periods}}; samples_per_period; method; rtol; atol");
    out!("  (inputs without a period run for t_end; samples_per_period then counts samples over t_end)\n");
    out!("Methods (sim.method; each system lists the ones it takes):");
    for m in fric_experiments::methods::all() {
        out!("  {m}: {}", m.decl().doc);
        out!("    example: {}", m.decl().example);
    }
    out!();
    kinds(
        "The manifest (top level, assumptions, explain, quotes)",
        fric_manifest::MANIFEST_KINDS,
    );
    kinds("Runs (runs[], one of these forms)", fric_manifest::RUN_KINDS);
    kinds("Inputs (runs[].input, by `kind`)", &fric_experiments::inputs::docs());
    kinds("Post-processing (runs[].post[], by `op`)", fric_manifest::POST_KINDS);
    kinds(
        "Metrics (metrics[], by `kind`)",
        &fric_pipeline::evaluate::metric_kinds::docs(),
    );
    kinds("Windows (window: of series and metrics)", fric_manifest::WINDOW_KINDS);
    kinds("Figures (layout, panels[], axes, series)", fric_manifest::PANEL_KINDS);
    kinds("Tables (table: of a kind: table manifest)", fric_manifest::TABLE_KINDS);
    out!("Checks (checks[]):");
    fields(fric_manifest::CHECK_FIELDS);
    out!("");
    kinds(
        "Check provenance (checks[].provenance, one of)",
        fric_manifest::CHECK_KINDS,
    );
    kinds(
        "Series styles (series[].style, default solid)",
        &fric_plot::style::docs(),
    );
    out!("Colors (series[].color): {}", fric_plot::COLOR_NAMES.join(", "));
}

/// The note naming the manifest files an `--only` load neither read nor had a record of.
pub fn left_out(files: &[String]) {
    if !files.is_empty() {
        eprintln!(
            "note: {} manifest file(s) outside --only changed or are new since a run last read them, so they were not read and are left out of the report's site and coverage until a run reads them: {}",
            files.len(),
            files.join(", ")
        );
    }
}
