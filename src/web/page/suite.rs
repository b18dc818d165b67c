//! The Experiment menu: an experiment's runs one after another on the chosen model, each an
//! ordinary run of the page (its rows checkpointed, pausable), `web::suite` deciding which run is
//! next and with which settings; the comparison (each run's accuracy, the paired differences with
//! the exact McNemar test, the swings, a chart) drawn as each run ends. The progress is kept in
//! `localStorage` after every run: a reload shows it, `?experiment=NAME&run=1` or the resume
//! button goes on with the run under way (its finished rows from the checkpoint), and a finished
//! run is never run again.

use super::*;
use crate::tasks::experiment::{self, Experiment};
use crate::web::suite::{chart_svg, SuiteProgress};

const STORAGE_KEY: &str = "lingualens-suite";

fn storage() -> Option<web_sys::Storage> {
    gloo::utils::window().local_storage().ok().flatten()
}

/// The suite kept by an earlier visit, if it reads.
pub(super) fn restore(app: &Shared) {
    let kept = storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten());
    let progress = kept.and_then(|text| serde_json::from_str::<SuiteProgress>(&text).ok());
    let known = progress.filter(|p| experiment::builtin(&p.experiment).is_some_and(|e| e.is_ok()));
    app.borrow_mut().suite = known;
    draw(app);
}

fn save(progress: &SuiteProgress) {
    if let (Some(s), Ok(text)) = (storage(), serde_json::to_string(progress)) {
        if s.set_item(STORAGE_KEY, &text).is_err() {
            web_sys::console::warn_1(&"the experiment's progress could not be kept (storage full?)".into());
        }
    }
}

fn experiment_named(name: &str) -> Result<Experiment, String> {
    match experiment::builtin(name) {
        Some(Ok(e)) => Ok(e),
        Some(Err(e)) => Err(e.to_string()),
        None => Err(t_with("suite-unknown", &[("name", name.into())])),
    }
}

/// The experiments in the menu, by name, with their descriptions as tooltips.
pub(super) fn fill_menu() -> Result<(), String> {
    let select = dom::by_id("experiment-select")?;
    for e in experiment::builtin_all().map_err(|e| e.to_string())? {
        let option = dom::element("option", "", &e.experiment)?;
        let _ = option.set_attribute("value", &e.experiment);
        let _ = option.set_attribute("title", &e.description);
        dom::append(&select, &option)?;
    }
    if let Some(name) = dom::query_param("experiment") {
        dom::set_value("experiment-select", &name);
    }
    Ok(())
}

/// The settings of the run the suite drives, while it drives one (`control::prepare` uses them
/// instead of the controls').
pub(super) fn settings(app: &Shared) -> Option<(String, RunSettings)> {
    let a = app.borrow();
    if !a.suite_driving {
        return None;
    }
    let progress = a.suite.as_ref()?;
    let e = experiment_named(&progress.experiment).ok()?;
    let spec = progress.current(&e)?;
    Some((spec.task.clone(), progress.settings(spec)))
}

/// `?experiment=NAME&run=1`: goes on with that experiment where it was kept on this model, else
/// starts it.
pub(super) fn autostart(app: &Shared, name: &str) {
    let same = app.borrow().suite.as_ref().is_some_and(|p| p.experiment == name) && {
        let kept = app.borrow().suite.clone();
        let e = experiment_named(name).ok();
        kept.zip(e).is_some_and(|(p, e)| !p.done(&e))
    };
    if same {
        resume(app);
    } else {
        start(app, name);
    }
}

/// A new suite of the experiment `name` on the chosen model, with the controls' limit and sample.
pub(super) fn start(app: &Shared, name: &str) {
    clear_error();
    let result = (|| -> Result<(), String> {
        let e = experiment_named(name)?;
        for run in &e.runs {
            if !is_menu_task(&run.task) {
                return Err(t_with(
                    "suite-not-in-menu",
                    &[("run", run.name.as_str().into()), ("task", run.task.as_str().into())],
                ));
            }
        }
        let controls = settings_from_controls()?;
        let (model, _, _) = chosen_model(app)?;
        let progress = SuiteProgress::new(&e, &model, controls.limit, controls.sample);
        save(&progress);
        app.borrow_mut().suite = Some(progress);
        Ok(())
    })();
    match result {
        Ok(()) => run_current(app),
        Err(e) => show_error(&e),
    }
}

