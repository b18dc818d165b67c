//! A run out of the page and back: samples JSONL, results JSON and CSV (computed by
//! `scoring::session`, as the CLI's), the summary picture and its print, and a samples file
//! opened as a run.

use super::*;

pub(super) fn export(app: &Shared, kind: &str) -> Result<(), String> {
    let a = app.borrow();
    let run = a.run.as_ref().ok_or("nothing to export yet")?;
    let backend = if a.backend.is_empty() { "unknown" } else { a.backend.as_str() };
    match kind {
        "jsonl" => dom::download(&format!("samples_{}.jsonl", run.task), "application/jsonl", &run.samples_jsonl()),
        "json" => dom::download(
            &format!("results_{}.json", run.task),
            "application/json",
            &run.results_json(backend, a.started_unix, js_sys::Date::now() / 1e3).map_err(|e| e.to_string())?,
        ),
        _ => dom::download(&format!("items_{}.csv", run.task), "text/csv", &run.csv().map_err(|e| e.to_string())?),
    }
}

pub(super) async fn import(app: &Shared) {
    let Some(file) = dom::files("import-file").into_iter().next() else { return };
    let result = async {
        let text = JsFuture::from(file.text()).await.map_err(|_| format!("{}: cannot be read", file.name()))?;
        let text = text.as_string().unwrap_or_default();
        Run::from_samples_jsonl(&file.name(), &text).map_err(|e| e.to_string())
    }
    .await;
    match result {
        Ok(run) => {
            clear_error();
            clear_rows();
            draw_all_rows(&run);
            let name = file.name();
            let effects = {
                let mut a = app.borrow_mut();
                a.run = Some(run);
                a.run_prepared = false;
                a.driver.update(Event::Imported)
            };
            dom::set_hidden("inspector", true);
            say(key_with("status-saved-run", vec![("name", name.into())]));
            update_summary(app);
            flush_analysis(app);
            apply(app, effects);
        }
        Err(e) => show_error(&e),
    }
}

/// The run's one-page summary (`web::summary`) in the page's language, or None before any row.
pub(super) fn summary_svg(app: &Shared) -> Option<String> {
    let a = app.borrow();
    let run = a.run.as_ref()?;
    let acc = run.accuracy()?;
    let percent = |x: f64| Arg::Number(x, NumberStyle::Percent(1));
    let date =
        js_sys::Date::new_0().to_iso_string().as_string().unwrap_or_default().chars().take(10).collect::<String>();
    let backend = if a.backend.is_empty() { "?".to_string() } else { a.backend.clone() };
    let words = crate::web::summary::SummaryText {
        title: t_with("summary-title", &[("task", run.task.as_str().into())]),
        headline: t_with(
            "summary-headline",
            &[
                ("accuracy", percent(acc.value)),
                ("low", percent(acc.low)),
                ("high", percent(acc.high)),
                ("done", run.done().into()),
                ("total", run.total().into()),
            ],
        ),
        model: t_with(
            "summary-model",
            &[("model", run.model.as_str().into()), ("backend", backend.into()), ("date", date.into())],
        ),
        by: t("summary-by"),
        positions: t("summary-positions"),
        chosen: t("summary-chosen"),
        gold_here: t("summary-gold-here"),
        more: Box::new(|n| t_with("summary-more", &[("n", n.into())])),
    };
    Some(crate::web::summary::summary_svg(run, &words, &|x| text::number(x, NumberStyle::Percent(0))))
}

/// The summary, parsed as SVG (our own markup, its text escaped) into `#print-summary`, which
/// only printing shows: the page's fonts draw every script in it.
pub(super) fn draw_print_summary(app: &Shared) {
    let Some(svg) = summary_svg(app) else { return };
    if show_svg("print-summary", &svg) {
        if let Ok(target) = dom::by_id("print-summary") {
            dom::set_data(&target, "ready", "true");
        }
    }
}

/// Our own SVG markup (its text escaped) parsed as SVG, never as HTML, in place of what the
/// element `id` held. Whether it is there.
pub(super) fn show_svg(id: &str, svg: &str) -> bool {
    let Ok(target) = dom::by_id(id) else { return false };
    dom::clear(&target);
    if svg.is_empty() {
        return false;
    }
    let Ok(parser) = web_sys::DomParser::new() else { return false };
    let Ok(parsed) = parser.parse_from_string(svg, web_sys::SupportedType::ImageSvgXml) else { return false };
    let Some(root) = parsed.document_element() else { return false };
    match dom::document().import_node_with_deep(&root, true) {
        Ok(node) => target.append_child(&node).is_ok(),
        Err(_) => false,
    }
}
