// The start page: choose the rules (shipped or the table's own file), the players, the
// table options and the seats; create the table; show each human seat's secret link with a
// QR code, the host link and the watch link. Protocol: tysiac_spec/apps/web/protocol.py.

import { h, fill, $ } from "./dom.js";
import { t, getLang, setLang, langSelect, optionLabel, valueLabel } from "./i18n.js";
import { cardSvg, setSprite } from "./cards.js";

const state = {
  catalog: null, // GET /api/rulesets
  source: "shipped", // or "house"
  rulesetId: null,
  house: { text: "", ruleset: null, diagnostics: null, checking: false },
  players: null,
  options: {}, // name -> value the user set
  seats: [], // [{kind, name}]
  hostSeat: 0, // the seat the host plays, or "watch"
  chat: true,
  hints: true,
  spectators: false,
  created: null, // the POST /api/tables answer
  error: null,
  busy: false,
};

const app = $("#app");

async function api(method, path, body) {
  const resp = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await resp.json(); } catch { data = null; }
  return { status: resp.status, data };
}

function currentRuleset() {
  if (state.source === "house") return state.house.ruleset;
  return state.catalog?.rulesets.find((r) => r.id === state.rulesetId) || null;
}

function nameOf(r) {
  return r.names?.[getLang()] || r.names?.en || r.id;
}

function docOf(doc) {
  if (!doc) return "";
  return doc[getLang()] || doc.en || "";
}

function fitPlayers() {
  const r = currentRuleset();
  if (!r) return;
  const counts = r.players || [];
  if (!counts.includes(state.players)) state.players = counts.includes(3) ? 3 : counts[0];
  const n = state.players || 0;
  while (state.seats.length < n) {
    state.seats.push({ kind: state.seats.length === 0 ? "human" : "bot:heuristic", name: "" });
  }
  state.seats.length = n;
  // options of another ruleset are dropped
  const names = new Set((r.options || []).map((o) => o.name));
  for (const k of Object.keys(state.options)) if (!names.has(k)) delete state.options[k];
}

// ------------------------------------------------------------------ render

function render() {
  document.title = `${t("title")} — ${t("new_table")}`;
  // the footer's links are in the page's HTML (they work without script), in English there
  for (const [sel, key] of [["#sheet-link", "sheet_link"], ["#workbench-link", "workbench_link"]]) {
    const link = $(sel);
    if (link) link.textContent = t(key);
  }
  fill(app,
    h("header", { class: "topbar" },
      h("div", { class: "brand" }, cardSvg("AH", { label: "" }), h("h1", { text: t("title") })),
      langSelect(() => render())),
    state.created ? renderLinks() : renderForm(),
    h("p", { class: "footer" },
      h("a", { href: `/compare?lang=${getLang()}` }, t("shipped")), " · ",
      h("a", { href: "/" }, t("new_table"))),
  );
}

function renderForm() {
  if (!state.catalog) {
    return h("section", { class: "panel" },
      state.error ? h("p", { class: "err", role: "alert", text: state.error }) : h("p", { text: t("connecting") }));
  }
  const form = h("form", { class: "panel", id: "create", onsubmit: onCreate, novalidate: true },
    h("h2", { text: t("new_table") }),
    renderRulesets(),
    renderPlayers(),
    renderOptions(),
    renderSeats(),
    h("fieldset", { class: "field" },
      h("legend", { class: "visually-hidden", text: t("options") }),
      h("div", { class: "choices" },
        checkbox("opt-chat", t("chat_on"), state.chat, (v) => { state.chat = v; }),
        checkbox("opt-spectators", t("spectators"), state.spectators, (v) => { state.spectators = v; }),
        checkbox("opt-hints", t("hints_on"), state.hints, (v) => { state.hints = v; }))),
    state.error ? h("p", { class: "err", role: "alert", id: "create-error", text: state.error }) : null,
    h("button", { type: "submit", class: "primary", id: "create-btn", disabled: state.busy || !currentRuleset() },
      state.busy ? t("creating") : t("create")),
  );
  return form;
}

