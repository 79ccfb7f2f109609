//! A panel's and an inset's axes in PGFPlots: the figure value's axis (label, unit, scale) with
//! what the SVG measured of it (`fric_plot::DrawnPanel`: the range it spans, the power of ten
//! its tick labels are shown in, its labelled and minor ticks), so both outputs print the same
//! axes.

use super::{cm, label_to_tex, num, unit_to_tex};
use fric_manifest::{Inset, Scale};
use fric_plot::{AxisSpec, DrawnInset, DrawnPanel, TickLabels};

/// One axis as the SVG draws it.
pub(super) struct Axis<'a> {
    pub spec: &'a AxisSpec,
    /// fric-plot draws sym-log axes linearly, and so does this.
    pub log: bool,
    /// The range the SVG's axes span, in data values: a declared range, or the data's padded by
    /// 5 % (shared by a stack of panels, widened for equal aspect), a log axis' floor included.
    pub range: [f64; 2],
    /// The power of ten the tick labels are shown in (the unit carries its prefix).
    pub power: i32,
    /// The labelled ticks as the SVG draws them (position in plotting coordinates, log10 of the
    /// value on a log axis; label as printed, empty where the SVG prints none).
    pub ticks: &'a TickLabels,
    /// The minor ticks (plotting coordinates; a log axis' only).
    pub minor: &'a [f64],
}

/// Panel `d`'s x (`xy == 'x'`) or y axis of spec `a`.
pub(super) fn axis<'a>(xy: char, a: &'a AxisSpec, d: &'a DrawnPanel) -> Axis<'a> {
    let x = xy == 'x';
    Axis {
        spec: a,
        log: a.scale == Scale::Log,
        range: (if x { d.ranges.0 } else { d.ranges.1 }).map(round),
        power: if x { d.powers.0 } else { d.powers.1 },
        ticks: if x { &d.ticks.0 } else { &d.ticks.1 },
        minor: if x { &d.minor.0 } else { &d.minor.1 },
    }
}

/// `v` to 12 significant digits: the range the SVG's frame maps back to data carries rounding
/// noise (`5.0000000000000044e-2` for a declared 0.05), far below a dot on the page.
fn round(v: f64) -> f64 {
    format!("{v:.11e}").parse().unwrap_or(v)
}

fn axis_label(a: &Axis) -> String {
    let power = if a.log { 0 } else { a.power };
    match fric_plot::scaled_unit(a.spec.unit.as_deref(), power) {
        Some(u) => format!("{} [{}]", label_to_tex(&a.spec.label), unit_to_tex(&u)),
        None => label_to_tex(&a.spec.label),
    }
}

/// A tick's position as a data value: on a log axis `10^v` written `m·10^k` with the mantissa
/// the SVG's label shows (ticks sit at decades and their 2…9 multiples), so `2e-3`, not
/// `2.0000000000000005e-3`.
fn position(v: f64, log: bool) -> String {
    if !log {
        return num(v);
    }
    let k = v.floor();
    let m = 10f64.powf(v - k).round();
    if m >= 10.0 {
        format!("1e{}", k as i64 + 1)
    } else {
        format!("{m}e{}", k as i64)
    }
}

/// `xtick={…}, xticklabels={…}`: the SVG's tick positions and labels.
fn explicit_ticks(xy: char, ticks: &[(f64, String)], log: bool) -> String {
    let at: Vec<String> = ticks.iter().map(|(v, _)| position(*v, log)).collect();
    let labels: Vec<String> = ticks
        .iter()
        .map(|(_, l)| format!("{{{}}}", tick_label_tex(l)))
        .collect();
    format!("{xy}tick={{{}}}, {xy}ticklabels={{{}}}", at.join(","), labels.join(","))
}

