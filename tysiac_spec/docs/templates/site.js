// The site's one script (plain JS, no library); every page reads the same without it.
"use strict";

// The header row of a table that scrolls sideways in its box cannot stick to the page in CSS (it
// sticks to the box): move it down by what the page has scrolled past the table's top. Without
// this script the table reads the same, its header at its top.
(() => {
  const boxes = [...document.querySelectorAll(".scroll")].filter((b) => b.querySelector("table.matrix thead"));
  function place() {
    for (const box of boxes) {
      const table = box.querySelector("table.matrix"), head = table.tHead;
      const scrolls = getComputedStyle(box).overflowX !== "visible";
      table.classList.toggle("moved", scrolls);
      const shift = scrolls ? Math.max(0, Math.min(-table.getBoundingClientRect().top,
                                                   table.offsetHeight - head.offsetHeight)) : 0;
      for (const th of head.rows[0].cells) th.style.transform = shift ? `translateY(${shift}px)` : "";
    }
  }
  addEventListener("scroll", place, { passive: true });
  addEventListener("resize", place);
  place();
})();

// The index's picker: show the variants of a country, for a number of players, with or without
// some key rules. Without this script the form stays hidden and every ruleset is listed.
(() => {
  const form = document.querySelector("form.picker");
  if (!form) return;
  const rows = [...document.querySelectorAll("section.variant")];
  const count = form.querySelector("[data-template]");
  function apply() {
    const country = form.elements.country.value, players = form.elements.players.value;
    const rules = [...form.querySelectorAll("select[data-rule]")].filter((s) => s.value);
    let shown = 0;
    for (const row of rows) {
      const played = row.dataset.rules.split(" ");
      const ok = (!country || row.dataset.country === country)
        && (!players || row.dataset.players.split(" ").includes(players))
        && rules.every((s) => played.includes(s.dataset.rule) === (s.value === "yes"));
      row.hidden = !ok;
      if (ok) shown += 1;
    }
    for (const h2 of document.querySelectorAll("main > h2")) {  // a heading with nothing under it
      let el = h2.nextElementSibling, any = false;
      while (el && el.tagName !== "H2") { if (el.matches("section.variant") && !el.hidden) any = true; el = el.nextElementSibling; }
      if (!h2.closest("form")) h2.hidden = !any && h2.nextElementSibling?.matches("section.variant");
    }
    count.textContent = count.dataset.template.replace("{n}", shown).replace("{total}", rows.length);
  }
  form.addEventListener("change", apply);
  form.addEventListener("submit", (e) => e.preventDefault());
  form.hidden = false;
  apply();
})();

// The search box: the rule books' rules of this language (search.<lang>.js, loaded on first
// use as a script, which a page opened from disk may load), matched word by word.
(() => {
  const form = document.querySelector("form.search");
  if (!form) return;
  const input = form.elements.q, list = form.querySelector("ol.hits");
  let entries = null;
  function load() {
    if (entries !== null) return Promise.resolve(entries);
    return new Promise((resolve) => {
      const tag = document.createElement("script");
      tag.src = form.dataset.root + form.dataset.index;
      tag.onload = () => { entries = window.TYSIAC_SEARCH || []; resolve(entries); };
      tag.onerror = () => { entries = []; resolve(entries); };
      document.head.append(tag);
    });
  }
  const fold = (s) => s.toLocaleLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  async function run() {
    const words = fold(input.value).split(/\s+/).filter(Boolean);
    list.replaceChildren();
    list.hidden = words.length === 0;
    if (!words.length) return;
    const here = decodeURIComponent(location.pathname.split("/").pop());  // this book's hits first
    const mine = ([, href]) => (href.split("#")[0].split("/").pop() === here ? 0 : 1);
    const found = (await load()).filter(([, , text]) => words.every((w) => fold(text).includes(w)))
      .map((hit, i) => [mine(hit), i, hit]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2])
      .slice(0, 12);
    for (const [title, href] of found) {
      const a = document.createElement("a");
      a.href = form.dataset.root + href;
      a.textContent = title;
      const li = document.createElement("li");
      li.append(a);
      list.append(li);
    }
    if (!found.length) {
      const li = document.createElement("li");
      li.textContent = form.dataset.none;
      list.append(li);
    }
  }
  input.addEventListener("input", run);
  form.addEventListener("submit", (e) => { e.preventDefault(); const first = list.querySelector("a"); if (first) first.click(); });
  form.hidden = false;
})();
