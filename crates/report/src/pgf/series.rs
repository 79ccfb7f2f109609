//! One series of the figure value in PGFPlots: its `\addplot` reading its CSV table, in its
//! style's one declaration (`fric_plot::style`), colour and legend entry as the SVG draws it,
//! with the arrowheads and published points' labels the SVG placed.

use super::{label_to_tex, num, safe_column, safe_path, PgfTable};
use fric_plot::{style, Arrows, Coincidence, LabelSide, SeriesData};
use serde::Serialize;

#[derive(Serialize)]
pub(super) struct SeriesView {
    /// `\addplot` options.
    options: String,
    /// `table[...]` options (x and y).
    table: String,
    /// For a band: the `table[...]` options of the upper edge and the two path names.
    upper: Option<String>,
    paths: Option<(String, String)>,
    csv: String,
    legend: Option<String>,
    /// Commands drawn after the plot: arrowheads, point labels.
    extra: Vec<String>,
}

/// How the SVG drew series `k` of its panel: what the series itself does not say.
pub(super) struct Drawn<'a> {
    /// Its legend entry (`None`: no entry, or a panel without legend).
    pub entry: Option<String>,
    /// Arrowheads as (base, tip) in data coordinates.
    pub arrows: &'a Arrows,
    /// The side of its marker each published point's label is on (above right where not
    /// given); `None`: its labels are not drawn (an inset's copy of the series).
    pub sides: Option<&'a [LabelSide]>,
    pub coincidence: Coincidence,
}

/// Series `s`'s published-point labels, each anchored on the side of its point the SVG drew it
/// on (`sides`, in the order of the points; above right when not given).
fn point_labels(s: &SeriesData, sides: &[LabelSide]) -> Vec<String> {
    s.x.iter()
        .zip(&s.y)
        .zip(&s.point_labels)
        .enumerate()
        .filter_map(|(k, ((x, y), l))| {
            let side = sides.get(k).copied().unwrap_or(LabelSide::AboveRight);
            l.as_ref().map(|l| {
                format!(
                    "\\node[anchor={}, font=\\footnotesize, inner sep=1pt] at (axis cs:{},{}) {{{}}};",
                    side.pgf_anchor(),
                    num(*x),
                    num(*y),
                    label_to_tex(l)
                )
            })
        })
        .collect()
}

/// Series `k` (1-based) of panel `p` (1-based), drawn in colour `color` (a palette name), from
/// table `t`, as `d` says the SVG drew it.
pub(super) fn series_view(
    (p, k): (usize, usize),
    s: &SeriesData,
    color: &str,
    t: &PgfTable,
    d: &Drawn,
) -> Result<SeriesView, String> {
    let color = format!("fric{color}");
    let entry = d.entry.as_deref().map(label_to_tex);
    let mut opts = vec![color.clone()];
    // Drawn as fric-plot draws it: from the style's one declaration.
    opts.push(s.style.pgf_options(&color, s.marker_size));
    if d.coincidence.under {
        // `thick` (0.8 pt) as wide as the SVG's covered stroke, which the legend sample repeats.
        opts.push(format!("line width={:.1}pt", 0.8 * fric_plot::UNDER_WIDTH));
    }
    if d.coincidence.faded {
        opts.push(format!("draw opacity={}", fric_plot::FADED_OPACITY));
    }
    if entry.is_none() {
        // Legend entries go to the plots in order: one without an entry must not take one.
        opts.push("forget plot".into());
    }
    let table = |y: &str| -> Result<String, String> {
        Ok(format!(
            "x={}, y={}, col sep=comma",
            safe_column(&t.x)?,
            safe_column(y)?
        ))
    };
    let mut extra: Vec<String> = d
        .arrows
        .iter()
        .map(|&(base, tip)| style::arrow::pgf(base, tip, &color))
        .collect();
    if let Some(sides) = d.sides {
        extra.extend(point_labels(s, sides));
    }
    let (upper, paths) = if s.style.is_band() {
        let y2 = t.y2.as_deref().ok_or("band without y2")?;
        (
            Some(table(y2)?),
            Some((format!("fric{p}b{k}lo"), format!("fric{p}b{k}hi"))),
        )
    } else {
        (None, None)
    };
    Ok(SeriesView {
        options: opts.join(", "),
        table: table(&t.y)?,
        upper,
        paths,
        csv: safe_path(&t.csv)?.to_string(),
        legend: entry,
        extra,
    })
}
