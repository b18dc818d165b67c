//! The page's words in the chosen language: the catalogue (`web::i18n`) held for the page,
//! applied to the static page (`data-i18n` sets an element's text, `data-i18n-placeholder` its
//! placeholder, `data-i18n-label` an optgroup's label) and used by every message the page writes (`t`, `t_with`, `number`).
//!
//! The language comes from `?lang=`, else the one remembered in `localStorage`, else the browser's
//! languages; the menu in the header changes it at once, without a reload, and remembers it.

use std::cell::RefCell;

use wasm_bindgen::JsCast;

use super::super::dom;
use crate::web::i18n::{choose_language, Arg, Catalogue, NumberStyle, LANGUAGES};

const REMEMBERED: &str = "lingualens-language";

thread_local! {
    static CATALOGUE: RefCell<Option<Catalogue>> = const { RefCell::new(None) };
}

/// The message `key` in the page's language.
pub fn t(key: &str) -> String {
    t_with(key, &[])
}

/// The message `key` with its arguments.
pub fn t_with(key: &str, args: &[(&str, Arg)]) -> String {
    CATALOGUE.with(|c| match &*c.borrow() {
        Some(catalogue) => catalogue.text(key, args),
        None => key.to_string(),
    })
}

/// A number as the page's language writes it.
pub fn number(value: f64, style: NumberStyle) -> String {
    CATALOGUE.with(|c| match &*c.borrow() {
        Some(catalogue) => catalogue.number(value, style),
        None => value.to_string(),
    })
}

/// `f` on the page's catalogue, for words that a plain-data module writes (`web::suite`'s picture).
pub fn with_catalogue<R>(f: impl FnOnce(&Catalogue) -> R) -> Option<R> {
    CATALOGUE.with(|c| c.borrow().as_ref().map(f))
}

fn storage() -> Option<web_sys::Storage> {
    gloo::utils::window().local_storage().ok().flatten()
}

/// Chooses the language at start-up, fills the language menu and writes the static page in it.
pub fn init() -> Result<(), String> {
    let browser: Vec<String> =
        gloo::utils::window().navigator().languages().iter().filter_map(|v| v.as_string()).collect();
    let remembered = storage().and_then(|s| s.get_item(REMEMBERED).ok().flatten());
    let code = choose_language(dom::query_param("lang").as_deref(), remembered.as_deref(), &browser);
    let select: web_sys::HtmlSelectElement = dom::typed("lang-select")?;
    for language in LANGUAGES {
        let option = web_sys::HtmlOptionElement::new_with_text_and_value(language.name, language.code)
            .map_err(|_| "cannot make an option")?;
        let _ = option.set_attribute("lang", language.code);
        select.append_child(&option).map_err(|_| "cannot fill the language menu")?;
    }
    set_language(code)
}

/// Switches the page to `code` (one of `LANGUAGES`): the static page now; the caller redraws the
/// parts it wrote itself.
pub fn set_language(code: &str) -> Result<(), String> {
    let catalogue = Catalogue::new(code)?;
    let code = catalogue.code;
    CATALOGUE.with(|c| *c.borrow_mut() = Some(catalogue));
    dom::set_value("lang-select", code);
    if let Some(root) = dom::document().document_element() {
        let _ = root.set_attribute("lang", code);
    }
    apply_static();
    Ok(())
}

/// Remembers the user's choice for the next visit.
pub fn remember(code: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(REMEMBERED, code);
    }
}

/// Every `data-i18n` element's text and every `data-i18n-placeholder` (`-label`) element's
/// placeholder (label), from the catalogue.
fn apply_static() {
    let document = dom::document();
    if let Ok(list) = document.query_selector_all("[data-i18n]") {
        for i in 0..list.length() {
            let Some(el) = list.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) else { continue };
            if let Some(key) = el.get_attribute("data-i18n") {
                el.set_text_content(Some(&t(&key)));
            }
        }
    }
    // Attributes: an input's placeholder, an optgroup's label (the Task menu's benchmarks).
    for attribute in ["placeholder", "label"] {
        let marker = format!("data-i18n-{attribute}");
        let Ok(list) = document.query_selector_all(&format!("[{marker}]")) else { continue };
        for i in 0..list.length() {
            let Some(el) = list.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) else { continue };
            if let Some(key) = el.get_attribute(&marker) {
                let _ = el.set_attribute(attribute, &t(&key));
            }
        }
    }
}

/// A text the page shows in an element that it may have to write again in another language:
/// a message with its arguments, text from elsewhere (an engine message, a file name), or several
/// of these joined by spaces.
#[derive(Debug, Clone)]
pub enum Said {
    /// A message, its arguments, and arguments that are themselves `Said`s (rendered first, in
    /// the same language).
    Key(&'static str, Vec<(&'static str, Arg)>, Vec<(&'static str, Said)>),
    Raw(String),
    Joined(Vec<Said>, &'static str),
}

impl Said {
    pub fn render(&self) -> String {
        match self {
            Said::Key(key, args, parts) => {
                let mut args = args.clone();
                args.extend(parts.iter().map(|(name, said)| (*name, Arg::Text(said.render()))));
                t_with(key, &args)
            }
            Said::Raw(text) => text.clone(),
            Said::Joined(parts, separator) => parts.iter().map(Said::render).collect::<Vec<_>>().join(separator),
        }
    }

    /// This message with one more argument that is itself a `Said`.
    pub fn with_part(self, name: &'static str, part: Said) -> Said {
        match self {
            Said::Key(key, args, mut parts) => {
                parts.push((name, part));
                Said::Key(key, args, parts)
            }
            other => other,
        }
    }
}

/// The message `key` (no arguments) as a `Said`.
pub fn key(key: &'static str) -> Said {
    Said::Key(key, Vec::new(), Vec::new())
}

/// The message `key` with its arguments as a `Said`.
pub fn key_with(key: &'static str, args: Vec<(&'static str, Arg)>) -> Said {
    Said::Key(key, args, Vec::new())
}

thread_local! {
    /// What each element written through `show` says, by element id, for a language switch.
    static SHOWN: RefCell<Vec<(String, Said)>> = const { RefCell::new(Vec::new()) };
}

/// Writes `said` into the element `id` and remembers it, so `refresh` writes it again in a new
/// language.
pub fn show(id: &str, said: Said) {
    dom::set_text(id, &said.render());
    SHOWN.with(|shown| {
        let mut shown = shown.borrow_mut();
        shown.retain(|(i, _)| i != id);
        shown.push((id.to_string(), said));
    });
}

/// Whether the element `id` last showed, through `show`, the message `key`.
pub fn shows_key(id: &str, key: &str) -> bool {
    SHOWN.with(|shown| shown.borrow().iter().any(|(i, said)| i == id && matches!(said, Said::Key(k, ..) if *k == key)))
}

/// Writes every remembered element again, after a language switch.
pub fn refresh() {
    let shown = SHOWN.with(|shown| shown.borrow().clone());
    for (id, said) in shown {
        dom::set_text(&id, &said.render());
    }
}
