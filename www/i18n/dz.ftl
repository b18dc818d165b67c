# lingualens: the interface in Dzongkha (རྫོང་ཁ).
# This catalogue was machine-drafted by an AI model on 2026-12-02 from en.ftl and has not yet
# been reviewed by a native speaker. Corrections are welcome.
# Plural categories used: Dzongkha has only CLDR "other", so no message uses a plural selector;
# counts are plain text with the number variable.
# Least sure (ids): col-accuracy (ཏག་ཚད), the "worker" term ལཱ་གཡོག in status-starting and the
# crash messages (status-crash*, status-recovered-*, row-not-scored), fertility-heading,
# breakdown-heading, col-greedy, setting-shots, order-rotations, order-shuffles, device-fallback,
# classroom-votes-hint, tagline.
# ཐོ་བཀོད་འདི་ AI དཔེ་གཞི་ཅིག་གིས་ ༢༠༢༦-༡༢-༠༢ ལུ་ en.ftl ལས་ རང་བཞིན་གྱིས་ ཡིག་བསྒྱུར་འབད་ཡོདཔ་ཨིན།
# རྫོང་ཁ་ཁ་སྐད་ཅན་གྱི་མི་ཅིག་གིས་ ད་ཚུན་ ཞིབ་དཔྱད་མ་འབད་བས། ནོར་བཅོས་ཚུ་ལུ་ དགའ་བསུ་ཞུ་ཨིན།
# མང་ཚིག་གི་དབྱེ་བ: རྫོང་ཁ་ནང་ CLDR "other" རྐྱངམ་ཅིག་ཨིན་མི་ལས་ གྱངས་ཁ་ཚུ་ ཚིག་རྐྱང་སྦེ་ བྲིས་ཡོད།
# ངེས་པ་ཉུང་ཤོས་ཡོད་མི་ ID ཚུ: གོང་ལུ་ ཨིང་ལིཤ་ནང་ བྲིས་ཡོད་མི་ ཐོ་ཡིག་དེ་ཨིན།
# Added on 2026-12-03, machine-drafted like the rest and least sure too: model-on-server, kit-note, data-download, data-download-cache.

## Header and setup

