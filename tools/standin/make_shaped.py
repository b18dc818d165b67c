#!/usr/bin/env python3
"""Writes ProverbEval-shaped files for the stand-in server: the authors' layout and schemas, made-up text.

Usage: python3 make_shaped.py SHARED_PROVERBEVAL_CONFIGS MIRROR_ROOT [ROWS]

ROWS: made-up rows per Amharic file (8 by default, as the tests use).

Under MIRROR_ROOT (the stand-in's --root, laid out HOST/PATH):
- raw.githubusercontent.com/EthioNLP/EthioProverbEval/COMMIT/<folder>/: the published task YAMLs
  of every language and their include file, copied from SHARED_PROVERBEVAL_CONFIGS (they are the authors' files, byte
  for byte, so the catalogue's sha256 holds for them), and a utils.py written here with the
  function names the YAMLs call (every language's) and prompts of our own (the authors' utils.py is not shared);
- huggingface.co/datasets/israel/ProverbEval/amh/*.csv: made-up rows in the columns the tasks read
  (meaning: Proverb, A-D, Answer_Letter; fill in the blank: Proverb, A-D, Answer; generation:
  Description, Proverb). No proverb or description of the benchmark is used.

Prints a JSON map from each written utils.py's path (relative to MIRROR_ROOT) to its sha256 and
size, which a test puts into its copy of the catalogue.
"""
import csv, hashlib, io, json, os, shutil, sys

COMMIT = "8c6e92671f7fb59afdf7cd8295efca71b2120a10"
configs, root = sys.argv[1], sys.argv[2]
ROWS = int(sys.argv[3]) if len(sys.argv) > 3 else 8
github = os.path.join(root, "raw.githubusercontent.com/EthioNLP/EthioProverbEval", COMMIT)
hub = os.path.join(root, "huggingface.co/datasets/israel/ProverbEval")

LANGUAGES = {"amh": "Amharic", "orm": "Afaan Oromo", "tir": "Tigrinya", "gez": "Ge'ez", "eng": "English"}

CHOICE_UTILS = """from lm_eval.utils import weighted_f1_score


def doc_to_choice(doc):
    choices = [doc['A'],doc['B'],doc['C'],doc['D']]
    return choices
""" + "".join('''
def doc_to_text_%s_t1(doc):
    output = """
        A stand-in prompt in {language}: which meaning fits?

        {language} Proverb: {proverb}
        A: {A}
        B: {B}
        C: {C}
        D: {D}
        Answer:"""

    return output.format(language=%r,proverb=doc["Proverb"],A=doc['A'],B=doc['B'],C=doc['C'],D=doc['D'])
''' % (code, name) for code, name in LANGUAGES.items())
FILL_UTILS = CHOICE_UTILS.replace("{proverb}", "{Proverb}").replace("proverb=doc", "Proverb=doc").replace("which meaning fits?", "which word fills ___?")
GENERATION_UTILS = '''prompt = """
        A stand-in prompt: from this {source_language} description, a proverb in {target_language}.

        {source_language} Description: {Description}
        {target_language} Proverb:"""
''' + "".join('''

def doc_to_text_%s(doc):
    output = prompt
    return output.format(source_language="%%s",target_language=%r,Description=doc["Description"])
''' % (code, name) for code, name in LANGUAGES.items())

FOLDERS = {
    "choice/shuffle/english/1": ("ethio_proverb_eval_common_yaml", CHOICE_UTILS),
    "choice/shuffle/native/1": ("ethio_proverb_eval_common_yaml", CHOICE_UTILS),
    "fill_blank/native/1": ("ethio_proverb_eval_common_yaml", FILL_UTILS),
    "generation/english": ("common_yaml", GENERATION_UTILS.replace("%s", "English")),
    "generation/native": ("common_yaml", GENERATION_UTILS.replace("%s", "the native language")),
}

utils = {}
for folder, (common, text) in FOLDERS.items():
    out = os.path.join(github, folder)
    os.makedirs(out, exist_ok=True)
    for name in [f"{code}.yaml" for code in LANGUAGES] + [common]:
        if os.path.exists(os.path.join(configs, folder, name)):
            shutil.copyfile(os.path.join(configs, folder, name), os.path.join(out, name))
    data = text.encode("utf-8")
    with open(os.path.join(out, "utils.py"), "wb") as f:
        f.write(data)
    utils[os.path.relpath(os.path.join(out, "utils.py"), root)] = {"sha256": hashlib.sha256(data).hexdigest(), "size_bytes": len(data)}


def table(name, header, rows):
    os.makedirs(os.path.join(hub, "amh"), exist_ok=True)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    with open(os.path.join(hub, "amh", name), "w", encoding="utf-8") as f:
        f.write(buf.getvalue())


LETTERS = "ABCD"
words = ["ውሃ", "ቤት", "ልብ", "መንገድ", "ዛፍ", "ሰማይ", "እጅ", "ዓይን"]
mc = [[f"{words[i % 8]} {words[(i + 3) % 8]} (stand-in {i})", f"meaning a{i}", f"meaning b{i}", f"meaning c{i}", f"meaning d{i}", LETTERS[i % 4]] for i in range(ROWS)]
table("amh_english_test_1.csv", ["Proverb", "A", "B", "C", "D", "Answer_Letter"], mc)
table("amh_native_test_1.csv", ["Proverb", "A", "B", "C", "D", "Answer_Letter"], [[p, f"ትርጉም {a}", b, c, d, g] for p, a, b, c, d, g in mc])
fill = [[f"{words[i % 8]} ___ {words[(i + 5) % 8]}", words[i % 8], words[(i + 1) % 8], words[(i + 2) % 8], words[(i + 4) % 8], LETTERS[(i + 1) % 4]] for i in range(ROWS)]
table("amh_fill_1.csv", ["Proverb", "A", "B", "C", "D", "Answer"], fill)
table("amh_fill_valid.csv", ["Proverb", "A", "B", "C", "D", "Answer"], fill[:5])
gen = [[f"A stand-in description number {i}.", f"{words[i % 8]} {words[(i + 2) % 8]}"] for i in range(ROWS)]
table("amh_meaining_generation_english.csv", ["Description", "Proverb"], gen)
table("amh_meaining_generation_native.csv", ["Description", "Proverb"], [[f"መግለጫ {i}", p] for i, (_, p) in enumerate(gen)])

print(json.dumps(utils))
