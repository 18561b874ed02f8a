// The table page: the seats round the table, the trick in the middle, the talon, the hand
// fanned at the bottom, the legal actions (and only those) as buttons and tappable cards,
// keyboard play, a live region that says each action, the deal summary and the match score
// table, chat, rematch, and a banner while the socket reconnects. Protocol: protocol.py.

import { h, fill, $ } from "./dom.js";
import { t, getLang, setLang, langSelect, setServerWords } from "./i18n.js";
import { cardSvg, backSvg, cardName, shortName, parseCard, setDeck, suitIcon, suitName, suitOf } from "./cards.js";
import { classify, resolveCommand } from "./actions.js";
import { actionLabel as label, completedTrick as lastTrick, eventText as evText, saidText as said, scoreTable as table } from "./view.js";
import { fanHand, moveInHand } from "./hand.js";
import { takeToken } from "./net.js";
import { TableSocket } from "./net.js";

// ------------------------------------------------------------------ who am I

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");

const S = {
  cred: takeToken(tableId),
  welcome: null,
  st: null, // the last STATE body
  status: "connecting",
  closeCode: null,
  selected: null, // a card text chosen in the hand
  pending: false, // an action sent, its state not yet back
  announcedV: null, // the last version said in the live region
  shownTrick: [], // keys of trick cards already drawn (to animate only new ones)
  log: [], // [{text, ev}]
  chat: [],
  overlay: null, // {kind: "deal", row} | {kind: "match", winners, record}
  seenDeals: null,
  lastStateAt: 0,
};

// ------------------------------------------------------------------ skeleton

const app = $("#app");
const ui = {};

