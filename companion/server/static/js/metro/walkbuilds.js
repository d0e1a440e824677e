// METRO DRINKS: vending machines built along the way of a move action (a shape card's free
// builds). The engine lists a move action's targets without builds (they would be too many:
// docs/rules-notes.md, METRO DRINKS row 10); a person picks the builds here, a station and a
// drink of their supply each, in the order of the way, and then taps where the meeple goes, on a
// button or on the map: that move carries the builds (`builds: [{station, drink}]`). The engine
// checks that one way to the target touches every station picked, and says so if none does.
//
// The stations offered: with a pyramid and no drink yet, touching the meeple's field or a field
// the move can reach (any field on a way of up to the move's steps is one of those).
import { h, replace, island } from "../dom.js";
import { t } from "../i18n.js";
import { drinkSvg } from "../drinks.js";
import { colRow, stationName } from "./common.js";
import { drinksOf } from "./drinks.js";
import { ui } from "./ui.js";

// Whether the seat builds free this phase (it took a shape card).
export function freeBuilder(st, seat) {
  const d = drinksOf(st);
  if (!d) return false;
  const who = Array.isArray(d.free_builders) ? d.free_builders : [d.free_builds];
  return who.includes(seat);
}

// The builds picked for this card action on this view ([] when none).
function picked(view, key) {
  const w = ui.walkBuilds;
  return w && w.seq === view.seq && w.key === key ? w.list : [];
}

// The move a tile or a map tap makes: the target with the builds picked for its card action.
export function withBuilds(view, key) {
  return (move) => {
    const list = picked(view, key);
    return list.length ? { ...move, args: { ...move.args, builds: list.map((b) => ({ ...b })) } } : move;
  };
}

function candidates(view, ix, moves) {
  const st = view.state;
  const d = drinksOf(st);
  const seat = moves[0].move.player;
  const me = st.players.find((p) => p.seat === seat);
  const fields = new Set(moves.map((m) => colRow(ix, m.move.args.field).join(",")));
  if (me && me.meeple) fields.add(me.meeple.join(","));
  const built = new Set((st.pyramids || []).map((p) => p.station));
  const vending = new Set((d.stations || []).map((x) => x.station));
  const out = [];
  for (const station of ix.stations.values()) {
    if (!built.has(station.id) || vending.has(station.id)) continue;
    if (station.circles.some((c) => c.fields.some((f) => fields.has(f.join(","))))) out.push(station.id);
  }
  return out;
}

// The picker at the top of a move action's group (null when the seat has no free builds, no
// drinks or no station on its way to build at).
export function buildsPicker(view, ix, key, moves) {
  const st = view.state;
  const seat = moves[0].move.player;
  if (!freeBuilder(st, seat)) return null;
  const me = st.players.find((p) => p.seat === seat) || {};
  const supply = me.drinks || [];
  const stations = candidates(view, ix, moves);
  if (!supply.length || !stations.length) return null;
  const box = island(h("div", { class: "m-walk-builds", testid: `walk-builds-${key.replace("/", "-")}` }));  // (its buttons redraw it)
  const set = (list) => {
    ui.walkBuilds = { seq: view.seq, key, list };
    draw();
  };
  function draw() {
    const list = picked(view, key);
    const used = new Set(list.map((b) => b.drink));
    const left = [...new Set(supply.filter((x) => !used.has(x)))];
    const done = new Set(list.map((b) => b.station));
    replace(box,
      h("p", { class: "hint" }, t("metro.walkBuilds.hint")),
      list.length ? h("p", { class: "m-walk-list", testid: "walk-builds-list", dataset: { n: String(list.length) } },
        list.map((b, i) => h("span", { class: "m-hold" }, `${i + 1}. `, drinkSvg(b.drink, "m-drink-tile"),
          stationName(ix, b.station))),
        h("button", { type: "button", class: "subtle m-walk-clear", testid: "walk-builds-clear", onclick: () => set([]) },
          t("metro.walkBuilds.clear"))) : null,
      h("div", { class: "m-walk-stations" }, stations.filter((id) => !done.has(id)).map((id) => h("div", {
        class: "m-walk-station", dataset: { station: id } },
      h("span", { class: "m-walk-name" }, stationName(ix, id)),
      left.slice(0, 6).map((drink) => h("button", { type: "button", class: "m-walk-drink",
        testid: `walk-build-${id}-${drink}`, title: t("metro.walkBuilds.add", { station: stationName(ix, id) }),
        onclick: () => set([...list, { station: id, drink }]) }, drinkSvg(drink, "m-drink-tile")))))));
  }
  draw();
  return box;
}
