//! A [`Tokenizer`] from a Hugging Face `tokenizer.json` (the serialization of `tokenizers`'
//! `Tokenizer`). BOS/EOS come from its post-processor alone: transformers 5 (what
//! lm-evaluation-harness runs on) ignores `add_bos_token`/`add_eos_token` in
//! `tokenizer_config.json` when a tokenizer.json is there (checked with 5.24 on Gemma 3, Llama 3
//! and Qwen 3 folders), so `tokenizer_config.json` only names the BOS and EOS tokens.
//!
//! The model's vocab and merges (hundreds of thousands of entries) are read into typed structs;
//! the small parts (normalizer, pre-tokenizer, post-processor, decoder) are walked as JSON so
//! an error can name the exact field. Supported: model `BPE` and `WordPiece`; not `Unigram`
//! or `WordLevel`, nor BPE dropout, nor the `Precompiled` normalizer (each is an error).

use std::fmt;

use fancy_regex::Regex;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::added::{AddedToken, AddedTokens};
use super::bpe::{Bpe, BpeOptions};
use super::normalize::{Normalizer, Pattern};
use super::pretokenize::{PreTokenizer, PrependScheme, SplitBehavior, SplitPattern};
use super::wordpiece::WordPiece;
use super::{byte_fallback_ids, DecodeRule, Flavor, FxHashMap, Model, TokenKind, Tokenizer, Vocab, EOG_TEXTS};
use crate::error::{Error, Result};

#[derive(Deserialize)]
struct TokenizerJson {
    #[serde(default)]
    added_tokens: Vec<AddedTokenJson>,
    #[serde(default)]
    normalizer: Value,
    #[serde(default)]
    pre_tokenizer: Value,
    #[serde(default)]
    post_processor: Value,
    #[serde(default)]
    decoder: Value,
    model: ModelJson,
}

#[derive(Deserialize)]
struct AddedTokenJson {
    id: u32,
    content: String,
    #[serde(default)]
    single_word: bool,
    #[serde(default)]
    lstrip: bool,
    #[serde(default)]
    rstrip: bool,
    normalized: Option<bool>,
    #[serde(default)]
    special: bool,
}

#[derive(Deserialize)]
struct ModelJson {
    #[serde(rename = "type")]
    kind: Option<String>,
    vocab: VocabJson,
    #[serde(default)]
    merges: Vec<MergeJson>,
    unk_token: Option<String>,
    continuing_subword_prefix: Option<String>,
    end_of_word_suffix: Option<String>,
    #[serde(default)]
    fuse_unk: bool,
    #[serde(default)]
    byte_fallback: bool,
    #[serde(default)]
    ignore_merges: bool,
    dropout: Option<f64>,
    max_input_chars_per_word: Option<usize>,
}

/// `model.vocab`: `{token: id}` (BPE, WordPiece) or `[[token, score], …]` (Unigram).
enum VocabJson {
    Ids(Vec<(String, u32)>),
    /// Unigram's; not supported, so only recognised.
    Scores,
}

impl<'de> Deserialize<'de> for VocabJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = VocabJson;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map from token to id, or a list of [token, score]")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<VocabJson, A::Error> {
                let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some(entry) = map.next_entry::<String, u32>()? {
                    out.push(entry);
                }
                Ok(VocabJson::Ids(out))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<VocabJson, A::Error> {
                while seq.next_element::<de::IgnoredAny>()?.is_some() {}
                Ok(VocabJson::Scores)
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// One merge: `"a b"` (older files) or `["a", "b"]` (newer ones, which allow spaces in tokens).
struct MergeJson(String, String);

impl<'de> Deserialize<'de> for MergeJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = MergeJson;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a merge, \"left right\" or [\"left\", \"right\"]")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> std::result::Result<MergeJson, E> {
                match s.split_once(' ') {
                    Some((a, b)) if !b.contains(' ') => Ok(MergeJson(a.to_string(), b.to_string())),
                    _ => Err(E::custom(format!("merge {s:?} is not two tokens separated by one space"))),
                }
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<MergeJson, A::Error> {
                let a: String = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let b: String = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(1, &self))?;
                if seq.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(3, &self));
                }
                Ok(MergeJson(a, b))
            }
        }
        deserializer.deserialize_any(V)
    }
}

