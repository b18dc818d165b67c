//! Hugging Face–style tables (CSV, JSON, JSONL, Parquet) turned into [`Item`]s by a column
//! [`Mapping`]: built-in ones for ProverbEval and KyrgyzLLM-Bench, or one the user writes in JSON.
//!
//! Built-in mappings (`datasets/mappings/builtin.json`: [`builtin`], [`builtin_names`]), with the columns they read (see
//! `shared/datasets/proverbeval-configs/` and `shared/datasets/kyrgyzllm-bench-configs/PROMPTS.md`):
//!
//! | name | item | columns |
//! |---|---|---|
//! | `proverbeval-choice` | multiple choice | `Proverb`; `A`–`D`; gold `Answer_Letter` (A–D) |
//! | `proverbeval-fill-blank` | multiple choice | `Proverb` (with `___`); `A`–`D`; gold `Answer` (A–D) |
//! | `proverbeval-translate-test` | multiple choice | `tranalste` or `translate`; `A`–`D`; `Answer_Letter` |
//! | `proverbeval-generation` | generation | `Description` → reference `Proverb` |
//! | `kyrgyz-mmlu` | multiple choice | `Суроо (KG)`; `А (KG)`…`Д (KG)` (empty ones dropped); gold `Туура жооп` (а–д, any case) |
//! | `kyrgyz-rc` | multiple choice | passage `Текст (KG)` + the same |
//! | `boolq-kg` | multiple choice | passage `passage_kg`, `question_kg`; choices `ооба`/`жок`; gold `answer_kg` |
//! | `winogrande-kg` | cloze | `sentence_kg` (one `_`); `option1_kg`, `option2_kg`; gold `answer` (1/2) |
//! | `hellaswag-kg` | multiple choice | `activity_label_kg: ctx_a_kg Ctx_b_kg`; `endings_kg` (list, first 4); gold `label` (0-based) |
//! | `truthfulqa-mc-kg` | 2 × multiple choice | `Question_kg`; `mc1_targets_kg` → `…/mc1`, `mc2_targets_kg` → `…/mc2` |
//! | `gsm8k-kg` | generation | `question_kg` → reference `answer_kg` |
//!
//! Fidelity notes: ProverbEval's lm-eval configs use `['A','B','C','D'].index(Answer_Letter)`, which
//! is case-sensitive; a lower-case letter is accepted here and reported (`gold_case`). lighteval maps
//! an unknown Kyrgyz gold letter to index 0; here it is reported and the row skipped. KyrgyzRC
//! reads `Д (KG)` too when a row has it (lighteval reads `А`–`Г` only). lighteval scores a
//! TruthfulQA row as one document with both target lists; here it is two items tagged
//! `metadata["subtask"]` `mc1`/`mc2`, and MC2's true answers are in [`MultipleChoice::correct`].
//! Texts are stored as in the data: prompt-time edits (BoolQ's `??` → `?`, the leading space the
//! harnesses put before a continuation) belong to the task's prompt.
//!
//! Why one long file (about 1,300 lines before its tests): each item kind's row builder checks and
//! reports its own anomalies through one cell reader and one gold parser; the mappings themselves
//! are data (`datasets/mappings/builtin.json`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::anomaly::{Action, Anomaly, AnomalyKind, Loaded};
use super::item::{Cloze, Generation, Item, ItemBody, MultipleChoice, SourceRef};
use super::table::{columns_list, read_table, value_text, Format, Record, Table};
use super::text::{letter, preview, py_capitalize};
use crate::error::{Error, Result};

/// How a table's columns become items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mapping {
    /// Used in ids (`<name>/<file stem>/<row>`) and reports.
    pub name: String,
    /// Language tag of the items, when the mapping fixes it (KyrgyzLLM-Bench: `ky`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// metadata key → column. Optional: a missing column or an empty value adds nothing.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metadata: BTreeMap<String, String>,
    #[serde(flatten)]
    pub kind: MappingKind,
    /// A built-in mapping's rule for [`detect_mapping`]; a user's mapping needs none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detect: Option<Detect>,
}

/// The item a row becomes and where its parts are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum MappingKind {
    MultipleChoice {
        question: Text,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        passage: Option<Text>,
        choices: Choices,
        gold: Gold,
    },
    Cloze {
        sentence: Text,
        options: Vec<String>,
        gold: Gold,
        #[serde(default = "default_blank")]
        blank: String,
    },
    Generation {
        input: Text,
        /// Columns holding reference answers (each a string or a list of strings).
        references: Vec<String>,
        /// Extra prompt fields: name → text.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        fields: BTreeMap<String, Text>,
    },
    /// Labelled target lists: each of `targets` is a column holding `{'choices': [...], 'labels':
    /// [...]}` (an object, JSON or Python text) and gives the row one multiple-choice item, with
    /// id `…/<name>` and `metadata["subtask"] = name`: TruthfulQA's `mc1` (exactly one true answer)
    /// and `mc2` (one or more, all kept in [`MultipleChoice::correct`]).
    LabelledTargets { question: Text, targets: Vec<LabelledColumn> },
}

/// One item of a [`MappingKind::LabelledTargets`] row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LabelledColumn {
    /// The item's name (`mc1`): its id suffix and its `subtask`.
    pub name: String,
    pub column: String,
    /// Exactly one choice may be labelled true; else one or more, each a correct answer.
    #[serde(default)]
    pub single_true: bool,
}

fn default_blank() -> String {
    "_".to_string()
}

/// A text taken from the row: a column, the first of several columns present in the file, or a
/// template with `{column}` and `{column|capitalize}` (Python's `str.capitalize`) placeholders.
/// In JSON: `"Proverb"`, `["tranalste", "translate"]`, `{"template": "{a}: {b}"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Text {
    Column(String),
    FirstOf(Vec<String>),
    Template { template: String },
}

/// Where the options are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Choices {
    /// One column per option, in order. An empty option is dropped (gold renumbered) and reported.
    Columns(Vec<String>),
    /// The same, for sets whose items have a varying number of options (KyrgyzMMLU: 2–5): empty
    /// options, and option columns after the second that a record lacks, are dropped silently.
    OptionalColumns(Vec<String>),
    /// One column holding the list of options (a list, or JSON / Python-literal text);
    /// at most `max` are used (the rest reported).
    List {
        column: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max: Option<usize>,
    },
    /// The same options for every row (BoolQ: `ооба`, `жок`).
    Fixed(Vec<String>),
}

