//! Classroom mode on the page (`?mode=classroom` or the button): the run's questions one at a
//! time in large type for a projector, stepped by the teacher (keys, a presenter's remote or the
//! buttons) through question → the class's answer → the model's probabilities → the gold answer,
//! with a running score of the class against the model. The state is `web::classroom`; this file
//! only draws it and turns clicks and keys into its calls.
//!
//! The automation contract: `#classroom[data-step=question|class|model|gold][data-index]`, with
//! `data-class-choice`, `data-model-choice` and `data-gold` (option indices, empty until the step
//! shows them), `data-ready` (the model's answer exists), `data-class-right`, `data-model-right`,
//! `data-revealed` (the score); each option `li[data-option]`.

use wasm_bindgen::JsCast;

use super::super::classroom::{key_action, Classroom, KeyAction, Step};
use super::super::dom;
use super::super::run::probabilities;
use super::text::{self, key, key_with, t_with};
use super::{start_run, Phase, Shared};
use crate::web::i18n::NumberStyle;

/// Shows classroom mode; with `start`, starts the run if there is none yet (at start-up the run
/// starts by itself once the worker is ready).
pub fn open(app: &Shared, start: bool) {
    let start = {
        let mut a = app.borrow_mut();
        if a.classroom.is_none() {
            a.classroom = Some(Classroom::new());
        }
        start && a.run.is_none() && matches!(a.driver.phase(), Phase::Idle | Phase::Done)
    };
    if let Some(body) = dom::document().body() {
        let _ = body.class_list().add_1("classroom-mode");
    }
    dom::set_hidden("classroom", false);
    if start {
        start_run(app);
    }
    draw(app);
}

pub fn close(app: &Shared) {
    app.borrow_mut().classroom = None;
    if let Some(body) = dom::document().body() {
        let _ = body.class_list().remove_1("classroom-mode");
    }
    dom::set_hidden("classroom", true);
}

pub fn is_open(app: &Shared) -> bool {
    app.borrow().classroom.is_some()
}

/// The buttons, the options (event delegation: they are redrawn), the vote inputs and the keys.
pub fn wire(app: &Shared) -> Result<(), String> {
    let a = app.clone();
    dom::on("classroom-open", "click", move |_| open(&a, true))?;
    let a = app.clone();
    dom::on("classroom-close", "click", move |_| close(&a))?;
    let a = app.clone();
    dom::on("classroom-next", "click", move |_| step(&a, KeyAction::Next))?;
    let a = app.clone();
    dom::on("classroom-back", "click", move |_| step(&a, KeyAction::Back))?;
    let a = app.clone();
    dom::on("classroom-options", "click", move |event| {
        let option = event
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("li[data-option]").ok().flatten())
            .and_then(|li| li.get_attribute("data-option"))
            .and_then(|o| o.parse().ok());
        if let Some(option) = option {
            step(&a, KeyAction::Choose(option));
        }
    })?;
    let a = app.clone();
    dom::on("classroom-vote-inputs", "input", move |event| {
        let Some(input) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let option = input.get_attribute("data-vote").and_then(|o| o.parse::<usize>().ok());
        let count = input.value().trim().parse::<u32>().unwrap_or(0);
        let options = current_options(&a);
        if let Some(option) = option {
            let changed = a.borrow_mut().classroom.as_mut().is_some_and(|c| c.set_votes(option, count, options));
            if changed {
                save(&a);
                draw_keeping_votes(&a);
            }
        }
    })?;
    let a = app.clone();
    gloo::events::EventListener::new(&dom::document(), "keydown", move |event| {
        if !is_open(&a) {
            return;
        }
        let Some(key) = event.dyn_ref::<web_sys::KeyboardEvent>() else { return };
        let tag = event
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .map(|el| el.tag_name())
            .unwrap_or_default();
        let Some(action) = key_action(&key.key()) else { return };
        // Typing a vote count or using a menu keeps its keys (Esc still leaves); a focused button
        // (the last one clicked) answers Space and Enter itself, so they must not step twice.
        let typing = matches!(tag.as_str(), "INPUT" | "SELECT" | "TEXTAREA") && action != KeyAction::Leave;
        let pressing = tag == "BUTTON" && matches!(key.key().as_str(), " " | "Enter");
        if typing || pressing {
            return;
        }
        event.prevent_default();
        step(&a, action);
    })
    .forget();
    Ok(())
}

