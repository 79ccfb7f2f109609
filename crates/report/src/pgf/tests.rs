use super::*;

use fric_manifest::{LegendPos, Scale};
use fric_plot::{AxisSpec, Drawn, DrawnPanel, FigureData, PanelData, SeriesData};

fn axis(label: &str, unit: Option<&str>, scale: Scale) -> AxisSpec {
    AxisSpec {
        label: label.into(),
        unit: unit.map(Into::into),
        scale,
        range: None,
    }
}

fn series(style: PgfStyle, label: Option<&str>, band: bool, rows: usize) -> SeriesData {
    SeriesData {
        x: vec![0.5; rows],
        y: vec![1.0; rows],
        y2: band.then(|| vec![2.0; rows]),
        style,
        label: label.map(Into::into),
        color: Some("blue".into()),
        arrows: 1,
        point_labels: vec![],
        marker_size: None,
        results: false,
    }
}

/// A figure of two panels (the second log-log), as the pipeline hands it over: the figure value,
/// what the SVG measured of it, and the tables its series read.
fn figure() -> (FigureData, Drawn, Vec<PgfTable>) {
    let fig = FigureData {
        rows: 1,
        cols: 2,
        panel_width: 640,
        panel_height: 480,
        panels: vec![
            PanelData {
                id: "a".into(),
                title: Some("(a) σ/F_c = 1".into()),
                x: axis("u", Some("m"), Scale::Linear),
                y: axis("F_f", Some("N"), Scale::Linear),
                legend: LegendPos::UpperLeft,
                series: vec![
                    series(fric_plot::style::SOLID, Some("F_ss"), false, 100),
                    series(fric_plot::style::DASHED, None, false, 100),
                    series(fric_plot::style::BAND, Some("band"), true, 100),
                ],
                equal_aspect: true,
                insets: vec![],
            },
            PanelData {
                id: "b".into(),
                title: None,
                x: axis("ω", Some("rad/s"), Scale::Log),
                y: axis("|E_f|", None, Scale::Log),
                legend: LegendPos::None,
                series: vec![series(fric_plot::style::POINTS, Some("not shown"), false, 100)],
                equal_aspect: false,
                insets: vec![],
            },
        ],
        companions: vec![],
    };
    let panel = |ranges, ticks, minor| DrawnPanel {
        size: (500.0, 380.0),
        powers: (0, 0),
        legend: None,
        insets: vec![],
        label_sides: vec![],
        ticks,
        minor,
        coincidence: vec![],
        ranges,
    };
    let drawn = Drawn {
        svg: vec![],
        arrows: vec![vec![vec![((0.0, 0.0), (1.0, 1.0))]; 3], vec![vec![]]],
        row_legends: vec![],
        panels: vec![
            panel(
                ([0.0, 1.0], [-1.0, 2.5]),
                (
                    vec![(0.0, "0".into()), (1.0, "1".into())],
                    vec![
                        (-1.0, "\u{2212}1".into()),
                        (0.0, "0".into()),
                        (2.5e-5, "2.5e-5".into()),
                        (2.0, String::new()),
                    ],
                ),
                (vec![], vec![]),
            ),
            panel(
                ([0.01, 10.0], [1e-3, 1.0]),
                (
                    vec![(-2.0, "10⁻²".into()), (0.0, "10⁰".into()), (1.0, "10¹".into())],
                    vec![(-3.0, "10⁻³".into()), (2f64.log10() - 3.0, "2·10⁻³".into())],
                ),
                (vec![2f64.log10() - 2.0, 5f64.log10()], vec![]),
            ),
        ],
    };
    let table = |y2: Option<&str>| PgfTable {
        csv: "thesis/fig1.1/a-1.csv".into(),
        x: "u".into(),
        y: "F".into(),
        y2: y2.map(Into::into),
    };
    let tables = vec![table(None), table(None), table(Some("F_hi")), table(None)];
    (fig, drawn, tables)
}

fn render((fig, drawn, tables): &(FigureData, Drawn, Vec<PgfTable>)) -> Result<String, String> {
    render_pgfplots("thesis/fig1.1", fig, drawn, tables)
}

