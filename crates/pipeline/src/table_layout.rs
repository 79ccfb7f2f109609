//! The layout of a table generated from metrics: every value is a record (its coordinates, its
//! quantity, its value); records at the same coordinates share a row, every quantity has a
//! column, and a pivot coordinate spreads its values across the columns (amplitude down, N
//! across). The same layout is computed at load (values unknown: the shape is checked against
//! the written `columns`) and at render time. The number formats every table cell and quote is
//! printed in (`.Ng`, `.Ne`, `.Nf`: [`check_format`], [`format_number`]) are here.

/// One value of a generated table.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Coordinates in their order (sweep parameters, then the `at` of the metric).
    pub coords: Vec<(String, f64)>,
    /// The quantity (column) the value belongs to.
    pub quantity: String,
    /// The quantity's unit, for its header.
    pub unit: Option<String>,
    /// The value; `None`: not computed (printed `--`).
    pub value: Option<f64>,
    /// A value within this distance of zero prints `0` (the metric's absolute tolerance).
    pub zero_tol: f64,
}

/// Headers and rows of a generated table.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// The format of the values when the manifest names none: four significant digits.
pub const DEFAULT_FORMAT: &str = ".4g";

/// Push `v` unless it is already in `list` (first-appearance order).
fn push_new<T: PartialEq>(list: &mut Vec<T>, v: T) {
    if !list.contains(&v) {
        list.push(v);
    }
}

/// A number as a table prints it, in `format`: a value within `zero_tol` of zero as zero (a
/// computed zero is `0`, or `0.0000` in `.4f`, not 3.128e-21 or -0.0000).
pub fn cell(v: f64, format: &str, zero_tol: f64) -> String {
    let v = if v.abs() <= zero_tol { 0.0 } else { v };
    format_number(v, Some(format))
}

/// The coordinate `name` of a record, if it has it.
fn coord(r: &Record, name: &str) -> Option<f64> {
    r.coords.iter().find(|(p, _)| p == name).map(|(_, v)| *v)
}

/// The header of a quantity's column (`area [J]`), at pivot value `at` if any.
fn header(quantity: &str, unit: Option<&str>, at: Option<(&str, f64)>, single: bool) -> String {
    let q = match unit {
        Some(u) => format!("{quantity} [{u}]"),
        None => quantity.to_string(),
    };
    match at {
        None => q,
        Some((p, v)) if single => format!("{p} = {}", format_number(v, None)),
        Some((p, v)) => format!("{q}, {p} = {}", format_number(v, None)),
    }
}