pub(super) fn build(tokenizer_json: &str, tokenizer_config_json: Option<&str>) -> Result<Tokenizer> {
    let json: TokenizerJson =
        serde_json::from_str(tokenizer_json).map_err(|e| Error::new(format!("tokenizer.json: {e}")))?;
    let config: Value = match tokenizer_config_json {
        Some(text) => serde_json::from_str(text).map_err(|e| Error::new(format!("tokenizer_config.json: {e}")))?,
        None => Value::Null,
    };

    // Ids: the model's vocab, then added tokens (which may extend past it).
    let model_kind = match json.model.kind.as_deref() {
        Some(kind) => kind.to_string(),
        None if !json.model.merges.is_empty() => "BPE".to_string(),
        None => return Err(Error::new("tokenizer.json: model.type is missing")),
    };
    let mut model = json.model;
    let entries = match std::mem::replace(&mut model.vocab, VocabJson::Ids(Vec::new())) {
        VocabJson::Ids(entries) => entries,
        VocabJson::Scores => {
            return Err(Error::new(format!(
                "tokenizer.json: model.type {model_kind}: a vocab of [token, score] pairs (Unigram) is not supported"
            )))
        }
    };
    let size = entries
        .iter()
        .map(|(_, id)| *id as usize + 1)
        .chain(json.added_tokens.iter().map(|t| t.id as usize + 1))
        .max()
        .unwrap_or(0);
    if size > 16 << 20 {
        return Err(Error::new(format!("tokenizer.json: token id {} is implausibly large", size - 1)));
    }
    let mut tokens = vec![String::new(); size];
    let mut kinds = vec![TokenKind::Unused; size];
    let mut lookup = FxHashMap::default();
    lookup.reserve(entries.len());
    for (text, id) in entries {
        tokens[id as usize] = text.clone();
        kinds[id as usize] = TokenKind::Normal;
        lookup.insert(text, id);
    }
    for t in &json.added_tokens {
        tokens[t.id as usize] = t.content.clone();
        kinds[t.id as usize] = if t.special { TokenKind::Control } else { TokenKind::UserDefined };
    }
    let vocab = Vocab::new(tokens, lookup);

    let normalizer = normalizer(&json.normalizer, "normalizer")?;
    let added = json
        .added_tokens
        .iter()
        .map(|t| AddedToken {
            id: t.id,
            content: t.content.clone(),
            special: t.special,
            lstrip: t.lstrip,
            rstrip: t.rstrip,
            single_word: t.single_word,
            normalized: t.normalized.unwrap_or(!t.special),
        })
        .collect();
    let added = AddedTokens::new(added, Flavor::HuggingFace, normalizer.as_ref())?;
    let pre_tokenizer = pre_tokenizer(&json.pre_tokenizer, "pre_tokenizer")?;

    let unk = model.unk_token.as_deref().and_then(|u| vocab.get(u));
    let (model, decode_default) = match model_kind.as_str() {
        "BPE" => {
            if model.dropout.is_some_and(|p| p > 0.0) {
                return Err(Error::new(
                    "tokenizer.json: model.dropout is set; BPE dropout is random and not supported",
                ));
            }
            let options = BpeOptions {
                byte_fallback: model.byte_fallback.then(|| byte_fallback_ids(&vocab)),
                unk,
                fuse_unk: model.fuse_unk,
                ignore_merges: model.ignore_merges,
                continuing_subword_prefix: model.continuing_subword_prefix,
                end_of_word_suffix: model.end_of_word_suffix,
            };
            let merges = model.merges.iter().map(|m| (m.0.as_str(), m.1.as_str()));
            let bpe = Bpe::new(&vocab, merges, options, "tokenizer.json: model.merges", true)?;
            (Model::Bpe(bpe), DecodeRule::Metaspace)
        }
        "WordPiece" => {
            let wp = WordPiece {
                unk,
                word_prefix: String::new(),
                continuing_prefix: model.continuing_subword_prefix.unwrap_or_else(|| "##".into()),
                max_input_chars_per_word: model.max_input_chars_per_word.unwrap_or(100),
            };
            (Model::WordPiece(wp), DecodeRule::WordPieceHashes)
        }
        other => {
            return Err(Error::new(format!(
                "tokenizer.json: model.type {other:?} is not supported (only BPE and WordPiece)"
            )))
        }
    };

    let (prefix, suffix) = post_processor(&json.post_processor, "post_processor", &vocab, &added)?;
    let config_token = |key: &str| -> Option<u32> {
        let name = match config.get(key)? {
            Value::String(s) => s.as_str(),
            Value::Object(o) => o.get("content")?.as_str()?,
            _ => return None,
        };
        added.id_of(name).or_else(|| vocab.get(name))
    };
    let bos = config_token("bos_token").or_else(|| prefix.first().copied());
    let eos_token = config_token("eos_token");
    let mut eos: Vec<u32> = eos_token.into_iter().collect();
    for t in json.added_tokens.iter().filter(|t| EOG_TEXTS.contains(&t.content.as_str())) {
        if !eos.contains(&t.id) {
            eos.push(t.id);
        }
    }

    let (decode_rule, strip_prefix_space) = decoder(&json.decoder, decode_default);
    Ok(Tokenizer {
        vocab,
        kinds,
        flavor: Flavor::HuggingFace,
        added,
        normalizer,
        pre_tokenizer,
        model,
        prefix,
        suffix,
        bos,
        eos,
        decode_rule,
        strip_prefix_space,
    })
}

