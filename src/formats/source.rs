//! Where model bytes come from. Everything that reads a model file goes through [`ByteSource`],
//! which only knows how to read a range: a native file, a browser `Blob`, an HTTP response, or,
//! in tests, a byte vector.

use std::future::Future;

use crate::error::{Error, Result};

/// The file name at the end of `path` (a native path, or a picked folder's relative path), after
/// the last `/` or `\`.
pub fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

pub trait ByteSource {
    /// A name for messages: the file name or URL.
    fn name(&self) -> &str;
    /// Total length in bytes.
    fn len(&self) -> u64;
    /// Exactly `len` bytes starting at `offset`; an error if the range runs past the end.
    fn read_at(&self, offset: u64, len: usize) -> impl Future<Output = Result<Vec<u8>>>;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The end of a read of `len` bytes at `offset` from `name` of `total` bytes, or the error every
/// source gives when it runs past the end.
fn range_end(name: &str, offset: u64, len: usize, total: u64) -> Result<u64> {
    offset
        .checked_add(len as u64)
        .filter(|&end| end <= total)
        .ok_or_else(|| Error::new(format!("{name}: read of {len} bytes at {offset} runs past the end ({total} bytes)")))
}

/// Bytes in memory: small fixtures and tests.
pub struct MemorySource {
    name: String,
    bytes: Vec<u8>,
}

impl MemorySource {
    pub fn new(name: impl Into<String>, bytes: Vec<u8>) -> Self {
        MemorySource { name: name.into(), bytes }
    }
}

impl ByteSource for MemorySource {
    fn name(&self) -> &str {
        &self.name
    }

    fn len(&self) -> u64 {
        self.bytes.len() as u64
    }

    async fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        let end = range_end(&self.name, offset, len, self.bytes.len() as u64)?;
        Ok(self.bytes[offset as usize..end as usize].to_vec())
    }
}

/// An HTTP `Content-Range` header of a 206 answer, `bytes <first>-<last>/<total or *>`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContentRange {
    pub first: u64,
    /// Inclusive, as in the header.
    pub last: u64,
    pub total: Option<u64>,
}

impl ContentRange {
    /// `None` for anything but a well-formed range with `first <= last < total`.
    pub fn parse(header: &str) -> Option<ContentRange> {
        let (range, total) = header.trim().strip_prefix("bytes ")?.split_once('/')?;
        let (first, last) = range.split_once('-')?;
        let number = |s: &str| -> Option<u64> {
            let s = s.trim();
            (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok()).flatten()
        };
        let (first, last) = (number(first)?, number(last)?);
        let total = match total.trim() {
            "*" => None,
            t => Some(number(t)?),
        };
        (first <= last && total.is_none_or(|t| last < t)).then_some(ContentRange { first, last, total })
    }
}

/// How large a file of each kind may be before it is refused unread. Far above any real file of
/// its kind, far below what would exhaust memory: a task file, or a hostile /dev/zero named as
/// one, is not read whole without a bound.
pub mod limits {
    /// Task YAML, `include:`d files, override sidecars, config.json, tokenizer_config.json, a
    /// safetensors index.
    pub const TEXT_FILE: u64 = 16 << 20;
    /// tokenizer.json (Gemma 3's is 33 MB).
    pub const TOKENIZER_FILE: u64 = 256 << 20;
    /// A data file: CSV, JSON, JSONL, Parquet.
    pub const DATA_FILE: u64 = 2 << 30;
}

/// The whole of a file, refused with a message naming it if it holds more than `max` bytes
/// (`what` says what it was read as: "task file", "data file", …). Reads at most `max + 1`
/// bytes, so a special file that never ends is refused too.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_capped(path: &std::path::Path, max: u64, what: &str) -> Result<Vec<u8>> {
    use std::io::Read;
    let too_large = |n: u64| {
        Error::new(format!("{}: a {what} of {n} bytes or more; lingualens reads at most {max}", path.display()))
    };
    let len = regular_file_len(path, what)?;
    if len > max {
        return Err(too_large(len));
    }
    let file = std::fs::File::open(path).map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
    if bytes.len() as u64 > max {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The length of a regular file; a folder, a device or a pipe (which could block an open or never
/// end) is refused by name before it is opened.
#[cfg(not(target_arch = "wasm32"))]
fn regular_file_len(path: &std::path::Path, what: &str) -> Result<u64> {
    let meta = std::fs::metadata(path).map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
    if meta.is_dir() {
        return Err(Error::new(format!("{}: a folder, expected a {what}", path.display())));
    }
    if !meta.is_file() {
        return Err(Error::new(format!(
            "{}: not a regular file (a device or a pipe), expected a {what}",
            path.display()
        )));
    }
    Ok(meta.len())
}

/// [`read_capped`] as UTF-8 text.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_text_capped(path: &std::path::Path, max: u64, what: &str) -> Result<String> {
    String::from_utf8(read_capped(path, max, what)?)
        .map_err(|_| Error::new(format!("{}: not UTF-8 text", path.display())))
}

/// [`read_text_capped`] of a file that may be absent (`tokenizer_config.json`, an `include:`):
/// `None` when there is nothing at `path`.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_optional_text_capped(path: &std::path::Path, max: u64, what: &str) -> Result<Option<String>> {
    if !path.exists() {
        return Ok(None);
    }
    read_text_capped(path, max, what).map(Some)
}

