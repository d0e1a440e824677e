// The lobby: pick a game and its seats (names, computer or person), or resume a game.
import { h, replace } from "./dom.js";
import { t, dateTime, onLangChange, gameName } from "./i18n.js";
import { api } from "./api.js";
import { tableCardsPicker, tableCardsChoice } from "./lobby_table_cards.js";
import { choiceRows, chosenOptions, forgetChoices } from "./lobby_choices.js";

const MAX_SEATS = 8; // the API takes up to 8 names
const FALLBACK_TYPES = [{ id: "pocari_bet", players: [3] }];

function defaultSeats(allowed) {
  return allowed.includes(3) ? 3 : allowed[0];
}

export function startLobby(root) {
  const form = {
    game: null,
    seats: 3,
    names: [...Array(MAX_SEATS).keys()].map((i) => t(`lobby.default.${i}`)),
    bots: [...Array(MAX_SEATS).keys()].map((i) => i > 0),
    simulated: true,
    // and the game's choices picked, under the option's name (lobby_choices.js): form.system, ...
  };
  let types = null;
  let games = [];

  const typeOf = (id) => (types || []).find((g) => g.id === id);
  const allowedOf = (id) => typeOf(id).players.filter((n) => n >= 1 && n <= MAX_SEATS);

  function chooseGame(id) {
    forgetChoices(typeOf(form.game), form);
    form.game = id;
    const allowed = allowedOf(id);
    if (!allowed.includes(form.seats)) form.seats = defaultSeats(allowed);
    draw();
  }

  function gamePicker() {
    return h("div", { class: "choice-row game-choice", role: "radiogroup", "aria-label": t("lobby.game") },
      types.map((g) => h("button", { type: "button", class: `choice${g.id === form.game ? " on" : ""}`,
        testid: `gametype-${g.id}`, role: "radio", "aria-checked": g.id === form.game ? "true" : "false",
        onclick: () => chooseGame(g.id) }, gameName(g.id))));
  }

  function seatsPicker() {
    const allowed = allowedOf(form.game);
    if (allowed.length < 2) {
      return h("p", { class: "muted seats-fixed", testid: "seats-fixed" }, t("lobby.playersN", { n: form.seats }));
    }
    return h("div", { class: "choice-row seats-choice", role: "radiogroup", "aria-label": t("lobby.players") },
      allowed.map((n) => h("button", { type: "button", class: `choice choice-num${n === form.seats ? " on" : ""}`,
        testid: `seats-${n}`, role: "radio", "aria-checked": n === form.seats ? "true" : "false",
        "aria-label": t("lobby.playersN", { n }), onclick: () => { form.seats = n; draw(); } }, String(n))));
  }

  function seatRow(i) {
    return h("div", { class: "seat-row" },
      h("label", { class: "seat-label", for: `name-${i}` }, t("lobby.seat", { n: i + 1 })),
      h("input", { id: `name-${i}`, class: "name-input", testid: `name-${i}`, value: form.names[i], maxlength: 24,
        "aria-label": t("lobby.name", { n: i + 1 }), autocomplete: "off",
        oninput: (e) => { form.names[i] = e.target.value; } }),
      seatKind(i));
  }

  // Who plays the seat: a person or the computer, both named, one chosen (a single box whose
  // label flipped between the two read as "not a person" when unticked).
  function seatKind(i) {
    const option = (bot, key, testid) => h("label", { class: `seat-kind-option${form.bots[i] === bot ? " on" : ""}` },
      h("input", { type: "radio", name: `seat-kind-${i}`, testid, checked: form.bots[i] === bot,
        onchange: () => { form.bots[i] = bot; draw(); } }),
      h("span", {}, t(key)));
    return h("div", { class: "seat-kind", role: "radiogroup", "aria-label": t("lobby.seatKind", { n: i + 1 }) },
      option(false, "lobby.human", `person-${i}`), option(true, "lobby.computer", `bot-${i}`));
  }

  // A game that throws into the tower may use the simulated tower; another one (TOKYO METRO) has
  // only chance to simulate: the cards turned up, the ties broken.
  function simulatedBox() {
    const type = typeOf(form.game);
    const tower = !type || type.tower !== false;
    return h("label", { class: "switch sim-switch", dataset: { tower: String(tower) } },
      h("input", { type: "checkbox", testid: "simulated", checked: form.simulated,
        onchange: (e) => { form.simulated = e.target.checked; } }),
      h("span", { class: "switch-text", testid: "simulated-label" }, t(tower ? "lobby.simulated" : "lobby.simulatedChance")));
  }

  async function start(e) {
    e.preventDefault();
    const btn = e.submitter || root.querySelector("[data-testid=start-game]");
    btn.disabled = true;
    try {
      const seats = [...Array(form.seats).keys()];
      const names = seats.map((i) => form.names[i].trim() || t(`lobby.default.${i}`));
      const bots = seats.filter((i) => form.bots[i]);
      const options = chosenOptions(typeOf(form.game), form);
      const res = await api.create({ game: form.game, names, bots, simulated: form.simulated,
        ...(options ? { options } : {}), ...tableCardsChoice(form) });
      location.href = `/?game=${encodeURIComponent(res.id)}`;
    } catch (_) {
      btn.disabled = false; // the toast says why
    }
  }

  function gameItem(g) {
    const when = dateTime(g.created);
    if (g.broken) return brokenItem(g, when);
    return h("li", {},
      h("a", { class: "game-link", href: `/?game=${encodeURIComponent(g.id)}`, testid: `game-${g.id}` },
        h("span", { class: "game-names" }, h("span", { class: "game-kind" }, gameName(g.game)), g.names.map((n, i) =>
          h("span", { class: "game-name" }, n, g.bots.includes(i) ? h("small", {}, ` (${t("lobby.computerShort")})`) : null))),
        h("span", { class: "game-meta" }, when, " · ", t(g.simulated ? "lobby.simShort" : "lobby.realShort")),
        h("span", { class: "game-go" }, t(g.status === "open" ? "lobby.resume" : "lobby.show"), " ›")));
  }

  // A game the server set aside (a stored record it cannot read or apply): no way in, the
  // server's message as plain text, and its log as stored.
  function brokenItem(g, when) {
    return h("li", { class: "game-broken", testid: `broken-${g.id}` },
      h("span", { class: "game-names" }, h("span", { class: "game-kind" }, gameName(g.game)),
        g.names.map((n) => h("span", { class: "game-name" }, n))),
      h("span", { class: "game-meta" }, when, " · ", h("strong", {}, t("lobby.broken"))),
      h("p", { class: "broken-message", testid: `broken-message-${g.id}` }, g.broken.message),
      h("a", { class: "broken-log", href: `/api/games/${encodeURIComponent(g.id)}/log.jsonl` }, t("lobby.brokenLog")));
  }

  function list(title, items, testid) {
    return h("section", { class: "panel games", testid },
      h("h2", {}, title),
      items.length ? h("ul", { class: "game-list" }, items.map(gameItem)) : h("p", { class: "muted" }, t("lobby.none")));
  }

  function newGameForm() {
    if (!types) return h("section", { class: "panel new-game" }, h("h1", {}, t("lobby.title")), h("p", { class: "muted" }, t("lobby.loading")));
    return h("form", { class: "panel new-game", testid: "new-game", onsubmit: start },
      h("h1", {}, t("lobby.title")),
      h("h2", { class: "form-label" }, t("lobby.game")), gamePicker(),
      h("a", { class: "how-link", href: `/how/${encodeURIComponent(form.game)}`, target: "_blank", rel: "noopener",
        testid: "lobby-how" }, t("how.title", { game: gameName(form.game) }), " ›"),
      h("h2", { class: "form-label" }, t("lobby.players")), seatsPicker(),
      [...Array(form.seats).keys()].map(seatRow),
      choiceRows(typeOf(form.game), form, draw),
      simulatedBox(),
      tableCardsPicker(form, draw),
      h("button", { type: "submit", class: "big primary huge", testid: "start-game" }, t("lobby.start")));
  }

  function draw() {
    document.title = t("app.title");
    replace(root, h("div", { class: "lobby" },
      newGameForm(),
      list(t("lobby.open"), games.filter((g) => g.status === "open"), "open-games"),
      list(t("lobby.finished"), games.filter((g) => g.status !== "open"), "finished-games"),
      h("p", {}, h("a", { class: "big", href: "/history", testid: "history-link" }, t("lobby.history")))));
  }

  onLangChange(draw);
  draw();
  api.gameTypes().catch(() => FALLBACK_TYPES).then((list) => {
    const usable = (list || []).filter((g) => g.players.some((n) => n >= 1 && n <= MAX_SEATS));
    types = usable.length ? usable : FALLBACK_TYPES;
    const first = typeOf("pocari_bet") ? "pocari_bet" : types[0].id;
    form.game = first;
    form.seats = defaultSeats(allowedOf(first));
    draw();
  });
  api.games().then((g) => { games = g; draw(); }).catch(() => {});
}