/// A tick label as the SVG prints it (`−0.5`, `2.5e-5`, `10⁻²`, `2·10⁻³`) in math mode
/// (`$-0.5$`, `$2.5\cdot 10^{-5}$`, `$10^{-2}$`, `$2\cdot 10^{-3}$`); empty stays empty.
pub(super) fn tick_label_tex(l: &str) -> String {
    if l.is_empty() {
        return String::new();
    }
    let l = l.replace('\u{2212}', "-");
    // A log axis' decade: `10` and the exponent in superscript digits.
    let sup = |s: &str| -> Option<String> {
        let e: Option<String> = s
            .chars()
            .map(|c| match c {
                '⁻' => Some('-'),
                '⁰' => Some('0'),
                '¹' => Some('1'),
                '²' => Some('2'),
                '³' => Some('3'),
                c => ('⁴'..='⁹')
                    .contains(&c)
                    .then(|| char::from(b'4' + (c as u32 - '⁴' as u32) as u8)),
            })
            .collect();
        e.filter(|e| !e.is_empty())
    };
    if let Some(e) = l.strip_prefix("10").and_then(sup) {
        return format!("$10^{{{e}}}$");
    }
    if let Some((m, e)) = l.split_once("·10").and_then(|(m, e)| Some((m, sup(e)?))) {
        return format!("${m}\\cdot 10^{{{e}}}$");
    }
    match l.split_once('e') {
        Some((m, e)) => format!("${m}\\cdot 10^{{{e}}}$"),
        None => format!("${l}$"),
    }
}

/// How the tick labels are scaled: as the SVG, a log axis by decades, a linear one divided by
/// the power of ten its unit carries.
fn scale_option(xy: char, a: &Axis) -> String {
    if a.log {
        format!("{xy}mode=log")
    } else if a.power == 0 {
        // As the SVG: no common factor pulled out of the tick labels.
        format!("scaled {xy} ticks=false")
    } else {
        // The tick labels divided by 10^power, the factor carried by the unit in the label.
        format!(
            "scaled {xy} ticks=base 10:{}, {xy}tick scale label code/.code={{}}",
            -a.power
        )
    }
}

/// Where the ticks are: the SVG's labelled ones (none given: PGFPlots chooses), and on a log
/// axis its minor ones (none: none drawn).
fn tick_options(xy: char, a: &Axis, ticks: &[(f64, String)], minor: &[f64], out: &mut Vec<String>) {
    if !ticks.is_empty() {
        out.push(explicit_ticks(xy, ticks, a.log));
    }
    if a.log {
        let at: Vec<String> = minor.iter().map(|v| position(*v, true)).collect();
        out.push(format!("minor {xy}tick={{{}}}", at.join(",")));
    }
}

/// The options of one panel axis (`x` or `y`).
pub(super) fn axis_options(xy: char, a: &Axis, out: &mut Vec<String>) {
    // An axis the SVG draws without tick labels (the upper panels of a stack sharing x) has no
    // label either: PGFPlots printed "t [s]" over the next panel's title (ruderman-paper Fig 7).
    let unlabelled = !a.ticks.is_empty() && a.ticks.iter().all(|(_, l)| l.is_empty());
    if !unlabelled {
        out.push(format!("{xy}label={{{}}}", axis_label(a)));
    }
    out.push(scale_option(xy, a));
    tick_options(xy, a, a.ticks, a.minor, out);
    let [lo, hi] = a.range;
    out.push(format!("{xy}min={}, {xy}max={}", num(lo), num(hi)));
    out.push(format!("enlarge {xy} limits=false"));
    // Data far outside a fixed window (report Fig 3.15: θ to 0.99 rad on a 0.016 rad axis)
    // would lie metres off the page, beyond TeX's largest dimension ("Dimension too large"):
    // clamp it to ten window widths on either side, where it is clipped.
    if !a.log && hi > lo {
        let w = 10.0 * (hi - lo);
        out.push(format!("restrict {xy} to domain*={}:{}", num(lo - w), num(hi + w)));
    }
}

