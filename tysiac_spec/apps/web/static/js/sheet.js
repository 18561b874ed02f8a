// The scoresheet page (/s and /s/<sheet>): keep the score of a game played with real cards.
// Every question, its order, its check and its message come from the server, which asks
// `tysiac score`'s own questions (tysiac_spec/scoresheet/service.py); this page only shows
// them, offers taps for names and yes/no, and sends the answers as typed. Routes:
// tysiac_spec/apps/web/sheets.py. The edit token is in the URL fragment (#edit=...), never
// sent in a URL; without it the page is read-only and follows the sheet.

import { h, fill, $ } from "./dom.js";
import { t, getLang, langSelect, optionLabel, valueLabel } from "./i18n.js";


const YES_NO = new Set(["golden", "dark", "sold", "forfeit"]);
const NUMERIC = new Set(["bid", "contract", "contra"]);
const EMPTY_WORD = { contract: "as_bid", marriages: "none", kind: "none", no_trick: "none" };


const app = $("#app");
const sheetId = (location.pathname.match(/^\/s\/([A-Za-z0-9_-]+)$/) || [])[1] || null;
const token = new URLSearchParams(location.hash.slice(1)).get("edit");

const S = {
  view: null, // GET /api/sheets/<s>
  answers: {}, // key -> text, in the order asked
  q: null, // the question being asked (POST …/next)
  labels: {}, // question key -> its short label, as the server last gave it
  entry: null, // every question answered
  draft: "",
  error: null, // the last rejected answer's message
  notice: null, // {kind, text} (the server's words) or {kind, words: [[key, vars], …]} (ours, shown in the page's language)
  busy: false,
  typed: false, // the last answer came from the keyboard
  rulesChanged: null, // the sheet's version when its rules changed in what scores (offer to go on)
  confirmUndo: false,
  picked: new Set(), // players picked for a multi-player answer (no_trick)
  catalog: null, // create mode: GET /api/rulesets
  form: { ruleset: "pl-standard", players: 3, names: [], dealer: 0, options: {}, house: null },
};
window.tysiacSheet = { S };

async function api(method, path, body, auth = false) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (auth && token) headers.Authorization = `Bearer ${token}`;
  try {
    const resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    let data = null;
    try { data = await resp.json(); } catch { data = null; }
    return { status: resp.status, data };
  } catch {
    return { status: 0, data: { error: { message: t("sheet.offline") } } };
  }
}

function noticeText() {
  const n = S.notice;
  if (!n) return "";
  return n.words ? n.words.map(([key, vars]) => t(`sheet.${key}`, vars)).join(" ") : n.text;
}

const nameOf = (p) => (S.view && S.view.names[p]) || `P${p}`;

// ------------------------------------------------------------------ sheet mode

async function load() {
  const { status, data } = await api("GET", `/api/sheets/${sheetId}`);
  if (status !== 200) {
    S.notice = { text: data?.error?.message || t("sheet.offline"), kind: "warn" };
    S.rulesChanged = data?.rules_changed ? data.version : null;
    render();
    return;
  }
  S.view = data;
  S.rulesChanged = null;
  if (token && data.winner === null) await ask();
  render();
}

async function goOnUnderNewRules() {
  if (S.busy) return;
  S.busy = true;
  const { status, data } = await api("POST", `/api/sheets/${sheetId}/new-rules`, { version: S.rulesChanged }, true);
  S.busy = false;
  if (status === 200) {
    S.notice = { words: [["went_on", {}]], kind: "info" };
    S.rulesChanged = null;
    await load();
    return;
  }
  S.notice = { text: data?.error?.message || t("sheet.offline"), kind: "warn" };
  render();
}

function resetDeal() {
  S.answers = {};
  S.q = null;
  S.entry = null;
  S.draft = "";
  S.error = null;
  S.picked = new Set();
}

async function ask() {
  const { status, data } = await api("POST", `/api/sheets/${sheetId}/next`, { answers: S.answers, lang: getLang() });
  if (status !== 200) {
    S.error = data?.error?.message || t("sheet.offline");
    return;
  }
  Object.assign(S.labels, data.labels || {});
  if (data.done) {
    S.q = null;
    S.entry = data.entry;
    return;
  }
  S.q = data;
  S.entry = null;
  if (data.error) {
    S.draft = S.answers[data.key] ?? "";
    delete S.answers[data.key];
    S.error = data.error.message + (data.error.hint ? ` (${data.error.hint})` : "");
  }
}

