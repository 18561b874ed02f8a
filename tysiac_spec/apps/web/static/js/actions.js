// The legal actions the server lists, sorted into what the page offers: amounts to bid,
// cards to tap, buttons. The page never builds an action of its own: every text it sends is
// one of `legal` (protocol.py). Texts it does not know become plain buttons.

import { parseCard } from "./cards.js";

/**
 * legal: ["bid 110", "pass", "play QH", "play QH marriage", "give 9S to 2", …] ->
 * {bids: [{n, text}], named: [{kind, text}], contracts: [{n, text}], talons: [{n, text}],
 *  marriages: [{suit, text}], byCard: Map(card -> [{verb, text, to, extra}]), buttons: [text]}
 */
export function classify(legal) {
  const out = { bids: [], named: [], contracts: [], talons: [], marriages: [], byCard: new Map(), buttons: [] };
  for (const text of legal || []) {
    let m;
    if ((m = /^bid (\d+)$/.exec(text))) out.bids.push({ n: +m[1], text });
    else if ((m = /^bid (\S.*)$/.exec(text))) out.named.push({ kind: m[1], text });
    else if ((m = /^contract (\d+)$/.exec(text))) out.contracts.push({ n: +m[1], text });
    else if ((m = /^talon (\d+)$/.exec(text))) out.talons.push({ n: +m[1], text });
    else if ((m = /^marriage (\S+)$/.exec(text))) out.marriages.push({ suit: m[1], text });
    else if ((m = /^give (\S+) to (\d+)$/.exec(text)) && parseCard(m[1])) {
      addCard(out, m[1], { verb: "give", text, to: +m[2] });
    } else if ((m = /^discard (\S+)$/.exec(text)) && parseCard(m[1])) {
      addCard(out, m[1], { verb: "discard", text });
    } else if ((m = /^play (\S+)(?: (marriage|aces))?$/.exec(text)) && parseCard(m[1])) {
      addCard(out, m[1], { verb: "play", text, extra: m[2] || null });
    } else out.buttons.push(text);
  }
  out.bids.sort((a, b) => a.n - b.n);
  out.contracts.sort((a, b) => a.n - b.n);
  return out;
}

function addCard(out, card, action) {
  const key = parseCard(card).text;
  if (!out.byCard.has(key)) out.byCard.set(key, []);
  out.byCard.get(key).push(action);
}

function norm(text) {
  return String(text).trim().replace(/\s+/g, " ").toLowerCase();
}

/**
 * What a typed command means: {action: "<legal text>"} to send, {card: "QH"} to choose
 * among that card's actions, or null. Reads "QH", "10h", "q♥", "bid 120", "120", "pass",
 * "QH marriage", "give 9S to 2", "marriage hearts" — only what `legal` holds.
 */
export function resolveCommand(input, legal) {
  const typed = norm(input);
  if (!typed) return null;
  const byNorm = new Map((legal || []).map((a) => [norm(a), a]));
  if (byNorm.has(typed)) return { action: byNorm.get(typed) };
  // a card, with or without a verb before it and a word after it
  const words = typed.split(" ");
  const verbs = ["play", "give", "discard"];
  const start = verbs.includes(words[0]) ? 1 : 0;
  const card = parseCard(words[start] || "");
  if (card) {
    const rest = words.slice(start + 1).join(" ");
    const c = classify(legal);
    let acts = c.byCard.get(card.text) || [];
    if (start === 1) acts = acts.filter((a) => a.verb === words[0]);
    if (rest) {
      const full = acts.filter((a) => norm(a.text).endsWith(` ${rest}`) || norm(a.text).endsWith(`${card.text.toLowerCase()} ${rest}`));
      if (full.length === 1) return { action: full[0].text };
      if (full.length > 1) return { card: card.text, only: full.map((a) => a.text) };
      return null;
    }
    if (acts.length === 1) return { action: acts[0].text };
    if (acts.length > 1) return { card: card.text };
    return null;
  }
  // a bare number: a bid or a contract
  if (/^\d+$/.test(typed)) {
    for (const verb of ["bid", "contract"]) {
      if (byNorm.has(`${verb} ${typed}`)) return { action: byNorm.get(`${verb} ${typed}`) };
    }
    return null;
  }
  // the first word of an action ("talon 1" typed as "talon 1" is exact; "p" is not "pass")
  for (const prefix of ["bid", "marriage", "talon"]) {
    if (byNorm.has(`${prefix} ${typed}`)) return { action: byNorm.get(`${prefix} ${typed}`) };
  }
  return null;
}