function skeleton() {
  ui.banner = h("div", { class: "banner hidden", role: "status", id: "banner" });
  ui.title = h("span", { class: "rs", id: "title" });
  ui.lang = langSelect(() => renderAll());
  ui.tbar = h("header", { class: "tbar" }, ui.title, ui.lang);
  ui.info = h("div", { class: "info-line", id: "info" });
  ui.opponents = h("div", { class: "opponents", id: "opponents" });
  ui.status = h("div", { class: "status", id: "status" });
  ui.trick = h("div", { class: "trick", id: "trick", role: "group" });
  ui.talon = h("div", { class: "talon", id: "talon" });
  ui.centre = h("div", { class: "centre" }, ui.status, ui.trick, ui.talon);
  ui.actions = h("div", { class: "actions", id: "actions", role: "group" });
  ui.me = h("div", { class: "opponents", id: "me" });
  ui.handLabel = h("div", { class: "hand-label", id: "hand-label" });
  ui.hand = h("ul", { class: "hand", id: "hand", "aria-labelledby": "hand-label" });
  ui.handWrap = h("div", { class: "hand-wrap" }, ui.handLabel, ui.hand);
  ui.cmd = h("input", { type: "text", id: "command", autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", enterkeyhint: "send" });
  ui.cmdBtn = h("button", { type: "submit", class: "small" });
  ui.cmdLabel = h("label", { for: "command", class: "visually-hidden" });
  ui.command = h("form", { class: "command", id: "command-form" }, ui.cmdLabel, ui.cmd, ui.cmdBtn);
  ui.command.addEventListener("submit", onCommand);
  ui.kbd = h("p", { class: "kbd-hint", id: "kbd-hint" });
  ui.arena = h("div", { class: "arena" }, ui.opponents, ui.centre);
  ui.board = h("section", { class: "board", "aria-label": "table" },
    ui.info, ui.arena, ui.actions, ui.me, ui.handWrap, ui.command, ui.kbd);

  ui.scores = h("div", { class: "scoretable-wrap", id: "scores" });
  ui.scoresSum = h("summary");
  ui.scoresBox = h("details", { class: "box", id: "scores-box", open: true }, ui.scoresSum, ui.scores);
  ui.logList = h("ol", { class: "log", id: "log" });
  ui.logSum = h("summary");
  ui.logBox = h("details", { class: "box", id: "log-box", open: window.innerWidth >= 900 }, ui.logSum, ui.logList);
  ui.chatList = h("ol", { class: "log chat", id: "chat-log" });
  ui.chatInput = h("input", { type: "text", id: "chat-input", maxlength: 300, autocomplete: "off" });
  ui.chatBtn = h("button", { type: "submit", class: "small" });
  ui.chatForm = h("form", { class: "chat-form" }, ui.chatInput, ui.chatBtn);
  ui.chatForm.addEventListener("submit", onChat);
  ui.chatSum = h("summary");
  ui.chatBox = h("details", { class: "box hidden", id: "chat-box", open: window.innerWidth >= 900 },
    ui.chatSum, ui.chatList, ui.chatForm);
  ui.tools = h("div", { class: "host-tools", id: "tools" });
  ui.toolsSum = h("summary");
  ui.toolsBox = h("details", { class: "box", id: "tools-box" }, ui.toolsSum, ui.tools);
  ui.side = h("aside", { class: "side" }, ui.scoresBox, ui.logBox, ui.chatBox, ui.toolsBox);

  ui.live = h("div", { class: "visually-hidden", id: "live", "aria-live": "polite", role: "log" });
  ui.overlay = h("div", { id: "overlay-root" });
  ui.toast = h("div", { class: "toast hidden", id: "toast", role: "alert" });
  fill(app, ui.banner, ui.tbar, h("main", { class: "layout" }, ui.board, ui.side), ui.live, ui.overlay, ui.toast);

  new ResizeObserver(() => layoutHand()).observe(ui.hand);
  document.addEventListener("keydown", onGlobalKey);
}

// ------------------------------------------------------------------ helpers

const V = () => S.st?.view || {};
const n = () => S.welcome?.players || S.st?.seats?.length || 3;
const mySeat = () => (typeof S.st?.seat === "number" ? S.st.seat : null);
const actionLabel = (text, o) => label(text, plainName, o);
const saidText = (seat, action, o) => said(seat, action, plainName, o);
const eventText = (ev) => evText(ev, plainName);
const completedTrick = (st) => lastTrick(st, n());
const scoreTable = (deals, totals, highlight) => table(deals, totals, S.st?.seats || [], plainName, highlight);

function seatName(i) {
  if (i === null || i === undefined) return "";
  const name = plainName(i);
  return i === mySeat() ? `${name} (${t("you")})` : name;
}

function plainName(i) {
  const seats = S.st?.seats || [];
  const name = seats[i]?.name || t("seat_n", { n: i + 1 });
  // two bots both called "heuristic": say which seat
  const twice = seats.some((x, k) => k !== i && x?.name === name);
  return twice ? `${name} ${i + 1}` : name;
}

/** Where seat i sits on my screen. */
function position(i) {
  const me = mySeat() ?? 0;
  const rel = (i - me + n()) % n();
  if (rel === 0) return "bottom";
  if (n() === 2) return "top";
  if (n() === 3) return rel === 1 ? "left" : "right";
  return ["bottom", "left", "top", "right"][rel] || "top";
}

const HOLD_MS = 1400;

function pairs(list) {
  return new Map((list || []).map(([k, v]) => [k, v]));
}

function announce(text) {
  // a new node each time: screen readers say what is added to a live log
  ui.live.append(h("p", { text }));
  while (ui.live.childNodes.length > 20) ui.live.firstChild.remove();
}

let toastTimer = null;
function toast(text) {
  ui.toast.textContent = text;
  ui.toast.classList.remove("hidden");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => ui.toast.classList.add("hidden"), 4000);
}

// ------------------------------------------------------------------ socket

let sock = null;

function start() {
  skeleton();
  setLang(getLang());
  renderAll();
  if (!S.cred || !tableId) {
    S.status = "closed";
    S.closeCode = 4401;
    renderBanner();
    return;
  }
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  sock = new TableSocket({
    url: `${proto}//${location.host}/t/${encodeURIComponent(tableId)}/ws`,
    token: S.cred.token,
    lang: getLang,
    since: () => (S.st ? S.st.version : null),
    onMessage,
    onStatus: (status, code) => {
      S.status = status;
      S.closeCode = code ?? null;
      if (status !== "open") S.pending = false;
      renderBanner();
      renderActions();
    },
  });
  window.tysiacTable = { S, sock, send: sendAction, offered, readOut }; // for the browser tests and the curious
  sock.connect();
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      S.welcome = msg;
      setServerWords(msg.words);  // the game's words, from the rule book's terms
      setDeck(msg.deck);
      renderAll();
      break;
    case "state":
      onState(msg);
      break;
    case "deal_over":
      S.overlay = { kind: "deal", deal: msg.deal, row: msg.row };
      for (const ev of msg.row?.events || []) addLog(eventText(ev), true);
      announce(`${t("deal_over")}. ${(msg.row?.events || []).map(eventText).join(". ")}`);
      renderOverlay();
      break;
    case "match_over":
      S.overlay = { kind: "match", winners: msg.winners || [], record: msg.record };
      announce(`${t("match_over")}. ${(msg.winners || []).map((w) => t("winner", { name: plainName(w) })).join(". ")}`);
      renderOverlay();
      break;
    case "presence":
      if (S.st?.seats?.[msg.seat]) {
        S.st.seats[msg.seat].connected = !!msg.connected;
        renderSeats();
      }
      break;
    case "chat":
      S.chat.push(msg);
      renderChat();
      if (msg.seat !== mySeat()) announce(`${msg.name || plainName(msg.seat)}: ${msg.text}`);
      break;
    case "hint":
      S.hint = { v: msg.v, a: msg.a };
      renderActions();
      announce(t("hint_says", { text: actionLabel(msg.a, { speak: true }) }));
      break;
    case "error":
      S.pending = false;
      if (msg.code !== "stale") toast(msg.message || msg.code);
      renderActions();
      break;
    default:
      break; // pong and frames of a later protocol
  }
}

