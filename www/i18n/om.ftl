# lingualens: the interface in Afaan Oromo (Latin script, Qubee).
# English: this catalogue was machine-drafted by an AI model on 2026-12-02 from en.ftl and has
# not yet been reviewed by a native speaker. Corrections are welcome.
# Plural categories used (CLDR, Afaan Oromo): one, other.
# Least sure: fertility-heading, parallel-hint, parallel-common, col-greedy, order-rotations,
# order-shuffles, col-tolerance, device-fallback, status-drop-unused, bias-heading, demo-note.
# Afaan Oromoo: galmeen kun guyyaa 2026-12-02 irratti en.ftl irraa moodeela AI-tiin qophaa'e;
# ammallee dubbataa afaan dhalootaatiin hin sakatta'amne. Sirreeffamni ni simatama.
# Ramaddii baay'inaa (plural) fayyadame: one, other.
# Ergaawwan (id) itti shakkii qabnu: fertility-heading, parallel-hint, parallel-common, col-greedy,
# order-rotations, order-shuffles, col-tolerance, device-fallback, status-drop-unused,
# bias-heading, demo-note.
# Added on 2026-12-03, machine-drafted like the rest and least sure too: model-on-server, kit-note, data-download, data-download-cache.

## Header and setup

language-label = Afaan
tagline = Moodeelota afaanii xixiqqoo, madaallii afaan Zoongkaa (རྫོང་ཁ), Amaaraa (አማርኛ), Kirgiiz (кыргызча) fi kan biroo irratti gaaffii tokkoon tokkoon madaalaman — biraawzara keessan keessatti, homaa osoo hin galchin, sarvarii malee.
status-loading = Fe'amaa jira…
setup-heading = Moodeela fi madaallii
setup-hint = Armaan gadii filadhaa, yookaan moodeela .gguf (yookaan faayiloota moodeela Hugging Face) fi faayiloota daataa yookaan YAML hojii sanduuqa kana keessatti bakka barbaaddan harkisaa gad dhiisaa.
model-legend = Moodeela
model-choose = Filadhu
model-file = yookaan faayilii GGUF kompiitara kana irra jiru, yookaan faayiloota moodeela Hugging Face (config.json, tokenizer.json, .safetensors)
model-folder = yookaan foldara moodeela Hugging Face
model-url = yookaan URL
model-none = Moodeelli tokkollee hin fe'amne.
cached-models = Interneetii malee fayyadamuuf biraawzara kana keessatti kan kuufame:
task-legend = Madaallii
task-label = Hojii
task-demo = Agarsiisa: gaaffii 21, afaan 6 keessatti
task-files = Faayiloota koo (armaan gadii)
task-dzen-en-cloze = DZEN, gaaffilee Ingiliffaa, barreeffamni filannoo tokkoon tokkoo ni madaalama (moodeelota xixiqqoof; ↓ 0.4 MB)
task-dzen-dz-cloze = DZEN, gaaffilee Zoongkaa, barreeffamni filannoo tokkoon tokkoo ni madaalama (↓ 0.4 MB)
task-dzen-dz-en-cloze = DZEN, Zoongkaa Ingiliffaan itti dabalame, barreeffamni filannoo tokkoon tokkoo ni madaalama (↓ 0.4 MB)
task-dzen-en = DZEN, gaaffilee Ingiliffaa (↓ 0.4 MB)
task-dzen-dz = DZEN, gaaffilee Zoongkaa (↓ 0.4 MB)
task-dzen-dz-en = DZEN, Zoongkaa hiikni Ingiliffaa itti dabalame (↓ 0.4 MB)
task-dzen-cot-en = DZEN, gaaffilee Ingiliffaa, tarkaanfiidhaan yaaduun (suuta; ↓ 0.4 MB)
task-dzen-cot-dz = DZEN, gaaffilee Zoongkaa, tarkaanfiidhaan yaaduun (suuta; ↓ 0.4 MB)
task-proverbeval-amh-choice-english = Amharic: the meaning, English descriptions
task-proverbeval-amh-choice-native = Amharic: the meaning, Amharic descriptions
task-proverbeval-amh-fill = Amharic: fill in the blank
task-proverbeval-amh-generation-english = Amharic: the proverb, from an English description
task-proverbeval-amh-generation-native = Amharic: the proverb, from an Amharic description
task-group-dzen = DZEN (Zoongkaa, Ingiliffaa)
task-group-proverbeval-amh = ProverbEval, Afaan Amaaraa (GitHub fi Hugging Face Hub irraa)
task-proverbeval-orm-choice-english = Afaan Oromo: the meaning, English descriptions
task-proverbeval-orm-choice-native = Afaan Oromo: the meaning, Afaan Oromo descriptions
task-proverbeval-orm-fill = Afaan Oromo: fill in the blank
task-proverbeval-orm-generation-english = Afaan Oromo: the proverb, from an English description
task-proverbeval-orm-generation-native = Afaan Oromo: the proverb, from an Afaan Oromo description
task-group-proverbeval-orm = ProverbEval, Afaan Oromoo (GitHub fi Hugging Face Hub irraa)
task-proverbeval-tir-choice-english = Tigrinya: the meaning, English descriptions
task-proverbeval-tir-choice-native = Tigrinya: the meaning, Tigrinya descriptions
task-proverbeval-tir-fill = Tigrinya: fill in the blank
task-proverbeval-tir-generation-english = Tigrinya: the proverb, from an English description
task-proverbeval-tir-generation-native = Tigrinya: the proverb, from a Tigrinya description
task-group-proverbeval-tir = ProverbEval, Afaan Tigrinyaa (GitHub fi Hugging Face Hub irraa)
task-proverbeval-gez-choice-english = Ge'ez: the meaning, English descriptions
task-proverbeval-gez-choice-native = Ge'ez: the meaning, Ge'ez descriptions
task-proverbeval-gez-fill = Ge'ez: fill in the blank
task-proverbeval-gez-generation-english = Ge'ez: the proverb, from an English description
task-proverbeval-gez-generation-native = Ge'ez: the proverb, from a Ge'ez description
task-group-proverbeval-gez = ProverbEval, Afaan Gi'iz (GitHub fi Hugging Face Hub irraa)
task-proverbeval-eng-choice-native = English proverbs: the meaning, English descriptions
task-proverbeval-eng-fill = English proverbs: fill in the blank
task-proverbeval-eng-generation-native = English proverbs: the proverb, from an English description
task-group-proverbeval-eng = ProverbEval, Afaan Ingliffaa (GitHub fi Hugging Face Hub irraa)
task-group-kyrgyzllm-mmlu = KyrgyzLLM-Bench, KyrgyzMMLU (GitHub fi Hugging Face Hub irraa)
task-group-kyrgyzllm-rc = KyrgyzLLM-Bench, KyrgyzRC (GitHub fi Hugging Face Hub irraa)
task-group-kyrgyzllm-hellaswag = KyrgyzLLM-Bench, HellaSwag Afaan Kirgiiziitiin (GitHub fi Hugging Face Hub irraa)
task-group-kyrgyzllm-winogrande = KyrgyzLLM-Bench, WinoGrande Afaan Kirgiiziitiin (Hugging Face Hub irraa)
task-group-kyrgyzllm-truthfulqa = KyrgyzLLM-Bench, TruthfulQA Afaan Kirgiiziitiin (GitHub fi Hugging Face Hub irraa)
task-group-kyrgyzllm-boolq = KyrgyzLLM-Bench, BoolQ Afaan Kirgiiziitiin (GitHub fi Hugging Face Hub irraa)
task-kyrgyz-mmlu = Kyrgyz: school questions in nine subjects, lettered options
task-kyrgyz-rc = Kyrgyz: reading comprehension, a text and its question
task-hellaswag-kg = Kyrgyz: how an everyday activity goes on (HellaSwag)
task-winogrande-kg = Kyrgyz: who or what the blank refers to (WinoGrande)
task-winogrande-kg-partial = Kyrgyz: WinoGrande, only the sentence's ending scored
task-truthfulqa-kg = Kyrgyz: the true answer among common misconceptions (TruthfulQA)
task-boolq-kg = Kyrgyz: yes or no about a passage (BoolQ)
task-kept = Interneetii malee fayyadamuuf biraawzara kana keessatti kuufameera (faayiloota: { $files }, { $mb } MB): hojiin kun interneetii malee hojjeta.
task-download-size = Daataan isaa yeroo jalqabaa hojjetu buufama (faayiloota: { $files }, { $mb } MB), achiis interneetii malee fayyadamuuf biraawzara kana keessatti kuufama.
task-download-unknown = Daataan isaa yeroo jalqabaa hojjetu buufama (faayiloota: { $files }, hammi hin beekamu), achiis interneetii malee fayyadamuuf biraawzara kana keessatti kuufama.
task-download-hub = Daataan isaa yeroo jalqabaa hojjetu buufama (faayiloonni isaa akkuma maktabni datasets argutti Hugging Face Hub irraa argamu), achiis interneetii malee fayyadamuuf biraawzara kana keessatti kuufama.
task-data-file = Faayilii daataa (CSV, JSON, JSONL, Parquet), yoo barbaachise YAML hojii lm-eval waliin
task-data-folder = yookaan foldara daataa (DZEN: foldara DZEN/ fi DZEN-Few_Shots/ of keessaa qabu)
setting-limit = Daangaa
setting-shots = Fakkeenyota (shots)
setting-seed = Seed
setting-order = Tartiiba filannoo
order-given = akkuma kenname
order-gold-first = sirriin jalqaba
order-gold-last = sirriin dhuma
order-rotations = naanneessa hunda
order-shuffles = walmakiinsa seed irratti hundaa'e 3
setting-pace = Saffisa (ms gaaffii tokkoof)
setting-sample = Fakkeenya akka carraa
placeholder-all = hunda
placeholder-task = hojii
filters-hint = Gaaffilee kanneen qofa (gatiiwwan hojii dhuma irratti qophaa'e; fakkeenyi carraa seed fayyadama):
button-run = Gaggeessi
button-pause = Dhaabi
button-resume = Itti fufi
button-cancel = Haqi fi irraanfadhu
button-classroom = Haala daree
button-export-jsonl = Fakkeenyota JSONL
button-export-json = Bu'aalee JSON
button-export-csv = CSV
import-run = Gaggeessa kuufame bani
demo-note = Kun agarsiisa appii keessatti ijaarame: moodeela baay'ee xiqqaa ulfaatina akka carraa qabu (models/demo, parameetira 0.2 M), kanaaf deebiin isaa carraa qofa — akkaataa gaggeessi itti hojjetu agarsiisa, waan moodeelli beeku miti. Moodeela dhugaa madaaluuf, tarree keessaa tokko filadhaa (yeroo gaggeessi jalqabu Hugging Face irraa buufama) yookaan faayilii GGUF kompiitara kana irra jiru banaa.
model-demo = Moodeela agarsiisaa (ulfaatina akka carraa, parameetira 0.2 M, appii keessatti)
# A catalogue model in the list: its name, then its quantization, size and licence.
model-catalog-entry = { $name } ({ $details }) — ni buufama
model-on-server = { $name } ({ $details }) — sarvara kana irra
kit-note = Interneetii malee itti fayyadamuuf sarvara kana irra jiru: { $benchmarks }. Hojiiwwan isaanii faayilii hin barbaadan.
size-unknown = hammi hin beekamu
cache-delete = { $file } kuusaa keessaa haqi
cache-delete-button = Haqi

## Run table and analysis

run-heading = Gaggeessa
run-nothing = Ammaaf homtuu hin gaggeeffamne.
col-number = #
col-question = gaaffii
col-options = filannoowwan (carraa moodeelaa; sirrii ★)
col-result = bu'aa
col-ms = ms
inspector-heading = Gaaffii
inspector-hint = Gaaffii (prompt) sirrii, daangaan token moodeelaa mallattaa'ee:
col-option = filannoo
col-loglikelihood = log-likelihood
col-per-char = qubee tokkoof
col-tokens = tokenoota
col-greedy = greedy
breakdown-heading = Akka meetaadaataatti
col-field = dirree
col-value = gatii
col-n = n
col-accuracy = sirrummaa
bias-heading = Bakka filannoo
col-position = bakka
col-gold-here = sirriin asitti
col-accuracy-when-gold = sirrummaa yeroo sirriin asitti
col-chosen = filatame
col-uniform = walqixa
parallel-heading = Gaaffii tokkicha afaanota adda addaatiin
parallel-hint = Gaaffilee garee tokko qooddatan, hidhata walfakkii (parallel) tokkoon walitti hidhaman, yookaan kanneen id isaanii /language dhumaa qofaan adda ta'e (kan DZEN), gaggeessa kana fi gaggeessota kuufaman armaan gaditti banaman keessatti: walbira qabuudhaan ilaaluuf, gaggeessa DZEN tokko Ingiliffaan, tokko Zoongkaan, tokko immoo hiika Ingiliffaa itti dabalameen (dz+en) banaa. Sararri dhumaa utubaalee gaaffilee walfakkaatan irratti wal bira qaba: gareewwan utubaa hunda keessatti deebii argatan.
fertility-heading = Baay'ina token (tokenizer fertility)
fertility-hint = Tokenoota moodeela fe'amee gaaffilee fi filannoowwan afaan tokkoon tokkoo keessatti (token BOS malee). Zoongkaan jechoota gidduutti iddoo duwwaa hin barreessu, kanaaf birsaga tokkoon wal bira qabaa.
fertility-run = Tokenoota lakkaa'i
col-language = afaan
col-texts = barreeffamoota
col-per-word = jecha tokkoof
col-per-syllable = birsaga tokkoof
col-per-character = qubee tokkoof
compare-heading = Gaggeessa biraa waliin wal bira qabame
compare-open = Gaggeessota kuufaman (fakkeenyota JSONL) kana waliin wal bira qabuuf bani
compare-hint = Gaaffileen gaggeessa jalqaba banamee waliin id-dhaan walsimu; gaaffilee gaggeessonni lamaan irratti wal hin simne qofatu tarreeffama.
col-item = gaaffii
col-run-a = gaggeessa kana (A)
col-run-b = gaggeessa wal bira qabame (B)
device-summary = Meeshaa fi self-test
device-heading = Meeshaa
selftest-heading = Self-test
selftest-hint = Baay'isa maatiriksii fi softmax meeshaa kana irratti herregaman, herrega f64 salphaa waliin wal bira qabamu. Backend filachuuf ?backend=cpu yookaan ?backend=wgpu teessoo (address) irratti dabalaa.
col-check = sakatta'iinsa
col-shape = boca
col-tolerance = daangaa dogoggoraa
col-device = meeshaa
col-reference = wabii
score-heading = Qabxiilee
score-hint = Log-likelihood filannoo tokkoon tokkoo haala (context) booda, akka seera lm-evaluation-harness (?model=URL&context=…&choice=…&choice=…).
col-choice = filannoo

## Run summary and rows

# $done of $total items answered; $accuracy and the interval are percentages, already formatted.
run-summary = { $total } keessaa { $done } deebifame · sirrummaa { $accuracy } (daangaa 95% { $low }–{ $high }) · hojii { $task } · moodeela { $model }
run-summary-exact = { $total } keessaa { $done } deebifame · walsimsiisa sirrii { $accuracy } (daangaa 95% { $low }–{ $high }) · hojii { $task } · moodeela { $model }
run-summary-greedy = { $total } keessaa { $done } deebifame · itti fufiinsa baay'ee ta'uu danda'u { $accuracy } (daangaa 95% { $low }–{ $high }) · hojii { $task } · moodeela { $model }
run-summary-empty = { $total } keessaa { $done } deebifame · hojii { $task }
run-summary-failed = { $n } hin milkoofne (hojjetaan kufe)
# The two settings' own words: the random sample's size and its seed.
run-sample = { setting-sample }: { $n } ({ setting-seed }: { $seed })
row-correct = ✓ sirrii
row-wrong = ✗ { $chosen } filate, sirriin { $gold }
row-differs = ✗ wabii irraa adda
row-failed = ✗ hin milkoofne
row-not-scored = Hin madaalamne: hojjetaan kufe ({ $message })
position-warning = Moodeelli hanga ammaatti gaaffilee { $share } irratti filannoo { $letter } filate: sirrummaan isaa irra caalaa yeroo meeqa { $letter } deebii akka ta'e lakkaa'a, waan inni beeku miti. Ilaalcha loogii bakkaa (position bias) armaan gadii ilaalaa.
position-warning-cloze = Moodeelli hanga ammaatti gaaffilee { $share } irratti filannoo { $letter } filate: sirrummaan isaa irra caalaa yeroo meeqa { $letter } deebii akka ta'e lakkaa'a, waan inni beeku miti. Hojiin { $task } qubee filannoo bakka madaaluu, barreeffama filannoo sanaa madaala. Ilaalcha loogii bakkaa (position bias) armaan gadii ilaalaa.
notes-more = … fi { $n } dabalataa
yes = eeyyee
no = lakki
verdict-right = ✓ sirrii
verdict-wrong = ✗ dogoggora
parallel-this-run = gaggeessa kana
parallel-every-item = sirrummaa, gaaffilee garee qaban hunda
parallel-common = gareewwan { $n } utubaa hunda keessa jiran irratti
# A share of a number of items: "62% of 8".
share-of = { $n } keessaa { $share }
compare-summary = { $name } (B) waliin, gaaffilee { $n } lamaan deebisan irratti: lamaan sirrii { $both_right } · lamaan dogoggora { $both_wrong } · asitti qofa sirrii (A) { $only_a } · B keessatti qofa sirrii { $only_b }.
compare-paired = B − A: qabxii { $points } (daangaa 95 %: { $lo } hanga { $hi }); qormaata McNemar sirrii p = { $p }.
compare-unmatched = gaaffilee { $a } asitti qofa, { $b } B keessatti qofa
inspector-item = Gaaffii { $number } · { $id }
inspector-other-languages = Gaaffii tokkicha afaanota biroon
inspector-tokens = { $n ->
    [one] Token { $n }, token BOS moodeelaa dabalatee.
   *[other] Tokenoota { $n }, token BOS moodeelaa dabalatee.
}
inspector-tokens-split = Tokenoota { $n }, token BOS moodeelaa dabalatee; mallattoon qubee keessa jiru daangaa token qubee tokko qoodu agarsiisa.

## Status line

status-starting = Hojjetaa (worker) jalqabsiisaa jira…
status-device = Meeshaa qopheessaa jira…
status-ready = Qophaa'eera. Moodeela fi madaallii filadhuu, achiis Gaggeessi tuqaa.
status-loading-model = Moodeela fe'aa jira…
status-preparing = Hojii qopheessaa jira…
status-checking-fit = Moodeelli akka ga'u mirkaneessaa jira…
status-running = Gaggeeffamaa jira.
status-paused = Dhaabbateera.
status-finished = Xumurameera.
status-finished-kept = { $n ->
    [one] Xumurameera; deebiin { $n } irra deebi'ee fe'uu dura kan ture eegameera.
   *[other] Xumurameera; deebiiwwan { $n } irra deebi'ee fe'uu dura kan turan eegamaniiru.
}
status-failed-items = { $n ->
    [one] Gaaffiin { $n } hin milkoofne (hojjetaan isa irratti kufe), safartuu kamiyyuu keessatti hin lakkaa'amu.
   *[other] Gaaffileen { $n } hin milkoofne (hojjetaan isaan irratti kufe), safartuu kamiyyuu keessatti hin lakkaa'aman.
}
status-resumed = { $n ->
    [one] Itti fufeera: deebiin { $n } kan duraa eegameera.
   *[other] Itti fufeera: deebiiwwan { $n } kan duraa eegamaniiru.
}
status-notes = { $n ->
    [one] Yaadni { $n } waa'ee daataa cuunfaa jalatti tarreeffameera.
   *[other] Yaadonni { $n } waa'ee daataa cuunfaa jalatti tarreeffamaniiru.
}
status-cancelled = Haqameera; deebiiwwan gaggeessichaa kuufaman haqamaniiru.
status-recovered-paused = Kufaatii hojjetaa irraa deebi'eera; dhaabbateera.
status-recovered-running = Kufaatii hojjetaa irraa deebi'eera; gaggeeffamaa jira.
status-reloading-after-crash = Hojjetaan kufe: itti fufuuf moodeela irra deebi'ee (kuusaa irraa) fe'aa jira…
status-crash-item = Hojjetaan gaaffii { $number } madaalaa osoo jiruu kufe: { $message }
status-crash = Hojjetaan kufe: { $message }
status-crash-goes-on = Irra deebi'ee jalqabameera; moodeelli irra deebi'ee fe'ameera, gaggeessis itti fufa (gaaffichi akka hin milkoofnetti mallattaa'eera).
status-crash-restart = Irra deebi'ee jalqabameera; itti fufuuf gaggeessa irra deebi'aa jalqabaa (gaaffileen deebifaman eegamaniiru).
status-not-saved = Gaaffiin { $number } deebifameera garuu hin kuufamne ({ $message }): irra deebi'ee fe'uun irra deebi'ee madaala.
status-saved-run = Gaggeessa kuufame { $name } agarsiisaa jira.
status-drop-reading = Foldara gad dhiifame { $names } dubbisaa jira…
status-drop-unused = Wanti gad dhiifame hin fayyadamne.
status-dropped = { $what } gad dhiifameera. Jalqabuuf Gaggeessi tuqaa.
status-scored = Filannoowwan { $n } { $backend } irratti madaalamaniiru.
status-not-fit = Moodeelli hin fe'amne: hin ga'u. Kan biraa filadhaa.
status-model-failed = Moodeelli hin fe'amne; sababni diimaan barreeffameera.
status-task-failed = Hojiin hin qophoofne; sababni diimaan barreeffameera.
model-loading = Fe'amaa jira…
model-reading-header = Mata-duree moodeelaa dubbisaa jira…
model-loaded = { $name }: { $architecture }, sadarkaalee (layers) { $layers }, tokenoota { $vocab }.
model-not-loaded = Hin fe'amne: { $message }
download-cache = Kuusaa biraawzara kanaa irraa { $mb } MB dubbifameera (buufachuun hin jiru). Fe'amaa jira…
download-done = { $mb } MB buufameera, mirkanaa'eera. Fe'amaa jira…
download-progress-total = { $total } MB keessaa { $mb } buufachaa jira · { $rate } MB/s · { $seconds } s hafe
download-progress-rate = { $mb } MB buufachaa jira · { $rate } MB/s
download-resumed = ({ $mb } MB kanaan dura kuufame irraa itti fufe)
data-download = Daataan madaallii buufamaa jira: { $name } (faayila { $file } keessaa { $files }): { $kb } keessaa { $total } KB
data-download-cache = Daataan madaallii kuusaa biraawzara kanaa irraa: { $name } (faayila { $file } keessaa { $files }, { $kb } KB), mirkanaa'eera.

