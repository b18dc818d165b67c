//! Dataset loaders against real and written files.
//!
//! - DZEN: the real CSVs in `shared/datasets/dzen` (found through `LINGUALENS_SHARED`, default
//!   `<CARGO_MANIFEST_DIR>/../shared`). No benchmark text is in this file: only counts and row
//!   numbers, checked against `shared/datasets/dzen/SOURCE.md`. Without the files these tests say
//!   they were skipped and pass, unless `LINGUALENS_REQUIRE_FIXTURES=1`.
//! - ProverbEval and KyrgyzLLM-Bench: no data on this machine, so the tests write small files in
//!   those schemas (CSV, JSON, JSONL, and Parquet through the `parquet` crate's own writer) with
//!   text written here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use lingualens::tasks::anomaly::{Action, Anomaly, AnomalyKind};
use lingualens::tasks::check::check_files;
use lingualens::tasks::dzen::{self, load_dzen_dir, DzenSet, CATEGORIES};
use lingualens::tasks::hf_table::{builtin, load_table, TableOptions};
use lingualens::tasks::item::Item;

use crate::common;
use crate::common::parquet_writer::{parquet_file, PqCol};

// ---------------------------------------------------------------------------------------------
// Fixtures

/// `shared/datasets/dzen`, or `None` after saying the test is skipped (a failure when
/// `LINGUALENS_REQUIRE_FIXTURES=1`).
fn dzen_dir(test: &str) -> Option<PathBuf> {
    let dzen = common::shared(test, "datasets/dzen/DZEN")?;
    common::shared(test, "datasets/dzen/DZEN-Few_Shots")?;
    Some(dzen.parent().unwrap().to_path_buf())
}

fn load_real_dzen(test: &str) -> Option<DzenSet> {
    let dir = dzen_dir(test)?;
    Some(load_dzen_dir(&dir).expect("reading the DZEN folder"))
}

fn base(file: &str) -> &str {
    file.rsplit('/').next().unwrap()
}

/// (file base name, row) of the anomalies of one kind.
fn rows_of(set: &DzenSet, kind: AnomalyKind) -> Vec<(String, usize)> {
    set.anomalies.iter().filter(|a| a.kind == kind).map(|a| (base(&a.file).to_string(), a.row.unwrap_or(0))).collect()
}

fn pairs(v: &[(&str, usize)]) -> Vec<(String, usize)> {
    v.iter().map(|(f, r)| (f.to_string(), *r)).collect()
}

// ---------------------------------------------------------------------------------------------
// DZEN, against SOURCE.md

/// SOURCE.md's per-file table: rows, grade, subject.
const SOURCE_TABLE: [(&str, usize, u32, &str); 15] = [
    ("8th-Math", 150, 8, "Math"),
    ("8th-Science", 188, 8, "Science"),
    ("10th-Biology", 273, 10, "Biology"),
    ("10th-Chemistry", 315, 10, "Chemistry"),
    ("10th-Math", 313, 10, "Math"),
    ("10th-Math-II", 263, 10, "Math"),
    ("10th-Physics", 252, 10, "Physics"),
    ("12th-Biology-I", 235, 12, "Biology"),
    ("12th-Biology-II", 216, 12, "Biology"),
    ("12th-Chemistry-I", 259, 12, "Chemistry"),
    ("12th-Chemistry-II", 290, 12, "Chemistry"),
    ("12th-Math-I", 290, 12, "Math"),
    ("12th-Math-II", 270, 12, "Math"),
    ("12th-Physics-I", 251, 12, "Physics"),
    ("12th-Physics-II", 241, 12, "Physics"),
];

/// Items per evaluation file (English + Dzongkha): the rows above, minus what SOURCE.md and the
/// loader's rules skip (see `expected_items_follow_from_the_documented_skips`).
const ITEMS_PER_FILE: [(&str, usize); 15] = [
    ("8th-Math", 300),
    ("8th-Science", 372),
    ("10th-Biology", 546),
    ("10th-Chemistry", 625),
    ("10th-Math", 621),
    ("10th-Math-II", 260),
    ("10th-Physics", 504),
    ("12th-Biology-I", 470),
    ("12th-Biology-II", 432),
    ("12th-Chemistry-I", 507),
    ("12th-Chemistry-II", 579),
    ("12th-Math-I", 290),
    ("12th-Math-II", 267),
    ("12th-Physics-I", 500),
    ("12th-Physics-II", 474),
];

#[test]
fn dzen_rows_per_file_grade_and_subject_match_source_md() {
    let Some(set) = load_real_dzen("dzen_rows_per_file_grade_and_subject_match_source_md") else {
        return;
    };
    let eval: Vec<_> = set.files.iter().filter(|f| f.kind == dzen::DzenFileKind::Eval).collect();
    assert_eq!(eval.len(), 15);
    let mut total = 0;
    let mut by_grade: BTreeMap<u32, usize> = BTreeMap::new();
    let mut by_subject: BTreeMap<String, usize> = BTreeMap::new();
    for (stem, rows, grade, subject) in SOURCE_TABLE {
        let f =
            eval.iter().find(|f| base(&f.file) == format!("{stem}.csv")).unwrap_or_else(|| panic!("{stem} not loaded"));
        assert_eq!(f.rows, rows, "{stem}");
        let name = dzen::parse_file_name(&f.file);
        assert_eq!((name.grade, name.subject.as_deref()), (Some(grade), Some(subject)), "{stem}");
        total += rows;
        *by_grade.entry(grade).or_default() += rows;
        *by_subject.entry(subject.to_string()).or_default() += rows;
    }
    assert_eq!(total, 3806);
    assert_eq!(by_grade, BTreeMap::from([(8, 338), (10, 1416), (12, 2052)]));
    let subjects: BTreeMap<&str, usize> = by_subject.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(
        subjects,
        BTreeMap::from([("Biology", 724), ("Chemistry", 864), ("Math", 1286), ("Physics", 744), ("Science", 188)])
    );

    let few: Vec<_> = set.files.iter().filter(|f| f.kind == dzen::DzenFileKind::FewShot).collect();
    assert_eq!(few.len(), 15);
    assert!(few.iter().all(|f| f.rows == 5));
    assert_eq!(few.iter().map(|f| f.rows).sum::<usize>(), 75);
    println!("DZEN: {total} evaluation rows in 15 files, 75 few-shot rows");
}

