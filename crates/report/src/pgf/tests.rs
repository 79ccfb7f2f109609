use super::*;

fn figure() -> PgfFigure {
    let axis = |label: &str, unit: Option<&str>, log: bool| PgfAxis {
        label: label.into(),
        unit: unit.map(Into::into),
        log,
        range: None,
        power: 0,
        ticks: vec![],
    };
    let series = |style, label: Option<&str>, y2: Option<&str>| PgfSeries {
        style,
        color: "blue".into(),
        label: label.map(Into::into),
        csv: "thesis/fig1.1/a-1.csv".into(),
        x: "u".into(),
        y: "F".into(),
        y2: y2.map(Into::into),
        arrows: vec![((0.0, 0.0), (1.0, 1.0))],
        point_labels: vec![],
        marker_size: None,
        rows: 100,
        under: false,
        faded: false,
    };
    PgfFigure {
        id: "thesis/fig1.1".into(),
        rows: 1,
        cols: 2,
        panel_width: 640,
        panel_height: 480,
        panels: vec![
            PgfPanel {
                title: Some("(a) σ/F_c = 1".into()),
                x: axis("u", Some("m"), false),
                y: PgfAxis {
                    range: Some([-1.0, 2.5]),
                    ticks: vec![
                        (-1.0, "\u{2212}1".into()),
                        (0.0, "0".into()),
                        (2.5e-5, "2.5e-5".into()),
                        (2.0, String::new()),
                    ],
                    ..axis("F_f", Some("N"), false)
                },
                legend: PgfLegend::UpperLeft,
                equal_aspect: true,
                size: (500.0, 380.0),
                legend_at: None,
                insets: vec![],
                series: vec![
                    series(fric_plot::style::SOLID, Some("F_ss"), None),
                    series(fric_plot::style::DASHED, None, None),
                    series(fric_plot::style::BAND, Some("band"), Some("F_hi")),
                ],
            },
            PgfPanel {
                title: None,
                x: axis("ω", Some("rad/s"), true),
                y: axis("|E_f|", None, true),
                legend: PgfLegend::None,
                equal_aspect: false,
                size: (500.0, 380.0),
                legend_at: None,
                insets: vec![],
                series: vec![series(fric_plot::style::POINTS, Some("not shown"), None)],
            },
        ],
        colors: vec![("blue".into(), (31, 119, 180))],
    }
}

#[test]
fn figure_renders_as_groupplot_reading_the_csvs() {
    let s = render_pgfplots(&figure()).unwrap();
    assert!(tex_problems(&s).is_empty(), "{:?}\n{s}", tex_problems(&s));
    for want in [
        "\\providecommand{\\fricfiguresdir}{figures}",
        "\\definecolor{fricblue}{RGB}{31,119,180}",
        "group size=2 by 1",
        "title={(a) $\\sigma/F_{c} = 1$}",
        "ylabel={$F_{f}$ [N]}",
        "ymin=-1e0, ymax=2.5e0",
        // The SVG's ticks and labels, not PGFPlots' own (report Fig 3.8).
        "ytick={-1e0,0e0,2.5e-5,2e0}, yticklabels={{$-1$},{$0$},{$2.5\\cdot 10^{-5}$},{}}",
        "xmode=log",
        "ymode=log",
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
    assert_eq!(s.matches("\\nextgroupplot").count(), 2);
}

/// A panel over pdfTeX's capacity (a band counts twice) makes pdfTeX include the PNG and stop
/// reading; a figure within it is drawn by every engine.
#[test]
fn a_figure_over_pdftex_memory_falls_back_to_its_png_there_only() {
    let s = render_pgfplots(&figure()).unwrap();
    assert!(!s.contains("\\includegraphics") && !s.contains("\\directlua"), "{s}");
    let mut f = figure();
    // 2 + 2 + 2·2 rows of 1000 in panel 1: 8000, the limit itself.
    for x in &mut f.panels[0].series {
        x.rows = PDFTEX_MAX_PANEL_SAMPLES / 8 * 2;
    }
    assert_eq!(panel_samples(&f.panels[0]), PDFTEX_MAX_PANEL_SAMPLES);
    assert!(!render_pgfplots(&f).unwrap().contains("\\includegraphics"));
    f.panels[1].series[0].rows = PDFTEX_MAX_PANEL_SAMPLES + 1;
    let s = render_pgfplots(&f).unwrap();
    assert!(tex_problems(&s).is_empty(), "{:?}", tex_problems(&s));
    let guard = "\\ifdefined\\directlua\\else\n\\includegraphics[width=17.78cm]{\\fricfiguresdir/thesis/fig1.1.png}%\n\\expandafter\\endinput\n\\fi\n\\begin{tikzpicture}";
    assert!(s.contains(guard), "{s}");
    assert!(s.contains("its panel 2 plots 8001 samples"), "{s}");
}

#[test]
fn unsafe_names_are_refused() {
    let mut f = figure();
    f.panels[0].series[0].x = "a,b".into();
    assert!(render_pgfplots(&f).unwrap_err().contains("a,b"));
    let mut f = figure();
    f.panels[0].series[0].csv = "../x.csv".into();
    assert!(render_pgfplots(&f).is_err());
}

/// An axis the SVG draws without tick labels (an upper panel of a stack sharing x) has no axis
/// label in PGFPlots either; a log axis hides PGFPlots' own labels too (ruderman-paper Fig 7's
/// PDF printed "t [s]" over the next panel's title).
#[test]
fn an_axis_drawn_without_tick_labels_has_no_label() {
    let mut f = figure();
    f.panels[0].x.ticks = vec![(0.0, String::new()), (1.0, String::new())];
    f.panels[1].x.ticks = vec![(0.0, String::new()), (1.0, String::new())];
    let s = render_pgfplots(&f).unwrap();
    assert!(!s.contains("xlabel="), "{s}");
    assert!(s.contains("xmode=log") && s.contains("xticklabels={}"), "{s}");
    // With a labelled tick, the label is back.
    f.panels[0].x.ticks[1].1 = "1".into();
    assert!(render_pgfplots(&f).unwrap().contains("xlabel={$u$ [m]}"));
}
