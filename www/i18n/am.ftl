# lingualens: the interface in Amharic (አማርኛ).
# This catalogue was machine-drafted by an AI model on 2026-12-02 from en.ftl and has not yet
# been reviewed by a native speaker. Corrections are welcome.
# Plural categories used (CLDR, Amharic): one (0 and 1), other.
# Least sure: col-greedy, col-tolerance, fertility-heading, order-rotations, order-shuffles,
# setting-shots, device-fallback, parallel-hint, position-warning-cloze, status-finished-kept,
# classroom-step-question.
#
# ይህ የትርጉም ፋይል በ2026-12-02 በAI ሞዴል ከen.ftl በማሽን የተረቀቀ ነው፤ እስካሁን አማርኛ
# የአፍ መፍቻ ቋንቋቸው በሆነ ሰው አልተገመገመም። እርማቶች በደስታ ይቀበላሉ።
# ጥቅም ላይ የዋሉ የብዙ ቁጥር ምድቦች (CLDR)፦ one (0 እና 1) እና other።
# በጣም እርግጠኛ ያልሆንባቸው መለያዎች፦ col-greedy, col-tolerance, fertility-heading,
# order-rotations, order-shuffles, setting-shots, device-fallback, parallel-hint,
# position-warning-cloze, status-finished-kept, classroom-step-question።
# Added on 2026-12-03, machine-drafted like the rest and least sure too: model-on-server, kit-note, data-download, data-download-cache.

## Header and setup

