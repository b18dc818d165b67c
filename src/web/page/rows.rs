//! The run's table and summary line: a row per scored item (options with their probabilities,
//! or a generation's response with its reference), a failed item's row, a generation's
//! provisional row, the summary and the run's metrics. Every text goes in as text.

use super::*;

pub(super) fn clear_rows() {
    for id in [
        "result-rows",
        "breakdown-rows",
        "bias-rows",
        "parallel-head",
        "parallel-rows",
        "parallel-foot",
        "fertility-rows",
        "compare-rows",
    ] {
        if let Ok(el) = dom::by_id(id) {
            dom::clear(&el);
        }
    }
}

/// The run's rows and failed items drawn again from scratch, in order.
pub(super) fn draw_all_rows(run: &Run) {
    if let Ok(body) = dom::by_id("result-rows") {
        dom::clear(&body);
    }
    for row in run.rows.values() {
        let _ = draw_row(run, row);
    }
    for (index, message) in &run.failed {
        let _ = draw_failure(run, *index, message);
    }
}

/// One result row. Every text goes in as text (`dom::element`), never as markup.
pub(super) fn draw_row(run: &Run, row: &ItemRow) -> Result<(), String> {
    let item = run.items.get(row.index).ok_or("a row for an item that does not exist")?;
    let tr = row_element("")?;
    let _ = tr.set_attribute("tabindex", "0");
    dom::set_data(&tr, "index", &row.index.to_string());
    dom::set_data(&tr, "item-id", &item.id);
    dom::set_data(&tr, "chosen", &row.chosen.to_string());
    dom::set_data(&tr, "gold", &item.gold.to_string());
    dom::set_data(&tr, "correct", if row.correct { "true" } else { "false" });
    dom::set_data(&tr, "ll", &serde_json::to_string(&row.loglikelihoods).map_err(|e| e.to_string())?);

    dom::append(&tr, &cell("num", &(row.index + 1).to_string())?)?;
    let question = cell("question", &item.question)?;
    if !item.language.is_empty() {
        let _ = question.set_attribute("lang", &item.language);
    }
    dom::append(&tr, &question)?;

    if item.choices.is_empty() {
        return draw_text_row(run, item, row, tr);
    }
    let options = cell("options", "")?;
    let probs = probabilities(&row.loglikelihoods);
    for (i, choice) in item.choices.iter().enumerate() {
        let mut class = String::from("option");
        if i == row.chosen {
            class += " chosen";
        }
        if i == item.gold {
            class += " gold";
        }
        let line = dom::element("div", &class, "")?;
        dom::append(&line, &dom::element("span", "mark", "")?)?;
        let label = dom::element("span", "label", choice)?;
        if !item.language.is_empty() {
            let _ = label.set_attribute("lang", &item.language);
        }
        dom::append(&line, &label)?;
        let bar = dom::element("span", "bar", "")?;
        let fill = dom::element("span", "", "")?;
        let p = probs.get(i).copied().unwrap_or(0.0);
        // Through the CSSOM, which the page's Content-Security-Policy allows (a `style` attribute it refuses).
        if let Some(fill) = fill.dyn_ref::<web_sys::HtmlElement>() {
            let _ = fill.style().set_property("width", &format!("{:.1}%", 100.0 * p));
        }
        dom::append(&bar, &fill)?;
        dom::append(&line, &bar)?;
        dom::append(&line, &dom::element("span", "pct", &text::number(p, NumberStyle::Percent(0)))?)?;
        dom::append(&options, &line)?;
    }
    dom::append(&tr, &options)?;

    let letter = |i: usize| char::from(b'A' + (i.min(25) as u8)).to_string();
    let verdict = if row.correct {
        t("row-correct")
    } else {
        t_with("row-wrong", &[("chosen", letter(row.chosen).into()), ("gold", letter(item.gold).into())])
    };
    dom::append(&tr, &cell(if row.correct { "result correct" } else { "result wrong" }, &verdict)?)?;
    dom::append(&tr, &cell("ms", &format!("{:.0}", row.elapsed_ms))?)?;

    insert_in_order(run, row.index, &tr)
}

/// The row of a generation (the response, the reference below it) or of a loglikelihood item
/// (the continuation and its log-likelihood): `correct` is the exact match under the task's
/// first filter, or the continuation being the greedy one.
pub(super) fn draw_text_row(run: &Run, item: &ItemView, row: &ItemRow, tr: web_sys::Element) -> Result<(), String> {
    let options = cell("options", "")?;
    let line = |class: &str, text: &str| -> Result<(), String> {
        let div = dom::element("div", class, text)?;
        if !item.language.is_empty() {
            let _ = div.set_attribute("lang", &item.language);
        }
        dom::append(&options, &div)
    };
    match &row.response {
        Some(response) => {
            dom::set_data(&tr, "response", response);
            line("response", response)?;
            line("reference", item.reference.as_deref().unwrap_or_default())?;
        }
        None => {
            line("reference", item.reference.as_deref().unwrap_or_default())?;
            let ll = row.loglikelihoods.first().copied().unwrap_or(f64::NAN);
            line("ll", &text::number(ll, NumberStyle::Decimal(3)))?;
        }
    }
    dom::append(&tr, &options)?;
    let verdict = t(if row.correct { "row-correct" } else { "row-differs" });
    dom::append(&tr, &cell(if row.correct { "result correct" } else { "result wrong" }, &verdict)?)?;
    dom::append(&tr, &cell("ms", &format!("{:.0}", row.elapsed_ms))?)?;
    insert_in_order(run, row.index, &tr)
}

