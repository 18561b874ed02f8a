// Cards as SVG. The faces are drawn once, in Python (tysiac_spec/docs/cards.py, the static
// site's too): the server serves the deck's sprite (`deck.sprite`, /cards/<key>.svg, with
// `#card-QH`, `#card-back`, `#suit-H`) and this module only refers to its symbols with
// <use>, adding the table's marks (trump, marriage) and the words (aria labels). A card is
// written in the engine's notation, rank then suit (`QH`, `TD`, `9S`; `10H` and `♥` are read
// too, DESIGN.md "Card notation"). The pack's letters and names are the core ruleset's
// unless the server sends the table's own deck (setDeck).

import { s } from "./dom.js";

const DEFAULT_DECK = {
  suits: [
    { id: "hearts", letter: "H", symbol: "♥", names: { en: "hearts", pl: "kier", ru: "черви", cs: "srdce" } },
    { id: "diamonds", letter: "D", symbol: "♦", names: { en: "diamonds", pl: "karo", ru: "бубны", cs: "káry" } },
    { id: "clubs", letter: "C", symbol: "♣", names: { en: "clubs", pl: "trefl", ru: "трефы", cs: "kříže" } },
    { id: "spades", letter: "S", symbol: "♠", names: { en: "spades", pl: "pik", ru: "пики", cs: "piky" } },
  ],
  ranks: [
    { id: "ace", letter: "A", names: { en: "ace", pl: "as", ru: "туз", cs: "eso" } },
    { id: "ten", letter: "T", names: { en: "ten", pl: "dziesiątka", ru: "десятка", cs: "desítka" } },
    { id: "king", letter: "K", names: { en: "king", pl: "król", ru: "король", cs: "král" } },
    { id: "queen", letter: "Q", names: { en: "queen", pl: "dama", ru: "дама", cs: "dáma" } },
    { id: "jack", letter: "J", names: { en: "jack", pl: "walet", ru: "валет", cs: "kluk" } },
    { id: "nine", letter: "9", names: { en: "nine", pl: "dziewiątka", ru: "девятка", cs: "devítka" } },
  ],
};

// "queen of hearts" in each language; the suit in the case the phrase needs.
const OF_SUIT = {
  en: { hearts: "of hearts", diamonds: "of diamonds", clubs: "of clubs", spades: "of spades" },
  pl: { hearts: "kier", diamonds: "karo", clubs: "trefl", spades: "pik" },
  ru: { hearts: "червей", diamonds: "бубен", clubs: "треф", spades: "пик" },
  cs: { hearts: "srdcí", diamonds: "kár", clubs: "křížů", spades: "pik" },
};

let deck = DEFAULT_DECK;
let sprite = ""; // the URL of the deck's pictures; none yet: blank cards
let bySuitLetter = new Map();
let byRankLetter = new Map();
index();

function index() {
  bySuitLetter = new Map();
  byRankLetter = new Map();
  for (const suit of deck.suits) {
    bySuitLetter.set(suit.letter.toUpperCase(), suit);
    if (suit.symbol) bySuitLetter.set(suit.symbol, suit);
  }
  for (const rank of deck.ranks) byRankLetter.set(rank.letter.toUpperCase(), rank);
  if (byRankLetter.has("T")) byRankLetter.set("10", byRankLetter.get("T"));
}

/** Use the table's pack ({suits: [{id, letter, symbol, names}], ranks: [{id, letter, names}],
 *  sprite: "/cards/<key>.svg"}). */
export function setDeck(d) {
  if (d && Array.isArray(d.suits) && Array.isArray(d.ranks) && d.suits.length && d.ranks.length) {
    deck = d;
    index();
    setSprite(d.sprite);
  }
}

/** Draw the cards from this sprite (a same-origin "/cards/<key>.svg" the server named). */
export function setSprite(url) {
  if (typeof url === "string" && url.startsWith("/cards/")) sprite = url;
}

/** <use> of the sprite's symbol `id`, filling its box. */
function useOf(id) {
  return sprite ? s("use", { href: `${sprite}#${id}` }) : null;
}

export function suits() {
  return deck.suits;
}

/** The suit with this id or letter, or undefined. */
export function suitOf(idOrLetter) {
  if (!idOrLetter) return undefined;
  return deck.suits.find((x) => x.id === idOrLetter) || bySuitLetter.get(String(idOrLetter).toUpperCase());
}