#[test]
fn dzen_anomalies_documented_in_source_md() {
    let Some(set) = load_real_dzen("dzen_anomalies_documented_in_source_md") else {
        return;
    };

    // Gold: upper-case `B` in 10th-Physics record 28 (repaired); `*` in 8th-Science 28 and 145 (skipped).
    assert_eq!(rows_of(&set, AnomalyKind::GoldCase), pairs(&[("10th-Physics.csv", 28)]));
    let gold_case = set.anomalies.iter().find(|a| a.kind == AnomalyKind::GoldCase).unwrap();
    assert_eq!(gold_case.action, Action::Repaired);
    let repaired = set.items.iter().find(|i| i.id == "dzen/10th-Physics/28/en").expect("the repaired row is loaded");
    assert_eq!(repaired.as_multiple_choice().unwrap().gold, 1, "`B` is option b");
    assert_eq!(rows_of(&set, AnomalyKind::MissingGold), pairs(&[("8th-Science.csv", 28), ("8th-Science.csv", 145)]));
    assert!(set
        .items
        .iter()
        .all(|i| !i.id.starts_with("dzen/8th-Science/28/") && !i.id.starts_with("dzen/8th-Science/145/")));
    assert!(rows_of(&set, AnomalyKind::BadGold).is_empty());

    // Empty cells: 10th-Chemistry one row with empty C and C Dz; 12th-Physics-II one row with empty D.
    let empty: BTreeSet<(String, usize, String, String)> = set
        .anomalies
        .iter()
        .filter(|a| a.kind == AnomalyKind::EmptyOption)
        .map(|a| (base(&a.file).to_string(), a.row.unwrap(), a.column.clone().unwrap(), a.language.clone().unwrap()))
        .collect();
    let expected: BTreeSet<(String, usize, String, String)> = [
        ("10th-Chemistry.csv", 152, "C", "en"),
        ("10th-Chemistry.csv", 152, "C Dz", "dz"),
        ("12th-Physics-II.csv", 170, "D", "en"),
    ]
    .iter()
    .map(|(f, r, c, l)| (f.to_string(), *r, c.to_string(), l.to_string()))
    .collect();
    assert_eq!(empty, expected);
    // The empty option is left out: 12th-Physics-II 170 in English has 3 options, in Dzongkha 4.
    let mc = |id: &str| {
        set.items.iter().find(|i| i.id == id).unwrap_or_else(|| panic!("{id}")).as_multiple_choice().unwrap().clone()
    };
    assert_eq!(mc("dzen/12th-Physics-II/170/en").choices.len(), 3);
    assert_eq!(mc("dzen/12th-Physics-II/170/dz").choices.len(), 4);
    assert_eq!(mc("dzen/10th-Chemistry/152/dz").choices.len(), 3);

    // Duplicates: 11 rows exactly duplicate another row (skipped); 53 English question texts occur
    // more than once, 62 surplus rows (the 11, plus 51 kept as different items).
    let dups = rows_of(&set, AnomalyKind::DuplicateRow);
    assert_eq!(
        dups,
        pairs(&[
            ("10th-Chemistry.csv", 156),
            ("10th-Chemistry.csv", 285),
            ("12th-Chemistry-I.csv", 217),
            ("12th-Chemistry-I.csv", 218),
            ("12th-Chemistry-I.csv", 220),
            ("12th-Chemistry-I.csv", 221),
            ("12th-Chemistry-I.csv", 228),
            ("12th-Physics-II.csv", 182),
            ("12th-Physics-II.csv", 183),
            ("12th-Physics-II.csv", 185),
            ("12th-Physics-II.csv", 190),
        ])
    );
    assert!(set
        .anomalies
        .iter()
        .filter(|a| a.kind == AnomalyKind::DuplicateRow)
        .all(|a| a.action == Action::SkippedRow));
    let repeated: Vec<&Anomaly> = set.anomalies.iter().filter(|a| a.kind == AnomalyKind::RepeatedQuestion).collect();
    assert_eq!(repeated.len(), 51);
    assert!(repeated.iter().all(|a| a.action == Action::Kept && a.file.starts_with("DZEN/")));
    // Group the 62 surplus rows by the English question text they repeat (read back from the
    // loaded items of the first occurrence each anomaly names).
    let first_of = |a: &Anomaly| -> String {
        let (file, row) = a.reason.split(" row ").next().zip(a.reason.split(" row ").nth(1)).unwrap();
        let file = base(file.rsplit(' ').next().unwrap());
        let row: usize = row.split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap();
        let stem = file.trim_end_matches(".csv");
        mc(&format!("dzen/{stem}/{row}/en")).question
    };
    let texts: BTreeSet<String> = set
        .anomalies
        .iter()
        .filter(|a| matches!(a.kind, AnomalyKind::DuplicateRow | AnomalyKind::RepeatedQuestion))
        .map(first_of)
        .collect();
    assert_eq!(repeated.len() + dups.len(), 62);
    assert_eq!(texts.len(), 53);

    // 10th-Physics-few_shot.csv: every row shifted one column left from `Diagram Bn`; repaired.
    assert_eq!(
        rows_of(&set, AnomalyKind::ShiftedColumns),
        (1..=5).map(|r| ("10th-Physics-few_shot.csv".to_string(), r)).collect::<Vec<_>>()
    );
    for e in set.exemplars_for("10th-Physics", "en") {
        assert!(CATEGORIES.contains(&e.metadata["category"].as_str()), "{}: {:?}", e.id, e.metadata);
        let r = e.as_multiple_choice().unwrap().rationale.as_deref().unwrap();
        assert!(
            !lingualens::tasks::text::has_tibetan(r),
            "{}: the English chain of thought is English after the repair",
            e.id
        );
    }
    for e in set.exemplars_for("10th-Physics", "dz") {
        assert!(
            lingualens::tasks::text::has_tibetan(e.as_multiple_choice().unwrap().rationale.as_deref().unwrap()),
            "{}",
            e.id
        );
    }

    // Question categories exist only in the few-shot files: 32 / 33 / 10 of 75.
    let mut cats: BTreeMap<&str, usize> = BTreeMap::new();
    for e in set.exemplars.iter().filter(|e| e.language == "en") {
        *cats.entry(e.metadata["category"].as_str()).or_default() += 1;
    }
    assert_eq!(
        cats,
        BTreeMap::from([("Factual Knowledge", 32), ("Procedural and Application", 33), ("Reasoning", 10)])
    );
    assert!(set.items.iter().all(|i| !i.metadata.contains_key("category")));
}

