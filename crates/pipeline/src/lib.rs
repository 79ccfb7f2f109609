//! The reproduction pipeline: load every manifest, compute the runs they need (in parallel,
//! through a content-addressed cache), evaluate metrics and checks, render figures and tables,
//! and write `figures/report.json` and the HTML reproduction report (`figures/index.html`).
//!
//! The pipeline is ignorant of physics: runs are opaque requests executed by
//! `fric-experiments`, results are named columns. It owns every file the project writes
//! (`figures/`, `data/cache/`), always atomically.
//!
//! This file is the public facade; every module holds one concern and none imports from here.
//! A pipeline run ([`run`], in `run.rs`) goes: [`load`] → selection (`selection.rs`) → current
//! manifests from their stamps (`stamp.rs`) → the run phase (`compute_all.rs`, scheduled by
//! `schedule.rs`) → the evaluation phase (`evaluate_all.rs`: one manifest in `entries.rs`, its
//! metrics in `metric_tables.rs`, drawing in `render.rs`, tables in `tables.rs`) → the report
//! (`assemble.rs`) → its files (`outputs.rs`).

// Validation negates comparisons on purpose so that NaN is rejected too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod assemble;
mod batches;
mod cache_bound;
mod clean;
mod closure_gate;
mod companions;
mod compute;
mod compute_all;
pub mod continuation;
mod coverage;
mod entries;
mod entry;
mod entry_report;
pub mod evaluate;
mod evaluate_all;
pub mod export;
mod filestat;
pub mod find;
mod finds;
mod fingerprint;
mod fit_refs;
mod fits;
pub mod fitted_params;
mod frames;
mod hash;
mod isolate;
pub mod limits;
pub mod load;
pub mod loop_branch;
pub mod lsq;
mod lsq_algebra;
mod lsq_scan;
mod lsq_trust;
mod marks;
pub mod memory;
mod metric_tables;
pub mod metrics;
mod options;
pub mod orphans;
mod outputs;
mod overrides;
pub mod own_time;
mod parquet_file;
pub mod plan;
pub mod profile;
pub mod quote;
pub mod readfile;
mod render;
mod run;
mod run_source;
mod schedule;
mod selection;
pub mod sensitivity;
pub mod shard;
pub mod site;
mod stamp;
pub mod status;
pub mod store;
mod summary;
pub mod table_layout;
pub mod tables;
pub mod timings;

pub use clean::clean;
pub use coverage::coverage;
pub use entry::{run_key, run_key_by, Loaded};
pub use fingerprint::{RENDER_FINGERPRINT, RUNS_FINGERPRINT};
pub use load::{load, InvalidManifest};
pub use options::{Options, Progress, ProgressFn};
pub use run::run;
pub use summary::Summary;
