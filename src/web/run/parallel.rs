//! The same questions across languages: items grouped by a shared `group`, by DZEN's ids that
//! differ only in their final `/<language>`, or by a `parallel` link, compared per variant (the
//! item's language, with `+<l>` where its prompt carries that language's translation too).

use std::collections::BTreeMap;

use serde_json::Value as Json;

use super::Run;
use crate::web::protocol::ItemView;

/// Items that ask the same question in several languages: those sharing a `group` value, those
/// whose ids differ only in a final `/<language>` (DZEN's `dzen/<file>/<row>/en` and `…/dz`), or
/// those joined by a `parallel` link (the other item's id). The items may come from several runs
/// (English, Dzongkha, and Dzongkha with the English translation appended are three DZEN runs), so a
/// column is a *variant*: the item's language, with `+<language>` when its prompt carries that
/// language's translation too ([`variant`]). A group with a single variant is no comparison and is
/// left out.
#[derive(Debug, Clone, PartialEq)]
pub struct ParallelTable {
    /// The columns, sorted; a variant that several runs have is named `<variant> · <run>`.
    pub variants: Vec<String>,
    pub groups: Vec<ParallelGroup>,
    /// One per variant, in `variants`' order.
    pub accuracy: Vec<VariantAccuracy>,
    /// How many groups have every item answered in every variant of the table.
    pub complete: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ParallelGroup {
    pub key: String,
    /// One per variant: `None` where the group has no item in that variant.
    pub cells: Vec<Option<ParallelCell>>,
}

/// A group's items in one variant (several with choice-order variants), all from run `run`.
#[derive(Debug, Clone, PartialEq)]
pub struct ParallelCell {
    pub run: usize,
    pub items: Vec<usize>,
    pub answered: usize,
    pub correct: usize,
}

impl ParallelCell {
    pub fn is_complete(&self) -> bool {
        self.answered == self.items.len()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct VariantAccuracy {
    pub variant: String,
    /// Over every answered grouped item in this variant.
    pub answered: usize,
    pub accuracy: Option<f64>,
    /// Over the complete groups only: the same questions in every variant.
    pub common_answered: usize,
    pub common_accuracy: Option<f64>,
}

/// Which group an item belongs to: `group:<value>`; else `parallel:<id without its final
/// /<language>>` when the id ends so; else `parallel:<the smaller of its id and its link>` (so both
/// ends of a link agree); else none.
pub fn parallel_key(item: &ItemView) -> Option<String> {
    if let Some(group) = item.metadata.get("group") {
        return Some(format!("group:{group}"));
    }
    // A choice-order variant's id is `<id>#<variant>`; the link names the document.
    let own = match item.metadata.get("order") {
        Some(_) => item.id.rsplit_once('#').map_or(item.id.as_str(), |(id, _)| id),
        None => item.id.as_str(),
    };
    if !item.language.is_empty() {
        if let Some(stem) =
            own.strip_suffix(item.language.as_str()).and_then(|s| s.strip_suffix('/')).filter(|s| !s.is_empty())
        {
            return Some(format!("parallel:{stem}"));
        }
    }
    let other = item.metadata.get("parallel")?;
    Some(format!("parallel:{}", own.min(other.as_str())))
}

/// The language whose translation the prompt `context` carries besides the document's own text:
/// `l` when the document has a `question_<l>` (a parallel item's question, `tasks::yaml::items_docs`)
/// for another language than its own and the prompt contains it, as DZEN's `dzen_dz_en` task appends
/// the English question to the Dzongkha one.
pub fn appended_translation(doc: &Json, context: &str) -> Option<String> {
    let own = doc.get("language").and_then(Json::as_str).unwrap_or("");
    let fields = doc.as_object()?;
    fields.iter().find_map(|(key, value)| {
        let language = key.strip_prefix("question_")?;
        let text = value.as_str()?.trim();
        (language != own && !language.is_empty() && !text.is_empty() && context.contains(text))
            .then(|| language.to_string())
    })
}

/// An item's variant: its language (`und` if unknown), with `+<l>` when its prompt carries the
/// translation into `l` (the `translation` metadata, set from [`appended_translation`]).
pub fn variant(item: &ItemView) -> String {
    let language = if item.language.is_empty() { "und" } else { item.language.as_str() };
    match item.metadata.get("translation") {
        Some(t) => format!("{language}+{t}"),
        None => language.to_string(),
    }
}

fn ratio(correct: usize, n: usize) -> Option<f64> {
    (n > 0).then(|| correct as f64 / n as f64)
}

/// The same questions across languages over several runs, each named by its label (see
/// [`ParallelTable`]); [`Run::parallel_table`] is this for one run.
pub fn parallel_table(runs: &[(&str, &Run)]) -> ParallelTable {
    // variant -> the runs that have it, to tell apart a variant two runs share.
    let mut runs_of: BTreeMap<String, std::collections::BTreeSet<usize>> = BTreeMap::new();
    for (r, (_, run)) in runs.iter().enumerate() {
        for item in &run.items {
            if parallel_key(item).is_some() {
                runs_of.entry(variant(item)).or_default().insert(r);
            }
        }
    }
    let column = |r: usize, item: &ItemView| {
        let v = variant(item);
        if runs_of.get(&v).is_some_and(|set| set.len() > 1) {
            format!("{v} · {}", runs[r].0)
        } else {
            v
        }
    };
    let mut by_group: BTreeMap<String, BTreeMap<String, (usize, Vec<usize>)>> = BTreeMap::new();
    for (r, (_, run)) in runs.iter().enumerate() {
        for item in &run.items {
            if let Some(key) = parallel_key(item) {
                by_group.entry(key).or_default().entry(column(r, item)).or_insert((r, Vec::new())).1.push(item.index);
            }
        }
    }
    by_group.retain(|_, by_variant| by_variant.len() >= 2);
    let variants: Vec<String> = by_group
        .values()
        .flat_map(|v| v.keys().cloned())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let groups: Vec<ParallelGroup> = by_group
        .into_iter()
        .map(|(key, by_variant)| ParallelGroup {
            key,
            cells: variants
                .iter()
                .map(|v| {
                    by_variant.get(v).map(|(r, items)| {
                        let rows = &runs[*r].1.rows;
                        ParallelCell {
                            run: *r,
                            answered: items.iter().filter(|i| rows.contains_key(i)).count(),
                            correct: items.iter().filter(|i| rows.get(i).is_some_and(|row| row.correct)).count(),
                            items: items.clone(),
                        }
                    })
                })
                .collect(),
        })
        .collect();
    let is_complete = |g: &ParallelGroup| g.cells.iter().all(|c| c.as_ref().is_some_and(ParallelCell::is_complete));
    let accuracy = variants
        .iter()
        .enumerate()
        .map(|(v, variant)| {
            let cells = || groups.iter().filter_map(|g| g.cells[v].as_ref().map(|c| (g, c)));
            let (answered, correct) = cells().fold((0, 0), |(n, k), (_, c)| (n + c.answered, k + c.correct));
            let (common_answered, common_correct) =
                cells().filter(|(g, _)| is_complete(g)).fold((0, 0), |(n, k), (_, c)| (n + c.answered, k + c.correct));
            VariantAccuracy {
                variant: variant.clone(),
                answered,
                accuracy: ratio(correct, answered),
                common_answered,
                common_accuracy: ratio(common_correct, common_answered),
            }
        })
        .collect();
    let complete = groups.iter().filter(|g| is_complete(g)).count();
    ParallelTable { variants, groups, accuracy, complete }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::protocol::RunSettings;
    use crate::web::run::tests::{item, row};

    fn grouped(index: usize, id: &str, language: &str, link: (&str, &str)) -> ItemView {
        let mut item = item(index, language, 0);
        item.id = id.into();
        item.metadata.insert(link.0.into(), link.1.into());
        item
    }

    #[test]
    fn the_parallel_table_compares_languages_on_the_groups_answered_in_all() {
        let items = vec![
            grouped(0, "a-en", "en", ("group", "a")),
            grouped(1, "a-dz", "dz", ("group", "a")),
            grouped(2, "b-en", "en", ("group", "b")),
            grouped(3, "b-dz", "dz", ("group", "b")),
            // DZEN's way: each item names the other.
            grouped(4, "dzen/1/en", "en", ("parallel", "dzen/1/dz")),
            grouped(5, "dzen/1/dz", "dz", ("parallel", "dzen/1/en")),
            // One language only: no comparison.
            grouped(6, "c-en", "en", ("group", "c")),
            item(7, "en", 0),
        ];
        let mut run = Run::new("m", "t", "f", RunSettings::default(), items);
        run.record(row(0, [-1.0, -2.0, -3.0], 0)); // a-en right
        run.record(row(1, [-3.0, -1.0, -2.0], 0)); // a-dz wrong
        run.record(row(2, [-1.0, -2.0, -3.0], 0)); // b-en right
        run.record(row(4, [-3.0, -1.0, -2.0], 0)); // dzen en wrong
        run.record(row(5, [-1.0, -2.0, -3.0], 0)); // dzen dz right
        run.record(row(6, [-1.0, -2.0, -3.0], 0));
        let t = run.parallel_table();
        assert_eq!(t.variants, ["dz", "en"]);
        let keys: Vec<&str> = t.groups.iter().map(|g| g.key.as_str()).collect();
        assert_eq!(keys, ["group:a", "group:b", "parallel:dzen/1"]);
        let cell = |g: usize, l: usize| t.groups[g].cells[l].clone().map(|c| (c.answered, c.correct));
        assert_eq!((cell(0, 0), cell(0, 1)), (Some((1, 0)), Some((1, 1))));
        assert_eq!(cell(1, 0), Some((0, 0)), "b-dz is not answered yet");
        // Group b is incomplete: the common accuracy is over groups a and dzen/1.
        assert_eq!(t.complete, 2);
        let (dz, en) = (&t.accuracy[0], &t.accuracy[1]);
        assert_eq!((dz.answered, dz.accuracy, dz.common_answered, dz.common_accuracy), (2, Some(0.5), 2, Some(0.5)));
        assert_eq!(
            (en.answered, en.accuracy, en.common_answered, en.common_accuracy),
            (3, Some(2.0 / 3.0), 2, Some(0.5))
        );
    }

    /// A samples line as `lingualens eval` writes it for a DZEN item: the document (with the
    /// parallel item's question under `question_<l>`), the prompt, two options' log-likelihoods.
    fn dzen_line(row: usize, language: &str, other: &str, appended: bool, lls: [f64; 2]) -> String {
        let question = format!("question {row} in {language}");
        let translation = format!("question {row} in {other}");
        let context = if appended {
            format!("{question}\nA. x\nB. y\n\nEnglish translation:\n{translation}\nAnswer:")
        } else {
            format!("{question}\nAnswer:")
        };
        let doc = serde_json::json!({
            "id": format!("dzen/Bio/{row}/{language}"), "language": language, "subject": "Biology",
            "question": question, format!("question_{other}"): translation, "choices": ["x", "y"], "answer": 0,
        });
        let arg = |c: &str| serde_json::json!({ "arg_0": context, "arg_1": c });
        serde_json::json!({
            "doc_id": row, "doc": doc, "target": 0,
            "arguments": { "gen_args_0": arg(" A"), "gen_args_1": arg(" B") },
            "filtered_resps": [[lls[0].to_string(), "False"], [lls[1].to_string(), "False"]],
        })
        .to_string()
    }

    #[test]
    fn an_appended_translation_is_found_in_the_prompt() {
        let doc = serde_json::json!({ "language": "dz", "question": "ཀ", "question_en": "What is it?" });
        assert_eq!(appended_translation(&doc, "ཀ\n\nEnglish translation:\nWhat is it?\nAnswer:"), Some("en".into()));
        assert_eq!(appended_translation(&doc, "ཀ\nAnswer:"), None);
        let own = serde_json::json!({ "language": "en", "question": "Why?", "question_en": "Why?" });
        assert_eq!(appended_translation(&own, "Why?\nAnswer:"), None, "its own language is no translation");
    }

    #[test]
    fn english_dzongkha_and_dzongkha_with_the_translation_compare_per_item_across_runs() {
        let run = |name: &str, lines: Vec<String>| Run::from_samples_jsonl(name, &lines.join("\n")).unwrap();
        let (right, wrong) = ([-1.0, -2.0], [-2.0, -1.0]);
        let en = run(
            "samples_dzen_en.jsonl",
            vec![
                dzen_line(1, "en", "dz", false, right),
                dzen_line(2, "en", "dz", false, right),
                dzen_line(3, "en", "dz", false, wrong),
            ],
        );
        let dz = run(
            "samples_dzen_dz.jsonl",
            vec![dzen_line(1, "dz", "en", false, wrong), dzen_line(2, "dz", "en", false, wrong)],
        );
        let dz_en = run("samples_dzen_dz_en.jsonl", vec![dzen_line(1, "dz", "en", true, right)]);
        assert_eq!(dz_en.items[0].metadata.get("translation").map(String::as_str), Some("en"));
        assert_eq!(
            (variant(&dz.items[0]), variant(&dz_en.items[0]), variant(&en.items[0])),
            ("dz".into(), "dz+en".into(), "en".into())
        );

        let t = parallel_table(&[("dzen_en", &en), ("dzen_dz", &dz), ("dzen_dz_en", &dz_en)]);
        assert_eq!(t.variants, ["dz", "dz+en", "en"]);
        let keys: Vec<&str> = t.groups.iter().map(|g| g.key.as_str()).collect();
        // Item 3 is in English only: no comparison, left out. Item 2 has no dz+en run: incomplete.
        assert_eq!(
            keys,
            ["parallel:dzen/Bio/1", "parallel:dzen/Bio/2"],
            "ids that differ in their final language pair up"
        );
        let runs: Vec<Option<usize>> = t.groups[0].cells.iter().map(|c| c.as_ref().map(|c| c.run)).collect();
        assert_eq!(runs, [Some(1), Some(2), Some(0)]);
        assert!(t.groups[1].cells[1].is_none());
        assert_eq!(t.complete, 1);
        let acc: Vec<(usize, Option<f64>, usize, Option<f64>)> =
            t.accuracy.iter().map(|a| (a.answered, a.accuracy, a.common_answered, a.common_accuracy)).collect();
        assert_eq!(acc, [(2, Some(0.0), 1, Some(0.0)), (1, Some(1.0), 1, Some(1.0)), (2, Some(1.0), 1, Some(1.0))]);

        // One variant from two runs (two models' English runs, say) is two columns, named by run.
        let t = parallel_table(&[("model A", &en), ("model B", &en), ("dzen_dz", &dz)]);
        assert_eq!(t.variants, ["dz", "en · model A", "en · model B"]);
    }
}
