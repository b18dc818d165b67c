//! The one representation every benchmark is loaded into: an [`Item`] with an id, a language, a
//! metadata map, an optional link to the same item in another language, where it came from, and a
//! body that is a multiple-choice question, a cloze sentence, or a generation prompt.
//!
//! Items are plain data (serde) so that the worker can post them to the page unchanged. Prompt
//! wording (instructions, "A." labels, leading spaces before continuations) is not stored here: it
//! belongs to the task definition that renders the item.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::Result;

/// One benchmark item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// Stable, unique within a dataset: `dzen/10th-Biology/28/en`, `kyrgyz-mmlu/kyrgyz_mmlu_math/test/12`.
    pub id: String,
    /// BCP-47 language tag of the item's text: `en`, `dz`, `am`, `om`, `ti`, `gez`, `ky`;
    /// `und` where the loader could not tell.
    pub language: String,
    /// Descriptive fields for grouping results: `grade`, `subject`, `part`, `category`,
    /// `source_type`, `split`, … Absent keys mean "not known", never an empty string.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metadata: BTreeMap<String, String>,
    /// Id of the same item in another language (DZEN: the `en` item links to the `dz` one and back).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parallel: Option<String>,
    /// File and 1-based data row (header excluded) the item was read from.
    pub source: SourceRef,
    pub body: ItemBody,
}

/// Where an item came from: `file` as the user named it, `row` counted from 1 after the header
/// (for JSON, the element's position in its array; for JSONL, the line number).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceRef {
    pub file: String,
    pub row: usize,
}

/// What kind of item this is, with its fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ItemBody {
    MultipleChoice(MultipleChoice),
    Cloze(Cloze),
    Generation(Generation),
}

/// A question with options, one of them correct (exam MCQ, MMLU, reading comprehension, BoolQ,
/// HellaSwag endings, TruthfulQA).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MultipleChoice {
    /// Reading-comprehension text the question is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passage: Option<String>,
    pub question: String,
    /// The option texts, in order; at least two. Loaders drop options whose text was lost
    /// (empty cells, spreadsheet error values) and renumber `gold` accordingly.
    pub choices: Vec<String>,
    /// Index into `choices` of the correct option.
    pub gold: usize,
    /// Every correct index, when more than one option is correct (TruthfulQA MC2); `gold` is the
    /// first of them. Empty when `gold` is the only correct option.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub correct: Vec<usize>,
    /// A worked (chain-of-thought) answer for use as a few-shot exemplar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rationale: Option<String>,
}

/// A sentence with one blank and options to fill it (WinoGrande).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cloze {
    /// The sentence, containing `blank` exactly once.
    pub sentence: String,
    /// The marker that stands for the blank, e.g. `_`.
    pub blank: String,
    pub options: Vec<String>,
    /// Index into `options` of the correct filler.
    pub gold: usize,
}

/// A prompt to be answered by generation, scored against references (ProverbEval Task 3, GSM8K).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Generation {
    /// The text the model responds to: the description, the math problem.
    pub input: String,
    /// Further named prompt fields a template may use.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fields: BTreeMap<String, String>,
    /// Acceptable outputs; at least one.
    pub references: Vec<String>,
}

impl Item {
    /// `multiple_choice`, `cloze` or `generation`, as serialised in `body.kind`.
    pub fn kind(&self) -> &'static str {
        match self.body {
            ItemBody::MultipleChoice(_) => "multiple_choice",
            ItemBody::Cloze(_) => "cloze",
            ItemBody::Generation(_) => "generation",
        }
    }

    pub fn as_multiple_choice(&self) -> Option<&MultipleChoice> {
        match &self.body {
            ItemBody::MultipleChoice(mc) => Some(mc),
            _ => None,
        }
    }

    pub fn as_cloze(&self) -> Option<&Cloze> {
        match &self.body {
            ItemBody::Cloze(c) => Some(c),
            _ => None,
        }
    }

    pub fn as_generation(&self) -> Option<&Generation> {
        match &self.body {
            ItemBody::Generation(g) => Some(g),
            _ => None,
        }
    }

    /// Checks the invariants the scorer relies on; loaders only emit items that pass. Useful for
    /// items that arrive from elsewhere (a page, a JSON file of items).
    pub fn validate(&self) -> Result<()> {
        let id = &self.id;
        if id.is_empty() {
            crate::bail!("item from {}:{} has an empty id", self.source.file, self.source.row);
        }
        if self.language.is_empty() {
            crate::bail!("item {id}: empty language tag");
        }
        match &self.body {
            ItemBody::MultipleChoice(mc) => {
                if mc.choices.len() < 2 {
                    crate::bail!("item {id}: {} choice(s); at least 2 are needed", mc.choices.len());
                }
                if mc.gold >= mc.choices.len() {
                    crate::bail!("item {id}: gold index {} but only {} choices", mc.gold, mc.choices.len());
                }
                if let Some(bad) = mc.correct.iter().find(|&&i| i >= mc.choices.len()) {
                    crate::bail!("item {id}: correct index {bad} but only {} choices", mc.choices.len());
                }
                if !mc.correct.is_empty() && !mc.correct.contains(&mc.gold) {
                    crate::bail!("item {id}: gold {} is not among the correct indices {:?}", mc.gold, mc.correct);
                }
            }
            ItemBody::Cloze(c) => {
                if c.options.len() < 2 {
                    crate::bail!("item {id}: {} option(s); at least 2 are needed", c.options.len());
                }
                if c.gold >= c.options.len() {
                    crate::bail!("item {id}: gold index {} but only {} options", c.gold, c.options.len());
                }
                if c.split().is_none() {
                    crate::bail!("item {id}: the sentence must contain the blank `{}` exactly once", c.blank);
                }
            }
            ItemBody::Generation(g) => {
                if g.references.is_empty() {
                    crate::bail!("item {id}: no reference answer");
                }
            }
        }
        Ok(())
    }
}

