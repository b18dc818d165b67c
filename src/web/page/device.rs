//! The device and model panel: the backend and its self-test, download progress, the models
//! kept in Cache Storage, and the `?context=`/`?choice=` scorer.

use super::*;

/// "Downloading 120 of 676 MB · 12.3 MB/s · 45 s left", or where the model came from.
pub(super) fn show_download(app: &Shared, loaded: u64, total: Option<u64>, from_cache: bool, resumed_from: u64) {
    let Ok(info) = dom::by_id("model-info") else { return };
    dom::set_data(&info, "loaded", &loaded.to_string());
    dom::set_data(&info, "resumed-from", &resumed_from.to_string());
    if let Some(t) = total {
        dom::set_data(&info, "total", &t.to_string());
    }
    let now = js_sys::Date::now();
    let started = {
        let mut a = app.borrow_mut();
        if a.download_started == 0.0 || loaded == 0 {
            a.download_started = now;
        }
        a.download_started
    };
    let mb = |b: u64, digits: usize| Arg::Number(b as f64 / 1e6, NumberStyle::Decimal(digits));
    let said = if from_cache {
        dom::set_data(&info, "source", "cache");
        key_with("download-cache", vec![("mb", mb(loaded, 1))])
    } else if total == Some(loaded) {
        dom::set_data(&info, "source", "network");
        key_with("download-done", vec![("mb", mb(loaded, 1))])
    } else {
        let secs = ((now - started) / 1e3).max(1e-3);
        // The rate of this page's download, not counting what an earlier page saved.
        let rate = loaded.saturating_sub(resumed_from) as f64 / 1e6 / secs;
        let progress = match total {
            Some(t) if rate > 0.0 => {
                let seconds = (t.saturating_sub(loaded) as f64 / 1e6 / rate).round();
                key_with(
                    "download-progress-total",
                    vec![
                        ("mb", mb(loaded, 1)),
                        ("total", mb(t, 0)),
                        ("rate", Arg::Number(rate, NumberStyle::Decimal(1))),
                        ("seconds", Arg::Number(seconds, NumberStyle::Integer)),
                    ],
                )
            }
            _ => key_with(
                "download-progress-rate",
                vec![("mb", mb(loaded, 1)), ("rate", Arg::Number(rate, NumberStyle::Decimal(1)))],
            ),
        };
        if resumed_from > 0 {
            Said::Joined(vec![progress, key_with("download-resumed", vec![("mb", mb(resumed_from, 1))])], " ")
        } else {
            progress
        }
    };
    text::show("model-info", said);
}

/// The models kept in Cache Storage, each with its size and a button that deletes it.
pub(super) async fn show_cached_models() {
    let Ok(list) = dom::by_id("cached-models") else { return };
    let Some(cache) = page_cache().await else { return show_task_offline().await };
    let Ok(keys) = JsFuture::from(cache.keys()).await else { return };
    dom::clear(&list);
    let keys = js_sys::Array::from(&keys);
    for request in keys.iter() {
        let Ok(request) = request.dyn_into::<web_sys::Request>() else { continue };
        let url = request.url();
        // The worker's note of the files it chose on the Hub (`HubData::chosen_key`), not a download.
        if url.contains("lingualens-chosen=") {
            continue;
        }
        let size = kept_size(&cache, &url).await.flatten();
        let Ok(li) = dom::element(
            "li",
            "",
            &format!(
                "{} ({}) ",
                crate::catalog::file_name_of(&url),
                size.map(|s| format!("{} MB", text::number(s / 1e6, NumberStyle::Decimal(1))))
                    .unwrap_or_else(|| t("size-unknown"))
            ),
        ) else {
            continue;
        };
        if let Ok(button) = dom::element("button", "small", &t("cache-delete-button")) {
            let _ = button.set_attribute("type", "button");
            let _ = button.set_attribute("aria-label", &t_with("cache-delete", &[("file", url.as_str().into())]));
            let c = cache.clone();
            EventListener::new(&button, "click", move |_| {
                let (c, url) = (c.clone(), url.clone());
                spawn_local(async move {
                    let _ = JsFuture::from(c.delete_with_str(&url)).await;
                    show_cached_models().await;
                });
            })
            .forget();
            let _ = dom::append(&li, &button);
        }
        let _ = dom::append(&list, &li);
    }
    dom::set_hidden("cached-models-box", keys.length() == 0);
    // What was kept or deleted changes whether the picked task runs offline.
    show_task_offline().await;
}

/// `None` where `url` is not kept; else its size in bytes where it can be told: the header where
/// the download had one, else the stored body's own size (a Blob is a handle: nothing is read).
pub(super) async fn kept_size(cache: &web_sys::Cache, url: &str) -> Option<Option<f64>> {
    let response =
        JsFuture::from(cache.match_with_str(url)).await.ok().and_then(|r| r.dyn_into::<web_sys::Response>().ok())?;
    Some(match response.headers().get("content-length").ok().flatten().and_then(|l| l.parse::<f64>().ok()) {
        Some(length) => Some(length),
        None => match response.blob() {
            Ok(blob) => {
                JsFuture::from(blob).await.ok().and_then(|b| b.dyn_into::<web_sys::Blob>().ok()).map(|b| b.size())
            }
            Err(_) => None,
        },
    })
}

pub(super) async fn page_cache() -> Option<web_sys::Cache> {
    let caches = gloo::utils::window().caches().ok()?;
    JsFuture::from(caches.open(MODEL_CACHE)).await.ok()?.dyn_into().ok()
}

