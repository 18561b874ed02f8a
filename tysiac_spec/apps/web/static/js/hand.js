// The hand fanned: overlapping cards in a slight arc, in two rows when one row would show too
// little of each card; arrow keys move along it (one card in the tab order).

import { h } from "./dom.js";

/** Lay out the cards of `hand` (a <ul> of <li><button class="card">) to fit its width. */
export function fanHand(hand) {
  for (const b of hand.querySelectorAll("li.break")) b.remove();
  const items = [...hand.children];
  const count = items.length;
  if (!count) return;
  const width = hand.clientWidth;
  const cw = items[0].firstChild.offsetWidth || 66; // offsetWidth: the width before the fan's rotation
  // so many cards that too little of each would show: hold them in two rows
  const oneRow = count > 1 ? (width - cw - 8) / (count - 1) : cw;
  const rows = oneRow < cw * 0.46 && count > 7 ? [items.slice(0, Math.ceil(count / 2)), items.slice(Math.ceil(count / 2))]
    : [items];
  if (rows.length > 1) rows[1][0].before(h("li", { class: "break", "aria-hidden": "true" }));
  hand.classList.toggle("two-rows", rows.length > 1);
  rows.forEach((row, r) => {
    const n = row.length;
    const step = n > 1 ? Math.min(cw + 6, (width - cw - 8) / (n - 1)) : 0;
    row.forEach((li, k) => {
      li.style.marginLeft = k === 0 ? "0" : `${step - cw}px`;
      li.style.marginTop = r > 0 ? `${-cw * 0.6}px` : "0";
      const off = k - (n - 1) / 2;
      const angle = n > 1 ? off * Math.min(2, 14 / n) : 0;
      li.style.transform = `rotate(${angle.toFixed(2)}deg) translateY(${(off * off * 0.5).toFixed(1)}px)`;
    });
  });
}

/** Arrow keys, Home and End on card `k` of `hand`: move the focus along the hand. */
export function moveInHand(hand, ev, k) {
  const buttons = [...hand.querySelectorAll("button.card")];
  let next = null;
  if (ev.key === "ArrowRight" || ev.key === "ArrowDown") next = Math.min(k + 1, buttons.length - 1);
  else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") next = Math.max(k - 1, 0);
  else if (ev.key === "Home") next = 0;
  else if (ev.key === "End") next = buttons.length - 1;
  if (next === null) return;
  ev.preventDefault();
  buttons.forEach((b, i) => { b.tabIndex = i === next ? 0 : -1; });
  buttons[next].focus();
}

