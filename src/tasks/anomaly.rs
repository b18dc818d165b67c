//! What a loader found wrong in its input, and what it did about it. Loaders never stop at a bad
//! row: they record an [`Anomaly`] naming the file, the 1-based data row (header excluded) and
//! the reason, and go on with the rest.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::item::Item;

/// One problem in the input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Anomaly {
    /// The file as the caller named it; for a JSON file with splits, `name[split]`.
    pub file: String,
    /// 1-based data row, header excluded; `None` when the problem concerns the whole file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row: Option<usize>,
    /// The column (or field) at fault, where there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<String>,
    /// The language of the item concerned, where a row yields items in several languages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    pub kind: AnomalyKind,
    pub action: Action,
    /// What is wrong, in words, for the person who supplied the file.
    pub reason: String,
}

/// The kind of problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnomalyKind {
    /// The file could not be read, or its format or columns were not recognised.
    UnreadableFile,
    /// A column the mapping needs is not in the file (or not in this JSON record).
    MissingColumn,
    /// A CSV record with a different number of fields from the header.
    FieldCount,
    /// A record that could not be parsed (invalid UTF-8, bad JSON, not an object, bad literal).
    Malformed,
    /// The gold answer is absent (`*`, empty).
    MissingGold,
    /// The gold answer is not one of the allowed letters/indices/answers.
    BadGold,
    /// The gold letter was in the wrong case (or a Latin look-alike of a Cyrillic letter).
    GoldCase,
    /// An option cell is empty.
    EmptyOption,
    /// A cell holds a spreadsheet error value (`#NAME?`, `#ERROR!`) instead of its text.
    SpreadsheetError,
    /// Text whose characters were replaced by `?` in an encoding conversion.
    LostText,
    /// A required text (question, input, reference) is empty.
    EmptyText,
    /// Fewer than two usable options remain.
    TooFewOptions,
    /// Two or more options of one item have the same text.
    IdenticalOptions,
    /// Text in a script that does not belong to the item's language (Bengali in DZEN).
    ForeignScript,
    /// A Dzongkha field identical to its English counterpart.
    Untranslated,
    /// A row identical to an earlier row.
    DuplicateRow,
    /// A question text that an earlier row already has (with different options or answer).
    RepeatedQuestion,
    /// Values shifted into the wrong columns.
    ShiftedColumns,
    /// A chain-of-thought exemplar whose final answer is missing or differs from the gold.
    RationaleAnswer,
    /// A cloze sentence without exactly one blank.
    BadBlank,
    /// More options than the task uses; the extra ones were cut.
    ExtraOptions,
    /// The item's language could not be told from the mapping or the file name.
    UnknownLanguage,
    /// An item that failed the item invariants (should not happen; reported rather than panicking).
    InvalidItem,
}

/// What the loader did about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Loaded as is; the anomaly is a warning.
    Kept,
    /// Corrected, then loaded.
    Repaired,
    /// The option was left out of the item; the gold index was renumbered.
    DroppedOption,
    /// This one item (one language of the row) was not loaded.
    SkippedItem,
    /// Nothing from this row was loaded.
    SkippedRow,
    /// Nothing from this file was loaded.
    SkippedFile,
}

impl AnomalyKind {
    pub fn as_str(self) -> &'static str {
        match self {
            AnomalyKind::UnreadableFile => "unreadable_file",
            AnomalyKind::MissingColumn => "missing_column",
            AnomalyKind::FieldCount => "field_count",
            AnomalyKind::Malformed => "malformed",
            AnomalyKind::MissingGold => "missing_gold",
            AnomalyKind::BadGold => "bad_gold",
            AnomalyKind::GoldCase => "gold_case",
            AnomalyKind::EmptyOption => "empty_option",
            AnomalyKind::SpreadsheetError => "spreadsheet_error",
            AnomalyKind::LostText => "lost_text",
            AnomalyKind::EmptyText => "empty_text",
            AnomalyKind::TooFewOptions => "too_few_options",
            AnomalyKind::IdenticalOptions => "identical_options",
            AnomalyKind::ForeignScript => "foreign_script",
            AnomalyKind::Untranslated => "untranslated",
            AnomalyKind::DuplicateRow => "duplicate_row",
            AnomalyKind::RepeatedQuestion => "repeated_question",
            AnomalyKind::ShiftedColumns => "shifted_columns",
            AnomalyKind::RationaleAnswer => "rationale_answer",
            AnomalyKind::BadBlank => "bad_blank",
            AnomalyKind::ExtraOptions => "extra_options",
            AnomalyKind::UnknownLanguage => "unknown_language",
            AnomalyKind::InvalidItem => "invalid_item",
        }
    }
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Kept => "kept",
            Action::Repaired => "repaired",
            Action::DroppedOption => "dropped_option",
            Action::SkippedItem => "skipped_item",
            Action::SkippedRow => "skipped_row",
            Action::SkippedFile => "skipped_file",
        }
    }
}

