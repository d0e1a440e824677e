// On request, the expected final yen of each legal move, estimated on the server from a few hundred
// random playouts (GET /api/games/ID/estimates), for every game that offers them (the view's
// `offers_estimates`: a game whose secrets can be drawn again for the asking viewer). It is labelled as what it is: an
// estimate, with the number of playouts behind each figure and its spread. The answer belongs to
// one view (game, viewer, seq): after the next move it is gone and the button asks again.
import { h } from "./dom.js";
import { t, yen, num } from "./i18n.js";
import { moveTestId } from "./moves.js";

// The answer on this page: {key, data} once in, {key, busy} while asked, {key, error} on failure.
let held = { key: null };

const keyOf = (view) => `${view.game_id}:${view.viewer}:${view.seq}`;

function answer(view) {
  return held.key === keyOf(view) && held.data ? held.data : null;
}

// Move test id -> stats; group (a METRO card action "GM1/0", or a kind) -> stats. A star marks
// the server's `best`: a move (group) whose playouts beat the runner-up's by more than the noise
// (rules/estimate.py, clearly_best); with a handful of playouts each, usually none.
function indexOf(data) {
  if (data.index) return data.index;
  const moves = new Map();
  const groups = new Map();
  for (const seat of data.seats) {
    for (const m of seat.moves) moves.set(moveTestId(m.move), m);
    for (const g of seat.groups) groups.set(g.group, g);
  }
  data.index = { moves, groups };
  return data.index;
}

const round10 = (v) => Math.round(v / 10) * 10;

function badge(stats, testid) {
  if (!stats.n) {
    return h("span", { class: "est none", testid, dataset: { n: "0" }, title: t("est.noneTitle") },
      t("est.none"));
  }
  const isBest = stats.best === true;
  return h("span", { class: `est${isBest ? " best" : ""}`, testid,
    dataset: { n: String(stats.n), mean: String(stats.mean), low: String(stats.low), high: String(stats.high),
      best: String(isBest) },
    title: [t("est.title", { n: num(stats.n), mean: yen(stats.mean), sd: yen(stats.sd), low: yen(stats.low),
      high: yen(stats.high) }), isBest ? t("est.bestTitle") : null].filter(Boolean).join(" ") },
  isBest ? "★ " : "", h("span", { class: "est-mean" }, t("est.badge", { yen: yen(round10(stats.mean)) })),
  stats.n > 1 ? h("span", { class: "est-sd" }, ` ±${num(round10(stats.sd))}`) : null,
  h("span", { class: "est-n" }, ` ·${num(stats.n)}`));
}

// Put each move's (and each card action group's) estimate on its button; buttons drawn later (a
// group opened) get theirs when the moves panel redraws its marks.
export function paintEstimates(root, view) {
  const data = answer(view);
  if (!data) return;
  const ix = indexOf(data);
  for (const b of root.querySelectorAll("button[data-testid^='move-']")) {
    if (b.querySelector(".est")) continue;
    const stats = ix.moves.get(b.dataset.testid);
    if (stats) b.append(badge(stats, `est-${b.dataset.testid}`));
  }
  for (const g of root.querySelectorAll(".m-group[data-action-key]")) {
    const head = g.querySelector(".m-group-head");
    const stats = ix.groups.get(g.dataset.actionKey);
    if (head && stats && !head.querySelector(".est")) {
      head.append(badge(stats, `est-group-${g.dataset.actionKey.replace("/", "-")}`));
    }
  }
}

// Above the moves: the button, then what the figures are (how many playouts, what they assume).
export function estimatePanel(view, act) {
  // Estimates are for the people's own moves, not for a computer's move held for a tap.
  if (!act || !act.estimates || view.over || !view.moves.some((m) => !view.bots.includes(m.move.player))) return null;
  const key = keyOf(view);
  const data = answer(view);
  const busy = held.key === key && held.busy;
  const ask = async () => {
    held = { key, busy: true };
    act.rerender();
    try {
      const got = await act.estimates();
      if (held.key === key) held = { key, data: got };
    } catch (_) {
      if (held.key === key) held = { key: null }; // the toast told why; the button is back
    }
    act.rerender();
  };
  // (the view in its look: a redraw keeps a button only while it would ask for the same view)
  const button = h("button", { class: "big subtle est-btn", type: "button", testid: "estimate-btn",
    disabled: busy || Boolean(data), "aria-busy": busy ? "true" : null, dataset: { for: key }, onclick: ask },
  busy ? t("est.busy") : t("est.button"));
  if (!data) {
    return h("div", { class: "est-panel", testid: "estimates" }, button,
      h("span", { class: "hint" }, t("est.hint")));
  }
  const mine = data.seats[0];
  const all = mine ? mine.overall : null;
  return h("div", { class: "est-panel ready", testid: "estimates",
    dataset: { playouts: String(data.playouts), seq: String(data.seq) } },
  h("p", { class: "est-label", testid: "estimates-label" }, h("strong", {}, t("est.title.head")), " ",
    t("est.label", { n: num(data.playouts) }),
    data.capped ? ` ${t("est.capped", { n: num(data.playouts) })}` : "", " ", t("est.starNote")),
  all && all.n ? h("p", { class: "est-overall", testid: "estimates-overall" },
    t("est.overall", { yen: yen(round10(all.mean)), low: yen(all.low), high: yen(all.high) })) : null);
}
