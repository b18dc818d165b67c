# lingualens: the interface in Russian.
# This catalogue was machine-drafted by an AI model on 2026-12-02 from en.ftl and has not yet
# been reviewed by a native speaker. Corrections are welcome.
# Plural categories used (CLDR, Russian): one (1, 21, 31…), few (2–4, 22–24…),
# many (0, 5–20, 25–30…), other (fractions).
# Least sure: task-legend, setting-shots, order-rotations, button-export-jsonl, model-catalog-entry,
# col-greedy, col-uniform, fertility-heading, parallel-hint, status-finished-kept, classroom-votes-label.
#
# lingualens: интерфейс на русском языке.
# Этот каталог составлен машинным переводом (модель ИИ) 2026-12-02 на основе en.ftl и ещё не
# проверен носителем языка. Исправления приветствуются.
# Используемые категории множественного числа (CLDR): one (1, 21, 31…), few (2–4, 22–24…),
# many (0, 5–20, 25–30…), other (дробные числа).
# Наименее уверенные переводы: task-legend, setting-shots, order-rotations, button-export-jsonl,
# model-catalog-entry, col-greedy, col-uniform, fertility-heading, parallel-hint,
# status-finished-kept, classroom-votes-label.
# Added on 2026-12-03, machine-drafted like the rest and least sure too: model-on-server, kit-note, data-download, data-download-cache.

## Header and setup

