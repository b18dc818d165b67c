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
/// a mismatch is an error naming the URL, and the bytes are not kept. A download that stops
/// (a dropped connection, a server that goes away) keeps what arrived in `NAME.part`, and the
/// next call continues it with a `Range` request; it is renamed to its name only once it checks.
pub fn fetch_cached(url: &str, size: Option<u64>, sha256: Option<&str>) -> Result<PathBuf> {
    let name = file_name_of(url);
    if name.is_empty() || name == "." || name == ".." {
        bail!("{url}: the URL names no file");
    }
    let path = cached_path(url, sha256);
    if path.is_file() {
        let have = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        if size.is_none_or(|s| s == have) {
            return Ok(path);
        }
        let _ = std::fs::remove_file(&path);
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| Error::new(format!("{}: cannot be created: {e}", dir.display())))?;
    let from = effective_url(url);
    let part = dir.join(format!("{name}.part"));
    let digest = match download(&from, &part, size) {
        Ok(digest) => digest,
        Err(Stopped::KeepPart(e)) => {
            let kept = std::fs::metadata(&part).map(|m| m.len()).unwrap_or(0);
            let hint = if kept > 0 {
                format!("; the {kept} bytes that arrived are kept and the next try continues from there")
            } else {
                String::new()
            };
            return Err(Error::new(format!("{e}{hint}")));
        }
        Err(Stopped::Discard(e)) => {
            let _ = std::fs::remove_file(&part);
            return Err(e);
        }
    };
    if let Some(expected) = sha256 {
        if !digest.eq_ignore_ascii_case(expected) {
            let _ = std::fs::remove_file(&part);
            bail!(
                "{url}: sha256 is {digest}, the catalogue says {expected}; the file was not kept (fetched from {from})"
            );
        }
    }
    std::fs::rename(&part, &path).map_err(|e| Error::new(format!("{}: cannot be renamed: {e}", part.display())))?;
    Ok(path)
}

/// Where `url`'s download is kept (fetched or not): keyed by the expected hash where there is one
/// (the same file from another URL is the same file), else by the URL.
pub fn cached_path(url: &str, sha256: Option<&str>) -> PathBuf {
    let key = match sha256 {
        Some(h) => h.to_ascii_lowercase(),
        None => hex(&Sha256::digest(url.as_bytes()))[..32].to_string(),
    };
    cache_dir().join("downloads").join(key).join(file_name_of(url))
}

/// Why a download stopped: with the bytes so far worth continuing from (the connection), or not
/// (the server answered something else than the file).
enum Stopped {
    KeepPart(Error),
    Discard(Error),
}