/// Where the correct answer is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gold {
    /// A letter naming the option: `letters[i]` is option i (of the columns, before empty ones are
    /// dropped). With `case_insensitive: false` a case mismatch is still accepted, and reported.
    Letter {
        column: String,
        letters: Vec<String>,
        #[serde(default)]
        case_insensitive: bool,
    },
    /// A number: option `value - base`.
    Index {
        column: String,
        #[serde(default)]
        base: usize,
    },
    /// The text of the correct option (compared trimmed, case-insensitively).
    Text { column: String },
}

/// The built-in mappings, as data: `datasets/mappings/builtin.json` (compiled in, so the page
/// has them offline), in the order [`detect_mapping`] tries them.
const BUILTIN_JSON: &str = include_str!("../../datasets/mappings/builtin.json");

#[derive(Deserialize)]
struct BuiltinFile {
    mappings: Vec<Mapping>,
}

/// The built-in mappings, read once. The file is part of the program: a mistake in it is found by
/// this module's tests, and here leaves no built-in mapping rather than stopping the program.
fn builtins() -> &'static [Mapping] {
    static BUILTINS: std::sync::OnceLock<Vec<Mapping>> = std::sync::OnceLock::new();
    BUILTINS.get_or_init(|| serde_json::from_str::<BuiltinFile>(BUILTIN_JSON).map(|f| f.mappings).unwrap_or_default())
}

/// The names of the built-in mappings.
pub fn builtin_names() -> Vec<&'static str> {
    builtins().iter().map(|m| m.name.as_str()).collect()
}

/// A built-in mapping by name (see the module docs).
pub fn builtin(name: &str) -> Option<Mapping> {
    builtins().iter().find(|m| m.name == name).cloned()
}

/// The built-in mapping whose columns a table has, if any: the first whose `detect` rule the
/// columns meet (most specific first). A file that has a set's question columns but lacks its
/// gold column still gets that mapping, so that the missing column is named in the report.
pub fn detect_mapping(columns: &[String]) -> Option<Mapping> {
    builtins().iter().find(|m| m.detect.as_ref().is_some_and(|d| d.matches(columns))).cloned()
}

/// When a table is read with a built-in mapping without being told to: its columns include every
/// one of `all`, at least one of `any` (when given) and none of `none`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Detect {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub all: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub any: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub none: Vec<String>,
}

impl Detect {
    fn matches(&self, columns: &[String]) -> bool {
        let has = |c: &String| columns.contains(c);
        self.all.iter().all(has) && (self.any.is_empty() || self.any.iter().any(has)) && !self.none.iter().any(has)
    }
}

impl Mapping {
    /// A user mapping from JSON, e.g.
    /// `{"name": "my-mcq", "language": "am", "type": "multiple_choice", "question": "q",
    ///   "choices": {"columns": ["o1","o2","o3"]}, "gold": {"index": {"column": "label"}}}`.
    pub fn from_json(text: &str) -> Result<Mapping> {
        let m: Mapping = serde_json::from_str(text).map_err(|e| Error::new(format!("column mapping: {e}")))?;
        m.check()?;
        Ok(m)
    }

    /// Sanity checks that do not need a table.
    pub fn check(&self) -> Result<()> {
        if self.name.trim().is_empty() {
            crate::bail!("column mapping: `name` is empty");
        }
        match &self.kind {
            MappingKind::MultipleChoice { choices, gold, .. } => {
                match choices {
                    Choices::Columns(columns) | Choices::OptionalColumns(columns) if columns.len() < 2 => {
                        crate::bail!("column mapping `{}`: at least 2 choice columns are needed", self.name)
                    }
                    Choices::Fixed(f) if f.len() < 2 => {
                        crate::bail!("column mapping `{}`: at least 2 fixed choices are needed", self.name)
                    }
                    _ => {}
                }
                if let (Gold::Letter { letters, .. }, Choices::Columns(columns) | Choices::OptionalColumns(columns)) =
                    (gold, choices)
                {
                    if letters.len() < columns.len() {
                        crate::bail!(
                            "column mapping `{}`: {} gold letters for {} choice columns",
                            self.name,
                            letters.len(),
                            columns.len()
                        );
                    }
                }
            }
            MappingKind::Cloze { options, blank, .. } => {
                if options.len() < 2 {
                    crate::bail!("column mapping `{}`: at least 2 option columns are needed", self.name);
                }
                if blank.is_empty() {
                    crate::bail!("column mapping `{}`: the blank marker is empty", self.name);
                }
            }
            MappingKind::Generation { references, .. } => {
                if references.is_empty() {
                    crate::bail!("column mapping `{}`: no reference column", self.name);
                }
            }
            MappingKind::LabelledTargets { targets, .. } => {
                if targets.is_empty() {
                    crate::bail!("column mapping `{}`: no target column", self.name);
                }
                let names: std::collections::BTreeSet<&str> = targets.iter().map(|t| t.name.as_str()).collect();
                if names.len() != targets.len() || names.iter().any(|n| n.is_empty() || n.contains('/')) {
                    crate::bail!(
                        "column mapping `{}`: each target needs its own name, without `/` (it ends the item's id)",
                        self.name
                    );
                }
            }
        }
        Ok(())
    }

    /// The columns a table must have for this mapping (alternatives joined by `|`).
    pub fn required_columns(&self) -> Vec<String> {
        let mut out = Vec::new();
        let text = |t: &Text, out: &mut Vec<String>| match t {
            Text::Column(c) => out.push(c.clone()),
            Text::FirstOf(cs) => out.push(cs.join("|")),
            Text::Template { template } => out.extend(template_columns(template).into_iter().map(|(c, _)| c)),
        };
        match &self.kind {
            MappingKind::MultipleChoice { question, passage, choices, gold } => {
                text(question, &mut out);
                if let Some(p) = passage {
                    text(p, &mut out);
                }
                match choices {
                    Choices::Columns(columns) => out.extend(columns.iter().cloned()),
                    // Optional option columns: the first two must be there.
                    Choices::OptionalColumns(columns) => out.extend(columns.iter().take(2).cloned()),
                    Choices::List { column, .. } => out.push(column.clone()),
                    Choices::Fixed(_) => {}
                }
                out.push(gold.column().to_string());
            }
            MappingKind::Cloze { sentence, options, gold, .. } => {
                text(sentence, &mut out);
                out.extend(options.iter().cloned());
                out.push(gold.column().to_string());
            }
            MappingKind::Generation { input, references, fields } => {
                text(input, &mut out);
                out.extend(references.iter().cloned());
                for t in fields.values() {
                    text(t, &mut out);
                }
            }
            MappingKind::LabelledTargets { question, targets } => {
                text(question, &mut out);
                out.extend(targets.iter().map(|t| t.column.clone()));
            }
        }
        out
    }
}

