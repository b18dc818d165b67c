//! The whole DOM layer: a handful of typed helpers over web-sys. Text always goes in through
//! `textContent`, never `innerHTML`, so text from a model or a dataset can't inject markup.

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
    search_params()
        .map(|p| p.get_all(name).iter().filter_map(|v| v.as_string()).collect())
        .unwrap_or_default()
}
