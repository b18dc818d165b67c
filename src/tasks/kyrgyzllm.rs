//! KyrgyzLLM-Bench's prompts, read when a task is loaded from the code its authors published.
//!
//! The benchmark's prompts are Python, not data: the authors' lm-evaluation-harness classes
//! (golden-ratio/kyrgyzLLM_bench, `lm_harness/kyrgyz_tasks.py`: KyrgyzMMLU, KyrgyzRC) and
//! lighteval's Kyrgyz tasks (huggingface/lighteval, `src/lighteval/tasks/multilingual/tasks/
//! kyrgyz_eval.py`: HellaSwag-kg, TruthfulQA-kg, BoolQ-kg). Neither file is in this repository:
//! the benchmark catalogue names each at a pinned commit with its sha256 (`prompt_code`), the
//! CLI and the page fetch it beside the data, and this module reads the prompt out of it as the
//! include file the built-in task names (`datasets/tasks/kyrgyzllm/kyrgyz_mmlu.yaml`:
//! `include: prompts/kyrgyz_mmlu_prompt_yaml`). Nothing is run.
//!
//! What is read is the string literals of one function, in order. Which literal is which part of
//! the prompt (the header, the line written once per option, the trailer) is this module's
//! knowledge of how each function builds its prompt, and is checked as it is read: a file of
//! another shape is refused, naming the function and the line, never guessed. The documents the
//! templates fill are lingualens items (`question`, `choices`, `passage`), as the task's loader
//! makes them from the same columns the authors' code reads.

use std::fmt::Write;

use super::pyprompt::{fstring_texts, string_literals, FText, PyString};
use crate::error::{Error, Result};

/// The authors' lm-evaluation-harness classes (KyrgyzMMLU, KyrgyzRC), by file name.
pub const LM_EVAL_CLASSES: &str = "kyrgyz_tasks.py";
/// lighteval's Kyrgyz tasks (HellaSwag-kg, TruthfulQA-kg, BoolQ-kg), by file name.
pub const LIGHTEVAL_TASKS: &str = "kyrgyz_eval.py";

/// The include files this module writes, by the names the built-in task files give them.
pub const INCLUDES: [&str; 5] = [
    "kyrgyz_mmlu_prompt_yaml",
    "kyrgyz_rc_prompt_yaml",
    "hellaswag_kg_prompt_yaml",
    "truthfulqa_kg_prompt_yaml",
    "boolq_kg_prompt_yaml",
];

/// An include file read from the code: the name a built-in task's `include:` gives, and its text.
#[derive(Debug, Clone, PartialEq)]
pub struct Include {
    pub name: String,
    pub text: String,
}

/// The include files that the code file `file` (by its name) gives, read from its text `source`;
/// none for a file of another name.
pub fn includes(file: &str, source: &str) -> Result<Vec<Include>> {
    let name = file.rsplit('/').next().unwrap_or(file);
    let include = |name: &str, function: &str, fields: Vec<(&str, String)>| {
        let mut text = format!(
            "# Read by lingualens from {file} ({function}) when the task was loaded: the prompt is its authors'.\n"
        );
        for (key, value) in fields {
            let quoted = serde_json::to_string(&value).map_err(|e| Error::new(format!("{file}: {e}")))?;
            let _ = writeln!(text, "{key}: {quoted}");
        }
        Ok::<_, Error>(Include { name: name.into(), text })
    };
    match name {
        LM_EVAL_CLASSES => Ok(vec![
            include(
                "kyrgyz_mmlu_prompt_yaml",
                "KyrgyzMMLUTask.doc_to_text",
                vec![("doc_to_text", lm_eval_class(file, source, "KyrgyzMMLUTask", &[("question", "question")])?)],
            )?,
            include(
                "kyrgyz_rc_prompt_yaml",
                "KyrgyzReadingComprehensionTask.doc_to_text",
                vec![(
                    "doc_to_text",
                    lm_eval_class(
                        file,
                        source,
                        "KyrgyzReadingComprehensionTask",
                        &[("text", "passage"), ("question", "question")],
                    )?,
                )],
            )?,
        ]),
        LIGHTEVAL_TASKS => {
            let (hellaswag, letters) = hellaswag(file, source)?;
            Ok(vec![
                include(
                    "hellaswag_kg_prompt_yaml",
                    "kyrgyz_hellaswag_prompt",
                    vec![
                        ("doc_to_text", hellaswag),
                        ("doc_to_choice", format!("{{{{ {}[:choices | length] }}}}", json_list(&letters))),
                        ("target_delimiter", " ".into()),
                    ],
                )?,
                include(
                    "truthfulqa_kg_prompt_yaml",
                    "kyrgyz_truthful_qa_prompt",
                    vec![("doc_to_text", truthfulqa(file, source)?)],
                )?,
                include("boolq_kg_prompt_yaml", "kyrgyz_boolq_prompt", vec![("doc_to_text", boolq(file, source)?)])?,
            ])
        }
        _ => Ok(Vec::new()),
    }
}

