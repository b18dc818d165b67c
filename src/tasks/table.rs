//! Hugging Face–style tables read into plain records: CSV (RFC 4180: quoted multi-line fields,
//! CRLF), JSON (an array of objects, or `{"split": [objects…], …}`), JSONL and Parquet.
//! Everything comes in as bytes; a bad record becomes an [`Anomaly`] and reading goes on.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::anomaly::{Action, Anomaly, AnomalyKind};

/// A table file format, told by the file name's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Csv,
    Json,
    Jsonl,
    Parquet,
}

impl Format {
    /// `.csv`, `.json`, `.jsonl`/`.ndjson`, `.parquet` (case-insensitive).
    pub fn from_name(name: &str) -> Option<Format> {
        let lower = name.to_ascii_lowercase();
        let ext = lower.rsplit_once('.')?.1;
        match ext {
            "csv" => Some(Format::Csv),
            "json" => Some(Format::Json),
            "jsonl" | "ndjson" => Some(Format::Jsonl),
            "parquet" => Some(Format::Parquet),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Jsonl => "jsonl",
            Format::Parquet => "parquet",
        }
    }
}

/// One record of a table.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// 1-based data row: CSV record after the header, JSON array position, JSONL line, Parquet row.
    pub row: usize,
    pub fields: Map<String, Value>,
}

/// The records of one file (of one split, for JSON files with splits).
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The file name used in anomalies and ids: the caller's name, plus `[split]` for JSON splits.
    pub label: String,
    /// The split's name for `{"split": [...]}` JSON files.
    pub split: Option<String>,
    /// Column names in file order (for JSON: in order of first appearance).
    pub columns: Vec<String>,
    pub records: Vec<Record>,
    /// Data rows seen, including those that could not be read.
    pub rows: usize,
}

/// Reads `bytes` as `format`. Returns the tables found (one, or one per JSON split) and the
/// anomalies met on the way; a file that cannot be read at all yields no table and one
/// `unreadable_file` anomaly.
pub fn read_table(name: &str, bytes: &[u8], format: Format) -> (Vec<Table>, Vec<Anomaly>) {
    let mut anomalies = Vec::new();
    let tables = match format {
        Format::Csv => read_csv_table(name, bytes, &mut anomalies).into_iter().collect(),
        Format::Json => read_json(name, bytes, &mut anomalies),
        Format::Jsonl => read_jsonl(name, bytes, &mut anomalies).into_iter().collect(),
        Format::Parquet => read_parquet_guarded(name, bytes, &mut anomalies).into_iter().collect(),
    };
    (tables, anomalies)
}

fn unreadable(name: &str, reason: impl Into<String>) -> Anomaly {
    Anomaly::new(name, None, AnomalyKind::UnreadableFile, Action::SkippedFile, reason)
}

/// Raw CSV: the header and the data records (1-based row, fields), with a UTF-8 BOM removed and
/// records that are not UTF-8 reported. The number of fields is not checked here.
pub struct RawCsv {
    pub header: Vec<String>,
    pub records: Vec<(usize, Vec<String>)>,
    pub rows: usize,
}

/// Reads CSV by the csv crate (RFC 4180). `None` with an anomaly when there is no header.
pub fn read_csv_raw(name: &str, bytes: &[u8], anomalies: &mut Vec<Anomaly>) -> Option<RawCsv> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(bytes);
    let mut header: Option<Vec<String>> = None;
    let mut records = Vec::new();
    let mut rows = 0;
    let mut record = csv::ByteRecord::new();
    loop {
        match reader.read_byte_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                // The csv crate only fails on I/O here; reading from memory it should not happen.
                anomalies.push(unreadable(name, format!("CSV could not be read past data row {rows}: {e}")));
                break;
            }
        }
        let fields: Result<Vec<String>, usize> =
            record.iter().enumerate().map(|(i, f)| std::str::from_utf8(f).map(str::to_string).map_err(|_| i)).collect();
        match (&header, fields) {
            (None, Ok(f)) => header = Some(f),
            (None, Err(_)) => {
                anomalies.push(unreadable(name, "the header row is not valid UTF-8"));
                return None;
            }
            (Some(_), Ok(f)) => {
                rows += 1;
                records.push((rows, f));
            }
            (Some(h), Err(i)) => {
                rows += 1;
                let column = h.get(i).cloned().unwrap_or_else(|| format!("field {}", i + 1));
                anomalies.push(
                    Anomaly::new(
                        name,
                        Some(rows),
                        AnomalyKind::Malformed,
                        Action::SkippedRow,
                        "the field is not valid UTF-8",
                    )
                    .column(column),
                );
            }
        }
    }
    match header {
        Some(header) => Some(RawCsv { header, records, rows }),
        None => {
            anomalies.push(unreadable(name, "the file is empty (no header row)"));
            None
        }
    }
}

