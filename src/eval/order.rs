//! Choice-order variants of a multiple-choice task: the same items with their options in another
//! order, to measure how much a model's answer depends on where the right option stands.
//!
//! A variant is a permutation per item: `permutation[i]` is the original index of the option shown
//! at position `i` (so the gold moves to the position `j` where `permutation[j] == gold`).
//!
//! | `--order`    | variants per item | permutation                                               |
//! | ------------ | ----------------- | --------------------------------------------------------- |
//! | `given`      | 1                 | identity                                                  |
//! | `shuffle:N`  | N                 | `random.Random(seed).sample(range(n), n)`, drawn item by item, N per item, in document order |
//! | `gold-first` | 1                 | gold first, the others in their given order               |
//! | `gold-last`  | 1                 | gold last, the others in their given order                |
//! | `rotations`  | n                 | rotation r shows option `(i + r) mod n` at position i     |
//!
//! Shuffles are Python's `random.Random(seed)` ([`PyRandom`]), so a run is reproducible here and in
//! Python, and `--limit` keeps the permutations of the items it keeps.
//!
//! Where the permutation is applied ([`DocOptions`]): a document that holds its options in a known
//! shape is permuted **before** rendering, so a prompt that lists the options (`A. … B. …`) lists
//! them in the new order and the scored letters or texts follow:
//! - a `choices` list and an integer `answer` (every lingualens item, e.g. DZEN and KyrgyzMMLU), its
//!   parallel `choices_<lang>` lists permuted the same way;
//! - text columns `A`, `B`, … and a letter column (`Answer_Letter`, `Answer` or `answer`) naming the
//!   gold (ProverbEval's meaning and fill-in-the-blank CSVs): the columns' texts move and the letter
//!   follows the gold. Permuting only the scored texts would leave the prompt's list as it was and
//!   each option's score unchanged, so no answer could ever flip.
//!
//! Any other document is permuted **after** rendering: the scored continuations and the gold index
//! move, the prompt stays as rendered — right for tasks whose prompt does not list the options
//! (cloze-style scoring of the option texts); the CLI warns when the prompt seems to list them.

use serde_json::Value as Json;

use crate::error::{Error, Result};
use crate::pyrandom::PyRandom;
use crate::tasks::yaml::render::{MultipleInput, Rendered, Request, Target};

/// How the options of each item are ordered in a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChoiceOrder {
    #[default]
    Given,
    Shuffle(usize),
    GoldFirst,
    GoldLast,
    Rotations,
}

impl std::str::FromStr for ChoiceOrder {
    type Err = Error;
    fn from_str(s: &str) -> Result<ChoiceOrder> {
        Ok(match s {
            "given" => ChoiceOrder::Given,
            "gold-first" => ChoiceOrder::GoldFirst,
            "gold-last" => ChoiceOrder::GoldLast,
            "rotations" => ChoiceOrder::Rotations,
            _ => match s.strip_prefix("shuffle:").map(str::parse::<usize>) {
                Some(Ok(n)) if n > 0 => ChoiceOrder::Shuffle(n),
                _ => {
                    return Err(Error::new(format!(
                    "unknown choice order {s:?}: expected given, shuffle:N (N ≥ 1), gold-first, gold-last or rotations"
                )))
                }
            },
        })
    }
}

impl std::fmt::Display for ChoiceOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChoiceOrder::Given => f.write_str("given"),
            ChoiceOrder::Shuffle(n) => write!(f, "shuffle:{n}"),
            ChoiceOrder::GoldFirst => f.write_str("gold-first"),
            ChoiceOrder::GoldLast => f.write_str("gold-last"),
            ChoiceOrder::Rotations => f.write_str("rotations"),
        }
    }
}