async function answer(text) {
  if (S.busy || !S.q) return;
  S.busy = true;
  S.error = null;
  S.answers[S.q.key] = text;
  S.draft = "";
  S.picked = new Set();
  await ask();
  S.busy = false;
  render(true);
}

async function backTo(key) {
  if (S.busy) return;
  const keys = Object.keys(S.answers);
  const at = keys.indexOf(key);
  const draft = S.answers[key];
  for (const k of keys.slice(at)) delete S.answers[k];
  S.busy = true;
  S.error = null;
  await ask();
  S.draft = draft ?? "";
  S.busy = false;
  render(true);
}

async function stale(data) {
  const { status, data: view } = await api("GET", `/api/sheets/${sheetId}`);
  if (status === 200) S.view = view;
  resetDeal();
  // the page's own words (the server's, in English, say the same: nothing was written)
  S.notice = data?.error?.code === "stale" ? { words: [["stale", { n: S.view.next.number }]], kind: "warn" }
    : { text: data?.error?.message || t("sheet.offline"), kind: "warn" };
  if (S.view.winner === null) await ask();
}

async function write(method, path, body, done) {
  if (S.busy) return;
  S.busy = true;
  render();
  const { status, data } = await api(method, path, { ...body, version: S.view.version }, true);
  if (status === 200 || status === 201) {
    S.view = data;
    resetDeal();
    S.notice = { words: [done(data)], kind: "info" };
    if (data.winner !== null) S.notice.words.push(["wins", { name: nameOf(data.winner) }]);
    else await ask();
  } else if (status === 409) {
    await stale(data);
  } else {
    S.notice = { text: data?.error?.message || t("sheet.offline"), kind: "warn" };
  }
  S.busy = false;
  S.confirmUndo = false;
  render();
}

const addDeal = () => {
  const n = S.view.next.number;
  return write("POST", `/api/sheets/${sheetId}/deals`, { answers: S.answers }, () => ["added", { n }]);
};

function undo() {
  if (!S.confirmUndo) {
    S.confirmUndo = true;
    render();
    return;
  }
  const n = S.view.deals.length;
  write("DELETE", `/api/sheets/${sheetId}/deals/last`, {}, () => ["removed", { n }]);
}

async function importFile(file) {
  const text = await file.text();
  write("PUT", `/api/sheets/${sheetId}`, { sheet_text: text }, () => ["imported", {}]);
}

async function poll() {
  if (S.busy || !S.view || document.visibilityState !== "visible") return;
  const { status, data } = await api("GET", `/api/sheets/${sheetId}`);
  if (status !== 200 || S.busy || data.version === S.view.version) return;
  const typing = Object.keys(S.answers).length > 0 || S.entry;
  S.view = data;
  if (token) {
    resetDeal();
    if (typing) S.notice = { words: [["stale", { n: data.next.number }]], kind: "warn" };
    if (data.winner === null) await ask();
  }
  render();
}

function sheetTable() {
  const v = S.view;
  const n = v.players;
  const head = h("tr", {}, h("th", { scope: "col", text: "#" }),
    v.names.map((name, p) => h("th", { scope: "col", class: v.winner === p ? "winner" : null, text: name })));
  const body = [];
  v.rows.forEach((row, i) => {
    body.push(h("tr", { class: "deal", id: `deal-${i + 1}` }, h("td", { text: String(i + 1) }),
      row.scores.map((score, p) => h("td", {},
        h("span", { class: "score", text: String(score) }),
        h("span", { class: `delta${row.deltas[p] < 0 ? " minus" : ""}`,
          text: row.deltas[p] > 0 ? `+${row.deltas[p]}` : String(row.deltas[p]) })))));
    if (row.notes.length) {
      body.push(h("tr", { class: "notes" }, h("td", { colspan: String(n + 1), text: row.notes.join("; ") })));
    }
  });
  const foot = h("tr", { id: "totals" }, h("td", { text: t("sheet.total") }),
    v.totals.map((score, p) => h("td", { class: v.winner === p ? "winner" : null, text: String(score) })));
  return h("div", { class: "sheet-wrap" },
    h("table", { class: "sheet", "aria-label": t("sheet.title") },
      h("thead", {}, head), h("tbody", {}, body), h("tfoot", {}, foot)),
    v.rows.length ? null : h("p", { class: "sheet-empty", text: t("sheet.no_deals") }));
}

