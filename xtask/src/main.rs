//! `cargo xtask`: the project runner. A thin front end over `fric-pipeline`: it parses the
//! command line (`cli.rs`), shows progress and prints summaries (`print.rs`); all work happens
//! in the library crates.

mod assumptions;
mod bench;
mod cli;
mod cluster;
mod print;
mod slurm_syntax;

use clap::Parser;
use cli::{BlessArgs, Cli, Command, DiffArgs, RunArgs};
use fric_pipeline::{Options, Progress, ProgressFn, Summary};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

/// A progress bar that appears only once the work has taken more than a second.
fn progress_bar() -> Box<ProgressFn> {
    let slot: Mutex<Option<ProgressBar>> = Mutex::new(None);
    let started = Instant::now();
    let f = move |p: Progress| {
        let mut g = slot.lock().unwrap_or_else(|e| e.into_inner());
        match p {
            Progress::Start { total } => {
                let pb = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::hidden());
                pb.set_style(
                    ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} {msg}")
                        .unwrap()
                        .progress_chars("=> "),
                );
                *g = Some(pb);
            }
            Progress::Step { what } => {
                if let Some(pb) = g.as_ref() {
                    // Only runs longer than a second get a bar.
                    if pb.is_hidden() && started.elapsed().as_secs_f64() > 1.0 {
                        pb.set_draw_target(ProgressDrawTarget::stderr());
                    }
                    pb.set_message(what);
                    pb.inc(1);
                }
            }
            Progress::Finish => {
                if let Some(pb) = g.take() {
                    pb.finish_and_clear();
                }
            }
        }
    };
    Box::new(f)
}

/// Run the pipeline and print its summary; `Err` carries the exit status of a run that could
/// not go on (an error, or nothing selected).
fn run(
    root: PathBuf,
    cache: Option<&Path>,
    only: &[String],
    force: bool,
    verify: bool,
    jobs: Option<usize>,
) -> Result<Summary, ExitCode> {
    let mut opts = Options::new(root);
    opts.cache_dir = cache.map(Path::to_path_buf);
    opts.only = only.to_vec();
    opts.force = force;
    opts.verify = verify;
    opts.jobs = jobs;
    opts.progress = Some(progress_bar());
    match fric_pipeline::run(&opts) {
        Ok(s) => {
            print::summary(&s);
            if s.selected == 0 && !only.is_empty() {
                return Err(no_match(only));
            }
            Ok(s)
        }
        Err(e) => {
            eprintln!("error: {e}");
            // Selecting nothing is a usage error, like a bad option.
            let usage = !only.is_empty() && e.starts_with("no manifest id matches");
            Err(if usage { ExitCode::from(2) } else { ExitCode::FAILURE })
        }
    }
}