/// A file on disk, read with positioned reads (no seek state, so one handle serves any order).
#[cfg(not(target_arch = "wasm32"))]
pub struct FileSource {
    name: String,
    file: std::fs::File,
    len: u64,
}

#[cfg(not(target_arch = "wasm32"))]
impl FileSource {
    pub fn open(path: impl AsRef<std::path::Path>) -> Result<Self> {
        let path = path.as_ref();
        let name = path.display().to_string();
        regular_file_len(path, "model file")?;
        let file = std::fs::File::open(path).map_err(|e| Error::new(format!("{name}: {e}")))?;
        let len = file.metadata().map_err(|e| Error::new(format!("{name}: {e}")))?.len();
        Ok(FileSource { name, file, len })
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl ByteSource for FileSource {
    fn name(&self) -> &str {
        &self.name
    }

    fn len(&self) -> u64 {
        self.len
    }

    async fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        use std::os::unix::fs::FileExt;
        range_end(&self.name, offset, len, self.len)?;
        let mut buffer = vec![0u8; len];
        self.file
            .read_exact_at(&mut buffer, offset)
            .map_err(|e| Error::new(format!("{}: reading {len} bytes at {offset}: {e}", self.name)))?;
        Ok(buffer)
    }
}

/// A browser `Blob` (a picked or dropped `File`, or a downloaded response), read by slices so
/// the file is never copied into wasm memory whole.
#[cfg(target_arch = "wasm32")]
#[derive(Clone)]
pub struct BlobSource {
    name: String,
    blob: web_sys::Blob,
}

#[cfg(target_arch = "wasm32")]
impl BlobSource {
    pub fn new(name: impl Into<String>, blob: web_sys::Blob) -> Self {
        BlobSource { name: name.into(), blob }
    }

    /// Downloads `url` into a Blob (the browser keeps large blobs on disk, not in wasm memory).
    pub async fn fetch(url: &str) -> Result<Self> {
        use wasm_bindgen::JsCast;
        use wasm_bindgen_futures::JsFuture;
        let scope: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
        let failed = |what: &str, e: wasm_bindgen::JsValue| Error::new(format!("{url}: {what}: {e:?}"));
        let response: web_sys::Response =
            JsFuture::from(scope.fetch_with_str(url)).await.map_err(|e| failed("download failed", e))?.unchecked_into();
        if !response.ok() {
            return Err(Error::new(format!(
                "{url}: the server answered {} {}",
                response.status(),
                response.status_text()
            )));
        }
        let blob = JsFuture::from(response.blob().map_err(|e| failed("cannot read the response", e))?)
            .await
            .map_err(|e| failed("cannot read the response", e))?;
        Ok(BlobSource::new(url, blob.unchecked_into()))
    }
}

#[cfg(target_arch = "wasm32")]
impl ByteSource for BlobSource {
    fn name(&self) -> &str {
        &self.name
    }

    fn len(&self) -> u64 {
        self.blob.size() as u64
    }

    async fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        use wasm_bindgen_futures::JsFuture;
        let end = range_end(&self.name, offset, len, self.len())?;
        let slice = self
            .blob
            .slice_with_f64_and_f64(offset as f64, end as f64)
            .map_err(|e| Error::new(format!("{}: cannot slice: {e:?}", self.name)))?;
        let buffer = JsFuture::from(slice.array_buffer())
            .await
            .map_err(|e| Error::new(format!("{}: reading {len} bytes at {offset}: {e:?}", self.name)))?;
        Ok(js_sys::Uint8Array::new(&buffer).to_vec())
    }
}

/// The start of a file at a URL, fetched by HTTP `Range` requests that grow with what is read:
/// enough to parse a GGUF header (`GgufFile::read` asks for a growing prefix) without downloading
/// the model. A server that ignores `Range` answers with the whole file; then only the bytes
/// needed are read from the stream and the rest of the response is cancelled.
#[cfg(target_arch = "wasm32")]
pub struct UrlPrefixSource {
    url: String,
    len: u64,
    prefix: std::cell::RefCell<Vec<u8>>,
}

#[cfg(target_arch = "wasm32")]
impl UrlPrefixSource {
    /// Reads the first 64 KiB to learn the file's length (`Content-Range`, else `Content-Length`
    /// of a whole-file answer, else `size`, the catalog's).
    pub async fn open(url: &str, size: Option<u64>) -> Result<Self> {
        let (bytes, total) = fetch_range(url, 0, 64 << 10).await?;
        let len = total.or(size).ok_or_else(|| {
            Error::new(format!(
                "{url}: the server does not say how long the file is (no readable Content-Range or Content-Length)"
            ))
        })?;
        if (bytes.len() as u64) < len.min(64 << 10) {
            return Err(Error::new(format!(
                "{url}: the server sent {} bytes of the first {} asked for",
                bytes.len(),
                len.min(64 << 10)
            )));
        }
        Ok(UrlPrefixSource { url: url.to_string(), len, prefix: std::cell::RefCell::new(bytes) })
    }
}

