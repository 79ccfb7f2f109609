//! Switch Model (Leine) with stick band: work in progress.
