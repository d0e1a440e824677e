// A player's phone (/player?game=ID&token=T): my money, my secret card, my moves, and a
// compact summary of the table. The token makes the server show this player's secret.
import { h, replace, langToggle, connBadge } from "./dom.js";
import { t, yen, applyStatic, onLangChange } from "./i18n.js";
import { api, liveView, newer } from "./api.js";
import { cardSvg, crateSvg } from "./drinks.js";
import { movesPanel } from "./moves.js";
import { secretPicker } from "./pickers.js";
import {
  drinkRow, yenEl, playerCard, faceUpPanel, stuckPanel, resultPanel, gameOverPanel, phaseText, roundText, waitingText,
} from "./parts.js";

const app = document.getElementById("app");
const badge = connBadge();
const title = document.getElementById("me-name");
document.getElementById("conn-slot").append(badge);
document.getElementById("lang-slot").append(langToggle());
applyStatic();
onLangChange(() => applyStatic());

const params = new URLSearchParams(location.search);
const gameId = params.get("game");
const token = params.get("token");

function notice(key, testid, extra = {}) {
  replace(app, h("section", { class: "panel notice", testid, role: "alert" }, t(key, extra)));
}

if (!gameId || !token) {
  notice("phone.noToken", "no-token");
  onLangChange(() => notice("phone.noToken", "no-token"));
} else {
  startPhone(gameId, token);
}

function startPhone(id, tok) {
  let view = null;
  const accept = (next) => {
    if (next && newer(view, next)) { view = next; render(); }
  };
  const act = {
    move: async (move) => accept((await api.move(id, move, tok)).view),
    rerender: () => render(),
  };

  // My secret card, large: only this page (with my token) ever receives it.
  function secretCard(me) {
    return h("div", { class: "secret-box", testid: "secret-card", dataset: { card: me.secret || "" } },
      h("span", { class: "label" }, t("phone.secretTitle")),
      me.secret ? cardSvg(me.secret, "card-xl") : h("p", { class: "muted no-card" }, t("phone.noCard")));
  }

  function turnPanel() {
    const c = view.chance;
    const picker = c && c.kind === "choice" && c.secret ? secretPicker(c.outcomes, act) : null;
    const mine = view.moves.length > 0 || picker;
    return h("section", { class: `panel action${mine ? " mine" : ""}`, testid: "action" },
      h("h2", { class: "who", testid: "who" }, waitingText(view, view.viewer)),
      picker, view.moves.length ? movesPanel(view, act.move) : null);
  }

  function render() {
    if (!view) return;
    const st = view.state;
    app.dataset.seq = String(view.seq); // tests and tools can tell which view is on screen
    const me = st.players[view.viewer];
    const last = st.last_round;
    title.textContent = me.name;
    document.title = `${me.name} · ${t("app.game.pocari_bet")}`;
    replace(app,
      view.simulated ? h("div", { class: "banner sim", testid: "simulated-banner", role: "note" }, t("sim.banner")) : null,
      h("section", { class: "panel me", testid: "me" },
        h("div", { class: "me-info" },
          h("div", { class: "me-line" },
            yenEl(me.yen, "my-yen", "yen my-yen"),
            me.start ? h("span", { class: "start-mark", title: t("player.startPlayer") }, crateSvg()) : null),
          h("div", { class: "me-line small" }, h("span", { class: "round", testid: "round" }, roundText(st))),
          h("div", { class: "me-line small" }, h("span", { class: "phase", testid: "phase", dataset: { phase: st.phase } }, phaseText(st))),
          me.stake ? h("div", { class: "me-line small" }, h("span", { class: "label" }, t("player.stake")),
            yenEl(me.stake, "my-stake", "stake"), me.declared ? cardSvg(me.declared, "card-sm") : null) : null,
          last && last.round === st.round - 1 && last.paid[me.seat]
            ? h("p", { class: "last-paid" }, t("phone.lastPaid", { yen: yen(last.paid[me.seat]) })) : null),
        secretCard(me)),
      view.over ? gameOverPanel(view) : null,
      view.over ? null : turnPanel(),
      h("section", { class: "panel my-hand" }, h("h2", {}, t("phone.myHand")),
        drinkRow(me.hand, { testid: "my-hand", empty: t("result.none") })),
      h("h2", { class: "section-title" }, t("phone.table")),
      h("div", { class: "players compact-list" }, st.players.map((p) => playerCard(p, view, { compact: true }))),
      faceUpPanel(st),
      stuckPanel(st),
      resultPanel(st, { compact: true }));
  }

  onLangChange(render);

  const connect = () => liveView(id, tok, { onView: accept, onState: (s) => badge.show(s),
    onRefused: () => notice("phone.badToken", "bad-token") });
  api.view(id, tok, { quiet: true }).then((v) => { accept(v); connect(); }).catch((err) => {
    if (err.status === 403) notice("phone.badToken", "bad-token");
    else if (err.status === 404) notice("error.nogame", "error", { why: err.message });
    else { badge.show("reconnecting"); connect(); } // the WebSocket keeps trying
  });
}
