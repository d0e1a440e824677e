// TOKYO METRO: the map's layers a person can switch off (the trains, the train phase's numbered
// stops and +¥ tags, the meeples, the station names), to see the board beneath. The choice is
// this device's: kept in localStorage, the same on every view and game.
import { h, on } from "../dom.js";
import { t } from "../i18n.js";

export const LAYERS = ["names", "trains", "payouts", "meeples"];
const STORE_KEY = "ttc.metro.hidden";

export function hiddenLayers() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_KEY) || "[]");
    return new Set(Array.isArray(saved) ? saved.filter((x) => LAYERS.includes(x)) : []);
  } catch (_) {
    return new Set(); // storage off or garbled: everything shows
  }
}

function save(hidden) {
  try { localStorage.setItem(STORE_KEY, JSON.stringify([...hidden])); } catch (_) { /* storage may be off */ }
}

// The svg hides a layer by a class (no redraw: the labels keep their places).
export function applyLayers(svg, hidden = hiddenLayers()) {
  for (const layer of LAYERS) svg.classList.toggle(`hide-${layer}`, hidden.has(layer));
}

// One toggle per layer: pressed = shown.
export function layerBar(svg) {
  const buttons = LAYERS.map((layer) => {
    const b = h("button", { class: "m-layer-btn", type: "button", testid: `map-layer-${layer}` }, t(`metro.layer.${layer}`));
    const sync = (hidden) => b.setAttribute("aria-pressed", hidden.has(layer) ? "false" : "true");
    on(b, "click", () => {
      const hidden = hiddenLayers();
      if (hidden.has(layer)) hidden.delete(layer); else hidden.add(layer);
      save(hidden);
      applyLayers(svg, hidden);
      sync(hidden);
    });
    sync(hiddenLayers());
    return b;
  });
  applyLayers(svg);
  return h("div", { class: "m-layers", role: "group", "aria-label": t("metro.layer.title") }, buttons);
}
