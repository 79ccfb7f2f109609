//! Text as it is rasterised: every `<text>` of an SVG laid out with the bundled font (usvg, as
//! the PNG is drawn), with its box in SVG pixels and the glyphs drawn for each of its runs — what
//! the layout tests read (no label clipped, no two labels overlapping, and [`TextBox::glyph_problems`]:
//! every run drawn with its own characters' glyphs, a standard ligature only inside a run of text).

use crate::math::svg::{LIGATURES, ZWNJ};
use crate::raster::options;
use crate::DrawErr;
use resvg::usvg::{BaselineShift, Group, Node, Text, Tree};

/// One laid-out text.
#[derive(Clone, Debug)]
pub struct TextBox {
    /// The characters it holds (its chunks' text, tspans joined).
    pub text: String,
    /// Left, top, right, bottom in SVG pixels.
    pub rect: [f32; 4],
    /// Glyphs drawn.
    pub glyphs: usize,
    /// Its runs as typeset (one SVG text or tspan each, one script level), in order.
    pub runs: Vec<TextRun>,
}

/// One typeset run of a text (the characters of one SVG text or tspan) and the glyphs the
/// shaper drew for it.
#[derive(Clone, Debug)]
pub struct TextRun {
    /// Its characters.
    pub text: String,
    /// A sub- or superscript (a baseline shift).
    pub script: bool,
    /// Each glyph drawn for the run, as the characters it stands for (a ligature: several; a
    /// cluster of several glyphs, a letter and its combining mark: all to the last, "" to the
    /// others). usvg gives a glyph to the run its first character is in.
    pub glyphs: Vec<String>,
}

/// A character that draws nothing: a space, or the zero-width non-joiner that keeps two runs'
/// letters apart.
fn invisible(c: char) -> bool {
    c.is_whitespace() || c == ZWNJ
}

/// A combining mark (U+0300–U+036F): drawn with its letter, in one glyph cluster (one glyph when
/// the font has the composed letter, `ż`; the letter and the mark otherwise, `θ̇`).
fn combining(c: char) -> bool {
    ('\u{300}'..='\u{36f}').contains(&c)
}

/// The glyph clusters a run must be drawn with: one per visible letter (with its combining marks), less one per character a
/// standard ligature of the bundled font ([`LIGATURES`], longest first) joins inside a word of
/// a run of text. Mathematics never ligates: a sub- or superscript is drawn a glyph per character.
pub fn expected_glyphs(text: &str, script: bool) -> usize {
    let visible = text.chars().filter(|c| !invisible(*c) && !combining(*c)).count();
    if script {
        return visible;
    }
    let mut joined = 0;
    for word in text.split(invisible) {
        let mut rest = word;
        while !rest.is_empty() {
            match LIGATURES.iter().find(|l| rest.starts_with(**l)) {
                Some(l) => {
                    joined += l.chars().count() - 1;
                    rest = &rest[l.len()..];
                }
                None => rest = &rest[rest.chars().next().map_or(1, char::len_utf8)..],
            }
        }
    }
    visible - joined
}

impl TextBox {
    /// What is wrong with the glyphs drawn for this text, run by run (none when every run is
    /// drawn with exactly [`expected_glyphs`] glyphs, standing for its own characters in order):
    /// a glyph that joins two runs (`F_f^l` drawn "F_fl"), a glyph missing, a ligature in
    /// mathematics, or a run the layout did not draw.
    pub fn glyph_problems(&self) -> Vec<String> {
        let seen = |s: &str| s.chars().filter(|c| !invisible(*c)).collect::<String>();
        let mut bad = Vec::new();
        if self.runs.is_empty() && !seen(&self.text).is_empty() {
            bad.push(format!("`{}`: its runs were not laid out one by one", self.text));
        }
        for r in &self.runs {
            // One glyph cluster per letter: the shaper gives a cluster's characters to its last
            // glyph (`θ̇`: θ with "", the dot above with "θ̇"; `ż` composed: one glyph "ż").
            let drawn: Vec<String> = r.glyphs.iter().map(|g| seen(g)).filter(|g| !g.is_empty()).collect();
            let want = expected_glyphs(&r.text, r.script);
            if drawn.concat() != seen(&r.text) || drawn.len() != want {
                bad.push(format!(
                    "`{}`: run `{}`{} drawn as glyphs {drawn:?} (standing for `{}`): {} glyphs for {want} expected",
                    self.text,
                    r.text,
                    if r.script { " (script)" } else { "" },
                    drawn.concat(),
                    drawn.len()
                ));
            }
        }
        bad
    }
}

