//! DZEN: the Dzongkha–English parallel science MCQ set (`shared/datasets/dzen/SOURCE.md`).
//!
//! Each evaluation row (`DZEN/*.csv`, 11 columns, read by position) gives two linked items:
//! `dzen/<file>/<row>/en` and `dzen/<file>/<row>/dz`, with grade, subject and part taken from the
//! file name (`12th-Biology-II` → grade 12, Biology, part II). The few-shot files
//! (`DZEN-Few_Shots/*-few_shot.csv`, 26 columns) give exemplars with their chain-of-thought text
//! (`English_Response` / `Dzongkha_Response`) in [`MultipleChoice::rationale`] and the question
//! category (`Question_Type`) in `metadata["category"]`.
//!
//! What the loader does with each problem in the data (every case is reported with file and row):
//!
//! | problem | action |
//! |---|---|
//! | gold in upper case (`B`) | lower-cased, loaded |
//! | gold `*` (none) or not a letter a–d | row skipped |
//! | empty option cell, or a spreadsheet error value (`#NAME?`, `#ERROR!`) where the option's text was lost | that option left out of that language's item and the gold renumbered; if it is the gold option, that item is skipped. An empty continuation has log-likelihood 0 and would always win under `acc` (and divides by zero under `acc_norm`), so keeping it would corrupt the score |
//! | Dzongkha text replaced by `?` (every Tibetan character lost in an encoding conversion) | the Dzongkha item is skipped, the English one kept; reported once per file when the whole file is affected |
//! | exact duplicate of an earlier row | the later copy is skipped: it would count one question twice |
//! | English question text repeated with different options or answer | kept: it is a different item |
//! | identical option texts, Bengali script, Dzongkha question identical to the English one | kept, reported |
//! | `10th-Physics-few_shot.csv`: values from `Diagram Bn` on shifted one column left | moved back, reported |
//! | exemplar whose chain of thought has no final answer, or one that differs from the gold | kept, reported |
//!
//! Duplicates are found across all the files loaded together (SOURCE.md counts them over the set).
//!
//! Why one long file (about 1,050 lines before its tests): DZEN's layout and every anomaly it has,
//! reported by file and row, in one place that a reader can check against `SOURCE.md`.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::anomaly::{Action, Anomaly, AnomalyKind, Loaded};
use super::item::{Item, ItemBody, MultipleChoice, SourceRef};
use super::table::read_csv_raw;
use super::text::{has_bengali, has_tibetan, is_spreadsheet_error, letter, preview};

/// Names used in anomalies for the evaluation files' columns (the files' own header spellings vary).
pub const EVAL_COLUMNS: [&str; 11] =
    ["English Question", "Dzongkha Question", "A", "B", "C", "D", "A Dz", "B Dz", "C Dz", "D Dz", "Correct Answer"];

/// The few-shot files' columns, as SOURCE.md lists them (the first is the pandas index).
pub const FEW_SHOT_COLUMNS: [&str; 26] = [
    "",
    "Question",
    "Question Dz",
    "a",
    "b",
    "c",
    "d",
    "Correct Answer",
    "Diagram",
    "GT Sanity",
    "a Dz",
    "b Dz",
    "C Dz",
    "d Dz",
    "Correct Answer Bn",
    "Map",
    "Diagram Bn",
    "Similarity Score",
    "Red Flag",
    "Yellow Flag",
    "Recheck",
    "Question_fixed",
    "Question_Type",
    "LLM_unparsed",
    "English_Response",
    "Dzongkha_Response",
];

/// The question categories of the paper, found in the few-shot files' `Question_Type`.
pub const CATEGORIES: [&str; 3] = ["Factual Knowledge", "Procedural and Application", "Reasoning"];

const FS_DIAGRAM_BN: usize = 16;
const FS_QUESTION_FIXED: usize = 21;
const FS_QUESTION_TYPE: usize = 22;

/// What a DZEN file name says: `10th-Math-II.csv`, `8th-Science-few_shot.csv`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DzenFileName {
    /// `10th-Math-II` (without `-few_shot` and the extension).
    pub stem: String,
    pub grade: Option<u32>,
    pub subject: Option<String>,
    pub part: Option<String>,
    pub few_shot: bool,
}

/// Parses a DZEN file name (any directories in front are ignored).
pub fn parse_file_name(name: &str) -> DzenFileName {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = base.strip_suffix(".csv").or_else(|| base.strip_suffix(".CSV")).unwrap_or(base);
    let (stem, few_shot) = match stem.strip_suffix("-few_shot").or_else(|| stem.strip_suffix("_few_shot")) {
        Some(s) => (s, true),
        None => (stem, false),
    };
    let mut parts = stem.splitn(3, '-');
    let grade = parts.next().and_then(|g| g.strip_suffix("th")).and_then(|g| g.parse().ok());
    let subject = parts.next().filter(|s| !s.is_empty()).map(str::to_string);
    let part = parts.next().filter(|s| !s.is_empty()).map(str::to_string);
    let (subject, part) = if grade.is_some() { (subject, part) } else { (None, None) };
    DzenFileName { stem: stem.to_string(), grade, subject, part, few_shot }
}

/// Which kind of DZEN file a header belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DzenFileKind {
    Eval,
    FewShot,
}

/// Tells a DZEN file by its header: 11 columns starting `English Question`, or 26 with
/// `Question`, `Question Dz` second and third.
pub fn detect(bytes: &[u8]) -> Option<DzenFileKind> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(bytes);
    let mut header = csv::StringRecord::new();
    if !reader.read_record(&mut header).ok()? {
        return None;
    }
    let h: Vec<String> = header.iter().map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ")).collect();
    if h.len() == 11 && h[0] == "English Question" && h[1] == "Dzongkha Question" && h[10] == "Correct Answer" {
        Some(DzenFileKind::Eval)
    } else if h.len() == 26 && h[1] == "Question" && h[2] == "Question Dz" && h[7] == "Correct Answer" {
        Some(DzenFileKind::FewShot)
    } else {
        None
    }
}

