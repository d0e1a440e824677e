// A player's phone (/player?game=ID): my money, my secrets, my moves, and a compact summary of
// the table. The join link (/player?game=ID&token=KEY) left the seat's key in a cookie and came
// back here without it; that key makes the server show this player's secrets. The shell is
// the same for every game; the game's renderer (games/index.js) draws what is particular.
import { h, replace, redraw, langToggle, connBadge } from "./dom.js";
import { t, applyStatic, onLangChange, gameName, gameReady, useGame } from "./i18n.js";
import { api, liveView, newer, actAsPlayer } from "./api.js";
import { movesPanel } from "./moves.js";
import { paintEstimates } from "./estimates.js";
import { choicePicker } from "./pickers.js";
import { stuckPanel, gameOverPanel, waitingText, simBanner } from "./parts.js";
import { rendererFor } from "./games/index.js";
import { me } from "./games/generic.js";
import { startDevicePolling, devicesLine, withBeams, onDevices, healthKey } from "./devices.js";
import { feedKeeper } from "./feed.js";
import { teachToggle, teachChance } from "./explain.js";

const app = document.getElementById("app");
const badge = connBadge();
const title = document.getElementById("me-name");
const brand = document.getElementById("brand-game");
document.getElementById("conn-slot").append(badge);
document.getElementById("lang-slot").append(langToggle());
applyStatic();
onLangChange(() => applyStatic());

const gameId = new URLSearchParams(location.search).get("game");
actAsPlayer();

function notice(key, testid, extra = {}) {
  replace(app, h("section", { class: "panel notice", testid, role: "alert" }, t(key, extra)));
}

if (!gameId) {
  notice("phone.noToken", "no-token");
  onLangChange(() => notice("phone.noToken", "no-token"));
} else {
  startPhone(gameId);
}

function startPhone(id) {
  let view = null;
  const happened = feedKeeper(id, { own: (e) => view && e.from_seat === view.viewer });  // my taps do not flash
  startDevicePolling(id);
  const deviceStatus = devicesLine(); // one element, updated in place every 2 s
  document.getElementById("lang-slot").before(teachToggle(() => render()));
  let health = healthKey();
  onDevices(() => { // the banner says which devices are simulated
    if (healthKey() !== health) { health = healthKey(); render(); }
  });
  const accept = (next) => {
    if (next && newer(view, next)) { view = next; render(); }
  };
  const act = {
    move: async (move) => accept((await api.move(id, move)).view),
    estimates: () => api.estimates(id),
    rerender: () => render(),
  };

  function turnPanel(r) {
    const c = view.chance;
    const secret = c && c.kind === "choice" && c.secret && c.outcomes && c.outcomes.length;
    const picker = secret ? (r.secretChoice ? r.secretChoice(view, c.outcomes, act)
      : choicePicker(view, c.outcomes, act, { secret: true })) : null;
    const mine = view.moves.length > 0 || picker;
    const panel = h("section", { class: `panel action${mine ? " mine" : ""}`, testid: "action" },
      h("h2", { class: "who", testid: "who" }, waitingText(view, view.viewer)),
      picker ? teachChance(view) : null, picker, r.movesHead ? r.movesHead(view, act) : null,
      view.moves.length ? movesPanel(view, act.move, r.moveBuilders) : null);
    paintEstimates(panel, view);  // each move's estimate on its button, once asked for
    return panel;
  }

  function render() {
    if (!view) return;
    if (!gameReady(view.game)) { useGame(view.game).then(render); return; } // its words first
    const r = rendererFor(view.game);
    const st = view.state;
    app.dataset.seq = String(view.seq); // tests and tools can tell which view is on screen
    app.dataset.rev = String(view.rev ?? 0); // (news without a record: the board camera's)
    app.dataset.game = view.game;
    const mine = me(view);
    title.textContent = mine.name || "";
    brand.textContent = gameName(view.game);
    document.title = `${mine.name} · ${gameName(view.game)}`;
    redraw(app,  // in place: what did not change stays on the page (dom.js)
      simBanner(view),
      r.phoneMe(view),
      view.over ? gameOverPanel(view, { extra: r.overExtra(view), titleKey: r.overTitle }) : null,
      view.over ? null : turnPanel(r),
      happened.panel(view),
      r.phoneExtra(view),
      h("h2", { class: "section-title" }, t("phone.table")),
      h("div", { class: "players compact-list" }, st.players.map((p) => r.playerCard(p, view, { compact: true }))),
      view.tower === false ? null : deviceStatus,  // the tower's camera and beams
      r.side(view),
      stuckPanel(st),
      withBeams(r.result(view, { compact: true }), view));
  }

  onLangChange(render);

  const connect = () => liveView(id, { onView: accept, onState: (s) => badge.show(s),
    onRefused: () => notice("phone.badToken", "bad-token") });
  // A refusal says which: a join link that was not valid (or a key the host replaced since), or
  // no key at all on this phone (the page opened without the join link).
  const refused = async () => {
    const me = await api.whoami(id).catch(() => ({ key: "none" }));
    const bad = new URLSearchParams(location.search).has("refused") || me.key === "wrong";
    notice(bad ? "phone.badToken" : "phone.noToken", bad ? "bad-token" : "no-token");
  };
  api.view(id, { quiet: true }).then((v) => { accept(v); connect(); }).catch((err) => {
    if (err.status === 403) refused();
    else if (err.status === 404) notice("error.nogame", "error", { why: err.message });
    else { badge.show("reconnecting"); connect(); } // the WebSocket keeps trying
  });
}
