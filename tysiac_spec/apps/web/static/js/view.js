// Reading the state for people: actions and events in words, the trick just taken, the
// match score table. No state of its own: the page passes the names of the seats.

import { h } from "./dom.js";
import { t, getLang } from "./i18n.js";
import { cardName, shortName, suitName } from "./cards.js";

/** Cards in a trick: the players less the one sitting out (``sitter``). */
export function trickSize(v, players) {
  return players - (v.sitter !== null && v.sitter !== undefined ? 1 : 0);
}

/** The trick taken last in this deal, from the public actions: {key, cards, winner} or null. */
export function completedTrick(st, players) {
  const v = st.view || {};
  if (v.phase !== "play") return null;
  const plays = (st.last || []).filter((a) => /^play /.test(a.action));
  const current = (v.trick || []).length;
  const before = plays.slice(0, plays.length - current);
  const size = trickSize(v, players);
  if (before.length < size || size < 1) return null;
  const trick = before.slice(-size);
  const winner = current ? plays[plays.length - current].seat : v.turn;
  return { key: trick[trick.length - 1].v, cards: trick.map((a) => [a.seat, a.action.split(" ")[1]]), winner };
}

export function actionLabel(text, name, { speak = false } = {}) {
  const card = (c) => (speak ? cardName(c, getLang()) : shortName(c));
  let m;
  if ((m = /^bid (\d+)$/.exec(text))) return t("act.bid", { n: m[1] });
  if ((m = /^bid (\S.*)$/.exec(text))) return t("act.named", { kind: t(`kind.${m[1]}`) });
  if ((m = /^contract (\d+)$/.exec(text))) return t("act.contract", { n: m[1] });
  if ((m = /^talon (\d+)$/.exec(text))) return t("act.talon", { n: +m[1] + 1 });
  if ((m = /^give (\S+) to (\d+)$/.exec(text))) return t("act.give", { card: card(m[1]), name: name(+m[2]) });
  if ((m = /^discard (\S+)$/.exec(text))) return t("act.discard", { card: card(m[1]) });
  if ((m = /^play (\S+) marriage$/.exec(text))) return t("act.play_marriage", { card: card(m[1]) });
  if ((m = /^play (\S+) aces$/.exec(text))) return t("act.play_aces", { card: card(m[1]) });
  if ((m = /^play (\S+)$/.exec(text))) return t("act.play", { card: card(m[1]) });
  if ((m = /^marriage (\S+)$/.exec(text))) return t("act.marriage", { suit: suitName(m[1], getLang()) });
  const key = `act.${text}`;
  const word = t(key);
  return word === key ? text : word;
}

/** What seat `seat` did, in words: "Ala bids 120", "Ola plays Q♥". */
export function saidText(seat, action, plainName, { speak = false } = {}) {
  const name = plainName(seat);
  const card = (c) => (speak ? cardName(c, getLang()) : shortName(c));
  let m;
  if ((m = /^bid (\d+)$/.exec(action))) return t("said.bid", { name, n: m[1] });
  if (action === "pass") return t("said.pass", { name });
  if ((m = /^play (\S+) marriage$/.exec(action))) return t("said.play_marriage", { name, card: card(m[1]) });
  if ((m = /^play (\S+)/.exec(action))) return t("said.play", { name, card: card(m[1]) });
  if ((m = /^give \? to (\d+)$/.exec(action))) return t("said.hidden", { name, to: plainName(+m[1]) });
  if ((m = /^give (\S+) to (\d+)$/.exec(action))) return t("said.give", { name, card: card(m[1]), to: plainName(+m[2]) });
  if (action === "discard ?") return t("said.discard_hidden", { name });
  return t("said.other", { name, text: actionLabel(action, plainName, { speak }) });
}

export function eventText(ev, plainName) {
  const words = ev.words?.[getLang()];
  if (words) return ev.seat !== null && ev.seat !== undefined ? `${plainName(ev.seat)}: ${words}` : words;
  const key = `ev.${ev.kind}`;
  const name = ev.seat !== null && ev.seat !== undefined ? plainName(ev.seat) : "";
  const value = ev.value === null || ev.value === undefined ? "" : signed(ev.value);
  const mine = t(key, { name, value });
  if (mine !== key) return mine.replace(" ()", "");
  return name ? `${name}: ${ev.text || ev.kind}` : ev.text || ev.kind;
}

export function signed(v) {
  return v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "0";
}

export function scoreTable(deals, totals, seats, plainName, highlight) {
  const head = h("tr", {}, h("th", { scope: "col", text: "#" }),
    seats.map((x, i) => h("th", { scope: "col", title: plainName(i), text: plainName(i) })));
  const rows = deals.map((row) => h("tr", { class: highlight === row.deal ? "hl" : null },
    h("th", { scope: "row", text: String(row.deal + 1) }),
    (row.scores || []).map((sc, i) => {
      const ch = row.changes?.[i] ?? 0;
      return h("td", {}, String(sc), h("span", { class: `chg${ch < 0 ? " neg" : ""}`, text: signed(ch) }));
    })));
  const total = h("tr", { class: "total" }, h("td", { text: t("score") }), totals.map((x) => h("td", { text: String(x) })));
  return h("table", { class: "scores" }, h("thead", {}, head), h("tbody", {}, rows, total));
}