/// Goes on with the kept suite: the run under way again (its rows come back from the checkpoint).
pub(super) fn resume(app: &Shared) {
    clear_error();
    let Some(progress) = app.borrow().suite.clone() else { return };
    match chosen_model(app) {
        Ok((model, _, _)) if model == progress.model => {
            // Where it went on: the runs before were kept, not run again.
            if let Ok(panel) = dom::by_id("suite") {
                dom::set_data(&panel, "resumed-at", &progress.next.to_string());
            }
            run_current(app)
        }
        Ok(_) => show_error(&t_with("suite-other-model", &[("model", progress.model.as_str().into())])),
        Err(e) => show_error(&e),
    }
}

/// The suite's table as the CLI writes it (`suite_<NAME>.json`), or its chart, downloaded.
pub(super) fn download(app: &Shared, svg: bool) {
    let a = app.borrow();
    let Some(progress) = a.suite.as_ref() else { return };
    let Ok(e) = experiment_named(&progress.experiment) else { return };
    let results = match progress.results(&e) {
        Ok(r) => r,
        Err(err) => return show_error(&err.to_string()),
    };
    let model = model_name(&progress.model);
    let models = [(model.as_str(), &results)];
    let name = format!("suite_{}", e.experiment);
    let saved = if svg {
        dom::download(&format!("{name}.svg"), "image/svg+xml", &chart_svg(&e, &models))
    } else {
        // The page's sample is drawn with each run's seed.
        let sample = progress.sample.map(|n| serde_json::json!({"size": n, "seed": "each run's"}));
        let table = crate::web::suite::suite_json(&e, &models, sample);
        dom::download(
            &format!("{name}.json"),
            "application/json",
            &(serde_json::to_string_pretty(&table).unwrap_or_default() + "\n"),
        )
    };
    if let Err(err) = saved {
        show_error(&err);
    }
}

/// The model as the suite's table names it: a file's name without its extension, as the CLI does.
fn model_name(model: &str) -> String {
    let file = model.rsplit('/').next().unwrap_or(model);
    file.strip_suffix(".gguf").unwrap_or(file).to_string()
}

/// Forgets the kept suite (the runs' checkpoints stay, as saved runs do).
pub(super) fn forget(app: &Shared) {
    if let Some(s) = storage() {
        let _ = s.remove_item(STORAGE_KEY);
    }
    let mut a = app.borrow_mut();
    a.suite = None;
    a.suite_driving = false;
    drop(a);
    draw(app);
}

/// Starts the run under way: the task menu and the controls show its settings, then it runs as
/// any run does.
fn run_current(app: &Shared) {
    let current = {
        let a = app.borrow();
        a.suite.as_ref().and_then(|p| {
            let e = experiment_named(&p.experiment).ok()?;
            p.current(&e).map(|spec| (spec.task.clone(), p.settings(spec)))
        })
    };
    let Some((task, settings)) = current else { return };
    dom::set_value("task-select", &task);
    dom::set_value("shots", &settings.shots.map(|k| k.to_string()).unwrap_or_default());
    dom::set_value("seed", &settings.seed.to_string());
    app.borrow_mut().suite_driving = true;
    draw(app);
    start_run(app);
}

/// A run ended (`Effect::Finished`): when it is the suite's run under way, its verdicts are kept
/// and the next run starts, or the suite is done.
pub(super) fn run_finished(app: &Shared) {
    let next = {
        let mut a = app.borrow_mut();
        let a = &mut *a;
        if !a.suite_driving {
            return;
        }
        let (Some(progress), Some(run)) = (a.suite.as_mut(), a.run.as_ref()) else { return };
        let Ok(e) = experiment_named(&progress.experiment) else { return };
        if !progress.finish(&e, run) {
            return;
        }
        save(progress);
        let more = !progress.done(&e);
        a.suite_driving = more;
        more
    };
    draw(app);
    if next {
        let a = app.clone();
        gloo::timers::callback::Timeout::new(0, move || run_current(&a)).forget();
    }
}

/// The suite's panel: where it is, each run's accuracy, the comparisons, the swings, the chart.
pub(super) fn draw(app: &Shared) {
    if let Err(e) = draw_panel(app) {
        web_sys::console::warn_1(&e.into());
    }
}