// ---------------------------------------------------------------------------------------------
// The JSON-walked parts. `path` names the node for error messages ("pre_tokenizer.pretokenizers[1]").

fn object<'a>(value: &'a Value, path: &str) -> Result<&'a Map<String, Value>> {
    value.as_object().ok_or_else(|| Error::new(format!("tokenizer.json: {path} is not an object")))
}

fn type_name<'a>(o: &'a Map<String, Value>, path: &str) -> Result<&'a str> {
    o.get("type").and_then(Value::as_str).ok_or_else(|| Error::new(format!("tokenizer.json: {path}.type is missing")))
}

fn flag(o: &Map<String, Value>, key: &str, default: bool, path: &str) -> Result<bool> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(Error::new(format!("tokenizer.json: {path}.{key} is not a bool"))),
    }
}

fn string<'a>(o: &'a Map<String, Value>, key: &str, path: &str) -> Result<&'a str> {
    o.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| Error::new(format!("tokenizer.json: {path}.{key} is missing or not a string")))
}

fn list<'a>(o: &'a Map<String, Value>, key: &str, path: &str) -> Result<&'a [Value]> {
    o.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .ok_or_else(|| Error::new(format!("tokenizer.json: {path}.{key} is missing or not a list")))
}

fn regex(pattern: &str, path: &str) -> Result<Regex> {
    Regex::new(pattern).map_err(|e| Error::new(format!("tokenizer.json: {path}: regex {pattern:?}: {e}")))
}

/// `{"String": "…"}` or `{"Regex": "…"}`.
fn pattern<'a>(o: &'a Map<String, Value>, path: &str) -> Result<(bool, &'a str)> {
    let p = object(o.get("pattern").unwrap_or(&Value::Null), &format!("{path}.pattern"))?;
    match (p.get("String").and_then(Value::as_str), p.get("Regex").and_then(Value::as_str)) {
        (Some(s), _) => Ok((false, s)),
        (None, Some(r)) => Ok((true, r)),
        _ => {
            Err(Error::new(format!("tokenizer.json: {path}.pattern is neither {{\"String\": …}} nor {{\"Regex\": …}}")))
        }
    }
}

