//! The command line (clap derive): commands, options, the values they accept, help with examples,
//! and finding the workspace a command works on.

use clap::builder::PossibleValuesParser;
use clap::{Args, Parser, Subcommand};
use fric_manifest::Status;
use std::path::{Path, PathBuf};

/// The problems of `bench/` (its own workspace; keep in step with `bench/src/problems.rs`).
pub const BENCH_PROBLEMS: [&str; 8] = ["lugre", "vdp", "coulomb", "bristle500", "cbm_fd", "bs", "pid", "df"];

const EXAMPLES: &str = "\
Examples:
  cargo xtask figures                              # every figure, table and figures/report.json
  cargo xtask figures --only 'thesis/fig1.*'       # one chapter's manifests
  cargo xtask figures --dry-run                    # what would be computed and drawn
  cargo xtask check                                # the same as figures; fails on any failed check
                                                   # or any metric that moved against the baseline
  cargo xtask diff                                 # the metrics that moved against the baseline
  cargo xtask bless                                # accept them as the new baseline
  cargo xtask list --status pending --doc report   # what is left to do in one document
  cargo xtask help figures                         # the options of one command";

const FIGURES_EXAMPLES: &str = "\
Examples:
  cargo xtask figures
  cargo xtask figures --only 'thesis/fig1.*'
  cargo xtask figures --only thesis/fig1.11 --only 'duhem-paper/*' --force
  cargo xtask figures --dry-run --jobs 2
  cargo xtask --root ../other-checkout figures";

const CHECK_EXAMPLES: &str = "\
Exit status: 0 when every manifest is valid, no check fails (known discrepancies allowed) and
every metric matches the committed baseline experiments/metrics.baseline.csv within its
tolerance (no metric moved, new or removed); 1 otherwise, 2 for a usage error. With --only,
only the selected manifests' metrics are compared.

Examples:
  cargo xtask check
  cargo xtask check --only 'ruderman-paper/*'
  cargo xtask check --dry-run";

const DIFF_EXAMPLES: &str = "\
Runs the pipeline like `figures`, then lists every metric that moved beyond its tolerance
(default relative 1e-9, absolute 1e-12; a manifest may set `baseline_tol` on a metric), is new
or was removed, against experiments/metrics.baseline.csv or the file given with --against.
Exit status 0 whatever moved (`check` is the command that fails).

Examples:
  cargo xtask diff
  cargo xtask diff --only 'thesis/fig1.*'
  cargo xtask diff --against old/figures/report.json
  cargo xtask diff --against old/figures/metrics.csv";

const BLESS_EXAMPLES: &str = "\
Runs the pipeline like `figures`, then writes the current metrics into the committed baseline
experiments/metrics.baseline.csv and prints what changed; commit the file with the change
that moved them. Metrics within their tolerance keep their baseline value. With --only, only
the selected manifests' rows are replaced. Refuses while a manifest is invalid or a run fails.

Examples:
  cargo xtask bless
  cargo xtask bless --only ruderman-paper/fig3";

const LIST_EXAMPLES: &str = "\
Examples:
  cargo xtask list                                 # coverage table of every declared document
  cargo xtask list --doc thesis                    # one document's row
  cargo xtask list --status pending --doc report   # manifests still to implement
  cargo xtask list --status invalid                # manifests that fail validation";

const SCHEMA_EXAMPLES: &str = "\
Examples:
  cargo xtask schema
  cargo xtask schema | less
  cargo xtask schema --json                        # the JSON Schema of the manifest format
  cargo xtask schema --write                       # write it to experiments/manifest.schema.json";

const CLEAN_EXAMPLES: &str = "\
Examples:
  cargo xtask clean
  cargo xtask clean --stale                  # only the cached runs other builds wrote
  cargo xtask --root ../other-checkout clean";

const EXPORT_EXAMPLES: &str = "\
The series files beside a figure (figures/<doc>/<name>/<panel>-<k>.csv) hold the samples its
drawing needs (within a quarter pixel); this writes every sample of the same series, from the run
cache (a missing run is computed), as data/export/<doc>/<name>/<panel>-<k>.<format>.

Examples:
  cargo xtask export thesis/fig3.3
  cargo xtask export thesis/fig3.3 --format parquet
  cargo xtask export report/fig5.22 --out /tmp/series";

const BENCH_EXAMPLES: &str = "\
Needs python3 with numpy and scipy (pip install -r bench/requirements.txt); the full run takes
about 21 minutes on 2 cores and writes bench/out/.

