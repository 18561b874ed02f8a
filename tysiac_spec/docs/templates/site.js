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