/// A generation's text so far, in a provisional row (`data-status=generating`) that its
/// finished row replaces.
pub(super) fn show_generating(app: &Shared, index: usize, text: &str) -> Result<(), String> {
    let a = app.borrow();
    let Some(run) = &a.run else { return Ok(()) };
    let Some(item) = run.items.get(index) else { return Ok(()) };
    if run.rows.contains_key(&index) {
        return Ok(());
    }
    let tr = unscored_row(item, "generating")?;
    let response = cell("options", "")?;
    let _ = response.set_attribute("colspan", "2");
    let text = dom::element("div", "response", text)?;
    if !item.language.is_empty() {
        let _ = text.set_attribute("lang", &item.language);
    }
    dom::append(&response, &text)?;
    dom::append(&tr, &response)?;
    dom::append(&tr, &cell("result", "…")?)?;
    insert_in_order(run, index, &tr)
}

/// `#run-metrics`: every metric of the run with its standard error, as its results file has
/// them (`scoring::session`, from the rows' sample lines; `data-metrics`: `{"name,filter": value}`).
pub(super) fn draw_metrics(run: &Run) {
    let Ok(p) = dom::by_id("run-metrics") else { return };
    let metrics = run.metrics().unwrap_or_default();
    let mut shown = Vec::new();
    let mut data = serde_json::Map::new();
    for m in &metrics {
        let digits = if m.value.abs() >= 10.0 { 2 } else { 4 };
        let value = text::number(m.value, NumberStyle::Decimal(digits));
        let stderr =
            m.stderr.map(|s| format!(" ± {}", text::number(s, NumberStyle::Decimal(digits)))).unwrap_or_default();
        shown.push(format!("{},{} {value}{stderr}", m.name, m.filter));
        data.insert(format!("{},{}", m.name, m.filter), serde_json::json!(m.value));
    }
    p.set_text_content(Some(&shown.join(" · ")));
    dom::set_data(&p, "metrics", &serde_json::Value::Object(data).to_string());
    dom::set_hidden("run-metrics", metrics.is_empty());
}

/// A row of the results table. The table is laid out as a grid per row (`www/style.css` says
/// why), so the row and its cells carry their table roles themselves.
fn row_element(class: &str) -> Result<web_sys::Element, String> {
    let tr = dom::element("tr", class, "")?;
    let _ = tr.set_attribute("role", "row");
    Ok(tr)
}

fn cell(class: &str, text: &str) -> Result<web_sys::Element, String> {
    let td = dom::element("td", class, text)?;
    let _ = td.set_attribute("role", "cell");
    Ok(td)
}

/// Rows stay in item order whatever order they arrive in (restored ones first); a row replaces
/// the item's provisional one.
pub(super) fn insert_in_order(run: &Run, index: usize, tr: &web_sys::Element) -> Result<(), String> {
    let body = dom::by_id("result-rows")?;
    // Rows are drawn in item order, so when the last one drawn comes before this item, the item has
    // no row yet and its row goes at the end: the usual case, found without a search of every row.
    let last =
        body.last_element_child().and_then(|r| r.get_attribute("data-index")).and_then(|i| i.parse::<usize>().ok());
    if last.is_none_or(|last| last < index) {
        return dom::append(&body, tr);
    }
    if let Ok(Some(old)) = body.query_selector(&format!("tr[data-index=\"{index}\"]")) {
        old.remove();
    }
    let next_row = run.rows.range(index + 1..).next().map(|(i, _)| *i);
    let next_failed = run.failed.range(index + 1..).next().map(|(i, _)| *i);
    let later = [next_row, next_failed]
        .into_iter()
        .flatten()
        .min()
        .and_then(|i| body.query_selector(&format!("tr[data-index=\"{i}\"]")).ok().flatten());
    match later {
        Some(next) => body.insert_before(tr, Some(&next)).map(|_| ()).map_err(|_| "cannot insert a row".to_string()),
        None => dom::append(&body, tr),
    }
}

/// The first cells of a row without a score yet, `tr.<status>[data-status=<status>]`: its
/// number and question.
fn unscored_row(item: &ItemView, status: &str) -> Result<web_sys::Element, String> {
    let tr = row_element(status)?;
    dom::set_data(&tr, "index", &item.index.to_string());
    dom::set_data(&tr, "item-id", &item.id);
    dom::set_data(&tr, "status", status);
    dom::set_data(&tr, "ll", "[]");
    dom::append(&tr, &cell("num", &(item.index + 1).to_string())?)?;
    let question = cell("question", &item.question)?;
    if !item.language.is_empty() {
        let _ = question.set_attribute("lang", &item.language);
    }
    dom::append(&tr, &question)?;
    Ok(tr)
}

