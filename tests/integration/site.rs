//! The site as a school's IT person hosts it: `scripts/build-site.sh` builds it with a classroom
//! kit (a model given as a file, DZEN fetched from its public release through a mirror that stands
//! in for GitHub), and Python's `python3 -m http.server` — no special headers, no `Range` —
//! serves it under `/lingualens/`. In headless Chromium: the self-test and the demo pass, the kit's
//! model runs on the kit's DZEN files, nothing is asked of any other host, and with the server
//! stopped a reload still runs. A kit with no model runs the demo; a kit file altered after the
//! build is refused by its name. Natively: `lingualens kit` refuses a download that is not the
//! catalogue's file and keeps nothing of it.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{browser_or_skip, free_port, screenshot_path, Browser, StaticServer, TempDir, DZEN_RELEASE_PATH};
use serde_json::{json, Value};

const LONG: Duration = Duration::from_secs(240);
const KIT_MODEL_FILE: &str = "classroom-model-Q8_0.gguf";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared/datasets/dzen-release` (DZEN's zip, byte for byte), or a plain skip.
fn dzen_release_or_skip(test: &str) -> Option<PathBuf> {
    common::shared(test, "datasets/dzen-release")
}

/// A mirror that serves DZEN's release where the catalogue's URL points, under its host's name.
fn dzen_mirror(release: &Path, tmp: &TempDir) -> StaticServer {
    let empty = tmp.path.join("mirror-root");
    std::fs::create_dir_all(&empty).unwrap();
    StaticServer::start_with_mounts(empty, vec![(DZEN_RELEASE_PATH.into(), release.to_path_buf())])
}

/// `scripts/build-site.sh --bundle DIST --out SITE …` with its downloads through `mirror` and a
/// download cache of the test's own (so every download really happens). Returns its output.
fn build_site(test: &str, dist: &Path, site: &Path, args: &[&str], mirror: &StaticServer, cache: &Path) -> String {
    build_site_with(test, dist, site, args, &mirror.url(""), cache, &[])
}

/// [`build_site`] through the mirror at URL `mirror`, with more environment (`LINGUALENS_BENCHMARKS`).
fn build_site_with(
    test: &str,
    dist: &Path,
    site: &Path,
    args: &[&str],
    mirror: &str,
    cache: &Path,
    env: &[(&str, &Path)],
) -> String {
    let output = Command::new("bash")
        .arg(repo().join("scripts/build-site.sh"))
        .args(["--bundle", dist.to_str().unwrap(), "--out", site.to_str().unwrap()])
        .args(args)
        .env("LINGUALENS_BIN", env!("CARGO_BIN_EXE_lingualens"))
        .env("LINGUALENS_MIRROR", mirror)
        .env("LINGUALENS_CACHE", cache)
        .env_remove("HF_ENDPOINT")
        .envs(env.iter().copied())
        .output()
        .expect("run scripts/build-site.sh");
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{test}: scripts/build-site.sh failed:\n{text}");
    text
}

/// `python3 -m http.server` over `root`: what a school laptop or a plain host serves, with its
/// request log (stderr) kept to read.
struct PythonServer {
    port: u16,
    child: Child,
    log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl PythonServer {
    fn start(root: &Path) -> PythonServer {
        let port = free_port();
        let mut child = Command::new("python3")
            .args([
                "-m",
                "http.server",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--directory",
                root.to_str().unwrap(),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start python3 -m http.server");
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let lines = log.clone();
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                lines.lock().unwrap().push(line);
            }
        });
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "python3 -m http.server did not come up");
            std::thread::sleep(Duration::from_millis(100));
        }
        PythonServer { port, child, log }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}/{}", self.port, path.trim_start_matches('/'))
    }

    /// Each logged request as (method and path, status).
    fn requests(&self) -> Vec<(String, String)> {
        let line = regex::Regex::new(r#""([A-Z]+ \S+) HTTP/[0-9.]+" (\d{3})"#).unwrap();
        self.log
            .lock()
            .unwrap()
            .iter()
            .filter_map(|l| line.captures(l).map(|c| (c[1].to_string(), c[2].to_string())))
            .collect()
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for PythonServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Chromium with every host name but 127.0.0.1 resolved to `sentinel`: a request to any other
/// host (the Hub, a font CDN, telemetry) lands there and is logged instead of leaving the machine.
fn browser_with_sentinel(sentinel: &StaticServer) -> Browser {
    Browser::start(&[&format!("--host-resolver-rules=MAP * 127.0.0.1:{}, EXCLUDE 127.0.0.1", sentinel.port)])
}

/// What reached the sentinel from the page, leaving out Chromium's own component updater and
/// network-time requests (`/service/update2/json`, `/time/1/current`), which Debian's Chromium
/// sends whatever page it shows, even with `--disable-component-update`, and connections that were
/// not HTTP at all (Chromium's own HTTPS background requests: the sentinel logs a TLS handshake as
/// `/`, seen once in four runs). The page's own requests here would be plain HTTP paths of files.
fn asked_of_other_hosts(sentinel: &StaticServer) -> Vec<String> {
    sentinel
        .requests("")
        .into_iter()
        .map(|(path, _)| path)
        .filter(|p| p != "/" && !p.starts_with("/service/update2/") && !p.starts_with("/time/1/current"))
        .collect()
}

const FINISHED: &str = "
    const err = document.getElementById('error');
    if (err.dataset.visible === 'true') return { error: err.textContent };
    const s = document.getElementById('run-summary').dataset;
    if (!(+s.total > 0 && s.done === s.total && document.getElementById('run').dataset.phase === 'done')) return null;
    const rows = [...document.querySelectorAll('#result-rows tr')].map(tr => ({ id: tr.dataset.itemId, ll: JSON.parse(tr.dataset.ll) }));
    return { done: +s.done, accuracy: s.accuracy, rows };";

const SELFTEST: &str = "
    const el = document.getElementById('selftest');
    return (!el || el.dataset.status === 'pending') ? null : el.dataset.status;";

fn finish(browser: &Browser, test: &str, what: &str) -> Value {
    let outcome = browser.wait_for(what, FINISHED, LONG);
    assert!(outcome.get("error").is_none(), "{test}: {what}: the page shows an error: {outcome}");
    outcome
}

/// Each sample's log-likelihoods in a CLI samples file (`filtered_resps`).
fn cli_loglikelihoods(samples: &Path) -> Vec<Vec<f64>> {
    std::fs::read_to_string(samples)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            // lm-eval logs each response as strings: ["-12.34", "False"].
            v["filtered_resps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r[0].as_f64().or_else(|| r[0].as_str()?.parse().ok()).unwrap())
                .collect()
        })
        .collect()
}

/// Each row's log-likelihoods in a finished run (`FINISHED`'s answer).
fn page_loglikelihoods(run: &Value) -> Vec<Vec<f64>> {
    run["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["ll"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect())
        .collect()
}

/// Each multiple-choice item's log-likelihoods (4 options or more) in the page equal the CLI's
/// within 1e-5 relative.
fn same_choice_loglikelihoods(test: &str, page: &[Vec<f64>], cli: &[Vec<f64>]) {
    for (i, (p, c)) in page.iter().zip(cli).enumerate() {
        assert!(
            p.len() == c.len()
                && p.len() >= 4
                && p.iter().zip(c).all(|(a, b)| (a - b).abs() <= 1e-5 * b.abs().max(1.0)),
            "{test}: item {i}: page {p:?}, CLI {c:?}"
        );
    }
}

fn wait_for_error(browser: &Browser, what: &str) -> String {
    let script =
        "const e = document.getElementById('error'); return e.dataset.visible === 'true' ? e.textContent : null;";
    browser.wait_for(what, script, LONG).as_str().unwrap_or("").to_string()
}

fn kit_model(tmp: &TempDir) -> PathBuf {
    // The demo's weights under another name: a model the site carries, not the built-in demo.
    let model = tmp.path.join(KIT_MODEL_FILE);
    std::fs::copy(repo().join("models/demo/lingualens-demo-Q8_0.gguf"), &model).unwrap();
    model
}

#[test]
fn the_site_runs_under_a_subpath_of_a_plain_static_server_with_its_kit_and_then_offline() {
    let test = "site_under_a_subpath";
    let Some(dist) = browser_or_skip(test) else { return };
    let Some(release) = dzen_release_or_skip(test) else { return };
    let tmp = TempDir::new("site-subpath");
    let mirror = dzen_mirror(&release, &tmp);
    let model = kit_model(&tmp);
    let site = tmp.path.join("www/lingualens");
    let printed = build_site(
        test,
        &dist,
        &site,
        &["--with-model", model.to_str().unwrap(), "--with-benchmark", "dzen"],
        &mirror,
        &tmp.path.join("cache"),
    );
    eprintln!(
        "{test}: {}",
        printed
            .lines()
            .filter(|l| l.starts_with("first visit") || l.starts_with("the whole site"))
            .collect::<Vec<_>>()
            .join("; ")
    );

    // The kit as written: the model and DZEN's 30 CSVs, each with its sha256; the zip beside it.
    let manifest: Value = serde_json::from_str(&std::fs::read_to_string(site.join("kit.json")).unwrap()).unwrap();
    assert_eq!(manifest["models"][0]["path"], json!(format!("kit/models/{KIT_MODEL_FILE}")), "{manifest:#}");
    let files = manifest["benchmarks"][0]["files"].as_array().unwrap();
    assert_eq!(files.len(), 30, "DZEN/ and DZEN-Few_Shots/ hold 15 CSVs each: {manifest:#}");
    assert!(files.iter().all(|f| site.join(f["path"].as_str().unwrap()).is_file()), "{manifest:#}");
    assert_eq!(
        mirror.requests("/raw.githubusercontent.com/").len(),
        1,
        "the release was fetched once, through the mirror"
    );
    assert!(tmp.path.join("www/lingualens.zip").is_file() && printed.contains("first visit of the demo:"), "{printed}");

    let mut server = PythonServer::start(&tmp.path.join("www"));
    let sentinel = StaticServer::start(tmp.path.join("mirror-root"));
    let browser = browser_with_sentinel(&sentinel);
    browser.set_window_size(1366, 768);
    let base = server.url("lingualens/");

    // No parameters: the self-test and the demo, as at the root of a server.
    browser.goto(&base);
    let demo = finish(&browser, test, "the demo");
    assert_eq!(demo["done"], json!(21), "{test}: {demo}");
    assert_eq!(browser.wait_for("the self-test", SELFTEST, LONG), json!("pass"), "{test}");
    // The service worker's scope is the site's folder; from now on it keeps what the page fetches.
    let scope = browser.wait_for(
        "the service worker to take over",
        "return navigator.serviceWorker.controller ? navigator.serviceWorker.getRegistration().then(r => r.scope) : null;",
        LONG,
    );
    assert_eq!(scope, json!(base), "{test}");
    // A redirect inside the scope is followed, not turned into an error by the service worker:
    // `kit` is a folder, which http.server answers with a 301 to `kit/` (its listing).
    browser.goto(&format!("{base}kit"));
    let listing = browser.wait_for(
        "the redirect from kit to kit/",
        "return location.href.endsWith('/kit/') && document.body && document.body.textContent.includes('models/') ? location.href : null;",
        LONG,
    );
    assert_eq!(listing, json!(format!("{base}kit/")), "{test}");
    browser.goto(&base);
    browser.wait_for(
        "the page again, with its kit",
        "const o = document.getElementById('model-select')?.options[0]; return o && o.value.startsWith('kit:') ? true : null;",
        LONG,
    );
    // The kit's model is offered first, on this server; DZEN's tasks need no files.
    let offered = browser.eval(
        "const o = document.getElementById('model-select').options[0];
         const n = document.getElementById('kit-note');
         return { value: o.value, label: o.textContent, note: n.hidden ? null : n.textContent };",
        json!([]),
    );
    assert_eq!(offered["value"], json!("kit:classroom-model-Q8_0"), "{test}: {offered}");
    assert!(offered["label"].as_str().unwrap_or("").contains("on this server"), "{test}: {offered}");
    assert!(offered["note"].as_str().unwrap_or("").contains("DZEN"), "{test}: {offered}");

    // The kit's model on the kit's DZEN, picked by a link as a teacher would share it.
    browser.goto(&format!("{base}?model=kit:classroom-model-Q8_0&task=dzen_en&limit=5&run=1"));
    let run = finish(&browser, test, "the kit's model on the kit's DZEN");
    assert_eq!(run["done"], json!(5), "{test}: {run}");
    browser.screenshot(&screenshot_path(&format!("{test}.png")));

    let requests = server.requests();
    let outside: Vec<&(String, String)> =
        requests.iter().filter(|(r, _)| !r.split(' ').nth(1).unwrap_or("").starts_with("/lingualens/")).collect();
    let failed: Vec<&(String, String)> = requests
        .iter()
        .filter(|(r, status)| r.contains("/lingualens/") && !matches!(status.as_str(), "200" | "304"))
        // The folder asked for without its slash, above: redirected, as it should be.
        .filter(|(r, status)| !(r == "GET /lingualens/kit" && status == "301"))
        .collect();
    assert!(failed.is_empty(), "{test}: requests under /lingualens/ that failed: {failed:?}");
    assert!(
        requests.iter().any(|(r, _)| r.contains("/lingualens/kit/models/")),
        "{test}: the model came from the kit: {requests:?}"
    );
    eprintln!("{test}: {} requests to the site, outside /lingualens/: {outside:?}", requests.len());

    // The server stops: a reload runs from what the first visit kept (the app from the service
    // worker, the model from the worker's cache, the DZEN files the service worker kept).
    server.stop();
    browser.goto(&format!("{base}?model=kit:classroom-model-Q8_0&task=dzen_dz_cloze&limit=3&run=1"));
    let offline = finish(&browser, test, "a run with the server stopped");
    assert_eq!(offline["done"], json!(3), "{test}: {offline}");
    assert_eq!(asked_of_other_hosts(&sentinel), Vec::<String>::new(), "{test}: the page asked another host");
}

#[test]
fn a_kit_without_a_model_runs_the_demo_and_a_kit_file_altered_after_the_build_is_refused_by_name() {
    let test = "site_altered_kit";
    let Some(dist) = browser_or_skip(test) else { return };
    let Some(release) = dzen_release_or_skip(test) else { return };
    let tmp = TempDir::new("site-altered");
    let mirror = dzen_mirror(&release, &tmp);
    let cache = tmp.path.join("cache");

    // A kit of DZEN alone: the page's own demo still runs, and the model list starts with it.
    let benchmark_only = tmp.path.join("a/lingualens");
    build_site(test, &dist, &benchmark_only, &["--with-benchmark", "dzen"], &mirror, &cache);
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(benchmark_only.join("kit.json")).unwrap()).unwrap();
    assert_eq!(manifest["models"], json!([]), "{manifest:#}");
    let sentinel = StaticServer::start(tmp.path.join("mirror-root"));
    {
        let server = PythonServer::start(&tmp.path.join("a"));
        let browser = browser_with_sentinel(&sentinel);
        browser.goto(&server.url("lingualens/"));
        let demo = finish(&browser, test, "the demo on a kit without a model");
        assert_eq!(demo["done"], json!(21), "{test}: {demo}");
        let first = browser.eval("return document.getElementById('model-select').options[0].value", json!([]));
        assert_eq!(first, json!("demo"), "{test}");
    }

    // A kit with a model whose files are then changed on the server: each is refused by its path.
    let site = tmp.path.join("b/lingualens");
    let model = kit_model(&tmp);
    build_site(
        test,
        &dist,
        &site,
        &["--with-model", model.to_str().unwrap(), "--with-benchmark", "dzen"],
        &mirror,
        &cache,
    );
    let server = PythonServer::start(&tmp.path.join("b"));
    let alter = |path: &Path| {
        let mut bytes = std::fs::read(path).unwrap();
        let at = bytes.len() - 10; // past the header: the download itself is what must catch it
        bytes[at] ^= 0x55;
        std::fs::write(path, bytes).unwrap();
    };
    alter(&site.join("kit/benchmarks/dzen/DZEN/8th-Math.csv"));
    let browser = browser_with_sentinel(&sentinel);
    browser.goto(&server.url("lingualens/?model=demo&task=dzen_en&limit=3&run=1"));
    let error = wait_for_error(&browser, "the altered CSV's refusal");
    assert!(
        error.contains("kit/benchmarks/dzen/DZEN/8th-Math.csv") && error.contains("changed or damaged"),
        "{test}: {error}"
    );

    alter(&site.join(format!("kit/models/{KIT_MODEL_FILE}")));
    browser.goto(&server.url("lingualens/?model=kit:classroom-model-Q8_0&task=demo&run=1"));
    let error = wait_for_error(&browser, "the altered model's refusal");
    assert!(error.contains(&format!("kit/models/{KIT_MODEL_FILE}")) && error.contains("sha256"), "{test}: {error}");
    let usable = browser.eval("return document.getElementById('run-start').disabled", json!([]));
    assert_eq!(usable, json!(false), "{test}: the page stays usable after the refusal");
    assert_eq!(asked_of_other_hosts(&sentinel), Vec::<String>::new(), "{test}: the page asked another host");
}

/// `lingualens kit` alone, on a folder that stands for a built site.
fn kit_command(site: &Path, args: &[&str], mirror: &str, cache: &Path) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args(["kit", "--site", site.to_str().unwrap()])
        .args(args)
        .env("LINGUALENS_MIRROR", mirror)
        .env("LINGUALENS_CACHE", cache)
        .output()
        .unwrap();
    (output.status.success(), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn the_kit_command_refuses_what_is_not_the_catalogues_file_and_keeps_nothing_of_it() {
    let tmp = TempDir::new("kit-refusals");
    let site = tmp.path.join("site");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(site.join("index.html"), "<!doctype html>").unwrap();
    let cache = tmp.path.join("cache");
    // A mirror whose DZEN archive is some other file, and one that has nothing.
    let wrong = tmp.path.join("wrong");
    std::fs::create_dir_all(&wrong).unwrap();
    std::fs::write(wrong.join("1652_Multilingual_Question_Ans_Supplementary Material.zip"), vec![7u8; 426_280])
        .unwrap();
    let root = tmp.path.join("root");
    std::fs::create_dir_all(&root).unwrap();
    let altered = StaticServer::start_with_mounts(root.clone(), vec![(DZEN_RELEASE_PATH.into(), wrong)]);
    let empty = StaticServer::start(root);

    let (ok, said) = kit_command(&site, &["--with-benchmark", "dzen"], &altered.url(""), &cache);
    assert!(
        !ok && said.contains("sha256 is") && said.contains("the catalogue says 0058369b") && said.contains("not kept"),
        "{said}"
    );
    let (ok, said) = kit_command(&site, &["--with-benchmark", "dzen"], &empty.url(""), &cache);
    assert!(!ok && said.contains("HTTP 404"), "{said}");
    let kept: Vec<PathBuf> = walk(&cache).into_iter().filter(|p| p.is_file()).collect();
    assert!(kept.is_empty(), "nothing half-downloaded or wrong is kept: {kept:?}");
    assert!(!site.join("kit.json").exists() && !site.join("kit").exists(), "no manifest for a kit that failed");

    let (ok, said) = kit_command(&site, &["--with-model", "no-such-model"], &empty.url(""), &cache);
    assert!(
        !ok && said.contains("no-such-model") && said.contains("qwen3-0.6b-q8_0"),
        "the catalogue's ids are listed: {said}"
    );
    let (ok, said) = kit_command(&site, &["--with-benchmark", "no-such-benchmark"], &empty.url(""), &cache);
    assert!(!ok && said.contains("no-such-benchmark") && said.contains("dzen"), "{said}");
    let not_a_model = tmp.path.join("notes.gguf");
    std::fs::write(&not_a_model, b"not a model").unwrap();
    let (ok, said) = kit_command(&site, &["--with-model", not_a_model.to_str().unwrap()], &empty.url(""), &cache);
    assert!(!ok && said.contains("notes.gguf"), "a file the page could not load is not put in the kit: {said}");
    let (ok, said) = kit_command(&tmp.path.join("nowhere"), &["--with-benchmark", "dzen"], &empty.url(""), &cache);
    assert!(!ok && said.contains("no index.html"), "{said}");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        }
        out.push(path);
    }
    out
}

/// The DZEN files of a page run, from the stand-in (`tools/standin/server.py`) at the URL the
/// catalogue names under `?mirror=`, with the first download cut off part-way.
fn dzen_standin(release: &Path, tmp: &TempDir, flags: &[&str]) -> common::StandIn {
    let root = tmp.path.join("standin-root");
    std::fs::create_dir_all(&root).unwrap();
    common::StandIn::start(&root, &[(DZEN_RELEASE_PATH, release)], flags)
}

/// The option log-likelihoods of the CLI's samples for `task` on the demo model (`cpu-int8`, as
/// the page computes) over the shared DZEN CSVs, first `limit` documents.
fn cli_lls(tmp: &TempDir, task: &str, limit: usize) -> Vec<Vec<f64>> {
    let dzen = common::shared_root().join("datasets/dzen");
    let out = tmp.path.join(format!("cli-{task}"));
    let model = repo().join("models/demo/lingualens-demo-Q8_0.gguf");
    let limit = limit.to_string();
    let status = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        // The page's CPU path is the int8 one.
        .args([
            "eval",
            "--model",
            model.to_str().unwrap(),
            "--task",
            task,
            "--data",
            dzen.to_str().unwrap(),
            "--limit",
            &limit,
            "--backend",
            "cpu-int8",
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    cli_loglikelihoods(&out.join(format!("samples_{task}.jsonl")))
}

#[test]
fn a_dzen_task_picked_with_no_file_fetches_its_release_runs_as_the_cli_does_and_then_offline() {
    let test = "dzen_fetched_by_the_page";
    let Some(dist) = browser_or_skip(test) else { return };
    let Some(release) = dzen_release_or_skip(test) else { return };
    let tmp = TempDir::new("site-fetch");
    // The connection drops after 100,000 of the zip's 426,280 bytes; the worker continues it.
    let standin = dzen_standin(&release, &tmp, &["--truncate-once", "Material.zip=100000"]);
    let app = StaticServer::start(dist.clone());
    let sentinel = StaticServer::start(tmp.path.clone());
    let browser = browser_with_sentinel(&sentinel);
    let mirror = common::url_encode(&standin.url(""));
    let link =
        |task: &str, limit: usize| app.url(&format!("?model=demo&task={task}&limit={limit}&run=1&mirror={mirror}"));

    browser.goto(&link("dzen_dz_cloze", 5));
    let run = finish(&browser, test, "dzen_dz_cloze with no file given");
    assert_eq!(run["done"], json!(5), "{test}: {run}");
    let asked: Vec<_> = standin.requests().into_iter().filter(|(p, _, _)| p.ends_with("Material.zip")).collect();
    // Chromium's HTTP cache may turn the worker's `bytes=100000-` into its own validation ranges
    // (`bytes=100000-100000`, then the rest), all from the byte where the connection dropped.
    assert!(
        asked.len() >= 2
            && asked[1..]
                .iter()
                .all(|(_, range, status)| range.as_deref().is_some_and(|r| r.starts_with("bytes=100000-"))
                    && *status == 206),
        "{test}: the download was continued with Range from byte 100000: {asked:?}"
    );
    // The same option log-likelihoods as the CLI over the shared CSVs.
    let cli = cli_lls(&tmp, "dzen_dz_cloze", 5);
    let page = page_loglikelihoods(&run);
    assert_eq!(page.len(), cli.len(), "{test}: {run}");
    for (i, (p, c)) in page.iter().zip(&cli).enumerate() {
        assert_eq!(p.len(), c.len(), "{test}: item {i}: {p:?} / {c:?}");
        // The same prompts over the same documents: the int8 paths of wasm and of the CLI round
        // activations apart by a few 1e-4 of a log-likelihood (seen: 0.11 of -266); another
        // document or prompt is off by whole units.
        assert!(
            p.iter().zip(c).all(|(a, b)| (a - b).abs() <= 1e-3 * b.abs().max(1.0)),
            "{test}: item {i}: page {p:?}, CLI {c:?}"
        );
    }
    // Kept beside the models, listed with the models.
    let listed = browser.wait_for(
        "the release listed among the kept files",
        "const t = document.getElementById('cached-models')?.textContent || ''; return t.includes('Material.zip') ? t : null;",
        LONG,
    );
    // By its name as a user reads it (not percent-encoded) and its size: 426,280 bytes.
    let listed = listed.as_str().unwrap_or("");
    assert!(listed.contains("1652_Multilingual_Question_Ans_Supplementary Material.zip (0.4 MB)"), "{test}: {listed}");
    assert!(!listed.contains("%20") && !listed.contains("size unknown"), "{test}: {listed}");

    // The stand-in gone: another DZEN task runs from what was kept.
    drop(standin);
    browser.goto(&link("dzen_en_cloze", 3));
    let offline = finish(&browser, test, "dzen_en_cloze with the source gone");
    assert_eq!(offline["done"], json!(3), "{test}: {offline}");
    // The chain-of-thought form, from the menu too: five worked exemplars, a generated answer.
    browser.goto(&link("dzen_cot_en", 1));
    let cot = finish(&browser, test, "dzen_cot_en from what was kept");
    assert_eq!(cot["done"], json!(1), "{test}: {cot}");
    assert_eq!(asked_of_other_hosts(&sentinel), Vec::<String>::new(), "{test}: the page asked another host");

    // A fresh browser (nothing kept) where the source serves another file: refused by name.
    drop(browser);
    let wrong = tmp.path.join("wrong");
    std::fs::create_dir_all(&wrong).unwrap();
    std::fs::write(wrong.join("1652_Multilingual_Question_Ans_Supplementary Material.zip"), vec![7u8; 426_280])
        .unwrap();
    let altered = dzen_standin(&wrong, &tmp, &[]);
    let browser = Browser::start(&[]);
    browser.goto(
        &app.url(&format!("?model=demo&task=dzen_en&limit=3&run=1&mirror={}", common::url_encode(&altered.url("")))),
    );
    let error = wait_for_error(&browser, "the altered release refused");
    assert!(
        error.contains("Material.zip") && error.contains("sha256") && error.contains("not kept"),
        "{test}: {error}"
    );
    // And a source that has nothing there.
    drop(altered);
    let empty = common::StandIn::start(&tmp.path.join("standin-root"), &[], &[]);
    browser.goto(
        &app.url(&format!("?model=demo&task=dzen_en&limit=3&run=1&mirror={}", common::url_encode(&empty.url("")))),
    );
    let error = wait_for_error(&browser, "a missing release refused");
    assert!(error.contains("Material.zip") && error.contains("404"), "{test}: {error}");
    // A 404 is the server's answer: asked once, not again and again as a dropped connection is.
    let asked = empty.requests().iter().filter(|(p, _, status)| p.ends_with("Material.zip") && *status == 404).count();
    assert_eq!(asked, 1, "{test}: {:?}", empty.requests());

    // The release picked by hand, as a teacher who downloaded the zip gives it: unpacked in the
    // worker, nothing fetched (the source still has nothing).
    let before = empty.requests().len();
    browser.goto(&app.url(&format!("?model=demo&task=dzen_en&limit=3&mirror={}", common::url_encode(&empty.url("")))));
    browser.wait_for("the worker", "return document.getElementById('backend-info').dataset.backend || null;", LONG);
    // chromedriver takes only a canonical path.
    let zip = std::fs::canonicalize(release.join("1652_Multilingual_Question_Ans_Supplementary Material.zip")).unwrap();
    browser.send_keys("#task-files", zip.to_str().unwrap());
    browser.click("#run-start");
    let picked = finish(&browser, test, "dzen_en over the picked zip");
    assert_eq!(picked["done"], json!(3), "{test}: {picked}");
    assert_eq!(empty.requests().len(), before, "{test}: a picked zip needs no download");
}

/// KyrgyzMMLU picked from the Task menu with no file (the catalogue through `?benchmarks=`: the
/// committed one but for the stand-in code's sha256): the worker finds its nine subjects' splits
/// on the Hub stand-in (the card and the tree listing, read as the `datasets` library reads them),
/// fetches the authors' code and reads the prompt from it, and runs 5 items, whose log-likelihoods
/// on the exact engine are the CLI's on the same files with make_prompts.py's include (written from
/// PROMPTS.md); the menu then says the task is kept, and with the stand-in gone it runs again from
/// what was kept.
#[test]
fn kyrgyz_mmlu_picked_with_no_file_fetches_its_hub_files_and_the_authors_code_and_scores_as_the_cli() {
    let test = "kyrgyz_mmlu_fetched_by_the_page";
    let Some(dist) = browser_or_skip(test) else { return };
    if !crate::builtin_tasks::prompts(test) {
        return;
    }
    let Some(prompts_md) = common::shared(test, "datasets/kyrgyzllm-bench-configs/PROMPTS.md") else { return };
    let tmp = TempDir::new("site-kyrgyz");
    let root = tmp.path.join("mirror");
    let hub_repo = common::kyrgyz_mmlu_standin(&root);
    let testdata = tmp.path.join("testdata");
    std::fs::create_dir_all(&testdata).unwrap();
    common::kyrgyz_code_standin(&prompts_md, &root, &tmp.path, &testdata.join("catalog.json"), "kyrgyz_tasks.py");
    let standin = common::StandIn::start(&root, &[], &[]);
    let app = StaticServer::start_with_mounts(dist.clone(), vec![("testdata".into(), testdata.clone())]);
    let sentinel = StaticServer::start(tmp.path.clone());
    let browser = browser_with_sentinel(&sentinel);
    let mirror = common::url_encode(&standin.url(""));
    let link = |limit: usize, run: &str| {
        app.url(&format!(
            "?model=demo&task=kyrgyz_mmlu&limit={limit}&backend=cpu{run}&mirror={mirror}&benchmarks=testdata/catalog.json"
        ))
    };
    // Before anything is fetched, the menu says what picking it does.
    browser.goto(&link(5, ""));
    let said = browser.wait_for(
        "the task's download note",
        "const p = document.getElementById('task-offline'); return p && !p.hidden && p.textContent ? [p.dataset.kept, p.textContent] : null;",
        LONG,
    );
    assert_eq!(said[0], json!("false"), "{test}: {said}");
    browser.goto(&link(5, "&run=1"));
    let run = finish(&browser, test, "KyrgyzMMLU fetched");
    assert_eq!(run["done"], json!(5), "{test}: {run}");
    let asked: Vec<String> = standin.requests().into_iter().map(|(p, _, _)| p).collect();
    assert!(
        asked.iter().any(|p| p.starts_with("/huggingface.co/api/datasets/TTimur/kyrgyzMMLU/tree/main")),
        "{test}: {asked:?}"
    );
    assert!(asked.iter().any(|p| p.ends_with("/lm_harness/kyrgyz_tasks.py")), "{test}: the authors' code: {asked:?}");
    // The CLI on the same files, with the prompt make_prompts.py wrote from PROMPTS.md.
    let out = tmp.path.join("cli");
    let model = repo().join("models/demo/lingualens-demo-Q8_0.gguf");
    let cli = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args([
            "eval",
            "--model",
            model.to_str().unwrap(),
            "--task",
            "kyrgyz_mmlu",
            "--data",
            hub_repo.to_str().unwrap(),
        ])
        .args(["--limit", "5", "--backend", "cpu", "--out", out.to_str().unwrap()])
        .env("LINGUALENS_CACHE", tmp.path.join("cli-cache"))
        .env_remove("LINGUALENS_TASKS")
        .output()
        .unwrap();
    assert!(cli.status.success(), "{}", String::from_utf8_lossy(&cli.stderr));
    let cli = cli_loglikelihoods(&out.join("samples_kyrgyz_mmlu.jsonl"));
    let page = page_loglikelihoods(&run);
    assert_eq!((page.len(), cli.len()), (5, 5), "{test}: {run}");
    same_choice_loglikelihoods(test, &page, &cli);
    // Kept: the menu says so, and the stand-in gone, it runs again.
    browser.goto(&link(3, ""));
    let kept = browser.wait_for(
        "the task kept",
        "const p = document.getElementById('task-offline'); return p && p.dataset.kept === 'true' ? p.textContent : null;",
        LONG,
    );
    eprintln!("{test}: {kept}");
    drop(standin);
    browser.goto(&link(3, "&run=1"));
    let offline = finish(&browser, test, "KyrgyzMMLU from what was kept");
    assert_eq!(offline["done"], json!(3), "{test}: {offline}");
    assert_eq!(asked_of_other_hosts(&sentinel), Vec::<String>::new(), "{test}: the page asked another host");
}

/// KyrgyzRC picked with no file, from a Hub that pages its tree listing (three entries a page, as
/// the Hub does past a thousand): the page follows every page, fetches its eight files and the
/// authors' code, and runs 5 items with the CLI's log-likelihoods, and the CLI given no `--data`
/// fetches the same files through the same pages. Then a classroom kit of KyrgyzRC
/// (`scripts/build-site.sh --with-benchmark kyrgyzllm-rc`), served by `python3 -m http.server`
/// with the stand-in gone, runs it from the kit's files alone.
#[test]
fn kyrgyz_rc_picked_with_no_file_follows_a_paged_tree_listing_and_runs_from_a_kit() {
    let test = "kyrgyz_rc_paged_and_kit";
    let Some(dist) = browser_or_skip(test) else { return };
    if !crate::builtin_tasks::prompts(test) {
        return;
    }
    let Some(prompts_md) = common::shared(test, "datasets/kyrgyzllm-bench-configs/PROMPTS.md") else { return };
    let tmp = TempDir::new("site-kyrgyz-rc");
    let root = tmp.path.join("mirror");
    common::kyrgyz_rc_standin(&root);
    let testdata = tmp.path.join("testdata");
    std::fs::create_dir_all(&testdata).unwrap();
    let catalog = testdata.join("catalog.json");
    common::kyrgyz_code_standin(&prompts_md, &root, &tmp.path, &catalog, "kyrgyz_tasks.py");
    let standin = common::StandIn::start(&root, &[], &["--tree-page-size", "3"]);
    let app = StaticServer::start_with_mounts(dist.clone(), vec![("testdata".into(), testdata.clone())]);
    let sentinel = StaticServer::start(tmp.path.clone());
    let browser = browser_with_sentinel(&sentinel);
    let mirror = common::url_encode(&standin.url(""));
    browser.goto(&app.url(&format!(
        "?model=demo&task=kyrgyz_rc&limit=5&backend=cpu&run=1&mirror={mirror}&benchmarks=testdata/catalog.json"
    )));
    let run = finish(&browser, test, "KyrgyzRC fetched");
    assert_eq!(run["done"], json!(5), "{test}: {run}");
    let pages = |asked: &[String]| {
        asked.iter().filter(|p| p.starts_with("/huggingface.co/api/datasets/TTimur/kyrgyzRC/tree/main")).count()
    };
    let asked: Vec<String> = standin.requests().into_iter().map(|(p, _, _)| p).collect();
    // The card, four folders and eight shards: 13 entries, 5 pages of 3.
    assert_eq!(pages(&asked), 5, "{test}: every page of the listing: {asked:?}");
    let shards = asked.iter().filter(|p| p.contains("/_cdn/datasets/TTimur/kyrgyzRC/") && p.ends_with(".parquet"));
    assert_eq!(shards.count(), 8, "{test}: test and validation of four sources: {asked:?}");

    // The CLI with no --data: the same pages, the same files, the same log-likelihoods.
    let out = tmp.path.join("cli");
    let model = repo().join("models/demo/lingualens-demo-Q8_0.gguf");
    let before = asked.len();
    let cli = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args(["eval", "--model", model.to_str().unwrap(), "--task", "kyrgyz_rc"])
        .args(["--limit", "5", "--backend", "cpu", "--out", out.to_str().unwrap()])
        .env("LINGUALENS_CACHE", tmp.path.join("cli-cache"))
        .env("LINGUALENS_MIRROR", standin.url(""))
        .env("LINGUALENS_BENCHMARKS", &catalog)
        .env_remove("HF_ENDPOINT")
        .env_remove("LINGUALENS_TASKS")
        .output()
        .unwrap();
    assert!(cli.status.success(), "{}", String::from_utf8_lossy(&cli.stderr));
    let asked: Vec<String> = standin.requests().into_iter().map(|(p, _, _)| p).skip(before).collect();
    assert_eq!(pages(&asked), 5, "{test}: the CLI read every page: {asked:?}");
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results_kyrgyz_rc.json")).unwrap()).unwrap();
    let sources = results["config"]["data_sources"].as_array().expect("config.data_sources");
    let hub_files = sources.iter().filter(|s| s["url"].as_str().unwrap_or("").ends_with(".parquet")).count();
    assert_eq!(hub_files, 8, "{test}: {sources:?}");
    let cli = cli_loglikelihoods(&out.join("samples_kyrgyz_rc.jsonl"));
    let page = page_loglikelihoods(&run);
    assert_eq!((page.len(), cli.len()), (5, 5), "{test}: {run}");
    same_choice_loglikelihoods(test, &page, &cli);

    // A kit of KyrgyzRC, built through the stand-in; then the stand-in stops and the kit alone runs it.
    let site = tmp.path.join("www/lingualens");
    build_site_with(
        test,
        &dist,
        &site,
        &["--with-benchmark", "kyrgyzllm-rc"],
        &standin.url(""),
        &tmp.path.join("kit-cache"),
        &[("LINGUALENS_BENCHMARKS", catalog.as_path())],
    );
    let manifest: Value = serde_json::from_str(&std::fs::read_to_string(site.join("kit.json")).unwrap()).unwrap();
    let files = manifest["benchmarks"][0]["files"].as_array().unwrap();
    // Eight shards and the authors' code.
    assert_eq!(files.len(), 9, "{test}: {manifest:#}");
    drop(standin);
    let server = PythonServer::start(&tmp.path.join("www"));
    browser.goto(&server.url("lingualens/?model=demo&task=kyrgyz_rc&limit=3&backend=cpu&run=1"));
    let from_kit = finish(&browser, test, "KyrgyzRC from the kit");
    assert_eq!(from_kit["done"], json!(3), "{test}: {from_kit}");
    assert_eq!(page_loglikelihoods(&from_kit), page[..3].to_vec(), "{test}: the kit's files are the Hub's");
    let requests = server.requests();
    assert!(
        requests.iter().any(|(r, _)| r.contains("/lingualens/kit/benchmarks/kyrgyzllm-rc/")),
        "{test}: the files came from the kit: {requests:?}"
    );
    assert_eq!(asked_of_other_hosts(&sentinel), Vec::<String>::new(), "{test}: the page asked another host");
}

/// ProverbEval's Amharic tasks picked with no file: the worker fetches each one's published YAML,
/// include file and utils.py and its Hub split files (from the stand-in, through `?mirror=`;
/// the catalogue the site names with `?benchmarks=`, the committed one but for our utils.py's
/// sha256), reads the prompt function, and runs 5 items; the meaning task's log-likelihoods on the
/// exact engine are the CLI's on the same files; with the stand-in gone the kept files run again.
#[test]
fn proverbeval_tasks_picked_with_no_file_fetch_the_authors_files_and_run_as_the_cli_does() {
    let test = "proverbeval_fetched_by_the_page";
    let Some(dist) = browser_or_skip(test) else { return };
    let Some(release) = dzen_release_or_skip(test) else { return };
    let shared = release.parent().and_then(Path::parent).unwrap().to_path_buf();
    let tmp = TempDir::new("site-proverbeval");
    let root = tmp.path.join("mirror");
    std::fs::create_dir_all(&root).unwrap();
    let testdata = tmp.path.join("testdata");
    std::fs::create_dir_all(&testdata).unwrap();
    let catalog = testdata.join("catalog.json");
    let tasks = common::proverbeval_standin(&shared, &root, &catalog);
    let standin = common::StandIn::start(&root, &[], &[]);
    let app = StaticServer::start_with_mounts(dist.clone(), vec![("testdata".into(), testdata.clone())]);
    let sentinel = StaticServer::start(tmp.path.clone());
    let browser = browser_with_sentinel(&sentinel);
    let mirror = common::url_encode(&standin.url(""));
    let link = |task: &str, limit: usize| {
        app.url(&format!(
            "?model=demo&task={task}&limit={limit}&run=1&mirror={mirror}&benchmarks=testdata/catalog.json"
        ))
    };
    for task in &tasks {
        browser.goto(&link(task, 5));
        let run = finish(&browser, test, task);
        assert_eq!(run["done"], json!(5), "{test}: {task}: {run}");
    }
    // Another language: its split from the Hub's parquet conversion, asked for with the branch
    // name percent-encoded (`refs%2Fconvert%2Fparquet`) as the Hub wants it.
    browser.goto(&link("tir_choice_native_1", 5));
    let tir = finish(&browser, test, "tir_choice_native_1");
    assert_eq!(tir["done"], json!(5), "{test}: {tir}");
    assert!(
        standin
            .requests()
            .iter()
            .any(|(p, _, s)| p.contains("refs%2Fconvert%2Fparquet/tir_choice_native/native_1/") && *s == 200),
        "{test}: {:?}",
        standin.requests()
    );
    // The meaning task again on the exact engine, its log-likelihoods against the CLI's exact
    // ones over the same catalogue. (The int8 paths of wasm and x86 sum a block's scaled dot
    // products in another order: an ulp apart, which can flip one activation's rounding in the
    // next layer and move an option by 0.06 of -54 on this model; the f32 paths agree to 1e-7.)
    browser.goto(&link("amh_choice_english_1", 5));
    let int8 = finish(&browser, test, "amh_choice_english_1 from what was kept");
    browser.goto(&(link("amh_choice_english_1", 5) + "&backend=cpu"));
    let run = finish(&browser, test, "amh_choice_english_1 on the exact engine");
    // Another engine is another run, not the int8 run's rows shown again.
    assert_ne!(run["rows"], int8["rows"], "{test}: ?backend=cpu reopened the int8 run");
    let out = tmp.path.join("cli-amh");
    let model = repo().join("models/demo/lingualens-demo-Q8_0.gguf");
    let cli = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args([
            "eval",
            "--model",
            model.to_str().unwrap(),
            "--task",
            "amh_choice_english_1",
            "--limit",
            "5",
            "--backend",
            "cpu",
            "--out",
            out.to_str().unwrap(),
        ])
        .env("LINGUALENS_MIRROR", standin.url(""))
        .env("LINGUALENS_CACHE", tmp.path.join("cli-cache"))
        .env("LINGUALENS_BENCHMARKS", &catalog)
        .env_remove("HF_ENDPOINT")
        .output()
        .unwrap();
    assert!(cli.status.success(), "{}", String::from_utf8_lossy(&cli.stderr));
    let cli = cli_loglikelihoods(&out.join("samples_amh_choice_english_1.jsonl"));
    let page = page_loglikelihoods(&run);
    assert_eq!(page.len(), 5, "{test}: {run}");
    for (i, (p, c)) in page.iter().zip(&cli).enumerate() {
        assert_eq!(p.len(), 4, "{test}: item {i}");
        assert!(
            p.iter().zip(c).all(|(a, b)| (a - b).abs() <= 1e-5 * b.abs().max(1.0)),
            "{test}: item {i}: page {p:?}, CLI {c:?}"
        );
    }
    // The stand-in gone: the kept files run again.
    drop(standin);
    browser.goto(&link("amh_fill_1", 3));
    let offline = finish(&browser, test, "amh_fill_1 with the source gone");
    assert_eq!(offline["done"], json!(3), "{test}: {offline}");
    // Under the Task menu: the picked task is said kept, with its files and size; a task never
    // run is said to download when first run (its Hub file's size unknown).
    let said = |kept: &str| {
        format!(
            "const p = document.getElementById('task-offline'); return p && !p.hidden && p.dataset.kept === '{kept}' ? p.textContent : null;"
        )
    };
    let kept = browser.wait_for("amh_fill_1 said kept", &said("true"), LONG);
    let kept = kept.as_str().unwrap_or("");
    assert!(kept.contains("files: 5") && kept.contains("MB") && kept.contains("offline"), "{test}: {kept}");
    browser.eval(
        "const s = document.getElementById('task-select'); s.value = 'orm_fill_1'; s.dispatchEvent(new Event('change')); return true;",
        json!([]),
    );
    let not_kept = browser.wait_for("orm_fill_1 said not kept", &said("false"), LONG);
    assert!(not_kept.as_str().unwrap_or("").contains("size unknown"), "{test}: {not_kept}");
    assert_eq!(asked_of_other_hosts(&sentinel), Vec::<String>::new(), "{test}: the page asked another host");
}

/// The Experiment menu: `?experiment=dzen_language_gap&limit=3&run=1` runs the experiment's six
/// runs in turn on the demo model (DZEN's release from the stand-in); the page is reloaded while
/// the third run is under way and goes on from that run (the two finished are kept, not run
/// again); the table it draws (each run's accuracy and items, each comparison's flips and exact
/// McNemar p, the swings) is the one `lingualens suite` prints for the same model, limit and
/// engine (cpu-int8), and a chart is drawn.
#[test]
fn an_experiment_runs_in_the_page_resumes_after_a_reload_and_tables_as_the_cli_does() {
    let test = "experiment_in_the_page";
    let Some(dist) = browser_or_skip(test) else { return };
    let Some(release) = dzen_release_or_skip(test) else { return };
    let tmp = TempDir::new("site-suite");
    let standin = dzen_standin(&release, &tmp, &[]);
    let app = StaticServer::start(dist.clone());
    let browser = Browser::start(&[]);
    let mirror = common::url_encode(&standin.url(""));
    // A sample of 3 documents drawn with seed 7, one for every run, as the CLI's `--sample 3 --seed 7`.
    let link =
        app.url(&format!("?model=demo&experiment=dzen_language_gap&sample=3&seed=7&pace=150&run=1&mirror={mirror}"));
    browser.goto(&link);
    let suite_state = "
        const err = document.getElementById('error');
        if (err.dataset.visible === 'true') return { error: err.textContent };
        const s = document.getElementById('suite').dataset;
        return { status: s.status || '', next: +(s.next || 0), resumed: s.resumedAt ?? null };";
    let before = browser.wait_for(
        "the third run under way",
        &format!("const s = (() => {{ {suite_state} }})(); return (s.error || s.next >= 2) ? s : null;"),
        LONG,
    );
    assert!(before.get("error").is_none(), "{test}: {before}");
    let at_reload = before["next"].as_u64().unwrap();
    assert!(at_reload < 6, "{test}: the suite ended before the reload: {before}");
    browser.goto(&link);
    let after = browser.wait_for(
        "the experiment finished",
        &format!("const s = (() => {{ {suite_state} }})(); return (s.error || s.status === 'done') ? s : null;"),
        LONG,
    );
    assert!(after.get("error").is_none(), "{test}: {after}");
    assert_eq!(after["resumed"], json!(at_reload.to_string()), "{test}: went on from the run under way: {after}");
    browser.eval("document.getElementById('suite').scrollIntoView();", json!([]));
    browser.screenshot(&screenshot_path(&format!("{test}.png")));
    let page = browser.eval(
        "const rows = (id) => [...document.querySelectorAll('#' + id + ' tr')].map(tr => ({...tr.dataset}));
         return { runs: rows('suite-runs'), comparisons: rows('suite-comparisons'), swings: rows('suite-swings'),
                  chart: document.querySelectorAll('#suite-chart svg rect').length };",
        json!([]),
    );

    // The CLI's suite on the same model, documents and engine.
    let out = tmp.path.join("cli-suite");
    let o = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args(["suite", "dzen_language_gap", "--model"])
        .arg(repo().join("models/demo/lingualens-demo-Q8_0.gguf"))
        .arg("--data")
        .arg(common::shared_root().join("datasets/dzen"))
        .args(["--sample", "3", "--seed", "7", "--backend", "cpu-int8", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cli: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("suite_dzen_language_gap.json")).unwrap()).unwrap();
    let model = &cli["models"][0];
    let runs = page["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 6, "{test}: {page}");
    for row in runs {
        let name = row["run"].as_str().unwrap();
        let theirs = &model["runs"][name];
        assert_eq!(row["n"], json!("3"), "{test}: run {name}: every item once: {row}");
        let ours: f64 = row["accuracy"].as_str().unwrap().parse().unwrap();
        assert!((ours - theirs["accuracy"].as_f64().unwrap()).abs() < 1e-9, "{test}: run {name}: {row} / {theirs}");
    }
    let comparisons = page["comparisons"].as_array().unwrap();
    assert_eq!(comparisons.len(), model["comparisons"].as_array().unwrap().len(), "{test}: {page}");
    for (ours, theirs) in comparisons.iter().zip(model["comparisons"].as_array().unwrap()) {
        assert_eq!((&ours["a"], &ours["b"]), (&theirs["a"], &theirs["b"]), "{test}");
        // `dataset` names data-only-a `onlyA`.
        for (k, c) in [("onlyA", "only_a"), ("onlyB", "only_b"), ("items", "items")] {
            assert_eq!(ours[k], json!(theirs[c].to_string()), "{test}: {k}: {ours} / {theirs}");
        }
        let p: f64 = ours["mcnemarP"].as_str().unwrap().parse().unwrap();
        assert!((p - theirs["mcnemar_p"].as_f64().unwrap()).abs() < 1e-12, "{test}: {ours} / {theirs}");
    }
    for (ours, theirs) in page["swings"].as_array().unwrap().iter().zip(model["swings"].as_array().unwrap()) {
        let v: f64 = ours["value"].as_str().unwrap().parse().unwrap();
        assert!((v - theirs["swing"].as_f64().unwrap()).abs() < 1e-12, "{test}: {ours} / {theirs}");
    }
    assert_eq!(page["swings"].as_array().unwrap().len(), 2, "{test}: {page}");
    assert!(page["chart"].as_u64().unwrap() >= 6, "{test}: a bar per run: {page}");
    // Downloaded, the table is the CLI's file but for the model's name (the page's id, `demo`).
    let files = crate::app::downloads(&browser, &["#suite-json", "#suite-svg"]);
    let names: Vec<&str> = files.as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["suite_dzen_language_gap.json", "suite_dzen_language_gap.svg"], "{test}");
    let mut table: Value = serde_json::from_str(files[0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(table["models"][0]["model"], json!("demo"), "{test}");
    table["models"][0]["model"] = cli["models"][0]["model"].clone();
    assert_eq!(table["sample"], json!({"size": 3, "seed": 7}), "{test}");
    assert_eq!(table, cli, "{test}: the page's table and the CLI's");
    assert!(files[1]["text"].as_str().unwrap().starts_with("<svg"), "{test}");

    // The CLI's table opens in the page as a saved experiment: its rows, under the CLI's model name.
    browser.eval("window.print = () => { document.body.dataset.printed = 'yes'; };", json!([]));
    browser.send_keys("#suite-file", out.join("suite_dzen_language_gap.json").to_str().unwrap());
    let opened = browser.wait_for(
        "the saved table opened",
        "const err = document.getElementById('error');
         if (err.dataset.visible === 'true') return { error: err.textContent };
         if (document.getElementById('suite').dataset.status !== 'opened') return null;
         return [...document.querySelectorAll('#suite-runs tr')].map(tr => ({...tr.dataset}));",
        LONG,
    );
    let rows = opened.as_array().unwrap_or_else(|| panic!("{test}: {opened}"));
    assert_eq!(rows.len(), 6, "{test}: {opened}");
    for row in rows {
        let name = row["run"].as_str().unwrap();
        assert_eq!(row["model"], model["model"], "{test}: {row}");
        assert_eq!(row["accuracy"], json!(model["runs"][name]["accuracy"].as_f64().unwrap().to_string()), "{test}");
    }
    // Printed, it is one page: every run, comparison and swing in the picture.
    browser.click("#suite-print");
    let printed = browser.wait_for(
        "the experiment's picture",
        "const s = document.getElementById('print-summary'); const svg = s.querySelector('svg');
         return document.body.dataset.printed === 'yes' && s.dataset.kind === 'suite' && svg ? svg.textContent : null;",
        LONG,
    );
    let printed = printed.as_str().unwrap();
    for spec in cli["runs"].as_array().unwrap() {
        assert!(printed.contains(spec["name"].as_str().unwrap()), "{test}: {printed}");
    }
    for c in model["comparisons"].as_array().unwrap() {
        let pair = format!("{} − {}", c["b"].as_str().unwrap(), c["a"].as_str().unwrap());
        assert!(printed.contains(&pair), "{test}: {pair} in {printed}");
    }
    let pdf = browser.print_pdf();
    let pages = regex::bytes::Regex::new(r"/Type\s*/Page[^s]").unwrap().find_iter(&pdf).count();
    assert_eq!(pages, 1, "{test}: the experiment prints on {pages} pages");
}

/// An experiment (KyrgyzMMLU's 0- against 5-shot) runs in the page on the user's own files, as
/// `lingualens suite --data` runs it: with the task YAML, its prompt include and the KyrgyzMMLU
/// CSVs chosen it runs both runs and its table is the CLI's on the same files; files that define
/// another task stop it, naming both tasks. (Given no files, KyrgyzMMLU's data and prompt are
/// fetched as the Task menu fetches them: `kyrgyz_mmlu_picked_with_no_file_…`.)
#[test]
fn an_experiment_on_the_users_own_files_runs_as_the_cli_runs_it() {
    let test = "experiment_on_own_files";
    let Some(dist) = browser_or_skip(test) else { return };
    let prompt = repo().join("datasets/tasks/kyrgyzllm/prompts/kyrgyz_mmlu_prompt_yaml");
    if !prompt.exists() {
        common::skip(
            test,
            "no KyrgyzMMLU prompt: run tools/fixtures/make_all.sh (it writes datasets/tasks/kyrgyzllm/prompts/)",
        );
        return;
    }
    let tmp = TempDir::new("site-own-files");
    // Made-up KyrgyzMMLU rows in the Hub files' columns: 6 to score, 5 examples for the 5-shot run.
    let header = "Суроо (KG),А (KG),Б (KG),В (KG),Г (KG),Туура жооп,Класс\n";
    let rows = |n: usize, tag: &str| -> String {
        (0..n)
            .map(|i| {
                format!(
                    "{tag} суроо {i}?,жооп {i}а,жооп {i}б,жооп {i}в,жооп {i}г,{},{}\n",
                    ["а", "б", "в", "г"][i % 4],
                    9 + i % 3
                )
            })
            .collect()
    };
    let data = tmp.path.join("kyrgyz_mmlu_biology");
    std::fs::create_dir_all(&data).unwrap();
    let (test_csv, validation_csv) = (data.join("test.csv"), data.join("validation.csv"));
    std::fs::write(&test_csv, format!("{header}{}", rows(6, "Сынак"))).unwrap();
    std::fs::write(&validation_csv, format!("{header}{}", rows(5, "Мисал"))).unwrap();
    let yaml = repo().join("datasets/tasks/kyrgyzllm/kyrgyz_mmlu.yaml");

    let app = StaticServer::start(dist);
    let browser = Browser::start(&[]);
    let error = "const err = document.getElementById('error');
                 return err.dataset.visible === 'true' ? err.textContent : null;";
    browser.goto(&app.url("?model=demo"));
    browser.wait_for("the worker", "return document.getElementById('backend-info').dataset.backend || null;", LONG);

    // The task's files chosen: both runs, then the table.
    let chosen = [yaml.as_path(), prompt.as_path(), test_csv.as_path(), validation_csv.as_path()]
        .map(|p| p.to_str().unwrap().to_string())
        .join("\n");
    browser.send_keys("#task-files", &chosen);
    browser.eval("document.getElementById('experiment-select').value = 'kyrgyz_mmlu_shots';", json!([]));
    browser.click("#experiment-start");
    let done = browser.wait_for(
        "the experiment on the user's files",
        "const err = document.getElementById('error');
         if (err.dataset.visible === 'true') return { error: err.textContent };
         return document.getElementById('suite').dataset.status === 'done' ? {} : null;",
        LONG,
    );
    assert!(done.get("error").is_none(), "{test}: {done}");
    let files = crate::app::downloads(&browser, &["#suite-json"]);
    let mut table: Value = serde_json::from_str(files[0]["text"].as_str().unwrap()).unwrap();

    let out = tmp.path.join("cli-suite");
    let o = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args(["suite", "kyrgyz_mmlu_shots", "--model"])
        .arg(repo().join("models/demo/lingualens-demo-Q8_0.gguf"))
        .arg("--data")
        .arg(&test_csv)
        .arg("--data")
        .arg(&validation_csv)
        .args(["--backend", "cpu-int8", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cli: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("suite_kyrgyz_mmlu_shots.json")).unwrap()).unwrap();
    assert_eq!(cli["models"][0]["runs"]["shots_0"]["n"], json!(6), "{test}: {cli}");
    table["models"][0]["model"] = cli["models"][0]["model"].clone();
    assert_eq!(table, cli, "{test}: the page's table on the user's files and the CLI's");

    // Files that define another task: stopped, naming both.
    browser.eval(
        "document.getElementById('suite-forget').click(); document.getElementById('task-files').value = '';",
        json!([]),
    );
    let demo = ["demo.yaml", "demo.jsonl"].map(|f| repo().join("datasets/tasks/demo").join(f).display().to_string());
    browser.send_keys("#task-files", &demo.join("\n"));
    browser.eval("document.getElementById('experiment-select').value = 'kyrgyz_mmlu_shots';", json!([]));
    browser.click("#experiment-start");
    let wrong = browser.wait_for("the other task refused", error, LONG);
    let wrong = wrong.as_str().unwrap();
    assert!(
        wrong.contains("kyrgyz_mmlu") && wrong.contains("shots_0") && wrong.contains("define demo"),
        "{test}: {wrong}"
    );
}

/// A catalogue model downloads through the page's `?mirror=URL` as the benchmarks' files do
/// (`URL/HOST/PATH`, checked against the catalogue's size and sha256) and is kept under its
/// catalogue URL: the next visit, with the mirror gone and no `?mirror`, loads it from Cache Storage.
/// A catalogue whose one model is the demo's weights at a Hub URL, and a mirror folder holding the
/// file at HOST/PATH: (the site's models folder, the mirror's root, the URL's HOST/PATH).
fn mirrored_demo(dist: &Path, tmp: &TempDir) -> (PathBuf, PathBuf, &'static str) {
    use sha2::Digest;
    let bytes = std::fs::read(repo().join("models/demo/lingualens-demo-Q8_0.gguf")).unwrap();
    let sha256: String = sha2::Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
    let url_path = "huggingface.co/someone/demo-GGUF/resolve/main/demo-Q8_0.gguf";
    // The mirror holds the file at HOST/PATH; the site's model catalogue names it on the Hub.
    let mirror_root = tmp.path.join("mirror");
    let in_mirror = mirror_root.join(url_path);
    std::fs::create_dir_all(in_mirror.parent().unwrap()).unwrap();
    std::fs::write(&in_mirror, &bytes).unwrap();
    let models = tmp.path.join("models");
    std::fs::create_dir_all(models.join("demo")).unwrap();
    for f in std::fs::read_dir(dist.join("models/demo")).unwrap().flatten() {
        std::fs::copy(f.path(), models.join("demo").join(f.file_name())).unwrap();
    }
    let mut catalog: Value =
        serde_json::from_str(&std::fs::read_to_string(dist.join("models/catalog.json")).unwrap()).unwrap();
    let mut entry = catalog["models"][0].clone();
    entry["id"] = json!("mirrored-demo");
    entry["name"] = json!("The demo's weights, on the Hub");
    entry["url"] = json!(format!("https://{url_path}"));
    entry["size_bytes"] = json!(bytes.len());
    entry["sha256"] = json!(sha256);
    catalog["models"] = json!([entry]);
    std::fs::write(models.join("catalog.json"), serde_json::to_vec(&catalog).unwrap()).unwrap();

    (models, mirror_root, url_path)
}

/// Cross-origin isolated (the threaded worker's page), the worker still downloads what the user
/// names from other hosts: a catalogue model through the mirror, a CORS request, which COEP's
/// `require-corp` allows; the run on the threaded worker equals the same run without isolation.
#[test]
fn under_cross_origin_isolation_a_catalogue_model_still_downloads_from_another_host() {
    let test = "model_through_mirror_isolated";
    let Some(dist) = browser_or_skip(test) else { return };
    let tmp = TempDir::new("site-model-mirror-isolated");
    let (models, mirror_root, url_path) = mirrored_demo(&dist, &tmp);
    let standin = common::StandIn::start(&mirror_root, &[], &[]);
    let mirror = common::url_encode(&standin.url(""));
    let mut runs = Vec::new();
    for isolated in [true, false] {
        let mounts = vec![("models".into(), models.clone())];
        let app = if isolated {
            StaticServer::start_isolated(dist.clone(), mounts)
        } else {
            StaticServer::start_with_mounts(dist.clone(), mounts)
        };
        let browser = Browser::start(&[]);
        browser.goto(&app.url(&format!("?model=mirrored-demo&task=demo&limit=3&mirror={mirror}&run=1")));
        let run = finish(&browser, test, "the demo task on the mirrored model");
        assert_eq!(run["done"], json!(3), "{test}: {run}");
        let worker = browser.eval(
            "return { isolated: self.crossOriginIsolated, script: document.getElementById('run').dataset.workerScript };",
            json!([]),
        );
        assert_eq!(worker["isolated"], json!(isolated), "{test}: {worker}");
        let threaded = worker["script"].as_str().is_some_and(|s| s.contains("lingualens-worker-threads"));
        assert_eq!(threaded, isolated, "{test}: {worker}");
        runs.push(page_loglikelihoods(&run));
    }
    let asked: Vec<_> = standin.requests().into_iter().filter(|(p, _, _)| p.ends_with(url_path)).collect();
    assert!(!asked.is_empty() && asked.iter().all(|(_, _, status)| matches!(status, 200 | 206)), "{test}: {asked:?}");
    same_choice_loglikelihoods(test, &runs[0], &runs[1]);
}

#[test]
fn a_catalogue_model_downloads_through_the_mirror_and_is_kept_under_its_own_url() {
    let test = "model_through_mirror";
    let Some(dist) = browser_or_skip(test) else { return };
    let tmp = TempDir::new("site-model-mirror");
    let (models, mirror_root, url_path) = mirrored_demo(&dist, &tmp);
    let app = StaticServer::start_with_mounts(dist, vec![("models".into(), models)]);
    let standin = common::StandIn::start(&mirror_root, &[], &[]);
    let browser = Browser::start(&[]);
    let mirror = common::url_encode(&standin.url(""));
    browser.goto(&app.url(&format!("?model=mirrored-demo&task=demo&limit=3&mirror={mirror}&run=1")));
    let run = finish(&browser, test, "the demo task on the mirrored model");
    assert_eq!(run["done"], json!(3), "{test}: {run}");
    let asked: Vec<_> = standin.requests().into_iter().filter(|(p, _, _)| p.ends_with(url_path)).collect();
    assert!(!asked.is_empty() && asked.iter().all(|(_, _, status)| matches!(status, 200 | 206)), "{test}: {asked:?}");
    assert!(
        !app.requests("/").iter().any(|(r, _)| r.contains("huggingface.co")),
        "{test}: the site's own server was not asked for the model"
    );
    let source = "return document.getElementById('model-info').dataset.source || null;";
    assert_eq!(browser.eval(source, json!([])), json!("network"), "{test}");

    // Storage full: the model is used, not kept, and the page says so by the file's name. The
    // model's cached copy is deleted and the site's quota set just above what it uses already.
    browser.eval_async(
        "caches.open('lingualens-models-v1').then(c => c.keys().then(ks => Promise.all(ks.map(k => c.delete(k)))))
           .then(() => arguments[arguments.length - 1](true));",
    );
    let used = browser.eval_async("navigator.storage.estimate().then(e => arguments[arguments.length - 1](e.usage));");
    let origin = app.url("").trim_end_matches('/').to_string();
    let quota = used.as_u64().unwrap() + 50_000;
    browser.cdp("Storage.overrideQuotaForOrigin", json!({ "origin": origin, "quotaSize": quota }));
    browser.goto(&app.url(&format!("?model=mirrored-demo&task=demo&limit=2&mirror={mirror}&run=1")));
    let full = finish(&browser, test, "a run with the storage full");
    assert_eq!(full["done"], json!(2), "{test}: {full}");
    let note = browser.eval(
        "const n = document.getElementById('storage-note'); return n.hidden ? null : { file: n.dataset.file, text: n.textContent };",
        json!([]),
    );
    assert_eq!(note["file"], json!("demo-Q8_0.gguf"), "{test}: {note}");
    assert!(note["text"].as_str().unwrap().contains("storage for this site is full"), "{test}: {note}");
    browser.cdp("Storage.overrideQuotaForOrigin", json!({ "origin": origin }));

    // Kept under its catalogue URL: downloaded once more through the mirror, then, with the mirror
    // stopped and no ?mirror, a new run loads it from Cache Storage.
    // (Each run another setting, so that it is a new run, not a finished one restored.)
    browser.goto(&app.url(&format!("?model=mirrored-demo&task=demo&limit=1&seed=9&mirror={mirror}&run=1")));
    finish(&browser, test, "a run with the model downloaded again");
    assert_eq!(browser.eval(source, json!([])), json!("network"), "{test}");
    drop(standin);
    browser.goto(&app.url("?model=mirrored-demo&task=demo&limit=1&run=1"));
    let again = finish(&browser, test, "a run on the model from Cache Storage");
    assert_eq!(browser.eval(source, json!([])), json!("cache"), "{test}");
    assert_eq!(again["rows"].as_array().unwrap()[..], run["rows"].as_array().unwrap()[..1], "{test}: the same scores");
}

/// A published ProverbEval task YAML whose `dataset_path` is a Hub dataset, chosen under "My files"
/// with its include file and utils.py but no data: the worker finds its split on the Hub (the
/// stand-in through `?mirror=`: the dataset card's configs and the tree listing, as the `datasets`
/// library reads them), downloads it and runs 5 items, whose log-likelihoods on the exact engine
/// are the CLI's on the same YAML; with the stand-in gone, the same files run again from what was
/// kept; the authors' own `dataset_path` (a dataset the Hub does not serve) is named in the error.
#[test]
fn a_task_yaml_with_a_hub_dataset_path_and_no_data_fetches_its_split_as_lm_eval_would() {
    let test = "hub_yaml_in_the_page";
    let Some(dist) = browser_or_skip(test) else { return };
    let Some(release) = dzen_release_or_skip(test) else { return };
    let shared = release.parent().and_then(Path::parent).unwrap().to_path_buf();
    let tmp = TempDir::new("site-hub-yaml");
    let root = tmp.path.join("mirror");
    std::fs::create_dir_all(&root).unwrap();
    common::proverbeval_standin(&shared, &root, &tmp.path.join("catalog.json"));
    std::fs::write(
        root.join("huggingface.co/datasets/israel/ProverbEval/README.md"),
        "---\nconfigs:\n- config_name: amh_choice_english\n  data_files:\n  - split: english_1\n    path: amh/amh_english_test_1.csv\n---\n",
    )
    .unwrap();
    let folder = root.join(
        "raw.githubusercontent.com/EthioNLP/EthioProverbEval/8c6e92671f7fb59afdf7cd8295efca71b2120a10/choice/shuffle/english/1",
    );
    // The published YAML with the dataset the Hub serves (the authors' names one it does not).
    let yaml = tmp.path.join("task/amh_hub.yaml");
    std::fs::create_dir_all(yaml.parent().unwrap()).unwrap();
    std::fs::write(&yaml, "include: amh.yaml\ndataset_path: israel/ProverbEval\n").unwrap();
    let given =
        [yaml.clone(), folder.join("amh.yaml"), folder.join("ethio_proverb_eval_common_yaml"), folder.join("utils.py")];
    let standin = common::StandIn::start(&root, &[], &[]);
    let app = StaticServer::start(dist.clone());
    let sentinel = StaticServer::start(tmp.path.clone());
    let browser = browser_with_sentinel(&sentinel);
    let mirror = common::url_encode(&standin.url(""));
    // Another limit is another run (a run already finished would be shown again, not fetched).
    let run_with = |files: &[PathBuf], limit: usize| {
        browser.goto(&app.url(&format!("?model=demo&task=files&limit={limit}&backend=cpu&mirror={mirror}")));
        browser.wait_for("the worker", "return document.getElementById('backend-info').dataset.backend || null;", LONG);
        let picked: Vec<&str> = files.iter().map(|f| f.to_str().unwrap()).collect();
        browser.send_keys("#task-files", &picked.join("\n"));
        browser.click("#run-start");
    };
    run_with(&given, 5);
    let run = finish(&browser, test, "the Hub split fetched");
    assert_eq!(run["done"], json!(5), "{test}: {run}");
    let asked: Vec<String> = standin.requests().into_iter().map(|(p, _, _)| p).collect();
    assert!(
        asked.iter().any(|p| p.starts_with("/huggingface.co/api/datasets/israel/ProverbEval/tree/main")),
        "{test}: the tree listing: {asked:?}"
    );
    // The CLI on the same YAML (the same stand-in): the same log-likelihoods.
    let out = tmp.path.join("cli");
    let model = repo().join("models/demo/lingualens-demo-Q8_0.gguf");
    let copied = folder.join("amh_hub.yaml");
    std::fs::copy(&yaml, &copied).unwrap();
    let cli = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args(["eval", "--model", model.to_str().unwrap(), "--task", copied.to_str().unwrap()])
        .args(["--limit", "5", "--backend", "cpu", "--out", out.to_str().unwrap()])
        .env("LINGUALENS_MIRROR", standin.url(""))
        .env("LINGUALENS_CACHE", tmp.path.join("cli-cache"))
        .env_remove("HF_ENDPOINT")
        .output()
        .unwrap();
    assert!(cli.status.success(), "{}", String::from_utf8_lossy(&cli.stderr));
    let cli = cli_loglikelihoods(&out.join("samples_amh_choice_english_1.jsonl"));
    let page = page_loglikelihoods(&run);
    assert_eq!((page.len(), cli.len()), (5, 5), "{test}: {run}");
    for (i, (p, c)) in page.iter().zip(&cli).enumerate() {
        assert!(
            p.len() == 4 && p.iter().zip(c).all(|(a, b)| (a - b).abs() <= 1e-5 * b.abs().max(1.0)),
            "{test}: item {i}: page {p:?}, CLI {c:?}"
        );
    }
    // As published, the YAML names a dataset the Hub does not serve.
    let published = [folder.join("amh.yaml"), folder.join("ethio_proverb_eval_common_yaml"), folder.join("utils.py")];
    run_with(&published, 5);
    let error = wait_for_error(&browser, "the authors' dataset_path refused");
    assert!(error.contains("israel/OXgXd3n0CSIoxZf"), "{test}: {error}");
    // The stand-in gone: the card, the listing and the split were kept.
    drop(standin);
    run_with(&given, 3);
    let offline = finish(&browser, test, "the Hub split from what was kept");
    assert_eq!(offline["done"], json!(3), "{test}: {offline}");
    assert_eq!(asked_of_other_hosts(&sentinel), Vec::<String>::new(), "{test}: the page asked another host");
}