impl ChoiceOrder {
    /// The permutations for one item of `n` options whose gold is `gold`; shuffles draw from `rng`.
    pub fn permutations(self, n: usize, gold: usize, rng: &mut PyRandom) -> Vec<Vec<usize>> {
        let others = || (0..n).filter(move |&i| i != gold);
        match self {
            ChoiceOrder::Given => vec![(0..n).collect()],
            ChoiceOrder::Shuffle(k) => (0..k).map(|_| rng.sample(n, n)).collect(),
            ChoiceOrder::GoldFirst => vec![std::iter::once(gold).chain(others()).collect()],
            ChoiceOrder::GoldLast => vec![others().chain(std::iter::once(gold)).collect()],
            ChoiceOrder::Rotations => (0..n).map(|r| (0..n).map(|i| (i + r) % n).collect()).collect(),
        }
    }
}

/// Where the gold ends up under `permutation`.
pub fn permuted_gold(permutation: &[usize], gold: usize) -> Option<usize> {
    permutation.iter().position(|&i| i == gold)
}

fn permute<T: Clone>(values: &[T], permutation: &[usize]) -> Option<Vec<T>> {
    permutation.iter().map(|&i| values.get(i).cloned()).collect()
}

/// How a document holds its options, when it is in a shape that can be permuted before rendering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocOptions {
    /// A lingualens item: `choices` and an integer `answer`.
    Item,
    /// Text columns `A`, `B`, … (one per option) and the named column holding the gold's letter.
    Letters { answer: &'static str },
}

/// The columns that may name the gold's letter in a [`DocOptions::Letters`] document.
const ANSWER_LETTER_COLUMNS: [&str; 3] = ["Answer_Letter", "Answer", "answer"];

fn column_letter(i: usize) -> String {
    char::from(b'A' + i as u8).to_string()
}

impl DocOptions {
    /// How `doc`, rendered to `n` options with the gold at `gold`, holds its options: an item, or
    /// letter columns for the `n` options whose answer column names the
    /// rendered gold; `None` for anything else (then only the rendered request can be permuted).
    pub fn of(doc: &Json, n: usize, gold: usize) -> Option<DocOptions> {
        if item_doc_choices(doc).is_some() {
            return Some(DocOptions::Item);
        }
        if n == 0 || n > 26 || gold >= n {
            return None;
        }
        let m = doc.as_object()?;
        if !(0..n).all(|i| m.get(&column_letter(i)).is_some_and(Json::is_string)) {
            return None;
        }
        let gold_letter = column_letter(gold);
        ANSWER_LETTER_COLUMNS
            .into_iter()
            .find(|k| m.get(*k).and_then(Json::as_str) == Some(gold_letter.as_str()))
            .map(|answer| DocOptions::Letters { answer })
    }

    /// `doc` with its options in the order of `permutation` (`permutation[i]`: the original option
    /// shown at position `i`) and its gold moved with them.
    pub fn permute(self, doc: &Json, permutation: &[usize]) -> Result<Json> {
        match self {
            DocOptions::Item => permute_doc(doc, permutation),
            DocOptions::Letters { answer } => permute_letter_doc(doc, answer, permutation),
        }
    }
}

fn permute_letter_doc(doc: &Json, answer: &str, permutation: &[usize]) -> Result<Json> {
    let Json::Object(m) = doc else { return Err(Error::new("a document with letter columns must be an object")) };
    let letter_index = |s: &str| (0..permutation.len()).find(|&i| column_letter(i) == s);
    let gold = m.get(answer).and_then(Json::as_str).and_then(letter_index).ok_or_else(|| {
        Error::new(format!("`{answer}` does not name one of the {} option columns", permutation.len()))
    })?;
    let texts: Vec<Json> =
        (0..permutation.len()).map(|i| m.get(&column_letter(i)).cloned().unwrap_or(Json::Null)).collect();
    let moved = permute(&texts, permutation)
        .ok_or_else(|| Error::new(format!("a permutation {permutation:?} of {} option columns", permutation.len())))?;
    let mut out = m.clone();
    for (i, text) in moved.into_iter().enumerate() {
        out.insert(column_letter(i), text);
    }
    let new_gold = permuted_gold(permutation, gold).unwrap_or(gold);
    out.insert(answer.to_string(), Json::from(column_letter(new_gold)));
    Ok(Json::Object(out))
}