fn current_options(app: &Shared) -> usize {
    let a = app.borrow();
    let index = a.classroom.as_ref().map_or(0, |c| c.index);
    a.run.as_ref().and_then(|r| r.items.get(index)).map_or(0, |i| i.choices.len())
}

/// Where classroom mode is kept for a run, in `sessionStorage` (this tab only).
fn stored_key(run_key: &str) -> String {
    format!("lingualens-classroom:{run_key}")
}

fn session() -> Option<web_sys::Storage> {
    gloo::utils::window().session_storage().ok().flatten()
}

/// Keeps classroom mode's state under the run's key.
fn save(app: &Shared) {
    let a = app.borrow();
    let (Some(c), Some(run), Some(storage)) = (a.classroom.as_ref(), a.run.as_ref(), session()) else { return };
    if let Ok(json) = serde_json::to_string(c) {
        let _ = storage.set_item(&stored_key(&run.key), &json);
    }
}

/// A run (re)started: classroom mode takes up where this tab left it for the same run.
pub fn restore(app: &Shared) {
    let mut a = app.borrow_mut();
    let Some(key) = a.run.as_ref().map(|r| stored_key(&r.key)) else { return };
    if a.classroom.is_none() {
        return;
    }
    let saved = session()
        .and_then(|s| s.get_item(&key).ok().flatten())
        .and_then(|json| serde_json::from_str::<Classroom>(&json).ok());
    if let Some(saved) = saved {
        a.classroom = Some(saved);
    }
}

fn step(app: &Shared, action: KeyAction) {
    let options = current_options(app);
    let total = app.borrow().run.as_ref().map_or(0, |r| r.total());
    let mut at_end = false;
    {
        let mut a = app.borrow_mut();
        let Some(c) = a.classroom.as_mut() else { return };
        match action {
            KeyAction::Next => at_end = !c.next(total),
            KeyAction::Back => {
                c.back();
            }
            KeyAction::Choose(option) => {
                c.choose(option, options);
            }
            KeyAction::Leave => {
                drop(a);
                close(app);
                return;
            }
        }
    }
    save(app);
    draw(app);
    if at_end {
        text::show("classroom-step-note", key("classroom-end"));
    }
}

/// Draws the question shown at its step (called on every step, row and language switch).
pub fn draw(app: &Shared) {
    if let Err(e) = draw_inner(app, true) {
        web_sys::console::warn_1(&e.into());
    }
}

/// As `draw`, but the vote inputs are left as they are (the teacher is typing in one).
fn draw_keeping_votes(app: &Shared) {
    if let Err(e) = draw_inner(app, false) {
        web_sys::console::warn_1(&e.into());
    }
}