Examples:
  cargo xtask bench
  cargo xtask bench --only bristle500
  cargo xtask bench --only df          # one describing-function point of report Fig 5.22";

/// Regenerate the figures and tables of the friction and hysteresis documents from the manifests
/// in experiments/, and check the numbers they publish.
#[derive(Debug, Parser)]
#[command(
    name = "xtask",
    bin_name = "cargo xtask",
    version,
    after_help = EXAMPLES,
    arg_required_else_help = true,
    help_expected = true
)]
pub struct Cli {
    /// Workspace to use, a directory holding Cargo.toml and experiments/, relative to the current
    /// directory [default: the nearest one at or above the current directory]
    #[arg(long, global = true, value_name = "DIR", display_order = 100)]
    pub root: Option<PathBuf>,
    /// Run cache directory, e.g. on a filesystem shared by several machines, relative to the
    /// workspace like every other path an option names (only --root is relative to the current
    /// directory) [default: data/cache/runs in the workspace]
    #[arg(long, global = true, value_name = "DIR", display_order = 101)]
    pub cache: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Regenerate every figure, table and figures/report.json (through the run cache)
    #[command(after_help = FIGURES_EXAMPLES)]
    Figures(RunArgs),
    /// The same as `figures`, then exit non-zero if any manifest is invalid, any check fails or
    /// any metric moved against the baseline
    #[command(after_help = CHECK_EXAMPLES)]
    Check(RunArgs),
    /// The metrics that moved against the committed baseline (or another report), as a table
    #[command(after_help = DIFF_EXAMPLES)]
    Diff(DiffArgs),
    /// Accept the current metrics as the committed baseline (experiments/metrics.baseline.csv)
    #[command(after_help = BLESS_EXAMPLES)]
    Bless(BlessArgs),
    /// Coverage per document, or the manifests with one status
    #[command(after_help = LIST_EXAMPLES)]
    List(ListArgs),
    /// The systems, inputs, metrics and checks a manifest can use
    #[command(after_help = SCHEMA_EXAMPLES)]
    Schema(SchemaArgs),
    /// Remove the generated outputs in figures/ and the cache data/cache/
    #[command(after_help = CLEAN_EXAMPLES)]
    Clean(CleanArgs),
    /// Write every series a figure plots at full resolution (the figure's own series files hold
    /// what the print shows)
    #[command(after_help = EXPORT_EXAMPLES)]
    Export(ExportArgs),
    /// Time our solvers against SciPy's solve_ivp and Rust ODE crates at matched accuracy
    #[command(after_help = BENCH_EXAMPLES)]
    Bench(BenchArgs),
    /// Evaluate every check under each alternative reading of the manifests' assumptions
    #[command(after_help = SENSITIVITY_EXAMPLES)]
    Sensitivity(SensitivityArgs),
    /// Solve for the parameter value that would reproduce a known discrepancy's published number
    #[command(after_help = EXPLAIN_EXAMPLES)]
    Explain(ExplainArgs),
    /// Write the runs that `figures` would compute (not cached) to a plan file, for `compute`
    #[command(after_help = PLAN_EXAMPLES)]
    Plan(PlanArgs),
    /// Compute one shard of a plan into the run cache (nothing else is written)
    #[command(after_help = COMPUTE_EXAMPLES)]
    Compute(ComputeArgs),
    /// Write (and with --submit submit) a Slurm job array of shards and a final `figures` job
    #[command(after_help = SLURM_EXAMPLES)]
    Slurm(SlurmArgs),
}

