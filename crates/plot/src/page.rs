//! The page a figure is printed on: a figure wider than the text is scaled down to its width,
//! and no figure may then be taller than the text. A stack of panels that would be (thesis
//! Fig 3.5: six panels in one column, 1280 × 5760 px) is laid out in more columns instead — a
//! rule of the layout, not an edit of the manifest.

/// Pixels per inch at the print scale every backend shares: a 640-pixel panel prints 3.5 in
/// wide (a journal's single column).
pub const PX_PER_IN: f64 = 640.0 / 3.5;
/// The text width of a two-column journal page (7.16 in) in pixels.
pub const TEXT_WIDTH_PX: f64 = 7.16 * PX_PER_IN;
/// The height left for a figure on a page (9 in of text less room for its caption: 8.5 in).
pub const TEXT_HEIGHT_PX: f64 = 8.5 * PX_PER_IN;

/// The height of a figure `w` × `h` pixels once printed at most as wide as the text.
pub fn printed_height(w: f64, h: f64) -> f64 {
    h * (TEXT_WIDTH_PX / w).min(1.0)
}

/// The size of each of `cols` panels of a figure printed `inches` wide at the print scale
/// ([`PX_PER_IN`]), each keeping the aspect of `panel` (width, height in pixels).
pub fn panels_for_width(inches: f64, cols: usize, panel: (u32, u32)) -> (u32, u32) {
    let w = inches * PX_PER_IN / cols.max(1) as f64;
    let h = w * f64::from(panel.1) / f64::from(panel.0.max(1));
    (w.round() as u32, h.round() as u32)
}

/// The rows and columns for `n` panels of `pw` × `ph` pixels laid out `rows` × `cols`: the
/// declared grid if it fits a page, else the fewest columns that make it fit (each row filled
/// in order), or as many as there are panels.
pub fn fit_page(rows: usize, cols: usize, n: usize, pw: u32, ph: u32) -> (usize, usize) {
    let fits =
        |r: usize, c: usize| printed_height(c as f64 * f64::from(pw), r as f64 * f64::from(ph)) <= TEXT_HEIGHT_PX;
    let (rows, cols) = (rows.max(1), cols.max(1));
    if fits(rows, cols) || n <= 1 {
        return (rows, cols);
    }
    (cols + 1..=n)
        .map(|c| (n.div_ceil(c), c))
        .find(|&(r, c)| fits(r, c))
        .unwrap_or((1, n))
}

/// The grid of manifest `m`'s figure of `panels` panels: rows, columns and each panel's width
/// and height in SVG pixels: the declared layout (or one row of 640 × 480 panels), scaled to
/// its printed width, then [`fit_page`]. The pipeline draws by it and estimates a drawing's
/// memory by it.
pub fn grid(m: &fric_manifest::Manifest, panels: usize) -> Result<(usize, usize, u32, u32), String> {
    let (rows, cols, w, h) = match &m.layout {
        Some(l) => (l.rows, l.cols, l.panel_width, l.panel_height),
        None => (1, m.panels.len().max(1), 640, 480),
    };
    // A printed width: the panels scaled to it at the print scale, keeping their aspect.
    let width = m.layout.as_ref().map(|l| l.width_in()).transpose()?.flatten();
    let sized = |cols: usize| match width {
        Some(inches) => panels_for_width(inches, cols, (w, h)),
        None => (w, h),
    };
    let (pw, ph) = sized(cols);
    // No figure taller than a page at its print width: a tall stack becomes a grid (at a
    // declared width, its panels then sized again for the new number of columns).
    let (rows, new_cols) = fit_page(rows, cols, panels, pw, ph);
    let (w, h) = if new_cols == cols { (pw, ph) } else { sized(new_cols) };
    Ok((rows, new_cols, w, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stack_taller_than_a_page_becomes_a_grid() {
        // Thesis Fig 3.5: 6 × 1 at 1280 × 960 prints 5760 px tall; 3 × 2 fits.
        assert_eq!(fit_page(6, 1, 6, 1280, 960), (3, 2));
        assert!(printed_height(2560.0, 2880.0) <= TEXT_HEIGHT_PX);
        // What fits is kept.
        assert_eq!(fit_page(2, 1, 2, 640, 480), (2, 1));
        assert_eq!(fit_page(1, 3, 3, 640, 480), (1, 3));
        // Four 640 × 480 panels in a column (1920 px) print taller than the page: 2 × 2.
        assert_eq!(fit_page(4, 1, 4, 640, 480), (2, 2));
    }

    #[test]
    fn a_printed_width_sizes_the_panels() {
        // Two 640 × 480 panels in one column's width: 320 × 240 each; double: 655 × 491.
        assert_eq!(panels_for_width(3.5, 2, (640, 480)), (320, 240));
        assert_eq!(panels_for_width(7.16, 2, (640, 480)), (655, 491));
    }
}