language-label = Язык
tagline = Небольшие языковые модели, оценённые вопрос за вопросом на тестах на дзонг-кэ (རྫོང་ཁ), амхарском (አማርኛ), кыргызском (кыргызча) и других языках — прямо в браузере, без установки и без сервера.
status-loading = Загрузка…
setup-heading = Модель и тест
setup-hint = Выберите ниже или перетащите в любое место этого блока модель .gguf (или файлы модели Hugging Face) и файлы данных или YAML-файлы задачи.
model-legend = Модель
model-choose = Выбрать
model-file = или GGUF-файл на этом компьютере, или файлы модели Hugging Face (config.json, tokenizer.json, .safetensors)
model-folder = или папка модели Hugging Face
model-url = или URL-адрес
model-none = Модель не загружена.
cached-models = Сохранены в этом браузере для работы без интернета:
task-legend = Тест
task-label = Задача
task-demo = Демо: 21 вопрос на 6 языках
task-files = Мои файлы (ниже)
task-dzen-en-cloze = DZEN, вопросы на английском, оценивается текст каждого варианта (для небольших моделей; загружается 0,4 МБ)
task-dzen-dz-cloze = DZEN, вопросы на дзонг-кэ, оценивается текст каждого варианта (загружается 0,4 МБ)
task-dzen-dz-en-cloze = DZEN, дзонг-кэ с добавленным английским, оценивается текст каждого варианта (загружается 0,4 МБ)
task-dzen-en = DZEN, вопросы на английском (загружается 0,4 МБ, или укажите свои CSV)
task-dzen-dz = DZEN, вопросы на дзонг-кэ (загружается 0,4 МБ, или укажите свои CSV)
task-dzen-dz-en = DZEN, дзонг-кэ с добавленным английским переводом (загружается 0,4 МБ)
task-dzen-cot-en = DZEN, вопросы на английском, рассуждение по шагам после 5 решённых примеров (медленно; загружается 0,4 МБ)
task-dzen-cot-dz = DZEN, вопросы на дзонг-кэ, рассуждение по шагам на дзонг-кэ после 5 решённых примеров (медленно; загружается 0,4 МБ)
task-proverbeval-amh-choice-english = Амхарский: смысл, описания на английском
task-proverbeval-amh-choice-native = Амхарский: смысл, описания на амхарском
task-proverbeval-amh-fill = Амхарский: вставить пропущенное слово
task-proverbeval-amh-generation-english = Амхарский: пословица по описанию на английском
task-proverbeval-amh-generation-native = Амхарский: пословица по описанию на амхарском
task-group-dzen = DZEN (дзонг-кэ, английский)
task-group-proverbeval-amh = ProverbEval, амхарский (с GitHub и Hugging Face Hub)
task-proverbeval-orm-choice-english = Оромо: смысл, описания на английском
task-proverbeval-orm-choice-native = Оромо: смысл, описания на оромо
task-proverbeval-orm-fill = Оромо: вставить пропущенное слово
task-proverbeval-orm-generation-english = Оромо: пословица по описанию на английском
task-proverbeval-orm-generation-native = Оромо: пословица по описанию на оромо
task-group-proverbeval-orm = ProverbEval, оромо (с GitHub и Hugging Face Hub)
task-proverbeval-tir-choice-english = Тигринья: смысл, описания на английском
task-proverbeval-tir-choice-native = Тигринья: смысл, описания на тигринья
task-proverbeval-tir-fill = Тигринья: вставить пропущенное слово
task-proverbeval-tir-generation-english = Тигринья: пословица по описанию на английском
task-proverbeval-tir-generation-native = Тигринья: пословица по описанию на тигринья
task-group-proverbeval-tir = ProverbEval, тигринья (с GitHub и Hugging Face Hub)
task-proverbeval-gez-choice-english = Геэз: смысл, описания на английском
task-proverbeval-gez-choice-native = Геэз: смысл, описания на геэз
task-proverbeval-gez-fill = Геэз: вставить пропущенное слово
task-proverbeval-gez-generation-english = Геэз: пословица по описанию на английском
task-proverbeval-gez-generation-native = Геэз: пословица по описанию на геэз
task-group-proverbeval-gez = ProverbEval, геэз (с GitHub и Hugging Face Hub)
task-proverbeval-eng-choice-native = Английские пословицы: смысл, описания на английском
task-proverbeval-eng-fill = Английские пословицы: вставить пропущенное слово
task-proverbeval-eng-generation-native = Английские пословицы: пословица по описанию на английском
task-group-proverbeval-eng = ProverbEval, английский (с GitHub и Hugging Face Hub)
task-group-kyrgyzllm-mmlu = KyrgyzLLM-Bench, KyrgyzMMLU (с GitHub и Hugging Face Hub)
task-group-kyrgyzllm-rc = KyrgyzLLM-Bench, KyrgyzRC (с GitHub и Hugging Face Hub)
task-group-kyrgyzllm-hellaswag = KyrgyzLLM-Bench, HellaSwag на кыргызском (с GitHub и Hugging Face Hub)
task-group-kyrgyzllm-winogrande = KyrgyzLLM-Bench, WinoGrande на кыргызском (с Hugging Face Hub)
task-group-kyrgyzllm-truthfulqa = KyrgyzLLM-Bench, TruthfulQA на кыргызском (с GitHub и Hugging Face Hub)
task-group-kyrgyzllm-boolq = KyrgyzLLM-Bench, BoolQ на кыргызском (с GitHub и Hugging Face Hub)
task-kyrgyz-mmlu = Кыргызский: школьные вопросы по девяти предметам, варианты с буквами
task-kyrgyz-rc = Кыргызский: понимание прочитанного, текст и вопрос к нему
task-hellaswag-kg = Кыргызский: как продолжается обычное занятие (HellaSwag)
task-winogrande-kg = Кыргызский: к кому или чему относится пропуск (WinoGrande)
task-winogrande-kg-partial = Кыргызский: WinoGrande, оценивается только конец предложения
task-truthfulqa-kg = Кыргызский: верный ответ среди распространённых заблуждений (TruthfulQA)
task-boolq-kg = Кыргызский: да или нет по тексту (BoolQ)
task-kept = Сохранено в этом браузере для работы без интернета (файлов: { $files }, { $mb } МБ): задача работает без интернета.
task-download-size = Данные загружаются при первом запуске (файлов: { $files }, { $mb } МБ) и затем хранятся в этом браузере для работы без интернета.
task-download-unknown = Данные загружаются при первом запуске (файлов: { $files }, размер неизвестен) и затем хранятся в этом браузере для работы без интернета.
task-download-hub = Данные загружаются при первом запуске (файлы находятся на Hugging Face Hub так же, как их находит библиотека datasets) и затем хранятся в этом браузере для работы без интернета.
task-data-file = Файл данных (CSV, JSON, JSONL, Parquet), при желании вместе с YAML-файлом задачи lm-eval
task-data-folder = или папка с данными (для DZEN: папка, в которой лежат DZEN/ и DZEN-Few_Shots/)
setting-limit = Лимит
setting-shots = Примеры (shots)
setting-seed = Seed
setting-order = Порядок вариантов
order-given = как в данных
order-gold-first = верный первым
order-gold-last = верный последним
order-rotations = все циклические сдвиги
order-shuffles = 3 перемешивания по seed
setting-pace = Темп (мс на вопрос)
setting-sample = Случайная выборка
placeholder-all = все
placeholder-task = задача
filters-hint = Только вопросы, у которых (значения из последней подготовленной задачи; выборка зависит от seed):
button-run = Запустить
button-pause = Пауза
button-resume = Продолжить
button-cancel = Отменить и забыть
button-classroom = Режим класса
button-export-jsonl = Ответы JSONL
button-export-json = Результаты JSON
button-export-csv = CSV
import-run = Открыть сохранённый прогон
demo-note = Это встроенное демо: крошечная модель со случайными весами (models/demo, 0,2 млн параметров), поэтому она отвечает наугад — демо показывает, как проходит прогон, а не что знает модель. Чтобы проверить настоящую модель, выберите её из списка (она скачается с Hugging Face при запуске) или откройте GGUF-файл на этом компьютере.
model-demo = Демо-модель (случайные веса, 0,2 млн параметров, встроена в приложение)
# Модель из каталога в списке: её название, затем квантование, размер и лицензия.
model-catalog-entry = { $name } ({ $details }) — будет скачана
model-on-server = { $name } ({ $details }) — на этом сервере
kit-note = На этом сервере, для работы без интернета: { $benchmarks }. Их задачам файлы не нужны.
size-unknown = размер неизвестен
cache-delete = Удалить { $file } из кэша
cache-delete-button = Удалить

