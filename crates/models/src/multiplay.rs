//! Multiplay model (thesis ch. II, eqs 2.1–2.4): work in progress.
