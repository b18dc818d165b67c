//! The README's commands on a fresh machine: `scripts/test.sh`, `scripts/serve.sh`,
//! `scripts/build-site.sh` and `scripts/bench-browser.sh` with `--plan`, an empty `LINGUALENS_CACHE`, an empty `HOME` and a PATH
//! on which none of the tools they install can be found. Each must decide to install
//! wasm-bindgen-cli and trunk, print every decision, reach its last line and exit 0.
//!
//! This is the test for the bug that once made `scripts/test.sh` exit 127 with no message on every
//! new machine: under `set -euo pipefail`, `have="$(wasm-bindgen --version | awk …)"` ended the
//! script when wasm-bindgen was missing, before the step that installs it. Every machine the tests
//! had run on already had the tools, so nothing saw it.

use std::collections::HashSet;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the setup installs into the cache; a machine that has one of them elsewhere on PATH must
/// not hide the decision from this test.
const INSTALLED_TOOLS: &[&str] = &["wasm-bindgen", "trunk", "wasm-opt"];

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lingualens-plan-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn home() -> PathBuf {
    PathBuf::from(std::env::var_os("HOME").expect("HOME is set"))
}

/// PATH as it is, except that a directory holding one of [`INSTALLED_TOOLS`] is replaced by a
/// shadow directory with links to everything else in it (cargo and rustup stay reachable).
fn path_without_the_tools(shadows: &Path) -> String {
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()).collect();
    // The setup puts ~/.cargo/bin first; a developer may have installed the tools there.
    dirs.push(home().join(".cargo/bin"));
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (i, dir) in dirs.into_iter().enumerate() {
        if !seen.insert(dir.clone()) || !dir.is_dir() {
            continue;
        }
        if !INSTALLED_TOOLS.iter().any(|t| dir.join(t).exists()) {
            out.push(dir);
            continue;
        }
        let shadow = shadows.join(i.to_string());
        std::fs::create_dir_all(&shadow).unwrap();
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let name = entry.file_name();
            if !INSTALLED_TOOLS.iter().any(|t| name == *t) {
                symlink(entry.path(), shadow.join(&name)).unwrap();
            }
        }
        out.push(shadow);
    }
    std::env::join_paths(out).unwrap().into_string().unwrap()
}

struct Plan {
    status: Option<i32>,
    stdout: String,
    stderr: String,
}

fn plan(script: &str) -> Plan {
    let dir = scratch(script.trim_start_matches("scripts/").trim_end_matches(".sh"));
    let (cache, fresh_home, shadows) = (dir.join("cache"), dir.join("home"), dir.join("shadows"));
    std::fs::create_dir_all(&fresh_home).unwrap();
    let real_home = home();
    let rustup_home = std::env::var_os("RUSTUP_HOME").map(PathBuf::from).unwrap_or(real_home.join(".rustup"));
    let cargo_home = std::env::var_os("CARGO_HOME").map(PathBuf::from).unwrap_or(real_home.join(".cargo"));
    let path = path_without_the_tools(&shadows);
    for tool in INSTALLED_TOOLS {
        let found = std::env::split_paths(&path).map(|d| d.join(tool)).find(|p| p.exists());
        assert!(found.is_none(), "{tool} is still reachable at {found:?}; the test would not see a fresh machine");
    }
    let out = Command::new("bash")
        .arg(repo().join(script))
        .arg("--plan")
        .current_dir(repo())
        .env_clear()
        .env("PATH", &path)
        .env("HOME", &fresh_home)
        .env("RUSTUP_HOME", rustup_home)
        .env("CARGO_HOME", cargo_home)
        .env("LINGUALENS_CACHE", &cache)
        .output()
        .unwrap_or_else(|e| panic!("bash {script}: {e}"));
    let _ = std::fs::remove_dir_all(&dir);
    Plan {
        status: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn assert_plans(script: &str, wanted: &[&str]) {
    let p = plan(script);
    let shown = format!("{script} --plan exited with {:?}\n--- stdout\n{}--- stderr\n{}", p.status, p.stdout, p.stderr);
    assert_eq!(p.status, Some(0), "{shown}");
    for want in wanted {
        assert!(
            p.stdout.lines().any(|l| l.starts_with("plan: install") && l.contains(want)),
            "{script} --plan does not plan to install {want}\n{shown}"
        );
    }
    assert_eq!(p.stdout.lines().last(), Some("plan: complete"), "{script} --plan stopped before its end\n{shown}");
    assert!(!p.stdout.contains("==>"), "{script} --plan started a phase (it must do nothing)\n{shown}");
}

#[test]
fn the_test_command_plans_every_install_on_a_fresh_machine() {
    let bindgen = locked_wasm_bindgen();
    assert_plans(
        "scripts/test.sh",
        &[
            &format!("wasm-bindgen-cli {bindgen}"),
            "trunk 0.21.14",
            "wasm-opt",
            "Python reference packages",
            "reference tokenizer.json",
        ],
    );
}

#[test]
fn the_serve_command_plans_every_install_on_a_fresh_machine() {
    let bindgen = locked_wasm_bindgen();
    assert_plans("scripts/serve.sh", &[&format!("wasm-bindgen-cli {bindgen}"), "trunk 0.21.14", "wasm-opt"]);
}

#[test]
fn the_browser_bench_plans_every_install_on_a_fresh_machine() {
    let bindgen = locked_wasm_bindgen();
    assert_plans(
        "scripts/bench-browser.sh",
        &[&format!("wasm-bindgen-cli {bindgen}"), "trunk 0.21.14", "wasm-opt", "wllama"],
    );
}

#[test]
fn the_site_builder_plans_every_install_on_a_fresh_machine() {
    let bindgen = locked_wasm_bindgen();
    assert_plans("scripts/build-site.sh", &[&format!("wasm-bindgen-cli {bindgen}"), "trunk 0.21.14", "wasm-opt"]);
}

/// A failing command outside plan mode names its file, line and phase (the ERR trap), instead of
/// the bare exit status the bug above gave.
#[test]
fn a_failing_step_names_its_line_and_command() {
    let dir = scratch("err");
    let script = dir.join("fails.sh");
    std::fs::write(
        &script,
        format!(
            "source {}\nstep \"a phase that fails\"\nmissing-tool-xyz --version\necho unreachable\n",
            repo().join("scripts/setup.sh").display()
        ),
    )
    .unwrap();
    let out = Command::new("bash")
        .arg(&script)
        .current_dir(repo())
        .env("LINGUALENS_CACHE", dir.join("cache"))
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(127), "{stdout}{stderr}");
    assert!(!stdout.contains("unreachable"), "{stdout}");
    assert!(
        stderr.contains("fails.sh:3")
            && stderr.contains("missing-tool-xyz --version")
            && stderr.contains("a phase that fails"),
        "the message must name the file and line, the command and the phase:\n{stderr}"
    );
}

/// The wasm-bindgen version Cargo.lock resolved (the CLI must match it), read independently of
/// the script's awk.
fn locked_wasm_bindgen() -> String {
    let lock = std::fs::read_to_string(repo().join("Cargo.lock")).unwrap();
    let at = lock.find("name = \"wasm-bindgen\"\nversion = \"").expect("wasm-bindgen in Cargo.lock");
    let rest = &lock[at + "name = \"wasm-bindgen\"\nversion = \"".len()..];
    rest[..rest.find('"').unwrap()].to_string()
}
