//! A [`Tokenizer`] from GGUF `tokenizer.ggml.*` metadata, configured as llama.cpp's
//! `llama_vocab::impl::load` configures itself from the same keys.
//!
//! `tokenizer.ggml.model` picks the algorithm:
//! - `llama`: SentencePiece BPE by score (`spm.rs`). Spaces become `▁`, a space is put in front
//!   of each stretch of text unless `tokenizer.ggml.add_space_prefix` is false (Gemma), and
//!   pieces missing from the vocab fall back to `<0xXX>` byte tokens.
//! - `gpt2`: byte-level BPE by merge rank (`bpe.rs`), after the split regexes that
//!   `tokenizer.ggml.pre` names (`pretokenize::llama_cpp_pre`).
//! - `bert`: WordPiece (`wordpiece.rs`) with BERT's normalizer.

use super::added::{AddedToken, AddedTokens};
use super::bpe::{Bpe, BpeOptions};
use super::normalize::{Normalizer, Pattern};
use super::pretokenize::{self, PreTokenizer};
use super::spm::Spm;
use super::wordpiece::WordPiece;
use super::{byte_fallback_ids, DecodeRule, Flavor, FxHashMap, Model, TokenKind, Tokenizer, Vocab, EOG_TEXTS};
use crate::error::{Error, Result};
use crate::formats::gguf::GgufFile;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Spm,
    Bpe,
    WordPiece,
}

