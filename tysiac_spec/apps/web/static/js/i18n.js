// The page's words in English, Polish, Russian and Czech. The server may send its own words
// (the rule book's terms); those win over this small dictionary. t("key", {n: 3}) fills {n}.

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
  dealer: ["dealer", "rozdaje", "сдаёт", "rozdává"],
  received: ["given to you", "otrzymana", "получена", "dostaná"],
  sits_out: ["sits out", "pauzuje", "на прикупе", "nehraje"],
  declarer: ["declarer", "rozgrywający", "разыгрывающий", "hráč"],
  contract: ["Contract", "Kontrakt", "Контракт", "Závazek"],
  trump: ["Trump", "Atut", "Козырь", "Trumf"],
  no_trump: ["no trump", "bez atutu", "без козыря", "bez trumfu"],
  talon: ["Talon", "Musik", "Прикуп", "Talon"],
  trick: ["Trick", "Lewa", "Взятка", "Štych"],
  tricks: ["tricks", "lewy", "взятки", "štychy"],
  hand: ["Your hand", "Twoje karty", "Ваши карты", "Vaše karty"],
  cards_n: ["{n} cards", "kart: {n}", "карт: {n}", "karet: {n}"],
  bids: ["Bids", "Licytacja", "Торговля", "Dražba"],
  score: ["Score", "Wynik", "Счёт", "Skóre"],
  scores: ["Scores", "Wyniki", "Очки", "Body"],
  deal_n: ["Deal {n}", "Rozdanie {n}", "Раздача {n}", "Rozdání {n}"],
  deal_over: ["Deal over", "Koniec rozdania", "Раздача окончена", "Konec rozdání"],
  deal_over_n: ["Deal {n} is over", "Koniec rozdania {n}", "Раздача {n} окончена", "Konec rozdání {n}"],
  match_over: ["Match over", "Koniec partii", "Партия окончена", "Konec partie"],
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
  // actions
  "act.bid": ["Bid {n}", "Licytuj {n}", "Заказать {n}", "Dražit {n}"],
  "act.pass": ["Pass", "Pas", "Пас", "Pas"],
  "act.talon": ["Take talon {n}", "Weź musik {n}", "Взять прикуп {n}", "Vzít talon {n}"],
  "act.take_talon": ["Take the talon", "Weź musik", "Взять прикуп", "Vzít talon"],
  "act.give": ["Give {card} to {name}", "Daj {card} graczowi {name}", "Отдать {card}: {name}", "Dát {card}: {name}"],
  "act.give_to": ["Give to {name}", "Daj: {name}", "Отдать: {name}", "Dát: {name}"],
  "act.discard": ["Discard {card}", "Odłóż {card}", "Сбросить {card}", "Odhodit {card}"],
  "act.contract": ["Play for {n}", "Gram za {n}", "Играю {n}", "Hraji za {n}"],
  "act.play": ["Play {card}", "Zagraj {card}", "Сыграть {card}", "Zahrát {card}"],
  "act.play_marriage": ["Play {card} and declare the marriage", "Zagraj {card} i melduj",
    "Сыграть {card} с марьяжем", "Zahrát {card} a hlásit"],
  "act.play_aces": ["Play {card}, the aces' marriage", "Zagraj {card}, meldunek asów",
    "Сыграть {card}, тузовый марьяж", "Zahrát {card}, hláška es"],
  "act.marriage": ["Declare the marriage in {suit}", "Melduj {suit}", "Объявить марьяж: {suit}",
    "Hlásit: {suit}"],
  "act.forfeit": ["Give up the deal", "Poddaj rozdanie", "Расписать", "Vzdát rozdání"],
  "act.dark": ["Play dark", "Gram w ciemno", "Играть втёмную", "Hrát naslepo"],
  "act.cancel dark": ["Cancel the dark game", "Anuluj grę w ciemno", "Отменить тёмную", "Zrušit hru naslepo"],
  "act.claim": ["Claim the rest", "Reszta moja", "Остальное моё", "Zbytek je můj"],
  "act.redeal": ["Ask for a redeal", "Żądaj ponownego rozdania", "Требовать пересдачи", "Žádat nové rozdání"],
  "act.contra": ["Contra", "Kontra", "Контра", "Kontra"],
  "act.redouble": ["Redouble", "Rekontra", "Реконтра", "Rekontra"],
  "act.buy": ["Buy the contract", "Odkup kontrakt", "Выкупить", "Koupit závazek"],
  "act.named": ["Bid {kind}", "Licytuj {kind}", "Заказать {kind}", "Dražit {kind}"],
  "act.more_bids": ["Other bid…", "Inna stawka…", "Другая ставка…", "Jiná dražba…"],
  choose_card: ["Choose a card in your hand", "Wybierz kartę z ręki", "Выберите карту из руки",
    "Vyberte kartu z ruky"],
  // what others did (live region, history)
  "said.bid": ["{name} bids {n}", "{name}: {n}", "{name}: {n}", "{name}: {n}"],
  "said.pass": ["{name} passes", "{name}: pas", "{name}: пас", "{name}: pas"],
  "said.play": ["{name} plays {card}", "{name} zagrywa {card}", "{name} ходит: {card}", "{name} hraje {card}"],
  "said.play_marriage": ["{name} plays {card} and declares the marriage", "{name} zagrywa {card} z meldunkiem",
    "{name} ходит: {card}, марьяж", "{name} hraje {card} a hlásí"],
  "said.other": ["{name}: {text}", "{name}: {text}", "{name}: {text}", "{name}: {text}"],
  "said.hidden": ["{name} gives a card to {to}", "{name} daje kartę graczowi {to}", "{name} отдаёт карту: {to}",
    "{name} dává kartu: {to}"],
  "said.give": ["{name} gives {card} to {to}", "{name} daje {card} graczowi {to}", "{name} отдаёт {card}: {to}",
    "{name} dává {card}: {to}"],
  "said.discard_hidden": ["{name} discards a card", "{name} odkłada kartę", "{name} сбрасывает карту",
    "{name} odhazuje kartu"],
  tap_twice: ["Tap a card twice to play it", "Zagrywaj kartę dwoma dotknięciami", "Ходить картой двойным касанием",
    "Hrát kartu dvojím klepnutím"],
  settings: ["Settings", "Ustawienia", "Настройки", "Nastavení"],
  took_trick: ["{name} takes the trick", "{name} bierze lewę", "{name} берёт взятку", "{name} bere štych"],
  // phases
  "phase.auction": ["Auction", "Licytacja", "Торговля", "Dražba"],
  "phase.talon": ["Talon", "Musik", "Прикуп", "Talon"],
  "phase.exchange": ["Giving cards", "Rozdawanie kart", "Раздача карт", "Rozdávání karet"],
  "phase.contract": ["Declaring the contract", "Ustalanie kontraktu", "Объявление контракта", "Určení závazku"],
  "phase.play": ["Play", "Rozgrywka", "Розыгрыш", "Hra"],
  "phase.contra": ["Contra", "Kontra", "Контра", "Kontra"],
  "phase.rebuy": ["Buying the contract", "Odkupienie", "Выкуп", "Výkup"],
  "phase.marriages": ["Marriages", "Meldunki", "Марьяжи", "Hlášky"],
  "phase.over": ["Match over", "Koniec partii", "Партия окончена", "Konec partie"],
  // events
  "ev.contract.made": ["{name} made the contract ({value})", "{name} ugrał kontrakt ({value})",
    "{name} сыграл контракт ({value})", "{name} splnil závazek ({value})"],
  "ev.contract.failed": ["{name} failed the contract ({value})", "{name} nie ugrał kontraktu ({value})",
    "{name} не сыграл контракт ({value})", "{name} nesplnil závazek ({value})"],
  "ev.forfeit": ["{name} gave up the deal ({value})", "{name} poddał rozdanie ({value})",
    "{name} расписал раздачу ({value})", "{name} vzdal rozdání ({value})"],
  "ev.barrel.enter": ["{name} is on the barrel", "{name} wchodzi na beczkę", "{name} на бочке", "{name} je na sudu"],
  "ev.barrel.fall": ["{name} fell off the barrel", "{name} spada z beczki", "{name} слетел с бочки",
    "{name} spadl ze sudu"],
  "ev.barrel.leave": ["{name} leaves the barrel", "{name} schodzi z beczki", "{name} уходит с бочки",
    "{name} opouští sud"],
  "ev.bolt": ["{name} gets a bolt ({value})", "{name} dostaje kreskę ({value})", "{name} получает болт ({value})",
    "{name} dostává čárku ({value})"],
  "ev.bolt.penalty": ["{name}: bolt penalty ({value})", "{name}: kara za kreski ({value})",
    "{name}: штраф за болты ({value})", "{name}: trest za čárky ({value})"],
  "ev.match.won": ["{name} wins the match ({value})", "{name} wygrywa partię ({value})",
    "{name} выигрывает партию ({value})", "{name} vyhrává partii ({value})"],
  "ev.redeal": ["The cards are dealt again", "Karty rozdane ponownie", "Пересдача", "Karty se rozdávají znovu"],
  "ev.golden.end": ["The golden round is over", "Koniec złotej rundy", "Золотой круг окончен", "Zlaté kolo skončilo"],
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

/** Words from the server for the current language ({key: text}); they win over ours. */
export function setServerWords(words) {
  server = words && typeof words === "object" ? words : {};
}

export function has(key) {
  return typeof server[key] === "string" || key in WORDS;
}

export function t(key, vars = {}) {
  let text = typeof server[key] === "string" ? server[key] : WORDS[key]?.[LANGS.indexOf(lang)] ?? WORDS[key]?.[0];
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
