// Which renderer draws which game. A game without one of its own gets the generic renderer,
// which makes any game playable from its view alone; a game's own renderer overrides only the
// parts it draws better (its moves, its chance pickers, its players, its result).
//
// A renderer is an object of optional parts (see generic.js):
//   playerCard(player, view, {compact}) · side(view) -> [panels] · result(view, {compact})
//   moveBuilders: {kind: (moves, view, run) -> nodes} · choice(view, outcomes, ui, act) -> node|null
//   movesHead(view, act) -> node|null (above the moves; act.estimates() asks for move estimates)
//   secretChoice(view, outcomes, act) (phone) · phoneMe(view) · phoneExtra(view) -> [panels]
//   overExtra(view) · overTitle (catalogue key)
//   joinAtTop: before the first move the join panel leads the whole table (else: the side column's top)
//   feedBesideMoves: the feed of the night right under the moves (else: at the side column's top)
import generic from "./generic.js";
import genmaicha from "./genmaicha.js";
import izakaya from "./izakaya.js";
import pocariBet from "./pocari_bet.js";
import tokyoMetro from "./tokyo_metro.js";

const RENDERERS = {
  genmaicha,
  izakaya,
  pocari_bet: pocariBet,
  tokyo_metro: tokyoMetro,
  // One METRO engine plays three games; their views differ only in what the variant adds.
  osaka_metro: tokyoMetro,
  metro_drinks: tokyoMetro,
};

export function rendererFor(gameId) {
  return { ...generic, ...(RENDERERS[gameId] || {}), id: gameId };
}