/// `export`: a figure's series at full resolution.
fn export(root: PathBuf, cache: Option<&Path>, a: &cli::ExportArgs) -> ExitCode {
    let mut opts = Options::new(root);
    opts.cache_dir = cache.map(Path::to_path_buf);
    // A relative --out is relative to the workspace, as every command's own path is.
    let out = a.out.as_ref().map(|o| opts.root.join(o));
    match fric_pipeline::export::export(&opts, &a.id, a.format, out.as_deref()) {
        Ok(files) => {
            for f in &files {
                print::out!("{}", f.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn no_match(only: &[String]) -> ExitCode {
    eprintln!(
        "error: no manifest id matches --only {}; ids are <doc>/<name>, e.g. 'thesis/fig1.11' \
         (`cargo xtask list --status reproduced` lists them)",
        only.join(" --only ")
    );
    ExitCode::from(2)
}

/// Whether the run computed everything it selected (no invalid manifest, failed run or
/// evaluation error).
fn complete(s: &Summary) -> bool {
    s.invalid.is_empty() && s.runs_failed.is_empty() && s.experiment_errors() == 0
}

/// `figures` and `check` (`check` fails on any invalid manifest, failed check or metric that
/// moved against the baseline).
fn pipeline(root: PathBuf, cache: Option<&Path>, a: &RunArgs, check: bool) -> ExitCode {
    if a.dry_run {
        let mut opts = Options::new(root);
        opts.cache_dir = cache.map(Path::to_path_buf);
        opts.only = a.only.clone();
        opts.force = a.force;
        opts.verify = a.verify;
        opts.jobs = a.jobs;
        return match fric_pipeline::plan::plan(&opts) {
            Ok(p) => {
                print::plan(&p);
                if p.selected == 0 && !a.only.is_empty() {
                    return no_match(&a.only);
                }
                // As the run itself would: an invalid manifest fails it.
                if p.invalid.is_empty() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        };
    }
    let s = match run(root.clone(), cache, &a.only, a.force, a.verify, a.jobs) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Some(n) = a.timings {
        print::timings(
            &fric_pipeline::timings::per_manifest(
                &s,
                &fric_pipeline::load::load_only(&root, &a.only).unwrap_or_else(|_| fric_pipeline::load(&root)),
            ),
            n,
            a.jobs == Some(1),
        );
    }
    if !check {
        // A hint only: `check` is what fails on it.
        if let Ok(changes) = fric_pipeline::metrics::diff(&root, &s, None) {
            if !changes.is_empty() {
                eprintln!(
                    "note: metrics against the baseline: {} (`cargo xtask diff` lists them, \
                     `cargo xtask bless` accepts them)",
                    fric_report::metrics::counts(&changes)
                );
            }
        }
        // A manifest that could not be evaluated or drawn fails `figures` too: its figure is
        // missing or stale.
        return if complete(&s) {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    let mut ok = s.ok();
    if !ok {
        eprintln!("check failed");
    }
    match fric_pipeline::metrics::diff(&root, &s, None) {
        Ok(changes) if changes.is_empty() => print::out!(
            "metrics:   every metric matches the baseline {} within its tolerance",
            fric_pipeline::metrics::BASELINE
        ),
        Ok(changes) => {
            ok = false;
            print::baseline_failure(&changes);
        }
        Err(e) => {
            ok = false;
            eprintln!("error: {e}");
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `diff`: what moved against the baseline or another report.
fn diff(root: PathBuf, cache: Option<&Path>, a: &DiffArgs) -> ExitCode {
    let s = match run(root.clone(), cache, &a.only, false, false, a.jobs) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if a.against.is_none() && !fric_pipeline::metrics::baseline_exists(&root) {
        eprintln!(
            "note: there is no baseline {} yet: every metric is new (`cargo xtask bless` writes it)",
            fric_pipeline::metrics::BASELINE
        );
    }
    // A relative --against is relative to the workspace, as every command's own path is.
    let against = a.against.as_ref().map(|p| root.join(p));
    match fric_pipeline::metrics::diff(&root, &s, against.as_deref()) {
        Ok(changes) => {
            let against = a
                .against
                .as_ref()
                .map_or(fric_pipeline::metrics::BASELINE.to_string(), |p| {
                    p.display().to_string()
                });
            print::changes(&changes, &against);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `bless`: accept the current metrics as the baseline.
fn bless(root: PathBuf, cache: Option<&Path>, a: &BlessArgs) -> ExitCode {
    let s = match run(root.clone(), cache, &a.only, false, false, a.jobs) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if !complete(&s) {
        eprintln!(
            "error: not blessing: a manifest is invalid, a run failed or a metric could not be \
             computed (errors above); fix that first"
        );
        return ExitCode::FAILURE;
    }
    match fric_pipeline::metrics::bless(&root, &s) {
        Ok(changes) => {
            print::blessed(&changes);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace a command works on, announced on stderr.
fn workspace(root: Option<&Path>) -> Result<PathBuf, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("current directory: {e}"))?;
    let ws = cli::workspace(root, &cwd)?;
    eprintln!("workspace: {}", ws.display());
    Ok(ws)
}

fn main() -> ExitCode {
    let mut cli = Cli::parse();
    if let Some(note) = cli::cap_jobs(&mut cli.command) {
        eprintln!("{note}");
    }
    let ws = || workspace(cli.root.as_deref());
    // A relative --cache is relative to the workspace, like every path a command's own options
    // name (`plan --out`, `compute --plan`, `diff --against`, `export --out`): only --root, which
    // says where the workspace is, is relative to where the command was typed.
    let cache_abs: std::cell::OnceCell<PathBuf> = std::cell::OnceCell::new();
    let cache = || cache_abs.get().map(PathBuf::as_path);
    // The workspace, and a --cache resolved and checked against it once, up front.
    let ws = || {
        let root = ws()?;
        if let Some(c) = &cli.cache {
            let c = cache_abs.get_or_init(|| root.join(c));
            if let Some(e) = cli::cache_problem(&root, c) {
                return Err(e);
            }
        }
        Ok(root)
    };
    let done = match &cli.command {
        Command::Schema(a) if a.write => ws().map(|root| {
            let path = root.join("experiments/manifest.schema.json");
            match std::fs::write(&path, fric_pipeline::evaluate::metric_kinds::json_schema()) {
                Ok(()) => {
                    eprintln!("wrote {}", path.display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {}: {e}", path.display());
                    ExitCode::FAILURE
                }
            }
        }),
        Command::Schema(a) if a.json => {
            print::out!("{}", fric_pipeline::evaluate::metric_kinds::json_schema().trim_end());
            Ok(ExitCode::SUCCESS)
        }
        Command::Schema(_) => {
            print::schema();
            Ok(ExitCode::SUCCESS)
        }
        Command::Figures(a) => ws().map(|root| pipeline(root, cache(), a, false)),
        Command::Check(a) => ws().map(|root| pipeline(root, cache(), a, true)),
        Command::Diff(a) => ws().map(|root| diff(root, cache(), a)),
        Command::Bless(a) => ws().map(|root| bless(root, cache(), a)),
        Command::Sensitivity(a) => ws().map(|root| assumptions::sensitivity(&root, cache(), a)),
        Command::Explain(a) => ws().map(|root| assumptions::explain(&root, cache(), a)),
        Command::Plan(a) => ws().map(|root| cluster::plan(&root, cache(), a)),
        Command::Compute(a) => ws().map(|root| cluster::compute(&root, cache(), a)),
        Command::Slurm(a) => ws().map(|root| cluster::slurm(&root, cache(), a)),
        Command::List(a) => ws().map(|root| {
            if print::list(&root, a.status.as_deref(), a.doc.as_deref()) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            }
        }),
        Command::Clean(a) if a.stale => ws().map(|root| {
            let mut opts = fric_pipeline::Options::new(root);
            opts.cache_dir = cache().map(Path::to_path_buf);
            match opts.run_cache().prune_stale() {
                Ok(p) => {
                    print::out!(
                        "removed {} stale cached runs ({} files, {:.1} MB)",
                        p.entries,
                        p.files,
                        p.bytes as f64 / 1e6
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }),
        Command::Clean(a) if a.orphans => {
            ws().map(
                |root| match fric_pipeline::orphans::remove(&root, &fric_pipeline::load(&root)) {
                    Ok(removed) => {
                        for p in &removed {
                            print::out!("removed {}", p.strip_prefix(&root).unwrap_or(p).display());
                        }
                        print::out!("removed {} orphaned outputs", removed.len());
                        ExitCode::SUCCESS
                    }
                    Err(e) => {
                        eprintln!("error: {e}");
                        ExitCode::FAILURE
                    }
                },
            )
        }
        Command::Clean(_) => ws().map(|root| match fric_pipeline::clean(&root) {
            Ok(removed) => {
                print::out!("removed {} paths", removed.len());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        }),
        Command::Bench(a) => ws().map(|root| bench::bench(&root, a.only.as_deref())),
        Command::Export(a) => ws().map(|root| export(root, cache(), a)),
    };
    done.unwrap_or_else(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })
}
