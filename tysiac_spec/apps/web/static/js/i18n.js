// The pages' interface words in English, Polish, Russian and Czech: the one dictionary of the
// start, table, scoresheet and workbench pages (buttons, "your turn"). Game words (actions, phases,
// events, option names, contract kinds) are not here: the server sends them from the rule
// book's terms (tysiac_spec/docs/terms.py) in the welcome frame, setServerWords(), and
// they win over this dictionary. t("key", {n: 3}) fills {n}.

export const LANGS = ["en", "pl", "ru", "cs"];
export const LANG_NAMES = { en: "English", pl: "Polski", ru: "Русский", cs: "Čeština" };

// key: [en, pl, ru, cs]
const WORDS = {
  title: ["Thousand", "Tysiąc", "Тысяча", "Tisícovka"],
  new_table: ["New table", "Nowy stół", "Новый стол", "Nový stůl"],
  ruleset: ["Rules", "Zasady", "Правила", "Pravidla"],
  shipped: ["Shipped rules", "Gotowe zasady", "Готовые правила", "Hotová pravidla"],
  rule_book: ["rule book", "zasady", "правила", "pravidla"],
  house_file: ["Own house-rule file", "Własny plik zasad domowych", "Свой файл домашних правил",
    "Vlastní soubor domácích pravidel"],
  house_hint: ["Paste the YAML or choose a file.", "Wklej YAML lub wybierz plik.",
    "Вставьте YAML или выберите файл.", "Vložte YAML nebo vyberte soubor."],
  choose_file: ["Choose a file", "Wybierz plik", "Выбрать файл", "Vybrat soubor"],
  check: ["Check the file", "Sprawdź plik", "Проверить файл", "Zkontrolovat soubor"],
  file_ok: ["The file is valid.", "Plik jest poprawny.", "Файл в порядке.", "Soubor je v pořádku."],
  players: ["Players", "Gracze", "Игроки", "Hráči"],
  n_players: ["{n} players", "{n} graczy", "{n} игрока", "{n} hráči"],
  options: ["Table options", "Opcje stołu", "Настройки стола", "Nastavení stolu"],
  no_options: ["This ruleset has no table options.", "Te zasady nie mają opcji stołu.",
    "У этих правил нет настроек стола.", "Tato pravidla nemají nastavení stolu."],
  default: ["default", "domyślnie", "по умолчанию", "výchozí"],
  seats: ["Seats", "Miejsca", "Места", "Místa"],
  seat_n: ["Seat {n}", "Miejsce {n}", "Место {n}", "Místo {n}"],
  name: ["Name", "Imię", "Имя", "Jméno"],
  human: ["person", "człowiek", "человек", "člověk"],
  "bot:random": ["bot: random", "bot: losowy", "бот: случайный", "bot: náhodný"],
  "bot:heuristic": ["bot: heuristic", "bot: heurystyczny", "бот: эвристический", "bot: heuristický"],
  bot: ["bot", "bot", "бот", "bot"],
  spectators: ["Allow watchers", "Pozwól oglądać", "Разрешить зрителей", "Povolit diváky"],
  chat_on: ["Table chat", "Czat przy stole", "Чат стола", "Chat u stolu"],
  hints_on: ["Hints (the strong bot's advice)", "Podpowiedzi (rada silnego bota)", "Подсказки (совет сильного бота)",
    "Nápověda (rada silného bota)"],
  hint: ["Hint", "Podpowiedź", "Подсказка", "Nápověda"],
  hint_says: ["Hint: {text}", "Podpowiedź: {text}", "Подсказка: {text}", "Nápověda: {text}"],
  create: ["Create the table", "Utwórz stół", "Создать стол", "Vytvořit stůl"],
  creating: ["Creating…", "Tworzenie…", "Создание…", "Vytváření…"],
  links: ["Links", "Linki", "Ссылки", "Odkazy"],
  links_hint: ["Send each player their own link: it is their seat's key. Keep the host link.",
    "Wyślij każdemu graczowi jego link: to klucz do jego miejsca. Zachowaj link gospodarza.",
    "Отправьте каждому игроку его ссылку: это ключ к его месту. Сохраните ссылку хозяина.",
    "Pošlete každému hráči jeho odkaz: je to klíč k jeho místu. Odkaz hostitele si nechte."],
  host_plays: ["You play", "Ty grasz", "Вы играете", "Vy hrajete"],
  host_watches: ["no seat: I only host", "żadne miejsce: tylko prowadzę", "никакое место: я только веду стол",
    "žádné místo: jen hostím"],
  host_link: ["Host link", "Link gospodarza", "Ссылка хозяина", "Odkaz hostitele"],
  watch_link: ["Watch link", "Link dla widzów", "Ссылка для зрителей", "Odkaz pro diváky"],
  seat_link: ["Link for seat {n}", "Link dla miejsca {n}", "Ссылка для места {n}", "Odkaz pro místo {n}"],
  watch_off: ["watchers are off until the host allows them at the table",
    "widzowie wyłączeni, dopóki gospodarz ich nie wpuści", "зрители выключены, пока хозяин их не разрешит",
    "diváci jsou vypnuti, dokud je hostitel nepovolí"],
  open: ["Open", "Otwórz", "Открыть", "Otevřít"],
  copy: ["Copy", "Kopiuj", "Копировать", "Kopírovat"],
  copied: ["Copied", "Skopiowano", "Скопировано", "Zkopírováno"],
  show_qr: ["QR code", "Kod QR", "QR-код", "QR kód"],
  play_here: ["Play at this seat", "Graj na tym miejscu", "Играть на этом месте", "Hrát na tomto místě"],
  language: ["Language", "Język", "Язык", "Jazyk"],
  error: ["Error", "Błąd", "Ошибка", "Chyba"],
  // table
  you: ["you", "ty", "вы", "vy"],
  your_turn: ["Your turn", "Twój ruch", "Ваш ход", "Jste na tahu"],
  waiting_for: ["Waiting for {name}", "Czekamy na: {name}", "Ждём: {name}", "Čeká se na: {name}"],
  connected: ["connected", "połączony", "в сети", "připojen"],
  disconnected: ["disconnected", "rozłączony", "не в сети", "odpojen"],
  received: ["given to you", "otrzymana", "получена", "dostaná"],
  hand: ["Your hand", "Twoje karty", "Ваши карты", "Vaše karty"],
  cards_n: ["{n} cards", "kart: {n}", "карт: {n}", "karet: {n}"],
  score: ["Score", "Wynik", "Счёт", "Skóre"],
  scores: ["Scores", "Wyniki", "Очки", "Body"],
  deal_n: ["Deal {n}", "Rozdanie {n}", "Раздача {n}", "Rozdání {n}"],
  deal_over: ["Deal over", "Koniec rozdania", "Раздача окончена", "Konec rozdání"],
  deal_over_n: ["Deal {n} is over", "Koniec rozdania {n}", "Раздача {n} окончена", "Konec rozdání {n}"],
  match_over: ["Match over", "Koniec partii", "Партия окончена", "Konec partie"],
  abandoned: ["The match is abandoned:", "Partia przerwana:", "Партия прервана:", "Partie přerušena:"],
  winner: ["Winner: {name}", "Wygrywa: {name}", "Победитель: {name}", "Vítěz: {name}"],
  continue: ["Continue", "Dalej", "Дальше", "Pokračovat"],
  rematch: ["Rematch", "Rewanż", "Реванш", "Odveta"],
  rematch_asked: ["Rematch asked; waiting for the others", "Poproszono o rewanż; czekamy na resztę",
    "Реванш предложен; ждём остальных", "Odveta navržena; čeká se na ostatní"],
  chat: ["Chat", "Czat", "Чат", "Chat"],
  send: ["Send", "Wyślij", "Отправить", "Odeslat"],
  chat_placeholder: ["Say something", "Napisz coś", "Напишите что-нибудь", "Napište něco"],
  reconnecting: ["Connection lost; reconnecting…", "Utracono połączenie; łączę ponownie…",
    "Связь потеряна; переподключение…", "Spojení ztraceno; znovu se připojuji…"],
  connecting: ["Connecting…", "Łączenie…", "Подключение…", "Připojování…"],
  no_token: ["This link opens no seat at this table. Open the link you were sent.",
    "Ten link nie otwiera żadnego miejsca przy tym stole. Otwórz link, który dostałeś.",
    "Эта ссылка не открывает места за этим столом. Откройте присланную ссылку.",
    "Tento odkaz neotevírá žádné místo u tohoto stolu. Otevřete odkaz, který jste dostali."],
  replaced: ["This seat was opened in another tab or device.", "To miejsce otwarto w innej karcie lub na innym urządzeniu.",
    "Это место открыто в другой вкладке или на другом устройстве.", "Toto místo bylo otevřeno v jiné kartě nebo zařízení."],
  forbidden: ["This link is not valid for this table.", "Ten link nie pasuje do tego stołu.",
    "Эта ссылка не подходит к этому столу.", "Tento odkaz k tomuto stolu nepatří."],
  no_table: ["There is no such table.", "Nie ma takiego stołu.", "Такого стола нет.", "Takový stůl neexistuje."],
  watching: ["You are watching.", "Oglądasz.", "Вы зритель.", "Díváte se."],
  keyboard_hint: [
    "Keys: type a card (QH) or an action, Enter to play; arrows move along the hand; h, t, s, l, w read the hand, the trick, the scores, the legal moves, whose turn.",
    "Klawisze: wpisz kartę (QH) lub akcję, Enter; strzałki przesuwają po kartach; h, t, s, l, w czytają rękę, lewę, wyniki, możliwe ruchy, czyj ruch.",
    "Клавиши: наберите карту (QH) или действие, Enter; стрелки — по картам; h, t, s, l, w читают руку, взятку, счёт, возможные ходы, чей ход.",
    "Klávesy: napište kartu (QH) nebo akci, Enter; šipky po kartách; h, t, s, l, w přečtou ruku, štych, skóre, možné tahy, kdo je na tahu."],
  command: ["Card or action", "Karta lub akcja", "Карта или действие", "Karta nebo akce"],
  not_legal: ["Not possible now: {text}", "Teraz niemożliwe: {text}", "Сейчас нельзя: {text}", "Teď nelze: {text}"],
  actions: ["Your move", "Twój ruch", "Ваш ход", "Váš tah"],
  history: ["What happened", "Przebieg", "Ход игры", "Průběh"],
  seat_to_bot: ["Give the seat to a bot", "Oddaj miejsce botowi", "Отдать место боту", "Dát místo botovi"],
  seat_to_human: ["Give the seat back", "Oddaj miejsce graczowi", "Вернуть место игроку", "Vrátit místo hráči"],
  rename: ["Your name", "Twoje imię", "Ваше имя", "Vaše jméno"],
  save: ["Save", "Zapisz", "Сохранить", "Uložit"],
  record: ["Download the record", "Pobierz zapis", "Скачать запись", "Stáhnout záznam"],
  cancel: ["Cancel", "Anuluj", "Отмена", "Zrušit"],
  choose_card: ["Choose a card in your hand", "Wybierz kartę z ręki", "Выберите карту из руки",
    "Vyberte kartu z ruky"],
  tap_twice: ["Tap a card twice to play it", "Zagrywaj kartę dwoma dotknięciami", "Ходить картой двойным касанием",
    "Hrát kartu dvojím klepnutím"],
  settings: ["Settings", "Ustawienia", "Настройки", "Nastavení"],
  // the scoresheet page (sheet.js)
  "sheet.title": ["Scoresheet", "Zapis gry", "Запись игры", "Zápis hry"],
  "sheet.new_sheet": ["New scoresheet", "Nowy zapis", "Новая запись", "Nový zápis"],
  "sheet.intro": ["Keep the score of a game played with real cards: the deals are settled by the rules you choose.",
    "Zapisuj wyniki gry prawdziwymi kartami: rozdania rozlicza wybrany zestaw zasad.",
    "Ведите счёт игры настоящими картами: раздачи считаются по выбранным правилам.",
    "Zapisujte skóre hry skutečnými kartami: rozdání vyúčtují zvolená pravidla."],
  "sheet.ruleset": ["Rules", "Zasady", "Правила", "Pravidla"],
  "sheet.players": ["Players", "Gracze", "Игроки", "Hráči"],
  "sheet.names": ["Names", "Imiona", "Имена", "Jména"],
  "sheet.player_n": ["Player {n}", "Gracz {n}", "Игрок {n}", "Hráč {n}"],
  "sheet.first_dealer": ["First dealer", "Pierwszy rozdający", "Первый сдающий", "První rozdává"],
  "sheet.start": ["Start the sheet", "Zacznij zapis", "Начать запись", "Začít zápis"],
  "sheet.house_file": ["Or your own house-rule file (YAML)", "Lub własny plik zasad domowych (YAML)",
    "Или свой файл домашних правил (YAML)", "Nebo vlastní soubor domácích pravidel (YAML)"],
  "sheet.clear": ["Use the shipped rules", "Użyj gotowych zasad", "Взять готовые правила", "Použít hotová pravidla"],
  "sheet.open_file": ["Or open a sheet file (tysiac score --sheet)", "Lub otwórz plik zapisu (tysiac score --sheet)",
    "Или откройте файл записи (tysiac score --sheet)", "Nebo otevřete soubor zápisu (tysiac score --sheet)"],
  "sheet.deal_n": ["Deal {n}", "Rozdanie {n}", "Раздача {n}", "Rozdání {n}"],
  "sheet.deals": ["Deals", "Rozdania", "Раздачи", "Rozdání"],
  "sheet.deals_by": ["{name} deals", "Rozdaje {name}", "Сдаёт {name}", "Rozdává {name}"],
  "sheet.sits_out": ["{name} sits out", "{name} pauzuje", "{name} пропускает", "{name} stojí"],
  "sheet.next": ["Next", "Dalej", "Далее", "Dál"],
  "sheet.yes": ["Yes", "Tak", "Да", "Ano"],
  "sheet.no": ["No", "Nie", "Нет", "Ne"],
  "sheet.nobody": ["nobody (all passed)", "nikt (wszyscy pas)", "никто (все пас)", "nikdo (všichni pas)"],
  "sheet.none": ["none", "brak", "нет", "žádné"],
  "sheet.as_bid": ["as bid", "jak licytacja", "как заказ", "jako licitace"],
  "sheet.empty": ["(empty)", "(puste)", "(пусто)", "(prázdné)"],
  "sheet.add_deal": ["Add deal {n}", "Dodaj rozdanie {n}", "Добавить раздачу {n}", "Přidat rozdání {n}"],
  "sheet.restart_deal": ["Start the deal over", "Od nowa", "Заново", "Znovu"],
  "sheet.all_answered": ["Every question is answered. Check and add the deal:",
    "Wszystko podane. Sprawdź i dodaj rozdanie:", "Все ответы даны. Проверьте и добавьте раздачу:",
    "Vše zadáno. Zkontrolujte a přidejte rozdání:"],
  "sheet.undo": ["Remove the last deal", "Usuń ostatnie rozdanie", "Удалить последнюю раздачу", "Odebrat poslední rozdání"],
  "sheet.undo_confirm": ["Tap again to remove deal {n}", "Dotknij ponownie, by usunąć rozdanie {n}",
    "Нажмите ещё раз, чтобы удалить раздачу {n}", "Klepněte znovu pro odebrání rozdání {n}"],
  "sheet.export": ["Save the sheet file", "Zapisz plik zapisu", "Сохранить файл записи", "Uložit soubor zápisu"],
  "sheet.import": ["Replace by a sheet file", "Zastąp plikiem zapisu", "Заменить файлом записи", "Nahradit souborem zápisu"],
  "sheet.share": ["Read-only link for the other players", "Link tylko do odczytu dla innych graczy",
    "Ссылка только для просмотра для других игроков", "Odkaz jen pro čtení pro ostatní hráče"],
  "sheet.copy": ["Copy", "Kopiuj", "Копировать", "Kopírovat"],
  "sheet.copied": ["Copied", "Skopiowano", "Скопировано", "Zkopírováno"],
  "sheet.keep_link": ["This page's address is the edit link: keep it, and share only the read-only link.",
    "Adres tej strony to link do edycji: zachowaj go, udostępniaj tylko link do odczytu.",
    "Адрес этой страницы — ссылка для записи: сохраните её, делитесь только ссылкой для просмотра.",
    "Adresa této stránky je odkaz pro úpravy: uschovejte ji a sdílejte jen odkaz pro čtení."],
  "sheet.read_only": ["Read-only: the scorekeeper's phone enters the deals; this page follows the sheet.",
    "Tylko odczyt: rozdania wpisuje telefon zapisującego; ta strona śledzi zapis.",
    "Только просмотр: раздачи вводит телефон ведущего; эта страница следит за записью.",
    "Jen pro čtení: rozdání zadává telefon zapisovatele; tato stránka zápis sleduje."],
  "sheet.stale": ["Deal not added: the sheet was changed on another phone meanwhile. It has been reloaded; enter deal {n} again.",
    "Nie dodano rozdania: zapis zmieniono w międzyczasie na innym telefonie. Wczytano go ponownie; wpisz rozdanie {n} jeszcze raz.",
    "Раздача не добавлена: запись тем временем изменили на другом телефоне. Она загружена заново; введите раздачу {n} ещё раз.",
    "Rozdání nepřidáno: zápis byl mezitím změněn na jiném telefonu. Byl znovu načten; zadejte rozdání {n} znovu."],
  "sheet.new_rules": ["Go on under the new rules from the next deal", "Graj dalej według nowych zasad od następnego rozdania",
    "Продолжить по новым правилам со следующей раздачи", "Pokračovat podle nových pravidel od dalšího rozdání"],
  "sheet.went_on": ["The sheet goes on under the new rules; the deals so far keep their scores.",
    "Zapis toczy się dalej według nowych zasad; dotychczasowe rozdania zachowują wyniki.",
    "Запись продолжается по новым правилам; прежние раздачи сохраняют свои очки.",
    "Zápis pokračuje podle nových pravidel; dosavadní rozdání si ponechávají skóre."],
  "sheet.added": ["Deal {n} added.", "Dodano rozdanie {n}.", "Раздача {n} добавлена.", "Rozdání {n} přidáno."],
  "sheet.removed": ["Deal {n} removed.", "Usunięto rozdanie {n}.", "Раздача {n} удалена.", "Rozdání {n} odebráno."],
  "sheet.imported": ["The sheet file was read.", "Wczytano plik zapisu.", "Файл записи прочитан.", "Soubor zápisu načten."],
  "sheet.wins": ["{name} wins the match.", "{name} wygrywa partię.", "{name} выигрывает партию.", "{name} vyhrává partii."],
  "sheet.no_deals": ["No deals yet.", "Jeszcze nie ma rozdań.", "Раздач пока нет.", "Zatím žádná rozdání."],
  "sheet.total": ["Total", "Suma", "Итого", "Celkem"],
  "sheet.offline": ["The server could not be reached; try again.", "Brak połączenia z serwerem; spróbuj ponownie.",
    "Сервер недоступен; попробуйте ещё раз.", "Server není dostupný; zkuste to znovu."],
  "sheet.tables": ["Play at a table", "Zagraj przy stole", "Играть за столом", "Hrát u stolu"],
  // the house-rule workbench (workbench.js, as w("key"))
  "wb.title": ["House-rule workbench", "Warsztat zasad domowych", "Мастерская домашних правил", "Dílna domácích pravidel"],
  "wb.base": ["Base rules", "Zasady bazowe", "Базовые правила", "Základní pravidla"],
  "wb.id": ["File id", "Identyfikator pliku", "Идентификатор файла", "Identifikátor souboru"],
  "wb.name": ["Name", "Nazwa", "Название", "Název"],
  "wb.lang": ["Language", "Język", "Язык", "Jazyk"],
  "wb.only_changed": ["Show only what I changed", "Pokaż tylko zmienione", "Показать только изменённое", "Jen změněné"],
  "wb.yaml": ["House file (YAML)", "Plik zasad (YAML)", "Файл правил (YAML)", "Soubor pravidel (YAML)"],
  "wb.checking": ["Checking…", "Sprawdzanie…", "Проверка…", "Kontrola…"],
  "wb.ok": ["No errors: tysiac validate accepts this file.", "Bez błędów: tysiac validate przyjmuje ten plik.",
    "Ошибок нет: tysiac validate принимает файл.", "Bez chyb: tysiac validate soubor přijímá."],
  "wb.bad": ["{n} error(s)", "Błędy: {n}", "Ошибок: {n}", "Chyby: {n}"],
  "wb.download": ["Download YAML", "Pobierz YAML", "Скачать YAML", "Stáhnout YAML"],
  "wb.upload": ["Upload a file", "Wczytaj plik", "Загрузить файл", "Nahrát soubor"],
  "wb.save": ["Save under a link", "Zapisz pod linkiem", "Сохранить по ссылке", "Uložit pod odkazem"],
  "wb.saved": ["Saved: ", "Zapisano: ", "Сохранено: ", "Uloženo: "],
  "wb.play": ["Play it (with bots)", "Zagraj (z botami)", "Сыграть (с ботами)", "Hrát (s boty)"],
  "wb.book": ["Rule book", "Zasady", "Правила", "Pravidla"],
  "wb.diff": ["What differs from the base", "Czym różni się od bazy", "Отличия от базы", "Rozdíly oproti základu"],
  "wb.no_diff": ["Nothing differs from the base yet.", "Na razie nic się nie różni.", "Пока отличий нет.", "Zatím žádné rozdíly."],
  "wb.rule": ["Rule", "Zasada", "Правило", "Pravidlo"],
  "wb.set_by": ["set by table option {o}", "ustawia opcja stołu {o}", "задаётся настройкой стола {o}", "nastavuje volba stolu {o}"],
  "wb.none": ["— none —", "— brak —", "— нет —", "— žádné —"],
  "wb.yes": ["yes", "tak", "да", "ano"],
  "wb.no": ["no", "nie", "нет", "ne"],
  "wb.per_count": ["{n} players: {v}", "{n} graczy: {v}", "игроков {n}: {v}", "hráčů {n}: {v}"],
  "wb.per_count_note": ["(the base sets this per player count; this control does not change it: write {p} in the YAML)",
    "(baza ustala to osobno dla liczby graczy; ta kontrolka tego nie zmienia: wpisz {p} w YAML)",
    "(база задаёт это отдельно для числа игроков; этот элемент его не меняет: впишите {p} в YAML)",
    "(základ to určuje zvlášť pro počet hráčů; tento prvek to nemění: zapište {p} do YAML)"],
  "wb.not_in_form": ["Written in the YAML only: {p}", "Tylko w YAML: {p}", "Только в YAML: {p}", "Jen v YAML: {p}"],
  "wb.fix_first": ["Fix the errors first.", "Najpierw popraw błędy.", "Сначала исправьте ошибки.", "Nejdřív opravte chyby."],
  "wb.study": ["Study it (bots play both)", "Zbadaj (boty grają obie)", "Исследовать (боты играют оба)", "Prozkoumat (boti hrají obojí)"],
  "wb.matches": ["Matches per ruleset", "Partii na zestaw zasad", "Партий на правила", "Partií na pravidla"],
  "wb.study_queued": ["Waiting: {n} ahead", "Czeka: {n} przed", "Ожидание: впереди {n}", "Čeká: před ní {n}"],
  "wb.study_running": ["Playing: {done} of {total} matches", "Gra: {done} z {total} partii", "Игра: {done} из {total} партий", "Hraje se: {done} z {total} partií"],
  "wb.study_done": ["Done: {n} matches each", "Gotowe: po {n} partii", "Готово: по {n} партий", "Hotovo: po {n} partiích"],
  "wb.study_page": ["The study page, with its plots", "Strona badania z wykresami", "Страница исследования с графиками", "Stránka studie s grafy"],
  "wb.figure": ["Figure", "Wielkość", "Показатель", "Ukazatel"],
  "wb.go_line": ["Go to line", "Przejdź do wiersza", "Перейти к строке", "Přejít na řádek"],
  "wb.not_found": ["No saved file with this link.", "Brak zapisanego pliku pod tym linkiem.", "Файл по ссылке не найден.", "Pod tímto odkazem nic není."],
  // the start page's footer links
  sheet_link: ["Keep the score of a game played with real cards: the scoresheet",
    "Zapisuj wyniki gry prawdziwymi kartami: zapis gry",
    "Ведите счёт игры настоящими картами: запись игры",
    "Zapisujte skóre hry skutečnými kartami: zápis hry"],
  workbench_link: ["Write your table's own rules, without code: the house-rule workbench",
    "Napisz własne zasady stołu, bez programowania: warsztat zasad domowych",
    "Напишите свои правила стола без программирования: мастерская домашних правил",
    "Napište si vlastní pravidla stolu bez programování: dílna domácích pravidel"],
};

