//! GGUF v2/v3: a header of key/value metadata and tensor descriptions, then aligned tensor data.
//! Spec: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md
//!
//! The header is parsed from a prefix of the file that grows until it holds the whole header, so
//! only the header is ever read here; tensor bytes are read later, one tensor at a time, through
//! the same [`ByteSource`]. Every count and length in the file is checked against the bytes that
//! are actually there before anything is allocated: a truncated or hostile file gets a message
//! naming the field, never a panic or a giant allocation.

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::formats::ggml::GgmlType;
use crate::formats::source::ByteSource;

const MAGIC: &[u8; 4] = b"GGUF";
const DEFAULT_ALIGNMENT: u64 = 32;
/// ggml's GGML_MAX_DIMS.
const MAX_DIMS: u32 = 4;
/// Nesting of arrays inside arrays; real files use none. Bounds recursion on hostile input.
const MAX_ARRAY_DEPTH: usize = 4;
/// ggml's GGML_MAX_NAME less its terminating zero: llama.cpp refuses longer tensor names.
const MAX_TENSOR_NAME: usize = 63;
/// The longest metadata array read: 8x the largest vocabulary in use (Gemma 3's 262,144 tokens,
/// and their scores and types; Llama 3's 280,147 merges). The file's length alone does not bound
/// an array well enough: each one-byte item becomes a `Value` of 32 bytes, so a 134 MB file
/// declaring 2^27 items would ask for 4 GB at once, past wasm32's whole memory.
pub const MAX_ARRAY_LEN: u64 = 1 << 21;
/// All metadata values of one header together (array items included): with `MAX_ARRAY_LEN`,
/// what a header may ask for in memory is bounded by a figure that fits in a browser tab
/// (2^23 values x 32 bytes = 256 MiB, beside the strings' bytes, which the file's length bounds).
pub const MAX_METADATA_VALUES: u64 = 1 << 23;

/// A metadata value, one variant per GGUF value type.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    U8(u8),
    I8(i8),
    U16(u16),
    I16(i16),
    U32(u32),
    I32(i32),
    F32(f32),
    Bool(bool),
    String(String),
    Array(Vec<Value>),
    U64(u64),
    I64(i64),
    F64(f64),
}

impl Value {
    /// Any integer type that fits, widened to u64 (the one place where integer widths mix).
    pub fn to_u64(&self) -> Option<u64> {
        match *self {
            Value::U8(v) => Some(v as u64),
            Value::U16(v) => Some(v as u64),
            Value::U32(v) => Some(v as u64),
            Value::U64(v) => Some(v),
            Value::I8(v) => u64::try_from(v).ok(),
            Value::I16(v) => u64::try_from(v).ok(),
            Value::I32(v) => u64::try_from(v).ok(),
            Value::I64(v) => u64::try_from(v).ok(),
            _ => None,
        }
    }

    pub fn to_i64(&self) -> Option<i64> {
        match *self {
            Value::I8(v) => Some(v as i64),
            Value::I16(v) => Some(v as i64),
            Value::I32(v) => Some(v as i64),
            Value::I64(v) => Some(v),
            _ => self.to_u64().and_then(|v| i64::try_from(v).ok()),
        }
    }