/// The tokenizer a GGUF file's `tokenizer.ggml.*` keys describe.
///
/// Long (about 185 lines): it reads the keys in the order llama.cpp's `llama_vocab::impl::load`
/// does (model, tokens, token types, special ids, pre-tokenizer with scores or merges, BOS/EOS
/// flags, end-of-generation ids), so each block can be read beside that function, with the same
/// defaults and the same refusals.
pub(super) fn build(file: &GgufFile) -> Result<Tokenizer> {
    let name = file.name.as_str();
    let missing = |key: &str| Error::new(format!("{name}: metadata key {key} is missing"));
    let model_name = file.get_str("tokenizer.ggml.model")?.ok_or_else(|| missing("tokenizer.ggml.model"))?;
    let kind = match model_name {
        "llama" => Kind::Spm,
        "gpt2" => Kind::Bpe,
        "bert" => Kind::WordPiece,
        other => {
            return Err(Error::new(format!(
                "{name}: tokenizer.ggml.model is {other:?}; supported are \"llama\" (SentencePiece), \"gpt2\" (BPE) and \"bert\" (WordPiece)"
            )))
        }
    };

    // The vocabulary: every token is in the lookup, control tokens included, as in llama.cpp.
    let texts = file.get_string_array("tokenizer.ggml.tokens")?.ok_or_else(|| missing("tokenizer.ggml.tokens"))?;
    let n = texts.len();
    if n == 0 {
        return Err(Error::new(format!("{name}: tokenizer.ggml.tokens is empty")));
    }
    let mut tokens = Vec::with_capacity(n);
    let mut lookup = FxHashMap::default();
    lookup.reserve(n);
    for (i, text) in texts.iter().enumerate() {
        // llama.cpp renames empty tokens rather than refuse the file.
        let text = if text.is_empty() { format!("[EMPTY_{i}]") } else { text.to_string() };
        if let Some(first) = lookup.insert(text.clone(), i as u32) {
            return Err(Error::new(format!("{name}: tokenizer.ggml.tokens has {text:?} twice, at {first} and {i}")));
        }
        tokens.push(text);
    }
    let vocab = Vocab::new(tokens, lookup);

    let mut kinds = match file.get_f64_array("tokenizer.ggml.token_type")? {
        Some(types) if types.len() < n => {
            return Err(Error::new(format!(
                "{name}: tokenizer.ggml.token_type has {} entries for {n} tokens",
                types.len()
            )))
        }
        Some(types) => types[..n].iter().map(|&t| TokenKind::from_gguf(t)).collect(),
        None => vec![TokenKind::Normal; n],
    };

    // Special ids: the model type's defaults (when in range), then the file's keys.
    let default = |id: u32| (id < n as u32).then_some(id);
    let (mut bos, mut eos, mut unk, mut sep) = match kind {
        Kind::Spm => (default(1), default(2), default(0), None),
        Kind::Bpe => (default(11), default(11), None, None),
        Kind::WordPiece => (default(101), None, default(100), default(102)),
    };
    let read_id = |key: &str, current: Option<u32>| -> Result<Option<u32>> {
        Ok(match file.get_u64(key)? {
            // llama.cpp keeps the default for an out-of-range id.
            Some(id) if id < n as u64 => Some(id as u32),
            _ => current,
        })
    };
    if kind == Kind::WordPiece {
        bos = read_id("tokenizer.ggml.cls_token_id", bos)?;
    }
    bos = read_id("tokenizer.ggml.bos_token_id", bos)?;
    eos = read_id("tokenizer.ggml.eos_token_id", eos)?;
    unk = read_id("tokenizer.ggml.unknown_token_id", unk)?;
    sep = read_id("tokenizer.ggml.seperator_token_id", sep)?; // sic: llama.cpp's spelling
    let eot = read_id("tokenizer.ggml.eot_token_id", None)?;
    let eom = read_id("tokenizer.ggml.eom_token_id", None)?;

    let get_bool = |key: &str, default: bool| -> Result<bool> { Ok(file.get_bool(key)?.unwrap_or(default)) };
    let pre_name = file.get_str("tokenizer.ggml.pre")?.unwrap_or("default");
    let (normalizer, pre_tokenizer, model, add_bos, add_space_prefix) = match kind {
        Kind::Spm => {
            let add_space_prefix = get_bool("tokenizer.ggml.add_space_prefix", true)?;
            let mut steps = Vec::new();
            if add_space_prefix {
                steps.push(Normalizer::Prepend(" ".into()));
            }
            steps.push(Normalizer::Replace { pattern: Pattern::Literal(" ".into()), content: "▁".into() });
            let scores = match file.get_f64_array("tokenizer.ggml.scores")? {
                Some(s) if s.len() < n => {
                    return Err(Error::new(format!(
                        "{name}: tokenizer.ggml.scores has {} entries for {n} tokens",
                        s.len()
                    )))
                }
                Some(s) => s[..n].iter().map(|&x| x as f32).collect(),
                None => vec![0.0; n],
            };
            let spm = Spm { scores, byte_ids: byte_fallback_ids(&vocab), unk };
            (Some(Normalizer::Sequence(steps)), None, Model::Spm(spm), true, add_space_prefix)
        }
        Kind::Bpe => {
            let pre = pretokenize::llama_cpp_pre(pre_name).ok_or_else(|| {
                Error::new(format!(
                    "{name}: tokenizer.ggml.pre is {pre_name:?}, a pre-tokenizer llama.cpp does not know"
                ))
            })?;
            let merges =
                file.get_string_array("tokenizer.ggml.merges")?.ok_or_else(|| missing("tokenizer.ggml.merges"))?;
            // llama.cpp splits each merge at the first space after the first byte.
            let pairs = merges.iter().filter_map(|m| {
                let at = m.bytes().skip(1).position(|b| b == b' ')? + 1;
                Some((&m[..at], &m[at + 1..]))
            });
            let options = BpeOptions {
                byte_fallback: None,
                unk: None,
                fuse_unk: false,
                ignore_merges: pre.ignore_merges,
                continuing_subword_prefix: None,
                end_of_word_suffix: None,
            };
            let bpe = Bpe::new(&vocab, pairs, options, &format!("{name}: tokenizer.ggml.merges"), false)?;
            let pre_tokenizer = pretokenize::llama_cpp_pre_tokenizer(pre.regexes).map_err(|e| e.context(name))?;
            (None, Some(pre_tokenizer), Model::Bpe(bpe), pre.add_bos, false)
        }
        Kind::WordPiece => {
            let lowercase = get_bool("tokenizer.ggml.normalizer.lowercase", true)?;
            let strip_accents = get_bool("tokenizer.ggml.normalizer.strip_accents", lowercase)?;
            let normalizer =
                Normalizer::Bert { clean_text: true, handle_chinese_chars: true, strip_accents, lowercase };
            // llama.cpp has no word-length limit (HF's is 100 chars).
            let wp = WordPiece {
                unk,
                word_prefix: "▁".into(),
                continuing_prefix: String::new(),
                max_input_chars_per_word: usize::MAX,
            };
            (Some(normalizer), Some(PreTokenizer::Bert), Model::WordPiece(wp), true, false)
        }
    };

    // BOS/EOS around the text, as `llama_vocab::impl::tokenize` adds them.
    let add_bos = get_bool("tokenizer.ggml.add_bos_token", add_bos)?;
    let add_eos = get_bool("tokenizer.ggml.add_eos_token", false)?;
    let need = |add: bool, id: Option<u32>, what: &str| -> Result<Vec<u32>> {
        match (add, id) {
            (false, _) => Ok(Vec::new()),
            (true, Some(id)) => Ok(vec![id]),
            (true, None) => Err(Error::new(format!(
                "{name}: tokenizer.ggml.add_{what}_token is true, but there is no {what} token"
            ))),
        }
    };
    let (prefix, suffix) = match kind {
        // llama.cpp's WPM path adds [CLS] … [SEP] whenever add_special is set.
        Kind::WordPiece => (need(true, bos, "bos")?, need(true, sep, "sep")?),
        _ => (need(add_bos, bos, "bos")?, need(add_eos, eos, "eos")?),
    };

    // End-of-generation ids; llama.cpp also makes such tokens control tokens.
    let mut eog: Vec<u32> = [eos, eot, eom].into_iter().flatten().collect();
    for (id, text) in vocab.tokens.iter().enumerate() {
        if EOG_TEXTS.contains(&text.as_str()) {
            if kinds[id] != TokenKind::Control {
                kinds[id] = TokenKind::Control;
            }
            if !eog.contains(&(id as u32)) {
                eog.push(id as u32);
            }
        }
    }

    let added = AddedTokens::new(special_tokens(file, &vocab, &kinds)?, Flavor::LlamaCpp, None)?;
    Ok(Tokenizer {
        vocab,
        kinds,
        flavor: Flavor::LlamaCpp,
        added,
        normalizer,
        pre_tokenizer,
        model,
        prefix,
        suffix,
        bos,
        eos: eog,
        decode_rule: match kind {
            Kind::Spm => DecodeRule::Metaspace,
            Kind::Bpe => DecodeRule::ByteLevel,
            Kind::WordPiece => DecodeRule::WordPiecePhantom,
        },
        strip_prefix_space: add_space_prefix,
    })
}