function onState(st) {
  const prev = S.st;
  const newMatch = prev && st.match !== prev.match;
  S.st = st;
  S.pending = false;
  S.lastStateAt = Date.now();
  if (newMatch) {
    S.overlay = null;
    S.log = [];
    S.announcedV = null;
  }
  if (st.over === false && S.overlay?.kind === "match") S.overlay = null;
  // keep the chosen card only while it can still act
  if (S.selected && !classify(st.legal).byCard.has(S.selected)) S.selected = null;
  // the public actions since the last one said
  const last = st.last || [];
  const dealNo = (st.deals || []).length;
  if (S.dealNo !== undefined && dealNo !== S.dealNo && !newMatch) addLog(`— ${t("deal_n", { n: dealNo + 1 })} —`, true);
  S.dealNo = dealNo;
  if (S.announcedV === null) {
    S.announcedV = last.length ? last[last.length - 1].v : st.version;
    for (const a of last) addLog(saidText(a.seat, a.action), false);
  } else {
    for (const a of last) {
      if (a.v <= S.announcedV) continue;
      addLog(saidText(a.seat, a.action), false);
      if (a.seat !== mySeat()) announce(saidText(a.seat, a.action, { speak: true }));
    }
    if (last.length) S.announcedV = Math.max(S.announcedV, last[last.length - 1].v);
    if (!prev || prev.version !== st.version) {
      if ((st.legal || []).length && !(prev?.legal || []).length) {
        announce(t("your_turn"));
        // a short buzz on a phone lying on the table (after the player has touched the page once)
        if (navigator.userActivation?.hasBeenActive) {
          try { navigator.vibrate?.(40); } catch { /* not allowed here */ }
        }
      }
    }
  }
  if (st.over && !S.overlay) S.overlay = { kind: "match", winners: st.winners || [] };
  // a trick completed by this change stays on the table a moment, so everyone sees it taken
  const done = completedTrick(st);
  if (done && prev && done.key > prev.version) {
    S.hold = done;
    clearTimeout(S.holdTimer);
    clearTimeout(S.takeTimer);
    // the taker gathers the cards: they slide to his seat, then the next trick shows
    S.takeTimer = setTimeout(() => {
      if (S.hold === done && done.winner !== null && done.winner !== undefined) {
        ui.trick.classList.add("taken", `to-${position(done.winner)}`);
      }
    }, HOLD_MS - 320);
    S.holdTimer = setTimeout(() => {
      S.hold = null;
      renderCentre();
    }, HOLD_MS);
  } else if (!done) {
    S.hold = null;
  }
  renderAll();
}

function addLog(text, ev) {
  S.log.push({ text, ev });
  if (S.log.length > 200) S.log.shift();
}

function sendAction(text) {
  if (!S.st || S.pending || !(S.st.legal || []).includes(text)) return false;
  const req = Math.random().toString(36).slice(2, 12);
  if (!sock.send({ type: "act", v: S.st.version, a: text, req })) {
    toast(t("reconnecting"));
    return false;
  }
  S.pending = true;
  S.selected = null;
  S.hold = null; // my card goes on the table now
  renderActions();
  renderHand();
  return true;
}

// ------------------------------------------------------------------ render

function renderAll() {
  ui.cmdLabel.textContent = t("command");
  ui.cmd.placeholder = `${t("command")}: QH, 120, pass`;
  ui.cmdBtn.textContent = "↵";
  ui.cmdBtn.setAttribute("aria-label", t("send"));
  ui.kbd.textContent = t("keyboard_hint");
  ui.scoresSum.textContent = t("scores");
  ui.logSum.textContent = t("history");
  ui.chatSum.textContent = t("chat");
  ui.chatBtn.textContent = t("send");
  ui.chatInput.placeholder = t("chat_placeholder");
  ui.chatInput.setAttribute("aria-label", t("chat"));
  ui.toolsSum.textContent = t("settings");
  renderBanner();
  renderTitle();
  renderInfo();
  renderSeats();
  renderCentre();
  renderActions();
  renderHand();
  renderScores();
  renderLog();
  renderChat();
  renderTools();
  renderOverlay();
}

function renderBanner() {
  const b = ui.banner;
  let text = "";
  let info = false;
  if (S.status === "retry") text = t("reconnecting");
  else if (S.status === "connecting" && S.st) text = t("reconnecting");
  else if (S.status === "connecting") { text = t("connecting"); info = true; }
  else if (S.status === "closed") {
    text = { 4401: t("no_token"), 4403: t("forbidden"), 4404: t("no_table"), 4409: t("replaced") }[S.closeCode]
      || t("reconnecting");
  } else if (S.st?.abandoned) text = `${t("abandoned")} ${S.st.abandoned}`;
  b.textContent = text;
  b.classList.toggle("hidden", !text);
  b.classList.toggle("info", info);
  if (S.status === "closed" && S.closeCode === 4409) {
    b.append(" ", h("button", { type: "button", class: "small", onclick: () => { sock.stopped = false; sock.retryNow(); } },
      t("play_here")));
  }
}

