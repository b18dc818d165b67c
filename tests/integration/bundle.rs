//! The page's wasm is the first thing a visitor downloads, so it must link the UI and nothing of
//! the engine. trunk builds it from `www/index.html`'s `lingualens-page` link with the cargo
//! options written there; this test reads those options and asks cargo for the crate graph they
//! give on wasm32, which must hold none of burn, cubecl or wgpu (the worker's crates).

use std::path::Path;
use std::process::Command;

const ENGINE_CRATES: &[&str] = &["burn", "cubecl", "cubek", "wgpu", "naga", "pliron"];

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The attributes of the `<link data-trunk rel="rust" …>` tag whose `data-bin` is `bin`.
fn rust_link(html: &str, bin: &str) -> String {
    html.split("<link")
        .map(|tag| &tag[..tag.find('>').unwrap_or(tag.len())])
        .find(|tag| tag.contains("rel=\"rust\"") && tag.contains(&format!("data-bin=\"{bin}\"")))
        .unwrap_or_else(|| panic!("www/index.html has no rust link for {bin}"))
        .to_string()
}

fn crate_graph(cargo_args: &[&str]) -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "tree",
            "--offline",
            "--target",
            "wasm32-unknown-unknown",
            "-e",
            "normal",
            "--prefix",
            "none",
            "--format",
            "{p}",
        ])
        .args(cargo_args)
        .current_dir(repo())
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
        .collect()
}

fn engine_crates_in(graph: &[String]) -> Vec<&String> {
    let mut found: Vec<&String> = graph
        .iter()
        .filter(|name| ENGINE_CRATES.iter().any(|e| *name == e || name.starts_with(&format!("{e}-"))))
        .collect();
    found.sort();
    found.dedup();
    found
}

#[test]
fn the_page_is_built_without_the_engine() {
    let html = std::fs::read_to_string(repo().join("www/index.html")).unwrap();
    let page = rust_link(&html, "lingualens-page");
    let mut args = vec![];
    if page.contains("data-cargo-no-default-features") {
        args.push("--no-default-features");
    }
    let features =
        page.split("data-cargo-features=\"").nth(1).and_then(|rest| rest.split('"').next()).map(str::to_string);
    if let Some(features) = &features {
        args.extend(["--features", features]);
    }
    let graph = crate_graph(&args);
    assert!(graph.iter().any(|c| c == "wasm-bindgen"), "the graph looks wrong: {graph:?}");
    let engine = engine_crates_in(&graph);
    assert!(engine.is_empty(), "the page's wasm (www/index.html: {page}) would link {engine:?}");
}

/// The check above can fail: the worker, built with the default features, has them all.
#[test]
fn the_worker_is_built_with_the_engine() {
    let html = std::fs::read_to_string(repo().join("www/index.html")).unwrap();
    let worker = rust_link(&html, "lingualens-worker");
    assert!(!worker.contains("data-cargo-no-default-features"), "{worker}");
    let graph = crate_graph(&[]);
    let engine = engine_crates_in(&graph);
    for wanted in ["burn", "cubecl", "wgpu"] {
        assert!(engine.iter().any(|c| *c == wanted), "{wanted} is not in the worker's graph: {engine:?}");
    }
}

/// The threaded worker is built (scripts/build-threaded-worker.sh) with the engine and without the
/// GPU stack, which does not compile with wasm atomics; the check that its features say so.
#[test]
fn the_threaded_worker_is_built_with_the_engine_and_without_wgpu() {
    let script = std::fs::read_to_string(repo().join("scripts/build-threaded-worker.sh")).unwrap();
    assert!(
        script.contains("--no-default-features --features engine"),
        "scripts/build-threaded-worker.sh: its features changed"
    );
    let graph = crate_graph(&["--no-default-features", "--features", "engine"]);
    let engine = engine_crates_in(&graph);
    assert!(engine.iter().any(|c| *c == "burn"), "burn is not in the threaded worker's graph: {engine:?}");
    for absent in ["cubecl", "wgpu"] {
        assert!(!engine.iter().any(|c| *c == absent), "the threaded worker would link {absent}: {engine:?}");
    }
}

/// The threaded worker's memory, as its wasm-bindgen glue makes it: shared (its helper threads
/// instantiate the module on it) and able to grow to wasm32's 4 GiB (65,536 pages). A module
/// linked without build.rs's flags gets unshared glue, or memory that cannot grow past its start.
#[test]
fn the_threaded_workers_memory_is_shared_and_grows_to_4_gib() {
    let Some(dist) = built_bundle() else { return };
    for bin in ["lingualens-worker-threads", "lingualens-worker-threads-relaxed"] {
        let glue = std::fs::read_to_string(dist.join(format!("{bin}.js"))).unwrap();
        let memory = glue.split("new WebAssembly.Memory(").nth(1).and_then(|rest| rest.split(')').next());
        let memory = memory.unwrap_or_else(|| panic!("{bin}.js makes no WebAssembly.Memory"));
        let compact: String = memory.chars().filter(|c| !c.is_whitespace()).collect();
        assert!(compact.contains("shared:true") && compact.contains("maximum:65536"), "{bin}: {memory}");
        let loader = std::fs::read_to_string(dist.join(format!("{bin}_loader.js"))).unwrap();
        assert!(loader.contains(&format!("\"./{bin}_bg.wasm\"")), "{loader}");
    }
    assert!(dist.join("lingualens-thread.js").is_file(), "the helper threads' script is not in the bundle");
}

