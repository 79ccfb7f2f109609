//! `cargo xtask bench`: runs the benchmark workspace `bench/`.

use std::path::Path;
use std::process::ExitCode;

/// `cargo xtask bench`: the benchmark in `bench/` (its own workspace, not part of the tests or
/// CI): the Rust side, the SciPy side, then the comparison, which prints a Markdown report and
/// writes `bench/out/results.{md,json}`. See README.md, "Benchmark".
pub fn bench(root: &Path, only: Option<&str>) -> ExitCode {
    use std::process::Command;
    let bench = root.join("bench");
    if !bench.join("Cargo.toml").is_file() {
        eprintln!(
            "error: {} has no bench/Cargo.toml: nothing to benchmark",
            root.display()
        );
        return ExitCode::from(2);
    }
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
        match cmd.current_dir(root).status() {
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