/// The row of an item whose scoring crashed the worker: its question and the message.
pub(super) fn draw_failure(run: &Run, index: usize, message: &str) -> Result<(), String> {
    let item = run.items.get(index).ok_or("a failure for an item that does not exist")?;
    let tr = unscored_row(item, "failed")?;
    let note = cell("options", &t_with("row-not-scored", &[("message", message.into())]))?;
    let _ = note.set_attribute("colspan", "2");
    dom::append(&tr, &note)?;
    dom::append(&tr, &cell("result failed", &t("row-failed"))?)?;
    insert_in_order(run, index, &tr)
}

/// How many of the run's rows are committed to IndexedDB (`data-saved` on the summary).
pub(super) fn show_saved(app: &Shared) {
    if let Ok(summary) = dom::by_id("run-summary") {
        dom::set_data(&summary, "saved", &app.borrow().saved.to_string());
    }
}

/// `#position-warning[data-position|data-share]`: shown while one option position takes most of
/// the model's choices (`Run::collapsed_position`), pointing at the cloze form and the bias view.
pub(super) fn draw_position_warning(collapsed: Option<CollapsedPosition>) {
    let Ok(p) = dom::by_id("position-warning") else { return };
    let Some(c) = collapsed else {
        dom::set_data(&p, "position", "");
        dom::set_data(&p, "share", "");
        dom::set_hidden("position-warning", true);
        return;
    };
    let letter = char::from_u32('A' as u32 + c.position as u32).unwrap_or('?');
    let share = Arg::Number(c.share, NumberStyle::Percent(0));
    text::show(
        "position-warning",
        match &c.cloze {
            Some(task) => key_with(
                "position-warning-cloze",
                vec![("letter", letter.to_string().into()), ("share", share), ("task", task.as_str().into())],
            ),
            None => key_with("position-warning", vec![("letter", letter.to_string().into()), ("share", share)]),
        },
    );
    dom::set_data(&p, "position", &c.position.to_string());
    dom::set_data(&p, "share", &format!("{:.3}", c.share));
    dom::set_hidden("position-warning", false);
}

pub(super) fn update_summary(app: &Shared) {
    let a = app.borrow();
    let Ok(summary) = dom::by_id("run-summary") else { return };
    let Some(run) = &a.run else {
        summary.set_text_content(Some(&t("run-nothing")));
        dom::set_data(&summary, "done", "0");
        dom::set_data(&summary, "total", "0");
        dom::set_data(&summary, "accuracy", "");
        return;
    };
    dom::set_data(&summary, "done", &run.done().to_string());
    dom::set_data(&summary, "total", &run.total().to_string());
    dom::set_data(&summary, "task", &run.task);
    dom::set_data(&summary, "key", &run.key);
    let text = match run.accuracy() {
        Some(acc) => {
            dom::set_data(&summary, "accuracy", &acc.value.to_string());
            let percent = |x: f64| Arg::Number(x, NumberStyle::Percent(1));
            // A generation's verdict is an exact match under the task's first filter; a
            // loglikelihood item's, its continuation being the greedy one.
            let message = match run.output_type.as_str() {
                "generate_until" => "run-summary-exact",
                "loglikelihood" => "run-summary-greedy",
                _ => "run-summary",
            };
            t_with(
                message,
                &[
                    ("done", run.done().into()),
                    ("total", run.total().into()),
                    ("accuracy", percent(acc.value)),
                    ("low", percent(acc.low)),
                    ("high", percent(acc.high)),
                    ("task", run.task.as_str().into()),
                    ("model", run.model.as_str().into()),
                ],
            )
        }
        None => {
            dom::set_data(&summary, "accuracy", "");
            t_with(
                "run-summary-empty",
                &[("done", 0usize.into()), ("total", run.total().into()), ("task", run.task.as_str().into())],
            )
        }
    };
    dom::set_data(&summary, "failed", &run.failed.len().to_string());
    let text = match run.failed.len() {
        0 => text,
        n => format!("{text} · {}", t_with("run-summary-failed", &[("n", n.into())])),
    };
    // Which documents the run is of: "language = dz · a sample of 20 (seed 1234)".
    let mut selection: Vec<String> = run.settings.filters.iter().map(|(f, v)| format!("{f} = {v}")).collect();
    if let Some(k) = run.settings.sample {
        selection
            .push(t_with("run-sample", &[("n", k.into()), ("seed", run.settings.sample_seed().to_string().into())]));
    }
    let text = std::iter::once(text).chain(selection).collect::<Vec<_>>().join(" · ");
    summary.set_text_content(Some(&text));
    draw_position_warning(run.collapsed_position());
    drop(a);
    app.borrow_mut().analysis.dirty = [true; VIEWS.len()];
    schedule_analysis(app);
}
