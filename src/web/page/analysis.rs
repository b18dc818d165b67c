//! The analysis views under the run: accuracy by metadata, position bias, the same questions
//! across languages and runs, tokenizer fertility, and a saved run compared item by item; each
//! redrawn only when it is on screen and out of date.

use super::*;

/// Watches which analysis views are on screen; one that comes into view out of date is drawn.
/// Without `IntersectionObserver` every view counts as visible.
pub(super) fn observe_views(app: &Shared) {
    let a = app.clone();
    let callback = wasm_bindgen::closure::Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        let mut due = false;
        for entry in entries.iter() {
            let entry: web_sys::IntersectionObserverEntry = entry.unchecked_into();
            let id = entry.target().id();
            let Some(i) = VIEWS.iter().position(|v| *v == id) else { continue };
            let mut s = a.borrow_mut();
            s.analysis.visible[i] = entry.is_intersecting();
            due |= s.analysis.visible[i] && s.analysis.dirty[i];
        }
        if due {
            schedule_analysis(&a);
        }
    });
    let Ok(observer) = web_sys::IntersectionObserver::new(callback.as_ref().unchecked_ref()) else { return };
    callback.forget();
    for id in VIEWS {
        if let Ok(el) = dom::by_id(id) {
            observer.observe(&el);
        }
    }
    // It lives as long as the page.
    std::mem::forget(observer);
}

/// Draws the out-of-date visible views at the next animation frame, and not before
/// `ANALYSIS_INTERVAL_MS` (or four times the last redraw) after the last one.
pub(super) fn schedule_analysis(app: &Shared) {
    let wait = {
        let mut a = app.borrow_mut();
        if a.analysis.scheduled {
            return;
        }
        a.analysis.scheduled = true;
        (a.analysis.next_at - js_sys::Date::now()).max(0.0)
    };
    let app = app.clone();
    gloo::timers::callback::Timeout::new(wait as u32, move || {
        let draw = wasm_bindgen::closure::Closure::once_into_js(move || {
            let started = js_sys::Date::now();
            app.borrow_mut().analysis.scheduled = false;
            draw_views(&app, false);
            let cost = js_sys::Date::now() - started;
            app.borrow_mut().analysis.next_at = js_sys::Date::now() + (4.0 * cost).max(ANALYSIS_INTERVAL_MS);
        });
        if gloo::utils::window().request_animation_frame(draw.unchecked_ref()).is_err() {
            let _ = draw.unchecked_ref::<js_sys::Function>().call0(&JsValue::NULL);
        }
    })
    .forget();
}

/// Draws every out-of-date view now, on screen or not: when the run stops (done, paused), a saved
/// run is opened, or runs to compare are; so what a finished run shows is always complete.
pub(super) fn flush_analysis(app: &Shared) {
    draw_views(app, true);
    if let Some(run) = &app.borrow().run {
        draw_metrics(run);
    }
}

/// Draws the out-of-date views (only the visible ones unless `all`).
pub(super) fn draw_views(app: &Shared, all: bool) {
    let due: Vec<usize> = {
        let mut a = app.borrow_mut();
        let due: Vec<usize> =
            (0..VIEWS.len()).filter(|&i| a.analysis.dirty[i] && (all || a.analysis.visible[i])).collect();
        for &i in &due {
            a.analysis.dirty[i] = false;
        }
        due
    };
    let a = app.borrow();
    let Some(run) = &a.run else { return };
    for i in due {
        let drawn = match VIEWS[i] {
            "view-breakdown" => draw_breakdown(run),
            "view-bias" => draw_bias(run),
            "view-parallel" => draw_parallel(run, &a.comparisons),
            _ => draw_comparison(run, a.comparisons.first()),
        };
        if let Err(e) = drawn {
            web_sys::console::warn_1(&e.into());
        }
    }
}

