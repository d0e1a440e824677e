// The shared table view (/?game=ID) for a tablet at arm's length; the lobby at / without one.
// The host's tablet (the host key in a cookie) runs the table: moves, throws, undo, join links;
// a spectator (a game's spectator key) sees the same view with nothing to press. Neither ever
// receives a secret. This is the shell every game shares; what is particular to a game comes
// from its renderer (games/index.js).
import { h, replace, redraw, toast, langToggle, connBadge } from "./dom.js";
import { t, applyStatic, onLangChange, gameName, gameReady, useGame } from "./i18n.js";
import { api, liveView, newer } from "./api.js";
import { startLobby } from "./lobby.js";
import { movesPanel } from "./moves.js";
import { paintEstimates } from "./estimates.js";
import { freshUi, syncUi, chancePanel, questionPanel, spillControl } from "./pickers.js";
import { typedEntries } from "./typed_entry.js";
import { stuckPanel, gameOverPanel, phaseText, roundText, waitingText, simBanner, playersGrid } from "./parts.js";
import { rendererFor } from "./games/index.js";
import { startDevicePolling, devicesPanel, withBeams } from "./devices.js";
import { feedKeeper } from "./feed.js";
import { teachToggle, teachChance } from "./explain.js";

const app = document.getElementById("app");
const brand = document.getElementById("brand-game");
const badge = connBadge();
document.getElementById("conn-slot").append(badge);
document.getElementById("lang-slot").append(langToggle());
applyStatic();
onLangChange(() => applyStatic());

const gameId = new URLSearchParams(location.search).get("game");
if (gameId) startTable(gameId);
else startHome();

function notice(key, testid) {
  const draw = () => replace(app, h("section", { class: "panel notice", testid, role: "alert" }, t(key)));
  draw();
  onLangChange(draw);
}

// The lobby is the host's; anyone else is told how a device gets in.
async function startHome() {
  const me = await api.whoami().catch(() => ({ role: null }));
  if (me.role === "host") startLobby(app);
  else notice("trust.needHost", "need-host");
}

function qrImage(src, alt) {
  return h("img", { class: "qr", src, alt, width: 150, height: 150 });
}

// A button that asks for a second tap before it acts (ending a game, replacing a link): no
// dialog, which a tablet at arm's length handles badly.
function twoStep(label, sureLabel, testid, fn, cls = "big subtle") {
  const el = h("button", { class: cls, testid, onclick: async () => {
    if (el.dataset.sure !== "1") {
      el.dataset.sure = "1";
      el.textContent = sureLabel;
      setTimeout(() => { if (el.isConnected) { el.dataset.sure = ""; el.textContent = label; } }, 5000);
      return;
    }
    el.disabled = true;
    try { await fn(); } catch (_) { el.disabled = false; } // the toast says why
  } }, label);
  return el;
}

