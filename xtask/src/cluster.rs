//! `plan`, `compute` and `slurm`: the work of a pipeline run handed to other processes. The plan
//! and the shards are `fric_pipeline::shard`; this file writes the files and the Slurm batch
//! scripts and calls `sbatch`. Slurm is needed only for `slurm --submit`.

use crate::cli::{ComputeArgs, PlanArgs, SlurmArgs};
use crate::print::out;
use crate::slurm_syntax::script_safe;
use fric_pipeline::shard::{self, PlanFile};
use fric_pipeline::store::{output_path, write_atomic};
use fric_pipeline::Options;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Estimated cost ([`fric_pipeline::plan::cost`]) one array task should carry when `--shards`
/// is not given: about 5·10^7 units (≈ 50,000 input periods under the step cap), a few minutes
/// of one core for the heaviest systems here.
pub const COST_PER_SHARD: f64 = 5e7;
/// The most array tasks `slurm` sizes a plan to by itself.
pub const MAX_AUTO_SHARDS: usize = 256;

fn options(root: &Path, cache: Option<&Path>, only: &[String], jobs: Option<usize>) -> Options {
    let mut o = Options::new(root);
    o.only = only.to_vec();
    o.jobs = jobs;
    o.cache_dir = cache.map(Path::to_path_buf);
    o
}

/// Make the plan of `only` and write it to `rel` (under data/ or figures/).
fn write_plan(root: &Path, cache: Option<&Path>, only: &[String], rel: &str) -> Result<(PathBuf, PlanFile), String> {
    let path = output_path(root, rel)?;
    let (file, p) = PlanFile::new(&options(root, cache, only, None))?;
    if !p.invalid.is_empty() {
        crate::print::invalid(&p.invalid);
    }
    if p.selected == 0 && !only.is_empty() {
        return Err(format!("no manifest id matches --only {}", only.join(" --only ")));
    }
    write_atomic(&path, file.to_json().as_bytes()).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((path, file))
}

fn describe(path: &Path, f: &PlanFile) {
    out!(
        "plan: {} runs to compute, estimated cost {:.3e}, written to {}",
        f.runs.len(),
        f.total_cost,
        path.display()
    );
}

