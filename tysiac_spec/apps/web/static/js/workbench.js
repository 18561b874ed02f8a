// The house-rule workbench (/w, /w/<saved id>): every rule of a base ruleset as a control,
// built by the server from the JSON Schema and the base's table options (GET
// /api/rulesets/controls); beside it the house file as YAML, kept in step both ways (POST
// /api/rulesets/house writes the YAML from the changes, and reads the changes from the YAML);
// checked as you type (POST /api/rulesets/check, tysiac validate's messages at line:col);
// the rule book (POST /api/rulesets/book) and what differs from the base (POST
// /api/rulesets/compare); play it, save it under a link, download, upload.
// Every text from a person or a file goes in with textContent; the rule book's HTML is
// rendered and escaped by the server's templates and parsed with DOMParser, scripts and
// event attributes dropped.

import { h, fill, $ } from "./dom.js";
import { LANGS, getLang, setLang, t } from "./i18n.js";


/** The workbench's words ("wb.*" in i18n.js, the pages' one dictionary). */
function w(key, vars = {}) {
  return t(`wb.${key}`, vars);
}

const state = {
  catalog: null,
  base: "pl-standard",
  controls: null, // the server's form: {base, counts, sections}
  byPath: new Map(),
  changes: {},
  id: "my-house",
  name: "My house rules",
  lastOk: false,
  checkTimer: null,
  seq: 0,
};

async function api(method, path, body) {
  const resp = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const kind = resp.headers.get("Content-Type") || "";
  let data = null;
  try { data = kind.includes("json") ? await resp.json() : await resp.text(); } catch { data = null; }
  return { status: resp.status, data };
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// ------------------------------------------------------------------ the form

function controlInput(c) {
  const id = "c-" + c.path.replace(/[^A-Za-z0-9_-]/g, "_");
  let input;
  if (c.kind === "bool") {
    input = h("input", { type: "checkbox", id });
  } else if (c.kind === "int") {
    input = h("input", { type: "number", id, step: "1", min: c.min ?? undefined, max: c.max ?? undefined, inputmode: "numeric" });
    if (c.nullable) input.placeholder = w("none");
  } else if (c.kind === "choice") {
    input = h("select", { id });
    if (c.nullable) input.append(h("option", { value: "", text: w("none") }));
    for (const ch of c.choices) input.append(h("option", { value: String(ch.value), text: ch.label === String(ch.value) ? ch.label : `${ch.label} (${ch.value})` }));
  } else {
    input = h("input", { type: "text", id, spellcheck: "false", autocomplete: "off" });
    if (c.nullable) input.placeholder = w("none");
  }
  input.dataset.path = c.path;
  if (c.set_by) input.disabled = true;
  const row = h("div", { class: "wb-row", dataset: { row: c.path } },
    h("label", { for: id, text: c.label, title: c.path }), input);
  if (c.set_by) row.append(h("p", { class: "wb-note", text: w("set_by", { o: `“${c.set_by_label || c.set_by}”` }) }));
  if (c.per_count) {
    // the base sets this rule again per player count: shown, not changed by this control
    row.append(h("p", { class: "wb-note wb-per-count" },
      c.per_count.map((o) => w("per_count", { n: o.n, v: shownValue(c, o.value) })).join(" · "),
      " ", w("per_count_note", { p: c.per_count[0].path })));
  }
  if (c.doc) row.append(h("p", { class: "wb-doc", text: c.doc }));
  row.append(h("p", { class: "wb-err", hidden: true }));
  const onChange = () => {
    const value = readInput(c, input);
    if (value === undefined) return;
    if (same(value, c.value)) delete state.changes[c.path];
    else state.changes[c.path] = value;
    row.classList.toggle("changed", c.path in state.changes);
    writeYaml();
  };
  input.addEventListener("change", onChange);
  if (c.kind === "formula" || c.kind === "text" || c.kind === "int") {
    let timer = null;
    input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(onChange, 350); });
  }
  return row;
}

/** A value of control `c` as the form shows it (a choice's words, yes/no, the formula). */
function shownValue(c, value) {
  if (value === null || value === undefined) return w("none");
  if (c.kind === "bool") return value ? w("yes") : w("no");
  const ch = c.kind === "choice" && c.choices.find((x) => String(x.value) === String(value));
  return ch ? ch.label : String(value);
}

