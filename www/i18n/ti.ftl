# lingualens: the interface in Tigrinya (ትግርኛ).
# English: This catalogue was machine-drafted by an AI model on 2026-12-02 from en.ftl and has
# not yet been reviewed by a native speaker. Corrections are welcome.
# Plural categories used (CLDR cardinal, Tigrinya): one (0 and 1) and other.
# Least sure: tagline, setting-shots, order-rotations, order-shuffles, col-greedy, col-tolerance,
# col-per-syllable, fertility-heading, parallel-hint, position-warning, position-warning-cloze,
# status-drop-unused, device-fallback, classroom-keys.
# ትግርኛ: እዚ ዝርዝር መልእኽትታት ብሞዴል AI ኣብ 2026-12-02 ካብ en.ftl ብማሽን ተተርጒሙ እዩ፣
# ገና ብወዲ ቋንቋ ኣይተመርመረን። ምእራማት ብሓጎስ ንቕበል።
# ዝተጠቕምናሎም ናይ ብዙሕ ቁጽሪ መደባት (CLDR): one (0ን 1ን) ከምኡ'ውን other።
# ብዝያዳ ዘይተረጋገጽናሎም መለለዪታት: ኣብ ላዕሊ ብእንግሊዝኛ ዘሎ ዝርዝር ርአ።
# Added on 2026-12-03, machine-drafted like the rest and least sure too: model-on-server, kit-note, data-download, data-download-cache.

## Header and setup

