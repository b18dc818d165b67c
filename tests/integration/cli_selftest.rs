//! `lingualens selftest` natively, on burn's CPU backend and on burn-wgpu over Vulkan
//! (Mesa's lavapipe on machines without a GPU; scripts/test.sh installs mesa-vulkan-drivers).

use std::process::Command;

use serde_json::Value;

fn selftest(backend: &str) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args(["selftest", "--json", "--backend", backend])
        .output()
        .expect("run lingualens");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "lingualens selftest --backend {backend} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let reports: Value = serde_json::from_str(&stdout).expect("JSON on stdout");
    assert_eq!(reports.as_array().map(|r| r.len()), Some(1), "{reports:#}");
    eprintln!("{backend}: {}", reports[0]);
    reports[0].clone()
}

#[test]
fn native_cpu_selftest_passes() {
    let report = selftest("cpu");
    assert_eq!(report["backend"]["backend"], "cpu");
    assert_eq!(report["passed"], true);
}

#[test]
fn native_wgpu_selftest_passes_on_vulkan() {
    let report = selftest("wgpu");
    assert_eq!(report["backend"]["backend"], "wgpu");
    assert_eq!(report["backend"]["adapter"]["api"], "Vulkan", "{report:#}");
    assert_eq!(report["passed"], true);
    let checks = report["checks"].as_array().expect("checks");
    assert!(checks.iter().all(|c| c["passed"] == true && c["max_abs_error"].as_f64().is_some()), "{report:#}");
}

#[test]
fn unknown_backend_is_refused_with_a_message() {
    let output = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args(["selftest", "--backend", "quantum"])
        .output()
        .expect("run lingualens");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("quantum"));
}
