//! The reproduction report as a static HTML site (`figures/index.html`, one page per document,
//! `figures/discrepancies.html`) and the LaTeX body of `paper/reproduction.tex`.
//!
//! The pipeline gathers everything a page shows into [`Site`] (paths relative to the workspace
//! root, seed quotes, deviations); this module only formats it through the tera templates in
//! `templates/site/`. Every link is relative, so the site works from `file://`; no page has a
//! script or loads anything from the network.

use crate::checks::{CheckReport, Outcome};
pub use crate::coverage::CoverageRow;
use crate::experiment::Provenance;
use crate::latex::tex_escape;
use fric_manifest::{DiscrepancyKind, Op};
use serde::Serialize;
use tera::{Context, Tera};

/// Everything the site shows.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Site {
    /// One row per document, then the row of all documents.
    pub coverage: Vec<CoverageRow>,
    pub documents: Vec<DocPage>,
    /// What produced the report, shown on the index page only.
    pub provenance: Option<Provenance>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct DocPage {
    pub id: String,
    pub title: String,
    /// The seed file's name, when known.
    pub seed: Option<String>,
    /// Whether the seed file was read (quotes present).
    pub seed_present: bool,
    pub items: Vec<Item>,
}

/// One figure or table.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Item {
    /// `<doc>/<name>`.
    pub id: String,
    /// `<name>`, the anchor on the document page.
    pub name: String,
    pub kind: crate::ItemKind,
    pub number: String,
    pub caption: String,
    pub status: String,
    pub reason: Option<String>,
    /// What of the source is not built (the manifest's `not_built`, each with its seed line).
    pub not_built: Vec<String>,
    /// Paths relative to the workspace root; each present only when the file exists.
    pub manifest: Option<String>,
    pub png: Option<String>,
    pub svg: Option<String>,
    /// A table's LaTeX.
    pub tex: Option<String>,
    /// A figure's PGFPlots version (`<name>.pgf.tex`).
    pub pgf: Option<String>,
    /// A table's cells as an HTML table ([`table_html`]), shown beside its LaTeX link.
    pub table_html: Option<String>,
    pub csvs: Vec<String>,
    /// The seed lines the manifest cites, caption first.
    pub lines: Vec<Quote>,
    pub assumptions: Vec<Assumption>,
    pub checks: Vec<Check>,
    pub errors: Vec<String>,
}

/// A cited seed line with its text (absent when the seed file is not available).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Quote {
    pub line: u32,
    pub text: Option<String>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Assumption {
    pub what: String,
    pub why: String,
    /// What it carries (`carries:`), and whether that keeps the manifest from `reproduced`.
    pub carries: Option<String>,
    pub blocks: bool,
    /// The stated quantity it replaces, or the unstated value it supplies, with the seed line.
    pub replaces: Option<String>,
    pub supplies: Option<String>,
    /// Its alternative readings, one line each (`m_2kg: m = 2 — why`).
    #[serde(default)]
    pub alternatives: Vec<String>,
}

/// A check with what the pipeline worked out for display.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    pub report: CheckReport,
    /// `computed − expected` and its ratio to `|expected|` (absent when undefined).
    pub abs_dev: Option<f64>,
    pub rel_dev: Option<f64>,
    /// The seed lines of a published value or a claim.
    pub quotes: Vec<Quote>,
}

/// A check as the templates show it: every field a string.
#[derive(Serialize)]
struct CheckRow {
    metric: String,
    computed: String,
    expected: String,
    abs_dev: String,
    rel_dev: String,
    tolerance: String,
    provenance: String,
    basis: String,
    quotes: Vec<Quote>,
    outcome: &'static str,
    class: &'static str,
    evidence: Option<String>,
    /// A known discrepancy's kind (`source-error`, `assumption`, `unresolved`) and what it means.
    kind: Option<&'static str>,
    kind_meaning: Option<&'static str>,
    /// The check's note as HTML, typeset as a caption ([`crate::mathml::caption_html`]).
    note: Option<String>,
    /// Why the tolerance is what it is (required above 5 % relative).
    tolerance_reason: Option<String>,
    /// Robust or assumption-sensitive, with each alternative reading's value.
    readings: Option<String>,
    readings_class: &'static str,
    /// The parameter values that would explain a known discrepancy.
    explained: Vec<String>,
}