/// Per-file counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DzenFileSummary {
    pub file: String,
    pub kind: DzenFileKind,
    /// Data rows (header excluded).
    pub rows: usize,
    /// Items built from the file (both languages; exemplars for few-shot files).
    pub items: usize,
}

/// The DZEN set as loaded: evaluation items, few-shot exemplars, and every anomaly.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DzenSet {
    pub items: Vec<Item>,
    pub exemplars: Vec<Item>,
    pub anomalies: Vec<Anomaly>,
    pub files: Vec<DzenFileSummary>,
}

impl DzenSet {
    /// The exemplars for one file stem (`10th-Biology`) and language, in file order: the k-shot
    /// context for that file's items is the first k of these.
    pub fn exemplars_for(&self, stem: &str, language: &str) -> Vec<&Item> {
        let prefix = format!("dzen-few-shot/{stem}/");
        self.exemplars.iter().filter(|e| e.language == language && e.id.starts_with(&prefix)).collect()
    }

    /// The exemplars that go with an evaluation item (same file stem and language).
    pub fn exemplars_for_item(&self, item: &Item) -> Vec<&Item> {
        let stem = item.id.split('/').nth(1).unwrap_or("");
        self.exemplars_for(stem, &item.language)
    }

    /// Items and exemplars together, as a plain [`Loaded`].
    pub fn into_loaded(self) -> Loaded {
        let rows = self.files.iter().map(|f| f.rows).sum();
        let mut items = self.items;
        items.extend(self.exemplars);
        Loaded { items, anomalies: self.anomalies, rows }
    }
}

/// Loads one DZEN file (evaluation or few-shot, told by its header).
pub fn load_dzen_file(name: &str, bytes: &[u8]) -> DzenSet {
    load_dzen(&[(name, bytes)])
}

