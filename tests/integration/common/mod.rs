//! Shared helpers for the tests that drive a real headless Chromium: a static file server for the
//! trunk bundle and a minimal WebDriver client for Debian's chromedriver.
//!
//! The browser tests need the release bundle (`trunk build --release`, done by `scripts/test.sh`)
//! and `chromium` + `chromium-driver`. When those are missing they skip with a message, unless
//! `LINGUALENS_REQUIRE_BROWSER=1` (set by `scripts/test.sh` and so by CI), where they fail.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

pub mod npy;
pub mod parquet_writer;
pub mod samples;

/// Flags every Chromium start needs on these machines: no sandbox (we are root in a container),
/// a fresh profile, and none of the background traffic that a closed network refuses.
pub const BASE_CHROMIUM_FLAGS: &[&str] = &[
    "--headless=new",
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1366,768",
];

/// The one extra flag that makes Chromium expose WebGPU on its software adapter (SwiftShader)
/// on a machine without a GPU. Without it `requestAdapter()` returns null.
pub const WEBGPU_FLAG: &str = "--enable-unsafe-webgpu";

pub fn browser_required() -> bool {
    std::env::var("LINGUALENS_REQUIRE_BROWSER").is_ok_and(|v| v == "1")
}

/// Where trunk put the bundle, if it is there.
pub fn bundle_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("LINGUALENS_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("dist"));
    dir.join("index.html").is_file().then_some(dir)
}

/// Either everything a browser test needs, or the reason it can't run.
pub fn browser_prerequisites() -> Result<PathBuf, String> {
    let dist = bundle_dir().ok_or("no browser bundle: run `trunk build --release` (scripts/test.sh does)")?;
    if which("chromedriver").is_none() {
        return Err("chromedriver is not installed (Debian package chromium-driver)".into());
    }
    Ok(dist)
}

/// Returns the bundle, or `None` after saying plainly why the test is skipped.
pub fn browser_or_skip(test: &str) -> Option<PathBuf> {
    match browser_prerequisites() {
        Ok(dist) => Some(dist),
        Err(reason) if browser_required() => panic!("{test}: {reason}"),
        Err(reason) => {
            eprintln!("SKIPPED {test}: {reason}");
            None
        }
    }
}

pub fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?.to_str()?.split(':').map(|dir| Path::new(dir).join(program)).find(|p| p.is_file())
}

/// `s` encoded for a URL query value.
pub fn url_encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

// ---------------------------------------------------------------------------------------------
// Static file server

/// Serves `root` on 127.0.0.1 until the test process ends. Enough HTTP for a browser: GET and
/// HEAD, single `Range` requests (206 with `Content-Range`), the right content types (wasm must be
/// `application/wasm` for streaming compilation). It logs every request, and can send the files
/// under a path slowly (`throttle`), as a slow network would.
pub struct StaticServer {
    pub port: u16,
    /// While set, every connection is closed unanswered: the network is down.
    offline: std::sync::Arc<std::sync::atomic::AtomicBool>,
    shared: std::sync::Arc<Shared>,
}

/// What the serving threads share with the test: the log of requests and the throttle.
#[derive(Default)]
struct Shared {
    /// Every request: (path with query, its `Range` header).
    log: std::sync::Mutex<Vec<(String, Option<String>)>>,
    /// Downloads of paths starting with this prefix are sent at this many bytes a second.
    throttle: std::sync::Mutex<Option<(String, usize)>>,
}

impl StaticServer {
    pub fn start(root: PathBuf) -> StaticServer {
        Self::start_with_mounts(root, Vec::new())
    }

    /// Serves `root` at `/`, and each `(prefix, dir)` at `/prefix/` (test fixtures, say).
    pub fn start_with_mounts(root: PathBuf, mounts: Vec<(String, PathBuf)>) -> StaticServer {
        Self::start_server(root, mounts, "")
    }

    /// As `start_with_mounts`, with the two headers that make the pages cross-origin isolated
    /// (`self.crossOriginIsolated`), which `SharedArrayBuffer` and so wasm threads need.
    pub fn start_isolated(root: PathBuf, mounts: Vec<(String, PathBuf)>) -> StaticServer {
        Self::start_server(
            root,
            mounts,
            "Cross-Origin-Opener-Policy: same-origin\r\nCross-Origin-Embedder-Policy: require-corp\r\n",
        )
    }

