#!/usr/bin/env python3
"""A ~125M-parameter random-weight Llama GGUF for `lingualens bench` (timing only: never committed).

    python make_bench_model.py OUT_DIR [Q8_0,Q4_0,Q4_K_M] [--vocab VOCAB_GGUF]

hidden 768, 12 layers, 12 heads (head_dim 64), 4 KV heads, FFN 2048, vocab 32000, untied output
(the oracle's make_bench_gguf.py, shared/tools/oracle). The SentencePiece vocabulary of Llama 2 is
copied from llama.cpp's models/ggml-vocab-llama-spm.gguf (default: the copy in
$LINGUALENS_SHARED/datasets/llama-cpp-vocab, or ../shared beside the repository). Weights are
seeded, so every run writes the same files; quantization is gguf.quants (byte-identical to
llama.cpp's own quantizer for Q8_0 and Q4_0). Q4_K_M, the mix people download (Q4_K, with Q6_K
for the output, half the ffn_down and attn_v), is made by llama.cpp's own quantizer
(`llama_model_quantize` through llama-cpp-python) from the F32 file, as `llama-quantize` would.
Writes OUT_DIR/bench-llama-125m-<TYPE>.gguf.

    python make_bench_model.py OUT_DIR Q4_K_M --shape gemma3-270m [--layers N] [--vocab-size N]

Gemma 3 270M's shapes instead (hidden 640, 18 layers, 4 query heads of width 256 over 1 KV head,
FFN 2048, vocabulary 262,144, tied output; five sliding-window layers of 512 to one global, per-head
q/k norms, pre and post norms), random weights, the same SentencePiece vocabulary padded with
unused tokens to the size. Its rows are 640 wide, not a multiple of 256, so llama.cpp's Q4_K_M
quantizer falls back as it does on the real file: Q5_0 for most matrices, Q8_0 for the embedding
(also the output) and half the attn_v, Q4_K and Q6_K for ffn_down. `--layers` and `--vocab-size`
make a smaller file of the same widths and type mix (the tests' fixture). Writes
OUT_DIR/bench-gemma3-270m[-<N>l][-v<N>]-<TYPE>.gguf.

    python make_bench_model.py OUT_DIR Q4_K_M --shape llama3.2-1b

Llama 3.2 1B's shapes (hidden 2048, 16 layers, 32 query heads of 64 over 8 KV heads, FFN 8192,
vocabulary 128,256, tied output), random weights, the SentencePiece vocabulary padded to the size
(for timing: Llama 3's own BPE vocabulary and its rope scaling are not needed for that). F16 first,
then llama.cpp's quantizer, so Q4_K_M is the real file's mix (808 MB: Q4_K, Q6_K for the tied
embedding and half of attn_v and ffn_down). Writes OUT_DIR/bench-llama3.2-1b-<TYPE>.gguf.
"""
import argparse
import os

import numpy as np

import gguf
from gguf import GGMLQuantizationType as QT
from gguf import LlamaFileType as FT

H, L, NH, NKV, FF, V = 768, 12, 12, 4, 2048, 32000
HD = H // NH
FTYPES = {"F32": (QT.F32, FT.ALL_F32), "F16": (QT.F16, FT.MOSTLY_F16),
          "Q8_0": (QT.Q8_0, FT.MOSTLY_Q8_0), "Q4_0": (QT.Q4_0, FT.MOSTLY_Q4_0)}


def default_vocab():
    shared = os.environ.get("LINGUALENS_SHARED") or os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared")
    return os.path.join(shared, "datasets", "llama-cpp-vocab", "models", "ggml-vocab-llama-spm.gguf")


def copy_vocab(src, w, pad_to=V):
    """The SentencePiece vocabulary of `src`, padded to `pad_to` tokens with unused ones."""
    r = gguf.GGUFReader(src)
    n = len(r.fields["tokenizer.ggml.tokens"].data)
    assert n <= pad_to, f"{src} has {n} tokens, more than {pad_to}"
    pad = {"tokenizer.ggml.tokens": [f"<unused{i}>" for i in range(pad_to - n)],
           "tokenizer.ggml.scores": [0.0] * (pad_to - n),
           "tokenizer.ggml.token_type": [int(gguf.TokenType.UNUSED)] * (pad_to - n)}
    for key in ("tokenizer.ggml.model", "tokenizer.ggml.tokens", "tokenizer.ggml.scores",
                "tokenizer.ggml.token_type", "tokenizer.ggml.bos_token_id", "tokenizer.ggml.eos_token_id",
                "tokenizer.ggml.unknown_token_id", "tokenizer.ggml.padding_token_id"):
        f = r.fields.get(key)
        if f is None:
            continue
        if f.types[0] == gguf.GGUFValueType.ARRAY:
            w.add_array(key, [f.contents(i) for i in range(len(f.data))] + pad.get(key, []))
        else:
            w.add_key_value(key, f.contents(), f.types[0])


