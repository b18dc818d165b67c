//! The Experiment menu: an experiment's runs one after another on the chosen model, each an
//! ordinary run of the page (its rows checkpointed, pausable), `web::suite` deciding which run is
//! next and with which settings; the comparison (each run's accuracy, the paired differences with
//! the exact McNemar test, the swings, a chart) drawn as each run ends. The progress is kept in
//! `localStorage` after every run: a reload shows it, `?experiment=NAME&run=1` or the resume
//! button goes on with the run under way (its finished rows from the checkpoint), and a finished
//! run is never run again. A suite table saved by the page or the CLI (`suite_<NAME>.json`, one
//! model or several) opens again: the same tables, chart, picture and print.

use super::*;
use std::borrow::Cow;

use crate::tasks::experiment::{self, Experiment};
use crate::web::suite::{chart_svg, summary_svg, SavedSuite, SuiteProgress, SAVED_SUITE_MAX_BYTES};

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
    with_driven_run(app, |progress, spec| (spec.task.clone(), progress.settings(spec)))
}

/// `f` of the suite's progress and the run it drives, while it drives one.
fn with_driven_run<T>(app: &Shared, f: impl FnOnce(&SuiteProgress, &experiment::RunSpec) -> T) -> Option<T> {
    let a = app.borrow();
    if !a.suite_driving {
        return None;
    }
    let progress = a.suite.as_ref()?;
    let e = experiment_named(&progress.experiment).ok()?;
    let spec = progress.current(&e)?;
    Some(f(progress, spec))
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
        // A run whose task the menu lacks (a saved experiment's) runs on the user's own files, when chosen:
        // the task YAML and data picked under "My files" (the run stops if they define another task).
        let own_files = !dom::files("task-files").is_empty() || !dom::files("task-folder").is_empty();
        for run in &e.runs {
            if !is_menu_task(&run.task) && !own_files {
                return Err(t_with(
                    "suite-not-in-menu",
                    &[("run", run.name.as_str().into()), ("task", run.task.as_str().into())],
                ));
            }
        }
        let controls = settings_from_controls()?;
        let (model, _, _) = chosen_model(app)?;
        // One sample for every run, drawn with the controls' seed (the runs' own seeds shuffle).
        let sample = controls.sample.map(|n| (n, controls.seed));
        let progress = SuiteProgress::new(&e, &model, controls.limit, sample);
        save(&progress);
        let mut a = app.borrow_mut();
        a.suite = Some(progress);
        a.suite_saved = None;
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

/// What the panel shows, as a saved table reads: the opened table, else the suite kept on this page.
fn view(a: &App) -> Result<Option<Cow<'_, SavedSuite>>, String> {
    if let Some((_, saved)) = &a.suite_saved {
        return Ok(Some(Cow::Borrowed(saved)));
    }
    let Some(progress) = a.suite.as_ref() else { return Ok(None) };
    let e = experiment_named(&progress.experiment)?;
    let results = progress.results(&e).map_err(|e| e.to_string())?;
    Ok(Some(Cow::Owned(SavedSuite {
        models: vec![(model_name(&progress.model), results)],
        sample: progress.sample_json(),
        experiment: e,
    })))
}

#[derive(Clone, Copy)]
pub(super) enum Download {
    /// `suite_<NAME>.json`, as the CLI writes it.
    Table,
    /// `suite_<NAME>.svg`: the chart, as the CLI writes it.
    Chart,
    /// `suite_<NAME>_summary.svg`: the one-page picture (`web::suite::summary_svg`).
    Summary,
}

/// The shown suite's table, chart or one-page picture, downloaded.
pub(super) fn download(app: &Shared, what: Download) {
    // Owned, so that the page's state is not borrowed while the browser downloads or prints.
    let shown = view(&app.borrow()).map(|v| v.map(Cow::into_owned));
    let v = match shown {
        Ok(Some(v)) => v,
        Ok(None) => return,
        Err(e) => return show_error(&e),
    };
    let name = format!("suite_{}", v.experiment.experiment);
    let saved = match what {
        Download::Chart => {
            dom::download(&format!("{name}.svg"), "image/svg+xml", &chart_svg(&v.experiment, &v.results()))
        }
        Download::Summary => match picture(&v) {
            Some(svg) => dom::download(&format!("{name}_summary.svg"), "image/svg+xml", &svg),
            None => return,
        },
        Download::Table => {
            let table = crate::web::suite::suite_json(&v.experiment, &v.results(), v.sample.clone());
            dom::download(
                &format!("{name}.json"),
                "application/json",
                &(serde_json::to_string_pretty(&table).unwrap_or_default() + "\n"),
            )
        }
    };
    if let Err(err) = saved {
        show_error(&err);
    }
}