language-label = སྐད་ཡིག
tagline = རྫོང་ཁ (རྫོང་ཁ)། ཨམ་ཧ་རིཀ (አማርኛ)། ཀིར་གིཛ (кыргызча) དང་ སྐད་ཡིག་གཞན་ཚུ་གི་ ཚད་གཞིའི་བརྟག་དཔྱད་ཚུ་ནང་ སྐད་ཡིག་དཔེ་གཞི་ཆུང་ཀུ་ཚུ་ལུ་ དྲི་བ་རེ་རེ་བཞིན་ ཨང་རྟགས་བྱིནམ་ཨིན — ཁྱོད་རའི་ བརའུ་ཟར་ནང་ ག་ནི་ཡང་ གཞི་བཙུགས་མ་འབད་བར་ དང་ སར་བར་མེད་པར།
status-loading = བཀལ་དོ…
setup-heading = དཔེ་གཞི་དང་ ཚད་གཞིའི་བརྟག་དཔྱད
setup-hint = འོག་ལས་ གདམ་ཁ་རྐྱབ། ཡང་ན་ .gguf དཔེ་གཞི་ (ཡང་ན་ Hugging Face དཔེ་གཞི་གི་ ཡིག་སྣོད་ཚུ་) དང་ གནད་སྡུད་ ཡང་ན་ ལཱ་གི་ YAML ཡིག་སྣོད་ཚུ་ སྒྲོམ་འདི་གི་ ག་ཏེ་འབད་རུང་ འདྲུད་དེ་བཞག།
model-legend = དཔེ་གཞི
model-choose = གདམ་ཁ་རྐྱབ
model-file = ཡང་ན་ གློག་རིག་འདི་གུ་ཡོད་པའི་ GGUF ཡིག་སྣོད་ ཡང་ན་ Hugging Face དཔེ་གཞི་གི་ ཡིག་སྣོད་ཚུ་ (config.json, tokenizer.json, .safetensors)
model-folder = ཡང་ན་ Hugging Face དཔེ་གཞི་གི་ ཡིག་སྣོད་ཁུག
model-url = ཡང་ན་ URL
model-none = དཔེ་གཞི་ ག་ནི་ཡང་ བཀལ་མེད།
cached-models = ཡོངས་འབྲེལ་མེད་རུང་ ལག་ལེན་འཐབ་ནི་ལུ་ བརའུ་ཟར་འདི་ནང་ བཞག་ཡོདཔ:
task-legend = ཚད་གཞིའི་བརྟག་དཔྱད
task-label = ལཱ
task-demo = དཔེ་སྟོན: སྐད་ཡིག་ ༦ ནང་ དྲི་བ་ ༢༡
task-files = ངེ་གི་ཡིག་སྣོད་ཚུ་ (འོག་ལུ)
task-dzen-en-cloze = DZEN། ཨིང་ལིཤ་དྲི་བ་ཚུ། གདམ་ཁ་རེ་རེའི་ཚིག་ལུ་ ཨང་རྟགས་བྱིནམ་ (དཔེ་གཞི་ཆུང་ཀུ་གི་དོན་ལུ། ↓ 0.4 MB)
task-dzen-dz-cloze = DZEN། རྫོང་ཁའི་དྲི་བ་ཚུ། གདམ་ཁ་རེ་རེའི་ཚིག་ལུ་ ཨང་རྟགས་བྱིནམ་ (↓ 0.4 MB)
task-dzen-dz-en-cloze = DZEN། རྫོང་ཁའི་མཇུག་ལུ་ ཨིང་ལིཤ་བསྣན་ཏེ། གདམ་ཁ་རེ་རེའི་ཚིག་ལུ་ ཨང་རྟགས་བྱིནམ་ (↓ 0.4 MB)
task-dzen-en = DZEN། ཨིང་ལིཤ་དྲི་བ་ཚུ་ (↓ 0.4 MB)
task-dzen-dz = DZEN། རྫོང་ཁའི་དྲི་བ་ཚུ་ (↓ 0.4 MB)
task-dzen-dz-en = DZEN། རྫོང་ཁའི་མཇུག་ལུ་ ཨིང་ལིཤ་ཡིག་བསྒྱུར་བསྣན་ཏེ་ (↓ 0.4 MB)
task-dzen-cot-en = DZEN། ཨིང་ལིཤ་དྲི་བ་ཚུ་ (chain of thought, ↓ 0.4 MB)
task-dzen-cot-dz = DZEN། རྫོང་ཁའི་དྲི་བ་ཚུ་ (chain of thought, ↓ 0.4 MB)
task-proverbeval-amh-choice-english = Amharic: the meaning, English descriptions
task-proverbeval-amh-choice-native = Amharic: the meaning, Amharic descriptions
task-proverbeval-amh-fill = Amharic: fill in the blank
task-proverbeval-amh-generation-english = Amharic: the proverb, from an English description
task-proverbeval-amh-generation-native = Amharic: the proverb, from an Amharic description
task-group-dzen = DZEN (རྫོང་ཁ། ཨིང་ལིཤ)
task-group-proverbeval-amh = ProverbEval, Amharic (GitHub, Hugging Face Hub)
task-proverbeval-orm-choice-english = Afaan Oromo: the meaning, English descriptions
task-proverbeval-orm-choice-native = Afaan Oromo: the meaning, Afaan Oromo descriptions
task-proverbeval-orm-fill = Afaan Oromo: fill in the blank
task-proverbeval-orm-generation-english = Afaan Oromo: the proverb, from an English description
task-proverbeval-orm-generation-native = Afaan Oromo: the proverb, from an Afaan Oromo description
task-group-proverbeval-orm = ProverbEval, Afaan Oromo (GitHub, Hugging Face Hub)
task-proverbeval-tir-choice-english = Tigrinya: the meaning, English descriptions
task-proverbeval-tir-choice-native = Tigrinya: the meaning, Tigrinya descriptions
task-proverbeval-tir-fill = Tigrinya: fill in the blank
task-proverbeval-tir-generation-english = Tigrinya: the proverb, from an English description
task-proverbeval-tir-generation-native = Tigrinya: the proverb, from a Tigrinya description
task-group-proverbeval-tir = ProverbEval, Tigrinya (GitHub, Hugging Face Hub)
task-proverbeval-gez-choice-english = Ge'ez: the meaning, English descriptions
task-proverbeval-gez-choice-native = Ge'ez: the meaning, Ge'ez descriptions
task-proverbeval-gez-fill = Ge'ez: fill in the blank
task-proverbeval-gez-generation-english = Ge'ez: the proverb, from an English description
task-proverbeval-gez-generation-native = Ge'ez: the proverb, from a Ge'ez description
task-group-proverbeval-gez = ProverbEval, Ge'ez (GitHub, Hugging Face Hub)
task-proverbeval-eng-choice-native = English proverbs: the meaning, English descriptions
task-proverbeval-eng-fill = English proverbs: fill in the blank
task-proverbeval-eng-generation-native = English proverbs: the proverb, from an English description
task-group-proverbeval-eng = ProverbEval, English (GitHub, Hugging Face Hub)
task-group-kyrgyzllm-mmlu = KyrgyzLLM-Bench, KyrgyzMMLU (GitHub, Hugging Face Hub)
task-group-kyrgyzllm-rc = KyrgyzLLM-Bench, KyrgyzRC (GitHub, Hugging Face Hub)
task-group-kyrgyzllm-hellaswag = KyrgyzLLM-Bench, HellaSwag, Kyrgyz (GitHub, Hugging Face Hub)
task-group-kyrgyzllm-winogrande = KyrgyzLLM-Bench, WinoGrande, Kyrgyz (Hugging Face Hub)
task-group-kyrgyzllm-truthfulqa = KyrgyzLLM-Bench, TruthfulQA, Kyrgyz (GitHub, Hugging Face Hub)
task-group-kyrgyzllm-boolq = KyrgyzLLM-Bench, BoolQ, Kyrgyz (GitHub, Hugging Face Hub)
task-kyrgyz-mmlu = Kyrgyz: school questions in nine subjects, lettered options
task-kyrgyz-rc = Kyrgyz: reading comprehension, a text and its question
task-hellaswag-kg = Kyrgyz: how an everyday activity goes on (HellaSwag)
task-winogrande-kg = Kyrgyz: who or what the blank refers to (WinoGrande)
task-winogrande-kg-partial = Kyrgyz: WinoGrande, only the sentence's ending scored
task-truthfulqa-kg = Kyrgyz: the true answer among common misconceptions (TruthfulQA)
task-boolq-kg = Kyrgyz: yes or no about a passage (BoolQ)
task-kept = ཡོངས་འབྲེལ་མེད་རུང་ ལག་ལེན་འཐབ་ནི་ལུ་ བརའུ་ཟར་འདི་ནང་ བཞག་ཡོདཔ (files: { $files }, { $mb } MB)
task-download-size = ↓ { $mb } MB (files: { $files }); then: ཡོངས་འབྲེལ་མེད་རུང་ ལག་ལེན་འཐབ་ནི་ལུ་ བརའུ་ཟར་འདི་ནང་ བཞག་ཡོདཔ
task-download-unknown = ↓ (files: { $files }, ཚད་མ་ཤེས); then: ཡོངས་འབྲེལ་མེད་རུང་ ལག་ལེན་འཐབ་ནི་ལུ་ བརའུ་ཟར་འདི་ནང་ བཞག་ཡོདཔ
task-download-hub = ↓ (Hugging Face Hub); then: ཡོངས་འབྲེལ་མེད་རུང་ ལག་ལེན་འཐབ་ནི་ལུ་ བརའུ་ཟར་འདི་ནང་ བཞག་ཡོདཔ
task-data-file = གནད་སྡུད་ཡིག་སྣོད་ (CSV, JSON, JSONL, Parquet)། དགོས་པ་ཅིན་ lm-eval ལཱ་གི་ YAML དང་གཅིག་ཁར
task-data-folder = ཡང་ན་ གནད་སྡུད་ཡིག་སྣོད་ཁུག་ (DZEN: DZEN/ དང་ DZEN-Few_Shots/ ཡོད་པའི་ ཡིག་སྣོད་ཁུག)
setting-limit = ཚད་བཀག
setting-shots = དཔེ་གྲངས
setting-seed = ས་བོན (seed)
setting-order = གདམ་ཁའི་གོ་རིམ
order-given = བྱིན་དོ་བཟུམ
order-gold-first = ལན་ཏག་ཏག་ དང་པ་ལུ
order-gold-last = ལན་ཏག་ཏག་ མཇུག་ལུ
order-rotations = བསྐོར་ཐེངས་ག་ར
order-shuffles = seed ལུ་གཞི་བཞག་སྟེ་ བསྲེ་ཐེངས་ ༣
setting-pace = མགྱོགས་ཚད (དོན་ཚན་རེ་ལུ་ ms)
setting-sample = ཚོད་མེད་དཔེ་ཚད
placeholder-all = ག་ར
placeholder-task = ལཱ
filters-hint = འདི་ཚུ་ཡོད་མི་ དོན་ཚན་ཚུ་རྐྱངམ་ཅིག་ (མཇུག་ལུ་ གྲ་སྒྲིག་འབད་མི་ལཱ་གི་ གནས་གོང་ཚུ། དཔེ་ཚད་འདི་གིས་ seed ལག་ལེན་འཐབ་ཨིན):
button-run = གཡོག་བཀོལ
button-pause = བར་མཚམས་བཞག
button-resume = ལོག་སྟེ་འགོ་བཙུགས
button-cancel = ཆ་མེད་གཏང་སྟེ་ བཏོན་གཏང
button-classroom = སློབ་ཁང་རྣམ་པ
button-export-jsonl = དཔེ་ཚད་ JSONL
button-export-json = གྲུབ་འབྲས་ JSON
button-export-csv = CSV
import-run = སྲུང་བཞག་འབད་མི་ གཡོག་བཀོལ་ཅིག་ ཁ་ཕྱེ
demo-note = འདི་ ནང་འཁོད་ཀྱི་ དཔེ་སྟོན་ཨིན: ལྗིད་ཚད་ཚོད་མེད་ཡོད་པའི་ དཔེ་གཞི་ཆུང་ཀུ་ཅིག་ (models/demo། ཚད་བཟུང་ ས་ཡ་ ༠.༢) ཨིན་མི་ལས་ དེ་གི་ལན་ཚུ་ ཚོད་བཟུང་བཟུམ་ཨིན — གཡོག་བཀོལ་ ག་དེ་སྦེ་འབདཝ་ཨིན་ན་ སྟོནམ་ཨིན། དཔེ་གཞི་གིས་ ག་ཅི་ཤེསཔ་ཨིན་ན་ མེན། དཔེ་གཞི་ངོ་མ་ཅིག་ ཚད་འཇལ་ནི་ལུ་ ཐོ་ཡིག་ནང་ལས་ གཅིག་གདམ་ (གཡོག་བཀོལ་འགོ་བཙུགས་པའི་སྐབས་ Hugging Face ལས་ ཕབ་ལེན་འབདཝ་ཨིན) ཡང་ན་ གློག་རིག་འདི་གུ་ཡོད་པའི་ GGUF ཡིག་སྣོད་ཅིག་ ཁ་ཕྱེ།
model-demo = དཔེ་སྟོན་དཔེ་གཞི (ལྗིད་ཚད་ཚོད་མེད། ཚད་བཟུང་ ས་ཡ་ ༠.༢། ཉེར་མཁོ་ནང་ཡོདཔ)
# A catalogue model in the list: its name, then its quantization, size and licence.
model-catalog-entry = { $name } ({ $details }) — ཕབ་ལེན་འབད་དགོ
model-on-server = { $name } ({ $details }) — སར་བར་འདི་གུ་ཡོདཔ
kit-note = ཡོངས་འབྲེལ་མེད་རུང་ ལག་ལེན་འཐབ་ནི་ལུ་ སར་བར་འདི་གུ་ཡོདཔ: { $benchmarks }། དེ་གི་ལཱ་ཚུ་ལུ་ ཡིག་སྣོད་མི་དགོ།
size-unknown = ཚད་མ་ཤེས
cache-delete = { $file } འདི་ གསོག་མཛོད་ནང་ལས་ བཏོན་གཏང
cache-delete-button = བཏོན་གཏང