pub(super) fn show_backend(info: &BackendInfo) -> Result<(), String> {
    let table = dom::by_id("backend-info")?;
    dom::clear(&table);
    let a = &info.adapter;
    let mut rows = vec![
        ("device-backend", format!("{} ({})", info.label(), a.api)),
        (
            "device-adapter",
            [a.vendor.as_str(), a.architecture.as_str(), a.name.as_str()]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" · "),
        ),
        ("device-type", a.device_type.clone()),
    ];
    if let (Some(kernel), true) = (&info.int8_kernel, info.activations == crate::backend::Activations::Int8) {
        rows.push(("device-kernel", kernel.clone()));
    }
    if let (Some(threads), crate::backend::BackendKind::Cpu) = (info.threads, info.backend) {
        rows.push(("device-threads", threads.to_string()));
    }
    if let Some(fallback) = a.is_fallback_adapter {
        rows.push(("device-fallback", t(if fallback { "yes" } else { "no" })));
    }
    if let Some(limits) = info.limits {
        rows.push(("maxStorageBufferBindingSize", format_bytes(limits.max_storage_buffer_binding_size)));
        rows.push(("maxBufferSize", format_bytes(limits.max_buffer_size)));
    }
    if let Some(reason) = &info.fallback_reason {
        rows.push(("device-why-not-webgpu", reason.clone()));
    }
    if let Some(calibration) = &info.calibration {
        rows.push(("device-calibration", calibration.clone()));
    }
    for (key, value) in rows {
        // The two limits are WebGPU's own names; the rest are messages.
        let label = if key.starts_with("max") { key.to_string() } else { t(key) };
        dom::append(&table, &dom::key_value_row(&label, &value)?)?;
    }
    dom::set_data(&table, "backend", info.backend.name());
    dom::set_data(&table, "label", info.label());
    dom::set_data(&table, "int8-kernel", info.int8_kernel.as_deref().unwrap_or(""));
    dom::set_data(&table, "threads", &info.threads.map(|n| n.to_string()).unwrap_or_default());
    dom::set_data(&table, "architecture", &a.architecture);
    dom::set_data(&table, "calibration", info.calibration.as_deref().unwrap_or(""));
    Ok(())
}

pub(super) fn show_selftest(report: &SelfTestReport) -> Result<(), String> {
    show_backend(&report.backend)?;
    let body = dom::by_id("selftest-rows")?;
    dom::clear(&body);
    for check in &report.checks {
        let row = dom::element("tr", if check.passed { "pass" } else { "fail" }, "")?;
        let cells = [
            check.name.clone(),
            check.shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("×"),
            format!("{:.2e}", check.max_abs_error),
            format!("{:.0e}", check.tolerance),
            head(&check.device_head),
            head(&check.reference_head),
            t(if check.passed { "selftest-matches" } else { "selftest-differs" }),
        ];
        for cell in cells {
            dom::append(&row, &dom::element("td", "", &cell)?)?;
        }
        dom::append(&body, &row)?;
    }
    let el = dom::by_id("selftest")?;
    dom::set_data(&el, "backend", report.backend.backend.name());
    dom::set_data(&el, "architecture", &report.backend.adapter.architecture);
    dom::set_data(&el, "report", &serde_json::to_string(report).unwrap_or_default());
    dom::set_data(&el, "status", if report.passed { "pass" } else { "fail" });
    let summary = key_with(
        if report.passed { "selftest-summary-passed" } else { "selftest-summary-failed" },
        vec![("device", report.backend.label().into()), ("ms", Arg::Number(report.elapsed_ms, NumberStyle::Integer))],
    );
    text::show("device-summary", key("device-summary-done").with_part("summary", summary));
    Ok(())
}

pub(super) fn show_scores(backend: &str, choices: &[crate::engine::ContinuationScore]) -> Result<(), String> {
    let body = dom::by_id("score-rows")?;
    dom::clear(&body);
    for c in choices {
        let row = dom::element("tr", "", "")?;
        for cell in [
            format!("{:?}", c.continuation),
            format!("{:.6}", c.loglikelihood),
            c.is_greedy.to_string(),
            c.continuation_tokens.len().to_string(),
        ] {
            dom::append(&row, &dom::element("td", "", &cell)?)?;
        }
        dom::append(&body, &row)?;
    }
    let el = dom::by_id("score")?;
    dom::set_data(&el, "backend", backend);
    dom::set_data(&el, "result", &serde_json::to_string(choices).unwrap_or_default());
    dom::set_data(&el, "status", "done");
    say(key_with("status-scored", vec![("n", choices.len().into()), ("backend", backend.into())]));
    Ok(())
}

pub(super) fn head(values: &[f32]) -> String {
    values.iter().map(|v| format!("{v:.5}")).collect::<Vec<_>>().join(", ")
}

pub(super) fn legacy_score(worker: &Worker, preference: BackendPreference) -> Result<(), String> {
    if let Some(url) = dom::query_param("model") {
        dom::set_hidden("score", false);
        if let Ok(details) = dom::by_id("device-details") {
            let _ = details.set_attribute("open", "");
        }
        post(
            worker,
            &ToWorker::LoadModel {
                source: ModelSource::Url { url, check: ModelCheck::default(), from: None },
                backend: preference,
            },
        )?;
        let context = dom::query_param("context").unwrap_or_default();
        post(worker, &ToWorker::Score { context, choices: dom::query_params("choice") })?;
    }
    Ok(())
}
