//! The independent CBM reference's files, shared by the test binaries `cbm_reference.rs`,
//! `cbm_reference_fits.rs` and `cbm_reference_long.rs` (each includes this module by path and
//! uses what it needs; see `cbm_reference.rs` for what each file holds).
#![allow(dead_code)]

pub mod compare;
pub mod fit;
pub mod reference;
pub mod runs;
pub mod series;
