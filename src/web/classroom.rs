//! Classroom mode's state (plain data, tested natively): one question of a run at a time, stepped
//! by the teacher through question → the class's answer → the model's probabilities → the gold
//! answer, and a running score of the class against the model over the questions revealed so far.
//!
//! The model's answers come from the run itself (`Run::rows`), which scores ahead at its own pace;
//! this only remembers what the class answered and how far the teacher has gone. The page draws it
//! (`web::page::classroom`).

use std::collections::{BTreeMap, BTreeSet};

use super::run::Run;

/// The steps of one question, in the order the teacher goes through them (`Ord`: a later step
/// shows what the earlier ones revealed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Step {
    #[default]
    Question,
    Class,
    Model,
    Gold,
}

impl Step {
    /// The step's name in the page's automation contract (`#classroom[data-step]`).
    pub fn name(self) -> &'static str {
        match self {
            Step::Question => "question",
            Step::Class => "class",
            Step::Model => "model",
            Step::Gold => "gold",
        }
    }
}

/// What a key does in classroom mode (a presenter's remote sends PageDown/PageUp).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyAction {
    Next,
    Back,
    /// The class's answer, by option index (1–9 or A–I).
    Choose(usize),
    Leave,
}

pub fn key_action(key: &str) -> Option<KeyAction> {
    match key {
        "ArrowRight" | " " | "Enter" | "PageDown" => Some(KeyAction::Next),
        "ArrowLeft" | "PageUp" | "Backspace" => Some(KeyAction::Back),
        "Escape" => Some(KeyAction::Leave),
        _ => {
            let mut chars = key.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else { return None };
            match c {
                '1'..='9' => Some(KeyAction::Choose(c as usize - '1' as usize)),
                'a'..='i' => Some(KeyAction::Choose(c as usize - 'a' as usize)),
                'A'..='I' => Some(KeyAction::Choose(c as usize - 'A' as usize)),
                _ => None,
            }
        }
    }
}

/// The running score over the questions whose answer has been shown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Score {
    pub revealed: usize,
    pub class_right: usize,
    /// Of the revealed questions the model has answered.
    pub model_right: usize,
}

/// Serialisable so the page keeps it in `sessionStorage` by run: a reload in the middle of a lesson
/// comes back to the same question, step, class answers and score.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Classroom {
    /// The question shown: an index into the run's items.
    pub index: usize,
    pub step: Step,
    /// The class's answer per item: tapped, or the option with the most votes.
    class_choice: BTreeMap<usize, usize>,
    votes: BTreeMap<usize, Vec<u32>>,
    /// The items whose gold answer has been shown: the score counts these.
    revealed: BTreeSet<usize>,
}

impl Classroom {
    pub fn new() -> Classroom {
        Classroom::default()
    }

    /// The next step; after the gold answer, the next question. False (and nothing changes) at the
    /// last question's gold answer.
    pub fn next(&mut self, total: usize) -> bool {
        self.step = match self.step {
            Step::Question => Step::Class,
            Step::Class => Step::Model,
            Step::Model => {
                self.revealed.insert(self.index);
                Step::Gold
            }
            Step::Gold if self.index + 1 < total => {
                self.index += 1;
                Step::Question
            }
            Step::Gold => return false,
        };
        true
    }

    /// The step before; from a question, the previous question's gold answer. What the class
    /// answered and what was revealed stay.
    pub fn back(&mut self) -> bool {
        self.step = match self.step {
            Step::Gold => Step::Model,
            Step::Model => Step::Class,
            Step::Class => Step::Question,
            Step::Question if self.index > 0 => {
                self.index -= 1;
                Step::Gold
            }
            Step::Question => return false,
        };
        true
    }

    /// The class answers `option` (of `options`) to the question shown: allowed until the model's
    /// answer is shown, and it moves to the class's step.
    pub fn choose(&mut self, option: usize, options: usize) -> bool {
        if option >= options || !matches!(self.step, Step::Question | Step::Class) {
            return false;
        }
        self.class_choice.insert(self.index, option);
        self.votes.remove(&self.index);
        self.step = Step::Class;
        true
    }

    /// `count` students chose `option`: the class's answer becomes the option with the most votes
    /// (none while the top is tied or nobody voted).
    pub fn set_votes(&mut self, option: usize, count: u32, options: usize) -> bool {
        if option >= options || !matches!(self.step, Step::Question | Step::Class) {
            return false;
        }
        let votes = self.votes.entry(self.index).or_insert_with(|| vec![0; options]);
        votes.resize(options, 0);
        votes[option] = count;
        let top = votes.iter().copied().max().unwrap_or(0);
        let leaders: Vec<usize> = votes.iter().enumerate().filter(|(_, &v)| v == top).map(|(i, _)| i).collect();
        match (top, leaders.as_slice()) {
            (1.., [one]) => self.class_choice.insert(self.index, *one),
            _ => self.class_choice.remove(&self.index),
        };
        self.step = Step::Class;
        true
    }