/// The runs of one laid-out text: usvg lays out each span of each chunk in order (a chunk
/// without a visible glyph is skipped); when the layout does not match the spans one to one,
/// none (which [`TextBox::glyph_problems`] reports).
fn runs(t: &Text) -> Vec<TextRun> {
    let spans: Vec<(String, bool)> = t
        .chunks()
        .iter()
        .flat_map(|c| {
            c.spans().iter().map(|s| {
                let script = s.baseline_shift().iter().any(|b| match b {
                    BaselineShift::Baseline => false,
                    BaselineShift::Number(n) => *n != 0.0,
                    _ => true,
                });
                (c.text()[s.start()..s.end()].to_string(), script)
            })
        })
        .collect();
    let laid = t.layouted();
    if laid.len() != spans.len() {
        return Vec::new();
    }
    spans
        .into_iter()
        .zip(laid)
        .map(|((text, script), l)| TextRun {
            text,
            script,
            glyphs: l.positioned_glyphs.iter().map(|g| g.text.clone()).collect(),
        })
        .collect()
}

fn collect(g: &Group, out: &mut Vec<TextBox>) {
    for n in g.children() {
        match n {
            Node::Group(g) => collect(g, out),
            Node::Text(t) => {
                let b = t.abs_bounding_box();
                out.push(TextBox {
                    text: t.chunks().iter().map(|c| c.text()).collect(),
                    rect: [b.left(), b.top(), b.right(), b.bottom()],
                    glyphs: t.layouted().iter().map(|s| s.positioned_glyphs.len()).sum(),
                    runs: runs(t),
                });
            }
            _ => {}
        }
    }
}

/// Every text of `svg`, laid out as [`crate::rasterize`] lays it out.
pub fn text_boxes(svg: &[u8]) -> Result<Vec<TextBox>, DrawErr> {
    let tree = Tree::from_data(svg, &options()).map_err(|e| format!("svg: {e}"))?;
    let mut out = Vec::new();
    collect(tree.root(), &mut out);
    Ok(out)
}

/// The box (left, top, right, bottom, relative to the text's anchor point, in drawing units) of
/// one text with SVG `markup` (already escaped, tspans allowed) at font size `size`, anchored
/// `anchor` (start, middle, end) and shifted down by `dy` (an SVG length, "0" for none), as the
/// PNG lays it out; `None` when it draws nothing.
pub(crate) fn text_box(markup: &str, size: f64, anchor: &str, dy: &str) -> Option<[f64; 4]> {
    let b = text_boxes(one_text(markup, size, anchor, dy).as_bytes())
        .ok()?
        .into_iter()
        .next()?;
    Some(b.rect.map(|v| v as f64 - AT))
}

/// Where [`one_text`] places its text.
const AT: f64 = 5000.0;

/// An SVG holding one text at ([`AT`], [`AT`]).
fn one_text(markup: &str, size: f64, anchor: &str, dy: &str) -> String {
    format!(
        r#"<svg width="10000" height="10000" xmlns="http://www.w3.org/2000/svg"><text x="{AT}" y="{AT}" dy="{dy}" text-anchor="{anchor}" font-family="sans-serif" font-size="{size:.2}">{markup}</text></svg>"#
    )
}

