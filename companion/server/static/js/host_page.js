// What every page of the host's own (the history, the board calibration, the table's cards)
// does first: its catalogues, then whether this device holds the host's key. A device without it
// sees why, in its language, and the page goes no further.
import { h, replace } from "./dom.js";
import { t, applyStatic, onLangChange, useGame } from "./i18n.js";
import { request } from "./api.js";

// Loads the page's catalogues (``parts``: its own and any game's it shows); true when this device
// is the host's, else draws the notice in ``app`` and answers false.
export async function hostPage(app, ...parts) {
  await Promise.all(parts.map(useGame)); // a page's own catalogue loads as a game's does
  applyStatic();
  const me = await request("GET", "/api/whoami", undefined, { quiet: true }).catch(() => ({ role: null }));
  if (me.role === "host") return true;
  const notice = () => replace(app, h("section", { class: "panel notice", role: "alert", testid: "need-host" },
    t("trust.needHost")));
  notice();
  onLangChange(() => { applyStatic(); notice(); });
  return false;
}