language-label = ቋንቋ
tagline = ትናንሽ የቋንቋ ሞዴሎች፣ በዞንግካ (རྫོང་ཁ)፣ በአማርኛ (አማርኛ)፣ በኪርጊዝኛ (кыргызча) እና በሌሎችም ቋንቋዎች ባሉ መመዘኛ ፈተናዎች ጥያቄ በጥያቄ ይገመገማሉ — በአሳሽዎ ውስጥ፣ ምንም መጫን ሳያስፈልግ እና ያለ ሰርቨር።
status-loading = በመጫን ላይ…
setup-heading = ሞዴል እና መመዘኛ
setup-hint = ከታች ይምረጡ፣ ወይም የ.gguf ሞዴል (ወይም የHugging Face ሞዴል ፋይሎችን) እና የውሂብ ወይም የተግባር YAML ፋይሎችን በዚህ ሳጥን ላይ የትም ቦታ ጎትተው ይጣሉ።
model-legend = ሞዴል
model-choose = ይምረጡ
model-file = ወይም በዚህ ኮምፒውተር ላይ ያለ የGGUF ፋይል፣ ወይም የHugging Face ሞዴል ፋይሎች (config.json, tokenizer.json, .safetensors)
model-folder = ወይም የHugging Face ሞዴል አቃፊ
model-url = ወይም URL (የድር አድራሻ)
model-none = ምንም ሞዴል አልተጫነም።
cached-models = ያለ ኢንተርኔት ለመጠቀም በዚህ አሳሽ ውስጥ የተቀመጡ፦
task-legend = መመዘኛ
task-label = ተግባር
task-demo = ማሳያ፦ በ6 ቋንቋዎች 21 ጥያቄዎች
task-files = የእኔ ፋይሎች (ከታች)
task-dzen-en-cloze = DZEN፣ የእንግሊዝኛ ጥያቄዎች፣ የእያንዳንዱ አማራጭ ጽሑፍ ይገመገማል (ለትናንሽ ሞዴሎች፤ 0.4 MB ይወርዳል)
task-dzen-dz-cloze = DZEN፣ የዞንግካ ጥያቄዎች፣ የእያንዳንዱ አማራጭ ጽሑፍ ይገመገማል (0.4 MB ይወርዳል)
task-dzen-dz-en-cloze = DZEN፣ ዞንግካ ከእንግሊዝኛው ጋር ተያይዞ፣ የእያንዳንዱ አማራጭ ጽሑፍ ይገመገማል (0.4 MB ይወርዳል)
task-dzen-en = DZEN፣ የእንግሊዝኛ ጥያቄዎች (0.4 MB ይወርዳል፣ ወይም የራስዎን CSV ያቅርቡ)
task-dzen-dz = DZEN፣ የዞንግካ ጥያቄዎች (0.4 MB ይወርዳል፣ ወይም የራስዎን CSV ያቅርቡ)
task-dzen-dz-en = DZEN፣ ዞንግካ ከእንግሊዝኛ ትርጉሙ ጋር ተያይዞ (0.4 MB ይወርዳል)
task-dzen-cot-en = DZEN፣ የእንግሊዝኛ ጥያቄዎች፣ ከ5 የተሠሩ ምሳሌዎች በኋላ ደረጃ በደረጃ ምክንያት (ቀርፋፋ፤ 0.4 MB ይወርዳል)
task-dzen-cot-dz = DZEN፣ የዞንግካ ጥያቄዎች፣ ከ5 የተሠሩ ምሳሌዎች በኋላ በዞንግካ ደረጃ በደረጃ ምክንያት (ቀርፋፋ፤ 0.4 MB ይወርዳል)
task-proverbeval-amh-choice-english = አማርኛ፦ ትርጉም፣ በእንግሊዝኛ መግለጫዎች
task-proverbeval-amh-choice-native = አማርኛ፦ ትርጉም፣ በአማርኛ መግለጫዎች
task-proverbeval-amh-fill = አማርኛ፦ ባዶ ቦታ መሙላት
task-proverbeval-amh-generation-english = አማርኛ፦ ምሳሌያዊ አነጋገር ከእንግሊዝኛ መግለጫ
task-proverbeval-amh-generation-native = አማርኛ፦ ምሳሌያዊ አነጋገር ከአማርኛ መግለጫ
task-group-dzen = DZEN (ዞንግካ፣ እንግሊዝኛ)
task-group-proverbeval-amh = ProverbEval፣ አማርኛ (ከGitHub እና ከHugging Face Hub)
task-proverbeval-orm-choice-english = ኦሮምኛ፦ ትርጉም፣ በእንግሊዝኛ መግለጫዎች
task-proverbeval-orm-choice-native = ኦሮምኛ፦ ትርጉም፣ በኦሮምኛ መግለጫዎች
task-proverbeval-orm-fill = ኦሮምኛ፦ ባዶ ቦታ መሙላት
task-proverbeval-orm-generation-english = ኦሮምኛ፦ ምሳሌያዊ አነጋገር ከእንግሊዝኛ መግለጫ
task-proverbeval-orm-generation-native = ኦሮምኛ፦ ምሳሌያዊ አነጋገር ከኦሮምኛ መግለጫ
task-group-proverbeval-orm = ProverbEval፣ ኦሮምኛ (ከGitHub እና ከHugging Face Hub)
task-proverbeval-tir-choice-english = ትግርኛ፦ ትርጉም፣ በእንግሊዝኛ መግለጫዎች
task-proverbeval-tir-choice-native = ትግርኛ፦ ትርጉም፣ በትግርኛ መግለጫዎች
task-proverbeval-tir-fill = ትግርኛ፦ ባዶ ቦታ መሙላት
task-proverbeval-tir-generation-english = ትግርኛ፦ ምሳሌያዊ አነጋገር ከእንግሊዝኛ መግለጫ
task-proverbeval-tir-generation-native = ትግርኛ፦ ምሳሌያዊ አነጋገር ከትግርኛ መግለጫ
task-group-proverbeval-tir = ProverbEval፣ ትግርኛ (ከGitHub እና ከHugging Face Hub)
task-proverbeval-gez-choice-english = ግዕዝ፦ ትርጉም፣ በእንግሊዝኛ መግለጫዎች
task-proverbeval-gez-choice-native = ግዕዝ፦ ትርጉም፣ በግዕዝ መግለጫዎች
task-proverbeval-gez-fill = ግዕዝ፦ ባዶ ቦታ መሙላት
task-proverbeval-gez-generation-english = ግዕዝ፦ ምሳሌያዊ አነጋገር ከእንግሊዝኛ መግለጫ
task-proverbeval-gez-generation-native = ግዕዝ፦ ምሳሌያዊ አነጋገር ከግዕዝ መግለጫ
task-group-proverbeval-gez = ProverbEval፣ ግዕዝ (ከGitHub እና ከHugging Face Hub)
task-proverbeval-eng-choice-native = እንግሊዝኛ፦ ትርጉም፣ በእንግሊዝኛ መግለጫዎች
task-proverbeval-eng-fill = እንግሊዝኛ፦ ባዶ ቦታ መሙላት
task-proverbeval-eng-generation-native = እንግሊዝኛ፦ ምሳሌያዊ አነጋገር ከእንግሊዝኛ መግለጫ
task-group-proverbeval-eng = ProverbEval፣ እንግሊዝኛ (ከGitHub እና ከHugging Face Hub)
task-group-kyrgyzllm-mmlu = KyrgyzLLM-Bench፣ KyrgyzMMLU (ከGitHub እና ከHugging Face Hub)
task-group-kyrgyzllm-rc = KyrgyzLLM-Bench፣ KyrgyzRC (ከGitHub እና ከHugging Face Hub)
task-group-kyrgyzllm-hellaswag = KyrgyzLLM-Bench፣ HellaSwag በኪርጊዝኛ (ከGitHub እና ከHugging Face Hub)
task-group-kyrgyzllm-winogrande = KyrgyzLLM-Bench፣ WinoGrande በኪርጊዝኛ (ከHugging Face Hub)
task-group-kyrgyzllm-truthfulqa = KyrgyzLLM-Bench፣ TruthfulQA በኪርጊዝኛ (ከGitHub እና ከHugging Face Hub)
task-group-kyrgyzllm-boolq = KyrgyzLLM-Bench፣ BoolQ በኪርጊዝኛ (ከGitHub እና ከHugging Face Hub)
task-kyrgyz-mmlu = ኪርጊዝኛ፦ በዘጠኝ የትምህርት ዓይነቶች የትምህርት ቤት ጥያቄዎች
task-kyrgyz-rc = ኪርጊዝኛ፦ የንባብ ግንዛቤ፣ ጽሑፍና ጥያቄው
task-hellaswag-kg = ኪርጊዝኛ፦ የዕለት ተዕለት ተግባር እንዴት ይቀጥላል (HellaSwag)
task-winogrande-kg = ኪርጊዝኛ፦ ባዶው ቦታ ማንን ወይም ምንን ያመለክታል (WinoGrande)
task-winogrande-kg-partial = ኪርጊዝኛ፦ WinoGrande፣ የዓረፍተ ነገሩ መጨረሻ ብቻ ይመዘናል
task-truthfulqa-kg = ኪርጊዝኛ፦ ከተለመዱ የተሳሳቱ አመለካከቶች መካከል እውነተኛው መልስ (TruthfulQA)
task-boolq-kg = ኪርጊዝኛ፦ ስለ ጽሑፉ አዎ ወይስ አይደለም (BoolQ)
task-kept = ያለ ኢንተርኔት ለመጠቀም በዚህ አሳሽ ውስጥ ተቀምጧል (ፋይሎች፦ { $files }፣ { $mb } MB)፤ ይህ ተግባር ያለ ኢንተርኔት ይሠራል።
task-download-size = ውሂቡ መጀመሪያ ሲሠራ ይወርዳል (ፋይሎች፦ { $files }፣ { $mb } MB)፣ ከዚያ ያለ ኢንተርኔት ለመጠቀም በዚህ አሳሽ ውስጥ ይቀመጣል።
task-download-unknown = ውሂቡ መጀመሪያ ሲሠራ ይወርዳል (ፋይሎች፦ { $files }፣ መጠኑ አይታወቅም)፣ ከዚያ ያለ ኢንተርኔት ለመጠቀም በዚህ አሳሽ ውስጥ ይቀመጣል።
task-download-hub = ውሂቡ መጀመሪያ ሲሠራ ይወርዳል (ፋይሎቹ በHugging Face Hub ላይ የdatasets ቤተ-መጽሐፍት በሚያገኛቸው መንገድ ይገኛሉ)፣ ከዚያ ያለ ኢንተርኔት ለመጠቀም በዚህ አሳሽ ውስጥ ይቀመጣል።
task-data-file = የውሂብ ፋይል (CSV, JSON, JSONL, Parquet)፣ ከተፈለገ ከlm-eval ተግባር YAML ጋር
task-data-folder = ወይም የውሂብ አቃፊ (DZEN፦ DZEN/ እና DZEN-Few_Shots/ን የያዘው አቃፊ)
setting-limit = ገደብ
setting-shots = ምሳሌዎች (shots)
setting-seed = Seed
setting-order = የአማራጮች ቅደም ተከተል
order-given = እንደተሰጠው
order-gold-first = ትክክለኛው መጀመሪያ
order-gold-last = ትክክለኛው መጨረሻ
order-rotations = ሁሉም ዙሮች
order-shuffles = 3 በseed የተደባለቁ ቅደም ተከተሎች
setting-pace = ፍጥነት (ms በአንድ ንጥል)
setting-sample = የዘፈቀደ ናሙና
placeholder-all = ሁሉም
placeholder-task = ተግባር
filters-hint = እነዚህ እሴቶች ያሏቸው ንጥሎች ብቻ (የመጨረሻው የተዘጋጀ ተግባር እሴቶች፤ ናሙናው seedን ይጠቀማል)፦
button-run = አስጀምር
button-pause = ለአፍታ አቁም
button-resume = ቀጥል
button-cancel = ሰርዝ እና እርሳ
button-classroom = የክፍል ሁነታ
button-export-jsonl = ናሙናዎች JSONL
button-export-json = ውጤቶች JSON
button-export-csv = CSV
import-run = የተቀመጠ ሙከራ ክፈት
demo-note = ይህ አብሮ የተሰራው ማሳያ ነው፦ የዘፈቀደ ክብደቶች (weights) ያሉት በጣም ትንሽ ሞዴል (models/demo፣ 0.2 ሚሊዮን ፓራሜትሮች)፣ ስለዚህ መልሶቹ በዕድል ደረጃ ናቸው — ሙከራ እንዴት እንደሚሠራ ያሳያል እንጂ ሞዴል ምን እንደሚያውቅ አያሳይም። እውነተኛ ሞዴል ለመለካት ከዝርዝሩ አንዱን ይምረጡ (ሙከራው ሲጀምር ከHugging Face ይወርዳል) ወይም በዚህ ኮምፒውተር ላይ ያለ የGGUF ፋይል ይክፈቱ።
model-demo = የማሳያ ሞዴል (የዘፈቀደ ክብደቶች፣ 0.2 ሚሊዮን ፓራሜትሮች፣ በመተግበሪያው ውስጥ)
# A catalogue model in the list: its name, then its quantization, size and licence.
model-catalog-entry = { $name } ({ $details }) — ይወርዳል
model-on-server = { $name } ({ $details }) — በዚህ ሰርቨር ላይ
kit-note = ያለ በይነመረብ ለመጠቀም በዚህ ሰርቨር ላይ ያሉ፦ { $benchmarks }። ተግባሮቻቸው ምንም ፋይል አያስፈልጋቸውም።
size-unknown = መጠኑ አይታወቅም
cache-delete = ፋይሉን { $file } ከመሸጎጫው ሰርዝ
cache-delete-button = ሰርዝ