fn normalizer(value: &Value, path: &str) -> Result<Option<Normalizer>> {
    if value.is_null() {
        return Ok(None);
    }
    let o = object(value, path)?;
    Ok(Some(match type_name(o, path)? {
        "NFC" => Normalizer::Nfc,
        "NFD" => Normalizer::Nfd,
        "NFKC" => Normalizer::Nfkc,
        "NFKD" => Normalizer::Nfkd,
        "Lowercase" => Normalizer::Lowercase,
        "StripAccents" => Normalizer::StripAccents,
        "Strip" => {
            Normalizer::Strip { left: flag(o, "strip_left", true, path)?, right: flag(o, "strip_right", true, path)? }
        }
        "Prepend" => Normalizer::Prepend(string(o, "prepend", path)?.to_string()),
        "Replace" => {
            let content = string(o, "content", path)?.to_string();
            let pattern = match pattern(o, path)? {
                (false, s) => Pattern::Literal(s.to_string()),
                (true, r) => Pattern::Regex(regex(r, &format!("{path}.pattern"))?),
            };
            Normalizer::Replace { pattern, content }
        }
        "BertNormalizer" => {
            let lowercase = flag(o, "lowercase", true, path)?;
            Normalizer::Bert {
                clean_text: flag(o, "clean_text", true, path)?,
                handle_chinese_chars: flag(o, "handle_chinese_chars", true, path)?,
                // null: follow `lowercase`, as BERT does.
                strip_accents: flag(o, "strip_accents", lowercase, path)?,
                lowercase,
            }
        }
        "Sequence" => {
            let mut steps = Vec::new();
            for (i, step) in list(o, "normalizers", path)?.iter().enumerate() {
                steps.extend(normalizer(step, &format!("{path}.normalizers[{i}]"))?);
            }
            Normalizer::Sequence(steps)
        }
        other => return Err(Error::new(format!("tokenizer.json: {path}: normalizer type {other:?} is not supported"))),
    }))
}

fn split_behavior(o: &Map<String, Value>, default: SplitBehavior, path: &str) -> Result<SplitBehavior> {
    Ok(match o.get("behavior").and_then(Value::as_str) {
        None => default,
        Some("Removed") => SplitBehavior::Removed,
        Some("Isolated") => SplitBehavior::Isolated,
        Some("MergedWithPrevious") => SplitBehavior::MergedWithPrevious,
        Some("MergedWithNext") => SplitBehavior::MergedWithNext,
        Some("Contiguous") => SplitBehavior::Contiguous,
        Some(other) => {
            return Err(Error::new(format!("tokenizer.json: {path}.behavior {other:?} is not a split behavior")))
        }
    })
}

fn pre_tokenizer(value: &Value, path: &str) -> Result<Option<PreTokenizer>> {
    if value.is_null() {
        return Ok(None);
    }
    let o = object(value, path)?;
    Ok(Some(match type_name(o, path)? {
        "ByteLevel" => PreTokenizer::ByteLevel {
            add_prefix_space: flag(o, "add_prefix_space", true, path)?,
            use_regex: flag(o, "use_regex", true, path)?,
        },
        "Split" => {
            let pattern = match pattern(o, path)? {
                (false, s) => SplitPattern::Literal(s.to_string()),
                (true, r) => SplitPattern::Regex(regex(r, &format!("{path}.pattern"))?),
            };
            PreTokenizer::Split {
                pattern,
                behavior: split_behavior(o, SplitBehavior::Isolated, path)?,
                invert: flag(o, "invert", false, path)?,
            }
        }
        "Metaspace" => {
            let replacement = string(o, "replacement", path)?;
            let mut chars = replacement.chars();
            let (Some(replacement), None) = (chars.next(), chars.next()) else {
                return Err(Error::new(format!("tokenizer.json: {path}.replacement is not one character")));
            };
            let prepend = match o.get("prepend_scheme").and_then(Value::as_str) {
                Some("always") => PrependScheme::Always,
                Some("first") => PrependScheme::First,
                Some("never") => PrependScheme::Never,
                Some(other) => {
                    return Err(Error::new(format!("tokenizer.json: {path}.prepend_scheme {other:?} is unknown")))
                }
                // Files from before `prepend_scheme` have `add_prefix_space`.
                None if flag(o, "add_prefix_space", true, path)? => PrependScheme::Always,
                None => PrependScheme::Never,
            };
            PreTokenizer::Metaspace { replacement, prepend, split: flag(o, "split", true, path)? }
        }
        "Digits" => PreTokenizer::Digits { individual: flag(o, "individual_digits", false, path)? },
        "Whitespace" => PreTokenizer::Whitespace,
        "WhitespaceSplit" => PreTokenizer::WhitespaceSplit,
        "Punctuation" => PreTokenizer::Punctuation(split_behavior(o, SplitBehavior::Isolated, path)?),
        "BertPreTokenizer" => PreTokenizer::Bert,
        "Sequence" => {
            let mut steps = Vec::new();
            for (i, step) in list(o, "pretokenizers", path)?.iter().enumerate() {
                steps.extend(pre_tokenizer(step, &format!("{path}.pretokenizers[{i}]"))?);
            }
            PreTokenizer::Sequence(steps)
        }
        other => {
            return Err(Error::new(format!("tokenizer.json: {path}: pre-tokenizer type {other:?} is not supported")))
        }
    }))
}

