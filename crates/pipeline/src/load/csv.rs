//! Sampled inputs: reading the CSV file a `csv` input names. The models are pure, so the file is
//! read here, while loading, and its samples travel in the resolved request
//! (`RunRequest::input_data`); the file's path and sha256 are part of the request's canonical
//! form, so editing the file changes the run's cache key.

use crate::hash::sha256_hex;
use fric_experiments::InputData;
use std::path::Path;

/// A problem with a `csv` input: the input field it is reported at (`path`, `t_column`,
/// `u_column`), what is wrong and what is allowed.
pub(super) type CsvError = (&'static str, String, String);

/// Read `path` (relative to `root`, under `data/`) and its columns `t_column` (strictly
/// increasing) and `u_column`.
pub(super) fn read(root: &Path, path: &str, t_column: &str, u_column: &str) -> Result<InputData, CsvError> {
    read_rows(root, path, t_column, u_column, true).map(|(d, _)| d)
}

/// Read `path`'s columns `t_column` (strictly increasing when `increasing`) and `u_column`,
/// with the file's line of each row.
pub(super) fn read_rows(
    root: &Path,
    path: &str,
    t_column: &str,
    u_column: &str,
    increasing: bool,
) -> Result<(InputData, Vec<usize>), CsvError> {
    let allowed_path = "an existing CSV file under data/ (a header row, then one row per sample)";
    if let Some(p) = fric_experiments::csv_path_problem(path) {
        return Err(("path", p, allowed_path.into()));
    }
    let full = root.join(path);
    // A symbolic link inside data/ could point anywhere: the file must resolve under data/.
    // The rule is checked on the resolved path: a symbolic link to a directory
    // (`data/probe/c -> ../cache`) must not reach the generated cache either.
    let (file, data) = match (full.canonicalize(), root.join("data").canonicalize()) {
        (Ok(f), Ok(d)) => (f, d),
        _ => return Err(("path", format!("`{path}` does not exist"), allowed_path.into())),
    };
    if !file.starts_with(&data) {
        return Err((
            "path",
            format!("`{path}` resolves outside data/ (a symbolic link)"),
            allowed_path.into(),
        ));
    }
    if file.starts_with(data.join("cache")) {
        return Err((
            "path",
            format!("`{path}` resolves into the generated cache data/cache/ (a symbolic link)"),
            allowed_path.into(),
        ));
    }
    let bytes = crate::readfile::read(&full, crate::readfile::INPUT)
        .map_err(|e| ("path", format!("cannot read `{path}`: {e}"), allowed_path.into()))?;
    let sha256 = sha256_hex(&bytes);
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        (
            "path",
            format!("`{path}` is not UTF-8 text: {e}"),
            "a UTF-8 CSV file".into(),
        )
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let Some((_, header)) = lines.next() else {
        return Err((
            "path",
            format!("`{path}` is empty"),
            "a header row naming the columns, then the samples".into(),
        ));
    };
    let names: Vec<String> = header.split(',').map(cell).map(str::to_string).collect();
    // A column named twice would be read from its first place silently.
    if let Some((j, n)) = names.iter().enumerate().find(|(j, n)| names[..*j].contains(n)) {
        return Err((
            "path",
            format!("`{path}`: column `{n}` is named twice in the header (column {})", j + 1),
            "a header naming each column once".into(),
        ));
    }
    let find = |field: &'static str, col: &str| {
        names.iter().position(|n| n == col).ok_or_else(|| {
            (
                field,
                format!("`{path}` has no column `{col}`"),
                format!("a column of its header: {}", names.join(", ")),
            )
        })
    };
    let (it, iu) = (find("t_column", t_column)?, find("u_column", u_column)?);
    let (mut t, mut u, mut at) = (Vec::new(), Vec::new(), Vec::new());
    let mut prev_line = 0;
    for (i, line) in lines {
        let n = i + 1;
        let cells: Vec<&str> = line.split(',').map(cell).collect();
        if cells.len() != names.len() {
            return Err((
                "path",
                format!("{path}:{n}: {} values, the header has {}", cells.len(), names.len()),
                "one value per column on every row".into(),
            ));
        }
        let num = |k: usize, col: &str| -> Result<f64, CsvError> {
            match cells[k].parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(v),
                _ => Err((
                    "path",
                    format!("{path}:{n}: `{}` in column `{col}` is not a finite number", cells[k]),
                    "finite numbers (no nan, inf or text) in the t and u columns".into(),
                )),
            }
        };
        let (tv, uv) = (num(it, t_column)?, num(iu, u_column)?);
        if let Some(&last) = t.last().filter(|_| increasing) {
            if !(tv > last) {
                return Err((
                    "path",
                    format!("{path}:{n}: {t_column} = {tv} does not come after {last} (line {prev_line})"),
                    format!("strictly increasing `{t_column}`"),
                ));
            }
        }
        t.push(tv);
        u.push(uv);
        at.push(n);
        prev_line = n;
    }
    if t.len() < 2 {
        return Err((
            "path",
            format!("`{path}` has {} sample row(s)", t.len()),
            "at least two samples".into(),
        ));
    }
    let data = InputData {
        path: path.to_string(),
        sha256,
        t,
        u,
    };
    Ok((data, at))
}

