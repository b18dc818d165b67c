//! What the browser says of its WebGPU adapter, asked the same way by the page (which picks the
//! worker build to start) and by the worker (which picks its device): `navigator.gpu`, then
//! `requestAdapter()` and the adapter's `GPUAdapterInfo`. Works on a window and in a worker.

use js_sys::{JsString, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::backend::AdapterDescription;

/// `navigator.gpu`, where the browser exposes WebGPU.
pub fn navigator_gpu() -> Option<JsValue> {
    let navigator = Reflect::get(&js_sys::global(), &"navigator".into()).ok()?;
    let gpu = Reflect::get(&navigator, &"gpu".into()).ok()?;
    (!gpu.is_undefined() && !gpu.is_null()).then_some(gpu)
}

/// The adapter `gpu.requestAdapter()` gives, described; `None` when there is none, or when the
/// browser has not answered within `wait_ms` milliseconds where one is given (a `requestAdapter()`
/// that never settles must not keep the page from starting).
pub async fn describe_adapter(gpu: &JsValue, wait_ms: Option<i32>) -> Option<AdapterDescription> {
    let mut request = request_adapter(gpu)?;
    if let Some(ms) = wait_ms {
        let mut start_timer = |resolve: js_sys::Function, _reject: js_sys::Function| {
            let set_timeout = Reflect::get(&js_sys::global(), &"setTimeout".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
            if let Some(set_timeout) = set_timeout {
                let _ = set_timeout.call2(&JsValue::NULL, &resolve, &ms.into());
            }
        };
        let timer = js_sys::Promise::new(&mut start_timer);
        request = js_sys::Promise::race(&js_sys::Array::of2(&request, &timer));
    }
    answer(request).await.map(|adapter| describe(&adapter))
}

fn request_adapter(gpu: &JsValue) -> Option<js_sys::Promise> {
    let function: js_sys::Function = Reflect::get(gpu, &"requestAdapter".into()).ok()?.dyn_into().ok()?;
    function.call0(gpu).ok()?.dyn_into().ok()
}

/// What the browser's `GPUAdapterInfo` says of `adapter`: vendor, architecture ("swiftshader" for
/// Chromium's software adapter), description (as the name) and `isFallbackAdapter`.
fn describe(adapter: &JsValue) -> AdapterDescription {
    let info = Reflect::get(adapter, &"info".into()).unwrap_or(JsValue::UNDEFINED);
    let text = |object: &JsValue, key: &str| {
        Reflect::get(object, &key.into()).ok().and_then(|v| v.dyn_into::<JsString>().ok()).map(String::from)
    };
    let is_fallback_adapter = [&info, adapter]
        .into_iter()
        .find_map(|o| Reflect::get(o, &"isFallbackAdapter".into()).ok().and_then(|v| v.as_bool()));
    AdapterDescription {
        vendor: text(&info, "vendor").unwrap_or_default(),
        architecture: text(&info, "architecture").unwrap_or_default(),
        name: text(&info, "description").unwrap_or_default(),
        is_fallback_adapter,
        ..AdapterDescription::default()
    }
}

/// What `promise` settles to; `None` for a rejection, `null` or `undefined` (the timer's).
async fn answer(promise: js_sys::Promise) -> Option<JsValue> {
    let value = JsFuture::from(promise).await.ok()?;
    (!value.is_null() && !value.is_undefined()).then_some(value)
}
