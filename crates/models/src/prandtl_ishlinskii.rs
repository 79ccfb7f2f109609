//! Prandtl–Ishlinskii operator: work in progress.