function cap(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function renderTitle() {
  const w = S.welcome;
  const rs = w?.ruleset?.names?.[getLang()] || w?.ruleset?.names?.en || w?.ruleset?.id || t("title");
  const deal = S.st ? (S.st.deals || []).length + 1 : null;
  ui.title.textContent = deal ? `${rs} · ${t("deal_n", { n: deal })}` : rs;
  // a tab in the background shows when it is your turn
  const mine = (S.st?.legal || []).length > 0;
  document.title = `${mine ? "● " : ""}${t("title")} — ${rs}`;
}

function renderInfo() {
  const v = V();
  const parts = [];
  if (v.phase) parts.push(h("span", { class: "pill", id: "phase", text: t(`phase.${v.phase}`) === `phase.${v.phase}` ? v.phase : t(`phase.${v.phase}`) }));
  if (v.declarer !== null && v.declarer !== undefined) {
    const c = [v.kind ? t(`kind.${v.kind}`) : null, v.contract ? String(v.contract) : null, v.contra > 1 ? `×${v.contra}` : null]
      .filter(Boolean).join(" ");
    parts.push(h("span", { class: "pill", id: "contract" },
      c ? `${t("contract")}: ${plainName(v.declarer)} · ${c}` : `${cap(t("declarer"))}: ${plainName(v.declarer)}`));
  }
  if (v.trump) {
    parts.push(h("span", { class: "pill trump", id: "trump", "aria-label": `${t("trump")}: ${suitName(v.trump, getLang())}` },
      `${t("trump")}:`, suitIcon(v.trump, { lang: getLang() }), suitName(v.trump, getLang())));
  }
  for (const [seat, suit] of v.declared || []) {
    parts.push(h("span", { class: "pill", "aria-label": `${plainName(seat)}: ${suitName(suit, getLang())}` },
      "⚭ ", suitIcon(suit, { lang: getLang() }), ` ${plainName(seat)}`));
  }
  if (v.stock) parts.push(h("span", { class: "pill" }, `${t("cards_n", { n: v.stock })}`,
    v.stock_card ? ` · ${shortName(v.stock_card)}` : ""));
  fill(ui.info, parts);
}

function seatPanel(i) {
  const v = V();
  const seat = S.st?.seats?.[i] || {};
  const sizes = pairs(v.hand_sizes);
  const tricks = pairs(v.tricks);
  const turn = v.turn === i && !S.st?.over;
  const lastBid = [...(v.bids || [])].reverse().find(([who]) => who === i);
  const tags = [];
  if (v.dealer === i) tags.push(h("span", { class: "tag", text: t("dealer") }));
  if (v.sitter === i) tags.push(h("span", { class: "tag", text: t("sits_out") }));
  if (v.declarer === i) tags.push(h("span", { class: "tag role", text: t("declarer") }));
  if (seat.kind === "bot" || seat.handed) tags.push(h("span", { class: "tag", text: seat.bot ? `${t("bot")}: ${seat.bot}` : t("bot") }));
  const human = seat.kind === "human";
  const connected = human ? !!seat.connected : true;
  const said = v.phase === "auction" && lastBid ? String(lastBid[1]).replace(/^bid /, "") : "";
  const count = sizes.get(i) ?? 0;
  const backs = h("div", { class: "backs", "aria-hidden": "true" });
  const open = v.declarer === i && i !== mySeat() ? v.open_hand || [] : [];
  if (open.length) {
    // the declarer plays face up: everyone sees the hand
    backs.classList.add("open");
    backs.removeAttribute("aria-hidden");
    backs.setAttribute("role", "img");
    backs.setAttribute("aria-label", open.map((c) => cardName(c, getLang())).join(", "));
    for (const c of open) backs.append(cardSvg(c, { trump: v.trump, lang: getLang(), label: "" }));
  } else if (i !== mySeat()) {
    for (let k = 0; k < Math.min(count, 12); k++) backs.append(backSvg(""));
  }
  const score = S.st?.scores?.[i] ?? 0;
  const label = [seatName(i), human ? t(connected ? "connected" : "disconnected") : t("bot"),
    `${t("score")} ${score}`, `${t("cards_n", { n: count })}`, `${t("tricks")} ${tricks.get(i) ?? 0}`,
  ].filter(Boolean).join(", ");
  return h("div", { class: `seat pos-${position(i)}${turn ? " turn" : ""}${i === mySeat() ? " mine" : ""}`, id: `seat-${i}`,
    role: "group",
    "aria-label": label },
    h("div", { class: "who" },
      h("span", { class: `dot${human ? (connected ? " on" : "") : " bot"}`,
        title: human ? t(connected ? "connected" : "disconnected") : t("bot") }),
      h("span", { class: "nm", text: seatName(i) }),
      h("span", { class: "score", text: String(score) })),
    h("div", { class: "meta" },
      h("span", { text: `${t("tricks")}: ${tricks.get(i) ?? 0}` }),
      tags,
      said ? h("span", { class: "said", text: said === "pass" ? t("act.pass") : said }) : null),
    i === mySeat() ? null : backs,
  );
}

function renderSeats() {
  if (!S.st) {
    fill(ui.opponents);
    fill(ui.me);
    return;
  }
  const me = mySeat() ?? 0;
  const others = [];
  for (let r = 1; r < n(); r++) others.push((me + r) % n());
  fill(ui.opponents, others.map(seatPanel));
  fill(ui.me, mySeat() === null ? seatPanel(0) : seatPanel(mySeat()));
  ui.me.classList.toggle("hidden", false);
}

function renderCentre() {
  const v = V();
  // status: whose turn
  let status = "";
  if (S.st?.over) status = t("match_over");
  else if (v.turn !== null && v.turn !== undefined) {
    status = v.turn === mySeat() ? t("your_turn") : t("waiting_for", { name: plainName(v.turn) });
  }
  ui.status.textContent = status;

  // the trick; when it is empty, the last trick taken (from the public actions)
  const trick = v.trick || [];
  let shown = trick;
  let old = false;
  let taker = null;
  const done = S.st ? completedTrick(S.st) : null;
  if (S.hold) {
    // the trick just taken, held a moment before the next one is shown
    shown = S.hold.cards;
    taker = S.hold.winner;
  } else if (!trick.length && done) {
    const lastAct = (S.st?.last || []).at(-1);
    if (lastAct && /^play /.test(lastAct.action)) {
      shown = done.cards;
      old = true;
      taker = done.winner;
    }
  }
  const slots = shown.map(([seat, card]) => {
    const isNew = !old && !S.shownTrick.includes(`${seat}:${card}`);
    if (isNew) S.shownTrick.push(`${seat}:${card}`);
    const slot = h("div", { class: `slot ${position(seat)}${isNew ? " played" : ""}`, dataset: { seat, card } },
      cardSvg(card, { trump: v.trump, lang: getLang(), label: `${plainName(seat)}: ${cardName(card, getLang())}` }),
      h("span", { class: "lbl", text: plainName(seat) }));
    if (old) slot.style.opacity = "0.55";
    return slot;
  });
  if (!S.hold) S.shownTrick = trick.map(([seat, card]) => `${seat}:${card}`);
  ui.trick.setAttribute("aria-label", `${t("trick")}: ${shown.map(([seat, card]) => `${plainName(seat)} ${cardName(card, getLang())}`).join(", ") || "—"}`);
  ui.trick.classList.remove("taken", "to-bottom", "to-top", "to-left", "to-right");
  fill(ui.trick, slots);
  if (taker !== null && taker !== undefined) {
    ui.status.textContent = `${t("took_trick", { name: plainName(taker) })} · ${status}`;
  }

  // the talon: the cards this seat sees when no trick is on the table; in the auction, the
  // cards in no hand lie face down in the middle
  const talon = v.talon || [];
  let faceDown = 0;
  if (v.phase === "auction" && !talon.length && S.welcome?.deck) {
    const packSize = (S.welcome.deck.suits?.length || 0) * (S.welcome.deck.ranks?.length || 0);
    const inHands = (v.hand_sizes || []).reduce((a, [, k]) => a + k, 0);
    faceDown = Math.max(0, Math.min(6, packSize - inHands - (v.stock || 0)));
  }
  const showTalon = (talon.length || faceDown) && !shown.length && v.phase !== "play";
  const talonCards = talon.length ? talon.map((c) => cardSvg(c, { trump: v.trump, lang: getLang() }))
    : Array.from({ length: faceDown }, () => backSvg(""));
  fill(ui.talon, showTalon ? [h("div", { class: "cards" }, talonCards), h("span", { text: t("talon") })] : []);
  if (showTalon) {
    ui.talon.setAttribute("role", "img");
    ui.talon.setAttribute("aria-label", `${t("talon")}: ${talon.length
      ? talon.map((c) => cardName(c, getLang())).join(", ") : t("cards_n", { n: faceDown })}`);
  } else {
    ui.talon.removeAttribute("role");
    ui.talon.removeAttribute("aria-label");
  }
}

function renderActions() {
  const st = S.st;
  const legal = st?.legal || [];
  const box = ui.actions;
  if (!st || !legal.length) {
    fill(box);
    box.classList.toggle("hidden", !st || mySeat() === null);
    return;
  }
  box.classList.remove("hidden");
  const c = classify(legal);
  const off = S.pending || S.status !== "open";
  const btn = (text, { primary = false, label } = {}) =>
    h("button", { type: "button", class: primary ? "primary" : null, disabled: off, dataset: { action: text },
      onclick: () => sendAction(text) }, label || actionLabel(text));
  const items = [h("span", { class: "prompt", text: `${t("your_turn")}:` })];
  // the hint (the strong bot's advice from this seat's own view) when the host allows it
  if (st.settings?.hints !== false) {
    items.push(h("button", { type: "button", class: "small", id: "hint", disabled: off,
      onclick: () => sock.send({ type: "hint", v: st.version }) }, t("hint")));
    if (S.hint && S.hint.v === st.version && legal.includes(S.hint.a)) {
      items.push(h("span", { class: "hint", id: "hint-text", role: "status",
        text: t("hint_says", { text: actionLabel(S.hint.a) }) }));
    }
  }
  // the short answers first (pass, contra, …), then amounts and cards
  for (const x of c.buttons) items.push(btn(x, { primary: false }));

  const amounts = (list, label) => {
    const shown = list.length > 4 ? 3 : 4;
    const first = list.slice(0, shown).map((x, k) => btn(x.text, { primary: k === 0, label: String(x.n) }));
    const rest = list.slice(shown);
    const group = h("div", { class: "group" }, h("span", { class: "hint", text: label }), first);
    if (rest.length) {
      const sel = h("select", { id: "more-amounts", "aria-label": t("act.more_bids"), disabled: off },
        h("option", { value: "", text: t("act.more_bids") }), rest.map((x) => h("option", { value: x.text, text: String(x.n) })));
      sel.addEventListener("change", () => { if (sel.value) sendAction(sel.value); });
      group.append(sel);
    }
    return group;
  };
  if (c.bids.length) items.push(amounts(c.bids, t("act.bid", { n: "" }).trim()));
  if (c.contracts.length) items.push(amounts(c.contracts, t("contract")));
  for (const x of c.named) items.push(btn(x.text));
  for (const x of c.talons) items.push(btn(x.text, { primary: c.talons.length === 1 }));
  for (const x of c.marriages) {
    items.push(h("button", { type: "button", disabled: off, dataset: { action: x.text }, onclick: () => sendAction(x.text) },
      suitIcon(x.suit, { lang: getLang() }), " ", actionLabel(x.text)));
  }
  // a chosen card: its actions; else a word on what to tap
  if (c.byCard.size) {
    if (S.selected && c.byCard.has(S.selected)) {
      const acts = [...c.byCard.get(S.selected)].sort((a, b) => (b.extra ? 1 : 0) - (a.extra ? 1 : 0));
      const group = h("div", { class: "group", id: "card-actions" });
      for (const a of acts) {
        let label = actionLabel(a.text);
        if (a.verb === "give") label = t("act.give_to", { name: plainName(a.to) });
        group.append(btn(a.text, { primary: a.extra === "marriage" || acts.length === 1, label }));
      }
      group.append(h("button", { type: "button", class: "small", onclick: () => { S.selected = null; renderActions(); renderHand(); } },
        t("cancel")));
      items.push(group);
    } else {
      items.push(h("span", { class: "hint", text: t("choose_card") }));
    }
  }
  fill(box, items);
}

/** Every action text the page offers now: buttons, choices in a list, and the actions of each
 * card one may tap (the browser tests check this is exactly `legal`). */
function offered() {
  const texts = new Set();
  for (const b of ui.actions.querySelectorAll("button[data-action]")) texts.add(b.dataset.action);
  for (const o of ui.actions.querySelectorAll("select option")) if (o.value) texts.add(o.value);
  for (const b of ui.hand.querySelectorAll("button.card.legal")) {
    for (const a of cardActions(b.dataset.card)) texts.add(a.text);
  }
  return [...texts].sort();
}

function safeFlag(key) {
  try { return localStorage.getItem(key) === "1"; } catch { return false; }
}

function cardActions(card) {
  return classify(S.st?.legal || []).byCard.get(card) || [];
}

function onCardClick(card) {
  const acts = cardActions(card);
  if (!acts.length || S.pending) return;
  const twice = safeFlag("tysiac.tap_twice");
  if (acts.length === 1 && acts[0].verb === "play" && (!twice || S.selected === card)) {
    sendAction(acts[0].text);
    return;
  }
  if (acts.length === 1 && S.selected === card) {
    sendAction(acts[0].text);
    return;
  }
  S.selected = S.selected === card ? null : card;
  renderHand();
  renderActions();
  if (S.selected) {
    announce(acts.map((a) => actionLabel(a.text, { speak: true })).join("; "));
  }
}

function renderHand() {
  const v = V();
  const hand = v.hand || [];
  const focused = document.activeElement?.closest?.("#hand") ? document.activeElement.dataset.card : null;
  const legalCards = classify(S.st?.legal || []).byCard;
  ui.handWrap.classList.toggle("hidden", mySeat() === null);
  ui.command.classList.toggle("hidden", mySeat() === null);
  ui.kbd.classList.toggle("hidden", mySeat() === null);
  ui.handLabel.textContent = `${t("hand")} · ${t("cards_n", { n: hand.length })}`;
  ui.hand.classList.toggle("can-act", legalCards.size > 0);
  const declaredSuits = new Set((v.declared || []).map(([, suit]) => suitOf(suit)?.id));
  const received = new Set((v.given || []).filter(([to]) => to === mySeat()).map(([, c]) => c));
  const items = hand.map((card, k) => {
    const acts = legalCards.get(card) || [];
    const canDeclare = acts.some((a) => a.extra === "marriage");
    const c = parseCard(card);
    const inMarriage = c && ["king", "queen"].includes(c.rank.id) && declaredSuits.has(c.suit.id);
    const label = [cardName(card, getLang()),
      v.trump && suitOf(v.trump)?.id === c?.suit.id ? t("trump") : null,
      received.has(card) ? t("received") : null,
      acts.length ? acts.map((a) => actionLabel(a.text, { speak: true })).join(" / ") : null].filter(Boolean).join(", ");
    const b = h("button", {
      type: "button",
      class: `card${acts.length ? " legal" : ""}${S.selected === card ? " selected" : ""}${received.has(card) ? " received" : ""}`,
      dataset: { card }, "aria-label": label, "aria-pressed": S.selected === card ? "true" : null,
      "aria-disabled": acts.length ? null : "true", tabindex: "-1",
    }, cardSvg(card, { trump: v.trump, marriage: inMarriage, canDeclare, lang: getLang(), label: "" }));
    b.addEventListener("click", () => onCardClick(card));
    b.addEventListener("keydown", (ev) => onHandKey(ev, k));
    return h("li", {}, b);
  });
  fill(ui.hand, items);
  // one card in the tab order: the focused one, else the chosen, else the first that can act
  const buttons = [...ui.hand.querySelectorAll("button.card")];
  const target = buttons.find((b) => b.dataset.card === focused) || buttons.find((b) => b.dataset.card === S.selected)
    || buttons.find((b) => b.classList.contains("legal")) || buttons[0];
  if (target) target.tabIndex = 0;
  if (focused && target) target.focus();
  layoutHand();
}

function layoutHand() {
  fanHand(ui.hand);
}

function onHandKey(ev, k) {
  moveInHand(ui.hand, ev, k);
}

function onGlobalKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const tag = document.activeElement?.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (ev.key === "Escape" && S.overlay) {
    closeOverlay();
    return;
  }
  if (S.overlay) return;
  // typing a card or an action goes to the command line
  if (ev.key.length === 1 && /[0-9a-z♠♣♦♥]/i.test(ev.key) && mySeat() !== null) ui.cmd.focus();
}