## Run table and analysis

run-heading = Прогон
run-nothing = Пока ничего не запускалось.
col-number = №
col-question = вопрос
col-options = варианты (вероятность по модели; верный ★)
col-result = итог
col-ms = мс
inspector-heading = Вопрос
inspector-hint = Точный промпт, с отмеченными границами токенов модели:
col-option = вариант
col-loglikelihood = log-likelihood
col-per-char = на символ
col-tokens = токены
col-greedy = greedy
breakdown-heading = По метаданным
col-field = поле
col-value = значение
col-n = n
col-accuracy = точность
bias-heading = Позиция варианта
col-position = позиция
col-gold-here = верный здесь
col-accuracy-when-gold = точность, когда верный здесь
col-chosen = выбран
col-uniform = равномерно
parallel-heading = Один и тот же вопрос на разных языках
parallel-hint = Вопросы из одной группы, связанные параллельной ссылкой или с id, которые различаются только окончанием /language (как в DZEN), — в этом прогоне и в сохранённых прогонах, открытых ниже. Откройте прогон DZEN на английском, прогон на дзонг-кэ и прогон с добавленным английским переводом (dz+en), чтобы увидеть их рядом. Последняя строка сравнивает столбцы на одних и тех же вопросах: на группах, у которых есть ответы во всех столбцах.
fertility-heading = Фертильность токенизатора
fertility-hint = Число токенов загруженной модели в вопросах и вариантах на каждом языке (без токена BOS). В дзонг-кэ слова не разделяются пробелами, поэтому сравнивайте его по слогам.
fertility-run = Посчитать токены
col-language = язык
col-texts = тексты
col-per-word = на слово
col-per-syllable = на слог
col-per-character = на символ
compare-heading = Сравнение с другим прогоном
compare-open = Открыть сохранённые прогоны (ответы JSONL), чтобы сравнить с этим
compare-hint = Вопросы сопоставляются по id с первым открытым прогоном; показаны только вопросы, в которых два прогона расходятся.
col-item = вопрос
col-run-a = этот прогон (A)
col-run-b = другой прогон (B)
device-summary = Устройство и самопроверка
device-heading = Устройство
selftest-heading = Самопроверка
selftest-hint = Произведение матриц и softmax вычисляются на этом устройстве и сравниваются с обычной арифметикой f64. Чтобы выбрать бэкенд, добавьте к адресу ?backend=cpu или ?backend=wgpu.
col-check = проверка
col-shape = размер
col-tolerance = допуск
col-device = устройство
col-reference = эталон
score-heading = Оценки
score-hint = Log-likelihood каждого варианта после контекста, по правилу lm-evaluation-harness (?model=URL&context=…&choice=…&choice=…).
col-choice = вариант