/// The box of the ink of one text (its glyphs' outlines, not the font's ascender and
/// descender), as [`text_box`] otherwise: what a reader sees of two labels' distance.
pub(crate) fn ink_box(markup: &str, size: f64, anchor: &str, dy: &str) -> Option<[f64; 4]> {
    let tree = Tree::from_data(one_text(markup, size, anchor, dy).as_bytes(), &options()).ok()?;
    fn first(g: &Group) -> Option<[f64; 4]> {
        g.children().iter().find_map(|n| match n {
            Node::Group(g) => first(g),
            Node::Text(t) => {
                let b = t.flattened().abs_bounding_box();
                Some([b.left(), b.top(), b.right(), b.bottom()].map(|v| v as f64 - AT))
            }
            _ => None,
        })
    }
    first(tree.root())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::svg;

    /// The one text of `markup`, laid out with the bundled font.
    fn laid(markup: &str) -> TextBox {
        text_boxes(one_text(markup, 12.0, "start", "0").as_bytes())
            .unwrap()
            .remove(0)
    }

    /// [`LIGATURES`] are the ligatures the bundled font forms: every pair of ASCII letters and
    /// digits, and every `ff` triple, laid out as words; the glyphs standing for more than one
    /// character are exactly the listed ones.
    #[test]
    fn the_fonts_ligatures_are_the_listed_ones() {
        let abc: Vec<char> = ('a'..='z').chain('A'..='Z').chain('0'..='9').collect();
        let mut words = Vec::new();
        for a in &abc {
            for b in &abc {
                words.push(format!("{a}{b}"));
            }
            words.push(format!("ff{a}"));
        }
        let b = laid(&words.join(" "));
        let mut formed: Vec<String> = b.runs[0]
            .glyphs
            .iter()
            .map(|g| g.trim().to_string())
            .filter(|g| g.chars().count() > 1)
            .collect();
        formed.sort();
        formed.dedup();
        let mut listed: Vec<String> = LIGATURES.iter().map(|l| l.to_string()).collect();
        listed.sort();
        assert_eq!(formed, listed);
    }

    /// The glyph rule per run: a letter and its script never share a glyph, whether the label
    /// has spaces or not; a word of text draws its standard ligatures and no more.
    #[test]
    fn every_run_draws_its_own_glyphs() {
        let sub = |s: &str| format!(r#"<tspan baseline-shift="-0.3em" font-size="72%">{s}</tspan>"#);
        let sup = |s: &str| format!(r#"<tspan baseline-shift="0.55em" font-size="72%">{s}</tspan>"#);
        // (a) `F_f^l` without the non-joiner: the shaper joins f and l into one glyph.
        let merged = laid(&format!("F{}{}", sub("f"), sup("l"))).glyph_problems();
        assert!(!merged.is_empty(), "F_f^l without a non-joiner passed");
        eprintln!("(a) {merged:?}");
        assert_eq!(laid(&svg("F_f^l")).glyph_problems(), Vec::<String>::new());
        // (b) a label with spaces and a merge across runs (a base f, its subscript i).
        let spaced = laid(&format!("fitted f{} model", sub("i"))).glyph_problems();
        assert!(!spaced.is_empty(), "a merge across runs in a label with spaces passed");
        eprintln!("(b) {spaced:?}");
        assert_eq!(laid(&svg("fitted f_i model")).glyph_problems(), Vec::<String>::new());
        // (c) words with the fi ligature: exactly one glyph fewer than characters.
        for (label, n) in [("fitted", 5), ("fitted model", 10)] {
            let b = laid(&svg(label));
            assert_eq!(b.glyph_problems(), Vec::<String>::new(), "{label}");
            assert_eq!(expected_glyphs(label, false), n);
            let drawn = b.runs.iter().flat_map(|r| &r.glyphs).filter(|g| !g.trim().is_empty());
            assert_eq!(drawn.count(), n, "{label}");
        }
        // A letter and its combining mark: one cluster, composed (`ż`) or not (`θ̇`).
        assert_eq!(laid(&svg("θ\u{307} z\u{307}")).glyph_problems(), Vec::<String>::new());
        assert_eq!(expected_glyphs("θ\u{307} z\u{307}", false), 2);
        // A script never ligates.
        assert_eq!(expected_glyphs("fi", true), 2);
        assert!(!laid(&format!("x{}", sub("fi"))).glyph_problems().is_empty());
        assert_eq!(laid(&svg("x_{fi}")).glyph_problems(), Vec::<String>::new());
    }
}