## Run table and analysis

run-heading = ሙከራ
run-nothing = እስካሁን ምንም ሙከራ አልተደረገም።
col-number = #
col-question = ጥያቄ
col-options = አማራጮች (የሞዴሉ ዕድል፤ ትክክለኛው ★)
col-result = ውጤት
col-ms = ms
inspector-heading = ንጥል
inspector-hint = ለሞዴሉ የተሰጠው ትክክለኛ ጽሑፍ (prompt)፣ የሞዴሉ token ወሰኖች ምልክት ተደርጎባቸው፦
col-option = አማራጭ
col-loglikelihood = log-likelihood
col-per-char = በፊደል
col-tokens = tokens
col-greedy = greedy
breakdown-heading = በሜታዳታ
col-field = መስክ
col-value = እሴት
col-n = n
col-accuracy = ትክክለኛነት
bias-heading = የአማራጭ ቦታ
col-position = ቦታ
col-gold-here = ትክክለኛው እዚህ
col-accuracy-when-gold = ትክክለኛው እዚህ ሲሆን ትክክለኛነት
col-chosen = የተመረጠ
col-uniform = እኩል ስርጭት
parallel-heading = ያው ጥያቄ በተለያዩ ቋንቋዎች
parallel-hint = ቡድን የሚጋሩ፣ በparallel አገናኝ የተያያዙ፣ ወይም መለያቸው (id) በመጨረሻው /language ብቻ የሚለያይ ንጥሎች (እንደ DZEN)፣ በዚህ ሙከራ እና ከታች በተከፈቱት የተቀመጡ ሙከራዎች ውስጥ፦ ጎን ለጎን ለማየት አንድ DZEN ሙከራ በእንግሊዝኛ፣ አንድ በዞንግካ እና አንድ የእንግሊዝኛ ትርጉሙ የተያያዘበት (dz+en) ይክፈቱ። የመጨረሻው ረድፍ ዓምዶቹን በተመሳሳይ ጥያቄዎች ላይ ያነጻጽራል፦ በሁሉም ዓምዶች የተመለሱትን ቡድኖች።
fertility-heading = የtokenizer ብዛት (fertility)
fertility-hint = የተጫነው ሞዴል tokenዎች በእያንዳንዱ ቋንቋ ጥያቄዎች እና አማራጮች ውስጥ (ያለ BOS token)። ዞንግካ በቃላት መካከል ክፍተት አይጠቀምም፣ ስለዚህ በክፍለ ቃል ያነጻጽሩት።
fertility-run = tokenዎችን ቁጠር
col-language = ቋንቋ
col-texts = ጽሑፎች
col-per-word = በቃል
col-per-syllable = በክፍለ ቃል
col-per-character = በሆሄ
compare-heading = ከሌላ ሙከራ ጋር ማነጻጸር
compare-open = ከዚህኛው ጋር ለማነጻጸር የተቀመጡ ሙከራዎችን (samples JSONL) ይክፈቱ
compare-hint = ንጥሎች ከመጀመሪያው የተከፈተ ሙከራ ጋር በመለያ (id) ይዛመዳሉ፤ ሁለቱ ሙከራዎች የማይስማሙባቸው ንጥሎች ብቻ ተዘርዝረዋል።
col-item = ንጥል
col-run-a = ይህ ሙከራ (A)
col-run-b = የተነጻጸረው ሙከራ (B)
device-summary = መሣሪያ እና ራስ-ፍተሻ
device-heading = መሣሪያ
selftest-heading = ራስ-ፍተሻ (self-test)
selftest-hint = በዚህ መሣሪያ ላይ የተሰሉ የማትሪክስ ብዜት እና softmax፣ ከቀላል f64 ስሌት ጋር ተነጻጽረው። backend ለመምረጥ ?backend=cpu ወይም ?backend=wgpu በአድራሻው ላይ ይጨምሩ።
col-check = ፍተሻ
col-shape = ቅርጽ
col-tolerance = የተፈቀደ ልዩነት
col-device = መሣሪያ
col-reference = ማጣቀሻ
score-heading = ነጥቦች
score-hint = ከcontext በኋላ የእያንዳንዱ አማራጭ log-likelihood፣ በlm-evaluation-harness ደንብ (?model=URL&context=…&choice=…&choice=…)።
col-choice = አማራጭ

