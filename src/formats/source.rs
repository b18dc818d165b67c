//! Where model bytes come from. Everything that reads a model file goes through [`ByteSource`],
//! which only knows how to read a range: a native file, a browser `Blob`, an HTTP response, or,
//! in tests, a byte vector.

use std::future::Future;

use crate::error::{Error, Result};

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
        let start = usize::try_from(offset).map_err(|_| Error::new("offset too large"))?;
        let end = start.checked_add(len).filter(|&end| end <= self.bytes.len()).ok_or_else(|| {
            Error::new(format!("{}: read of {len} bytes at {offset} runs past the end ({} bytes)", self.name, self.bytes.len()))
        })?;
        Ok(self.bytes[start..end].to_vec())
    }
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
        if offset.checked_add(len as u64).is_none_or(|end| end > self.len) {
            return Err(Error::new(format!(
                "{}: read of {len} bytes at {offset} runs past the end ({} bytes)",
                self.name, self.len
            )));
        }
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
        let response: web_sys::Response = JsFuture::from(scope.fetch_with_str(url))
            .await
            .map_err(|e| failed("download failed", e))?
            .unchecked_into();
        if !response.ok() {
            return Err(Error::new(format!("{url}: the server answered {} {}", response.status(), response.status_text())));
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
        let end = offset + len as u64;
        if end > self.len() {
            return Err(Error::new(format!("{}: read of {len} bytes at {offset} runs past the end ({} bytes)", self.name, self.len())));
        }
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