fn read_csv_table(name: &str, bytes: &[u8], anomalies: &mut Vec<Anomaly>) -> Option<Table> {
    let raw = read_csv_raw(name, bytes, anomalies)?;
    let columns = raw.header.clone();
    let mut records = Vec::with_capacity(raw.records.len());
    for (row, fields) in raw.records {
        if fields.len() != columns.len() {
            anomalies.push(Anomaly::new(
                name,
                Some(row),
                AnomalyKind::FieldCount,
                Action::SkippedRow,
                format!("{} fields, but the header has {} columns", fields.len(), columns.len()),
            ));
            continue;
        }
        let map = columns.iter().cloned().zip(fields.into_iter().map(Value::String)).collect();
        records.push(Record { row, fields: map });
    }
    Some(Table { label: name.to_string(), split: None, columns, records, rows: raw.rows })
}

/// Records from a JSON array; non-object elements are reported.
fn records_from_array(
    label: &str,
    array: Vec<Value>,
    anomalies: &mut Vec<Anomaly>,
) -> (Vec<String>, Vec<Record>, usize) {
    let mut columns: Vec<String> = Vec::new();
    let mut records = Vec::new();
    let rows = array.len();
    for (i, v) in array.into_iter().enumerate() {
        let row = i + 1;
        match v {
            Value::Object(map) => {
                for k in map.keys() {
                    if !columns.contains(k) {
                        columns.push(k.clone());
                    }
                }
                records.push(Record { row, fields: map });
            }
            other => anomalies.push(Anomaly::new(
                label,
                Some(row),
                AnomalyKind::Malformed,
                Action::SkippedRow,
                format!("expected an object, found {}", json_type(&other)),
            )),
        }
    }
    (columns, records, rows)
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn read_json(name: &str, bytes: &[u8], anomalies: &mut Vec<Anomaly>) -> Vec<Table> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => {
            anomalies.push(unreadable(name, format!("not valid JSON: {e}")));
            return Vec::new();
        }
    };
    match value {
        Value::Array(array) => {
            let (columns, records, rows) = records_from_array(name, array, anomalies);
            vec![Table { label: name.to_string(), split: None, columns, records, rows }]
        }
        Value::Object(map) => {
            let mut tables = Vec::new();
            let mut ignored = Vec::new();
            for (split, v) in map {
                match v {
                    Value::Array(array) if array.iter().any(Value::is_object) || array.is_empty() => {
                        let label = format!("{name}[{split}]");
                        let (columns, records, rows) = records_from_array(&label, array, anomalies);
                        tables.push(Table { label, split: Some(split), columns, records, rows });
                    }
                    _ => ignored.push(split),
                }
            }
            if tables.is_empty() {
                anomalies.push(unreadable(
                    name,
                    "a JSON object, but none of its keys holds an array of records (expected [ {…}, … ] or {\"split\": [ {…}, … ]})",
                ));
            } else if !ignored.is_empty() {
                anomalies.push(Anomaly::new(
                    name,
                    None,
                    AnomalyKind::Malformed,
                    Action::Kept,
                    format!("keys that hold no array of records were ignored: {}", ignored.join(", ")),
                ));
            }
            tables
        }
        other => {
            anomalies.push(unreadable(
                name,
                format!("expected an array of records or an object of splits, found {}", json_type(&other)),
            ));
            Vec::new()
        }
    }
}

fn read_jsonl(name: &str, bytes: &[u8], anomalies: &mut Vec<Anomaly>) -> Option<Table> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut columns: Vec<String> = Vec::new();
    let mut records = Vec::new();
    let mut rows = 0;
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let row = i + 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        rows = row;
        match serde_json::from_slice::<Value>(line) {
            Ok(Value::Object(map)) => {
                for k in map.keys() {
                    if !columns.contains(k) {
                        columns.push(k.clone());
                    }
                }
                records.push(Record { row, fields: map });
            }
            Ok(other) => anomalies.push(Anomaly::new(
                name,
                Some(row),
                AnomalyKind::Malformed,
                Action::SkippedRow,
                format!("expected an object, found {}", json_type(&other)),
            )),
            Err(e) => anomalies.push(Anomaly::new(
                name,
                Some(row),
                AnomalyKind::Malformed,
                Action::SkippedRow,
                format!("not valid JSON: {e}"),
            )),
        }
    }
    Some(Table { label: name.to_string(), split: None, columns, records, rows })
}