## Run summary and rows

# $done of $total items answered; $accuracy and the interval are percentages, already formatted.
run-summary = ከ{ $total } ውስጥ { $done } ተመልሰዋል · ትክክለኛነት { $accuracy } (95% ክልል { $low }–{ $high }) · ተግባር { $task } · ሞዴል { $model }
run-summary-exact = ከ{ $total } ውስጥ { $done } ተመልሰዋል · ትክክለኛ ግጥምጥም { $accuracy } (95% ክልል { $low }–{ $high }) · ተግባር { $task } · ሞዴል { $model }
run-summary-greedy = ከ{ $total } ውስጥ { $done } ተመልሰዋል · በጣም ሊሆኑ የሚችሉ ቀጣዮች { $accuracy } (95% ክልል { $low }–{ $high }) · ተግባር { $task } · ሞዴል { $model }
run-summary-empty = ከ{ $total } ውስጥ { $done } ተመልሰዋል · ተግባር { $task }
run-summary-failed = { $n } አልተሳኩም (የጀርባ ሂደቱ ተሰናክሏል)
# The two settings' own words: the random sample's size and its seed.
run-sample = { setting-sample }: { $n } ({ setting-seed }: { $seed })
row-correct = ✓ ትክክል
row-wrong = ✗ የተመረጠው { $chosen }፣ ትክክለኛው { $gold }
row-differs = ✗ ከማጣቀሻው ይለያል
row-failed = ✗ አልተሳካም
row-not-scored = አልተገመገመም፦ የጀርባ ሂደቱ ተሰናክሏል ({ $message })
position-warning = እስካሁን ከጥያቄዎቹ በ{ $share } ሞዴሉ { $letter } የሚለውን አማራጭ መርጧል፦ ትክክለኛነቱ በአብዛኛው የሚያሳየው { $letter } ምን ያህል ጊዜ መልስ እንደሆነ ነው እንጂ ሞዴሉ የሚያውቀውን አይደለም። ከታች ያለውን የአማራጭ ቦታ ዝንባሌ ይመልከቱ።
position-warning-cloze = እስካሁን ከጥያቄዎቹ በ{ $share } ሞዴሉ { $letter } የሚለውን አማራጭ መርጧል፦ ትክክለኛነቱ በአብዛኛው የሚያሳየው { $letter } ምን ያህል ጊዜ መልስ እንደሆነ ነው እንጂ ሞዴሉ የሚያውቀውን አይደለም። ተግባር { $task } ከፊደሉ ይልቅ የእያንዳንዱን አማራጭ ጽሑፍ ይገመግማል። ከታች ያለውን የአማራጭ ቦታ ዝንባሌ ይመልከቱ።
notes-more = … እና ሌሎች { $n }
yes = አዎ
no = አይ
verdict-right = ✓ ትክክል
verdict-wrong = ✗ ስህተት
parallel-this-run = ይህ ሙከራ
parallel-every-item = ትክክለኛነት፣ በቡድን ያሉ ሁሉም ንጥሎች
parallel-common = በሁሉም ዓምዶች ባሉት { $n } ቡድኖች ላይ
# A share of a number of items: "62% of 8".
share-of = ከ{ $n } { $share }
compare-summary = ከ{ $name } (B) ጋር፣ ሁለቱም በመለሷቸው { $n } ንጥሎች ላይ፦ ሁለቱም ትክክል { $both_right } · ሁለቱም ስህተት { $both_wrong } · እዚህ ብቻ ትክክል (A) { $only_a } · በB ብቻ ትክክል { $only_b }።
compare-paired = B − A፦ { $points } ነጥቦች (95 % ክልል ከ{ $lo } እስከ { $hi })፤ ትክክለኛ McNemar p = { $p }።
compare-unmatched = { $a } ንጥሎች እዚህ ብቻ፣ { $b } በB ብቻ
inspector-item = ንጥል { $number } · { $id }
inspector-other-languages = ያው ጥያቄ በሌሎች ቋንቋዎች
inspector-tokens = { $n ->
    [one] { $n } token፣ የሞዴሉ BOS token ተካትቶ።
   *[other] { $n } tokenዎች፣ የሞዴሉ BOS token ተካትቶ።
}
inspector-tokens-split = { $n } tokenዎች፣ የሞዴሉ BOS token ተካትቶ፤ በአንድ ፊደል ውስጥ ያለ ምልክት ፊደሉን የሚከፍል የtoken ወሰን ያሳያል።

