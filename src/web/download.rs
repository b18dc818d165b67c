//! Model downloads, in the worker: streamed with progress, continued with a `Range` request when
//! the connection drops, checked against the catalog's size and sha256, and kept in Cache Storage
//! so that the next visit — online or not — reads the model from disk instead of the network.
//!
//! The bytes go into a `Blob` (which the browser may keep on disk), never into one wasm buffer;
//! only the hash is computed in wasm, chunk by chunk.

use js_sys::{Array, Reflect, Uint8Array};
use sha2::{Digest, Sha256};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, Cache, ReadableStreamDefaultReader, Request, RequestInit, Response, WorkerGlobalScope};

use super::protocol::ModelCheck;

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

/// The finished download of `url` kept in Cache Storage, if there is one.
pub async fn cached_blob(url: &str) -> Option<Blob> {
    let cache = open_cache().await?;
    let response: Response = JsFuture::from(cache.match_with_str(url)).await.ok()?.dyn_into().ok()?;
    JsFuture::from(response.blob().ok()?).await.ok()?.dyn_into().ok()
}

/// The model at `url` as a Blob, and whether it came from the cache. `progress(loaded, total)`
/// is called as bytes arrive.
pub async fn model_blob(url: &str, check: &ModelCheck, progress: impl Fn(u64, Option<u64>)) -> Result<(Blob, bool), String> {
    let cache = open_cache().await;
    if let Some(blob) = cached_blob(url).await {
        if check.size.is_none_or(|s| s == blob.size() as u64) {
            progress(blob.size() as u64, Some(blob.size() as u64));
            return Ok((blob, true));
        }
    }

    let chunks = Array::new();
    let mut hasher = Sha256::new();
    let mut loaded: u64 = 0;
    let mut total: Option<u64> = check.size;
    let mut last_error = String::new();
    for _ in 0..ATTEMPTS {
        match fetch_from(url, loaded).await {
            Ok((response, restart, length)) => {
                if restart && loaded > 0 {
                    // The server ignored the Range request: start over.
                    chunks.set_length(0);
                    hasher = Sha256::new();
                    loaded = 0;
                }
                total = total.or(length);
                match read_body(&response, &chunks, &mut hasher, &mut loaded, total, &progress).await {
                    Ok(()) => {
                        last_error.clear();
                        break;
                    }
                    Err(e) => last_error = e,
                }
            }
            Err(e) => last_error = e,
        }
    }
    if !last_error.is_empty() {
        return Err(format!("{url}: the download stopped at {loaded} bytes after {ATTEMPTS} attempts: {last_error}"));
    }
    if let Some(size) = check.size {
        if size != loaded {
            return Err(format!("{url}: downloaded {loaded} bytes, the catalog says {size}; the file was not kept"));
        }
    }
    let digest = hasher.finalize().iter().map(|b| format!("{b:02x}")).collect::<String>();
    if let Some(expected) = &check.sha256 {
        if !expected.eq_ignore_ascii_case(&digest) {
            return Err(format!("{url}: sha256 is {digest}, the catalog says {expected}; the file was not kept"));
        }
    }
    let blob = Blob::new_with_u8_array_sequence(&chunks).map_err(js_error)?;
    if let Some(cache) = &cache {
        if let Ok(response) = Response::new_with_opt_blob(Some(&blob)) {
            // A full disk or a private window may refuse; the run goes on without the cache.
            let _ = JsFuture::from(cache.put_with_str(url, &response)).await;
        }
    }
    Ok((blob, false))
}

/// `GET url` from byte `from`: the response, whether it starts at byte 0 although asked for
/// more, and the whole file's length when the server says.
async fn fetch_from(url: &str, from: u64) -> Result<(Response, bool, Option<u64>), String> {
    let init = RequestInit::new();
    let request = Request::new_with_str_and_init(url, &init).map_err(js_error)?;
    if from > 0 {
        request.headers().set("Range", &format!("bytes={from}-")).map_err(js_error)?;
    }
    let response: Response = JsFuture::from(scope().fetch_with_request(&request)).await.map_err(js_error)?.unchecked_into();
    if !response.ok() {
        return Err(format!("the server answered {} {}", response.status(), response.status_text()));
    }
    let header = |name: &str| response.headers().get(name).ok().flatten();
    let partial = response.status() == 206;
    let length = if partial {
        header("content-range").and_then(|r| r.rsplit('/').next()?.parse().ok())
    } else {
        header("content-length").and_then(|l| l.parse().ok())
    };
    Ok((response, !partial, length))
}

async fn read_body(
    response: &Response,
    chunks: &Array,
    hasher: &mut Sha256,
    loaded: &mut u64,
    total: Option<u64>,
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
        *loaded += chunk.length() as u64;
        chunks.push(&chunk);
        // About every 4 MB: enough for a smooth bar without flooding the page.
        if *loaded - reported >= 4 << 20 {
            reported = *loaded;
            progress(*loaded, total);
        }
    }
}
