//! LaTeX: text escaping, a transcribed table and the checks table (tera templates in
//! `templates/`).

use crate::experiment::Report;
use fric_manifest::Op;
use fric_typeset::tex::push_escaped;
use serde::Serialize;
use tera::{Context, Tera};

/// Escape text for LaTeX outside math: `$...$` spans are passed through unchanged.
pub fn tex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_math = false;
    for ch in s.chars() {
        if ch == '$' {
            in_math = !in_math;
            out.push(ch);
        } else if in_math {
            out.push(ch);
        } else {
            push_escaped(&mut out, ch);
        }
    }
    out
}

fn templates() -> Tera {
    let mut t = Tera::default();
    t.autoescape_on(vec![]);
    t.add_raw_templates(vec![
        ("table.tex", include_str!("../templates/table.tex.tera")),
        ("checks.tex", include_str!("../templates/checks.tex.tera")),
    ])
    .expect("templates parse");
    t
}

/// A transcribed table.
pub struct TableInput<'a> {
    pub manifest: &'a str,
    pub document: &'a str,
    pub number: &'a str,
    pub caption: &'a str,
    pub lines: &'a [u32],
    pub columns: &'a [String],
    pub rows: &'a [Vec<String>],
    pub notes: &'a [String],
}

/// Render a table to LaTeX. Cells are LaTeX already (math kept), other text is escaped.
pub fn render_table(t: &TableInput) -> Result<String, String> {
    let mut ctx = Context::new();
    ctx.insert("manifest", t.manifest);
    ctx.insert("document", t.document);
    ctx.insert("kind", "table");
    ctx.insert("number", t.number);
    ctx.insert(
        "lines",
        &t.lines.iter().map(|l| format!("L{l}")).collect::<Vec<_>>().join(", "),
    );
    // Caption, header, cells and notes through the one typesetter of labels
    // (`pgf::caption_to_tex`: validated `$...$` kept, subscripted words and Greek as math,
    // other text escaped).
    let tex = crate::pgf::caption_to_tex;
    ctx.insert("caption", &tex(t.caption));
    ctx.insert("label", &format!("tab:{}", t.manifest.replace('/', ":")));
    ctx.insert("colspec", &"l".repeat(t.columns.len()));
    ctx.insert(
        "header",
        &t.columns.iter().map(|c| tex(c)).collect::<Vec<_>>().join(" & "),
    );
    let rows: Vec<String> = t
        .rows
        .iter()
        .map(|r| r.iter().map(|c| tex(c)).collect::<Vec<_>>().join(" & "))
        .collect();
    ctx.insert("rows", &rows);
    ctx.insert("notes", &t.notes.iter().map(|n| tex(n)).collect::<Vec<_>>());
    templates().render("table.tex", &ctx).map_err(|e| format!("{e:?}"))
}

fn num(v: Option<f64>) -> String {
    match v {
        None => "--".into(),
        Some(v) if v.is_nan() => "NaN".into(),
        Some(v) => format!("{v:.6e}"),
    }
}

/// The checks table of every experiment.
pub fn render_checks(r: &Report) -> Result<String, String> {
    #[derive(Serialize)]
    struct Row {
        id: String,
        metric: String,
        computed: String,
        op: String,
        expected: String,
        tol: String,
        prov: String,
        outcome: String,
    }
    let mut rows = Vec::new();
    for e in &r.experiments {
        for c in &e.checks {
            let prov = match c.provenance.as_str() {
                "published" => format!("P L{}", c.lines.first().copied().unwrap_or(0)),
                "claim" => format!("C L{}", c.lines.first().copied().unwrap_or(0)),
                _ => "D".into(),
            };
            rows.push(Row {
                id: tex_escape(&e.id),
                metric: tex_escape(&c.metric),
                computed: num(c.computed),
                op: match c.op {
                    Op::Lt => "$<$ ".into(),
                    Op::Gt => "$>$ ".into(),
                    Op::Within => String::new(),
                },
                expected: format!("{:.6e}", c.expected),
                tol: c.tolerance.map_or("--".into(), |t| format!("{t:.1e}")),
                prov,
                outcome: c.outcome.as_str().into(),
            });
        }
    }
    let mut ctx = Context::new();
    ctx.insert("checks", &rows);
    templates().render("checks.tex", &ctx).map_err(|e| format!("{e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_renders_with_escaping() {
        let cols = vec!["Model".to_string(), "Rate".to_string()];
        let rows = vec![
            vec!["Dahl, $\\gamma = 0$".to_string(), "rate_independent & x".to_string()],
            vec!["[N/m]".to_string(), "[Ns/m]".to_string()],
        ];
        let s = render_table(&TableInput {
            manifest: "thesis/table1.2",
            document: "thesis",
            number: "1.2",
            caption: "Friction models",
            lines: &[386],
            columns: &cols,
            rows: &rows,
            notes: &[],
        })
        .unwrap();
        assert!(s.contains("Dahl, $\\gamma = 0$ & rate\\_independent \\& x \\\\"));
        assert!(s.contains("\\caption{Friction models}"));
        // A unit row is not read as the optional argument of the `\\` before it.
        assert!(s.contains("\\\\\n    {}[N/m] & [Ns/m] \\\\"), "{s}");
    }
}
