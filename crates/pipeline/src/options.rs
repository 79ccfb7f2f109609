//! What a front end asks of a pipeline run: [`Options`], and the [`Progress`] it is told.

use crate::store::RunCache;
use std::path::PathBuf;

/// Progress events for a front end.
#[derive(Clone, Debug)]
pub enum Progress {
    /// `total` units of work are about to start.
    Start {
        total: usize,
    },
    /// One unit done.
    Step {
        what: String,
    },
    Finish,
}

/// A progress callback.
pub type ProgressFn = dyn Fn(Progress) + Send + Sync;

pub struct Options {
    /// The workspace root (holds `experiments/`, `figures/`, `data/`).
    pub root: PathBuf,
    /// Glob patterns on manifest ids (`thesis/fig1.*`); empty selects all.
    pub only: Vec<String>,
    /// Recompute every run and redraw every figure.
    pub force: bool,
    /// Hash every output instead of trusting the stats recorded when it was written (a damaged
    /// output with a forged modification time and size is found and redrawn).
    pub verify: bool,
    /// Worker threads (default: all cores). With more than one, one more thread runs the
    /// explanations' root-finding chains beside them.
    pub jobs: Option<usize>,
    pub progress: Option<Box<ProgressFn>>,
    /// The run cache directory (default `data/cache/runs` under `root`); one directory may be
    /// shared by several workspaces and machines (entries are written by atomic rename).
    pub cache_dir: Option<PathBuf>,
}

impl Options {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self {
            root: root.into(),
            only: Vec::new(),
            force: false,
            verify: false,
            jobs: None,
            progress: None,
            cache_dir: None,
        }
    }
    /// Tell the front end (if it listens) of `p`.
    pub(crate) fn tell(&self, p: Progress) {
        if let Some(f) = &self.progress {
            f(p)
        }
    }
    /// The run cache this run reads and writes.
    pub fn run_cache(&self) -> RunCache {
        RunCache::new(
            self.cache_dir
                .clone()
                .unwrap_or_else(|| self.root.join("data/cache/runs")),
        )
    }
}