function checkbox(id, label, checked, onChange) {
  const input = h("input", { type: "checkbox", id, checked });
  input.addEventListener("change", () => onChange(input.checked));
  return h("label", { class: "choice", for: id }, input, h("span", { text: label }));
}

function renderRulesets() {
  const list = h("div", { class: "rulesets", role: "radiogroup" });
  for (const r of state.catalog.rulesets) {
    if (!(r.players || []).length) continue; // a common base cannot be played on its own
    const id = `rs-${r.id}`;
    const input = h("input", { type: "radio", name: "ruleset", id, value: r.id,
      checked: state.source === "shipped" && state.rulesetId === r.id });
    input.addEventListener("change", () => {
      state.source = "shipped";
      state.rulesetId = r.id;
      fitPlayers();
      render();
    });
    list.append(h("label", { class: "choice", for: id }, input,
      h("span", {},
        h("span", { text: nameOf(r) }),
        h("span", { class: "sub" }, `${r.id} · ${(r.players || []).join("/")} ${t("players").toLowerCase()} · `,
          h("a", { href: `/rules/${encodeURIComponent(r.id)}?lang=${getLang()}`, target: "_blank", rel: "noopener",
            text: t("rule_book") })))));
  }
  const houseInput = h("input", { type: "radio", name: "ruleset", id: "rs-house", value: "house",
    checked: state.source === "house" });
  houseInput.addEventListener("change", () => {
    state.source = "house";
    fitPlayers();
    render();
  });
  list.append(h("label", { class: "choice", for: "rs-house" }, houseInput,
    h("span", {}, h("span", { text: t("house_file") }), h("span", { class: "sub", text: "YAML" }))));
  return h("fieldset", { class: "field" }, h("legend", { text: t("ruleset") }), list,
    state.source === "house" ? renderHouse() : null);
}

function renderHouse() {
  const area = h("textarea", { id: "house-text", spellcheck: "false", "aria-label": t("house_file"),
    placeholder: "id: my-house\nextends: pl-standard\n…" });
  area.value = state.house.text;
  area.addEventListener("input", () => {
    state.house.text = area.value;
    state.house.ruleset = null;
  });
  const file = h("input", { type: "file", id: "house-file", accept: ".yaml,.yml,text/yaml,text/plain",
    class: "visually-hidden" });
  file.addEventListener("change", async () => {
    const f = file.files?.[0];
    if (!f) return;
    state.house.text = await f.text();
    state.house.ruleset = null;
    await checkHouse();
  });
  const d = state.house.diagnostics;
  return h("div", { class: "field" },
    h("p", { class: "doc", text: t("house_hint") }),
    area,
    h("div", { class: "choices" },
      h("label", { class: "choice", for: "house-file" }, file, h("span", { text: t("choose_file") })),
      h("button", { type: "button", id: "house-check", onclick: checkHouse, disabled: state.house.checking },
        t("check"))),
    state.house.ruleset ? h("p", { class: "ok", role: "status", id: "house-ok", tabindex: "-1",
      text: `${t("file_ok")} ${nameOf(state.house.ruleset)}` }) : null,
    d && d.length ? h("pre", { class: "diagnostics", role: "alert", id: "house-errors", tabindex: "-1",
      text: d.map((x) => x.text || `${x.line ?? "?"}:${x.column ?? "?"}: ${x.code}: ${x.message}`).join("\n\n") })
      : null,
  );
}

async function checkHouse() {
  state.house.checking = true;
  state.house.diagnostics = null;
  state.error = null;
  render();
  try {
    const { status, data } = await api("POST", "/api/rulesets/check", { ruleset_text: state.house.text });
    if (status === 200 && data?.ok) {
      state.house.ruleset = data.ruleset;
    } else if (status === 200 && data?.diagnostics) {
      state.house.ruleset = null;
      state.house.diagnostics = data.diagnostics;
    } else {
      state.error = data?.error?.message || `${t("error")} ${status}`;
    }
  } catch (e) {
    state.error = String(e.message || e);
  }
  state.house.checking = false;
  fitPlayers();
  render();
  $("#house-ok, #house-errors, #create-error")?.focus?.();
}