/// Loads DZEN files together (any mix of evaluation and few-shot files), so that duplicates are
/// found across them. `files` are `(name, bytes)`; the name is used for messages and for grade,
/// subject and part. A file that is not DZEN is reported and skipped.
///
/// Long (about 250 lines) on purpose: one pass in the order DZEN's files are checked by hand (each
/// file's kind and rows, then duplicates over all evaluation rows, then each row's two sides, then the
/// few-shot files), every step writing to the same anomaly list and reading the index the step before
/// built; split, each part would take most of the others' state as arguments.
pub fn load_dzen(files: &[(&str, &[u8])]) -> DzenSet {
    let mut set = DzenSet::default();
    let mut eval_files: Vec<ParsedFile> = Vec::new();
    let mut few_files: Vec<ParsedFile> = Vec::new();
    for &(name, bytes) in files {
        let Some(kind) = detect(bytes) else {
            set.anomalies.push(Anomaly::new(
                name,
                None,
                AnomalyKind::UnreadableFile,
                Action::SkippedFile,
                "not a DZEN file: expected the 11-column evaluation header (`English Question`, `Dzongkha Question`, A–D, A Dz–D Dz, `Correct Answer`) or the 26-column few-shot header",
            ));
            continue;
        };
        let Some(raw) = read_csv_raw(name, bytes, &mut set.anomalies) else {
            continue;
        };
        let info = parse_file_name(name);
        if info.grade.is_none() || info.subject.is_none() {
            set.anomalies.push(Anomaly::new(
                name,
                None,
                AnomalyKind::Malformed,
                Action::Kept,
                "the file name does not follow `<grade>th-<Subject>[-<Part>]`: grade, subject and part are left out of the metadata",
            ));
        }
        let width = match kind {
            DzenFileKind::Eval => EVAL_COLUMNS.len(),
            DzenFileKind::FewShot => FEW_SHOT_COLUMNS.len(),
        };
        let mut rows = Vec::new();
        for (row, fields) in raw.records {
            if fields.len() != width {
                set.anomalies.push(Anomaly::new(
                    name,
                    Some(row),
                    AnomalyKind::FieldCount,
                    Action::SkippedRow,
                    format!(
                        "{} fields; a DZEN {} row has {width}",
                        fields.len(),
                        if kind == DzenFileKind::Eval { "evaluation" } else { "few-shot" }
                    ),
                ));
                continue;
            }
            rows.push((row, fields));
        }
        let parsed = ParsedFile { name: name.to_string(), info, rows, total_rows: raw.rows };
        match kind {
            DzenFileKind::Eval => eval_files.push(parsed),
            DzenFileKind::FewShot => few_files.push(parsed),
        }
    }

    // Duplicates over all evaluation rows, in load order.
    let mut first_row: HashMap<&[String], (usize, usize)> = HashMap::new();
    let mut first_question: HashMap<&str, (usize, usize)> = HashMap::new();
    let mut dup: HashMap<(usize, usize), Dup> = HashMap::new();
    for (fi, f) in eval_files.iter().enumerate() {
        for (ri, (_, fields)) in f.rows.iter().enumerate() {
            if let Some(&first) = first_row.get(fields.as_slice()) {
                dup.insert((fi, ri), Dup::Row(first));
            } else {
                first_row.insert(fields.as_slice(), (fi, ri));
                if let Some(&first) = first_question.get(fields[0].trim()) {
                    dup.insert((fi, ri), Dup::Question(first));
                }
            }
            if !fields[0].trim().is_empty() {
                first_question.entry(fields[0].trim()).or_insert((fi, ri));
            }
        }
    }
    let where_is = |(fi, ri): (usize, usize)| -> String {
        let f: &ParsedFile = &eval_files[fi];
        format!("{} row {}", f.name, f.rows[ri].0)
    };

    for (fi, f) in eval_files.iter().enumerate() {
        let before = set.items.len();
        let dz_lost_file = whole_file_dz_lost(f, &[1, 6, 7, 8, 9]);
        if dz_lost_file {
            set.anomalies.push(
                Anomaly::new(
                    &f.name,
                    None,
                    AnomalyKind::LostText,
                    Action::SkippedItem,
                    format!(
                        "no Dzongkha cell in the file has a Tibetan character and the Dzongkha columns are full of `?`: the Dzongkha text was replaced by `?` in an encoding conversion; all {} Dzongkha items are skipped, the English ones kept",
                        f.rows.len()
                    ),
                )
                .language("dz"),
            );
        }
        for (ri, (row, fields)) in f.rows.iter().enumerate() {
            let row = *row;
            let Some(gold) = parse_gold(&f.name, row, &fields[10], EVAL_COLUMNS[10], &mut set.anomalies) else {
                continue;
            };
            match dup.get(&(fi, ri)) {
                Some(Dup::Row(first)) => {
                    set.anomalies.push(Anomaly::new(
                        &f.name,
                        Some(row),
                        AnomalyKind::DuplicateRow,
                        Action::SkippedRow,
                        format!(
                            "identical to {}; the later copy is skipped so the question counts once",
                            where_is(*first)
                        ),
                    ));
                    continue;
                }
                Some(Dup::Question(first)) => set.anomalies.push(
                    Anomaly::new(
                        &f.name,
                        Some(row),
                        AnomalyKind::RepeatedQuestion,
                        Action::Kept,
                        format!(
                            "the English question also appears at {} (with different options or answer); both kept",
                            where_is(*first)
                        ),
                    )
                    .column(EVAL_COLUMNS[0]),
                ),
                None => {}
            }
            let en = Side {
                lang: "en",
                question: (0, &fields[0]),
                options: [2, 3, 4, 5].map(|i| (i, fields[i].as_str())),
                rationale: None,
            };
            let dz = Side {
                lang: "dz",
                question: (1, &fields[1]),
                options: [6, 7, 8, 9].map(|i| (i, fields[i].as_str())),
                rationale: None,
            };
            let ctx = RowCtx { file: &f.name, row, columns: &EVAL_COLUMNS };
            let en_mc = build_side(&ctx, &en, gold, &mut set.anomalies);
            let dz_mc = build_dz_side(&ctx, &dz, gold, dz_lost_file, &mut set.anomalies);
            if dz_mc.is_some() && fields[0].trim() == fields[1].trim() {
                set.anomalies.push(
                    Anomaly::new(
                        &f.name,
                        Some(row),
                        AnomalyKind::Untranslated,
                        Action::Kept,
                        "the Dzongkha question is identical to the English one",
                    )
                    .column(EVAL_COLUMNS[1])
                    .language("dz"),
                );
            }
            let base = format!("dzen/{}/{row}", f.info.stem);
            push_pair(&mut set.items, &base, &f.name, row, &f.info, None, en_mc, dz_mc);
        }
        set.files.push(DzenFileSummary {
            file: f.name.clone(),
            kind: DzenFileKind::Eval,
            rows: f.total_rows,
            items: set.items.len() - before,
        });
    }

    for f in &few_files {
        let before = set.exemplars.len();
        let dz_lost_file = whole_file_dz_lost(f, &[2, 10, 11, 12, 13]);
        if dz_lost_file {
            set.anomalies.push(
                Anomaly::new(
                    &f.name,
                    None,
                    AnomalyKind::LostText,
                    Action::SkippedItem,
                    "the Dzongkha text was replaced by `?`: all Dzongkha exemplars are skipped",
                )
                .language("dz"),
            );
        }
        for (row, fields) in &f.rows {
            let row = *row;
            let fields = repair_shift(&f.name, row, fields, &mut set.anomalies);
            let Some(gold) = parse_gold(&f.name, row, &fields[7], FEW_SHOT_COLUMNS[7], &mut set.anomalies) else {
                continue;
            };
            if let Some(&(fi, ri)) = first_question.get(fields[1].trim()) {
                set.anomalies.push(
                    Anomaly::new(
                        &f.name,
                        Some(row),
                        AnomalyKind::RepeatedQuestion,
                        Action::Kept,
                        format!("this exemplar's question is also an evaluation item ({}): exclude it from that item's k-shot context", where_is((fi, ri))),
                    )
                    .column(FEW_SHOT_COLUMNS[1]),
                );
            }
            let en = Side {
                lang: "en",
                question: (1, &fields[1]),
                options: [3, 4, 5, 6].map(|i| (i, fields[i].as_str())),
                rationale: Some((24, &fields[24])),
            };
            let dz = Side {
                lang: "dz",
                question: (2, &fields[2]),
                options: [10, 11, 12, 13].map(|i| (i, fields[i].as_str())),
                rationale: Some((25, &fields[25])),
            };
            let ctx = RowCtx { file: &f.name, row, columns: &FEW_SHOT_COLUMNS };
            let en_mc = build_side(&ctx, &en, gold, &mut set.anomalies);
            let dz_mc = build_dz_side(&ctx, &dz, gold, dz_lost_file, &mut set.anomalies);
            let category = fields[FS_QUESTION_TYPE].trim();
            let category = (!category.is_empty()).then(|| category.to_string());
            if let Some(c) = &category {
                if !CATEGORIES.contains(&c.as_str()) {
                    set.anomalies.push(
                        Anomaly::new(
                            &f.name,
                            Some(row),
                            AnomalyKind::Malformed,
                            Action::Kept,
                            format!("unknown question category `{}`", preview(c, 60)),
                        )
                        .column(FEW_SHOT_COLUMNS[FS_QUESTION_TYPE]),
                    );
                }
            }
            let base = format!("dzen-few-shot/{}/{row}", f.info.stem);
            push_pair(&mut set.exemplars, &base, &f.name, row, &f.info, category, en_mc, dz_mc);
        }
        set.files.push(DzenFileSummary {
            file: f.name.clone(),
            kind: DzenFileKind::FewShot,
            rows: f.total_rows,
            items: set.exemplars.len() - before,
        });
    }
    super::anomaly::sort_anomalies(&mut set.anomalies, &files.iter().map(|f| f.0).collect::<Vec<_>>());
    set
}

