//! The classroom in a real headless Chromium: the interface in each of its seven languages (every
//! `data-i18n` text from the language's catalogue, switched in the page and by `?lang=`, remembered,
//! the Tibetan, Ethiopic and Cyrillic text drawn with the bundled fonts); classroom mode stepped by
//! keys and clicks through its automation contract, its model answers equal to the run's rows; the
//! inspector's token marks drawn without breaking the shaping of Dzongkha and Amharic prompts; and
//! no horizontal overflow from a phone to a projector; a finished run's one-page summary, printed
//! alone on one A4 page. Screenshots go to
//! $CARGO_TARGET_TMPDIR/screenshots (the README's come from here).

use std::time::Duration;

use crate::common::{browser_or_skip, screenshot_path, Browser, StaticServer};
use lingualens::web::i18n::{Catalogue, LANGUAGES};
use serde_json::{json, Value};

const LONG: Duration = Duration::from_secs(240);

fn goto_ready(browser: &Browser, url: &str) {
    browser.goto(url);
    browser.wait_for("the worker", "return document.getElementById('backend-info').dataset.backend || null;", LONG);
}

/// Every element with `data-i18n`, its key and its text.
const STATIC_TEXTS: &str = "
    return [...document.querySelectorAll('[data-i18n]')]
      .filter(el => !['status', 'run-summary', 'model-info', 'device-summary', 'inspector-heading', 'run-pause', 'compare-summary'].includes(el.id))
      .map(el => [el.dataset.i18n, el.textContent])
      .concat([...document.querySelectorAll('[data-i18n-label]')].map(el => [el.dataset.i18nLabel, el.label]));";

