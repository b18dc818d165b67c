//! Model downloads, in the worker: streamed with progress, continued with a `Range` request when
//! the connection drops, checked against the catalog's size and sha256, and kept in Cache Storage
//! so that the next visit — online or not — reads the model from disk instead of the network.
//! While a download runs its bytes are saved piece by piece (`Partial`), so that one interrupted
//! by a reload or a closed tab continues, on the next visit, from where it stopped.
//!
//! The bytes go into a `Blob` (which the browser may keep on disk), never into one wasm buffer;
//! only the hash is computed in wasm, chunk by chunk.

use js_sys::{Array, Reflect, Uint8Array};
use sha2::{Digest, Sha256};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, Cache, ReadableStreamDefaultReader, Request, RequestInit, Response, WorkerGlobalScope};

use super::protocol::ModelCheck;
use crate::formats::source::ContentRange;
use crate::scoring::outputs::hex;

/// The Cache Storage bucket for models; the page lists and deletes its entries.
pub const MODEL_CACHE: &str = "lingualens-models-v1";
const ATTEMPTS: usize = 5;

fn scope() -> WorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn js_error(e: JsValue) -> String {
    e.as_string()
        .or_else(|| e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())))
        .unwrap_or_else(|| format!("{e:?}"))
}

async fn open_cache() -> Option<Cache> {
    let caches = scope().caches().ok()?;
    JsFuture::from(caches.open(MODEL_CACHE)).await.ok()?.dyn_into().ok()
}

/// `bytes` kept in Cache Storage under `key` (a note for the page, not a download); a refusal is
/// ignored: the note only saves the page a question.
pub async fn keep_note(key: &str, bytes: &[u8]) {
    let Some(cache) = open_cache().await else { return };
    let Ok(blob) = Blob::new_with_u8_array_sequence(&Array::of1(&Uint8Array::from(bytes))) else { return };
    if let Ok(response) = Response::new_with_opt_blob(Some(&blob)) {
        let _ = JsFuture::from(cache.put_with_str(key, &response)).await;
    }
}

/// The finished download of `url` kept in Cache Storage, if there is one.
pub async fn cached_blob(url: &str) -> Option<Blob> {
    let cache = open_cache().await?;
    let response: Response = JsFuture::from(cache.match_with_str(url)).await.ok()?.dyn_into().ok()?;
    JsFuture::from(response.blob().ok()?).await.ok()?.dyn_into().ok()
}

