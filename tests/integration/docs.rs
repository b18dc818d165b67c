//! README.md and ARCHITECTURE.md kept true: the modules ARCHITECTURE.md describes exist and every
//! module of the library is described; every command and flag the README shows is one the binary
//! takes; every path of the README's layout table exists; and the bundle sizes it states are
//! within 10 % of the bundle built by `scripts/test.sh` (when there is one).

use std::path::Path;
use std::process::Command;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(name: &str) -> String {
    std::fs::read_to_string(repo().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// `a::b` → src/a/b.rs, src/a/b/mod.rs, or (for a top-level module) src/a.rs, src/a/mod.rs.
fn module_exists(path: &str) -> bool {
    let rel = path.replace("::", "/");
    ["src/{}.rs", "src/{}/mod.rs"].iter().any(|pattern| repo().join(pattern.replace("{}", &rel)).is_file())
}

/// The backquoted names in the first column of ARCHITECTURE.md's module table.
fn described_modules(architecture: &str) -> Vec<String> {
    let table = architecture.split("## Modules").nth(1).expect("a Modules section");
    table
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with("| `"))
        .flat_map(|l| {
            let first = l.split('|').nth(1).unwrap_or("");
            first.split('`').skip(1).step_by(2).map(str::to_string).collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn architecture_describes_the_modules_that_exist_and_only_those() {
    let architecture = read("ARCHITECTURE.md");
    let described = described_modules(&architecture);
    assert!(described.len() > 10, "the module table was not found: {described:?}");
    for module in &described {
        assert!(module_exists(module), "ARCHITECTURE.md describes `{module}`, which is not in src/");
    }
    let lib = read("src/lib.rs");
    for line in lib.lines() {
        let Some(name) = line.trim().strip_prefix("pub mod ").and_then(|rest| rest.strip_suffix(';')) else { continue };
        assert!(
            described.iter().any(|m| m == name || m.starts_with(&format!("{name}::"))),
            "src/lib.rs has `pub mod {name}`, which ARCHITECTURE.md's module table does not describe"
        );
    }
    for stale in ["*planned*", "will draw"] {
        assert!(!architecture.contains(stale), "ARCHITECTURE.md still says {stale:?}");
    }
}

/// The lines of the README's `## Command line` code block.
fn readme_commands(readme: &str) -> Vec<String> {
    let section = readme.split("## Command line").nth(1).expect("a Command line section");
    let block = section.split("```").nth(1).expect("a code block");
    let mut commands: Vec<String> = Vec::new();
    for line in block.lines().skip(1) {
        let code = line.split("  #").next().unwrap_or("").trim();
        if code.starts_with("lingualens ") {
            commands.push(code.to_string());
        } else if !code.is_empty() {
            // A continuation of the command above.
            if let Some(last) = commands.last_mut() {
                last.push(' ');
                last.push_str(code);
            }
        }
    }
    commands
}

#[test]
fn every_command_and_flag_in_the_readme_is_one_the_binary_takes() {
    let commands = readme_commands(&read("README.md"));
    assert!(commands.len() >= 8, "{commands:?}");
    for command in commands {
        let words: Vec<&str> = command.split_whitespace().collect();
        // The subcommand: the words after `lingualens` up to the first argument.
        let sub: Vec<&str> = words[1..]
            .iter()
            .take_while(|w| !w.starts_with('-') && w.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
            .copied()
            .collect();
        let out = Command::new(env!("CARGO_BIN_EXE_lingualens")).args(&sub).arg("--help").output().unwrap();
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "`lingualens {} --help` failed: {}",
            sub.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        for flag in words.iter().filter(|w| w.trim_start_matches('[').starts_with("--")) {
            let flag =
                flag.trim_start_matches('[').split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).next().unwrap();
            assert!(
                help.contains(flag),
                "the README shows `{command}` but `lingualens {}` has no {flag}:\n{help}",
                sub.join(" ")
            );
        }
    }
}

#[test]
fn every_path_in_the_readme_layout_exists() {
    let readme = read("README.md");
    let layout = readme.split("## Layout").nth(1).expect("a Layout section");
    let mut n = 0;
    for line in layout.lines().take_while(|l| !l.starts_with("## ")).filter(|l| l.starts_with("| `")) {
        let path = line.split('`').nth(1).unwrap();
        assert!(repo().join(path).exists(), "README.md's layout names {path}, which does not exist");
        n += 1;
    }
    assert!(n >= 5, "the layout table was not found");
}

/// `name.wasm … N KB gzip` figures from the README's bundle table.
fn stated_gzip_sizes(readme: &str) -> Vec<(String, f64)> {
    readme
        .lines()
        .filter(|l| l.starts_with("| `lingualens-") && l.contains("_bg.wasm"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let name = cells[1].trim_matches('`').to_string();
            let gzip = cells[3]
                .trim_end_matches(" KB")
                .replace(',', "")
                .parse::<f64>()
                .unwrap_or_else(|_| panic!("gzip size in {l}"));
            (name, gzip)
        })
        .collect()
}

#[test]
fn the_readme_states_the_bundle_sizes_of_this_build() {
    let stated = stated_gzip_sizes(&read("README.md"));
    assert_eq!(
        stated.len(),
        5,
        "the README's bundle table must list the page's and the four workers' wasm: {stated:?}"
    );
    let dist = std::env::var_os("LINGUALENS_DIST").map(std::path::PathBuf::from).unwrap_or(repo().join("dist"));
    if !dist.join("index.html").is_file() {
        assert!(std::env::var("LINGUALENS_REQUIRE_BROWSER").is_err(), "no bundle in {}", dist.display());
        eprintln!("SKIPPED the bundle-size check: no bundle in {} (scripts/test.sh builds one)", dist.display());
        return;
    }
    for (name, gzip_kb) in stated {
        let bytes = std::fs::read(dist.join(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let actual_kb = gzip9(&bytes) as f64 / 1e3;
        assert!(
            (actual_kb - gzip_kb).abs() <= 0.1 * gzip_kb,
            "the README says {name} is {gzip_kb} KB gzipped; this build's is {actual_kb:.0} KB: update the README"
        );
    }
}

fn gzip9(bytes: &[u8]) -> usize {
    use std::io::Write;
    let mut child = Command::new("gzip")
        .arg("-9")
        .arg("-c")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let data = bytes.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&data));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    out.stdout.len()
}