## Status line

status-starting = የጀርባ ሂደቱን በማስጀመር ላይ…
status-device = መሣሪያውን በማዘጋጀት ላይ…
status-ready = ዝግጁ ነው። ሞዴል እና መመዘኛ ይምረጡ፣ ከዚያ «አስጀምር»ን ይጫኑ።
status-loading-model = ሞዴሉን በመጫን ላይ…
status-preparing = ተግባሩን በማዘጋጀት ላይ…
status-checking-fit = ሞዴሉ እንደሚገጥም በማረጋገጥ ላይ…
status-running = በሂደት ላይ።
status-paused = ለአፍታ ቆሟል።
status-finished = ተጠናቋል።
status-finished-kept = { $n ->
    [one] ተጠናቋል፤ ገጹ ዳግም ከመጫኑ በፊት የነበረ { $n } መልስ ተጠብቋል።
   *[other] ተጠናቋል፤ ገጹ ዳግም ከመጫኑ በፊት የነበሩ { $n } መልሶች ተጠብቀዋል።
}
status-failed-items = { $n ->
    [one] { $n } ንጥል አልተሳካም (የጀርባ ሂደቱ በእሱ ላይ ተሰናክሏል)፤ በምንም መለኪያ ውስጥ አይቆጠርም።
   *[other] { $n } ንጥሎች አልተሳኩም (የጀርባ ሂደቱ በእነሱ ላይ ተሰናክሏል)፤ በምንም መለኪያ ውስጥ አይቆጠሩም።
}
status-resumed = { $n ->
    [one] ቀጥሏል፦ ከዚህ በፊት የነበረ { $n } መልስ ተጠብቋል።
   *[other] ቀጥሏል፦ ከዚህ በፊት የነበሩ { $n } መልሶች ተጠብቀዋል።
}
status-notes = { $n ->
    [one] ስለ ውሂቡ { $n } ማስታወሻ ከማጠቃለያው በታች ተዘርዝሯል።
   *[other] ስለ ውሂቡ { $n } ማስታወሻዎች ከማጠቃለያው በታች ተዘርዝረዋል።
}
status-cancelled = ተሰርዟል፤ የሙከራው የተቀመጡ መልሶች ተሰርዘዋል።
status-recovered-paused = የጀርባ ሂደቱ ከተሰናከለበት ተመልሷል፤ ለአፍታ ቆሟል።
status-recovered-running = የጀርባ ሂደቱ ከተሰናከለበት ተመልሷል፤ በሂደት ላይ።
status-reloading-after-crash = የጀርባ ሂደቱ ተሰናክሏል፦ ለመቀጠል ሞዴሉን እንደገና (ከመሸጎጫው) በመጫን ላይ…
status-crash-item = ንጥል { $number } በሚገመገምበት ጊዜ የጀርባ ሂደቱ ተሰናክሏል፦ { $message }
status-crash = የጀርባ ሂደቱ ተሰናክሏል፦ { $message }
status-crash-goes-on = እንደገና ተጀምሯል፤ ሞዴሉ እንደገና ተጭኗል እና ሙከራው ይቀጥላል (ንጥሉ እንዳልተሳካ ምልክት ተደርጎበታል)።
status-crash-restart = እንደገና ተጀምሯል፤ ለመቀጠል ሙከራውን እንደገና ያስጀምሩ (የተመለሱ ንጥሎች ተጠብቀዋል)።
status-not-saved = ንጥል { $number } ተመልሷል ግን አልተቀመጠም ({ $message })፦ ገጹ ዳግም ቢጫን እንደገና ይገመገማል።
status-saved-run = የተቀመጠውን ሙከራ { $name } በማሳየት ላይ።
status-drop-reading = የተጣለውን አቃፊ { $names } በማንበብ ላይ…
status-drop-unused = የተጣሉት ፋይሎች ጥቅም ላይ አልዋሉም።
status-dropped = { $what } ተጥሏል። ለመጀመር «አስጀምር»ን ይጫኑ።
status-scored = { $n } አማራጮች በ{ $backend } ላይ ተገምግመዋል።
status-not-fit = ሞዴሉ አልተጫነም፦ አይገጥምም። ሌላ ይምረጡ።
status-model-failed = ሞዴሉ አልተጫነም፤ ምክንያቱ በቀይ ተጽፏል።
status-task-failed = ተግባሩ አልተዘጋጀም፤ ምክንያቱ በቀይ ተጽፏል።
model-loading = በመጫን ላይ…
model-reading-header = የሞዴሉን ራስጌ (header) በማንበብ ላይ…
model-loaded = { $name }፦ { $architecture }፣ { $layers } ንብርብሮች፣ { $vocab } tokenዎች።
model-not-loaded = አልተጫነም፦ { $message }
download-cache = { $mb } MB ከዚህ አሳሽ መሸጎጫ ተነቧል (ምንም አልወረደም)። በመጫን ላይ…
download-done = { $mb } MB ወርዷል፣ ተረጋግጧል። በመጫን ላይ…
download-progress-total = ከ{ $total } MB ውስጥ { $mb } MB በማውረድ ላይ · { $rate } MB/s · { $seconds } ሰከንድ ቀርቷል
download-progress-rate = { $mb } MB በማውረድ ላይ · { $rate } MB/s
download-resumed = (ከዚህ በፊት ከተቀመጡት { $mb } MB ቀጥሏል)
data-download = የመለኪያው ውሂብ በመውረድ ላይ፦ { $name } (ፋይል { $file } ከ { $files })፦ { $kb } ከ { $total } KB
data-download-cache = የመለኪያው ውሂብ ከዚህ አሳሽ ማከማቻ፦ { $name } (ፋይል { $file } ከ { $files }፣ { $kb } KB)፣ ተረጋግጧል።