## Run summary and rows

# Отвечено $done из $total вопросов; $accuracy и интервал — проценты, уже отформатированные.
run-summary = Отвечено { $done } из { $total } · точность { $accuracy } (95%-й интервал { $low }–{ $high }) · задача { $task } · модель { $model }
run-summary-exact = Отвечено { $done } из { $total } · точное совпадение { $accuracy } (95%-й интервал { $low }–{ $high }) · задача { $task } · модель { $model }
run-summary-greedy = Отвечено { $done } из { $total } · жадные продолжения { $accuracy } (95%-й интервал { $low }–{ $high }) · задача { $task } · модель { $model }
run-summary-empty = Отвечено { $done } из { $total } · задача { $task }
run-summary-failed = { $n ->
    [one] { $n } вопрос с ошибкой (сбой рабочего процесса)
    [few] { $n } вопроса с ошибкой (сбой рабочего процесса)
    [many] { $n } вопросов с ошибкой (сбой рабочего процесса)
   *[other] { $n } вопроса с ошибкой (сбой рабочего процесса)
}
# The two settings' own words: the random sample's size and its seed.
run-sample = { setting-sample }: { $n } ({ setting-seed }: { $seed })
row-correct = ✓ верно
row-wrong = ✗ выбран { $chosen }, верный { $gold }
row-differs = ✗ расходится с эталоном
row-failed = ✗ ошибка
row-not-scored = Не оценено: сбой рабочего процесса ({ $message })
position-warning = Пока что модель выбрала вариант { $letter } в { $share } вопросов: её точность в основном показывает, как часто правильный ответ — { $letter }, а не что она знает. См. раздел о позиции варианта ниже.
position-warning-cloze = Пока что модель выбрала вариант { $letter } в { $share } вопросов: её точность в основном показывает, как часто правильный ответ — { $letter }, а не что она знает. Задача { $task } оценивает сам текст каждого варианта, а не его букву. См. раздел о позиции варианта ниже.
notes-more = … и ещё { $n }
yes = да
no = нет
verdict-right = ✓ верно
verdict-wrong = ✗ неверно
parallel-this-run = этот прогон
parallel-every-item = точность, все вопросы в группах
parallel-common = { $n ->
    [one] на { $n } группе во всех столбцах
    [few] на { $n } группах во всех столбцах
    [many] на { $n } группах во всех столбцах
   *[other] на { $n } группы во всех столбцах
}
# Доля от числа вопросов: «62% из 8».
share-of = { $share } из { $n }
compare-summary = { $n ->
    [one] По сравнению с { $name } (B), на { $n } вопросе, на который ответили оба: оба верно { $both_right } · оба неверно { $both_wrong } · верно только здесь (A) { $only_a } · верно только в B { $only_b }.
    [few] По сравнению с { $name } (B), на { $n } вопросах, на которые ответили оба: оба верно { $both_right } · оба неверно { $both_wrong } · верно только здесь (A) { $only_a } · верно только в B { $only_b }.
    [many] По сравнению с { $name } (B), на { $n } вопросах, на которые ответили оба: оба верно { $both_right } · оба неверно { $both_wrong } · верно только здесь (A) { $only_a } · верно только в B { $only_b }.
   *[other] По сравнению с { $name } (B), на { $n } вопроса, на которые ответили оба: оба верно { $both_right } · оба неверно { $both_wrong } · верно только здесь (A) { $only_a } · верно только в B { $only_b }.
}
compare-paired = B − A: { $points } п. п. (95 % интервал от { $lo } до { $hi }); точный тест Макнемара p = { $p }.
compare-unmatched = Вопросов только здесь: { $a }, только в B: { $b }
inspector-item = Вопрос { $number } · { $id }
inspector-other-languages = Тот же вопрос на других языках
inspector-tokens = { $n ->
    [one] { $n } токен, включая токен BOS модели.
    [few] { $n } токена, включая токен BOS модели.
    [many] { $n } токенов, включая токен BOS модели.
   *[other] { $n } токена, включая токен BOS модели.
}
inspector-tokens-split = { $n ->
    [one] { $n } токен, включая токен BOS модели; отметка внутри буквы — граница токена, которая разрезает символ.
    [few] { $n } токена, включая токен BOS модели; отметка внутри буквы — граница токена, которая разрезает символ.
    [many] { $n } токенов, включая токен BOS модели; отметка внутри буквы — граница токена, которая разрезает символ.
   *[other] { $n } токена, включая токен BOS модели; отметка внутри буквы — граница токена, которая разрезает символ.
}