/// The file kept under `url` (a model's or a benchmark file's catalogue URL) as a Blob, and whether
/// it came from the cache; downloaded from `from` when it is not kept (the same URL, or the mirror's
/// copy of it). `progress(loaded, total, resumed_from)` is called as bytes arrive; `resumed_from` is
/// where a download interrupted by an earlier page (a reload, a closed tab) was taken up, 0 for a
/// fresh one.
pub async fn file_blob(
    url: &str,
    from: &str,
    check: &ModelCheck,
    progress: impl Fn(u64, Option<u64>, u64),
) -> Result<Fetched, String> {
    let cache = open_cache().await;
    if let Some(blob) = cached_blob(url).await {
        // A cached copy is used only if it is still the file the catalog names: its size, and its
        // sha256 hashed again (storage can be corrupted or changed by other code of the origin).
        let size_ok = check.size.is_none_or(|s| s == blob.size() as u64);
        let hash_ok = match (&check.sha256, size_ok) {
            (Some(expected), true) => blob_sha256(&blob).await.is_some_and(|d| d.eq_ignore_ascii_case(expected)),
            _ => size_ok,
        };
        if hash_ok {
            progress(blob.size() as u64, Some(blob.size() as u64), 0);
            return Ok(Fetched { blob, from_cache: true, not_kept: None });
        }
        if let Some(cache) = &cache {
            let _ = JsFuture::from(cache.delete_with_str(url)).await;
        }
    }

    let mut partial = Partial::open(url, check).await;
    let chunks = Array::new();
    let mut hasher = Sha256::new();
    let mut loaded: u64 = 0;
    let mut total: Option<u64> = check.size;
    // What an earlier page saved: its bytes are hashed again and become the start of the file.
    if let Some(p) = &mut partial {
        loaded = p.restore(&chunks, &mut hasher, check.size).await;
    }
    let resumed_from = loaded;
    let progress = |loaded, total| progress(loaded, total, resumed_from);
    let mut last_error = String::new();
    let mut attempts = 0;
    for _ in 0..ATTEMPTS {
        attempts += 1;
        match fetch_from(from, loaded).await {
            Ok((response, restart, length)) => {
                if restart && loaded > 0 {
                    // The server ignored the Range request: start over.
                    chunks.set_length(0);
                    hasher = Sha256::new();
                    loaded = 0;
                    if let Some(p) = &mut partial {
                        p.clear().await;
                    }
                }
                total = total.or(length);
                match read_body(&response, &chunks, &mut hasher, &mut loaded, total, partial.as_mut(), &progress).await
                {
                    Ok(()) => {
                        last_error.clear();
                        break;
                    }
                    Err(e) => last_error = e,
                }
            }
            Err(e) => {
                let refused = is_refusal(&e);
                last_error = e;
                if refused {
                    break;
                }
            }
        }
    }
    if !last_error.is_empty() {
        if let Some(p) = &mut partial {
            p.save().await;
        }
        let kept = if partial.is_some() { "; what arrived is kept, and the next try continues from there" } else { "" };
        return Err(format!(
            "{url}: the download stopped at {loaded} bytes after {attempts} attempt{}{kept}: {last_error}",
            if attempts == 1 { "" } else { "s" }
        ));
    }
    // From here the saved parts are no longer needed: the whole file is kept, or it is wrong.
    if let Some(p) = &mut partial {
        p.clear().await;
    }
    if let Some(size) = check.size {
        if size != loaded {
            return Err(format!("{url}: downloaded {loaded} bytes, the catalog says {size}; the file was not kept"));
        }
    }
    let digest = hex(&hasher.finalize());
    if let Some(expected) = &check.sha256 {
        if !expected.eq_ignore_ascii_case(&digest) {
            return Err(format!("{url}: sha256 is {digest}, the catalog says {expected}; the file was not kept"));
        }
    }
    let blob = Blob::new_with_u8_array_sequence(&chunks).map_err(js_error)?;
    // A full disk or a private window may refuse: the file is used all the same, and the caller
    // says that it was not kept.
    let not_kept = match &cache {
        Some(cache) => match Response::new_with_opt_blob(Some(&blob)) {
            Ok(response) => JsFuture::from(cache.put_with_str(url, &response)).await.err().map(refusal),
            Err(e) => Some(js_error(e)),
        },
        None => Some("the browser gives this page no Cache Storage (a private window?)".into()),
    };
    Ok(Fetched { blob, from_cache: false, not_kept })
}

/// A refusal (not found, gated, gone) is the server's answer, not a dropped connection: asking
/// again would only repeat it. A timeout or a rate limit may pass.
fn is_refusal(e: &str) -> bool {
    e.starts_with("the server answered 4")
        && !e.starts_with("the server answered 408")
        && !e.starts_with("the server answered 429")
}

/// A small document that is not itself kept (a page of the Hub's tree listing), fetched from
/// `from` (`url` or the mirror's copy of it), asked as [`file_blob`] asks: its bytes and its
/// `Link` header, which names the next page.
pub async fn document(url: &str, from: &str) -> Result<(Vec<u8>, Option<String>), String> {
    let mut last_error = String::new();
    for _ in 0..ATTEMPTS {
        match fetch_from(from, 0).await {
            Ok((response, _, _)) => {
                let link = response.headers().get("link").ok().flatten();
                match response.array_buffer() {
                    Ok(body) => match JsFuture::from(body).await {
                        Ok(buffer) => return Ok((Uint8Array::new(&buffer).to_vec(), link)),
                        Err(e) => last_error = js_error(e),
                    },
                    Err(e) => last_error = js_error(e),
                }
            }
            Err(e) => {
                let refused = is_refusal(&e);
                last_error = e;
                if refused {
                    break;
                }
            }
        }
    }
    Err(format!("{url}: {last_error}"))
}

/// A file [`file_blob`] gave: the bytes, whether they came from Cache Storage, and, when a
/// download could not be kept there, why.
pub struct Fetched {
    pub blob: Blob,
    pub from_cache: bool,
    pub not_kept: Option<String>,
}

/// Why storage refused a file: the full quota named as such (`QuotaExceededError`).
fn refusal(e: JsValue) -> String {
    let name = e.dyn_ref::<web_sys::DomException>().map(|d| d.name());
    if name.as_deref() == Some("QuotaExceededError") {
        "the browser's storage for this site is full".into()
    } else {
        js_error(e)
    }
}