    pub fn class_choice(&self, index: usize) -> Option<usize> {
        self.class_choice.get(&index).copied()
    }

    pub fn votes(&self, index: usize) -> Option<&[u32]> {
        self.votes.get(&index).map(Vec::as_slice)
    }

    /// The class and the model on the questions revealed so far (the model's answers as the run has
    /// them: a revealed question it has not answered yet counts once it is).
    pub fn score(&self, run: &Run) -> Score {
        let mut score = Score { revealed: self.revealed.len(), ..Score::default() };
        for &i in &self.revealed {
            let Some(item) = run.items.get(i) else { continue };
            score.class_right += (self.class_choice(i) == Some(item.gold)) as usize;
            score.model_right += run.rows.get(&i).is_some_and(|r| r.correct) as usize;
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::protocol::RunSettings;
    use crate::web::run::tests::{item, row as row_of};

    fn run(golds: &[usize]) -> Run {
        Run::new(
            "m",
            "t",
            "f",
            RunSettings::default(),
            golds.iter().enumerate().map(|(i, &gold)| item(i, "en", gold)).collect(),
        )
    }

    /// The row of a model that chose `chosen`.
    fn row(index: usize, chosen: usize, gold: usize) -> crate::web::protocol::ItemRow {
        let mut lls = [-2.0; 3];
        lls[chosen] = -1.0;
        row_of(index, lls, gold)
    }

    #[test]
    fn the_steps_go_question_class_model_gold_then_the_next_question_and_back() {
        let mut c = Classroom::new();
        let mut seen = vec![(c.index, c.step.name())];
        while c.next(2) {
            seen.push((c.index, c.step.name()));
        }
        assert_eq!(
            seen,
            [
                (0, "question"),
                (0, "class"),
                (0, "model"),
                (0, "gold"),
                (1, "question"),
                (1, "class"),
                (1, "model"),
                (1, "gold")
            ]
        );
        assert!(c.back() && c.back() && c.back() && c.back());
        assert_eq!((c.index, c.step), (0, Step::Gold));
        while c.back() {}
        assert_eq!((c.index, c.step), (0, Step::Question));
    }

    #[test]
    fn the_score_counts_revealed_questions_once_with_the_model_from_the_run() {
        let mut r = run(&[0, 1, 2]);
        let mut c = Classroom::new();
        assert!(c.choose(0, 3)); // question 1: the class is right
        assert_eq!(c.step, Step::Class);
        c.next(3); // model
        assert!(!c.choose(1, 3), "no answer once the model's is shown");
        c.next(3); // gold: revealed
        r.record(row(0, 2, 0)); // the model is wrong, answered after the reveal
        assert_eq!(c.score(&r), Score { revealed: 1, class_right: 1, model_right: 0 });
        // Back and forth over a revealed question does not count it twice.
        c.back();
        c.next(3);
        c.next(3); // question 2
        assert_eq!(c.score(&r).revealed, 1);
        // Votes: 3 for B, 5 for C → the class says C; the model says B (right).
        assert!(c.set_votes(1, 3, 3));
        assert!(c.set_votes(2, 5, 3));
        assert_eq!(c.class_choice(1), Some(2));
        assert!(c.set_votes(1, 5, 3));
        assert_eq!(c.class_choice(1), None, "a tie is no single answer");
        assert!(c.set_votes(1, 6, 3));
        r.record(row(1, 1, 1));
        c.next(3);
        c.next(3);
        assert_eq!(c.score(&r), Score { revealed: 2, class_right: 2, model_right: 1 });
        assert!(!c.choose(7, 3), "an option that does not exist");
    }

    #[test]
    fn keys_map_to_steps_and_answers() {
        assert_eq!(key_action("ArrowRight"), Some(KeyAction::Next));
        assert_eq!(key_action("PageUp"), Some(KeyAction::Back));
        assert_eq!(key_action("3"), Some(KeyAction::Choose(2)));
        assert_eq!(key_action("b"), Some(KeyAction::Choose(1)));
        assert_eq!(key_action("I"), Some(KeyAction::Choose(8)));
        assert_eq!(key_action("Escape"), Some(KeyAction::Leave));
        assert_eq!(key_action("j"), None);
        assert_eq!(key_action("0"), None);
    }
}
