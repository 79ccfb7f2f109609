//! The HTML reproduction report (`figures/index.html` and the pages it links), checked twice:
//! in Rust (every relative `href`/`src` names an existing file, every `#anchor` an existing id,
//! no absolute or network link) and in headless Chromium (every image loads, nothing is logged
//! to the console).
//!
//! Chromium is the Debian package `chromium` (or set `FRIC_CHROMIUM` to a binary). Without it
//! (or with `FRIC_SKIP_BROWSER=1`) the browser half is skipped and one line on the terminal says
//! so; with `FRIC_REQUIRE_BROWSER=1` (`.ci/run` sets it) a missing browser fails the tests.

mod common;

use common::repo;
use fric_pipeline::{run, Options};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every HTML page under `figures/`.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(root.join("figures"))
        .into_iter()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "html"))
        .map(|e| e.into_path())
        .collect();
    out.sort();
    out
}

/// The values of every `href="..."` and `src="..."` attribute.
fn links(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in [" href=\"", " src=\""] {
        let mut rest = html;
        while let Some(i) = rest.find(attr) {
            rest = &rest[i + attr.len()..];
            let end = rest.find('"').unwrap_or(rest.len());
            let v = rest[..end].replace("&quot;", "\"").replace("&#39;", "'");
            out.push(v.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"));
            rest = &rest[end..];
        }
    }
    out
}

/// Broken links of one page: missing files, missing anchors, absolute or network links.
fn broken_links(page: &Path) -> Vec<String> {
    let html = std::fs::read_to_string(page).unwrap();
    let dir = page.parent().unwrap();
    let mut bad = Vec::new();
    for l in links(&html) {
        if l.contains("://") || l.starts_with('/') || l.starts_with("data:") || l.is_empty() {
            bad.push(format!("{}: not a relative link: `{l}`", page.display()));
            continue;
        }
        let (file, frag) = l.split_once('#').unwrap_or((&l, ""));
        let target = if file.is_empty() {
            page.to_path_buf()
        } else {
            dir.join(file)
        };
        if !target.is_file() {
            bad.push(format!("{}: `{l}` does not exist", page.display()));
        } else if !frag.is_empty() {
            let text = std::fs::read_to_string(&target).unwrap_or_default();
            if !text.contains(&format!("id=\"{frag}\"")) {
                bad.push(format!("{}: `{l}`: no id `{frag}` there", page.display()));
            }
        }
    }
    bad
}

fn chromium() -> Option<String> {
    if let Ok(c) = std::env::var("FRIC_CHROMIUM") {
        return Some(c);
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find_map(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|_| c.to_string())
        })
}

/// What to do without a browser, from the environment: `FRIC_REQUIRE_BROWSER=1` (set by
/// `.ci/run`) makes a missing browser a failure and forbids `FRIC_SKIP_BROWSER=1`.
fn browser_required() -> bool {
    std::env::var("FRIC_REQUIRE_BROWSER").is_ok_and(|v| v == "1")
}

/// One line on the terminal (not captured by the test harness, so a passing `cargo test`
/// shows it), printed once per test binary: what the site tests did not check.
fn say_once(line: &str) {
    use std::io::Write;
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = writeln!(std::io::stderr(), "{line}");
    });
}

/// The browser to use. `None`, with one visible line saying what is not checked, when
/// `FRIC_SKIP_BROWSER=1` or when no browser is installed (a fresh machine with only Rust);
/// panics instead when `FRIC_REQUIRE_BROWSER=1`, so CI can never skip the browser half.
fn browser() -> Option<String> {
    let required = browser_required();
    if std::env::var("FRIC_SKIP_BROWSER").is_ok_and(|v| v == "1") {
        assert!(
            !required,
            "FRIC_SKIP_BROWSER=1 and FRIC_REQUIRE_BROWSER=1 contradict each other"
        );
        say_once("note: site tests: FRIC_SKIP_BROWSER=1, the HTML report was NOT opened in a browser (images loading, console errors unchecked)");
        return None;
    }
    let found = chromium();
    match (&found, required) {
        (None, true) => panic!(
            "FRIC_REQUIRE_BROWSER=1 and no headless Chromium: install it (`apt-get install -y chromium`) \
             or point FRIC_CHROMIUM at it"
        ),
        (None, false) => say_once(
            "note: site tests: no Chromium found, the HTML report was NOT opened in a browser (images loading, console errors unchecked; `apt-get install -y chromium` checks them)",
        ),
        (Some(_), _) => {}
    }
    found
}