def tensors():
    rng = np.random.default_rng(7)
    out = [("token_embd.weight", rng.standard_normal((V, H), dtype=np.float32) * 0.5),
           ("output_norm.weight", 1 + 0.1 * rng.standard_normal(H, dtype=np.float32)),
           ("output.weight", rng.standard_normal((V, H), dtype=np.float32) / np.sqrt(H))]
    for i in range(L):
        p = f"blk.{i}."
        out += [
            (p + "attn_norm.weight", 1 + 0.1 * rng.standard_normal(H, dtype=np.float32)),
            (p + "attn_q.weight", rng.standard_normal((NH * HD, H), dtype=np.float32) / np.sqrt(H)),
            (p + "attn_k.weight", rng.standard_normal((NKV * HD, H), dtype=np.float32) / np.sqrt(H)),
            (p + "attn_v.weight", rng.standard_normal((NKV * HD, H), dtype=np.float32) / np.sqrt(H)),
            (p + "attn_output.weight", rng.standard_normal((H, NH * HD), dtype=np.float32) / np.sqrt(H)),
            (p + "ffn_norm.weight", 1 + 0.1 * rng.standard_normal(H, dtype=np.float32)),
            (p + "ffn_gate.weight", rng.standard_normal((FF, H), dtype=np.float32) / np.sqrt(H)),
            (p + "ffn_up.weight", rng.standard_normal((FF, H), dtype=np.float32) / np.sqrt(H)),
            (p + "ffn_down.weight", rng.standard_normal((H, FF), dtype=np.float32) / np.sqrt(FF)),
        ]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("types", nargs="?", default="Q8_0,Q4_0")
    ap.add_argument("--vocab", default=default_vocab())
    ap.add_argument("--shape", choices=["llama-125m", "gemma3-270m", "llama3.2-1b"], default="llama-125m")
    ap.add_argument("--layers", type=int, default=GEMMA["layers"])
    ap.add_argument("--vocab-size", type=int, default=GEMMA["vocab"])
    a = ap.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
    if a.shape == "gemma3-270m":
        for ft in a.types.split(","):
            gemma3_shaped(a.out_dir, ft, a.layers, a.vocab_size, a.vocab)
        return 0
    if a.shape == "llama3.2-1b":
        for ft in a.types.split(","):
            llama32_1b_shaped(a.out_dir, ft, a.vocab)
        return 0
    weights = tensors()
    print(f"{sum(t.size for _, t in weights) / 1e6:.1f}M parameters")
    for ft in a.types.split(","):
        if ft == "Q4_K_M":
            quantize_q4_k_m(a.out_dir, weights, a.vocab)
        else:
            write(a.out_dir, ft, weights, a.vocab)
    return 0


def write(out_dir, ft, weights, vocab):
    """OUT_DIR/bench-llama-125m-<ft>.gguf, every 2-D tensor in `ft` (F32, F16 or a gguf.quants type)."""
    qtype, ftype = FTYPES[ft]
    path = os.path.join(out_dir, f"bench-llama-125m-{ft}.gguf")
    w = gguf.GGUFWriter(path, "llama")
    w.add_name(f"bench-llama-125m-{ft}")
    w.add_file_type(int(ftype))
    if qtype not in (QT.F32, QT.F16):
        w.add_quantization_version(gguf.GGML_QUANT_VERSION)
    w.add_block_count(L)
    w.add_context_length(2048)
    w.add_embedding_length(H)
    w.add_feed_forward_length(FF)
    w.add_head_count(NH)
    w.add_head_count_kv(NKV)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_rope_freq_base(500000.0)
    w.add_rope_dimension_count(HD)
    w.add_vocab_size(V)
    copy_vocab(vocab, w)
    for name, data in weights:
        if data.ndim == 1 or qtype == QT.F32:
            # `/ np.sqrt(H)` made some float64 (a NumPy scalar is not weakly typed).
            w.add_tensor(name, data.astype(np.float32))
        elif qtype == QT.F16:
            w.add_tensor(name, data.astype(np.float16))
        else:
            q = gguf.quants.quantize(data, qtype)
            w.add_tensor(name, q, raw_shape=q.shape, raw_dtype=qtype)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    print(f"{path}: {os.path.getsize(path) / 2**20:.1f} MiB")
    return path


