//! Downloads for the command line: a catalogue file fetched once into the cache
//! (`$LINGUALENS_CACHE/downloads`), checked against its size and sha256, and never used
//! half-downloaded (it is written to `.part` and renamed only when it checks).
//!
//! Sources can be redirected: `LINGUALENS_MIRROR=URL` fetches `https://HOST/PATH` as
//! `URL/HOST/PATH` (`catalog::mirrored`), and the Hub's own `HF_ENDPOINT` replaces
//! `https://huggingface.co`. No other host than the URL's (or the mirror) is ever contacted.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::catalog::{file_name_of, mirrored, on_hf_endpoint};
use crate::scoring::outputs::hex;
use crate::{bail, Error, Result};

/// The cache folder of downloads (`$LINGUALENS_CACHE`, default `~/.cache/lingualens`).
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("LINGUALENS_CACHE").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(std::env::temp_dir);
    home.join(".cache").join("lingualens")
}

/// The URL a catalogue URL is fetched from, after `HF_ENDPOINT` and `LINGUALENS_MIRROR`.
pub fn effective_url(url: &str) -> String {
    let endpoint = std::env::var("HF_ENDPOINT").ok();
    let mirror = std::env::var("LINGUALENS_MIRROR").ok();
    mirrored(&on_hf_endpoint(url, endpoint.as_deref()), mirror.as_deref())
}

/// The file at `url` in the download cache, fetched if it is not there yet. `sha256` and `size`,
/// where known, are checked (also on a cached copy's size, and its hash once it is fetched);
/// a mismatch is an error naming the URL, and the bytes are not kept.
pub fn fetch_cached(url: &str, size: Option<u64>, sha256: Option<&str>) -> Result<PathBuf> {
    let name = file_name_of(url);
    if name.is_empty() || name == "." || name == ".." {
        bail!("{url}: the URL names no file");
    }
    // Keyed by the expected hash where there is one (the same file from another URL is the same
    // file), else by the URL.
    let key = match sha256 {
        Some(h) => h.to_ascii_lowercase(),
        None => hex(&Sha256::digest(url.as_bytes()))[..32].to_string(),
    };
    let dir = cache_dir().join("downloads").join(key);
    let path = dir.join(&name);
    if path.is_file() {
        let have = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        if size.is_none_or(|s| s == have) {
            return Ok(path);
        }
        let _ = std::fs::remove_file(&path);
    }
    std::fs::create_dir_all(&dir).map_err(|e| Error::new(format!("{}: cannot be created: {e}", dir.display())))?;
    let from = effective_url(url);
    let part = dir.join(format!("{name}.part"));
    let digest = download(&from, &part, size).map_err(|e| {
        let _ = std::fs::remove_file(&part);
        e
    })?;
    if let Some(expected) = sha256 {
        if !digest.eq_ignore_ascii_case(expected) {
            let _ = std::fs::remove_file(&part);
            bail!("{url}: sha256 is {digest}, the catalogue says {expected}; the file was not kept (fetched from {from})");
        }
    }
    std::fs::rename(&part, &path).map_err(|e| Error::new(format!("{}: cannot be renamed: {e}", part.display())))?;
    Ok(path)
}

/// `url` written to `to`, with its sha256. A status other than 200, a body shorter or longer than
/// `size`, or a connection that drops are errors naming the URL.
fn download(url: &str, to: &Path, size: Option<u64>) -> Result<String> {
    eprintln!("fetching {url}");
    let response = ureq::get(url)
        .config()
        .http_status_as_error(false)
        .build()
        .call()
        .map_err(|e| Error::new(format!("{url}: cannot be fetched: {e}")))?;
    let status = response.status();
    if status.as_u16() != 200 {
        let hint = match status.as_u16() {
            404 => " (not found: the catalogue's URL or the mirror is wrong)",
            401 | 403 => " (refused: a gated or private file)",
            _ => "",
        };
        bail!("{url}: HTTP {status}{hint}");
    }
    let mut body = response.into_body();
    let mut reader = body.with_config().limit(u64::MAX).reader();
    let mut out = std::fs::File::create(to).map_err(|e| Error::new(format!("{}: cannot be written: {e}", to.display())))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    let mut loaded: u64 = 0;
    loop {
        let n = reader.read(&mut buffer).map_err(|e| Error::new(format!("{url}: the download stopped at {loaded} bytes: {e}")))?;
        if n == 0 {
            break;
        }
        loaded += n as u64;
        if size.is_some_and(|s| loaded > s) {
            bail!("{url}: more than the {} bytes the catalogue says; the file was not kept", size.unwrap_or(0));
        }
        hasher.update(&buffer[..n]);
        out.write_all(&buffer[..n]).map_err(|e| Error::new(format!("{}: cannot be written: {e}", to.display())))?;
    }
    out.flush().map_err(|e| Error::new(format!("{}: cannot be written: {e}", to.display())))?;
    if let Some(s) = size {
        if s != loaded {
            bail!("{url}: downloaded {loaded} bytes, the catalogue says {s}; the file was not kept");
        }
    }
    Ok(hex(&hasher.finalize()))
}

/// The sha256 and size of a local file, read 1 MiB at a time.
pub fn file_sha256(path: &Path) -> Result<(String, u64)> {
    let mut file = std::fs::File::open(path).map_err(|e| Error::new(format!("{}: cannot be opened: {e}", path.display())))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    let mut size = 0u64;
    loop {
        let n = file.read(&mut buffer).map_err(|e| Error::new(format!("{}: cannot be read: {e}", path.display())))?;
        if n == 0 {
            break;
        }
        size += n as u64;
        hasher.update(&buffer[..n]);
    }
    Ok((hex(&hasher.finalize()), size))
}
