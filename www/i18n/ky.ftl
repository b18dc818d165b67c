# lingualens: the interface in Kyrgyz (Cyrillic).
# This catalogue was machine-drafted by an AI model on 2026-12-02 from en.ftl and has not yet
# been reviewed by a native speaker. Corrections are welcome.
# Plural categories used (CLDR, Kyrgyz): one, other. Nouns after numerals stay singular,
# so both variants often read the same.
# Least sure: fertility-heading, col-greedy, col-uniform, col-tolerance, order-rotations,
# status-checking-fit, status-not-fit, device-fallback, and "worker" rendered as
# "фондук процесс" (run-summary-failed, status-crash*).
#
# lingualens: интерфейс кыргыз тилинде (кирилл).
# Бул каталогду 2026-12-02 күнү жасалма интеллект модели en.ftl файлынан алдын ала которгон;
# аны кыргыз тилинде сүйлөгөн адам азырынча текшере элек. Оңдоолорду кубануу менен кабыл алабыз.
# Көптүк категориялары (CLDR, кыргыз тили): one, other.
# Эң ишенимсиз котормолор: fertility-heading, col-greedy, col-uniform, col-tolerance,
# order-rotations, status-checking-fit, status-not-fit, device-fallback, жана "worker"
# сөзүнүн "фондук процесс" деп которулушу.
# Added on 2026-12-03, machine-drafted like the rest and least sure too: model-on-server, kit-note, data-download, data-download-cache.

## Header and setup

