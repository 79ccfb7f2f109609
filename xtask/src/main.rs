//! `cargo xtask`: the project runner. A thin front end over `fric-pipeline`: it parses the
//! command line, shows progress and prints summaries; all work happens in the library crates.

use fric_pipeline::{Options, Progress, ProgressFn, Summary};
use fric_report::Outcome;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

const USAGE: &str = "\
usage: cargo xtask <command> [options]

commands:
  figures   regenerate every figure, table and figures/report.json (through the cache)
  check     the same, then exit non-zero if any manifest is invalid or any check fails
  list      coverage per document; --status S lists the manifests with that status
  schema    the systems, inputs, metrics and checks a manifest can use
  clean     remove figures/ outputs and data/cache/
  bench     time our solvers against SciPy's solve_ivp and Rust ODE crates at matched accuracy
            (the separate workspace bench/; needs python3 with numpy and scipy)

options (figures, check):
  --only PATTERN   only manifests whose id matches the glob (repeatable), e.g. 'thesis/fig1.*'
  --force          recompute every run and redraw every figure
  --jobs N         worker threads (default: all cores)
options (bench):
  --only PROBLEM   lugre | vdp | coulomb
options (list):
  --status S       reproduced | partial | pending | not-reproducible | invalid
  --doc D          thesis | stribeck-paper | report | duhem-paper | ruderman-paper
";