function shownAnswer(key, text) {
  if (text === "") return EMPTY_WORD[key] ? t(`sheet.${EMPTY_WORD[key]}`) : t("sheet.empty");
  if (key === "declarer" && /^\d+$/.test(text)) return nameOf(Number(text));
  if (YES_NO.has(key)) return /^y/i.test(text) ? t("sheet.yes") : /^n/i.test(text) ? t("sheet.no") : text;
  if (key === "no_trick" && /^[\d ]+$/.test(text)) return text.split(/\s+/).map((p) => nameOf(Number(p))).join(", ");
  return text;
}

/** A question's short label as the server gave it (the rule book's words, in the page's
 * language), with a colon unless it asks. */
function labelOf(key) {
  const label = S.labels[key] || key;
  return /[?？]$/.test(label) ? label : `${label}:`;
}

function givenList() {
  const keys = Object.keys(S.answers);
  if (!keys.length) return null;
  return h("ul", { class: "given", "aria-label": "answers" }, keys.map((k) => h("li", {},
    h("button", { type: "button", class: "small", id: `given-${k}`, onclick: () => backTo(k) },
      h("span", { class: "k", text: labelOf(k) }),
      shownAnswer(k, S.answers[k])))));
}

function questionForm() {
  const q = S.q;
  const input = h("input", {
    type: "text", id: "answer", name: q.key, autocomplete: "off", autocapitalize: "off", spellcheck: "false",
    enterkeyhint: "next", inputmode: NUMERIC.has(q.key) ? "numeric" : "text", "aria-describedby": "prompt",
  });
  input.value = S.draft;
  const quick = [];
  const players = [...Array(S.view.players).keys()];
  if (q.key === "declarer") {
    const sitter = S.view.next.sitter;
    for (const p of players) {
      if (p !== sitter) quick.push(h("button", { type: "button", id: `pick-${p}`, onclick: () => answer(String(p)) }, nameOf(p)));
    }
    if (q.prompt.includes("`-`")) quick.push(h("button", { type: "button", id: "pick-nobody", onclick: () => answer("-") }, t("sheet.nobody")));
  } else if (YES_NO.has(q.key)) {
    quick.push(h("button", { type: "button", id: "pick-yes", onclick: () => answer("y") }, t("sheet.yes")));
    quick.push(h("button", { type: "button", id: "pick-no", onclick: () => answer("n") }, t("sheet.no")));
  } else if (q.key === "no_trick") {
    for (const p of players) {
      quick.push(h("button", {
        type: "button", id: `pick-${p}`, class: S.picked.has(p) ? "on" : null, "aria-pressed": String(S.picked.has(p)),
        onclick: () => {
          if (S.picked.has(p)) S.picked.delete(p); else S.picked.add(p);
          S.draft = [...S.picked].sort().join(" ");
          render(true);
        },
      }, nameOf(p)));
    }
  }
  if (EMPTY_WORD[q.key] && q.key !== "no_trick") {
    quick.push(h("button", { type: "button", id: "pick-empty", onclick: () => answer("") }, t(`sheet.${EMPTY_WORD[q.key]}`)));
  }
  const form = h("form", {
    class: "question", id: "question",
    onsubmit: (e) => { e.preventDefault(); S.typed = true; answer(input.value.trim()); },
  },
  h("label", { for: "answer", text: q.label || q.key }),
  h("p", { class: `prompt${q.prompt === q.key ? " visually-hidden" : ""}`, id: "prompt", text: q.prompt }),
  h("div", { class: "answer-row" }, input, h("button", { type: "submit", class: "primary", id: "next", disabled: S.busy }, t("sheet.next"))),
  S.error ? h("p", { class: "answer-error", id: "answer-error", role: "alert", text: S.error }) : null,
  quick.length ? h("div", { class: "quick" }, quick) : null);
  return form;
}

