//! The Web Worker: owns the compute device and answers the page's requests one at a time.
//!
//! The device is initialised on the first request, asynchronously, because WebGPU's
//! `requestAdapter`/`requestDevice` are promises. wgpu is tried only where `navigator.gpu`
//! exists; without it, or without an adapter, the worker falls back to burn's CPU backend and
//! says why.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::EventListener;
use js_sys::{Reflect, JsString};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use super::protocol::{FromWorker, ToWorker};
use crate::backend::{BackendKind, BackendPreference, ComputeDevice};
use crate::engine::{self, LanguageModel};
use crate::formats::source::BlobSource;
use crate::selftest;

/// What the worker holds between requests.
#[derive(Default)]
struct State {
    device: Option<ComputeDevice>,
    model: Option<Rc<LanguageModel>>,
}

pub fn start() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let state: Rc<RefCell<State>> = Rc::new(RefCell::new(State::default()));
    // Requests are handled in arrival order: each waits for the previous one to finish.
    let queue: Rc<RefCell<Option<js_sys::Promise>>> = Rc::new(RefCell::new(None));

    EventListener::new(&scope, "message", move |event| {
        let Some(event) = event.dyn_ref::<MessageEvent>() else { return };
        let request = serde_wasm_bindgen::from_value::<ToWorker>(event.data());
        let state = state.clone();
        let previous = queue.borrow_mut().take();
        let task = wasm_bindgen_futures::future_to_promise(async move {
            if let Some(previous) = previous {
                let _ = JsFuture::from(previous).await;
            }
            match request {
                Ok(request) => handle(request, &state).await,
                Err(e) => post(&FromWorker::Error { message: format!("unreadable request: {e}") }),
            }
            Ok(JsValue::UNDEFINED)
        });
        *queue.borrow_mut() = Some(task);
    })
    .forget();
    post(&FromWorker::Ready);
}

async fn handle(request: ToWorker, state: &Rc<RefCell<State>>) {
    let outcome = match request {
        ToWorker::SelfTest { backend } => match ensure_device(state, backend).await {
            Ok(compute) => selftest::run(&compute)
                .await
                .map(|report| FromWorker::SelfTest { report })
                .map_err(|e| format!("self-test failed to run: {e}")),
            Err(message) => Err(message),
        },
        ToWorker::LoadModel { url, backend } => load_model(state, &url, backend).await,
        ToWorker::Score { context, choices } => score(state, &context, &choices).await,
    };
    post(&outcome.unwrap_or_else(|message| FromWorker::Error { message }));
}

async fn load_model(state: &Rc<RefCell<State>>, url: &str, backend: BackendPreference) -> Result<FromWorker, String> {
    let compute = ensure_device(state, backend).await?;
    let source = BlobSource::fetch(url).await.map_err(|e| e.to_string())?;
    let lm = engine::load_gguf(source, &compute).await.map_err(|e| e.to_string())?;
    let loaded = FromWorker::ModelLoaded {
        name: url.rsplit('/').next().unwrap_or(url).to_string(),
        architecture: format!("{:?}", lm.config.architecture),
        layers: lm.config.num_layers,
        vocab_size: lm.config.vocab_size,
    };
    state.borrow_mut().model = Some(Rc::new(lm));
    Ok(loaded)
}

async fn score(state: &Rc<RefCell<State>>, context: &str, choices: &[String]) -> Result<FromWorker, String> {
    // Take a handle and release the borrow before awaiting.
    let (model, backend) = {
        let s = state.borrow();
        let model = s.model.clone().ok_or("no model is loaded")?;
        let backend = s.device.as_ref().map(|d| d.info.backend.name()).unwrap_or("cpu");
        (model, backend.to_string())
    };
    let choices = model.log_likelihoods(context, choices).await.map_err(|e| e.to_string())?;
    Ok(FromWorker::Scores { backend, choices })
}

/// The worker's device, created on first use. burn's wgpu runtime can be initialised only once
/// per worker, so later requests reuse it whatever backend they ask for.
async fn ensure_device(state: &Rc<RefCell<State>>, preference: BackendPreference) -> Result<ComputeDevice, String> {
    if let Some(existing) = state.borrow().device.as_ref() {
        return Ok(existing.clone());
    }
    let gpu = navigator_gpu();
    let mut compute = match (preference, gpu.is_some()) {
        (BackendPreference::Cpu, _) => ComputeDevice::cpu(),
        (BackendPreference::Wgpu, false) => return Err("WebGPU was requested but this browser has no navigator.gpu".into()),
        (BackendPreference::Auto, false) => {
            let mut cpu = ComputeDevice::cpu();
            cpu.info.fallback_reason = Some("navigator.gpu is missing: this browser does not expose WebGPU".into());
            cpu
        }
        (_, true) => ComputeDevice::choose(preference).await?,
    };
    if compute.info.backend == BackendKind::Wgpu {
        if let Some(gpu) = gpu {
            describe_browser_adapter(&gpu, &mut compute).await;
        }
    }
    post(&FromWorker::Backend { info: compute.info.clone() });
    state.borrow_mut().device = Some(compute.clone());
    Ok(compute)
}

fn navigator_gpu() -> Option<JsValue> {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let gpu = Reflect::get(&scope.navigator(), &"gpu".into()).ok()?;
    (!gpu.is_undefined() && !gpu.is_null()).then_some(gpu)
}

/// wgpu reports the browser's adapter with an empty name; the browser's own `GPUAdapterInfo`
/// says what it is ("google" / "swiftshader" for Chromium's software adapter).
async fn describe_browser_adapter(gpu: &JsValue, compute: &mut ComputeDevice) {
    let Some(adapter) = call_promise(gpu, "requestAdapter").await else { return };
    let info = Reflect::get(&adapter, &"info".into()).unwrap_or(JsValue::UNDEFINED);
    let text = |object: &JsValue, key: &str| {
        Reflect::get(object, &key.into()).ok().and_then(|v| v.dyn_into::<JsString>().ok()).map(String::from)
    };
    let a = &mut compute.info.adapter;
    if let Some(vendor) = text(&info, "vendor").filter(|s| !s.is_empty()) {
        a.vendor = vendor;
    }
    a.architecture = text(&info, "architecture").unwrap_or_default();
    if a.name.is_empty() {
        a.name = text(&info, "description").unwrap_or_default();
    }
    a.is_fallback_adapter = [&info, &adapter]
        .into_iter()
        .find_map(|o| Reflect::get(o, &"isFallbackAdapter".into()).ok().and_then(|v| v.as_bool()));
}

async fn call_promise(object: &JsValue, method: &str) -> Option<JsValue> {
    let function: js_sys::Function = Reflect::get(object, &method.into()).ok()?.dyn_into().ok()?;
    let promise: js_sys::Promise = function.call0(object).ok()?.dyn_into().ok()?;
    let value = JsFuture::from(promise).await.ok()?;
    (!value.is_null() && !value.is_undefined()).then_some(value)
}

fn post(message: &FromWorker) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    match serde_wasm_bindgen::to_value(message) {
        Ok(value) => {
            if let Err(e) = scope.post_message(&value) {
                web_sys::console::error_1(&e);
            }
        }
        Err(e) => web_sys::console::error_1(&format!("cannot encode a message for the page: {e}").into()),
    }
}