fn draw_panel(app: &Shared) -> Result<(), String> {
    let a = app.borrow();
    let panel = dom::by_id("suite")?;
    let Some(progress) = a.suite.as_ref() else {
        dom::set_hidden("suite", true);
        return Ok(());
    };
    let e = experiment_named(&progress.experiment)?;
    dom::set_hidden("suite", false);
    let done = progress.done(&e);
    let status = if done {
        "done"
    } else if a.suite_driving {
        "running"
    } else {
        "stopped"
    };
    dom::set_data(&panel, "experiment", &e.experiment);
    dom::set_data(&panel, "status", status);
    dom::set_data(&panel, "next", &progress.next.to_string());
    dom::set_data(&panel, "runs", &e.runs.len().to_string());
    dom::set_hidden("suite-resume", done || a.suite_driving);
    dom::set_enabled("suite-json", !progress.verdicts.is_empty());
    dom::set_enabled("suite-svg", !progress.verdicts.is_empty());
    let (name, runs) = (e.experiment.as_str(), e.runs.len());
    let said = match progress.current(&e) {
        Some(spec) if a.suite_driving => key_with(
            "suite-progress",
            vec![
                ("name", name.to_string().into()),
                ("run", (progress.next + 1).into()),
                ("runs", runs.into()),
                ("task", spec.task.clone().into()),
            ],
        ),
        Some(_) => key_with(
            "suite-stopped",
            vec![("name", name.to_string().into()), ("done", progress.next.into()), ("runs", runs.into())],
        ),
        None => key_with("suite-finished", vec![("name", name.to_string().into()), ("runs", runs.into())]),
    };
    text::show("suite-progress", said);
    let results = progress.results(&e).map_err(|e| e.to_string())?;
    let points = |x: f64| text::number(100.0 * x, NumberStyle::Decimal(1));
    let interval = |lo: f64, hi: f64| format!("{} – {}", points(lo), points(hi));

    let body = dom::by_id("suite-runs")?;
    dom::clear(&body);
    for (i, spec) in e.runs.iter().enumerate() {
        let tr = dom::element("tr", "", "")?;
        dom::set_data(&tr, "run", &spec.name);
        let details = spec.describe();
        let (accuracy, n) = match results.runs.get(&spec.name) {
            Some(s) => {
                dom::set_data(&tr, "accuracy", &s.mean.to_string());
                dom::set_data(&tr, "n", &s.n.to_string());
                let ci = s.ci95().map(|(lo, hi)| format!(" ({})", interval(lo, hi))).unwrap_or_default();
                (format!("{}{ci}", points(s.mean)), s.n.to_string())
            }
            None if i == progress.next && a.suite_driving => ("…".into(), String::new()),
            None => ("–".into(), String::new()),
        };
        for (class, text) in [("", spec.name.as_str()), ("", &details), ("num", &accuracy), ("num", &n)] {
            dom::append(&tr, &dom::element("td", class, text)?)?;
        }
        dom::append(&body, &tr)?;
    }

    let body = dom::by_id("suite-comparisons")?;
    dom::clear(&body);
    for (a_name, b_name, c) in &results.comparisons {
        let tr = dom::element("tr", "", "")?;
        for (k, v) in [
            ("a", a_name.clone()),
            ("b", b_name.clone()),
            ("items", c.n.to_string()),
            ("difference", c.difference.to_string()),
            ("only-a", c.only_a.to_string()),
            ("only-b", c.only_b.to_string()),
            ("mcnemar-p", c.mcnemar_p.to_string()),
        ] {
            dom::set_data(&tr, k, &v);
        }
        let ci = c.ci95.map(|(lo, hi)| format!(" ({})", interval(lo, hi))).unwrap_or_default();
        let cells = [
            format!("{b_name} − {a_name}"),
            c.n.to_string(),
            format!("{}{ci}", points(c.difference)),
            format!("{} / {}", c.only_a, c.only_b),
            text::number(c.mcnemar_p, NumberStyle::Decimal(3)),
        ];
        for (i, text) in cells.iter().enumerate() {
            dom::append(&tr, &dom::element("td", if i == 0 { "" } else { "num" }, text)?)?;
        }
        dom::append(&body, &tr)?;
    }
    dom::set_hidden("suite-comparisons-box", results.comparisons.is_empty());

    let body = dom::by_id("suite-swings")?;
    dom::clear(&body);
    for (name, s) in &results.swings {
        let tr = dom::element("tr", "", "")?;
        dom::set_data(&tr, "swing", name);
        dom::set_data(&tr, "value", &s.swing.to_string());
        let spec = e.swing.iter().find(|x| &x.name == name).map(|x| x.runs.join(", ")).unwrap_or_default();
        let value = format!("{} ({})", points(s.swing), interval(s.ci95.0, s.ci95.1));
        for (class, text) in [("", name.as_str()), ("", spec.as_str()), ("num", value.as_str())] {
            dom::append(&tr, &dom::element("td", class, text)?)?;
        }
        dom::append(&body, &tr)?;
    }
    dom::set_hidden("suite-swings-box", results.swings.is_empty());

    // Built from the experiment's own names and the model's, each XML-escaped (`chart_svg`).
    let model = model_name(&progress.model);
    let svg = if results.runs.is_empty() { String::new() } else { chart_svg(&e, &[(model.as_str(), &results)]) };
    export::show_svg("suite-chart", &svg);
    Ok(())
}