/// The check under the alternative readings of its manifest's assumptions, as one line.
fn readings_text(r: &CheckReport) -> Option<(String, &'static str)> {
    let s = r.sensitivity.as_ref()?;
    let each: Vec<String> = s
        .readings
        .iter()
        .map(|x| match x.met {
            Some(m) => format!(
                "{}: {} ({})",
                x.name,
                sci(x.computed),
                if m { "met" } else { "not met" }
            ),
            None if s.open.contains(&x.name) => format!("{}: its cycle does not close", x.name),
            None => format!("{}: not evaluated", x.name),
        })
        .collect();
    let met = r.computed.is_some() && r.pass;
    if !s.failed.is_empty() {
        return Some((
            format!(
                "failed: could not be evaluated under {} — {}",
                s.failed.join(", "),
                each.join("; ")
            ),
            "sensitive",
        ));
    }
    if !s.open.is_empty() {
        return Some((
            format!(
                "open: the cycle it reads does not close under {} — {}",
                s.open.join(", "),
                each.join("; ")
            ),
            "sensitive",
        ));
    }
    Some(if s.robust {
        (
            format!(
                "robust: {} under every alternative reading — {}",
                if met { "met" } else { "not met" },
                each.join("; ")
            ),
            "robust",
        )
    } else {
        (
            format!(
                "assumption-sensitive: the result changes under {} — {}",
                s.flipped_by(met).join(", "),
                each.join("; ")
            ),
            "sensitive",
        )
    })
}

fn sci(v: Option<f64>) -> String {
    match v {
        None => "—".into(),
        Some(v) if v.is_nan() => "NaN".into(),
        Some(v) => format!("{v:.4e}"),
    }
}

fn row(c: &Check) -> CheckRow {
    let r = &c.report;
    let op = match r.op {
        Op::Lt => "< ",
        Op::Gt => "> ",
        Op::Within => "",
    };
    let lines = r.lines.iter().map(|l| format!("L{l}")).collect::<Vec<_>>().join(", ");
    let provenance = match r.provenance.as_str() {
        "derived" => "derived".to_string(),
        p if lines.is_empty() => p.to_string(),
        p => format!("{p}, {lines}"),
    };
    CheckRow {
        metric: r.metric.clone(),
        computed: sci(r.computed),
        expected: format!("{op}{}", sci(Some(r.expected))),
        abs_dev: sci(c.abs_dev),
        rel_dev: c.rel_dev.map_or("—".into(), |d| match d * 100.0 {
            p if p == 0.0 || p.abs() >= 0.01 => format!("{p:.3}%"),
            p => format!("{p:.1e}%"),
        }),
        tolerance: r.tolerance.map_or("—".into(), |t| format!("± {t:.2e}")),
        provenance,
        basis: r.basis.clone(),
        quotes: c.quotes.clone(),
        outcome: r.outcome.as_str(),
        class: match r.outcome {
            Outcome::Pass => "pass",
            Outcome::Transcribed => "transcribed",
            Outcome::KnownDiscrepancy => "known",
            _ => "fail",
        },
        evidence: r.known_discrepancy.clone(),
        kind: r.discrepancy.map(DiscrepancyKind::name),
        kind_meaning: r.discrepancy.map(DiscrepancyKind::meaning),
        note: r.note.as_deref().map(crate::mathml::caption_html),
        tolerance_reason: r.tolerance_reason.clone(),
        readings: readings_text(r).map(|x| x.0),
        readings_class: readings_text(r).map_or("", |x| x.1),
        explained: r.explained_by.iter().map(|x| x.text()).collect(),
    }
}

/// An item with its paths made relative to the page (`prefix` leads from the page to the root).
#[derive(Serialize)]
struct ItemView<'a> {
    item: &'a Item,
    /// Whether the item is a figure ([`crate::ItemKind::Figure`]): the template shows its image
    /// by this, never by comparing the kind's name.
    figure: bool,
    /// The caption as HTML, its mathematics as MathML ([`crate::mathml`]).
    caption_html: String,
    manifest: Option<String>,
    png: Option<String>,
    svg: Option<String>,
    tex: Option<String>,
    pgf: Option<String>,
    csvs: Vec<(String, String)>,
    checks: Vec<CheckRow>,
    /// Transcribed values read back, shown apart from the checks (they reproduce nothing).
    transcribed: Vec<CheckRow>,
}

fn view<'a>(item: &'a Item, prefix: &str) -> ItemView<'a> {
    let rel = |p: &Option<String>| p.as_ref().map(|p| format!("{prefix}{p}"));
    ItemView {
        item,
        figure: item.kind == crate::ItemKind::Figure,
        caption_html: crate::mathml::caption_html(&item.caption),
        manifest: rel(&item.manifest),
        png: rel(&item.png),
        svg: rel(&item.svg),
        tex: rel(&item.tex),
        pgf: rel(&item.pgf),
        csvs: item
            .csvs
            .iter()
            .map(|c| {
                let name = c.rsplit('/').next().unwrap_or(c).to_string();
                (format!("{prefix}{c}"), name)
            })
            .collect(),
        checks: item
            .checks
            .iter()
            .filter(|c| c.report.outcome != Outcome::Transcribed)
            .map(row)
            .collect(),
        transcribed: item
            .checks
            .iter()
            .filter(|c| c.report.outcome == Outcome::Transcribed)
            .map(row)
            .collect(),
    }
}