/// tools/fixtures/dzen_counts.py over the shared DZEN folder: its JSON.
fn dzen_counts() -> serde_json::Value {
    let dir = dzen_dir("dzen_counts").unwrap();
    let python = std::env::var("LINGUALENS_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/fixtures/dzen_counts.py");
    let out = std::process::Command::new(&python).arg(&script).arg(&dir).output().expect("run python");
    assert!(out.status.success(), "{}: {}", script.display(), String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn dzen_anomalies_found_beyond_source_md() {
    let Some(set) = load_real_dzen("dzen_anomalies_found_beyond_source_md") else {
        return;
    };
    // The Dzongkha columns of the three files below hold `?` where every Tibetan character was
    // (an encoding loss); their Dzongkha items are skipped, once per file.
    let lost: Vec<&Anomaly> = set.anomalies.iter().filter(|a| a.kind == AnomalyKind::LostText).collect();
    assert_eq!(
        lost.iter().map(|a| (base(&a.file), a.row)).collect::<Vec<_>>(),
        [("10th-Math-II.csv", None), ("12th-Math-I.csv", None), ("12th-Math-II.csv", None)]
    );
    for stem in ["10th-Math-II", "12th-Math-I", "12th-Math-II"] {
        assert!(!set.items.iter().any(|i| i.language == "dz" && i.id.starts_with(&format!("dzen/{stem}/"))), "{stem}");
    }
    // Spreadsheet error values (`#NAME?`, `#ERROR!`, …) stand where text was lost; an item whose
    // gold option is lost is skipped; identical option texts are kept and reported. The figures are
    // counted from the CSVs by tools/fixtures/dzen_counts.py, a reading of the data's layout that
    // shares no code with the loader (32 / 43 cells, 7 / 9 items, 16 / 63 groups when written).
    let expected = dzen_counts();
    let cells = |lang: &str| {
        set.anomalies
            .iter()
            .filter(|a| a.kind == AnomalyKind::SpreadsheetError && a.language.as_deref() == Some(lang))
            .count()
    };
    let gold_lost = |lang: &str| {
        set.anomalies
            .iter()
            .filter(|a| {
                a.language.as_deref() == Some(lang)
                    && a.action == Action::SkippedItem
                    && a.reason.starts_with("the gold option")
            })
            .count()
    };
    let ident = |lang: &str| {
        set.anomalies
            .iter()
            .filter(|a| a.kind == AnomalyKind::IdenticalOptions && a.language.as_deref() == Some(lang))
            .count()
    };
    for (what, count) in [
        ("spreadsheet_error_cells", &cells as &dyn Fn(&str) -> usize),
        ("gold_lost", &gold_lost),
        ("identical_options", &ident),
    ] {
        for lang in ["en", "dz"] {
            let theirs = expected[what][lang].as_u64().unwrap() as usize;
            assert!(theirs > 0, "{what} {lang}: the script found none, so the comparison would prove nothing");
            assert_eq!(count(lang), theirs, "{what} ({lang}): the loader against tools/fixtures/dzen_counts.py");
        }
    }
    // Chain-of-thought answers: missing in 3, different from the gold in 2.
    let mut cot: Vec<(String, usize, String)> = set
        .anomalies
        .iter()
        .filter(|a| a.kind == AnomalyKind::RationaleAnswer)
        .map(|a| (base(&a.file).to_string(), a.row.unwrap(), a.language.clone().unwrap()))
        .collect();
    cot.sort();
    let expected: Vec<(String, usize, String)> = [
        ("10th-Math-II-few_shot.csv", 4, "dz"),
        ("12th-Biology-II-few_shot.csv", 1, "dz"),
        ("12th-Physics-I-few_shot.csv", 2, "en"),
        ("12th-Physics-II-few_shot.csv", 2, "dz"),
        ("12th-Physics-II-few_shot.csv", 5, "dz"),
    ]
    .iter()
    .map(|(f, r, l)| (f.to_string(), *r, l.to_string()))
    .collect();
    assert_eq!(cot, expected);
    // Bengali script left from the source: 4 evaluation items, 8 Dzongkha exemplars.
    let bengali = set.anomalies.iter().filter(|a| a.kind == AnomalyKind::ForeignScript).collect::<Vec<_>>();
    assert_eq!(bengali.iter().filter(|a| a.file.starts_with("DZEN/")).count(), 4);
    assert_eq!(bengali.iter().filter(|a| a.file.starts_with("DZEN-Few_Shots/")).count(), 8);
    assert_eq!(
        rows_of(&set, AnomalyKind::Untranslated),
        pairs(&[("10th-Math.csv", 164), ("8th-Math.csv", 73), ("8th-Math.csv", 101), ("8th-Math.csv", 108)])
    );
    // Nothing else.
    let kinds: BTreeSet<&str> = set.anomalies.iter().map(|a| a.kind.as_str()).collect();
    assert_eq!(
        kinds,
        BTreeSet::from([
            "duplicate_row",
            "empty_option",
            "foreign_script",
            "gold_case",
            "identical_options",
            "lost_text",
            "missing_gold",
            "rationale_answer",
            "repeated_question",
            "shifted_columns",
            "spreadsheet_error",
            "untranslated"
        ])
    );
}

#[test]
fn dzen_items_pairs_and_exemplars() {
    let Some(set) = load_real_dzen("dzen_items_pairs_and_exemplars") else {
        return;
    };
    let en = set.items.iter().filter(|i| i.language == "en").count();
    let dz = set.items.iter().filter(|i| i.language == "dz").count();
    assert_eq!((en, dz), (3786, 2961));
    for (stem, n) in ITEMS_PER_FILE {
        let f = set.files.iter().find(|f| base(&f.file) == format!("{stem}.csv")).unwrap();
        assert_eq!(f.items, n, "{stem}");
    }
    let ids: BTreeSet<&str> = set.items.iter().chain(&set.exemplars).map(|i| i.id.as_str()).collect();
    assert_eq!(ids.len(), set.items.len() + set.exemplars.len(), "ids are unique");
    let by_id: BTreeMap<&str, &Item> = set.items.iter().map(|i| (i.id.as_str(), i)).collect();
    let mut linked = 0;
    for item in &set.items {
        item.validate().unwrap();
        let mc = item.as_multiple_choice().unwrap();
        assert!((2..=4).contains(&mc.choices.len()), "{}", item.id);
        assert!(mc.choices.iter().all(|c| !c.trim().is_empty()), "{}", item.id);
        let (file, row) = (base(&item.source.file).trim_end_matches(".csv"), item.source.row);
        assert_eq!(item.id, format!("dzen/{file}/{row}/{}", item.language));
        let name = dzen::parse_file_name(&item.source.file);
        assert_eq!(item.metadata.get("grade"), name.grade.map(|g| g.to_string()).as_ref());
        assert_eq!(item.metadata.get("subject"), name.subject.as_ref());
        assert_eq!(item.metadata.get("part"), name.part.as_ref());
        if let Some(other) = &item.parallel {
            let o = by_id[other.as_str()];
            assert_eq!(o.parallel.as_deref(), Some(item.id.as_str()));
            assert_ne!(o.language, item.language);
            let other_mc = o.as_multiple_choice().unwrap();
            if other_mc.choices.len() == mc.choices.len() {
                assert_eq!(other_mc.gold, mc.gold, "{}: the pair shares its gold when no option was dropped", item.id);
            }
            linked += 1;
        }
    }
    // Every Dzongkha item has its English pair, except 10th-Chemistry row 152 (the English gold
    // option is a `#NAME?` cell; the other 6 rows whose English item was skipped are in the files
    // whose Dzongkha text was lost).
    assert_eq!(linked, 2 * (2961 - 1));
    assert!(by_id["dzen/10th-Chemistry/152/dz"].parallel.is_none());
    assert_eq!(by_id["dzen/12th-Biology-II/1/en"].metadata["part"], "II");

    // Few-shot exemplars: 75 rows × 2 languages, every one with its chain of thought.
    assert_eq!(set.exemplars.len(), 150);
    for e in &set.exemplars {
        e.validate().unwrap();
        assert_eq!(e.metadata["split"], "few_shot");
        assert!(!e.as_multiple_choice().unwrap().rationale.as_deref().unwrap_or("").is_empty(), "{}", e.id);
    }
    let item = by_id["dzen/10th-Biology/28/dz"];
    let shots = set.exemplars_for_item(item);
    assert_eq!(shots.len(), 5);
    assert!(shots.iter().all(|s| s.language == "dz" && s.id.starts_with("dzen-few-shot/10th-Biology/")));
    // Serialises for postMessage and back.
    let json = serde_json::to_string(&shots[0]).unwrap();
    assert_eq!(&serde_json::from_str::<Item>(&json).unwrap(), shots[0]);
}

#[test]
fn expected_items_follow_from_the_documented_skips() {
    // ITEMS_PER_FILE = 2 × rows − skipped items, with the skips named in the anomalies.
    let Some(set) = load_real_dzen("expected_items_follow_from_the_documented_skips") else {
        return;
    };
    for (stem, rows, _, _) in SOURCE_TABLE {
        let file = format!("{stem}.csv");
        let of_file = |a: &&Anomaly| base(&a.file) == file;
        let skipped_rows: BTreeSet<usize> = set
            .anomalies
            .iter()
            .filter(of_file)
            .filter(|a| a.action == Action::SkippedRow)
            .map(|a| a.row.unwrap())
            .collect();
        let skipped_items: BTreeSet<(usize, String)> = set
            .anomalies
            .iter()
            .filter(of_file)
            .filter(|a| a.action == Action::SkippedItem && a.row.is_some())
            .map(|a| (a.row.unwrap(), a.language.clone().unwrap()))
            .collect();
        let whole_file_dz =
            set.anomalies.iter().filter(of_file).any(|a| a.row.is_none() && a.action == Action::SkippedItem);
        let dz_rows = if whole_file_dz {
            0
        } else {
            rows - skipped_rows.len() - skipped_items.iter().filter(|(_, l)| l == "dz").count()
        };
        let en_rows = rows - skipped_rows.len() - skipped_items.iter().filter(|(_, l)| l == "en").count();
        let expected = ITEMS_PER_FILE.iter().find(|(s, _)| *s == stem).unwrap().1;
        assert_eq!(en_rows + dz_rows, expected, "{stem}");
    }
}

#[test]
fn data_check_report_on_the_dzen_folder() {
    let Some(dir) = dzen_dir("data_check_report_on_the_dzen_folder") else {
        return;
    };
    let report = check_files(&[&dir]).unwrap();
    assert_eq!(report.files.len(), 30, "15 evaluation + 15 few-shot CSVs; SOURCE.md and the zip are not tables");
    assert_eq!(report.items, 3786 + 2961 + 150);
    assert_eq!(report.files.iter().map(|f| f.rows).sum::<usize>(), 3806 + 75);
    assert_eq!(report.by_language["en"], 3786 + 75);
    assert_eq!(
        report.by_metadata["grade"]["8"],
        2 * 338 - 2 * 2 + 2 * 5 + 2 * 5,
        "8th: 338 rows, 2 without gold, 10 few-shot rows"
    );
    assert_eq!(report.by_metadata["category"].values().sum::<usize>(), 150);
    assert_eq!(report.anomalies_by_kind["missing_gold"], 2);
    assert_eq!(report.anomalies_by_kind["duplicate_row"], 11);
    let f = report.files.iter().find(|f| f.file.ends_with("DZEN/10th-Physics.csv")).unwrap();
    assert_eq!((f.format.as_str(), f.rows, f.items), ("dzen", 252, 504));
    let few = report.files.iter().find(|f| f.file.ends_with("10th-Physics-few_shot.csv")).unwrap();
    assert_eq!((few.format.as_str(), few.rows, few.items), ("dzen-few-shot", 5, 10));
    let shown: Vec<String> =
        report.anomalies.iter().filter(|a| a.kind == AnomalyKind::GoldCase).map(|a| a.to_string()).collect();
    assert_eq!(shown.len(), 1);
    assert!(shown[0].contains("DZEN/10th-Physics.csv:28: column Correct Answer:"), "{}", shown[0]);
    let json = serde_json::to_string(&report).unwrap();
    assert!(json.contains(r#""kind":"shifted_columns""#));
    println!("data check: {} items, anomalies {:?}", report.items, report.anomalies_by_kind);
}

// ---------------------------------------------------------------------------------------------
// Written fixtures: ProverbEval and KyrgyzLLM-Bench schemas

fn fixture_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("datasets-fixtures").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, rel: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, bytes).unwrap();
    p
}

fn located(anomalies: &[Anomaly]) -> Vec<String> {
    anomalies.iter().map(|a| format!("{}:{}", a.location().rsplit('/').next().unwrap(), a.kind.as_str())).collect()
}

fn load(path: &Path, mapping: Option<&str>) -> lingualens::tasks::anomaly::Loaded {
    let bytes = std::fs::read(path).unwrap();
    let name = path.to_string_lossy();
    load_table(
        &name,
        &bytes,
        &TableOptions { mapping: mapping.map(|m| builtin(m).unwrap()), ..TableOptions::default() },
    )
}

#[test]
fn proverbeval_meaning_choice_csv_with_malformed_rows() {
    let dir = fixture_dir("proverbeval-choice");
    // CRLF, a quoted multi-line field, a lower-case gold (repaired), a bad letter, a row with a
    // missing field, a row with an extra field, an empty gold.
    let csv = "Proverb,A,B,C,D,Answer_Letter\r\n\
        \"ሙከራ ምሳሌ አንድ\r\nሁለተኛ መስመር\",ትርጉም ሀ,ትርጉም ለ,ትርጉም ሐ,ትርጉም መ,C\r\n\
        ሙከራ ምሳሌ ሁለት,ትርጉም ሀ,ትርጉም ለ,ትርጉም ሐ,ትርጉም መ,b\r\n\
        ሙከራ ምሳሌ ሦስት,ትርጉም ሀ,ትርጉም ለ,ትርጉም ሐ,ትርጉም መ,E\r\n\
        ሙከራ ምሳሌ አራት,ትርጉም ሀ,ትርጉም ለ,ትርጉም ሐ,A\r\n\
        ሙከራ ምሳሌ አምስት,ትርጉም ሀ,ትርጉም ለ,ትርጉም ሐ,ትርጉም መ,D,extra\r\n\
        ሙከራ ምሳሌ ስድስት,ትርጉም ሀ,ትርጉም ለ,ትርጉም ሐ,ትርጉም መ,\r\n\
        ሙከራ ምሳሌ ሰባት,ትርጉም ሀ,ትርጉም ለ,ትርጉም ሐ,ትርጉም መ,D\r\n";
    let p = write(&dir, "amh/amh_native_test_1.csv", csv.as_bytes());
    let out = load(&p, None);
    assert_eq!(out.rows, 7);
    assert_eq!(
        located(&out.anomalies),
        [
            "amh_native_test_1.csv:2:gold_case",
            "amh_native_test_1.csv:3:bad_gold",
            "amh_native_test_1.csv:4:field_count",
            "amh_native_test_1.csv:5:field_count",
            "amh_native_test_1.csv:6:missing_gold"
        ]
    );
    assert!(out.anomalies[2].reason.contains("5 fields, but the header has 6 columns"), "{}", out.anomalies[2].reason);
    let rows: Vec<usize> = out.items.iter().map(|i| i.source.row).collect();
    assert_eq!(rows, [1, 2, 7]);
    let first = &out.items[0];
    assert_eq!(first.id, "proverbeval-choice/amh_native_test_1/1");
    assert_eq!(first.language, "am");
    assert_eq!(first.metadata, BTreeMap::new());
    let mc = first.as_multiple_choice().unwrap();
    assert_eq!(mc.question, "ሙከራ ምሳሌ አንድ\r\nሁለተኛ መስመር");
    assert_eq!((mc.choices.len(), mc.gold), (4, 2));
    assert_eq!(out.items[1].as_multiple_choice().unwrap().gold, 1);
}

#[test]
fn proverbeval_fill_blank_jsonl_and_generation_json_with_splits() {
    let dir = fixture_dir("proverbeval-fill-gen");
    let jsonl = concat!(
        r#"{"Proverb": "Fakkeenya qormaataa ___ tokko", "A": "jecha", "B": "bishaan", "C": "mana", "D": "muka", "Answer": "A"}"#,
        "\n",
        r#"{"Proverb": "Fakkeenya qormaataa ___ lama", "A": "jecha", "B": "bishaan", "C": "mana", "D": "muka"}"#,
        "\n",
        r#"{"Proverb": "Fakkeenya qormaataa ___ sadii", "A": "jecha", "B": "bishaan", "C": "mana", "D": "muka", "Answer": "C"#,
        "\n\n",
        r#"{"Proverb": "Fakkeenya qormaataa ___ afur", "A": "jecha", "B": "bishaan", "C": "mana", "D": "muka", "Answer": "D"}"#,
        "\n"
    );
    let p = write(&dir, "orm/orm_fill_1.jsonl", jsonl.as_bytes());
    let out = load(&p, Some("proverbeval-fill-blank"));
    assert_eq!(located(&out.anomalies), ["orm_fill_1.jsonl:2:missing_column", "orm_fill_1.jsonl:3:malformed"]);
    assert_eq!(out.anomalies[0].column.as_deref(), Some("Answer"));
    assert_eq!(
        out.items.iter().map(|i| (i.source.row, i.as_multiple_choice().unwrap().gold)).collect::<Vec<_>>(),
        [(1, 0), (5, 3)]
    );
    assert_eq!(out.items[0].language, "om");

    let json = r#"{
        "english": [{"Description": "A made-up description of patience.", "Proverb": "ፈተና ምሳሌ ሓደ"},
                    {"Description": "", "Proverb": "ፈተና ምሳሌ ክልተ"}],
        "native":  [{"Description": "ፈተና መግለጺ", "Proverb": "ፈተና ምሳሌ ሓደ"},
                    {"Description": "ፈተና መግለጺ ካልእ"}]
    }"#;
    let p = write(&dir, "tir/tir_meaining_generation.json", json.as_bytes());
    let out = load(&p, None);
    assert_eq!(
        out.items.iter().map(|i| i.id.as_str()).collect::<Vec<_>>(),
        [
            "proverbeval-generation/tir_meaining_generation/english/1",
            "proverbeval-generation/tir_meaining_generation/native/1"
        ]
    );
    let g = out.items[1].as_generation().unwrap();
    assert_eq!((g.input.as_str(), g.references.as_slice()), ("ፈተና መግለጺ", &["ፈተና ምሳሌ ሓደ".to_string()][..]));
    assert_eq!(out.items[1].metadata["split"], "native");
    assert_eq!(out.items[0].language, "ti");
    assert_eq!(
        located(&out.anomalies),
        ["tir_meaining_generation.json[english]:2:empty_text", "tir_meaining_generation.json[native]:2:missing_column"]
    );
}

#[test]
fn kyrgyz_mmlu_parquet_snappy() {
    let dir = fixture_dir("kyrgyz-mmlu");
    let file = parquet_file(
        &[
            PqCol::Text(
                "Суроо (KG)",
                vec![
                    Some("Сыноо суроо бир?"),
                    Some("Сыноо суроо эки?"),
                    Some("Сыноо суроо үч?"),
                    Some("Сыноо суроо төрт?"),
                    Some("Сыноо суроо беш?"),
                ],
            ),
            PqCol::Text(
                "А (KG)",
                vec![Some("биринчи"), Some("биринчи"), Some("биринчи"), Some("биринчи"), Some("биринчи")],
            ),
            PqCol::Text("Б (KG)", vec![Some("экинчи"), Some("экинчи"), Some("экинчи"), Some("экинчи"), Some("экинчи")]),
            PqCol::Text("В (KG)", vec![Some("үчүнчү"), Some(""), Some("үчүнчү"), None, Some("үчүнчү")]),
            PqCol::Text("Г (KG)", vec![Some("төртүнчү"), None, Some("төртүнчү"), None, Some("төртүнчү")]),
            PqCol::Text("Д (KG)", vec![None, None, Some("бешинчи"), None, None]),
            PqCol::Text("Туура жооп", vec![Some("В"), Some("б"), Some("Д"), Some("е"), Some("a")]),
        ],
        parquet::basic::Compression::SNAPPY,
    );
    let p = write(&dir, "kyrgyz_mmlu_history/test.parquet", &file);
    let report = check_files(&[&dir]).unwrap();
    assert_eq!(report.files.len(), 1);
    let f = &report.files[0];
    assert_eq!((f.format.as_str(), f.mapping.as_deref(), f.rows, f.items), ("parquet", Some("kyrgyz-mmlu"), 5, 4));
    assert_eq!(f.by_metadata["subject"]["history"], 4);
    assert_eq!(f.by_metadata["split"]["test"], 4);
    assert_eq!(f.by_language["ky"], 4);
    // Row 4: `е` is no option letter (lighteval would silently take option 0); row 5: Latin `a`.
    assert_eq!(located(&report.anomalies), ["test.parquet:4:bad_gold", "test.parquet:5:gold_case"]);

    let out = load(&p, None);
    let got: Vec<(usize, usize, usize)> = out
        .items
        .iter()
        .map(|i| {
            let mc = i.as_multiple_choice().unwrap();
            (i.source.row, mc.choices.len(), mc.gold)
        })
        .collect();
    assert_eq!(got, [(1, 4, 2), (2, 2, 1), (3, 5, 4), (5, 4, 0)]);
    assert_eq!(out.items[0].id, "kyrgyz-mmlu/test/1");
}

#[test]
fn kyrgyz_rc_and_hellaswag_parquet_uncompressed_with_a_list_column() {
    let dir = fixture_dir("kyrgyz-rc-hs");
    let rc = parquet_file(
        &[
            PqCol::Text("Класс", vec![Some("9"), Some("9")]),
            PqCol::Text("Текст (KG)", vec![Some("Сыноо текст: бир шаарда эки көчө бар."), Some("Сыноо текст экинчи.")]),
            PqCol::Text("Суроо (KG)", vec![Some("Шаарда канча көчө бар?"), Some("")]),
            PqCol::Text("А (KG)", vec![Some("бир"), Some("x")]),
            PqCol::Text("Б (KG)", vec![Some("эки"), Some("y")]),
            PqCol::Text("В (KG)", vec![Some("үч"), Some("z")]),
            PqCol::Text("Г (KG)", vec![Some("төрт"), Some("w")]),
            PqCol::Text("Туура жооп", vec![Some("б"), Some("а")]),
        ],
        parquet::basic::Compression::UNCOMPRESSED,
    );
    write(&dir, "kyrgyz_rc_news/test-00000-of-00001.parquet", &rc);
    let hs = parquet_file(
        &[
            PqCol::Text("activity_label_kg", vec![Some("Ашкана"), Some("Спорт")]),
            PqCol::Text("ctx_a_kg", vec![Some("Ал идиш жууйт."), Some("Бала топ тебет.")]),
            PqCol::Text("ctx_b_kg", vec![Some("андан кийин"), Some("ал")]),
            PqCol::TextList("endings_kg", vec![vec!["аяктайт", "ырдайт", "учат", "уктайт"], vec!["жалгыз"]]),
            PqCol::Int("label", vec![Some(0), Some(0)]),
        ],
        parquet::basic::Compression::UNCOMPRESSED,
    );
    write(&dir, "hellaswag_kg/validation.parquet", &hs);
    let report = check_files(&[&dir]).unwrap();
    let names: Vec<(&str, Option<&str>, usize)> =
        report.files.iter().map(|f| (base(&f.file), f.mapping.as_deref(), f.items)).collect();
    assert_eq!(
        names,
        [("validation.parquet", Some("hellaswag-kg"), 1), ("test-00000-of-00001.parquet", Some("kyrgyz-rc"), 1)]
    );
    assert_eq!(
        located(&report.anomalies),
        ["validation.parquet:2:too_few_options", "test-00000-of-00001.parquet:2:empty_text"]
    );
    assert_eq!(report.by_metadata["source_type"]["news"], 1);
    assert_eq!(report.by_metadata["grade"]["9"], 1);

    let rc_items = load(&dir.join("kyrgyz_rc_news/test-00000-of-00001.parquet"), None);
    let mc = rc_items.items[0].as_multiple_choice().unwrap();
    assert_eq!(mc.passage.as_deref(), Some("Сыноо текст: бир шаарда эки көчө бар."));
    assert_eq!((mc.choices.len(), mc.gold), (4, 1));
    let hs_items = load(&dir.join("hellaswag_kg/validation.parquet"), None);
    let mc = hs_items.items[0].as_multiple_choice().unwrap();
    assert_eq!(mc.question, "Ашкана: Ал идиш жууйт. Андан кийин");
    assert_eq!(mc.choices, ["аяктайт", "ырдайт", "учат", "уктайт"]);
}

#[test]
fn kg_winogrande_boolq_truthfulqa_gsm8k() {
    let dir = fixture_dir("kg-sets");
    let wino = r#"{"dev": [
        {"sentence_kg": "Айгүл китепти сумкага салды, анткени _ чоң эле.", "option1_kg": "сумка", "option2_kg": "китеп", "answer": "1"},
        {"sentence_kg": "Бул сүйлөмдө боштук жок.", "option1_kg": "a", "option2_kg": "b", "answer": "2"},
        {"sentence_kg": "_ жана _ эки боштук.", "option1_kg": "a", "option2_kg": "b", "answer": "1"},
        {"sentence_kg": "Мен _ жакшы көрөм.", "option1_kg": "чай", "option2_kg": "кофе", "answer": "3"},
        {"sentence_kg": "Мен _ жакшы көрөм.", "option1_kg": "чай", "option2_kg": "кофе", "answer": ""}
    ]}"#;
    write(&dir, "winogrande_kg/winogrande.json", wino.as_bytes());
    let boolq = "passage_kg,question_kg,answer_kg\n\"Сыноо текст, үтүр менен.\",Бул сыноо беле??,ооба\nТекст,Суроо?,Жок\nТекст,Суроо?,балким\n";
    write(&dir, "boolq_kg/val.csv", boolq.as_bytes());
    let tqa = concat!(
        r#"{"Question_kg": "Сыноо суроо?", "mc1_targets_kg": "{'choices': ['туура жооп', 'туура эмес'], 'labels': [1, 0]}", "mc2_targets_kg": "{'choices': ['туура', 'дагы туура', 'жалган'], 'labels': [1, 1, 0]}"}"#,
        "\n"
    );
    write(&dir, "truthfulqa_kg/test.jsonl", tqa.as_bytes());
    let gsm = concat!(
        r#"{"question_kg": "Менде 2 алма бар, дагы 3 алдым. Канча болду?", "answer_kg": "2 + 3 = 5\n#### 5"}"#,
        "\n",
        r#"{"question_kg": "Жооп жок суроо"}"#,
        "\n"
    );
    write(&dir, "gsm8k_kg/test.jsonl", gsm.as_bytes());
    // A file with none of the known columns, and one that lacks the gold column of its mapping.
    write(&dir, "other/unknown.csv", b"x,y\n1,2\n");
    write(&dir, "amh/amh_english_test_2.csv", "Proverb,A,B,C,D\nምሳሌ,ሀ,ለ,ሐ,መ\n".as_bytes());

    let report = check_files(&[&dir]).unwrap();
    let files: BTreeMap<&str, (Option<&str>, usize, usize)> = report
        .files
        .iter()
        .map(|f| (f.file.rsplit_once("kg-sets/").unwrap().1, (f.mapping.as_deref(), f.rows, f.items)))
        .collect();
    assert_eq!(
        files,
        BTreeMap::from([
            ("amh/amh_english_test_2.csv", (None, 1, 0)),
            ("boolq_kg/val.csv", (Some("boolq-kg"), 3, 2)),
            ("gsm8k_kg/test.jsonl", (Some("gsm8k-kg"), 2, 1)),
            ("other/unknown.csv", (None, 1, 0)),
            ("truthfulqa_kg/test.jsonl", (Some("truthfulqa-mc-kg"), 1, 2)),
            ("winogrande_kg/winogrande.json", (Some("winogrande-kg"), 5, 1)),
        ])
    );
    let mut seen = located(&report.anomalies);
    seen.sort();
    assert_eq!(
        seen,
        [
            "amh_english_test_2.csv:missing_column",
            "test.jsonl:2:missing_column",
            "unknown.csv:unreadable_file",
            "val.csv:3:bad_gold",
            "winogrande.json[dev]:2:bad_blank",
            "winogrande.json[dev]:3:bad_blank",
            "winogrande.json[dev]:4:bad_gold",
            "winogrande.json[dev]:5:missing_gold",
        ]
    );
    assert_eq!(
        report.by_kind,
        BTreeMap::from([("cloze".to_string(), 1), ("generation".to_string(), 1), ("multiple_choice".to_string(), 4)])
    );
    assert_eq!(report.by_metadata["subtask"], BTreeMap::from([("mc1".to_string(), 1), ("mc2".to_string(), 1)]));

    let w = load(&dir.join("winogrande_kg/winogrande.json"), None);
    let c = w.items[0].as_cloze().unwrap();
    assert_eq!((c.options.as_slice(), c.gold), (&["сумка".to_string(), "китеп".to_string()][..], 0));
    assert_eq!(c.split().unwrap().1, " чоң эле.");
    assert_eq!(w.items[0].metadata["split"], "dev");
    let b = load(&dir.join("boolq_kg/val.csv"), None);
    let mc = b.items[1].as_multiple_choice().unwrap();
    assert_eq!(
        (mc.choices.as_slice(), mc.gold),
        (&["ооба".to_string(), "жок".to_string()][..], 1),
        "`Жок` matches `жок`"
    );
    assert_eq!(b.items[0].as_multiple_choice().unwrap().passage.as_deref(), Some("Сыноо текст, үтүр менен."));
    let g = load(&dir.join("gsm8k_kg/test.jsonl"), None);
    assert_eq!(g.items[0].as_generation().unwrap().references, ["2 + 3 = 5\n#### 5"]);
    let unknown = report.anomalies.iter().find(|a| a.kind == AnomalyKind::UnreadableFile).unwrap();
    assert!(unknown.reason.contains("`x`, `y`"), "{}", unknown.reason);
    let missing = report.anomalies.iter().find(|a| a.file.ends_with("amh_english_test_2.csv")).unwrap();
    assert!(missing.reason.contains("`Answer_Letter`"), "{}", missing.reason);
}