## Device panel

device-type = የመሣሪያ ዓይነት
device-kernel = የInt8 matmul kernel
device-threads = በአንድ ሂደት የCPU threads
device-fallback = የሶፍትዌር ምትክ አዳፕተር
device-why-not-webgpu = ለምን WebGPU አልሆነም
device-calibration = በዚህ ሞዴል ላይ የተለካ ፍጥነት
device-workers = በCPU ላይ ያሉ ሠራተኞች (workers)
selftest-matches = ✓ ይዛመዳል
selftest-differs = ✗ ይለያያል
selftest-summary-passed = ራስ-ፍተሻው በ{ $device } ላይ በ{ $ms } ms አልፏል
selftest-summary-failed = ራስ-ፍተሻው ወድቋል! በ{ $device } ላይ፣ በ{ $ms } ms

## Classroom mode

classroom-heading = የመማሪያ ክፍል
classroom-back = ተመለስ
classroom-next = ቀጣይ
classroom-close = ከክፍል ሁነታ ውጣ
classroom-votes-hint = የክፍሉን መልስ ይንኩ፣ ወይም እያንዳንዱን አማራጭ ስንት ተማሪዎች እንደመረጡ ያስገቡ፦
classroom-keys = ቁልፎች፦ → ወይም Space ቀጣይ ደረጃ፣ ← ወደ ኋላ፣ 1–9 ወይም A–I የክፍሉ መልስ፣ Esc መውጫ።
classroom-progress = ጥያቄ { $number } ከ{ $total }
classroom-step-question = ጥያቄውን እና አማራጮቹን አብረን እናንብብ።
classroom-step-class = ክፍሉ ምን ይመልሳል? አንድ አማራጭ ይንኩ ወይም ድምጾቹን ይቁጠሩ።
classroom-step-model-waiting = ሞዴሉ አሁንም ይህን ጥያቄ እየመለሰ ነው…
classroom-class-chose = ክፍሉ የመረጠው፦ { $letter }።
classroom-model-chose = ሞዴሉ የመረጠው፦ { $letter }።
classroom-gold-is = መልሱ { $letter } ነው።
classroom-score = ክፍሉ { $class } · ሞዴሉ { $model } · ከ{ $n ->
    [one] { $n } ጥያቄ
   *[other] { $n } ጥያቄዎች
}
classroom-votes-label = { $letter }፦ ድምጾች
classroom-no-run = መጀመሪያ ሙከራ ያስጀምሩ፦ የክፍል ሁነታ ጥያቄዎቹን አንድ በአንድ ያሳያል።
classroom-end = ያ የመጨረሻው ጥያቄ ነበር።