    fn start_server(root: PathBuf, mounts: Vec<(String, PathBuf)>, extra_headers: &'static str) -> StaticServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the static server");
        let port = listener.local_addr().expect("server address").port();
        let offline = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let down = offline.clone();
        let shared = std::sync::Arc::new(Shared::default());
        let state = shared.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                if down.load(std::sync::atomic::Ordering::SeqCst) {
                    drop(stream);
                    continue;
                }
                let (root, mounts, state) = (root.clone(), mounts.clone(), state.clone());
                std::thread::spawn(move || {
                    let _ = serve_one(stream, &root, &mounts, &state, extra_headers);
                });
            }
        });
        StaticServer { port, offline, shared }
    }

    /// Sends the files whose path starts with `prefix` (`/m/`) at `bytes_per_second` when they are
    /// downloaded (asked for whole, or from an offset to the end); bounded ranges go at full speed.
    pub fn throttle(&self, prefix: &str, bytes_per_second: usize) {
        *self.shared.throttle.lock().unwrap() = Some((prefix.to_string(), bytes_per_second.max(1)));
    }

    /// The requests so far whose path starts with `prefix`: (path with query, `Range` header).
    pub fn requests(&self, prefix: &str) -> Vec<(String, Option<String>)> {
        self.shared.log.lock().unwrap().iter().filter(|(p, _)| p.starts_with(prefix)).cloned().collect()
    }

    /// Takes the server off the network (connections are closed unanswered) or back on.
    pub fn set_offline(&self, offline: bool) {
        self.offline.store(offline, std::sync::atomic::Ordering::SeqCst);
    }

    pub fn url(&self, path_and_query: &str) -> String {
        format!("http://127.0.0.1:{}/{}", self.port, path_and_query.trim_start_matches('/'))
    }
}