pub use crate::mathml::{caption_html, table_html};

/// HTML escaping for text and quoted attributes (tera's default also escapes `/`, which makes
/// every path in the pages unreadable).
pub(crate) fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn templates() -> Result<Tera, String> {
    let mut t = Tera::default();
    t.autoescape_on(vec![".html"]);
    t.set_escape_fn(html_escape);
    t.add_raw_templates(vec![
        ("style.css", include_str!("../templates/site/style.css")),
        ("base.html", include_str!("../templates/site/base.html.tera")),
        ("checks.html", include_str!("../templates/site/checks.html.tera")),
        ("index.html", include_str!("../templates/site/index.html.tera")),
        ("document.html", include_str!("../templates/site/document.html.tera")),
        (
            "discrepancies.html",
            include_str!("../templates/site/discrepancies.html.tera"),
        ),
        ("body.tex", include_str!("../templates/site/reproduction-body.tex.tera")),
    ])
    .map_err(|e| format!("site templates: {e:?}"))?;
    Ok(t)
}

/// The pages of the site: `(path relative to figures/, HTML)`.
pub fn render_site(site: &Site) -> Result<Vec<(String, String)>, String> {
    let t = templates()?;
    let render = |name: &str, ctx: &Context| t.render(name, ctx).map_err(|e| format!("{name}: {e:?}"));
    let mut pages = Vec::new();

    let mut ctx = Context::new();
    ctx.insert("title", "Reproduction report");
    ctx.insert("up", "");
    ctx.insert("coverage", &site.coverage);
    ctx.insert("documents", &site.documents);
    ctx.insert("provenance", &site.provenance);
    pages.push(("index.html".to_string(), render("index.html", &ctx)?));

    for d in &site.documents {
        let mut ctx = Context::new();
        ctx.insert("title", &format!("{} — {}", d.id, d.title));
        ctx.insert("up", "../");
        ctx.insert("doc", d);
        let items: Vec<ItemView> = d.items.iter().map(|i| view(i, "../../")).collect();
        ctx.insert("items", &items);
        pages.push((format!("{}/index.html", d.id), render("document.html", &ctx)?));
    }

    #[derive(Serialize)]
    struct Known<'a> {
        doc: &'a str,
        item: &'a Item,
        caption_html: String,
        checks: Vec<CheckRow>,
    }
    /// The known discrepancies of one kind (`None`: declared without one), by item.
    #[derive(Serialize)]
    struct KindGroup<'a> {
        kind: &'static str,
        meaning: &'static str,
        count: usize,
        known: Vec<Known<'a>>,
    }
    let group = |kind: Option<DiscrepancyKind>| {
        let known: Vec<Known> = site
            .documents
            .iter()
            .flat_map(|d| d.items.iter().map(move |i| (d, i)))
            .filter_map(|(d, i)| {
                let checks: Vec<CheckRow> = i
                    .checks
                    .iter()
                    .filter(|c| c.report.outcome == Outcome::KnownDiscrepancy && c.report.discrepancy == kind)
                    .map(row)
                    .collect();
                (!checks.is_empty()).then_some(Known {
                    doc: &d.id,
                    item: i,
                    caption_html: crate::mathml::caption_html(&i.caption),
                    checks,
                })
            })
            .collect();
        KindGroup {
            kind: kind.map_or("without a kind", DiscrepancyKind::name),
            meaning: kind.map_or(
                "declared without a kind (an invalid manifest)",
                DiscrepancyKind::meaning,
            ),
            count: known.iter().map(|k| k.checks.len()).sum(),
            known,
        }
    };
    let groups: Vec<KindGroup> = DiscrepancyKind::ALL
        .iter()
        .copied()
        .map(Some)
        .chain([None])
        .map(group)
        .filter(|g| g.kind != "without a kind" || g.count > 0)
        .collect();
    let mut ctx = Context::new();
    ctx.insert("title", "Known discrepancies");
    ctx.insert("up", "");
    ctx.insert("groups", &groups);
    ctx.insert("total", &groups.iter().map(|g| g.count).sum::<usize>());
    pages.push(("discrepancies.html".to_string(), render("discrepancies.html", &ctx)?));
    Ok(pages)
}