## Run table and analysis

run-heading = གཡོག་བཀོལ
run-nothing = ད་ཚུན་ ག་ནི་ཡང་ གཡོག་མ་བཀོལ་བས།
col-number = ཨང
col-question = དྲི་བ
col-options = གདམ་ཁ་ (དཔེ་གཞི་གི་ སྲིད་ཚད། ལན་ཏག་ཏག ★)
col-result = གྲུབ་འབྲས
col-ms = ms
inspector-heading = དོན་ཚན
inspector-hint = བཀོད་རྒྱ་ (prompt) ཏག་ཏག་ དཔེ་གཞི་གི་ token མཚམས་ཚུ་ རྟགས་བཀལ་ཏེ:
col-option = གདམ་ཁ
col-loglikelihood = log-likelihood
col-per-char = ཡིག་འབྲུ་རེ་ལུ
col-tokens = token
col-greedy = greedy
breakdown-heading = metadata ལྟར་ དབྱེ་བ
col-field = ས་སྒོ
col-value = གནས་གོང
col-n = གྱངས
col-accuracy = ཏག་ཚད
bias-heading = གདམ་ཁའི་གནས་ས
col-position = གནས་ས
col-gold-here = ལན་ཏག་ཏག་ ནཱ་ལུ
col-accuracy-when-gold = ལན་ཏག་ཏག་ ནཱ་ལུ་ཡོད་པའི་སྐབས་ ཏག་ཚད
col-chosen = གདམ་ཡོདཔ
col-uniform = འདྲ་མཉམ
parallel-heading = སྐད་ཡིག་སོ་སོ་ནང་ དྲི་བ་ གཅིག་པ
parallel-hint = སྡེ་ཚན་གཅིག་ཡོད་མི་ དོན་ཚན་ཚུ། parallel འབྲེལ་མཐུད་ཀྱིས་ མཐུད་ཡོད་མི་ཚུ། ཡང་ན་ id ཚུ་ མཇུག་གི་ /language (DZEN གི་བཟུམ) ཁོ་ན་ ཁྱད་པར་ཡོད་མི་ཚུ་ — གཡོག་བཀོལ་འདི་དང་ འོག་ལུ་ ཁ་ཕྱེ་མི་ སྲུང་བཞག་གཡོག་བཀོལ་ཚུ་ནང་: ཟུར་ཁར་ བལྟ་ནི་ལུ་ DZEN གཡོག་བཀོལ་ ཨིང་ལིཤ་ནང་ གཅིག་ རྫོང་ཁ་ནང་ གཅིག་ དེ་ལས་ ཨིང་ལིཤ་ཡིག་བསྒྱུར་བསྣན་ཡོད་མི་ (dz+en) གཅིག་ ཁ་ཕྱེ། གྲལ་ཐིག་ མཇུག་མ་འདི་གིས་ དྲི་བ་ གཅིག་པ་ཚུ་གུ་ ཀ་ཐིག་ཚུ་ ག་བསྡུར་འབདཝ་ཨིན: ཀ་ཐིག་ ག་ར་ནང་ ལན་བྱིན་ཡོད་པའི་ སྡེ་ཚན་ཚུ།
fertility-heading = Tokenizer གི་ བཅད་ཚད (fertility)
fertility-hint = བཀལ་ཡོད་པའི་ དཔེ་གཞི་གི་ token ཚུ་ སྐད་ཡིག་རེ་རེའི་ དྲི་བ་དང་ གདམ་ཁ་ཚུ་ནང་ (BOS token མེད་པར)། རྫོང་ཁ་ནང་ ཚིག་གི་བར་ན་ བར་སྟོང་ མི་བྲིཝ་ལས་ ཚེག་བར་རེ་ལུ་ ག་བསྡུར་འབད།
fertility-run = token གྱངས་ཁ་རྐྱབ
col-language = སྐད་ཡིག
col-texts = ཚིག་ཡིག
col-per-word = ཚིག་རེ་ལུ
col-per-syllable = ཚེག་བར་རེ་ལུ
col-per-character = ཡིག་འབྲུ་རེ་ལུ
compare-heading = གཡོག་བཀོལ་གཞན་ཅིག་དང་ ག་བསྡུར
compare-open = སྲུང་བཞག་འབད་མི་ གཡོག་བཀོལ་ཚུ་ (samples JSONL) ཁ་ཕྱེ་སྟེ་ འདི་དང་ ག་བསྡུར་འབད
compare-hint = དོན་ཚན་ཚུ་ ཁ་ཕྱེ་མི་ གཡོག་བཀོལ་དང་པ་དང་ id ལུ་ མཐུན་སྒྲིག་འབདཝ་ཨིན། གཡོག་བཀོལ་གཉིས་ མི་མཐུན་པའི་ དོན་ཚན་ཚུ་རྐྱངམ་ཅིག་ སྟོནམ་ཨིན།
col-item = དོན་ཚན
col-run-a = གཡོག་བཀོལ་འདི (A)
col-run-b = ག་བསྡུར་གཡོག་བཀོལ (B)
device-summary = ཡོ་བྱད་དང་ རང་བརྟག
device-heading = ཡོ་བྱད
selftest-heading = རང་བརྟག (self-test)
selftest-hint = ཡོ་བྱད་འདི་གུ་ རྩིས་བརྐྱབ་མི་ matrix བསྒྱུར་རྩིས་ཅིག་དང་ softmax ཅིག་ f64 རྩིས་རྐྱངམ་དང་ ག་བསྡུར་འབདཝ་ཨིན། backend གདམ་ནི་ལུ་ ཁ་བྱང་གི་མཇུག་ལུ་ ?backend=cpu ཡང་ན་ ?backend=wgpu བསྣན།
col-check = བརྟག་ཞིབ
col-shape = དབྱིབས
col-tolerance = ཆོག་ཚད
col-device = ཡོ་བྱད
col-reference = གཞི་བཞག
score-heading = ཨང་རྟགས
score-hint = lm-evaluation-harness གི་ ལམ་ལུགས་ལྟར་ སྔོན་གྱི་ཚིག་ (context) གི་ཤུལ་ལུ་ གདམ་ཁ་རེ་རེའི་ log-likelihood (?model=URL&context=…&choice=…&choice=…)།
col-choice = གདམ་ཁ