#[test]
fn the_interface_switches_between_seven_languages_and_remembers_the_choice() {
    let test = "classroom_languages";
    let Some(dist) = browser_or_skip(test) else { return };
    let server = StaticServer::start(dist);
    let browser = Browser::start(&[]);
    goto_ready(&browser, &server.url("index.html?model=demo&task=demo&lang=dz"));
    let mut problems = Vec::new();
    assert_eq!(browser.eval("return document.documentElement.lang", json!([])), json!("dz"), "{test}: ?lang=dz");
    for language in LANGUAGES.iter() {
        // The menu, as a user switches.
        browser.eval(
            "const s = document.getElementById('lang-select'); s.value = arguments[0]; s.dispatchEvent(new Event('change')); return true;",
            json!([language.code]),
        );
        let catalogue = Catalogue::new(language.code).unwrap();
        let shown = browser.eval(STATIC_TEXTS, json!([]));
        let shown = shown.as_array().unwrap();
        assert!(shown.len() > 70, "{test}: {} texts", shown.len());
        for pair in shown {
            let (key, text) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
            let expected = catalogue.text_checked(key, &[]).unwrap_or_else(|e| panic!("{test}: {e}"));
            if text != expected {
                problems.push(format!("{}: `{key}` shows {text:?}, the catalogue says {expected:?}", language.code));
            }
        }
        let root_lang = browser.eval("return document.documentElement.lang", json!([]));
        assert_eq!(root_lang, json!(language.code), "{test}");
        // The run's own messages follow: the pause button and the summary are in the language too.
        let pause = browser.eval("return document.getElementById('run-pause').textContent", json!([]));
        let expected = [catalogue.text("button-pause", &[]), catalogue.text("button-resume", &[])];
        assert!(expected.iter().any(|e| json!(e) == pause), "{test}: {}: the pause button says {pause}", language.code);
        if ["dz", "am", "ky"].contains(&language.code) {
            browser.screenshot(&screenshot_path(&format!("{test}_{}.png", language.code)));
        }
    }
    assert!(problems.is_empty(), "{test}: {problems:#?}");
    // Remembered: the next visit, with no ?lang=, is in the last language chosen (Russian).
    goto_ready(&browser, &server.url("index.html?model=demo&task=demo"));
    assert_eq!(browser.eval("return document.documentElement.lang", json!([])), json!("ru"), "{test}: remembered");

    // The scripts are drawn with the bundled fonts: after Dzongkha, Amharic and Kyrgyz text was on
    // screen, the three font files are loaded and cover it.
    let fonts = browser.eval_async(
        "const done = arguments[arguments.length - 1];
         document.fonts.ready.then(() => done({
           loaded: [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family.replace(/\"/g, '')).sort(),
           tibetan: document.fonts.check('20px \"LL Tibetan\"', 'རྫོང་ཁ'),
           ethiopic: document.fonts.check('20px \"LL Ethiopic\"', 'አማርኛ'),
           cyrillic: document.fonts.check('20px \"LL Sans\"', 'Кыргызча') }));",
    );
    for family in ["LL Ethiopic", "LL Sans", "LL Tibetan"] {
        assert!(fonts["loaded"].as_array().unwrap().contains(&json!(family)), "{test}: {family} not loaded: {fonts}");
    }
    assert_eq!(
        (&fonts["tibetan"], &fonts["ethiopic"], &fonts["cyrillic"]),
        (&json!(true), &json!(true), &json!(true)),
        "{test}: {fonts}"
    );
}

fn classroom(browser: &Browser) -> Value {
    browser.eval(
        "const c = document.getElementById('classroom'); const d = c.dataset;
         return { hidden: c.hidden, step: d.step, index: d.index, class: d.classChoice, model: d.modelChoice, gold: d.gold, ready: d.ready,
                  revealed: +d.revealed, classRight: +d.classRight, modelRight: +d.modelRight,
                  options: [...c.querySelectorAll('li[data-option]')].map(li => li.dataset.option),
                  question: document.getElementById('classroom-question').textContent };",
        json!([]),
    )
}

fn key(browser: &Browser, key: &str) {
    browser.eval(
        "document.dispatchEvent(new KeyboardEvent('keydown', { key: arguments[0], bubbles: true })); return true;",
        json!([key]),
    );
}

/// The run table's row for item `index`: the model's choice and the gold option.
fn row(browser: &Browser, index: usize) -> Value {
    browser.eval(
        "const tr = document.querySelector(`#result-rows tr[data-index=\"${arguments[0]}\"]`);
         return tr ? { chosen: tr.dataset.chosen, gold: tr.dataset.gold, correct: tr.dataset.correct === 'true' } : null;",
        json!([index]),
    )
}

#[test]
fn classroom_mode_steps_through_question_class_model_and_gold_with_a_running_score() {
    let test = "classroom_steps";
    let Some(dist) = browser_or_skip(test) else { return };
    let server = StaticServer::start(dist);
    let browser = Browser::start(&[]);
    // ?mode=classroom starts the run by itself and shows its first question.
    goto_ready(&browser, &server.url("index.html?model=demo&task=demo&mode=classroom&lang=en"));
    browser.wait_for(
        "the first question",
        "const d = document.getElementById('classroom').dataset; return d.step === 'question' ? true : null;",
        LONG,
    );
    let shown = classroom(&browser);
    assert_eq!((shown["hidden"].clone(), shown["index"].clone()), (json!(false), json!("0")), "{test}: {shown}");
    assert_eq!(
        (shown["class"].clone(), shown["model"].clone(), shown["gold"].clone()),
        (json!(""), json!(""), json!("")),
        "{test}: nothing revealed: {shown}"
    );
    let hidden = browser.eval("return getComputedStyle(document.getElementById('setup')).display", json!([]));
    assert_eq!(hidden, json!("none"), "{test}: the setup is hidden in classroom mode");

    let mut class_right = 0;
    let mut model_right = 0;
    for index in 0..3usize {
        let options = classroom(&browser)["options"].as_array().unwrap().len();
        assert!(options >= 2, "{test}: {options} options");
        // The class answers: a tap on question 0 and 2, vote counts on question 1.
        let class_choice = (index + 1) % options;
        if index == 1 {
            browser.eval(
                "const inputs = document.querySelectorAll('#classroom-vote-inputs input');
                 const set = (i, v) => { inputs[i].value = v; inputs[i].dispatchEvent(new Event('input', { bubbles: true })); };
                 set(0, '2'); set(arguments[0], '9'); return true;",
                json!([class_choice]),
            );
        } else {
            key(&browser, "ArrowRight");
            assert_eq!(classroom(&browser)["step"], json!("class"), "{test}");
            browser.click(&format!("#classroom-options li[data-option=\"{class_choice}\"] .label"));
        }
        let shown = classroom(&browser);
        assert_eq!(
            (shown["step"].clone(), shown["class"].clone()),
            (json!("class"), json!(class_choice.to_string())),
            "{test}: {shown}"
        );
        key(&browser, " ");
        let shown = browser.wait_for(
            "the model's answer",
            "const d = document.getElementById('classroom').dataset; return d.step === 'model' && d.ready === 'true' ? d.modelChoice : null;",
            LONG,
        );
        let table = row(&browser, index);
        assert_eq!(shown, table["chosen"], "{test}: item {index}: the model's choice is the run's row");
        let before = classroom(&browser);
        assert_eq!(before["gold"], json!(""), "{test}: the gold answer waits for its step");
        key(&browser, "PageDown");
        let shown = classroom(&browser);
        assert_eq!(
            (shown["step"].clone(), shown["gold"].clone()),
            (json!("gold"), table["gold"].clone()),
            "{test}: {shown}"
        );
        class_right += (table["gold"] == json!(class_choice.to_string())) as usize;
        model_right += table["correct"].as_bool().unwrap() as usize;
        assert_eq!(
            (shown["revealed"].as_u64(), shown["classRight"].as_u64(), shown["modelRight"].as_u64()),
            (Some(index as u64 + 1), Some(class_right as u64), Some(model_right as u64)),
            "{test}: the score after item {index}: {shown}"
        );
        if index == 0 {
            browser.set_window_size(1920, 1080);
            browser.screenshot(&screenshot_path(&format!("{test}_en_gold.png")));
        }
        key(&browser, "ArrowRight");
        assert_eq!(classroom(&browser)["index"], json!((index + 1).to_string()), "{test}");
    }
    // The buttons step too, and the keys still work with a button focused (the last one clicked).
    browser.eval("const b = document.getElementById('classroom-next'); b.focus(); b.click(); return true;", json!([]));
    assert_eq!(classroom(&browser)["step"], json!("class"), "{test}: the Next button");
    browser.eval(
        "document.getElementById('classroom-next').dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true })); return true;",
        json!([]),
    );
    assert_eq!(classroom(&browser)["step"], json!("question"), "{test}: ← with the Next button focused");
    // Back from a question goes to the previous one's answer; the score does not count it twice.
    key(&browser, "ArrowLeft");
    let shown = classroom(&browser);
    assert_eq!(
        (shown["index"].clone(), shown["step"].clone(), shown["revealed"].clone()),
        (json!("2"), json!("gold"), json!(3)),
        "{test}: {shown}"
    );
    // In Dzongkha and Amharic, for the README.
    for lang in ["dz", "am"] {
        browser.eval(
            "const s = document.getElementById('lang-select'); s.value = arguments[0]; s.dispatchEvent(new Event('change')); return true;",
            json!([lang]),
        );
        let score = browser.eval("return document.getElementById('classroom-score').textContent", json!([]));
        let expected = Catalogue::new(lang).unwrap().text(
            "classroom-score",
            &[("class", (class_right as u64).into()), ("model", (model_right as u64).into()), ("n", 3u64.into())],
        );
        assert_eq!(score, json!(expected), "{test}: the score in {lang}");
        browser.screenshot(&screenshot_path(&format!("{test}_{lang}.png")));
    }
    // A reload in the middle of the lesson comes back to the same question, step and score.
    let before = classroom(&browser);
    goto_ready(&browser, &server.url("index.html?model=demo&task=demo&mode=classroom&lang=en"));
    let after = browser.wait_for(
        "the lesson after a reload",
        "const d = document.getElementById('classroom').dataset; return d.step && d.ready === 'true' ? true : null;",
        LONG,
    );
    assert_eq!(after, json!(true));
    let after = classroom(&browser);
    for field in ["index", "step", "class", "gold", "revealed", "classRight", "modelRight"] {
        assert_eq!(after[field], before[field], "{test}: {field} after a reload: {after}");
    }
    key(&browser, "Escape");
    let shown = classroom(&browser);
    assert_eq!(shown["hidden"], json!(true), "{test}: Esc leaves classroom mode");
    let display = browser.eval("return getComputedStyle(document.getElementById('setup')).display", json!([]));
    assert_ne!(display, json!("none"), "{test}: the page is back");
}

#[test]
fn token_marks_keep_dzongkha_and_amharic_prompts_shaped_as_plain_text() {
    let test = "classroom_shaping";
    let Some(dist) = browser_or_skip(test) else { return };
    let server = StaticServer::start(dist);
    let browser = Browser::start(&[]);
    browser.set_window_size(1366, 900);
    goto_ready(&browser, &server.url("index.html?model=demo&task=demo&run=1&lang=en"));
    browser.wait_for(
        "the demo run",
        "return document.getElementById('run').dataset.phase === 'done' ? true : null;",
        LONG,
    );
    let mut split_total = 0;
    for language in ["dz", "am"] {
        let index = browser.eval(
            "const td = document.querySelector(`#result-rows td.question[lang=\"${arguments[0]}\"]`); return td ? +td.closest('tr').dataset.index : null;",
            json!([language]),
        );
        assert!(index.is_u64(), "{test}: no {language} item in the demo");
        browser.click(&format!("#result-rows tr[data-index=\"{index}\"]"));
        browser.wait_for(
            "the token marks",
            "const p = document.getElementById('inspector-prompt'); return p.querySelector('span.tok') ? true : null;",
            LONG,
        );
        // The marked prompt and the same text in a plain copy, both on unwrapped lines: the same
        // text, the same size (a mark shaped apart is drawn on a dotted circle, U+25CC, and widens
        // its line), and no run that is not whole characters.
        let measured = browser.eval(
            "const p = document.getElementById('inspector-prompt');
             const copy = p.cloneNode(false); copy.id = 'plain-copy'; copy.textContent = p.textContent;
             p.after(copy);
             for (const el of [p, copy]) { el.style.setProperty('white-space', 'pre'); el.style.setProperty('display', 'inline-block'); el.style.setProperty('width', 'auto'); el.style.setProperty('overflow', 'visible'); }
             const box = el => { const r = document.createRange(); r.selectNodeContents(el); const b = r.getBoundingClientRect(); return [b.width, b.height]; };
             const out = { marked: box(p), plain: box(copy), text_equal: p.textContent === copy.textContent,
                           dotted_circle: p.textContent.includes('\\u25CC'), spans: p.querySelectorAll('span.tok').length,
                           split: p.querySelectorAll('span.tok.split').length, lang: p.getAttribute('lang') };
             copy.remove(); for (const el of [p]) { for (const k of ['white-space', 'display', 'width', 'overflow']) el.style.removeProperty(k); }
             return out;",
            json!([]),
        );
        assert_eq!(measured["lang"], json!(language), "{test}: {measured}");
        assert_eq!(measured["text_equal"], json!(true), "{test}: {measured}");
        assert_eq!(measured["dotted_circle"], json!(false), "{test}: {measured}");
        assert!(measured["spans"].as_u64().unwrap() > 3, "{test}: {measured}");
        for d in 0..2 {
            let (a, b) = (measured["marked"][d].as_f64().unwrap(), measured["plain"][d].as_f64().unwrap());
            assert!(
                (a - b).abs() < 0.5,
                "{test}: {language}: the marked prompt is {a} px, the plain text {b} px ({measured})"
            );
        }
        split_total += measured["split"].as_u64().unwrap();
        eprintln!("{test}: {language}: {measured}");
        browser.eval("document.getElementById('inspector').scrollIntoView(); return true;", json!([]));
        browser.screenshot(&screenshot_path(&format!("{test}_{language}.png")));
    }
    eprintln!("{test}: {split_total} runs joined tokens cut inside a character");
}

#[test]
fn the_layout_holds_on_a_phone_a_laptop_and_a_projector() {
    let test = "classroom_layout";
    let Some(dist) = browser_or_skip(test) else { return };
    let server = StaticServer::start(dist);
    let browser = Browser::start(&[]);
    let mut failures = Vec::new();
    let overflowing = "const out = []; const root = document.documentElement;
         if (root.scrollWidth > root.clientWidth) out.push(`the page: ${root.scrollWidth} > ${root.clientWidth} px`);
         for (const el of document.querySelectorAll('header, fieldset, section, .setup-grid > *, #run-summary, #position-warning, #classroom li')) {
           if (el.offsetParent === null) continue;
           if (el.scrollWidth > el.clientWidth + 1) out.push(`${el.id || el.className || el.tagName}: ${el.scrollWidth} > ${el.clientWidth} px`);
         }
         // Where it comes from: the outermost elements that end past the window's right edge.
         if (out.length) {
           const past = [...document.querySelectorAll('body *')].filter(el => el.offsetParent !== null && el.getBoundingClientRect().right > root.clientWidth + 1);
           for (const el of past.filter(el => !past.includes(el.parentElement)).slice(0, 5))
             out.push(`  ${el.tagName.toLowerCase()}#${el.id}.${el.className}: right edge at ${Math.round(el.getBoundingClientRect().right)} px`);
         }
         return out;";
    for (width, height) in [(360, 740), (1366, 768), (1920, 1080)] {
        browser.set_window_size(width, height);
        for (mode, query) in [
            ("page", "index.html?model=demo&task=demo&run=1&lang=dz"),
            ("classroom", "index.html?model=demo&task=demo&mode=classroom&lang=am"),
        ] {
            goto_ready(&browser, &server.url(query));
            browser.wait_for("a finished row", "return document.querySelector('#result-rows tr') ? true : null;", LONG);
            if mode == "page" {
                // The inspector open, and the filters shown (DZEN-like metadata), as a user has them.
                browser.click("#result-rows tr");
            }
            let shown = browser.eval(overflowing, json!([]));
            if shown != json!([]) {
                failures.push(format!("{mode} at {width} px wide: {shown}"));
            }
            browser.screenshot(&screenshot_path(&format!("{test}_{mode}_{width}.png")));
        }
    }
    assert!(failures.is_empty(), "{test}: {failures:#?}");
}

#[test]
fn a_finished_run_prints_its_summary_alone_on_one_page() {
    let test = "classroom_summary";
    let Some(dist) = browser_or_skip(test) else { return };
    let server = StaticServer::start(dist);
    let browser = Browser::start(&[]);
    browser.set_window_size(1366, 900);
    goto_ready(&browser, &server.url("index.html?model=demo&task=demo&run=1&lang=ky"));
    browser.wait_for(
        "the demo run",
        "return document.getElementById('run').dataset.phase === 'done' ? true : null;",
        LONG,
    );
    let summary = browser.wait_for(
        "the summary",
        "const s = document.getElementById('print-summary'); const svg = s.querySelector('svg');
         return s.dataset.ready === 'true' && svg ? { accuracy: svg.dataset.accuracy, text: svg.textContent,
           run: document.getElementById('run-summary').dataset.accuracy,
           fields: [...svg.querySelectorAll('text.heading')].map(t => t.textContent),
           enabled: !document.getElementById('summary-svg').disabled && !document.getElementById('summary-print').disabled } : null;",
        LONG,
    );
    assert_eq!(summary["accuracy"], summary["run"], "{test}: the picture's accuracy is the run's: {summary}");
    let violations = browser.eval("return document.body.dataset.cspViolations || ''", json!([]));
    assert_eq!(violations, json!(""), "{test}: the inline picture breaks the Content-Security-Policy");
    assert_eq!(summary["enabled"], json!(true), "{test}: {summary}");
    let ky = Catalogue::new("ky").unwrap();
    let text = summary["text"].as_str().unwrap();
    assert!(text.contains(&ky.text("summary-by", &[])), "{test}: the summary is in Kyrgyz: {text}");
    // The demo's metadata fields (language, subject, group) each have their breakdown.
    let fields = summary["fields"].as_array().unwrap();
    assert!(fields.len() >= 3, "{test}: {summary}");
    // Printing shows the summary and nothing else, on one A4 page.
    browser.cdp("Emulation.setEmulatedMedia", json!({ "media": "print" }));
    let shown = browser.eval(
        "return [...['setup', 'run', 'print-summary', 'status'].map(id => document.getElementById(id)), document.querySelector('header')]
           .map(el => el.getClientRects().length > 0);",
        json!([]),
    );
    assert_eq!(shown, json!([false, false, true, false, false]), "{test}: in print, only the summary is laid out");
    browser.screenshot(&screenshot_path(&format!("{test}_print.png")));
    browser.cdp("Emulation.setEmulatedMedia", json!({ "media": "" }));
    let pdf = browser.print_pdf();
    assert!(pdf.starts_with(b"%PDF"), "{test}: not a PDF");
    let pages = regex::bytes::Regex::new(r"/Type\s*/Page[^s]").unwrap().find_iter(&pdf).count();
    assert_eq!(pages, 1, "{test}: the summary prints on {pages} pages");
}