impl Gold {
    fn column(&self) -> &str {
        match self {
            Gold::Letter { column, .. } | Gold::Index { column, .. } | Gold::Text { column } => column,
        }
    }
}

/// `{name}` / `{name|capitalize}` placeholders of a template, in order.
fn template_columns(t: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut rest = t;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let inner = &rest[open + 1..open + close];
        let (name, cap) = match inner.strip_suffix("|capitalize") {
            Some(n) => (n, true),
            None => (inner, false),
        };
        out.push((name.to_string(), cap));
        rest = &rest[open + close + 1..];
    }
    out
}

/// Options for [`load_table`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TableOptions {
    /// The mapping to use; `None`: the built-in one that fits the columns ([`detect_mapping`]).
    pub mapping: Option<Mapping>,
    /// Language tag for the items, over the mapping's; `None` and no mapping language: told from
    /// the file name ([`language_from_name`]), else `und` (reported).
    pub language: Option<String>,
    /// Id prefix; default `<mapping name>/<file stem>` (plus `/<split>` for JSON splits).
    pub id_prefix: Option<String>,
    /// Metadata added to every item (e.g. `subject` from a config name).
    pub metadata: BTreeMap<String, String>,
}

/// Loads a table file: `name` gives the format (by extension) and is used in messages.
pub fn load_table(name: &str, bytes: &[u8], options: &TableOptions) -> Loaded {
    let Some(format) = Format::from_name(name) else {
        return Loaded {
            anomalies: vec![Anomaly::new(
                name,
                None,
                AnomalyKind::UnreadableFile,
                Action::SkippedFile,
                "unknown table format: expected .csv, .json, .jsonl or .parquet",
            )],
            ..Loaded::default()
        };
    };
    load_table_as(name, bytes, format, options)
}

/// [`load_table`] with the format given.
pub fn load_table_as(name: &str, bytes: &[u8], format: Format, options: &TableOptions) -> Loaded {
    let (tables, anomalies) = read_table(name, bytes, format);
    let mut out = Loaded { anomalies, ..Loaded::default() };
    for table in &tables {
        out.extend(items_from_table(name, table, options));
    }
    super::anomaly::sort_anomalies(&mut out.anomalies, &[]);
    out
}

/// The language a ProverbEval-style file name implies: `amh…` → `am`, `orm…` → `om`, `tir…` →
/// `ti`, `gez…`/`geez…` → `gez`, `eng…` → `en` (the first path component or file-name prefix that
/// matches).
pub fn language_from_name(name: &str) -> Option<&'static str> {
    for part in name.rsplit(['/', '\\']) {
        let lower = part.to_ascii_lowercase();
        let head = lower.split(['_', '-', '.']).next().unwrap_or("");
        let tag = match head {
            "amh" => "am",
            "orm" => "om",
            "tir" => "ti",
            "gez" | "geez" => "gez",
            "eng" => "en",
            _ => continue,
        };
        return Some(tag);
    }
    None
}

fn file_stem(name: &str) -> &str {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    base.rsplit_once('.').map_or(base, |(s, _)| s)
}

/// A file stem without the Hub's shard count, so that an item keeps its id however the split's
/// files are named: `test-00000-of-00001` → `test`, `test-00001-of-00003` → `test-00001` (as
/// lingualens keeps shards it fetched).
fn shard_stem(stem: &str) -> String {
    let Some((head, of)) = stem.rsplit_once("-of-") else { return stem.to_string() };
    let Some((split, index)) = head.rsplit_once('-') else { return stem.to_string() };
    let digits = |s: &str| s.len() == 5 && s.bytes().all(|b| b.is_ascii_digit());
    match (digits(index), digits(of), of == "00001") {
        (true, true, true) => split.to_string(),
        (true, true, false) => head.to_string(),
        _ => stem.to_string(),
    }
}