/// `url` written to `to`, with its sha256. Bytes already in `to` (an earlier, interrupted try)
/// are hashed again and the rest asked for with `Range: bytes=N-`; a server that answers with
/// the whole file (200) or another range starts it over. A status other than 200/206, or a body
/// longer or shorter than `size`, discards the bytes; a connection that drops keeps them.
fn download(url: &str, to: &Path, size: Option<u64>) -> std::result::Result<String, Stopped> {
    let keep = |m: String| Stopped::KeepPart(Error::new(m));
    let discard = |m: String| Stopped::Discard(Error::new(m));
    let written = |e: std::io::Error| discard(format!("{}: cannot be written: {e}", to.display()));
    let mut hasher = Sha256::new();
    let mut loaded: u64 = 0;
    if to.is_file() {
        let mut held = std::fs::File::open(to).map_err(written)?;
        let mut buffer = vec![0u8; 1 << 20];
        loop {
            let n = held.read(&mut buffer).map_err(written)?;
            if n == 0 {
                break;
            }
            hasher.update(&buffer[..n]);
            loaded += n as u64;
        }
        if size.is_some_and(|s| loaded >= s) {
            // Nothing left to ask for (or more than the file): start over.
            hasher = Sha256::new();
            loaded = 0;
        }
    }
    let mut request = ureq::get(url);
    if loaded > 0 {
        eprintln!("fetching {url} from byte {loaded}");
        request = request.header("Range", &format!("bytes={loaded}-"));
    } else {
        eprintln!("fetching {url}");
    }
    let response = request
        .config()
        .http_status_as_error(false)
        .build()
        .call()
        .map_err(|e| keep(format!("{url}: cannot be fetched: {e}")))?;
    let status = response.status().as_u16();
    let continues = status == 206
        && response
            .headers()
            .get("content-range")
            .and_then(|v| v.to_str().ok())
            .and_then(crate::formats::source::ContentRange::parse)
            .is_some_and(|r| r.first == loaded);
    if !continues {
        if status != 200 {
            let hint = match status {
                404 => " (not found: the catalogue's URL or the mirror is wrong)",
                401 | 403 => " (refused: a gated or private file)",
                416 => " (the server has fewer bytes than were kept: the file changed)",
                _ => "",
            };
            return Err(discard(format!("{url}: HTTP {}{hint}", response.status())));
        }
        hasher = Sha256::new();
        loaded = 0;
    }
    let mut out = std::fs::OpenOptions::new()
        .create(true)
        .append(continues)
        .write(true)
        .truncate(!continues)
        .open(to)
        .map_err(written)?;
    let mut body = response.into_body();
    let mut reader = body.with_config().limit(u64::MAX).reader();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let n = match reader.read(&mut buffer) {
            Ok(n) => n,
            Err(e) => {
                let _ = out.flush();
                return Err(keep(format!("{url}: the download stopped at {loaded} bytes: {e}")));
            }
        };
        if n == 0 {
            break;
        }
        loaded += n as u64;
        if size.is_some_and(|s| loaded > s) {
            return Err(discard(format!(
                "{url}: more than the {} bytes the catalogue says; the file was not kept",
                size.unwrap_or(0)
            )));
        }
        hasher.update(&buffer[..n]);
        out.write_all(&buffer[..n]).map_err(written)?;
    }
    out.flush().map_err(written)?;
    if let Some(s) = size {
        if loaded < s {
            // A body that ended early without an error (a server that closed the connection
            // after a Content-Length it did not send): what arrived may still be continued.
            return Err(keep(format!("{url}: downloaded {loaded} bytes, the catalogue says {s}")));
        }
    }
    Ok(hex(&hasher.finalize()))
}

/// One file of a catalogue benchmark, fetched (or taken from the download cache) and unpacked
/// (`formats::archive::unpacked`): the files it stands for, by the names its tasks read.
pub fn source_files(source: &crate::catalog::SourceFile) -> Result<Vec<(String, Vec<u8>)>> {
    let path = fetch_cached(&source.url, source.size_bytes, source.sha256.as_deref())?;
    let bytes = std::fs::read(&path).map_err(|e| Error::new(format!("{}: cannot be read: {e}", path.display())))?;
    let name = source.path.clone().unwrap_or_else(|| file_name_of(&source.url));
    if name.starts_with('/') || name.contains('\\') || name.split('/').any(|s| s == ".." || s.is_empty()) {
        return Err(Error::new(format!(
            "{}: its path {name:?} in the catalogue is not a relative path inside the benchmark's folder",
            source.url
        )));
    }
    crate::formats::archive::unpacked(source.unpack.as_deref(), &name, bytes)
}

/// `bytes` written to `path`, its folders made first.
pub fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| Error::new(format!("{}: cannot be created: {e}", parent.display())))?;
    }
    std::fs::write(path, bytes).map_err(|e| Error::new(format!("{}: cannot be written: {e}", path.display())))
}

/// The sha256 and size of a local file, read 1 MiB at a time.
pub fn file_sha256(path: &Path) -> Result<(String, u64)> {
    let mut file =
        std::fs::File::open(path).map_err(|e| Error::new(format!("{}: cannot be opened: {e}", path.display())))?;
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