#[test]
fn figure_renders_as_groupplot_reading_the_csvs() {
    let s = render(&figure()).unwrap();
    assert!(tex_problems(&s).is_empty(), "{:?}\n{s}", tex_problems(&s));
    for want in [
        "\\providecommand{\\fricfiguresdir}{figures}",
        "\\definecolor{fricblue}{RGB}{0,114,178}",
        "group size=2 by 1",
        "title={(a) $\\sigma/F_{c} = 1$}",
        "ylabel={$F_{f}$ [N]}",
        // The range the SVG's axes span, not one PGFPlots pads itself.
        "xmin=0e0, xmax=1e0,\n    enlarge x limits=false",
        "ymin=-1e0, ymax=2.5e0,\n    enlarge y limits=false",
        // The SVG's ticks and labels, not PGFPlots' own (report Fig 3.8).
        "ytick={-1e0,0e0,2.5e-5,2e0}, yticklabels={{$-1$},{$0$},{$2.5\\cdot 10^{-5}$},{}}",
        "xmode=log",
        "ymode=log",
        // A log axis' ticks and minor ticks as the SVG's too (issue 45).
        "xtick={1e-2,1e0,1e1}, xticklabels={{$10^{-2}$},{$10^{0}$},{$10^{1}$}},\n    minor xtick={2e-2,5e0}",
        "ytick={1e-3,2e-3}, yticklabels={{$10^{-3}$},{$2\\cdot 10^{-3}$}},\n    minor ytick={}",
        "xmin=1e-2, xmax=1e1",
        "legend pos=north west",
        "table[x=u, y=F, col sep=comma] {\\fricfiguresdir/thesis/fig1.1/a-1.csv};",
        "\\addlegendentry{$F_{ss}$}",
        "dash pattern=on 5pt off 3pt, forget plot]",
        "table[x=u, y=F_hi, col sep=comma]",
        "fill between[of=fric1b3lo and fric1b3hi]",
        "\\addlegendentry{band}",
        "only marks, mark=*, mark size=1.5pt, forget plot]",
        "axis equal",
        "\\draw[fricblue, solid, thick, -latex] (axis cs:0e0,0e0) -- (axis cs:1e0,1e0);",
    ] {
        assert!(s.contains(want), "missing `{want}` in\n{s}");
    }
    assert!(!s.contains("not shown"), "no legend entry without a legend");
    assert!(!s.contains("enlarge x limits=0.05"), "{s}");
    assert_eq!(s.matches("\\nextgroupplot").count(), 2);
}

/// A figure whose tables do not match its series is refused, not drawn with series missing.
#[test]
fn tables_must_match_the_series() {
    let (fig, drawn, mut tables) = figure();
    tables.pop();
    let e = render(&(fig, drawn, tables)).unwrap_err();
    assert!(e.contains("4 series in 2 panels, 3 tables"), "{e}");
}

/// A panel over pdfTeX's capacity (a band counts twice) makes pdfTeX include the PNG and stop
/// reading; a figure within it is drawn by every engine.
#[test]
fn a_figure_over_pdftex_memory_falls_back_to_its_png_there_only() {
    let s = render(&figure()).unwrap();
    assert!(!s.contains("\\includegraphics") && !s.contains("\\directlua"), "{s}");
    let mut f = figure();
    // 2 + 2 + 2·2 rows of 1000 in panel 1: 8000, the limit itself.
    for x in &mut f.0.panels[0].series {
        let rows = PDFTEX_MAX_PANEL_SAMPLES / 8 * 2;
        (x.x, x.y) = (vec![0.5; rows], vec![1.0; rows]);
    }
    assert_eq!(panel_samples(&f.0.panels[0]), PDFTEX_MAX_PANEL_SAMPLES);
    assert!(!render(&f).unwrap().contains("\\includegraphics"));
    let s = &mut f.0.panels[1].series[0];
    (s.x, s.y) = (
        vec![0.5; PDFTEX_MAX_PANEL_SAMPLES + 1],
        vec![1.0; PDFTEX_MAX_PANEL_SAMPLES + 1],
    );
    let s = render(&f).unwrap();
    assert!(tex_problems(&s).is_empty(), "{:?}", tex_problems(&s));
    let guard = "\\ifdefined\\directlua\\else\n\\includegraphics[width=17.78cm]{\\fricfiguresdir/thesis/fig1.1.png}%\n\\expandafter\\endinput\n\\fi\n\\begin{tikzpicture}";
    assert!(s.contains(guard), "{s}");
    assert!(s.contains("its panel 2 plots 8001 samples"), "{s}");
}

#[test]
fn unsafe_names_are_refused() {
    let mut f = figure();
    f.2[0].x = "a,b".into();
    assert!(render(&f).unwrap_err().contains("a,b"));
    let mut f = figure();
    f.2[0].csv = "../x.csv".into();
    assert!(render(&f).is_err());
}

/// An axis the SVG draws without tick labels (an upper panel of a stack sharing x) has no axis
/// label in PGFPlots either; a log axis prints the SVG's empty labels too (ruderman-paper Fig
/// 7's PDF printed "t [s]" over the next panel's title).
#[test]
fn an_axis_drawn_without_tick_labels_has_no_label() {
    let mut f = figure();
    f.1.panels[0].ticks.0 = vec![(0.0, String::new()), (1.0, String::new())];
    f.1.panels[1].ticks.0 = vec![(0.0, String::new()), (1.0, String::new())];
    let s = render(&f).unwrap();
    assert!(!s.contains("xlabel="), "{s}");
    assert!(
        s.contains("xmode=log,\n    xtick={1e0,1e1}, xticklabels={{},{}}"),
        "{s}"
    );
    // With a labelled tick, the label is back.
    f.1.panels[0].ticks.0[1].1 = "1".into();
    assert!(render(&f).unwrap().contains("xlabel={$u$ [m]}"));
}