## Run summary and rows

# $done of $total items answered; $accuracy and the interval are percentages, already formatted.
run-summary = { $total } ལས་ { $done } ལན་བྱིན་ཡོད · ཏག་ཚད { $accuracy } (༩༥% བར་ཚད { $low }–{ $high }) · ལཱ { $task } · དཔེ་གཞི { $model }
run-summary-exact = { $total } ལས་ { $done } ལན་བྱིན་ཡོད · ཆ་མཐུན་ཏག་ཏག { $accuracy } (༩༥% བར་ཚད { $low }–{ $high }) · ལཱ { $task } · དཔེ་གཞི { $model }
run-summary-greedy = { $total } ལས་ { $done } ལན་བྱིན་ཡོད · ཧ་ལམ་ངེས་པའི་མཇུག { $accuracy } (༩༥% བར་ཚད { $low }–{ $high }) · ལཱ { $task } · དཔེ་གཞི { $model }
run-summary-empty = { $total } ལས་ { $done } ལན་བྱིན་ཡོད · ལཱ { $task }
run-summary-failed = { $n } འཐུས་ཤོར་བྱུང་ཡོད (ལཱ་གཡོག་ ཐོར་ཡི)
# The two settings' own words: the random sample's size and its seed.
run-sample = { setting-sample }: { $n } ({ setting-seed }: { $seed })
row-correct = ✓ ཏག་ཏག
row-wrong = ✗ { $chosen } གདམ་ཡི། ལན་ཏག་ཏག { $gold }
row-differs = ✗ གཞི་རྟེན་དང་མི་མཐུན།
row-failed = ✗ འཐུས་ཤོར
row-not-scored = ཨང་རྟགས་མ་བྱིན: ལཱ་གཡོག་ ཐོར་ཡི ({ $message })
position-warning = ད་ཚུན་གྱི་ དྲི་བ་ཚུ་གི་ { $share } ལུ་ དཔེ་གཞི་གིས་ གདམ་ཁ་ { $letter } གདམ་ཡི: དེ་འབདཝ་ལས་ དེ་གི་ཏག་ཚད་འདི་གིས་ དཔེ་གཞི་གིས་ ག་ཅི་ཤེསཔ་ཨིན་ན་ མེན་པར་ ལན་འདི་ { $letter } ཨིན་མི་ ཚད་ཁོ་ན་ རྩིསཝ་ཨིན། འོག་གི་ གནས་སའི་ཕྱོགས་ལྷུང་ (position bias) བལྟ་ས་ལུ་ བལྟ།
position-warning-cloze = ད་ཚུན་གྱི་ དྲི་བ་ཚུ་གི་ { $share } ལུ་ དཔེ་གཞི་གིས་ གདམ་ཁ་ { $letter } གདམ་ཡི: དེ་འབདཝ་ལས་ དེ་གི་ཏག་ཚད་འདི་གིས་ དཔེ་གཞི་གིས་ ག་ཅི་ཤེསཔ་ཨིན་ན་ མེན་པར་ ལན་འདི་ { $letter } ཨིན་མི་ ཚད་ཁོ་ན་ རྩིསཝ་ཨིན། ལཱ་ { $task } གིས་ གདམ་ཁ་རེ་རེའི་ ཡིག་འབྲུ་གི་ཚབ་ལུ་ དེ་རའི་ཚིག་ལུ་ ཨང་རྟགས་བྱིནམ་ཨིན། འོག་གི་ གནས་སའི་ཕྱོགས་ལྷུང་ (position bias) བལྟ་ས་ལུ་ བལྟ།
notes-more = … དེ་ལས་ གཞན་ { $n }
yes = ཨིན
no = མེན
verdict-right = ✓ ཏག་ཏག
verdict-wrong = ✗ ནོར་བ
parallel-this-run = གཡོག་བཀོལ་འདི
parallel-every-item = ཏག་ཚད། སྡེ་ཚན་ནང་ཡོད་པའི་ དོན་ཚན་ག་ར
parallel-common = ཀ་ཐིག་ག་ར་ནང་ཡོད་པའི་ སྡེ་ཚན་ { $n } གུ
# A share of a number of items: "62% of 8".
share-of = { $n } ལས་ { $share }
compare-summary = { $name } (B) དང་ ག་བསྡུར། གཉིས་ཆ་རའི་ལན་ཡོད་པའི་ དོན་ཚན་ { $n } གུ: གཉིས་ཆ་ར་ཏག་ཏག { $both_right } · གཉིས་ཆ་ར་ནོར་བ { $both_wrong } · ནཱ་ (A) ཁོ་ན་ཏག་ཏག { $only_a } · B ཁོ་ན་ཏག་ཏག { $only_b }།
compare-paired = B − A: { $points } (95 % interval { $lo } – { $hi }); McNemar p = { $p }།
compare-unmatched = ནཱ་ཁོ་ན་ དོན་ཚན་ { $a }། B ཁོ་ན་ { $b }
inspector-item = དོན་ཚན་ { $number } · { $id }
inspector-other-languages = སྐད་ཡིག་གཞན་ཚུ་ནང་ དྲི་བ་གཅིག་པ
inspector-tokens = token { $n }། དཔེ་གཞི་གི་ BOS token ཡང་ ཚུད་དེ།
inspector-tokens-split = token { $n }། དཔེ་གཞི་གི་ BOS token ཡང་ ཚུད་དེ། ཡིག་འབྲུ་ཅིག་ནང་ རྟགས་ཡོད་པ་ཅིན་ token མཚམས་ཅིག་གིས་ ཡིག་འབྲུ་འདི་ ཕྱེ་ཡོདཔ་སྟོནམ་ཨིན།

