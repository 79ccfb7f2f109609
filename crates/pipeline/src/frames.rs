//! Result tables as polars DataFrames: Parquet for the cache, CSV for the exported series.

use polars::prelude::*;
use std::io::Cursor;

fn frame(columns: &[(String, Vec<f64>)]) -> Result<DataFrame, String> {
    let height = columns.first().map_or(0, |c| c.1.len());
    let cols: Vec<Column> = columns
        .iter()
        .map(|(n, v)| Column::new(n.as_str().into(), v.as_slice()))
        .collect();
    DataFrame::new(height, cols).map_err(|e| e.to_string())
}

/// Run data in the cache: zstd level 1, without column statistics (nothing reads them; every
/// read takes whole files). On 400 of the check's run-data files (1.57 GB of f64 columns,
/// 2026-11-29): polars' default (zstd level 3, statistics) wrote 996 MB in 7.4-8.6 s, level 1
/// 1093 MB in 4.6-5.4 s; Snappy and LZ4 (2.0-2.6 s) saved only 8 % over uncompressed (1.5 s).
pub fn to_parquet(columns: &[(String, Vec<f64>)]) -> Result<Vec<u8>, String> {
    let mut df = frame(columns)?;
    let mut buf = Vec::new();
    let level = polars_utils::compression::ZstdLevel::try_new(1).map_err(|e| e.to_string())?;
    ParquetWriter::new(&mut buf)
        .with_compression(ParquetCompression::Zstd(Some(level)))
        .with_statistics(StatisticsOptions::empty())
        .finish(&mut df)
        .map_err(|e| e.to_string())?;
    Ok(buf)
}

pub fn from_parquet(bytes: &[u8]) -> Result<Vec<(String, Vec<f64>)>, String> {
    let df = ParquetReader::new(Cursor::new(bytes))
        .finish()
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for c in df.columns() {
        let ca = c.f64().map_err(|e| e.to_string())?;
        let v: Vec<f64> = ca.to_vec().into_iter().map(|x| x.unwrap_or(f64::NAN)).collect();
        out.push((c.name().to_string(), v));
    }
    Ok(out)
}

pub fn to_csv(columns: &[(String, Vec<f64>)]) -> Result<Vec<u8>, String> {
    let mut df = frame(columns)?;
    let mut buf = Vec::new();
    CsvWriter::new(&mut buf)
        .include_header(true)
        .finish(&mut df)
        .map_err(|e| e.to_string())?;
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
}