def quantize_q4_k_m(out_dir, weights, vocab):
    """The F32 file (written first if missing), then llama.cpp's Q4_K_M quantizer on it."""
    import llama_cpp
    f32 = os.path.join(out_dir, "bench-llama-125m-F32.gguf")
    if not os.path.exists(f32):
        write(out_dir, "F32", weights, vocab)
    out = os.path.join(out_dir, "bench-llama-125m-Q4_K_M.gguf")
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = llama_cpp.LLAMA_FTYPE_MOSTLY_Q4_K_M
    rc = llama_cpp.llama_model_quantize(f32.encode(), out.encode(), params)
    assert rc == 0, f"llama_model_quantize {f32} -> Q4_K_M: {rc}"
    print(f"{out}: {os.path.getsize(out) / 2**20:.1f} MiB")


# Gemma 3 270M (google/gemma-3-270m's config.json).
GEMMA = dict(hidden=640, layers=18, heads=4, kv_heads=1, head_dim=256, ffn=2048, vocab=262144,
             window=512, pattern=6, theta=1_000_000.0, local_theta=10_000.0, eps=1e-6)


def gemma3_shaped(out_dir, ft, layers, vocab_size, vocab):
    """A random Gemma 3 of 270M's widths with `layers` layers and `vocab_size` tokens, as F16, then
    llama.cpp's quantizer to `ft` (Q4_K_M, Q8_0, ...) unless `ft` is F16."""
    g = GEMMA
    H, HD, NH, NKV, FF = g["hidden"], g["head_dim"], g["heads"], g["kv_heads"], g["ffn"]
    name = "bench-gemma3-270m"
    if layers != g["layers"]:
        name += f"-{layers}l"
    if vocab_size != g["vocab"]:
        name += f"-v{vocab_size}"
    f16 = os.path.join(out_dir, f"{name}-F16.gguf")
    if not os.path.exists(f16):
        rng = np.random.default_rng(11)

        def normal(shape, scale):
            return (rng.standard_normal(shape, dtype=np.float32) * np.float32(scale)).astype(np.float16)

        def norm(n):
            # Gemma's RMSNorm multiplies by (1 + w); GGUF stores 1 + w.
            return (1 + 0.1 * rng.standard_normal(n, dtype=np.float32)).astype(np.float32)

        w = gguf.GGUFWriter(f16 + ".part", "gemma3")
        w.add_name(name)
        w.add_file_type(int(FT.MOSTLY_F16))
        w.add_block_count(layers)
        w.add_context_length(32768)
        w.add_embedding_length(H)
        w.add_feed_forward_length(FF)
        w.add_head_count(NH)
        w.add_head_count_kv(NKV)
        w.add_key_length(HD)
        w.add_value_length(HD)
        w.add_layer_norm_rms_eps(g["eps"])
        w.add_rope_freq_base(g["theta"])
        w.add_rope_freq_base_swa(g["local_theta"])
        w.add_sliding_window(g["window"])
        w.add_sliding_window_pattern([(i + 1) % g["pattern"] != 0 for i in range(layers)])
        w.add_vocab_size(vocab_size)
        copy_vocab(vocab, w, pad_to=vocab_size)
        w.add_tensor("token_embd.weight", normal((vocab_size, H), 0.5))
        w.add_tensor("output_norm.weight", norm(H))
        for i in range(layers):
            p = f"blk.{i}."
            for t, shape, fan_in in [("attn_q", (NH * HD, H), H), ("attn_k", (NKV * HD, H), H),
                                     ("attn_v", (NKV * HD, H), H), ("attn_output", (H, NH * HD), NH * HD),
                                     ("ffn_gate", (FF, H), H), ("ffn_up", (FF, H), H), ("ffn_down", (H, FF), FF)]:
                w.add_tensor(p + t + ".weight", normal(shape, 1 / np.sqrt(fan_in)))
            for t, n in [("attn_norm", H), ("attn_q_norm", HD), ("attn_k_norm", HD), ("post_attention_norm", H),
                         ("ffn_norm", H), ("post_ffw_norm", H)]:
                w.add_tensor(p + t + ".weight", norm(n))
        w.write_header_to_file()
        w.write_kv_data_to_file()
        w.write_tensors_to_file()
        w.close()
        os.replace(f16 + ".part", f16)
        print(f"{f16}: {os.path.getsize(f16) / 2**20:.1f} MiB")
    return f16 if ft == "F16" else quantize_f16(f16, os.path.join(out_dir, f"{name}-{ft}.gguf"), ft)


