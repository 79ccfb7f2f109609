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
