//! The one label typesetter of the project. A label, legend entry, title or unit as a manifest
//! writes it (`F_f^l [N]`, `σ0 z + σ1 dz/dt`, `x_{i+1}`, `kg-m^2`) is read once into runs
//! ([`tree`]: text, subscripts, superscripts, with the field's typography applied: σ0 → σ₀,
//! `du/dt` → u̇, U+2212 minus signs, N·m in units) and printed by a backend: SVG text spans
//! ([`svg()`], used by fric-plot) and LaTeX math ([`tex::math`], used by fric-report's
//! PGFPlots figures, tables and captions). The character tables every backend shares are in
//! [`symbols`].
//!
//! The decision which words of a label or of prose are mathematics and which text, and where a
//! formula starts and ends, is taken here once: [`label::read`] (a label's words, with
//! `formula` keeping a formula whole), [`prose`] (captions, notes, table cells, titles: `$...$`
//! validated by [`check`], relations by [`relation`], expressions and quoted formulas by
//! `expression`). Their tokens are printed by [`label::label_to_tex`] / [`prose::to_tex`]
//! (LaTeX) and by fric-report's `mathml` (HTML); the characters of every token are the runs the
//! SVG prints, which a test (`agree`) checks label by label.
//!
//! The reading is purely textual and total: any string is accepted, and what it does not
//! recognise is kept as written.

#[cfg(test)]
mod agree;
pub mod check;
mod expression;
mod formula;
pub mod label;
pub mod prose;
pub mod relation;
pub mod svg;
pub mod symbols;
pub mod tex;
pub mod tree;

pub use svg::{escape, rewrite_texts, svg, unescape};
pub use tree::{greek_digits, is_minus, minus_signs, parse, plain, script_at, unit, Run};