fn serve_one(
    stream: TcpStream,
    root: &Path,
    mounts: &[(String, PathBuf)],
    shared: &Shared,
    extra_headers: &str,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut range_header = None;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header == "\r\n" || header == "\n" {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.trim().eq_ignore_ascii_case("range") {
                range_header = Some(value.trim().to_string());
            }
        }
    }
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or("");
    let target = parts.next().unwrap_or("/");
    shared.log.lock().unwrap().push((target.to_string(), range_header.clone()));
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let relative = if path.ends_with('/') { format!("{path}index.html") } else { path.to_string() };
    let safe = !relative.split('/').any(|segment| segment == "..");
    let relative = percent_decode(&relative);
    let file = mounts
        .iter()
        .find_map(|(prefix, dir)| relative.strip_prefix(&format!("/{prefix}/")).map(|rest| dir.join(rest)))
        .unwrap_or_else(|| root.join(relative.trim_start_matches('/')));
    let mut stream = stream;
    match (safe, std::fs::read(&file)) {
        (true, Ok(body)) => {
            let len = body.len();
            // One range, `bytes=a-b` or `bytes=a-`; anything else gets the whole file.
            let range = range_header.as_deref().and_then(|r| r.strip_prefix("bytes=")).and_then(|r| {
                let (a, b) = r.split_once('-')?;
                let a: usize = a.trim().parse().ok()?;
                let b: usize = if b.trim().is_empty() {
                    len.saturating_sub(1)
                } else {
                    b.trim().parse::<usize>().ok()?.min(len.saturating_sub(1))
                };
                Some((a, b))
            });
            let (status, extra, part) = match range {
                Some((a, _)) if a >= len => {
                    let head = format!("HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{len}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                    stream.write_all(head.as_bytes())?;
                    return stream.flush();
                }
                Some((a, b)) if a <= b => {
                    ("206 Partial Content", format!("Content-Range: bytes {a}-{b}/{len}\r\n"), &body[a..=b])
                }
                _ => ("200 OK", String::new(), &body[..]),
            };
            let head = format!(
                "HTTP/1.1 {status}\r\nContent-Type: {}\r\nContent-Length: {}\r\n{extra}Accept-Ranges: bytes\r\nCache-Control: no-store\r\n{extra_headers}Connection: close\r\n\r\n",
                content_type(&file),
                part.len()
            );
            stream.write_all(head.as_bytes())?;
            if method != "HEAD" {
                // Downloads are slowed (no Range, or an open `bytes=a-`); reads of a header
                // (a bounded `bytes=a-b`) are not, so a test's time goes to the download.
                let download = range_header.as_deref().is_none_or(|r| r.ends_with('-'));
                let throttle = shared
                    .throttle
                    .lock()
                    .unwrap()
                    .clone()
                    .filter(|(prefix, _)| download && path.starts_with(prefix.as_str()));
                match throttle {
                    // Ten writes a second; a closed connection (the page reloaded) ends the loop.
                    Some((_, rate)) => {
                        for chunk in part.chunks((rate / 10).max(1)) {
                            stream.write_all(chunk)?;
                            stream.flush()?;
                            std::thread::sleep(Duration::from_millis(100));
                        }
                    }
                    None => stream.write_all(part)?,
                }
            }
        }
        _ => {
            let body = b"not found";
            let head = format!(
                "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            stream.write_all(head.as_bytes())?;
            stream.write_all(body)?;
        }
    }
    stream.flush()
}

fn percent_decode(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (
            bytes[i],
            bytes.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()),
        ) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "ttf" => "font/ttf",
        "woff2" => "font/woff2",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

// ---------------------------------------------------------------------------------------------
// WebDriver

/// A chromedriver process and one Chromium session on it, both ended on drop.
pub struct Browser {
    driver: Child,
    base: String,
    session: String,
    _profile: TempDir,
}

impl Browser {
    /// Starts Debian's Chromium, headless, with the base flags plus `extra_flags`.
    pub fn start(extra_flags: &[&str]) -> Browser {
        let port = free_port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let base = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(30);
        while ureq::get(&format!("{base}/status")).call().is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not come up on port {port}");
            std::thread::sleep(Duration::from_millis(100));
        }

        let profile = TempDir::new("chromium-profile");
        let mut args: Vec<String> = BASE_CHROMIUM_FLAGS.iter().map(|s| s.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.path.display()));
        args.extend(extra_flags.iter().map(|s| s.to_string()));
        let mut options = json!({ "args": args });
        // Debian's /usr/bin/chromium is a wrapper script; give chromedriver the real binary.
        if Path::new("/usr/lib/chromium/chromium").is_file() {
            options["binary"] = json!("/usr/lib/chromium/chromium");
        }
        let capabilities = json!({
            "capabilities": { "alwaysMatch": { "browserName": "chrome", "goog:chromeOptions": options } }
        });
        let mut browser = Browser { driver, base, session: String::new(), _profile: profile };
        let created = browser.post("/session", capabilities);
        browser.session = created["sessionId"].as_str().expect("a WebDriver session id").to_string();
        browser
    }

    fn post(&self, path: &str, body: Value) -> Value {
        let url = format!("{}{}", self.base, path);
        let response = ureq::post(&url)
            .config()
            .http_status_as_error(false)
            .build()
            .send_json(body)
            .unwrap_or_else(|e| panic!("WebDriver POST {path}: {e}"));
        let status = response.status();
        let value: Value = response.into_body().read_json().unwrap_or_else(|e| panic!("WebDriver POST {path}: {e}"));
        // WebDriver reports a failure with a non-2xx status and {"value": {"error", "message"}}.
        if !status.is_success() {
            panic!("WebDriver POST {path} failed ({status}): {}", value["value"]);
        }
        value["value"].clone()
    }

    fn get(&self, path: &str) -> Value {
        let url = format!("{}{}", self.base, path);
        let mut response = ureq::get(&url).call().unwrap_or_else(|e| panic!("WebDriver GET {path}: {e}"));
        let value: Value = response.body_mut().read_json().unwrap_or_else(|e| panic!("WebDriver GET {path}: {e}"));
        value["value"].clone()
    }

    pub fn goto(&self, url: &str) {
        self.post(&format!("/session/{}/url", self.session), json!({ "url": url }));
    }

    /// Runs `script` (a function body; `arguments` holds `args`) in the page and returns its value.
    pub fn eval(&self, script: &str, args: Value) -> Value {
        self.post(&format!("/session/{}/execute/sync", self.session), json!({ "script": script, "args": args }))
    }

    /// Runs `script` asynchronously: it must call `arguments[arguments.length - 1](value)`.
    pub fn eval_async(&self, script: &str) -> Value {
        self.post(&format!("/session/{}/execute/async", self.session), json!({ "script": script, "args": [] }))
    }

    /// Types `text` into the element matched by `css` (for `<input type=file>`: a local path,
    /// which is how WebDriver uploads a file).
    pub fn send_keys(&self, css: &str, text: &str) {
        let found =
            self.post(&format!("/session/{}/element", self.session), json!({ "using": "css selector", "value": css }));
        let id = found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(|v| v.as_str())
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string();
        self.post(&format!("/session/{}/element/{id}/value", self.session), json!({ "text": text }));
    }

    /// Clicks the element matched by `css` (through the DOM, as a user's click would dispatch).
    pub fn click(&self, css: &str) {
        let clicked = self.eval(
            "const el = document.querySelector(arguments[0]); if (!el) return false; el.click(); return true;",
            json!([css]),
        );
        assert_eq!(clicked, json!(true), "no element {css} to click");
    }

    /// Sets the window's size (screenshots are taken at a laptop's 1366×768).
    pub fn set_window_size(&self, width: u32, height: u32) {
        self.post(&format!("/session/{}/window/rect", self.session), json!({ "width": width, "height": height }));
    }

    /// Polls `script` until it returns something other than null/false, or panics after `timeout`.
    pub fn wait_for(&self, what: &str, script: &str, timeout: Duration) -> Value {
        let deadline = Instant::now() + timeout;
        loop {
            let value = self.eval(script, json!([]));
            if !(value.is_null() || value == json!(false)) {
                return value;
            }
            if Instant::now() > deadline {
                let page = self.eval("return document.body ? document.body.innerText + '\\n[trace] ' + (document.body.dataset.trace || '') : ''", json!([]));
                panic!(
                    "timed out after {timeout:?} waiting for {what}; the page says:\n{}",
                    page.as_str().unwrap_or("")
                );
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// The page printed to PDF by the browser (WebDriver's Print Page, A4), as bytes.
    pub fn print_pdf(&self) -> Vec<u8> {
        let encoded = self.post(
            &format!("/session/{}/print", self.session),
            json!({ "page": { "width": 21.0, "height": 29.7 }, "background": true }),
        );
        decode_base64(encoded.as_str().unwrap_or(""))
    }

    /// Runs a Chrome DevTools Protocol command (chromedriver's `goog/cdp/execute`).
    pub fn cdp(&self, command: &str, params: Value) -> Value {
        self.post(&format!("/session/{}/goog/cdp/execute", self.session), json!({ "cmd": command, "params": params }))
    }

    /// Saves a PNG of the viewport.
    pub fn screenshot(&self, path: &Path) {
        let encoded = self.get(&format!("/session/{}/screenshot", self.session));
        let bytes = decode_base64(encoded.as_str().unwrap_or(""));
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        std::fs::write(path, bytes).expect("write screenshot");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = ureq::delete(&format!("{}/session/{}", self.base, self.session)).call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

pub fn screenshot_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots").join(name)
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let sextets: Vec<u8> = text.bytes().filter_map(value).collect();
    sextets
        .chunks(4)
        .flat_map(|c| {
            let n = c.iter().enumerate().fold(0u32, |n, (i, &s)| n | (s as u32) << (18 - 6 * i));
            let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            bytes.into_iter().take(c.len().saturating_sub(1))
        })
        .collect()
}

/// A directory removed on drop.
pub struct TempDir {
    pub path: PathBuf,
}

impl TempDir {
    pub fn new(prefix: &str) -> TempDir {
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let path = std::env::temp_dir().join(format!("lingualens-{prefix}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&path).expect("create a temporary directory");
        TempDir { path }
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

// ---------------------------------------------------------------------------------------------
// Inputs a test reads but does not write: fixtures and the shared datasets

/// Whether a missing input is a failure (`LINGUALENS_REQUIRE_FIXTURES=1`, set by scripts/test.sh
/// and so by CI) rather than a skip.
pub fn inputs_required() -> bool {
    std::env::var("LINGUALENS_REQUIRE_FIXTURES").as_deref() == Ok("1")
}

/// Says in one line that `test` is skipped and why; a panic instead when inputs are required. The
/// line goes to the stderr handle itself, past the harness's capture, so a plain `cargo test`
/// shows what it skipped.
pub fn skip(test: &str, why: &str) {
    assert!(!inputs_required(), "{test}: {why}, and LINGUALENS_REQUIRE_FIXTURES=1");
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}

/// `$LINGUALENS_FIXTURES/rel` (written by `tools/fixtures/make_all.sh`; `made_by` names the script
/// that writes it), or `None` after [`skip`].
pub fn fixture(test: &str, rel: &str, made_by: &str) -> Option<PathBuf> {
    let Some(root) = std::env::var_os("LINGUALENS_FIXTURES") else {
        skip(test, &format!("LINGUALENS_FIXTURES is not set (scripts/test.sh sets it; {made_by} writes {rel})"));
        return None;
    };
    let path = PathBuf::from(root).join(rel);
    if path.exists() {
        return Some(path);
    }
    skip(test, &format!("{} is missing ({made_by} writes it)", path.display()));
    None
}

/// The shared folder beside the clone (`../shared`, or `$LINGUALENS_SHARED`): the benchmarks' real
/// files, read at run time and never copied into the repository.
pub fn shared_root() -> PathBuf {
    std::env::var_os("LINGUALENS_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"))
}

/// `shared_root()/rel`, or `None` after [`skip`].
pub fn shared(test: &str, rel: &str) -> Option<PathBuf> {
    let path = shared_root().join(rel);
    if path.exists() {
        return Some(path);
    }
    skip(test, &format!("{} is missing (set LINGUALENS_SHARED to the shared/ folder)", path.display()));
    None
}

/// burn-wgpu's device (Vulkan; Mesa's lavapipe on machines without a GPU) for the tests that run on
/// it. `ComputeDevice::wgpu` itself hands out one device per process (burn refuses a second); this
/// only keeps it as a `&'static` and fails the test where there is no adapter.
pub fn wgpu() -> &'static lingualens::backend::ComputeDevice {
    static DEVICE: std::sync::OnceLock<lingualens::backend::ComputeDevice> = std::sync::OnceLock::new();
    DEVICE.get_or_init(|| {
        pollster::block_on(lingualens::backend::ComputeDevice::wgpu()).expect("burn-wgpu (Vulkan; lavapipe in CI)")
    })
}

/// Every integration test shares one process (tests/integration/main.rs), so a test that needs an
/// environment variable of its own runs itself again in a child process of this binary, with
/// `env` set, alone. Returns true in that child, where the test's body goes on; in the parent it
/// waits for the child, fails with its output if it failed, and returns false (the test returns).
/// `test` is the test's path in the crate, `module::name`.
pub fn in_own_process(test: &str, env: &[(&str, &str)]) -> bool {
    const MARK: &str = "LINGUALENS_TEST_IN_OWN_PROCESS";
    if std::env::var(MARK).as_deref() == Ok(test) {
        return true;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let output = Command::new(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(MARK, test)
        .envs(env.iter().copied())
        .output()
        .expect("start the test binary again");
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    print!("{stdout}");
    eprint!("{stderr}");
    assert!(output.status.success(), "{test}, run alone with {env:?}: {}", output.status);
    // A filter that matched nothing also exits 0: make sure the test ran.
    assert!(stdout.contains("1 passed"), "{test}, run alone: the child ran no test (is the path right?)");
    false
}

// ---------------------------------------------------------------------------------------------
// The stand-in for GitHub and the Hugging Face Hub (tools/standin/server.py)

/// Where datasets/catalog.json's DZEN archive lives, as a mirror lays it out (`MIRROR/HOST/PATH`).
pub const DZEN_RELEASE_PATH: &str =
    "raw.githubusercontent.com/kraritt/llm_dzongkha_evaluation/a31d973bac71b3a7fbe711c20ce4056c557669ce";

/// `tools/standin/server.py` started on a free port, stopped on drop: the hosts the catalogue
/// names, served from folders laid out as a mirror (`ROOT/HOST/PATH`), with their redirects,
/// ranges, ETags and CORS, and faults the test asks for.
pub struct StandIn {
    child: std::process::Child,
    pub port: u16,
    log: PathBuf,
}

impl StandIn {
    /// `root` as the mirror, each `(url path, dir)` mounted, and the server's own flags
    /// (`--truncate-once SUFFIX=N`, `--no-cors PREFIX`).
    pub fn start(root: &Path, mounts: &[(&str, &Path)], flags: &[&str]) -> StandIn {
        let dir = root.parent().unwrap_or(root).to_path_buf();
        let id = std::process::id() as u64 * 1000
            + std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_millis() as u64;
        let port_file = dir.join(format!("standin-{id}.port"));
        let log = dir.join(format!("standin-{id}.log"));
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tools/standin/server.py");
        let mut command = std::process::Command::new("python3");
        command.arg(&script).arg("--root").arg(root).arg("--port-file").arg(&port_file).arg("--log").arg(&log);
        for (path, folder) in mounts {
            command.arg("--mount").arg(format!("{path}={}", folder.display()));
        }
        command.args(flags).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
        let child = command.spawn().expect("start python3 tools/standin/server.py");
        let started = std::time::Instant::now();
        let port = loop {
            if let Some(port) = std::fs::read_to_string(&port_file).ok().and_then(|p| p.trim().parse().ok()) {
                break port;
            }
            assert!(started.elapsed() < Duration::from_secs(20), "tools/standin/server.py did not start");
            std::thread::sleep(Duration::from_millis(50));
        };
        StandIn { child, port, log }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}/{}", self.port, path.trim_start_matches('/'))
    }

    /// Every request so far: (path with query, its `Range` header, the status answered).
    pub fn requests(&self) -> Vec<(String, Option<String>, u16)> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .map(|v| {
                (
                    v["path"].as_str().unwrap_or("").to_string(),
                    v["range"].as_str().map(str::to_string),
                    v["status"].as_u64().unwrap_or(0) as u16,
                )
            })
            .collect()
    }
}

impl Drop for StandIn {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// ProverbEval laid out for the stand-in under `root` (tools/standin/make_shaped.py: the authors'
/// published YAMLs from the shared copies, a utils.py in their shape, Hub-shaped CSVs for Amharic;
/// here, Parquet files at the Hub's parquet-conversion paths for the other languages), and at
/// `catalog_file` the committed benchmark catalogue with our utils.py's sha256 where the authors' is
/// pinned (every other pinned sha256 is checked as committed). Gives the Amharic tasks' names.
pub fn proverbeval_standin(shared: &Path, root: &Path, catalog_file: &Path) -> Vec<String> {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tools/standin/make_shaped.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(shared.join("datasets/proverbeval-configs"))
        .arg(root)
        .output()
        .expect("python3 make_shaped.py");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let utils: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut catalog: Value = serde_json::from_str(lingualens::catalog::BENCHMARK_CATALOG_JSON).unwrap();
    let mut amharic = None;
    let mut replaced = 0;
    for entry in catalog["benchmarks"].as_array_mut().unwrap() {
        if !entry["id"].as_str().unwrap().starts_with("proverbeval-") {
            continue;
        }
        if entry["id"] == "proverbeval-amh" {
            amharic =
                Some(entry["tasks"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_string()).collect());
        }
        for file in entry["files"].as_array_mut().unwrap() {
            let url = file["url"].as_str().unwrap().to_string();
            if let Some(rest) = url.strip_prefix("https://").filter(|_| url.ends_with("/utils.py")) {
                let shaped = &utils[rest];
                assert!(shaped.is_object(), "make_shaped.py wrote no {rest}");
                file["sha256"] = shaped["sha256"].clone();
                file["size_bytes"] = shaped["size_bytes"].clone();
                replaced += 1;
            } else if url.starts_with("https://raw.githubusercontent.com/") {
                assert!(file["sha256"].is_string(), "{url}: the authors' files are pinned");
            } else if let Some((_, config_split)) = url.split_once("/resolve/refs%2Fconvert%2Fparquet/") {
                let path =
                    root.join("huggingface.co/datasets/israel/ProverbEval/@refs/convert/parquet").join(config_split);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, proverbeval_shaped_parquet(config_split)).unwrap();
            }
        }
    }
    // One utils.py per task folder: five for each of Amharic, Afaan Oromo, Tigrinya and Ge'ez, three for English.
    assert_eq!(replaced, 23);
    std::fs::write(catalog_file, catalog.to_string()).unwrap();
    amharic.expect("proverbeval-amh in datasets/catalog.json")
}

/// A Parquet file in the columns of a ProverbEval config (`{lang}_choice_*`: Proverb, A-D,
/// Answer_Letter; `{lang}_fill_blank`: Proverb, A-D, Answer; `{lang}_generation`: Description,
/// Proverb), eight made-up rows whose gold letters differ, as the Hub's conversion of its CSVs has them.
fn proverbeval_shaped_parquet(config_split: &str) -> Vec<u8> {
    use parquet_writer::{parquet_file, PqCol};
    let config = config_split.split('/').next().unwrap();
    let text = |f: &dyn Fn(usize) -> String| (0..8).map(f).collect::<Vec<String>>();
    let proverbs = text(&|i| format!("{config} stand-in proverb {i}"));
    let letters = text(&|i| ["A", "B", "C", "D"][i % 4].to_string());
    let options: Vec<Vec<String>> = ["a", "b", "c", "d"].iter().map(|o| text(&|i| format!("meaning {o}{i}"))).collect();
    fn col(v: &[String]) -> Vec<Option<&str>> {
        v.iter().map(|s| Some(s.as_str())).collect()
    }
    let descriptions = text(&|i| format!("A stand-in description number {i}."));
    let columns = if config.ends_with("_generation") {
        vec![PqCol::Text("Description", col(&descriptions)), PqCol::Text("Proverb", col(&proverbs))]
    } else {
        let gold = if config.ends_with("_fill_blank") { "Answer" } else { "Answer_Letter" };
        vec![
            PqCol::Text("Proverb", col(&proverbs)),
            PqCol::Text("A", col(&options[0])),
            PqCol::Text("B", col(&options[1])),
            PqCol::Text("C", col(&options[2])),
            PqCol::Text("D", col(&options[3])),
            PqCol::Text(gold, col(&letters)),
        ]
    };
    parquet_file(&columns, ::parquet::basic::Compression::SNAPPY)
}

/// KyrgyzMMLU laid out for the stand-in as its Hub repository is (`TTimur/kyrgyzMMLU` under
/// `root/huggingface.co/datasets/`): [`kyrgyz_standin`] with its nine subjects. Gives the
/// repository's folder.
pub fn kyrgyz_mmlu_standin(root: &Path) -> PathBuf {
    const SUBJECTS: [&str; 9] =
        ["biology", "chemistry", "geography", "history", "lang", "literature", "math", "medicine", "physics"];
    kyrgyz_standin(root, "TTimur/kyrgyzMMLU", "kyrgyz_mmlu", &SUBJECTS, false)
}

/// KyrgyzRC as [`kyrgyz_mmlu_standin`]: `TTimur/kyrgyzRC`, its four sources, each question with a
/// passage (`Текст (KG)`).
pub fn kyrgyz_rc_standin(root: &Path) -> PathBuf {
    kyrgyz_standin(root, "TTimur/kyrgyzRC", "kyrgyz_rc", &["literature", "math", "news", "wiki"], true)
}

/// A KyrgyzLLM-Bench repository for the stand-in: a card whose `configs` name each
/// `{prefix}_{subject}`'s `validation-*` and `test-*` shard, as `push_to_hub` writes them, and
/// Parquet shards in the columns the authors' code reads (`Текст (KG)` where `passage`,
/// `Суроо (KG)`, `А (KG)`…`Д (KG)`, `Туура жооп`), made-up text: three test and two validation
/// questions per subject, some with four options (an empty `Д (KG)`), gold letters in either case.
fn kyrgyz_standin(root: &Path, dataset: &str, prefix: &str, subjects: &[&str], passage: bool) -> PathBuf {
    use parquet_writer::{parquet_file, PqCol};
    let repo = root.join("huggingface.co/datasets").join(dataset);
    let mut card = String::from("---\nlicense: unknown\nconfigs:\n");
    for s in subjects {
        card.push_str(&format!(
            "- config_name: {prefix}_{s}\n  data_files:\n  - split: validation\n    path: {prefix}_{s}/validation-*\n  - split: test\n    path: {prefix}_{s}/test-*\n"
        ));
    }
    card.push_str("---\n# A stand-in: made-up questions in the columns of KyrgyzLLM-Bench's files.\n");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::write(repo.join("README.md"), card).unwrap();
    for (n, s) in subjects.iter().enumerate() {
        for (split, rows) in [("validation", 2), ("test", 3)] {
            let text = |f: &dyn Fn(usize) -> String| (0..rows).map(f).collect::<Vec<String>>();
            let passages = text(&|i| format!("{s} {split} текст {i}: бир окуя жөнүндө кыска текст."));
            let question = text(&|i| format!("{s} {split} суроо {i}: кайсы туура?"));
            let options: Vec<Vec<String>> = ["бир", "эки", "үч", "төрт", "беш"]
                .iter()
                .enumerate()
                .map(|(k, o)| {
                    text(&|i| if k == 4 && (i + n) % 2 == 0 { String::new() } else { format!("{o} {s} {i}") })
                })
                .collect();
            let gold = text(&|i| ["а", "Б", "в", "г"][(i + n) % 4].to_string());
            fn col(v: &[String]) -> Vec<Option<&str>> {
                v.iter().map(|x| Some(x.as_str())).collect()
            }
            let mut columns = Vec::new();
            if passage {
                columns.push(PqCol::Text("Текст (KG)", col(&passages)));
            }
            columns.extend([
                PqCol::Text("Суроо (KG)", col(&question)),
                PqCol::Text("А (KG)", col(&options[0])),
                PqCol::Text("Б (KG)", col(&options[1])),
                PqCol::Text("В (KG)", col(&options[2])),
                PqCol::Text("Г (KG)", col(&options[3])),
                PqCol::Text("Д (KG)", col(&options[4])),
                PqCol::Text("Туура жооп", col(&gold)),
            ]);
            let dir = repo.join(format!("{prefix}_{s}"));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(
                dir.join(format!("{split}-00000-of-00001.parquet")),
                parquet_file(&columns, ::parquet::basic::Compression::SNAPPY),
            )
            .unwrap();
        }
    }
    repo
}

/// The authors' code that KyrgyzLLM-Bench's prompts are read from, as a stand-in of its shape
/// written from the shared `PROMPTS.md` (`tools/fixtures/kyrgyz_code_standin.py`: tests cannot
/// reach GitHub, and the real files are not ours to copy), placed under `root` where the mirror
/// serves the catalogue's URL, and a copy of the committed catalogue at `catalog` whose benchmarks
/// name that file's sha256 and size. Returns the URL of the code file `file`.
pub fn kyrgyz_code_standin(prompts_md: &Path, root: &Path, scratch: &Path, catalog: &Path, file: &str) -> String {
    use sha2::Digest;
    let status = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/fixtures/kyrgyz_code_standin.py"))
        .arg(prompts_md)
        .arg(scratch)
        .status()
        .expect("run python3");
    assert!(status.success(), "kyrgyz_code_standin.py failed");
    let mut json: Value = serde_json::from_str(lingualens::catalog::BENCHMARK_CATALOG_JSON).unwrap();
    let mut wanted = None;
    for b in json["benchmarks"].as_array_mut().unwrap() {
        for code in b.get_mut("prompt_code").and_then(Value::as_array_mut).into_iter().flatten() {
            let url = code["url"].as_str().unwrap().to_string();
            let name = url.rsplit('/').next().unwrap().to_string();
            let bytes = std::fs::read(scratch.join("kyrgyz-code").join(&name)).unwrap();
            let served = root.join(url.strip_prefix("https://").unwrap());
            std::fs::create_dir_all(served.parent().unwrap()).unwrap();
            std::fs::write(&served, &bytes).unwrap();
            let sha: String = sha2::Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
            code["sha256"] = json!(sha);
            code["size_bytes"] = json!(bytes.len());
            if name == file {
                wanted = Some(url);
            }
        }
    }
    std::fs::write(catalog, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    wanted.unwrap_or_else(|| panic!("the catalogue names no code file {file}"))
}