/// The `parquet` crate still asserts (panics) on some corrupt inputs instead of returning an
/// error (apache/arrow-rs#7102, being fixed piece by piece). Natively the panic is caught and the
/// file reported as corrupt (the panic hook still prints its message to stderr). On wasm32 panics
/// abort, so there a corrupt Parquet file still traps the worker.
fn read_parquet_guarded(name: &str, bytes: &[u8], anomalies: &mut Vec<Anomaly>) -> Option<Table> {
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut found = Vec::new();
        let table = read_parquet(name, bytes, &mut found);
        (table, found)
    }));
    match caught {
        Ok((table, found)) => {
            anomalies.extend(found);
            table
        }
        Err(panic) => {
            let why = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("no message");
            anomalies.push(unreadable(
                name,
                format!("the Parquet decoder failed on this file ({why}): it is corrupt; nothing was loaded from it"),
            ));
            None
        }
    }
}

fn read_parquet(name: &str, bytes: &[u8], anomalies: &mut Vec<Anomaly>) -> Option<Table> {
    use parquet::file::reader::{FileReader, SerializedFileReader};

    let reader = match SerializedFileReader::new(bytes::Bytes::copy_from_slice(bytes)) {
        Ok(r) => r,
        Err(e) => {
            anomalies.push(unreadable(name, format!("not a readable Parquet file: {e}")));
            return None;
        }
    };
    let meta = reader.metadata();
    let columns: Vec<String> =
        meta.file_metadata().schema().get_fields().iter().map(|f| f.name().to_string()).collect();
    // Say plainly which compression is not built in, before the row reader fails on it.
    for rg in meta.row_groups() {
        for col in rg.columns() {
            let codec = col.compression();
            if !matches!(codec, parquet::basic::Compression::UNCOMPRESSED | parquet::basic::Compression::SNAPPY) {
                anomalies.push(unreadable(
                    name,
                    format!("column {} is compressed with {codec}; this build reads uncompressed and Snappy Parquet only (re-save it with Snappy, pyarrow's default)", col.column_path()),
                ));
                return None;
            }
        }
    }
    let iter = match reader.get_row_iter(None) {
        Ok(it) => it,
        Err(e) => {
            anomalies.push(unreadable(name, format!("Parquet rows could not be read: {e}")));
            return None;
        }
    };
    let mut records = Vec::new();
    let mut rows = 0;
    for (i, row) in iter.enumerate() {
        rows = i + 1;
        match row {
            Ok(row) => {
                let fields = row.get_column_iter().map(|(k, f)| (k.clone(), field_to_json(f))).collect();
                records.push(Record { row: i + 1, fields });
            }
            Err(e) => {
                anomalies.push(Anomaly::new(
                    name,
                    Some(i + 1),
                    AnomalyKind::Malformed,
                    Action::SkippedRow,
                    format!("Parquet row could not be decoded, and the rest of the file was not read: {e}"),
                ));
                break;
            }
        }
    }
    Some(Table { label: name.to_string(), split: None, columns, records, rows })
}

/// A Parquet value as JSON: strings, numbers, booleans, lists and structs/maps as themselves;
/// anything else (dates, decimals, binary) as its display text.
fn field_to_json(field: &parquet::record::Field) -> Value {
    use parquet::record::Field;
    match field {
        Field::Null => Value::Null,
        Field::Bool(b) => Value::Bool(*b),
        Field::Byte(n) => Value::from(*n),
        Field::Short(n) => Value::from(*n),
        Field::Int(n) => Value::from(*n),
        Field::Long(n) => Value::from(*n),
        Field::UByte(n) => Value::from(*n),
        Field::UShort(n) => Value::from(*n),
        Field::UInt(n) => Value::from(*n),
        Field::ULong(n) => Value::from(*n),
        Field::Float(x) => serde_json::Number::from_f64(f64::from(*x)).map_or(Value::Null, Value::Number),
        Field::Double(x) => serde_json::Number::from_f64(*x).map_or(Value::Null, Value::Number),
        Field::Str(s) => Value::String(s.clone()),
        Field::Bytes(b) => match std::str::from_utf8(b.data()) {
            Ok(s) => Value::String(s.to_string()),
            Err(_) => Value::String(format!("{field}")),
        },
        Field::Group(row) => Value::Object(row.get_column_iter().map(|(k, f)| (k.clone(), field_to_json(f))).collect()),
        Field::ListInternal(list) => Value::Array(list.elements().iter().map(field_to_json).collect()),
        Field::MapInternal(map) => {
            let entries = map.entries();
            let mut out = Map::new();
            for (k, v) in entries {
                let key = match field_to_json(k) {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                out.insert(key, field_to_json(v));
            }
            Value::Object(out)
        }
        other => Value::String(format!("{other}")),
    }
}

/// The text of a field value: strings as they are, numbers and booleans written out, null as
/// empty. Lists and objects are not text (`None`).
pub fn value_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Null => Some(String::new()),
        Value::Array(_) | Value::Object(_) => None,
    }
}