function renderPlayers() {
  const r = currentRuleset();
  if (!r) return null;
  const box = h("div", { class: "choices", role: "radiogroup" });
  for (const n of r.players || []) {
    const id = `players-${n}`;
    const input = h("input", { type: "radio", name: "players", id, value: n, checked: state.players === n });
    input.addEventListener("change", () => {
      state.players = n;
      fitPlayers();
      render();
    });
    box.append(h("label", { class: "choice", for: id }, input, h("span", { text: t("n_players", { n }) })));
  }
  return h("fieldset", { class: "field" }, h("legend", { text: t("players") }), box);
}

function renderOptions() {
  const r = currentRuleset();
  if (!r) return null;
  const opts = r.options || [];
  const body = h("div", {});
  if (!opts.length) body.append(h("p", { class: "doc", text: t("no_options") }));
  for (const o of opts) {
    const id = `opt-${o.name}`;
    const value = o.name in state.options ? state.options[o.name] : o.default;
    let control;
    if (o.type === "bool") {
      control = h("input", { type: "checkbox", id, checked: !!value });
      control.addEventListener("change", () => { state.options[o.name] = control.checked; });
    } else if (o.type === "choice") {
      control = h("select", { id });
      for (const c of o.choices || []) {
        control.append(h("option", { value: c, selected: c === value,
          text: c === o.default ? `${valueLabel(o, c)} (${t("default")})` : valueLabel(o, c) }));
      }
      control.addEventListener("change", () => { state.options[o.name] = control.value; });
    } else {
      control = h("input", { type: "number", id, value: value ?? "", min: o.minimum ?? undefined,
        max: o.maximum ?? undefined, inputmode: "numeric" });
      control.addEventListener("change", () => {
        const v = parseInt(control.value, 10);
        if (Number.isFinite(v)) state.options[o.name] = v;
        else delete state.options[o.name];
      });
    }
    body.append(h("div", { class: "option-row" },
      // the rule book's name of the option, and its id as `-O NAME=VALUE` writes it
      h("label", { class: "name", for: id }, optionLabel(o), " ", h("code", { class: "opt-id" }, breakable(o.name))),
      control,
      docOf(o.doc) ? h("div", { class: "doc", text: docOf(o.doc) }) : null));
  }
  return h("fieldset", { class: "field" }, h("legend", { text: t("options") }), body);
}

/** An option's name (`leftover_two_player`) with a line-break chance after each underscore
 * (a <wbr>, so the text stays the name): a narrow screen wraps it between its words, not
 * inside one ("leftover_two_p" over "layer"). */
function breakable(name) {
  return name.split("_").flatMap((part, i, all) => (i < all.length - 1 ? [`${part}_`, h("wbr")] : [part]));
}

function renderSeats() {
  const r = currentRuleset();
  if (!r) return null;
  const kinds = ["human", ...(state.catalog.bots || ["heuristic", "random"]).map((b) => `bot:${b}`)];
  const box = h("div", {});
  state.seats.forEach((seat, i) => {
    const sel = h("select", { id: `seat-${i}-kind`, "aria-label": `${t("seat_n", { n: i + 1 })}: ${t("human")} / ${t("bot")}` });
    for (const k of kinds) sel.append(h("option", { value: k, selected: k === seat.kind, text: t(k) === k ? k : t(k) }));
    sel.addEventListener("change", () => { seat.kind = sel.value; render(); });
    const name = h("input", { type: "text", id: `seat-${i}-name`, maxlength: 24, value: seat.name,
      placeholder: seat.kind === "human" ? t("name") : t(seat.kind), "aria-label": `${t("seat_n", { n: i + 1 })}: ${t("name")}`,
      disabled: seat.kind !== "human" });
    name.addEventListener("input", () => { seat.name = name.value; });
    // a bot needs no name: its kind takes the row
    if (seat.kind !== "human") sel.classList.add("wide");
    box.append(h("div", { class: "seat-row" }, h("span", { class: "n", text: t("seat_n", { n: i + 1 }) }), sel,
      seat.kind === "human" ? name : null));
  });
  // which seat the host plays (the host link is that seat's key too), or none: the host watches
  const humans = state.seats.map((x, i) => (x.kind === "human" ? i : null)).filter((i) => i !== null);
  if (!humans.includes(state.hostSeat) && state.hostSeat !== "watch") state.hostSeat = humans[0] ?? "watch";
  const host = h("select", { id: "host-seat" },
    humans.map((i) => h("option", { value: String(i), selected: state.hostSeat === i, text: t("seat_n", { n: i + 1 }) })),
    h("option", { value: "watch", selected: state.hostSeat === "watch", text: t("host_watches") }));
  host.addEventListener("change", () => { state.hostSeat = host.value === "watch" ? "watch" : Number(host.value); });
  box.append(h("div", { class: "option-row" }, h("label", { class: "name", for: "host-seat", text: t("host_plays") }), host));
  return h("fieldset", { class: "field" }, h("legend", { text: t("seats") }), box);
}