## Dropped files, model checks, device panel

dropped-model-folder = የሞዴል አቃፊ { $folder } ({ $n } ፋይሎች)
dropped-model = ሞዴል { $files }
dropped-benchmark = መመዘኛ { $files }
dropped-benchmark-more = መመዘኛ { $files } እና ሌሎች { $n }
dropped-not-used = ጥቅም ላይ ያልዋሉ፦ { $files }
dropped-not-used-more = ጥቅም ላይ ያልዋሉ፦ { $files } እና ሌሎች { $n }
model-refused-header = አልተጫነም፦ { $name } አይገጥምም (ራስጌው ብቻ ነው የተነበበው)።
model-refused-folder = አልተጫነም፦ { $name } አይገጥምም (config.json እና የsafetensors ራስጌዎች ብቻ ናቸው የተነበቡት)።
model-fit-unchecked = { $name }፦ ከማውረዱ በፊት አልተረጋገጠም፦ { $why }።
col-group = ቡድን
device-backend = Backend
device-adapter = አዳፕተር
device-summary-done = መሣሪያ እና ራስ-ፍተሻ — { $summary }

## The run's one-page summary

button-summary-svg = የማጠቃለያ ምስል (SVG)
button-summary-print = ማጠቃለያውን አትም
summary-title = lingualens · { $task }
summary-headline = ትክክለኛነት { $accuracy } (95% ክልል { $low }–{ $high }) · ከ{ $total } ውስጥ { $done } ተመልሰዋል
summary-model = ሞዴል፦ { $model } · backend፦ { $backend } · { $date }
summary-by = በመስክ፦
summary-positions = ሞዴሉ የትኛውን አማራጭ እንደመረጠ፣ ትክክለኛዎቹ መልሶችም የት እንደነበሩ
summary-chosen = የተመረጠ
summary-gold-here = ትክክለኛው መልስ እዚህ
summary-more = … እና ሌሎች { $n }