/// Turns one table into items.
pub fn items_from_table(name: &str, table: &Table, options: &TableOptions) -> Loaded {
    let mut out = Loaded { rows: table.rows, ..Loaded::default() };
    let label = table.label.as_str();
    let mapping = match options.mapping.clone().or_else(|| detect_mapping(&table.columns)) {
        Some(m) => m,
        None => {
            out.anomalies.push(Anomaly::new(
                label,
                None,
                AnomalyKind::UnreadableFile,
                Action::SkippedFile,
                format!(
                    "no column mapping given, and no built-in mapping fits the columns {}",
                    columns_list(&table.columns)
                ),
            ));
            return out;
        }
    };
    if let Err(e) = mapping.check() {
        out.anomalies.push(Anomaly::new(label, None, AnomalyKind::UnreadableFile, Action::SkippedFile, e.to_string()));
        return out;
    }
    // Columns the whole file lacks: nothing can be built. (JSON records may also lack a field
    // individually; that is checked per row.)
    if !table.columns.is_empty() || !table.records.is_empty() {
        let missing: Vec<String> = mapping
            .required_columns()
            .into_iter()
            .filter(|c| !c.split('|').any(|alt| table.columns.iter().any(|x| x == alt)))
            .collect();
        if !missing.is_empty() {
            out.anomalies.push(Anomaly::new(
                label,
                None,
                AnomalyKind::MissingColumn,
                Action::SkippedFile,
                format!(
                    "mapping `{}` needs column(s) {} that the file does not have; its columns are {}",
                    mapping.name,
                    missing.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", "),
                    columns_list(&table.columns)
                ),
            ));
            return out;
        }
    }
    let language = match options
        .language
        .clone()
        .or_else(|| mapping.language.clone())
        .or_else(|| language_from_name(name).map(str::to_string))
    {
        Some(l) => l,
        None => {
            out.anomalies.push(Anomaly::new(
                label,
                None,
                AnomalyKind::UnknownLanguage,
                Action::Kept,
                "the language could not be told from the mapping or the file name; items are tagged `und`",
            ));
            "und".to_string()
        }
    };
    // A Hub config's folder goes into the id (KyrgyzMMLU's subjects each number their rows from 1).
    let stem = match options.metadata.get("config") {
        Some(config) => format!("{config}/{}", shard_stem(file_stem(name))),
        None => shard_stem(file_stem(name)),
    };
    let prefix = options.id_prefix.clone().unwrap_or_else(|| match &table.split {
        Some(split) => format!("{}/{stem}/{split}", mapping.name),
        None => format!("{}/{stem}", mapping.name),
    });
    let mut base_meta = options.metadata.clone();
    if let Some(split) = &table.split {
        base_meta.entry("split".to_string()).or_insert_with(|| split.clone());
    }
    let ctx = Ctx { label, columns: &table.columns };
    for record in &table.records {
        let mut metadata = base_meta.clone();
        for (key, column) in &mapping.metadata {
            if let Some(v) = record.fields.get(column).and_then(value_text) {
                let v = v.trim();
                if !v.is_empty() {
                    metadata.insert(key.clone(), v.to_string());
                }
            }
        }
        let make = |suffix: &str, body: ItemBody, metadata: BTreeMap<String, String>| Item {
            id: format!("{prefix}/{}{suffix}", record.row),
            language: language.clone(),
            metadata,
            parallel: None,
            source: SourceRef { file: label.to_string(), row: record.row },
            body,
        };
        let built: Vec<(String, ItemBody, BTreeMap<String, String>)> = match &mapping.kind {
            MappingKind::MultipleChoice { question, passage, choices, gold } => {
                row_multiple_choice(&ctx, record, question, passage.as_ref(), choices, gold, &mut out.anomalies)
                    .map(|mc| vec![(String::new(), ItemBody::MultipleChoice(mc), metadata.clone())])
                    .unwrap_or_default()
            }
            MappingKind::Cloze { sentence, options: cols, gold, blank } => {
                row_cloze(&ctx, record, sentence, cols, gold, blank, &mut out.anomalies)
                    .map(|c| vec![(String::new(), ItemBody::Cloze(c), metadata.clone())])
                    .unwrap_or_default()
            }
            MappingKind::Generation { input, references, fields } => {
                row_generation(&ctx, record, input, references, fields, &mut out.anomalies)
                    .map(|g| vec![(String::new(), ItemBody::Generation(g), metadata.clone())])
                    .unwrap_or_default()
            }
            MappingKind::LabelledTargets { question, targets } => {
                row_labelled_targets(&ctx, record, question, targets, &mut out.anomalies)
                    .into_iter()
                    .map(|(sub, mc)| {
                        let mut m = metadata.clone();
                        m.insert("subtask".to_string(), sub.to_string());
                        (format!("/{sub}"), ItemBody::MultipleChoice(mc), m)
                    })
                    .collect()
            }
        };
        for (suffix, body, metadata) in built {
            let item = make(&suffix, body, metadata);
            match item.validate() {
                Ok(()) => out.items.push(item),
                Err(e) => out.anomalies.push(Anomaly::new(
                    label,
                    Some(record.row),
                    AnomalyKind::InvalidItem,
                    Action::SkippedItem,
                    e.to_string(),
                )),
            }
        }
    }
    out
}

struct Ctx<'a> {
    label: &'a str,
    columns: &'a [String],
}

impl Ctx<'_> {
    fn anomaly(
        &self,
        row: usize,
        kind: AnomalyKind,
        action: Action,
        column: &str,
        reason: impl Into<String>,
    ) -> Anomaly {
        Anomaly::new(self.label, Some(row), kind, action, reason).column(column)
    }
}

/// The text of `column` in the record; `Err` (reported) when the record lacks it or it is not text.
fn cell(ctx: &Ctx, record: &Record, column: &str, anomalies: &mut Vec<Anomaly>) -> Option<String> {
    match record.fields.get(column) {
        None => {
            anomalies.push(ctx.anomaly(
                record.row,
                AnomalyKind::MissingColumn,
                Action::SkippedRow,
                column,
                "the record has no such field; the row is skipped",
            ));
            None
        }
        Some(v) => match value_text(v) {
            Some(t) => Some(t),
            None => {
                anomalies.push(ctx.anomaly(
                    record.row,
                    AnomalyKind::Malformed,
                    Action::SkippedRow,
                    column,
                    format!("expected text, found {}", preview(&v.to_string(), 40)),
                ));
                None
            }
        },
    }
}

fn text(ctx: &Ctx, record: &Record, spec: &Text, anomalies: &mut Vec<Anomaly>) -> Option<(String, String)> {
    match spec {
        Text::Column(c) => cell(ctx, record, c, anomalies).map(|t| (c.clone(), t)),
        Text::FirstOf(cs) => {
            let c = cs
                .iter()
                .find(|c| record.fields.contains_key(c.as_str()))
                .or_else(|| cs.iter().find(|c| ctx.columns.contains(c)));
            match c {
                Some(c) => cell(ctx, record, c, anomalies).map(|t| (c.clone(), t)),
                None => {
                    let joined = cs.join("` or `");
                    anomalies.push(ctx.anomaly(
                        record.row,
                        AnomalyKind::MissingColumn,
                        Action::SkippedRow,
                        &joined,
                        "none of these fields is in the record",
                    ));
                    None
                }
            }
        }
        Text::Template { template } => {
            let mut out = String::new();
            let mut rest = template.as_str();
            while let Some(open) = rest.find('{') {
                let Some(close) = rest[open..].find('}') else {
                    break;
                };
                out.push_str(&rest[..open]);
                let inner = &rest[open + 1..open + close];
                let (name, cap) = match inner.strip_suffix("|capitalize") {
                    Some(n) => (n, true),
                    None => (inner, false),
                };
                let v = cell(ctx, record, name, anomalies)?;
                out.push_str(&if cap { py_capitalize(&v) } else { v });
                rest = &rest[open + close + 1..];
            }
            out.push_str(rest);
            Some((template.clone(), out))
        }
    }
}

/// A list of strings from a value: a list, or text holding a JSON / Python list literal.
fn string_list(v: &Value) -> std::result::Result<Vec<String>, String> {
    let parsed;
    let v = match v {
        Value::String(s) => {
            parsed = super::pylit::parse(s).map_err(|e| e.to_string())?;
            &parsed
        }
        other => other,
    };
    match v {
        Value::Array(items) => {
            items.iter().map(|x| value_text(x).ok_or_else(|| "a list element is not text".to_string())).collect()
        }
        other => Err(format!("expected a list, found {}", preview(&other.to_string(), 40))),
    }
}

