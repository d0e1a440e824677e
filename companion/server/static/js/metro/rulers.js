// TOKYO METRO: zoomed in, the map's edges (and the coordinates along them) scroll out of sight; two
// rulers stay on the map box's top and left edges and number the columns and rows in view, so that
// a field a move names ("8·5") can still be found. At the whole board they hide (the edges show).
import { h, on } from "../dom.js";

// frame: the element around the box (position: relative); the rulers go in it, over the box.
export function rulers(frame, box, svg, ix, { U, margin }) {
  const cols = Array.from({ length: ix.cols }, (_, c) => h("span", { class: "m-ruler-n", dataset: { col: String(c) } }, String(c)));
  const rows = Array.from({ length: ix.rows }, (_, r) => h("span", { class: "m-ruler-n", dataset: { row: String(r) } }, String(r)));
  const top = h("div", { class: "m-ruler top", "aria-hidden": "true" }, cols);
  const left = h("div", { class: "m-ruler left", "aria-hidden": "true" }, rows);
  frame.append(top, left);
  let queued = false;
  const update = () => {
    queued = false;
    const zoomed = (Number(svg.dataset.zoom) || 1) > 1;
    frame.classList.toggle("zoomed", zoomed);
    if (!zoomed || !box.isConnected) return;
    const scale = svg.getBoundingClientRect().width / (ix.cols * U + 2 * margin);
    const x0 = box.offsetLeft + box.clientLeft;
    const y0 = box.offsetTop + box.clientTop;
    cols.forEach((el, c) => {
      const x = ((c + 0.5) * U + margin) * scale - box.scrollLeft;
      el.style.transform = `translateX(${Math.round(x0 + x)}px)`;
      el.hidden = x < 0 || x > box.clientWidth;
    });
    rows.forEach((el, r) => {
      const y = ((r + 0.5) * U + margin) * scale - box.scrollTop;
      el.style.transform = `translateY(${Math.round(y0 + y)}px)`;
      el.hidden = y < 0 || y > box.clientHeight;
    });
  };
  const later = () => { if (!queued) { queued = true; requestAnimationFrame(update); } };
  on(box, "scroll", later, { passive: true });
  new MutationObserver(later).observe(svg, { attributes: true, attributeFilter: ["data-zoom"] });
  later();
}