/** Read-outs for the keyboard and screen readers (lichess blind mode): h(and), t(rick),
 * s(cores), l(egal), w(ho). Said in the live region; undefined if `word` is none of them. */
function readOut(word) {
  const v = V();
  const lang = getLang();
  const w = word.trim().toLowerCase();
  if (w === "h" || w === "hand") return `${t("hand")}: ${(v.hand || []).map((c) => cardName(c, lang)).join(", ") || "—"}`;
  if (w === "t" || w === "trick") {
    return `${t("trick")}: ${(v.trick || []).map(([s, c]) => `${plainName(s)} ${cardName(c, lang)}`).join(", ") || "—"}`;
  }
  if (w === "s" || w === "scores") {
    return `${t("scores")}: ${(S.st?.scores || []).map((x, i) => `${plainName(i)} ${x}`).join(", ")}`;
  }
  if (w === "l" || w === "legal") {
    return `${t("actions")}: ${(S.st?.legal || []).map((a) => actionLabel(a, { speak: true })).join("; ") || "—"}`;
  }
  if (w === "w" || w === "who") {
    if (v.turn === null || v.turn === undefined) return t("match_over");
    return v.turn === mySeat() ? t("your_turn") : t("waiting_for", { name: plainName(v.turn) });
  }
  return undefined;
}