## Status line

status-starting = ལཱ་གཡོག་ (worker) འགོ་བཙུགས་དོ…
status-device = ཡོ་བྱད་ གྲ་སྒྲིག་འབད་དོ…
status-ready = གྲ་སྒྲིག་ཡོདཔ། དཔེ་ཚད་དང་ བརྟག་ཞིབ་ གདམ་ཁ་རྐྱབ་སྟེ་ གཡོག་བཀོལ་ ཨེབ།
status-loading-model = དཔེ་གཞི་ བཀལ་དོ…
status-preparing = ལཱ་ གྲ་སྒྲིག་འབད་དོ…
status-checking-fit = དཔེ་གཞི་ ཤོང་ག་མི་ཤོང་ བརྟག་དོ…
status-running = གཡོག་བཀོལ་དོ།
status-paused = བར་མཚམས་བཞག་ཡོད།
status-finished = མཇུག་བསྡུ་ཡི།
status-finished-kept = མཇུག་བསྡུ་ཡི། ལོག་བཀལ་མ་འབད་བའི་ཧེ་མ་ལས་ ལན་ { $n } བཞག་ཡོད།
status-failed-items = དོན་ཚན་ { $n } འཐུས་ཤོར་བྱུང་ཡོད (དེ་གུ་ ལཱ་གཡོག་ ཐོར་ཡི)། ཚད་འཇལ་ག་ནི་ནང་ཡང་ མ་རྩིས།
status-resumed = ལོག་སྟེ་འགོ་བཙུགས་ཡི: ཧེ་མ་ལས་ ལན་ { $n } བཞག་ཡོད།
status-notes = གནད་སྡུད་སྐོར་ལས་ དྲན་འཛིན་ { $n } བཅུད་བསྡུས་ཀྱི་འོག་ལུ་ ཐོ་བཀོད་འབད་ཡོད།
status-cancelled = ཆ་མེད་བཏང་ཡི། གཡོག་བཀོལ་གྱི་ སྲུང་བཞག་ལན་ཚུ་ བཏོན་གཏང་ཡི།
status-recovered-paused = ལཱ་གཡོག་ ཐོར་མི་ལས་ སླར་གསོ་འབད་ཡི། བར་མཚམས་བཞག་ཡོད།
status-recovered-running = ལཱ་གཡོག་ ཐོར་མི་ལས་ སླར་གསོ་འབད་ཡི། གཡོག་བཀོལ་དོ།
status-reloading-after-crash = ལཱ་གཡོག་ ཐོར་ཡི: འཕྲོ་མཐུད་ནི་ལུ་ དཔེ་གཞི་ ལོག་བཀལ་དོ (གསོག་མཛོད་ལས)…
status-crash-item = དོན་ཚན་ { $number } ལུ་ ཨང་རྟགས་བྱིན་པའི་སྐབས་ ལཱ་གཡོག་ ཐོར་ཡི: { $message }
status-crash = ལཱ་གཡོག་ ཐོར་ཡི: { $message }
status-crash-goes-on = ལོག་འགོ་བཙུགས་ཡི། དཔེ་གཞི་ ལོག་བཀལ་ཡི་ དེ་ལས་ གཡོག་བཀོལ་ འཕྲོ་མཐུད་དོ (དོན་ཚན་འདི་ འཐུས་ཤོར་ལུ་ རྟགས་བཀལ་ཡོད)།
status-crash-restart = ལོག་འགོ་བཙུགས་ཡི། འཕྲོ་མཐུད་ནི་ལུ་ གཡོག་བཀོལ་ ལོག་འགོ་བཙུགས (ལན་བྱིན་ཡོད་པའི་ དོན་ཚན་ཚུ་ བཞག་ཡོད)།
status-not-saved = དོན་ཚན་ { $number } ལུ་ ལན་བྱིན་ཡོད་རུང་ སྲུང་བཞག་མ་འབད ({ $message }): ལོག་བཀལ་པ་ཅིན་ ལོག་སྟེ་ ཨང་རྟགས་བྱིན་འོང་།
status-saved-run = སྲུང་བཞག་གཡོག་བཀོལ་ { $name } སྟོན་དོ།
status-drop-reading = བཞག་མི་ ཡིག་སྣོད་ཁུག་ { $names } ལྷག་དོ…
status-drop-unused = བཞག་མི་འདི་ ལག་ལེན་མ་འཐབ།
status-dropped = { $what } བཞག་ཡི། འགོ་བཙུགས་ནི་ལུ་ གཡོག་བཀོལ་ ཨེབ།
status-scored = { $backend } གུ་ གདམ་ཁ་ { $n } ལུ་ ཨང་རྟགས་བྱིན་ཡི།
status-not-fit = དཔེ་གཞི་ མ་བཀལ: ཤོང་མི་ཚུགས། གཞན་ཅིག་ གདམ་ཁ་རྐྱབ།
status-model-failed = དཔེ་གཞི་ མ་བཀལ། རྒྱུ་མཚན་ དམརཔོ་གི་ནང་ སྟོན་ཡོད།
status-task-failed = ལཱ་ གྲ་སྒྲིག་ མ་འབད། རྒྱུ་མཚན་ དམརཔོ་གི་ནང་ སྟོན་ཡོད།
model-loading = བཀལ་དོ…
model-reading-header = དཔེ་གཞི་གི་ མགོ་ཡིག་ ལྷག་དོ…
model-loaded = { $name }: { $architecture }། རིམ་པ་ { $layers }། token { $vocab }།
model-not-loaded = མ་བཀལ: { $message }
download-cache = བརའུ་ཟར་འདི་གི་ གསོག་མཛོད་ལས་ { $mb } MB ལྷག་ཡི (ཕབ་ལེན་མེད)། བཀལ་དོ…
download-done = { $mb } MB ཕབ་ལེན་འབད་དེ་ བརྟག་ཞིབ་འབད་ཡི། བཀལ་དོ…
download-progress-total = { $total } MB ལས་ { $mb } ཕབ་ལེན་འབད་དོ · { $rate } MB/s · སྐར་ཆ་ { $seconds } ལུས་ཡོད
download-progress-rate = { $mb } MB ཕབ་ལེན་འབད་དོ · { $rate } MB/s
download-resumed = (ཧེ་མ་ སྲུང་བཞག་འབད་མི་ { $mb } MB ལས་ འཕྲོ་མཐུད་ཡོད)
data-download = ཚད་ལེན་གྱི་གནད་སྡུད་ ཕབ་ལེན་འབད་དོ། { $name } (ཡིག་སྣོད་ { $files } ལས་ { $file }): KB { $total } ལས་ { $kb }
data-download-cache = ཚད་ལེན་གྱི་གནད་སྡུད་ བརའུ་ཟར་འདི་གི་མཛོད་ལས། { $name } (ཡིག་སྣོད་ { $files } ལས་ { $file }, KB { $kb }), བདེན་དཔྱད་འབད་ཡི།

