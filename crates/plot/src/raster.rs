//! SVG to PNG: resvg (tiny-skia), anti-aliased, at [`PNG_SCALE`] pixels per SVG pixel, with the
//! bundled font only.

use crate::{DrawErr, FONT};

/// Pixels of the PNG per SVG pixel. A 640-pixel panel is then 1280 pixels wide: 366 dpi at the
/// published width of about 3.5 in.
pub const PNG_SCALE: f32 = 2.0;

/// The font database for rasterising: the bundled font only, as every generic family.
fn fontdb() -> std::sync::Arc<resvg::usvg::fontdb::Database> {
    static DB: std::sync::OnceLock<std::sync::Arc<resvg::usvg::fontdb::Database>> = std::sync::OnceLock::new();
    DB.get_or_init(|| {
        let mut db = resvg::usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        let family = db
            .faces()
            .next()
            .and_then(|f| f.families.first().map(|(name, _)| name.clone()))
            .unwrap_or_else(|| "DejaVu Sans".into());
        db.set_sans_serif_family(family.clone());
        db.set_serif_family(family.clone());
        db.set_monospace_family(family);
        std::sync::Arc::new(db)
    })
    .clone()
}

/// How an SVG is read: the bundled font for every family.
pub(crate) fn options() -> resvg::usvg::Options<'static> {
    resvg::usvg::Options {
        fontdb: fontdb(),
        font_family: "sans-serif".into(),
        ..Default::default()
    }
}

/// Rasterise SVG bytes to PNG at [`PNG_SCALE`], anti-aliased, on white (resvg/tiny-skia: every
/// stroke is stroked as drawn in the SVG, so no overlapping part of a path cancels another).
pub fn rasterize(svg: &[u8]) -> Result<Vec<u8>, DrawErr> {
    let tree = resvg::usvg::Tree::from_data(svg, &options()).map_err(|e| format!("svg: {e}"))?;
    let size = tree.size();
    let (w, h) = (
        (size.width() * PNG_SCALE).ceil() as u32,
        (size.height() * PNG_SCALE).ceil() as u32,
    );
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w.max(1), h.max(1)).ok_or("pixmap allocation failed")?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(PNG_SCALE, PNG_SCALE),
        &mut pixmap.as_mut(),
    );
    // Opaque RGB with fixed encoder settings, so the bytes are deterministic.
    let rgb: Vec<u8> = pixmap.data().chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w.max(1), h.max(1));
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Default);
        let mut wr = enc.write_header().map_err(|e| e.to_string())?;
        wr.write_image_data(&rgb).map_err(|e| e.to_string())?;
    }
    Ok(out)
}