## Device panel

device-type = Gosa meeshaa
device-kernel = Kernel matmul Int8
device-threads = Threads CPU tokkoo keessatti
device-fallback = Adaptarii bakka bu'aa sooftiweerii
device-why-not-webgpu = Maaliif WebGPU miti
device-calibration = Saffisa moodeela kana irratti safarame
device-workers = Hojjettoota CPU irratti (workers)
selftest-matches = ✓ walsima
selftest-differs = ✗ adda
selftest-summary-passed = Self-test { $device } irratti { $ms } ms keessatti milkaa'eera
selftest-summary-failed = Self-test { $device } irratti { $ms } ms keessatti HIN MILKOOFNE

## Classroom mode

classroom-heading = Daree
classroom-back = Duubatti
classroom-next = Itti aanu
classroom-close = Haala daree keessaa ba'i
classroom-votes-hint = Deebii daree tuqaa, yookaan barattoota meeqatu filannoo tokkoon tokkoo filate galchaa:
classroom-keys = Furtuuwwan: → yookaan Space tarkaanfii itti aanu, ← duubatti, 1–9 yookaan A–I deebii daree, Esc ba'uuf.
classroom-progress = Gaaffii { $number } ({ $total } keessaa)
classroom-step-question = Gaaffii fi filannoowwan daree waliin dubbisaa.
classroom-step-class = Dareen maal deebisa? Filannoo tokko tuqaa yookaan sagalee lakkaa'aa.
classroom-step-model-waiting = Moodeelli ammallee gaaffii kana deebisaa jira…
classroom-class-chose = Dareen { $letter } filate.
classroom-model-chose = Moodeelli { $letter } filate.
classroom-gold-is = Deebiin { $letter } dha.
classroom-score = Daree { $class } · Moodeela { $model } · { $n ->
    [one] gaaffii { $n } keessaa
   *[other] gaaffilee { $n } keessaa
}
classroom-votes-label = { $letter }: sagalee
classroom-no-run = Dursa gaggeessa jalqabaa: haalli daree gaaffilee isaa tokko tokkoon agarsiisa.
classroom-end = Sun gaaffii dhumaa ture.