## Status line

status-starting = Запуск рабочего процесса…
status-device = Инициализация устройства…
status-ready = Готово. Выберите модель и тест, затем нажмите «Запустить».
status-loading-model = Загрузка модели…
status-preparing = Подготовка задачи…
status-checking-fit = Проверяем, хватит ли памяти для модели…
status-running = Идёт прогон.
status-paused = На паузе.
status-finished = Готово.
status-finished-kept = { $n ->
    [one] Готово; { $n } ответ сохранился с прошлого раза (до перезагрузки).
    [few] Готово; { $n } ответа сохранились с прошлого раза (до перезагрузки).
    [many] Готово; { $n } ответов сохранились с прошлого раза (до перезагрузки).
   *[other] Готово; { $n } ответа сохранились с прошлого раза (до перезагрузки).
}
status-failed-items = { $n ->
    [one] { $n } вопрос не обработан (на нём произошёл сбой рабочего процесса) и не учитывается ни в одной метрике.
    [few] { $n } вопроса не обработаны (на них произошёл сбой рабочего процесса) и не учитываются ни в одной метрике.
    [many] { $n } вопросов не обработаны (на них произошёл сбой рабочего процесса) и не учитываются ни в одной метрике.
   *[other] { $n } вопроса не обработаны (на них произошёл сбой рабочего процесса) и не учитываются ни в одной метрике.
}
status-resumed = { $n ->
    [one] Продолжено: сохранился { $n } ответ с прошлого раза.
    [few] Продолжено: сохранились { $n } ответа с прошлого раза.
    [many] Продолжено: сохранились { $n } ответов с прошлого раза.
   *[other] Продолжено: сохранились { $n } ответа с прошлого раза.
}
status-notes = { $n ->
    [one] Под сводкой — { $n } замечание о данных.
    [few] Под сводкой — { $n } замечания о данных.
    [many] Под сводкой — { $n } замечаний о данных.
   *[other] Под сводкой — { $n } замечания о данных.
}
status-cancelled = Отменено; сохранённые ответы прогона удалены.
status-recovered-paused = Работа восстановлена после сбоя рабочего процесса; пауза.
status-recovered-running = Работа восстановлена после сбоя рабочего процесса; прогон идёт.
status-reloading-after-crash = Сбой рабочего процесса: модель загружается заново (из кэша), чтобы продолжить…
status-crash-item = Сбой рабочего процесса при оценке вопроса { $number }: { $message }
status-crash = Сбой рабочего процесса: { $message }
status-crash-goes-on = Процесс перезапущен; модель загружена снова, и прогон продолжается (вопрос отмечен как ошибочный).
status-crash-restart = Процесс перезапущен; запустите прогон снова, чтобы продолжить (полученные ответы сохранены).
status-not-saved = На вопрос { $number } получен ответ, но он не сохранён ({ $message }): после перезагрузки его оценят заново.
status-saved-run = Показан сохранённый прогон { $name }.
status-drop-reading = Чтение перетащенной папки { $names }…
status-drop-unused = Перетащенные файлы не использованы.
status-dropped = Добавлено: { $what }. Нажмите «Запустить», чтобы начать.
status-scored = { $n ->
    [one] Оценён { $n } вариант на { $backend }.
    [few] Оценены { $n } варианта на { $backend }.
    [many] Оценено { $n } вариантов на { $backend }.
   *[other] Оценено { $n } варианта на { $backend }.
}
status-not-fit = Модель не загружена: для неё не хватит памяти. Выберите другую.
status-model-failed = Модель не загружена; причина показана красным.
status-task-failed = Задача не подготовлена; причина показана красным.
model-loading = Загрузка…
model-reading-header = Чтение заголовка модели…
model-loaded = { $name }: { $architecture }, { $layers ->
    [one] { $layers } слой
    [few] { $layers } слоя
    [many] { $layers } слоёв
   *[other] { $layers } слоя
}, размер словаря { $vocab }.
model-not-loaded = Не загружена: { $message }
download-cache = Прочитано { $mb } МБ из кэша этого браузера (без скачивания). Загрузка…
download-done = Скачано { $mb } МБ, проверено. Загрузка…
download-progress-total = Скачивание: { $mb } из { $total } МБ · { $rate } МБ/с · осталось { $seconds } с
download-progress-rate = Скачивание: { $mb } МБ · { $rate } МБ/с
download-resumed = (продолжено с { $mb } МБ, сохранённых ранее)
data-download = Загрузка данных бенчмарка: { $name } (файл { $file } из { $files }): { $kb } из { $total } КБ
data-download-cache = Данные бенчмарка из хранилища браузера: { $name } (файл { $file } из { $files }, { $kb } КБ), проверены.