/// The table of `records`: the coordinates (except `pivot`) down, then one column per quantity
/// (per quantity and pivot value with a pivot). Errors: a pivot that is no coordinate, two
/// values for one cell.
pub fn layout(records: &[Record], pivot: Option<&str>, format: &str) -> Result<Layout, String> {
    let mut params: Vec<&str> = Vec::new();
    let mut quantities: Vec<(&str, Option<&str>)> = Vec::new();
    let mut across: Vec<u64> = Vec::new();
    for r in records {
        r.coords.iter().for_each(|(p, _)| push_new(&mut params, p.as_str()));
        push_new(&mut quantities, (r.quantity.as_str(), r.unit.as_deref()));
    }
    if let Some(p) = pivot {
        if !params.contains(&p) {
            return Err(format!(
                "pivot `{p}` is not a coordinate of the table (its coordinates: {})",
                params.join(", ")
            ));
        }
        for r in records {
            push_new(&mut across, coord(r, p).map_or(u64::MAX, f64::to_bits));
        }
    }
    let down: Vec<&str> = params.iter().copied().filter(|p| Some(*p) != pivot).collect();
    let single = quantities.len() == 1;
    let mut columns: Vec<String> = down.iter().map(|p| p.to_string()).collect();
    // A column: a quantity and, with a pivot, one of its values (bits; MAX: the record has none).
    let mut keys: Vec<(&str, Option<u64>)> = Vec::new();
    for (q, unit) in &quantities {
        if let Some(p) = pivot {
            for a in &across {
                keys.push((q, Some(*a)));
                let at = (*a != u64::MAX).then(|| (p, f64::from_bits(*a)));
                columns.push(header(q, *unit, at, single));
            }
        } else {
            keys.push((q, None));
            columns.push(header(q, *unit, None, single));
        }
    }
    let mut row_keys: Vec<Vec<Option<u64>>> = Vec::new();
    let mut cells: Vec<Vec<Option<String>>> = Vec::new();
    for r in records {
        let rk: Vec<Option<u64>> = down.iter().map(|p| coord(r, p).map(f64::to_bits)).collect();
        let i = match row_keys.iter().position(|k| *k == rk) {
            Some(i) => i,
            None => {
                row_keys.push(rk);
                cells.push(vec![None; keys.len()]);
                row_keys.len() - 1
            }
        };
        let ck = (
            r.quantity.as_str(),
            pivot.map(|p| coord(r, p).map_or(u64::MAX, f64::to_bits)),
        );
        let j = keys.iter().position(|k| *k == ck).expect("every column was collected");
        if cells[i][j].is_some() {
            return Err(format!(
                "two values of `{}` at the same coordinates ({}): give each run its own `at`",
                r.quantity,
                coords_text(&r.coords)
            ));
        }
        cells[i][j] = Some(r.value.map_or_else(|| "--".into(), |v| cell(v, format, r.zero_tol)));
    }
    let rows = row_keys
        .iter()
        .zip(cells)
        .map(|(k, c)| {
            let mut row: Vec<String> = k
                .iter()
                .map(|v| v.map_or_else(|| "--".into(), |b| format_number(f64::from_bits(b), None)))
                .collect();
            row.extend(c.into_iter().map(|c| c.unwrap_or_else(|| "--".into())));
            row
        })
        .collect();
    Ok(Layout { columns, rows })
}

/// Coordinates as text: `A=0.001, N=4`.
fn coords_text(c: &[(String, f64)]) -> String {
    let parts: Vec<String> = c.iter().map(|(p, v)| format!("{p}={v}")).collect();
    parts.join(", ")
}

/// Whether `spec` is a number format this module writes: `.Ng`, `.Ne`, `.Nf` with N ≤ 17.
pub fn check_format(spec: &str) -> Result<(), String> {
    let ok = spec
        .strip_prefix('.')
        .and_then(|s| s.len().checked_sub(1).map(|n| s.split_at(n)))
        .is_some_and(|(digits, kind)| {
            matches!(kind, "g" | "e" | "f") && digits.parse::<usize>().is_ok_and(|n| n <= 17 && (n > 0 || kind != "g"))
        });
    if ok {
        Ok(())
    } else {
        Err(format!(
            "unknown number format `{spec}` (allowed: .Ng, .Ne, .Nf with N ≤ 17, e.g. .3g)"
        ))
    }
}

