//! A finished run on one page, as an SVG picture: the model and the task, accuracy with its 95 %
//! interval, accuracy by each metadata field (subject, language, …), and which option positions the
//! model chose against where the gold answers were. The page downloads it (`summary_<task>.svg`) and
//! shows it inline for printing; its words come from the page's catalogue (`SummaryText`), its
//! numbers through the caller's formatter, and every text from the run is XML-escaped.
//!
//! Plain data in, a string out: tested natively.

use super::run::Run;

/// The words of the picture, in the page's language.
pub struct SummaryText {
    pub title: String,
    /// "accuracy 31.2 % (95 % interval 25.1–37.9 %) · 100 of 100 answered" and the like.
    pub headline: String,
    pub model: String,
    pub by: String,
    pub positions: String,
    pub chosen: String,
    pub gold_here: String,
    /// "… and 4 more" (values of a field left out).
    pub more: Box<dyn Fn(usize) -> String>,
}

const WIDTH: f64 = 760.0;
const ROW: f64 = 22.0;
/// At most this many values of one field (the most frequent), so a page holds the picture.
const VALUES_SHOWN: usize = 8;
const FIELDS_SHOWN: usize = 4;

/// Escapes text for XML character data and attribute values.
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0 at all.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// How each kind of element looks, as SVG presentation attributes rather than a `<style>` element:
/// the page shows the picture inline under a Content-Security-Policy that refuses inline styles.
fn look(class: &str) -> &'static str {
    match class {
        "title" => "font-size=\"22\" font-weight=\"700\" fill=\"#24577a\"",
        "big" => "font-size=\"17\" font-weight=\"600\" fill=\"#1d232a\"",
        "heading" => "font-size=\"15\" font-weight=\"600\" fill=\"#1d232a\"",
        "muted" => "font-size=\"13\" fill=\"#5b6670\"",
        "track" => "fill=\"#eef0ec\"",
        "fill" => "fill=\"#24577a\"",
        "gold" => "fill=\"#1d7a3a\"",
        _ => "font-size=\"14\" fill=\"#1d232a\"",
    }
}

/// A text element of kind `class`.
pub(super) fn text(x: f64, y: f64, class: &str, content: &str) -> String {
    format!("<text x=\"{x:.1}\" y=\"{y:.1}\" class=\"{class}\" {}>{}</text>\n", look(class), xml_escape(content))
}

/// A bar of `share` (0–1) of `width`, on a track.
fn bar(x: f64, y: f64, width: f64, share: f64, class: &str) -> String {
    let share = if share.is_finite() { share.clamp(0.0, 1.0) } else { 0.0 };
    format!(
        "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{width:.1}\" height=\"10\" {}/><rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"10\" class=\"{class}\" {}/>\n",
        y - 10.0,
        look("track"),
        y - 10.0,
        width * share,
        look(class)
    )
}

/// The summary of `run` as an SVG document. `percent` writes a share (0.312 → "31 %").
pub fn summary_svg(run: &Run, words: &SummaryText, percent: &dyn Fn(f64) -> String) -> String {
    let mut body = String::new();
    let mut y = 34.0;
    body += &text(24.0, y, "title", &words.title);
    y += 26.0;
    body += &text(24.0, y, "big", &words.headline);
    y += 22.0;
    body += &text(24.0, y, "muted", &words.model);
    y += 16.0;

    // By metadata: the fields in the run's order, each value's accuracy (the most frequent values).
    let breakdown = run.breakdown();
    let mut fields: Vec<&str> = Vec::new();
    for b in &breakdown {
        if !fields.contains(&b.field.as_str()) {
            fields.push(&b.field);
        }
    }
    for field in fields.iter().take(FIELDS_SHOWN) {
        y += 28.0;
        body += &text(24.0, y, "heading", &format!("{} {field}", words.by));
        let mut values: Vec<_> = breakdown.iter().filter(|b| b.field == *field).collect();
        values.sort_by(|a, b| b.n.cmp(&a.n).then(a.value.cmp(&b.value)));
        for b in values.iter().take(VALUES_SHOWN) {
            y += ROW;
            body += &text(36.0, y, "label", &b.value);
            body += &text(250.0, y, "num", &format!("n = {}", b.n));
            body += &bar(330.0, y, 300.0, b.accuracy, "fill");
            body += &text(642.0, y, "num", &percent(b.accuracy));
        }
        if values.len() > VALUES_SHOWN {
            y += ROW;
            body += &text(36.0, y, "muted", &(words.more)(values.len() - VALUES_SHOWN));
        }
    }

    // Positions: chosen share against where the gold answers were.
    let bias = run.position_bias();
    if !bias.is_empty() {
        y += 28.0;
        body += &text(24.0, y, "heading", &words.positions);
        y += ROW;
        body += &text(330.0, y, "muted", &words.chosen);
        body += &text(500.0, y, "muted", &words.gold_here);
        for p in &bias {
            y += ROW;
            let letter = char::from(b'A' + (p.position.min(25) as u8)).to_string();
            let gold_share = if run.done() == 0 { 0.0 } else { p.gold_count as f64 / run.done() as f64 };
            body += &text(36.0, y, "label", &letter);
            body += &bar(330.0, y, 130.0, p.chosen_share, "fill");
            body += &bar(500.0, y, 130.0, gold_share, "gold");
            body += &text(642.0, y, "num", &format!("{} / {}", percent(p.chosen_share), percent(gold_share)));
        }
    }
    y += 30.0;
    body += &text(24.0, y, "muted", "lingualens");
    let height = y + 16.0;
    let accuracy = run.accuracy().map(|a| a.value.to_string()).unwrap_or_default();
    document(WIDTH, height, &format!("data-accuracy=\"{accuracy}\""), &body)
}