/// Reads `<dir>/DZEN/*.csv` and `<dir>/DZEN-Few_Shots/*.csv` (sorted by name) and loads them
/// together. File names in anomalies are relative to `dir` (`DZEN/10th-Biology.csv`).
#[cfg(not(target_arch = "wasm32"))]
pub fn load_dzen_dir(dir: &std::path::Path) -> crate::error::Result<DzenSet> {
    let files = dzen_dir_files(dir)?;
    let refs: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    Ok(load_dzen(&refs))
}

/// The CSV files of a DZEN folder (`<dir>/DZEN/*.csv`, then `<dir>/DZEN-Few_Shots/*.csv`, each
/// sorted by name) with their bytes, named by their paths relative to `dir`.
#[cfg(not(target_arch = "wasm32"))]
pub fn dzen_dir_files(dir: &std::path::Path) -> crate::error::Result<Vec<(String, Vec<u8>)>> {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for sub in ["DZEN", "DZEN-Few_Shots"] {
        let d = dir.join(sub);
        let entries = std::fs::read_dir(&d).map_err(|e| crate::error::Error::new(format!("{}: {e}", d.display())))?;
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.to_ascii_lowercase().ends_with(".csv"))
            .collect();
        names.sort();
        for n in names {
            let p = d.join(&n);
            let bytes =
                crate::formats::source::read_capped(&p, crate::formats::source::limits::DATA_FILE, "data file")?;
            files.push((format!("{sub}/{n}"), bytes));
        }
    }
    Ok(files)
}

struct ParsedFile {
    name: String,
    info: DzenFileName,
    rows: Vec<(usize, Vec<String>)>,
    total_rows: usize,
}

#[derive(Clone, Copy)]
enum Dup {
    Row((usize, usize)),
    Question((usize, usize)),
}

struct RowCtx<'a> {
    file: &'a str,
    row: usize,
    columns: &'a [&'a str],
}