function entryPanel() {
  const v = S.view;
  if (!token || v.winner !== null) return null;
  const sitter = v.next.sitter;
  return h("section", { class: "panel", id: "entry", "aria-live": "polite" },
    h("div", { class: "deal-head" },
      h("h2", { text: t("sheet.deal_n", { n: v.next.number }) }),
      h("span", { class: "who", text: [t("sheet.deals_by", { name: nameOf(v.next.dealer) }),
        sitter === null ? null : t("sheet.sits_out", { name: nameOf(sitter) })].filter(Boolean).join(" · ") })),
    givenList(),
    S.q ? questionForm() : null,
    S.entry ? h("div", { class: "done" },
      h("p", { class: "done-summary", text: t("sheet.all_answered") }),
      h("div", { class: "row-buttons" },
        h("button", { type: "button", class: "primary", id: "add-deal", disabled: S.busy, onclick: addDeal },
          t("sheet.add_deal", { n: v.next.number })))) : null,
    !S.q && !S.entry && S.error ? h("p", { class: "answer-error", role: "alert", text: S.error }) : null,
    Object.keys(S.answers).length ? h("div", { class: "row-buttons" },
      h("button", { type: "button", id: "restart-deal", class: "small",
        onclick: () => backTo(Object.keys(S.answers)[0]) }, t("sheet.restart_deal"))) : null);
}

function toolsPanel() {
  const v = S.view;
  const viewUrl = `${location.origin}/s/${sheetId}`;
  const copy = h("button", { type: "button", class: "small", id: "copy-view" }, t("sheet.copy"));
  copy.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(viewUrl); copy.textContent = t("sheet.copied"); } catch { /* no clipboard */ }
  });
  const file = h("input", { type: "file", id: "import-file", accept: ".json,application/json" });
  file.addEventListener("change", () => { if (file.files[0]) importFile(file.files[0]); });
  return h("section", { class: "panel tools", id: "tools" },
    token && v.deals.length > v.carried ? h("button", { type: "button", id: "undo", disabled: S.busy, onclick: undo },
      S.confirmUndo ? t("sheet.undo_confirm", { n: v.deals.length }) : t("sheet.undo")) : null,
    h("a", { class: "btn", id: "export", href: `/api/sheets/${sheetId}/export?download=1`, download: `sheet-${sheetId}.json` },
      t("sheet.export")),
    token ? h("label", { class: "file" }, h("span", { text: t("sheet.import") }), file) : null,
    token ? h("div", { id: "share" },
      h("strong", { text: t("sheet.share") }),
      h("p", { class: "share-url", id: "view-url", text: viewUrl }),
      copy,
      h("p", { class: "sub-title", text: t("sheet.keep_link") })) : null);
}

function renderSheet() {
  const v = S.view;
  const parts = [];
  if (!token) parts.push(h("p", { class: "notice readonly", id: "read-only", text: t("sheet.read_only") }));
  parts.push(h("p", { class: `notice ${S.notice?.kind || ""}${S.notice ? "" : " hidden"}`, id: "notice",
    role: "status", "aria-live": "polite", text: noticeText() }));
  if (!v && S.rulesChanged && token) {
    parts.push(h("button", { type: "button", class: "primary", id: "new-rules", onclick: goOnUnderNewRules },
      t("sheet.new_rules")));
  }
  if (!v) return parts;
  if (v.winner !== null) parts.push(h("p", { class: "notice", id: "winner", text: t("sheet.wins", { name: nameOf(v.winner) }) }));
  parts.push(entryPanel());
  parts.push(h("section", { class: "panel", id: "sheet" }, h("h2", { text: t("sheet.deals") }), sheetTable()));
  parts.push(toolsPanel());
  return parts;
}

// ------------------------------------------------------------------ create mode

async function loadCatalog() {
  const { status, data } = await api("GET", "/api/rulesets");
  if (status === 200) S.catalog = data;
  render();
}

function currentRules() {
  if (S.form.house) return S.form.house.rules;
  return S.catalog?.rulesets.find((r) => r.id === S.form.ruleset) || S.catalog?.rulesets[0] || null;
}