impl Anomaly {
    pub fn new(
        file: impl Into<String>,
        row: Option<usize>,
        kind: AnomalyKind,
        action: Action,
        reason: impl Into<String>,
    ) -> Self {
        Anomaly { file: file.into(), row, column: None, language: None, kind, action, reason: reason.into() }
    }

    pub fn column(mut self, column: impl Into<String>) -> Self {
        self.column = Some(column.into());
        self
    }

    pub fn language(mut self, language: impl Into<String>) -> Self {
        self.language = Some(language.into());
        self
    }

    /// `file:row` (or just `file` for a whole-file problem).
    pub fn location(&self) -> String {
        match self.row {
            Some(row) => format!("{}:{row}", self.file),
            None => self.file.clone(),
        }
    }
}

impl fmt::Display for Anomaly {
    /// `10th-Physics.csv:28: [dz] column Correct Answer: … (repaired)`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.location())?;
        if let Some(language) = &self.language {
            write!(f, "[{language}] ")?;
        }
        if let Some(column) = &self.column {
            write!(f, "column {column}: ")?;
        }
        write!(f, "{} ({}, {})", self.reason, self.kind.as_str(), self.action.as_str())
    }
}

/// Puts anomalies in input order: files in the order of `files` (files not listed follow, in the
/// order they first appear), then by row (whole-file anomalies first); anomalies of one row keep
/// the order they were found in.
pub fn sort_anomalies(anomalies: &mut [Anomaly], files: &[&str]) {
    let mut order: std::collections::HashMap<String, usize> =
        files.iter().enumerate().map(|(i, f)| (f.to_string(), i)).collect();
    for a in anomalies.iter() {
        let next = order.len();
        order.entry(a.file.clone()).or_insert(next);
    }
    anomalies.sort_by_key(|a| (order[a.file.as_str()], a.row.unwrap_or(0)));
}

/// What a loader returns: the items it could build and everything it found wrong.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Loaded {
    pub items: Vec<Item>,
    pub anomalies: Vec<Anomaly>,
    /// Data rows read (header excluded), including the rows that yielded nothing.
    pub rows: usize,
}

impl Loaded {
    pub fn extend(&mut self, other: Loaded) {
        self.items.extend(other.items);
        self.anomalies.extend(other.anomalies);
        self.rows += other.rows;
    }

    /// The anomalies of one kind, in input order.
    pub fn anomalies_of(&self, kind: AnomalyKind) -> impl Iterator<Item = &Anomaly> {
        self.anomalies.iter().filter(move |a| a.kind == kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_file_row_column_and_action() {
        let a = Anomaly::new(
            "8th-Science.csv",
            Some(28),
            AnomalyKind::MissingGold,
            Action::SkippedRow,
            "no gold answer (`*`)",
        )
        .column("Correct Answer");
        assert_eq!(
            a.to_string(),
            "8th-Science.csv:28: column Correct Answer: no gold answer (`*`) (missing_gold, skipped_row)"
        );
        let json = serde_json::to_value(&a).unwrap();
        assert_eq!(json["kind"], "missing_gold");
        assert_eq!(json["action"], "skipped_row");
        assert_eq!(json["row"], 28);
        assert!(json.get("language").is_none());
        let whole = Anomaly::new("x.csv", None, AnomalyKind::UnreadableFile, Action::SkippedFile, "empty file");
        assert_eq!(whole.location(), "x.csv");
    }

    #[test]
    fn kind_names_match_serde() {
        for kind in [AnomalyKind::RationaleAnswer, AnomalyKind::LostText, AnomalyKind::GoldCase] {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
        }
        for action in [Action::DroppedOption, Action::SkippedFile] {
            assert_eq!(serde_json::to_value(action).unwrap(), action.as_str());
        }
    }
}