/// The workspace to work on: the nearest directory at or above the current one that holds
/// `Cargo.toml` and `experiments/` (so one binary serves any checkout), else the one it was
/// built in.
fn root() -> PathBuf {
    if let Ok(cwd) = std::env::current_dir() {
        for d in cwd.ancestors() {
            if d.join("Cargo.toml").is_file() && d.join("experiments").is_dir() {
                return d.to_path_buf();
            }
        }
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

struct Args {
    cmd: String,
    only: Vec<String>,
    force: bool,
    jobs: Option<usize>,
    status: Option<String>,
    doc: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let cmd = it.next().ok_or_else(|| USAGE.to_string())?;
    let mut a = Args {
        cmd,
        only: vec![],
        force: false,
        jobs: None,
        status: None,
        doc: None,
    };
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value\n\n{USAGE}"));
        match arg.as_str() {
            "--only" => a.only.push(value("--only")?),
            "--force" => a.force = true,
            "--jobs" | "-j" => {
                let v = value("--jobs")?;
                a.jobs = Some(
                    v.parse()
                        .ok()
                        .filter(|n| *n > 0)
                        .ok_or_else(|| format!("--jobs takes a positive whole number, got `{v}`"))?,
                );
            }
            "--status" => a.status = Some(value("--status")?),
            "--doc" => a.doc = Some(value("--doc")?),
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown option `{other}`\n\n{USAGE}")),
        }
    }
    Ok(a)
}

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

fn print_summary(s: &Summary) {
    for inv in &s.invalid {
        for d in &inv.diagnostics {
            eprintln!("error: {d}");
        }
    }
    for (key, e) in &s.runs_failed {
        eprintln!("error: run {}: {e}", &key[..12]);
    }
    for e in s.selected_reports() {
        if e.status != "invalid" {
            for err in &e.errors {
                eprintln!("error: {}: {err}", e.id);
            }
        }
    }
    for (key, why) in &s.runs_recovered {
        eprintln!(
            "note: cache entry {} was corrupted ({why}) and has been recomputed",
            &key[..12]
        );
    }
    if s.temps_removed > 0 {
        eprintln!(
            "note: removed {} temporary files left by an interrupted run",
            s.temps_removed
        );
    }
    let table = fric_report::failures_table(&s.selected_report(), true);
    if !table.is_empty() {
        println!("{table}\n");
    }
    println!(
        "manifests: {} ({} selected), {} invalid",
        s.manifests,
        s.selected,
        s.invalid.len()
    );
    println!(
        "runs:      {} ({} computed, {} cached, {} recovered, {} failed)",
        s.runs_total,
        s.runs_computed,
        s.runs_cached,
        s.runs_recovered.len(),
        s.runs_failed.len()
    );
    println!(
        "outputs:   {} figures drawn, {} up to date, {} tables",
        s.figures_drawn, s.figures_current, s.tables
    );
    println!(
        "checks:    {} passed, {} failed, {} known discrepancies, {} unexpected passes, {} errors",
        s.count(Outcome::Pass),
        s.count(Outcome::Fail),
        s.count(Outcome::KnownDiscrepancy),
        s.count(Outcome::UnexpectedPass),
        s.count(Outcome::Error)
    );
    println!(
        "time:      {:.2} s   report: figures/report.json",
        s.elapsed.as_secs_f64()
    );
}

fn run_pipeline(a: &Args) -> Result<Summary, String> {
    let cb = progress_bar();
    let mut opts = Options::new(root());
    opts.only = a.only.clone();
    opts.force = a.force;
    opts.jobs = a.jobs;
    opts.progress = Some(cb);
    fric_pipeline::run(&opts)
}

fn list(a: &Args) -> ExitCode {
    let loaded = fric_pipeline::load(&root());
    let cov = fric_pipeline::coverage(&loaded);
    if let Some(status) = &a.status {
        let allowed = ["reproduced", "partial", "pending", "not-reproducible", "invalid"];
        if !allowed.contains(&status.as_str()) {
            eprintln!("error: unknown status `{status}`; allowed: {}", allowed.join(", "));
            return ExitCode::from(2);
        }
        let doc_ok = |id: &str| a.doc.as_ref().is_none_or(|d| id.starts_with(&format!("{d}/")));
        if status == "invalid" {
            for i in &loaded.invalid {
                if doc_ok(i.file.trim_start_matches("experiments/")) {
                    println!("{}", i.file);
                }
            }
        }
        for e in &loaded.entries {
            let m = &e.manifest;
            if m.status.as_str() == status && doc_ok(&m.id) {
                let cap: String = m.source.caption.chars().take(70).collect();
                println!("{:<28} {}", m.id, cap);
            }
        }
        return ExitCode::SUCCESS;
    }
    println!(
        "{:<16} {:>10} {:>8} {:>8} {:>17} {:>8} {:>6}",
        "document", "reproduced", "partial", "pending", "not-reproducible", "invalid", "total"
    );
    let mut tot = [0usize; 6];
    for (doc, m) in &cov {
        if a.doc.as_ref().is_some_and(|d| d != doc) {
            continue;
        }
        let g = |k: &str| m.get(k).copied().unwrap_or(0);
        let row = [
            g("reproduced"),
            g("partial"),
            g("pending"),
            g("not-reproducible"),
            g("invalid"),
        ];
        let total: usize = row.iter().sum();
        for (t, v) in tot.iter_mut().zip(row.iter().chain([total].iter())) {
            *t += v;
        }
        println!(
            "{:<16} {:>10} {:>8} {:>8} {:>17} {:>8} {:>6}",
            doc, row[0], row[1], row[2], row[3], row[4], total
        );
    }
    println!(
        "{:<16} {:>10} {:>8} {:>8} {:>17} {:>8} {:>6}",
        "all", tot[0], tot[1], tot[2], tot[3], tot[4], tot[5]
    );
    let figs = loaded
        .entries
        .iter()
        .filter(|e| e.manifest.kind == fric_manifest::Kind::Figure)
        .count();
    println!(
        "\n{} figures and {} tables registered.",
        figs,
        loaded.entries.len() - figs
    );
    ExitCode::SUCCESS
}

fn schema() {
    println!("Systems (runs[].system):\n");
    for s in fric_experiments::systems() {
        println!("{}\n  {}", s.name, s.doc);
        println!(
            "  inputs: {}   methods: {} (default {})",
            s.inputs.join(", "),
            s.methods.join(", "),
            s.methods[0]
        );
        for p in &s.params {
            let kind = if p.kind == fric_experiments::ParamKind::Vector {
                "list"
            } else {
                "number"
            };
            let def = p.default.map(|d| format!(", default {d}")).unwrap_or_default();
            println!("  - {:<8} {:<7} in {}{}: {}", p.name, kind, p.range_text(), def, p.doc);
        }
        let cols: Vec<String> = s.columns.iter().map(|(n, u, _)| format!("{n} [{u}]")).collect();
        println!("  columns: {}\n", cols.join(", "));
    }
    println!("Inputs: sine {{amplitude, omega, phase, offset}}, cosine {{...}}, switched-sine {{omega, pieces: [{{from_period, amplitude}}]}}, grid {{from, to, points, scale: linear|log|sym-log}}");
    println!("Sim: periods | t_end | steady_state {{tol, max_periods}}; samples_per_period; method; rtol; atol");
    println!("Windows: all | last-period | {{periods: [a, b]}} | {{t: [a, b]}}");
    println!("Post-processing (runs[].post): {{name, op: ewma|moving-average|abs|gradient|cumulative-integral|scale|offset, of, param, by}}");
    println!("Metric kinds: loop-area, max, min, max-abs, value-at, slope, intercept, max-diff, final, quantile, info, difference, sum, ratio, relative-difference");
    println!("Checks: {{metric, op: within|lt|gt, expected, tol: {{abs, rel}}, provenance: published {{line}} | derived \"...\" | claim {{kind, lines}}, known_discrepancy}}");
    println!(
        "Series styles: solid, dashed, dotted, points, band (with y2); colors: {}",
        fric_plot::COLOR_NAMES.join(", ")
    );
}

/// `cargo xtask bench`: the benchmark in `bench/` (its own workspace, not part of the tests or
/// CI): the Rust side, the SciPy side, then the comparison, which prints a Markdown report and
/// writes `bench/out/results.{md,json}`. See README.md, "Benchmark".
fn bench(only: Option<&str>) -> ExitCode {
    use std::process::Command;
    let root = root();
    let bench = root.join("bench");
    let pip = "pip install -r bench/requirements.txt";
    let scipy_ok = Command::new("python3")
        .args(["-c", "import numpy, scipy"])
        .status()
        .map(|s| s.success());
    match scipy_ok {
        Err(_) => {
            eprintln!("error: `cargo xtask bench` needs python3 (with numpy and scipy: `{pip}`)");
            return ExitCode::FAILURE;
        }
        Ok(false) => {
            eprintln!("error: python3 cannot import numpy and scipy; install them with `{pip}`");
            return ExitCode::FAILURE;
        }
        Ok(true) => {}
    }
    let only: Vec<&str> = only.map(|p| vec!["--only", p]).unwrap_or_default();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = bench.join("Cargo.toml");
    let rust = |cmd: &str| {
        let mut c = Command::new(&cargo);
        c.args(["run", "--release", "--quiet", "--manifest-path"])
            .arg(&manifest)
            .args(["--", cmd]);
        c
    };
    let steps: [(&str, Command); 3] = [
        ("Rust side (bench/src)", {
            let mut c = rust("run");
            c.args(&only);
            c
        }),
        ("SciPy side (bench/scipy_bench.py)", {
            let mut c = Command::new("python3");
            c.arg(bench.join("scipy_bench.py")).args(&only);
            c
        }),
        ("comparison", rust("compare")),
    ];
    for (what, mut cmd) in steps {
        eprintln!("== bench: {what}");
        match cmd.current_dir(&root).status() {
            Ok(s) if s.success() => {}
            Ok(s) => {
                eprintln!("error: bench {what} failed ({s})");
                return ExitCode::FAILURE;
            }
            Err(e) => {
                eprintln!("error: bench {what}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let a = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match a.cmd.as_str() {
        "figures" | "check" => match run_pipeline(&a) {
            Ok(s) => {
                print_summary(&s);
                if a.cmd == "check" && !s.ok() {
                    eprintln!("check failed");
                    return ExitCode::FAILURE;
                }
                if !s.invalid.is_empty() || !s.runs_failed.is_empty() {
                    return ExitCode::FAILURE;
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        "list" => list(&a),
        "schema" => {
            schema();
            ExitCode::SUCCESS
        }
        "clean" => match fric_pipeline::clean(&root()) {
            Ok(removed) => {
                println!("removed {} paths", removed.len());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        "bench" => bench(a.only.first().map(String::as_str)),
        other => {
            eprintln!("unknown command `{other}`\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