/// llama.cpp's `cache_special_tokens`: control, user-defined and unknown tokens, split out of
/// the text before tokenizing, with the per-model strip flags `load` sets by name.
fn special_tokens(file: &GgufFile, vocab: &Vocab, kinds: &[TokenKind]) -> Result<Vec<AddedToken>> {
    let model_name = file.get_str("general.name")?.unwrap_or("").to_lowercase();
    let pre = file.get_str("tokenizer.ggml.pre")?.unwrap_or("");
    let arch = file.get_str("general.architecture")?.unwrap_or("");
    let phi3 = model_name.contains("phi-3") || model_name.contains("phi3");
    let mask_lstrip = match () {
        _ if ["jina-v2-de", "jina-v2-es", "jina-v2-code"].iter().any(|p| pre.contains(p))
            || ["nomic-bert-moe", "jina-bert-v3"].iter().any(|a| arch.contains(a)) =>
        {
            Some("<mask>")
        }
        _ if model_name.contains("modern-bert") => Some("[MASK]"),
        _ => None,
    };
    let mut specials = Vec::new();
    for (id, text) in vocab.tokens.iter().enumerate() {
        let kind = kinds[id];
        if !matches!(kind, TokenKind::Control | TokenKind::UserDefined | TokenKind::Unknown) {
            continue;
        }
        // Phi-3: every special token swallows the whitespace after it, but these three.
        let rstrip_phi3 = phi3 && !matches!(text.as_str(), "<unk>" | "<s>" | "<|endoftext|>");
        specials.push(AddedToken {
            id: id as u32,
            content: text.clone(),
            special: matches!(kind, TokenKind::Control | TokenKind::Unknown),
            lstrip: mask_lstrip == Some(text.as_str()),
            rstrip: rstrip_phi3,
            single_word: false,
            normalized: false,
        });
    }
    Ok(specials)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::gguf::Value;

    /// A vocab-only GGUF header as the converters write it, held in memory.
    fn gguf(model: &str, tokens: &[(&str, f32, i32)], extra: Vec<(&str, Value)>) -> GgufFile {
        let mut metadata: std::collections::BTreeMap<String, Value> = [
            ("tokenizer.ggml.model", Value::String(model.into())),
            ("tokenizer.ggml.tokens", Value::Array(tokens.iter().map(|t| Value::String(t.0.into())).collect())),
            ("tokenizer.ggml.scores", Value::Array(tokens.iter().map(|t| Value::F32(t.1)).collect())),
            ("tokenizer.ggml.token_type", Value::Array(tokens.iter().map(|t| Value::I32(t.2)).collect())),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        metadata.extend(extra.into_iter().map(|(k, v)| (k.to_string(), v)));
        GgufFile { name: "t.gguf".into(), version: 3, metadata, tensors: Vec::new(), data_offset: 0, file_len: 0 }
    }

    /// A SentencePiece vocab: specials, a few pieces (scores = merge priority), all 256 bytes.
    fn spm_tokens() -> Vec<(String, f32, i32)> {
        let mut t: Vec<(String, f32, i32)> = vec![
            ("<unk>".into(), 0.0, 2),
            ("<s>".into(), 0.0, 3),
            ("</s>".into(), 0.0, 3),
            ("<start_of_turn>".into(), 0.0, 4),
        ];
        for (piece, score) in
            [("▁", -1.0), ("H", -2.0), ("i", -2.0), ("Hi", -3.0), ("▁Hi", -4.0), ("▁H", -5.0), ("!", -2.0)]
        {
            t.push((piece.into(), score, 1));
        }
        t.extend((0..=255u8).map(|b| (format!("<0x{b:02X}>"), 0.0, 6)));
        t
    }

    fn build_spm(extra: Vec<(&str, Value)>) -> Tokenizer {
        let owned = spm_tokens();
        let tokens: Vec<(&str, f32, i32)> = owned.iter().map(|(s, f, k)| (s.as_str(), *f, *k)).collect();
        build(&gguf("llama", &tokens, extra)).unwrap()
    }

    fn pieces(t: &Tokenizer, ids: &[u32]) -> Vec<String> {
        ids.iter().map(|&id| t.id_to_token(id).unwrap().to_string()).collect()
    }

    #[test]
    fn sentencepiece_prefix_space_bos_and_byte_fallback() {
        let t = build_spm(vec![]);
        // add_space_prefix defaults to true: "Hi" is "▁Hi"; BOS by default for SentencePiece.
        let ids = t.encode("Hi", true, false);
        assert_eq!(pieces(&t, &ids), ["<s>", "▁Hi"]);
        assert_eq!(t.decode(&ids[1..]), "Hi");
        // é is no piece: its UTF-8 bytes.
        assert_eq!(pieces(&t, &t.encode("Hié", false, false)), ["▁Hi", "<0xC3>", "<0xA9>"]);
        assert_eq!(t.decode(&t.encode("Hié", false, false)), "Hié");
    }

    #[test]
    fn gemma_style_no_prefix_space() {
        let t = build_spm(vec![("tokenizer.ggml.add_space_prefix", Value::Bool(false))]);
        assert_eq!(pieces(&t, &t.encode("Hi", false, false)), ["Hi"]);
        assert_eq!(pieces(&t, &t.encode(" Hi", false, false)), ["▁Hi"]);
        assert_eq!(t.decode(&t.encode(" Hi", false, false)), " Hi");
    }

    #[test]
    fn control_tokens_only_with_parse_special_user_defined_always() {
        let t = build_spm(vec![]);
        // After a special token the text gets its prefix space again, as in llama.cpp.
        assert_eq!(pieces(&t, &t.encode("Hi</s>Hi", false, true)), ["▁Hi", "</s>", "▁Hi"]);
        assert_ne!(pieces(&t, &t.encode("Hi</s>", false, false))[1], "</s>");
        assert_eq!(pieces(&t, &t.encode("<start_of_turn>Hi", false, false)), ["<start_of_turn>", "▁Hi"]);
        assert_eq!(t.decode(&t.encode("Hi</s>", false, true)), "Hi</s>");
    }

    #[test]
    fn add_bos_and_eos_keys() {
        let t = build_spm(vec![
            ("tokenizer.ggml.add_bos_token", Value::Bool(false)),
            ("tokenizer.ggml.add_eos_token", Value::Bool(true)),
        ]);
        assert_eq!(pieces(&t, &t.encode("Hi", true, false)), ["▁Hi", "</s>"]);
        assert_eq!(t.bos_id(), Some(1));
        assert!(t.eos_ids().contains(&2));
    }

    #[test]
    fn missing_and_wrong_keys_are_named() {
        let owned = spm_tokens();
        let tokens: Vec<(&str, f32, i32)> = owned.iter().map(|(s, f, k)| (s.as_str(), *f, *k)).collect();
        let mut file = gguf("llama", &tokens, vec![]);
        file.metadata.remove("tokenizer.ggml.tokens");
        assert!(build(&file).err().unwrap().message().contains("tokenizer.ggml.tokens is missing"));
        let file = gguf("t5", &tokens, vec![]);
        assert!(build(&file).err().unwrap().message().contains("tokenizer.ggml.model is \"t5\""));
        let file = gguf("gpt2", &tokens, vec![("tokenizer.ggml.merges", Value::Array(vec![]))]);
        let file = GgufFile {
            metadata: {
                let mut m = file.metadata;
                m.insert("tokenizer.ggml.pre".into(), Value::String("nonesuch".into()));
                m
            },
            ..file
        };
        assert!(build(&file).err().unwrap().message().contains("tokenizer.ggml.pre is \"nonesuch\""));
        let mut file = gguf("llama", &tokens, vec![]);
        file.metadata.insert("tokenizer.ggml.scores".into(), Value::Array(vec![Value::F32(0.0)]));
        assert!(build(&file).err().unwrap().message().contains("tokenizer.ggml.scores has 1 entries"));
    }
}