/// One language's cells of a row: (column index, text).
struct Side<'a> {
    lang: &'static str,
    question: (usize, &'a str),
    options: [(usize, &'a str); 4],
    rationale: Option<(usize, &'a str)>,
}

/// `a`–`d` (upper case repaired and reported); `None` (reported) for `*`, empty or anything else.
fn parse_gold(file: &str, row: usize, cell: &str, column: &str, anomalies: &mut Vec<Anomaly>) -> Option<usize> {
    let g = cell.trim();
    match g {
        "a" | "b" | "c" | "d" => Some((g.as_bytes()[0] - b'a') as usize),
        "A" | "B" | "C" | "D" => {
            anomalies.push(
                Anomaly::new(
                    file,
                    Some(row),
                    AnomalyKind::GoldCase,
                    Action::Repaired,
                    format!("gold `{g}` is upper case; read as `{}`", g.to_ascii_lowercase()),
                )
                .column(column),
            );
            Some((g.as_bytes()[0] - b'A') as usize)
        }
        "" | "*" => {
            anomalies.push(
                Anomaly::new(
                    file,
                    Some(row),
                    AnomalyKind::MissingGold,
                    Action::SkippedRow,
                    format!("no gold answer (`{g}`); the row is skipped in both languages"),
                )
                .column(column),
            );
            None
        }
        _ => {
            anomalies.push(
                Anomaly::new(
                    file,
                    Some(row),
                    AnomalyKind::BadGold,
                    Action::SkippedRow,
                    format!("gold `{}` is not one of a, b, c, d; the row is skipped", preview(g, 20)),
                )
                .column(column),
            );
            None
        }
    }
}

/// The whole file's Dzongkha columns lost: no Tibetan character anywhere in them, and `?`s.
fn whole_file_dz_lost(f: &ParsedFile, cols: &[usize]) -> bool {
    let cells = || f.rows.iter().flat_map(|(_, fields)| cols.iter().map(move |&c| fields[c].as_str()));
    !f.rows.is_empty() && !cells().any(has_tibetan) && cells().any(|c| c.contains('?'))
}

/// One row's Dzongkha text lost: a run of `??` and no Tibetan character.
fn dz_row_lost(side: &Side) -> bool {
    let texts = || std::iter::once(side.question.1).chain(side.options.iter().map(|o| o.1));
    !texts().any(has_tibetan) && texts().any(|t| t.contains("??"))
}

/// Builds one language's item from its cells, or reports why not. Lost options (empty, or a
/// spreadsheet error value) are left out; a lost gold option skips the item.
/// The Dzongkha side of a row: nothing when its file lost the Tibetan text (reported once for the
/// file) or this row did (reported here), else built like the English side.
fn build_dz_side(
    ctx: &RowCtx,
    dz: &Side,
    gold: usize,
    file_lost: bool,
    anomalies: &mut Vec<Anomaly>,
) -> Option<MultipleChoice> {
    if file_lost {
        return None;
    }
    if dz_row_lost(dz) {
        anomalies.push(
            Anomaly::new(
                ctx.file,
                Some(ctx.row),
                AnomalyKind::LostText,
                Action::SkippedItem,
                "the Dzongkha text has no Tibetan character and runs of `?`: it was lost in an encoding conversion",
            )
            .language("dz"),
        );
        return None;
    }
    build_side(ctx, dz, gold, anomalies)
}

/// One side (English or Dzongkha) of an evaluation row as an item, or `None` with the reason.
///
/// Long (about 200 lines): one check per column, in the CSV's column order (the question, each
/// option, the gold), each with its own anomaly kind, action and message; the checks are
/// independent and read as a list beside `AnomalyKind` (tasks/anomaly.rs).
fn build_side(ctx: &RowCtx, side: &Side, gold: usize, anomalies: &mut Vec<Anomaly>) -> Option<MultipleChoice> {
    let at = |kind, action, column: usize, reason: String| {
        Anomaly::new(ctx.file, Some(ctx.row), kind, action, reason).column(ctx.columns[column]).language(side.lang)
    };
    let (qcol, question) = side.question;
    if question.trim().is_empty() {
        anomalies.push(at(
            AnomalyKind::EmptyText,
            Action::SkippedItem,
            qcol,
            "the question is empty; the item is skipped".into(),
        ));
        return None;
    }
    if is_spreadsheet_error(question) {
        anomalies.push(at(
            AnomalyKind::SpreadsheetError,
            Action::SkippedItem,
            qcol,
            format!(
                "the question is the spreadsheet error value `{}` (its text was lost); the item is skipped",
                question.trim()
            ),
        ));
        return None;
    }
    let lost = |t: &str| t.trim().is_empty() || is_spreadsheet_error(t);
    let describe = |t: &str| {
        if t.trim().is_empty() {
            "empty".to_string()
        } else {
            format!("the spreadsheet error value `{}`", t.trim())
        }
    };
    let kind_of = |t: &str| {
        if t.trim().is_empty() {
            AnomalyKind::EmptyOption
        } else {
            AnomalyKind::SpreadsheetError
        }
    };
    let (gcol, gtext) = side.options[gold];
    if lost(gtext) {
        // Every lost cell is reported; the item goes.
        for (i, &(col, text)) in side.options.iter().enumerate() {
            if i == gold {
                anomalies.push(at(
                    kind_of(text),
                    Action::SkippedItem,
                    col,
                    format!(
                        "the gold option {} is {}: the item cannot be scored and is skipped",
                        letter(gold),
                        describe(text)
                    ),
                ));
            } else if lost(text) {
                anomalies.push(at(
                    kind_of(text),
                    Action::SkippedItem,
                    col,
                    format!(
                        "option {} is {} (the item is skipped: its gold option is lost)",
                        letter(i),
                        describe(text)
                    ),
                ));
            }
        }
        return None;
    }
    let mut choices = Vec::new();
    let mut new_gold = 0;
    let mut dropped = Vec::new();
    for (i, &(col, text)) in side.options.iter().enumerate() {
        if lost(text) {
            dropped.push((i, col, text));
            continue;
        }
        if i == gold {
            new_gold = choices.len();
        }
        choices.push(text.trim().to_string());
    }
    let too_few = choices.len() < 2;
    for &(i, col, text) in &dropped {
        anomalies.push(if too_few {
            at(
                kind_of(text),
                Action::SkippedItem,
                col,
                format!("option {} is {} (the item is skipped: too few options left)", letter(i), describe(text)),
            )
        } else {
            at(
                kind_of(text),
                Action::DroppedOption,
                col,
                format!(
                    "option {} is {}; it is left out and the item has {} options",
                    letter(i),
                    describe(text),
                    choices.len()
                ),
            )
        });
    }
    if too_few {
        anomalies.push(at(
            AnomalyKind::TooFewOptions,
            Action::SkippedItem,
            gcol,
            format!("only {} usable option(s) left; the item is skipped", choices.len()),
        ));
        return None;
    }
    // Identical option texts (after the lost ones are gone).
    let live: Vec<usize> = (0..4).filter(|&i| !lost(side.options[i].1)).collect();
    let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for &i in &live {
        groups.entry(side.options[i].1.trim()).or_default().push(i);
    }
    for same in groups.values().filter(|g| g.len() > 1) {
        let letters: Vec<String> = same.iter().map(|&i| letter(i).to_string()).collect();
        let gold_in = same.contains(&gold);
        anomalies.push(at(
            AnomalyKind::IdenticalOptions,
            Action::Kept,
            side.options[same[0]].0,
            if gold_in {
                format!(
                    "options {} have the same text and the gold {} is one of them: the correct text ties with a wrong option",
                    letters.join(", "),
                    letter(gold)
                )
            } else {
                format!("options {} have the same text (neither is the gold)", letters.join(", "))
            },
        ));
    }
    // Bengali script left over from the source exam.
    let mut bengali = Vec::new();
    if has_bengali(question) {
        bengali.push(ctx.columns[qcol]);
    }
    for &(col, text) in &side.options {
        if !lost(text) && has_bengali(text) {
            bengali.push(ctx.columns[col]);
        }
    }
    if let Some((col, text)) = side.rationale {
        if has_bengali(text) {
            bengali.push(ctx.columns[col]);
        }
    }
    if !bengali.is_empty() {
        anomalies.push(
            Anomaly::new(
                ctx.file,
                Some(ctx.row),
                AnomalyKind::ForeignScript,
                Action::Kept,
                format!(
                    "Bengali script in {} (left over from the Bengali source)",
                    bengali.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
                ),
            )
            .language(side.lang),
        );
    }
    let rationale = side.rationale.and_then(|(col, text)| {
        let t = text.trim();
        if t.is_empty() {
            anomalies.push(at(
                AnomalyKind::EmptyText,
                Action::Kept,
                col,
                "the exemplar has no chain-of-thought text".into(),
            ));
            return None;
        }
        match rationale_answer(t) {
            None => anomalies.push(at(
                AnomalyKind::RationaleAnswer,
                Action::Kept,
                col,
                "the chain of thought ends with no final answer in the `{\"Answer\": \"x\"}` form".into(),
            )),
            Some(a) if a != gold => anomalies.push(at(
                AnomalyKind::RationaleAnswer,
                Action::Kept,
                col,
                format!("the chain of thought's final answer is {} but the gold is {}", letter(a), letter(gold)),
            )),
            Some(_) => {}
        }
        Some(t.to_string())
    });
    Some(MultipleChoice {
        passage: None,
        question: question.trim().to_string(),
        choices,
        gold: new_gold,
        correct: Vec::new(),
        rationale,
    })
}

/// The final answer of a chain-of-thought text: the last `Answer`/`ལན` key followed by `:` and a
/// letter a–d or a Tibetan letter ཀ ཁ ག ང (= a b c d), with any quotes, braces or backslashes
/// around. `None` when there is no such answer.
pub fn rationale_answer(text: &str) -> Option<usize> {
    let chars: Vec<char> = text.chars().collect();
    let keys: [&[char]; 2] = [&['A', 'n', 's', 'w', 'e', 'r'], &['ལ', 'ན']];
    let quote = |c: char| matches!(c, '"' | '\'' | '“' | '”' | '‘' | '’' | '\\');
    let mut found = None;
    for start in 0..chars.len() {
        for key in keys {
            if !chars[start..].starts_with(key) {
                continue;
            }
            let mut i = start + key.len();
            while i < chars.len() && (quote(chars[i]) || chars[i] == ' ' || chars[i] == '་') {
                i += 1;
            }
            if chars.get(i) != Some(&':') {
                continue;
            }
            i += 1;
            while i < chars.len() && (quote(chars[i]) || chars[i] == ' ') {
                i += 1;
            }
            let answer = match chars.get(i) {
                Some(c @ 'a'..='d') => Some(*c as usize - 'a' as usize),
                Some(c @ 'A'..='D') => Some(*c as usize - 'A' as usize),
                Some('ཀ') => Some(0),
                Some('ཁ') => Some(1),
                Some('ག') => Some(2),
                Some('ང') => Some(3),
                _ => None,
            };
            let ends = match chars.get(i + 1) {
                None => true,
                Some(&c) => quote(c) || c == '}',
            };
            if let (Some(a), true) = (answer, ends) {
                found = Some(a);
            }
        }
    }
    found
}

/// `10th-Physics-few_shot.csv`: from `Diagram Bn` on, each value sits one column to the left
/// (`Question_Type` holds the classifier's JSON, `Question_fixed` the category). Detected by that
/// pattern, moved back one column (the `Diagram Bn` value is lost), and reported.
fn repair_shift(file: &str, row: usize, fields: &[String], anomalies: &mut Vec<Anomaly>) -> Vec<String> {
    let qt = fields[FS_QUESTION_TYPE].trim();
    let qf = fields[FS_QUESTION_FIXED].trim();
    let shifted =
        qt.starts_with('{') && qt.contains("Answer") && CATEGORIES.contains(&qf) && fields[25].trim().is_empty();
    if !shifted {
        return fields.to_vec();
    }
    let mut out = fields[..FS_DIAGRAM_BN].to_vec();
    out.push(String::new());
    out.extend_from_slice(&fields[FS_DIAGRAM_BN..25]);
    anomalies.push(
        Anomaly::new(
            file,
            Some(row),
            AnomalyKind::ShiftedColumns,
            Action::Repaired,
            "values from `Diagram Bn` on are one column to the left (`Question_Type` holds the classifier's JSON, `Question_fixed` the category, `English_Response` the Dzongkha text); moved back one column (`Diagram Bn` is lost)",
        )
        .column(FEW_SHOT_COLUMNS[FS_DIAGRAM_BN]),
    );
    out
}

#[allow(clippy::too_many_arguments)]
fn push_pair(
    out: &mut Vec<Item>,
    base: &str,
    file: &str,
    row: usize,
    info: &DzenFileName,
    category: Option<String>,
    en: Option<MultipleChoice>,
    dz: Option<MultipleChoice>,
) {
    let en_id = format!("{base}/en");
    let dz_id = format!("{base}/dz");
    let both = en.is_some() && dz.is_some();
    let mut metadata = BTreeMap::new();
    if let Some(g) = info.grade {
        metadata.insert("grade".to_string(), g.to_string());
    }
    if let Some(s) = &info.subject {
        metadata.insert("subject".to_string(), s.clone());
    }
    if let Some(p) = &info.part {
        metadata.insert("part".to_string(), p.clone());
    }
    if let Some(c) = category {
        metadata.insert("category".to_string(), c);
    }
    if info.few_shot {
        metadata.insert("split".to_string(), "few_shot".to_string());
    }
    for (lang, mc, id, other) in [("en", en, &en_id, &dz_id), ("dz", dz, &dz_id, &en_id)] {
        let Some(mc) = mc else { continue };
        out.push(Item {
            id: id.clone(),
            language: lang.to_string(),
            metadata: metadata.clone(),
            parallel: both.then(|| other.clone()),
            source: SourceRef { file: file.to_string(), row },
            body: ItemBody::MultipleChoice(mc),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "English Question,Dzongkha Question,A,B,C,D,A Dz .,B Dz ,C Dz,D Dz,Correct Answer\r\n";

    fn eval(rows: &[&str]) -> Vec<u8> {
        let mut s = HEADER.to_string();
        for r in rows {
            s.push_str(r);
            s.push_str("\r\n");
        }
        s.into_bytes()
    }

    #[test]
    fn file_names() {
        let n = parse_file_name("DZEN/12th-Biology-II.csv");
        assert_eq!(
            (n.grade, n.subject.as_deref(), n.part.as_deref(), n.few_shot),
            (Some(12), Some("Biology"), Some("II"), false)
        );
        assert_eq!(n.stem, "12th-Biology-II");
        let n = parse_file_name("8th-Science-few_shot.csv");
        assert_eq!((n.grade, n.subject.as_deref(), n.part, n.few_shot), (Some(8), Some("Science"), None, true));
        assert_eq!(n.stem, "8th-Science");
        let n = parse_file_name("weird.csv");
        assert_eq!((n.grade, n.subject), (None, None));
    }

    #[test]
    fn linked_pair_with_metadata() {
        let data =
            eval(&["\"Which gas do plants take in?\nChoose one.\",ཀ་ཁ?,oxygen,carbon dioxide,neon,argon,ཀ,ཁ,ག,ང,b"]);
        let set = load_dzen_file("10th-Biology.csv", &data);
        assert!(set.anomalies.is_empty(), "{:?}", set.anomalies);
        assert_eq!(set.items.len(), 2);
        let (en, dz) = (&set.items[0], &set.items[1]);
        assert_eq!(en.id, "dzen/10th-Biology/1/en");
        assert_eq!(en.parallel.as_deref(), Some("dzen/10th-Biology/1/dz"));
        assert_eq!(dz.parallel.as_deref(), Some("dzen/10th-Biology/1/en"));
        assert_eq!(dz.language, "dz");
        assert_eq!(en.metadata["grade"], "10");
        assert_eq!(en.metadata["subject"], "Biology");
        assert!(!en.metadata.contains_key("part"));
        let mc = en.as_multiple_choice().unwrap();
        assert_eq!(mc.question, "Which gas do plants take in?\nChoose one.");
        assert_eq!(mc.gold, 1);
        assert_eq!(set.files[0].items, 2);
        for i in &set.items {
            i.validate().unwrap();
        }
    }

    #[test]
    fn gold_anomalies() {
        let data = eval(&[
            "q1,ཀ,a1,b1,c1,d1,ཀ,ཁ,ག,ང,B",
            "q2,ཀ,a2,b2,c2,d2,ཀ,ཁ,ག,ང,*",
            "q3,ཀ,a3,b3,c3,d3,ཀ,ཁ,ག,ང,e",
            "q4,ཀ,a4,b4,c4,d4,ཀ,ཁ,ག,ང,d",
        ]);
        let set = load_dzen_file("10th-Physics.csv", &data);
        let kinds: Vec<_> = set.anomalies.iter().map(|a| (a.row, a.kind, a.action)).collect();
        assert_eq!(
            kinds,
            [
                (Some(1), AnomalyKind::GoldCase, Action::Repaired),
                (Some(2), AnomalyKind::MissingGold, Action::SkippedRow),
                (Some(3), AnomalyKind::BadGold, Action::SkippedRow)
            ]
        );
        assert_eq!(set.items.len(), 4);
        assert_eq!(set.items[0].as_multiple_choice().unwrap().gold, 1);
    }

    #[test]
    fn lost_options_are_dropped_or_skip_the_item() {
        let data = eval(&[
            // English C empty: dropped; gold d becomes index 2.
            "q1,ཀ,a1,b1,,d1,ཀ,ཁ,ག,ང,d",
            // English gold option is #NAME?: English item skipped, Dzongkha kept.
            "q2,ཀ,#NAME?,b2,c2,d2,ཀ,ཁ,ག,ང,a",
            // Only one usable English option.
            "q3,ཀ,a3,,,#ERROR!,ཀ,ཁ,ག,ང,a",
        ]);
        let set = load_dzen_file("10th-Chemistry.csv", &data);
        let ids: Vec<&str> = set.items.iter().map(|i| i.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "dzen/10th-Chemistry/1/en",
                "dzen/10th-Chemistry/1/dz",
                "dzen/10th-Chemistry/2/dz",
                "dzen/10th-Chemistry/3/dz"
            ]
        );
        let mc = set.items[0].as_multiple_choice().unwrap();
        assert_eq!(mc.choices, ["a1", "b1", "d1"]);
        assert_eq!(mc.gold, 2);
        assert!(set.items[2].parallel.is_none(), "no link when the other language was skipped");
        let seen: Vec<String> =
            set.anomalies.iter().map(|a| format!("{}:{:?}:{}", a.row.unwrap(), a.kind, a.action.as_str())).collect();
        assert_eq!(
            seen,
            [
                "1:EmptyOption:dropped_option",
                "2:SpreadsheetError:skipped_item",
                "3:EmptyOption:skipped_item",
                "3:EmptyOption:skipped_item",
                "3:SpreadsheetError:skipped_item",
                "3:TooFewOptions:skipped_item"
            ]
        );
        assert_eq!(set.anomalies[0].column.as_deref(), Some("C"));
        assert_eq!(set.anomalies[0].language.as_deref(), Some("en"));
    }

    #[test]
    fn duplicates_across_files_and_identical_options() {
        let a = eval(&["same,ཀ,x,y,z,w,ཀ,ཁ,ག,ང,a", "other,ཀ,x,x,z,w,ཀ,ཁ,ག,ང,a"]);
        let b = eval(&["same,ཀ,x,y,z,w,ཀ,ཁ,ག,ང,a", "same,ཀ,p,q,r,s,ཀ,ཁ,ག,ང,b"]);
        let set = load_dzen(&[("8th-Math.csv", &a), ("8th-Science.csv", &b)]);
        let seen: Vec<String> =
            set.anomalies.iter().map(|a| format!("{}:{}:{:?}", a.file, a.row.unwrap(), a.kind)).collect();
        assert_eq!(
            seen,
            ["8th-Math.csv:2:IdenticalOptions", "8th-Science.csv:1:DuplicateRow", "8th-Science.csv:2:RepeatedQuestion"]
        );
        assert!(set.anomalies[0].reason.contains("gold a is one of them"), "{}", set.anomalies[0].reason);
        assert!(set.anomalies[1].reason.contains("8th-Math.csv row 1"));
        assert_eq!(set.items.len(), 6);
    }

    #[test]
    fn dzongkha_lost_to_question_marks() {
        // Whole file: one file-level anomaly, English items kept.
        let data = eval(&["q1,????,a,b,c,d,?,??,?,?,a", "q2,x = ?,1,2,3,4,1,2,3,?,b"]);
        let set = load_dzen_file("12th-Math-I.csv", &data);
        assert_eq!(set.items.iter().map(|i| i.language.as_str()).collect::<Vec<_>>(), ["en", "en"]);
        assert_eq!(set.anomalies.len(), 1);
        assert_eq!((set.anomalies[0].row, set.anomalies[0].kind), (None, AnomalyKind::LostText));
        // One row in an otherwise good file.
        let data = eval(&["q1,ཀ་ཁ,a,b,c,d,ཀ,ཁ,ག,ང,a", "q2,??? ??,a,b,c,d,?,??,?,?,a"]);
        let set = load_dzen_file("12th-Physics-I.csv", &data);
        assert_eq!(set.items.len(), 3);
        assert_eq!((set.anomalies[0].row, set.anomalies[0].kind), (Some(2), AnomalyKind::LostText));
    }

    #[test]
    fn wrong_field_count_and_not_dzen() {
        let mut data = eval(&["q1,ཀ,a,b,c,d,ཀ,ཁ,ག,ང,a"]);
        data.extend_from_slice(b"short,row\r\n\"unterminated,ka,a,b,c,d,e,f,g,h,a\r\n");
        let set = load_dzen_file("8th-Math.csv", &data);
        assert_eq!(set.items.len(), 2);
        assert_eq!(
            set.anomalies.iter().map(|a| (a.row, a.kind)).collect::<Vec<_>>(),
            [(Some(2), AnomalyKind::FieldCount), (Some(3), AnomalyKind::FieldCount)]
        );
        let set = load_dzen_file("x.csv", b"a,b\n1,2\n");
        assert_eq!(set.anomalies[0].kind, AnomalyKind::UnreadableFile);
        assert!(set.items.is_empty());
        let set = load_dzen_file("x.csv", b"");
        assert_eq!(set.anomalies[0].kind, AnomalyKind::UnreadableFile);
    }

    #[test]
    fn rationale_answers() {
        assert_eq!(rationale_answer(r#"so {{"Answer": "c"}}."#), Some(2));
        assert_eq!(rationale_answer(r#"{{'Answer': 'b'}} as it"#), Some(1));
        assert_eq!(rationale_answer(r#"is {{'Answer": "c"}}"#), Some(2));
        assert_eq!(rationale_answer(r#"{{"ལན'": "ཀ"}}ཨིན།"#), Some(0));
        assert_eq!(rationale_answer(r#"\(\{"ལན་": "c"\}\) ཨིན།"#), Some(2));
        assert_eq!(rationale_answer(r#"{{“ལན་”: “ཁ”}}"#), Some(1));
        assert_eq!(rationale_answer(r#"Answer: a large one"#), None);
        assert_eq!(rationale_answer(r#"{ "Answer": ཨིན། "ཁ" }"#), None);
        assert_eq!(rationale_answer("no answer here; ལན་ངོ་མ་"), None);
        assert_eq!(rationale_answer(r#"first {"Answer": "a"} then {"Answer": "d"}"#), Some(3));
    }

    fn few_shot_row(shifted: bool, gold: &str, en_cot: &str) -> String {
        let mut f: Vec<String> = FEW_SHOT_COLUMNS.iter().map(|_| String::new()).collect();
        f[0] = "0".into();
        f[1] = "Which is a planet?".into();
        f[2] = "ཀ་ཁ?".into();
        for (i, o) in ["Mars", "Moon", "Sun", "Comet"].iter().enumerate() {
            f[3 + i] = o.to_string();
        }
        for (i, o) in ["ཀ", "ཁ", "ག", "ང"].iter().enumerate() {
            f[10 + i] = o.to_string();
        }
        f[7] = gold.into();
        f[16] = "N".into();
        f[17] = "0.9".into();
        f[21] = "Which planet?".into();
        f[22] = "Factual Knowledge".into();
        f[23] = r#"{"Answer": "Factual Knowledge"}"#.into();
        f[24] = en_cot.into();
        f[25] = r#"ལན {{"ལན": "ཀ"}}"#.into();
        if shifted {
            let mut s = f[..16].to_vec();
            s.extend_from_slice(&f[17..]);
            s.push(String::new());
            f = s;
        }
        f.iter().map(|c| format!("\"{}\"", c.replace('"', "\"\""))).collect::<Vec<_>>().join(",")
    }

    #[test]
    fn few_shot_exemplars_and_shift_repair() {
        let header = FEW_SHOT_COLUMNS.join(",");
        let data = format!(
            "{header}\r\n{}\r\n{}\r\n{}\r\n",
            few_shot_row(false, "a", r#"Mars is a planet. {{"Answer": "a"}}"#),
            few_shot_row(true, "a", r#"Mars. {{"Answer": "a"}}"#),
            few_shot_row(false, "a", "Mars is a planet."),
        );
        let set = load_dzen_file("DZEN-Few_Shots/10th-Physics-few_shot.csv", data.as_bytes());
        assert!(set.items.is_empty());
        assert_eq!(set.exemplars.len(), 6);
        let seen: Vec<String> = set.anomalies.iter().map(|a| format!("{}:{:?}", a.row.unwrap(), a.kind)).collect();
        assert_eq!(seen, ["2:ShiftedColumns", "3:RationaleAnswer"]);
        let e = &set.exemplars[2];
        assert_eq!(e.id, "dzen-few-shot/10th-Physics/2/en");
        assert_eq!(e.metadata["category"], "Factual Knowledge");
        assert_eq!(e.metadata["split"], "few_shot");
        assert_eq!(e.as_multiple_choice().unwrap().rationale.as_deref(), Some(r#"Mars. {{"Answer": "a"}}"#));
        assert_eq!(set.exemplars[3].as_multiple_choice().unwrap().rationale.as_deref(), Some(r#"ལན {{"ལན": "ཀ"}}"#));
        assert_eq!(set.exemplars_for("10th-Physics", "dz").len(), 3);
        assert_eq!(set.files[0].kind, DzenFileKind::FewShot);
    }
}
