//! Text → token ids → text, matching the reference tokenizers id for id: llama.cpp
//! (`src/llama-vocab.cpp`) for a GGUF file's `tokenizer.ggml.*` metadata, and Hugging Face
//! `tokenizers` for a `tokenizer.json`. Owns no model code and reads no files: constructors
//! take a parsed GGUF header or the JSON text, so the same code runs natively and in wasm32.
//!
//! Both references run the same pipeline, and so does [`Tokenizer::encode`]:
//!
//! 1. **added tokens** — special/added token text in the input is cut out first (`added.rs`);
//! 2. **normalizer** — per remaining piece: NFC, `' '` → `▁`, a prefix space, … (`normalize.rs`);
//! 3. **pre-tokenizer** — regex splits into words, then GPT-2's byte-to-unicode map (`pretokenize.rs`);
//! 4. **model** — each word becomes ids: BPE by merge rank (`bpe.rs`), SentencePiece BPE by score
//!    (`spm.rs`) or WordPiece (`wordpiece.rs`);
//! 5. **post-processor** — BOS/EOS around the whole thing.
//!
//! What differs between the references is configuration, built in `from_gguf.rs` and
//! `from_hf.rs`, plus two rules that live here as [`Flavor`]: how overlapping added tokens are
//! chosen, and what text a token stands for when decoding.

mod added;
mod bpe;
mod from_gguf;
mod from_hf;
mod normalize;
mod pretokenize;
mod spm;
mod wordpiece;

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::error::Result;
use crate::formats::gguf::GgufFile;

use added::{AddedTokens, Piece};
use bpe::Bpe;
use normalize::Normalizer;
use pretokenize::{PreTokenizer, Word};
use spm::Spm;
use wordpiece::WordPiece;

/// A tokenizer built from a GGUF header or a `tokenizer.json`. Immutable once built; `encode`
/// and `decode` take `&self`.
pub struct Tokenizer {
    vocab: Vocab,
    /// llama.cpp token types (`tokenizer.ggml.token_type`); for tokenizer.json, `Control` marks
    /// the added tokens flagged `special` and `UserDefined` the other added tokens.
    kinds: Vec<TokenKind>,
    flavor: Flavor,
    added: AddedTokens,
    normalizer: Option<Normalizer>,
    pre_tokenizer: Option<PreTokenizer>,
    model: Model,
    /// Ids that `encode(…, add_special = true, …)` puts before and after the text.
    prefix: Vec<u32>,
    suffix: Vec<u32>,
    bos: Option<u32>,
    eos: Vec<u32>,
    /// How a token's text maps back to bytes.
    decode_rule: DecodeRule,
    /// Drop one leading space from the decoded text (the space the tokenizer itself added in
    /// front: SentencePiece's `add_space_prefix`, HF's Metaspace prepend / `Strip` decoder).
    strip_prefix_space: bool,
}

/// Which reference a tokenizer follows where llama.cpp and HF `tokenizers` differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flavor {
    /// llama.cpp: added tokens are split out longest token first across the whole text
    /// (`tokenizer_st_partition`); the vocabulary lookup covers every token.
    LlamaCpp,
    /// HF: added tokens are matched leftmost-longest (`AddedVocabulary::find_matches`); the
    /// vocabulary lookup covers the model's vocab only, not the added tokens.
    HuggingFace,
}

/// llama.cpp's `llama_token_type` (the values stored in `tokenizer.ggml.token_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    Normal,
    Unknown,
    Control,
    UserDefined,
    Unused,
    Byte,
}

impl TokenKind {
    fn from_gguf(value: f64) -> TokenKind {
        match value as i64 {
            1 => TokenKind::Normal,
            2 => TokenKind::Unknown,
            3 => TokenKind::Control,
            4 => TokenKind::UserDefined,
            5 => TokenKind::Unused,
            6 => TokenKind::Byte,
            // 0 (undefined) and anything else: llama.cpp's LLAMA_TOKEN_ATTR_UNDEFINED, which it
            // treats as neither normal nor special.
            _ => TokenKind::Unused,
        }
    }
}

/// The token strings by id, and the lookup from string to id the models use.
struct Vocab {
    tokens: Vec<String>,
    lookup: FxHashMap<String, u32>,
    /// The longest token in bytes: no piece longer than this can match (WordPiece uses it to stay
    /// linear in a word's length).
    longest: usize,
}

impl Vocab {
    fn new(tokens: Vec<String>, lookup: FxHashMap<String, u32>) -> Vocab {
        let longest = lookup.keys().map(String::len).max().unwrap_or(0);
        Vocab { tokens, lookup, longest }
    }

