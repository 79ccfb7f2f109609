//! Compressed bristle model (thesis ch. IV): work in progress.
