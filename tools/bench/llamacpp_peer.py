#!/usr/bin/env python3
"""The llama.cpp side of `lingualens bench` (the binary embeds this file and runs it with --peer-python).

Reads one JSON job on the first line of stdin:
  {"model": GGUF, "threads": N, "prompt": [ids], "decode": K,
   "items": [{"context": [ids], "continuations": [[ids], ...]}]}
loads the model, warms both workloads up and prints {"llama_cpp_python": VERSION}. Then each line
of stdin asks for one timed run, answered by one line of JSON, so that the bench can alternate our
runs with these and a drift in the machine's speed meets both sides:
  "pp" -> {"pp_tokens_per_s": X}: the whole prompt in one batch, logits of the last position only;
  "mc" -> {"mc_items_per_s": X, "loglikelihoods": [[...], ...]}: one pass over the items;
  "dec" -> {"decode_tokens_per_s": X, "tokens": [ids]}: after the prompt (untimed), K greedy tokens
           one at a time, each the argmax of the last one's logits, the end-of-text token ignored;
           timed from the first token to the last (K - 1 steps).
End of input (or "quit") ends it.

Multiple choice is scored as `lingualens` scores it: the context in one batch (last position's
logits), then each continuation's tokens but the last in one batch after the context's KV cache
(every position's logits), log-softmax in float32 summed over the continuation. llama.cpp's
defaults otherwise (F16 KV cache, 8-bit activations in quantized dot products): this is the speed a
user of llama.cpp gets.
"""
import json
import sys
import time

import numpy as np

import llama_cpp
from llama_cpp import Llama


def decode(llm, tokens, n_past, all_logits):
    """Runs `tokens` after the first `n_past` cached positions; returns their logits [n, vocab]."""
    llm._ctx.kv_cache_seq_rm(-1, n_past, -1)
    llm._batch.set_batch(batch=tokens, n_past=n_past, logits_all=all_logits)
    llm._ctx.decode(llm._batch)
    first = 0 if all_logits else len(tokens) - 1
    vocab = llm.n_vocab()
    return np.stack([np.ctypeslib.as_array(llm._ctx.get_logits_ith(i), shape=(vocab,)) for i in range(first, len(tokens))])


def log_softmax(rows):
    rows = rows.astype(np.float32)
    m = rows.max(axis=-1, keepdims=True)
    return rows - m - np.log(np.exp(rows - m).sum(axis=-1, keepdims=True))


def score_item(llm, context, continuations):
    last = decode(llm, context, 0, False)
    out = []
    for cont in continuations:
        rows = last if len(cont) == 1 else np.concatenate([last, decode(llm, cont[:-1], len(context), True)])
        lp = log_softmax(rows)
        out.append(float(lp[np.arange(len(cont)), cont].sum()))
    return out


def greedy(llm, prompt, k):
    """`k` greedy tokens after `prompt`, and the seconds the `k - 1` one-token steps took."""
    tokens = [int(np.argmax(decode(llm, prompt, 0, False)[-1]))]
    t0 = time.perf_counter()
    for i in range(k - 1):
        tokens.append(int(np.argmax(decode(llm, [tokens[-1]], len(prompt) + i, False)[-1])))
    return tokens, time.perf_counter() - t0


def reply(obj):
    print(json.dumps(obj), flush=True)


def main():
    job = json.loads(sys.stdin.readline())
    prompt, items, k = job["prompt"], job["items"], job["decode"]
    longest = max([len(prompt) + k] + [len(it["context"]) + max(map(len, it["continuations"])) for it in items])
    llm = Llama(model_path=job["model"], n_ctx=longest + 8, n_batch=longest + 8, n_ubatch=longest + 8,
                n_threads=job["threads"], n_threads_batch=job["threads"], logits_all=False, verbose=False)
    decode(llm, prompt, 0, False)  # warm-up
    score_item(llm, items[0]["context"], items[0]["continuations"])
    greedy(llm, prompt, 2)
    reply({"llama_cpp_python": llama_cpp.__version__})
    for line in sys.stdin:
        command = line.strip()
        if command == "pp":
            t0 = time.perf_counter()
            decode(llm, prompt, 0, False)
            reply({"pp_tokens_per_s": len(prompt) / (time.perf_counter() - t0)})
        elif command == "mc":
            t0 = time.perf_counter()
            lls = [score_item(llm, it["context"], it["continuations"]) for it in items]
            reply({"mc_items_per_s": len(items) / (time.perf_counter() - t0), "loglikelihoods": lls})
        elif command == "dec":
            tokens, seconds = greedy(llm, prompt, k)
            reply({"decode_tokens_per_s": (k - 1) / seconds, "tokens": tokens})
        else:
            break
    llm.close()


if __name__ == "__main__":
    main()
