//! The mathematics in every text that reaches a `.tex` file.

use super::Ctx;

/// Every text that reaches a `.tex` file with its `$...$` kept (caption, titles, labels, table
/// text) has only well-formed mathematics with allowed commands (`fric_report::pgf::check_math`):
/// `$\input{/etc/passwd}$` is refused here, at its line.
pub(super) fn math_text(cx: &mut Ctx) {
    let m = cx.m;
    let mut texts: Vec<(String, &str)> = vec![("source.caption".into(), m.source.caption.as_str())];
    for (i, p) in m.panels.iter().enumerate() {
        texts.extend(p.title.as_deref().map(|t| (format!("panels[{i}].title"), t)));
        texts.push((format!("panels[{i}].x.label"), p.x.label.as_str()));
        texts.push((format!("panels[{i}].y.label"), p.y.label.as_str()));
        for (j, s) in p.series.iter().enumerate() {
            texts.extend(
                s.label
                    .as_deref()
                    .map(|l| (format!("panels[{i}].series[{j}].label"), l)),
            );
        }
    }
    if let Some(t) = &m.table {
        texts.extend(
            t.columns
                .iter()
                .enumerate()
                .map(|(k, c)| (format!("table.columns[{k}]"), c.as_str())),
        );
        for (r, row) in t.rows.iter().enumerate() {
            texts.extend(
                row.iter()
                    .enumerate()
                    .map(|(k, c)| (format!("table.rows[{r}][{k}]"), c.as_str())),
            );
        }
        texts.extend(
            t.notes
                .iter()
                .enumerate()
                .map(|(k, n)| (format!("table.notes[{k}]"), n.as_str())),
        );
    }
    for (path, text) in texts {
        if let Err(e) = fric_report::pgf::check_math(text) {
            cx.err(path, e, "`$...$` with balanced braces and mathematical commands only");
        }
    }
}