// ------------------------------------------------------------------ create

async function onCreate(ev) {
  ev.preventDefault();
  const r = currentRuleset();
  if (!r || state.busy) return;
  state.busy = true;
  state.error = null;
  render();
  const body = {
    players: state.players,
    options: { ...state.options },
    seats: state.seats.map((x) => x.kind),
    names: state.seats.map((x) => (x.kind === "human" && x.name.trim() ? x.name.trim() : null)),
    chat: state.chat,
    spectators: state.spectators,
    hints: state.hints,
    host_seat: state.hostSeat === "watch" ? null : state.hostSeat,
  };
  if (state.source === "house") body.ruleset_text = state.house.text;
  else body.ruleset = r.id;
  remember();
  try {
    const { status, data } = await api("POST", "/api/tables", body);
    if (status === 201 && data) {
      state.created = data;
    } else {
      state.error = data?.error?.message || `${t("error")} ${status}`;
      if (data?.diagnostics) {
        state.source = "house";
        state.house.diagnostics = data.diagnostics;
      }
    }
  } catch (e) {
    state.error = String(e.message || e);
  }
  state.busy = false;
  render();
  if (state.created) $("#links h2")?.focus();
}

// ------------------------------------------------------------------ the last table's choices

const MEMORY = "tysiac.start";

/** Keep this table's choices for the next one (in this browser only). */
function remember() {
  const keep = { source: state.source, rulesetId: state.rulesetId, players: state.players, options: state.options,
    seats: state.seats, chat: state.chat, spectators: state.spectators, hints: state.hints,
    house: state.source === "house" ? state.house.text : "" };
  try { localStorage.setItem(MEMORY, JSON.stringify(keep)); } catch { /* private mode or full */ }
}

function recall() {
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(MEMORY) || "null"); } catch { kept = null; }
  if (!kept || typeof kept !== "object") return;
  const known = state.catalog.rulesets.some((r) => r.id === kept.rulesetId && (r.players || []).length);
  if (known) state.rulesetId = kept.rulesetId;
  if (typeof kept.house === "string" && kept.house) state.house.text = kept.house;
  if (Number.isInteger(kept.players)) state.players = kept.players;
  if (kept.options && typeof kept.options === "object") state.options = { ...kept.options };
  if (Array.isArray(kept.seats)) {
    const kinds = new Set(["human", ...(state.catalog.bots || []).map((b) => `bot:${b}`)]);
    state.seats = kept.seats.filter((x) => x && kinds.has(x.kind))
      .map((x) => ({ kind: x.kind, name: typeof x.name === "string" ? x.name : "" }));
  }
  if (typeof kept.chat === "boolean") state.chat = kept.chat;
  if (typeof kept.spectators === "boolean") state.spectators = kept.spectators;
  if (typeof kept.hints === "boolean") state.hints = kept.hints;
}

// ------------------------------------------------------------------ links

function absolute(url) {
  return new URL(url, location.href).href;
}

