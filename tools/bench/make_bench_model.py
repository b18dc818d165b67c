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


def copy_vocab(src, w):
    r = gguf.GGUFReader(src)
    for key in ("tokenizer.ggml.model", "tokenizer.ggml.tokens", "tokenizer.ggml.scores",
                "tokenizer.ggml.token_type", "tokenizer.ggml.bos_token_id", "tokenizer.ggml.eos_token_id",
                "tokenizer.ggml.unknown_token_id", "tokenizer.ggml.padding_token_id"):
        f = r.fields.get(key)
        if f is None:
            continue
        if f.types[0] == gguf.GGUFValueType.ARRAY:
            w.add_array(key, [f.contents(i) for i in range(len(f.data))])
        else:
            w.add_key_value(key, f.contents(), f.types[0])
    assert len(r.fields["tokenizer.ggml.tokens"].data) == V


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
    a = ap.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
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


if __name__ == "__main__":
    main()
