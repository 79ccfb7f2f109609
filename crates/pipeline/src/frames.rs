//! Result tables (named f64 columns) as bytes: Parquet for the cache and `export`, CSV for the
//! exported series. The CSV is written here, byte for byte what polars 0.55 wrote before it was
//! cut (tests/frames.rs compares with its output): a header of the names (quoted only where
//! needed), each value as the shortest text that reads back to the same f64 (`zmij`, as polars
//! and serde_json use: `0.1`, `1.0`, `1e-300`, `NaN`, `inf`), `\n` after each line.

use crate::parquet_file::{self, Column, Data};

/// Run data in the cache: zstd level 1, without column statistics (nothing reads them; every
/// read takes whole files). On 400 of the check's run-data files (1.57 GB of f64 columns,
/// 2026-11-29): zstd level 3 with statistics wrote 996 MB in 7.4-8.6 s, level 1 1093 MB in
/// 4.6-5.4 s; Snappy and LZ4 (2.0-2.6 s) saved only 8 % over uncompressed (1.5 s).
pub fn to_parquet(columns: &[(String, Vec<f64>)]) -> Result<Vec<u8>, String> {
    let cols: Vec<Column> = columns
        .iter()
        .map(|(n, v)| Column {
            name: n,
            data: Data::Double(v),
        })
        .collect();
    parquet_file::write(&cols)
}

/// The columns of a cache file, nulls as NaN.
pub fn from_parquet(bytes: &[u8]) -> Result<Vec<(String, Vec<f64>)>, String> {
    parquet_file::read_doubles(bytes)
}

/// `name` as a CSV field: quoted when it is empty or holds a comma, a line break or a quote
/// (a quote doubled inside).
fn push_field(buf: &mut Vec<u8>, name: &str) {
    let needs_quotes = name.is_empty() || name.contains([',', '\n', '\r', '"']);
    if !needs_quotes {
        buf.extend_from_slice(name.as_bytes());
        return;
    }
    buf.push(b'"');
    buf.extend_from_slice(name.replace('"', "\"\"").as_bytes());
    buf.push(b'"');
}