/// The sha256 of a Blob, read 8 MiB at a time (never the whole file in one wasm buffer).
pub async fn blob_sha256(blob: &Blob) -> Option<String> {
    const SLICE: f64 = (8 << 20) as f64;
    let mut hasher = Sha256::new();
    let mut at = 0.0;
    while at < blob.size() {
        let slice = blob.slice_with_f64_and_f64(at, (at + SLICE).min(blob.size())).ok()?;
        let buffer = JsFuture::from(slice.array_buffer()).await.ok()?;
        hasher.update(Uint8Array::new(&buffer).to_vec());
        at += SLICE;
    }
    Some(hex(&hasher.finalize()))
}

/// The bytes of an unfinished download, saved in Cache Storage as they arrive (one entry per
/// piece, keyed by the piece's offset under a name made of the URL and the expected sha256 and
/// size), so that a download interrupted by a reload is taken up where it stopped, with a `Range`
/// request, instead of from the start. The whole file is still hashed and checked at the end.
struct Partial {
    cache: Cache,
    /// `https://lingualens.invalid/partial/<sha256 of url, sha256, size>/`: never fetched, only a key.
    prefix: String,
    /// Arrived since the last save, from `pending_at`.
    pending: Array,
    pending_bytes: u64,
    pending_at: u64,
    saved_at_ms: f64,
}

/// A piece is saved when this much has arrived, or `SAVE_EVERY_MS` after the last save.
const SAVE_BYTES: u64 = 8 << 20;
const SAVE_EVERY_MS: f64 = 1000.0;
const PARTIAL_CACHE: &str = "lingualens-partial-v1";

impl Partial {
    async fn open(url: &str, check: &ModelCheck) -> Option<Partial> {
        let caches = scope().caches().ok()?;
        let cache: Cache = JsFuture::from(caches.open(PARTIAL_CACHE)).await.ok()?.dyn_into().ok()?;
        let name = format!(
            "{url}\n{}\n{}",
            check.sha256.as_deref().unwrap_or(""),
            check.size.map(|s| s.to_string()).unwrap_or_default()
        );
        let id = hex(&Sha256::digest(name.as_bytes())[..16]);
        let prefix = format!("https://lingualens.invalid/partial/{id}/");
        Some(Partial {
            cache,
            prefix,
            pending: Array::new(),
            pending_bytes: 0,
            pending_at: 0,
            saved_at_ms: js_sys::Date::now(),
        })
    }

    /// The saved pieces in offset order, as (offset, URL key).
    async fn pieces(&self) -> Vec<(u64, String)> {
        let Ok(keys) = JsFuture::from(self.cache.keys()).await else { return Vec::new() };
        let mut pieces: Vec<(u64, String)> = Array::from(&keys)
            .iter()
            .filter_map(|r| r.dyn_into::<Request>().ok())
            .map(|r| r.url())
            .filter_map(|u| Some((u.strip_prefix(&self.prefix)?.parse().ok()?, u.clone())))
            .collect();
        pieces.sort();
        pieces
    }

    /// Puts the saved pieces that follow one another from byte 0 into `chunks` and `hasher`, and
    /// returns how many bytes they hold; a gap or an unreadable piece ends the run of pieces, and
    /// what follows it is deleted.
    async fn restore(&mut self, chunks: &Array, hasher: &mut Sha256, size: Option<u64>) -> u64 {
        let mut loaded = 0u64;
        let mut broken = false;
        for (offset, key) in self.pieces().await {
            let blob = if broken || offset != loaded { None } else { self.piece(&key).await };
            match blob {
                Some((blob, bytes)) if size.is_none_or(|s| loaded + bytes.len() as u64 <= s) => {
                    hasher.update(&bytes);
                    loaded += bytes.len() as u64;
                    chunks.push(&blob);
                }
                _ => {
                    broken = true;
                    let _ = JsFuture::from(self.cache.delete_with_str(&key)).await;
                }
            }
        }
        self.pending_at = loaded;
        loaded
    }

    async fn piece(&self, key: &str) -> Option<(Blob, Vec<u8>)> {
        let response: Response = JsFuture::from(self.cache.match_with_str(key)).await.ok()?.dyn_into().ok()?;
        let blob: Blob = JsFuture::from(response.blob().ok()?).await.ok()?.dyn_into().ok()?;
        let buffer = JsFuture::from(blob.array_buffer()).await.ok()?;
        Some((blob, Uint8Array::new(&buffer).to_vec()))
    }