/// Groups × languages with ✓/✗ per cell, then each language's accuracy on all its grouped items
/// and on the groups answered in every language.
pub(super) fn draw_parallel(run: &Run, others: &[(String, Run)]) -> Result<(), String> {
    let this_run = t("parallel-this-run");
    let mut runs: Vec<(&str, &Run)> = vec![(this_run.as_str(), run)];
    runs.extend(others.iter().map(|(name, r)| (name.as_str(), r)));
    let table = crate::web::run::parallel_table(&runs);
    let (head, body, foot) = (dom::by_id("parallel-head")?, dom::by_id("parallel-rows")?, dom::by_id("parallel-foot")?);
    for el in [&head, &body, &foot] {
        dom::clear(el);
    }
    let el = dom::by_id("parallel")?;
    dom::set_data(&el, "groups", &table.groups.len().to_string());
    dom::set_data(&el, "complete", &table.complete.to_string());
    dom::set_data(&el, "runs", &runs.len().to_string());
    if table.groups.is_empty() {
        return Ok(());
    }
    let tr = dom::element("tr", "", "")?;
    dom::append(&tr, &dom::element("th", "", &t("col-group"))?)?;
    for variant in &table.variants {
        dom::append(&tr, &dom::element("th", "", variant)?)?;
    }
    dom::append(&head, &tr)?;
    for group in &table.groups {
        let tr = dom::element("tr", "", "")?;
        dom::set_data(&tr, "group", &group.key);
        let name = group.key.split_once(':').map_or(group.key.as_str(), |(_, k)| k);
        dom::append(&tr, &dom::element("td", "", name)?)?;
        for (variant, cell) in table.variants.iter().zip(&group.cells) {
            let (text, class) = match cell {
                None => (String::new(), ""),
                Some(c) if c.answered == 0 => ("…".into(), ""),
                Some(c) if c.items.len() == 1 && c.correct == 1 => ("✓".into(), "result correct"),
                Some(c) if c.items.len() == 1 => ("✗".into(), "result wrong"),
                Some(c) => (format!("{}/{}", c.correct, c.answered), ""),
            };
            let td = dom::element("td", class, &text)?;
            // `data-language` is the column, a language or a variant such as `dz+en`.
            dom::set_data(&td, "language", variant);
            if let Some(c) = cell {
                dom::set_data(&td, "answered", &c.answered.to_string());
                dom::set_data(&td, "correct", &c.correct.to_string());
                dom::set_data(&td, "run", &c.run.to_string());
                let items = &runs[c.run].1.items;
                let ids: Vec<&str> = c.items.iter().filter_map(|&i| items.get(i)).map(|i| i.id.as_str()).collect();
                let _ = td.set_attribute("title", &format!("{}: {}", runs[c.run].0, ids.join(", ")));
            }
            dom::append(&tr, &td)?;
        }
        dom::append(&body, &tr)?;
    }
    let percent = |x: Option<f64>, n: usize| {
        x.map(|x| t_with("share-of", &[("share", Arg::Number(x, NumberStyle::Percent(0))), ("n", n.into())]))
            .unwrap_or_else(|| "—".into())
    };
    let every = t("parallel-every-item");
    let common_label = t_with("parallel-common", &[("n", table.complete.into())]);
    for (label, common) in [(every.as_str(), false), (common_label.as_str(), true)] {
        let tr = dom::element("tr", "", "")?;
        dom::set_data(&tr, "common", if common { "true" } else { "false" });
        dom::append(&tr, &dom::element("th", "", label)?)?;
        for acc in &table.accuracy {
            let (x, n) = if common { (acc.common_accuracy, acc.common_answered) } else { (acc.accuracy, acc.answered) };
            let td = dom::element("td", "", &percent(x, n))?;
            dom::set_data(&td, "language", &acc.variant);
            dom::set_data(&td, "accuracy", &x.map(|x| x.to_string()).unwrap_or_default());
            dom::append(&tr, &td)?;
        }
        dom::append(&foot, &tr)?;
    }
    Ok(())
}

pub(super) fn show_fertility(rows: &[FertilityRow]) -> Result<(), String> {
    let body = dom::by_id("fertility-rows")?;
    dom::clear(&body);
    let ratio = |x: Option<f64>| x.map(|x| text::number(x, NumberStyle::Decimal(2))).unwrap_or_else(|| "—".into());
    for r in rows {
        let tr = dom::element("tr", "", "")?;
        dom::set_data(&tr, "language", &r.language);
        dom::set_data(&tr, "tokens", &r.tokens.to_string());
        dom::set_data(&tr, "words", &r.words.to_string());
        dom::set_data(&tr, "chars", &r.chars.to_string());
        for cell in [
            r.language.clone(),
            text::number(r.texts as f64, NumberStyle::Integer),
            text::number(r.tokens as f64, NumberStyle::Integer),
            ratio(r.tokens_per_word),
            ratio(r.tokens_per_syllable),
            ratio(r.tokens_per_char),
        ] {
            dom::append(&tr, &dom::element("td", "", &cell)?)?;
        }
        dom::append(&body, &tr)?;
    }
    Ok(())
}

