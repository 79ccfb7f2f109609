//! The resource limits, each checked before work starts and each with an environment variable
//! that overrides it: input file sizes ([`crate::readfile`]), sweep members and the estimated
//! memory of a manifest's runs (`load/runs.rs`). The defaults leave every manifest of the
//! project well inside them; README's "Limits" lists them.

/// A limit and the environment variable that overrides it.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    /// What is limited, for messages ("manifest", "sweep members").
    pub what: &'static str,
    /// The environment variable that overrides the limit (a whole number).
    pub env: &'static str,
    /// The limit when the variable is not set.
    pub default: u64,
}

impl Limit {
    /// The limit: the environment variable when it is set to a whole number, else the default.
    pub fn value(&self) -> u64 {
        std::env::var(self.env)
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(self.default)
    }
}

/// Manifests and `document.yaml`, in bytes: the largest of the project's is 17 kB.
pub const MANIFEST_FILE: Limit = Limit {
    what: "manifest",
    env: "FRIC_MAX_MANIFEST_BYTES",
    default: 1 << 20,
};

/// Every other input file, in bytes: CSV inputs, plans, baselines, reports, stamps, cache
/// metadata.
pub const INPUT_FILE: Limit = Limit {
    what: "input file",
    env: "FRIC_MAX_INPUT_BYTES",
    default: 256 << 20,
};

/// The Parquet data of one cached run, in bytes: read back (after its metadata) only within
/// it, so a cache entry that is a FIFO or a link to `/dev/zero` is refused, not read forever.
/// A run holds at most `fric_experiments::budget::MAX_SAMPLES` (5·10⁶) samples per column; the
/// project's largest entry is 116 MB.
pub const CACHED_RUN_FILE: Limit = Limit {
    what: "cached run's data file",
    env: "FRIC_MAX_CACHED_RUN_BYTES",
    default: 4 << 30,
};

/// Members of one sweep: each is a run (the project's largest sweep has 12 members).
pub const SWEEP_MEMBERS: Limit = Limit {
    what: "sweep members",
    env: "FRIC_MAX_SWEEP_MEMBERS",
    default: 4096,
};

/// Runs of one manifest, every member of its sweeps counted (a run without a sweep is one):
/// each sweep is bounded by [`SWEEP_MEMBERS`], and a manifest of many sweeps together by this,
/// counted before any sweep is expanded, so a 1 MiB manifest of 2 000 grids of 64 × 64 (8·10⁶
/// members) is refused at its line, not expanded first. Four full sweeps; the project's largest
/// manifest has 15 (ruderman-paper Fig 4).
pub const MANIFEST_RUNS: Limit = Limit {
    what: "runs of a manifest",
    env: "FRIC_MAX_MANIFEST_RUNS",
    default: 16384,
};

/// Why a manifest whose runs so far, this one's members included, number `total` has too many,
/// or None.
pub fn manifest_runs_problem(total: u64) -> Option<String> {
    let max = MANIFEST_RUNS.value();
    (total > max).then(|| {
        format!(
            "with this run the manifest has {total} runs (every sweep member counted), more than the limit of {max} \
             (set {} to raise it)",
            MANIFEST_RUNS.env
        )
    })
}

/// The estimated memory of one manifest's runs, in bytes: held together (every member of its
/// sweeps, [`crate::memory::estimate`]: each run's data, the copy its `post` steps make, and
/// the transient copies of the largest while it is computed or read) or, for a manifest over
/// this limit held together, what it holds at once when its runs are released once computed
/// and read back one at a time ([`crate::memory::streamed`]); its batch is then evaluated so.
/// Each run alone is bounded by the per-run budget (`fric_experiments::budget`). The review's
/// probe of 16 members of 4.8·10⁶ samples, 2.5 GB counting the data once, took 5.2 GB held
/// together and aborted under a 4 GB limit.
pub const MANIFEST_BYTES: Limit = Limit {
    what: "estimated memory of a manifest's runs",
    env: "FRIC_MAX_MANIFEST_BYTES_IN_MEMORY",
    default: 1 << 30,
};

/// The estimated memory of the runs one process holds at once, in bytes
/// ([`crate::memory::Held::bytes`]: every run's data, the `post` copies and transient copies of
/// as many manifests and runs as there are threads): the manifests to evaluate are computed,
/// evaluated and released in batches within it (`batches.rs`), manifests sharing runs together.
/// The default, 6 GiB, is a quarter of the 24 GiB of the 2-core machine the project runs on: a
/// guard against a runaway manifest, not a budget. It holds the whole project in one batch at
/// up to 32 threads (`--jobs` defaults to the cores), 16 with a 10 % margin: by the estimate,
/// which counts each manifest's figure since s52 (drawn columns twice and the PNG raster; it is
/// at or above the measured peak heap, within 1.5×, `memory.rs`), 1.98 GB at 2 threads,
/// 2.44 GB at 4, 3.07 GB at 8, 3.94 GB at 16, 5.00 GB at 32 (`tests/memory_estimate.rs`); the
/// 3 GiB it had was under that from 8 threads, 2 GiB before that from 5. Measured: a cold
/// run at 2 threads, 1.96 GB peak RSS, drawing included (the estimate 1.98 GB). Four manifests of four 1.2·10⁶-sample members each took 1.13 GB held together,
/// 0.55 GB in four batches (limit 0.25 GB), in the same 20 s. A batch over it is streamed: its
/// runs released once computed and read back one at a time.
pub const PROCESS_BYTES: Limit = Limit {
    what: "estimated memory of the runs held at once",
    env: "FRIC_MAX_PROCESS_BYTES_IN_MEMORY",
    default: 6 << 30,
};