## Dropped files, model checks, device panel

dropped-model-folder = foldara moodeelaa { $folder } (faayiloota { $n })
dropped-model = moodeela { $files }
dropped-benchmark = madaallii { $files }
dropped-benchmark-more = madaallii { $files } fi { $n } dabalataa
dropped-not-used = hin fayyadamne: { $files }
dropped-not-used-more = hin fayyadamne: { $files } fi { $n } dabalataa
model-refused-header = Hin fe'amne: { $name } hin ga'u (mata-dureen isaa qofatu dubbifame).
model-refused-folder = Hin fe'amne: { $name } hin ga'u (config.json fi mata-dureewwan safetensors qofatu dubbifame).
model-fit-unchecked = { $name }: buufachuu dura hin mirkanoofne: { $why }.
col-group = garee
device-backend = Backend
device-adapter = Adaptarii
device-summary-done = Meeshaa fi self-test — { $summary }

## The run's one-page summary

button-summary-svg = Fakkii cuunfaa (SVG)
button-summary-print = Cuunfaa maxxansi
summary-title = lingualens · { $task }
summary-headline = Sirrummaa { $accuracy } (daangaa 95% { $low }–{ $high }) · { $total } keessaa { $done } deebifame
summary-model = Moodeela: { $model } · backend: { $backend } · { $date }
summary-by = Akka dirreetti:
summary-positions = Moodeelli filannoo kam akka filate, deebiin sirriin immoo eessa akka ture
summary-chosen = filatame
summary-gold-here = deebiin sirriin asitti
summary-more = … fi { $n } dabalataa

