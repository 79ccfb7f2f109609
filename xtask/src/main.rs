//! `cargo xtask`: the project runner. A thin front end over `fric-pipeline`: it parses the
//! command line (`cli.rs`), shows progress and prints summaries (`print.rs`); all work happens
//! in the library crates.

mod bench;
mod cli;
mod print;

use clap::Parser;
use cli::{Cli, Command, RunArgs};
use fric_pipeline::{Options, Progress, ProgressFn};
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

/// `figures` and `check` (`check` fails on any invalid manifest or failed check).
fn pipeline(root: PathBuf, a: &RunArgs, check: bool) -> ExitCode {
    let mut opts = Options::new(root);
    opts.only = a.only.clone();
    opts.force = a.force;
    opts.jobs = a.jobs;
    let selected = if a.dry_run {
        match fric_pipeline::plan::plan(&opts) {
            Ok(p) => {
                print::plan(&p);
                p.selected
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        opts.progress = Some(progress_bar());
        match fric_pipeline::run(&opts) {
            Ok(s) => {
                print::summary(&s);
                if check && !s.ok() {
                    eprintln!("check failed");
                    return ExitCode::FAILURE;
                }
                if !s.invalid.is_empty() || !s.runs_failed.is_empty() {
                    return ExitCode::FAILURE;
                }
                s.selected
            }
            Err(e) => {
                eprintln!("error: {e}");
                // Selecting nothing is a usage error, like a bad option.
                let usage = !a.only.is_empty() && e.starts_with("no manifest id matches");
                return if usage { ExitCode::from(2) } else { ExitCode::FAILURE };
            }
        }
    };
    if selected == 0 && !a.only.is_empty() {
        eprintln!(
            "error: no manifest id matches --only {}; ids are <doc>/<name>, e.g. 'thesis/fig1.11' \
             (`cargo xtask list --status reproduced` lists them)",
            a.only.join(" --only ")
        );
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}

/// The workspace a command works on, announced on stderr.
fn workspace(root: Option<&Path>) -> Result<PathBuf, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("current directory: {e}"))?;
    let ws = cli::workspace(root, &cwd)?;
    eprintln!("workspace: {}", ws.display());
    Ok(ws)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let ws = || workspace(cli.root.as_deref());
    let done = match &cli.command {
        Command::Schema(a) if a.write => ws().map(|root| {
            let path = root.join("experiments/manifest.schema.json");
            match std::fs::write(&path, fric_manifest::json_schema()) {
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
            print::out!("{}", fric_manifest::json_schema().trim_end());
            Ok(ExitCode::SUCCESS)
        }
        Command::Schema(_) => {
            print::schema();
            Ok(ExitCode::SUCCESS)
        }
        Command::Figures(a) => ws().map(|root| pipeline(root, a, false)),
        Command::Check(a) => ws().map(|root| pipeline(root, a, true)),
        Command::List(a) => ws().map(|root| {
            print::list(&root, a.status.as_deref(), a.doc.as_deref());
            ExitCode::SUCCESS
        }),
        Command::Clean => ws().map(|root| match fric_pipeline::clean(&root) {
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
    };
    done.unwrap_or_else(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })
}
