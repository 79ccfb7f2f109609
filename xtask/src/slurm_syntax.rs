//! The values `slurm` writes into a batch script, checked against Slurm's syntax where the
//! command line reads them: a newline or a shell metacharacter in `--mem` would otherwise become
//! a line of the script (a command, and the `#SBATCH` lines below it ignored by sbatch).

/// The longest partition or account name accepted (Slurm's own names are short words).
const MAX_NAME: usize = 64;

/// `--mem`: a whole number with an optional unit `K`, `M`, `G` or `T` (Slurm's default unit is
/// megabytes), e.g. `4G`, `500M`, `4096`.
pub fn mem(s: &str) -> Result<String, String> {
    let digits = s.strip_suffix(|c: char| "KMGTkmgt".contains(c)).unwrap_or(s);
    if !digits.is_empty() && digits.len() <= 12 && digits.bytes().all(|b| b.is_ascii_digit()) {
        Ok(s.to_string())
    } else {
        Err(format!(
            "`{}` is not a Slurm memory size: a whole number with an optional unit K, M, G or T (e.g. 4G, 500M)",
            shown(s)
        ))
    }
}

/// `--time`/`--final-time`: one of Slurm's forms `M`, `M:S`, `H:M:S`, `D-H`, `D-H:M`,
/// `D-H:M:S`, or `UNLIMITED`/`INFINITE`.
pub fn time(s: &str) -> Result<String, String> {
    let num = |p: &str| !p.is_empty() && p.len() <= 6 && p.bytes().all(|b| b.is_ascii_digit());
    let ok = if s.eq_ignore_ascii_case("unlimited") || s.eq_ignore_ascii_case("infinite") {
        true
    } else if let Some((days, rest)) = s.split_once('-') {
        num(days) && {
            let parts: Vec<&str> = rest.split(':').collect();
            (1..=3).contains(&parts.len()) && parts.iter().all(|p| num(p))
        }
    } else {
        let parts: Vec<&str> = s.split(':').collect();
        (1..=3).contains(&parts.len()) && parts.iter().all(|p| num(p))
    };
    if ok {
        Ok(s.to_string())
    } else {
        Err(format!(
            "`{}` is not a Slurm time limit: M, M:S, H:M:S, D-H, D-H:M or D-H:M:S (e.g. 01:00:00, 2-00:00:00)",
            shown(s)
        ))
    }
}

/// `--partition`: one or more partition names separated by commas.
pub fn partition(s: &str) -> Result<String, String> {
    if !s.is_empty() && s.split(',').all(name_ok) {
        Ok(s.to_string())
    } else {
        Err(format!(
            "`{}` is not a Slurm partition list: names of letters, digits, `_`, `-` and `.` (at most {MAX_NAME} each), separated by commas",
            shown(s)
        ))
    }
}

/// `--account`: one account name.
pub fn account(s: &str) -> Result<String, String> {
    if name_ok(s) {
        Ok(s.to_string())
    } else {
        Err(format!(
            "`{}` is not a Slurm account name: letters, digits, `_`, `-` and `.` (at most {MAX_NAME})",
            shown(s)
        ))
    }
}

fn name_ok(s: &str) -> bool {
    !s.is_empty() && s.len() <= MAX_NAME && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b))
}

/// Whether `s` can stand in a batch script inside single quotes or after `#SBATCH --x=`: no
/// control character (a newline ends the directive or the command).
pub fn script_safe(s: &str) -> bool {
    !s.chars().any(char::is_control)
}

/// A value for a message: control characters escaped, at most 80 characters.
fn shown(s: &str) -> String {
    let e: String = s.chars().flat_map(char::escape_debug).collect();
    if e.chars().count() > 80 {
        format!("{}…", e.chars().take(80).collect::<String>())
    } else {
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slurm_forms_are_accepted() {
        for m in ["4G", "500M", "4096", "1t", "0"] {
            assert!(mem(m).is_ok(), "{m}");
        }
        for t in [
            "30",
            "30:00",
            "01:00:00",
            "2-0",
            "2-12:30",
            "2-12:30:00",
            "UNLIMITED",
            "infinite",
        ] {
            assert!(time(t).is_ok(), "{t}");
        }
        assert!(partition("short,long").is_ok());
        assert!(account("proj-1.x_y").is_ok());
    }

    #[test]
    fn anything_else_is_refused() {
        for m in ["", "G", "4G\ntouch pwned", "4 G", "4GB;ls", "-1", "1.5G"] {
            assert!(mem(m).is_err(), "{m:?}");
        }
        for t in ["", "1:2:3:4", "a", "01:00:00\necho", "1-", "-1", "1:00 "] {
            assert!(time(t).is_err(), "{t:?}");
        }
        for p in ["", "a,,b", "a b", "x\ny", "$(id)", "a;b", &"p".repeat(65)] {
            assert!(partition(p).is_err(), "{p:?}");
            assert!(account(p).is_err(), "{p:?}");
        }
        assert!(account("a,b").is_err());
        let e = mem("4G\ntouch pwned").unwrap_err();
        assert!(e.contains("`4G\\ntouch pwned`"), "{e}");
    }
}