function onCommand(ev) {
  ev.preventDefault();
  const text = ui.cmd.value;
  const said = readOut(text);
  if (said !== undefined) {
    ui.cmd.value = "";
    announce(said);
    toast(said);
    return;
  }
  const r = resolveCommand(text, S.st?.legal || []);
  if (!r) {
    if (text.trim()) toast(t("not_legal", { text: text.trim() }));
    return;
  }
  ui.cmd.value = "";
  if (r.action) {
    sendAction(r.action);
  } else if (r.card) {
    S.selected = r.card;
    renderHand();
    renderActions();
    $("#card-actions button")?.focus();
  }
}

function renderScores() {
  const st = S.st;
  if (!st) {
    fill(ui.scores);
    return;
  }
  fill(ui.scores, scoreTable(st.deals || [], st.scores || []));
}

function renderLog() {
  fill(ui.logList, S.log.slice(-80).map((x) => h("li", { class: x.ev ? "ev" : null, text: x.text })));
  ui.logList.scrollTop = ui.logList.scrollHeight;
}

function renderChat() {
  const on = !!S.st?.settings?.chat && S.welcome?.role !== "watcher";
  ui.chatBox.classList.toggle("hidden", !on);
  fill(ui.chatList, S.chat.slice(-100).map((m) => h("li", {},
    h("span", { class: "who", text: `${m.name || plainName(m.seat)}: ` }), h("span", { text: m.text }))));
  ui.chatList.scrollTop = ui.chatList.scrollHeight;
}