#[cfg(target_arch = "wasm32")]
impl ByteSource for UrlPrefixSource {
    fn name(&self) -> &str {
        &self.url
    }

    fn len(&self) -> u64 {
        self.len
    }

    async fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>> {
        let end = range_end(&self.url, offset, len, self.len)?;
        let have = self.prefix.borrow().len() as u64;
        if end > have {
            // At least double what is held, so a header read in small steps costs few requests.
            let want = end.max(2 * have).min(self.len);
            let (more, _) = fetch_range(&self.url, have, want).await?;
            if (more.len() as u64) < want - have {
                return Err(Error::new(format!(
                    "{}: the server sent {} bytes of the {} asked for at {have}",
                    self.url,
                    more.len(),
                    want - have
                )));
            }
            self.prefix.borrow_mut().extend_from_slice(&more[..(want - have) as usize]);
        }
        Ok(self.prefix.borrow()[offset as usize..end as usize].to_vec())
    }
}

/// Bytes `start..end` of `url` and the file's whole length if the server says.
#[cfg(target_arch = "wasm32")]
async fn fetch_range(url: &str, start: u64, end: u64) -> Result<(Vec<u8>, Option<u64>)> {
    use js_sys::{Reflect, Uint8Array};
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let failed = |what: &str, e: wasm_bindgen::JsValue| {
        Error::new(format!("{url}: {what}: {}", e.as_string().unwrap_or_else(|| format!("{e:?}"))))
    };
    let scope: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
    let request = web_sys::Request::new_with_str(url).map_err(|e| failed("bad URL", e))?;
    request.headers().set("Range", &format!("bytes={start}-{}", end - 1)).map_err(|e| failed("cannot set Range", e))?;
    let response: web_sys::Response = JsFuture::from(scope.fetch_with_request(&request))
        .await
        .map_err(|e| failed("cannot be fetched", e))?
        .unchecked_into();
    if !response.ok() {
        return Err(Error::new(format!("{url}: the server answered {} {}", response.status(), response.status_text())));
    }
    let header = |name: &str| response.headers().get(name).ok().flatten();
    if response.status() == 206 {
        let range = header("content-range").unwrap_or_default();
        let total = match ContentRange::parse(&range) {
            Some(r) if r.first == start => r.total,
            _ => {
                return Err(Error::new(format!(
                    "{url}: asked for bytes from {start}, the server sent Content-Range {range:?}"
                )))
            }
        };
        let buffer = JsFuture::from(response.array_buffer().map_err(|e| failed("no body", e))?)
            .await
            .map_err(|e| failed("reading", e))?;
        return Ok((Uint8Array::new(&buffer).to_vec(), total));
    }
    // A whole-file answer: read up to `end`, keep `start..end`, cancel the rest.
    let total = header("content-length").and_then(|l| l.parse().ok());
    let body = response.body().ok_or_else(|| Error::new(format!("{url}: the response has no body")))?;
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut bytes = Vec::new();
    let mut at = 0u64;
    while at < end {
        let step = JsFuture::from(reader.read()).await.map_err(|e| failed("reading", e))?;
        if Reflect::get(&step, &"done".into()).ok().and_then(|d| d.as_bool()) == Some(true) {
            break;
        }
        let chunk: Uint8Array =
            Reflect::get(&step, &"value".into()).map_err(|e| failed("reading", e))?.unchecked_into();
        let chunk = chunk.to_vec();
        let from = start.saturating_sub(at).min(chunk.len() as u64) as usize;
        let to = (end - at).min(chunk.len() as u64) as usize;
        if from < to {
            bytes.extend_from_slice(&chunk[from..to]);
        }
        at += chunk.len() as u64;
    }
    let _ = reader.cancel();
    Ok((bytes, total))
}

#[cfg(test)]
mod content_range_tests {
    use super::ContentRange;

    #[test]
    fn content_range_is_parsed_strictly() {
        assert_eq!(
            ContentRange::parse("bytes 0-65535/829376"),
            Some(ContentRange { first: 0, last: 65535, total: Some(829376) })
        );
        assert_eq!(ContentRange::parse("bytes 100-199/*"), Some(ContentRange { first: 100, last: 199, total: None }));
        for bad in [
            "",
            "bytes */829376",
            "bytes 5-4/10",
            "bytes 0-10/10",
            "bytes -1-3/10",
            "items 0-1/2",
            "bytes 0-1",
            "bytes 0x1-2/3",
            "bytes 1-2/+3",
        ] {
            assert_eq!(ContentRange::parse(bad), None, "{bad:?}");
        }
    }
}