function renderLinks() {
  const c = state.created;
  const hostSeat = c.seats.find((x) => x.kind === "human" && x.seat === hostSeatOf(c));
  const box = h("div", { class: "links" });
  box.append(linkCard("link-host", t("host_link") + (hostSeat ? ` — ${hostSeat.name}` : ""), absolute(c.host), true));
  for (const seat of c.seats) {
    if (seat.kind !== "human" || !seat.url) continue;
    if (hostSeat && seat.seat === hostSeat.seat) continue; // the host plays this seat by the host link
    box.append(linkCard(`link-seat-${seat.seat}`, `${t("seat_link", { n: seat.seat + 1 })} — ${seat.name}`,
      absolute(seat.url), false));
  }
  if (c.watch) {
    box.append(linkCard("link-watch", t("watch_link") + (state.spectators ? "" : ` — ${t("watch_off")}`),
      absolute(c.watch), false));
  }
  return h("section", { class: "panel", id: "links" },
    h("h2", { tabindex: "-1", text: t("links") }),
    h("p", { class: "doc", text: t("links_hint") }),
    box);
}

function hostSeatOf(c) {
  // the seat the host plays: as the server says, else as asked
  if (typeof c.host_seat === "number") return c.host_seat;
  if (c.host_seat === null) return -1;
  return state.hostSeat === "watch" ? -1 : state.hostSeat;
}

function linkCard(id, label, url, primary) {
  const qrSlot = h("div", { class: "hidden" });
  const qrBtn = h("button", { type: "button", class: "small", "aria-expanded": "false" }, t("show_qr"));
  qrBtn.addEventListener("click", async () => {
    if (qrSlot.classList.toggle("hidden")) {
      qrBtn.setAttribute("aria-expanded", "false");
      return;
    }
    qrBtn.setAttribute("aria-expanded", "true");
    if (!qrSlot.firstChild) qrSlot.append(await qrImage(url, label));
  });
  const copyBtn = h("button", { type: "button", class: "small" }, t("copy"));
  copyBtn.addEventListener("click", async () => {
    if (await copyText(url)) {
      copyBtn.textContent = t("copied");
      setTimeout(() => { copyBtn.textContent = t("copy"); }, 1500);
    }
  });
  return h("div", { class: "link-card", id },
    h("span", { class: "what", text: label }),
    h("span", {}),
    h("span", { class: "url", text: url }),
    h("div", { class: "buttons" },
      h("a", { href: url, class: primary ? "btn small primary" : "btn small", target: primary ? null : "_blank",
        rel: "noopener", text: primary ? t("play_here") : t("open") }),
      copyBtn, qrBtn),
    qrSlot,
  );
}

async function qrImage(url, label) {
  try {
    const resp = await fetch("/api/qr", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ text: url }) });
    if (!resp.ok) return h("p", { class: "err", text: `${t("error")} ${resp.status}` });
    let svg = await resp.text();
    // an SVG shown as an image needs its namespace (an inline SVG does not carry it)
    if (!/^<svg[^>]*\sxmlns=/.test(svg)) svg = svg.replace(/^<svg\b/, '<svg xmlns="http://www.w3.org/2000/svg"');
    // as an image: the SVG never becomes part of the page's markup
    return h("img", { class: "qr", alt: `${t("show_qr")}: ${label}`,
      src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg) });
  } catch (e) {
    return h("p", { class: "err", text: String(e.message || e) });
  }
}

async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch { /* fall back below */ }
  // plain HTTP on a LAN address is not a secure context: select and copy the old way
  const area = h("textarea", { class: "visually-hidden" });
  area.value = text;
  document.body.append(area);
  area.select();
  let ok = false;
  try { ok = document.execCommand("copy"); } catch { ok = false; }
  area.remove();
  return ok;
}

// ------------------------------------------------------------------ start

async function main() {
  setLang(getLang());
  render();
  try {
    const { status, data } = await api("GET", "/api/rulesets");
    if (status !== 200 || !data?.rulesets) throw new Error(`${t("error")} ${status}`);
    state.catalog = data;
    const playable = data.rulesets.filter((r) => (r.players || []).length);
    state.rulesetId = (playable.find((r) => r.id === "pl-standard") || playable[0])?.id ?? null;
    setSprite(playable.find((r) => r.id === state.rulesetId)?.sprite);  // the brand's card
    recall();
    fitPlayers();
  } catch (e) {
    state.error = String(e.message || e);
  }
  render();
}

main();
