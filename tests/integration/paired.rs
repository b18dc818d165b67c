//! Runs compared on the same items (`scoring::paired`) against scipy and numpy on generated
//! verdicts (`tools/fixtures/paired.py OUTDIR` writes `OUTDIR/paired/paired.json`): the four counts
//! exactly, the difference and its interval within 1e-12, the exact McNemar p-value within 1e-9
//! (relative), and the swing's percentile-bootstrap interval within 1e-12 on the very same draws
//! (Python's `random.Random`, reproduced bit for bit).
//!
//! Set `LINGUALENS_FIXTURES=OUTDIR`. Without it the test says it was skipped and passes, unless
//! `LINGUALENS_REQUIRE_FIXTURES=1`.

use lingualens::scoring::paired::{paired_comparison, swing};
use serde_json::Value;

use crate::common;

fn verdicts(v: &Value) -> Vec<bool> {
    v.as_array().expect("array").iter().map(|x| x.as_i64().expect("0 or 1") == 1).collect()
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1.0)
}

#[test]
fn paired_differences_mcnemar_and_swings_equal_scipys() {
    let Some(path) = common::fixture("paired", "paired/paired.json", "tools/fixtures/paired.py") else { return };
    let reference: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let pairs = reference["pairs"].as_array().unwrap();
    assert!(pairs.len() >= 10, "{path:?}: too few cases");
    for (i, case) in pairs.iter().enumerate() {
        let c = paired_comparison(&verdicts(&case["a"]), &verdicts(&case["b"])).unwrap();
        let counts = |k: &str| case[k].as_u64().unwrap() as usize;
        assert_eq!(
            (c.both_right, c.both_wrong, c.only_a, c.only_b),
            (counts("both_right"), counts("both_wrong"), counts("only_a"), counts("only_b")),
            "case {i}"
        );
        assert!(close(c.difference, case["difference"].as_f64().unwrap(), 1e-12), "case {i}: {c:?}");
        match (c.ci95, case["ci95"].as_array()) {
            (Some((lo, hi)), Some(r)) => assert!(
                close(lo, r[0].as_f64().unwrap(), 1e-12) && close(hi, r[1].as_f64().unwrap(), 1e-12),
                "case {i}: {c:?} against {r:?}"
            ),
            (None, None) => {}
            (ours, theirs) => panic!("case {i}: interval {ours:?} against {theirs:?}"),
        }
        let p = case["mcnemar_p"].as_f64().unwrap();
        assert!((c.mcnemar_p - p).abs() <= 1e-9 * p.max(1e-300), "case {i}: p {} against scipy's {p}", c.mcnemar_p);
    }
    for (i, case) in reference["swings"].as_array().unwrap().iter().enumerate() {
        let runs: Vec<Vec<bool>> = case["runs"].as_array().unwrap().iter().map(verdicts).collect();
        let s = swing(&runs, case["replicates"].as_u64().unwrap() as usize, case["seed"].as_u64().unwrap()).unwrap();
        let accuracies: Vec<f64> = case["accuracies"].as_array().unwrap().iter().map(|a| a.as_f64().unwrap()).collect();
        assert_eq!(s.accuracies, accuracies, "swing {i}");
        assert!(close(s.swing, case["swing"].as_f64().unwrap(), 1e-12), "swing {i}: {s:?}");
        let r = case["ci95"].as_array().unwrap();
        assert!(
            close(s.ci95.0, r[0].as_f64().unwrap(), 1e-12) && close(s.ci95.1, r[1].as_f64().unwrap(), 1e-12),
            "swing {i}: {:?} against numpy's {r:?}",
            s.ci95
        );
    }
}
