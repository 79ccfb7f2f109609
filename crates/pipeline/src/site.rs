//! The reproduction report as a static site under `figures/` (`index.html`, `<doc>/index.html`,
//! `discrepancies.html`), `figures/reproduction-body.tex`, which `paper/reproduction.tex`
//! inputs, and `figures/pgfplots-all.tex`, which inputs every figure's PGFPlots version.
//!
//! Gathered from the full report (with `--only`, the other manifests as the last report had
//! them), the loaded manifests and documents and, when present, each document's source text
//! (its `document.yaml` names it; cited lines are quoted; without the text the site is built
//! without quotes). Formatting is
//! `fric_report::site`'s.

use crate::entry::Loaded;
use crate::entry_report::registry_report;
use crate::selection::invalid_id;
use crate::store::{output_path, write_if_changed};
use fric_report::site::{Assumption, Check, CoverageRow, DocPage, Item, Quote, Site};
use fric_report::Report;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// The lines of a document's source text (a path relative to the workspace root), when it
/// can be read.
fn seed_lines(root: &Path, file: &str) -> Option<Vec<String>> {
    let text = crate::readfile::read(&root.join(file), crate::readfile::INPUT).ok()?;
    Some(String::from_utf8_lossy(&text).lines().map(str::to_string).collect())
}

/// A document's title line: authors, title (year), DOI when it has one.
fn title_line(d: &fric_manifest::DocumentDecl) -> String {
    let mut t = if d.authors.is_empty() {
        d.title.clone()
    } else {
        format!("{}, {}", d.authors.join(", "), d.title)
    };
    if let Some(y) = d.year {
        t.push_str(&format!(" ({y})"));
    }
    if let fric_manifest::DocSource::Doi(doi) = &d.source {
        t.push_str(&format!(", doi:{doi}"));
    }
    t
}

fn quotes(lines: &[u32], seed: Option<&Vec<String>>) -> Vec<Quote> {
    lines
        .iter()
        .map(|&l| Quote {
            line: l,
            text: seed
                .and_then(|s| s.get((l as usize).checked_sub(1)?))
                .map(|t| t.trim().to_string()),
        })
        .collect()
}

/// Order ids as numbers are read: `fig1.2` before `fig1.10`.
fn natural_key(s: &str) -> Vec<(u8, u64, String)> {
    let mut out = Vec::new();
    let mut chars = s.chars().peekable();
    while let Some(&c) = chars.peek() {
        let digit = c.is_ascii_digit();
        let mut chunk = String::new();
        while let Some(&c) = chars.peek().filter(|c| c.is_ascii_digit() == digit) {
            chunk.push(c);
            chars.next();
        }
        let n = if digit { chunk.parse().unwrap_or(u64::MAX) } else { 0 };
        out.push((u8::from(digit), n, if digit { String::new() } else { chunk }));
    }
    out
}