    /// F32 or F64 (narrowed), or an integer.
    pub fn to_f64(&self) -> Option<f64> {
        match *self {
            Value::F32(v) => Some(v as f64),
            Value::F64(v) => Some(v),
            _ => self.to_i64().map(|v| v as f64),
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    fn type_name(&self) -> &'static str {
        match self {
            Value::U8(_) => "u8",
            Value::I8(_) => "i8",
            Value::U16(_) => "u16",
            Value::I16(_) => "i16",
            Value::U32(_) => "u32",
            Value::I32(_) => "i32",
            Value::F32(_) => "f32",
            Value::Bool(_) => "bool",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::U64(_) => "u64",
            Value::I64(_) => "i64",
            Value::F64(_) => "f64",
        }
    }
}

/// One tensor's description from the header.
#[derive(Debug, Clone, PartialEq)]
pub struct TensorInfo {
    pub name: String,
    /// ggml order: `dims[0]` is the innermost (contiguous) dimension, the row length.
    pub dims: Vec<u64>,
    pub ggml_type: GgmlType,
    /// Offset from the start of the data section.
    pub offset: u64,
    pub n_bytes: u64,
}

impl TensorInfo {
    pub fn n_elements(&self) -> u64 {
        self.dims.iter().product()
    }
}

/// A parsed GGUF header.
#[derive(Debug, Clone)]
pub struct GgufFile {
    pub name: String,
    pub version: u32,
    pub metadata: BTreeMap<String, Value>,
    pub tensors: Vec<TensorInfo>,
    /// Absolute file offset of the data section.
    pub data_offset: u64,
    pub file_len: u64,
}

impl GgufFile {
    /// Reads the header from `source`, fetching only as many bytes as the header needs.
    pub async fn read<S: ByteSource>(source: &S) -> Result<GgufFile> {
        let file_len = source.len();
        let mut prefix_len = file_len.min(1 << 20);
        loop {
            let prefix = source.read_at(0, prefix_len as usize).await?;
            match parse_header(&prefix, file_len) {
                Ok(mut header) => {
                    header.name = source.name().to_string();
                    return Ok(header);
                }
                Err(ParseError::Truncated) if prefix_len < file_len => {
                    prefix_len = (prefix_len * 4).min(file_len);
                }
                Err(ParseError::Truncated) => {
                    return Err(Error::new(format!("{}: the file ends inside the GGUF header", source.name())))
                }
                Err(ParseError::Invalid(message)) => return Err(Error::new(format!("{}: {message}", source.name()))),
            }
        }
    }

    /// Parses a header held entirely in `bytes` (the whole file, or at least its header).
    pub fn parse(name: &str, bytes: &[u8]) -> Result<GgufFile> {
        match parse_header(bytes, bytes.len() as u64) {
            Ok(mut header) => {
                header.name = name.to_string();
                Ok(header)
            }
            Err(ParseError::Truncated) => Err(Error::new(format!("{name}: the file ends inside the GGUF header"))),
            Err(ParseError::Invalid(message)) => Err(Error::new(format!("{name}: {message}"))),
        }
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.metadata.get(key)
    }

    /// The metadata value, or an error naming the missing key.
    pub fn require(&self, key: &str) -> Result<&Value> {
        self.metadata.get(key).ok_or_else(|| Error::new(format!("{}: metadata key {key} is missing", self.name)))
    }

    pub fn get_str(&self, key: &str) -> Result<Option<&str>> {
        self.typed(key, Value::as_str, "a string")
    }

    pub fn get_u64(&self, key: &str) -> Result<Option<u64>> {
        self.typed(key, Value::to_u64, "an unsigned integer")
    }

    pub fn get_f64(&self, key: &str) -> Result<Option<f64>> {
        self.typed(key, Value::to_f64, "a number")
    }

    pub fn get_bool(&self, key: &str) -> Result<Option<bool>> {
        self.typed(key, Value::as_bool, "a bool")
    }

    /// An array of strings (e.g. `tokenizer.ggml.tokens`).
    pub fn get_string_array(&self, key: &str) -> Result<Option<Vec<&str>>> {
        let Some(items) = self.typed(key, Value::as_array, "an array")? else { return Ok(None) };
        items
            .iter()
            .enumerate()
            .map(|(i, v)| v.as_str().ok_or_else(|| self.wrong_type(&format!("{key}[{i}]"), v, "a string")))
            .collect::<Result<Vec<_>>>()
            .map(Some)
    }

    /// An array of numbers (e.g. `tokenizer.ggml.scores`, `tokenizer.ggml.token_type`).
    pub fn get_f64_array(&self, key: &str) -> Result<Option<Vec<f64>>> {
        let Some(items) = self.typed(key, Value::as_array, "an array")? else { return Ok(None) };
        items
            .iter()
            .enumerate()
            .map(|(i, v)| v.to_f64().ok_or_else(|| self.wrong_type(&format!("{key}[{i}]"), v, "a number")))
            .collect::<Result<Vec<_>>>()
            .map(Some)
    }