/// A function's body: the string literals in it, and its lines' text.
struct Body {
    strings: Vec<PyString>,
    text: String,
    /// `Class.function` or `function`, for messages.
    name: String,
}

impl Body {
    /// The body of `def function` (in `class`, where given) of `source`.
    fn read(file: &str, source: &str, class: Option<&str>, function: &str) -> Result<Body> {
        let name = class.map_or(function.to_string(), |c| format!("{c}.{function}"));
        let lines: Vec<&str> = source.lines().collect();
        let indent = |l: &str| l.len() - l.trim_start().len();
        let blank = |l: &str| l.trim().is_empty() || l.trim_start().starts_with('#');
        let defines = |l: &str, keyword: &str, what: &str| {
            l.trim_start()
                .strip_prefix(keyword)
                .and_then(|r| r.strip_prefix(what))
                .is_some_and(|r| r.starts_with('(') || r.starts_with(':'))
        };
        // The first line after `at` that is indented no deeper than `at` itself: where its block ends.
        let block_end = |at: usize| {
            lines[at + 1..]
                .iter()
                .position(|l| !blank(l) && indent(l) <= indent(lines[at]))
                .map_or(lines.len(), |p| at + 1 + p)
        };
        let (from, to) = match class {
            Some(class) => {
                let at = lines
                    .iter()
                    .position(|l| defines(l, "class ", class))
                    .ok_or_else(|| Error::new(format!("{file}: no class {class}, whose {function} is the prompt")))?;
                (at + 1, block_end(at))
            }
            None => (0, lines.len()),
        };
        let at = (from..to)
            .find(|&i| defines(lines[i], "def ", function))
            .ok_or_else(|| Error::new(format!("{file}: no function {name}, which writes the prompt")))?;
        let end = block_end(at);
        // Lines are 1-based for the literals: the body is lines at + 2 ..= end.
        let strings = string_literals(source)
            .map_err(|(line, why)| Error::new(format!("{file} line {line}: {why}")))?
            .into_iter()
            .filter(|s| s.line > at + 1 && s.line <= end)
            .collect();
        Ok(Body { strings, text: lines[at + 1..end].join("\n"), name })
    }

    fn fail(&self, file: &str, why: &str) -> Error {
        Error::new(format!(
            "{file}: {}: {why}; lingualens reads this prompt only from the function as published",
            self.name
        ))
    }

    /// The first string at or after `from` that is an f-string with a field `field`.
    fn with_field(&self, from: usize, field: &str) -> Option<usize> {
        (from..self.strings.len()).find(|&i| fields(&self.strings[i]).iter().any(|f| f == field))
    }
}

