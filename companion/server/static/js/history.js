// The history page (/history, the host's): the games played with their winners and yen, each
// player's record, the tower's own statistics from every drop, each game's log to download, and a
// log file replayed on the spot. Its words are in static/i18n/<lang>/history.json.
import { h, replace, langToggle } from "./dom.js";
import { t, applyStatic, onLangChange, gameName, drinkName, yen, num, percent as asPercent, dateTime } from "./i18n.js";
import { request, ApiError } from "./api.js";
import { barChart, drinkGrid } from "./charts.js";
import { hostPage } from "./host_page.js";

const PAGE = 20;               // games per page (the API takes up to 100)
const MAX_REPLAY = 200000;     // characters of a log replayed here (server/requests.py MAX_REPLAY_CHARS)
const MAX_BARS = 12;           // players in the wins chart

const app = document.getElementById("app");
document.getElementById("lang-slot").append(langToggle());

const data = { games: [], total: 0, players: null, tower: null, towerKind: null, replay: null };

const percent = (r) => (r === null || r === undefined ? "–"
  : asPercent(r));
const money = (v) => (v === null || v === undefined ? "–" : yen(v));
const playerName = (p) => (p.bot ? `${p.name} (${t("history.computer")})` : p.name);

function when(iso) {
  if (!iso) return "";
  return dateTime(iso);
}

// --- the games --------------------------------------------------------------------------------

function playersLine(g) {
  return h("ul", { class: "result-players" }, g.players.map((p) =>
    h("li", { class: p.winner ? "winner" : "" },
      p.winner ? h("span", { class: "star", "aria-label": t("history.winner") }, "★ ") : null,
      h("span", { class: "who" }, playerName(p)),
      g.status === "set_aside" ? null : h("span", { class: "score" }, money(p.score)))));
}

function gameItem(g) {
  const log = `/api/games/${encodeURIComponent(g.id)}/log.jsonl`;
  const facts = [when(g.created), t(g.simulated ? "lobby.simShort" : "lobby.realShort"),
    t(`history.status.${g.status}`)];
  if (g.status !== "set_aside") facts.push(t("history.moves", { n: g.moves }), t("history.drops", { n: g.drops }));
  if (g.status === "ended") facts.push(t("history.noWinner"));
  return h("li", { class: `history-game status-${g.status}`, testid: `history-game-${g.id}` },
    h("div", { class: "history-game-head" }, h("strong", {}, gameName(g.game)),
      h("span", { class: "muted" }, facts.join(" · "))),
    playersLine(g),
    g.set_aside ? h("p", { class: "broken-message" }, g.set_aside.message) : null,
    h("a", { class: "log-link", href: log, download: `${g.game}-${g.id}.jsonl`, testid: `history-log-${g.id}` },
      t("history.log")));
}

function gamesPanel() {
  const more = data.games.length < data.total
    ? h("button", { class: "big", testid: "history-more", onclick: loadMore }, t("history.more")) : null;
  return h("section", { class: "panel", testid: "history-games" },
    h("h2", {}, t("history.games")),
    data.games.length ? [h("p", { class: "muted" }, t("history.shown", { shown: data.games.length, total: data.total })),
      h("ul", { class: "history-list" }, data.games.map(gameItem)), more]
      : h("p", { class: "muted" }, t("history.none")));
}

async function loadMore() {
  const page = await request("GET", `/api/history?offset=${data.games.length}&limit=${PAGE}`);
  const known = new Set(data.games.map((g) => g.id));
  data.games.push(...page.games.filter((g) => !known.has(g.id)));
  data.total = page.total;
  draw();
}

// --- the players ------------------------------------------------------------------------------

function playerItem(p) {
  const line = (r) => t("history.playerLine", { games: t("history.gamesN", { n: r.games }),
    wins: t("history.winsN", { n: r.wins }), total: yen(r.yen_total),
    average: r.yen_average === null ? t("history.noYen") : yen(r.yen_average) });
  return h("li", { class: "history-player" },
    h("strong", {}, playerName(p)), h("div", {}, line(p)),
    h("details", {}, h("summary", {}, t("history.byGame")),
      h("ul", {}, Object.entries(p.by_game).map(([game, r]) => h("li", {}, h("strong", {}, gameName(game)), " ", line(r))))));
}

function playersPanel() {
  const stats = data.players;
  if (!stats) return null;
  if (!stats.players.length) {
    return h("section", { class: "panel", testid: "history-players" }, h("h2", {}, t("history.players")),
      h("p", { class: "muted" }, t("history.playersNone")));
  }
  const rows = stats.players.slice(0, MAX_BARS).map((p) => ({ label: playerName(p), value: p.wins,
    title: `${playerName(p)}: ${t("history.winsN", { n: p.wins })}, ${t("history.gamesN", { n: p.games })}` }));
  return h("section", { class: "panel", testid: "history-players" },
    h("h2", {}, t("history.players")),
    h("h3", {}, t("history.winsChart")),
    barChart(rows, { label: t("history.winsChart"), testid: "chart-wins" }),
    h("ul", { class: "history-players" }, stats.players.map(playerItem)),
    h("p", { class: "hint" }, t("history.playersNote")));
}