    fn typed<'a, T>(&'a self, key: &str, read: impl Fn(&'a Value) -> Option<T>, expected: &str) -> Result<Option<T>> {
        match self.metadata.get(key) {
            None => Ok(None),
            Some(value) => read(value).map(Some).ok_or_else(|| self.wrong_type(key, value, expected)),
        }
    }

    fn wrong_type(&self, key: &str, value: &Value, expected: &str) -> Error {
        Error::new(format!("{}: metadata {key} is {}, expected {expected}", self.name, value.type_name()))
    }

    pub fn tensor(&self, name: &str) -> Option<&TensorInfo> {
        self.tensors.iter().find(|t| t.name == name)
    }

    /// The raw bytes of one tensor.
    pub async fn read_tensor_bytes<S: ByteSource>(&self, source: &S, tensor: &TensorInfo) -> Result<Vec<u8>> {
        let len = usize::try_from(tensor.n_bytes)
            .map_err(|_| Error::new(format!("{}: tensor {} is too large for this platform", self.name, tensor.name)))?;
        source.read_at(self.data_offset + tensor.offset, len).await
    }
}

enum ParseError {
    /// The bytes end before the header does: read more.
    Truncated,
    Invalid(String),
}

impl From<String> for ParseError {
    fn from(message: String) -> Self {
        ParseError::Invalid(message)
    }
}

/// A cursor over the header bytes. `file_len` is the real file length, used to reject counts and
/// lengths that could not fit in the file at all (as opposed to merely in the prefix read so far).
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    file_len: u64,
    /// Metadata values read so far, against `MAX_METADATA_VALUES`.
    values: u64,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], ParseError> {
        let end = self.pos.checked_add(n).ok_or(ParseError::Truncated)?;
        if end > self.bytes.len() {
            return Err(ParseError::Truncated);
        }
        let slice = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], ParseError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, ParseError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Result<u64, ParseError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    fn remaining_in_file(&self) -> u64 {
        self.file_len.saturating_sub(self.pos as u64)
    }

    /// A count of items each at least `min_size` bytes long, checked against the file's length.
    fn count(&mut self, what: &str, min_size: u64) -> Result<usize, ParseError> {
        let n = self.u64()?;
        if n.saturating_mul(min_size.max(1)) > self.remaining_in_file() {
            return Err(format!(
                "{what} is {n}, more than the {} bytes left in the file could hold",
                self.remaining_in_file()
            )
            .into());
        }
        usize::try_from(n).map_err(|_| ParseError::Invalid(format!("{what} {n} is too large")))
    }

    fn string(&mut self, what: &str) -> Result<String, ParseError> {
        let len = self.count(&format!("length of {what}"), 1)?;
        let bytes = self.take(len)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| format!("{what} is not valid UTF-8").into())
    }

    fn value(&mut self, value_type: u32, key: &str, depth: usize) -> Result<Value, ParseError> {
        Ok(match value_type {
            0 => Value::U8(self.array::<1>()?[0]),
            1 => Value::I8(self.array::<1>()?[0] as i8),
            2 => Value::U16(u16::from_le_bytes(self.array()?)),
            3 => Value::I16(i16::from_le_bytes(self.array()?)),
            4 => Value::U32(self.u32()?),
            5 => Value::I32(i32::from_le_bytes(self.array()?)),
            6 => Value::F32(f32::from_le_bytes(self.array()?)),
            7 => match self.array::<1>()?[0] {
                0 => Value::Bool(false),
                1 => Value::Bool(true),
                b => return Err(format!("metadata {key}: bool byte is {b}, expected 0 or 1").into()),
            },
            8 => Value::String(self.string(&format!("metadata {key}"))?),
            9 => {
                if depth >= MAX_ARRAY_DEPTH {
                    return Err(format!("metadata {key}: arrays nested deeper than {MAX_ARRAY_DEPTH}").into());
                }
                let item_type = self.u32()?;
                let min_size = match item_type {
                    0 | 1 | 7 => 1,
                    2 | 3 => 2,
                    4..=6 => 4,
                    8..=12 => 8,
                    t => return Err(format!("metadata {key}: unknown array item type {t}").into()),
                };
                let n = self.count(&format!("metadata {key}: array length"), min_size)?;
                if n as u64 > MAX_ARRAY_LEN {
                    return Err(format!("metadata {key}: an array of {n} items; lingualens reads at most {MAX_ARRAY_LEN} (a real vocabulary has under 300,000)").into());
                }
                self.values += n as u64;
                if self.values > MAX_METADATA_VALUES {
                    return Err(format!("metadata {key}: the header holds more than {MAX_METADATA_VALUES} values in all; lingualens reads at most that many").into());
                }
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(self.value(item_type, key, depth + 1)?);
                }
                Value::Array(items)
            }
            10 => Value::U64(self.u64()?),
            11 => Value::I64(i64::from_le_bytes(self.array()?)),
            12 => Value::F64(f64::from_le_bytes(self.array()?)),
            t => return Err(format!("metadata {key}: unknown value type {t}").into()),
        })
    }
}