/// The fields of an f-string (none for a plain string or one that does not read).
fn fields(s: &PyString) -> Vec<String> {
    if !s.fstring {
        return Vec::new();
    }
    fstring_texts(&s.value)
        .map(|t| t.into_iter().filter_map(|p| if let FText::Field(f) = p { Some(f) } else { None }).collect())
        .unwrap_or_default()
}

/// `s` as Jinja: its text, each field replaced by the expression `fields` maps it to.
fn jinja(file: &str, s: &PyString, fields: &[(&str, &str)]) -> Result<String> {
    let fail = |why: String| Error::new(format!("{file} line {}: {why}", s.line));
    let texts = if s.fstring { fstring_texts(&s.value).map_err(fail)? } else { vec![FText::Lit(s.value.clone())] };
    let mut out = String::new();
    for t in texts {
        match t {
            FText::Lit(l) => {
                if ["{{", "{%", "{#"].iter().any(|d| l.contains(d)) {
                    return Err(fail("the prompt's text holds a Jinja delimiter".into()));
                }
                out.push_str(&l);
            }
            FText::Field(f) => match fields.iter().find(|(k, _)| *k == f) {
                Some((_, expr)) => {
                    let _ = write!(out, "{{{{ {expr} }}}}");
                }
                None => return Err(fail(format!("the field {{{f}}} is not one the task's documents have"))),
            },
        }
    }
    Ok(out)
}

/// A list of strings as JSON, spaced as Python's `json.dumps` writes it.
fn json_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| serde_json::to_string(s).unwrap_or_default()).collect();
    format!("[{}]", quoted.join(", "))
}

/// The Jinja loop that writes `option` (an f-string with a `letter` field and a `choice` field)
/// once per choice, the letter taken from `letters` by position.
fn options_loop(file: &str, option: &PyString, letter: &str, letters: &[String]) -> Result<String> {
    let letter_expr = format!("{}[loop.index0]", json_list(letters));
    let line = jinja(file, option, &[(letter, &letter_expr), ("choice", "c")])?;
    Ok(format!("{{% for c in choices %}}{line}{{% endfor %}}"))
}

/// An lm-eval class's `doc_to_text` (KyrgyzMMLUTask, KyrgyzReadingComprehensionTask): the
/// letters (`letters = ["А", "Б", …]`), then the header's strings, the option line
/// (`f"{letters[i]}. {choice}\n"`, written for each choice) and the trailer.
fn lm_eval_class(file: &str, source: &str, class: &str, doc_fields: &[(&str, &str)]) -> Result<String> {
    let body = Body::read(file, source, Some(class), "doc_to_text")?;
    let s = &body.strings;
    let is_letter = |p: &PyString| !p.fstring && p.value.chars().count() == 1;
    let start = s.iter().position(is_letter).ok_or_else(|| body.fail(file, "no list of option letters"))?;
    let count = s[start..].iter().take_while(|p| is_letter(p)).count();
    if count < 2 {
        return Err(body.fail(file, "no list of option letters"));
    }
    let letters: Vec<String> = s[start..start + count].iter().map(|p| p.value.clone()).collect();
    let after = start + count;
    let option = body.with_field(after, "choice").ok_or_else(|| body.fail(file, "no line written for each option"))?;
    let letter = fields(&s[option])
        .into_iter()
        .find(|f| f != "choice" && f.ends_with(']'))
        .ok_or_else(|| body.fail(file, "the option line has no letter"))?;
    if option == after {
        return Err(body.fail(file, "no header before the options"));
    }
    let mut prompt = String::new();
    for p in &s[after..option] {
        prompt += &jinja(file, p, doc_fields)?;
    }
    prompt += &options_loop(file, &s[option], &letter, &letters)?;
    for p in &s[option + 1..] {
        prompt += &jinja(file, p, &[])?;
    }
    Ok(prompt)
}

