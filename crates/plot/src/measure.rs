//! Text as it is rasterised: every `<text>` of an SVG laid out with the bundled font (usvg, as
//! the PNG is drawn), with its box in SVG pixels and the number of glyphs drawn — what the layout
//! tests read (no label clipped, no two labels overlapping, every character of a label drawn as
//! one glyph: no ligature joining two, none missing).

use crate::raster::options;
use crate::DrawErr;
use resvg::usvg::{Group, Node, Tree};

/// One laid-out text.
#[derive(Clone, Debug)]
pub struct TextBox {
    /// The characters it holds (its chunks' text, tspans joined).
    pub text: String,
    /// Left, top, right, bottom in SVG pixels.
    pub rect: [f32; 4],
    /// Glyphs drawn.
    pub glyphs: usize,
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
