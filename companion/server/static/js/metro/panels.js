// TOKYO METRO: the players, the lines (value, shares, speculations, tempo), what everyone would
// end with if the game ended now, and the end scoring line by line.
import { h, on, island } from "../dom.js";
import { t, yen, num } from "../i18n.js";
import { yenEl, playerHead, isActing, roundText, phaseText } from "../parts.js";
import { lineBadge, seatDot, playerColour, inkOn, initial, vehiclesOf } from "./common.js";
import { playerDrinks } from "./drinks.js";
import { cardEl } from "./cards.js";
import { runRemaining } from "./animate.js";
import { stackOnPhone } from "../stack.js";

const ordinal = (n) => t("metro.player.order", { n: n + 1 });

function stat(key, value, testid, extra = "") {
  return h("span", { class: `m-stat ${extra}`.trim(), testid, title: t(`metro.stat.${key}`) },
    h("span", { class: "m-stat-label" }, t(`metro.stat.${key}`)), h("span", { class: "m-stat-value" }, value));
}

// What a player holds on the lines: shares (#1..), speculations (stake).
export function holdings(st, seat) {
  const shares = [];
  const specs = [];
  for (const line of st.lines) {
    for (const sh of line.shares) if (sh.holder === seat) shares.push({ line: line.letter, number: sh.number });
    for (const sp of line.speculations) if (sp.seat === seat) specs.push({ line: line.letter, stake: sp.stake });
  }
  return { shares, specs };
}

// A speculation disc, said in words ("T speculates ¥500"); at the end its stake is settled (0).
function specHold(st, x) {
  return h("span", { class: "m-hold spec", title: t("metro.player.spec", { line: x.line, yen: yen(x.stake) }) },
    lineBadge(st, x.line, { cls: "sm" }), x.stake ? t("metro.player.specShort", { yen: yen(x.stake) }) : t("metro.player.specSettled"));
}

function projected(view, seat) {
  const pay = view.payouts || {};
  return Array.isArray(pay.projected) ? pay.projected[seat] : null;
}

function pieceIcon(st, p) {
  const colour = playerColour(p.seat);
  return h("span", { class: "m-piece", style: `background:${colour};color:${inkOn(colour)}`, "aria-hidden": "true" },
    initial(p.name));
}

export function playerCard(p, view, { compact = false } = {}) {
  const st = view.state;
  const acting = isActing(p, view);
  const { shares, specs } = holdings(st, p.seat);
  const proj = projected(view, p.seat);
  const where = p.riding ? t("metro.player.riding", { line: p.riding })
    : p.meeple ? t("metro.player.at", { field: `${p.meeple[0]}·${p.meeple[1]}` }) : t("metro.player.offBoard");
  const stats = h("div", { class: "m-stats" },
    stat("discs", `${p.discs_free}/${p.discs}`, `player-${p.seat}-discs`),
    stat("pyramids", num(p.pyramids), `player-${p.seat}-pyramids`),
    stat("tempo", num(p.tempo), `player-${p.seat}-tempo`),
    p.bicycle ? stat("bicycle", "✓", `player-${p.seat}-bicycle`) : null,
    p.loans ? stat("loans", num(p.loans), `player-${p.seat}-loans`, "bad") : null,
    stat("speculations", num(p.speculations_left), `player-${p.seat}-specs-left`),
    p.bid_bonus ? stat("bidBonus", yen(p.bid_bonus), `player-${p.seat}-bid-bonus`) : null,
    p.set_aside ? stat("setAside", yen(p.set_aside), `player-${p.seat}-set-aside`) : null,
    p.discs_boxed ? stat("discsBoxed", num(p.discs_boxed), `player-${p.seat}-discs-boxed`) : null,
    st.phase === "bid" ? stat("bid", p.has_bid ? (p.bid !== null && p.bid !== undefined ? yen(p.bid) : "✓") : "…",
      `player-${p.seat}-has-bid`) : null);
  const holds = shares.length || specs.length ? h("div", { class: "m-holds", testid: `player-${p.seat}-holdings` },
    shares.map((x) => h("span", { class: "m-hold share", title: t("metro.player.share", { line: x.line, n: x.number }) },
      lineBadge(st, x.line, { cls: "sm" }), `#${x.number}`)),
    specs.map((x) => specHold(st, x))) : null;
  return h("section", { class: `player metro-player${acting ? " acting" : ""}${compact ? " compact" : ""}`,
    testid: `player-${p.seat}`, "aria-current": acting ? "true" : null, style: `--pc:${playerColour(p.seat)}` },
  playerHead(p, view, acting),
  h("div", { class: "m-money" }, pieceIcon(st, p), yenEl(p.yen, `player-${p.seat}-yen`),
    h("span", { class: "m-order", title: t("metro.player.orderTitle") }, ordinal(p.order))),
  proj !== null && proj !== undefined && !view.over ? h("div", { class: "m-projected", testid: `player-${p.seat}-projected`,
    dataset: { value: String(proj) }, title: t("metro.player.projectedTitle") }, t("metro.player.projected", { yen: yen(proj) })) : null,
  compact ? null : h("div", { class: "m-where muted" }, where),
  stats, holds, playerDrinks(st, p, `player-${p.seat}-drinks`),
  !compact && p.cards && p.cards.length ? h("div", { class: "m-player-cards" },
    p.cards.map((c) => cardEl(view, c, { interactive: false, cls: "mini" }))) : null);
}