## Device panel

device-type = ཡོ་བྱད་ཀྱི་དབྱེ་བ
device-kernel = Int8 matmul kernel
device-threads = CPU threads
device-fallback = མཉེན་ཆས་ཚབ་མའི་ སྦྲེལ་ཆས (adapter)
device-why-not-webgpu = WebGPU ག་ཅི་འབད་ མེད་ག
device-calibration = དཔེ་གཞི་འདི་གུ་ ཚད་འཇལ་མི་ མགྱོགས་ཚད
device-workers = CPU གུ་ ལཱ་གཡོག (workers)
selftest-matches = ✓ མཐུནམ
selftest-differs = ✗ མི་མཐུན
selftest-summary-passed = { $device } གུ་ རང་བརྟག་ { $ms } ms ནང་ ཐར་ཡི།
selftest-summary-failed = { $device } གུ་ རང་བརྟག་ { $ms } ms ནང་ འཐུས་ཤོར་བྱུང་ཡི!

## Classroom mode

classroom-heading = སློབ་ཁང
classroom-back = ལོག
classroom-next = ཤུལ་མམ
classroom-close = སློབ་ཁང་རྣམ་པ་ལས་ ཕྱིར་འཐོན
classroom-votes-hint = སློབ་ཁང་གི་ལན་ ཨེབ། ཡང་ན་ གདམ་ཁ་རེ་རེ་ལུ་ སློབ་ཕྲུག་ ག་དེ་ཅིག་གིས་ གདམ་ཡི་ག་ བཙུགས:
classroom-keys = ལྡེ་མིག: → ཡང་ན་ བར་སྟོང་ (Space) རིམ་པ་ཤུལ་མམ། ← ལོག། 1–9 ཡང་ན་ A–I སློབ་ཁང་གི་ལན། Esc ཕྱིར་འཐོན།
classroom-progress = དྲི་བ་ { $total } ལས་ { $number } པ
classroom-step-question = སློབ་ཕྲུག་ཚུ་དང་གཅིག་ཁར་ དྲི་བ་དང་ གདམ་ཁ་ཚུ་ ལྷག
classroom-step-class = ཁྱེད་ཚུ་གི་ལན་ ག་ཅི་ཨིན་ན? གདམ་ཁ་ཅིག་ ཨེབ་ ཡང་ན་ ཚོགས་རྟགས་ཚུ་ གྱངས་ཁ་རྐྱབ།
classroom-step-model-waiting = དཔེ་གཞི་གིས་ དྲི་བ་འདི་ལུ་ ད་ལྟོ་ཡང་ ལན་བྱིན་དོ…
classroom-class-chose = སློབ་ཁང་གིས་ { $letter } གདམ་ཡི།
classroom-model-chose = དཔེ་གཞི་གིས་ { $letter } གདམ་ཡི།
classroom-gold-is = ལན་འདི་ { $letter } ཨིན།
classroom-score = སློབ་ཁང { $class } · དཔེ་གཞི { $model } · དྲི་བ་ { $n } ལས
classroom-votes-label = { $letter }: ཚོགས་རྟགས
classroom-no-run = ཧེ་མ་ གཡོག་བཀོལ་ཅིག་ འགོ་བཙུགས: སློབ་ཁང་རྣམ་པ་གིས་ དེ་གི་དྲི་བ་ཚུ་ རེ་རེ་བཞིན་ སྟོནམ་ཨིན།
classroom-end = འདི་ དྲི་བ་ མཇུག་མ་ཨིན།