impl Cloze {
    /// The text before and after the blank, or `None` unless the blank occurs exactly once.
    pub fn split(&self) -> Option<(&str, &str)> {
        if self.blank.is_empty() {
            return None;
        }
        let mut parts = self.sentence.splitn(3, self.blank.as_str());
        let before = parts.next()?;
        let after = parts.next()?;
        if parts.next().is_some() {
            return None;
        }
        Some((before, after))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mc_item() -> Item {
        Item {
            id: "t/1".into(),
            language: "en".into(),
            metadata: BTreeMap::from([("subject".into(), "Biology".into())]),
            parallel: Some("t/1/dz".into()),
            source: SourceRef { file: "t.csv".into(), row: 1 },
            body: ItemBody::MultipleChoice(MultipleChoice {
                passage: None,
                question: "Which is a colour?".into(),
                choices: vec!["red".into(), "seven".into(), "north".into()],
                gold: 0,
                correct: vec![],
                rationale: None,
            }),
        }
    }

    #[test]
    fn serialises_with_a_kind_tag_and_round_trips() {
        let item = mc_item();
        let json = serde_json::to_value(&item).unwrap();
        assert_eq!(json["body"]["kind"], "multiple_choice");
        assert_eq!(json["body"]["gold"], 0);
        assert!(json["body"].get("passage").is_none(), "None fields are left out");
        assert!(json["body"].get("correct").is_none(), "empty `correct` is left out");
        assert_eq!(json["metadata"]["subject"], "Biology");
        let back: Item = serde_json::from_value(json).unwrap();
        assert_eq!(back, item);
        item.validate().unwrap();
    }

    #[test]
    fn validate_rejects_bad_gold_and_too_few_choices() {
        let mut item = mc_item();
        if let ItemBody::MultipleChoice(mc) = &mut item.body {
            mc.gold = 3;
        }
        assert!(item.validate().unwrap_err().message().contains("gold index 3"));
        if let ItemBody::MultipleChoice(mc) = &mut item.body {
            mc.gold = 0;
            mc.choices.truncate(1);
        }
        assert!(item.validate().unwrap_err().message().contains("at least 2"));
    }

    #[test]
    fn cloze_splits_at_a_single_blank_only() {
        let c = Cloze {
            sentence: "The cup fell because _ was slippery.".into(),
            blank: "_".into(),
            options: vec!["it".into(), "he".into()],
            gold: 0,
        };
        assert_eq!(c.split(), Some(("The cup fell because ", " was slippery.")));
        let two = Cloze { sentence: "_ and _".into(), ..c.clone() };
        assert_eq!(two.split(), None);
        let none = Cloze { sentence: "no blank".into(), ..c };
        assert_eq!(none.split(), None);
    }

    #[test]
    fn generation_and_cloze_round_trip() {
        let g = Item {
            body: ItemBody::Generation(Generation {
                input: "Describe".into(),
                fields: BTreeMap::new(),
                references: vec!["ref".into()],
            }),
            ..mc_item()
        };
        let json = serde_json::to_string(&g).unwrap();
        assert!(json.contains(r#""kind":"generation""#));
        assert_eq!(serde_json::from_str::<Item>(&json).unwrap(), g);
        assert_eq!(g.kind(), "generation");
        g.validate().unwrap();
    }
}