async function chooseHouse(file) {
  const text = await file.text();
  const { status, data } = await api("POST", "/api/rulesets/check", { ruleset_text: text });
  S.form.options = {};
  if (status === 200 && data.ok) S.form.house = { text, name: file.name, rules: data.ruleset, error: null };
  else {
    const error = data?.diagnostics?.map((d) => d.text).join("\n") || data?.error?.message || t("sheet.offline");
    S.form.house = { text: null, name: file.name, rules: null, error };
  }
  render();
}

function optionsField(rules) {
  const f = S.form;
  const opts = rules?.options || [];
  const body = h("div", {});
  if (!opts.length) body.append(h("p", { class: "doc", text: t("no_options") }));
  for (const o of opts) {
    const id = `opt-${o.name}`;
    const value = o.name in f.options ? f.options[o.name] : o.default;
    let control;
    if (o.type === "bool") {
      control = h("input", { type: "checkbox", id, checked: !!value });
      control.addEventListener("change", () => { f.options[o.name] = control.checked; });
    } else if (o.type === "choice") {
      control = h("select", { id }, (o.choices || []).map((c) => h("option", { value: c, selected: c === value,
        text: c === o.default ? `${valueLabel(o, c)} (${t("default")})` : valueLabel(o, c) })));
      control.addEventListener("change", () => { f.options[o.name] = control.value; });
    } else {
      control = h("input", { type: "number", id, value: value ?? "", min: o.minimum ?? undefined,
        max: o.maximum ?? undefined, inputmode: "numeric" });
      control.addEventListener("change", () => {
        const v = parseInt(control.value, 10);
        if (Number.isFinite(v)) f.options[o.name] = v; else delete f.options[o.name];
      });
    }
    const doc = o.doc?.[getLang()] || o.doc?.en || "";
    body.append(h("div", { class: "option-row" }, h("label", { class: "name", for: id, text: optionLabel(o) }), control,
      doc ? h("div", { class: "doc", text: doc }) : null));
  }
  const changed = Object.keys(f.options).length > 0;
  return h("details", { class: "field options", id: "sheet-options", open: changed },
    h("summary", { text: t("options") }), body);
}

async function create(body) {
  if (S.busy) return;
  S.busy = true;
  render();
  const { status, data } = await api("POST", "/api/sheets", body);
  S.busy = false;
  if (status === 201) {
    location.assign(data.edit);
    return;
  }
  S.notice = { text: data?.error?.message || t("sheet.offline"), kind: "warn" };
  render();
}