# The Experiment menu (page/suite.rs).
experiment-label = ወይም ሙከራ (በጥናቶቹ እንዳለው ብዙ ሩጫዎች ሲነጻጸሩ)
experiment-none = የለም፦ አንድ ተግባር
button-experiment = ሙከራውን አሂድ
suite-heading = ሙከራ
suite-progress = { $name }፦ ከ{ $runs } ሩጫዎች { $run }ኛው ({ $task })።
suite-stopped = { $name }፦ ከ{ $runs } ሩጫዎች { $done } ተጠናቀዋል፤ ለመቀጠል ቀጥል ይጫኑ።
suite-finished = { $name }፦ ሁሉም { $runs } ሩጫዎች ተጠናቀዋል።
button-suite-resume = ሙከራውን ቀጥል
button-suite-forget = ሙከራውን እርሳ
suite-col-run = ሩጫ
suite-col-task = ተግባር
suite-col-accuracy = ትክክለኛነት፣ % (95 % ክልል)
suite-col-items = ጥያቄዎች
suite-comparisons-heading = ንጽጽሮች፣ ጥያቄ በጥያቄ
suite-col-pair = B − A
suite-col-difference = ልዩነት፣ ነጥቦች (95 % ክልል)
suite-col-flips = በA ብቻ ትክክል / በB ብቻ ትክክል
suite-col-p = ትክክለኛ McNemar p
suite-swings-heading = መዋዠቅ፦ ከፍተኛው ትክክለኛነት ሲቀነስ ዝቅተኛው
suite-col-swing-name = መዋዠቅ
suite-col-swing-runs = በሩጫዎቹ ላይ
suite-col-swing = ነጥቦች (95 % bootstrap ክልል)
suite-not-in-menu = የሙከራው ሩጫ { $run } ተግባሩን { $task } ይፈልጋል፤ የተግባር ምናሌው ገና አያቀርበውም፤ መጀመሪያ የተግባሩን YAML እና ውሂቡን በ“የእኔ ፋይሎች” ስር ይምረጡ፣ ከዚያ ሙከራውን እንደገና ይጀምሩ።
suite-wrong-task = የሙከራው ሩጫ { $run } ተግባሩን { $task } ይፈልጋል፤ የመረጧቸው ፋይሎች ግን { $given }ን ይገልጻሉ።
storage-not-kept = { $file } ለዚህ ሩጫ ጥቅም ላይ ውሏል፤ ግን ከመስመር ውጭ ለመጠቀም አልተቀመጠም፦ { $reason }። ቦታ ያስለቅቁ (ከታች የተቀመጠ ሞዴል ይሰርዙ፣ ወይም በአሳሹ ቅንብሮች የዚህን ጣቢያ ውሂብ ያጽዱ)፤ በሚቀጥለው ሲወርድ ይቀመጣል።
suite-other-model = ይህ ሙከራ የተጀመረው በ{ $model } ነው፤ ለመቀጠል ያንን ሞዴል ይምረጡ፣ ወይም ሙከራውን ይርሱ።
suite-unknown = { $name } የሚባል ሙከራ የለም።
button-suite-json = ሰንጠረዥ (JSON)
button-suite-svg = ገበታ (SVG)
button-suite-summary = የማጠቃለያ ምስል (SVG)
button-suite-print = ሙከራውን አትም
import-suite = የተቀመጠ ሙከራ (experiment) ክፈት
suite-opened = { $name }፦ ከ{ $file } ተከፍቷል፤ ሞዴሎች፦ { $models }።
suite-col-model = ሞዴል
suite-runs-heading = ሩጫዎች
suite-summary-title = lingualens · ሙከራ { $name }
suite-summary-models = ሞዴሎች፦ { $models } · { $date }
suite-summary-sample = እያንዳንዱ ሩጫ ተመሳሳይ { $n } ሰነዶችን ገምግሟል፤ በዘፈቀደ የተመረጡት በ seed { $seed } ነው።
