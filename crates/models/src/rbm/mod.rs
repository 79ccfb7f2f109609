//! Rotating bristle models, thesis ch. III §3.2–§3.3 (Drinčić 2012), source lines L833–L1219.
//!
//! A rigid body of length `d` slides at height `h` over an infinite row of rigid bristles of length
//! `l_b` with bases `x_b = iΔ` (the lattice phase is not stated; catalog M1) and torsional springs
//! `κ`. Only bristles touching a lower corner push horizontally (L835–L840).
//!
//! # Equations
//!
//! * `d0 = sqrt(l_b² − h²)` (L833), (3.1) `θ_max = arccos(h/l_b)` (L852).
//! * (3.2) `θ^r = arctan((x + d/2 − x_b)/h)`, (3.3) `θ^l = arctan((x − d/2 − x_b)/h)` (L858, L862).
//! * (3.4)–(3.6) `F_f,i = κ θ cos²θ / h` (L870–L878).
//! * (3.7)–(3.9) `F_f = (κ/h) Σ θ cos²θ` over the contact sets (L904, L921, L925).
//! * DRBM (3.13)–(3.16): `X^r = {x + d/2 − d0 < x_b ≤ x + d/2}` for `v ≥ 0`,
//!   `X^l = {x − d/2 ≤ x_b < x − d/2 + d0}` for `v < 0` (L980–L992).
//! * (3.19) `F_min = (κ/h) φ cos²φ`, `φ = arctan((d0 − Δ)/h)` (L1010): the sawtooth minimum
//!   when one bristle remains, valid for `1 < d0/Δ ≤ 2` (catalog M4 caveat).
//! * Sawtooth (3.48)–(3.49) with the floored modulus (L1166–L1178).
//!
//! # RBM contact sets as a per-bristle state machine
//!
//! Table 3.1 (L884–L896) describes the contact sets after an isolated reversal with `2Δ`
//! thresholds that are consistent only for `d0 ≤ 2Δ` and only when a reversal is followed by at
//! least `d + d0` of travel (catalog Table 3.1 notes). [`BristleState`] replaces it by the
//! geometry it describes: every bristle is upright, rotated by the right corner (`R`, θ ≥ 0), by
//! the left corner (`L`, θ ≤ 0), or pressed flat under the body at `±θ_max` (`FlatP`, `FlatM`).
//! The transitions are purely positional (corners `c_r = x + d/2`, `c_l = x − d/2`):
//! `Up → R` when `c_r` passes the base moving right, `Up → L` when `c_l` passes it moving left;
//! `R → FlatP` at `c_r − x_b ≥ d0`, `R → Up` at `c_r ≤ x_b`; `L → FlatM` at `x_b − c_l ≥ d0`,
//! `L → Up` at `c_l ≥ x_b`; `FlatP → R` when the right corner comes back over the tip
//! (`c_r < x_b + d0`), `FlatP → Up` when the left corner passes the tip (`c_l > x_b + d0`);
//! `FlatM → L` when `c_l > x_b − d0`, `FlatM → Up` when `c_r < x_b − d0`. Before the first
//! reversal this is Table 3.2, and after an isolated reversal with `d0 ≤ 2Δ` Table 3.1.

//!
//! Files: `geometry.rs` the bristle row and the DRBM's contact ranges ([`Bristles`]);
//! `sawtooth.rs` the sawtooth approximation and the FFBM; `tables.rs` thesis Tables 3.1 and 3.2
//! as data; `state.rs` the RBM's per-bristle state machine ([`Rbm`]).

mod geometry;
mod literal;
mod sawtooth;
mod state;
mod tables;
#[cfg(test)]
mod test_rigs;

pub use geometry::{Bristles, Cells, Range, Side};
pub use literal::{Memory, TableReading};
pub use sawtooth::{Ffbm, Sawtooth};
pub use state::{step_bristle, BristleState, Rbm};
pub use tables::{ContactRow, RowAt, TABLE_3_1, TABLE_3_2};