function onChat(ev) {
  ev.preventDefault();
  const text = ui.chatInput.value.trim();
  if (!text) return;
  if (sock.send({ type: "chat", text: text.slice(0, 300) })) ui.chatInput.value = "";
}

function renderTools() {
  const st = S.st;
  // not while someone types a name or holds a setting: a new state must not eat the keystrokes
  if (ui.tools.contains(document.activeElement) && document.activeElement.tagName === "INPUT"
      && document.activeElement.type === "text") return;
  const items = [];
  if (mySeat() !== null) {
    const input = h("input", { type: "text", id: "rename", maxlength: 24, value: st?.seats?.[mySeat()]?.name || "",
      "aria-label": t("rename") });
    const form = h("form", { class: "chat-form" }, input, h("button", { type: "submit", class: "small", text: t("save") }));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      if (name) sock.send({ type: "name", name });
    });
    items.push(h("label", { for: "rename", text: t("rename") }), form);
  }
  if (mySeat() !== null) {
    // a card is played by one tap, or (for the careful, on a small screen) by two
    const box = h("input", { type: "checkbox", id: "tap-twice", checked: safeFlag("tysiac.tap_twice") });
    box.addEventListener("change", () => {
      try { localStorage.setItem("tysiac.tap_twice", box.checked ? "1" : "0"); } catch { /* private mode */ }
    });
    items.push(h("label", { for: "tap-twice" }, box, h("span", { text: t("tap_twice") })));
  }
  if (S.welcome?.host && st) {
    const setting = (key, label) => {
      const box = h("input", { type: "checkbox", id: `set-${key}`, checked: !!st.settings?.[key] });
      box.addEventListener("change", () => sock.send({ type: "settings", [key]: box.checked }));
      return h("label", { for: `set-${key}` }, box, h("span", { text: label }));
    };
    items.push(setting("chat", t("chat_on")), setting("spectators", t("spectators")));
    if (st.settings) st.settings.hints = st.settings.hints !== false;  // tables made before hints: on
    items.push(setting("hints", t("hints_on")));
    const grace = st.settings?.grace ?? 60;
    for (const seat of st.seats || []) {
      if (seat.kind !== "human" || seat.seat === mySeat() || seat.connected || seat.handed) continue;
      const away = seat.away_for ?? (seat.away_since ? Date.now() / 1000 - seat.away_since : 0);
      if (away < grace) continue;
      items.push(h("button", { type: "button", class: "small", onclick: () => sock.send({ type: "seat_bot", seat: seat.seat, bot: "heuristic" }) },
        `${t("seat_to_bot")}: ${plainName(seat.seat)}`));
    }
  }
  // the table options in force, in the rule book's words (welcome.options, welcome.words)
  const opts = S.welcome?.options || [];
  if (opts.length) {
    items.push(h("dl", { class: "table-options", id: "table-options", "aria-label": t("options") },
      opts.flatMap((o) => [h("dt", { text: t(`opt.${o.name}`) }), h("dd", { text: t(`opt.${o.name}=${o.value}`) })])));
  }
  if (st?.over) items.push(recordButton());
  ui.toolsBox.classList.toggle("hidden", !items.length);
  fill(ui.tools, items);
}