fn draw_inner(app: &Shared, redraw_votes: bool) -> Result<(), String> {
    let a = app.borrow();
    let Some(c) = a.classroom.as_ref() else { return Ok(()) };
    let section = dom::by_id("classroom")?;
    let options_list = dom::by_id("classroom-options")?;
    let Some(run) = a.run.as_ref().filter(|r| r.total() > 0) else {
        dom::set_data(&section, "step", "");
        dom::clear(&options_list);
        dom::set_text("classroom-question", "");
        text::show(
            "classroom-step-note",
            key(if a.driver.phase() == Phase::Preparing { "status-preparing" } else { "classroom-no-run" }),
        );
        return Ok(());
    };
    let index = c.index.min(run.total() - 1);
    let item = &run.items[index];
    let row = run.rows.get(&index);
    let shows = |s: Step| c.step >= s;
    let class_choice = c.class_choice(index);
    let model_choice = row.filter(|_| shows(Step::Model)).map(|r| r.chosen);
    let gold = shows(Step::Gold).then_some(item.gold);
    let opt = |o: Option<usize>| o.map(|i| i.to_string()).unwrap_or_default();
    dom::set_data(&section, "step", c.step.name());
    dom::set_data(&section, "index", &index.to_string());
    dom::set_data(&section, "class-choice", &opt(class_choice.filter(|_| shows(Step::Class))));
    dom::set_data(&section, "model-choice", &opt(model_choice));
    dom::set_data(&section, "gold", &opt(gold));
    dom::set_data(&section, "ready", if row.is_some() { "true" } else { "false" });
    let score = c.score(run);
    dom::set_data(&section, "revealed", &score.revealed.to_string());
    dom::set_data(&section, "class-right", &score.class_right.to_string());
    dom::set_data(&section, "model-right", &score.model_right.to_string());

    text::show(
        "classroom-progress",
        key_with("classroom-progress", vec![("number", (index + 1).into()), ("total", run.total().into())]),
    );
    text::show(
        "classroom-score",
        key_with(
            "classroom-score",
            vec![
                ("class", score.class_right.into()),
                ("model", score.model_right.into()),
                ("n", score.revealed.into()),
            ],
        ),
    );
    let question = dom::by_id("classroom-question")?;
    question.set_text_content(Some(&item.question));
    set_lang(&question, &item.language);

    dom::clear(&options_list);
    let probs = row.map(|r| probabilities(&r.loglikelihoods));
    for (i, choice) in item.choices.iter().enumerate() {
        let mut class = String::from("option");
        for (flag, name) in [
            (class_choice == Some(i) && shows(Step::Class), " class-choice"),
            (model_choice == Some(i), " model-choice"),
            (gold == Some(i), " gold"),
        ] {
            if flag {
                class += name;
            }
        }
        let li = dom::element("li", &class, "")?;
        dom::set_data(&li, "option", &i.to_string());
        dom::append(&li, &dom::element("span", "letter", &letter(i))?)?;
        let label = dom::element("span", "label", choice)?;
        set_lang(&label, &item.language);
        dom::append(&li, &label)?;
        if let Some(p) = probs.as_ref().and_then(|p| p.get(i)).filter(|_| shows(Step::Model)) {
            let bar = dom::element("span", "bar", "")?;
            let fill = dom::element("span", "", "")?;
            if let Some(fill) = fill.dyn_ref::<web_sys::HtmlElement>() {
                let _ = fill.style().set_property("width", &format!("{:.1}%", 100.0 * p));
            }
            dom::append(&bar, &fill)?;
            dom::append(&li, &bar)?;
            dom::append(&li, &dom::element("span", "pct", &text::number(*p, NumberStyle::Percent(0)))?)?;
        }
        dom::append(&options_list, &li)?;
    }

    let voting = matches!(c.step, Step::Question | Step::Class);
    dom::set_hidden("classroom-votes", !voting);
    if voting && redraw_votes {
        let inputs = dom::by_id("classroom-vote-inputs")?;
        dom::clear(&inputs);
        let votes = c.votes(index);
        for i in 0..item.choices.len() {
            let label = dom::element("label", "", &t_with("classroom-votes-label", &[("letter", letter(i).into())]))?;
            let input: web_sys::HtmlInputElement =
                dom::element("input", "", "")?.dyn_into().map_err(|_| "cannot make an input")?;
            input.set_type("number");
            let _ = input.set_attribute("min", "0");
            let _ = input.set_attribute("data-vote", &i.to_string());
            if let Some(v) = votes.and_then(|v| v.get(i)).filter(|v| **v > 0) {
                input.set_value(&v.to_string());
            }
            dom::append(&label, &input)?;
            dom::append(&inputs, &label)?;
        }
    }

    let note = match c.step {
        Step::Question => key("classroom-step-question"),
        Step::Class => match class_choice {
            Some(i) => key_with("classroom-class-chose", vec![("letter", letter(i).into())]),
            None => key("classroom-step-class"),
        },
        Step::Model => match model_choice {
            Some(i) => key_with("classroom-model-chose", vec![("letter", letter(i).into())]),
            None => key("classroom-step-model-waiting"),
        },
        Step::Gold => key_with("classroom-gold-is", vec![("letter", letter(item.gold).into())]),
    };
    text::show("classroom-step-note", note);
    dom::set_enabled("classroom-back", !(index == 0 && c.step == Step::Question));
    Ok(())
}

fn letter(i: usize) -> String {
    char::from(b'A' + (i.min(25) as u8)).to_string()
}

fn set_lang(el: &web_sys::Element, language: &str) {
    if language.is_empty() {
        let _ = el.remove_attribute("lang");
    } else {
        let _ = el.set_attribute("lang", language);
    }
}