/// The built bundle (`LINGUALENS_DIST`, which scripts/test.sh sets), or `None` after saying that
/// the test is skipped (a failure where the browser tests are required).
fn built_bundle() -> Option<std::path::PathBuf> {
    let dist = std::env::var_os("LINGUALENS_DIST").map(std::path::PathBuf::from);
    if dist.is_none() {
        assert!(std::env::var("LINGUALENS_REQUIRE_BROWSER").is_err(), "LINGUALENS_DIST is not set");
        eprintln!("skipped: LINGUALENS_DIST is not set (scripts/test.sh sets it to the built bundle)");
    }
    dist
}

/// Standard base64 with padding (RFC 4648), for SRI digests.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..4 {
            out.push(if i <= chunk.len() { ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char } else { '=' });
        }
    }
    out
}

#[test]
fn every_integrity_digest_in_the_built_page_matches_its_file() {
    use sha2::{Digest, Sha384};
    assert_eq!(base64(b"foob"), "Zm9vYg==");
    assert_eq!(base64(b"fooba"), "Zm9vYmE=");
    let Some(dist) = built_bundle() else { return };
    let html = std::fs::read_to_string(dist.join("index.html")).expect("dist/index.html");
    let mut checked = 0;
    for tag in html.split('<').filter(|t| t.contains("integrity=\"")) {
        let attr =
            |name: &str| tag.split(&format!("{name}=\"")).nth(1).and_then(|r| r.split('"').next()).map(str::to_string);
        let (Some(href), Some(integrity)) = (attr("href"), attr("integrity")) else { continue };
        let bytes = std::fs::read(dist.join(href.trim_start_matches('/'))).unwrap_or_else(|e| panic!("{href}: {e}"));
        let actual = format!("sha384-{}", base64(&Sha384::digest(&bytes)));
        // A stale digest (a file changed after trunk wrote index.html, as wasm-opt does) makes the
        // browser drop the preloaded file and download it again.
        assert_eq!(integrity, actual, "{href}: index.html's integrity is not the file's");
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} integrity attributes found in index.html");
}