    /// Keeps `chunk`, which starts at byte `at`; saves the pending bytes when there are enough of
    /// them or enough time has passed. Returns whether it saved.
    async fn add(&mut self, chunk: &Uint8Array, at: u64) -> bool {
        if self.pending_bytes == 0 {
            self.pending_at = at;
        }
        self.pending.push(chunk);
        self.pending_bytes += chunk.length() as u64;
        if self.pending_bytes >= SAVE_BYTES || js_sys::Date::now() - self.saved_at_ms >= SAVE_EVERY_MS {
            self.save().await;
            return true;
        }
        false
    }

    /// Writes the pending bytes as one piece. A refusal (a full disk) only means a later reload
    /// starts earlier; the download itself goes on.
    async fn save(&mut self) {
        self.saved_at_ms = js_sys::Date::now();
        if self.pending_bytes == 0 {
            return;
        }
        let key = format!("{}{:016}", self.prefix, self.pending_at);
        if let Ok(blob) = Blob::new_with_u8_array_sequence(&self.pending) {
            if let Ok(response) = Response::new_with_opt_blob(Some(&blob)) {
                let _ = JsFuture::from(self.cache.put_with_str(&key, &response)).await;
            }
        }
        self.pending_at += self.pending_bytes;
        self.pending = Array::new();
        self.pending_bytes = 0;
    }

    /// Deletes every saved piece of this download.
    async fn clear(&mut self) {
        for (_, key) in self.pieces().await {
            let _ = JsFuture::from(self.cache.delete_with_str(&key)).await;
        }
        self.pending = Array::new();
        self.pending_bytes = 0;
        self.pending_at = 0;
    }
}

/// `GET url` from byte `from`: the response, whether it starts at byte 0 although asked for
/// more, and the whole file's length when the server says. A 206 answer must say, in its
/// `Content-Range`, that it starts at `from`; one that does not (or says another length than an
/// earlier answer) is not appended to the bytes held: the download starts over from byte 0.
async fn fetch_from(url: &str, from: u64) -> Result<(Response, bool, Option<u64>), String> {
    let get = |from: u64| async move {
        let init = RequestInit::new();
        let request = Request::new_with_str_and_init(url, &init).map_err(js_error)?;
        if from > 0 {
            request.headers().set("Range", &format!("bytes={from}-")).map_err(js_error)?;
        }
        let response: Response =
            JsFuture::from(scope().fetch_with_request(&request)).await.map_err(js_error)?.unchecked_into();
        if !response.ok() {
            return Err(format!("the server answered {} {}", response.status(), response.status_text()));
        }
        Ok::<Response, String>(response)
    };
    let response = get(from).await?;
    let header = |response: &Response, name: &str| response.headers().get(name).ok().flatten();
    if response.status() != 206 {
        let length = header(&response, "content-length").and_then(|l| l.parse().ok());
        return Ok((response, true, length));
    }
    let range = header(&response, "content-range").unwrap_or_default();
    match ContentRange::parse(&range) {
        Some(r) if r.first == from && from > 0 => Ok((response, false, r.total)),
        _ => {
            web_sys::console::warn_1(
                &format!("{url}: asked for bytes from {from}, the server sent Content-Range {range:?}; starting over")
                    .into(),
            );
            let response = get(0).await?;
            if response.status() != 200 {
                return Err(format!("{url}: a whole-file request was answered with {}", response.status()));
            }
            let length = header(&response, "content-length").and_then(|l| l.parse().ok());
            Ok((response, true, length))
        }
    }
}

async fn read_body(
    response: &Response,
    chunks: &Array,
    hasher: &mut Sha256,
    loaded: &mut u64,
    total: Option<u64>,
    mut partial: Option<&mut Partial>,
    progress: &impl Fn(u64, Option<u64>),
) -> Result<(), String> {
    let body = response.body().ok_or("the response has no body")?;
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut reported = 0u64;
    loop {
        let step = JsFuture::from(reader.read()).await.map_err(js_error)?;
        if Reflect::get(&step, &"done".into()).ok().and_then(|d| d.as_bool()) == Some(true) {
            progress(*loaded, total);
            return Ok(());
        }
        let chunk: Uint8Array = Reflect::get(&step, &"value".into()).map_err(js_error)?.unchecked_into();
        hasher.update(chunk.to_vec());
        let at = *loaded;
        *loaded += chunk.length() as u64;
        chunks.push(&chunk);
        let saved = match partial.as_deref_mut() {
            Some(p) => p.add(&chunk, at).await,
            None => false,
        };
        // About every 4 MB, and whenever a piece is saved: enough for a smooth bar without
        // flooding the page; what the page shows as arrived is then also safe from a reload.
        if saved || *loaded - reported >= 4 << 20 {
            reported = *loaded;
            progress(*loaded, total);
        }
    }
}
