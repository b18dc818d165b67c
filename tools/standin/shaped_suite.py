#!/usr/bin/env python3
"""Runs a ProverbEval experiment (Amharic) with `lingualens suite` on ProverbEval-shaped data: the
authors' published task YAMLs, a stand-in utils.py and made-up rows (make_shaped.py), served by the
stand-in (server.py) as GitHub and the Hub would. What the README's choice-order figures come from;
the Hub and GitHub are not reachable from the machines this project is built on.

Usage: python3 shaped_suite.py SHARED_PROVERBEVAL_CONFIGS ROWS WORK_DIR -- SUITE_ARGS...
       (SUITE_ARGS: lingualens suite's, e.g. proverbeval_choice_order_amh --model M.gguf --out DIR)
Environment: LINGUALENS (the lingualens binary; default `lingualens` on PATH).
"""
import json, os, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
configs, rows, work = sys.argv[1], sys.argv[2], sys.argv[3]
suite_args = sys.argv[sys.argv.index("--") + 1:]
root = os.path.join(work, "mirror")
os.makedirs(root, exist_ok=True)

# The catalogue as committed, with our stand-in utils.py's sha256 where the authors' is pinned.
shaped = json.loads(subprocess.run([sys.executable, os.path.join(here, "make_shaped.py"), configs, root, rows],
                                   check=True, capture_output=True, text=True).stdout)
with open(os.path.join(here, "..", "..", "datasets", "catalog.json"), encoding="utf-8") as f:
    catalog = json.load(f)
for entry in catalog["benchmarks"]:
    for file in entry.get("files", []):
        rest = file["url"].removeprefix("https://")
        if file["url"].endswith("/utils.py") and rest in shaped:
            file.update(shaped[rest])
catalog_file = os.path.join(work, "catalog.json")
with open(catalog_file, "w", encoding="utf-8") as f:
    json.dump(catalog, f)

port_file = os.path.join(work, "port")
if os.path.exists(port_file):
    os.remove(port_file)
server = subprocess.Popen([sys.executable, os.path.join(here, "server.py"), "--root", root, "--port-file", port_file])
try:
    for _ in range(200):
        if os.path.exists(port_file) and open(port_file).read().strip():
            break
        time.sleep(0.1)
    port = open(port_file).read().strip()
    env = dict(os.environ, LINGUALENS_MIRROR=f"http://127.0.0.1:{port}", LINGUALENS_BENCHMARKS=catalog_file,
               LINGUALENS_CACHE=os.path.join(work, "cache"))
    env.pop("HF_ENDPOINT", None)
    sys.exit(subprocess.run([os.environ.get("LINGUALENS", "lingualens"), "suite", *suite_args], env=env).returncode)
finally:
    server.terminate()
    server.wait()