/// The counts of the two runs' verdicts, and the items they disagree on.
pub(super) fn draw_comparison(run: &Run, comparison: Option<&(String, Run)>) -> Result<(), String> {
    let body = dom::by_id("compare-rows")?;
    dom::clear(&body);
    let summary = dom::by_id("compare-summary")?;
    let Some((name, other)) = comparison else { return Ok(()) };
    let c = run.compare(other);
    for (key, n) in
        [("both-right", c.both_right), ("both-wrong", c.both_wrong), ("only-a", c.only_a), ("only-b", c.only_b)]
    {
        dom::set_data(&summary, key, &n.to_string());
    }
    let mut said = t_with(
        "compare-summary",
        &[
            ("name", name.as_str().into()),
            ("n", (c.both_right + c.both_wrong + c.only_a + c.only_b).into()),
            ("both_right", c.both_right.into()),
            ("both_wrong", c.both_wrong.into()),
            ("only_a", c.only_a.into()),
            ("only_b", c.only_b.into()),
        ],
    );
    if let Some(p) = c.paired() {
        // Whether the gap is more than noise: the difference in points with its interval, and the
        // exact McNemar test on the items that flipped.
        let points = |x: f64| Arg::Number(100.0 * x, NumberStyle::Decimal(1));
        let (lo, hi) = p.ci95.unwrap_or((p.difference, p.difference));
        said = format!(
            "{said} {}",
            t_with(
                "compare-paired",
                &[
                    ("points", points(p.difference)),
                    ("lo", points(lo)),
                    ("hi", points(hi)),
                    ("p", Arg::Number(p.mcnemar_p, NumberStyle::Decimal(3))),
                ]
            )
        );
        dom::set_data(&summary, "mcnemar-p", &p.mcnemar_p.to_string());
    }
    if c.unmatched_a + c.unmatched_b > 0 {
        said = format!(
            "{said} · {}",
            t_with("compare-unmatched", &[("a", c.unmatched_a.into()), ("b", c.unmatched_b.into())])
        );
    }
    summary.set_text_content(Some(&said));
    let (right, wrong) = (t("verdict-right"), t("verdict-wrong"));
    let verdict = |ok: bool| if ok { right.as_str() } else { wrong.as_str() };
    for d in &c.differences {
        let tr = dom::element("tr", "", "")?;
        dom::set_data(&tr, "item-id", &d.id);
        dom::set_data(&tr, "a", if d.a { "true" } else { "false" });
        dom::set_data(&tr, "b", if d.b { "true" } else { "false" });
        let item = run.items.get(d.index);
        dom::append(&tr, &dom::element("td", "num", &(d.index + 1).to_string())?)?;
        dom::append(&tr, &dom::element("td", "", &d.id)?)?;
        let question = dom::element("td", "question", item.map_or("", |i| i.question.as_str()))?;
        if let Some(language) = item.map(|i| i.language.as_str()).filter(|l| !l.is_empty()) {
            let _ = question.set_attribute("lang", language);
        }
        dom::append(&tr, &question)?;
        dom::append(&tr, &dom::element("td", if d.a { "result correct" } else { "result wrong" }, verdict(d.a))?)?;
        dom::append(&tr, &dom::element("td", if d.b { "result correct" } else { "result wrong" }, verdict(d.b))?)?;
        dom::append(&body, &tr)?;
    }
    Ok(())
}

/// Saved runs (samples JSONL) to compare the current run with: the first item by item, all of
/// them in the same-question table.
pub(super) async fn open_comparison(app: &Shared) {
    let files = dom::files("compare-file");
    if files.is_empty() {
        return;
    }
    let mut opened = Vec::new();
    for file in files {
        let result = async {
            let text = JsFuture::from(file.text()).await.map_err(|_| format!("{}: cannot be read", file.name()))?;
            Run::from_samples_jsonl(&file.name(), &text.as_string().unwrap_or_default()).map_err(|e| e.to_string())
        }
        .await;
        match result {
            Ok(run) => opened.push((file.name(), run)),
            Err(e) => return show_error(&e),
        }
    }
    clear_error();
    app.borrow_mut().comparisons = opened;
    update_summary(app);
    flush_analysis(app);
}

pub(super) fn draw_breakdown(run: &Run) -> Result<(), String> {
    let body = dom::by_id("breakdown-rows")?;
    dom::clear(&body);
    for b in run.breakdown() {
        let tr = dom::element("tr", "", "")?;
        for cell in [
            b.field.clone(),
            b.value.clone(),
            text::number(b.n as f64, NumberStyle::Integer),
            text::number(b.accuracy, NumberStyle::Percent(1)),
        ] {
            dom::append(&tr, &dom::element("td", "", &cell)?)?;
        }
        dom::append(&body, &tr)?;
    }
    Ok(())
}

pub(super) fn draw_bias(run: &Run) -> Result<(), String> {
    let body = dom::by_id("bias-rows")?;
    dom::clear(&body);
    for p in run.position_bias() {
        let tr = dom::element("tr", "", "")?;
        let letter = char::from(b'A' + (p.position.min(25) as u8)).to_string();
        let percent = |x: f64| text::number(x, NumberStyle::Percent(0));
        let acc = p.accuracy_when_gold.map(percent).unwrap_or_else(|| "—".into());
        for cell in [
            letter,
            text::number(p.gold_count as f64, NumberStyle::Integer),
            acc,
            percent(p.chosen_share),
            percent(p.uniform_share),
        ] {
            dom::append(&tr, &dom::element("td", "", &cell)?)?;
        }
        dom::append(&body, &tr)?;
    }
    Ok(())
}