fn parse_gold(
    ctx: &Ctx,
    record: &Record,
    gold: &Gold,
    n: usize,
    fixed: Option<&[String]>,
    anomalies: &mut Vec<Anomaly>,
) -> Option<usize> {
    let row = record.row;
    let column = gold.column();
    let raw = cell(ctx, record, column, anomalies)?;
    let g = raw.trim();
    if g.is_empty() {
        anomalies.push(ctx.anomaly(
            row,
            AnomalyKind::MissingGold,
            Action::SkippedRow,
            column,
            "no gold answer; the row is skipped",
        ));
        return None;
    }
    let bad = |anomalies: &mut Vec<Anomaly>, why: String| {
        anomalies.push(ctx.anomaly(row, AnomalyKind::BadGold, Action::SkippedRow, column, why));
        None
    };
    match gold {
        Gold::Letter { letters, case_insensitive, .. } => {
            if let Some(i) = letters.iter().position(|l| l == g) {
                return Some(i);
            }
            if let Some(i) = letters.iter().position(|l| l.to_lowercase() == g.to_lowercase()) {
                if !case_insensitive {
                    anomalies.push(ctx.anomaly(
                        row,
                        AnomalyKind::GoldCase,
                        Action::Repaired,
                        column,
                        format!("gold `{g}` is in the wrong case; read as `{}`", letters[i]),
                    ));
                }
                return Some(i);
            }
            // A Latin `a`/`A` where the letters are Cyrillic (`а`): the same glyph and the same position.
            if (g == "a" || g == "A") && letters.first().is_some_and(|l| l.to_lowercase() == "а") {
                anomalies.push(ctx.anomaly(
                    row,
                    AnomalyKind::GoldCase,
                    Action::Repaired,
                    column,
                    format!("gold `{g}` is a Latin letter; read as Cyrillic `{}`", letters[0]),
                ));
                return Some(0);
            }
            bad(
                anomalies,
                format!("gold `{}` is not one of {}; the row is skipped", preview(g, 20), letters.join(", ")),
            )
        }
        Gold::Index { base, .. } => {
            let parsed = g.parse::<f64>().ok().filter(|x| x.fract() == 0.0 && *x >= 0.0).map(|x| x as usize);
            match parsed {
                Some(v) if v >= *base && v - base < n => Some(v - base),
                _ => bad(
                    anomalies,
                    format!(
                        "gold `{}` is not an option number from {base} to {}; the row is skipped",
                        preview(g, 20),
                        base + n.max(1) - 1
                    ),
                ),
            }
        }
        Gold::Text { .. } => {
            let options = fixed.unwrap_or(&[]);
            match options.iter().position(|o| o.trim().to_lowercase() == g.to_lowercase()) {
                Some(i) => Some(i),
                None => bad(
                    anomalies,
                    format!(
                        "gold `{}` is none of the options ({}); the row is skipped",
                        preview(g, 30),
                        options.join(", ")
                    ),
                ),
            }
        }
    }
}

/// One table row as a multiple-choice item by the mapping, or `None` with an anomaly.
///
/// Long (about 160 lines): the mapping's columns in its order (question, passage, the options in
/// their three shapes, the gold in its forms), each with its own message; the parts share the row's
/// context and the anomaly list, and read as one checklist.
fn row_multiple_choice(
    ctx: &Ctx,
    record: &Record,
    question: &Text,
    passage: Option<&Text>,
    choices: &Choices,
    gold: &Gold,
    anomalies: &mut Vec<Anomaly>,
) -> Option<MultipleChoice> {
    let row = record.row;
    let (qcol, q) = text(ctx, record, question, anomalies)?;
    let passage = match passage {
        Some(p) => Some(text(ctx, record, p, anomalies)?),
        None => None,
    };
    // Options, with their column names (for messages) before dropping.
    let (options, optional): (Vec<(String, String)>, bool) = match choices {
        Choices::Columns(columns) | Choices::OptionalColumns(columns) => {
            let optional = matches!(choices, Choices::OptionalColumns(_));
            let mut v = Vec::new();
            for (i, c) in columns.iter().enumerate() {
                match record.fields.get(c) {
                    None if optional && i >= 2 => v.push((c.clone(), String::new())),
                    _ => v.push((c.clone(), cell(ctx, record, c, anomalies)?)),
                }
            }
            (v, optional)
        }
        Choices::List { column, max } => {
            let v = record.fields.get(column);
            let Some(v) = v else {
                anomalies.push(ctx.anomaly(
                    row,
                    AnomalyKind::MissingColumn,
                    Action::SkippedRow,
                    column,
                    "the record has no such field; the row is skipped",
                ));
                return None;
            };
            let mut list = match string_list(v) {
                Ok(l) => l,
                Err(e) => {
                    anomalies.push(ctx.anomaly(
                        row,
                        AnomalyKind::Malformed,
                        Action::SkippedRow,
                        column,
                        format!("the options could not be read: {e}"),
                    ));
                    return None;
                }
            };
            if let Some(max) = max {
                if list.len() > *max {
                    anomalies.push(ctx.anomaly(
                        row,
                        AnomalyKind::ExtraOptions,
                        Action::Repaired,
                        column,
                        format!("{} options; the first {max} are used, as the harness does", list.len()),
                    ));
                    list.truncate(*max);
                }
            }
            (list.into_iter().enumerate().map(|(i, t)| (format!("{column}[{i}]"), t)).collect(), false)
        }
        Choices::Fixed(f) => (f.iter().map(|t| (String::new(), t.clone())).collect(), false),
    };
    let fixed: Option<Vec<String>> = match choices {
        Choices::Fixed(f) => Some(f.clone()),
        _ => None,
    };
    let gold_i = parse_gold(ctx, record, gold, options.len(), fixed.as_deref(), anomalies)?;
    if gold_i >= options.len() {
        anomalies.push(ctx.anomaly(
            row,
            AnomalyKind::BadGold,
            Action::SkippedRow,
            gold.column(),
            format!("gold option {} but the row has {} options; the row is skipped", letter(gold_i), options.len()),
        ));
        return None;
    }
    if options[gold_i].1.trim().is_empty() {
        anomalies.push(ctx.anomaly(
            row,
            AnomalyKind::EmptyOption,
            Action::SkippedRow,
            &options[gold_i].0,
            format!("the gold option {} is empty; the row is skipped", letter(gold_i)),
        ));
        return None;
    }
    let mut kept = Vec::new();
    let mut new_gold = 0;
    for (i, (c, t)) in options.iter().enumerate() {
        if t.trim().is_empty() {
            if !optional {
                anomalies.push(ctx.anomaly(
                    row,
                    AnomalyKind::EmptyOption,
                    Action::DroppedOption,
                    c,
                    format!("option {} is empty; it is left out", letter(i)),
                ));
            }
            continue;
        }
        if i == gold_i {
            new_gold = kept.len();
        }
        kept.push(t.trim().to_string());
    }
    if kept.len() < 2 {
        anomalies.push(ctx.anomaly(
            row,
            AnomalyKind::TooFewOptions,
            Action::SkippedRow,
            gold.column(),
            format!("only {} non-empty option(s); the row is skipped", kept.len()),
        ));
        return None;
    }
    if q.trim().is_empty() {
        anomalies.push(ctx.anomaly(
            row,
            AnomalyKind::EmptyText,
            Action::SkippedRow,
            &qcol,
            "the question is empty; the row is skipped",
        ));
        return None;
    }
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, t) in kept.iter().enumerate() {
        if let Some(&j) = seen.get(t.as_str()) {
            let gold_in = j == new_gold || i == new_gold;
            anomalies.push(ctx.anomaly(
                row,
                AnomalyKind::IdenticalOptions,
                Action::Kept,
                gold.column(),
                format!(
                    "options {} and {} have the same text{}",
                    letter(j),
                    letter(i),
                    if gold_in { "; one is the gold" } else { "" }
                ),
            ));
        } else {
            seen.insert(t, i);
        }
    }
    Some(MultipleChoice {
        passage: passage.map(|(_, p)| p.trim().to_string()).filter(|p| !p.is_empty()),
        question: q.trim().to_string(),
        choices: kept,
        gold: new_gold,
        correct: Vec::new(),
        rationale: None,
    })
}