/// `plan`: write the runs a `figures` run would compute.
pub fn plan(root: &Path, cache: Option<&Path>, a: &PlanArgs) -> ExitCode {
    match write_plan(root, cache, &a.only, &a.out) {
        Ok((path, f)) => {
            describe(&path, &f);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `compute`: one shard of a plan into the run cache. A relative `--plan` is relative to the
/// workspace, as `plan --out` is.
pub fn compute(root: &Path, cache: Option<&Path>, a: &ComputeArgs) -> ExitCode {
    let (i, n) = a.shard;
    let path = root.join(&a.plan);
    let text = match fric_pipeline::readfile::read_to_string(&path, fric_pipeline::readfile::INPUT) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: --plan {e}");
            return ExitCode::from(2);
        }
    };
    let plan = match PlanFile::parse(&text, &a.plan.display().to_string()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut opts = options(root, cache, &plan.only, a.jobs);
    opts.force = a.force;
    let start = std::time::Instant::now();
    match shard::compute(&opts, &plan, i, n) {
        Ok(s) => {
            out!(
                "shard {i}/{n}: {} runs (estimated cost {:.3e}): {} computed, {} already cached, {} failed, in {:.2} s",
                s.assigned,
                s.cost,
                s.computed,
                s.cached,
                s.failed.len(),
                start.elapsed().as_secs_f64()
            );
            for (key, why) in &s.recovered {
                out!("  recomputed {}… (cache entry failed verification: {why})", &key[..12]);
            }
            crate::print::left_out(&s.left_out);
            for (key, e) in &s.failed {
                eprintln!("  failed {}…: {e}", &key[..12]);
            }
            if s.failed.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Quote for a POSIX shell.
fn sh(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The number of array tasks for a plan: `--shards`, else one per [`COST_PER_SHARD`], at least
/// one, at most one per run and [`MAX_AUTO_SHARDS`].
pub fn shard_count(f: &PlanFile, asked: Option<usize>) -> usize {
    let runs = f.runs.len().max(1);
    asked
        .unwrap_or_else(|| ((f.total_cost / COST_PER_SHARD).ceil() as usize).clamp(1, MAX_AUTO_SHARDS))
        .min(runs)
}

/// The two batch scripts: the job array of shards, and the final `figures` job. The options were
/// checked against Slurm's syntax when they were read (`slurm_syntax`); a path with a control
/// character (a newline would end a directive or the command) is refused here.
pub fn scripts(
    exe: &Path,
    root: &Path,
    cache: Option<&Path>,
    plan: &Path,
    logs: &Path,
    shards: usize,
    a: &SlurmArgs,
) -> Result<(String, String), String> {
    let paths = [exe, root, plan, logs].into_iter().chain(cache);
    if let Some(bad) = paths.map(|p| p.display().to_string()).find(|p| !script_safe(p)) {
        return Err(format!(
            "{}: a path with a control character cannot be written into a batch script",
            bad.escape_debug()
        ));
    }
    if let Some(bad) = a.only.iter().find(|p| !script_safe(p)) {
        return Err(format!(
            "--only {}: a pattern with a control character cannot be written into a batch script",
            bad.escape_debug()
        ));
    }
    let mut head = String::from("#!/bin/bash\n");
    let directive = |h: &mut String, name: &str, v: &str| h.push_str(&format!("#SBATCH --{name}={v}\n"));
    if let Some(p) = &a.partition {
        directive(&mut head, "partition", p);
    }
    if let Some(acc) = &a.account {
        directive(&mut head, "account", acc);
    }
    let common = |h: &mut String, name: &str, time: &str, cpus: usize, out: &str| {
        directive(h, "job-name", name);
        directive(h, "time", time);
        directive(h, "mem", &a.mem);
        directive(h, "cpus-per-task", &cpus.to_string());
        directive(h, "output", &logs.join(out).display().to_string());
    };
    let mut array = head.clone();
    common(&mut array, "fric-shards", &a.time, a.cpus, "shard-%a.out");
    array.push_str(&format!("#SBATCH --array=1-{shards}\n"));
    let mut fin = head;
    common(&mut fin, "fric-figures", &a.final_time, a.cpus, "figures.out");
    let base = {
        let mut b = format!(
            "{} --root {}",
            sh(&exe.display().to_string()),
            sh(&root.display().to_string())
        );
        if let Some(c) = cache {
            b.push_str(&format!(" --cache {}", sh(&c.display().to_string())));
        }
        b
    };
    let jobs = "--jobs \"${SLURM_CPUS_PER_TASK:-1}\"";
    array.push_str(&format!(
        "set -euo pipefail\nexec {base} compute --plan {} --shard \"${{SLURM_ARRAY_TASK_ID}}/{shards}\" {jobs}\n",
        sh(&plan.display().to_string())
    ));
    let only: String = a.only.iter().map(|p| format!(" --only {}", sh(p))).collect();
    fin.push_str(&format!("set -euo pipefail\nexec {base} figures{only} {jobs}\n"));
    Ok((array, fin))
}

/// `slurm`: plan, write the job array and the final job, and with `--submit` submit both.
pub fn slurm(root: &Path, cache: Option<&Path>, a: &SlurmArgs) -> ExitCode {
    let dir = a.dir.trim_end_matches('/');
    let result = (|| -> Result<ExitCode, String> {
        let (plan_path, f) = write_plan(root, cache, &a.only, &format!("{dir}/plan.json"))?;
        describe(&plan_path, &f);
        let shards = shard_count(&f, a.shards);
        let exe = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
        let logs = output_path(root, &format!("{dir}/logs"))?;
        std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
        let (array, fin) = scripts(&exe, root, cache, &plan_path, &logs, shards, a)?;
        let array_path = output_path(root, &format!("{dir}/shards.sbatch"))?;
        let final_path = output_path(root, &format!("{dir}/figures.sbatch"))?;
        for (p, text) in [(&array_path, &array), (&final_path, &fin)] {
            write_atomic(p, text.as_bytes()).map_err(|e| format!("{}: {e}", p.display()))?;
        }
        out!(
            "slurm: {shards} array tasks in {}, then {} (after all of them, whatever their outcome)",
            array_path.display(),
            final_path.display()
        );
        if !a.submit {
            out!(
                "submit with: jid=$(sbatch --parsable {}) && sbatch --dependency=afterany:$jid {}",
                array_path.display(),
                final_path.display()
            );
            return Ok(ExitCode::SUCCESS);
        }
        let jid = sbatch(&[&array_path.display().to_string()])?;
        let dep = format!("--dependency=afterany:{jid}");
        let fid = sbatch(&[&dep, &final_path.display().to_string()])?;
        out!("submitted: job array {jid} ({shards} tasks), final job {fid}");
        Ok(ExitCode::SUCCESS)
    })();
    result.unwrap_or_else(|e| {
        eprintln!("error: {e}");
        ExitCode::FAILURE
    })
}

/// Run `sbatch --parsable ARGS` and return the job id it prints.
fn sbatch(args: &[&str]) -> Result<String, String> {
    let o = std::process::Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .output()
        .map_err(|e| format!("sbatch: {e} (is Slurm installed and on PATH?)"))?;
    if !o.status.success() {
        return Err(format!(
            "sbatch {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&o.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&o.stdout);
    // `--parsable` prints `<id>` or `<id>;<cluster>`.
    let id = text.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("sbatch printed `{}`, not a job id", text.trim()));
    }
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> SlurmArgs {
        SlurmArgs {
            only: vec!["followup/*".into()],
            shards: None,
            partition: Some("short".into()),
            account: None,
            time: "01:00:00".into(),
            final_time: "00:30:00".into(),
            mem: "2G".into(),
            cpus: 2,
            dir: "data/slurm".into(),
            submit: false,
        }
    }

    #[test]
    fn scripts_name_every_setting_and_quote_paths() {
        let (array, fin) = scripts(
            Path::new("/opt/x task"),
            Path::new("/ws/it's"),
            Some(Path::new("/shared/cache")),
            Path::new("/ws/data/slurm/plan.json"),
            Path::new("/ws/data/slurm/logs"),
            7,
            &args(),
        )
        .unwrap();
        for line in [
            "#SBATCH --partition=short",
            "#SBATCH --array=1-7",
            "#SBATCH --time=01:00:00",
            "#SBATCH --mem=2G",
            "#SBATCH --cpus-per-task=2",
            "#SBATCH --output=/ws/data/slurm/logs/shard-%a.out",
            "exec '/opt/x task' --root '/ws/it'\\''s' --cache '/shared/cache' compute --plan '/ws/data/slurm/plan.json' --shard \"${SLURM_ARRAY_TASK_ID}/7\" --jobs \"${SLURM_CPUS_PER_TASK:-1}\"",
        ] {
            assert!(array.lines().any(|l| l == line), "{line}\n{array}");
        }
        assert!(fin.contains("#SBATCH --time=00:30:00\n"), "{fin}");
        assert!(fin.contains(" figures --only 'followup/*' --jobs"), "{fin}");
        assert!(!fin.contains("--array"));
    }

    #[test]
    fn a_control_character_in_a_path_never_reaches_a_script() {
        let at = |root: &str, only: &str| {
            let mut a = args();
            a.only = vec![only.into()];
            scripts(
                Path::new("/opt/xtask"),
                Path::new(root),
                None,
                Path::new("/ws/plan.json"),
                Path::new("/ws/logs"),
                2,
                &a,
            )
        };
        let e = at("/ws/a\ntouch pwned", "x/*").unwrap_err();
        assert!(e.contains("control character") && !e.contains('\n'), "{e}");
        assert!(at("/ws", "x/*\nid").is_err());
        assert!(at("/ws", "x/*").is_ok());
    }

    #[test]
    fn shards_are_sized_from_the_cost() {
        let run = |c: f64| shard::PlanRun {
            key: "k".into(),
            system: "s".into(),
            cost: c,
            used_by: vec![],
        };
        let plan = |runs: Vec<shard::PlanRun>| PlanFile {
            format: shard::FORMAT.into(),
            runs_fingerprint: String::new(),
            only: vec![],
            total_cost: runs.iter().map(|r| r.cost).sum(),
            runs,
        };
        assert_eq!(shard_count(&plan(vec![]), None), 1);
        assert_eq!(shard_count(&plan(vec![run(1.0); 10]), None), 1);
        assert_eq!(shard_count(&plan(vec![run(COST_PER_SHARD); 10]), None), 10);
        assert_eq!(shard_count(&plan(vec![run(COST_PER_SHARD * 3.0); 2]), None), 2);
        assert_eq!(shard_count(&plan(vec![run(1.0); 10]), Some(4)), 4);
        assert_eq!(shard_count(&plan(vec![run(1.0); 3]), Some(4)), 3);
        assert_eq!(
            shard_count(&plan(vec![run(COST_PER_SHARD); 1000]), None),
            MAX_AUTO_SHARDS
        );
    }
}