#[test]
fn bad_files_do_not_stop_the_check() {
    let dir = fixture_dir("bad-files");
    write(&dir, "broken.parquet", b"PAR1 this is not parquet PAR1");
    write(&dir, "broken.json", b"[{\"Proverb\": ");
    write(&dir, "empty.csv", b"");
    write(&dir, "not-utf8.csv", b"Proverb,A,B,C,D,Answer_Letter\n\xff\xfe,a,b,c,d,A\nfine,a,b,c,d,A\n");
    let ok = parquet_file(
        &[PqCol::Text("question_kg", vec![Some("q")]), PqCol::Text("answer_kg", vec![Some("a")])],
        parquet::basic::Compression::UNCOMPRESSED,
    );
    write(&dir, "ok.parquet", &ok);
    let report = check_files(&[&dir]).unwrap();
    let mut seen = located(&report.anomalies);
    seen.sort();
    assert_eq!(
        seen,
        [
            "broken.json:unreadable_file",
            "broken.parquet:unreadable_file",
            "empty.csv:unreadable_file",
            "not-utf8.csv:1:malformed",
            "not-utf8.csv:unknown_language"
        ]
    );
    assert_eq!(report.items, 2, "the good row of not-utf8.csv and ok.parquet");
    // A path that does not exist is the only error.
    assert!(check_files(&[dir.join("nope.csv")]).unwrap_err().message().contains("nope.csv"));
}

#[test]
fn corrupted_parquet_never_panics() {
    let good = parquet_file(
        &[
            PqCol::Text("question_kg", vec![Some("Суроо бир?"), Some("Суроо эки?"), None]),
            PqCol::Text("answer_kg", vec![Some("бир"), Some("эки"), Some("үч")]),
            PqCol::TextList("extra", vec![vec!["a", "b"], vec![], vec!["c"]]),
        ],
        parquet::basic::Compression::SNAPPY,
    );
    let options = TableOptions::default();
    assert_eq!(load_table("ok.parquet", &good, &options).items.len(), 2);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for cut in (0..good.len()).step_by(7) {
        let _ = load_table("cut.parquet", &good[..cut], &options);
    }
    let mut failed = 0;
    for _ in 0..300 {
        let mut bad = good.clone();
        for _ in 0..1 + next() % 4 {
            let i = (next() % bad.len() as u64) as usize;
            bad[i] = next() as u8;
        }
        let out = load_table("bad.parquet", &bad, &options);
        assert!(out.items.len() <= 3);
        failed += out.anomalies.iter().filter(|a| a.reason.contains("decoder failed")).count();
    }
    println!("{failed} of 300 corrupted files made the parquet crate panic (caught, reported)");
}