/// The options of inset `i` (drawn as `d`) of the panel in group column `c`, row `r`, whose axes
/// are `x` and `y` and `size` SVG pixels: an axis placed over the panel's axes where the SVG
/// draws it, its ranges the region's, its ticks the SVG's inset's.
pub(super) fn inset_options(
    (c, r): (usize, usize),
    size: (f64, f64),
    (x, y): (&Axis, &Axis),
    i: &Inset,
    d: &DrawnInset,
) -> Vec<String> {
    let (w, h) = size;
    let mut o = vec![
        format!("at={{(fricgroup c{c}r{r}.north west)}}, anchor=north west"),
        format!("xshift={}, yshift=-{}", cm(d.at[0] * w), cm(d.at[1] * h)),
        format!("width={}, height={}, scale only axis", cm(d.at[2] * w), cm(d.at[3] * h)),
        format!(
            "xmin={}, xmax={}, ymin={}, ymax={}",
            num(i.x[0]),
            num(i.x[1]),
            num(i.y[0]),
            num(i.y[1])
        ),
        // `max space between ticks` is a number of points without the unit: `40pt` typeset
        // "pt" in nullfont at every inset (lualatex's "Missing character" in the log).
        "axis background/.style={fill=white}, tick label style={font=\\tiny}, max space between ticks=40".into(),
    ];
    if d.right_labels {
        o.push("yticklabel pos=right".into());
    }
    for (xy, a, r, ticks) in [('x', x, i.x, &d.ticks.0), ('y', y, i.y, &d.ticks.1)] {
        // The SVG's inset draws its labelled ticks only, no minor ones.
        tick_options(xy, a, ticks, &[], &mut o);
        if !a.log {
            // The panel's data far outside the region would lie beyond TeX's largest dimension.
            let w = 10.0 * (r[1] - r[0]);
            o.push(format!("restrict {xy} to domain*={}:{}", num(r[0] - w), num(r[1] + w)));
        }
        o.push(scale_option(xy, a));
    }
    o
}

/// The frame of an inset's region on its panel where the SVG draws it (the region's true size),
/// and a named point at the panel end of each of its connectors ([`inset_connectors`]);
/// `name` names the inset. A region framed inside an earlier inset ([`DrawnInset::nested`]) gets
/// only named corners here: its frame is drawn after that inset, with the connectors.
pub(super) fn inset_region(i: &Inset, d: &DrawnInset, name: &str) -> String {
    let rel = |x: f64, y: f64| format!("(rel axis cs:{},{})", num(x), num(1.0 - y));
    let points: String = d
        .connectors
        .iter()
        .enumerate()
        .map(|(k, c)| format!(" \\coordinate ({name}c{k}) at {};", rel(c.from[0], c.from[1])))
        .collect();
    if let (Some(r), true) = (d.region, d.nested) {
        return format!(
            "\\coordinate ({name}r0) at {}; \\coordinate ({name}r1) at {};{points}",
            rel(r[0], r[3]),
            rel(r[2], r[1])
        );
    }
    if let Some(r) = d.region {
        return format!(
            "\\draw[black, line width=0.4pt] {} rectangle {};{points}",
            rel(r[0], r[3]),
            rel(r[2], r[1])
        );
    }
    format!(
        "\\draw[black, line width=0.4pt] (axis cs:{},{}) rectangle (axis cs:{},{});",
        num(i.x[0]),
        num(i.y[0]),
        num(i.x[1]),
        num(i.y[1])
    )
}

/// The connectors of inset `name`, drawn after it: thin lines from the region's corners to the
/// inset's corners the SVG joins, at the PGFPlots inset's own anchors (its tick labels are
/// another size than the SVG's).
pub(super) fn inset_connectors(d: &DrawnInset, name: &str) -> Vec<String> {
    let frame = (d.nested && d.region.is_some())
        .then(|| format!("\\draw[black, line width=0.4pt] ({name}r0) rectangle ({name}r1);"));
    frame
        .into_iter()
        .chain(d.connectors.iter().enumerate().map(|(k, c)| {
            // An end moved past the labels: under the corner at the outer bottom's level, or
            // level with it at the outer side's.
            let end = match &c.past {
                Some(p) if p.ends_with("south") || p.ends_with("north") => {
                    format!("{name}.{} |- {name}.{p}", c.anchor)
                }
                Some(p) => format!("{name}.{} -| {name}.{p}", c.anchor),
                None => format!("{name}.{}", c.anchor),
            };
            format!("\\draw[black, line width=0.25pt] ({name}c{k}) -- ({end});")
        }))
        .collect()
}