    fn get(&self, text: &str) -> Option<u32> {
        self.lookup.get(text).copied()
    }
}

enum Model {
    Bpe(Bpe),
    Spm(Spm),
    WordPiece(WordPiece),
}

/// How token text maps back to the bytes it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DecodeRule {
    /// GPT-2 byte-level: each char of the token is one byte (`pretokenize::byte_level_char`).
    ByteLevel,
    /// SentencePiece: `▁` is a space and `<0xXX>` is the byte XX.
    Metaspace,
    /// WordPiece in llama.cpp's GGUF form: word starts carry `▁`, continuations nothing.
    WordPiecePhantom,
    /// WordPiece in HF form: continuations carry `##`, word starts nothing.
    WordPieceHashes,
}

impl Tokenizer {
    /// A tokenizer from GGUF `tokenizer.ggml.*` metadata, with llama.cpp's semantics.
    pub fn from_gguf(file: &GgufFile) -> Result<Tokenizer> {
        from_gguf::build(file)
    }

    /// A tokenizer from a Hugging Face `tokenizer.json` (and optionally its
    /// `tokenizer_config.json`), with HF `tokenizers`' semantics.
    pub fn from_hf_json(tokenizer_json: &str, tokenizer_config_json: Option<&str>) -> Result<Tokenizer> {
        from_hf::build(tokenizer_json, tokenizer_config_json)
    }

    /// Token ids for `text`.
    ///
    /// `add_special`: add BOS/EOS as the reference does by default (GGUF:
    /// `tokenizer.ggml.add_bos_token` and friends; tokenizer.json: its post-processor).
    /// `parse_special`: recognise the text of special tokens in the input (HF `encode()` does,
    /// llama.cpp does with `special = true`). Non-special added tokens (HF) and user-defined
    /// tokens (llama.cpp) are recognised either way, as in both references.
    pub fn encode(&self, text: &str, add_special: bool, parse_special: bool) -> Vec<u32> {
        let mut ids = Vec::with_capacity(text.len() / 3 + 4);
        if add_special {
            ids.extend_from_slice(&self.prefix);
        }
        for piece in self.added.split(text, parse_special, self.flavor) {
            match piece {
                Piece::Token(id) => ids.push(id),
                Piece::Text { text, at_start } => self.encode_text(text, at_start, parse_special, &mut ids),
            }
        }
        if add_special {
            ids.extend_from_slice(&self.suffix);
        }
        ids
    }

    /// Steps 2–4 for one stretch of text between added tokens.
    fn encode_text(&self, text: &str, at_start: bool, parse_special: bool, ids: &mut Vec<u32>) {
        let normalized = match &self.normalizer {
            Some(n) => Cow::Owned(n.normalize(text)),
            None => Cow::Borrowed(text),
        };
        // HF only: added tokens flagged `normalized` are matched after normalization.
        for piece in self.added.split_normalized(&normalized, at_start, parse_special) {
            match piece {
                Piece::Token(id) => ids.push(id),
                Piece::Text { text, at_start } => {
                    let words = match &self.pre_tokenizer {
                        Some(p) => p.pre_tokenize(text, at_start),
                        None => vec![Word { text: text.to_string(), at_start }],
                    };
                    for word in &words {
                        self.tokenize_word(&word.text, ids);
                    }
                }
            }
        }
    }

    fn tokenize_word(&self, word: &str, ids: &mut Vec<u32>) {
        match &self.model {
            Model::Bpe(bpe) => bpe.tokenize(&self.vocab, word, ids),
            Model::Spm(spm) => spm.tokenize(&self.vocab, word, ids),
            Model::WordPiece(wp) => wp.tokenize(&self.vocab, word, ids),
        }
    }