/// lighteval's `kyrgyz_hellaswag_prompt`: the header, `f"Суроо: {activity_label_kg}: {ctx_a_kg}
/// {ctx_b_kg}\n"` (the loader's `question` is those three fields as written there), the
/// endings lettered A, B, C, D, the trailer; the choices are the letters, each after a space.
/// Returns the prompt and the letters.
fn hellaswag(file: &str, source: &str) -> Result<(String, Vec<String>)> {
    let body = Body::read(file, source, None, "kyrgyz_hellaswag_prompt")?;
    let s = &body.strings;
    let q = body.with_field(0, "activity_label_kg").ok_or_else(|| body.fail(file, "no question line"))?;
    let texts = fstring_texts(&s[q].value).map_err(|why| body.fail(file, &why))?;
    let question_line = [
        FText::Field("activity_label_kg".into()),
        FText::Lit(": ".into()),
        FText::Field("ctx_a_kg".into()),
        FText::Lit(" ".into()),
        FText::Field("ctx_b_kg".into()),
        FText::Lit("\n".into()),
    ];
    let prefix = match texts.split_first() {
        Some((FText::Lit(prefix), rest)) if rest == question_line => prefix.clone(),
        _ => return Err(body.fail(file, "the question line is not `{activity_label_kg}: {ctx_a_kg} {ctx_b_kg}`")),
    };
    let header = q.checked_sub(1).map(|h| &s[h]).filter(|h| !h.fstring).ok_or_else(|| body.fail(file, "no header"))?;
    // The endings: at most four (`endings_kg[:4]`), lettered from `string.ascii_uppercase`.
    if !body.text.contains("endings_kg[:4]") || !source.contains("= string.ascii_uppercase") {
        return Err(body.fail(file, "the endings are not the first four, lettered A, B, C, D"));
    }
    let letters: Vec<String> = ["A", "B", "C", "D"].map(String::from).to_vec();
    let option = body.with_field(q + 1, "choice").ok_or_else(|| body.fail(file, "no line written for each ending"))?;
    let trailer = (option + 1..s.len()).find(|&i| !s[i].fstring).ok_or_else(|| body.fail(file, "no trailer"))?;
    let labels = (trailer + 1..s.len()).any(|i| {
        s[i].fstring
            && fstring_texts(&s[i].value).is_ok_and(|t| t == [FText::Lit(" ".into()), FText::Field("letter".into())])
    });
    if !labels {
        return Err(body.fail(file, "the choices are not the letters, each after a space"));
    }
    let prompt = jinja(file, header, &[])?
        + &jinja(file, &PyString { fstring: false, value: prefix, line: s[q].line }, &[])?
        + "{{ question }}\n"
        + &options_loop(file, &s[option], "letter", &letters)?
        + &jinja(file, &s[trailer], &[])?;
    Ok((prompt, letters))
}

/// lighteval's `kyrgyz_truthful_qa_prompt`: `f"Суроо: {Question_kg}\nЖооп:"`.
fn truthfulqa(file: &str, source: &str) -> Result<String> {
    let body = Body::read(file, source, None, "kyrgyz_truthful_qa_prompt")?;
    let q = body.with_field(0, "Question_kg").ok_or_else(|| body.fail(file, "no query with the question"))?;
    jinja(file, &body.strings[q], &[("Question_kg", "question")])
}

