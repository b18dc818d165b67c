# lingualens: the interface in English. The source catalogue: every other language has the same
# message ids (tests/integration/i18n.rs checks). Numbers arrive already formatted for the language; a count
# ($n, $done, …) can select a plural form with CLDR's categories for the language.
# Text in braces is Fluent syntax: keep the variables ($name) as they are; a selector
# ($n -> [one] … *[other] …) takes the language's own CLDR plural categories
# (Russian: one, few, many, other; Dzongkha: other only).

## Header and setup

language-label = Language
tagline = Small language models, scored question by question on benchmarks in Dzongkha (རྫོང་ཁ), Amharic (አማርኛ), Kyrgyz (кыргызча) and more — in your browser, with nothing installed and no server.
status-loading = Loading…
setup-heading = Model and benchmark
setup-hint = Pick below, or drop a .gguf model (or a Hugging Face model's files) and data or task YAML files anywhere on this box.
model-legend = Model
model-choose = Choose
model-file = or a GGUF file on this computer, or a Hugging Face model's files (config.json, tokenizer.json, .safetensors)
model-folder = or a Hugging Face model folder
model-url = or a URL
model-none = No model loaded.
cached-models = Kept in this browser for offline use:
task-legend = Benchmark
task-label = Task
task-demo = Demo: 21 questions in 6 languages
task-files = My files (below)
task-dzen-en-cloze = DZEN, English questions, each option's text scored (for small models; downloads 0.4 MB)
task-dzen-dz-cloze = DZEN, Dzongkha questions, each option's text scored (downloads 0.4 MB)
task-dzen-dz-en-cloze = DZEN, Dzongkha with the English appended, each option's text scored (downloads 0.4 MB)
task-dzen-en = DZEN, English questions (downloads 0.4 MB, or give your CSVs)
task-dzen-dz = DZEN, Dzongkha questions (downloads 0.4 MB, or give your CSVs)
task-dzen-dz-en = DZEN, Dzongkha with the English translation appended (downloads 0.4 MB)
task-dzen-cot-en = DZEN, English questions, reasoned step by step after 5 worked examples (slow; downloads 0.4 MB)
task-dzen-cot-dz = DZEN, Dzongkha questions, reasoned step by step in Dzongkha after 5 worked examples (slow; downloads 0.4 MB)
task-proverbeval-amh-choice-english = Amharic: the meaning, English descriptions
task-proverbeval-amh-choice-native = Amharic: the meaning, Amharic descriptions
task-proverbeval-amh-fill = Amharic: fill in the blank
task-proverbeval-amh-generation-english = Amharic: the proverb, from an English description
task-proverbeval-amh-generation-native = Amharic: the proverb, from an Amharic description
task-group-dzen = DZEN (Dzongkha, English)
task-group-proverbeval-amh = ProverbEval, Amharic (from GitHub and the Hugging Face Hub)
task-proverbeval-orm-choice-english = Afaan Oromo: the meaning, English descriptions
task-proverbeval-orm-choice-native = Afaan Oromo: the meaning, Afaan Oromo descriptions
task-proverbeval-orm-fill = Afaan Oromo: fill in the blank
task-proverbeval-orm-generation-english = Afaan Oromo: the proverb, from an English description
task-proverbeval-orm-generation-native = Afaan Oromo: the proverb, from an Afaan Oromo description
task-group-proverbeval-orm = ProverbEval, Afaan Oromo (from GitHub and the Hugging Face Hub)
task-proverbeval-tir-choice-english = Tigrinya: the meaning, English descriptions
task-proverbeval-tir-choice-native = Tigrinya: the meaning, Tigrinya descriptions
task-proverbeval-tir-fill = Tigrinya: fill in the blank
task-proverbeval-tir-generation-english = Tigrinya: the proverb, from an English description
task-proverbeval-tir-generation-native = Tigrinya: the proverb, from a Tigrinya description
task-group-proverbeval-tir = ProverbEval, Tigrinya (from GitHub and the Hugging Face Hub)
task-proverbeval-gez-choice-english = Ge'ez: the meaning, English descriptions
task-proverbeval-gez-choice-native = Ge'ez: the meaning, Ge'ez descriptions
task-proverbeval-gez-fill = Ge'ez: fill in the blank
task-proverbeval-gez-generation-english = Ge'ez: the proverb, from an English description
task-proverbeval-gez-generation-native = Ge'ez: the proverb, from a Ge'ez description
task-group-proverbeval-gez = ProverbEval, Ge'ez (from GitHub and the Hugging Face Hub)
task-proverbeval-eng-choice-native = English proverbs: the meaning, English descriptions
task-proverbeval-eng-fill = English proverbs: fill in the blank
task-proverbeval-eng-generation-native = English proverbs: the proverb, from an English description
task-group-proverbeval-eng = ProverbEval, English (from GitHub and the Hugging Face Hub)
task-group-kyrgyzllm-mmlu = KyrgyzLLM-Bench, KyrgyzMMLU (from GitHub and the Hugging Face Hub)
task-group-kyrgyzllm-rc = KyrgyzLLM-Bench, KyrgyzRC (from GitHub and the Hugging Face Hub)
task-group-kyrgyzllm-hellaswag = KyrgyzLLM-Bench, HellaSwag in Kyrgyz (from GitHub and the Hugging Face Hub)
task-group-kyrgyzllm-winogrande = KyrgyzLLM-Bench, WinoGrande in Kyrgyz (from the Hugging Face Hub)
task-group-kyrgyzllm-truthfulqa = KyrgyzLLM-Bench, TruthfulQA in Kyrgyz (from GitHub and the Hugging Face Hub)
task-group-kyrgyzllm-boolq = KyrgyzLLM-Bench, BoolQ in Kyrgyz (from GitHub and the Hugging Face Hub)
task-kyrgyz-mmlu = Kyrgyz: school questions in nine subjects, lettered options
task-kyrgyz-rc = Kyrgyz: reading comprehension, a text and its question
task-hellaswag-kg = Kyrgyz: how an everyday activity goes on (HellaSwag)
task-winogrande-kg = Kyrgyz: who or what the blank refers to (WinoGrande)
task-winogrande-kg-partial = Kyrgyz: WinoGrande, only the sentence's ending scored
task-truthfulqa-kg = Kyrgyz: the true answer among common misconceptions (TruthfulQA)
task-boolq-kg = Kyrgyz: yes or no about a passage (BoolQ)
task-kept = Kept in this browser for offline use (files: { $files }, { $mb } MB): this task runs without the internet.
task-download-size = Its data downloads when first run (files: { $files }, { $mb } MB) and is then kept in this browser for offline use.
task-download-unknown = Its data downloads when first run (files: { $files }, size unknown) and is then kept in this browser for offline use.
task-download-hub = Its data downloads when first run (its files are found on the Hugging Face Hub as the datasets library finds them) and is then kept in this browser for offline use.
task-data-file = Data file (CSV, JSON, JSONL, Parquet), optionally with an lm-eval task YAML
task-data-folder = or a data folder (DZEN: the folder holding DZEN/ and DZEN-Few_Shots/)
setting-limit = Limit
setting-shots = Shots
setting-seed = Seed
setting-order = Choice order
order-given = as given
order-gold-first = gold first
order-gold-last = gold last
order-rotations = every rotation
order-shuffles = 3 seeded shuffles
setting-pace = Pace (ms per item)
setting-sample = Random sample
placeholder-all = all
placeholder-task = task
filters-hint = Only the items with (the values of the last prepared task; the sample uses the seed):
button-run = Run
button-pause = Pause
button-resume = Resume
button-cancel = Cancel and forget
button-classroom = Classroom mode
button-export-jsonl = Samples JSONL
button-export-json = Results JSON
button-export-csv = CSV
import-run = Open a saved run
demo-note = This is the built-in demo: a tiny model with random weights (models/demo, 0.2 M parameters), so its answers are chance-level — it shows how a run works, not what a model knows. To measure a real model, choose one from the list (downloaded from Hugging Face when the run starts) or open a GGUF file on this computer.
model-demo = Demo model (random weights, 0.2 M parameters, in the app)
# A catalogue model in the list: its name, then its quantization, size and licence.
model-catalog-entry = { $name } ({ $details }) — downloads
model-on-server = { $name } ({ $details }) — on this server
kit-note = On this server, for use without the internet: { $benchmarks }. Their tasks need no files.
size-unknown = size unknown
cache-delete = Delete { $file } from the cache
cache-delete-button = Delete

## Run table and analysis

run-heading = Run
run-nothing = Nothing run yet.
col-number = #
col-question = question
col-options = options (model's probability; gold ★)
col-result = result
col-ms = ms
inspector-heading = Item
inspector-hint = The exact prompt, with the model's token boundaries marked:
col-option = option
col-loglikelihood = log-likelihood
col-per-char = per char
col-tokens = tokens
col-greedy = greedy
breakdown-heading = By metadata
col-field = field
col-value = value
col-n = n
col-accuracy = accuracy
bias-heading = Choice position
col-position = position
col-gold-here = gold here
col-accuracy-when-gold = accuracy when gold
col-chosen = chosen
col-uniform = uniform
parallel-heading = The same question across languages
parallel-hint = Items sharing a group, joined by a parallel link, or whose ids differ only in a final /language (DZEN's), in this run and in the saved runs opened below: open a DZEN run in English, one in Dzongkha and one with the English translation appended (dz+en) to see them side by side. The last row compares the columns on the same questions: the groups answered in every column.
fertility-heading = Tokenizer fertility
fertility-hint = The loaded model's tokens in each language's questions and options (no BOS token). Dzongkha writes no spaces between words, so compare it per syllable.
fertility-run = Count tokens
col-language = language
col-texts = texts
col-per-word = per word
col-per-syllable = per syllable
col-per-character = per character
compare-heading = Compared with another run
compare-open = Open saved runs (samples JSONL) to compare with this one
compare-hint = Items are matched by id with the first run opened; only the items the two runs disagree on are listed.
col-item = item
col-run-a = this run (A)
col-run-b = compared run (B)
device-summary = Device and self-test
device-heading = Device
selftest-heading = Self-test
selftest-hint = A matrix product and a softmax computed on this device, compared with plain f64 arithmetic. Add ?backend=cpu or ?backend=wgpu to the address to choose the backend.
col-check = check
col-shape = shape
col-tolerance = tolerance
col-device = device
col-reference = reference
score-heading = Scores
score-hint = Log-likelihood of each choice after the context, by lm-evaluation-harness's rule (?model=URL&context=…&choice=…&choice=…).
col-choice = choice

## Run summary and rows

# $done of $total items answered; $accuracy and the interval are percentages, already formatted.
run-summary = { $done } of { $total } answered · accuracy { $accuracy } (95% interval { $low }–{ $high }) · task { $task } · { $model } model
run-summary-exact = { $done } of { $total } answered · exact match { $accuracy } (95% interval { $low }–{ $high }) · task { $task } · { $model } model
run-summary-greedy = { $done } of { $total } answered · greedy continuations { $accuracy } (95% interval { $low }–{ $high }) · task { $task } · { $model } model
run-summary-empty = { $done } of { $total } answered · task { $task }
run-summary-failed = { $n } failed (the worker crashed)
run-sample = a sample of { $n } (seed { $seed })
row-correct = ✓ correct
row-wrong = ✗ chose { $chosen }, gold { $gold }
row-differs = ✗ differs from the reference
row-failed = ✗ failed
row-not-scored = Not scored: the worker crashed ({ $message })
position-warning = The model chose option { $letter } for { $share } of the questions so far: its accuracy mostly counts how often { $letter } is the answer, not what it knows. See the position-bias view below.
position-warning-cloze = The model chose option { $letter } for { $share } of the questions so far: its accuracy mostly counts how often { $letter } is the answer, not what it knows. The task { $task } scores each option's own text instead of its letter. See the position-bias view below.
notes-more = … and { $n } more
yes = yes
no = no
verdict-right = ✓ right
verdict-wrong = ✗ wrong
parallel-this-run = this run
parallel-every-item = accuracy, every grouped item
parallel-common = on the { $n } groups in every column
# A share of a number of items: "62% of 8".
share-of = { $share } of { $n }
compare-summary = Against { $name } (B), on { $n } items both answered: both right { $both_right } · both wrong { $both_wrong } · right only here (A) { $only_a } · right only in B { $only_b }.
compare-paired = B − A: { $points } points (95 % interval { $lo } to { $hi }); exact McNemar p = { $p }.
compare-unmatched = { $a } items only here, { $b } only in B
inspector-item = Item { $number } · { $id }
inspector-other-languages = The same question in other languages
inspector-tokens = { $n ->
    [one] { $n } token, the model's BOS token included.
   *[other] { $n } tokens, the model's BOS token included.
}
inspector-tokens-split = { $n } tokens, the model's BOS token included; a mark inside a letter shows a token boundary that splits a character.

## Status line

status-starting = Starting the worker…
status-device = Initialising the device…
status-ready = Ready. Choose a model and a benchmark, then press Run.
status-loading-model = Loading the model…
status-preparing = Preparing the task…
status-checking-fit = Checking that the model fits…
status-running = Running.
status-paused = Paused.
status-finished = Finished.
status-finished-kept = { $n ->
    [one] Finished; { $n } answer was kept from before a reload.
   *[other] Finished; { $n } answers were kept from before a reload.
}
status-failed-items = { $n ->
    [one] { $n } item failed (the worker crashed on it) and counts in no metric.
   *[other] { $n } items failed (the worker crashed on them) and count in no metric.
}
status-resumed = { $n ->
    [one] Resumed: { $n } answer was kept from before.
   *[other] Resumed: { $n } answers were kept from before.
}
status-notes = { $n ->
    [one] { $n } note about the data is listed below the summary.
   *[other] { $n } notes about the data are listed below the summary.
}
status-cancelled = Cancelled; the run's saved answers were deleted.
status-recovered-paused = Recovered from the worker's crash; paused.
status-recovered-running = Recovered from the worker's crash; running.
status-reloading-after-crash = The worker crashed: loading the model again (from the cache) to go on…
status-crash-item = The worker crashed while scoring item { $number }: { $message }
status-crash = The worker crashed: { $message }
status-crash-goes-on = It was restarted; the model is loaded again and the run goes on (the item is marked failed).
status-crash-restart = It was restarted; start the run again to go on (answered items are kept).
status-not-saved = Item { $number } was answered but not saved ({ $message }): a reload would score it again.
status-saved-run = Showing the saved run { $name }.
status-drop-reading = Reading the dropped folder { $names }…
status-drop-unused = The drop was not used.
status-dropped = Dropped { $what }. Press Run to start.
status-scored = Scored { $n } choices on { $backend }.
status-not-fit = The model was not loaded: it does not fit. Choose another one.
status-model-failed = The model was not loaded; the reason is shown in red.
status-task-failed = The task was not prepared; the reason is shown in red.
model-loading = Loading…
model-reading-header = Reading the model's header…
model-loaded = { $name }: { $architecture }, { $layers } layers, { $vocab } tokens.
model-not-loaded = Not loaded: { $message }
download-cache = Read { $mb } MB from this browser's cache (no download). Loading…
download-done = Downloaded { $mb } MB, checked. Loading…
download-progress-total = Downloading { $mb } of { $total } MB · { $rate } MB/s · { $seconds } s left
download-progress-rate = Downloading { $mb } MB · { $rate } MB/s
download-resumed = (continued from { $mb } MB saved before)
data-download = Fetching the benchmark's data: { $name } (file { $file } of { $files }): { $kb } of { $total } KB
data-download-cache = The benchmark's data from this browser's storage: { $name } (file { $file } of { $files }, { $kb } KB), checked.

## Device panel

device-type = Device type
device-kernel = Int8 matmul kernel
device-threads = CPU threads per pass
device-fallback = Software fallback adapter
device-why-not-webgpu = Why not WebGPU
device-calibration = Timed on this model
device-workers = Workers on the CPU
selftest-matches = ✓ matches
selftest-differs = ✗ differs
selftest-summary-passed = Self-test passed on { $device } in { $ms } ms
selftest-summary-failed = Self-test FAILED on { $device } in { $ms } ms

## Classroom mode

classroom-heading = Classroom
classroom-back = Back
classroom-next = Next
classroom-close = Leave classroom mode
classroom-votes-hint = Tap the class's answer, or enter how many students chose each option:
classroom-keys = Keys: → or Space next step, ← back, 1–9 or A–I the class's answer, Esc leave.
classroom-progress = Question { $number } of { $total }
classroom-step-question = Read the question and the options with the class.
classroom-step-class = What does the class answer? Tap an option or count the votes.
classroom-step-model-waiting = The model is still answering this question…
classroom-class-chose = The class chose { $letter }.
classroom-model-chose = The model chose { $letter }.
classroom-gold-is = The answer is { $letter }.
classroom-score = Class { $class } · Model { $model } · of { $n ->
    [one] { $n } question
   *[other] { $n } questions
}
classroom-votes-label = { $letter }: votes
classroom-no-run = Start a run first: classroom mode shows its questions one at a time.
classroom-end = That was the last question.

## Dropped files, model checks, device panel

dropped-model-folder = the model folder { $folder } ({ $n } files)
dropped-model = model { $files }
dropped-benchmark = benchmark { $files }
dropped-benchmark-more = benchmark { $files } and { $n } more
dropped-not-used = not used: { $files }
dropped-not-used-more = not used: { $files } and { $n } more
model-refused-header = Not loaded: { $name } does not fit (only its header was read).
model-refused-folder = Not loaded: { $name } does not fit (only config.json and the safetensors headers were read).
model-fit-unchecked = { $name }: not checked before the download: { $why }.
col-group = group
device-backend = Backend
device-adapter = Adapter
device-summary-done = Device and self-test — { $summary }

## The run's one-page summary

button-summary-svg = Summary picture (SVG)
button-summary-print = Print the summary
summary-title = lingualens · { $task }
summary-headline = Accuracy { $accuracy } (95% interval { $low }–{ $high }) · { $done } of { $total } answered
summary-model = Model: { $model } · backend: { $backend } · { $date }
summary-by = By
summary-positions = Which option the model chose, and where the right answers were
summary-chosen = chosen
summary-gold-here = right answer here
summary-more = … and { $n } more

# The Experiment menu (page/suite.rs).
experiment-label = Or an experiment (several runs compared, as in the papers)
experiment-none = none: one task
button-experiment = Run the experiment
suite-heading = Experiment
suite-progress = { $name }: run { $run } of { $runs } ({ $task }).
suite-stopped = { $name }: { $done } of { $runs } runs finished; resume to go on.
suite-finished = { $name }: all { $runs } runs finished.
button-suite-resume = Resume the experiment
button-suite-forget = Forget the experiment
suite-col-run = Run
suite-col-task = Task
suite-col-accuracy = Accuracy, % (95 % interval)
suite-col-items = Items
suite-comparisons-heading = Comparisons, item by item
suite-col-pair = B − A
suite-col-difference = Difference, points (95 % interval)
suite-col-flips = Right in A only / in B only
suite-col-p = Exact McNemar p
suite-swings-heading = Swings: largest minus smallest accuracy
suite-col-swing-name = Swing
suite-col-swing-runs = Over the runs
suite-col-swing = Points (95 % bootstrap interval)
suite-not-in-menu = The experiment's run { $run } needs the task { $task }, which the Task menu does not offer yet: choose its task YAML and data under “My files” first, then start the experiment again.
suite-wrong-task = The experiment's run { $run } needs the task { $task }, and the files you chose define { $given }.
storage-not-kept = { $file } is used for this run but was not kept for offline use: { $reason }. Free some space (delete a kept model below, or clear this site's data in the browser's settings) and it is kept the next time it downloads.
suite-other-model = This experiment was started on { $model }; choose that model to go on, or forget the experiment.
suite-unknown = There is no experiment { $name }.
button-suite-json = Table (JSON)
button-suite-svg = Chart (SVG)
button-suite-summary = Summary picture (SVG)
button-suite-print = Print the experiment
import-suite = Open a saved experiment
suite-opened = { $name }: opened from { $file }, { $models ->
    [one] one model.
   *[other] { $models } models.
}
suite-col-model = Model
suite-runs-heading = Runs
suite-summary-title = lingualens · experiment { $name }
suite-summary-models = Models: { $models } · { $date }
suite-summary-sample = Every run scored the same { $n } documents, drawn at random with seed { $seed }.