function readInput(c, input) {
  if (c.kind === "bool") return input.checked;
  const raw = input.value.trim();
  if (raw === "") return c.nullable ? null : undefined;
  if (c.kind === "int") {
    const n = Number(raw);
    return Number.isInteger(n) ? n : undefined;
  }
  if (c.kind === "choice") return c.choices.find((ch) => String(ch.value) === raw)?.value ?? raw;
  return raw;
}

function showValue(c) {
  const input = document.querySelector(`[data-path="${CSS.escape(c.path)}"]`);
  if (!input) return;
  const value = c.path in state.changes ? state.changes[c.path] : c.value;
  if (c.kind === "bool") input.checked = Boolean(value);
  else input.value = value === null || value === undefined ? "" : String(value);
  input.closest(".wb-row").classList.toggle("changed", c.path in state.changes);
}

function renderForm() {
  const box = $("#form");
  box.replaceChildren();
  state.byPath = new Map();
  for (const sec of state.controls.sections) {
    const fs = h("fieldset", { dataset: { section: sec.id } }, h("legend", { text: sec.title }));
    for (const c of sec.controls) {
      state.byPath.set(c.path, c);
      fs.append(controlInput(c));
    }
    box.append(fs);
  }
  for (const c of state.byPath.values()) showValue(c);
}

async function loadControls() {
  const { status, data } = await api("GET", `/api/rulesets/controls?base=${encodeURIComponent(state.base)}&lang=${getLang()}`);
  if (status !== 200) return;
  state.controls = data;
  renderForm();
}

// ------------------------------------------------------------------ YAML <-> form

async function writeYaml(keep = true) {
  // the file as it stands goes along: what it writes beyond the form's rules is kept
  const seq = ++state.seq;
  const body = { base: state.base, changes: state.changes, id: state.id, name: state.name };
  if (keep) body.previous = $("#yaml").value;
  const { status, data } = await api("POST", "/api/rulesets/house", body);
  if (seq !== state.seq) return;
  if (status === 200) {
    $("#yaml").value = data.text;
    check(data.text);
  } else {
    $("#status").textContent = data?.error?.message || String(status);
    $("#status").className = "bad";
  }
}

async function readYaml(text) {
  const { status, data } = await api("POST", "/api/rulesets/house", { text });
  if (status !== 200) return;
  if (data.id) { state.id = data.id; $("#house-id").value = data.id; }
  if (data.name) { state.name = data.name; $("#house-name").value = data.name; }
  if (data.base && data.base !== state.base) {
    state.base = data.base;
    const sel = $("#base");
    if (!Array.from(sel.options).some((o) => o.value === data.base)) sel.append(h("option", { value: data.base, text: data.base }));
    sel.value = data.base;
    state.changes = data.changes;
    await loadControls();
  } else {
    state.changes = data.changes;
    for (const c of state.byPath.values()) showValue(c);
  }
  $("#other").textContent = data.other.length ? w("not_in_form", { p: data.other.join(", ") }) : "";
}

function onYamlInput() {
  clearTimeout(state.checkTimer);
  state.checkTimer = setTimeout(() => {
    const text = $("#yaml").value;
    state.seq++; // a form request still on its way no longer writes the YAML
    check(text);
    readYaml(text);
  }, 400);
}

// ------------------------------------------------------------------ checks, book, comparison