# The Experiment menu (page/suite.rs).
experiment-label = Ykn yaalii (hojiiwwan hedduu walbira qabamanii, akka barruulee keessatti)
experiment-none = hin jiru: hojii tokko
button-experiment = Yaalicha hojjechiisi
suite-heading = Yaalii
suite-progress = { $name }: hojii { $runs } keessaa { $run }ffaa ({ $task }).
suite-stopped = { $name }: hojii { $runs } keessaa { $done } xumuramaniiru; itti fufuuf itti fufi tuqi.
suite-finished = { $name }: hojiiwwan { $runs } hundi xumuramaniiru.
button-suite-resume = Yaalicha itti fufi
button-suite-forget = Yaalicha irraanfadhu
suite-col-run = Hojii
suite-col-task = Gocha
suite-col-accuracy = Sirrummaa, % (daangaa 95 %)
suite-col-items = Gaaffiiwwan
suite-comparisons-heading = Walbira qabiinsa, gaaffii gaaffiin
suite-col-pair = B − A
suite-col-difference = Garaagarummaa, qabxii (daangaa 95 %)
suite-col-flips = A qofa keessatti sirrii / B qofa keessatti sirrii
suite-col-p = Qormaata McNemar sirrii, p
suite-swings-heading = Jijjiirama: sirrummaa olaanaa irraa xiqqaa hir'isuun
suite-col-swing-name = Jijjiirama
suite-col-swing-runs = Hojiiwwan irratti
suite-col-swing = Qabxii (daangaa bootstrap 95 %)
suite-not-in-menu = Hojiin { $run } yaalichaa gocha { $task } barbaada; baafatni gochaa ammaaf hin dhiyeessu: dura YAML gochaa fi daataa isaa “Faayiloota koo” jalaa filadhuutii yaalicha irra deebi'ii jalqabi.
suite-wrong-task = Hojiin { $run } yaalichaa gocha { $task } barbaada, faayiloonni ati filatte garuu { $given } ibsu.
storage-not-kept = { $file } hojii kanaaf itti fayyadameera, garuu toora malee fayyadamuuf hin kuufamne: { $reason }. Iddoo bakkeessi (moodela kuufame armaan gadii haqi, ykn qindaa'ina browser keessatti daataa marsariitii kanaa qulqulleessi), yeroo itti aanu buufamu ni kuufama.
suite-other-model = Yaaliin kun { $model } irratti jalqabame; itti fufuuf moodela sana filadhu, ykn yaalicha irraanfadhu.
suite-unknown = Yaaliin { $name } jedhamu hin jiru.
button-suite-json = Gabatee (JSON)
button-suite-svg = Chaartii (SVG)
button-suite-summary = Fakkii cuunfaa (SVG)
button-suite-print = Yaalicha maxxansi
import-suite = Yaalii kuufame bani
suite-opened = { $name }: { $file } irraa banameera, moodeelota { $models }.
suite-col-model = Moodeela
suite-runs-heading = Hojiiwwan
suite-summary-title = lingualens · yaalii { $name }
suite-summary-models = Moodeelota: { $models } · { $date }
suite-summary-sample = Hojiin hundi galmee { $n } wal fakkaatan madaale; seed { $seed }n carraan filataman.