language-label = Тил
tagline = Чакан тил моделдери дзонгха (རྫོང་ཁ), амхар (አማርኛ), кыргыз (кыргызча) жана башка тилдердеги тесттерде ар бир суроо боюнча бааланат — браузериңизде, эч нерсе орнотпостон жана серверсиз.
status-loading = Жүктөлүүдө…
setup-heading = Модель жана тест
setup-hint = Төмөндөн тандаңыз же .gguf моделди (же Hugging Face моделинин файлдарын) жана маалымат же тапшырма YAML файлдарын ушул кутучанын каалаган жерине таштаңыз.
model-legend = Модель
model-choose = Тандоо
model-file = же ушул компьютердеги GGUF файл, же Hugging Face моделинин файлдары (config.json, tokenizer.json, .safetensors)
model-folder = же Hugging Face моделинин папкасы
model-url = же URL дарек
model-none = Модель жүктөлгөн жок.
cached-models = Интернетсиз колдонуу үчүн ушул браузерде сакталган:
task-legend = Тест
task-label = Тапшырма
task-demo = Демо: 6 тилде 21 суроо
task-files = Менин файлдарым (төмөндө)
task-dzen-en-cloze = DZEN, англисче суроолор, ар бир варианттын тексти бааланат (чакан моделдер үчүн; 0,4 МБ жүктөлөт)
task-dzen-dz-cloze = DZEN, дзонгхача суроолор, ар бир варианттын тексти бааланат (0,4 МБ жүктөлөт)
task-dzen-dz-en-cloze = DZEN, дзонгхача суроолор англисче котормосу менен, ар бир варианттын тексти бааланат (0,4 МБ жүктөлөт)
task-dzen-en = DZEN, англисче суроолор (0,4 МБ жүктөлөт, же өз CSV файлдарыңызды бериңиз)
task-dzen-dz = DZEN, дзонгхача суроолор (0,4 МБ жүктөлөт, же өз CSV файлдарыңызды бериңиз)
task-dzen-dz-en = DZEN, дзонгхача суроолор англисче котормосу менен (0,4 МБ жүктөлөт)
task-dzen-cot-en = DZEN, англисче суроолор, 5 чыгарылган мисалдан кийин кадам-кадам ой жүгүртүү (жай; 0,4 МБ жүктөлөт)
task-dzen-cot-dz = DZEN, дзонгхача суроолор, 5 чыгарылган мисалдан кийин дзонгхача кадам-кадам ой жүгүртүү (жай; 0,4 МБ жүктөлөт)
task-proverbeval-amh-choice-english = Амхар тили: маани, англисче сыпаттамалар
task-proverbeval-amh-choice-native = Амхар тили: маани, амхарча сыпаттамалар
task-proverbeval-amh-fill = Амхар тили: бош орунду толтуруу
task-proverbeval-amh-generation-english = Амхар тили: англисче сыпаттама боюнча макал
task-proverbeval-amh-generation-native = Амхар тили: амхарча сыпаттама боюнча макал
task-group-dzen = DZEN (дзонгха, англис)
task-group-proverbeval-amh = ProverbEval, амхар тили (GitHub жана Hugging Face Hub'дан)
task-proverbeval-orm-choice-english = Оромо тили: маани, англисче сыпаттамалар
task-proverbeval-orm-choice-native = Оромо тили: маани, оромочо сыпаттамалар
task-proverbeval-orm-fill = Оромо тили: бош орунду толтуруу
task-proverbeval-orm-generation-english = Оромо тили: англисче сыпаттама боюнча макал
task-proverbeval-orm-generation-native = Оромо тили: оромочо сыпаттама боюнча макал
task-group-proverbeval-orm = ProverbEval, оромо тили (GitHub жана Hugging Face Hub'дан)
task-proverbeval-tir-choice-english = Тигринья тили: маани, англисче сыпаттамалар
task-proverbeval-tir-choice-native = Тигринья тили: маани, тигриньяча сыпаттамалар
task-proverbeval-tir-fill = Тигринья тили: бош орунду толтуруу
task-proverbeval-tir-generation-english = Тигринья тили: англисче сыпаттама боюнча макал
task-proverbeval-tir-generation-native = Тигринья тили: тигриньяча сыпаттама боюнча макал
task-group-proverbeval-tir = ProverbEval, тигринья тили (GitHub жана Hugging Face Hub'дан)
task-proverbeval-gez-choice-english = Геэз тили: маани, англисче сыпаттамалар
task-proverbeval-gez-choice-native = Геэз тили: маани, геэзче сыпаттамалар
task-proverbeval-gez-fill = Геэз тили: бош орунду толтуруу
task-proverbeval-gez-generation-english = Геэз тили: англисче сыпаттама боюнча макал
task-proverbeval-gez-generation-native = Геэз тили: геэзче сыпаттама боюнча макал
task-group-proverbeval-gez = ProverbEval, геэз тили (GitHub жана Hugging Face Hub'дан)
task-proverbeval-eng-choice-native = Англис макалдары: маани, англисче сыпаттамалар
task-proverbeval-eng-fill = Англис макалдары: бош орунду толтуруу
task-proverbeval-eng-generation-native = Англис макалдары: англисче сыпаттама боюнча макал
task-group-proverbeval-eng = ProverbEval, англис тили (GitHub жана Hugging Face Hub'дан)
task-group-kyrgyzllm-mmlu = KyrgyzLLM-Bench, KyrgyzMMLU (GitHub жана Hugging Face Hub'дан)
task-group-kyrgyzllm-rc = KyrgyzLLM-Bench, KyrgyzRC (GitHub жана Hugging Face Hub'дан)
task-group-kyrgyzllm-hellaswag = KyrgyzLLM-Bench, кыргызча HellaSwag (GitHub жана Hugging Face Hub'дан)
task-group-kyrgyzllm-winogrande = KyrgyzLLM-Bench, кыргызча WinoGrande (Hugging Face Hub'дан)
task-group-kyrgyzllm-truthfulqa = KyrgyzLLM-Bench, кыргызча TruthfulQA (GitHub жана Hugging Face Hub'дан)
task-group-kyrgyzllm-boolq = KyrgyzLLM-Bench, кыргызча BoolQ (GitHub жана Hugging Face Hub'дан)
task-kyrgyz-mmlu = Кыргызча: тогуз сабак боюнча мектеп суроолору, тамгалуу варианттар
task-kyrgyz-rc = Кыргызча: окуп түшүнүү, текст жана ага суроо
task-hellaswag-kg = Кыргызча: күнүмдүк иш кандай уланат (HellaSwag)
task-winogrande-kg = Кыргызча: бош орун кимди же эмнени билдирет (WinoGrande)
task-winogrande-kg-partial = Кыргызча: WinoGrande, сүйлөмдүн аягы гана бааланат
task-truthfulqa-kg = Кыргызча: кеңири тараган жаңылыш ойлордун арасынан чыны (TruthfulQA)
task-boolq-kg = Кыргызча: текст боюнча ооба же жок (BoolQ)
task-kept = Интернетсиз колдонуу үчүн ушул браузерде сакталган (файлдар: { $files }, { $mb } МБ): бул тапшырма интернетсиз иштейт.
task-download-size = Маалыматтары биринчи иштеткенде жүктөлөт (файлдар: { $files }, { $mb } МБ), андан кийин интернетсиз колдонуу үчүн ушул браузерде сакталат.
task-download-unknown = Маалыматтары биринчи иштеткенде жүктөлөт (файлдар: { $files }, көлөмү белгисиз), андан кийин интернетсиз колдонуу үчүн ушул браузерде сакталат.
task-download-hub = Маалыматтары биринчи иштетилгенде жүктөлөт (файлдары Hugging Face Hub'дан datasets китепканасы тапкандай табылат), андан кийин интернетсиз колдонуу үчүн бул браузерде сакталат.
task-data-file = Маалымат файлы (CSV, JSON, JSONL, Parquet), кааласаңыз lm-eval тапшырмасынын YAML файлы менен
task-data-folder = же маалымат папкасы (DZEN: ичинде DZEN/ жана DZEN-Few_Shots/ бар папка)
setting-limit = Чеги
setting-shots = Мисалдар (shots)
setting-seed = Seed
setting-order = Варианттардын тартиби
order-given = берилгендей
order-gold-first = туура жооп биринчи
order-gold-last = туура жооп акыркы
order-rotations = бардык айландыруулар
order-shuffles = seed менен 3 аралаштыруу
setting-pace = Ылдамдык (бир суроого мс)
setting-sample = Кокус тандама
placeholder-all = баары
placeholder-task = тапшырма
filters-hint = Төмөнкү маанилери бар суроолор гана (акыркы даярдалган тапшырманын маанилери; тандама seed колдонот):
button-run = Иштетүү
button-pause = Тындыруу
button-resume = Улантуу
button-cancel = Токтотуу жана өчүрүү
button-classroom = Класс режими
button-export-jsonl = Үлгүлөр JSONL
button-export-json = Жыйынтыктар JSON
button-export-csv = CSV
import-run = Сакталган иштетүүнү ачуу
demo-note = Бул колдонмонун ичиндеги демо: кокус салмактары бар кичинекей модель (models/demo, 0,2 млн параметр), ошондуктан анын жооптору кокустан табылгандай гана — ал иштетүү кантип жүрөрүн көрсөтөт, модель эмнени билерин эмес. Чыныгы моделди өлчөө үчүн тизмеден бирөөнү тандаңыз (иштетүү башталганда Hugging Face'тен жүктөлүп алынат) же ушул компьютердеги GGUF файлды ачыңыз.
model-demo = Демо модель (кокус салмактар, 0,2 млн параметр, колдонмонун ичинде)
# A catalogue model in the list: its name, then its quantization, size and licence.
model-catalog-entry = { $name } ({ $details }) — жүктөлүп алынат
model-on-server = { $name } ({ $details }) — ушул серверде
kit-note = Интернетсиз колдонуу үчүн ушул серверде: { $benchmarks }. Алардын тапшырмаларына файл керек эмес.
size-unknown = көлөмү белгисиз
cache-delete = { $file } файлын кэштен өчүрүү
cache-delete-button = Өчүрүү

## Run table and analysis

run-heading = Иштетүү
run-nothing = Азырынча эч нерсе иштетиле элек.
col-number = №
col-question = суроо
col-options = варианттар (моделдин ыктымалдыгы; туура ★)
col-result = натыйжа
col-ms = мс
inspector-heading = Суроо
inspector-hint = Так промпт, моделдин токен чектери белгиленген:
col-option = вариант
col-loglikelihood = log-likelihood
col-per-char = бир белгиге
col-tokens = токендер
col-greedy = greedy
breakdown-heading = Метамаалымат боюнча
col-field = талаа
col-value = маани
col-n = n
col-accuracy = тактык
bias-heading = Варианттын орду
col-position = орду
col-gold-here = туура жооп ушул жерде
col-accuracy-when-gold = туура жооп ушул жерде болгондогу тактык
col-chosen = тандалган
col-uniform = бирдей бөлүштүрүү
parallel-heading = Бир эле суроо ар кайсы тилдерде
parallel-hint = Бир топко кирген, parallel шилтемеси менен байланышкан же id'лери акыркы /language бөлүгү менен гана айырмаланган (DZEN'дегидей) суроолор — ушул иштетүүдө жана төмөндө ачылган сакталган иштетүүлөрдө. Аларды катар көрүү үчүн DZEN иштетүүсүн англисче, бирин дзонгхача жана бирин англисче котормосу кошулган (dz+en) ачыңыз. Акыркы сап тилкелерди бирдей суроолор боюнча салыштырат: бардык тилкелерде жооп берилген топтор.
fertility-heading = Токенизатордун fertility көрсөткүчү
fertility-hint = Жүктөлгөн моделдин ар бир тилдеги суроолордогу жана варианттардагы токендери (BOS токенисиз). Дзонгха тилинде сөздөрдүн ортосуна боштук коюлбайт, ошондуктан аны муун боюнча салыштырыңыз.
fertility-run = Токендерди саноо
col-language = тил
col-texts = тексттер
col-per-word = бир сөзгө
col-per-syllable = бир муунга
col-per-character = бир белгиге
compare-heading = Башка иштетүү менен салыштыруу
compare-open = Ушуну менен салыштыруу үчүн сакталган иштетүүлөрдү (samples JSONL) ачыңыз
compare-hint = Суроолор биринчи ачылган иштетүү менен id боюнча дал келтирилет; эки иштетүүнүн жооптору айырмаланган суроолор гана көрсөтүлөт.
col-item = суроо
col-run-a = ушул иштетүү (A)
col-run-b = салыштырылган иштетүү (B)
device-summary = Түзмөк жана өзүн-өзү текшерүү
device-heading = Түзмөк
selftest-heading = Өзүн-өзү текшерүү
selftest-hint = Ушул түзмөктө эсептелген матрицалардын көбөйтүндүсү жана softmax жөнөкөй f64 арифметикасы менен салыштырылат. Backend'ди тандоо үчүн дарекке ?backend=cpu же ?backend=wgpu кошуңуз.
col-check = текшерүү
col-shape = өлчөмү
col-tolerance = жол берилген четтөө
col-device = түзмөк
col-reference = эталон
score-heading = Упайлар
score-hint = Контексттен кийинки ар бир варианттын log-likelihood мааниси, lm-evaluation-harness эрежеси боюнча (?model=URL&context=…&choice=…&choice=…).
col-choice = вариант

## Run summary and rows

# $done of $total items answered; $accuracy and the interval are percentages, already formatted.
run-summary = { $total } суроонун { $done } суроосуна жооп берилди · тактык { $accuracy } (95% интервал { $low }–{ $high }) · тапшырма { $task } · модель { $model }
run-summary-exact = { $total } суроонун { $done } суроосуна жооп берилди · так дал келүү { $accuracy } (95% интервал { $low }–{ $high }) · тапшырма { $task } · модель { $model }
run-summary-greedy = { $total } суроонун { $done } суроосуна жооп берилди · эң ыктымал уландылар { $accuracy } (95% интервал { $low }–{ $high }) · тапшырма { $task } · модель { $model }
run-summary-empty = { $total } суроонун { $done } суроосуна жооп берилди · тапшырма { $task }
run-summary-failed = { $n } суроо бааланган жок (фондук процесс иштен чыкты)
# The two settings' own words: the random sample's size and its seed.
run-sample = { setting-sample }: { $n } ({ setting-seed }: { $seed })
row-correct = ✓ туура
row-wrong = ✗ { $chosen } тандалды, туурасы { $gold }
row-differs = ✗ үлгүдөн айырмаланат
row-failed = ✗ бааланган жок
row-not-scored = Бааланган жок: фондук процесс иштен чыкты ({ $message })
position-warning = Модель азырынча суроолордун { $share } бөлүгүндө { $letter } вариантын тандады: анын тактыгы модель эмнени билерин эмес, көбүнчө { $letter } канча жолу туура жооп болгонун көрсөтөт. Төмөндөгү «Варианттын орду» бөлүгүн караңыз.
position-warning-cloze = Модель азырынча суроолордун { $share } бөлүгүндө { $letter } вариантын тандады: анын тактыгы модель эмнени билерин эмес, көбүнчө { $letter } канча жолу туура жооп болгонун көрсөтөт. { $task } тапшырмасы варианттын тамгасын эмес, анын өз текстин баалайт. Төмөндөгү «Варианттын орду» бөлүгүн караңыз.
notes-more = … жана дагы { $n }
yes = ооба
no = жок
verdict-right = ✓ туура
verdict-wrong = ✗ туура эмес
parallel-this-run = ушул иштетүү
parallel-every-item = тактык, топтогу бардык суроолор
parallel-common = бардык тилкелерде бар { $n } топ боюнча
# A share of a number of items: "62% of 8".
share-of = { $n } ичинен { $share }
compare-summary = { $name } (B) менен салыштыруу, экөө тең жооп берген { $n } суроо боюнча: экөө тең туура { $both_right } · экөө тең туура эмес { $both_wrong } · ушул жерде гана туура (A) { $only_a } · B'де гана туура { $only_b }.
compare-paired = B − A: { $points } пункт (95 % интервал { $lo } … { $hi }); так McNemar сыноосу p = { $p }.
compare-unmatched = { $a } суроо ушул жерде гана, { $b } суроо B'де гана
inspector-item = Суроо { $number } · { $id }
inspector-other-languages = Бир эле суроо башка тилдерде
inspector-tokens = { $n ->
    [one] { $n } токен, моделдин BOS токени да кошо.
   *[other] { $n } токен, моделдин BOS токени да кошо.
}
inspector-tokens-split = { $n } токен, моделдин BOS токени да кошо; тамганын ичиндеги белги бир белгини бөлүп салган токен чегин көрсөтөт.

## Status line

status-starting = Фондук процесс иштетилүүдө…
status-device = Түзмөк даярдалууда…
status-ready = Даяр. Моделди жана тестти тандап, «Иштетүү» баскычын басыңыз.
status-loading-model = Модель жүктөлүүдө…
status-preparing = Тапшырма даярдалууда…
status-checking-fit = Модель батаарын текшерүүдө…
status-running = Иштеп жатат.
status-paused = Тындырылды.
status-finished = Бүттү.
status-finished-kept = { $n ->
    [one] Бүттү; барак кайра жүктөлгөнгө чейинки { $n } жооп сакталды.
   *[other] Бүттү; барак кайра жүктөлгөнгө чейинки { $n } жооп сакталды.
}
status-failed-items = { $n ->
    [one] { $n } суроо бааланган жок (фондук процесс ушул суроодо иштен чыкты) жана эч бир көрсөткүчкө кирбейт.
   *[other] { $n } суроо бааланган жок (фондук процесс ушул суроолордо иштен чыкты) жана эч бир көрсөткүчкө кирбейт.
}
status-resumed = { $n ->
    [one] Улантылды: мурунку { $n } жооп сакталды.
   *[other] Улантылды: мурунку { $n } жооп сакталды.
}
status-notes = { $n ->
    [one] Маалымат боюнча { $n } эскертүү жыйынтыктын астында көрсөтүлгөн.
   *[other] Маалымат боюнча { $n } эскертүү жыйынтыктын астында көрсөтүлгөн.
}
status-cancelled = Токтотулду; иштетүүнүн сакталган жооптору өчүрүлдү.
status-recovered-paused = Фондук процесс иштен чыккандан кийин калыбына келди; тындырылды.
status-recovered-running = Фондук процесс иштен чыккандан кийин калыбына келди; иштеп жатат.
status-reloading-after-crash = Фондук процесс иштен чыкты: улантуу үчүн модель кайра жүктөлүүдө (кэштен)…
status-crash-item = { $number }-суроону баалап жатканда фондук процесс иштен чыкты: { $message }
status-crash = Фондук процесс иштен чыкты: { $message }
status-crash-goes-on = Ал кайра ишке киргизилди; модель кайра жүктөлдү жана иштетүү уланууда (суроо бааланган жок деп белгиленди).
status-crash-restart = Ал кайра ишке киргизилди; улантуу үчүн иштетүүнү кайра баштаңыз (жооп берилген суроолор сакталат).
status-not-saved = { $number }-суроого жооп берилди, бирок сакталган жок ({ $message }): барак кайра жүктөлсө, ал кайра бааланат.
status-saved-run = Сакталган иштетүү көрсөтүлүүдө: { $name }.
status-drop-reading = Ташталган папка окулууда: { $names }…
status-drop-unused = Ташталган файлдар колдонулган жок.
status-dropped = Ташталды: { $what }. Баштоо үчүн «Иштетүү» баскычын басыңыз.
status-scored = { $backend } аркылуу { $n } вариант бааланды.
status-not-fit = Модель жүктөлгөн жок: ал батпайт. Башкасын тандаңыз.
status-model-failed = Модель жүктөлгөн жок; себеби кызыл түс менен көрсөтүлдү.
status-task-failed = Тапшырма даярдалган жок; себеби кызыл түс менен көрсөтүлдү.
model-loading = Жүктөлүүдө…
model-reading-header = Моделдин баш бөлүгү окулууда…
model-loaded = { $name }: { $architecture }, { $layers } катмар, { $vocab } токен.
model-not-loaded = Жүктөлгөн жок: { $message }
download-cache = Ушул браузердин кэшинен { $mb } МБ окулду (жүктөп алуусуз). Жүктөлүүдө…
download-done = { $mb } МБ жүктөлүп алынды, текшерилди. Жүктөлүүдө…
download-progress-total = { $total } МБ ичинен { $mb } МБ жүктөлүп алынууда · { $rate } МБ/с · { $seconds } с калды
download-progress-rate = { $mb } МБ жүктөлүп алынууда · { $rate } МБ/с
download-resumed = (мурда сакталган { $mb } МБдан уланды)
data-download = Бенчмарктын маалыматы жүктөлүүдө: { $name } ({ $files } файлдын { $file }-си): { $total } КБдан { $kb }
data-download-cache = Бенчмарктын маалыматы бул браузердин сактагычынан: { $name } ({ $files } файлдын { $file }-си, { $kb } КБ), текшерилди.

## Device panel

device-type = Түзмөктүн түрү
device-kernel = Int8 matmul ядросу
device-threads = Бир өтүүдөгү CPU агымдары
device-fallback = Программалык запас адаптер
device-why-not-webgpu = Эмне үчүн WebGPU эмес
device-calibration = Бул моделде ченелген ылдамдык
device-workers = CPUдагы воркерлер
selftest-matches = ✓ дал келет
selftest-differs = ✗ айырмаланат
selftest-summary-passed = Өзүн-өзү текшерүү { $device } түзмөгүндө { $ms } мс ичинде ийгиликтүү өттү
selftest-summary-failed = Өзүн-өзү текшерүү { $device } түзмөгүндө { $ms } мс ичинде ӨТКӨН ЖОК

## Classroom mode

classroom-heading = Класс
classroom-back = Артка
classroom-next = Кийинки
classroom-close = Класс режиминен чыгуу
classroom-votes-hint = Класстын жообун басыңыз же ар бир вариантты канча окуучу тандаганын жазыңыз:
classroom-keys = Баскычтар: → же Боштук — кийинки кадам, ← — артка, 1–9 же A–I — класстын жообу, Esc — чыгуу.
classroom-progress = { $number }-суроо, бардыгы { $total }
classroom-step-question = Суроону жана варианттарды класс менен бирге окугула.
classroom-step-class = Класс кандай жооп берет? Вариантты басыңыз же добуштарды санаңыз.
classroom-step-model-waiting = Модель бул суроого дагы эле жооп берип жатат…
classroom-class-chose = Класс { $letter } вариантын тандады.
classroom-model-chose = Модель { $letter } вариантын тандады.
classroom-gold-is = Туура жооп: { $letter }.
classroom-score = Класс { $class } · Модель { $model } · { $n ->
    [one] { $n } суроодон
   *[other] { $n } суроодон
}
classroom-votes-label = { $letter }: добуштар
classroom-no-run = Адегенде иштетүүнү баштаңыз: класс режими анын суроолорун бирден көрсөтөт.
classroom-end = Бул акыркы суроо болчу.

## Dropped files, model checks, device panel

dropped-model-folder = { $folder } модель папкасы ({ $n } файл)
dropped-model = модель { $files }
dropped-benchmark = тест { $files }
dropped-benchmark-more = тест { $files } жана дагы { $n }
dropped-not-used = колдонулган жок: { $files }
dropped-not-used-more = колдонулган жок: { $files } жана дагы { $n }
model-refused-header = Жүктөлгөн жок: { $name } батпайт (анын баш бөлүгү гана окулду).
model-refused-folder = Жүктөлгөн жок: { $name } батпайт (config.json жана safetensors баш бөлүктөрү гана окулду).
model-fit-unchecked = { $name }: жүктөп алуудан мурун текшерилген жок: { $why }.
col-group = топ
device-backend = Backend
device-adapter = Адаптер
device-summary-done = Түзмөк жана өзүн-өзү текшерүү — { $summary }

## The run's one-page summary

button-summary-svg = Жыйынтык сүрөтү (SVG)
button-summary-print = Жыйынтыкты басып чыгаруу
summary-title = lingualens · { $task }
summary-headline = Тактык { $accuracy } (95% интервал { $low }–{ $high }) · { $total } суроонун { $done } суроосуна жооп берилди
summary-model = Модель: { $model } · backend: { $backend } · { $date }
summary-by = Талаа боюнча:
summary-positions = Модель кайсы вариантты тандады жана туура жооптор кайсы жерде болду
summary-chosen = тандалган
summary-gold-here = туура жооп ушул жерде
summary-more = … жана дагы { $n }

# The Experiment menu (page/suite.rs).
experiment-label = Же эксперимент (макалалардагыдай бир нече жүргүзүүнү салыштыруу)
experiment-none = жок: бир тапшырма
button-experiment = Экспериментти баштоо
suite-heading = Эксперимент
suite-progress = { $name }: { $runs } жүргүзүүнүн { $run }-жүргүзүүсү ({ $task }).
suite-stopped = { $name }: { $runs } жүргүзүүнүн { $done } бүттү; улантуу үчүн кайра баштаңыз.
suite-finished = { $name }: бардык { $runs } жүргүзүү бүттү.
button-suite-resume = Экспериментти улантуу
button-suite-forget = Экспериментти унутуу
suite-col-run = Жүргүзүү
suite-col-task = Тапшырма
suite-col-accuracy = Тактык, % (95 % интервал)
suite-col-items = Суроолор
suite-comparisons-heading = Салыштыруулар, суроо боюнча
suite-col-pair = B − A
suite-col-difference = Айырма, пункт (95 % интервал)
suite-col-flips = Туура A-да гана / B-да гана
suite-col-p = Так McNemar сыноосу, p
suite-swings-heading = Термелүү: эң жогорку тактык минус эң төмөнкү
suite-col-swing-name = Термелүү
suite-col-swing-runs = Жүргүзүүлөр боюнча
suite-col-swing = Пункт (95 % bootstrap интервал)
suite-not-in-menu = Эксперименттин { $run } жүргүзүүсүнө { $task } тапшырмасы керек, ал Тапшырма менюсунда азырынча жок: адегенде анын YAML файлын жана маалыматтарын «Менин файлдарым» бөлүмүнөн тандап, экспериментти кайра баштаңыз.
suite-wrong-task = Эксперименттин { $run } жүргүзүүсүнө { $task } тапшырмасы керек, ал эми сиз тандаган файлдар { $given } тапшырмасын аныктайт.
storage-not-kept = { $file } бул жүргүзүү үчүн колдонулду, бирок оффлайн колдонуу үчүн сакталган жок: { $reason }. Орун бошотуңуз (төмөндө сакталган моделди өчүрүңүз же браузердин жөндөөлөрүнөн бул сайттын маалыматтарын тазалаңыз), кийинки жүктөөдө ал сакталат.
suite-other-model = Бул эксперимент { $model } моделинде башталган; улантуу үчүн ошол моделди тандаңыз же экспериментти унутуңуз.
suite-unknown = { $name } деген эксперимент жок.
button-suite-json = Таблица (JSON)
button-suite-svg = Диаграмма (SVG)
button-suite-summary = Жыйынтык сүрөтү (SVG)
button-suite-print = Экспериментти басып чыгаруу
import-suite = Сакталган экспериментти ачуу
suite-opened = { $name }: { $file } файлынан ачылды, моделдер: { $models }.
suite-col-model = Модель
suite-runs-heading = Жүргүзүүлөр
suite-summary-title = lingualens · эксперимент { $name }
suite-summary-models = Моделдер: { $models } · { $date }
suite-summary-sample = Ар бир жүргүзүү ошол эле { $n } документти баалады, seed { $seed } менен кокус тандалган.
