//! The interface's catalogues (www/i18n/*.ftl, src/web/i18n.rs): every language has every message
//! with the same variables and formats it without an error in every plural form; every message the
//! page and index.html ask for exists and every message is used; numbers are written and counts
//! fall in plural categories as Babel (an independent reading of CLDR) has them
//! (tools/fixtures/i18n_numbers.py).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
use lingualens::web::i18n::{choose_language, plural_category, Arg, Catalogue, NumberStyle, CATALOGUES, LANGUAGES};
use serde_json::Value;

use crate::common;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn variables_of(pattern: &Pattern<&str>, out: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let PatternElement::Placeable { expression } = element {
            variables_of_expression(expression, out);
        }
    }
}

fn variables_of_expression(expression: &Expression<&str>, out: &mut BTreeSet<String>) {
    match expression {
        Expression::Inline(inline) => variables_of_inline(inline, out),
        Expression::Select { selector, variants } => {
            variables_of_inline(selector, out);
            for v in variants {
                variables_of(&v.value, out);
            }
        }
    }
}

fn variables_of_inline(inline: &InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match inline {
        InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_string());
        }
        InlineExpression::Placeable { expression } => variables_of_expression(expression, out),
        _ => {}
    }
}

/// Each message id of a catalogue with the variables it uses.
fn messages(code: &str) -> BTreeMap<String, BTreeSet<String>> {
    let (_, source) = CATALOGUES.iter().find(|(c, _)| *c == code).unwrap();
    let resource =
        fluent_syntax::parser::parse(*source).unwrap_or_else(|(_, errors)| panic!("www/i18n/{code}.ftl: {errors:?}"));
    let mut out = BTreeMap::new();
    for entry in &resource.body {
        if let Entry::Message(m) = entry {
            let mut vars = BTreeSet::new();
            if let Some(value) = &m.value {
                variables_of(value, &mut vars);
            }
            assert!(out.insert(m.id.name.to_string(), vars).is_none(), "www/i18n/{code}.ftl: `{}` twice", m.id.name);
        }
        if let Entry::Junk { content } = entry {
            panic!("www/i18n/{code}.ftl: cannot be read: {content}");
        }
    }
    out
}