let checkSeq = 0;
async function check(text) {
  const seq = ++checkSeq;
  $("#status").textContent = w("checking");
  $("#status").className = "";
  const { status, data } = await api("POST", "/api/rulesets/check", { text });
  if (seq !== checkSeq) return;
  const list = $("#errors");
  list.replaceChildren();
  for (const row of document.querySelectorAll(".wb-err")) { row.hidden = true; row.textContent = ""; }
  if (status !== 200) {
    $("#status").textContent = data?.error?.message || String(status);
    $("#status").className = "bad";
    state.lastOk = false;
    return;
  }
  state.lastOk = data.ok;
  if (data.ok) {
    $("#status").textContent = w("ok");
    $("#status").className = "ok";
    refreshViews(text);
    return;
  }
  $("#status").textContent = w("bad", { n: data.errors.length });
  $("#status").className = "bad";
  for (const e of data.errors) {
    const where = e.line ? `${e.line}:${e.column}` : "";
    const li = h("li", { dataset: { line: e.line ?? "" }, text: e.text || `${where} ${e.code}: ${e.message}` });
    if (e.line) {
      // a click (or Enter) on an error selects its line in the file
      li.tabIndex = 0;
      li.title = `${w("go_line")} ${e.line}`;
      const go = () => selectLine(e.line);
      li.addEventListener("click", go);
      li.addEventListener("keydown", (ev) => { if (ev.key === "Enter") go(); });
    }
    list.append(li);
    const at = e.path && document.querySelector(`[data-row="${CSS.escape(e.path)}"] .wb-err`);
    if (at) { at.hidden = false; at.textContent = `${where} ${e.message}`; }
  }
}

function selectLine(line) {
  const ta = $("#yaml");
  const lines = ta.value.split("\n");
  const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  ta.focus();
  ta.setSelectionRange(start, start + (lines[line - 1] || "").length);
  const lh = parseFloat(getComputedStyle(ta).lineHeight) || 20;
  ta.scrollTop = Math.max(0, (line - 3) * lh);
}

let viewSeq = 0;
async function refreshViews(text) {
  const seq = ++viewSeq;
  const lang = getLang();
  const [book, diff] = await Promise.all([
    api("POST", "/api/rulesets/book", { text, lang }),
    api("POST", "/api/rulesets/compare", { text, lang }),
  ]);
  if (seq !== viewSeq) return;
  if (book.status === 200 && typeof book.data === "string") showBook(book.data);
  if (diff.status === 200) showDiff(diff.data);
}

function showBook(html) {
  // the server's rule book (templates escape every text of the file); nothing active kept
  // (the page's CSP allows no inline style: the book's own styles go before parsing; the
  // templates escape every quote inside an attribute, so a file's text cannot match these)
  const bare = html.replace(/<style[\s\S]*?<\/style>/gi, "").replace(/\sstyle="[^"]*"/gi, "");
  const doc = new DOMParser().parseFromString(bare, "text/html");
  for (const el of doc.querySelectorAll("script, style, link, iframe, object, embed, form, meta, nav")) el.remove();
  for (const el of doc.querySelectorAll("*")) {
    for (const a of Array.from(el.attributes)) {
      if (a.name.startsWith("on") || a.name === "style" || (/^(href|src|action)$/.test(a.name) && /^\s*javascript:/i.test(a.value))) el.removeAttribute(a.name);
    }
  }
  const main = doc.querySelector("main") || doc.body;
  fill($("#book"), ...Array.from(main.childNodes).map((n) => document.importNode(n, true)));
}