const SENSITIVITY_EXAMPLES: &str = "\
An assumption lists its alternative readings in the manifest:
  assumptions:
    - what: \"m = 1 kg\"
      why: \"not stated\"
      alternatives:
        - {name: m_2kg, run: sim, set: {m: 2}, why: \"...\"}
Each reading is run through the cache; a check is robust when its result (met or not) is the
same under every reading, assumption-sensitive otherwise (the readings that flip it are named).
Writes figures/sensitivity.json.

Examples:
  cargo xtask sensitivity
  cargo xtask sensitivity --only 'duhem-paper/*'";

const EXPLAIN_EXAMPLES: &str = "\
The check on METRIC declares which parameters could explain it:
  checks:
    - metric: energy
      expected: 2.6
      discrepancy: assumption
      known_discrepancy: \"...\"
      explain: [{run: dahl, param: sigma, range: [1, 20]}]
For each, a scan of the range (9 points) and regula falsi on the first sign change of
metric − expected, to a relative precision of 1e-4 on the value (or the entry's `xtol`, e.g.
`xtol: 1.0e-2`, where every step is a costly run); every evaluation is a cached run.

Examples:
  cargo xtask explain duhem-paper/fig1 energy";

const PLAN_EXAMPLES: &str = "\
The plan lists each run's cache key, system, estimated cost (integration steps: the samples
recorded plus 1000 steps per input period integrated, or the system's own estimate, as for the
describing functions' steady states) and the manifests that use it; only runs not in the cache
appear.

Examples:
  cargo xtask plan
  cargo xtask plan --only 'followup/*' --out data/followup-plan.json";

const COMPUTE_EXAMPLES: &str = "\
Shards are numbered 1..N. The runs are split by estimated cost (longest first, each to the least
loaded shard), the same way by every shard, so N processes with I = 1..N compute the plan once
between them; they may run at the same time on different machines against one cache
(--cache on a shared filesystem). A run already cached is skipped. Exit status 1 if a run failed.

Examples:
  cargo xtask compute --plan data/plan.json --shard 1/4
  cargo xtask --cache /shared/fric-cache compute --plan data/plan.json --shard 3/4 --jobs 8";

const SLURM_EXAMPLES: &str = "\
Writes <dir>/plan.json, <dir>/shards.sbatch (a job array, task I running `compute --shard I/N`
with this program) and <dir>/figures.sbatch (`figures`, after every task has ended), logs in
<dir>/logs/. The workspace (and --cache, if given) must be on a filesystem the compute nodes
share. Without --shards, one task per 5e7 units of estimated cost (at most 256, at most one per
run). Nothing but `slurm --submit` needs Slurm.

Examples:
  cargo xtask slurm --only 'followup/*'                       # write the scripts, print how to submit
  cargo xtask slurm --partition short --time 00:20:00 --submit
  cargo xtask --cache /scratch/fric-cache slurm --shards 32 --mem 4G --cpus 4 --submit";

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Only the manifests whose id matches this glob (repeatable), e.g. 'thesis/fig1.*'
    #[arg(long, value_name = "PATTERN", value_parser = fric_pipeline::plan::pattern)]
    pub only: Vec<String>,
    /// Recompute every run and redraw every figure
    #[arg(long)]
    pub force: bool,
    /// Hash every output instead of trusting its recorded size, times and inode (redraws an
    /// output damaged behind a forged modification time)
    #[arg(long)]
    pub verify: bool,
    /// Worker threads [default: all cores]
    #[arg(long, short, value_name = "N", value_parser = positive, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
    /// List the runs that would be computed and the figures that would be drawn; write nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Afterwards, print the N manifests that took longest (runs computed and evaluation)
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "10", value_parser = positive, allow_negative_numbers = true)]
    pub timings: Option<usize>,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// Only the manifests whose id matches this glob (repeatable), e.g. 'thesis/fig1.*'
    #[arg(long, value_name = "PATTERN", value_parser = fric_pipeline::plan::pattern)]
    pub only: Vec<String>,
    /// Compare against this file instead of the baseline: a report.json or a metrics CSV
    /// (figures/metrics.csv or a baseline), relative to the workspace
    #[arg(long, value_name = "FILE")]
    pub against: Option<PathBuf>,
    /// Worker threads [default: all cores]
    #[arg(long, short, value_name = "N", value_parser = positive, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
}

#[derive(Debug, Args)]
pub struct BlessArgs {
    /// Only the manifests whose id matches this glob (repeatable), e.g. 'thesis/fig1.*'
    #[arg(long, value_name = "PATTERN", value_parser = fric_pipeline::plan::pattern)]
    pub only: Vec<String>,
    /// Worker threads [default: all cores]
    #[arg(long, short, value_name = "N", value_parser = positive, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Print the JSON Schema of the manifest format (generated from its Rust types) instead
    #[arg(long)]
    pub json: bool,
    /// Write the JSON Schema to experiments/manifest.schema.json in the workspace
    #[arg(long, conflicts_with = "json")]
    pub write: bool,
}

