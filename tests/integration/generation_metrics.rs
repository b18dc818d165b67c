//! Parity of lingualens' chrF, chrF++, BLEU and TER with sacrebleu 2.6.0.
//!
//! `tools/fixtures/metrics.py OUTDIR` writes `OUTDIR/metrics/sacrebleu.json`: corpora in six languages
//! with sacrebleu's corpus and sentence scores and signatures. This test recomputes them all and
//! requires every score within 0.01 and every name and signature identical.
//!
//! Set `LINGUALENS_FIXTURES=OUTDIR`. Without it (or without the file) the test says it was skipped and
//! passes, unless `LINGUALENS_REQUIRE_FIXTURES=1`.

use std::path::PathBuf;

use lingualens::scoring::bleu::Bleu;
use lingualens::scoring::chrf::Chrf;
use lingualens::scoring::ter::Ter;
use lingualens::scoring::Score;
use serde_json::Value;

use crate::common;

const TOLERANCE: f64 = 0.01;
const METRICS: [&str; 4] = ["chrF", "chrF++", "BLEU", "TER"];

fn fixture_path() -> Option<PathBuf> {
    common::fixture("generation_metrics", "metrics/sacrebleu.json", "tools/fixtures/metrics.py")
}

fn score(metric: &str, hyps: &[String], refs: &[Vec<String>]) -> Score {
    let result = match metric {
        "chrF" => Chrf::CHRF.corpus_score(hyps, refs),
        "chrF++" => Chrf::CHRF_PP.corpus_score(hyps, refs),
        "BLEU" => Bleu.corpus_score(hyps, refs),
        "TER" => Ter.corpus_score(hyps, refs),
        other => panic!("unknown metric {other} in the fixture"),
    };
    result.unwrap_or_else(|e| panic!("{metric}: {e}"))
}

fn strings(value: &Value) -> Vec<String> {
    value.as_array().expect("array").iter().map(|s| s.as_str().expect("string").to_string()).collect()
}

#[test]
fn sacrebleu_parity() {
    let Some(path) = fixture_path() else { return };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let fixture: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(fixture["sacrebleu_version"], "2.6.0", "fixture made with another sacrebleu");

    let mut max_delta = [0.0f64; METRICS.len()];
    let mut cases = 0;
    let mut failures = Vec::new();
    let mut check = |what: String, metric: usize, expected: &Value, got: &Score| {
        let want = expected["score"].as_f64().expect("score");
        let delta = (want - got.score).abs();
        max_delta[metric] = max_delta[metric].max(delta);
        if delta > TOLERANCE || !delta.is_finite() {
            failures.push(format!("{what}: {} expected {want}, got {}", METRICS[metric], got.score));
        }
        if expected["signature"] != got.signature.as_str() || expected["name"] != got.name.as_str() {
            failures.push(format!(
                "{what}: expected {}|{}, got {}|{}",
                expected["name"], expected["signature"], got.name, got.signature
            ));
        }
    };

    let sets = fixture["sets"].as_array().expect("sets");
    for set in sets {
        let name = set["name"].as_str().expect("name");
        let hyps = strings(&set["hyps"]);
        let refs: Vec<Vec<String>> = set["refs"].as_array().expect("refs").iter().map(strings).collect();
        for (m, metric) in METRICS.iter().enumerate() {
            check(format!("{name} corpus"), m, &set["corpus"][metric], &score(metric, &hyps, &refs));
            cases += 1;
            for (i, expected) in set["sentences"].as_array().expect("sentences").iter().enumerate() {
                let got = score(metric, &hyps[i..=i], &refs[i..=i]);
                check(format!("{name} sentence {i} {:?}", hyps[i]), m, &expected[metric], &got);
                cases += 1;
            }
        }
    }

    let summary: Vec<String> = METRICS.iter().zip(max_delta).map(|(m, d)| format!("{m} {d:.1e}")).collect();
    println!(
        "generation_metrics: {cases} scores ({} corpora) vs sacrebleu 2.6.0, max |Δ|: {}; {} failures",
        sets.len(),
        summary.join(", "),
        failures.len()
    );
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
}

/// The sentence API gives the same as a one-sentence corpus (sacrebleu `Metric.sentence_score`).
#[test]
fn sentence_score_is_one_sentence_corpus() {
    let hyp = "ውሃ ይፈላል።";
    let refs = ["ውሃ በ100 ዲግሪ ይፈላል።", "ውሃ ይፈላል"];
    let corpus = Chrf::CHRF_PP.corpus_score(&[hyp], &[refs]).unwrap();
    assert_eq!(Chrf::CHRF_PP.sentence_score(hyp, &refs).unwrap(), corpus);
    assert_eq!(Bleu.sentence_score(hyp, &refs).unwrap(), Bleu.corpus_score(&[hyp], &[refs]).unwrap());
    assert_eq!(Ter.sentence_score(hyp, &refs).unwrap(), Ter.corpus_score(&[hyp], &[refs]).unwrap());
}