## Device panel

device-type = Тип устройства
device-kernel = Ядро умножения матриц Int8
device-threads = Потоки CPU на проход
device-fallback = Программный запасной адаптер
device-why-not-webgpu = Почему не WebGPU
device-calibration = Скорость, измеренная на этой модели
device-workers = Воркеры на CPU
selftest-matches = ✓ совпадает
selftest-differs = ✗ отличается
selftest-summary-passed = Самопроверка пройдена на { $device } за { $ms } мс
selftest-summary-failed = Самопроверка НЕ ПРОЙДЕНА на { $device } за { $ms } мс

## Classroom mode

classroom-heading = Класс
classroom-back = Назад
classroom-next = Дальше
classroom-close = Выйти из режима класса
classroom-votes-hint = Нажмите на ответ класса или введите, сколько учеников выбрали каждый вариант:
classroom-keys = Клавиши: → или Пробел — следующий шаг, ← — назад, 1–9 или A–I — ответ класса, Esc — выход.
classroom-progress = Вопрос { $number } из { $total }
classroom-step-question = Читаем вместе вопрос и варианты ответа.
classroom-step-class = Какой ответ выбирает класс? Нажмите на вариант или посчитайте голоса.
classroom-step-model-waiting = Модель ещё отвечает на этот вопрос…
classroom-class-chose = Класс выбрал { $letter }.
classroom-model-chose = Модель выбрала { $letter }.
classroom-gold-is = Правильный ответ — { $letter }.
classroom-score = Класс { $class } · Модель { $model } · из { $n ->
    [one] { $n } вопроса
    [few] { $n } вопросов
    [many] { $n } вопросов
   *[other] { $n } вопроса
}
classroom-votes-label = { $letter }: голосов
classroom-no-run = Сначала запустите прогон: в режиме класса его вопросы показываются по одному.
classroom-end = Это был последний вопрос.

## Dropped files, model checks, device panel

