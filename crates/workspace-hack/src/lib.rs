//! Empty on purpose: this crate exists for its `Cargo.toml`, which enables, in the dependency
//! graph of `xtask`, every feature that `cargo test --workspace` enables on a shared dependency.
//! See the comment there and `xtask/tests/feature_unification.rs`.