/// The cached runs of other builds (other computing code: this one can never hit them) that
/// `figures` keeps, in bytes, the most recently written first ([`crate::cache_bound`]): enough
/// to switch back to a branch or a build without recomputing, not the 15 GB a day of builds
/// left in one session. `cargo xtask clean --stale` removes them all.
pub const STALE_CACHE_BYTES: Limit = Limit {
    what: "cached runs of other builds",
    env: "FRIC_MAX_STALE_CACHE_BYTES",
    default: 2 << 30,
};

/// The longest evaluation or run error a report keeps and the runner prints, in characters: the
/// bound manifest diagnostics have (`fric_manifest::Diagnostic`'s display), so that a value
/// written into a manifest (an `info` metric's 0.9 MB `y`) is never echoed in full.
pub const MAX_ERROR_CHARS: usize = 2000;

/// `e`, or its first [`MAX_ERROR_CHARS`] characters and how many were left out.
pub fn bounded_error(e: String) -> String {
    match e.char_indices().nth(MAX_ERROR_CHARS) {
        None => e,
        Some((cut, _)) => {
            let left = e[cut..].chars().count();
            format!("{}… ({left} more characters not shown)", &e[..cut])
        }
    }
}

/// How many members `sw` expands to, computed without expanding it (a 1000 × 1000 grid is a
/// product, not a million coordinate lists); saturating.
pub fn sweep_members(sw: &fric_manifest::Sweep) -> u64 {
    sw.len()
}

/// Why a sweep has too many members, or None.
pub fn sweep_problem(sw: &fric_manifest::Sweep) -> Option<String> {
    let (n, max) = (sweep_members(sw), SWEEP_MEMBERS.value());
    (n > max).then(|| {
        format!(
            "this sweep has {n} members, more than the limit of {max} (set {} to raise it)",
            SWEEP_MEMBERS.env
        )
    })
}

/// Why one run, `bytes` of estimated memory while it is computed or read (the largest of
/// `manifest`'s, read alone), cannot be held within the per-process limit, or None: the runs
/// of a batch over the limit are computed, evaluated and released one by one, but no fewer.
pub fn process_memory_problem(bytes: f64, manifest: &str) -> Option<String> {
    let max = PROCESS_BYTES.value();
    (bytes > max as f64).then(|| {
        format!(
            "{manifest}: its largest run alone would hold about {:.2} GB while it is computed or read (its data, \
             the copies made while it is read and the copy its `post` steps make), more than the per-process \
             limit of {:.2} GB ({}; set it to a larger number of bytes to raise it)",
            bytes / 1e9,
            max as f64 / 1e9,
            PROCESS_BYTES.env
        )
    })
}

/// Why the runs of one manifest are too large, or None: `held`, the estimated bytes of its
/// `runs` runs held together, and `streamed`, those of what it holds at once when each run is
/// released once computed and read back alone ([`crate::memory::streamed`]). A manifest over
/// the limit held together is evaluated streamed ([`over_manifest_limit`]), so only what the
/// streamed evaluation holds at once must fit; a manifest that cannot stream within it (its
/// largest run alone, or its drawn series together, over it) is refused.
pub fn manifest_memory_problem(held: f64, streamed: f64, runs: usize) -> Option<String> {
    let max = MANIFEST_BYTES.value();
    (held.min(streamed) > max as f64).then(|| {
        format!(
            "the {runs} runs of this manifest would hold about {:.2} GB together (their data, the copies `post` \
             steps make and the copies made while the largest is computed or read), and about {:.2} GB read \
             back one at a time (the largest run alone and every drawn series over its window, held twice while \
             the figure is built), more than the limit of {:.2} GB (set {} to raise it, in bytes)",
            held / 1e9,
            streamed / 1e9,
            max as f64 / 1e9,
            MANIFEST_BYTES.env
        )
    })
}

/// Whether the runs of a manifest, `held` estimated bytes together, are over the per-manifest
/// limit: its batch is then evaluated streamed, within that limit.
pub fn over_manifest_limit(held: f64) -> bool {
    held > MANIFEST_BYTES.value() as f64
}