/// Every label the SVG's log axes print reads as the same number in LaTeX.
#[test]
fn log_tick_labels_read_as_the_svgs() {
    for (svg, tex) in [
        ("10⁻¹²", "$10^{-12}$"),
        ("10⁴⁵⁶⁷⁸⁹", "$10^{456789}$"),
        ("5·10⁻³", "$5\\cdot 10^{-3}$"),
        ("2e5", "$2\\cdot 10^{5}$"),
        ("\u{2212}0.5", "$-0.5$"),
        ("10", "$10$"),
    ] {
        assert_eq!(axes::tick_label_tex(svg), tex, "{svg}");
    }
}

/// A log-log panel drawn by the SVG renderer itself: PGFPlots places the ticks the SVG draws,
/// labelled as the SVG labels them, and the SVG's minor ticks (before issue 49 PGFPlots chose
/// its own on a log axis: `10^{-2}` where the SVG printed `10⁻²` and `5·10⁻³`).
#[test]
fn a_log_axis_prints_the_svgs_ticks() {
    let (mut fig, _, mut tables) = figure();
    fig.cols = 1;
    fig.panels.remove(0);
    tables.drain(..3);
    // y within one decade, no power of ten in it: the SVG labels its 2…9·10⁻³ ticks there.
    let s = &mut fig.panels[0].series[0];
    s.x = (0..40).map(|k| 10f64.powf(-3.0 + 0.1 * f64::from(k))).collect();
    s.y = s.x.iter().map(|x| 0.0025 + 0.002 * x.sqrt()).collect();
    let drawn = fric_plot::render(&fig).unwrap();
    let tex = render_pgfplots("thesis/fig1.1", &fig, &drawn, &tables).unwrap();
    let d = &drawn.panels[0];
    for (xy, ticks, minor) in [('x', &d.ticks.0, &d.minor.0), ('y', &d.ticks.1, &d.minor.1)] {
        assert!(ticks.len() >= 2, "{xy}: {ticks:?}");
        let labels: Vec<String> = ticks
            .iter()
            .map(|(_, l)| format!("{{{}}}", axes::tick_label_tex(l)))
            .collect();
        let want = format!("{xy}ticklabels={{{}}}", labels.join(","));
        assert!(tex.contains(&want), "missing `{want}` in\n{tex}");
        assert!(
            labels.iter().all(|l| l.starts_with("{$") && l.contains("10^{")),
            "{labels:?}"
        );
        // Each position the value the label prints.
        let line = tex
            .lines()
            .map(str::trim_start)
            .find(|l| l.starts_with(&format!("{xy}tick=")))
            .unwrap();
        let at: Vec<f64> = line[7..line.find('}').unwrap()]
            .split(',')
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(at.len(), ticks.len(), "{line}");
        for ((v, l), a) in ticks.iter().zip(&at) {
            assert!((a.log10() - v).abs() < 1e-9, "{xy}: `{l}` at {a}");
        }
        let line = tex
            .lines()
            .map(str::trim_start)
            .find(|l| l.starts_with(&format!("minor {xy}tick=")))
            .unwrap();
        assert_eq!(line.matches('e').count(), minor.len(), "{line} vs {minor:?}");
    }
}

/// Every allowed command compiles with the figures' preamble (amsmath), where LuaLaTeX is
/// installed: the list holds no command LaTeX does not define.
#[test]
fn every_allowed_command_is_defined() {
    let installed = std::process::Command::new("lualatex")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        eprintln!("note: no lualatex on PATH; the allowed commands were not compiled");
        return;
    }
    let arg = |c: &str| match c {
        "frac" | "dfrac" | "tfrac" => "{a}{b}",
        "left" => "( x \\right)",
        _ => "{a}",
    };
    let body: String = fric_typeset::check::ALLOWED
        .iter()
        .filter(|c| !matches!(**c, "right" | "big" | "Big" | "bigl" | "bigr"))
        .map(|c| format!("$\\{c}{}$\n", arg(c)))
        .chain(["$\\big( \\Big( \\bigl( x \\bigr)$\n".to_string()])
        .collect();
    let doc = format!(
        "\\documentclass{{article}}\n{}\n\\begin{{document}}\n{body}\\end{{document}}\n",
        PREAMBLE
    );
    let dir = std::env::temp_dir().join(format!("fric-allowed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.tex"), doc).unwrap();
    let out = std::process::Command::new("lualatex")
        .args(["-interaction=nonstopmode", "-halt-on-error", "a.tex"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stdout).to_string();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success() && !log.contains("Undefined control"), "{log}");
}