/** "QH" -> {text: "QH", rank, suit} or null when it is not a card of the pack. */
export function parseCard(text) {
  if (typeof text !== "string") return null;
  const t = text.trim();
  if (t.length < 2) return null;
  const suit = bySuitLetter.get(t.slice(-1).toUpperCase()) || bySuitLetter.get(t.slice(-1));
  const rank = byRankLetter.get(t.slice(0, -1).toUpperCase());
  if (!suit || !rank) return null;
  return { text: rank.letter + suit.letter, rank, suit };
}

/** The rank as printed on a face: "10" for the ten, else its letter. */
export function rankFace(rank) {
  return rank.id === "ten" ? "10" : rank.letter;
}

/** "Q♥", for text beside cards. */
export function shortName(card) {
  const c = typeof card === "string" ? parseCard(card) : card;
  if (!c) return String(card);
  return rankFace(c.rank) + (c.suit.symbol || c.suit.letter);
}

/** "queen of hearts" / "dama kier" / "дама червей" / "dáma srdcí". */
export function cardName(card, lang = "en") {
  const c = typeof card === "string" ? parseCard(card) : card;
  if (!c) return String(card);
  const rank = c.rank.names?.[lang] || c.rank.names?.en || c.rank.id;
  const of = OF_SUIT[lang]?.[c.suit.id];
  if (of) return `${rank} ${of}`;
  const suit = c.suit.names?.[lang] || c.suit.names?.en || c.suit.id;
  return lang === "en" ? `${rank} of ${suit}` : `${rank} ${suit}`;
}

export function suitName(suit, lang = "en") {
  const x = typeof suit === "string" ? suitOf(suit) : suit;
  if (!x) return String(suit);
  return x.names?.[lang] || x.names?.en || x.id;
}

/** A small inline SVG of a suit, for text (trump badge, buttons). */
export function suitIcon(suitIdOrLetter, { label, lang = "en" } = {}) {
  const suit = suitOf(suitIdOrLetter);
  if (!suit) return document.createTextNode(String(suitIdOrLetter ?? ""));
  return s("svg", { viewBox: "0 0 100 100", class: "suit-icon", role: "img",
    "aria-label": label || suitName(suit, lang) }, useOf(`suit-${suit.letter}`));
}

/**
 * A card as an <svg> 100 x 140 units (CSS sets the size): the sprite's face, and the marks.
 * opts: {faceDown, trump (suit id or letter), marriage (a declared marriage of its suit),
 *        canDeclare (playing it declares a marriage), lang, label}
 */
export function cardSvg(card, opts = {}) {
  const lang = opts.lang || "en";
  if (opts.faceDown || !card) return backSvg(opts.label);
  const c = typeof card === "string" ? parseCard(card) : card;
  if (!c) return backSvg(String(card));
  const trump = opts.trump && suitOf(opts.trump)?.id === c.suit.id;
  const svg = s("svg", {
    viewBox: "0 0 100 140", class: "card-svg" + (trump ? " is-trump" : ""), role: "img",
    "aria-label": opts.label || cardName(c, lang), "data-card": c.text,
  }, useOf(`card-${c.text}`));
  // the marks sit under the index, on the left: the part of a fanned card one sees
  if (trump) {
    // a gold frame and a gold star: this card is a trump
    svg.append(s("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, fill: "none", stroke: "#d49a00",
      "stroke-width": 4 }),
    s("circle", { cx: 22, cy: 92, r: 13, fill: "#f2b705" }),
    s("path", { d: starPath(22, 92, 9.5, 4), fill: "#fff" }));
  }
  if (opts.marriage || opts.canDeclare) {
    // two rings: part of a marriage (declared, or one this card would declare)
    const y = trump ? 118 : 94;
    const stroke = opts.marriage ? "#d49a00" : "#8a3ffc";
    svg.append(s("circle", { cx: 16, cy: y, r: 7.5, fill: "none", stroke, "stroke-width": 3.5 }),
      s("circle", { cx: 27, cy: y, r: 7.5, fill: "none", stroke, "stroke-width": 3.5 }));
  }
  return svg;
}

/** A face-down card. */
export function backSvg(label) {
  return s("svg", { viewBox: "0 0 100 140", class: "card-svg back", role: "img",
    "aria-label": label || "card face down" }, useOf("card-back"));
}

function starPath(cx, cy, r1, r2) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? r2 : r1;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)} ${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return "M" + pts.join("L") + "Z";
}