// The lines: value (and the two numbers), shares and their holders, speculations, tempo, train.
export function linesPanel(view) {
  const st = view.state;
  return h("section", { class: "panel metro-lines", testid: "lines-panel" },
    h("h2", {}, t("metro.lines.title")),
    h("div", { class: "payouts-wrap" }, h("table", { class: "payouts m-lines-table" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("metro.lines.line")),
        h("th", { scope: "col", class: "num" }, t("metro.lines.value")),
        h("th", { scope: "col" }, t("metro.lines.shares")),
        h("th", { scope: "col" }, t("metro.lines.more")))),
      h("tbody", {}, st.lines.map((l) => h("tr", { testid: `line-${l.letter}`, dataset: { value: String(l.value) } },
        h("th", { scope: "row" }, lineBadge(st, l.letter), vehicleTag(l)),
        h("td", { class: "num" }, h("strong", {}, num(l.value)), h("div", { class: "m-split muted" }, `${num(l.high)}/${num(l.low)}`)),
        h("td", {}, h("span", { class: "m-shares" }, l.shares.map((sh) => (sh.holder !== null
          ? seatDot(st, sh.holder, { cls: "sm" })
          : h("span", { class: "m-share-free", title: t("metro.lines.surcharge", { yen: yen(sh.surcharge) }) },
            sh.surcharge ? `+${num(sh.surcharge)}` : "○"))))),
        h("td", { class: "m-more" },
          l.speculations.map((sp) => h("span", { class: "m-hold spec" }, seatDot(st, sp.seat, { cls: "sm" }), yen(sp.stake))),
          l.tempo ? h("span", { class: "m-tempo" }, t("metro.lines.tempo", { n: l.tempo })) : null,
          discSpaces(l),
          vehiclesOf(l).map((v) => h("span", { class: "m-train-pos", title: t("metro.lines.trainAt"),
            testid: `line-${l.letter}-at-${v.vehicle || 0}`,
            style: `background:${l.colour};color:${inkOn(l.colour)}` }, v.dir > 0 ? `${v.stop} ›` : `‹ ${v.stop}`)))))))));
}

// OSAKA METRO: a tram or bus line (two vehicles) says so beside its letter.
function vehicleTag(l) {
  const kind = typeof l.vehicle === "string" ? l.vehicle : "train";
  if (kind === "train") return null;
  return h("span", { class: `m-vehicle-tag ${kind}`, testid: `line-${l.letter}-vehicle`, dataset: { kind },
    title: t(`metro.lines.vehicle.${kind}`) }, t(`metro.lines.vehicleShort.${kind}`));
}

// The line's disc spaces (tempo tokens and speculations share them): free ones open, used ones full.
function discSpaces(l) {
  const n = Number.isInteger(l.disc_spaces) ? l.disc_spaces : 0;
  if (!n) return null;
  const free = Math.max(0, Math.min(n, l.free_spaces ?? n));
  return h("span", { class: "m-disc-spaces", testid: `line-${l.letter}-spaces`, dataset: { spaces: String(n), free: String(free) },
    title: t("metro.lines.discSpaces", { n, free }) }, "●".repeat(n - free) + "○".repeat(free));
}

function scoringRows(st, sc) {
  return sc.lines.filter((l) => l.value || l.shares.length || l.speculations.length).map((l) => h("tr", {
    testid: `score-line-${l.line}`, dataset: { value: String(l.value), after: String(l.value_after_speculation) } },
  h("th", { scope: "row" }, lineBadge(st, l.line)),
  h("td", { class: "num" }, num(l.value)),
  h("td", {}, l.speculations.length ? l.speculations.map((sp) => h("span", { class: "m-hold",
    dataset: { seat: String(sp.seat), stake: String(sp.stake), paid: String(sp.paid) } }, seatDot(st, sp.seat, { cls: "sm" }),
    `${yen(sp.stake)} → +${yen(sp.paid)}`)) : "—"),
  h("td", { class: "num" }, num(l.value_after_speculation)),
  h("td", {}, l.shares.length ? l.shares.map((sh) => h("span", { class: `m-hold${sh.void ? " void" : ""}`,
    testid: `score-share-${l.line}-${sh.share}`, dataset: { seat: String(sh.seat), paid: String(sh.paid) } },
    seatDot(st, sh.seat, { cls: "sm" }), `#${sh.share} ${yen(sh.paid)}`)) : "—")));
}