/// Everything the site shows.
pub fn build(root: &Path, loaded: &Loaded, report: &Report) -> Site {
    let entries: HashMap<&str, &crate::entry::Entry> =
        loaded.entries.iter().map(|e| (e.manifest.id.as_str(), e)).collect();
    let invalid_files: HashMap<String, &str> = loaded
        .invalid
        .iter()
        .map(|i| (invalid_id(i), i.file.as_str()))
        .collect();
    let exists = |p: &str| root.join(p).is_file();
    // A manifest missing from the report (an `--only` run without an earlier report) is shown
    // as registered.
    let reported: std::collections::HashSet<&str> = report.experiments.iter().map(|r| r.id.as_str()).collect();
    let mut reports = report.experiments.clone();
    reports.extend(
        loaded
            .entries
            .iter()
            .filter(|e| !reported.contains(e.manifest.id.as_str()))
            .map(registry_report),
    );
    let mut site = Site {
        provenance: report.provenance.clone(),
        ..Site::default()
    };
    let mut all = CoverageRow {
        doc: "all".into(),
        all_documents: true,
        ..Default::default()
    };
    for d in &loaded.documents {
        let doc = d.id.as_str();
        let seed_file = match &d.decl.source {
            fric_manifest::DocSource::File(f) => Some(f.as_str()),
            _ => None,
        };
        let seed = seed_file.and_then(|f| seed_lines(root, f));
        let mut page = DocPage {
            id: doc.into(),
            title: title_line(&d.decl),
            seed: seed_file.map(|f| f.rsplit('/').next().unwrap_or(f).to_string()),
            seed_present: seed.is_some(),
            items: Vec::new(),
        };
        // Manifests by status as `cargo xtask list` counts them.
        let counts = report.coverage.get(doc);
        let n = |s: &str| counts.and_then(|c| c.get(s)).copied().unwrap_or(0);
        let mut cov = CoverageRow {
            doc: doc.into(),
            reproduced: n("reproduced"),
            partial: n("partial"),
            computed: n("computed"),
            pending: n("pending"),
            not_reproducible: n("not-reproducible"),
            invalid: n("invalid"),
            total: counts.map_or(0, |c| c.values().sum()),
            ..Default::default()
        };
        for r in reports.iter().filter(|r| r.id.split('/').next() == Some(doc)) {
            let entry = entries.get(r.id.as_str());
            let m = entry.map(|e| &e.manifest);
            let file = entry
                .map(|e| e.file.as_str())
                .or_else(|| invalid_files.get(&r.id).copied());
            let output = |ext: &str| {
                r.outputs
                    .iter()
                    .find(|o| o.ends_with(ext) && !(ext == ".tex" && o.ends_with(".pgf.tex")) && exists(o))
                    .cloned()
            };
            let checks = r
                .checks
                .iter()
                .map(|c| {
                    let abs_dev = c.computed.map(|v| v - c.expected);
                    Check {
                        report: c.clone(),
                        abs_dev,
                        rel_dev: abs_dev.filter(|_| c.expected != 0.0).map(|d| d / c.expected.abs()),
                        quotes: quotes(&c.lines, seed.as_ref()),
                    }
                })
                .collect::<Vec<_>>();
            for c in &r.checks {
                cov.count_check(c);
            }
            page.items.push(Item {
                id: r.id.clone(),
                name: r.id.split_once('/').map_or(r.id.as_str(), |x| x.1).to_string(),
                kind: m.map_or(r.kind, |m| m.kind.into()),
                number: m.map_or_else(String::new, |m| m.source.number.clone()),
                caption: r.caption.clone(),
                status: r.status.clone(),
                reason: r.reason.clone(),
                not_built: m.map_or_else(Vec::new, |m| m.not_built.clone()),
                manifest: file.filter(|f| exists(f)).map(String::from),
                png: output(".png"),
                svg: output(".svg"),
                tex: output(".tex"),
                pgf: output(".pgf.tex"),
                table_html: r.table.as_ref().map(fric_report::site::table_html),
                csvs: r
                    .outputs
                    .iter()
                    .filter(|o| o.ends_with(".csv") && exists(o))
                    .cloned()
                    .collect(),
                lines: m.map_or_else(Vec::new, |m| quotes(&m.source.lines, seed.as_ref())),
                assumptions: m.map_or_else(Vec::new, |m| {
                    m.assumptions
                        .iter()
                        .map(|a| Assumption {
                            what: a.what.clone(),
                            why: a.why.clone(),
                            carries: a.carries.map(|c| c.name().to_string()),
                            blocks: a.carries.is_some_and(|c| c.blocks_reproduced()),
                            replaces: a.replaces.clone(),
                            supplies: a.supplies.clone(),
                            alternatives: a
                                .alternatives
                                .iter()
                                .map(|x| {
                                    let set: Vec<String> = x.set.iter().map(|(k, v)| format!("{k} = {v}")).collect();
                                    let why = x.why.as_ref().map_or(String::new(), |w| format!(" — {w}"));
                                    format!("{} (run {}): {}{why}", x.name, x.run.ids().join(", "), set.join(", "))
                                })
                                .collect(),
                        })
                        .collect()
                }),
                checks,
                errors: r.errors.clone(),
            });
        }
        page.items.sort_by_cached_key(|i| natural_key(&i.name));
        all.add(&cov);
        site.coverage.push(cov);
        site.documents.push(page);
    }
    site.coverage.push(all);
    site
}

/// Render the site and the LaTeX body and write whatever changed.
pub fn write(root: &Path, site: &Site) -> Result<(), String> {
    let mut files: BTreeMap<String, String> = fric_report::site::render_site(site)?
        .into_iter()
        .map(|(p, html)| (format!("figures/{p}"), html))
        .collect();
    files.insert(
        "figures/reproduction-body.tex".into(),
        fric_report::site::render_reproduction_body(site)?,
    );
    files.insert(
        "figures/pgfplots-all.tex".into(),
        fric_report::site::render_pgfplots_all(site)?,
    );
    for (rel, text) in files {
        let p = output_path(root, &rel)?;
        write_if_changed(&p, text.as_bytes()).map_err(|e| format!("{rel}: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::natural_key;

    #[test]
    fn natural_order() {
        let mut v = vec!["fig1.10", "fig1.2", "figC.1", "fig10", "fig6b", "fig6a", "table1.1"];
        v.sort_by_key(|s| natural_key(s));
        assert_eq!(
            v,
            ["fig1.2", "fig1.10", "fig6a", "fig6b", "fig10", "figC.1", "table1.1"]
        );
    }
}
