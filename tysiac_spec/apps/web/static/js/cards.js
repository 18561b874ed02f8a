// Cards drawn as SVG by our own code: no image files. A card is written in the engine's
// notation, rank then suit (`QH`, `TD`, `9S`; `10H` and `♥` are read too, DESIGN.md
// "Card notation"). The pack's letters and names are the core ruleset's unless the server
// sends the table's own deck (setDeck).

import { s } from "./dom.js";

// Suit shapes in a 100 x 100 box.
const SHAPES = {
  hearts: "M50 92C24 70 4 52 8 30C11 12 32 4 50 24C68 4 89 12 92 30C96 52 76 70 50 92Z",
  diamonds: "M50 4L86 50L50 96L14 50Z",
  spades:
    "M50 6C30 30 8 44 8 64C8 80 28 88 44 74C42 84 38 90 30 96H70C62 90 58 84 56 74C72 88 92 80 92 64C92 44 70 30 50 6Z",
  clubs:
    "M50 8A19 19 0 0 0 36 40A19 19 0 1 0 44 72C42 82 38 90 30 96H70C62 90 58 82 56 72A19 19 0 1 0 64 40A19 19 0 0 0 50 8Z",
};

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

const RED = "#c0152f";
const DARK = "#16181d";

let deck = DEFAULT_DECK;
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

/** Use the table's pack ({suits: [{id, letter, symbol, names}], ranks: [{id, letter, names}]}). */
export function setDeck(d) {
  if (d && Array.isArray(d.suits) && Array.isArray(d.ranks) && d.suits.length && d.ranks.length) {
    deck = d;
    index();
  }
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

export function isRed(suit) {
  return suit && (suit.id === "hearts" || suit.id === "diamonds");
}

export function suitColour(suit) {
  return isRed(suit) ? RED : DARK;
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

/** An SVG suit shape at (x, y), `size` wide. */
export function suitShape(suit, x, y, size, colour) {
  const d = SHAPES[suit.id];
  const fill = colour || suitColour(suit);
  if (!d) {
    // a suit of another pack: its symbol as text
    return s("text", { x: x + size / 2, y: y + size * 0.85, "font-size": size, "text-anchor": "middle", fill },
      suit.symbol || suit.letter);
  }
  return s("path", { d, fill, transform: `translate(${x} ${y}) scale(${size / 100})` });
}

/** A small inline SVG of a suit, for text (trump badge, buttons). */
export function suitIcon(suitIdOrLetter, { label, lang = "en" } = {}) {
  const suit = suitOf(suitIdOrLetter);
  if (!suit) return document.createTextNode(String(suitIdOrLetter ?? ""));
  const svg = s("svg", { viewBox: "0 0 100 100", class: "suit-icon", role: "img",
    "aria-label": label || suitName(suit, lang) }, suitShape(suit, 0, 0, 100));
  return svg;
}

/**
 * A card as an <svg> 100 x 140 units (CSS sets the size).
 * opts: {faceDown, trump (suit id or letter), marriage (a declared marriage of its suit),
 *        canDeclare (playing it declares a marriage), lang, label}
 */
export function cardSvg(card, opts = {}) {
  const lang = opts.lang || "en";
  if (opts.faceDown || !card) return backSvg(opts.label);
  const c = typeof card === "string" ? parseCard(card) : card;
  if (!c) return backSvg(String(card));
  const colour = suitColour(c.suit);
  const trump = opts.trump && suitOf(opts.trump)?.id === c.suit.id;
  const face = rankFace(c.rank);
  const svg = s("svg", {
    viewBox: "0 0 100 140", class: "card-svg" + (trump ? " is-trump" : ""), role: "img",
    "aria-label": opts.label || cardName(c, lang),
  });
  svg.append(
    s("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, fill: "#fffdf8",
      stroke: trump ? "#d49a00" : "#8a8f98", "stroke-width": trump ? 4 : 2 }),
    // the index: big rank and suit in the top left, the part of a fanned card one sees
    s("text", { x: face.length > 1 ? 4 : 8, y: 40, "font-size": face.length > 1 ? 36 : 42,
      "font-weight": 700, "font-family": "system-ui, 'DejaVu Sans', Arial, sans-serif",
      "letter-spacing": face.length > 1 ? -3 : 0, fill: colour }, face),
    suitShape(c.suit, 8, 46, 28),
  );
  // the middle: a big pip, or the court letter in a frame
  if (["jack", "queen", "king"].includes(c.rank.id)) {
    svg.append(
      s("rect", { x: 42, y: 50, width: 50, height: 84, rx: 6, fill: "none", stroke: colour,
        "stroke-width": 2, opacity: 0.55 }),
      s("text", { x: 67, y: 94, "font-size": 40, "font-weight": 700, "text-anchor": "middle",
        "font-family": "Georgia, 'DejaVu Serif', serif", fill: colour }, c.rank.letter),
      suitShape(c.suit, 55, 102, 25),
    );
  } else {
    svg.append(suitShape(c.suit, 42, 66, 50));
  }
  // the marks sit under the index, on the left: the part of a fanned card one sees
  if (trump) {
    // a gold star: this card is a trump
    svg.append(s("circle", { cx: 22, cy: 92, r: 13, fill: "#f2b705" }),
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

let backs = 0;

/** A face-down card. */
export function backSvg(label) {
  const svg = s("svg", { viewBox: "0 0 100 140", class: "card-svg back", role: "img",
    "aria-label": label || "card face down" });
  svg.append(s("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, fill: "#fffdf8", stroke: "#8a8f98",
    "stroke-width": 2 }));
  svg.append(s("rect", { x: 8, y: 8, width: 84, height: 124, rx: 5, fill: "#24478f" }));
  const lattice = [];
  for (let i = -124; i < 84; i += 14) {
    lattice.push(`M${8 + i} 8L${8 + i + 124} 132`, `M${8 + i + 124} 8L${8 + i} 132`);
  }
  const id = `card-back-${++backs}`;
  svg.append(s("clipPath", { id }, s("rect", { x: 8, y: 8, width: 84, height: 124, rx: 5 })));
  svg.append(s("path", { d: lattice.join(""), stroke: "#5b7fc7", "stroke-width": 2.5, fill: "none",
    "clip-path": `url(#${id})` }));
  svg.append(s("circle", { cx: 50, cy: 70, r: 22, fill: "#24478f", stroke: "#fffdf8", "stroke-width": 3 }));
  svg.append(s("text", { x: 50, y: 76, "font-size": 16, "font-weight": 700, "text-anchor": "middle",
    "font-family": "system-ui, sans-serif", fill: "#fffdf8" }, "1000"));
  return svg;
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