    /// The text of `ids`, special tokens included as their text. Byte-level and byte-fallback
    /// tokens are joined into bytes first, so a character split across tokens comes back whole;
    /// bytes that are still not UTF-8 become U+FFFD.
    pub fn decode(&self, ids: &[u32]) -> String {
        let mut bytes = Vec::with_capacity(ids.len() * 4);
        for (i, &id) in ids.iter().enumerate() {
            let piece = self.token_bytes(id);
            let piece = if i == 0 && self.strip_prefix_space && piece.first() == Some(&b' ') {
                &piece[1..]
            } else {
                &piece[..]
            };
            bytes.extend_from_slice(piece);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// The raw bytes token `id` stands for (a byte-level token may be part of a UTF-8
    /// character). Special tokens give their text; an id out of range gives nothing.
    pub fn token_bytes(&self, id: u32) -> Vec<u8> {
        let Some(text) = self.vocab.tokens.get(id as usize) else { return Vec::new() };
        let kind = self.kinds[id as usize];
        // llama.cpp prints control and user-defined tokens as they are (`token_to_piece`);
        // HF runs every token, added ones too, through the decoder.
        if self.flavor == Flavor::LlamaCpp
            && matches!(kind, TokenKind::Control | TokenKind::UserDefined | TokenKind::Unknown)
        {
            return text.as_bytes().to_vec();
        }
        if kind == TokenKind::Byte {
            if let Some(b) = byte_fallback_value(text) {
                return vec![b];
            }
        }
        match self.decode_rule {
            DecodeRule::ByteLevel => pretokenize::byte_level_decode(text),
            DecodeRule::Metaspace => match byte_fallback_value(text) {
                // HF's ByteFallback decoder reads any `<0xXX>`; llama.cpp only BYTE-typed ones (above).
                Some(b) if self.flavor == Flavor::HuggingFace => vec![b],
                _ => text.replace('▁', " ").into_bytes(),
            },
            DecodeRule::WordPiecePhantom => text.replace('▁', " ").into_bytes(),
            DecodeRule::WordPieceHashes => match text.strip_prefix("##") {
                Some(rest) => rest.as_bytes().to_vec(),
                None if kind == TokenKind::Normal => format!(" {text}").into_bytes(),
                None => text.as_bytes().to_vec(),
            },
        }
    }

    /// The token's string as stored in the vocabulary (`Ġ`/`▁`/`<0xXX>` forms and all).
    pub fn id_to_token(&self, id: u32) -> Option<&str> {
        self.vocab.tokens.get(id as usize).map(String::as_str)
    }

    /// The id of a vocabulary string, added tokens included.
    pub fn token_to_id(&self, token: &str) -> Option<u32> {
        self.vocab.get(token).or_else(|| self.added.id_of(token))
    }

    pub fn token_kind(&self, id: u32) -> Option<TokenKind> {
        self.kinds.get(id as usize).copied()
    }

    /// Number of ids (the largest id + 1; for tokenizer.json this counts added tokens too).
    pub fn vocab_size(&self) -> usize {
        self.vocab.tokens.len()
    }

    pub fn bos_id(&self) -> Option<u32> {
        self.bos
    }

    /// Every id that ends generation: EOS, and the end-of-turn tokens llama.cpp recognises by
    /// their text (`<|eot_id|>`, `<|im_end|>`, `<end_of_turn>`, …).
    pub fn eos_ids(&self) -> Vec<u32> {
        self.eos.clone()
    }
}

/// `<0xAB>` → 0xAB: SentencePiece's byte-fallback tokens.
fn byte_fallback_value(text: &str) -> Option<u8> {
    let hex = text.strip_prefix("<0x")?.strip_suffix('>')?;
    if hex.len() != 2 {
        return None;
    }
    u8::from_str_radix(hex, 16).ok()
}

/// The `<0xAB>` token id for each byte, where the vocabulary has one.
fn byte_fallback_ids(vocab: &Vocab) -> [Option<u32>; 256] {
    let mut ids = [None; 256];
    for (b, id) in ids.iter_mut().enumerate() {
        *id = vocab.get(&format!("<0x{b:02X}>"));
    }
    ids
}

/// Texts llama.cpp treats as end of generation (`llama_vocab::impl::load`, `special_eog_ids`).
const EOG_TEXTS: &[&str] = &[
    "<|eot_id|>",
    "<|im_end|>",
    "<|end|>",
    "<|return|>",
    "<|call|>",
    "<end_of_turn>",
    "<|endoftext|>",
    "<|eom_id|>",
    "<EOT>",
    "_<EOT>",
    "<|end_of_text|>",
    "<end_of_utterance>",
    "<｜end▁of▁sentence｜>",
    "<eos>",
];

/// FxHash (rustc's hasher): the maps here are keyed by short strings and id pairs on the hot
/// path, where SipHash's DoS resistance buys nothing.
#[derive(Default, Clone, Copy)]
struct FxHasher {
    hash: u64,
}

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(buf));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // The multiply mixes into the high bits only; hashbrown indexes by the low ones, so keys
        // sharing a prefix (`<0x41>`, `<0x42>`, …) would pile up. rustc-hash 2 rotates the same way.
        self.hash.rotate_left(26)
    }
}

type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_fallback_tokens_parse() {
        assert_eq!(byte_fallback_value("<0x0A>"), Some(10));
        assert_eq!(byte_fallback_value("<0xff>"), Some(255));
        assert_eq!(byte_fallback_value("<0x0A"), None);
        assert_eq!(byte_fallback_value("<0x123>"), None);
        assert_eq!(byte_fallback_value("▁the"), None);
    }
}