/// The ids the post-processor puts before and after a single sequence.
fn post_processor(value: &Value, path: &str, vocab: &Vocab, added: &AddedTokens) -> Result<(Vec<u32>, Vec<u32>)> {
    if value.is_null() {
        return Ok((Vec::new(), Vec::new()));
    }
    let o = object(value, path)?;
    // `[token, id]` as Bert/RobertaProcessing store `cls` and `sep`.
    let pair_id = |key: &str| -> Result<u32> {
        o.get(key)
            .and_then(Value::as_array)
            .and_then(|a| a.get(1))
            .and_then(Value::as_u64)
            .map(|id| id as u32)
            .ok_or_else(|| Error::new(format!("tokenizer.json: {path}.{key} is not [token, id]")))
    };
    Ok(match type_name(o, path)? {
        "ByteLevel" => (Vec::new(), Vec::new()),
        "BertProcessing" | "RobertaProcessing" => (vec![pair_id("cls")?], vec![pair_id("sep")?]),
        "TemplateProcessing" => {
            let specials = o.get("special_tokens").and_then(Value::as_object);
            let (mut before, mut after) = (Vec::new(), Vec::new());
            let mut seen_sequence = false;
            for (i, piece) in list(o, "single", path)?.iter().enumerate() {
                let here = format!("{path}.single[{i}]");
                if piece.get("Sequence").is_some() {
                    seen_sequence = true;
                    continue;
                }
                let name =
                    piece.get("SpecialToken").and_then(|s| s.get("id")).and_then(Value::as_str).ok_or_else(|| {
                        Error::new(format!("tokenizer.json: {here} is neither a Sequence nor a SpecialToken"))
                    })?;
                // The ids come from `special_tokens`; a name without an entry is looked up.
                let ids: Vec<u32> =
                    match specials.and_then(|s| s.get(name)).and_then(|s| s.get("ids")).and_then(Value::as_array) {
                        Some(ids) => ids.iter().filter_map(Value::as_u64).map(|id| id as u32).collect(),
                        None => vec![added.id_of(name).or_else(|| vocab.get(name)).ok_or_else(|| {
                            Error::new(format!("tokenizer.json: {here}: special token {name:?} has no id"))
                        })?],
                    };
                if seen_sequence {
                    after.extend(ids)
                } else {
                    before.extend(ids)
                }
            }
            (before, after)
        }
        "Sequence" => {
            let (mut before, mut after) = (Vec::new(), Vec::new());
            for (i, step) in list(o, "processors", path)?.iter().enumerate() {
                let (b, a) = post_processor(step, &format!("{path}.processors[{i}]"), vocab, added)?;
                // Each processor wraps what the ones before it produced.
                before.splice(0..0, b);
                after.extend(a);
            }
            (before, after)
        }
        other => {
            return Err(Error::new(format!("tokenizer.json: {path}: post-processor type {other:?} is not supported")))
        }
    })
}