/// A one-page picture of `width` × `height` around `body`, in the page's fonts (every script the
/// benchmarks have) on white; `attributes` (already escaped) go on its root.
pub(super) fn document(width: f64, height: f64, attributes: &str, body: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" role=\"img\" {attributes} \
font-family=\"&quot;LL Sans&quot;, &quot;LL Ethiopic&quot;, &quot;LL Tibetan&quot;, &quot;Noto Sans&quot;, &quot;Noto Sans Ethiopic&quot;, &quot;Noto Serif Tibetan&quot;, sans-serif\">\n\
<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n{body}</svg>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::protocol::{ItemRow, ItemView, RunSettings};

    fn words() -> SummaryText {
        SummaryText {
            title: "lingualens · demo".into(),
            headline: "accuracy 50 %".into(),
            model: "model <m>".into(),
            by: "by".into(),
            positions: "positions".into(),
            chosen: "chosen".into(),
            gold_here: "gold here".into(),
            more: Box::new(|n| format!("… and {n} more")),
        }
    }

    #[test]
    fn the_picture_holds_every_field_and_position_with_dataset_text_escaped() {
        let items: Vec<ItemView> = (0..4)
            .map(|index| ItemView {
                index,
                id: index.to_string(),
                question: "q".into(),
                language: if index < 2 { "dz".into() } else { "am".into() },
                choices: vec!["a".into(), "b".into()],
                gold: index % 2,
                reference: None,
                context: String::new(),
                metadata: [(
                    "subject".to_string(),
                    if index == 0 { "<script>&\"x\"".to_string() } else { "physics".to_string() },
                )]
                .into(),
            })
            .collect();
        let mut run = Run::new("m", "demo", "f", RunSettings::default(), items);
        for index in 0..4 {
            run.record(ItemRow {
                index,
                loglikelihoods: vec![-1.0, -2.0],
                is_greedy: vec![true, false],
                token_counts: vec![1, 1],
                chosen: 0,
                chosen_norm: 0,
                correct: index % 2 == 0,
                correct_norm: index % 2 == 0,
                elapsed_ms: 1.0,
                response: None,
                sample: String::new(),
            });
        }
        let svg = summary_svg(&run, &words(), &|x| format!("{:.0}%", 100.0 * x));
        assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("&lt;script&gt;&amp;&quot;x&quot;"), "{svg}");
        assert!(!svg.contains("<script"), "dataset text is escaped");
        assert!(svg.contains("model &lt;m&gt;"));
        assert!(svg.contains("data-accuracy=\"0.5\""));
        // Subject: physics 3 items (1 right), the other 1 (right); positions: A chosen 100 %, gold 50 %.
        assert!(svg.contains(">n = 3<") && svg.contains(">33%<"), "{svg}");
        assert!(svg.contains(">100% / 50%<"), "{svg}");
        // Every element opened is closed (a cheap well-formedness check; the browser test parses it).
        assert_eq!(svg.matches("<text ").count(), svg.matches("</text>").count());
    }

    #[test]
    fn xml_escape_leaves_no_markup_and_no_control_characters() {
        assert_eq!(xml_escape("a<b>&'\"\u{1}ཀ"), "a&lt;b&gt;&amp;&apos;&quot; ཀ");
    }
}