dropped-model-folder = папка модели { $folder } ({ $n ->
    [one] { $n } файл
    [few] { $n } файла
    [many] { $n } файлов
   *[other] { $n } файла
})
dropped-model = модель { $files }
dropped-benchmark = тест { $files }
dropped-benchmark-more = тест { $files } и ещё { $n }
dropped-not-used = не использовано: { $files }
dropped-not-used-more = не использовано: { $files } и ещё { $n }
model-refused-header = Не загружена: { $name } не поместится в память (прочитан только заголовок).
model-refused-folder = Не загружена: { $name } не поместится в память (прочитаны только config.json и заголовки safetensors).
model-fit-unchecked = { $name }: перед скачиванием не проверено: { $why }.
col-group = группа
device-backend = Бэкенд
device-adapter = Адаптер
device-summary-done = Устройство и самопроверка — { $summary }

## The run's one-page summary

button-summary-svg = Изображение сводки (SVG)
button-summary-print = Распечатать сводку
summary-title = lingualens · { $task }
summary-headline = Точность { $accuracy } (95%-й интервал { $low }–{ $high }) · отвечено { $done } из { $total }
summary-model = Модель: { $model } · бэкенд: { $backend } · { $date }
summary-by = По
summary-positions = Какой вариант выбирала модель и где были правильные ответы
summary-chosen = выбран
summary-gold-here = правильный ответ здесь
summary-more = … и ещё { $n }

# The Experiment menu (page/suite.rs).
experiment-label = Или эксперимент (несколько прогонов в сравнении, как в статьях)
experiment-none = нет: одна задача
button-experiment = Запустить эксперимент
suite-heading = Эксперимент
suite-progress = { $name }: прогон { $run } из { $runs } ({ $task }).
suite-stopped = { $name }: закончено прогонов: { $done } из { $runs }; продолжите, чтобы идти дальше.
suite-finished = { $name }: все прогоны ({ $runs }) закончены.
button-suite-resume = Продолжить эксперимент
button-suite-forget = Забыть эксперимент
suite-col-run = Прогон
suite-col-task = Задача
suite-col-accuracy = Точность, % (95 % интервал)
suite-col-items = Вопросы
suite-comparisons-heading = Сравнения, вопрос за вопросом
suite-col-pair = B − A
suite-col-difference = Разница, п. п. (95 % интервал)
suite-col-flips = Верно только в A / только в B
suite-col-p = Точный тест Макнемара, p
suite-swings-heading = Размах: наибольшая точность минус наименьшая
suite-col-swing-name = Размах
suite-col-swing-runs = По прогонам
suite-col-swing = П. п. (95 % бутстрэп-интервал)
suite-not-in-menu = Прогону { $run } эксперимента нужна задача { $task }, которой пока нет в меню задач: сначала выберите её YAML и данные в разделе «Мои файлы», затем запустите эксперимент снова.
suite-wrong-task = Прогону { $run } эксперимента нужна задача { $task }, а выбранные файлы задают { $given }.
storage-not-kept = { $file } используется в этом прогоне, но не сохранён для работы офлайн: { $reason }. Освободите место (удалите сохранённую модель ниже или очистите данные этого сайта в настройках браузера), и при следующей загрузке он сохранится.
suite-other-model = Этот эксперимент начат на модели { $model }; выберите её, чтобы продолжить, или забудьте эксперимент.
suite-unknown = Эксперимента { $name } нет.
button-suite-json = Таблица (JSON)
button-suite-svg = Диаграмма (SVG)
button-suite-summary = Изображение сводки (SVG)
button-suite-print = Распечатать эксперимент
import-suite = Открыть сохранённый эксперимент
suite-opened = { $name }: открыт из { $file }, моделей: { $models }.
suite-col-model = Модель
suite-runs-heading = Прогоны
suite-summary-title = lingualens · эксперимент { $name }
suite-summary-models = Модели: { $models } · { $date }
suite-summary-sample = Каждый прогон оценил одни и те же { $n } документов, выбранных случайно с seed { $seed }.