/// lighteval's `kyrgyz_boolq_prompt`: `f"Текст: {passage_kg}\nСуроо: {question}\nЖооп:"`, the
/// question's trailing `??` cut to `?`.
fn boolq(file: &str, source: &str) -> Result<String> {
    let body = Body::read(file, source, None, "kyrgyz_boolq_prompt")?;
    let q = body.with_field(0, "passage_kg").ok_or_else(|| body.fail(file, "no query with the passage"))?;
    if !body.strings[..q].iter().any(|s| !s.fstring && s.value == "??") {
        return Err(body.fail(file, "the question's trailing `??` is not cut"));
    }
    jinja(
        file,
        &body.strings[q],
        &[("passage_kg", "passage"), ("question", "(question[:-1] if question.endswith('??') else question)")],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    // Code of the authors' shapes, with made-up texts: the real files are fetched at run time
    // (tests/integration/kyrgyz_prompts.rs reads them, and stand-ins written from the shared
    // PROMPTS.md, against make_prompts.py).
    const CLASSES: &str = r#"
class KyrgyzMMLUTask(KyrgyzBaseTask):

    def doc_to_text(self, doc: Dict[str, Any]) -> str:
        # The prompt.
        question = doc["Q (KG)"]
        raw_choices = []
        for choice_key in ["A (KG)", "B (KG)"]:
            if choice_key in doc and doc[choice_key] and str(doc[choice_key]).strip():
                raw_choices.append(str(doc[choice_key]).strip())

        letters = ["Х", "Ц"]
        prompt = f"Q: {question}\n\n"
        for i, choice in enumerate(raw_choices):
            prompt += f"{letters[i]}) {choice}\n"
        prompt += "\nA:"
        return prompt

    def doc_to_target(self, doc):
        return "x"


class KyrgyzReadingComprehensionTask(KyrgyzBaseTask):

    def doc_to_text(self, doc: Dict[str, Any]) -> str:
        text = doc["T (KG)"]
        question = doc["Q (KG)"]
        letters = ["Х", "Ц"]
        prompt = (
            f"Read.\n\n"
            f"T: {text}\n\n"
            f"Q: {question}\n\n"
            "Options:\n"
        )
        for i, choice in enumerate(raw_choices):
            prompt += f"{letters[i]}. {choice}\n"
        prompt += "\nAnswer:"
        return prompt
"#;

    fn include<'a>(all: &'a [Include], name: &str) -> &'a str {
        &all.iter().find(|i| i.name == name).unwrap().text
    }

    #[test]
    fn the_lm_eval_classes_prompts_are_read_as_jinja_over_the_items() {
        let all = includes("x/kyrgyz_tasks.py", CLASSES).unwrap();
        assert_eq!(all.len(), 2);
        assert!(include(&all, "kyrgyz_mmlu_prompt_yaml").ends_with(
            "doc_to_text: \"Q: {{ question }}\\n\\n{% for c in choices %}{{ [\\\"Х\\\", \\\"Ц\\\"][loop.index0] }}) {{ c }}\\n{% endfor %}\\nA:\"\n"
        ));
        assert!(include(&all, "kyrgyz_rc_prompt_yaml")
            .contains("\"Read.\\n\\nT: {{ passage }}\\n\\nQ: {{ question }}\\n\\nOptions:\\n{% for c in choices %}"));
        assert!(includes("x/other.py", CLASSES).unwrap().is_empty());
    }

    #[test]
    fn code_of_another_shape_is_refused_naming_the_function() {
        let no_class = CLASSES.replace("class KyrgyzMMLUTask", "class Other");
        let e = includes("kyrgyz_tasks.py", &no_class).unwrap_err().to_string();
        assert!(e.contains("no class KyrgyzMMLUTask"), "{e}");
        let no_letters = CLASSES.replacen("letters = [\"Х\", \"Ц\"]", "letters = LETTERS", 1);
        let e = includes("kyrgyz_tasks.py", &no_letters).unwrap_err().to_string();
        assert!(e.contains("KyrgyzMMLUTask.doc_to_text: no list of option letters"), "{e}");
        let unknown_field = CLASSES.replacen("f\"Q: {question}\\n\\n\"", "f\"Q: {subject}\\n\\n\"", 1);
        let e = includes("kyrgyz_tasks.py", &unknown_field).unwrap_err().to_string();
        assert!(e.contains("line 13") && e.contains("{subject}"), "{e}");
        let jinja = CLASSES.replacen("\"\\nA:\"", "\"{{ A }}\"", 1);
        assert!(includes("kyrgyz_tasks.py", &jinja).unwrap_err().to_string().contains("Jinja delimiter"));
    }
}