def quantize_f16(f16, out, ft):
    """llama.cpp's quantizer (as `llama-quantize` runs it) from `f16` to `out` in `ft`; prints the
    matrices' types, the mix it chose."""
    import llama_cpp
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = getattr(llama_cpp, f"LLAMA_FTYPE_MOSTLY_{ft}")
    rc = llama_cpp.llama_model_quantize(f16.encode(), (out + ".part").encode(), params)
    assert rc == 0, f"llama_model_quantize {f16} -> {ft}: {rc}"
    os.replace(out + ".part", out)
    types = {}
    for t in gguf.GGUFReader(out).tensors:
        if len(t.shape) > 1:
            types[t.tensor_type.name] = types.get(t.tensor_type.name, 0) + 1
    print(f"{out}: {os.path.getsize(out) / 2**20:.1f} MiB, matrices by type: {types}")
    return out


# Llama 3.2 1B (meta-llama/Llama-3.2-1B's config.json).
LLAMA32_1B = dict(hidden=2048, layers=16, heads=32, kv_heads=8, head_dim=64, ffn=8192, vocab=128256,
                  theta=500_000.0, eps=1e-5)


def llama32_1b_shaped(out_dir, ft, vocab):
    """A random Llama of 3.2 1B's shapes as F16, then llama.cpp's quantizer to `ft` unless F16."""
    g = LLAMA32_1B
    H, HD, NH, NKV, FF, V = g["hidden"], g["head_dim"], g["heads"], g["kv_heads"], g["ffn"], g["vocab"]
    name = "bench-llama3.2-1b"
    f16 = os.path.join(out_dir, f"{name}-F16.gguf")
    if not os.path.exists(f16):
        rng = np.random.default_rng(13)

        def normal(shape, scale):
            return (rng.standard_normal(shape, dtype=np.float32) * np.float32(scale)).astype(np.float16)

        w = gguf.GGUFWriter(f16 + ".part", "llama")
        w.add_name(name)
        w.add_file_type(int(FT.MOSTLY_F16))
        w.add_block_count(g["layers"])
        w.add_context_length(131072)
        w.add_embedding_length(H)
        w.add_feed_forward_length(FF)
        w.add_head_count(NH)
        w.add_head_count_kv(NKV)
        w.add_layer_norm_rms_eps(g["eps"])
        w.add_rope_freq_base(g["theta"])
        w.add_rope_dimension_count(HD)
        w.add_vocab_size(V)
        copy_vocab(vocab, w, pad_to=V)
        # Tied: no output.weight, the embedding is also the output layer.
        w.add_tensor("token_embd.weight", normal((V, H), 0.5))
        w.add_tensor("output_norm.weight", (1 + 0.1 * rng.standard_normal(H, dtype=np.float32)).astype(np.float32))
        for i in range(g["layers"]):
            p = f"blk.{i}."
            for t, shape, fan_in in [("attn_q", (NH * HD, H), H), ("attn_k", (NKV * HD, H), H),
                                     ("attn_v", (NKV * HD, H), H), ("attn_output", (H, NH * HD), NH * HD),
                                     ("ffn_gate", (FF, H), H), ("ffn_up", (FF, H), H), ("ffn_down", (H, FF), FF)]:
                w.add_tensor(p + t + ".weight", normal(shape, 1 / np.sqrt(fan_in)))
            for t in ["attn_norm", "ffn_norm"]:
                w.add_tensor(p + t + ".weight", (1 + 0.1 * rng.standard_normal(H, dtype=np.float32)).astype(np.float32))
        w.write_header_to_file()
        w.write_kv_data_to_file()
        w.write_tensors_to_file()
        w.close()
        os.replace(f16 + ".part", f16)
        print(f"{f16}: {os.path.getsize(f16) / 2**20:.1f} MiB")
    return f16 if ft == "F16" else quantize_f16(f16, os.path.join(out_dir, f"{name}-{ft}.gguf"), ft)


if __name__ == "__main__":
    main()