fn parse_header(bytes: &[u8], file_len: u64) -> Result<GgufFile, ParseError> {
    let mut r = Reader { bytes, pos: 0, file_len, values: 0 };
    if r.take(4)? != MAGIC {
        return Err("not a GGUF file (the first four bytes are not \"GGUF\")".to_string().into());
    }
    let version = r.u32()?;
    if !(2..=3).contains(&version) {
        return Err(format!("GGUF version {version} is not supported (only 2 and 3)").into());
    }
    // A tensor info takes at least 8 (name length) + 4 (n_dims) + 4 (type) + 8 (offset) bytes;
    // a metadata pair at least 8 (key length) + 4 (type) + 1.
    let tensor_count = r.count("tensor count", 24)?;
    let kv_count = r.count("metadata count", 13)?;

    let mut metadata = BTreeMap::new();
    for i in 0..kv_count {
        let key = r.string(&format!("metadata key #{i}"))?;
        let value_type = r.u32()?;
        let value = r.value(value_type, &key, 0)?;
        // llama.cpp's reader refuses a key given twice: which one a reader keeps is not defined.
        if metadata.insert(key.clone(), value).is_some() {
            return Err(format!("metadata key {key} appears twice").into());
        }
    }

    let alignment = match metadata.get("general.alignment") {
        None => DEFAULT_ALIGNMENT,
        Some(v) => match v.to_u64() {
            Some(a) if a > 0 && a.is_power_of_two() => a,
            _ => return Err(format!("general.alignment must be a power of two, got {v:?}").into()),
        },
    };

    let mut tensors: Vec<TensorInfo> = Vec::with_capacity(tensor_count);
    let mut names = std::collections::HashSet::with_capacity(tensor_count);
    // llama.cpp's rule: tensor data is laid out in the order of the tensor infos, each one
    // starting where the one before ended (padded to the alignment): no gaps, overlaps or aliases.
    let mut expected_offset = 0u64;
    for i in 0..tensor_count {
        let name = r.string(&format!("name of tensor #{i}"))?;
        if name.len() > MAX_TENSOR_NAME {
            return Err(
                format!("tensor #{i}: its name is {} bytes long (at most {MAX_TENSOR_NAME})", name.len()).into()
            );
        }
        if !names.insert(name.clone()) {
            return Err(format!("tensor {name} appears twice").into());
        }
        let n_dims = r.u32()?;
        if n_dims == 0 || n_dims > MAX_DIMS {
            return Err(format!("tensor {name}: {n_dims} dimensions (expected 1 to {MAX_DIMS})").into());
        }
        let mut dims = Vec::with_capacity(n_dims as usize);
        for _ in 0..n_dims {
            dims.push(r.u64()?);
        }
        let type_id = r.u32()?;
        let offset = r.u64()?;
        let ggml_type =
            GgmlType::from_id(type_id).ok_or_else(|| format!("tensor {name}: unknown ggml type id {type_id}"))?;
        let n_elements = dims
            .iter()
            .try_fold(1u64, |acc, &d| acc.checked_mul(d))
            .ok_or_else(|| format!("tensor {name}: dimensions {dims:?} overflow"))?;
        if dims[0] % ggml_type.block_layout().0 as u64 != 0 {
            return Err(format!(
                "tensor {name}: row length {} is not a multiple of the {ggml_type:?} block size {}",
                dims[0],
                ggml_type.block_layout().0
            )
            .into());
        }
        let n_bytes = ggml_type
            .bytes_for(n_elements)
            .ok_or_else(|| format!("tensor {name}: size does not fit {ggml_type:?} blocks"))?;
        if offset % alignment != 0 {
            return Err(format!("tensor {name}: offset {offset} is not aligned to {alignment}").into());
        }
        if offset != expected_offset {
            return Err(format!(
                "tensor {name}: its data is at offset {offset}, expected {expected_offset} (right after the tensor before it); \
                 tensors must not overlap or leave gaps"
            )
            .into());
        }
        expected_offset = n_bytes
            .checked_next_multiple_of(alignment)
            .and_then(|padded| offset.checked_add(padded))
            .ok_or_else(|| format!("tensor {name}: offset {offset} plus {n_bytes} bytes overflows"))?;
        tensors.push(TensorInfo { name, dims, ggml_type, offset, n_bytes });
    }

    let data_offset = (r.pos as u64).div_ceil(alignment) * alignment;
    for t in &tensors {
        let end = data_offset.checked_add(t.offset).and_then(|s| s.checked_add(t.n_bytes));
        if end.is_none_or(|end| end > file_len) {
            return Err(format!(
                "tensor {}: its {} bytes at offset {} run past the end of the file ({file_len} bytes); is the file truncated?",
                t.name, t.n_bytes, t.offset
            )
            .into());
        }
    }
    Ok(GgufFile { name: String::new(), version, metadata, tensors, data_offset, file_len })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::source::MemorySource;

    /// A tiny GGUF writer for tests: header fields are written by hand, as the spec lays them out.
    struct Builder {
        kv: Vec<u8>,
        n_kv: u64,
        infos: Vec<u8>,
        n_tensors: u64,
        data: Vec<u8>,
    }

    #[test]
    fn a_metadata_array_longer_than_the_cap_is_refused_before_anything_is_allocated() {
        // 2^27 one-byte items, in a file long enough to hold them: the length check alone passes,
        // and each item would become a 32-byte `Value` (4 GB at once).
        let n: u64 = 1 << 27;
        let mut value = 0u32.to_le_bytes().to_vec();
        value.extend(n.to_le_bytes());
        let header = Builder::new().kv("general.hostile", 9, &value).build();
        let started = web_time::Instant::now();
        let err = match parse_header(&header, n + header.len() as u64) {
            Err(ParseError::Invalid(message)) => message,
            Err(ParseError::Truncated) => panic!("expected a refusal, the header was read as truncated"),
            Ok(_) => panic!("expected a refusal, the header was accepted"),
        };
        assert!(err.contains("general.hostile") && err.contains(&MAX_ARRAY_LEN.to_string()), "{err}");
        assert!(started.elapsed().as_secs_f64() < 1.0);
        // At the cap itself the array is read.
        let mut value = 0u32.to_le_bytes().to_vec();
        value.extend(MAX_ARRAY_LEN.to_le_bytes());
        value.extend(vec![1u8; MAX_ARRAY_LEN as usize]);
        let header = Builder::new().kv("general.long", 9, &value).build();
        let file = parse_header(&header, header.len() as u64).map_err(|_| "parse").unwrap();
        assert!(
            matches!(file.metadata.get("general.long"), Some(Value::Array(items)) if items.len() == MAX_ARRAY_LEN as usize)
        );
    }

    fn string(s: &str) -> Vec<u8> {
        let mut out = (s.len() as u64).to_le_bytes().to_vec();
        out.extend_from_slice(s.as_bytes());
        out
    }

    impl Builder {
        fn new() -> Self {
            Builder { kv: vec![], n_kv: 0, infos: vec![], n_tensors: 0, data: vec![] }
        }
        fn kv(mut self, key: &str, value_type: u32, value: &[u8]) -> Self {
            self.kv.extend(string(key));
            self.kv.extend(value_type.to_le_bytes());
            self.kv.extend_from_slice(value);
            self.n_kv += 1;
            self
        }
        fn f32_tensor(mut self, name: &str, dims: &[u64], values: &[f32]) -> Self {
            self.infos.extend(string(name));
            self.infos.extend((dims.len() as u32).to_le_bytes());
            for d in dims {
                self.infos.extend(d.to_le_bytes());
            }
            self.infos.extend(0u32.to_le_bytes());
            self.infos.extend((self.data.len() as u64).to_le_bytes());
            for v in values {
                self.data.extend(v.to_le_bytes());
            }
            while !self.data.len().is_multiple_of(32) {
                self.data.push(0);
            }
            self.n_tensors += 1;
            self
        }
        fn build(self) -> Vec<u8> {
            let mut out = b"GGUF".to_vec();
            out.extend(3u32.to_le_bytes());
            out.extend(self.n_tensors.to_le_bytes());
            out.extend(self.n_kv.to_le_bytes());
            out.extend(self.kv);
            out.extend(self.infos);
            while !out.len().is_multiple_of(32) {
                out.push(0);
            }
            out.extend(self.data);
            out
        }
    }

    fn header(tensor_count: u64, kv_count: u64) -> Vec<u8> {
        let mut out = b"GGUF".to_vec();
        out.extend(3u32.to_le_bytes());
        out.extend(tensor_count.to_le_bytes());
        out.extend(kv_count.to_le_bytes());
        out
    }

    fn rejects(bytes: &[u8], needle: &str) {
        match GgufFile::parse("t.gguf", bytes) {
            Ok(_) => panic!("accepted a bad file; expected an error about {needle}"),
            Err(e) => assert!(e.message().contains(needle), "error {:?} does not mention {needle:?}", e.message()),
        }
    }

    #[test]
    fn reads_metadata_and_tensors() {
        let mut array = 8u32.to_le_bytes().to_vec();
        array.extend(2u64.to_le_bytes());
        array.extend(string("a"));
        array.extend(string("bc"));
        let bytes = Builder::new()
            .kv("general.architecture", 8, &string("llama"))
            .kv("llama.block_count", 4, &3u32.to_le_bytes())
            .kv("tokenizer.ggml.tokens", 9, &array)
            .f32_tensor("w", &[2, 3], &[1., 2., 3., 4., 5., 6.])
            .build();
        let file = GgufFile::parse("t.gguf", &bytes).unwrap();
        assert_eq!(file.version, 3);
        assert_eq!(file.get_str("general.architecture").unwrap(), Some("llama"));
        assert_eq!(file.get_u64("llama.block_count").unwrap(), Some(3));
        assert_eq!(file.get_string_array("tokenizer.ggml.tokens").unwrap(), Some(vec!["a", "bc"]));
        let w = file.tensor("w").unwrap();
        assert_eq!((w.dims.clone(), w.ggml_type, w.n_bytes), (vec![2, 3], GgmlType::F32, 24));
        let source = MemorySource::new("t.gguf", bytes);
        let raw = pollster::block_on(file.read_tensor_bytes(&source, w)).unwrap();
        assert_eq!(f32::from_le_bytes(raw[20..24].try_into().unwrap()), 6.0);
    }

    #[test]
    fn header_is_read_through_a_growing_prefix() {
        // A header bigger than the first 1 MiB read.
        let mut array = 8u32.to_le_bytes().to_vec();
        array.extend(200_000u64.to_le_bytes());
        for i in 0..200_000 {
            array.extend(string(&format!("tok{i}")));
        }
        let bytes = Builder::new().kv("tokenizer.ggml.tokens", 9, &array).f32_tensor("w", &[1], &[7.0]).build();
        assert!(bytes.len() > 2 << 20);
        let file = pollster::block_on(GgufFile::read(&MemorySource::new("big.gguf", bytes))).unwrap();
        assert_eq!(file.get_string_array("tokenizer.ggml.tokens").unwrap().unwrap()[199_999], "tok199999");
    }

    #[test]
    fn wrong_value_types_are_named() {
        let bytes = Builder::new().kv("llama.block_count", 8, &string("three")).build();
        let file = GgufFile::parse("t.gguf", &bytes).unwrap();
        let error = file.get_u64("llama.block_count").unwrap_err();
        assert!(error.message().contains("llama.block_count is string"), "{error}");
    }

    #[test]
    fn rejects_bad_magic_and_version() {
        rejects(b"GGML\x03\0\0\0", "not a GGUF file");
        let mut v1 = header(0, 0);
        v1[4] = 1;
        rejects(&v1, "version 1");
    }

    #[test]
    fn rejects_counts_larger_than_the_file() {
        rejects(&header(1 << 40, 0), "tensor count");
        rejects(&header(0, 1u64 << 31), "metadata count");
        let mut huge_string = header(0, 1);
        huge_string.extend((1u64 << 40).to_le_bytes());
        huge_string.extend([0u8; 64]);
        rejects(&huge_string, "length of metadata key #0");
    }

    #[test]
    fn rejects_unknown_types_and_truncation() {
        let bytes = Builder::new().kv("x", 99, &[0]).build();
        rejects(&bytes, "metadata x: unknown value type 99");

        let mut bytes = Builder::new().f32_tensor("w", &[4], &[1., 2., 3., 4.]).build();
        // The tensor info is: name "w", n_dims = 1, dims = [4], then the type id.
        let mut info = string("w");
        info.extend(1u32.to_le_bytes());
        info.extend(4u64.to_le_bytes());
        let type_at = bytes.windows(info.len()).position(|w| w == info.as_slice()).unwrap() + info.len();
        bytes[type_at..type_at + 4].copy_from_slice(&77u32.to_le_bytes());
        rejects(&bytes, "tensor w: unknown ggml type id 77");

        let full = Builder::new().f32_tensor("w", &[16], &[0.0; 16]).build();
        rejects(&full[..full.len() - 8], "run past the end");
        rejects(&full[..10], "ends inside the GGUF header");
    }

    #[test]
    fn rejects_partial_blocks() {
        let mut infos = string("q");
        infos.extend(1u32.to_le_bytes());
        infos.extend(33u64.to_le_bytes());
        infos.extend(8u32.to_le_bytes()); // Q8_0: 32 weights per block
        infos.extend(0u64.to_le_bytes());
        let mut bytes = header(1, 0);
        bytes.extend(infos);
        bytes.resize(bytes.len() + 200, 0);
        rejects(&bytes, "not a multiple of the Q8_0 block size 32");
    }

    #[test]
    fn reads_the_llama_cpp_vocab_files() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets/llama-cpp-vocab/models");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            eprintln!("SKIPPED reads_the_llama_cpp_vocab_files: {} is not here", dir.display());
            return;
        };
        let mut read = 0;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()) != Some("gguf") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let file = GgufFile::parse(&path.display().to_string(), &bytes).unwrap();
            let tokens = file.get_string_array("tokenizer.ggml.tokens").unwrap().expect("tokens");
            assert!(tokens.len() > 30_000, "{}", path.display());
            assert!(file.get_str("tokenizer.ggml.model").unwrap().is_some());
            read += 1;
        }
        assert!(read >= 10, "expected the vocab GGUFs, read {read}");
    }
}