// The end scoring line by line, then each player's sum.
const SUM_KEYS = ["yen", "speculation", "stakes_returned", "shares", "set_aside", "loans", "totals"];

const sumKeys = (sc) => SUM_KEYS.filter((k) => k !== "set_aside" || (Array.isArray(sc.set_aside) && sc.set_aside.some(Boolean)));

function sumRow(st, sc, p) {
  const cell = (k) => {
    const v = sc[k][p.seat];
    return h("td", { class: `num${k === "totals" ? " paid" : ""}`, dataset: { field: k, value: String(v) } },
      k === "loans" && v ? `−${yen(v)}` : yen(v));
  };
  return h("tr", { testid: `score-seat-${p.seat}` },
    h("th", { scope: "row" }, seatDot(st, p.seat, { cls: "sm" }), " ", p.name), sumKeys(sc).map(cell));
}

export function scoringTable(view, sc, { testid = "scoring" } = {}) {
  const st = view.state;
  if (!sc || !sc.lines) return null;
  const rows = scoringRows(st, sc);
  const lineHead = ["line", "value", "speculations", "after", "shares"].map((k) => h("th", { scope: "col",
    class: k === "value" || k === "after" ? "num" : null }, t(`metro.score.${k}`)));
  const lineTable = h("table", { class: "payouts m-score-lines" },
    h("thead", {}, h("tr", {}, lineHead)),
    h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: "5", class: "muted" }, t("metro.score.noLines")))));
  const sumHead = [h("th", { scope: "col" }, t("result.player")),
    sumKeys(sc).map((k) => h("th", { scope: "col", class: "num" }, t(`metro.score.${k}`)))];
  const sumTable = h("table", { class: "payouts m-score-sum" },
    h("thead", {}, h("tr", {}, sumHead)),
    h("tbody", {}, st.players.map((p) => sumRow(st, sc, p))));
  return h("div", { class: "m-scoring", testid },  // row by row on a phone (no sideways scrolling)
    h("div", { class: "payouts-wrap" }, stackOnPhone(lineTable)), h("div", { class: "payouts-wrap" }, stackOnPhone(sumTable)));
}

// During the game: what everyone would end with now (folded: the line by line table opens).
export function projectionPanel(view) {
  const pay = view.payouts;
  if (!pay || !pay.scoring || view.over) return null;
  const st = view.state;
  const box = h("details", { class: "panel metro-projection", testid: "projection" },
    h("summary", {}, h("h2", {}, t("metro.score.projectedTitle")),
      h("span", { class: "m-proj-list" }, st.players.map((p) => h("span", { class: "m-proj-item" }, seatDot(st, p.seat, { cls: "sm" }),
        " ", yen(pay.projected[p.seat]))))));
  let filled = false;
  on(box, "toggle", () => {
    if (box.open && !filled) { filled = true; box.append(h("p", { class: "hint" }, t("metro.score.projectedHint")), scoringTable(view, pay.scoring, { testid: "projection-table" })); }
  });
  return box;
}

export function supplyPanel(view) {
  const st = view.state;
  const sup = st.supply || {};
  const bids = st.last_bids;
  return h("section", { class: "panel metro-supply", testid: "supply" },
    h("h2", {}, t("metro.supply.title")),
    h("div", { class: "m-stats" },
      stat("tempoSupply", num(sup.tempo ?? 0), "supply-tempo"),
      stat("bicycles", num(sup.bicycles ?? 0), "supply-bicycles"),
      stat("loanSupply", num(sup.loans ?? 0), "supply-loans"),
      stat("bank", yen(st.bank ?? 0), "bank")),
    bids ? h("p", { class: "m-bids" }, h("span", { class: "label" }, t("metro.supply.lastBids")), " ",
      bids.map((b) => h("span", { class: "m-hold" }, seatDot(st, b.seat, { cls: "sm" }), yen(b.bid),
        b.bonus ? ` +${yen(b.bonus)}` : ""))) : null);
}

