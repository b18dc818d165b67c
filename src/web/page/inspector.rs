//! The inspector: one item's prompt cut into the model's tokens, with its options' scores.

use super::*;

/// The inspector: the exact prompt, each option's scores, and the same question in other languages.
pub(super) fn select_row(app: &Shared, index: usize) {
    let result = (|| -> Result<(), String> {
        let mut a = app.borrow_mut();
        a.selected = Some(index);
        let run = a.run.as_ref().ok_or("no run")?;
        let item = run.items.get(index).ok_or("no such item")?;
        let row = run.rows.get(&index);
        if let Ok(rows) = dom::by_id("result-rows")?.query_selector_all("tr[aria-selected]") {
            for i in 0..rows.length() {
                if let Some(el) = rows.get(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                    let _ = el.remove_attribute("aria-selected");
                }
            }
        }
        if let Ok(Some(tr)) = dom::by_id("result-rows")?.query_selector(&format!("tr[data-index=\"{index}\"]")) {
            let _ = tr.set_attribute("aria-selected", "true");
        }
        dom::set_hidden("inspector", false);
        text::show(
            "inspector-heading",
            key_with("inspector-item", vec![("number", (index + 1).into()), ("id", item.id.as_str().into())]),
        );
        let prompt = dom::by_id("inspector-prompt")?;
        prompt.set_text_content(Some(&item.context));
        if !item.language.is_empty() {
            let _ = prompt.set_attribute("lang", &item.language);
        }
        text::show("inspector-tokens", Said::Raw(String::new()));
        let body = dom::by_id("inspector-options")?;
        dom::clear(&body);
        for (i, choice) in item.choices.iter().enumerate() {
            let tr = dom::element("tr", if i == item.gold { "gold" } else { "" }, "")?;
            let ll = row.and_then(|r| r.loglikelihoods.get(i)).copied();
            let cells = [
                format!("{}{}", if i == item.gold { "★ " } else { "" }, choice),
                ll.map(|l| format!("{l:.4}")).unwrap_or_default(),
                // What acc_norm compares, as the scoring module computes it.
                ll.map(|l| format!("{:.4}", crate::scoring::loglikelihood::per_character(l, choice)))
                    .unwrap_or_default(),
                row.and_then(|r| r.token_counts.get(i)).map(|t| t.to_string()).unwrap_or_default(),
                row.and_then(|r| r.is_greedy.get(i)).map(|g| t(if *g { "yes" } else { "no" })).unwrap_or_default(),
            ];
            for cell in cells {
                dom::append(&tr, &dom::element("td", "", &cell)?)?;
            }
            dom::append(&body, &tr)?;
        }
        // Parallel versions: items of the same `group` (the demo) or `parallel` link.
        let parallel = dom::by_id("inspector-parallel")?;
        dom::clear(&parallel);
        // Items of the same `group` (the demo) or joined by DZEN-style `parallel` ids.
        if let Some(group) = crate::web::run::parallel_key(item) {
            let others: Vec<_> = run
                .items
                .iter()
                .filter(|o| o.index != index && crate::web::run::parallel_key(o).as_ref() == Some(&group))
                .collect();
            if !others.is_empty() {
                dom::append(&parallel, &dom::element("h3", "", &t("inspector-other-languages"))?)?;
                for o in others {
                    let verdict = match run.rows.get(&o.index) {
                        Some(r) if r.correct => "✓",
                        Some(_) => "✗",
                        None => "…",
                    };
                    let p = dom::element("p", "", &format!("{verdict} {}", o.question))?;
                    if !o.language.is_empty() {
                        let _ = p.set_attribute("lang", &o.language);
                    }
                    dom::append(&parallel, &p)?;
                }
            }
        }
        let worker = a.worker.clone();
        let can_tokenize = a.model_loaded && a.driver.phase() != Phase::Idle;
        drop(a);
        if can_tokenize {
            post(&worker, &ToWorker::Tokenize { index })?;
        }
        Ok(())
    })();
    if let Err(e) = result {
        show_error(&e);
    }
}

pub(super) fn show_tokens(app: &Shared, index: usize, pieces: &[String], count: usize) -> Result<(), String> {
    if app.borrow().selected != Some(index) {
        return Ok(());
    }
    let prompt = dom::by_id("inspector-prompt")?;
    dom::clear(&prompt);
    // Runs of whole characters, so the text is shaped exactly as the plain prompt (see `segments`).
    let segments = crate::web::segments::token_segments(pieces);
    let split = segments.iter().any(|s| s.split) || pieces.len() < count;
    for segment in &segments {
        let span = dom::element("span", if segment.split { "tok split" } else { "tok" }, &segment.text)?;
        if segment.pieces > 1 {
            dom::set_data(&span, "tokens", &segment.pieces.to_string());
        }
        dom::append(&prompt, &span)?;
    }
    dom::set_data(&prompt, "segments", &segments.len().to_string());
    let message = if split { "inspector-tokens-split" } else { "inspector-tokens" };
    text::show("inspector-tokens", key_with(message, vec![("n", count.into())]));
    Ok(())
}