/// The one-page picture of the shown suite, in the page's language.
fn picture(v: &SavedSuite) -> Option<String> {
    let date =
        js_sys::Date::new_0().to_iso_string().as_string().unwrap_or_default().chars().take(10).collect::<String>();
    text::with_catalogue(|words| summary_svg(&v.experiment, &v.results(), v.sample.as_ref(), &date, words))
}

/// Prints the shown suite's picture alone (the print style shows `#print-summary` only).
pub(super) fn print(app: &Shared) {
    // Owned, so that the page's state is not borrowed while the browser downloads or prints.
    let shown = view(&app.borrow()).map(|v| v.map(Cow::into_owned));
    let Ok(Some(v)) = shown else { return };
    let Some(svg) = picture(&v) else { return };
    if export::show_svg("print-summary", &svg) {
        if let Ok(target) = dom::by_id("print-summary") {
            dom::set_data(&target, "ready", "true");
            dom::set_data(&target, "kind", "suite");
        }
        let _ = gloo::utils::window().print();
    }
}

/// Opens a suite table (`suite_<NAME>.json`, the page's or the CLI's) chosen in `#suite-file`.
pub(super) async fn open_saved(app: &Shared) {
    let Some(file) = dom::files("suite-file").into_iter().next() else { return };
    clear_error();
    let name = file.name();
    let read = async {
        if file.size() > SAVED_SUITE_MAX_BYTES as f64 {
            return Err(format!(
                "{name}: {} MB is larger than a suite table can be ({} MB at most)",
                (file.size() / 1e6).round(),
                SAVED_SUITE_MAX_BYTES >> 20
            ));
        }
        let text = JsFuture::from(file.text()).await.map_err(|_| format!("{name}: cannot be read"))?;
        SavedSuite::read(&name, &text.as_string().unwrap_or_default()).map_err(|e| e.to_string())
    }
    .await;
    dom::set_value("suite-file", "");
    match read {
        Ok(saved) => {
            app.borrow_mut().suite_saved = Some((name, saved));
            draw(app);
            if let Ok(panel) = dom::by_id("suite") {
                panel.scroll_into_view();
            }
        }
        Err(e) => show_error(&e),
    }
}

/// The model as the suite's table names it: a file's name without its extension, as the CLI does.
fn model_name(model: &str) -> String {
    let file = model.rsplit('/').next().unwrap_or(model);
    file.strip_suffix(".gguf").unwrap_or(file).to_string()
}

/// Closes the opened table, or else forgets the kept suite (the runs' checkpoints stay, as saved
/// runs do).
pub(super) fn forget(app: &Shared) {
    let mut a = app.borrow_mut();
    if a.suite_saved.take().is_none() {
        if let Some(s) = storage() {
            let _ = s.remove_item(STORAGE_KEY);
        }
        a.suite = None;
        a.suite_driving = false;
    }
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
    dom::set_value("task-select", if is_menu_task(&task) { &task } else { "files" });
    dom::set_value("shots", &settings.shots.map(|k| k.to_string()).unwrap_or_default());
    dom::set_value("seed", &settings.seed.to_string());
    app.borrow_mut().suite_driving = true;
    draw(app);
    start_run(app);
}

/// Why the task a worker prepared is not the one the suite's run under way needs (a run on the
/// user's files that define another task), if it is not; `None` outside a suite.
pub(super) fn wrong_task(app: &Shared, prepared: &str) -> Option<String> {
    with_driven_run(app, |_, spec| {
        (spec.task != prepared).then(|| {
            t_with(
                "suite-wrong-task",
                &[("run", spec.name.as_str().into()), ("task", spec.task.as_str().into()), ("given", prepared.into())],
            )
        })
    })
    .flatten()
}