/// The `(choices, answer)` of a lingualens item document, if it is one.
pub fn item_doc_choices(doc: &Json) -> Option<(&Vec<Json>, usize)> {
    let choices = doc.get("choices")?.as_array()?;
    let answer = doc.get("answer")?.as_u64()? as usize;
    (answer < choices.len()).then_some((choices, answer))
}

/// A lingualens item document with its options (and parallel `choices_<lang>` lists of the same
/// length) in the order of `permutation`, and `answer` moved with them.
pub fn permute_doc(doc: &Json, permutation: &[usize]) -> Result<Json> {
    let (choices, answer) = item_doc_choices(doc).ok_or_else(|| {
        Error::new("a document without `choices` and an integer `answer` cannot be permuted before rendering")
    })?;
    if permutation.len() != choices.len() {
        return Err(Error::new(format!(
            "a permutation of {} options for {} choices",
            permutation.len(),
            choices.len()
        )));
    }
    let mut out = doc.clone();
    let Json::Object(m) = &mut out else { unreachable!("item_doc_choices checked it is an object") };
    let keys: Vec<String> =
        m.keys().filter(|k| k.as_str() == "choices" || k.starts_with("choices_")).cloned().collect();
    for k in keys {
        if let Some(Json::Array(list)) = m.get(&k) {
            if let Some(p) = (list.len() == permutation.len()).then(|| permute(list, permutation)).flatten() {
                m.insert(k, Json::Array(p));
            }
        }
    }
    m.insert("answer".into(), Json::from(permuted_gold(permutation, answer).unwrap_or(answer)));
    Ok(out)
}