function recordButton() {
  return h("button", { type: "button", class: "small", id: "record", onclick: downloadRecord }, t("record"));
}

async function downloadRecord() {
  try {
    const resp = await fetch(`/api/tables/${encodeURIComponent(tableId)}/record`, {
      headers: { Authorization: `Bearer ${S.cred.token}` },
    });
    if (!resp.ok) {
      toast(`${t("error")} ${resp.status}`);
      return;
    }
    const blob = await resp.blob();
    const a = h("a", { href: URL.createObjectURL(blob), download: `tysiac-${tableId}-${S.st?.match ?? 1}.json` });
    document.body.append(a);
    a.click();
    a.remove();
  } catch (e) {
    toast(String(e.message || e));
  }
}

// ------------------------------------------------------------------ overlay: deal summary, match over

function closeOverlay() {
  if (S.overlay?.kind === "match") S.overlay = { ...S.overlay, hidden: true };
  else S.overlay = null;
  renderOverlay();
  (ui.hand.querySelector("button.card[tabindex='0']") || ui.cmd).focus?.();
}

function renderOverlay() {
  const o = S.overlay;
  if (!o || o.hidden || !S.st) {
    fill(ui.overlay);
    return;
  }
  const st = S.st;
  const body = [];
  if (o.kind === "deal" && o.row) {
    body.push(h("h2", { id: "overlay-title", tabindex: "-1", text: t("deal_over_n", { n: o.deal + 1 }) }));
    const evs = o.row.events || [];
    if (evs.length) body.push(h("ul", { class: "events" }, evs.map((ev) => h("li", { text: eventText(ev) }))));
    body.push(h("div", { class: "scoretable-wrap" }, scoreTable(st.deals?.length ? st.deals : [o.row], st.scores || o.row.scores, o.row.deal)));
    body.push(h("div", { class: "buttons" }, h("button", { type: "button", class: "primary", id: "overlay-ok", onclick: closeOverlay }, t("continue"))));
  } else if (o.kind === "match") {
    const winners = o.winners?.length ? o.winners : st.winners || [];
    body.push(h("h2", { id: "overlay-title", tabindex: "-1", text: t("match_over") }));
    for (const w of winners) body.push(h("p", { class: "ok", text: t("winner", { name: plainName(w) }) }));
    body.push(h("div", { class: "scoretable-wrap" }, scoreTable(st.deals || [], st.scores || [])));
    const buttons = h("div", { class: "buttons" });
    if (S.welcome?.host) buttons.append(h("button", { type: "button", class: "primary", id: "rematch",
      onclick: () => { sock.send({ type: "rematch" }); } }, t("rematch")));
    buttons.append(recordButton(), h("button", { type: "button", id: "overlay-ok", onclick: closeOverlay }, t("continue")));
    body.push(buttons);
  } else {
    fill(ui.overlay);
    return;
  }
  const wasOpen = !!ui.overlay.firstChild;
  fill(ui.overlay, h("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": "overlay-title" },
    h("div", { class: "sheet" }, body)));
  // the newest deal in sight
  const wrap = ui.overlay.querySelector(".scoretable-wrap");
  if (wrap) wrap.scrollTop = wrap.scrollHeight;
  if (!wasOpen) $("#overlay-ok")?.focus({ preventScroll: true });
}

start();