/// Column names per table, for messages.
pub fn columns_list(columns: &[String]) -> String {
    let mut v: Vec<String> = columns.iter().map(|c| format!("`{c}`")).collect();
    if v.len() > 30 {
        v.truncate(30);
        v.push("…".into());
    }
    v.join(", ")
}

/// Counts, for tests and reports.
pub fn count_by<'a>(keys: impl Iterator<Item = &'a str>) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for k in keys {
        *m.entry(k.to_string()).or_insert(0) += 1;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_extension() {
        assert_eq!(Format::from_name("a/b/test.PARQUET"), Some(Format::Parquet));
        assert_eq!(Format::from_name("x.ndjson"), Some(Format::Jsonl));
        assert_eq!(Format::from_name("x.jsonl"), Some(Format::Jsonl));
        assert_eq!(Format::from_name("x.json"), Some(Format::Json));
        assert_eq!(Format::from_name("x.csv"), Some(Format::Csv));
        assert_eq!(Format::from_name("README"), None);
    }

    #[test]
    fn csv_multiline_crlf_bom_and_field_counts() {
        let data = "\u{feff}q,a\r\n\"line one\r\nline two\",x\r\nonly-one-field\r\n3,\"say \"\"hi\"\"\"\r\n";
        let (tables, anomalies) = read_table("t.csv", data.as_bytes(), Format::Csv);
        let t = &tables[0];
        assert_eq!(t.columns, ["q", "a"]);
        assert_eq!(t.rows, 3);
        assert_eq!(t.records.len(), 2);
        assert_eq!(t.records[0].fields["q"], "line one\r\nline two");
        assert_eq!(t.records[1].row, 3);
        assert_eq!(t.records[1].fields["a"], "say \"hi\"");
        assert_eq!(anomalies.len(), 1);
        assert_eq!(
            anomalies[0].to_string(),
            "t.csv:2: 1 fields, but the header has 2 columns (field_count, skipped_row)"
        );
    }

    #[test]
    fn csv_invalid_utf8_row_is_reported() {
        let mut data = b"q,a\nok,1\n".to_vec();
        data.extend_from_slice(b"bad\xff,2\nfine,3\n");
        let (tables, anomalies) = read_table("t.csv", &data, Format::Csv);
        assert_eq!(tables[0].records.len(), 2);
        assert_eq!(anomalies[0].location(), "t.csv:2");
        assert_eq!(anomalies[0].column.as_deref(), Some("q"));
    }

    #[test]
    fn json_array_and_splits() {
        let (t, a) = read_table("d.json", br#"[{"x": 1}, 5, {"x": 2, "y": "b"}]"#, Format::Json);
        assert_eq!(t[0].columns, ["x", "y"]);
        assert_eq!(t[0].records.len(), 2);
        assert_eq!(t[0].records[1].row, 3);
        assert_eq!(a[0].location(), "d.json:2");

        let (t, a) = read_table(
            "d.json",
            br#"{"test": [{"x": 1}], "validation": [{"x": 2}, {"x": 3}], "version": "1"}"#,
            Format::Json,
        );
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].label, "d.json[test]");
        assert_eq!(t[1].split.as_deref(), Some("validation"));
        assert_eq!(t[1].records.len(), 2);
        assert_eq!(a.len(), 1, "{a:?}");
        assert_eq!(a[0].action, Action::Kept);

        let (t, a) = read_table("d.json", b"{not json", Format::Json);
        assert!(t.is_empty());
        assert_eq!(a[0].kind, AnomalyKind::UnreadableFile);
    }

    #[test]
    fn jsonl_counts_lines() {
        let data = b"{\"x\": 1}\r\n\n[1]\n{broken\n{\"x\": 2}\n";
        let (t, a) = read_table("d.jsonl", data, Format::Jsonl);
        assert_eq!(t[0].records.iter().map(|r| r.row).collect::<Vec<_>>(), [1, 5]);
        assert_eq!(a.iter().map(Anomaly::location).collect::<Vec<_>>(), ["d.jsonl:3", "d.jsonl:4"]);
    }

    #[test]
    fn parquet_garbage_is_an_anomaly() {
        let (t, a) = read_table("x.parquet", b"PAR1 not really", Format::Parquet);
        assert!(t.is_empty());
        assert_eq!(a[0].kind, AnomalyKind::UnreadableFile);
    }

    #[test]
    fn value_text_of_scalars() {
        assert_eq!(value_text(&Value::from(3)).as_deref(), Some("3"));
        assert_eq!(value_text(&Value::Null).as_deref(), Some(""));
        assert_eq!(value_text(&serde_json::json!([1])), None);
    }
}