/// Appended to a copy of the page: after `load`, lists the images that did not decode (and
/// how many `<math>` elements have no width: MathML the browser did not lay out).
const PROBE: &str = "<script>window.addEventListener('load', () => { \
const b = [...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.getAttribute('src')); \
const m = [...document.querySelectorAll('math')].filter(e => e.getBoundingClientRect().width === 0).length; \
if (m) b.push(m + ' MathML captions not laid out'); \
const p = document.createElement('pre'); p.id = 'fric-probe'; p.textContent = JSON.stringify(b); \
document.body.appendChild(p); });</script>";

/// Open `page` in headless Chromium: the images that failed to load and every console message
/// (the pages have no scripts, so any message is an error: Chromium prints `console.error`,
/// uncaught exceptions and CSP violations as `INFO:CONSOLE` lines on stderr).
fn browser_problems(chrome: &str, page: &Path) -> Vec<String> {
    let html = std::fs::read_to_string(page).unwrap();
    // A copy beside the page, so relative URLs resolve the same way.
    let probe = page.with_file_name(format!(".probe-{}", page.file_name().unwrap().to_string_lossy()));
    let body_end = html.rfind("</body>").unwrap_or(html.len());
    std::fs::write(&probe, format!("{}{PROBE}{}", &html[..body_end], &html[body_end..])).unwrap();
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(chrome)
        .args([
            "--headless=new",
            "--disable-gpu",
            "--no-sandbox",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=10000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", probe.canonicalize().unwrap().display()))
        .output()
        .expect("chromium runs");
    std::fs::remove_file(&probe).unwrap();
    let dom = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let name = page.display();
    let mut bad: Vec<String> = stderr
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(|l| format!("{name}: console: {l}"))
        .collect();
    match dom
        .split_once("<pre id=\"fric-probe\">")
        .and_then(|(_, r)| r.split_once("</pre>"))
    {
        Some(("[]", _)) => {}
        Some((list, _)) => bad.push(format!("{name}: images that did not load: {list}")),
        None => bad.push(format!(
            "{name}: the page did not finish loading in Chromium (exit {:?}): {}",
            out.status.code(),
            stderr.lines().rev().take(5).collect::<Vec<_>>().join(" | ")
        )),
    }
    bad
}

/// Both halves over every page of a site.
fn check_site(root: &Path) {
    let all = pages(root);
    assert!(all.len() >= 3, "too few pages: {all:?}");
    let mut bad: Vec<String> = all.iter().flat_map(|p| broken_links(p)).collect();
    if let Some(chrome) = browser() {
        bad.extend(all.iter().flat_map(|p| browser_problems(&chrome, p)));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Issue 45 item 8 on every document page: each figure and table has its anchor (`id` = its
/// name), a caption whose `$...$` LaTeX accepts shows it as MathML (no `$` left), and every
/// table written as LaTeX is also shown as a table.
fn item_pages_show_math_tables_and_anchors(root: &Path, experiments: &[fric_report::ExperimentReport]) {
    let mut bad = Vec::new();
    for e in experiments {
        let (doc, name) = e.id.split_once('/').unwrap();
        let page = std::fs::read_to_string(root.join(format!("figures/{doc}/index.html"))).unwrap();
        let Some(at) = page.find(&format!("<section class=\"item\" id=\"{name}\">")) else {
            bad.push(format!("{}: no anchor `#{name}`", e.id));
            continue;
        };
        let section = &page[at..at + page[at..].find("</section>").unwrap()];
        let caption = section
            .split("<strong>Caption:</strong>")
            .nth(1)
            .and_then(|c| c.split("</p>").next());
        let latex_math = e.caption.contains('$') && fric_report::pgf::check_math(&e.caption).is_ok();
        if latex_math && caption.is_none_or(|c| c.contains('$') || !c.contains("<math")) {
            bad.push(format!("{}: caption math not shown as MathML: {caption:?}", e.id));
        }
        let tex = e
            .outputs
            .iter()
            .any(|o| o.ends_with(".tex") && !o.ends_with(".pgf.tex"));
        if e.kind == fric_report::ItemKind::Table && tex && !section.contains("<table class=\"data\">") {
            bad.push(format!("{}: a LaTeX table not shown as a table", e.id));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The text of an HTML fragment outside its `<math>` elements, tags removed and entities read.
fn text_outside_math(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(i) = rest.find("<math") {
        out.push_str(&rest[..i]);
        rest = rest[i..].split_once("</math>").map_or("", |(_, r)| r);
    }
    out.push_str(rest);
    let mut text = String::new();
    let mut in_tag = false;
    for c in out.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// What the prose typesetter should have typeset but the HTML shows as typed: a `\command`, a
/// word with a `_` or `^` script (`a_{θ}`, `F_ss`, `f_+`, `s^2`; an identifier whose part before
/// the `_` is three or more letters or digits, `rate_independent`, `fric_models::rbm::TABLE_3_1`,
/// is a name), and a Greek letter with digits (`σ1`).
fn raw_markup(html: &str) -> Vec<String> {
    let text = text_outside_math(html);
    let mut bad = Vec::new();
    for w in text.split_whitespace() {
        let cs: Vec<char> = w.chars().collect();
        let greek = |c: char| ('\u{391}'..='\u{3c9}').contains(&c);
        let command = cs.windows(2).any(|p| p[0] == '\\' && p[1].is_ascii_alphabetic());
        let core = w.trim_start_matches(['(', '[', '`', '\'']);
        let name = core.split_once('_').is_some_and(|(b, a)| {
            b.chars().count() >= 3
                && b.chars()
                    .chain(a.chars())
                    .all(|c| c.is_ascii_alphanumeric() || "_:.,;-/)]`'".contains(c))
        });
        let script = (w.contains('_') && !name) || w.contains('^');
        let greek_digit = cs.windows(2).any(|p| greek(p[0]) && p[1].is_ascii_digit());
        if command || script || greek_digit {
            bad.push(w.to_string());
        }
    }
    bad
}

/// The detector finds the s52 audit's examples and passes typeset HTML.
#[test]
fn raw_markup_is_found() {
    for raw in [
        "a_{θ} position",
        "(s_c, f_s)",
        "the \\wedge map",
        "σ1 = 0",
        "f_+ and",
        "m/s^2",
        "F_f",
    ] {
        assert!(!raw_markup(raw).is_empty(), "{raw}");
    }
    let typeset =
        fric_report::site::caption_html("a_{θ} (s_c, f_s), the \\wedge -unimodal map, σ1 = 0, f_+, rate_independent");
    assert!(raw_markup(&typeset).is_empty(), "{typeset}: {:?}", raw_markup(&typeset));
}

/// Issue 45 items 4 and 8 on every page: every caption, check note, table cell and table note
/// is typeset as the LaTeX route typesets it (one prose typesetter), so none shows raw markup.
fn no_raw_markup(root: &Path) {
    let mut bad = Vec::new();
    for page in pages(root) {
        let html = std::fs::read_to_string(&page).unwrap();
        let mut frags: Vec<&str> = Vec::new();
        for (open, close) in [
            ("<strong>Caption:</strong>", "</p>"),
            ("<div class=\"table\">", "</div>"),
            ("<div class=\"muted note\">", "</div>"),
            ("<p class=\"muted\">", "</p>"),
        ] {
            frags.extend(
                html.split(open)
                    .skip(1)
                    .filter_map(|f| f.split_once(close).map(|x| x.0)),
            );
        }
        for f in frags {
            let raw = raw_markup(f);
            if !raw.is_empty() {
                bad.push(format!("{}: {raw:?} in `{}`", page.display(), text_outside_math(f)));
            }
        }
    }
    assert!(bad.is_empty(), "{} fragments:\n{}", bad.len(), bad.join("\n"));
}

/// The project's manifests in a temporary workspace, beside a link to the real seeds.
#[test]
fn project_site_has_no_broken_links_images_or_console_errors() {
    let (_t, root) = common::project_copy();
    let s = run(&common::project_options(&root)).unwrap();
    assert!(s.invalid.is_empty());
    check_site(&root);
    let index = std::fs::read_to_string(root.join("figures/index.html")).unwrap();
    let docs: Vec<String> = fric_pipeline::load(&root).documents.into_iter().map(|d| d.id).collect();
    assert!(docs.len() >= 6, "the five sources and the example follow-up: {docs:?}");
    for d in &docs {
        assert!(index.contains(&format!("href=\"{d}/index.html\"")), "{d}");
        let page = std::fs::read_to_string(root.join(format!("figures/{d}/index.html"))).unwrap();
        let n = s
            .report
            .experiments
            .iter()
            .filter(|e| e.id.starts_with(&format!("{d}/")))
            .count();
        assert_eq!(page.matches("<section class=\"item\"").count(), n, "{d}");
    }
    item_pages_show_math_tables_and_anchors(&root, &s.report.experiments);
    no_raw_markup(&root);
    let known = s.count(fric_report::Outcome::KnownDiscrepancy);
    let disc = std::fs::read_to_string(root.join("figures/discrepancies.html")).unwrap();
    assert_eq!(disc.matches("<strong>Known discrepancy (").count(), known);
    // Grouped by kind: the headings' counts add up, and no unresolved one is called the source's.
    let kinds = s.count_by_kind();
    for (k, n) in &kinds {
        assert!(
            disc.contains(&format!("<h2 id=\"{0}\">{0} ({n})</h2>", k.name())),
            "{k:?}"
        );
    }
    assert_eq!(kinds.values().sum::<usize>(), known);
    let unresolved = &disc[disc.find("<h2 id=\"unresolved\">").unwrap()..];
    assert!(!unresolved.contains("an error of the source"));
    if repo().join("../shared/seeds").is_dir() {
        let thesis = std::fs::read_to_string(root.join("figures/thesis/index.html")).unwrap();
        assert!(thesis.contains("<small>L463</small> Figure 1.7: Input-output maps"));
    }
    let body = std::fs::read_to_string(root.join("figures/reproduction-body.tex")).unwrap();
    for e in s.report.experiments.iter().filter(|e| e.status == "reproduced") {
        let out = e
            .outputs
            .iter()
            .find(|o| o.ends_with(".png") || o.ends_with(".tex"))
            .unwrap();
        assert!(
            body.contains(&format!("{{../{out}}}")),
            "{} not in the LaTeX body",
            e.id
        );
    }
}

const BARE: &str = r#"id: thesis/fig9.1
kind: figure
source: {document: thesis, number: "9.1", caption: "a figure <with> & markup", lines: [1, 999999]}
content: simulation
status: partial
runs:
  - id: dahl
    system: dahl
    params: {sigma: 7.5, fc: 1.5, gamma: 1}
    input: {kind: sine, amplitude: 5, omega: 2}
    sim: {periods: 2, samples_per_period: 100}
panels:
  - id: main
    x: {label: u}
    y: {label: F}
    series:
      - {run: dahl, x: u, y: F}
reason: "a test fixture without a check: partial by the status rule"
"#;

/// No seeds, a manifest without assumptions or checks, a pending and an invalid manifest, and
/// then a deleted PNG: the site still builds, escapes text, and links only what exists.
#[test]
fn site_builds_from_bad_input_without_seeds() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("ws");
    let files = [
        ("thesis/fig9.1.yaml", BARE),
        (
            "thesis/fig9.2.yaml",
            "id: thesis/fig9.2\nkind: figure\nsource: {document: thesis, number: \"9.2\", caption: c, lines: [2]}\ncontent: simulation\nstatus: pending\nreason: later\n",
        ),
        ("duhem-paper/fig99.yaml", "id: duhem-paper/fig99\nkind: [oops\n"),
    ];
    for (name, text) in files {
        let p = root.join("experiments").join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    common::declare_documents(&root.join("experiments"), &files);
    let s = run(&Options::new(&root)).unwrap();
    assert_eq!(s.invalid.len(), 1);
    let thesis = root.join("figures/thesis/index.html");
    let html = std::fs::read_to_string(&thesis).unwrap();
    assert!(html.contains("a figure &lt;with&gt; &amp; markup"));
    assert!(html.contains("not available, so cited lines are not quoted"));
    assert!(html.contains("src=\"../../figures/thesis/fig9.1.png\""));
    let duhem = std::fs::read_to_string(root.join("figures/duhem-paper/index.html")).unwrap();
    assert!(duhem.contains("Errors:"), "the invalid manifest shows its errors");
    check_site(&root);
    // An `--only` run leaves the site as the full run wrote it.
    let site_bytes = || {
        pages(&root)
            .iter()
            .map(|p| std::fs::read(p).unwrap())
            .collect::<Vec<_>>()
    };
    let full = site_bytes();
    let mut o = Options::new(&root);
    o.only = vec!["thesis/fig9.2".into()];
    run(&o).unwrap();
    assert!(full == site_bytes(), "an --only run changed the site");

    std::fs::remove_file(root.join("figures/thesis/fig9.1.png")).unwrap();
    let site = fric_pipeline::site::build(&root, &fric_pipeline::load(&root), &s.report);
    fric_pipeline::site::write(&root, &site).unwrap();
    let html = std::fs::read_to_string(&thesis).unwrap();
    assert!(html.contains("no regenerated image") && !html.contains("fig9.1.png"));
    check_site(&root);
}

/// The checks themselves fail on a page with a missing image, an image that does not decode, a
/// missing link target or anchor, a network link and a console error.
#[test]
fn checks_catch_a_broken_page() {
    let t = tempfile::tempdir().unwrap();
    let page = t.path().join("figures/broken.html");
    std::fs::create_dir_all(page.parent().unwrap()).unwrap();
    std::fs::write(
        &page,
        "<!DOCTYPE html><html><head><title>b</title></head><body>\
         <a href=\"gone.html\">x</a> <a href=\"#nowhere\">y</a> <a href=\"https://example.org/\">z</a>\
         <img src=\"missing.png\" alt=\"m\"><img src=\"corrupt.png\" alt=\"c\"><script>console.error('deliberate')</script></body></html>",
    )
    .unwrap();
    // Exists, so only the browser sees that it does not decode.
    std::fs::write(t.path().join("figures/corrupt.png"), "not a PNG").unwrap();
    let bad = broken_links(&page).join("\n");
    assert!(!bad.contains("corrupt.png"), "{bad}");
    assert!(bad.contains("`gone.html` does not exist"), "{bad}");
    assert!(bad.contains("`missing.png` does not exist"), "{bad}");
    assert!(bad.contains("no id `nowhere`"), "{bad}");
    assert!(bad.contains("not a relative link: `https://example.org/`"), "{bad}");
    if let Some(chrome) = browser() {
        let bad = browser_problems(&chrome, &page).join("\n");
        assert!(
            bad.contains("images that did not load: [\"missing.png\",\"corrupt.png\"]"),
            "{bad}"
        );
        assert!(bad.contains("\"deliberate\""), "{bad}");
    }
}