/// The suite stops driving runs (its progress is kept: resume goes on with the run under way).
pub(super) fn stop_driving(app: &Shared) {
    app.borrow_mut().suite_driving = false;
    draw(app);
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
    let Some(v) = view(&a)? else {
        dom::set_hidden("suite", true);
        return Ok(());
    };
    let e = &v.experiment;
    dom::set_hidden("suite", false);
    let (name, runs) = (e.experiment.as_str(), e.runs.len());
    // The live suite's run under way, while it runs.
    let mut running = None;
    let (status, said) = match (&a.suite_saved, a.suite.as_ref()) {
        (Some((file, saved)), _) => (
            "opened",
            key_with(
                "suite-opened",
                vec![
                    ("name", name.to_string().into()),
                    ("file", file.clone().into()),
                    ("models", saved.models.len().into()),
                ],
            ),
        ),
        (None, Some(progress)) => match progress.current(e) {
            Some(spec) if a.suite_driving => {
                running = Some(progress.next);
                (
                    "running",
                    key_with(
                        "suite-progress",
                        vec![
                            ("name", name.to_string().into()),
                            ("run", (progress.next + 1).into()),
                            ("runs", runs.into()),
                            ("task", spec.task.clone().into()),
                        ],
                    ),
                )
            }
            Some(_) => (
                "stopped",
                key_with(
                    "suite-stopped",
                    vec![("name", name.to_string().into()), ("done", progress.next.into()), ("runs", runs.into())],
                ),
            ),
            None => {
                ("done", key_with("suite-finished", vec![("name", name.to_string().into()), ("runs", runs.into())]))
            }
        },
        (None, None) => return Ok(()),
    };
    dom::set_data(&panel, "experiment", name);
    dom::set_data(&panel, "status", status);
    if let (None, Some(progress)) = (&a.suite_saved, a.suite.as_ref()) {
        dom::set_data(&panel, "next", &progress.next.to_string());
    }
    dom::set_data(&panel, "runs", &runs.to_string());
    dom::set_hidden("suite-resume", status != "stopped");
    let any = v.models.iter().any(|(_, r)| !r.runs.is_empty());
    for id in ["suite-json", "suite-svg", "suite-summary", "suite-print"] {
        dom::set_enabled(id, any);
    }
    text::show("suite-progress", said);
    let points = |x: f64| text::number(100.0 * x, NumberStyle::Decimal(1));
    let interval = |lo: f64, hi: f64| format!("{} – {}", points(lo), points(hi));
    let row = |body: &Element, data: &[(&str, String)], cells: &[(&str, String)]| -> Result<(), String> {
        let tr = dom::element("tr", "", "")?;
        for (k, v) in data {
            dom::set_data(&tr, k, v);
        }
        for (class, text) in cells {
            dom::append(&tr, &dom::element("td", class, text)?)?;
        }
        dom::append(body, &tr)
    };

    let body = dom::by_id("suite-runs")?;
    dom::clear(&body);
    for (i, spec) in e.runs.iter().enumerate() {
        for (model, results) in &v.models {
            let mut data = vec![("run", spec.name.clone()), ("model", model.clone())];
            let (accuracy, n) = match results.runs.get(&spec.name) {
                Some(s) => {
                    data.push(("accuracy", s.mean.to_string()));
                    data.push(("n", s.n.to_string()));
                    let ci = s.ci95().map(|(lo, hi)| format!(" ({})", interval(lo, hi))).unwrap_or_default();
                    (format!("{}{ci}", points(s.mean)), s.n.to_string())
                }
                None if running == Some(i) => ("…".into(), String::new()),
                None => ("–".into(), String::new()),
            };
            let cells =
                [("", model.clone()), ("", spec.name.clone()), ("", spec.describe()), ("num", accuracy), ("num", n)];
            row(&body, &data, &cells)?;
        }
    }

    let body = dom::by_id("suite-comparisons")?;
    dom::clear(&body);
    for (model, results) in &v.models {
        for (a_name, b_name, c) in &results.comparisons {
            let data = [
                ("model", model.clone()),
                ("a", a_name.clone()),
                ("b", b_name.clone()),
                ("items", c.n.to_string()),
                ("difference", c.difference.to_string()),
                ("only-a", c.only_a.to_string()),
                ("only-b", c.only_b.to_string()),
                ("mcnemar-p", c.mcnemar_p.to_string()),
            ];
            let ci = c.ci95.map(|(lo, hi)| format!(" ({})", interval(lo, hi))).unwrap_or_default();
            let cells = [
                ("", model.clone()),
                ("", format!("{b_name} − {a_name}")),
                ("num", c.n.to_string()),
                ("num", format!("{}{ci}", points(c.difference))),
                ("num", format!("{} / {}", c.only_a, c.only_b)),
                ("num", text::number(c.mcnemar_p, NumberStyle::Decimal(3))),
            ];
            row(&body, &data, &cells)?;
        }
    }
    dom::set_hidden("suite-comparisons-box", v.models.iter().all(|(_, r)| r.comparisons.is_empty()));

    let body = dom::by_id("suite-swings")?;
    dom::clear(&body);
    for (model, results) in &v.models {
        for (name, s) in &results.swings {
            let data = [("model", model.clone()), ("swing", name.clone()), ("value", s.swing.to_string())];
            let spec = e.swing.iter().find(|x| &x.name == name).map(|x| x.runs.join(", ")).unwrap_or_default();
            let value = format!("{} ({})", points(s.swing), interval(s.ci95.0, s.ci95.1));
            row(&body, &data, &[("", model.clone()), ("", name.clone()), ("", spec), ("num", value)])?;
        }
    }
    dom::set_hidden("suite-swings-box", v.models.iter().all(|(_, r)| r.swings.is_empty()));

    // Built from the experiment's own names and the models', each XML-escaped (`chart_svg`).
    let svg = if any { chart_svg(e, &v.results()) } else { String::new() };
    export::show_svg("suite-chart", &svg);
    Ok(())
}