## Dropped files, model checks, device panel

dropped-model-folder = དཔེ་གཞི་ཡིག་སྣོད་ཁུག་ { $folder } (ཡིག་སྣོད་ { $n })
dropped-model = དཔེ་གཞི་ { $files }
dropped-benchmark = ཚད་གཞིའི་བརྟག་དཔྱད་ { $files }
dropped-benchmark-more = ཚད་གཞིའི་བརྟག་དཔྱད་ { $files } དང་ གཞན་ { $n }
dropped-not-used = ལག་ལེན་མ་འཐབ: { $files }
dropped-not-used-more = ལག་ལེན་མ་འཐབ: { $files } དང་ གཞན་ { $n }
model-refused-header = མ་བཀལ: { $name } ཤོང་མི་ཚུགས (མགོ་ཡིག་རྐྱངམ་ཅིག་ ལྷག་ཡི)།
model-refused-folder = མ་བཀལ: { $name } ཤོང་མི་ཚུགས (config.json དང་ safetensors མགོ་ཡིག་ཚུ་རྐྱངམ་ཅིག་ ལྷག་ཡི)།
model-fit-unchecked = { $name }: ཕབ་ལེན་མ་འབད་བའི་ཧེ་མ་ བརྟག་ཞིབ་མ་འབད: { $why }།
col-group = སྡེ་ཚན
device-backend = རྒྱབ་སྣེ (backend)
device-adapter = སྦྲེལ་ཆས (adapter)
device-summary-done = ཡོ་བྱད་དང་ རང་བརྟག — { $summary }

## The run's one-page summary

button-summary-svg = བཅུད་བསྡུས་ཀྱི་པར (SVG)
button-summary-print = བཅུད་བསྡུས་ དཔར་བསྐྲུན་འབད
summary-title = lingualens · { $task }
summary-headline = ཏག་ཚད { $accuracy } (༩༥% བར་ཚད { $low }–{ $high }) · { $total } ལས་ { $done } ལན་བྱིན་ཡོད
summary-model = དཔེ་གཞི: { $model } · རྒྱབ་སྣེ: { $backend } · { $date }
summary-by = ས་སྒོ་ལྟར:
summary-positions = དཔེ་གཞི་གིས་ གདམ་ཁ་ ག་འདི་ གདམ་ཡི་ག་ དང་ ལན་ཏག་ཏག་ཚུ་ ག་ཏེ་ཡོད་ག
summary-chosen = གདམ་ཡོདཔ
summary-gold-here = ལན་ཏག་ཏག་ ནཱ་ལུ
summary-more = … དེ་ལས་ གཞན་ { $n }