#[derive(Debug, Args)]
pub struct CleanArgs {
    /// Keep the figures and this build's cached runs; remove only the cached runs that other
    /// builds (other computing code) wrote, which this one can never reuse
    #[arg(long)]
    pub stale: bool,
    /// Keep everything else; remove only the outputs in figures/ that no current manifest draws
    /// (its manifest deleted, renamed or no longer drawing them) and the stamps of deleted
    /// manifests, listing each
    #[arg(long, conflicts_with = "stale")]
    pub orphans: bool,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The figure's manifest id, e.g. thesis/fig3.3
    #[arg(value_name = "EXPERIMENT")]
    pub id: String,
    /// File format of the series
    #[arg(long, value_name = "FORMAT", default_value = "csv", value_parser = fric_pipeline::export::parse_format)]
    pub format: fric_pipeline::export::Format,
    /// Directory to write <doc>/<name>/<panel>-<k>.<format> under, relative to the workspace
    /// [default: data/export]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// List the manifests with this status instead of the coverage table
    #[arg(long, value_name = "STATUS", value_parser = PossibleValuesParser::new(statuses()))]
    pub status: Option<String>,
    /// Only this document (a folder of experiments/ with a document.yaml)
    #[arg(long, value_name = "DOC")]
    pub doc: Option<String>,
}

#[derive(Debug, Args)]
pub struct SensitivityArgs {
    /// Only the manifests whose id matches this glob (repeatable), e.g. 'thesis/fig1.*'
    #[arg(long, value_name = "PATTERN", value_parser = fric_pipeline::plan::pattern)]
    pub only: Vec<String>,
    /// Worker threads [default: all cores]
    #[arg(long, short, value_name = "N", value_parser = positive, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The manifest id, e.g. duhem-paper/fig1
    #[arg(value_name = "EXPERIMENT")]
    pub experiment: String,
    /// The metric a known discrepancy's check is on
    #[arg(value_name = "METRIC")]
    pub metric: String,
    /// Worker threads [default: all cores]
    #[arg(long, short, value_name = "N", value_parser = positive, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
}

#[derive(Debug, Args)]
pub struct PlanArgs {
    /// Only the manifests whose id matches this glob (repeatable), e.g. 'thesis/fig1.*'
    #[arg(long, value_name = "PATTERN", value_parser = fric_pipeline::plan::pattern)]
    pub only: Vec<String>,
    /// Where to write the plan, relative to the workspace, under data/ or figures/
    #[arg(long, value_name = "FILE", default_value = "data/plan.json")]
    pub out: String,
}

#[derive(Debug, Args)]
pub struct ComputeArgs {
    /// The plan file (written by `plan` or `slurm`), relative to the workspace
    #[arg(long, value_name = "FILE")]
    pub plan: PathBuf,
    /// Which share: I/N, 1 ≤ I ≤ N
    #[arg(long, value_name = "I/N", value_parser = fric_pipeline::shard::parse_shard)]
    pub shard: (usize, usize),
    /// Worker threads [default: all cores]
    #[arg(long, short, value_name = "N", value_parser = positive, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
    /// Recompute the shard's runs even if they are cached
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct SlurmArgs {
    /// Only the manifests whose id matches this glob (repeatable), e.g. 'followup/*'
    #[arg(long, value_name = "PATTERN", value_parser = fric_pipeline::plan::pattern)]
    pub only: Vec<String>,
    /// Array tasks [default: sized from the plan's estimated cost]
    #[arg(long, value_name = "N", value_parser = positive, allow_negative_numbers = true)]
    pub shards: Option<usize>,
    /// Slurm partition [default: the cluster's default]
    #[arg(long, value_name = "NAME", value_parser = crate::slurm_syntax::partition)]
    pub partition: Option<String>,
    /// Slurm account [default: the user's default]
    #[arg(long, value_name = "NAME", value_parser = crate::slurm_syntax::account)]
    pub account: Option<String>,
    /// Time limit of each array task (Slurm syntax)
    #[arg(long, value_name = "TIME", default_value = "01:00:00", value_parser = crate::slurm_syntax::time)]
    pub time: String,
    /// Time limit of the final `figures` job
    #[arg(long, value_name = "TIME", default_value = "01:00:00", value_parser = crate::slurm_syntax::time)]
    pub final_time: String,
    /// Memory per job (Slurm syntax)
    #[arg(long, value_name = "SIZE", default_value = "4G", value_parser = crate::slurm_syntax::mem)]
    pub mem: String,
    /// CPUs per job (each job runs that many worker threads)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = positive, allow_negative_numbers = true)]
    pub cpus: usize,
    /// Directory for the plan, the scripts and the logs, under data/
    #[arg(long, value_name = "DIR", default_value = "data/slurm")]
    pub dir: String,
    /// Submit the jobs with sbatch (else only write the scripts)
    #[arg(long)]
    pub submit: bool,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Only this problem
    #[arg(long, value_name = "PROBLEM", value_parser = PossibleValuesParser::new(BENCH_PROBLEMS))]
    pub only: Option<String>,
}

/// The statuses a manifest can declare, and `invalid` for those that fail validation.
pub fn statuses() -> Vec<&'static str> {
    Status::ALL.iter().map(|s| s.name()).chain(["invalid"]).collect()
}

