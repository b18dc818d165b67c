//! The whole DOM layer: a handful of typed helpers over web-sys. Text always goes in through
//! `textContent`, never `innerHTML`, so text from a model or a dataset can't inject markup.

use wasm_bindgen::JsCast;
use web_sys::{Document, Element};

pub fn document() -> Document {
    gloo::utils::document()
}

/// The element with this id. The ids live in `www/index.html`; a missing one is a bug in the page.
pub fn by_id(id: &str) -> Result<Element, String> {
    document().get_element_by_id(id).ok_or_else(|| format!("page has no element #{id}"))
}

/// A new element with optional class and text.
pub fn element(tag: &str, class: &str, text: &str) -> Result<Element, String> {
    let el = document().create_element(tag).map_err(|_| format!("cannot create <{tag}>"))?;
    if !class.is_empty() {
        el.set_class_name(class);
    }
    if !text.is_empty() {
        el.set_text_content(Some(text));
    }
    Ok(el)
}

pub fn append(parent: &Element, child: &Element) -> Result<(), String> {
    parent.append_child(child).map(|_| ()).map_err(|_| "cannot append a child element".to_string())
}

pub fn clear(el: &Element) {
    el.set_text_content(None);
}

pub fn set_data(el: &Element, name: &str, value: &str) {
    // Setting a data-* attribute on an element we created cannot fail.
    let _ = el.set_attribute(&format!("data-{name}"), value);
}

/// A two-column table body row.
pub fn key_value_row(key: &str, value: &str) -> Result<Element, String> {
    let row = element("tr", "", "")?;
    append(&row, &element("th", "", key)?)?;
    append(&row, &element("td", "", value)?)?;
    Ok(row)
}

fn search_params() -> Option<web_sys::UrlSearchParams> {
    let search = gloo::utils::window().location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search).ok()
}

pub fn query_param(name: &str) -> Option<String> {
    search_params()?.get(name)
}

/// Every value of a repeated parameter (`?choice=a&choice=b`).
pub fn query_params(name: &str) -> Vec<String> {
    search_params().map(|p| p.get_all(name).iter().filter_map(|v| v.as_string()).collect()).unwrap_or_default()
}

/// The element with this id as a more specific type (`HtmlInputElement`, …).
pub fn typed<T: JsCast>(id: &str) -> Result<T, String> {
    by_id(id)?.dyn_into::<T>().map_err(|_| format!("#{id} is not the expected kind of element"))
}

/// The value of an `<input>` or `<select>` by id ("" when missing).
pub fn value(id: &str) -> String {
    if let Ok(input) = typed::<web_sys::HtmlInputElement>(id) {
        return input.value();
    }
    typed::<web_sys::HtmlSelectElement>(id).map(|s| s.value()).unwrap_or_default()
}

pub fn set_value(id: &str, value: &str) {
    if let Ok(input) = typed::<web_sys::HtmlInputElement>(id) {
        input.set_value(value);
    } else if let Ok(select) = typed::<web_sys::HtmlSelectElement>(id) {
        select.set_value(value);
    }
}

pub fn set_enabled(id: &str, enabled: bool) {
    if let Ok(button) = typed::<web_sys::HtmlButtonElement>(id) {
        button.set_disabled(!enabled);
    }
}

pub fn set_text(id: &str, text: &str) {
    if let Ok(el) = by_id(id) {
        el.set_text_content(Some(text));
    }
}

pub fn set_hidden(id: &str, hidden: bool) {
    if let Ok(el) = by_id(id) {
        let _ = if hidden { el.set_attribute("hidden", "") } else { el.remove_attribute("hidden") };
    }
}

/// Calls `handler` on every `event` at the element `id` (for the page's lifetime).
pub fn on(id: &str, event: &'static str, handler: impl FnMut(&web_sys::Event) + 'static) -> Result<(), String> {
    let target: web_sys::EventTarget = by_id(id)?.into();
    gloo::events::EventListener::new(&target, event, handler).forget();
    Ok(())
}

/// [`on`], for a handler that may call `prevent_default` (gloo's listeners are passive otherwise,
/// and a passive listener's `prevent_default` is ignored).
pub fn on_cancelable(
    id: &str,
    event: &'static str,
    handler: impl FnMut(&web_sys::Event) + 'static,
) -> Result<(), String> {
    let target: web_sys::EventTarget = by_id(id)?.into();
    let options = gloo::events::EventListenerOptions::enable_prevent_default();
    gloo::events::EventListener::new_with_options(&target, event, options, handler).forget();
    Ok(())
}

/// The files chosen in an `<input type=file>`.
pub fn files(id: &str) -> Vec<web_sys::File> {
    let Some(list) = typed::<web_sys::HtmlInputElement>(id).ok().and_then(|i| i.files()) else { return Vec::new() };
    (0..list.length()).filter_map(|i| list.get(i)).collect()
}

/// Puts `files` into the `<input type=file>` with this id, as if the user had picked them (a
/// `FileList` can only be made through a `DataTransfer`). No `change` event is fired.
pub fn set_files(id: &str, files: &[&web_sys::File]) -> Result<(), String> {
    let transfer = web_sys::DataTransfer::new().map_err(|_| "cannot make a DataTransfer")?;
    for file in files {
        transfer.items().add_with_file(file).map_err(|_| format!("cannot add {} to #{id}", file.name()))?;
    }
    typed::<web_sys::HtmlInputElement>(id)?.set_files(transfer.files().as_ref());
    Ok(())
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob =
        web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(|_| "cannot make the file")?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| "cannot make a download link")?;
    let a: web_sys::HtmlAnchorElement = element("a", "", "")?.dyn_into().map_err(|_| "cannot make a link")?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Parameters that say how the page runs (the interface's language, the engine, the download
/// mirror, the threads or the pool), not what it runs: the built-in demo still starts by itself with them.
const HOW_PARAMETERS: &[&str] =
    &["backend", "simd", "threads", "lang", "mirror", "workers", "budget_mib", "watchdog_s"];

/// Whether the address names something to run (a model, a task, a file, a mode…): any parameter
/// besides `HOW_PARAMETERS`.
pub fn query_params_present() -> bool {
    let Some(params) = search_params() else { return false };
    let keys = js_sys::Array::from(&params.keys().into());
    keys.iter().any(|k| !k.as_string().is_some_and(|k| HOW_PARAMETERS.contains(&k.as_str())))
}