/// A rendered multiple-choice request with its choices, continuations and gold in the order of
/// `permutation` (the context is left as it is).
pub fn permute_rendered(rendered: &Rendered, permutation: &[usize]) -> Result<Rendered> {
    let Request::MultipleChoice { continuations, multiple_input } = &rendered.request else {
        return Err(Error::new("only multiple-choice requests have options to reorder"));
    };
    let gold = rendered.gold_index()?;
    let bad =
        || Error::new(format!("a permutation of {} options for {} choices", permutation.len(), continuations.len()));
    if permutation.len() != continuations.len() {
        return Err(bad());
    }
    let choices = match &rendered.choices {
        Some(c) => Some(permute(c, permutation).ok_or_else(bad)?),
        None => None,
    };
    Ok(Rendered {
        context: rendered.context.clone(),
        choices,
        target: Target::Index(permuted_gold(permutation, gold).ok_or_else(bad)?),
        request: Request::MultipleChoice {
            continuations: permute(continuations, permutation).ok_or_else(bad)?,
            multiple_input: match multiple_input {
                Some(m) => Some(MultipleInput {
                    contexts: permute(&m.contexts, permutation).ok_or_else(bad)?,
                    target: m.target.clone(),
                }),
                None => None,
            },
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn is_permutation(p: &[usize], n: usize) -> bool {
        let mut seen = vec![false; n];
        p.len() == n && p.iter().all(|&i| i < n && !std::mem::replace(&mut seen[i], true))
    }

    #[test]
    fn parse_and_print() {
        for s in ["given", "shuffle:3", "gold-first", "gold-last", "rotations"] {
            assert_eq!(s.parse::<ChoiceOrder>().unwrap().to_string(), s);
        }
        assert!("shuffle:0".parse::<ChoiceOrder>().is_err());
        assert!("shuffle".parse::<ChoiceOrder>().is_err());
        assert!("random".parse::<ChoiceOrder>().is_err());
    }

    #[test]
    fn gold_first_and_last_put_gold_there_for_every_item() {
        let mut rng = PyRandom::new(0);
        for n in 2..6 {
            for gold in 0..n {
                let first = &ChoiceOrder::GoldFirst.permutations(n, gold, &mut rng)[0];
                assert!(is_permutation(first, n));
                assert_eq!(permuted_gold(first, gold), Some(0), "n={n} gold={gold}");
                let last = &ChoiceOrder::GoldLast.permutations(n, gold, &mut rng)[0];
                assert_eq!(permuted_gold(last, gold), Some(n - 1), "n={n} gold={gold}");
                // The other options keep their given order.
                let rest: Vec<usize> = first[1..].to_vec();
                assert!(rest.windows(2).all(|w| w[0] < w[1]), "{first:?}");
            }
        }
        assert_eq!(ChoiceOrder::GoldFirst.permutations(4, 2, &mut rng), [vec![2, 0, 1, 3]]);
        assert_eq!(ChoiceOrder::GoldLast.permutations(4, 2, &mut rng), [vec![0, 1, 3, 2]]);
    }

    #[test]
    fn rotations_put_every_option_at_every_position_once() {
        let mut rng = PyRandom::new(0);
        for n in 2..6 {
            let rots = ChoiceOrder::Rotations.permutations(n, 0, &mut rng);
            assert_eq!(rots.len(), n);
            for option in 0..n {
                let mut positions: Vec<usize> = rots.iter().map(|p| permuted_gold(p, option).unwrap()).collect();
                positions.sort();
                assert_eq!(positions, (0..n).collect::<Vec<_>>(), "option {option} of {n}");
            }
            assert_eq!(rots[0], (0..n).collect::<Vec<_>>(), "rotation 0 is the given order");
        }
    }

    #[test]
    fn shuffles_are_seeded_reproducible_and_differ_across_seeds() {
        let draw = |seed: u64| {
            let mut rng = PyRandom::new(seed);
            (0..20).flat_map(|_| ChoiceOrder::Shuffle(3).permutations(4, 1, &mut rng)).collect::<Vec<_>>()
        };
        let a = draw(1234);
        assert_eq!(a, draw(1234));
        assert_ne!(a, draw(1235));
        assert!(a.iter().all(|p| is_permutation(p, 4)));
        // Not all the same permutation, and not always the identity.
        assert!(a.iter().any(|p| p != &a[0]));
        // python3 -c "import random; print(random.Random(1234).sample(range(4), 4))"
        assert_eq!(a[0], [3, 0, 2, 1]);
    }

    #[test]
    fn documents_move_their_options_and_answer() {
        let doc = json!({"question": "q", "choices": ["a", "b", "c"], "choices_en": ["A", "B", "C"], "answer": 1, "choices_x": ["only two", "x"]});
        let p = permute_doc(&doc, &[1, 2, 0]).unwrap();
        assert_eq!(p["choices"], json!(["b", "c", "a"]));
        assert_eq!(p["choices_en"], json!(["B", "C", "A"]));
        assert_eq!(p["choices_x"], json!(["only two", "x"]), "a list of another length is not an option list");
        assert_eq!(p["answer"], json!(0));
        assert!(permute_doc(&json!({"choices": ["a"], "label": 0}), &[0]).is_err());
        assert!(permute_doc(&doc, &[0, 1]).is_err());
    }

    #[test]
    fn rendered_requests_move_their_continuations_and_gold() {
        let r = Rendered {
            context: "Q:".into(),
            choices: Some(vec!["a".into(), "b".into(), "c".into()]),
            target: Target::Text("c".into()),
            request: Request::MultipleChoice {
                continuations: vec![" a".into(), " b".into(), " c".into()],
                multiple_input: None,
            },
        };
        let p = permute_rendered(&r, &[2, 0, 1]).unwrap();
        assert_eq!(p.gold(), Some(0));
        assert_eq!(
            p.request,
            Request::MultipleChoice {
                continuations: vec![" c".into(), " a".into(), " b".into()],
                multiple_input: None
            }
        );
        assert_eq!(p.choices.unwrap(), ["c", "a", "b"]);
        assert!(permute_rendered(&r, &[0, 1]).is_err());
    }
}