// --- the tower --------------------------------------------------------------------------------

function towerKindChoice() {
  return h("div", { class: "choice-row", role: "radiogroup", "aria-label": t("history.tower") },
    [["real", "history.towerReal"], ["simulated", "history.towerSim"]].map(([kind, key]) =>
      h("button", { type: "button", class: `choice${data.towerKind === kind ? " on" : ""}`, role: "radio",
        "aria-checked": data.towerKind === kind ? "true" : "false", testid: `tower-${kind}`,
        onclick: () => { data.towerKind = kind; draw(); } }, t(key))));
}

function towerPanel() {
  if (!data.tower) return null;
  const books = data.tower[data.towerKind];
  const body = !books.drops && !books.spills ? h("p", { class: "muted", testid: "tower-none" }, t("history.towerNone")) : [
    h("p", { testid: "tower-line" }, t("history.towerLine", {
      drops: t("history.drops", { n: books.drops }), games: t("history.gamesN", { n: books.games }),
      thrown: num(books.thrown), first: num(books.first), stuck: num(books.stuck),
      firstRate: percent(books.first_rate), stuckRate: percent(books.stuck_rate) })),
    h("p", {}, t("history.stuckDrops", { stuckDrops: num(books.stuck_drops), drops: num(books.drops),
      rate: percent(books.stuck_drop_rate), spills: num(books.spills) })),
    h("h3", {}, t("history.heatTitle")),
    drinkGrid((colour, shape) => {
      const id = `${colour}-${shape}`;
      const d = books.drinks[id];
      if (!d || !d.thrown) return { rate: null, text: "", title: t("history.heatEmpty", { drink: drinkName(id) }) };
      return { rate: d.first_rate, text: percent(d.first_rate),
        title: t("history.heatCell", { drink: drinkName(id), first: d.first, thrown: d.thrown,
          rate: percent(d.first_rate), freed: d.freed }) };
    }, { label: t("history.heatTitle"), testid: "chart-drinks" }),
    h("p", { class: "hint" }, t("history.heatLegend")),
  ];
  return h("section", { class: "panel", testid: "history-tower" },
    h("h2", {}, t("history.tower")), towerKindChoice(), body, h("p", { class: "hint" }, t("history.towerHow")));
}

// --- a log replayed ---------------------------------------------------------------------------

async function replayFile(e) {
  const file = e.target.files && e.target.files[0];
  if (!file) return;
  const text = await file.text();
  if (text.length > MAX_REPLAY) {
    data.replay = { error: t("history.replayTooBig", { max: num(MAX_REPLAY) }) };
  } else {
    try {
      data.replay = await request("POST", "/api/history/replay", { log: text }, { quiet: true });
    } catch (err) {
      data.replay = { error: t("history.replayFailed", { why: err instanceof ApiError ? err.message : String(err) }) };
    }
  }
  draw();
}

function replayResult() {
  const r = data.replay;
  if (!r) return null;
  if (r.error) return h("p", { class: "reason", role: "alert", testid: "replay-error" }, r.error);
  const g = r.summary;
  return h("div", { class: "replay-result", testid: "replay-result" },
    h("p", {}, t("history.replayed", { game: gameName(g.game), status: t(`history.status.${g.status}`),
      moves: t("history.moves", { n: g.moves }) })),
    playersLine(g));
}

function replayPanel() {
  return h("section", { class: "panel", testid: "history-replay" },
    h("h2", {}, t("history.replay")),
    h("p", { class: "hint" }, t("history.replayHow")),
    h("label", { class: "big replay-pick" }, t("history.replayPick"),
      h("input", { type: "file", accept: ".jsonl,.json,.txt,application/x-ndjson,text/plain", testid: "replay-file",
        class: "visually-hidden", onchange: replayFile })),
    replayResult());
}

// --- the page ---------------------------------------------------------------------------------

function draw() {
  document.title = t("history.title");
  replace(app, h("div", { class: "history", testid: "history" },
    h("p", {}, h("a", { href: "/" }, "‹ ", t("lobby.back"))),
    h("h1", {}, t("history.title")),
    h("p", { class: "muted" }, t("history.lead")),
    gamesPanel(), playersPanel(), towerPanel(), replayPanel()));
}

async function start() {
  if (!(await hostPage(app, "history"))) return;
  const [page, players, tower] = await Promise.all([
    request("GET", `/api/history?offset=0&limit=${PAGE}`),
    request("GET", "/api/history/players"),
    request("GET", "/api/history/tower"),
  ]);
  Object.assign(data, { games: page.games, total: page.total, players, tower,
    towerKind: tower.real.drops || !tower.simulated.drops ? "real" : "simulated" });
  onLangChange(() => { applyStatic(); draw(); });
  draw();
  app.dataset.ready = "1";
}

applyStatic();
start();