/// The columns as CSV text with a header line.
pub fn to_csv(columns: &[(String, Vec<f64>)]) -> Result<Vec<u8>, String> {
    let height = parquet_file::check_shape(columns.iter().map(|(n, v)| (n.as_str(), v.len())))?;
    let mut buf = Vec::with_capacity(64 + height * columns.len() * 20);
    for (j, (name, _)) in columns.iter().enumerate() {
        if j > 0 {
            buf.push(b',');
        }
        push_field(&mut buf, name);
    }
    buf.push(b'\n');
    let mut text = zmij::Buffer::new();
    for i in 0..height {
        for (j, (_, values)) in columns.iter().enumerate() {
            if j > 0 {
                buf.push(b',');
            }
            buf.extend_from_slice(text.format(values[i]).as_bytes());
        }
        buf.push(b'\n');
    }
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parquet_round_trip_is_exact() {
        let cols = vec![
            ("t".to_string(), vec![0.0, 0.1, 1e-300, f64::MAX]),
            ("F".to_string(), vec![1.0 / 3.0, -2.5, 0.0, -0.0]),
        ];
        let bytes = to_parquet(&cols).unwrap();
        let back = from_parquet(&bytes).unwrap();
        assert_eq!(back.len(), 2);
        for (a, b) in cols.iter().zip(&back) {
            assert_eq!(a.0, b.0);
            assert!(a.1.iter().zip(&b.1).all(|(x, y)| x.to_bits() == y.to_bits()));
        }
        assert_eq!(to_parquet(&cols).unwrap(), bytes, "deterministic bytes");
        let csv = String::from_utf8(to_csv(&cols).unwrap()).unwrap();
        assert!(csv.starts_with("t,F\n"));
    }

    #[test]
    fn a_table_has_unique_names_and_one_height() {
        let twice = vec![("t".to_string(), vec![0.0]), ("t".to_string(), vec![1.0])];
        let ragged = vec![("t".to_string(), vec![0.0]), ("F".to_string(), vec![])];
        for bad in [&twice, &ragged] {
            assert!(to_csv(bad).is_err() && to_parquet(bad).is_err());
        }
    }

    #[test]
    fn csv_fields_are_quoted_only_where_needed() {
        let cols: Vec<(String, Vec<f64>)> = ["t", "a,b", "q\"x", "", "l\nm"]
            .iter()
            .map(|n| (n.to_string(), vec![f64::NAN]))
            .collect();
        let csv = String::from_utf8(to_csv(&cols).unwrap()).unwrap();
        assert_eq!(csv, "t,\"a,b\",\"q\"\"x\",\"\",\"l\nm\"\nNaN,NaN,NaN,NaN,NaN\n");
    }

    /// 36 edge cases and 6000 more values: random bit patterns (every exponent) and uniform
    /// values scaled by 1e-20 … 1e19, half negative.
    fn edge_values() -> Vec<f64> {
        let mut v = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            0.2,
            0.3,
            1.0 / 3.0,
            -2.5,
            1e-300,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            5e-324,
            1e16,
            1e15,
            1e17,
            1e21,
            1e22,
            123456789012345680.0,
            1e-7,
            1e-5,
            1e-4,
            0.001,
            2.5e-5,
            100.0,
            1234.5,
            6.02214076e23,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -1e-300,
            9007199254740993.0,
            4.35,
            0.5,
            2e-6,
        ];
        let mut x: u64 = 0x9e3779b97f4a7c15;
        for i in 0..3000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let f = f64::from_bits(x);
            if f.is_finite() {
                v.push(f);
            }
            let g = ((x >> 11) as f64) / ((1u64 << 53) as f64) * 10f64.powi((i % 40) - 20);
            v.push(if i % 2 == 0 { g } else { -g });
        }
        v
    }

    /// The CSV is byte for byte what polars 0.55's `CsvWriter` wrote (its SHA-256 recorded on
    /// 2026-12-05 before polars was cut: 307 115 bytes, 6033 rows of three columns).
    #[test]
    fn csv_bytes_are_those_polars_wrote() {
        use sha2::{Digest, Sha256};
        let v = edge_values();
        let cols = vec![
            ("t".to_string(), v.clone()),
            ("a,b".to_string(), (0..v.len()).map(|i| i as f64 * 0.25).collect()),
            ("q\"x".to_string(), v.iter().rev().copied().collect()),
        ];
        let csv = to_csv(&cols).unwrap();
        assert_eq!(csv.len(), 307_115);
        let hash: String = Sha256::digest(&csv).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hash, "a7b62b0b35e4c9b140a06ee8a27df210e7ee0ce4253111b127eb558c11184873");
        let small = vec![
            ("t".to_string(), vec![0.0, 0.5, 1.0]),
            ("F".to_string(), vec![1.0 / 3.0, f64::NAN, -0.0]),
        ];
        let text = String::from_utf8(to_csv(&small).unwrap()).unwrap();
        assert_eq!(text, "t,F\n0.0,0.3333333333333333\n0.5,NaN\n1.0,-0.0\n");
        assert_eq!(to_csv(&[("t".to_string(), vec![])]).unwrap(), b"t\n");
    }

    /// A cache file polars 0.55 wrote (zstd, OPTIONAL DOUBLE columns) reads back exactly.
    #[test]
    fn a_cache_file_polars_wrote_reads_back() {
        let bytes = include_bytes!("../tests/fixtures/polars-run.parquet");
        let cols = from_parquet(bytes).unwrap();
        let names: Vec<&str> = cols.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(names, ["t", "F"]);
        assert_eq!(cols[0].1, [0.0, 0.5, 1.0]);
        let f: Vec<u64> = cols[1].1.iter().map(|x| x.to_bits()).collect();
        assert_eq!(f[0], (1.0f64 / 3.0).to_bits());
        assert!(f64::from_bits(f[1]).is_nan());
        assert_eq!(f[2], (-0.0f64).to_bits());
    }

    /// A file of another shape is an error naming the column, not a panic.
    #[test]
    fn a_text_column_is_refused_by_name() {
        let metrics = include_bytes!("../tests/fixtures/polars-metrics.parquet");
        let err = from_parquet(metrics).unwrap_err();
        assert!(err.contains("`document`") && err.contains("not DOUBLE"), "{err}");
        assert!(from_parquet(b"PAR1").is_err());
    }
}