// A phone: my money, where the game is, my pieces and holdings.
export function phoneMe(view) {
  const st = view.state;
  const mine = st.players.find((p) => p.seat === view.viewer) || {};
  const proj = projected(view, mine.seat);
  const { shares, specs } = holdings(st, mine.seat);
  return h("section", { class: "panel me metro-me", testid: "me", style: `--pc:${playerColour(mine.seat ?? 0)}` },
    h("div", { class: "me-info" },
      h("div", { class: "me-line" }, pieceIcon(st, mine), yenEl(mine.yen ?? 0, "my-yen", "yen my-yen"),
        h("span", { class: "m-order" }, ordinal(mine.order ?? 0))),
      proj !== null && proj !== undefined && !view.over ? h("div", { class: "me-line small m-projected", testid: "my-projected" },
        t("metro.player.projected", { yen: yen(proj) })) : null,
      // Round and phase wrap as two pieces (a "·" between them was left dangling at a line's end).
      h("div", { class: "me-line small m-when" }, roundText(st) ? h("span", { class: "round", testid: "round" }, roundText(st)) : null,
        h("span", { class: "phase", testid: "phase", dataset: { phase: st.phase } }, phaseText(st))),
      mine.bid !== null && mine.bid !== undefined ? h("div", { class: "me-line small", testid: "my-bid" },
        t("metro.player.myBid", { yen: yen(mine.bid) })) : null,
      h("div", { class: "m-stats" },
        stat("discs", `${mine.discs_free}/${mine.discs}`, "my-discs"),
        stat("pyramids", num(mine.pyramids ?? 0), "my-pyramids"),
        stat("tempo", num(mine.tempo ?? 0), "my-tempo"),
        mine.bicycle ? stat("bicycle", "✓", "my-bicycle") : null,
        mine.loans ? stat("loans", num(mine.loans), "my-loans", "bad") : null,
        mine.set_aside ? stat("setAside", yen(mine.set_aside), "my-set-aside") : null),
      playerDrinks(st, mine, "my-drinks"),
      shares.length || specs.length ? h("div", { class: "m-holds" },
        shares.map((x) => h("span", { class: "m-hold share" }, lineBadge(st, x.line, { cls: "sm" }), `#${x.number}`)),
        specs.map((x) => specHold(st, x))) : null));
}


// METRO DRINKS: the station bonus the owners got for the drinks at their stations (in the income).
function drinkBonusLine(st, last) {
  const per = new Map();
  for (const b of last.drink_bonuses || []) per.set(b.owner, (per.get(b.owner) || 0) + b.yen);
  if (!per.size) return null;
  return h("p", { class: "m-note m-drink-bonus", testid: "last-run-bonus" }, t("metro.drinks.bonusPaid"), " ",
    [...per].map(([seat, y]) => h("span", { class: "m-hold", testid: `last-run-bonus-${seat}`, dataset: { yen: String(y) } },
      seatDot(st, seat, { cls: "sm" }), `+${yen(y)}`)));
}

// What the latest train phase paid whom, once the trains have run (and stopped gliding on the map:
// until then the panel waits, so that the map tells the story first).
export function lastRunPanel(view) {
  const st = view.state;
  const last = st.last_run;
  if (!last || !last.done || view.over) return null;
  const counts = new Map();
  for (const pay of last.payouts) if (pay.to_owner) counts.set(pay.owner, (counts.get(pay.owner) || 0) + 1);
  const earners = st.players.filter((p) => last.owner_income[p.seat]);
  const payers = st.players.filter((p) => last.fares_paid[p.seat]);
  const rises = Object.entries(last.value_rise).filter(([, v]) => v);
  const wait = runRemaining();
  const box = h("section", { class: `panel metro-last-run${wait ? " waiting" : ""}`, testid: "last-run",
    dataset: { round: String(last.round) } },
  h("h2", {}, t("metro.last.title", { round: last.round })),
  earners.length ? h("ul", { class: "m-last-list" }, earners.map((p) => h("li", { testid: `last-run-seat-${p.seat}`,
    dataset: { income: String(last.owner_income[p.seat]) } }, seatDot(st, p.seat, { cls: "sm" }), " ",
  t("metro.last.income", { name: p.name, yen: yen(last.owner_income[p.seat]), n: counts.get(p.seat) || 0 }))))
    : h("p", { class: "muted" }, t("metro.last.nobody")),
  payers.length ? h("p", { class: "m-note" }, payers.map((p) => t("metro.last.fares",
    { name: p.name, yen: yen(last.fares_paid[p.seat]) })).join(" · ")) : null,
  rises.length ? h("p", { class: "m-last-rise" }, h("span", { class: "label" }, t("metro.last.rise")), " ",
    rises.map(([letter, v]) => h("span", { class: "m-hold", testid: `last-run-line-${letter}`, dataset: { rise: String(v) } },
      lineBadge(st, letter, { cls: "sm" }), `+${num(v)}`))) : null,
  drinkBonusLine(st, last),
  last.left.length ? h("p", { class: "m-note" }, t("metro.last.left", { lines: last.left.join(", ") })) : null);
  if (wait) setTimeout(() => box.classList.remove("waiting"), wait + 50);
  return island(box);  // (the timer holds it)
}