/// `figures/pgfplots-all.tex`: a document that inputs the PGFPlots version of every reproduced
/// or partial figure, by document (paths relative to `figures/`).
pub fn render_pgfplots_all(site: &Site) -> Result<String, String> {
    let entries: Vec<crate::pgf::PgfEntry> = site
        .documents
        .iter()
        .flat_map(|d| d.items.iter().map(move |i| (d, i)))
        .filter(|(_, i)| matches!(i.status.as_str(), "reproduced" | "partial"))
        .filter_map(|(d, i)| {
            let file = i.pgf.as_ref()?.strip_prefix("figures/")?.to_string();
            Some(crate::pgf::PgfEntry {
                file,
                title: tex_escape(&format!("{} {} {}", d.id, i.kind, i.number)),
                caption: crate::pgf::caption_to_tex(&i.caption),
            })
        })
        .collect();
    crate::pgf::render_pgfplots_all(&entries)
}

/// The body of `paper/reproduction.tex`: every reproduced or partial figure (its PNG) and table
/// (its `.tex`), by document. Paths are relative to `paper/`.
pub fn render_reproduction_body(site: &Site) -> Result<String, String> {
    #[derive(Serialize)]
    struct Entry {
        png: Option<String>,
        tex: Option<String>,
        label: String,
        caption: String,
    }
    #[derive(Serialize)]
    struct Section {
        title: String,
        entries: Vec<Entry>,
    }
    let sections: Vec<Section> = site
        .documents
        .iter()
        .map(|d| Section {
            // The one typesetter, as a caption: a `$...$` the loader would refuse is escaped text.
            title: crate::pgf::caption_to_tex(&d.title),
            entries: d
                .items
                .iter()
                .filter(|i| matches!(i.status.as_str(), "reproduced" | "partial"))
                .filter(|i| i.png.is_some() || i.tex.is_some())
                .map(|i| Entry {
                    png: i.png.as_ref().map(|p| format!("../{p}")),
                    tex: i.tex.as_ref().map(|p| format!("../{p}")),
                    label: tex_escape(&format!("{} {} {}", d.id, i.kind, i.number)),
                    caption: crate::pgf::caption_to_tex(&i.caption),
                })
                .collect(),
        })
        .filter(|s| !s.entries.is_empty())
        .collect();
    let mut ctx = Context::new();
    ctx.insert("sections", &sections);
    templates()?
        .render("body.tex", &ctx)
        .map_err(|e| format!("reproduction body: {e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_render_from_bare_items() {
        let item = Item {
            id: "thesis/fig9.1".into(),
            name: "fig9.1".into(),
            kind: crate::ItemKind::Figure,
            number: "9.1".into(),
            caption: "a \"quoted\" <b>caption</b> with $x_1$".into(),
            status: "reproduced".into(),
            lines: vec![Quote { line: 7, text: None }],
            ..Default::default()
        };
        let site = Site {
            // A document may be named `all`: only the typed field marks the sum's row.
            coverage: vec![
                CoverageRow {
                    doc: "all".into(),
                    ..Default::default()
                },
                CoverageRow {
                    doc: "all".into(),
                    all_documents: true,
                    ..Default::default()
                },
            ],
            documents: vec![DocPage {
                id: "thesis".into(),
                title: "T & co".into(),
                items: vec![item],
                ..Default::default()
            }],
            provenance: Some(Provenance {
                commit: Some("0123abc".into()),
                dirty: Some(true),
                tool: "fric-pipeline 9.9".into(),
                rustc: None,
            }),
        };
        let pages = render_site(&site).unwrap();
        let names: Vec<&str> = pages.iter().map(|p| p.0.as_str()).collect();
        assert_eq!(names, ["index.html", "thesis/index.html", "discrepancies.html"]);
        assert!(pages[0]
            .1
            .contains("Produced by fric-pipeline 9.9, from commit <code>0123abc</code> with modified tracked files."));
        assert!(!pages[1].1.contains("0123abc"), "the commit is on the index page only");
        assert!(pages[0].1.contains("<tr>\n<td><a href=\"all/index.html\">all</a></td>"));
        assert!(pages[0].1.contains("<tr class=\"all\">\n<td>all</td>"));
        let doc = &pages[1].1;
        assert!(doc.contains(
            "a &quot;quoted&quot; &lt;b&gt;caption&lt;/b&gt; with <math display=\"inline\"><mrow><msub><mi>x</mi><mn>1</mn></msub></mrow></math>"
        ));
        assert!(doc.contains("no regenerated image") && doc.contains("L7"));
        assert!(!doc.contains("<blockquote>") && !doc.contains("<script"));
        assert!(pages[2].1.contains("None."));
        // Nothing reproduced with an output: the LaTeX body has no section.
        assert!(!render_reproduction_body(&site).unwrap().contains("\\section"));
    }
}