function renderCreate() {
  const f = S.form;
  const rules = currentRules();
  if (rules && !rules.players.includes(f.players)) f.players = rules.players.includes(3) ? 3 : rules.players[0];
  const rsSel = h("select", { id: "sheet-ruleset" }, (S.catalog?.rulesets || []).map((r) =>
    h("option", { value: r.id, selected: r.id === f.ruleset }, r.names?.[getLang()] || r.names?.en || r.id)));
  rsSel.addEventListener("change", () => { f.ruleset = rsSel.value; f.options = {}; render(); });
  const house = h("input", { type: "file", id: "sheet-house", accept: ".yaml,.yml,text/yaml" });
  house.addEventListener("change", () => { if (house.files[0]) chooseHouse(house.files[0]); });
  const plSel = h("select", { id: "sheet-players" }, (rules?.players || [3]).map((n) =>
    h("option", { value: String(n), selected: n === f.players }, String(n))));
  plSel.addEventListener("change", () => { f.players = Number(plSel.value); render(); });
  const names = [...Array(f.players).keys()].map((p) => {
    const input = h("input", { type: "text", id: `sheet-name-${p}`, maxlength: "24", autocomplete: "off",
      placeholder: `P${p}` });
    input.value = f.names[p] || "";
    input.addEventListener("input", () => {
      f.names[p] = input.value;
      const option = $(`#sheet-dealer option[value="${p}"]`);
      if (option) option.textContent = input.value.trim() || `P${p}`;
    });
    return [h("label", { for: `sheet-name-${p}`, text: t("sheet.player_n", { n: p + 1 }) }), input];
  });
  const dealer = h("select", { id: "sheet-dealer" }, [...Array(f.players).keys()].map((p) =>
    h("option", { value: String(p), selected: p === f.dealer }, f.names[p]?.trim() || `P${p}`)));
  dealer.addEventListener("change", () => { f.dealer = Number(dealer.value); });
  const file = h("input", { type: "file", id: "open-file", accept: ".json,application/json" });
  file.addEventListener("change", async () => {
    if (file.files[0]) create({ sheet_text: await file.files[0].text() });
  });
  const start = () => {
    const given = f.names.slice(0, f.players).map((n) => (n || "").trim());
    const rules = f.house ? { ruleset_text: f.house.text } : { ruleset: f.ruleset };
    create({ ...rules, players: f.players, options: f.options, dealer: Math.min(f.dealer, f.players - 1),
      names: given.some(Boolean) ? given.map((n, p) => n || `P${p}`) : [] });
  };
  return [
    h("p", { class: `notice warn${S.notice ? "" : " hidden"}`, id: "notice", role: "status", text: noticeText() }),
    h("section", { class: "panel" },
      h("h2", { text: t("sheet.new_sheet") }),
      h("p", { class: "sub-title", text: t("sheet.intro") }),
      h("div", { class: "field" }, h("label", { for: "sheet-ruleset", text: t("sheet.ruleset") }),
        f.house ? h("p", { class: f.house.error ? "err" : "ok", id: "house-name",
          text: f.house.rules ? `${f.house.name}: ${f.house.rules.id}` : f.house.name }) : rsSel,
        f.house?.error ? h("pre", { class: "diagnostics", id: "house-error", text: f.house.error }) : null,
        f.house ? h("button", { type: "button", class: "small", id: "house-clear",
          onclick: () => { f.house = null; f.options = {}; render(); } }, t("sheet.clear"))
          : h("label", { class: "file" }, h("span", { class: "doc", text: t("sheet.house_file") }), house)),
      h("div", { class: "field" }, h("label", { for: "sheet-players", text: t("sheet.players") }), plSel),
      h("fieldset", { class: "field" }, h("legend", { text: t("sheet.names") }), h("div", { class: "names-grid" }, names)),
      h("div", { class: "field" }, h("label", { for: "sheet-dealer", text: t("sheet.first_dealer") }), dealer),
      optionsField(rules),
      h("div", { class: "row-buttons" },
        h("button", { type: "button", class: "primary", id: "start-sheet",
          disabled: S.busy || !S.catalog || (f.house && !f.house.rules), onclick: start },
          t("sheet.start")))),
    h("section", { class: "panel tools" },
      h("label", { class: "file" }, h("span", { text: t("sheet.open_file") }), file)),
  ];
}

// ------------------------------------------------------------------ render

function render(focusAnswer = false) {
  document.title = `${t("sheet.title")}${S.view ? ` — ${S.view.ruleset}` : ""}`;
  document.documentElement.lang = getLang();
  const sub = S.view ? `${S.view.ruleset} · ${t("sheet.players")}: ${S.view.names.join(", ")}` : "";
  fill(app,
    h("header", { class: "topbar" },
      h("div", { class: "brand" }, h("div", {}, h("h1", { text: t("sheet.title") }),
        sub ? h("p", { class: "sub-title", id: "sheet-sub", text: sub }) : null)),
      langSelect(() => { render(); if (token && S.view && S.view.winner === null) ask().then(() => render()); })),
    sheetId ? renderSheet() : renderCreate(),
    h("p", { class: "footer" }, h("a", { href: "/" }, t("sheet.tables")), " · ", h("a", { href: "/s" }, t("sheet.new_sheet"))));
  const input = $("#answer");
  // after an answer typed (or a question with nothing to tap) the next one takes the keys
  if (focusAnswer && input && (S.typed || !$(".quick"))) input.focus();
  if (focusAnswer && !input && S.typed && $("#add-deal")) $("#add-deal").focus();
  S.typed = false;
}

if (sheetId) {
  render();
  load();
  window.tysiacSheet.timer = setInterval(poll, 5000);
} else {
  render();
  loadCatalog();
}