#[test]
fn the_built_page_has_a_strict_content_security_policy_and_no_inline_script() {
    let Some(dist) = built_bundle() else { return };
    let html = std::fs::read_to_string(dist.join("index.html")).expect("dist/index.html");
    let policy = html
        .split("http-equiv=\"Content-Security-Policy\" content=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("a Content-Security-Policy <meta> in index.html");
    let directive = |name: &str| {
        policy
            .split(';')
            .map(str::trim)
            .find(|d| d.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no {name} in {policy}"))
            .to_string()
    };
    for name in ["script-src", "style-src", "connect-src", "default-src"] {
        let d = directive(name);
        assert!(
            !d.contains("unsafe-inline") && !d.contains("'unsafe-eval'") && !d.contains('*') && !d.contains("http"),
            "{d}"
        );
    }
    assert_eq!(directive("connect-src"), "connect-src 'self'");
    assert_eq!(directive("object-src"), "object-src 'none'");
    for tag in html.split("<script").skip(1) {
        let open = tag.split('>').next().unwrap_or("");
        let body = tag.split_once('>').map(|(_, rest)| rest.split("</script>").next().unwrap_or("")).unwrap_or("");
        assert!(
            open.contains("src=") && body.trim().is_empty(),
            "an inline script in index.html: <script{}",
            &tag[..tag.len().min(200)]
        );
    }
    assert!(dist.join("start.js").is_file(), "start.js (trunk's start-up script, moved out of index.html)");
}

/// The relaxed-SIMD probe is written three times, in the three languages that need it: the page
/// (Rust), the service worker and the bench page (JavaScript). All must be the same bytes, or one
/// of them would pick another worker build than the page starts.
#[test]
fn the_relaxed_simd_probe_is_the_same_bytes_in_the_page_the_service_worker_and_the_bench() {
    let expected: Vec<u8> = lingualens::web::protocol::RELAXED_SIMD_PROBE.to_vec();
    // A module header, and the relaxed dot product's opcode (0xfd 0x93 0x02) before `end`.
    assert_eq!(&expected[..8], b"\0asm\x01\0\0\0");
    assert_eq!(&expected[expected.len() - 4..], &[0xfd, 0x93, 0x02, 0x0b]);
    for file in ["www/sw.js", "tools/bench/browser/bench.js"] {
        let text = std::fs::read_to_string(repo().join(file)).unwrap();
        let list = text
            .split("const RELAXED_SIMD_PROBE = new Uint8Array([")
            .nth(1)
            .and_then(|rest| rest.split("])").next())
            .unwrap_or_else(|| panic!("{file} has no RELAXED_SIMD_PROBE"));
        let bytes: Vec<u8> =
            list.split(',').map(|b| b.trim().parse().unwrap_or_else(|e| panic!("{file}: {b:?}: {e}"))).collect();
        assert_eq!(bytes, expected, "{file}");
    }
}

/// `wasm` without its custom sections called `name` (a module is its 8-byte header, then sections:
/// an id byte, a LEB128 size, the contents; a custom section, id 0, starts with its name).
fn without_custom_section(wasm: &[u8], name: &str) -> Vec<u8> {
    fn leb128(bytes: &[u8], at: &mut usize) -> usize {
        let (mut value, mut shift) = (0usize, 0);
        loop {
            let byte = bytes[*at];
            *at += 1;
            value |= ((byte & 0x7f) as usize) << shift;
            if byte & 0x80 == 0 {
                return value;
            }
            shift += 7;
        }
    }
    let mut out = wasm[..8].to_vec();
    let mut at = 8;
    while at < wasm.len() {
        let start = at;
        let id = wasm[at];
        at += 1;
        let size = leb128(wasm, &mut at);
        let (contents, end) = (at, at + size);
        let mut name_at = contents;
        let is_named = id == 0 && {
            let len = leb128(wasm, &mut name_at);
            &wasm[name_at..name_at + len] == name.as_bytes()
        };
        if !is_named {
            out.extend_from_slice(&wasm[start..end]);
        }
        at = end;
    }
    out
}

/// The two workers link one build of the library, and only the relaxed one's `main` names the
/// relaxed-SIMD kernel. A wasm module is validated whole, so one relaxed instruction left in the
/// SIMD128 worker would stop it in every browser without relaxed SIMD. wasm-opt with relaxed SIMD
/// off validates every function of the SIMD128 worker and refuses the relaxed one. (The
/// `target_features` section goes first: it lists the features of every object file linked, used
/// or dropped, and wasm-opt would turn relaxed SIMD on from it.)
#[test]
fn the_simd128_worker_holds_no_relaxed_simd_instruction() {
    let Some(dist) = built_bundle() else { return };
    let Some(wasm_opt) = crate::common::which("wasm-opt") else {
        assert!(std::env::var("LINGUALENS_REQUIRE_BROWSER").is_err(), "wasm-opt is not on PATH");
        eprintln!("skipped: wasm-opt is not on PATH (scripts/test.sh installs it)");
        return;
    };
    // scripts/optimize-wasm.sh's features, less relaxed SIMD.
    let features = [
        "--enable-bulk-memory",
        "--enable-multivalue",
        "--enable-mutable-globals",
        "--enable-nontrapping-float-to-int",
        "--enable-reference-types",
        "--enable-sign-ext",
        "--enable-simd",
        "--enable-threads",
        "--disable-relaxed-simd",
    ];
    let tmp = crate::common::TempDir::new("relaxed-check");
    // The check must be able to fail: the probe, which is one relaxed instruction, is refused.
    let probe = lingualens::web::protocol::RELAXED_SIMD_PROBE.to_vec();
    for (file, bytes, relaxed) in [
        ("the relaxed-SIMD probe", probe, true),
        ("lingualens-worker_bg.wasm", std::fs::read(dist.join("lingualens-worker_bg.wasm")).unwrap(), false),
        (
            "lingualens-worker-relaxed_bg.wasm",
            std::fs::read(dist.join("lingualens-worker-relaxed_bg.wasm")).unwrap(),
            true,
        ),
        (
            "lingualens-worker-threads_bg.wasm",
            std::fs::read(dist.join("lingualens-worker-threads_bg.wasm")).unwrap(),
            false,
        ),
        (
            "lingualens-worker-threads-relaxed_bg.wasm",
            std::fs::read(dist.join("lingualens-worker-threads-relaxed_bg.wasm")).unwrap(),
            true,
        ),
    ] {
        let path = tmp.path.join("module.wasm");
        std::fs::write(&path, without_custom_section(&bytes, "target_features")).unwrap();
        let out = Command::new(&wasm_opt).args(features).arg(&path).args(["-o", "/dev/null"]).output().unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        if relaxed {
            assert!(!out.status.success(), "{file}: wasm-opt without relaxed SIMD took it");
            assert!(said.contains("relaxed"), "{file}: refused, but not for relaxed SIMD: {said}");
        } else {
            assert!(out.status.success(), "{file}: wasm-opt without relaxed SIMD refused it: {said}");
        }
    }
}