# The Experiment menu (page/suite.rs).
experiment-label = ཡང་ན་ བརྟག་ཞིབ་ (དཔྱད་རྩོམ་ནང་བཟུམ་ གཡོག་བཀོལ་ལེ་ཤ་ག་བསྡུར་)
experiment-none = མེད། ལཱ་ཅིག་རྐྱངམ་ཅིག
button-experiment = བརྟག་ཞིབ་འདི་ གཡོག་བཀོལ།
suite-heading = བརྟག་ཞིབ།
suite-progress = { $name }: གཡོག་བཀོལ་ { $runs } ལས་ { $run } ({ $task })།
suite-stopped = { $name }: གཡོག་བཀོལ་ { $runs } ལས་ { $done } མཇུག་བསྡུ་ཡི། འཕྲོ་མཐུད་ནི་ལུ་ སླར་འཛུགས་འབད།
suite-finished = { $name }: གཡོག་བཀོལ་ { $runs } ཆ་མཉམ་ མཇུག་བསྡུ་ཡི།
button-suite-resume = བརྟག་ཞིབ་ འཕྲོ་མཐུད།
button-suite-forget = བརྟག་ཞིབ་ བརྗེད།
suite-col-run = གཡོག་བཀོལ།
suite-col-task = ལཱ།
suite-col-accuracy = ངེས་བདེན་ % (95 % interval)
suite-col-items = དྲི་བ།
suite-comparisons-heading = ག་བསྡུར་ དྲི་བ་རེ་རེ་བཞིན།
suite-col-pair = B − A
suite-col-difference = ཁྱད་པར་ (95 % interval)
suite-col-flips = A ནང་རྐྱངམ་ཅིག་ཏག་ཏག / B ནང་རྐྱངམ་ཅིག་ཏག་ཏག
suite-col-p = McNemar p
suite-swings-heading = འགྱུར་ཚད། ངེས་བདེན་མཐོ་ཤོས་ལས་ དམའ་ཤོས་ཕབ།
suite-col-swing-name = འགྱུར་ཚད།
suite-col-swing-runs = གཡོག་བཀོལ་ཚུ།
suite-col-swing = (95 % bootstrap interval)
suite-not-in-menu = བརྟག་ཞིབ་ཀྱི་གཡོག་བཀོལ་ { $run } ལུ་ ལཱ་ { $task } དགོཔ་ཨིན། ལཱ་གི་ཐོ་ཡིག་ནང་ ད་ལྟོ་ཚུན་ མེད། དང་པ་ “ངེ་གི་ཡིག་སྣོད་ཚུ་” འོག་ལས་ ལཱ་གི་ YAML དང་ གནས་སྡུད་ གདམ་ཁ་རྐྱབ་སྟེ་ བརྟག་ཞིབ་ ལོག་འགོ་བཙུགས།
suite-wrong-task = བརྟག་ཞིབ་ཀྱི་གཡོག་བཀོལ་ { $run } ལུ་ ལཱ་ { $task } དགོཔ་ཨིན། ཁྱོད་ཀྱིས་ གདམ་མི་ཡིག་སྣོད་ཚུ་གིས་ { $given } ངོས་འཛིན་འབདཝ་ཨིན།
storage-not-kept = { $file } འདི་ གཡོག་བཀོལ་འདི་གི་དོན་ལུ་ ལག་ལེན་འཐབ་ཅི་ འོན་ཀྲུང་ ཡོངས་འབྲེལ་མེད་པའི་སྐབས་ལུ་ ལག་ལེན་འཐབ་ནི་ལུ་ བཞག་མ་ཚུགས། { $reason }། ས་སྟོང་ ལ་ལུ་ཅིག་ བཟོ་ (འོག་གི་ བཞག་ཡོད་པའི་ དཔེ་གཞི་ བཏོན་གཏང་ ཡང་ན་ བརྡ་འཚོལ་ཆས་ཀྱི་ སྒྲིག་སྟངས་ནང་ ས་ཁོངས་འདི་གི་ གནས་སྡུད་ བསལ་) དེ་ལས་ ཤུལ་མར་ ཕབ་ལེན་འབད་བའི་སྐབས་ བཞག་འོང་།
suite-other-model = བརྟག་ཞིབ་འདི་ { $model } གུ་འགོ་བཙུགས་ཡི། འཕྲོ་མཐུད་ནི་ལུ་ དཔེ་གཞི་དེ་ གདམ་ཁ་རྐྱབ། ཡང་ན་ བརྟག་ཞིབ་ བརྗེད།
suite-unknown = { $name } ཟེར་མི་ བརྟག་ཞིབ་ མེད།
button-suite-json = ཐིག་ཁྲམ་ (JSON)
button-suite-svg = རི་མོ་ (SVG)
button-suite-summary = བཅུད་བསྡུས་ཀྱི་པར (SVG)
button-suite-print = བརྟག་ཞིབ་ དཔར་བསྐྲུན་འབད
import-suite = སྲུང་བཞག་འབད་མི་ བརྟག་ཞིབ་ཅིག་ ཁ་ཕྱེ
suite-opened = { $name }: { $file } ལས་ ཁ་ཕྱེ་ཡི། དཔེ་གཞི་ { $models }།
suite-col-model = དཔེ་གཞི།
suite-runs-heading = གཡོག་བཀོལ།
suite-summary-title = lingualens · བརྟག་ཞིབ་ { $name }
suite-summary-models = དཔེ་གཞི: { $models } · { $date }
suite-summary-sample = གཡོག་བཀོལ་རེ་རེ་གིས་ ཡིག་ཆ་ { $n } གཅིག་པ་ཅིག་ བརྟག་ཞིབ་འབད་ཡི། (seed { $seed })