/// A cell without surrounding blanks and double quotes.
fn cell(s: &str) -> &str {
    let s = s.trim();
    s.strip_prefix('"').and_then(|x| x.strip_suffix('"')).unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace(csv: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("data/inputs")).unwrap();
        std::fs::write(dir.path().join("data/inputs/x.csv"), csv).unwrap();
        dir
    }

    #[test]
    fn reads_columns_by_name() {
        let w = workspace("time, pos,other\n0,1,9\n0.5,2,9\n\n1.0,\"-1\",9\n");
        let d = read(w.path(), "data/inputs/x.csv", "time", "pos").unwrap();
        assert_eq!(d.t, vec![0.0, 0.5, 1.0]);
        assert_eq!(d.u, vec![1.0, 2.0, -1.0]);
        assert_eq!(d.sha256.len(), 64);
    }

    #[test]
    fn problems_name_the_file_line_and_column() {
        let w = workspace("t,u\n0,1\n0.5,nan\n");
        let e = read(w.path(), "data/inputs/x.csv", "t", "u").unwrap_err();
        assert!(
            e.1.contains("data/inputs/x.csv:3") && e.1.contains("column `u`"),
            "{e:?}"
        );
        let w = workspace("t,u\n0,1\n0.5,2\n0.5,3\n");
        let e = read(w.path(), "data/inputs/x.csv", "t", "u").unwrap_err();
        assert!(
            e.1.contains("data/inputs/x.csv:4") && e.1.contains("does not come after"),
            "{e:?}"
        );
        let e = read(w.path(), "data/inputs/x.csv", "t", "force").unwrap_err();
        assert_eq!(e.0, "u_column");
        assert!(e.1.contains("no column `force`") && e.2.contains("t, u"), "{e:?}");
        let e = read(w.path(), "data/inputs/missing.csv", "t", "u").unwrap_err();
        assert!(e.1.contains("does not exist"), "{e:?}");
        for bad in ["../x.csv", "/etc/passwd", "data/../../x.csv"] {
            let e = read(w.path(), bad, "t", "u").unwrap_err();
            assert_eq!(e.0, "path", "{bad}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_data_is_refused() {
        let w = workspace("t,u\n0,1\n1,2\n");
        std::fs::write(w.path().join("secret.csv"), "t,u\n0,1\n1,2\n").unwrap();
        std::os::unix::fs::symlink(w.path().join("secret.csv"), w.path().join("data/inputs/link.csv")).unwrap();
        let e = read(w.path(), "data/inputs/link.csv", "t", "u").unwrap_err();
        assert!(e.1.contains("outside data/"), "{e:?}");
    }
}