fn positive(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err("expected a positive whole number (1, 2, 3, ...)".into()),
    }
}

/// Whether `dir` is a workspace this runner can work on.
fn is_workspace(dir: &Path) -> bool {
    dir.join("Cargo.toml").is_file() && dir.join("experiments").is_dir()
}

/// The workspace to work on: `--root DIR` if given, else the nearest directory at or above `cwd`
/// holding `Cargo.toml` and `experiments/`. Never the checkout the binary was built in by
/// default: running elsewhere must not touch it silently.
pub fn workspace(root: Option<&Path>, cwd: &Path) -> Result<PathBuf, String> {
    if let Some(dir) = root {
        let abs = cwd.join(dir);
        let abs = abs
            .canonicalize()
            .map_err(|e| format!("--root {}: {e}", dir.display()))?;
        if !is_workspace(&abs) {
            return Err(format!(
                "--root {}: not a workspace (a workspace holds Cargo.toml and experiments/)",
                abs.display()
            ));
        }
        return Ok(abs);
    }
    cwd.ancestors()
        .find(|d| is_workspace(d))
        .map(Path::to_path_buf)
        .ok_or_else(|| {
            format!(
                "no workspace found: neither {} nor any directory above it holds Cargo.toml and \
                 experiments/; run inside a checkout or pass --root DIR",
                cwd.display()
            )
        })
}

/// Worker threads per core that `--jobs` may ask for: the work is CPU-bound, so more threads
/// than cores only add switching (measured: `--jobs 1000` took 9 s for a 0.4 s run, `--jobs
/// 100000` started ~1 300 threads and made no progress).
pub const JOBS_PER_CORE: usize = 4;

/// The most worker threads a command starts: [`JOBS_PER_CORE`] per core, or `FRIC_MAX_JOBS`
/// when set to a positive whole number.
pub fn max_jobs() -> usize {
    std::env::var("FRIC_MAX_JOBS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| JOBS_PER_CORE * std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Cap the command's `--jobs` at [`max_jobs`]; the note to print when it was capped.
pub fn cap_jobs(cmd: &mut Command) -> Option<String> {
    let jobs = match cmd {
        Command::Figures(a) | Command::Check(a) => &mut a.jobs,
        Command::Diff(a) => &mut a.jobs,
        Command::Bless(a) => &mut a.jobs,
        Command::Sensitivity(a) => &mut a.jobs,
        Command::Explain(a) => &mut a.jobs,
        Command::Compute(a) => &mut a.jobs,
        _ => return None,
    };
    let max = max_jobs();
    let asked = (*jobs)?;
    if asked <= max {
        return None;
    }
    *jobs = Some(max);
    Some(format!(
        "note: --jobs {asked} capped at {max} worker threads ({JOBS_PER_CORE} per core; set FRIC_MAX_JOBS to change the cap)"
    ))
}

/// Why `--cache DIR` cannot be the run cache of the workspace `root`, or None: a path that
/// exists and is not a directory (each run's write failed on it), or a directory inside
/// `experiments/` or `figures/` (the manifests and the published outputs are never written
/// into by the cache).
pub fn cache_problem(root: &Path, cache: &Path) -> Option<String> {
    if cache.exists() && !cache.is_dir() {
        return Some(format!("--cache {}: not a directory", cache.display()));
    }
    // Resolve the part that exists, so that a symbolic link or `..` is seen through.
    let resolved = cache
        .ancestors()
        .find_map(|a| {
            let canon = a.canonicalize().ok()?;
            Some(canon.join(cache.strip_prefix(a).ok()?))
        })
        .unwrap_or_else(|| cache.to_path_buf());
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    ["experiments", "figures"].into_iter().find_map(|d| {
        let inside = resolved.starts_with(root.join(d));
        inside.then(|| {
            format!(
                "--cache {}: inside the workspace's {d}/; the run cache belongs under data/ or outside the workspace",
                cache.display()
            )
        })
    })
}