/// How tokens turn back into text, and whether the decoder drops the prefix space.
fn decoder(value: &Value, default: DecodeRule) -> (DecodeRule, bool) {
    let mut rule = default;
    let mut strip = false;
    let mut visit = |d: &Value| match d.get("type").and_then(Value::as_str) {
        Some("ByteLevel") => rule = DecodeRule::ByteLevel,
        Some("WordPiece") => rule = DecodeRule::WordPieceHashes,
        Some("Metaspace") => {
            rule = DecodeRule::Metaspace;
            let scheme = d.get("prepend_scheme").and_then(Value::as_str);
            let legacy = d.get("add_prefix_space").and_then(Value::as_bool).unwrap_or(true);
            strip |= matches!(scheme, Some("always") | Some("first")) || scheme.is_none() && legacy;
        }
        Some("Strip") => {
            let content = d.get("content").and_then(Value::as_str);
            strip |= content == Some(" ") && d.get("start").and_then(Value::as_u64).unwrap_or(0) > 0;
        }
        _ => {}
    };
    match value.get("decoders").and_then(Value::as_array) {
        Some(steps) => steps.iter().for_each(&mut visit),
        None => visit(value),
    }
    (rule, strip)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small byte-level BPE tokenizer.json in the layout Llama 3 / Qwen use.
    fn tiny(post: &str) -> String {
        let mut vocab = serde_json::Map::new();
        for b in 0..=255u8 {
            let c = super::super::pretokenize::byte_level_char(b).to_string();
            vocab.insert(c, Value::from(b as u64));
        }
        for (i, t) in ["Ġh", "Ġhi", "hi"].iter().enumerate() {
            vocab.insert(t.to_string(), Value::from(256 + i as u64));
        }
        format!(
            r#"{{"version":"1.0","added_tokens":[{{"id":300,"content":"<s>","single_word":false,"lstrip":false,"rstrip":false,"normalized":false,"special":true}}],
            "normalizer":{{"type":"NFC"}},
            "pre_tokenizer":{{"type":"Sequence","pretokenizers":[{{"type":"Split","pattern":{{"Regex":" ?\\S+|\\s+"}},"behavior":"Isolated","invert":false}},{{"type":"ByteLevel","add_prefix_space":false,"trim_offsets":false,"use_regex":false}}]}},
            "post_processor":{post},
            "decoder":{{"type":"ByteLevel"}},
            "model":{{"type":"BPE","vocab":{},"merges":[["Ġ","h"],"Ġh i","h i"]}}}}"#,
            Value::Object(vocab)
        )
    }

    const TEMPLATE: &str = r#"{"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>","type_id":0}},{"Sequence":{"id":"A","type_id":0}}],"pair":[],"special_tokens":{"<s>":{"id":"<s>","ids":[300],"tokens":["<s>"]}}}"#;

    #[test]
    fn encodes_a_small_byte_level_bpe() {
        let t = Tokenizer::from_hf_json(&tiny(TEMPLATE), None).unwrap();
        assert_eq!(t.encode("hi hi", true, true), [300, 258, 257]);
        assert_eq!(t.encode("hi<s>", false, true), [258, 300]);
        assert_eq!(t.encode("hi<s>", false, false), [258, b'<' as u32, b's' as u32, b'>' as u32]);
        assert_eq!(t.decode(&[300, 258, 257]), "<s>hi hi");
        assert_eq!(t.bos_id(), Some(300));
        let plain = Tokenizer::from_hf_json(&tiny(r#"{"type":"ByteLevel"}"#), None).unwrap();
        assert_eq!(plain.encode("hi", true, true), [258]);
        assert_eq!(plain.vocab_size(), 301);
    }

    #[test]
    fn bad_input_names_the_field() {
        let bad = |json: &str, needle: &str| match Tokenizer::from_hf_json(json, None) {
            Ok(_) => panic!("accepted bad json; expected an error about {needle}"),
            Err(e) => assert!(e.message().contains(needle), "{e} does not mention {needle}"),
        };
        bad("{", "tokenizer.json");
        bad(r#"{"model":{"type":"BPE","merges":[]}}"#, "vocab");
        bad(&tiny(TEMPLATE).replace(r#""type":"NFC""#, r#""type":"Fancy""#), "normalizer: normalizer type \"Fancy\"");
        bad(
            &tiny(TEMPLATE).replace(r#""behavior":"Isolated""#, r#""behavior":"Sideways""#),
            "pre_tokenizer.pretokenizers[0].behavior",
        );
        bad(&tiny(TEMPLATE).replace(r#""h i""#, r#""h q""#), "model.merges[2]");
        bad(
            &tiny(TEMPLATE)
                .replace(r#""ids":[300],"#, "")
                .replace(r#""id":"<s>","type_id":0"#, r#""id":"<x>","type_id":0"#),
            "\"<x>\" has no id",
        );
        bad(&tiny(TEMPLATE).replace(r#"\\S+|\\s+"#, r#"(unclosed"#), "pre_tokenizer.pretokenizers[0].pattern");
    }

    #[test]
    fn config_names_tokens_but_the_post_processor_decides() {
        // As transformers 5 does: add_bos_token in tokenizer_config.json changes nothing.
        let config = r#"{"tokenizer_class":"LlamaTokenizerFast","add_bos_token":false,"bos_token":"<s>","eos_token":{"content":"<s>"}}"#;
        let t = Tokenizer::from_hf_json(&tiny(TEMPLATE), Some(config)).unwrap();
        assert_eq!(t.encode("hi", true, true), [300, 258]);
        assert_eq!((t.bos_id(), t.eos_ids()), (Some(300), vec![300]));
    }
}

#[cfg(test)]
mod sentencepiece_tests {
    use super::*;

    /// Llama 2 / Mistral layout: Prepend + Replace normalizers, no pre-tokenizer, BPE with byte
    /// fallback, a Strip decoder that drops the prefix space.
    fn llama2_style() -> String {
        let mut vocab = vec![r#""<unk>":0"#.to_string(), r#""<s>":1"#.into(), r#""</s>":2"#.into()];
        for b in 0..=255u32 {
            vocab.push(format!(r#""<0x{b:02X}>":{}"#, 3 + b));
        }
        for (i, p) in ["▁", "H", "i", "▁H", "▁Hi"].iter().enumerate() {
            vocab.push(format!(r#""{p}":{}"#, 259 + i));
        }
        format!(
            r#"{{"added_tokens":[{{"id":1,"content":"<s>","special":true,"normalized":false}},{{"id":2,"content":"</s>","special":true,"normalized":false}}],
            "normalizer":{{"type":"Sequence","normalizers":[{{"type":"Prepend","prepend":"▁"}},{{"type":"Replace","pattern":{{"String":" "}},"content":"▁"}}]}},
            "pre_tokenizer":null,
            "post_processor":{{"type":"TemplateProcessing","single":[{{"SpecialToken":{{"id":"<s>","type_id":0}}}},{{"Sequence":{{"id":"A","type_id":0}}}}],"special_tokens":{{"<s>":{{"id":"<s>","ids":[1],"tokens":["<s>"]}}}}}},
            "decoder":{{"type":"Sequence","decoders":[{{"type":"Replace","pattern":{{"String":"▁"}},"content":" "}},{{"type":"ByteFallback"}},{{"type":"Fuse"}},{{"type":"Strip","content":" ","start":1,"stop":0}}]}},
            "model":{{"type":"BPE","unk_token":"<unk>","fuse_unk":true,"byte_fallback":true,"vocab":{{{}}},"merges":["▁ H","▁H i"]}}}}"#,
            vocab.join(",")
        )
    }

    #[test]
    fn byte_fallback_prefix_and_strip() {
        let t = Tokenizer::from_hf_json(&llama2_style(), None).unwrap();
        let ids = t.encode("Hi é", true, true);
        // <s> ▁Hi ▁ <0xC3> <0xA9>
        assert_eq!(ids, [1, 263, 259, 3 + 0xC3, 3 + 0xA9]);
        assert_eq!(t.decode(&ids[1..]), "Hi é");
        assert_eq!(t.decode(&ids), "<s> Hi é"); // the space is only dropped at the very start
        assert_eq!(t.token_bytes(3 + 0xC3), [0xC3]);
        // Each stretch between special tokens is normalized on its own, so each gets its ▁.
        assert_eq!(t.encode("Hi</s>Hi", false, true), [263, 2, 263]);
    }
}