fn row_cloze(
    ctx: &Ctx,
    record: &Record,
    sentence: &Text,
    cols: &[String],
    gold: &Gold,
    blank: &str,
    anomalies: &mut Vec<Anomaly>,
) -> Option<Cloze> {
    let row = record.row;
    let (scol, s) = text(ctx, record, sentence, anomalies)?;
    let mut options = Vec::new();
    for c in cols {
        options.push(cell(ctx, record, c, anomalies)?.trim().to_string());
    }
    let g = parse_gold(ctx, record, gold, options.len(), None, anomalies)?;
    if let Some(i) = options.iter().position(|o| o.is_empty()) {
        anomalies.push(ctx.anomaly(
            row,
            AnomalyKind::EmptyOption,
            Action::SkippedRow,
            &cols[i],
            "an option is empty; the row is skipped",
        ));
        return None;
    }
    let c = Cloze { sentence: s, blank: blank.to_string(), options, gold: g };
    if c.split().is_none() {
        let n = c.sentence.matches(blank).count();
        anomalies.push(ctx.anomaly(
            row,
            AnomalyKind::BadBlank,
            Action::SkippedRow,
            &scol,
            format!("the sentence has {n} blanks `{blank}`; exactly one is needed"),
        ));
        return None;
    }
    Some(c)
}

fn row_generation(
    ctx: &Ctx,
    record: &Record,
    input: &Text,
    references: &[String],
    fields: &BTreeMap<String, Text>,
    anomalies: &mut Vec<Anomaly>,
) -> Option<Generation> {
    let row = record.row;
    let (icol, i) = text(ctx, record, input, anomalies)?;
    let mut refs = Vec::new();
    for c in references {
        match record.fields.get(c) {
            Some(Value::Array(_)) => match string_list(&record.fields[c]) {
                Ok(l) => refs.extend(l),
                Err(e) => {
                    anomalies.push(ctx.anomaly(row, AnomalyKind::Malformed, Action::SkippedRow, c, e));
                    return None;
                }
            },
            _ => refs.push(cell(ctx, record, c, anomalies)?),
        }
    }
    let refs: Vec<String> = refs.into_iter().map(|r| r.trim().to_string()).filter(|r| !r.is_empty()).collect();
    let mut named = BTreeMap::new();
    for (k, t) in fields {
        named.insert(k.clone(), text(ctx, record, t, anomalies)?.1);
    }
    if i.trim().is_empty() {
        anomalies.push(ctx.anomaly(
            row,
            AnomalyKind::EmptyText,
            Action::SkippedRow,
            &icol,
            "the input is empty; the row is skipped",
        ));
        return None;
    }
    if refs.is_empty() {
        anomalies.push(ctx.anomaly(
            row,
            AnomalyKind::EmptyText,
            Action::SkippedRow,
            &references.join(", "),
            "no reference answer; the row is skipped",
        ));
        return None;
    }
    Some(Generation { input: i.trim().to_string(), fields: named, references: refs })
}

/// `{'choices': [...], 'labels': [...]}` from an object or its text.
fn labelled_lists(v: &Value) -> std::result::Result<(Vec<String>, Vec<i64>), String> {
    let parsed;
    let v = match v {
        Value::String(s) => {
            parsed = super::pylit::parse(s).map_err(|e| e.to_string())?;
            &parsed
        }
        other => other,
    };
    let Value::Object(m) = v else {
        return Err(format!("expected {{'choices': […], 'labels': […]}}, found {}", preview(&v.to_string(), 40)));
    };
    let choices = string_list(m.get("choices").ok_or("no `choices`")?)?;
    let labels = match m.get("labels") {
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| x.as_i64().or_else(|| x.as_bool().map(i64::from)).ok_or("a label is not a number"))
            .collect::<std::result::Result<Vec<_>, _>>()?,
        _ => return Err("no `labels` list".into()),
    };
    if choices.len() != labels.len() {
        return Err(format!("{} choices but {} labels", choices.len(), labels.len()));
    }
    Ok((choices, labels))
}