/// `v` in format `spec` (checked by [`check_format`]); `None`: shortest exact.
pub fn format_number(v: f64, spec: Option<&str>) -> String {
    let Some(spec) = spec else {
        return format!("{v}");
    };
    let (digits, kind) = spec[1..].split_at(spec.len() - 2);
    let n: usize = digits.parse().unwrap_or(6);
    match kind {
        "f" => format!("{v:.n$}"),
        "e" => format!("{v:.n$e}"),
        _ => {
            // N significant digits, trailing zeros dropped; scientific outside 1e-4 ≤ |v| < 10^N.
            if v == 0.0 || !v.is_finite() {
                return format!("{v}");
            }
            let sci = format!("{v:.prec$e}", prec = n - 1);
            let exp: i32 = sci.split_once('e').and_then(|(_, e)| e.parse().ok()).unwrap_or(0);
            if exp < -4 || exp >= n as i32 {
                let (m, e) = sci.split_once('e').unwrap_or((&sci, "0"));
                let m = if m.contains('.') {
                    m.trim_end_matches('0').trim_end_matches('.')
                } else {
                    m
                };
                format!("{m}e{e}")
            } else {
                let decimals = (n as i32 - 1 - exp).max(0) as usize;
                let f = format!("{v:.decimals$}");
                if f.contains('.') {
                    f.trim_end_matches('0').trim_end_matches('.').to_string()
                } else {
                    f
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(coords: &[(&str, f64)], q: &str, v: f64) -> Record {
        Record {
            coords: coords.iter().map(|(p, v)| (p.to_string(), *v)).collect(),
            quantity: q.into(),
            unit: Some("J".into()),
            value: Some(v),
            zero_tol: 1e-12,
        }
    }

    #[test]
    fn formats() {
        assert_eq!(format_number(0.012345, Some(".3g")), "0.0123");
        assert_eq!(format_number(12345.0, Some(".3g")), "1.23e4");
        assert_eq!(format_number(2.5, Some(".3g")), "2.5");
        assert_eq!(format_number(1.0e-5, Some(".2g")), "1e-5");
        assert_eq!(format_number(1.23456, Some(".2f")), "1.23");
        assert_eq!(format_number(31415.9, Some(".2e")), "3.14e4");
        assert_eq!(format_number(0.1, None), "0.1");
        assert!(check_format(".3x").is_err());
        assert!(check_format("3g").is_err());
        assert!(check_format(".0g").is_err());
        assert!(check_format(".18f").is_err());
    }

    #[test]
    fn long_table_keeps_every_coordinate() {
        let r = vec![
            rec(&[("A", 1.0), ("w", 2.0)], "area", 0.5),
            rec(&[("A", 2.0), ("w", 2.0)], "area", 3.128e-21),
        ];
        let l = layout(&r, None, DEFAULT_FORMAT).unwrap();
        assert_eq!(l.columns, vec!["A", "w", "area [J]"]);
        assert_eq!(l.rows, vec![vec!["1", "2", "0.5"], vec!["2", "2", "0"]]);
    }

    #[test]
    fn pivot_puts_one_coordinate_across() {
        // Two runs (N = 4 and N = 8), each swept over A: A down, N across.
        let mut r = Vec::new();
        for (n, scale) in [(4.0, 1.0), (8.0, 2.0)] {
            for a in [1.0, 2.0, 3.0] {
                r.push(rec(&[("A", a), ("N", n)], "area", scale * a * 0.123456));
            }
        }
        let l = layout(&r, Some("N"), DEFAULT_FORMAT).unwrap();
        assert_eq!(l.columns, vec!["A", "N = 4", "N = 8"]);
        assert_eq!(l.rows.len(), 3);
        assert_eq!(l.rows[2], vec!["3", "0.3704", "0.7407"]);
    }

    #[test]
    fn pivot_with_two_quantities_names_both() {
        let r = vec![
            rec(&[("A", 1.0), ("N", 4.0)], "area", 1.0),
            rec(&[("A", 1.0), ("N", 4.0)], "fmax", 2.0),
        ];
        let l = layout(&r, Some("N"), DEFAULT_FORMAT).unwrap();
        assert_eq!(l.columns, vec!["A", "area [J], N = 4", "fmax [J], N = 4"]);
        assert_eq!(l.rows, vec![vec!["1", "1", "2"]]);
    }

    #[test]
    fn missing_cells_and_bad_layouts() {
        let r = vec![
            rec(&[("A", 1.0), ("N", 4.0)], "area", 1.0),
            rec(&[("A", 2.0), ("N", 8.0)], "area", 2.0),
        ];
        let l = layout(&r, Some("N"), DEFAULT_FORMAT).unwrap();
        assert_eq!(l.rows, vec![vec!["1", "1", "--"], vec!["2", "--", "2"]]);
        assert!(layout(&r, Some("B"), DEFAULT_FORMAT).unwrap_err().contains("pivot `B`"));
        let dup = vec![rec(&[("A", 1.0)], "area", 1.0), rec(&[("A", 1.0)], "area", 2.0)];
        assert!(layout(&dup, None, DEFAULT_FORMAT).unwrap_err().contains("two values"));
    }

    #[test]
    fn zero_is_zero_within_the_tolerance_only() {
        assert_eq!(cell(3.128e-21, ".4g", 1e-12), "0");
        assert_eq!(cell(-1e-13, ".4g", 1e-12), "0");
        assert_eq!(cell(-1e-13, ".4f", 1e-12), "0.0000");
        assert_eq!(cell(2e-12, ".4g", 1e-12), "2e-12");
        assert_eq!(cell(0.0041438897, ".4g", 1e-12), "0.004144");
    }
}