let lang = pickLang();
let server = {};

function pickLang() {
  const saved = safeGet("tysiac.lang");
  if (saved && LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const two = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(two)) return two;
  }
  return "en";
}

function safeGet(k) {
  try { return localStorage.getItem(k); } catch { return null; }
}

export function getLang() {
  return lang;
}

export function setLang(l) {
  if (!LANGS.includes(l)) return;
  lang = l;
  try { localStorage.setItem("tysiac.lang", l); } catch { /* private mode */ }
  document.documentElement.lang = l;
}

/** Words from the server in every language ({lang: {key: text}}); they win over ours. */
export function setServerWords(words) {
  server = words && typeof words === "object" ? words : {};
}

function serverWord(key) {
  const mine = server[lang]?.[key];
  return typeof mine === "string" ? mine : server.en?.[key];
}

export function has(key) {
  return typeof serverWord(key) === "string" || key in WORDS;
}

export function t(key, vars = {}) {
  const said = serverWord(key);
  let text = typeof said === "string" ? said : WORDS[key]?.[LANGS.indexOf(lang)] ?? WORDS[key]?.[0];
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

/** A language picker: a <select> that calls onChange(lang). */
export function langSelect(onChange) {
  const sel = document.createElement("select");
  sel.id = "lang";
  sel.setAttribute("aria-label", "Language / Język / Язык / Jazyk");
  for (const l of LANGS) {
    const o = document.createElement("option");
    o.value = l;
    o.textContent = l.toUpperCase();
    o.setAttribute("aria-label", LANG_NAMES[l]);
    o.title = LANG_NAMES[l];
    if (l === lang) o.selected = true;
    sel.append(o);
  }
  sel.addEventListener("change", () => {
    setLang(sel.value);
    onChange(sel.value);
  });
  return sel;
}

/** A table option's name in the page's language, as /api/rulesets gives it (`label`: the
 * rule book's words); its id only when the server sent none. */
export function optionLabel(o) {
  return o.label?.[lang] || o.label?.en || o.name;
}

/** The words of a value of a table option (`values`: {"true" | "up" | …: {lang: text}}). */
export function valueLabel(o, value) {
  const words = o.values?.[String(value)];
  return words?.[lang] || words?.en || String(value);
}