language-label = ቋንቋ
tagline = ንኣሽቱ ሞዴላት ቋንቋ፣ ኣብ መመዘኒታት ዞንግካ (རྫོང་ཁ)፣ ኣምሓርኛ (አማርኛ)፣ ኪርጊዝ (кыргызча) ከምኡ'ውን ካልኦት ሕቶ ብሕቶ ዝተገምገሙ — ኣብ ብራውዘርካ፣ ዋላ ሓንቲ ከይተኸልካን ብዘይ ሰርቨርን።
status-loading = ይጽዕን ኣሎ…
setup-heading = ሞዴልን መመዘኒን
setup-hint = ካብ ታሕቲ ምረጽ፣ ወይ ሞዴል .gguf (ወይ ፋይላት ሞዴል Hugging Face) ከምኡ'ውን ፋይላት ዳታ ወይ YAML ዕማም ጎቲትካ ኣብ ዝኾነ ቦታ ናይዚ ሳጹን ኣንብሮ።
model-legend = ሞዴል
model-choose = ምረጽ
model-file = ወይ ኣብዚ ኮምፒተር ዘሎ ፋይል GGUF፣ ወይ ፋይላት ሞዴል Hugging Face (config.json, tokenizer.json, .safetensors)
model-folder = ወይ ማህደር ሞዴል Hugging Face
model-url = ወይ URL
model-none = ዝተጻዕነ ሞዴል የለን።
cached-models = ብዘይ ኢንተርነት ንምጥቃም ኣብዚ ብራውዘር ዝተዓቀቡ:
task-legend = መመዘኒ
task-label = ዕማም
task-demo = መርኣያ: 21 ሕቶታት ብ6 ቋንቋታት
task-files = ናተይ ፋይላት (ኣብ ታሕቲ)
task-dzen-en-cloze = DZEN፣ ሕቶታት ብእንግሊዝኛ፣ ጽሑፍ ነፍሲ ወከፍ ምርጫ ይግምገም (ንኣሽቱ ሞዴላት፤ ↓ 0.4 MB)
task-dzen-dz-cloze = DZEN፣ ሕቶታት ብዞንግካ፣ ጽሑፍ ነፍሲ ወከፍ ምርጫ ይግምገም (↓ 0.4 MB)
task-dzen-dz-en-cloze = DZEN፣ ዞንግካ ምስ እንግሊዝኛ ኣብ መወዳእታ ተወሲኹ፣ ጽሑፍ ነፍሲ ወከፍ ምርጫ ይግምገም (↓ 0.4 MB)
task-dzen-en = DZEN፣ ሕቶታት ብእንግሊዝኛ (↓ 0.4 MB)
task-dzen-dz = DZEN፣ ሕቶታት ብዞንግካ (↓ 0.4 MB)
task-dzen-dz-en = DZEN፣ ዞንግካ ምስ ትርጉም እንግሊዝኛ ኣብ መወዳእታ ተወሲኹ (↓ 0.4 MB)
task-dzen-cot-en = DZEN፣ ሕቶታት ብእንግሊዝኛ፣ ስጉምቲ ብስጉምቲ ምሕሳብ (ደንጉዩ፤ ↓ 0.4 MB)
task-dzen-cot-dz = DZEN፣ ሕቶታት ብዞንግካ፣ ስጉምቲ ብስጉምቲ ምሕሳብ (ደንጉዩ፤ ↓ 0.4 MB)
task-proverbeval-amh-choice-english = Amharic: the meaning, English descriptions
task-proverbeval-amh-choice-native = Amharic: the meaning, Amharic descriptions
task-proverbeval-amh-fill = Amharic: fill in the blank
task-proverbeval-amh-generation-english = Amharic: the proverb, from an English description
task-proverbeval-amh-generation-native = Amharic: the proverb, from an Amharic description
task-group-dzen = DZEN (ዞንግካ፣ እንግሊዝኛ)
task-group-proverbeval-amh = ProverbEval፣ ኣምሓርኛ (ካብ GitHub ከምኡ'ውን Hugging Face Hub)
task-proverbeval-orm-choice-english = Afaan Oromo: the meaning, English descriptions
task-proverbeval-orm-choice-native = Afaan Oromo: the meaning, Afaan Oromo descriptions
task-proverbeval-orm-fill = Afaan Oromo: fill in the blank
task-proverbeval-orm-generation-english = Afaan Oromo: the proverb, from an English description
task-proverbeval-orm-generation-native = Afaan Oromo: the proverb, from an Afaan Oromo description
task-group-proverbeval-orm = ProverbEval፣ ኦሮምኛ (ካብ GitHub ከምኡ'ውን Hugging Face Hub)
task-proverbeval-tir-choice-english = Tigrinya: the meaning, English descriptions
task-proverbeval-tir-choice-native = Tigrinya: the meaning, Tigrinya descriptions
task-proverbeval-tir-fill = Tigrinya: fill in the blank
task-proverbeval-tir-generation-english = Tigrinya: the proverb, from an English description
task-proverbeval-tir-generation-native = Tigrinya: the proverb, from a Tigrinya description
task-group-proverbeval-tir = ProverbEval፣ ትግርኛ (ካብ GitHub ከምኡ'ውን Hugging Face Hub)
task-proverbeval-gez-choice-english = Ge'ez: the meaning, English descriptions
task-proverbeval-gez-choice-native = Ge'ez: the meaning, Ge'ez descriptions
task-proverbeval-gez-fill = Ge'ez: fill in the blank
task-proverbeval-gez-generation-english = Ge'ez: the proverb, from an English description
task-proverbeval-gez-generation-native = Ge'ez: the proverb, from a Ge'ez description
task-group-proverbeval-gez = ProverbEval፣ ግእዝ (ካብ GitHub ከምኡ'ውን Hugging Face Hub)
task-proverbeval-eng-choice-native = English proverbs: the meaning, English descriptions
task-proverbeval-eng-fill = English proverbs: fill in the blank
task-proverbeval-eng-generation-native = English proverbs: the proverb, from an English description
task-group-proverbeval-eng = ProverbEval፣ እንግሊዝኛ (ካብ GitHub ከምኡ'ውን Hugging Face Hub)
task-group-kyrgyzllm-mmlu = KyrgyzLLM-Bench፣ KyrgyzMMLU (ካብ GitHub ከምኡ'ውን Hugging Face Hub)
task-group-kyrgyzllm-rc = KyrgyzLLM-Bench፣ KyrgyzRC (ካብ GitHub ከምኡ'ውን Hugging Face Hub)
task-group-kyrgyzllm-hellaswag = KyrgyzLLM-Bench፣ HellaSwag ብኪርጊዝኛ (ካብ GitHub ከምኡ'ውን Hugging Face Hub)
task-group-kyrgyzllm-winogrande = KyrgyzLLM-Bench፣ WinoGrande ብኪርጊዝኛ (ካብ Hugging Face Hub)
task-group-kyrgyzllm-truthfulqa = KyrgyzLLM-Bench፣ TruthfulQA ብኪርጊዝኛ (ካብ GitHub ከምኡ'ውን Hugging Face Hub)
task-group-kyrgyzllm-boolq = KyrgyzLLM-Bench፣ BoolQ ብኪርጊዝኛ (ካብ GitHub ከምኡ'ውን Hugging Face Hub)
task-kyrgyz-mmlu = Kyrgyz: school questions in nine subjects, lettered options
task-kyrgyz-rc = Kyrgyz: reading comprehension, a text and its question
task-hellaswag-kg = Kyrgyz: how an everyday activity goes on (HellaSwag)
task-winogrande-kg = Kyrgyz: who or what the blank refers to (WinoGrande)
task-winogrande-kg-partial = Kyrgyz: WinoGrande, only the sentence's ending scored
task-truthfulqa-kg = Kyrgyz: the true answer among common misconceptions (TruthfulQA)
task-boolq-kg = Kyrgyz: yes or no about a passage (BoolQ)
task-kept = ብዘይ ኢንተርነት ንምጥቃም ኣብዚ ብራውዘር ተዓቂቡ ኣሎ (ፋይላት: { $files }፣ { $mb } MB)፦ እዚ ዕማም ብዘይ ኢንተርነት ይሰርሕ።
task-download-size = ዳታኡ ንመጀመርታ ክሰርሕ ከሎ ይወርድ (ፋይላት: { $files }፣ { $mb } MB)፣ ድሕሪኡ ብዘይ ኢንተርነት ንምጥቃም ኣብዚ ብራውዘር ይዕቀብ።
task-download-unknown = ዳታኡ ንመጀመርታ ክሰርሕ ከሎ ይወርድ (ፋይላት: { $files }፣ ዓቐን ኣይፍለጥን)፣ ድሕሪኡ ብዘይ ኢንተርነት ንምጥቃም ኣብዚ ብራውዘር ይዕቀብ።
task-download-hub = ዳታኡ ንመጀመርታ ክሰርሕ ከሎ ይወርድ (ፋይላቱ ኣብ Hugging Face Hub ከም ቤተ-መጻሕፍቲ datasets ይርከቡ)፣ ድሕሪኡ ብዘይ ኢንተርነት ንምጥቃም ኣብዚ ብራውዘር ይዕቀብ።
task-data-file = ፋይል ዳታ (CSV, JSON, JSONL, Parquet)፣ እንተደሊኻ ምስ YAML ዕማም lm-eval
task-data-folder = ወይ ማህደር ዳታ (DZEN: እቲ DZEN/ ከምኡ'ውን DZEN-Few_Shots/ ዝሓዘ ማህደር)
setting-limit = ደረት
setting-shots = ኣብነታት (shots)
setting-seed = ዘርኢ (seed)
setting-order = ቅደም ሰዓብ ምርጫታት
order-given = ከም ዝተዋህበ
order-gold-first = ቅኑዕ መልሲ ቀዳማይ
order-gold-last = ቅኑዕ መልሲ ናይ መወዳእታ
order-rotations = ኩሉ ዙረታት
order-shuffles = 3 ምሕዋሳት ብዘርኢ
setting-pace = ቅልጣፈ (ms ንነፍሲ ወከፍ ሕቶ)
setting-sample = ናሙና ብዕድል
placeholder-all = ኩሉ
placeholder-task = ዕማም
filters-hint = እዞም ዘለዉዎም ሕቶታት ጥራይ (ዋጋታት ካብቲ ናይ መወዳእታ ዝተዳለወ ዕማም፤ እቲ ናሙና ብዘርኢ ይውሰድ):
button-run = ኣካይድ
button-pause = ደው ኣብል
button-resume = ቀጽል
button-cancel = ኣቋርጽን ረስዕን
button-classroom = ኣገባብ ክፍሊ ትምህርቲ
button-export-jsonl = ናሙናታት JSONL
button-export-json = ውጽኢታት JSON
button-export-csv = CSV
import-run = ዝተዓቀበ ምክያድ ክፈት
demo-note = እዚ እቲ ኣብ ውሽጢ ዘሎ መርኣያ እዩ: ብዕድል ዝተዋህቡ ክብደታት ዘለዉዎ ንእሽቶ ሞዴል (models/demo, 0.2 M ፓራሜተራት)፣ ስለዚ መልስታቱ ከም ግምት ብዕድል እዮም — ምክያድ ብኸመይ ከም ዝሰርሕ የርኢ እምበር፣ ሞዴል እንታይ ከም ዝፈልጥ ኣይኮነን። ሓቀኛ ሞዴል ንምዕቃን፣ ካብቲ ዝርዝር ሓደ ምረጽ (ምክያድ ምስ ጀመረ ካብ Hugging Face ይወርድ) ወይ ኣብዚ ኮምፒተር ዘሎ ፋይል GGUF ክፈት።
model-demo = ሞዴል መርኣያ (ብዕድል ዝተዋህቡ ክብደታት፣ 0.2 M ፓራሜተራት፣ ኣብቲ ኣፕ)
# A catalogue model in the list: its name, then its quantization, size and licence.
model-catalog-entry = { $name } ({ $details }) — ይወርድ
model-on-server = { $name } ({ $details }) — ኣብዚ ሰርቨር
kit-note = ብዘይ ኢንተርነት ንምጥቃም ኣብዚ ሰርቨር ዘለዉ፦ { $benchmarks }። ዕማማቶም ፋይል ኣየድልዮምን።
size-unknown = ዓቐን ኣይፍለጥን
cache-delete = { $file } ካብ ካሽ ደምስስ
cache-delete-button = ደምስስ

## Run table and analysis

run-heading = ምክያድ
run-nothing = ገና ዝተኻየደ የለን።
col-number = #
col-question = ሕቶ
col-options = ምርጫታት (ተኽእሎ ብሞዴል፤ ቅኑዕ ★)
col-result = ውጽኢት
col-ms = ms
inspector-heading = ሕቶ
inspector-hint = እቲ ልክዕ መእተዊ ጽሑፍ (prompt)፣ ዶባት ቶከናት ናይቲ ሞዴል ተመልኪቶም:
col-option = ምርጫ
col-loglikelihood = log-likelihood
col-per-char = ብፊደል
col-tokens = ቶከናት
col-greedy = greedy
breakdown-heading = ብሜታዳታ
col-field = ዓምዲ
col-value = ዋጋ
col-n = n
col-accuracy = ትኽክለኛነት
bias-heading = ቦታ ምርጫ
col-position = ቦታ
col-gold-here = ቅኑዕ ኣብዚ
col-accuracy-when-gold = ትኽክለኛነት ቅኑዕ ኣብዚ ኣብ ዝኾነሉ
col-chosen = ዝተመርጸ
col-uniform = ማዕረ
parallel-heading = ሓደ ሕቶ ብዝተፈላለዩ ቋንቋታት
parallel-hint = ሓደ ጉጅለ ዝካፈሉ፣ ብመላግቦ parallel ዝተኣሳሰሩ፣ ወይ መለለዪታቶም ኣብ ናይ መወዳእታ /language ጥራይ ዝፈላለ (ከም ናይ DZEN) ሕቶታት፣ ኣብዚ ምክያድን ኣብ ታሕቲ ኣብ ዝተኸፍቱ ዝተዓቀቡ ምክያዳትን: ጎኒ ንጎኒ ንምርኣዮም፣ ሓደ ምክያድ DZEN ብእንግሊዝኛ፣ ሓደ ብዞንግካ ከምኡ'ውን ሓደ ምስ ትርጉም እንግሊዝኛ ዝተወሰኾ (dz+en) ክፈት። እቲ ናይ መወዳእታ መስመር ነቶም ዓምድታት ኣብ ሓደ ዓይነት ሕቶታት የነጻጽሮም: ኣብ ኩሉ ዓምዲ ዝተመለሱ ጉጅለታት።
fertility-heading = ፍርያምነት ቶከናይዘር
fertility-hint = ቶከናት ናይቲ ዝተጻዕነ ሞዴል ኣብ ሕቶታትን ምርጫታትን ነፍሲ ወከፍ ቋንቋ (BOS ቶከን ከይተቖጽረ)። ዞንግካ ኣብ መንጎ ቃላት ባዶ ቦታ ኣይጥቀምን፣ ስለዚ ብሲላብል ኣነጻጽሮ።
fertility-run = ቶከናት ቁጸር
col-language = ቋንቋ
col-texts = ጽሑፋት
col-per-word = ብቃል
col-per-syllable = ብሲላብል
col-per-character = ብፊደል
compare-heading = ምስ ካልእ ምክያድ ምንጽጻር
compare-open = ምስዚ ንምንጽጻር ዝተዓቀቡ ምክያዳት (ናሙናታት JSONL) ክፈት
compare-hint = ሕቶታት ብመለለዪኦም ምስቲ ቀዳማይ ዝተኸፍተ ምክያድ ይዛመዱ፤ እቶም ክልቲኦም ምክያዳት ዘይሰማምዑሎም ሕቶታት ጥራይ ይዝርዘሩ።
col-item = ሕቶ
col-run-a = እዚ ምክያድ (A)
col-run-b = ዝተነጻጸረ ምክያድ (B)
device-summary = መሳርሒን ርእሰ-ፈተሻን
device-heading = መሳርሒ
selftest-heading = ርእሰ-ፈተሻ
selftest-hint = ምብዛሕ ማትሪክስ ከምኡ'ውን softmax ኣብዚ መሳርሒ ይሕሰቡ፣ ምስ ቀሊል ሕሳብ f64 ድማ ይነጻጸሩ። backend ንምምራጽ ?backend=cpu ወይ ?backend=wgpu ኣብቲ ኣድራሻ ወስኽ።
col-check = ፍተሻ
col-shape = ቅርጺ
col-tolerance = ዝፍቀድ ፍልልይ
col-device = መሳርሒ
col-reference = መወከሲ
score-heading = ነጥብታት
score-hint = log-likelihood ናይ ነፍሲ ወከፍ ምርጫ ድሕሪ እቲ ዓውዲ፣ ብሕጊ lm-evaluation-harness (?model=URL&context=…&choice=…&choice=…)።
col-choice = ምርጫ

## Run summary and rows

# $done of $total items answered; $accuracy and the interval are percentages, already formatted.
run-summary = ካብ { $total } { $done } ተመሊሶም · ትኽክለኛነት { $accuracy } (95% ክሊ { $low }–{ $high }) · ዕማም { $task } · ሞዴል { $model }
run-summary-exact = ካብ { $total } { $done } ተመሊሶም · ልክዕ ምስምማዕ { $accuracy } (95% ክሊ { $low }–{ $high }) · ዕማም { $task } · ሞዴል { $model }
run-summary-greedy = ካብ { $total } { $done } ተመሊሶም · ዝበለጸ ክኾኑ ዝኽእሉ ቀጻልቲ { $accuracy } (95% ክሊ { $low }–{ $high }) · ዕማም { $task } · ሞዴል { $model }
run-summary-empty = ካብ { $total } { $done } ተመሊሶም · ዕማም { $task }
run-summary-failed = { $n ->
    [one] { $n } ፈሺሉ (እቲ worker ተሰቢሩ)
   *[other] { $n } ፈሺሎም (እቲ worker ተሰቢሩ)
}
# The two settings' own words: the random sample's size and its seed.
run-sample = { setting-sample }: { $n } ({ setting-seed }: { $seed })
row-correct = ✓ ቅኑዕ
row-wrong = ✗ { $chosen } መሪጹ፣ ቅኑዕ { $gold }
row-differs = ✗ ካብ መወከሲ ይፈሊ
row-failed = ✗ ፈሺሉ
row-not-scored = ኣይተገምገመን: እቲ worker ተሰቢሩ ({ $message })
position-warning = እቲ ሞዴል ክሳብ ሕጂ ኣብ { $share } ካብቶም ሕቶታት ምርጫ { $letter } መሪጹ: ትኽክለኛነቱ ብቐንዱ { $letter } ክንደይ ግዜ ቅኑዕ መልሲ ከም ዝኾነ እዩ ዘርኢ፣ እቲ ሞዴል እንታይ ከም ዝፈልጥ ኣይኮነን። ኣብ ታሕቲ ዘሎ ትርኢት ኣድልዎ ቦታ ርአ።
position-warning-cloze = እቲ ሞዴል ክሳብ ሕጂ ኣብ { $share } ካብቶም ሕቶታት ምርጫ { $letter } መሪጹ: ትኽክለኛነቱ ብቐንዱ { $letter } ክንደይ ግዜ ቅኑዕ መልሲ ከም ዝኾነ እዩ ዘርኢ፣ እቲ ሞዴል እንታይ ከም ዝፈልጥ ኣይኮነን። እቲ ዕማም { $task } ኣብ ክንዲ ፊደል ምርጫ፣ ነቲ ጽሑፍ ነፍሲ ወከፍ ምርጫ ይግምግም። ኣብ ታሕቲ ዘሎ ትርኢት ኣድልዎ ቦታ ርአ።
notes-more = … ከምኡ'ውን ካልኦት { $n }
yes = እወ
no = ኣይፋል
verdict-right = ✓ ቅኑዕ
verdict-wrong = ✗ ጌጋ
parallel-this-run = እዚ ምክያድ
parallel-every-item = ትኽክለኛነት፣ ኩሉ ብጉጅለ ዝተሰርዐ ሕቶ
parallel-common = ኣብተን ኣብ ኩሉ ዓምዲ ዘለዋ { $n } ጉጅለታት
# A share of a number of items: "62% of 8".
share-of = { $share } ካብ { $n }
compare-summary = ምስ { $name } (B)፣ ኣብ { $n } ሕቶታት ክልቲኦም ዝመለስዎም: ክልቲኦም ቅኑዕ { $both_right } · ክልቲኦም ጌጋ { $both_wrong } · ኣብዚ ጥራይ ቅኑዕ (A) { $only_a } · ኣብ B ጥራይ ቅኑዕ { $only_b }።
compare-paired = B − A: { $points } ነጥብታት (95 % ክሊል ካብ { $lo } ክሳብ { $hi }); ልክዕ McNemar p = { $p }።
compare-unmatched = { $a } ሕቶታት ኣብዚ ጥራይ፣ { $b } ኣብ B ጥራይ
inspector-item = ሕቶ { $number } · { $id }
inspector-other-languages = ሓደ ሕቶ ብኻልኦት ቋንቋታት
inspector-tokens = { $n ->
    [one] { $n } ቶከን፣ BOS ቶከን ናይቲ ሞዴል ሓዊሱ።
   *[other] { $n } ቶከናት፣ BOS ቶከን ናይቲ ሞዴል ሓዊሱ።
}
inspector-tokens-split = { $n } ቶከናት፣ BOS ቶከን ናይቲ ሞዴል ሓዊሱ፤ ኣብ ውሽጢ ፊደል ዘሎ ምልክት ንሓደ ፊደል ዝመቕል ዶብ ቶከን የርኢ።

## Status line

status-starting = እቲ worker ይጅምር ኣሎ…
status-device = እቲ መሳርሒ ይዳሎ ኣሎ…
status-ready = ድሉው ኣሎ። ሞዴልን መመዘንን ምረጹ፣ ድሕሪኡ ኣካይድ ጠውቑ።
status-loading-model = እቲ ሞዴል ይጽዕን ኣሎ…
status-preparing = እቲ ዕማም ይዳሎ ኣሎ…
status-checking-fit = እቲ ሞዴል ኣብዚ መሳርሒ ከም ዝኣቱ ይፍተሽ ኣሎ…
status-running = ይካየድ ኣሎ።
status-paused = ደው ኢሉ።
status-finished = ተወዲኡ።
status-finished-kept = { $n ->
    [one] ተወዲኡ፤ { $n } መልሲ ካብ ቅድሚ ዳግማይ ምጽዓን ተዓቂቡ።
   *[other] ተወዲኡ፤ { $n } መልስታት ካብ ቅድሚ ዳግማይ ምጽዓን ተዓቂቦም።
}
status-failed-items = { $n ->
    [one] { $n } ሕቶ ፈሺሉ (እቲ worker ኣብኡ ተሰቢሩ)፣ ኣብ ዝኾነ መለክዒ ድማ ኣይቑጸርን።
   *[other] { $n } ሕቶታት ፈሺሎም (እቲ worker ኣብኦም ተሰቢሩ)፣ ኣብ ዝኾነ መለክዒ ድማ ኣይቑጸሩን።
}
status-resumed = { $n ->
    [one] ቀጺሉ: { $n } መልሲ ካብ ቅድሚ ተዓቂቡ።
   *[other] ቀጺሉ: { $n } መልስታት ካብ ቅድሚ ተዓቂቦም።
}
status-notes = { $n ->
    [one] ብዛዕባ እቲ ዳታ { $n } መዘኻኸሪ ኣብ ትሕቲ እቲ ጽማቕ ተዘርዚሩ ኣሎ።
   *[other] ብዛዕባ እቲ ዳታ { $n } መዘኻኸሪታት ኣብ ትሕቲ እቲ ጽማቕ ተዘርዚሮም ኣለዉ።
}
status-cancelled = ተቛሪጹ፤ እቶም ዝተዓቀቡ መልስታት ናይቲ ምክያድ ተደምሲሶም።
status-recovered-paused = ካብ ምስባር ናይቲ worker ተመሊሱ፤ ደው ኢሉ።
status-recovered-running = ካብ ምስባር ናይቲ worker ተመሊሱ፤ ይካየድ ኣሎ።
status-reloading-after-crash = እቲ worker ተሰቢሩ: ንምቕጻል እቲ ሞዴል ደጊሙ (ካብ ካሽ) ይጽዕን ኣሎ…
status-crash-item = እቲ worker ንሕቶ { $number } ክግምግም ከሎ ተሰቢሩ: { $message }
status-crash = እቲ worker ተሰቢሩ: { $message }
status-crash-goes-on = ዳግማይ ተጀሚሩ፤ እቲ ሞዴል ደጊሙ ተጻዒኑ እቲ ምክያድ ይቕጽል ኣሎ (እቲ ሕቶ ከም ዝፈሸለ ተመልኪቱ)።
status-crash-restart = ዳግማይ ተጀሚሩ፤ ንምቕጻል እቲ ምክያድ ደጊምካ ጀምሮ (ዝተመለሱ ሕቶታት ይዕቀቡ)።
status-not-saved = ሕቶ { $number } ተመሊሱ ግን ኣይተዓቀበን ({ $message }): ዳግማይ እንተተጻዒኑ ደጊሙ ክግምገም እዩ።
status-saved-run = ዝተዓቀበ ምክያድ { $name } ይርአ ኣሎ።
status-drop-reading = እቲ ዝተንበረ ማህደር { $names } ይንበብ ኣሎ…
status-drop-unused = እቲ ዝተንበረ ኣይተጠቕመን።
status-dropped = { $what } ተንቢሩ። ንምጅማር ኣካይድ ጠውቕ።
status-scored = { $n } ምርጫታት ኣብ { $backend } ተገምጊሞም።
status-not-fit = እቲ ሞዴል ኣይተጻዕነን: ኣብዚ መሳርሒ ኣይኣቱን። ካልእ ምረጽ።
status-model-failed = እቲ ሞዴል ኣይተጻዕነን፤ ምኽንያቱ ብቀይሕ ተጻሒፉ ኣሎ።
status-task-failed = እቲ ዕማም ኣይተዳለወን፤ ምኽንያቱ ብቀይሕ ተጻሒፉ ኣሎ።
model-loading = ይጽዕን ኣሎ…
model-reading-header = ርእሲ (header) ናይቲ ሞዴል ይንበብ ኣሎ…
model-loaded = { $name }: { $architecture }፣ { $layers } ደርብታት፣ { $vocab } ቶከናት።
model-not-loaded = ኣይተጻዕነን: { $message }
download-cache = { $mb } MB ካብ ካሽ ናይዚ ብራውዘር ተነቢቡ (ምውራድ የለን)። ይጽዕን ኣሎ…
download-done = { $mb } MB ወሪዱ፣ ተፈቲሹ። ይጽዕን ኣሎ…
download-progress-total = { $mb } ካብ { $total } MB ይወርድ ኣሎ · { $rate } MB/s · { $seconds } s ተሪፉ
download-progress-rate = { $mb } MB ይወርድ ኣሎ · { $rate } MB/s
download-resumed = (ካብቲ ቅድም ዝተዓቀበ { $mb } MB ቀጺሉ)
data-download = ዳታ መመዘኒ ይውርድ ኣሎ፦ { $name } (ፋይል { $file } ካብ { $files })፦ { $kb } ካብ { $total } KB
data-download-cache = ዳታ መመዘኒ ካብ መኽዘን እዚ ብራውዘር፦ { $name } (ፋይል { $file } ካብ { $files }፣ { $kb } KB)፣ ተረጋጊጹ።

## Device panel

device-type = ዓይነት መሳርሒ
device-kernel = kernel ናይ Int8 matmul
device-threads = ኣብ ሓደ ዙር ዘለዉ CPU threads
device-fallback = ናይ ሶፍትዌር ተተካኢ ኣዳፕተር
device-why-not-webgpu = ስለምንታይ WebGPU ዘይኮነ
device-calibration = ኣብዚ ሞዴል ዝተለክዐ ቅልጣፈ
device-workers = ኣብ CPU ዘለዉ ሰራሕተኛታት (workers)
selftest-matches = ✓ ይሰማማዕ
selftest-differs = ✗ ይፈላለ
selftest-summary-passed = ርእሰ-ፈተሻ ኣብ { $device } ሓሊፉ ({ $ms } ms)
selftest-summary-failed = ርእሰ-ፈተሻ ኣብ { $device } ፈሺሉ ({ $ms } ms)

## Classroom mode

classroom-heading = ክፍሊ ትምህርቲ
classroom-back = ንድሕሪት
classroom-next = ዝቕጽል
classroom-close = ካብ ኣገባብ ክፍሊ ትምህርቲ ውጻእ
classroom-votes-hint = መልሲ ክፍሊ ጠውቕ፣ ወይ ክንደይ ተመሃሮ ነፍሲ ወከፍ ምርጫ ከም ዝመረጹ ኣእቱ:
classroom-keys = መፍትሕታት: → ወይ Space ዝቕጽል ስጉምቲ፣ ← ንድሕሪት፣ 1–9 ወይ A–I መልሲ ክፍሊ፣ Esc ምውጻእ።
classroom-progress = ሕቶ { $number } ካብ { $total }
classroom-step-question = ነቲ ሕቶን ምርጫታቱን ብሓባር ነንብብ።
classroom-step-class = ክፍሊ እንታይ ይምልስ? ሓደ ምርጫ ጠውቕ ወይ ድምጽታት ቁጸር።
classroom-step-model-waiting = እቲ ሞዴል ገና ነዚ ሕቶ ይምልስ ኣሎ…
classroom-class-chose = ክፍሊ { $letter } መሪጹ።
classroom-model-chose = እቲ ሞዴል { $letter } መሪጹ።
classroom-gold-is = እቲ ቅኑዕ መልሲ { $letter } እዩ።
classroom-score = ክፍሊ { $class } · ሞዴል { $model } · ካብ { $n ->
    [one] { $n } ሕቶ
   *[other] { $n } ሕቶታት
}
classroom-votes-label = { $letter }: ድምጽታት
classroom-no-run = መጀመርታ ምክያድ ጀምር: ኣገባብ ክፍሊ ትምህርቲ ሕቶታቱ ሓደ ብሓደ የርኢ።
classroom-end = እዚ እቲ ናይ መወዳእታ ሕቶ ነበረ።

## Dropped files, model checks, device panel

dropped-model-folder = { $n ->
    [one] ማህደር ሞዴል { $folder } ({ $n } ፋይል)
   *[other] ማህደር ሞዴል { $folder } ({ $n } ፋይላት)
}
dropped-model = ሞዴል { $files }
dropped-benchmark = መመዘኒ { $files }
dropped-benchmark-more = መመዘኒ { $files } ከምኡ'ውን ካልኦት { $n }
dropped-not-used = ዘይተጠቕመ: { $files }
dropped-not-used-more = ዘይተጠቕመ: { $files } ከምኡ'ውን ካልኦት { $n }
model-refused-header = ኣይተጻዕነን: { $name } ኣብዚ መሳርሒ ኣይኣቱን (ርእሲ ጥራይ ተነቢቡ)።
model-refused-folder = ኣይተጻዕነን: { $name } ኣብዚ መሳርሒ ኣይኣቱን (config.json ከምኡ'ውን ርእስታት safetensors ጥራይ ተነቢቦም)።
model-fit-unchecked = { $name }: ቅድሚ ምውራድ ኣይተፈተሸን: { $why }።
col-group = ጉጅለ
device-backend = Backend
device-adapter = ኣዳፕተር
device-summary-done = መሳርሒን ርእሰ-ፈተሻን — { $summary }

## The run's one-page summary

button-summary-svg = ስእሊ ጽማቕ (SVG)
button-summary-print = ጽማቕ ሕተም
summary-title = lingualens · { $task }
summary-headline = ትኽክለኛነት { $accuracy } (95% ክሊ { $low }–{ $high }) · ካብ { $total } { $done } ተመሊሶም
summary-model = ሞዴል: { $model } · backend: { $backend } · { $date }
summary-by = ብዓምዲ:
summary-positions = እቲ ሞዴል ኣየናይ ምርጫ ከም ዝመረጸ፣ ቅኑዓት መልስታት ድማ ኣበይ ከም ዝነበሩ
summary-chosen = ዝተመርጸ
summary-gold-here = ቅኑዕ መልሲ ኣብዚ
summary-more = … ከምኡ'ውን ካልኦት { $n }

# The Experiment menu (page/suite.rs).
experiment-label = ወይ ፈተነ (ከም ኣብቶም ጽሑፋት ብዙሓት ምንቅስቓሳት ዝወዳደሩ)
experiment-none = የለን፦ ሓደ ዕማም
button-experiment = ነቲ ፈተነ ኣካይድ
suite-heading = ፈተነ
suite-progress = { $name }፦ ካብ { $runs } ምንቅስቓሳት እቲ { $run }ይ ({ $task })።
suite-stopped = { $name }፦ ካብ { $runs } ምንቅስቓሳት { $done } ተዛዚሞም፤ ንምቕጻል ቀጽል ጠውቑ።
suite-finished = { $name }፦ ኩሎም { $runs } ምንቅስቓሳት ተዛዚሞም።
button-suite-resume = ነቲ ፈተነ ቀጽል
button-suite-forget = ነቲ ፈተነ ረስዕ
suite-col-run = ምንቅስቓስ
suite-col-task = ዕማም
suite-col-accuracy = ልክዕነት፣ % (95 % ክሊል)
suite-col-items = ሕቶታት
suite-comparisons-heading = ምውድዳራት፣ ሕቶ ብሕቶ
suite-col-pair = B − A
suite-col-difference = ፍልልይ፣ ነጥብታት (95 % ክሊል)
suite-col-flips = ኣብ A ጥራይ ቅኑዕ / ኣብ B ጥራይ ቅኑዕ
suite-col-p = ልክዕ McNemar p
suite-swings-heading = ምውዝዋዝ፦ ዝለዓለ ልክዕነት ዝተጎደለ ዝተሓተ
suite-col-swing-name = ምውዝዋዝ
suite-col-swing-runs = ኣብቶም ምንቅስቓሳት
suite-col-swing = ነጥብታት (95 % bootstrap ክሊል)
suite-not-in-menu = ምንቅስቓስ { $run } ናይቲ ፈተነ ነቲ ዕማም { $task } የድልዮ፤ ዝርዝር ዕማማት ገና ኣየቕርቦን፤ መጀመርታ ናይቲ ዕማም YAML ን ዳታን ኣብ ትሕቲ “ናተይ ፋይላት” ምረጹ፣ ድሕሪኡ ነቲ ፈተነ ደጊምኩም ጀምሩ።
suite-wrong-task = ምንቅስቓስ { $run } ናይቲ ፈተነ ነቲ ዕማም { $task } የድልዮ፤ ዝመረጽኩምዎም ፋይላት ግን { $given } ይገልጹ።
storage-not-kept = { $file } ነዚ ምንቅስቓስ ተጠቒምናሉ፣ ግን ብዘይ መስመር ንምጥቃም ኣይተዓቀበን፦ { $reason }። ቦታ ኣግልሉ (ኣብ ታሕቲ ዝተዓቀበ ሞደል ደምስሱ፣ ወይ ኣብ ቅጥዒታት መርበብ ሓበሬታ ናይዚ ገጽ ኣጽርዩ)፣ ኣብ ዝቕጽል ምውራድ ክዕቀብ እዩ።
suite-other-model = እዚ ፈተነ ብ{ $model } እዩ ተጀሚሩ፤ ንምቕጻል ነቲ ሞደል ምረጹ፣ ወይ ነቲ ፈተነ ረስዕዎ።
suite-unknown = { $name } ዝበሃል ፈተነ የለን።
button-suite-json = ሰሌዳ (JSON)
button-suite-svg = ቻርት (SVG)
button-suite-summary = ስእሊ ጽማቕ (SVG)
button-suite-print = ነቲ ፈተነ ሕተም
import-suite = ዝተዓቀበ ፈተነ ክፈት
suite-opened = { $name }፦ ካብ { $file } ተኸፊቱ፤ ሞዴላት፦ { $models }።
suite-col-model = ሞዴል
suite-runs-heading = ምንቅስቓሳት
suite-summary-title = lingualens · ፈተነ { $name }
suite-summary-models = ሞዴላት፦ { $models } · { $date }
suite-summary-sample = ነፍሲ ወከፍ ምንቅስቓስ ተመሳሳሊ { $n } ሰነዳት ገምጊሙ፤ ብ seed { $seed } ብዕድል ዝተሓረዩ።