function startTable(id) {
  let view = null;
  let links = null;
  let watchLink = null;
  let qrVersion = 0;  // a replaced link's QR code is fetched anew
  let joinEl = null;
  let joinOpen = true;
  const ui = freshUi();
  const happened = feedKeeper(id, { own: (e) => e.by === "table" });  // the host's own taps do not flash
  startDevicePolling(id);
  const isHost = () => view && view.role === "host";
  const devicesBox = devicesPanel({ onHealth: () => render(), isHost });
  document.getElementById("lang-slot").before(teachToggle(() => render()));

  // A throw on a table with devices is read a few seconds later (camera, beams): until the drop
  // or a question arrives, the action panel says so. Kept across a reload of the page.
  const readingKey = `ttc.reading.${id}`;
  // (`seen` turns true while a throw is being read, the beams counting its drinks: not a new chance)
  const chanceKey = (v) => JSON.stringify(v.chance, (k, value) => (k === "seen" ? undefined : value));
  let readingTimer = null;
  try { ui.reading = JSON.parse(sessionStorage.getItem(readingKey)); } catch (_) { ui.reading = null; }
  const setReading = (reading) => {
    ui.reading = reading;
    clearTimeout(readingTimer);
    try {
      if (reading) sessionStorage.setItem(readingKey, JSON.stringify(reading));
      else sessionStorage.removeItem(readingKey);
    } catch (_) { /* storage may be off */ }
    if (reading) readingTimer = setTimeout(() => render(), Math.max(0, reading.since + 25500 - Date.now()));
  };
  const readingDone = (v) => ui.reading && (v.question || v.over || chanceKey(v) !== ui.reading.chance);

  const accept = (next) => {
    if (next && newer(view, next)) { view = next; render(); }
  };
  const refresh = async () => accept(await api.view(id, { quiet: true }).catch(() => null));
  const act = {
    move: async (move, extra) => accept((await api.move(id, move, extra)).view),
    observe: async (drinks) => { await api.observe(id, drinks); await refresh(); },
    throw: async () => {
      const before = view;
      const res = await api.throw(id);
      if (res && res.result === "thrown" && before) {
        setReading({ chance: chanceKey(before), since: Date.now(), by: res.read_by || "camera" });
      }
      if (res && res.view) accept(res.view); else await refresh();
      render();
    },
    reread: async () => {
      const before = view;
      const res = await api.reread(id);
      if (res && res.result === "reading" && before) {
        setReading({ chance: chanceKey(before), since: Date.now(), by: "again" });
      }
      if (res && res.view) accept(res.view);
      render();
    },
    estimates: () => api.estimates(id),
    undo: async () => accept((await api.undo(id)).view),
    dismiss: async () => accept((await api.dismiss(id)).view),
    end: async () => accept((await api.end(id)).view),
    feed: async () => { await api.feed(id); await refresh(); },
    revoke: async (seat) => {
      const fresh = await api.revokeSeat(id, seat);
      links = links.map((p) => (p.seat === seat ? fresh : p));
      qrVersion += 1;
      joinEl = null;
      toast(t("join.revoked", { name: fresh.name }), "info");
      render();
    },
    rerender: () => render(),
  };

  // Phones cannot open links to 127.0.0.1 (the server says `reachable: false`): the host is told
  // why and what to do, where the codes are.
  const unreachable = () => (links || []).some((p) => p.reachable === false) || (watchLink && watchLink.reachable === false);
  const joinWarning = () => (unreachable()
    ? h("div", { class: "join-warning", role: "alert", testid: "join-warning" },
      h("strong", {}, t("join.unreachable")), " ", t("join.unreachableFix"))
    : null);

  function joinPanel() {
    if (joinEl || !links) return joinEl;
    const humans = links.filter((p) => !p.bot);  // the table enters a computer's card itself
    joinEl = h("details", { class: "panel join", testid: "join", open: joinOpen,
      // (the element on the page may be an earlier, equal one that a redraw kept: read the event's)
      ontoggle: (e) => { joinOpen = e.currentTarget.open; joinEl = null; } },
    h("summary", {}, h("h2", {}, t("join.title"))),
    joinWarning(),
    humans.length ? h("p", { class: "hint" }, t("join.hint")) : null,
    h("button", { class: "big show-codes", testid: "show-codes", onclick: () => joinCodes() }, t("join.showCodes")),
    h("div", { class: "join-list" }, humans.map((p) => h("div", { class: "join-item", testid: `join-item-${p.seat}` },
      h("span", { class: "join-name" }, p.name),
      qrImage(api.qr(id, p.seat, qrVersion), t("join.qr", { name: p.name })),
      h("a", { class: "join-link", href: p.url, target: "_blank", rel: "noopener", testid: `join-${p.seat}` }, p.url),
      twoStep(t("join.revoke"), t("join.revokeSure"), `revoke-${p.seat}`, () => act.revoke(p.seat))))),
    watchLink ? h("div", { class: "join-watch", testid: "watch" },
      h("h3", {}, t("join.watch")), h("p", { class: "hint" }, t("join.watchHint")),
      qrImage(`/api/games/${encodeURIComponent(id)}/spectators/qr.svg`, t("join.watchQr")),
      h("a", { class: "join-link", href: watchLink.url, target: "_blank", rel: "noopener", testid: "watch-link" },
        watchLink.url)) : null);
    return joinEl;
  }

  // The join codes on a screen of their own, as large as the tablet allows: every person's seat
  // and the spectators', each with its name. Closed by its button or Escape.
  let codesEl = null;
  function closeCodes() {
    if (!codesEl) return;
    codesEl.remove();
    codesEl = null;
    document.removeEventListener("keydown", codesKey);
  }
  function codesKey(e) { if (e.key === "Escape") closeCodes(); }
  function joinCodes() {
    closeCodes();
    if (!links) return;
    const humans = links.filter((p) => !p.bot);
    const count = humans.length + (watchLink ? 1 : 0);
    const rows = count <= 4 ? 1 : 2;  // all on one screen: one row of up to four, else two rows
    const code = (src, name, testid) => h("figure", { class: "code", testid },
      h("img", { class: "qr", src, alt: name }), h("figcaption", {}, name));
    codesEl = h("div", { class: "join-codes", role: "dialog", "aria-modal": "true", "aria-label": t("join.codesTitle"),
      testid: "join-codes" },
    h("div", { class: "codes-head" },
      h("h2", {}, t("join.codesTitle")),
      h("button", { class: "big", testid: "join-codes-close", onclick: closeCodes }, "✕ ", t("join.close"))),
    joinWarning(),
    h("div", { class: "codes-grid", style: `--cols: ${Math.max(1, Math.ceil(count / rows))}; --rows: ${rows}` },
      humans.map((p) => code(api.qr(id, p.seat, qrVersion), p.name, `code-${p.seat}`)),
      watchLink ? code(`/api/games/${encodeURIComponent(id)}/spectators/qr.svg`, t("join.watch"), "code-watch") : null));
    document.body.append(codesEl);
    document.addEventListener("keydown", codesKey);
    codesEl.querySelector("[data-testid=join-codes-close]").focus();
  }

  function actionPanel(r) {
    const question = isHost() ? questionPanel(view, ui, act) : null;
    if (question) return question;
    const chance = chancePanel(view, ui, act, r);
    const panel = h("section", { class: "panel action", testid: "action" },
      h("h2", { class: "who", testid: "who" }, ui.reading ? t("dev.reading")
        : view.chance && view.chance.seen ? t("drop.title") : waitingText(view)),
      teachChance(view), chance, chance ? typedEntries(view, act) : null, r.movesHead ? r.movesHead(view, act) : null,
      view.moves.length ? movesPanel(view, act.move, r.moveBuilders) : null);
    paintEstimates(panel, view);  // each move's estimate on its button, once asked for
    return panel;
  }

  // The host's controls of the game as a whole: which game the tower feeds, undo, end.
  function hostControls() {
    if (!isHost()) return h("span", { class: "role", testid: "spectator-badge" }, t("trust.spectator"));
    return [
      view.over || view.tower === false ? null : view.fed  // (no tower to feed: no button)
        ? h("span", { class: "fed", testid: "fed", title: t("feed.on") }, t("feed.on"))
        : h("button", { class: "big subtle", testid: "feed-here", title: t("feed.other"),
          onclick: (e) => { e.currentTarget.disabled = true; act.feed().catch(() => {}).finally(render); } },
        t("feed.here")),
      view.can_undo ? h("button", { class: "big subtle undo", testid: "undo", onclick: (e) => {
        e.currentTarget.disabled = true;
        act.undo().catch(() => {}).finally(render);
      } }, "↶ ", t("undo")) : null,
      view.over ? null : twoStep(t("end"), t("end.sure"), "end-game", () => act.end()),
    ];
  }

  function render() {
    if (!view) return;
    if (!gameReady(view.game)) { useGame(view.game).then(render); return; } // its words first
    if (readingDone(view)) setReading(null);
    syncUi(ui, view);
    // Before a person's first move the players need the join codes: the panel goes to the top of
    // the side column (beside the moves, which it does not push down), or of the whole table
    // where the game's layout puts the side column low (TOKYO METRO's).
    const r = rendererFor(view.game);
    const early = isHost() && !view.over && !view.can_undo;
    const join = view.over || !isHost() ? null : joinPanel();
    if (join) join.classList.toggle("early", early);
    const joinTop = early && r.joinAtTop;
    const st = view.state;
    const round = roundText(st);
    app.dataset.seq = String(view.seq); // tests and tools can tell which view is on screen
    app.dataset.rev = String(view.rev ?? 0); // (news without a record: the board camera's)
    app.dataset.game = view.game;
    brand.textContent = gameName(view.game);
    document.title = [gameName(view.game), round || phaseText(st)].join(" · ");
    redraw(app,  // in place: what did not change stays on the page (dom.js)
      simBanner(view),
      h("div", { class: "statusbar" },
        isHost() ? h("a", { class: "back", href: "/", testid: "lobby-link" }, "‹ ", t("lobby.back")) : null,
        round ? h("span", { class: "round", testid: "round" }, round) : null,
        h("span", { class: "phase", testid: "phase", dataset: { phase: st.phase } }, phaseText(st)),
        h("a", { class: "how-link", href: `/how/${encodeURIComponent(view.game)}`, target: "_blank", rel: "noopener",
          testid: "how-link" }, t("how.link")),
        hostControls()),
      h("div", { class: "table-grid" },
        h("div", { class: "col-main" },
          joinTop ? join : null,
          view.over ? gameOverPanel(view, { extra: r.overExtra(view), titleKey: r.overTitle }) : null,
          playersGrid(view, st.players.map((p) => r.playerCard(p, view))),
          view.over ? null : actionPanel(r),
          r.feedBesideMoves ? happened.panel(view) : null,
          withBeams(r.result(view), view)),
        h("aside", { class: "col-side" },
          early && !joinTop ? join : null,
          r.feedBesideMoves ? null : happened.panel(view),
          r.side(view),
          stuckPanel(st, isHost() ? spillControl(view, ui, act) : null),
          view.tower === false ? null : devicesBox.el,  // the tower's camera and beams
          early ? null : join)));
  }

  // The join panel and, when open, the codes drawn anew: the players' and the spectators' links
  // arrive one after the other, and the codes may be opened between the two.
  const joinChanged = () => { joinEl = null; render(); if (codesEl) joinCodes(); };
  onLangChange(joinChanged);

  const connect = () => {
    liveView(id, { onView: accept, onState: (s) => badge.show(s),
      onRefused: (why, code) => (code === 4403 ? notice("trust.needKey", "need-key") : toast(t("error.nogame", { why }))) });
    if (!isHost()) return;
    api.players(id, { quiet: true }).then((p) => { links = p; joinChanged(); }).catch(() => {});
    api.spectators(id, { quiet: true }).then((w) => { watchLink = w; joinChanged(); }).catch(() => {});
  };
  api.view(id, { quiet: true }).then((v) => { accept(v); connect(); }).catch((err) => {
    if (err.status === 0) { badge.show("reconnecting"); connect(); return; } // the WebSocket keeps trying
    if (err.status === 403) { notice("trust.needKey", "need-key"); return; }
    replace(app, h("section", { class: "panel notice", testid: "error" }, t("error.nogame", { why: err.message }),
      h("p", {}, h("a", { href: "/", class: "big" }, t("lobby.back")))));
  });
}