fn row_labelled_targets(
    ctx: &Ctx,
    record: &Record,
    question: &Text,
    targets: &[LabelledColumn],
    anomalies: &mut Vec<Anomaly>,
) -> Vec<(String, MultipleChoice)> {
    let row = record.row;
    let Some((qcol, q)) = text(ctx, record, question, anomalies) else {
        return Vec::new();
    };
    if q.trim().is_empty() {
        anomalies.push(ctx.anomaly(
            row,
            AnomalyKind::EmptyText,
            Action::SkippedRow,
            &qcol,
            "the question is empty; the row is skipped",
        ));
        return Vec::new();
    }
    let mut out = Vec::new();
    for LabelledColumn { name: sub, column, single_true } in targets {
        let column = column.as_str();
        let Some(v) = record.fields.get(column) else {
            anomalies.push(ctx.anomaly(
                row,
                AnomalyKind::MissingColumn,
                Action::SkippedItem,
                column,
                format!("the record has no such field; no {sub} item"),
            ));
            continue;
        };
        let (choices, labels) = match labelled_lists(v) {
            Ok(t) => t,
            Err(e) => {
                anomalies.push(ctx.anomaly(
                    row,
                    AnomalyKind::Malformed,
                    Action::SkippedItem,
                    column,
                    format!("{e}; no {sub} item"),
                ));
                continue;
            }
        };
        let correct: Vec<usize> = labels.iter().enumerate().filter(|(_, &l)| l == 1).map(|(i, _)| i).collect();
        if choices.len() < 2 || correct.is_empty() || (*single_true && correct.len() != 1) {
            anomalies.push(ctx.anomaly(
                row,
                AnomalyKind::BadGold,
                Action::SkippedItem,
                column,
                format!(
                    "{} choices with {} labelled true; {sub} needs at least 2 choices and {}",
                    choices.len(),
                    correct.len(),
                    if *single_true { "exactly one true" } else { "one or more true" }
                ),
            ));
            continue;
        }
        let gold = correct[0];
        out.push((
            sub.clone(),
            MultipleChoice {
                passage: None,
                question: q.trim().to_string(),
                choices: choices.into_iter().map(|c| c.trim().to_string()).collect(),
                gold,
                correct: if *single_true { Vec::new() } else { correct },
                rationale: None,
            },
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(mapping: &str) -> TableOptions {
        TableOptions { mapping: builtin(mapping), ..TableOptions::default() }
    }

    #[test]
    fn every_builtin_exists_checks_and_round_trips_through_json() {
        assert_eq!(builtin_names().len(), 11, "datasets/mappings/builtin.json did not parse whole");
        for name in builtin_names() {
            let m = builtin(name).unwrap_or_else(|| panic!("{name}"));
            m.check().unwrap();
            let json = serde_json::to_string(&m).unwrap();
            let back = Mapping::from_json(&json).unwrap();
            assert_eq!(back, m, "{json}");
        }
        assert!(builtin("nope").is_none());
    }

    /// Each built-in mapping is the one detected for a table of exactly the columns it needs
    /// (an earlier, more specific rule does not take it), and every one has a rule.
    #[test]
    fn each_builtin_is_detected_from_its_own_columns() {
        for name in builtin_names() {
            let m = builtin(name).unwrap();
            assert!(m.detect.is_some(), "{name}: no detect rule");
            let columns: Vec<String> =
                m.required_columns().iter().map(|c| c.split('|').next().unwrap().to_string()).collect();
            assert_eq!(detect_mapping(&columns).map(|d| d.name), Some(name.to_string()), "{name}: {columns:?}");
        }
        assert!(detect_mapping(&["question".into(), "answer".into()]).is_none());
    }

    #[test]
    fn user_mapping_from_json() {
        let m = Mapping::from_json(
            r#"{"name": "my-mcq", "language": "am", "type": "multiple_choice", "question": "q",
                "choices": {"columns": ["o1", "o2", "o3"]}, "gold": {"index": {"column": "label", "base": 1}}}"#,
        )
        .unwrap();
        let csv = "q,o1,o2,o3,label\nሰላም?,x,y,z,3\n";
        let out = load_table("mine.csv", csv.as_bytes(), &TableOptions { mapping: Some(m), ..TableOptions::default() });
        assert!(out.anomalies.is_empty(), "{:?}", out.anomalies);
        assert_eq!(out.items[0].id, "my-mcq/mine/1");
        assert_eq!(out.items[0].language, "am");
        assert_eq!(out.items[0].as_multiple_choice().unwrap().gold, 2);
        assert!(Mapping::from_json(r#"{"name": "x", "type": "multiple_choice"}"#).is_err());
        assert!(Mapping::from_json(r#"{"name": "", "type": "generation", "input": "a", "references": ["b"]}"#).is_err());
    }

    #[test]
    fn detects_builtin_mappings() {
        let cols = |c: &[&str]| c.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            detect_mapping(&cols(&["Proverb", "A", "B", "C", "D", "Answer_Letter"])).unwrap().name,
            "proverbeval-choice"
        );
        assert_eq!(
            detect_mapping(&cols(&["Proverb", "A", "B", "C", "D", "Answer"])).unwrap().name,
            "proverbeval-fill-blank"
        );
        assert_eq!(detect_mapping(&cols(&["Description", "Proverb"])).unwrap().name, "proverbeval-generation");
        assert_eq!(
            detect_mapping(&cols(&["translate", "A", "B", "C", "D", "Answer_Letter", "Proverb"])).unwrap().name,
            "proverbeval-translate-test"
        );
        assert_eq!(detect_mapping(&cols(&["Суроо (KG)", "А (KG)", "Туура жооп"])).unwrap().name, "kyrgyz-mmlu");
        assert_eq!(
            detect_mapping(&cols(&["Proverb", "A", "B"])).unwrap().name,
            "proverbeval-choice",
            "gold column missing: still named"
        );
        assert_eq!(detect_mapping(&cols(&["Текст (KG)", "Суроо (KG)", "Туура жооп"])).unwrap().name, "kyrgyz-rc");
        assert_eq!(detect_mapping(&cols(&["question_kg", "answer_kg"])).unwrap().name, "gsm8k-kg");
        assert_eq!(detect_mapping(&cols(&["passage_kg", "question_kg", "answer_kg"])).unwrap().name, "boolq-kg");
        assert!(detect_mapping(&cols(&["x", "y"])).is_none());
    }

    #[test]
    fn language_from_file_names() {
        assert_eq!(language_from_name("amh/amh_english_test_1.csv"), Some("am"));
        assert_eq!(language_from_name("geez/gez_fill_1.csv"), Some("gez"));
        assert_eq!(language_from_name("data/orm_meaining_generation_native.csv"), Some("om"));
        assert_eq!(language_from_name("x/test.parquet"), None);
    }

    #[test]
    fn templates_and_first_of() {
        let rows = r#"[{"activity_label_kg": "Ашкана", "ctx_a_kg": "Ал идиш жууйт.", "ctx_b_kg": "АНДАН кийин", "endings_kg": "['бир', 'эки', 'үч', 'төрт', 'беш']", "label": "2"}]"#;
        let out = load_table("hs.json", rows.as_bytes(), &opts("hellaswag-kg"));
        let mc = out.items[0].as_multiple_choice().unwrap();
        assert_eq!(mc.question, "Ашкана: Ал идиш жууйт. Андан кийин");
        assert_eq!(mc.choices, ["бир", "эки", "үч", "төрт"]);
        assert_eq!(mc.gold, 2);
        assert_eq!(out.items[0].metadata["activity_label"], "Ашкана");
        assert_eq!(out.anomalies.len(), 1);
        assert_eq!(out.anomalies[0].kind, AnomalyKind::ExtraOptions);
    }

    #[test]
    fn gold_letter_rules() {
        let csv = "Proverb,A,B,C,D,Answer_Letter\np1,a,b,c,d,b\np2,a,b,c,d,E\np3,a,b,c,d,\np4,a,,c,d,D\np5,a,,c,d,B\n";
        let out = load_table("amh_native_test_1.csv", csv.as_bytes(), &opts("proverbeval-choice"));
        let seen: Vec<String> =
            out.anomalies.iter().map(|a| format!("{}:{:?}:{}", a.row.unwrap(), a.kind, a.action.as_str())).collect();
        assert_eq!(
            seen,
            [
                "1:GoldCase:repaired",
                "2:BadGold:skipped_row",
                "3:MissingGold:skipped_row",
                "4:EmptyOption:dropped_option",
                "5:EmptyOption:skipped_row"
            ]
        );
        assert_eq!(out.items.len(), 2);
        assert_eq!(out.items[1].as_multiple_choice().unwrap().choices, ["a", "c", "d"]);
        assert_eq!(out.items[1].as_multiple_choice().unwrap().gold, 2);
        assert_eq!(out.items[0].language, "am");
    }

    #[test]
    fn an_id_keeps_no_shard_count() {
        assert_eq!(shard_stem("test-00000-of-00001"), "test");
        assert_eq!(shard_stem("test-00001-of-00003"), "test-00001");
        assert_eq!(shard_stem("amh_english_test_1"), "amh_english_test_1");
        assert_eq!(shard_stem("x-1-of-00001"), "x-1-of-00001");
    }

    #[test]
    fn kyrgyz_letters_any_case_and_latin_a() {
        let csv = "Суроо (KG),А (KG),Б (KG),В (KG),Г (KG),Д (KG),Туура жооп\nс1,x,y,,,,Б\nс2,x,y,z,,,a\nс3,x,y,z,w,v,д\nс4,x,y,,,,в\n";
        let out = load_table("kyrgyz_mmlu_math/test.csv", csv.as_bytes(), &opts("kyrgyz-mmlu"));
        let golds: Vec<(usize, usize)> =
            out.items.iter().map(|i| (i.source.row, i.as_multiple_choice().unwrap().gold)).collect();
        assert_eq!(golds, [(1, 1), (2, 0), (3, 4)]);
        assert_eq!(out.items[0].as_multiple_choice().unwrap().choices.len(), 2);
        let seen: Vec<String> = out.anomalies.iter().map(|a| format!("{}:{:?}", a.row.unwrap(), a.kind)).collect();
        assert_eq!(seen, ["2:GoldCase", "4:EmptyOption"]);
        assert_eq!(out.items[0].language, "ky");
    }

    #[test]
    fn missing_column_skips_the_file_once() {
        let csv = "Proverb,A,B,C,D\np,a,b,c,d\n";
        let out = load_table("x.csv", csv.as_bytes(), &opts("proverbeval-choice"));
        assert!(out.items.is_empty());
        assert_eq!(out.anomalies.len(), 1);
        assert_eq!(out.anomalies[0].kind, AnomalyKind::MissingColumn);
        assert!(out.anomalies[0].reason.contains("`Answer_Letter`"), "{}", out.anomalies[0].reason);
    }

    #[test]
    fn truthfulqa_two_items_per_row() {
        let rows = r#"{"Question_kg": "Суроо?", "mc1_targets_kg": "{'choices': ['туура', 'жаңылыш', 'башка'], 'labels': [1, 0, 0]}", "mc2_targets_kg": {"choices": ["туура", "дагы туура", "жаңылыш"], "labels": [1, 1, 0]}}
{"Question_kg": "Суроо 2?", "mc1_targets_kg": "{'choices': ['a', 'b'], 'labels': [1, 1]}", "mc2_targets_kg": "not a dict"}
"#;
        let out = load_table("tqa.jsonl", rows.as_bytes(), &opts("truthfulqa-mc-kg"));
        let ids: Vec<&str> = out.items.iter().map(|i| i.id.as_str()).collect();
        assert_eq!(ids, ["truthfulqa-mc-kg/tqa/1/mc1", "truthfulqa-mc-kg/tqa/1/mc2"]);
        let mc2 = out.items[1].as_multiple_choice().unwrap();
        assert_eq!((mc2.gold, mc2.correct.clone()), (0, vec![0, 1]));
        assert_eq!(out.items[1].metadata["subtask"], "mc2");
        let seen: Vec<String> = out
            .anomalies
            .iter()
            .map(|a| format!("{}:{:?}:{}", a.row.unwrap(), a.kind, a.column.clone().unwrap()))
            .collect();
        assert_eq!(seen, ["2:BadGold:mc1_targets_kg", "2:Malformed:mc2_targets_kg"]);
    }

    #[test]
    fn labelled_targets_are_data_for_any_set_of_that_shape() {
        // lm-eval's own TruthfulQA columns, as a user's mapping: one item per row, several true.
        let mapping = Mapping::from_json(
            r#"{"name": "tqa-en", "type": "labelled_targets", "question": "question",
                "targets": [{"name": "mc2", "column": "mc2_targets"}]}"#,
        )
        .unwrap();
        let rows = r#"{"question": "Q?", "mc2_targets": {"choices": ["x", "y", "z"], "labels": [0, 1, 1]}}
"#;
        let options = TableOptions { mapping: Some(mapping), ..Default::default() };
        let out = load_table("t.jsonl", rows.as_bytes(), &options);
        assert_eq!(out.items.len(), 1, "{:?}", out.anomalies);
        let mc = out.items[0].as_multiple_choice().unwrap();
        assert_eq!((mc.gold, mc.correct.clone()), (1, vec![1, 2]));
        assert_eq!(out.items[0].metadata["subtask"], "mc2");
        for bad in [
            r#"{"name": "m", "type": "labelled_targets", "question": "q", "targets": []}"#,
            r#"{"name": "m", "type": "labelled_targets", "question": "q", "targets": [{"name": "a", "column": "x"}, {"name": "a", "column": "y"}]}"#,
            r#"{"name": "m", "type": "labelled_targets", "question": "q", "targets": [{"name": "a/b", "column": "x"}]}"#,
        ] {
            assert!(Mapping::from_json(bad).unwrap_err().to_string().contains("column mapping `m`"), "{bad}");
        }
    }
}
