//! Flat Parquet files through the `parquet` crate's column writer and reader (no arrow): the
//! run cache's columns of f64 and the tidy metrics table. Every column is OPTIONAL, as polars
//! wrote them (the cache's files written by polars 0.55 read back unchanged), in one row group,
//! zstd level 1, without statistics or page index (nothing reads them; every read takes whole
//! files).

use bytes::Bytes;
use parquet::basic::{Compression, LogicalType, Repetition, Type as Physical, ZstdLevel};
use parquet::column::reader::ColumnReader;
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::{SerializedColumnWriter, SerializedFileWriter};
use parquet::schema::types::{ColumnPath, Type};
use std::collections::HashSet;
use std::sync::Arc;

/// One column to write: its name and values.
pub struct Column<'a> {
    pub name: &'a str,
    pub data: Data<'a>,
}

/// The values of a column; `None` is written as a null.
pub enum Data<'a> {
    /// f64 without nulls (NaN is a value).
    Double(&'a [f64]),
    OptDouble(Vec<Option<f64>>),
    /// UTF-8 text (logical type STRING).
    OptText(Vec<Option<&'a str>>),
}

impl Data<'_> {
    fn len(&self) -> usize {
        match self {
            Data::Double(v) => v.len(),
            Data::OptDouble(v) => v.len(),
            Data::OptText(v) => v.len(),
        }
    }
}

/// Column names unique and every column of the same length (what a table needs; polars
/// refused the same).
pub fn check_shape<'a>(names: impl Iterator<Item = (&'a str, usize)>) -> Result<usize, String> {
    let mut seen = HashSet::new();
    let mut height = None;
    for (name, len) in names {
        if !seen.insert(name) {
            return Err(format!("column `{name}` appears twice"));
        }
        match height {
            None => height = Some(len),
            Some(h) if h != len => return Err(format!("column `{name}` has {len} values, the first column {h}")),
            Some(_) => {}
        }
    }
    Ok(height.unwrap_or(0))
}

fn field(c: &Column) -> Result<Arc<Type>, String> {
    let (physical, logical) = match c.data {
        Data::Double(_) | Data::OptDouble(_) => (Physical::DOUBLE, None),
        Data::OptText(_) => (Physical::BYTE_ARRAY, Some(LogicalType::String)),
    };
    Type::primitive_type_builder(c.name, physical)
        .with_repetition(Repetition::OPTIONAL)
        .with_logical_type(logical)
        .build()
        .map(Arc::new)
        .map_err(|e| e.to_string())
}

fn properties(columns: &[Column]) -> Result<WriterProperties, String> {
    let level = ZstdLevel::try_new(1).map_err(|e| e.to_string())?;
    let mut p = WriterProperties::builder()
        .set_compression(Compression::ZSTD(level))
        .set_statistics_enabled(EnabledStatistics::None)
        .set_offset_index_disabled(true)
        .set_dictionary_enabled(false);
    // Text repeats (document and experiment names): a dictionary pays there, not on f64 data.
    for c in columns.iter().filter(|c| matches!(c.data, Data::OptText(_))) {
        p = p.set_column_dictionary_enabled(ColumnPath::from(c.name), true);
    }
    Ok(p.build())
}

/// The definition levels of `opts` (1 present, 0 null) and the present values.
fn split<T: Clone>(opts: &[Option<T>]) -> (Vec<i16>, Vec<T>) {
    let defs = opts.iter().map(|o| i16::from(o.is_some())).collect();
    (defs, opts.iter().flatten().cloned().collect())
}

fn write_column(w: &mut SerializedColumnWriter, data: &Data) -> parquet::errors::Result<()> {
    match data {
        Data::Double(v) => {
            let defs = vec![1i16; v.len()];
            w.typed::<DoubleType>().write_batch(v, Some(&defs), None)?;
        }
        Data::OptDouble(v) => {
            let (defs, values) = split(v);
            w.typed::<DoubleType>().write_batch(&values, Some(&defs), None)?;
        }
        Data::OptText(v) => {
            let (defs, values) = split(v);
            let values: Vec<ByteArray> = values.into_iter().map(ByteArray::from).collect();
            w.typed::<ByteArrayType>().write_batch(&values, Some(&defs), None)?;
        }
    }
    Ok(())
}

/// The columns as the bytes of one Parquet file (deterministic: the same columns give the same
/// bytes).
pub fn write(columns: &[Column]) -> Result<Vec<u8>, String> {
    check_shape(columns.iter().map(|c| (c.name, c.data.len())))?;
    let fields = columns.iter().map(field).collect::<Result<Vec<_>, _>>()?;
    let schema = Type::group_type_builder("schema")
        .with_fields(fields)
        .build()
        .map_err(|e| e.to_string())?;
    let write_all = || -> parquet::errors::Result<Vec<u8>> {
        let mut buf = Vec::new();
        let props = Arc::new(properties(columns).map_err(parquet::errors::ParquetError::General)?);
        let mut file = SerializedFileWriter::new(&mut buf, Arc::new(schema), props)?;
        let mut group = file.next_row_group()?;
        for c in columns {
            let Some(mut w) = group.next_column()? else { break };
            write_column(&mut w, &c.data)?;
            w.close()?;
        }
        group.close()?;
        file.close()?;
        Ok(buf)
    };
    write_all().map_err(|e| e.to_string())
}

/// Read the f64 column at `i` of every row group, nulls as NaN (`nullable`: the column has
/// definition levels).
fn read_doubles_at(reader: &SerializedFileReader<Bytes>, i: usize, nullable: bool) -> Result<Vec<f64>, String> {
    let mut out = Vec::new();
    for g in 0..reader.num_row_groups() {
        let group = reader.get_row_group(g).map_err(|e| e.to_string())?;
        let ColumnReader::DoubleColumnReader(mut r) = group.get_column_reader(i).map_err(|e| e.to_string())? else {
            return Err("not a DOUBLE column".into());
        };
        let (mut defs, mut values) = (Vec::new(), Vec::new());
        loop {
            let (records, _, _) = r
                .read_records(64 * 1024, nullable.then_some(&mut defs), None, &mut values)
                .map_err(|e| e.to_string())?;
            if records == 0 {
                break;
            }
        }
        if !nullable {
            out.extend(values);
            continue;
        }
        let mut present = values.into_iter();
        for d in defs {
            out.push(if d > 0 {
                present.next().unwrap_or(f64::NAN)
            } else {
                f64::NAN
            });
        }
    }
    Ok(out)
}

/// Every column of a flat Parquet file of f64 columns (any the writer or polars wrote), nulls
/// as NaN; an error names a column that is nested or not DOUBLE.
pub fn read_doubles(bytes: &[u8]) -> Result<Vec<(String, Vec<f64>)>, String> {
    let reader = SerializedFileReader::new(Bytes::copy_from_slice(bytes)).map_err(|e| e.to_string())?;
    let schema = reader.metadata().file_metadata().schema_descr_ptr();
    let mut out = Vec::new();
    for (i, c) in schema.columns().iter().enumerate() {
        let name = c.path().string();
        if c.path().parts().len() != 1 || c.max_rep_level() > 0 {
            return Err(format!("column `{name}` is nested"));
        }
        if c.physical_type() != Physical::DOUBLE {
            return Err(format!("column `{name}` is {}, not DOUBLE", c.physical_type()));
        }
        let values = read_doubles_at(&reader, i, c.max_def_level() > 0).map_err(|e| format!("column `{name}`: {e}"))?;
        out.push((name, values));
    }
    Ok(out)
}