#[test]
fn every_language_has_every_message_with_the_same_variables_and_formats_every_plural_form() {
    let english = messages("en");
    assert!(english.len() > 150, "the English catalogue has {} messages", english.len());
    let mut problems = Vec::new();
    for language in LANGUAGES {
        let ours = messages(language.code);
        for (key, vars) in &english {
            match ours.get(key) {
                None => problems.push(format!("{}: `{key}` is missing", language.code)),
                Some(v) if v != vars => {
                    problems.push(format!("{}: `{key}` uses {v:?}, English {vars:?}", language.code))
                }
                Some(_) => {}
            }
        }
        for key in ours.keys().filter(|k| !english.contains_key(*k)) {
            problems.push(format!("{}: `{key}` is not in English", language.code));
        }
        // Every message with every variable a count of each plural category's kind: no Fluent error
        // (an unknown variable, a selector without its default), and the text is not the key.
        let catalogue = Catalogue::new(language.code).unwrap();
        for (key, vars) in &english {
            for n in [0u64, 1, 2, 5, 21, 22, 111] {
                let args: Vec<(&str, Arg)> = vars.iter().map(|v| (v.as_str(), Arg::Count(n))).collect();
                match catalogue.text_checked(key, &args) {
                    Ok(text) if text.trim().is_empty() || (text == *key && language.code != "en") => {
                        problems.push(format!("{}: `{key}` gives {text:?}", language.code))
                    }
                    Ok(_) => {}
                    Err(e) => problems.push(e),
                }
            }
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_message_the_page_asks_for_exists_and_every_message_is_used() {
    let english = messages("en");
    let html = read(&repo().join("www/index.html"));
    let mut code = String::new();
    code += &read(&repo().join("src/web/page.rs"));
    for file in std::fs::read_dir(repo().join("src/web/page")).unwrap() {
        code += &read(&file.unwrap().path());
    }
    // The suite's picture takes its words from the catalogue it is given (the page's, or English for the CLI).
    code += &read(&repo().join("src/web/suite.rs"));
    let attribute = regex::Regex::new(r#"data-i18n(?:-placeholder|-label)?="([^"]+)""#).unwrap();
    let call = regex::Regex::new(
        r#"\b(?:key|key_with|t|t_with|text)\(\s*(?:if [^{]*\{\s*)?"([a-z0-9-]+)"(?:\s*\}\s*else\s*\{\s*"([a-z0-9-]+)")?"#,
    )
    .unwrap();
    let mut asked = BTreeSet::new();
    for c in attribute.captures_iter(&html) {
        asked.insert(c[1].to_string());
    }
    for c in call.captures_iter(&code) {
        asked.insert(c[1].to_string());
        if let Some(other) = c.get(2) {
            asked.insert(other.as_str().to_string());
        }
    }
    assert!(asked.len() > 100, "only {} messages found asked for: the patterns no longer match the code", asked.len());
    let missing: Vec<&String> = asked.iter().filter(|k| !english.contains_key(*k)).collect();
    assert!(missing.is_empty(), "asked for but not in www/i18n/en.ftl: {missing:?}");
    // Every message appears as a literal somewhere (directly, or chosen through a variable).
    let unused: Vec<&String> =
        english.keys().filter(|k| !html.contains(&format!("\"{k}\"")) && !code.contains(&format!("\"{k}\""))).collect();
    assert!(unused.is_empty(), "in www/i18n/en.ftl but never used: {unused:?}");
}

#[test]
fn the_language_is_the_query_then_the_remembered_one_then_the_browsers() {
    let browser = |tags: &[&str]| tags.iter().map(|t| t.to_string()).collect::<Vec<_>>();
    assert_eq!(choose_language(Some("ky"), Some("am"), &browser(&["ru-RU"])), "ky");
    assert_eq!(choose_language(Some("xx"), Some("am"), &browser(&["ru-RU"])), "am", "an unknown ?lang= is ignored");
    assert_eq!(choose_language(None, None, &browser(&["fr-FR", "ti-ER", "en"])), "ti");
    assert_eq!(choose_language(None, None, &browser(&["om_ET"])), "om");
    assert_eq!(choose_language(None, None, &browser(&["fr", "de"])), "en");
    assert_eq!(choose_language(None, None, &[]), "en");
}

fn numbers_fixture() -> Option<Value> {
    let path = common::fixture("i18n", "i18n/numbers.json", "tools/fixtures/i18n_numbers.py")?;
    Some(serde_json::from_str(&read(&path)).unwrap())
}

#[test]
fn numbers_are_written_as_babel_writes_them_in_every_language() {
    let Some(fixture) = numbers_fixture() else { return };
    let cases = fixture["cases"].as_array().unwrap();
    assert!(cases.len() >= 7 * 100, "{} cases", cases.len());
    let mut wrong = Vec::new();
    for case in cases {
        let code = case["language"].as_str().unwrap();
        let digits = case["digits"].as_u64().unwrap() as usize;
        let style = match case["style"].as_str().unwrap() {
            "integer" => NumberStyle::Integer,
            "decimal" => NumberStyle::Decimal(digits),
            _ => NumberStyle::Percent(digits),
        };
        let value = case["value"].as_f64().unwrap();
        let ours = Catalogue::new(code).unwrap().number(value, style);
        if ours != case["text"].as_str().unwrap() {
            wrong.push(format!("{code} {style:?} {value}: ours {ours:?}, Babel {:?}", case["text"]));
        }
    }
    assert!(wrong.is_empty(), "{} of {} differ:\n{}", wrong.len(), cases.len(), wrong.join("\n"));
    // Through a message too: the summary's percentages.
    let ru = Catalogue::new("ru").unwrap();
    let text = ru.text("share-of", &[("share", Arg::Number(0.625, NumberStyle::Percent(0))), ("n", Arg::Count(8))]);
    assert!(text.contains("62\u{a0}%"), "{text}");
}

#[test]
fn counts_fall_in_babels_plural_categories_in_every_language() {
    let Some(fixture) = numbers_fixture() else { return };
    let mut wrong = Vec::new();
    let mut checked = 0;
    for (code, counts) in fixture["plurals"].as_object().unwrap() {
        for (n, category) in counts.as_object().unwrap() {
            let n: u64 = n.parse().unwrap();
            let ours = plural_category(code, n).unwrap();
            checked += 1;
            if ours != category.as_str().unwrap() {
                wrong.push(format!("{code} {n}: ours {ours}, Babel {category}"));
            }
        }
    }
    assert_eq!(checked, 7 * 211);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
