// "How to play" (/how/<game>; /how lists the games): the aim, the setup, a round, the end and
// the scoring, and every kind of move with its teach text and the rule-book section it follows.
// The words are the catalogues' (how.<game>.*, teach.<game>.*), in the project's own words; the
// kinds and their sections come from GET /api/game-types/<game>. No key: nothing here is secret.
import { h, replace, langToggle } from "./dom.js";
import { t, template, applyStatic, onLangChange, gameName, useGame, wordsOf } from "./i18n.js";

const app = document.getElementById("app");
const brand = document.getElementById("brand-game");
document.getElementById("lang-slot").append(langToggle());
applyStatic();

const PARTS = ["aim", "setup", "turn", "end"];
const gameId = decodeURIComponent(location.pathname.replace(/^\/how\/?/, "").split("/")[0] || "");

async function getJson(url) {
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  if (!res.ok) throw Object.assign(new Error(`${res.status}`), { status: res.status });
  return res.json();
}

function playersText(players) {
  const lo = Math.min(...players);
  const hi = Math.max(...players);
  return t("how.players", { count: hi, n: hi, range: lo === hi ? String(lo) : `${lo}–${hi}` });
}

// "Invest: put 100 to 300 yen ..." -> the name in bold, then the rest.
function teachItem(game, k) {
  const text = template(`teach.${wordsOf(game)}.${k.kind}`) ?? k.kind;
  const cut = text.search(/: |：/);  // the name ends at a colon (Japanese writes the full-width one)
  return h("li", { class: "how-kind", testid: `how-kind-${k.kind}` },
    cut > 0 ? [h("strong", {}, text.slice(0, cut)), text.slice(cut)] : text,
    k.secret ? h("span", { class: "tag" }, t("how.secret")) : null,
    k.chance ? h("span", { class: "tag tag-chance" }, t("how.byChance")) : null,
    h("span", { class: "teach-rule" }, t("teach.rule", { rule: k.rule })));
}

function drawGame(guide) {
  const game = guide.id;
  document.title = t("how.title", { game: gameName(game) });
  brand.textContent = gameName(game);
  replace(app, h("article", { class: "how", testid: "how", dataset: { game } },
    h("h1", {}, t("how.title", { game: gameName(game) })),
    h("p", { class: "muted", testid: "how-players" }, playersText(guide.players)),
    PARTS.map((part) => h("section", { class: "panel how-part", testid: `how-${part}` },
      h("h2", {}, t(`how.${part}`)), h("p", {}, t(`how.${game}.${part}`)))),
    h("section", { class: "panel how-part", testid: "how-moves" },
      h("h2", {}, t("how.moves")), h("p", { class: "hint" }, t("how.movesHint")),
      h("ul", { class: "how-kinds" }, guide.kinds.map((k) => teachItem(game, k)))),
    h("p", { class: "hint" }, t("how.note")),
    h("p", {}, h("a", { href: "/how", testid: "how-all" }, "‹ ", t("how.back")))));
}

function drawList(types) {
  document.title = t("how.pick");
  brand.textContent = "";
  replace(app, h("article", { class: "how", testid: "how-list" },
    h("h1", {}, t("how.pick")),
    h("ul", { class: "how-games" }, types.map((g) => h("li", {},
      h("a", { class: "big", href: `/how/${encodeURIComponent(g.id)}`, testid: `how-${g.id}` }, gameName(g.id)),
      " ", h("span", { class: "muted" }, playersText(g.players)))))));
}

function drawUnknown() {
  replace(app, h("section", { class: "panel notice", role: "alert", testid: "how-unknown" },
    t("how.unknown", { game: gameId }), " ", h("a", { href: "/how" }, t("how.back"))));
}

async function start() {
  if (!gameId) {
    const types = await getJson("/api/game-types");
    const draw = () => drawList(types);
    draw();
    onLangChange(draw);
    return;
  }
  let guide;
  try {
    guide = await getJson(`/api/game-types/${encodeURIComponent(gameId)}`);
  } catch (err) {
    drawUnknown();
    onLangChange(drawUnknown);
    return;
  }
  await useGame(guide.id);
  drawGame(guide);
  onLangChange(() => useGame(guide.id).then(() => drawGame(guide)));
}

onLangChange(() => applyStatic());
start();
