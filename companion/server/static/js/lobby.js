// The lobby: start a game of POCARI BET, or resume one.
import { h, replace } from "./dom.js";
import { t, getLang, onLangChange } from "./i18n.js";
import { api } from "./api.js";

export function startLobby(root) {
  const form = {
    names: [0, 1, 2].map((i) => t(`lobby.default.${i}`)),
    bots: [false, true, true],
    simulated: true,
  };
  let games = [];

  function seatRow(i) {
    return h("div", { class: "seat-row" },
      h("label", { class: "seat-label", for: `name-${i}` }, t("lobby.seat", { n: i + 1 })),
      h("input", { id: `name-${i}`, class: "name-input", testid: `name-${i}`, value: form.names[i], maxlength: 24,
        "aria-label": t("lobby.name", { n: i + 1 }), autocomplete: "off",
        oninput: (e) => { form.names[i] = e.target.value; } }),
      h("label", { class: "switch" },
        h("input", { type: "checkbox", testid: `bot-${i}`, checked: form.bots[i],
          onchange: (e) => { form.bots[i] = e.target.checked; draw(); } }),
        h("span", { class: "switch-text" }, form.bots[i] ? t("lobby.computer") : t("lobby.human"))));
  }

  async function start(e) {
    e.preventDefault();
    const btn = e.submitter || root.querySelector("[data-testid=start-game]");
    btn.disabled = true;
    try {
      const names = form.names.map((n, i) => n.trim() || t(`lobby.default.${i}`));
      const bots = form.bots.map((b, i) => (b ? i : -1)).filter((i) => i >= 0);
      const res = await api.create({ game: "pocari_bet", names, bots, simulated: form.simulated });
      location.href = `/?game=${encodeURIComponent(res.id)}`;
    } catch (_) {
      btn.disabled = false; // the toast says why
    }
  }

  function gameItem(g) {
    const when = new Intl.DateTimeFormat(getLang() === "de" ? "de-DE" : "en-GB",
      { dateStyle: "medium", timeStyle: "short" }).format(new Date(g.created));
    return h("li", {},
      h("a", { class: "game-link", href: `/?game=${encodeURIComponent(g.id)}`, testid: `game-${g.id}` },
        h("span", { class: "game-names" }, g.names.map((n, i) =>
          h("span", { class: "game-name" }, n, g.bots.includes(i) ? h("small", {}, ` (${t("lobby.computerShort")})`) : null))),
        h("span", { class: "game-meta" }, when, " · ", t(g.simulated ? "lobby.simShort" : "lobby.realShort")),
        h("span", { class: "game-go" }, t(g.status === "open" ? "lobby.resume" : "lobby.show"), " ›")));
  }

  function list(title, items, testid) {
    return h("section", { class: "panel games", testid },
      h("h2", {}, title),
      items.length ? h("ul", { class: "game-list" }, items.map(gameItem)) : h("p", { class: "muted" }, t("lobby.none")));
  }

  function draw() {
    document.title = t("app.title");
    replace(root, h("div", { class: "lobby" },
      h("form", { class: "panel new-game", testid: "new-game", onsubmit: start },
        h("h1", {}, t("lobby.title")),
        [0, 1, 2].map(seatRow),
        h("label", { class: "switch sim-switch" },
          h("input", { type: "checkbox", testid: "simulated", checked: form.simulated,
            onchange: (e) => { form.simulated = e.target.checked; } }),
          h("span", { class: "switch-text" }, t("lobby.simulated"))),
        h("button", { type: "submit", class: "big primary huge", testid: "start-game" }, t("lobby.start"))),
      list(t("lobby.open"), games.filter((g) => g.status === "open"), "open-games"),
      list(t("lobby.finished"), games.filter((g) => g.status !== "open"), "finished-games")));
  }

  onLangChange(draw);
  draw();
  api.games().then((g) => { games = g; draw(); }).catch(() => {});
}