function plain(text) {
  return String(text ?? "").replace(/`/g, "");
}

function showDiff(data) {
  const table = $("#diff");
  table.replaceChildren();
  const [baseId, houseId] = data.rulesets.map((r) => r.id);
  if (!data.rows.length) {
    table.append(h("tbody", {}, h("tr", {}, h("td", { text: w("no_diff") }))));
    return;
  }
  table.append(h("thead", {}, h("tr", {},
    h("th", { text: w("rule") }), h("th", { text: data.rulesets[0].title }), h("th", { text: data.rulesets[1].title }))));
  const body = h("tbody");
  for (const row of data.rows) {
    body.append(h("tr", { dataset: { path: row.path } },
      h("th", { scope: "row", text: row.label }),
      h("td", { text: plain(row.cells[baseId]) }),
      h("td", { class: "house", text: plain(row.cells[houseId]) })));
  }
  table.append(body);
}

// ------------------------------------------------------------------ keep, share, play

function download() {
  const text = $("#yaml").value;
  const blob = new Blob([text], { type: "text/yaml" });
  const a = h("a", { href: URL.createObjectURL(blob), download: `${state.id || "house"}.yaml` });
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

async function upload(file) {
  if (!file) return;
  const text = await file.text();
  $("#yaml").value = text;
  state.seq++;
  check(text);
  readYaml(text);
}

async function save() {
  const { status, data } = await api("POST", "/api/houses", { text: $("#yaml").value });
  const out = $("#saved");
  if (status === 201) {
    fill(out, w("saved"), h("a", { href: data.url, id: "saved-link", text: data.url }));
    history.replaceState(null, "", `/w/${data.house}`);
  } else {
    out.textContent = status === 422 ? w("fix_first") : data?.error?.message || String(status);
  }
}

async function play() {
  const counts = state.controls?.counts || [3];
  const players = counts.includes(3) ? 3 : counts[0];
  const bots = state.catalog?.bots || ["heuristic"];
  const bot = bots.includes("heuristic") ? "heuristic" : bots[0];
  const seats = ["human", ...Array(players - 1).fill(`bot:${bot}`)];
  const { status, data } = await api("POST", "/api/tables", { ruleset_text: $("#yaml").value, players, seats });
  if (status === 201) location.assign(data.host);
  else $("#saved").textContent = status === 422 ? w("fix_first") : data?.error?.message || String(status);
}

// ------------------------------------------------------------------ study it

let studyTimer = null;
async function study() {
  clearTimeout(studyTimer);
  const matches = Number($("#study-matches").value) || 40;
  const { status, data } = await api("POST", "/api/studies", { text: $("#yaml").value, matches });
  const out = $("#study-status");
  if (status !== 202) {
    out.textContent = status === 422 ? w("fix_first") : data?.error?.message || String(status);
    return;
  }
  $("#study-progress").hidden = false;
  pollStudy(data.study);
}

async function pollStudy(id) {
  const { status, data } = await api("GET", `/api/studies/${id}`);
  const out = $("#study-status");
  const bar = $("#study-progress");
  if (status !== 200) { out.textContent = data?.error?.message || String(status); return; }
  bar.max = Math.max(1, data.total);
  bar.value = data.done;
  if (data.state === "queued") out.textContent = w("study_queued", { n: (data.position || 1) - 1 });
  else if (data.state === "running") out.textContent = w("study_running", { done: data.done, total: data.total });
  else if (data.state === "failed") { out.textContent = data.error; return; }
  if (data.state === "done") {
    out.textContent = w("study_done", { n: data.result.matches[0] });
    showStudy(id, data.result);
    return;
  }
  studyTimer = setTimeout(() => pollStudy(id), 1000);
}

function shown(e, kind) {
  if (!e || e.value === null || e.value === undefined) return "—";
  const f = kind === "proportion" ? (x) => `${(100 * x).toFixed(1)} %` : (x) => x.toFixed(1);
  return e.low === null || e.low === undefined ? f(e.value) : `${f(e.value)} [${f(e.low)}–${f(e.high)}]`;
}

function showStudy(id, result) {
  const box = $("#study-result");
  const table = h("table", { id: "study-table", class: "wb-study" },
    h("thead", {}, h("tr", {}, h("th", { text: w("figure") }),
      result.rulesets.map((r) => h("th", { text: r })), h("th", { text: "p" }))));
  const body = h("tbody");
  for (const row of result.rows) {
    const p = row.p_adjusted?.[0];
    const sig = row.significant?.[0];
    body.append(h("tr", { class: sig ? "sig" : undefined, dataset: { key: row.key } },
      h("th", { scope: "row", text: row.label + (row.unit && row.unit !== "%" ? ` (${row.unit})` : "") }),
      row.estimates.map((e) => h("td", { text: shown(e, row.kind) })),
      h("td", { text: p === null || p === undefined ? "—" : `${p < 0.001 ? "< 0.001" : p.toFixed(3)}${sig ? " *" : ""}` })));
  }
  table.append(body);
  fill(box, table, h("p", {}, h("a", { href: `/studies/${id}`, target: "_blank", rel: "noopener", id: "study-link", text: w("study_page") })));
}

// ------------------------------------------------------------------ the page

function build() {
  const app = $("#app");
  const langSel = h("select", { id: "lang" }, LANGS.map((l) => h("option", { value: l, selected: l === getLang(), text: l.toUpperCase() })));
  langSel.addEventListener("change", async () => {
    setLang(langSel.value);
    build();
    await loadControls();
    check($("#yaml").value);
  });
  const baseSel = h("select", { id: "base" },
    (state.catalog?.rulesets || []).map((r) => h("option", { value: r.id, selected: r.id === state.base, text: r.names?.[getLang()] || r.names?.en || r.id })));
  baseSel.addEventListener("change", async () => {
    state.base = baseSel.value;
    state.changes = {};
    await loadControls();
    writeYaml(false);
  });
  const idIn = h("input", { id: "house-id", value: state.id, pattern: "[a-z0-9][a-z0-9-]{0,63}", spellcheck: "false" });
  idIn.addEventListener("change", () => { state.id = idIn.value.trim(); writeYaml(); });
  const nameIn = h("input", { id: "house-name", value: state.name });
  nameIn.addEventListener("change", () => { state.name = nameIn.value.trim(); writeYaml(); });
  const onlyChanged = h("input", { type: "checkbox", id: "only-changed" });
  onlyChanged.addEventListener("change", () => $("#form").classList.toggle("wb-only-changed", onlyChanged.checked));
  const yaml = h("textarea", { id: "yaml", spellcheck: "false", autocomplete: "off", "aria-label": w("yaml") });
  yaml.addEventListener("input", onYamlInput);
  const fileIn = h("input", { type: "file", id: "upload", accept: ".yaml,.yml,text/yaml,text/plain" });
  fileIn.addEventListener("change", () => upload(fileIn.files[0]));
  const old = $("#yaml")?.value;
  fill(app,
    h("header", { class: "wb-top" },
      h("h1", { text: w("title") }),
      h("label", {}, w("lang"), langSel),
      h("label", {}, w("base"), baseSel),
      h("label", {}, w("id"), idIn),
      h("label", {}, w("name"), nameIn)),
    h("div", { class: "wb-grid" },
      h("section", {},
        h("label", {}, onlyChanged, " ", w("only_changed")),
        h("form", { id: "form", class: "wb-form", onsubmit: (e) => e.preventDefault() })),
      h("section", { class: "wb-side" },
        h("h2", { text: w("yaml") }),
        yaml,
        h("p", { id: "status", role: "status", "aria-live": "polite" }),
        h("ol", { id: "errors" }),
        h("p", { id: "other" }),
        h("div", { class: "wb-actions" },
          h("button", { type: "button", id: "play", onclick: play, text: w("play") }),
          h("button", { type: "button", id: "save", onclick: save, text: w("save") }),
          h("button", { type: "button", id: "download", onclick: download, text: w("download") }),
          h("label", { class: "btn", for: "upload" }, w("upload"), fileIn)),
        h("p", { id: "saved" }),
        h("div", { class: "wb-actions" },
          h("label", { for: "study-matches" }, w("matches"), " ",
            h("input", { type: "number", id: "study-matches", value: "40", min: "1", max: "200", step: "1" })),
          h("button", { type: "button", id: "study", onclick: study, text: w("study") })),
        h("progress", { id: "study-progress", hidden: true, value: "0", max: "1" }),
        h("p", { id: "study-status", role: "status" }),
        h("div", { id: "study-result" }),
        h("h2", { text: w("diff") }),
        h("table", { id: "diff" }),
        h("h2", { text: w("book") }),
        h("div", { id: "book", lang: getLang() }))));
  if (old !== undefined) yaml.value = old;
}

async function start() {
  document.documentElement.lang = getLang();
  const catalog = await api("GET", "/api/rulesets");
  state.catalog = catalog.status === 200 ? catalog.data : null;
  const saved = location.pathname.match(/^\/w\/([A-Za-z0-9_-]{1,40})$/);
  let text = null;
  if (saved) {
    const { status, data } = await api("GET", `/api/houses/${saved[1]}`);
    if (status === 200) text = data.text;
  }
  build();
  if (saved && text === null) $("#saved").textContent = w("not_found");
  if (text !== null) {
    $("#yaml").value = text;
    await readYaml(text);
    if (!state.controls) await loadControls();
    check(text);
  } else {
    await loadControls();
    writeYaml(false);
  }
  document.body.dataset.ready = "1";
}

start();
